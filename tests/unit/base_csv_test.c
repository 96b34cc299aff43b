/*
 * base_csv_test.c - the RFC 4180 reader: quoted fields, doubled quotes,
 * CRLF, a byte order mark (also split across reads of a pipe), line
 * numbers, the limits on hostile rows, and the errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

/* The rows of text as "a|b|c" lines, each prefixed by its first line. */
static char *rows_of(struct sw_csv *c, int *rc_out)
{
	struct sw_buf b = SW_BUF_INIT;
	int rc;
	while ((rc = sw_csv_next(c, NULL)) == 1) {
		sw_buf_addf(&b, "%llu:", (unsigned long long)c->line);
		for (size_t i = 0; i < c->nfields; i++)
			sw_buf_addf(&b, "%s%s", i ? "|" : "", sw_csv_field(c, i));
		sw_buf_addf(&b, "%s\n", c->over ? " (over)" : "");
	}
	*rc_out = rc;
	return sw_buf_detach(&b, NULL);
}

static void expect_rows(const char *text, size_t len, const char *want)
{
	struct sw_csv c;
	int rc;
	sw_csv_init_mem(&c, text, len, "t.csv");
	char *got = rows_of(&c, &rc);
	assert_int_equal(rc, 0);
	if (strcmp(got, want) != 0)
		fail_msg("got\n%s\nwant\n%s", got, want);
	free(got);
	sw_csv_release(&c);
}

static void test_rfc4180(void **state)
{
	(void)state;
	/* What Excel writes: a BOM, CRLF, quotes around fields with commas,
	 * doubled quotes, a newline inside a quoted field. */
	static const char excel[] =
		"\xEF\xBB\xBFlabel,target\r\n"
		"Ex. 12,ACME0000123\r\n"
		"\"Smith Dep., Vol. 1\",smith-dep.txt\r\n"
		"\"the \"\"Jones\"\" letter\",\"two\r\nlines\"\r\n"
		"\r\n"
		"last,,\r\n";
	expect_rows(excel, sizeof(excel) - 1,
		    "1:label|target\n"
		    "2:Ex. 12|ACME0000123\n"
		    "3:Smith Dep., Vol. 1|smith-dep.txt\n"
		    "4:the \"Jones\" letter|two\r\nlines\n"
		    "7:last||\n");
	/* No final newline; LF only; an empty quoted field; a quote inside an
	 * unquoted field is kept. */
	static const char plain[] = "a,\"\",c\n5\" disk,x\"y\nend";
	expect_rows(plain, sizeof(plain) - 1, "1:a||c\n2:5\" disk|x\"y\n3:end\n");
	/* Not a BOM: the bytes are kept. */
	static const char notbom[] = "\xEF\xBBx,y\n";
	expect_rows(notbom, sizeof(notbom) - 1, "1:\xEF\xBBx|y\n");
	expect_rows("", 0, "");
	expect_rows("\xEF\xBB\xBF", 3, "");
}

static void test_options(void **state)
{
	(void)state;
	struct sw_csv c;
	int rc;
	/* PostgreSQL COPY's backslash escapes, and another delimiter. */
	static const char copy[] = "1;\"say \\\"hi\\\"\";\"a\\\\b\"\n";
	sw_csv_init_mem(&c, copy, sizeof(copy) - 1, "t.csv");
	c.backslash = true;
	c.delim = ';';
	char *got = rows_of(&c, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "1:1|say \"hi\"|a\\b\n");
	free(got);
	sw_csv_release(&c);
}

static void test_limits(void **state)
{
	(void)state;
	struct sw_csv c;
	int rc;
	static const char text[] = "short,abcdefghij\na,b,c,d,e,f\nok,fine\n";
	sw_csv_init_mem(&c, text, sizeof(text) - 1, "t.csv");
	c.max_field = 4;
	c.max_fields = 3;
	char *got = rows_of(&c, &rc);
	assert_int_equal(rc, 0);
	/* Past a limit the row is read to its end (the next row is whole) but
	 * marked. */
	assert_string_equal(got, "1:shor|abcd (over)\n2:a|b|c (over)\n3:ok|fine\n");
	free(got);
	sw_csv_release(&c);

	sw_csv_init_mem(&c, text, sizeof(text) - 1, "t.csv");
	c.max_row = 8;
	got = rows_of(&c, &rc);
	assert_string_equal(got, "1:short|ab (over)\n2:a|b|c|d (over)\n3:ok|fine\n");
	free(got);
	sw_csv_release(&c);
}

static void test_errors(void **state)
{
	(void)state;
	struct sw_csv c;
	struct sw_err err = { 0 };
	static const char text[] = "a,b\n\nc,\"open\nand on\n";
	sw_csv_init_mem(&c, text, sizeof(text) - 1, "t.csv");
	assert_int_equal(sw_csv_next(&c, &err), 1);
	assert_int_equal(sw_csv_next(&c, &err), SW_EINPUT);
	assert_string_equal(err.msg, "t.csv:3: the file ends inside a quoted field");
	sw_csv_release(&c);

	sw_csv_init_fd(&c, -1, "closed");
	assert_int_equal(sw_csv_next(&c, &err), SW_EIO);
	assert_string_equal(err.msg, "cannot read 'closed': Bad file descriptor");
	sw_csv_release(&c);
}

/* A writer that hands the reader its bytes in pieces, so that a BOM and a
 * doubled quote fall across two reads. */
static void test_pipe(void **state)
{
	(void)state;
	static const char *const pieces[] = { "\xEF", "\xBB", "\xBF" "a,\"x\"", "\"y\",", "z\r", "\n2,3\n" };
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		for (size_t i = 0; i < SW_ARRAY_LEN(pieces); i++) {
			struct timespec ts = { 0, 20 * 1000000L };
			if (write(fds[1], pieces[i], strlen(pieces[i])) < 0)
				_exit(1);
			nanosleep(&ts, NULL);
		}
		_exit(0);
	}
	close(fds[1]);
	struct sw_csv c;
	int rc;
	sw_csv_init_fd(&c, fds[0], "pipe");
	char *got = rows_of(&c, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "1:a|x\"y|z\n2:2|3\n");
	assert_int_equal(c.rows, 2);
	free(got);
	sw_csv_release(&c);
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc4180),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pipe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
