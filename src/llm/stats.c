/*
 * stats.c - a small log of each call's server timings, so that `sworn
 * models` can show the speed an endpoint really gave, not only what it
 * claims.
 *
 * One line per call, tab-separated: UTC time, endpoint, prompt tokens,
 * prompt ms, predicted tokens, predicted ms.  Lines are appended with
 * O_APPEND, so concurrent sworn processes do not tear each other's lines
 * (each line is one write far below PIPE_BUF).  When the file passes
 * STATS_TRIM_AT it is rewritten atomically with its newest STATS_KEEP
 * bytes: the log is a speedometer, not a journal.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "llm/llm_int.h"

#define STATS_TRIM_AT (256u << 10)
#define STATS_KEEP (64u << 10)
#define STATS_READ_MAX (1u << 20)
#define STATS_CALLS 5

static int trim(const char *path, struct sw_err *err)
{
	struct sw_buf b = SW_BUF_INIT;
	int rc = sw_file_read(&b, path, STATS_READ_MAX, err);

	if (rc == 0 && b.len > STATS_KEEP) {
		const char *start = b.data + b.len - STATS_KEEP;
		const char *nl = memchr(start, '\n', (size_t)(b.data + b.len - start));
		start = nl ? nl + 1 : b.data + b.len;
		rc = sw_file_write_atomic(path, start, (size_t)(b.data + b.len - start), err);
	}
	sw_buf_release(&b);
	return rc;
}

int sw_llm_stats_append(const char *path, const struct sw_llm_result *r, struct sw_err *err)
{
	char when[21];
	char line[512];
	struct stat st;
	int fd = -1, rc = 0;

	if (!r->timings.have || !r->endpoint)
		return 0;
	sw_utc_now(when);
	int n = snprintf(line, sizeof(line), "%s\t%s\t%ld\t%.3f\t%ld\t%.3f\n", when, r->endpoint,
			 r->timings.prompt_n, r->timings.prompt_ms, r->timings.predicted_n,
			 r->timings.predicted_ms);
	if (n < 0 || (size_t)n >= sizeof(line))
		return sw_err_set(err, SW_ELIMIT, "a speed log line is too long");
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return sw_err_set(err, SW_EIO, "cannot open '%s': %s", path, strerror(errno));
	if (write(fd, line, (size_t)n) != n) {
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	if (fstat(fd, &st) == 0 && (size_t)st.st_size > STATS_TRIM_AT)
		rc = trim(path, err);
cleanup:
	close(fd);
	return rc;
}

int sw_llm_stats_speed(struct sw_llm_speed *out, const char *path, const char *endpoint,
		       struct sw_err *err)
{
	struct sw_buf b = SW_BUF_INIT;
	double pn = 0, pms = 0, dn = 0, dms = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!sw_path_is_file(path))
		return 0;
	if ((rc = sw_file_read(&b, path, STATS_READ_MAX, err)) != 0)
		goto cleanup;
	/* Newest last: walk the lines backwards. */
	char *end = b.data + b.len;
	while (end > b.data && out->calls < STATS_CALLS) {
		char *stop = end;
		if (stop > b.data && stop[-1] == '\n')
			stop--;
		char *start = stop;
		while (start > b.data && start[-1] != '\n')
			start--;
		end = start;
		*stop = '\0';
		char when[21] = "", name[80] = "";
		long a = 0, c = 0;
		double ams = 0, cms = 0;
		if (sscanf(start, "%20[^\t]\t%79[^\t]\t%ld\t%lf\t%ld\t%lf", when, name, &a, &ams, &c,
			   &cms) != 6 || strcmp(name, endpoint) != 0)
			continue;
		if (out->calls == 0)
			memcpy(out->last, when, sizeof(out->last));
		out->calls++;
		pn += (double)a;
		pms += ams;
		dn += (double)c;
		dms += cms;
	}
	out->prompt_per_second = pms > 0 ? pn * 1000.0 / pms : 0;
	out->predicted_per_second = dms > 0 ? dn * 1000.0 / dms : 0;
cleanup:
	sw_buf_release(&b);
	return rc;
}
