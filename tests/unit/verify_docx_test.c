/* verify_docx_test.c - the Word writer of verify --annotate (the module
 * sworn-verify.so, compiled into this test): comments spliced into
 * word/document.xml on exactly a claim's characters, a file whose text is
 * not the verified text refused, comment ids above the document's, a new
 * document written and annotated again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zip.h>

#include "verify/docx_int.h"

#define DOC_HEAD                                                                                   \
	"<w:document "                                                                             \
	"xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>"
#define DOC_TAIL "</w:body></w:document>"

static int splice(struct sw_buf *out, long *ids, const char *xml, const char *text,
		  const struct sw__docx_note *notes, size_t n, long first)
{
	struct sw__docx_job job = { .text = text, .len = strlen(text), .notes = notes,
				    .nnotes = n, .author = "sworn" };
	return sw__docx_splice(out, ids, xml, strlen(xml), &job, first, NULL, 0, NULL);
}

/* The claim's run is cut before and after it, the same w:rPr on every
 * piece, an entity kept whole, the cut w:t made to preserve its spaces. */
static void test_cut_on_the_claim(void **state)
{
	(void)state;
	const char *xml =
		DOC_HEAD "<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Smith &amp; Co. paid $5.</w:t>"
			 "</w:r></w:p>" DOC_TAIL;
	struct sw__docx_note note = { 0, 11, NULL }; /* "Smith & Co." */
	struct sw_buf out = SW_BUF_INIT;
	long id = -2;
	assert_int_equal(splice(&out, &id, xml, "Smith & Co. paid $5.\n", &note, 1, 0), 0);
	assert_int_equal(id, 0);
	assert_string_equal(out.data,
		DOC_HEAD "<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\"></w:t></w:r>"
		"<w:commentRangeStart w:id=\"0\"/><w:r><w:rPr><w:b/></w:rPr>"
		"<w:t xml:space=\"preserve\">Smith &amp; Co.</w:t></w:r>"
		"<w:commentRangeEnd w:id=\"0\"/><w:r><w:commentReference w:id=\"0\"/></w:r>"
		"<w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\"> paid $5.</w:t></w:r></w:p>"
		DOC_TAIL);
	sw_buf_release(&out);
}

/* A claim over two runs: the range starts in one and ends in the other. */
static void test_claim_over_runs(void **state)
{
	(void)state;
	const char *xml = DOC_HEAD
		"<w:p><w:r><w:t xml:space=\"preserve\">See </w:t></w:r>"
		"<w:r><w:rPr><w:i/></w:rPr><w:t>Celotex</w:t></w:r><w:r><w:t>, 477 U.S. 317.</w:t>"
		"</w:r></w:p>" DOC_TAIL;
	const char *text = "See Celotex, 477 U.S. 317.\n";
	struct sw__docx_note note = { 4, 25, NULL };
	struct sw_buf out = SW_BUF_INIT;
	long id;
	assert_int_equal(splice(&out, &id, xml, text, &note, 1, 3), 0);
	assert_int_equal(id, 3);
	const char *s =
		strstr(out.data, "<w:commentRangeStart w:id=\"3\"/><w:r><w:rPr><w:i/></w:rPr>"
				 "<w:t xml:space=\"preserve\">Celotex");
	const char *e = strstr(out.data, "477 U.S. 317</w:t></w:r><w:commentRangeEnd w:id=\"3\"/>");
	assert_non_null(s);
	assert_non_null(e);
	assert_true(s < e);
	sw_buf_release(&out);
}

/* A file whose text is not the verified one is refused; a claim with no
 * character in a run (a table's tab) gets no comment; ids start above the
 * document's own. */
