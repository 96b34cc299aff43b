/* pdf_walk.h - a PDF's pages read in order, each built and dropped again
 * (pdf_walk.cc, poppler's C++ classes behind a C interface).  Internal to
 * extract/: pdf_pages.c reads long PDFs with it. */
#ifndef SW_EXTRACT_PDF_WALK_H
#define SW_EXTRACT_PDF_WALK_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sw__pdf_walk;

/* A walk over the npages pages of the PDF in data (len bytes, which must
 * outlive the walk), or NULL when this reader does not walk it: poppler's
 * global state not set up yet (open a PopplerDocument first), another page
 * count, a linearized file, no Pages dictionary by reference. */
struct sw__pdf_walk *sw__pdf_walk_new(const char *data, size_t len, int npages);

/* Pages [c0, c1) (0-based; c0 at or after the end of the last range read):
 * text[k] as poppler_page_get_text() gives it (g_malloc'd, the caller's)
 * and cand[k] (blank text and an image: a page for OCR).  Returns 0, or -1
 * with every entry NULL/false when the walk cannot give the range exactly
 * as poppler-glib would (a page-tree node it does not follow, a page that
 * cannot be built, fewer pages than counted); every later call fails too,
 * and the caller reads those pages with poppler-glib. */
int sw__pdf_walk_read(struct sw__pdf_walk *w, int c0, int c1, char **text, bool *cand);

void sw__pdf_walk_free(struct sw__pdf_walk *w);

/* Keep poppler's global state (GlobalParams: font tables, Unicode maps)
 * for the rest of the process.  Without a holder poppler builds it for the
 * first document and drops it with the last, so a production of many small
 * PDFs paid for it once per file.  Thread-safe; idempotent. */
void sw__pdf_poppler_hold(void);

#ifdef __cplusplus
}
#endif

#endif
