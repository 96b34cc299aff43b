/* certify_pdf.c - a certificate's Markdown laid out as a PDF with cairo: the
 * module sworn-pipeline.so (certify_int.h).  Headings in bold, list items
 * with a dash, the disclosure paragraph boxed, the stamp in a monospace
 * face; lines are broken between words to the page's width, and a page is
 * started when one is full. */
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo.h>

#include "pipeline/certify_int.h"

#define PAGE_W 595.0 /* A4 in points; narrower than Letter's 612 */
#define PAGE_H 792.0 /* Letter's height; shorter than A4's 842 */
#define MARGIN 54.0

struct pen {
	cairo_t *cr;
	double y;
	int pages;
};

static void face(cairo_t *cr, const char *family, bool bold, double size)
{
	cairo_select_font_face(cr, family, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static void new_line(struct pen *p, double lead)
{
	p->y += lead;
	if (p->y > PAGE_H - MARGIN) {
		cairo_show_page(p->cr);
		p->pages++;
		p->y = MARGIN + lead;
	}
}

/* Text without Markdown's escapes and markers. */
static char *plain(const char *s, size_t n)
{
	char *o = sw_xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n)
			i++;
		else if (s[i] == '`')
			continue;
		o[k++] = s[i];
	}
	o[k] = '\0';
	return o;
}

/* One paragraph, broken between words to width w from x. */
static void para(struct pen *p, const char *text, double x, double size)
{
	cairo_t *cr = p->cr;
	double w = PAGE_W - MARGIN - x;
	struct sw_buf line = SW_BUF_INIT;
	const char *s = text;
	while (*s) {
		const char *sp = strchr(s, ' ');
		size_t n = sp ? (size_t)(sp - s) : strlen(s);
		size_t keep = line.len;
		if (line.len)
			sw_buf_addc(&line, ' ');
		sw_buf_add(&line, s, n);
		cairo_text_extents_t ext;
		cairo_text_extents(cr, line.data, &ext);
		if (ext.x_advance > w && keep > 0) {
			line.len = keep;
			line.data[keep] = '\0';
			cairo_move_to(cr, x, p->y);
			cairo_show_text(cr, line.data);
			new_line(p, size * 1.35);
			sw_buf_reset(&line);
			sw_buf_add(&line, s, n);
		}
		s += n;
		while (*s == ' ')
			s++;
	}
	if (line.len) {
		cairo_move_to(cr, x, p->y);
		cairo_show_text(cr, line.data);
	}
	new_line(p, size * 1.35);
	sw_buf_release(&line);
}

static int write_pdf(const char *text, size_t len, const char *path, struct sw_err *err)
{
	cairo_surface_t *s = cairo_pdf_surface_create(path, PAGE_W, PAGE_H);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		int rc = sw_err_set(err, SW_EIO, "cannot write %s: %s", path,
				    cairo_status_to_string(cairo_surface_status(s)));
		cairo_surface_destroy(s);
		return rc;
	}
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, "Verification certificate");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "sworn " SW_VERSION);
	struct pen p = { cairo_create(s), MARGIN, 1 };
	cairo_set_source_rgb(p.cr, 0, 0, 0);
	const char *end = text + len;
	for (const char *l = text; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
		if (n == 0) {
			p.y += 4;
		} else if (n > 2 && l[0] == '#' && l[1] == ' ') {
			char *t = plain(l + 2, n - 2);
			face(p.cr, "DejaVu Serif", true, 16);
			para(&p, t, MARGIN, 16);
			free(t);
		} else if (n > 3 && !memcmp(l, "## ", 3)) {
			char *t = plain(l + 3, n - 3);
			p.y += 6;
			face(p.cr, "DejaVu Serif", true, 11.5);
			para(&p, t, MARGIN, 11.5);
			free(t);
		} else if (n > 2 && !memcmp(l, "- ", 2)) {
			char *t = plain(l + 2, n - 2);
			face(p.cr, "DejaVu Serif", false, 9);
			cairo_move_to(p.cr, MARGIN + 4, p.y);
			cairo_show_text(p.cr, "\xe2\x80\x93");
			para(&p, t, MARGIN + 14, 9);
			free(t);
		} else if (n > 2 && !memcmp(l, "> ", 2)) {
			char *t = plain(l + 2, n - 2);
			face(p.cr, "DejaVu Serif", false, 9.5);
			double top = p.y - 11;
			int page = p.pages;
			para(&p, t, MARGIN + 8, 9.5);
			if (page == p.pages) {
				cairo_rectangle(p.cr, MARGIN, top, PAGE_W - 2 * MARGIN,
						p.y - top - 6);
				cairo_set_line_width(p.cr, 0.5);
				cairo_stroke(p.cr);
			}
			free(t);
		} else if (l[0] == '`') {
			char *t = plain(l, n);
			face(p.cr, "DejaVu Sans Mono", false, 7);
			para(&p, t, MARGIN, 7);
			free(t);
		} else {
			char *t = plain(l, n);
			face(p.cr, "DejaVu Serif", false, 9.5);
			para(&p, t, MARGIN, 9.5);
			free(t);
		}
		l = nl ? nl + 1 : end;
	}
	cairo_destroy(p.cr);
	cairo_surface_finish(s);
	cairo_status_t st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS)
		return sw_err_set(err, SW_EIO, "cannot write %s: %s", path,
				  cairo_status_to_string(st));
	return 0;
}

__attribute__((visibility("default")))
const struct sw__pipeline_pdf sw__pipeline_pdf_v1 = {
	.abi = SW__PIPELINE_PDF_ABI,
	.version = SW_VERSION,
	.sizes = { sizeof(struct sw_err) },
	.write = write_pdf,
};
