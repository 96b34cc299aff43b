/*
 * base_config_test.c - git-config style INI files: sections, subsections,
 * comments, last-wins lookup, and errors that name the file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

/* Write text to a fresh temporary file; caller unlinks and frees. */
static char *write_temp(const char *text)
{
	const char *dir = getenv("TMPDIR");
	char *path = sw_xasprintf("%s/sworn-config-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
	return path;
}

/* Load text and expect failure with code; the message must be exactly
 * "PATH:" followed by want_tail. */
static void expect_error(const char *text, int code, const char *want_tail)
{
	struct sw_config c;
	struct sw_err err = { 0 };
	char *path = write_temp(text);
	char *want = sw_xasprintf("%s:%s", path, want_tail);

	assert_int_equal(sw_config_load(&c, path, &err), code);
	assert_int_equal(err.code, code);
	assert_string_equal(err.msg, want);
	assert_int_equal(c.n, 0);
	assert_null(c.entries);
	sw_config_release(&c);
	unlink(path);
	free(path);
	free(want);
}

static const char sample[] =
	"; sworn.conf\n"
	"# both comment styles\n"
	"[Policy]\n"
	"mode = local-only              ; the default\n"
	"allow_hosts = gpu2.lan         # extra hosts\n"
	"\n"
	"[endpoint \"board-a\"]\n"
	"    URL = http://127.0.0.1:8081\n"
	"    gpus = 4,5,8,9\n"
	"\tslots = 4\n"
	"[endpoint \"Board-B\"]\r\n"
	"url = unix:/run/sworn/b.sock\r\n"
	"[role \"drafter\"]\n"
	"endpoint = board-a\n"
	"empty =\n"
	"colour = #ff0000\n"
	"hash = a#b\n"
	"[policy]\n"
	"mode = allow-remote\n"
	"[endpoint \"we \\\"quote\\\" \\\\ this\"]\n"
	"url=x";

static void test_load(void **state)
{
	(void)state;
	struct sw_config c;
	struct sw_err err = { 0 };
	char *path = write_temp(sample);

	assert_int_equal(sw_config_load(&c, path, &err), 0);
	assert_string_equal(c.path, path);
	assert_int_equal(c.n, 12);

	/* Last wins, and sections match whatever their case. */
	assert_string_equal(sw_config_get(&c, "policy", NULL, "mode"), "allow-remote");
	const struct sw_config_entry *e = sw_config_find(&c, "policy", NULL, "mode");
	assert_non_null(e);
	assert_int_equal(e->line, 19);
	assert_string_equal(e->section, "policy");
	assert_null(e->subsection);
	assert_string_equal(sw_config_get(&c, "policy", NULL, "allow_hosts"), "gpu2.lan");

	/* Indented keys are keys, not continuations of the previous value. */
	assert_string_equal(sw_config_get(&c, "endpoint", "board-a", "url"),
			    "http://127.0.0.1:8081");
	assert_string_equal(sw_config_get(&c, "endpoint", "board-a", "gpus"), "4,5,8,9");
	assert_string_equal(sw_config_get(&c, "endpoint", "board-a", "slots"), "4");
	e = sw_config_find(&c, "endpoint", "board-a", "url");
	assert_non_null(e);
	assert_string_equal(e->key, "url");
	assert_int_equal(e->line, 8);

	/* Subsections keep their case; CRLF lines work. */
	assert_string_equal(sw_config_get(&c, "endpoint", "Board-B", "url"),
			    "unix:/run/sworn/b.sock");
	assert_null(sw_config_get(&c, "endpoint", "board-b", "url"));
	assert_null(sw_config_get(&c, "endpoint", NULL, "url"));
	assert_string_equal(sw_config_get(&c, "endpoint", "we \"quote\" \\ this", "url"), "x");

	assert_string_equal(sw_config_get(&c, "role", "drafter", "endpoint"), "board-a");
	assert_string_equal(sw_config_get(&c, "role", "drafter", "empty"), "");
	assert_string_equal(sw_config_get(&c, "role", "drafter", "colour"), "");
	assert_string_equal(sw_config_get(&c, "role", "drafter", "hash"), "a#b");
	assert_null(sw_config_get(&c, "role", "drafter", "missing"));
	assert_null(sw_config_get(&c, "role", "reviewer", "endpoint"));
	assert_null(sw_config_find(&c, "nosuch", NULL, "mode"));

	sw_config_release(&c);
	sw_config_release(&c);
	sw_config_release(NULL);
	unlink(path);
	free(path);
}

static void test_empty_file(void **state)
{
	(void)state;
	struct sw_config c;
	char *path = write_temp("; nothing here\n\n");

	assert_int_equal(sw_config_load(&c, path, NULL), 0);
	assert_int_equal(c.n, 0);
	assert_null(sw_config_get(&c, "policy", NULL, "mode"));
	sw_config_release(&c);
	unlink(path);
	free(path);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	expect_error("[policy]\nmode = x\n\n; fine\n[role \"a\"]\nk = v\njust words\n",
		     SW_EINPUT, "7: expected 'key = value'");
	expect_error("[policy]\nmode = x\n[endpoint \"a\"\nurl = y\n",
		     SW_EINPUT, "3: expected ']' to close the section header");
	expect_error("[policy]\n= lonely\n", SW_EINPUT, "2: expected 'key = value'");
	expect_error("mode = x\n[policy]\n", SW_EINPUT, "1: 'mode' is outside any section");
	expect_error("[policy]\na = 1\n[bad name]\n\nkey = 1\n", SW_EINPUT,
		     "3: bad section header '[bad name]': expected [name] or [name \"sub\"]");
	expect_error("[endpoint \"open]\nurl = x\n", SW_EINPUT,
		     "1: bad section header '[endpoint \"open]': expected [name] or "
		     "[name \"sub\"]");
	expect_error("[policy]\nbad key = 1\n", SW_EINPUT,
		     "2: bad key 'bad key': use letters, digits, '-', '_' and '.'");
	/* The first error wins even when a later line is also wrong. */
	expect_error("[a]\nx = 1\noops\n[b\n", SW_EINPUT, "3: expected 'key = value'");
}

static void test_long_line(void **state)
{
	(void)state;
	struct sw_buf text = SW_BUF_INIT;
	struct sw_config c;
	struct sw_err err = { 0 };

	sw_buf_adds(&text, "[policy]\nmode = ");
	for (int i = 0; i < 5000; i++)
		sw_buf_addc(&text, 'x');
	sw_buf_adds(&text, "\nnext = 1\n");
	char *path = write_temp(text.data);
	assert_int_equal(sw_config_load(&c, path, &err), SW_ELIMIT);
	char *want = sw_xasprintf("%s:2: line is longer than", path);
	assert_memory_equal(err.msg, want, strlen(want));
	assert_int_equal(c.n, 0);
	sw_config_release(&c);
	unlink(path);
	free(path);
	free(want);
	sw_buf_release(&text);
}

static void test_missing_file(void **state)
{
	(void)state;
	struct sw_config c;
	struct sw_err err = { 0 };
	const char *path = "no-such-dir-sworn/sworn.conf";

	assert_int_equal(sw_config_load(&c, path, &err), SW_ENOTFOUND);
	assert_string_equal(err.msg,
			    "cannot open 'no-such-dir-sworn/sworn.conf': No such file or directory");
	assert_null(c.path);
	assert_int_equal(c.n, 0);
	sw_config_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
