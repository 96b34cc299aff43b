/*
 * progress.c - the progress line on stderr, monotonic and wall-clock time.
 *
 * The line is redrawn in place with "\r" and cleared to the end with
 * "\x1b[K", so it needs a terminal that understands ANSI; TERM=dumb and
 * anything that is not a terminal get nothing at all, which keeps logs and
 * pipes clean.  The terminal is looked at in sw_progress_start() each time
 * rather than once per process, so tests can point stderr elsewhere.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

#define REDRAW_INTERVAL 0.1 /* seconds: at most ten redraws a second */

/* Past this an ETA says nothing useful and would not fit the line. */
#define ETA_MAX_SECONDS (100.0 * 3600.0 * 24.0)

double sw_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		SW_BUG("clock_gettime(CLOCK_MONOTONIC) failed");
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sw_utc_now(char out[21])
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		SW_BUG("cannot format the current time");
}

/* "45s", "1m05s", "2h03m". */
static void format_eta(char *out, size_t outsz, double seconds)
{
	unsigned long s = (unsigned long)(seconds + 0.5);

	if (s < 60)
		snprintf(out, outsz, "%lus", s);
	else if (s < 3600)
		snprintf(out, outsz, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(out, outsz, "%luh%02lum", s / 3600, s / 60 % 60);
}

void sw_progress_format(const struct sw_progress *p, double now, char *out, size_t outsz)
{
	double elapsed = now - p->start;
	double rate = elapsed > 0 ? (double)p->done / elapsed : 0.0;
	char total[32] = "", eta[48] = "";

	if (outsz == 0)
		return;
	if (p->total > 0)
		snprintf(total, sizeof(total), "/%llu", (unsigned long long)p->total);
	if (p->total > 0 && rate > 0 && p->done < p->total) {
		double left = (double)(p->total - p->done) / rate;
		if (left < ETA_MAX_SECONDS) {
			char when[32];
			format_eta(when, sizeof(when), left);
			snprintf(eta, sizeof(eta), "  ETA %s", when);
		}
	}
	snprintf(out, outsz, rate >= 100 ? "%s  %llu%s  %.0f/s%s" : "%s  %llu%s  %.1f/s%s",
		 p->label ? p->label : "", (unsigned long long)p->done, total, rate, eta);
}

static void draw(struct sw_progress *p, double now)
{
	char line[256];
	size_t label_len = p->label ? strlen(p->label) : 0;

	sw_progress_format(p, now, line, sizeof(line));
	if (p->colour && label_len > 0 && label_len < strlen(line))
		fprintf(stderr, "\r\x1b[1m%.*s\x1b[0m%s\x1b[K", (int)label_len, line,
			line + label_len);
	else
		fprintf(stderr, "\r%s\x1b[K", line);
	fflush(stderr);
	p->last_draw = now;
}

void sw_progress_start(struct sw_progress *p, const char *label, uint64_t total)
{
	const char *term = getenv("TERM");

	memset(p, 0, sizeof(*p));
	p->label = label;
	p->total = total;
	p->start = sw_now();
	p->enabled = isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
	p->colour = p->enabled && getenv("NO_COLOR") == NULL;
	if (p->enabled)
		draw(p, p->start);
}

void sw_progress_update(struct sw_progress *p, uint64_t done)
{
	p->done = done;
	if (!p->enabled)
		return;
	double now = sw_now();
	if (now - p->last_draw < REDRAW_INTERVAL)
		return;
	draw(p, now);
}

void sw_progress_finish(struct sw_progress *p)
{
	if (!p->enabled)
		return;
	fputs("\r\x1b[K", stderr);
	fflush(stderr);
	p->enabled = false;
}
