/*
 * base_progress_test.c - the progress line's format, when it draws at all,
 * and the clocks.
 *
 * The drawing tests point stderr at a pseudo-terminal so they mean the same
 * thing run from a terminal and under ctest; where the system has no ptys
 * they are skipped.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */

#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

static void check_format(const char *label, uint64_t total, uint64_t done,
			 double elapsed, const char *want)
{
	struct sw_progress p = { .label = label, .total = total, .done = done,
				 .start = 1000.0 };
	char out[128];

	sw_progress_format(&p, 1000.0 + elapsed, out, sizeof(out));
	assert_string_equal(out, want);
}

static void test_format(void **state)
{
	(void)state;
	check_format("copy", 100, 35, 35.0, "copy  35/100  1.0/s  ETA 1m05s");
	check_format("import", 50000, 1200, 10.0, "import  1200/50000  120/s  ETA 6m47s");
	check_format("hash", 10, 3, 2.0, "hash  3/10  1.5/s  ETA 5s");
	check_format("ocr", 10000, 100, 75.0, "ocr  100/10000  1.3/s  ETA 2h03m");
	/* Unknown total: no slash, no ETA. */
	check_format("scan", 0, 42, 10.0, "scan  42  4.2/s");
	/* Nothing done yet, or no time passed: no rate to predict from. */
	check_format("import", 500, 0, 3.0, "import  0/500  0.0/s");
	check_format("import", 500, 7, 0.0, "import  7/500  0.0/s");
	/* Finished, or past the announced total: no ETA. */
	check_format("copy", 100, 100, 4.0, "copy  100/100  25.0/s");
	check_format("copy", 100, 140, 4.0, "copy  140/100  35.0/s");
	/* An absurd ETA is left out rather than printed. */
	check_format("slow", 100000000, 1, 1000.0, "slow  1/100000000  0.0/s");

	/* A small buffer truncates and stays terminated. */
	struct sw_progress p = { .label = "import", .total = 10, .done = 5, .start = 0 };
	char small[8];
	memset(small, 'x', sizeof(small));
	sw_progress_format(&p, 1.0, small, sizeof(small));
	assert_string_equal(small, "import ");
	sw_progress_format(&p, 1.0, small, 0);
}

/* Run fn with stderr pointed at fd; stderr is restored after. */
static void with_stderr(int fd, void (*fn)(void *), void *arg)
{
	int saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	fn(arg);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
}

static void run_progress(void *arg)
{
	struct sw_progress *p = arg;
	sw_progress_start(p, "import", 10);
	sw_progress_update(p, 5);
	sw_progress_finish(p);
}

static void test_silent_when_not_a_tty(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	struct sw_progress p;

	with_stderr(fileno(f), run_progress, &p);
	assert_false(p.enabled);
	assert_false(p.colour);
	assert_int_equal(p.done, 5);
	assert_int_equal(p.total, 10);
	fseek(f, 0, SEEK_END);
	assert_int_equal(ftell(f), 0);
	fclose(f);
}

/* Open a pty pair; returns false (and the test skips) when there is none. */
static bool open_pty(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0)
		return false;
	if (grantpt(*master) != 0 || unlockpt(*master) != 0) {
		close(*master);
		return false;
	}
	const char *name = ptsname(*master);
	*slave = name ? open(name, O_RDWR | O_NOCTTY) : -1;
	if (*slave < 0) {
		close(*master);
		return false;
	}
	return true;
}

