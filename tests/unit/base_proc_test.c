/*
 * base_proc_test.c - spawning with environment and a log, waiting with a
 * timeout, stopping politely and firmly, start times, daemonizing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

#define TMPDIR_TAG "proc-test"
#include "tmpdir.h"

static void test_env_and_log(void **state)
{
	(void)state;
	char *log = sw_path_join(dir, "a.log");
	const char *argv[] = { "sh", "-c", "echo out=$SW_PROC_A; echo err=$SW_PROC_B >&2; exit 3", NULL };
	const char *env[] = { "SW_PROC_A=alpha", "SW_PROC_B=beta", NULL };
	struct sw_proc_spec spec = { .argv = argv, .env = env, .log_path = log };
	struct sw_err err = { 0 };
	int pid, code = -1;

	setenv("SW_PROC_A", "replaced", 1);
	assert_int_equal(sw_proc_spawn(&pid, &spec, &err), 0);
	assert_int_equal(sw_proc_wait(&code, pid, 10000), 1);
	assert_int_equal(code, 3);
	/* A second run appends. */
	assert_int_equal(sw_proc_spawn(&pid, &spec, &err), 0);
	assert_int_equal(sw_proc_wait(&code, pid, 10000), 1);
	struct sw_buf b = SW_BUF_INIT;
	assert_int_equal(sw_file_read(&b, log, 4096, &err), 0);
	assert_string_equal(b.data, "out=alpha\nerr=beta\nout=alpha\nerr=beta\n");
	assert_int_equal(sw_proc_wait(&code, pid, 0), SW_ENOTFOUND);
	sw_buf_release(&b);
	free(log);
}

static void test_missing_program(void **state)
{
	(void)state;
	const char *argv[] = { "/nonexistent/sw-no-such-program", NULL };
	struct sw_proc_spec spec = { .argv = argv };
	struct sw_err err = { 0 };
	int pid;
	assert_int_equal(sw_proc_spawn(&pid, &spec, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "sw-no-such-program"));
	const char *bad_env[] = { "NOEQUALS", NULL };
	const char *argv2[] = { "true", NULL };
	struct sw_proc_spec s2 = { .argv = argv2, .env = bad_env };
	assert_int_equal(sw_proc_spawn(&pid, &s2, &err), SW_EUSAGE);
}

static void test_wait_timeout_and_stop(void **state)
{
	(void)state;
	const char *argv[] = { "sleep", "30", NULL };
	struct sw_proc_spec spec = { .argv = argv, .own_group = true };
	struct sw_err err = { 0 };
	int pid;

	assert_int_equal(sw_proc_spawn(&pid, &spec, &err), 0);
	double t0 = sw_now();
	assert_int_equal(sw_proc_wait(NULL, pid, 100), 0);
	assert_true(sw_now() - t0 >= 0.09);
	unsigned long long t = sw_proc_start_ticks(pid);
	assert_true(t > 0);
	assert_true(sw_proc_running(pid, t));
	assert_false(sw_proc_running(pid, t + 1)); /* a recycled pid */
	assert_int_equal(getpgid(pid), pid);
	assert_int_equal(sw_proc_stop(pid, 5000, &err), 0);
	assert_false(sw_proc_running(pid, 0));
	assert_int_equal(sw_proc_start_ticks(pid), 0);
}

static void test_stop_needs_kill(void **state)
{
	(void)state;
	char *log = sw_path_join(dir, "trap.log");
	const char *argv[] = { "sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done", NULL };
	struct sw_proc_spec spec = { .argv = argv, .log_path = log };
	struct sw_err err = { 0 };
	struct sw_buf b = SW_BUF_INIT;
	int pid;

	assert_int_equal(sw_proc_spawn(&pid, &spec, &err), 0);
	/* Wait until the trap is set, or SIGTERM would end it at once. */
	for (int i = 0; i < 400 && b.len == 0; i++) {
		struct timespec ts = { 0, 10000000L };
		nanosleep(&ts, NULL);
		if (sw_file_read(&b, log, 4096, NULL) != 0)
			sw_buf_reset(&b);
	}
	assert_string_equal(b.data, "ready\n");
	assert_int_equal(sw_proc_stop(pid, 200, &err), 1);
	assert_false(sw_proc_running(pid, 0));
	sw_buf_release(&b);
	free(log);
}

static void test_daemonize(void **state)
{
	(void)state;
	char *log = sw_path_join(dir, "daemon.log");
	struct sw_err err = { 0 };
	int pid = sw_proc_daemonize(log, &err);
	if (pid == 0) {
		printf("daemon pid %d session %d\n", (int)getpid(), (int)getsid(0));
		fflush(stdout);
		_exit(getsid(0) == getpid() ? 0 : 1);
	}
	assert_true(pid > 0);
	int code = -1;
	assert_int_equal(sw_proc_wait(&code, pid, 10000), 1);
	assert_int_equal(code, 0);
	struct sw_buf b = SW_BUF_INIT;
	assert_int_equal(sw_file_read(&b, log, 4096, &err), 0);
	assert_non_null(strstr(b.data, "daemon pid"));
	sw_buf_release(&b);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_and_log),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_wait_timeout_and_stop),
		cmocka_unit_test(test_stop_needs_kill),
		cmocka_unit_test(test_daemonize),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