static void test_refusals_and_ids(void **state)
{
	(void)state;
	const char *xml = DOC_HEAD
		"<w:p><w:commentRangeStart w:id=\"4\"/><w:r><w:t>A</w:t></w:r>"
		"<w:commentRangeEnd w:id=\"4\"/></w:p>"
		"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>B</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r>"
		"<w:t>C</w:t></w:r></w:p></w:tc></w:tr></w:tbl>" DOC_TAIL;
	struct sw_buf out = SW_BUF_INIT;
	long ids[3];
	/* "\t"; "C"; "A\nB\tC", from the body into a table's cell */
	struct sw__docx_note notes[3] = { { 3, 4, NULL }, { 4, 5, NULL }, { 0, 5, NULL } };
	assert_int_equal(splice(&out, ids, xml, "A\nB\tD\n", notes, 2, 0), SW_EINPUT);
	/* A document with more text than was verified (reading stops there). */
	assert_int_equal(splice(&out, ids, xml, "A\n", notes, 0, 0), SW_EINPUT);
	assert_int_equal(splice(&out, ids, xml, "A", notes, 0, 0), SW_EINPUT);
	sw_buf_reset(&out);
	assert_int_equal(splice(&out, ids, xml, "A\nB\tC\n", notes, 3, 0), 0);
	assert_int_equal(ids[0], -1);
	assert_int_equal(ids[1], 5);
	/* A range from the body into a cell starts where the cell does. */
	assert_int_equal(ids[2], 6);
	assert_non_null(strstr(out.data,
			       "<w:commentRangeStart w:id=\"5\"/><w:commentRangeStart "
			       "w:id=\"6\"/><w:r><w:t xml:space=\"preserve\">C</w:t></w:r>"));
	/* The reader's list of tracked changes after the text is allowed. */
	sw_buf_reset(&out);
	assert_int_equal(splice(&out, ids, xml,
				"A\nB\tC\n\n[Tracked changes and comments]\ncomment by X: \"y\"\n",
				notes, 2, 0), 0);
	assert_int_equal(sw__docx_max_comment_id(xml, strlen(xml)), 4);
	sw_buf_release(&out);
	/* A DOCTYPE is refused. */
	const char *dt = "<!DOCTYPE x [<!ENTITY a \"b\">]>" DOC_HEAD DOC_TAIL;
	assert_int_equal(splice(&out, ids, dt, "", notes, 0, 0), SW_EINPUT);
	sw_buf_release(&out);
}

/* How many times needle is in entry name of the archive of len bytes. */
static size_t count_in(const char *docx, size_t len, const char *name, const char *needle)
{
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_buffer_create(docx, len, 0, &ze);
	zip_t *za = src ? zip_open_from_source(src, ZIP_RDONLY, &ze) : NULL;
	assert_non_null(za);
	zip_stat_t st;
	assert_int_equal(zip_stat(za, name, 0, &st), 0);
	char *buf = calloc(1, st.size + 1);
	zip_file_t *f = zip_fopen(za, name, 0);
	assert_int_equal(zip_fread(f, buf, st.size), (zip_int64_t)st.size);
	zip_fclose(f);
	zip_discard(za);
	size_t n = 0;
	for (const char *p = buf; (p = strstr(p, needle)) != NULL; p++)
		n++;
	free(buf);
	return n;
}

/* A new document of a text, then annotated again: every note placed. */
static void test_create_then_annotate(void **state)
{
	(void)state;
	const char *text = "# Facts\n\nThe invoice is ACME0000012 & more.\tTab\fPage two.\n";
	char first[] = "unsupported bates\nnot in the production", second[] = "a second";
	struct sw__docx_note notes[2] = { { 24, 35, first }, { 46, 55, second } };
	struct sw__docx_job job = { .text = text,
				    .len = strlen(text),
				    .notes = notes,
				    .nnotes = 2,
				    .author = "sworn",
				    .date = "2026-01-02T03:04:05Z" };
	struct sw_buf made = SW_BUF_INIT, again = SW_BUF_INIT;
	size_t anchored = 0;
	assert_int_equal(sw__verify_docx_v1.create(&made, &job, NULL), 0);
	assert_true(made.len > 4 && memcmp(made.data, "PK\3\4", 4) == 0);
	/* The new document reads as the same text, so it can be annotated. */
	struct sw_err err = { 0 };
	if (sw__verify_docx_v1.annotate(&again, &anchored, made.data, made.len, &job, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(anchored, 2);
	/* Annotated again: an earlier annotation's comments (the new
	 * document's, sworn's) are replaced, numbered above the ids they had. */
	struct sw_buf third = SW_BUF_INIT;
	assert_int_equal(sw__verify_docx_v1.annotate(&third, &anchored, again.data, again.len,
						     &job, NULL), 0);
	assert_int_equal(anchored, 2);
	assert_int_equal(count_in(again.data, again.len, "word/comments.xml", "<w:comment "), 2);
	assert_int_equal(count_in(third.data, third.len, "word/comments.xml", "<w:comment "), 2);
	assert_int_equal(count_in(third.data, third.len, "word/document.xml",
				  "<w:commentReference "), 2);
	assert_int_equal(count_in(third.data, third.len, "word/comments.xml", "w:id=\"4\""), 1);
	sw_buf_release(&third);
	/* Not a zip. */
	sw_buf_reset(&again);
	assert_int_equal(sw__verify_docx_v1.annotate(&again, &anchored, "hello", 5, &job, &err),
			 SW_EINPUT);
	assert_non_null(strstr(err.msg, "not a .docx"));
	sw_buf_release(&made);
	sw_buf_release(&again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_on_the_claim),
		cmocka_unit_test(test_claim_over_runs),
		cmocka_unit_test(test_refusals_and_ids),
		cmocka_unit_test(test_create_then_annotate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