/* Everything the terminal has received so far. */
static size_t drain(int master, char *out, size_t outsz)
{
	size_t n = 0;
	struct pollfd pfd = { .fd = master, .events = POLLIN };

	while (n + 1 < outsz && poll(&pfd, 1, 200) > 0 && (pfd.revents & POLLIN)) {
		ssize_t k = read(master, out + n, outsz - 1 - n);
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	out[n] = '\0';
	return n;
}

static void on_tty(const char *term, bool no_color, struct sw_progress *p, char *seen,
		   size_t seensz)
{
	int master = -1, slave = -1;

	if (!open_pty(&master, &slave))
		skip();
	if (term)
		setenv("TERM", term, 1);
	else
		unsetenv("TERM");
	if (no_color)
		setenv("NO_COLOR", "", 1);
	else
		unsetenv("NO_COLOR");
	with_stderr(slave, run_progress, p);
	drain(master, seen, seensz);
	close(slave);
	close(master);
}

static void test_draws_on_a_tty(void **state)
{
	(void)state;
	struct sw_progress p;
	char seen[1024];

	on_tty("xterm", false, &p, seen, sizeof(seen));
	assert_false(p.enabled); /* finish turns it off */
	assert_true(p.colour);
	/* The first draw, in bold; the update right after it is within a
	 * tenth of a second and is skipped; finish erases the line. */
	assert_string_equal(seen, "\r\x1b[1mimport\x1b[0m  0/10  0.0/s\x1b[K\r\x1b[K");
}

static void test_no_color(void **state)
{
	(void)state;
	struct sw_progress p;
	char seen[1024];

	on_tty("xterm", true, &p, seen, sizeof(seen));
	assert_false(p.colour);
	assert_string_equal(seen, "\rimport  0/10  0.0/s\x1b[K\r\x1b[K");
}

static void test_dumb_terminal(void **state)
{
	(void)state;
	struct sw_progress p;
	char seen[1024];

	on_tty("dumb", false, &p, seen, sizeof(seen));
	assert_false(p.enabled);
	assert_false(p.colour);
	assert_string_equal(seen, "");
}

static void test_redraw_rate(void **state)
{
	(void)state;
	int master = -1, slave = -1;
	char seen[4096];

	if (!open_pty(&master, &slave))
		skip();
	/* Nobody reads the terminal while the loop runs: a progress line that
	 * ignored its rate limit would fill the pty and block for ever.  With
	 * O_NONBLOCK it fails the count below instead. */
	assert_int_equal(fcntl(slave, F_SETFL, fcntl(slave, F_GETFL) | O_NONBLOCK), 0);
	setenv("TERM", "xterm", 1);
	setenv("NO_COLOR", "1", 1);
	int saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(slave, STDERR_FILENO) >= 0);
	struct sw_progress p;
	sw_progress_start(&p, "n", 0);
	for (uint64_t i = 1; i <= 100000; i++)
		sw_progress_update(&p, i);
	/* Pretend the last draw was long ago: the next update draws. */
	p.last_draw -= 1.0;
	sw_progress_update(&p, 100001);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	drain(master, seen, sizeof(seen));
	close(slave);
	close(master);

	size_t draws = 0;
	for (const char *s = seen; (s = strstr(s, "\x1b[K")) != NULL; s++)
		draws++;
	/* One draw at start, at most a few while the loop ran, the forced one. */
	assert_true(draws >= 2);
	assert_true(draws <= 2 + 10 * (size_t)(sw_now() - p.start + 1));
	assert_non_null(strstr(seen, "\rn  100001  "));
	assert_null(strstr(seen, "100001/"));
}

static void test_clocks(void **state)
{
	(void)state;
	double a = sw_now(), b = sw_now();
	assert_true(a > 0);
	assert_true(b >= a);

	char now[21];
	memset(now, 'x', sizeof(now));
	sw_utc_now(now);
	assert_int_equal(strlen(now), 20);
	assert_true(now[0] == '2');
	assert_int_equal(now[4], '-');
	assert_int_equal(now[7], '-');
	assert_int_equal(now[10], 'T');
	assert_int_equal(now[13], ':');
	assert_int_equal(now[16], ':');
	assert_int_equal(now[19], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_silent_when_not_a_tty),
		cmocka_unit_test(test_draws_on_a_tty),
		cmocka_unit_test(test_no_color),
		cmocka_unit_test(test_dumb_terminal),
		cmocka_unit_test(test_redraw_rate),
		cmocka_unit_test(test_clocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
