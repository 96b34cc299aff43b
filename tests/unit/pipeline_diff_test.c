/*
 * pipeline_diff_test.c - sw_word_diff: the ops (merged runs of kept,
 * removed and added words, white space normalised) and the statistics,
 * for identical texts, texts with nothing in common, a changed word,
 * inserted words, reordered paragraphs, Unicode text and spaces, empty
 * sides, a long text with scattered edits, one too unlike for the
 * search's budget, and the size limit.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline/pipeline.h"

/* The ops as one line: `=a b|-c|+d`. */
static char *flat(const json_t *ops)
{
	struct sw_buf b = SW_BUF_INIT;
	size_t i;
	json_t *op;
	json_array_foreach(ops, i, op) {
		if (i)
			sw_buf_addc(&b, '|');
		assert_int_equal(json_array_size(op), 2);
		sw_buf_adds(&b, json_string_value(json_array_get(op, 0)));
		sw_buf_adds(&b, json_string_value(json_array_get(op, 1)));
	}
	return sw_buf_detach(&b, NULL);
}

static void check(const char *a, const char *b, const char *want, size_t kept, size_t changed,
		  size_t added, size_t removed)
{
	json_t *ops = NULL;
	struct sw_diff_stats st;
	struct sw_err err = { 0 };
	assert_int_equal(sw_word_diff(&ops, &st, a, strlen(a), b, strlen(b), &err), 0);
	char *got = flat(ops);
	if (strcmp(got, want) != 0)
		print_error("diff of '%s' and '%s'\n  want %s\n  got  %s\n", a, b, want, got);
	assert_string_equal(got, want);
	assert_int_equal(st.kept, kept);
	assert_int_equal(st.changed, changed);
	assert_int_equal(st.added, added);
	assert_int_equal(st.removed, removed);
	free(got);
	json_decref(ops);
}

static void test_identical(void **state)
{
	(void)state;
	/* Different white space is no difference. */
	check("I, Dana Whitaker, declare:\n\n1. I am the controller.",
	      "I,  Dana Whitaker,\tdeclare:\r\n1. I am the\ncontroller.",
	      "=I, Dana Whitaker, declare: 1. I am the controller.", 9, 0, 0, 0);
}

static void test_all_new(void **state)
{
	(void)state;
	check("The shipment was late.", "Acme paid in full on April 9.",
	      "-The shipment was late.|+Acme paid in full on April 9.", 0, 4, 3, 0);
}

static void test_word_changed(void **state)
{
	(void)state;
	check("Brightline shipped the order on March 31, 2021 (BLT-000006).",
	      "Brightline shipped the order on March 30, 2021 (BLT-000006).",
	      "=Brightline shipped the order on March|-31,|+30,|=2021 (BLT-000006).", 8, 1, 0, 0);
}

static void test_inserted_and_removed(void **state)
{
	(void)state;
	check("Acme ordered widgets. Brightline shipped them late.",
	      "Acme ordered 400 blue widgets. Brightline shipped them late.",
	      "=Acme ordered|+400 blue|=widgets. Brightline shipped them late.", 7, 0, 2, 0);
	check("Acme ordered 400 blue widgets on March 1. Brightline shipped them late.",
	      "Acme ordered widgets. Brightline shipped them late.",
	      "=Acme ordered|-400 blue widgets on March 1.|+widgets.|=Brightline shipped them late.",
	      6, 1, 0, 5);
}

static void test_reordered_paragraphs(void **state)
{
	(void)state;
	/* Two paragraphs swapped: the longer one is kept, the other removed
	 * where it was and added where it went (not "changed": they are not
	 * side by side). */
	check("First, the order was placed on March 1.\n\nSecond, it shipped on March 31.",
	      "Second, it shipped on March 31.\n\nFirst, the order was placed on March 1.",
	      "+Second, it shipped on March 31.|=First, the order was placed on March 1."
	      "|-Second, it shipped on March 31.",
	      8, 0, 6, 6);
}

static void test_unicode(void **state)
{
	(void)state;
	/* A no-break space and an em space are blanks; accented words and
	 * curly quotes are words, never split inside a character. */
	check("Jos\xc3\xa9 M\xc3\xbcller said \xe2\x80\x9cno\xe2\x80\x9d\xc2\xa0on\xe2\x80\x83" "5\xc2\xa0March.",
	      "Jos\xc3\xa9 M\xc3\xbcller said \xe2\x80\x9cyes\xe2\x80\x9d on 5 March.",
	      "=Jos\xc3\xa9 M\xc3\xbcller said|-\xe2\x80\x9cno\xe2\x80\x9d|+\xe2\x80\x9cyes\xe2\x80\x9d|=on 5 March.",
	      6, 1, 0, 0);
}

