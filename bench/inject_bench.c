/* inject_bench.c - throughput of sw_inject_scan() for bench/inject.
 *
 * Usage: inject_bench RUNS FLAGS-OUT PAGE...
 *
 * Reads every PAGE file (at most 1 MiB each) into memory, writes the flags
 * each page gets to FLAGS-OUT (one line per page, "NAME N", then one line
 * per flag, "  KIND|EXCERPT"; bench/inject compares two builds' files),
 * then scans all the pages RUNS times on one thread and prints one line:
 *
 *   pages P bytes B flags F best_s S median_s M MB/s R
 *
 * Only sw_inject_scan() and sw_inject_flags_free() are timed (the process's
 * CPU time, so a loaded machine shows less than in wall time); MB means
 * 10^6 bytes.  bench/inject builds this file twice, against the current
 * src/pipeline/inject.c and against a reference revision's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "pipeline/pipeline.h"

#define PAGE_MAX (1u << 20)

struct page {
	char *text;
	size_t len;
	const char *name;
};

static int read_page(struct page *p, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "inject_bench: cannot open %s\n", path);
		return -1;
	}
	p->text = malloc(PAGE_MAX);
	if (!p->text) {
		fclose(fp);
		return -1;
	}
	p->len = fread(p->text, 1, PAGE_MAX, fp);
	fclose(fp);
	const char *slash = strrchr(path, '/');
	p->name = slash ? slash + 1 : path;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: inject_bench RUNS FLAGS-OUT PAGE...\n");
		return 2;
	}
	char *end;
	long runs = strtol(argv[1], &end, 10);
	if (*end || runs < 1 || runs > 1000) {
		fprintf(stderr, "inject_bench: RUNS must be 1 to 1000, not '%s'\n", argv[1]);
		return 2;
	}
	size_t n = (size_t)(argc - 3), bytes = 0, total_flags = 0;
	struct page *pages = calloc(n, sizeof(*pages));
	if (!pages)
		return 1;
	for (size_t i = 0; i < n; i++) {
		if (read_page(&pages[i], argv[3 + i]))
			return 1;
		bytes += pages[i].len;
	}

	FILE *out = fopen(argv[2], "w");
	if (!out) {
		fprintf(stderr, "inject_bench: cannot write %s\n", argv[2]);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct sw_inject_flag *f = NULL;
		size_t nf = 0;
		sw_inject_scan(&f, &nf, pages[i].text, pages[i].len, 1, pages[i].name, NULL, 1);
		fprintf(out, "%s %zu\n", pages[i].name, nf);
		for (size_t k = 0; k < nf; k++)
			fprintf(out, "  %s|%s\n", f[k].kind, f[k].excerpt);
		total_flags += nf;
		sw_inject_flags_free(f, nf);
	}
	if (fclose(out)) {
		fprintf(stderr, "inject_bench: cannot write %s\n", argv[2]);
		return 1;
	}

	double *t = calloc((size_t)runs, sizeof(*t));
	if (!t)
		return 1;
	for (long r = 0; r < runs; r++) {
		double t0 = bench_cpu_now();
		for (size_t i = 0; i < n; i++) {
			struct sw_inject_flag *f = NULL;
			size_t nf = 0;
			sw_inject_scan(&f, &nf, pages[i].text, pages[i].len, 1, pages[i].name, NULL, 1);
			sw_inject_flags_free(f, nf);
		}
		t[r] = bench_cpu_now() - t0;
	}
	qsort(t, (size_t)runs, sizeof(*t), bench_cmp_double);
	printf("pages %zu bytes %zu flags %zu best_s %.6f median_s %.6f MB/s %.2f\n", n, bytes,
	       total_flags, t[0], t[runs / 2], t[0] > 0 ? (double)bytes / 1e6 / t[0] : 0.0);
	for (size_t i = 0; i < n; i++)
		free(pages[i].text);
	free(pages);
	free(t);
	return 0;
}
