/*
 * base_capture_test.c - children with their output on a pipe: captured
 * whole (bounded, with a timeout, exit status), or read as a stream; their
 * stdin from a file; and nothing of ours inherited.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

static int sh(struct sw_buf *out, int *code, const char *script, size_t limit,
	      unsigned timeout_ms, struct sw_err *err)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct sw_proc_spec spec = { .argv = argv };
	return sw_proc_capture(out, code, &spec, limit, timeout_ms, err);
}

/* The child whose pid the capture's first line holds no longer exists. */
static bool gone(const struct sw_buf *out)
{
	long pid = strtol(out->data, NULL, 10);
	assert_true(pid > 1);
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static void test_capture(void **state)
{
	(void)state;
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	int code = -1;

	assert_int_equal(sh(&out, &code, "printf 'one\\ntwo\\n'; echo noise >&2", 100, 0, &err), 0);
	assert_string_equal(out.data, "one\ntwo\n"); /* stderr is not captured */
	assert_int_equal(code, 0);

	/* A failing child is not a failed capture: the caller reads its status. */
	assert_int_equal(sh(&out, &code, "echo partial; exit 3", 100, 0, &err), 0);
	assert_string_equal(out.data, "partial\n");
	assert_int_equal(code, 3);
	assert_int_equal(sh(&out, &code, "kill -TERM $$", 100, 0, &err), 0);
	assert_int_equal(code, 128 + SIGTERM);

	/* Exactly the limit is fine; one byte more is not, and the child that
	 * would print forever is killed. */
	assert_int_equal(sh(&out, &code, "printf 12345", 5, 0, &err), 0);
	assert_string_equal(out.data, "12345");
	assert_int_equal(sh(&out, &code, "printf 123456", 5, 0, &err), SW_ELIMIT);
	assert_string_equal(err.msg, "sh printed more than 5 bytes");
	assert_int_equal(sh(&out, &code, "echo $$; exec yes", 1 << 16, 0, &err), SW_ELIMIT);
	assert_true(gone(&out));

	/* A child past its time is killed: the error says so, and its pid is
	 * gone (killed and reaped, not waited for). */
	assert_int_equal(sh(&out, &code, "echo $$; exec sleep 20", 1000, 2000, &err), SW_EIO);
	assert_true(gone(&out));
	assert_string_equal(err.msg, "sh did not finish within 2.0 s");

	sw_buf_release(&out);
}

static void test_start_errors(void **state)
{
	(void)state;
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	const char *argv[] = { "sworn-no-such-program", NULL };
	struct sw_proc_spec spec = { .argv = argv };
	assert_int_equal(sw_proc_capture(&out, NULL, &spec, 10, 0, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "cannot run sworn-no-such-program"));

	const char *cat[] = { "cat", NULL };
	struct sw_proc_spec in = { .argv = cat, .stdin_path = "/nonexistent/sworn-input" };
	assert_int_equal(sw_proc_capture(&out, NULL, &in, 10, 0, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "cannot open '/nonexistent/sworn-input'"));
	sw_buf_release(&out);
}

static void test_stdin_and_descriptors(void **state)
{
	(void)state;
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	const char *dir = getenv("TMPDIR");
	char *path = sw_xasprintf("%s/sworn-capture-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "from a file\n", 12), 12);

	const char *cat[] = { "cat", NULL };
	struct sw_proc_spec in = { .argv = cat, .stdin_path = path };
	int code = -1;
	assert_int_equal(sw_proc_capture(&out, &code, &in, 100, 5000, &err), 0);
	assert_string_equal(out.data, "from a file\n");

	/* Without stdin_path the child reads /dev/null, not our stdin. */
	struct sw_proc_spec none = { .argv = cat };
	assert_int_equal(sw_proc_capture(&out, &code, &none, 100, 5000, &err), 0);
	assert_string_equal(out.data, "");

	/* A descriptor of ours without close-on-exec stays ours. */
	assert_int_equal(dup2(fd, 42), 42);
	assert_int_equal(fcntl(42, F_GETFD) & FD_CLOEXEC, 0);
	assert_int_equal(sh(&out, &code,
			    "if [ -e /proc/self/fd/42 ]; then echo leaked; else echo clean; fi", 100,
			    5000, &err), 0);
	assert_string_equal(out.data, "clean\n");
	close(42);
	close(fd);
	unlink(path);
	free(path);
	sw_buf_release(&out);
}

static void test_reader(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_proc_reader r;
	const char *argv[] = { "yes", "row", NULL };
	struct sw_proc_spec spec = { .argv = argv };
	char buf[8];
	int code = -1;

	assert_int_equal(sw_proc_reader_open(&r, &spec, &err), 0);
	assert_true(r.fd >= 0 && r.pid > 0);
	assert_int_equal(read(r.fd, buf, 4), 4);
	assert_memory_equal(buf, "row\n", 4);
	/* Closing early: the writer ends on SIGPIPE. */
	assert_int_equal(sw_proc_reader_close(&r, &code), 0);
	assert_int_equal(code, 128 + SIGPIPE);
	assert_int_equal(r.fd, -1);
	assert_int_equal(r.pid, -1);
	assert_int_equal(sw_proc_reader_close(&r, NULL), 0); /* twice is fine */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_start_errors),
		cmocka_unit_test(test_stdin_and_descriptors),
		cmocka_unit_test(test_reader),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
