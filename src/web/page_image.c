/* page_image.c - a record page as the PDF original shows it: poppler-glib
 * opens it and sizes the page, page_draw.cc draws it within bounds onto a
 * cairo surface, written out as PNG.  Run only in the renderer's worker
 * (render.c). */
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <poppler.h>

#include "web/web_int.h"
#include "web/page_draw.h"

static int open_pdf(PopplerDocument **out, const char *path, struct sw_err *err)
{
	GError *gerr = NULL;
	*out = NULL;
	gchar *uri = g_filename_to_uri(path, NULL, &gerr);
	if (!uri) {
		int rc = sw_err_set(err, SW_EINPUT, "cannot open the original: %s",
				    gerr ? gerr->message : "bad path");
		g_clear_error(&gerr);
		return rc;
	}
	*out = poppler_document_new_from_file(uri, NULL, &gerr);
	g_free(uri);
	if (!*out) {
		int rc = sw_err_set(err, SW_EINPUT, "the original is not a PDF poppler can open: %s",
				    gerr ? gerr->message : "unknown error");
		g_clear_error(&gerr);
		return rc;
	}
	return 0;
}

int sw__web_pdf_pages(unsigned *pages, const char *path, struct sw_err *err)
{
	PopplerDocument *doc;
	*pages = 0;
	int rc = open_pdf(&doc, path, err);
	if (rc != 0)
		return rc;
	int n = poppler_document_get_n_pages(doc);
	*pages = n > 0 ? (unsigned)n : 0;
	g_object_unref(doc);
	return 0;
}

static cairo_status_t to_buf(void *closure, const unsigned char *data, unsigned int len)
{
	sw_buf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

int sw__web_page_render(struct sw_buf *out, const char *path, unsigned page_no, long cpu_ms,
			struct sw_err *err)
{
	PopplerDocument *doc = NULL;
	PopplerPage *page = NULL;
	cairo_surface_t *s = NULL;
	cairo_t *cr = NULL;
	int rc;

	sw_buf_reset(out);
	if ((rc = open_pdf(&doc, path, err)) != 0)
		return rc;
	int n = poppler_document_get_n_pages(doc);
	if (page_no < 1 || n < 0 || page_no > (unsigned)n) {
		rc = sw_err_set(err, SW_ENOTFOUND, "the original has no page %u", page_no);
		goto cleanup;
	}
	page = poppler_document_get_page(doc, (int)page_no - 1);
	if (!page) {
		rc = sw_err_set(err, SW_EINPUT, "cannot read page %u of the original", page_no);
		goto cleanup;
	}
	double w_pt = 0, h_pt = 0;
	poppler_page_get_size(page, &w_pt, &h_pt);
	/* A page size from the file is hostile: anything outside a sheet of
	 * 1 pt to 200 inches is refused, and the pixels are capped. */
	if (!(w_pt >= 1 && w_pt <= 14400 && h_pt >= 1 && h_pt <= 14400)) {
		rc = sw_err_set(err, SW_EINPUT, "page %u of the original has no usable size", page_no);
		goto cleanup;
	}
	double scale = SW__WEB_PAGE_DPI / 72.0;
	double longer = (w_pt > h_pt ? w_pt : h_pt) * scale;
	if (longer > SW__WEB_PAGE_MAX_PX)
		scale *= SW__WEB_PAGE_MAX_PX / longer;
	int w_px = (int)(w_pt * scale + 0.5), h_px = (int)(h_pt * scale + 0.5);
	if (w_px < 1)
		w_px = 1;
	if (h_px < 1)
		h_px = 1;
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w_px, h_px);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		rc = sw_err_set(err, SW_EIO, "cannot make a %dx%d image", w_px, h_px);
		goto cleanup;
	}
	cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_surface_flush(s);
	/* drawn within the text import's bounds (page_draw.cc) */
	struct sw__web_draw_bounds b = { SW__WEB_DRAW_OPS, SW__WEB_DRAW_FORMS, cpu_ms };
	int drawn = sw__web_page_draw(path, (int)page_no, 72.0 * scale,
				      cairo_image_surface_get_data(s), w_px, h_px,
				      cairo_image_surface_get_stride(s), &b);
	cairo_surface_mark_dirty(s);
	if (drawn != 0) {
		rc = drawn > 0 ? sw_err_set(err, SW_ELIMIT,
					    "page %u of the original draws more than a page"
					    " may (%ld operators, %ld forms, %.1f s of CPU):"
					    " its text is shown, not its image",
					    page_no, b.ops, b.forms,
					    b.ms / 1000.0)
			       : sw_err_set(err, SW_EINPUT, "cannot draw page %u of the original",
					    page_no);
		goto cleanup;
	}
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS ||
	    cairo_surface_write_to_png_stream(s, to_buf, out) != CAIRO_STATUS_SUCCESS) {
		rc = sw_err_set(err, SW_EIO, "cannot draw page %u of the original", page_no);
		goto cleanup;
	}
cleanup:
	if (cr)
		cairo_destroy(cr);
	if (s)
		cairo_surface_destroy(s);
	if (page)
		g_object_unref(page);
	g_object_unref(doc);
	if (rc != 0)
		sw_buf_reset(out);
	return rc;
}
