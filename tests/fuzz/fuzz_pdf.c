/*
 * fuzz_pdf.c - hostile PDF bytes through the PDF page extractor (poppler),
 * text layer only (no OCR, one reader on the caller's thread, two pages a
 * round, so that a PDF of five pages or more is read by a page walk and its
 * broken trees fall back to poppler-glib), pages handed to a sink one at a
 * time as sworn ingest stores them.  Checks: a failure has a message;
 * each page handed on is the whole of the text held, in order, and holds
 * no NUL; pages given to the sink are not also kept.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_pdf: %s", what);
}

struct seen {
	size_t pages;
	size_t bytes;
};

static int sink(void *ctx, const struct sw_xpage *page, const char *text, size_t len,
		struct sw_err *err)
{
	struct seen *s = ctx;
	(void)err;
	check(page->start == 0 && page->len == len, "a page is not the text held");
	check(memchr(text, '\0', len) == NULL, "a NUL inside page text");
	s->pages++;
	s->bytes += len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_extract x;
	struct sw_err err = { 0 };
	struct sw_extract_opts opts = { .ocr = false, .threads = 1, .text_threads = 1,
					.text_chunk = 2 };
	struct seen s = { 0 };

	sw_extract_init(&x);
	x.sink = sink;
	x.sink_ctx = &s;
	if (sw__extract_pdf(&x, (const char *)data, size, &opts, &err) != 0)
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
	else
		check(s.pages >= 1 && x.npages == 0, "pages kept although a sink took them");
	sw_extract_release(&x);
	return 0;
}
