/* names_bench.c - speed of case-name matching for bench/names.
 *
 * Usage: names_bench RUNS ANSWERS-OUT STORED CITED
 *
 * STORED and CITED are files of names, one a line (at most 4,096 names of
 * at most 4 KiB each).  Every cited name is compared with every stored one
 * by sw_authority_names_match(), as the gate compares a draft's name with
 * the table's candidates, and reduced by sw_authority_name_key() and
 * sw_authority_name_readable().  What each gives is written to ANSWERS-OUT
 * (bench/names compares two builds' files):
 *
 *   C KEY READABLE MATCHES   (C the cited line, MATCHES the stored lines)
 *
 * then the whole pass is run RUNS times on one thread and one line printed:
 *
 *   cited C stored S compares N best_s B median_s M per_s R
 *
 * Only the three calls (and freeing what they return) are timed, in the
 * process's CPU time; per_s is comparisons a second.  bench/names builds
 * this file twice, against the current src/authority/names.c and against
 * a reference revision's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "authority/authority.h"

#define NAMES_MAX 4096
#define NAME_MAX_BYTES 4096

struct names {
	char *v[NAMES_MAX];
	size_t n;
};

static int read_names(struct names *out, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "names_bench: cannot open %s\n", path);
		return -1;
	}
	char line[NAME_MAX_BYTES];
	out->n = 0;
	while (out->n < NAMES_MAX && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = '\0';
		out->v[out->n] = strdup(line);
		if (!out->v[out->n]) {
			fclose(fp);
			return -1;
		}
		out->n++;
	}
	fclose(fp);
	if (out->n == 0) {
		fprintf(stderr, "names_bench: no names in %s\n", path);
		return -1;
	}
	return 0;
}

/* One pass: the number of matches, so that nothing is optimised away. */
static size_t pass(const struct names *stored, const struct names *cited, FILE *answers)
{
	size_t hits = 0;
	for (size_t c = 0; c < cited->n; c++) {
		char *key = sw_authority_name_key(cited->v[c]);
		bool readable = sw_authority_name_readable(cited->v[c]);
		if (answers)
			fprintf(answers, "%zu [%s] %d", c, key, readable);
		for (size_t s = 0; s < stored->n; s++)
			if (sw_authority_names_match(cited->v[c], stored->v[s])) {
				hits++;
				if (answers)
					fprintf(answers, " %zu", s);
			}
		if (answers)
			fputc('\n', answers);
		free(key);
	}
	return hits;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: names_bench RUNS ANSWERS-OUT STORED CITED\n");
		return 2;
	}
	char *end;
	long runs = strtol(argv[1], &end, 10);
	if (*end || runs < 1 || runs > 1000) {
		fprintf(stderr, "names_bench: RUNS must be 1 to 1000\n");
		return 2;
	}
	static struct names stored, cited;
	if (read_names(&stored, argv[3]) != 0 || read_names(&cited, argv[4]) != 0)
		return 1;
	FILE *answers = fopen(argv[2], "w");
	if (!answers) {
		fprintf(stderr, "names_bench: cannot write %s\n", argv[2]);
		return 1;
	}
	pass(&stored, &cited, answers); /* also the warm-up: the table is loaded */
	if (fclose(answers) != 0)
		return 1;
	double *t = calloc((size_t)runs, sizeof(*t));
	if (!t)
		return 1;
	size_t hits = 0;
	for (long r = 0; r < runs; r++) {
		double t0 = bench_cpu_now();
		hits += pass(&stored, &cited, NULL);
		t[r] = bench_cpu_now() - t0;
	}
	qsort(t, (size_t)runs, sizeof(*t), bench_cmp_double);
	size_t compares = stored.n * cited.n;
	printf("cited %zu stored %zu compares %zu best_s %.6f median_s %.6f per_s %.0f hits %zu\n",
	       cited.n, stored.n, compares, t[0], t[runs / 2], t[0] > 0 ? compares / t[0] : 0.0,
	       hits / (size_t)runs);
	free(t);
	for (size_t i = 0; i < stored.n; i++)
		free(stored.v[i]);
	for (size_t i = 0; i < cited.n; i++)
		free(cited.v[i]);
	return 0;
}
