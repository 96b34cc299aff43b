/*
 * base_fold_test.c - UTF-8 folding, its offset map, validation, the
 * Latin-1 conversion, and the JSON string helper that shares their rule for
 * invalid bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/base.h"

/* Fold s and compare with want; returns the fold for map checks. */
static struct sw_fold fold_eq(const char *s, unsigned flags, const char *want)
{
	struct sw_fold f;
	sw_fold(&f, s, strlen(s), flags);
	assert_string_equal(f.text, want);
	assert_int_equal(f.len, strlen(want));
	assert_int_equal(f.map[f.len], strlen(s));
	for (size_t i = 1; i <= f.len; i++)
		assert_true(f.map[i - 1] <= f.map[i]);
	return f;
}

static void check(const char *s, unsigned flags, const char *want)
{
	struct sw_fold f = fold_eq(s, flags, want);
	sw_fold_release(&f);
}

static void test_quotes(void **state)
{
	(void)state;
	check("\xE2\x80\x98" "a" "\xE2\x80\x99", SW_FOLD_DEFAULT, "'a'");
	check("\xE2\x80\x9C" "b" "\xE2\x80\x9D", SW_FOLD_DEFAULT, "\"b\"");
	check("\xE2\x80\x9E" "c" "\xE2\x80\x9F", SW_FOLD_DEFAULT, "\"c\"");
	check("\xC2\xAB" "d" "\xC2\xBB", SW_FOLD_DEFAULT, "\"d\"");
	check("don\xE2\x80\x99t", SW_FOLD_DEFAULT, "don't");
	/* A double prime is one double quote, not two single ones. */
	check("12\xE2\x80\xB3", SW_FOLD_DEFAULT, "12\"");
	check("`x`", SW_FOLD_DEFAULT, "`x`");
}

static void test_dashes(void **state)
{
	(void)state;
	check("a\xE2\x80\x93" "b\xE2\x80\x94" "c\xE2\x88\x92" "d\xE2\x80\x90" "e",
	      SW_FOLD_DEFAULT, "a-b-c-d-e");
	check("x\xEF\xB9\x98y\xEF\xBC\x8Dz", SW_FOLD_DEFAULT, "x-y-z");
}

static void test_spaces(void **state)
{
	(void)state;
	check("a\xC2\xA0" "b", SW_FOLD_DEFAULT, "a b");
	check("a\xC2\xA0" "b", 0, "a b");
	check("a \xC2\xA0\t\r\n b\xE2\x80\x83\xE3\x80\x80" "c", SW_FOLD_DEFAULT, "a b c");
	check("a\tb\nc", 0, "a\tb\nc");
	check("a\tb\nc", SW_FOLD_SPACE, "a b c");
	check("  lead  ", SW_FOLD_SPACE, " lead ");
	/* Zero-width characters and the soft hyphen vanish. */
	check("a\xE2\x80\x8B" "b\xC2\xAD" "c\xEF\xBB\xBF" "d", SW_FOLD_DEFAULT, "abcd");
}

static void test_nfkc(void **state)
{
	(void)state;
	check("\xEF\xAC\x81" "nd", SW_FOLD_DEFAULT, "find");
	check("\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3\xEF\xBC\x91", SW_FOLD_DEFAULT, "abc1");
	check("\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3\xEF\xBC\x91", 0, "ABC1");
	check("wait\xE2\x80\xA6", SW_FOLD_DEFAULT, "wait...");
	check("x\xC2\xB2", SW_FOLD_DEFAULT, "x2");
}

static void test_case(void **state)
{
	(void)state;
	check("Hello WORLD", SW_FOLD_DEFAULT, "hello world");
	check("Hello WORLD", SW_FOLD_SPACE, "Hello WORLD");
	check("Stra\xC3\x9F" "e", SW_FOLD_DEFAULT, "strasse");
	check("\xCE\xA3\xCE\x91\xCE\xA3", SW_FOLD_DEFAULT, "\xCF\x83\xCE\xB1\xCF\x83");
	check("\xC3\x89T\xC3\x89", SW_FOLD_DEFAULT, "\xC3\xA9t\xC3\xA9");
}

static void test_marks(void **state)
{
	(void)state;
	check("caf\xC3\xA9", SW_FOLD_DEFAULT, "caf\xC3\xA9");
	check("caf\xC3\xA9", SW_FOLD_DEFAULT | SW_FOLD_MARKS, "cafe");
	check("Cafe\xCC\x81", SW_FOLD_DEFAULT | SW_FOLD_MARKS, "cafe");
	/* A decomposed accent composes with its base across characters, and
	 * the composed letter maps to the base's offset. */
	struct sw_fold f = fold_eq("cafe\xCC\x81!", SW_FOLD_DEFAULT, "caf\xC3\xA9!");
	assert_int_equal(f.map[3], 3);
	assert_int_equal(f.map[4], 3);
	assert_int_equal(f.map[5], 6);
	sw_fold_release(&f);
	/* Marks in non-canonical order still compose: dot below (220) before
	 * acute (230) whatever order they came in. */
	struct sw_fold a, b;
	sw_fold(&a, "e\xCC\x81\xCC\xA3", 5, SW_FOLD_DEFAULT);
	sw_fold(&b, "e\xCC\xA3\xCC\x81", 5, SW_FOLD_DEFAULT);
	assert_string_equal(a.text, b.text);
	sw_fold_release(&a);
	sw_fold_release(&b);
}

