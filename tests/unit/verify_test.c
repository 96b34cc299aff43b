/*
 * verify_test.c - verify/'s quotation matching: folding, Bluebook
 * alterations, ellipses, and words that differ.  (The verdict rules run on a
 * real matter in tests/cli/verify.sh.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "verify/verify.h"

static const char page[] =
	"We will not make the March 10 date for PO 4471. The earliest we can ship is\n"
	"March 31, 2021. I know this is past the thirty days in the \xe2\x80\x9c" "agreement\xe2\x80\x9d.\n"
	"It says \xe2\x80\x9cLate delivery credit applied: none.\xe2\x80\x9d \xe2\x80\x94 Billing";

static bool in(const char *q)
{
	return sw_verify_quote_in(q, strlen(q), page, strlen(page), NULL, NULL);
}

static void test_quotes(void **state)
{
	(void)state;
	assert_true(in("The earliest we can ship is March 31, 2021."));
	assert_true(in("[t]he earliest we can ship is March 31, 2021"));
	assert_true(in("the earliest   we can ship is\nmarch 31"));
	assert_true(in("We will not make the March 10 date . . . . The earliest we can ship"));
	assert_true(in("We will not make the March 10 date ... past the thirty days"));
	assert_true(in("[Brightline] will not make the March 10 date"));
	assert_true(in("past the thirty days in the 'agreement'"));
	assert_true(in("It says 'Late delivery credit applied: none.' - Billing"));
	assert_false(in("The earliest we could ship is March 31, 2021."));
	assert_false(in("Late delivery credit applied: full."));
	assert_false(in("the thirty days ... We will not make")); /* out of order */
	assert_false(in(""));
	size_t s = 0, e = 0;
	const char *q = "earliest we can ship";
	assert_true(sw_verify_quote_in(q, strlen(q), page, strlen(page), &s, &e));
	assert_int_equal(e - s, strlen(q));
	assert_memory_equal(page + s, q, strlen(q));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(sw_verdict_name(SW_VERDICT_SUPPORTED), "supported");
	assert_string_equal(sw_verdict_name(SW_VERDICT_CONTRADICTED), "contradicted");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
