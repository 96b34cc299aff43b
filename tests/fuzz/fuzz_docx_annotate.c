/*
 * fuzz_docx_annotate.c - hostile word/document.xml through the Word writer
 * of verify --annotate (docx_splice.c, compiled in from the module
 * sworn-verify.so).  Checks: the writer reads the part as extract/'s .docx
 * reader does (the same text, before the reader's list of changes); comments
 * spliced on spans of it leave that text unchanged, and the result is
 * well-formed; a failure has a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"
#include "verify/docx_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_docx_annotate: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *xml = (const char *)data;
	struct sw_buf text = SW_BUF_INIT, joined = SW_BUF_INIT, out = SW_BUF_INIT,
		      again = SW_BUF_INIT;
	struct sw_err err = { 0 };
	struct sw_extract x;

	sw_extract_init(&x);
	if (sw__docx_text(&text, xml, size, &err) != 0) {
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
		goto done;
	}
	/* The same text as the reader's (which may add its list of changes). */
	if (sw__extract_docx_xml(&x, xml, size, NULL, 0, &err) == 0) {
		sw_extract_join(&joined, &x);
		check(joined.len >= text.len && memcmp(joined.data, text.data, text.len) == 0,
		      "the writer reads another text than extract/'s reader");
	}
	/* Comments on the whole text, its middle third and its first byte. */
	size_t n = text.len;
	struct sw__docx_note notes[3] = { { 0, n, NULL }, { n / 3, 2 * n / 3, NULL },
					  { 0, n ? 1 : 0, NULL } };
	long ids[3];
	struct sw__docx_job job = { .text = text.data, .len = n, .notes = notes, .nnotes = 3,
				    .author = "sworn" };
	long drop[2] = { 0, 1 }; /* any marks of comments 0 and 1 taken out */
	check(sw__docx_splice(&out, ids, xml, size, &job, 0, drop, 2, &err) == 0,
	      "the writer refuses the text it read");
	check(sw__docx_text(&again, out.data, out.len, &err) == 0, "the result is not well-formed");
	check(again.len == text.len && memcmp(again.data, text.data, text.len) == 0,
	      "the comments changed the text");
done:
	sw_extract_release(&x);
	sw_buf_release(&text);
	sw_buf_release(&joined);
	sw_buf_release(&out);
	sw_buf_release(&again);
	return 0;
}
