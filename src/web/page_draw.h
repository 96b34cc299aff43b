/* page_draw.h - one PDF page drawn within bounds (page_draw.cc, poppler's
 * own classes behind a C interface, as extract/pdf_walk.cc does for text).
 * Internal to web/: page_image.c calls it in the renderer's worker. */
#ifndef SW_WEB_PAGE_DRAW_H
#define SW_WEB_PAGE_DRAW_H

#ifdef __cplusplus
extern "C" {
#endif

/* What one page may draw, as the text import lets it (extract's
 * pdf_walk.h): about ops content operators, forms forms (each drawing
 * counted), ms milliseconds of the process's CPU time. */
struct sw__web_draw_bounds {
	long ops, forms, ms;
};
#define SW__WEB_DRAW_OPS 10000000L
#define SW__WEB_DRAW_FORMS 10000L

/* Draw page page_no (1-based) of the PDF at path at dpi onto dst, an image
 * of w x h pixels, 4 bytes a pixel (cairo's RGB24: blue, green, red,
 * unused), stride bytes a row, already painted white.  0 when drawn, 1
 * when the page drew past b (dst holds what was drawn), -1 when poppler
 * cannot open the file or the page. */
int sw__web_page_draw(const char *path, int page_no, double dpi, unsigned char *dst, int w,
		      int h, int stride, const struct sw__web_draw_bounds *b);

#ifdef __cplusplus
}
#endif

#endif