static void test_empty_sides(void **state)
{
	(void)state;
	check("", "", "", 0, 0, 0, 0);
	check("  \n\t ", "", "", 0, 0, 0, 0);
	check("", "The record does not show.", "+The record does not show.", 0, 0, 5, 0);
	check("The record does not show.", " ", "-The record does not show.", 0, 0, 0, 5);
}

/* A long text with an edit every 50 words: each edit is found alone, and
 * repeated words (the same sentence many times) do not confuse it. */
static void test_long(void **state)
{
	(void)state;
	struct sw_buf a = SW_BUF_INIT, b = SW_BUF_INIT;
	size_t words = 0;
	for (int i = 0; i < 4000; i++) {
		sw_buf_addf(&a, "w%d the ", i);
		if (i % 25 == 0)
			sw_buf_addf(&b, "x%d the ", i);
		else
			sw_buf_addf(&b, "w%d the ", i);
		words += 2;
	}
	json_t *ops = NULL;
	struct sw_diff_stats st;
	assert_int_equal(sw_word_diff(&ops, &st, a.data, a.len, b.data, b.len, NULL), 0);
	assert_int_equal(st.changed, 160);
	assert_int_equal(st.kept, words - 160);
	assert_int_equal(st.added + st.removed, 0);
	assert_int_equal(json_array_size(ops), 160 * 3);
	json_decref(ops);

	/* Nothing in common at all, many words: removed and added whole. */
	sw_buf_reset(&b);
	for (int i = 0; i < 3000; i++)
		sw_buf_addf(&b, "y%d ", i);
	assert_int_equal(sw_word_diff(&ops, &st, a.data, a.len, b.data, b.len, NULL), 0);
	assert_int_equal(st.kept, 0);
	assert_int_equal(st.changed, 3000);
	assert_int_equal(st.removed, words - 3000);
	json_decref(ops);
	sw_buf_release(&a);
	sw_buf_release(&b);
}

/* Few distinct words (no word unique to anchor on) and an edit in every
 * hundred words, too many for Myers' budget: the search splits where it
 * got furthest and still finds nearly every kept word. */
static void test_past_budget(void **state)
{
	(void)state;
	struct sw_buf a = SW_BUF_INIT, b = SW_BUF_INIT;
	uint32_t seed = 12345;
	size_t words = 300000, edits = 0;
	for (size_t i = 0; i < words; i++) {
		seed = seed * 1103515245u + 12345u;
		unsigned w = (seed >> 16) % 60;
		sw_buf_addf(&a, "v%u ", w);
		if (i % 100 == 50) {
			sw_buf_addf(&b, "edited%u ", w);
			edits++;
		} else {
			sw_buf_addf(&b, "v%u ", w);
		}
	}
	json_t *ops = NULL;
	struct sw_diff_stats st;
	assert_int_equal(sw_word_diff(&ops, &st, a.data, a.len, b.data, b.len, NULL), 0);
	assert_int_equal(st.kept + st.changed + st.removed, words);
	assert_int_equal(st.kept + st.changed + st.added, words);
	/* Each edited word is one changed word, or (where a split fell
	 * beside it) one removed and one added; all the rest are kept. */
	assert_true(st.kept >= words - edits - edits / 50);
	assert_true(st.changed >= edits - edits / 10);
	json_decref(ops);
	sw_buf_release(&a);
	sw_buf_release(&b);
}

static void test_limit(void **state)
{
	(void)state;
	size_t n = SW_DIFF_MAX_BYTES + 1;
	char *big = sw_xmalloc(n);
	memset(big, 'a', n);
	json_t *ops = NULL;
	struct sw_diff_stats st;
	struct sw_err err = { 0 };
	assert_int_equal(sw_word_diff(&ops, &st, big, n, "a", 1, &err), SW_ELIMIT);
	assert_null(ops);
	assert_non_null(strstr(err.msg, "at most"));
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_all_new),
		cmocka_unit_test(test_word_changed),
		cmocka_unit_test(test_inserted_and_removed),
		cmocka_unit_test(test_reordered_paragraphs),
		cmocka_unit_test(test_unicode),
		cmocka_unit_test(test_empty_sides),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_past_budget),
		cmocka_unit_test(test_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
