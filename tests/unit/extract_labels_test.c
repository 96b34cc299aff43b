/*
 * extract_labels_test.c - the rows of a labels CSV as people and
 * spreadsheets write them, read through base/'s CSV reader: a blank before
 * a quoted field, a quoted field across lines (Excel's Alt+Enter), a quote
 * never closed, comments, a header, a description column.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"

static void check_row(const struct sw_labels *l, size_t i, int line, const char *label,
		      const char *target)
{
	assert_true(i < l->n);
	const struct sw_label_row *r = &l->rows[i];
	assert_int_equal(r->line, line);
	if (!label) {
		assert_null(r->label);
		assert_null(r->target);
		return;
	}
	assert_non_null(r->label);
	assert_string_equal(r->label, label);
	assert_string_equal(r->target, target);
}

static void test_hand_written(void **state)
{
	(void)state;
	struct sw_labels l;
	static const char text[] =
		"# exhibits for the Acme motion\n"
		"Exhibit,Bates,Description\n"
		"Exhibit 4, ACME0000003\n"
		"Ex. 5, \"ACME0000009\"\n"
		"\"ECF No. 45\",ACME0000007,\"the order, entered\"\n"
		"\"Ex. \"\"A\"\"\",ACME0000011\n"
		"just one field\n"
		",,\n"
		"\n"
		"Ex. 6,ACME0000012";
	sw_labels_parse(&l, text, sizeof(text) - 1);
	assert_int_equal(l.n, 6);
	check_row(&l, 0, 3, "Exhibit 4", "ACME0000003");
	check_row(&l, 1, 4, "Ex. 5", "ACME0000009");
	check_row(&l, 2, 5, "ECF No. 45", "ACME0000007");
	check_row(&l, 3, 6, "Ex. \"A\"", "ACME0000011");
	check_row(&l, 4, 7, NULL, NULL);
	check_row(&l, 5, 10, "Ex. 6", "ACME0000012"); /* after blank rows, no final newline */
	sw_labels_release(&l);
}

static void test_excel_shapes(void **state)
{
	(void)state;
	struct sw_labels l;
	/* Excel: CRLF, semicolons, a label typed with Alt+Enter (a newline
	 * inside its quotes), the row after it on its own line number. */
	static const char text[] = "Label;Target\r\n\"Def.\nEx. 1\";BLT-000001\r\nEx. 2;BLT-000002\r\n;\r\n";
	sw_labels_parse(&l, text, sizeof(text) - 1);
	assert_int_equal(l.n, 2);
	check_row(&l, 0, 2, "Def.\nEx. 1", "BLT-000001");
	check_row(&l, 1, 4, "Ex. 2", "BLT-000002");
	sw_labels_release(&l);

	/* A quote never closed makes one bad row where it opens. */
	static const char open_quote[] = "Ex. 1,BLT-000001\n\"Ex. 2,BLT-000002\nEx. 3,BLT-000003\n";
	sw_labels_parse(&l, open_quote, sizeof(open_quote) - 1);
	assert_int_equal(l.n, 2);
	check_row(&l, 0, 1, "Ex. 1", "BLT-000001");
	check_row(&l, 1, 2, NULL, NULL);
	sw_labels_release(&l);

	/* Nothing at all. */
	sw_labels_parse(&l, "", 0);
	assert_int_equal(l.n, 0);
	sw_labels_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_written),
		cmocka_unit_test(test_excel_shapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
