/* extract_docx_test.c - the .docx reader against a hostile document: empty
 * tracked changes listed nothing, and a flood of real ones is listed up to a
 * bound with the rest counted ("N more ... not listed"), so a small file
 * cannot grow into a huge text or metadata row (issue 17, item 8). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <jansson.h>

#include "base/base.h"
#include "extract/extract_int.h"

#define TMPDIR_TAG "docx"
#include "tmpdir.h"
#include "record_fixtures.h"

/* The archive at path, read whole, through the real reader. */
static int read_docx(struct sw_extract *x, const char *path, struct sw_err *err)
{
	struct sw_buf b;
	sw_buf_init(&b);
	assert_int_equal(sw_file_read(&b, path, (size_t)64 << 20, NULL), 0);
	sw_extract_init(x);
	int rc = sw__extract_docx(x, b.data, b.len, NULL, err);
	sw_buf_release(&b);
	return rc;
}

static void test_empty_changes(void **state)
{
	(void)state;
	struct sw_buf body;
	sw_buf_init(&body);
	sw_buf_adds(&body, "<w:p><w:r><w:t>Kept.</w:t></w:r></w:p><w:p>");
	for (int i = 0; i < 50000; i++)
		sw_buf_adds(&body, "<w:ins/><w:del w:author=\"M\"></w:del>");
	sw_buf_adds(&body, "<w:ins w:author=\"Ann\"><w:r><w:t>real</w:t></w:r></w:ins></w:p>");
	char *path = sw_xasprintf("%s/empty.docx", dir);
	fx_docx(path, body.data, "<w:comment w:id=\"1\" w:author=\"Cy\"><w:p/></w:comment>");

	struct sw_extract x;
	struct sw_err err = { 0 };
	assert_int_equal(read_docx(&x, path, &err), 0);
	/* Only the insertion with text is a change worth listing. */
	assert_int_equal(json_integer_value(json_object_get(x.meta, "tracked_insertions")), 1);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "tracked_deletions")), 0);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "comments")), 0);
	assert_int_equal(json_array_size(json_object_get(x.meta, "revisions")), 1);
	assert_non_null(strstr(x.text.data, "text inserted by Ann: \"real\""));
	assert_null(strstr(x.text.data, "by unknown"));
	assert_true(x.text.len < 200);
	sw_extract_release(&x);
	free(path);
	sw_buf_release(&body);
}

static void test_many_changes(void **state)
{
	(void)state;
	struct sw_buf body, com;
	sw_buf_init(&body);
	sw_buf_init(&com);
	sw_buf_adds(&body, "<w:p>");
	for (int i = 0; i < 20000; i++)
		sw_buf_addf(&body, "<w:ins w:author=\"A%d\"><w:r><w:t>word%d </w:t></w:r></w:ins>", i, i);
	sw_buf_adds(&body, "</w:p>");
	for (int i = 0; i < 3000; i++)
		sw_buf_addf(&com, "<w:comment w:id=\"%d\" w:author=\"C\"><w:p><w:r><w:t>note %d</w:t>"
			    "</w:r></w:p></w:comment>", i, i);
	char *path = sw_xasprintf("%s/many.docx", dir);
	fx_docx(path, body.data, com.data);

	struct sw_extract x;
	struct sw_err err = { 0 };
	assert_int_equal(read_docx(&x, path, &err), 0);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "tracked_insertions")), 20000);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "comments")), 3000);
	size_t listed = json_array_size(json_object_get(x.meta, "revisions"));
	assert_true(listed > 0 && listed <= 1000);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "revisions_not_listed")),
			 23000 - (json_int_t)listed);
	char *line = sw_xasprintf("%zu more tracked change(s) and comment(s) not listed",
				  (size_t)23000 - listed);
	assert_non_null(strstr(x.text.data, line));
	free(line);
	/* The accepted text holds every insertion; the list is bounded. */
	assert_non_null(strstr(x.text.data, "word19999 "));
	char *meta = json_dumps(x.meta, JSON_COMPACT);
	assert_true(strlen(meta) < (size_t)512 << 10);
	free(meta);
	bool warned = false;
	for (size_t i = 0; i < x.nwarnings; i++)
		warned |= strstr(x.warnings[i], "the first are listed at its end") != NULL;
	assert_true(warned);
	sw_extract_release(&x);
	free(path);
	sw_buf_release(&body);
	sw_buf_release(&com);
}

/* The XML reader without the archive reads as the archive's does. */
static void test_xml_direct(void **state)
{
	(void)state;
	static const char doc[] =
		"<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
		"<w:body><w:p><w:r><w:t>One</w:t></w:r><w:del w:author=\"B\"><w:r><w:delText>two"
		"</w:delText></w:r></w:del></w:p></w:body></w:document>";
	static const char com[] =
		"<w:comments xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
		"<w:comment w:author=\"C\"><w:p><w:r><w:t>why</w:t></w:r></w:p></w:comment></w:comments>";
	struct sw_extract x;
	struct sw_err err = { 0 };
	sw_extract_init(&x);
	assert_int_equal(sw__extract_docx_xml(&x, doc, strlen(doc), com, strlen(com), &err), 0);
	assert_non_null(strstr(x.text.data, "One\n"));
	assert_non_null(strstr(x.text.data, "text deleted by B: \"two\""));
	assert_non_null(strstr(x.text.data, "comment by C: \"why \""));
	sw_extract_release(&x);
	sw_extract_init(&x);
	assert_int_equal(sw__extract_docx_xml(&x, "<!DOCTYPE x><x/>", 16, NULL, 0, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "DOCTYPE"));
	sw_extract_release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_changes),
		cmocka_unit_test(test_many_changes),
		cmocka_unit_test(test_xml_direct),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
