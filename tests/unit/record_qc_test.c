/*
 * record_qc_test.c - the production QC report's machine forms (qc_report.c),
 * which `sworn matter qc` and `sworn serve` both write: the JSON's shape
 * (nulls for a finding without a line or a Bates number, the totals, the
 * text coverage), and the CSV's quoting (quotes doubled, a cell that a
 * spreadsheet would run as a formula prefixed with an apostrophe).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "record/record.h"

static void volume(struct sw_qc_volume *v)
{
	memset(v, 0, sizeof(*v));
	v->name = sw_xstrdup("VOL001");
	v->dat = sw_xstrdup("VOL001/DATA/VOL001.DAT");
	v->imported_at = sw_xstrdup("2026-12-07T10:00:00Z");
	v->documents = 3;
	v->pages = 7;
	v->texts = 2;
	sw_qc_add(v, SW_QC_GAP, 4, "ABC0004-ABC0006", "3 number(s) missing");
	sw_qc_add(v, SW_QC_NO_IMAGE, 0, NULL, "the \"image\" is not found");
	sw_qc_add(v, SW_QC_BAD_DATE, 2, "=ABC0001", "-1 is not a date");
}

static void test_json(void **state)
{
	(void)state;
	struct sw_qc_volume v;
	volume(&v);
	json_t *j = sw_qc_report_json("acme", &v, 1);
	assert_string_equal(json_string_value(json_object_get(j, "matter")), "acme");
	json_t *vol = json_array_get(json_object_get(j, "volumes"), 0);
	assert_non_null(vol);
	assert_true(json_is_null(json_object_get(vol, "opt")));
	json_t *t = json_object_get(vol, "totals");
	assert_int_equal(json_integer_value(json_object_get(t, "pages")), 7);
	assert_int_equal(json_integer_value(json_object_get(t, "text_coverage_percent")), 66);
	json_t *f = json_object_get(vol, "findings");
	assert_int_equal(json_array_size(f), 3);
	json_t *gap = json_array_get(f, 0), *img = json_array_get(f, 1);
	assert_string_equal(json_string_value(json_object_get(gap, "kind")), "gap");
	assert_string_equal(json_string_value(json_object_get(gap, "title")), "Bates gaps");
	assert_int_equal(json_integer_value(json_object_get(gap, "line")), 4);
	assert_string_equal(json_string_value(json_object_get(gap, "bates")), "ABC0004-ABC0006");
	assert_string_equal(json_string_value(json_object_get(gap, "fix")),
			    sw_qc_kind_fix(SW_QC_GAP));
	assert_true(json_is_null(json_object_get(img, "line")));
	assert_true(json_is_null(json_object_get(img, "bates")));
	assert_int_equal(json_integer_value(json_object_get(vol, "unlisted")), 0);
	json_decref(j);
	sw_qc_volume_release(&v);
}

static void test_coverage(void **state)
{
	(void)state;
	struct sw_qc_volume v = { 0 };
	assert_int_equal(sw_qc_text_coverage(&v), 0); /* no documents: 0, not a division */
	v.documents = 4;
	v.texts = 4;
	assert_int_equal(sw_qc_text_coverage(&v), 100);
}

static void test_csv(void **state)
{
	(void)state;
	struct sw_qc_volume v;
	struct sw_buf b = SW_BUF_INIT;
	volume(&v);
	sw_qc_report_csv(&b, &v, 1);
	sw_buf_addc(&b, '\0');
	char *want = sw_xasprintf(
		"volume,kind,line,bates,detail,fix\n"
		"\"VOL001\",\"gap\",\"4\",\"ABC0004-ABC0006\",\"3 number(s) missing\",\"%s\"\n"
		"\"VOL001\",\"no_image\",\"\",\"\",\"the \"\"image\"\" is not found\",\"%s\"\n"
		"\"VOL001\",\"bad_date\",\"2\",\"'=ABC0001\",\"'-1 is not a date\",\"%s\"\n",
		sw_qc_kind_fix(SW_QC_GAP), sw_qc_kind_fix(SW_QC_NO_IMAGE),
		sw_qc_kind_fix(SW_QC_BAD_DATE));
	assert_string_equal(b.data, want);
	free(want);
	sw_buf_release(&b);

	/* no volumes: the header alone */
	sw_qc_report_csv(&b, NULL, 0);
	sw_buf_addc(&b, '\0');
	assert_string_equal(b.data, "volume,kind,line,bates,detail,fix\n");
	sw_buf_release(&b);
	sw_qc_volume_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
