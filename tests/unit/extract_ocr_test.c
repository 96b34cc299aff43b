/*
 * extract_ocr_test.c - the OCR budget of an import (pages, seconds, taken
 * from any thread) and how sw_extract_image_pages keeps the pages it does
 * not read: over the budget or without --ocr (image_only, a page each, in
 * order), and an image that does not decode (empty, with the reason).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "extract/extract.h"

static void test_no_budget(void **state)
{
	(void)state;
	assert_true(sw_ocr_budget_take(NULL));
	struct sw_ocr_budget b = { 0 };
	for (int i = 0; i < 1000; i++)
		assert_true(sw_ocr_budget_take(&b));
	assert_int_equal(b.used, 1000);
	assert_int_equal(b.refused, 0);
	assert_false(b.reached);
}

static void test_page_budget(void **state)
{
	(void)state;
	struct sw_ocr_budget b = { .max_pages = 2 };
	assert_true(sw_ocr_budget_take(&b));
	assert_true(sw_ocr_budget_take(&b));
	assert_false(b.reached);
	assert_false(sw_ocr_budget_take(&b));
	assert_false(sw_ocr_budget_take(&b));
	assert_true(b.reached);
	assert_false(b.by_time);
	assert_int_equal(b.used, 2);
	assert_int_equal(b.refused, 2);
}

static void test_time_budget(void **state)
{
	(void)state;
	struct sw_ocr_budget b = { .max_seconds = 0.01 };
	/* The clock starts at the first page, which is always read. */
	assert_true(sw_ocr_budget_take(&b));
	struct timespec ts = { 0, 30 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	assert_false(sw_ocr_budget_take(&b));
	assert_true(b.reached);
	assert_true(b.by_time);
	assert_int_equal(b.refused, 1);
}

/* Without OCR, or past the budget, every page is there, empty, in order:
 * nothing is decoded or read. */
static void test_pages_not_read(void **state)
{
	(void)state;
	static const unsigned char junk[] = "not an image, only text of some length";
	struct sw_image_page pages[3];
	for (size_t i = 0; i < 3; i++)
		pages[i] = (struct sw_image_page){ junk, sizeof(junk) - 1, i, "x.tif" };
	struct sw_extract x;
	struct sw_err err = { 0 };

	sw_extract_init(&x);
	struct sw_extract_opts off = { .ocr = false };
	assert_int_equal(sw_extract_image_pages(&x, pages, 3, &off, &err), 0);
	assert_int_equal(x.npages, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_true(x.pages[i].image_only);
		assert_false(x.pages[i].over_budget);
		assert_int_equal(x.pages[i].len, 0);
	}
	assert_int_equal(x.nwarnings, 0);
	sw_extract_release(&x);

	sw_extract_init(&x);
	struct sw_ocr_budget spent = { .max_pages = 1, .used = 1 };
	struct sw_extract_opts over = { .ocr = true, .threads = 2, .budget = &spent };
	assert_int_equal(sw_extract_image_pages(&x, pages, 3, &over, &err), 0);
	assert_int_equal(x.npages, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_true(x.pages[i].image_only);
		assert_true(x.pages[i].over_budget);
	}
	assert_int_equal(spent.refused, 3);
	assert_int_equal(x.nwarnings, 1);
	assert_non_null(strstr(x.warnings[0], "OCR budget reached: 3 scanned page(s)"));
	sw_extract_release(&x);
}

/* An image that does not decode was tried: an empty page, not image_only,
 * and a warning naming the file and the page. */
static void test_page_not_an_image(void **state)
{
	(void)state;
	static const unsigned char junk[] = "not an image, only text of some length";
	struct sw_image_page page = { junk, sizeof(junk) - 1, 0, "IMAGES\\A1.tif" };
	struct sw_extract x;
	struct sw_err err = { 0 };
	struct sw_extract_opts on = { .ocr = true, .threads = 1 };

	sw_extract_init(&x);
	assert_int_equal(sw_extract_image_pages(&x, &page, 1, &on, &err), 0);
	assert_int_equal(x.npages, 1);
	assert_false(x.pages[0].image_only);
	assert_false(x.pages[0].ocr);
	assert_int_equal(x.nwarnings, 1);
	assert_non_null(strstr(x.warnings[0], "page 1 of image 'IMAGES\\A1.tif'"));
	sw_extract_release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_budget),
		cmocka_unit_test(test_page_budget),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_pages_not_read),
		cmocka_unit_test(test_page_not_an_image),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
