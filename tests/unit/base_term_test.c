/* base_term_test.c - outside text made safe for a terminal (sw_term_*),
 * the trust rule for a workspace's files (sw_path_distrust) and the
 * range-checked reading of a JSON number (sw_json_int): issue 17, items
 * 12-14. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/base.h"

#define R "\xef\xbf\xbd" /* U+FFFD */

static void clean_is(const char *in, size_t len, const char *want)
{
	struct sw_buf b = SW_BUF_INIT;
	sw_term_clean(&b, in, len);
	assert_int_equal(b.len, strlen(want));
	assert_memory_equal(b.data, want, b.len);
	sw_buf_release(&b);
}

#define CLEAN(in, want) clean_is(in, sizeof(in) - 1, want)

static void test_clean(void **state)
{
	(void)state;
	CLEAN("plain \xc2\xa7 1983, caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "plain \xc2\xa7 1983, caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80");
	CLEAN("a\tb\nc", "a\tb\nc");
	CLEAN("\x1b[2J\x1b]0;title\x07", R "[2J" R "]0;title" R);
	CLEAN("over\rwrite\b!", "over" R "write" R "!");
	CLEAN("del\x7f", "del" R);
	CLEAN("nul\0x", "nul" R "x");
	/* C1 as UTF-8 (U+009B CSI, U+0085), raw 8-bit C1, an overlong ESC,
	 * a surrogate, a truncated sequence. */
	CLEAN("\xc2\x9b" "31m\xc2\x85", R "31m" R);
	CLEAN("\x9b" "31m", R "31m");
	CLEAN("\xc0\x9b\xe0\x80\x9b", R R R R R);
	CLEAN("\xed\xa0\x80", R R R);
	CLEAN("end\xe2\x9c", "end" R R);
	CLEAN("\xc2\xa0nbsp", "\xc2\xa0nbsp");
}

static void test_printf(void **state)
{
	(void)state;
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	assert_non_null(f);
	sw_term_printf(f, "no matter '%s'\n", "x\x1b[8my");
	sw_term_puts(f, "\x1b" "c");
	sw_term_puts(f, NULL);
	fclose(f);
	assert_string_equal(p, "no matter 'x" R "[8my'\n" R "c");
	free(p);
}

/* A streamed text cut inside a UTF-8 sequence keeps the character; a
 * control cut from its sequence's bytes is still replaced; an unfinished
 * sequence at the end is U+FFFD. */
static void test_stream(void **state)
{
	(void)state;
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	assert_non_null(f);
	struct sw_term_stream st = { 0 };
	static const char *const pieces[] = { "Ren\xc3", "\xa9" "e \xe2\x80", "\x9c", "x\x1b",
					      "[2J \xc2", "\x9b" "1A \xf0\x9f", "\x98\x80", " \xe2" };
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
		sw_term_stream_write(&st, f, pieces[i], strlen(pieces[i]));
	sw_term_stream_end(&st, f);
	fclose(f);
	assert_string_equal(p, "Ren\xc3\xa9" "e \xe2\x80\x9c" "x" R "[2J " R "1A \xf0\x9f\x98\x80 " R);
	free(p);
}

static void test_distrust(void **state)
{
	(void)state;
	assert_null(sw_path_distrust(1000, S_IFREG | 0644, 1000));
	assert_null(sw_path_distrust(1000, S_IFDIR | 0700, 1000));
	assert_string_equal(sw_path_distrust(1001, S_IFREG | 0644, 1000), "owned by another user");
	assert_string_equal(sw_path_distrust(0, S_IFDIR | 01777, 1000), "owned by another user");
	assert_string_equal(sw_path_distrust(1000, S_IFREG | 0666, 1000), "writable by others");
	assert_string_equal(sw_path_distrust(1000, S_IFDIR | 0775, 1000), "writable by its group");
}

static void test_json_int(void **state)
{
	(void)state;
	json_error_t je;
	json_t *o = json_loads("{\"i\": 42, \"r\": 7.0, \"f\": 1.5, \"huge\": 5111111111111111111111111111.0,"
			       " \"big\": 9223372036854775807, \"neg\": -3, \"s\": \"9\"}",
			       JSON_DECODE_ANY, &je);
	long long v = -1;
	assert_non_null(o);
	assert_true(sw_json_int(json_object_get(o, "i"), 0, 100, &v));
	assert_int_equal(v, 42);
	assert_true(sw_json_int(json_object_get(o, "r"), 0, 100, &v));
	assert_int_equal(v, 7);
	v = -1;
	assert_false(sw_json_int(json_object_get(o, "f"), 0, 100, &v));
	assert_false(sw_json_int(json_object_get(o, "huge"), INT32_MIN, INT32_MAX, &v));
	assert_false(sw_json_int(json_object_get(o, "huge"), LLONG_MIN, LLONG_MAX, &v));
	assert_false(sw_json_int(json_object_get(o, "big"), 0, INT32_MAX, &v));
	assert_false(sw_json_int(json_object_get(o, "neg"), 0, 100, &v));
	assert_false(sw_json_int(json_object_get(o, "s"), 0, 100, &v));
	assert_false(sw_json_int(json_object_get(o, "missing"), 0, 100, &v));
	assert_int_equal(v, -1);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_printf),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_distrust),
		cmocka_unit_test(test_json_int),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
