/* bench_util.h - what the benches' C programs share: the process's CPU
 * time and the order of doubles for qsort (the best and the median of the
 * runs).  Header-only: each bench is one program built by its script. */
#ifndef SW_BENCH_UTIL_H
#define SW_BENCH_UTIL_H

#include <time.h>

/* The process's CPU time in seconds (user and system, every thread). */
static inline double bench_cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* qsort()'s comparison of doubles, smallest first. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
