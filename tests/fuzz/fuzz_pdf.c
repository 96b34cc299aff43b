/*
 * fuzz_pdf.c - hostile PDF bytes through the PDF page extractor (poppler),
 * text layer only (no OCR, one reader on the caller's thread, two pages a
 * round, so that a PDF of five pages or more is read by a page walk and its
 * broken trees fall back to the catalog reader), pages handed to a sink one
 * at a time as sworn ingest stores them.  Checks: a failure has a message;
 * each page handed on is the whole of the text held, in order, and holds
 * no NUL; pages given to the sink are not also kept; and a PDF read by
 * walks reads the same, page for page, as the catalog reader alone reads it
 * (tests/unit/extract_pdf_walk_test.c checks that against poppler-glib).
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
	struct sw_buf all; /* every page's text, each ended by a form feed */
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
	sw_buf_add(&s->all, text, len);
	sw_buf_addc(&s->all, '\f');
	return 0;
}

/* Extract data as opts say; 0 or the error, with what the sink saw. */
static int extract(const uint8_t *data, size_t size, const struct sw_extract_opts *opts,
		   struct seen *s)
{
	struct sw_extract x;
	struct sw_err err = { 0 };
	sw_extract_init(&x);
	x.sink = sink;
	x.sink_ctx = s;
	int rc = sw__extract_pdf(&x, (const char *)data, size, opts, &err);
	if (rc != 0)
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
	else
		check(s->pages >= 1 && x.npages == 0, "pages kept although a sink took them");
	sw_extract_release(&x);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Pages draw within bounds far below sworn's own (which under ASan
	 * are half a minute of one page's drawing), so that an input stays
	 * fast; the code that holds them is the same.  Each form drawn is
	 * fetched and parsed again, the most of an input's time: fifty
	 * forms (and fifty thousand operators) ran the target half again as
	 * fast as two hundred.  Two seconds a page, well inside the timeout. */
	struct sw_extract_opts walked = { .ocr = false, .threads = 1, .text_threads = 1,
					  .text_chunk = 2, .pdf_page_chars = 5000,
					  .pdf_page_ops = 50000, .pdf_page_forms = 50,
					  .pdf_page_ms = 2000 };
	struct sw_extract_opts alone = walked;
	alone.text_alone = true;
	struct seen s = { .all = SW_BUF_INIT }, ref = { .all = SW_BUF_INIT };

	int rc = extract(data, size, &walked, &s);
	/* Five pages or more were read by page walks (two a round): they must
	 * be what the catalog reader alone reads, page for page. */
	if (rc == 0 && s.pages >= 5) {
		check(extract(data, size, &alone, &ref) == 0, "the catalog reader alone fails");
		check(ref.pages == s.pages, "the walks gave another page count");
		check(ref.all.len == s.all.len && memcmp(ref.all.data, s.all.data, s.all.len) == 0,
		      "the walks gave other text than the catalog reader alone");
	}
	sw_buf_release(&s.all);
	sw_buf_release(&ref.all);
	return 0;
}
