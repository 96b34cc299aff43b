/*
 * extract_format_test.c - the one format registry: a file is picked by its
 * extension as Windows and vendors write it (upper case, a folder in the
 * path), an e-mail attachment by its name or its content type, a draft
 * without a telling extension by its first bytes; and text pages split on
 * form feeds as the importer and the drafts both read them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"

static const char *name_of(const struct sw_format *f)
{
	return f ? f->name : "(none)";
}

static void test_by_extension(void **state)
{
	(void)state;
	const struct sw_format *f = sw_format_by_ext("VOL001/NATIVES/REPORT.PDF");
	assert_string_equal(name_of(f), "pdf");
	assert_true(f->native);
	assert_non_null(f->extract);
	assert_string_equal(name_of(sw_format_by_ext("notes.markdown")), "markdown");
	assert_string_equal(name_of(sw_format_by_ext("a.TXT")), "text");
	assert_string_equal(name_of(sw_format_by_ext("a.eml")), "email");
	assert_string_equal(name_of(sw_format_by_ext("memo.docx")), "docx");
	/* Load files are formats with no extractor: their driver parses them. */
	f = sw_format_by_ext("DATA\\VOL001.DAT");
	assert_string_equal(name_of(f), "loadfile");
	assert_null(f->extract);
	assert_string_equal(name_of(sw_format_by_ext("IMAGES/VOL001.OPT")), "opt");
	assert_null(sw_format_by_ext("scan.tif"));
	assert_null(sw_format_by_ext("README"));
	assert_null(sw_format_by_ext(".pdf")); /* a hidden file's name, no extension */
}

static void test_attachments(void **state)
{
	(void)state;
	/* The content type names it when the name does not. */
	assert_string_equal(name_of(sw_format_of_attachment("scan0001", "application/pdf")), "pdf");
	assert_string_equal(name_of(sw_format_of_attachment("fwd", "message/rfc822")), "email");
	assert_string_equal(name_of(sw_format_of_attachment("body", "text/plain")), "text");
	/* The document formats come first: a .dat sent as text/plain is text. */
	assert_string_equal(name_of(sw_format_of_attachment("export.dat", "text/plain")), "text");
	assert_string_equal(name_of(sw_format_of_attachment("Q3.DOCX", NULL)), "docx");
	assert_string_equal(name_of(sw_format_of_attachment("a.md", NULL)), "markdown");
	assert_null(sw_format_of_attachment("logo.png", "image/png"));
	assert_null(sw_format_of_attachment("export.dat", NULL));
}

static void test_sniff_and_names(void **state)
{
	(void)state;
	assert_string_equal(name_of(sw_format_sniff("%PDF-1.7\n%\xe2\xe3", 11)), "pdf");
	assert_string_equal(name_of(sw_format_sniff("PK\x03\x04\x14\0", 6)), "docx");
	assert_null(sw_format_sniff("%PDF", 4)); /* too short to be sure */
	assert_null(sw_format_sniff("Dear Judge", 10));
	assert_null(sw_format_sniff("", 0));
	assert_string_equal(name_of(sw_format_by_name("email")), "email");
	assert_null(sw_format_by_name("pdf "));
}

/* The pages of text, each as "[start,len]". */
static void pages(char *out, size_t outsz, const char *text)
{
	size_t pos = 0, start, n, used = 0;
	out[0] = '\0';
	while (sw_extract_ff_page(text, strlen(text), &pos, &start, &n))
		used += (size_t)snprintf(out + used, outsz - used, "[%zu,%zu]", start, n);
}

static void test_form_feed_pages(void **state)
{
	(void)state;
	char got[128];
	pages(got, sizeof(got), "page one\fpage two");
	assert_string_equal(got, "[0,8][9,8]");
	pages(got, sizeof(got), "page one\f"); /* a final form feed adds no page */
	assert_string_equal(got, "[0,8]");
	pages(got, sizeof(got), "a\f\fb"); /* an empty page between two is one */
	assert_string_equal(got, "[0,1][2,0][3,1]");
	pages(got, sizeof(got), "");
	assert_string_equal(got, "[0,0]");
	pages(got, sizeof(got), "\f");
	assert_string_equal(got, "[0,0]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_extension),
		cmocka_unit_test(test_attachments),
		cmocka_unit_test(test_sniff_and_names),
		cmocka_unit_test(test_form_feed_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