static void test_invalid(void **state)
{
	(void)state;
	struct sw_fold f = fold_eq("a\xFF" "b", SW_FOLD_DEFAULT, "a\xEF\xBF\xBD" "b");
	const size_t want[] = { 0, 1, 1, 1, 2, 3 };
	for (size_t i = 0; i < SW_ARRAY_LEN(want); i++)
		assert_int_equal(f.map[i], want[i]);
	sw_fold_release(&f);
	/* A truncated sequence is one U+FFFD per byte. */
	check("x\xE2\x80", SW_FOLD_DEFAULT, "x\xEF\xBF\xBD\xEF\xBF\xBD");
	/* A surrogate and an overlong form are not UTF-8 either. */
	check("\xED\xA0\x80", 0, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	check("\xC0\xAF", 0, "\xEF\xBF\xBD\xEF\xBF\xBD");
	/* An embedded NUL is kept and mapped. */
	sw_fold(&f, "a\0b", 3, SW_FOLD_DEFAULT);
	assert_int_equal(f.len, 3);
	assert_memory_equal(f.text, "a\0b", 3);
	assert_int_equal(f.map[3], 3);
	sw_fold_release(&f);
}

static void test_map_citation(void **state)
{
	(void)state;
	/* "“Smith” — § 1983": the curly quotes and the em dash are three bytes
	 * each, the section sign two. */
	const char *in = "\xE2\x80\x9CSmith\xE2\x80\x9D \xE2\x80\x94 \xC2\xA7 1983";
	struct sw_fold f = fold_eq(in, SW_FOLD_DEFAULT, "\"smith\" - \xC2\xA7 1983");
	const size_t want[] = { 0, 3, 4, 5, 6, 7, 8, 11, 12, 15, 16, 16, 18,
				19, 20, 21, 22, 23 };
	assert_int_equal(f.len + 1, SW_ARRAY_LEN(want));
	for (size_t i = 0; i < SW_ARRAY_LEN(want); i++)
		assert_int_equal(f.map[i], want[i]);
	/* A match in folded text maps back to the exact original span. */
	const char *hit = strstr(f.text, "smith\"");
	size_t at = (size_t)(hit - f.text), end = at + strlen("smith\"");
	assert_int_equal(f.map[at], 3);
	assert_int_equal(f.map[end], 11);
	assert_memory_equal(in + f.map[at], "Smith\xE2\x80\x9D", f.map[end] - f.map[at]);
	sw_fold_release(&f);
}

static void test_map_ascii_identity(void **state)
{
	(void)state;
	const char *in = "The Quick (brown) fox, 42 U.S.C. 1983!";
	struct sw_fold f = fold_eq(in, SW_FOLD_DEFAULT, "the quick (brown) fox, 42 u.s.c. 1983!");
	for (size_t i = 0; i <= f.len; i++)
		assert_int_equal(f.map[i], i);
	sw_fold_release(&f);
}

static void test_map_expansion(void **state)
{
	(void)state;
	/* Every byte of an expansion maps to the character that produced it. */
	struct sw_fold f = fold_eq("x\xEF\xAC\x81y\xE2\x80\xA6", SW_FOLD_DEFAULT, "xfiy...");
	const size_t want[] = { 0, 1, 1, 4, 5, 5, 5, 8 };
	for (size_t i = 0; i < SW_ARRAY_LEN(want); i++)
		assert_int_equal(f.map[i], want[i]);
	sw_fold_release(&f);
	/* Collapsed whitespace maps to the first byte of its run. */
	f = fold_eq("a \xC2\xA0\n b", SW_FOLD_DEFAULT, "a b");
	assert_int_equal(f.map[1], 1);
	assert_int_equal(f.map[2], 6);
	sw_fold_release(&f);
}

static void test_empty_and_hostile(void **state)
{
	(void)state;
	struct sw_fold f;
	sw_fold(&f, NULL, 0, SW_FOLD_DEFAULT);
	assert_int_equal(f.len, 0);
	assert_string_equal(f.text, "");
	assert_int_equal(f.map[0], 0);
	sw_fold_release(&f);
	sw_fold_release(&f);
	sw_fold_release(NULL);

	/* Ten thousand combining marks on one letter: bounded work, and every
	 * byte still mapped in order. */
	size_t n = 1 + 10000 * 2;
	char *s = malloc(n);
	assert_non_null(s);
	s[0] = 'e';
	for (size_t i = 1; i < n; i += 2)
		memcpy(s + i, "\xCC\x81", 2);
	sw_fold(&f, s, n, SW_FOLD_DEFAULT);
	assert_int_equal(f.map[f.len], n);
	assert_true(sw_utf8_valid(f.text, f.len));
	for (size_t i = 1; i <= f.len; i++)
		assert_true(f.map[i - 1] <= f.map[i]);
	sw_fold_release(&f);
	sw_fold(&f, s, n, SW_FOLD_DEFAULT | SW_FOLD_MARKS);
	assert_string_equal(f.text, "e");
	sw_fold_release(&f);
	free(s);
}

static void test_utf8_valid(void **state)
{
	(void)state;
	assert_true(sw_utf8_valid("", 0));
	assert_true(sw_utf8_valid("plain", 5));
	assert_true(sw_utf8_valid("\xC2\xA7 \xE2\x80\x94 \xF0\x9F\x98\x80", 11));
	assert_false(sw_utf8_valid("\xFF", 1));
	assert_false(sw_utf8_valid("\xC0\x80", 2));
	assert_false(sw_utf8_valid("\xED\xA0\x80", 3));
	assert_false(sw_utf8_valid("\xE2\x80", 2));
	assert_false(sw_utf8_valid("\xF4\x90\x80\x80", 4));
	/* The length, not a NUL, ends the text. */
	assert_false(sw_utf8_valid("ok\xE2\x80\x94", 4));
}

static void test_utf8_cut(void **state)
{
	(void)state;
	const char *s = "a\xC3\xA9\xE2\x80\x94\xF0\x9F\x98\x80z"; /* a é — 😀 z */
	size_t len = strlen(s);
	assert_int_equal(sw_utf8_cut(s, len, 0), 0);
	assert_int_equal(sw_utf8_cut(s, len, 1), 1);
	assert_int_equal(sw_utf8_cut(s, len, 2), 1);   /* inside é */
	assert_int_equal(sw_utf8_cut(s, len, 3), 3);
	assert_int_equal(sw_utf8_cut(s, len, 5), 3);   /* inside the dash */
	assert_int_equal(sw_utf8_cut(s, len, 9), 6);   /* inside the emoji */
	assert_int_equal(sw_utf8_cut(s, len, 10), 10);
	assert_int_equal(sw_utf8_cut(s, len, len), len);
	assert_int_equal(sw_utf8_cut(s, len, 99), len);
	assert_int_equal(sw_utf8_cut(NULL, 0, 5), 0);
	/* bytes that continue nothing go back no further than the start */
	assert_int_equal(sw_utf8_cut("\x80\x80\x80", 3, 2), 0);
}

static void test_latin1(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_adds(&b, "kept:");
	sw_latin1_to_utf8(&b, "\xFE", 1);
	assert_string_equal(b.data, "kept:\xC3\xBE");
	sw_buf_reset(&b);
	sw_latin1_to_utf8(&b, "\x93x\x94 \x92 \x96 \x85 \x80", 11);
	assert_string_equal(b.data, "\xE2\x80\x9Cx\xE2\x80\x9D \xE2\x80\x99 \xE2\x80\x93 "
				    "\xE2\x80\xA6 \xE2\x82\xAC");
	sw_buf_reset(&b);
	sw_latin1_to_utf8(&b, "\x81\x8D\x8F\x90\x9D", 5);
	assert_string_equal(b.data, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	sw_buf_reset(&b);
	sw_latin1_to_utf8(&b, "caf\xE9 \xA0\xFF", 7);
	assert_string_equal(b.data, "caf\xC3\xA9 \xC2\xA0\xC3\xBF");
	/* Longer than the internal chunk. */
	sw_buf_reset(&b);
	char big[3000];
	memset(big, '\xE9', sizeof(big));
	sw_latin1_to_utf8(&b, big, sizeof(big));
	assert_int_equal(b.len, 2 * sizeof(big));
	assert_true(sw_utf8_valid(b.data, b.len));
	sw_buf_release(&b);
}

static void test_json_str(void **state)
{
	(void)state;
	struct json_t *j = sw_json_strn("a\xFF" "b", 3);
	assert_non_null(j);
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(sw_json_print(f, j, NULL), 0);
	rewind(f);
	char line[64] = "";
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "\"a\xEF\xBF\xBD" "b\"\n");
	fclose(f);
	json_decref(j);
	j = sw_json_str("plain");
	assert_string_equal(json_string_value(j), "plain");
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_dashes),
		cmocka_unit_test(test_spaces),
		cmocka_unit_test(test_nfkc),
		cmocka_unit_test(test_case),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_map_citation),
		cmocka_unit_test(test_map_ascii_identity),
		cmocka_unit_test(test_map_expansion),
		cmocka_unit_test(test_empty_and_hostile),
		cmocka_unit_test(test_utf8_valid),
		cmocka_unit_test(test_utf8_cut),
		cmocka_unit_test(test_latin1),
		cmocka_unit_test(test_json_str),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
