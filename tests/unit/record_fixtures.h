/* record_fixtures.h - generated fixtures for the record/ format and
 * provenance tests: PDFs (cairo), scanned pages (text rendered to an image
 * and wrapped in a PDF), .docx (libzip), and a workspace to import into.
 * Static functions in a header: each test program includes it once. */
#ifndef SW_TEST_RECORD_FIXTURES_H
#define SW_TEST_RECORD_FIXTURES_H

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cairo-pdf.h>
#include <cairo.h>
#include <zip.h>

#include "ingest/ingest.h"
#include "record/record_int.h"

/* Not every test program uses every fixture. */
#define FX_FN static __attribute__((unused))

/* A PDF with one page per string; lines split on '\n'. */
FX_FN void fx_pdf(const char *path, const char *const *pages, size_t n,
		   const char *title)
{
	cairo_surface_t *s = cairo_pdf_surface_create(path, 612, 792);
	if (title)
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title);
	cairo_t *cr = cairo_create(s);
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 10);
	for (size_t p = 0; p < n; p++) {
		double y = 40;
		const char *line = pages[p];
		while (*line) {
			const char *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);
			char *one = sw_xstrndup(line, len);
			cairo_move_to(cr, 40, y);
			cairo_show_text(cr, one);
			free(one);
			y += 13;
			line += len + (nl ? 1 : 0);
		}
		cairo_show_page(cr);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/* Draw lines of text into a PDF page as an image only (a scan): no text
 * layer.  The page is small (5 x 1.5 inches) to keep OCR fast. */
FX_FN void fx_scan_page(cairo_t *pdf, const char *const *lines, size_t n)
{
	const int dpi = 200, w = 5 * dpi, h = 3 * dpi / 2;
	cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	cairo_t *cr = cairo_create(img);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, "DejaVu Serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 34);
	for (size_t i = 0; i < n; i++) {
		cairo_move_to(cr, 40, 70 + 55 * (double)i);
		cairo_show_text(cr, lines[i]);
	}
	cairo_destroy(cr);
	cairo_save(pdf);
	cairo_scale(pdf, 72.0 / dpi, 72.0 / dpi);
	cairo_set_source_surface(pdf, img, 0, 0);
	cairo_paint(pdf);
	cairo_restore(pdf);
	cairo_surface_destroy(img);
}

/* A .docx holding document_xml (the body's inner XML) and optionally
 * comments_xml (the inner XML of w:comments). */
FX_FN void fx_docx(const char *path, const char *body, const char *comments)
{
	static const char head[] =
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
		"<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
		"<w:body>";
	static const char tail[] = "</w:body></w:document>";
	static const char types[] =
		"<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
		"<Override PartName=\"/word/document.xml\" ContentType=\"application/"
		"vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>";
	int zerr = 0;
	zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &zerr);
	if (!za)
		abort();
	char *doc = body ? sw_xasprintf("%s%s%s", head, body, tail) : NULL;
	char *com = comments ? sw_xasprintf(
		"<?xml version=\"1.0\"?><w:comments xmlns:w=\"http://schemas.openxmlformats.org/"
		"wordprocessingml/2006/main\">%s</w:comments>", comments) : NULL;
	zip_source_t *src = zip_source_buffer(za, types, strlen(types), 0);
	if (zip_file_add(za, "[Content_Types].xml", src, ZIP_FL_OVERWRITE) < 0)
		abort();
	if (doc) {
		src = zip_source_buffer(za, doc, strlen(doc), 0);
		if (zip_file_add(za, "word/document.xml", src, ZIP_FL_OVERWRITE) < 0)
			abort();
	}
	if (com) {
		src = zip_source_buffer(za, com, strlen(com), 0);
		if (zip_file_add(za, "word/comments.xml", src, ZIP_FL_OVERWRITE) < 0)
			abort();
	}
	if (zip_close(za) != 0)
		abort();
	free(doc);
	free(com);
}

/* Plain text as docx paragraphs: one w:p per line. */
FX_FN char *fx_docx_body(const char *text)
{
	struct sw_buf b = SW_BUF_INIT;
	const char *line = text;
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		sw_buf_adds(&b, "<w:p><w:r><w:t xml:space=\"preserve\">");
		sw_buf_add(&b, line, len);
		sw_buf_adds(&b, "</w:t></w:r></w:p>");
		line += len + (nl ? 1 : 0);
	}
	return sw_buf_detach(&b, NULL);
}

FX_FN void fx_write(const char *path, const char *data)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, strlen(data), f) != strlen(data) || fclose(f) != 0)
		abort();
}

/* A workspace in a fresh temporary folder, with matters a and b. */
struct fx_ws {
	char *dir;
	struct sw_workspace ws;
	struct sw_buf events; /* every import event, one a line */
};

FX_FN void fx_report(void *user, enum sw_ingest_event ev, const char *what,
		      const char *msg)
{
	static const char *const names[] = { "imported", "skipped", "failed", "warning",
					     "quarantined" };
	struct fx_ws *w = user;
	sw_buf_addf(&w->events, "%s %s: %s\n", names[ev], what, msg);
}

FX_FN void fx_ws_new(struct fx_ws *w)
{
	struct sw_err err = { 0 };
	const char *base = getenv("TMPDIR");
	memset(w, 0, sizeof(*w));
	w->dir = sw_xasprintf("%s/sworn-fx-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(w->dir) || sw_workspace_create(w->dir, &err) != 0 ||
	    sw_workspace_open(&w->ws, w->dir, &err) != 0 ||
	    sw_matter_create(&w->ws, "a", &err) != 0 || sw_matter_create(&w->ws, "b", &err) != 0) {
		fprintf(stderr, "fixture workspace: %s\n", err.msg);
		abort();
	}
}

FX_FN void fx_ws_free(struct fx_ws *w)
{
	char *cmd = sw_xasprintf("rm -rf '%s'", w->dir);
	if (system(cmd) != 0)
		abort();
	free(cmd);
	sw_workspace_release(&w->ws);
	sw_buf_release(&w->events);
	free(w->dir);
}

FX_FN char *fx_path(struct fx_ws *w, const char *name)
{
	return sw_path_join(w->dir, name);
}

/* Import one path into matter name; returns the summary. */
FX_FN struct sw_ingest_summary fx_ingest(struct fx_ws *w, const char *matter,
					  const char *path, bool no_ocr,
					  enum sw_origin origin)
{
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	struct sw_ingest_summary sum;
	struct sw_ingest_opts o = { .origin = origin, .report = fx_report, .user = w,
				    .no_ocr = no_ocr };
	if (sw_matter_open(&m, &w->ws, matter, &err) != 0 ||
	    sw_ingest(&sum, m, &path, 1, &o, &err) != 0) {
		fprintf(stderr, "fixture import: %s\n", err.msg);
		abort();
	}
	sw_matter_close(m);
	return sum;
}

/* One value of a query on a matter's database, as text (caller frees). */
FX_FN char *fx_sql(struct fx_ws *w, const char *matter, const char *sql)
{
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	sqlite3_stmt *st = NULL;
	char *out = NULL;
	if (sw_matter_open(&m, &w->ws, matter, &err) != 0)
		abort();
	if (sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(m->db));
		abort();
	}
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = sw_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sw_matter_close(m);
	return out ? out : sw_xstrdup("(null)");
}

#endif /* SW_TEST_RECORD_FIXTURES_H */
