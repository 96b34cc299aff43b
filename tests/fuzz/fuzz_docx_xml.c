/*
 * fuzz_docx_xml.c - hostile XML through the .docx reader without the
 * archive (fuzz_docx barely gets past libzip's checks): the bytes up to the
 * first NUL are word/document.xml, the rest word/comments.xml.  Checks: a
 * failure has a message, pages tile the text, the list of tracked changes
 * and comments stays inside its bounds whatever the document holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "extract/extract_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_docx_xml: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_extract x;
	struct sw_err err = { 0 };
	const char *doc = (const char *)data;
	const char *nul = memchr(doc, '\0', size);
	size_t doclen = nul ? (size_t)(nul - doc) : size;
	const char *com = nul ? nul + 1 : NULL;
	size_t comlen = nul ? size - doclen - 1 : 0;

	sw_extract_init(&x);
	if (sw__extract_docx_xml(&x, doc, doclen, com, comlen, &err) != 0) {
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
	} else {
		size_t at = 0;
		check(x.npages >= 1, "no page");
		for (size_t i = 0; i < x.npages; i++) {
			check(x.pages[i].start == at, "pages do not tile the text");
			at += x.pages[i].len;
		}
		check(at == x.text.len, "pages do not end with the text");
		check(json_array_size(json_object_get(x.meta, "revisions")) <= 1000,
		      "more notes listed than the bound");
		/* The text is the input's (changes accepted) plus a bounded list. */
		check(x.text.len <= size + ((size_t)2 << 20), "text grew past the input");
	}
	sw_extract_release(&x);
	return 0;
}
