/* pdf_walk.h - a PDF's pages read in order, each built and dropped again
 * (pdf_walk.cc, poppler's C++ classes behind a C interface).  Internal to
 * extract/: pdf_pages.c reads every PDF's text with it. */
#ifndef SW_EXTRACT_PDF_WALK_H
#define SW_EXTRACT_PDF_WALK_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sw__extract_pdf_walk;

/* What one page may draw: at most chars characters, about ops content
 * operators and forms forms (a form counted each time it is drawn, its
 * operators too), for about ms milliseconds of the reading thread's CPU
 * time; a page that draws more keeps its text up to there and
 * is marked SW_PDF_CUT.  0 in a field, or no bounds at all, means the
 * default below.  A dense page of a brief holds 3,000-6,000 characters, a
 * spreadsheet printed small some 30,000, and poppler keeps no more than
 * 50,000 of a page; a page of a hundred thousand held 170 MB while it was
 * laid out.  Ten million operators are some 2.6 s of drawing.  Time is
 * the bound for what costs much without drawing: poppler parses a form
 * again each time it is drawn, and a form whose /Length is wrong is
 * searched for its end token by token, each token a walk over the whole
 * object table; one such form in a 1.2 MB file took 8.3 s a draw (release
 * build: the time is poppler's), and ten thousand draws would be a day.  Thirty seconds is ten
 * times the slowest page the other bounds allow. */
struct sw__extract_pdf_bounds {
	long chars, ops, forms, ms;
};
#define SW_PDF_PAGE_CHARS 100000L
#define SW_PDF_PAGE_OPS 10000000L
#define SW_PDF_PAGE_FORMS 10000L
#define SW_PDF_PAGE_MS 30000L

/* The bounds a reader given b uses: b's fields, each 0 (or b NULL) the
 * default above.  The one place the defaults are filled in. */
struct sw__extract_pdf_bounds sw__extract_pdf_bounds_fill(const struct sw__extract_pdf_bounds *b);

/* What a read says of each page besides its text. */
enum {
	SW_PDF_CAND = 1, /* blank text and an image: a page for OCR */
	SW_PDF_CUT = 2,  /* the text stopped at the bounds above; a blank page
			  * that draws past them is not one for OCR either
			  * (rendering it would draw it all) */
};

/* A walk over the npages pages of the PDF in data (len bytes, which must
 * outlive the walk), each page read within bounds (NULL: the defaults), or
 * NULL when this reader does not walk it: poppler's
 * global state not set up yet (call sw__extract_pdf_poppler_hold() first), another
 * page count, a linearized file, no Pages dictionary by reference. */
struct sw__extract_pdf_walk *sw__extract_pdf_walk_new(const char *data, size_t len, int npages,
						      const struct sw__extract_pdf_bounds *bounds);

/* A reader of the same kind that reads pages through the document's own
 * catalog, as poppler-glib does (every page reached is kept, about 1.7 KB
 * each; a linearized file through its hint tables): for files no walk
 * reads, the pages after a walk stops, and reading alone.  NULL when
 * poppler is not set up or the document has another page count.  Its
 * reads never fail; a page the catalog cannot build has no text. */
struct sw__extract_pdf_walk *
sw__extract_pdf_catalog_new(const char *data, size_t len, int npages,
			    const struct sw__extract_pdf_bounds *bounds);

/* Pages [c0, c1) (0-based; for a walk, c0 at or after the end of the last
 * range read): text[k] as poppler_page_get_text() gives it, within the
 * walk's bounds (g_malloc'd, the caller's), and mark[k] (SW_PDF_CAND,
 * SW_PDF_CUT).  Returns 0, or -1 with every entry NULL/0 when a walk
 * cannot give the range exactly as poppler's catalog would (a page-tree
 * node it does not follow, a page that cannot be built, fewer pages than
 * counted); every later call fails too, and the caller reads those pages
 * with a catalog reader. */
int sw__extract_pdf_walk_read(struct sw__extract_pdf_walk *w, int c0, int c1, char **text,
			      unsigned char *mark);

void sw__extract_pdf_walk_free(struct sw__extract_pdf_walk *w);

/* Keep poppler's global state (GlobalParams: font tables, Unicode maps)
 * for the rest of the process.  Without a holder poppler builds it for the
 * first document and drops it with the last, so a production of many small
 * PDFs paid for it once per file.  Thread-safe; idempotent. */
void sw__extract_pdf_poppler_hold(void);

/* What this process's PDF readers have done, counted so that a test can
 * prove a bound by a count, not by a clock (which ASan, valgrind and a
 * busy machine move): documents poppler opened (poppler-glib's and the
 * readers' own), forms a page drew, and forms a page named once it was
 * over its bounds (each stubbed, not drawn: pdf_walk.cc's Budget).
 * Totals since the process began; thread-safe. */
struct sw__extract_pdf_counts {
	long opened, forms, forms_over;
};
void sw__extract_pdf_counts_get(struct sw__extract_pdf_counts *out);
/* Count a document poppler opened (pdf.c's poppler-glib ones). */
void sw__extract_pdf_count_open(void);

#ifdef __cplusplus
}
#endif

#endif
