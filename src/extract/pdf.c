/* pdf.c - a PDF's text: one page of text per PDF page, the document's
 * metadata (poppler-glib, which opens the file first), and OCR of pages
 * that have no text layer (rendered by poppler-glib with cairo).  The text
 * layer is read by pdf_pages.c's reader, within per-page bounds, ahead on
 * threads of its own when the PDF is long.
 *
 * Poppler's document is not thread-safe, so OCR threads take turns at it:
 * each renders its next page under a lock (tens of milliseconds) and reads
 * it with its own tesseract outside the lock (seconds), which keeps every
 * core busy with the slow part. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cairo.h>
#include <jansson.h>
#include <poppler.h>

#include "extract/extract_int.h"
#include "extract/pdf_walk.h"

/* A hostile page may claim to be a mile wide: the rendered image is kept
 * under this many pixels by lowering the resolution. */
#define MAX_OCR_PIXELS ((double)120e6)

/* Pages read, OCRed and handed on at a time. */
#define PDF_CHUNK 64

static void meta_str(json_t *meta, const char *key, gchar *value)
{
	if (value && *value)
		json_object_set_new(meta, key, sw_json_str(value));
	g_free(value);
}

static void meta_date(json_t *meta, const char *key, time_t t)
{
	struct tm tm;
	char buf[32];
	if (t == (time_t)-1 || t == 0 || !gmtime_r(&t, &tm))
		return;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(meta, key, json_string(buf));
}

struct ocr_run {
	PopplerDocument *doc;
	pthread_mutex_t lock;
	const size_t *todo;     /* page indexes to read */
	size_t ntodo;
	size_t next;
	size_t done;
	char **text;            /* by page index: OCR text (malloc'd) */
	float *confidence;
	bool *over_budget;      /* by page index: left unread by the budget */
	struct sw_ocr_budget *budget;
	struct sw_ocr_pool *pool;
	struct sw_progress progress;
	struct sw_err err;      /* the first failure */
};

/* Render page i as gray bytes at dpi (lowered for huge pages).  Called with
 * the document locked. */
static unsigned char *render_gray(PopplerDocument *doc, size_t i, int *w, int *h,
				  int *dpi)
{
	PopplerPage *page = poppler_document_get_page(doc, (int)i);
	unsigned char *gray = NULL;
	double pw = 0, ph = 0;
	if (!page)
		return NULL;
	poppler_page_get_size(page, &pw, &ph);
	double scale = SW_PDF_OCR_DPI / 72.0;
	if (pw < 1 || ph < 1) {
		g_object_unref(page);
		return NULL;
	}
	if (pw * scale * ph * scale > MAX_OCR_PIXELS)
		scale = sqrt(MAX_OCR_PIXELS / (pw * ph));
	*w = (int)(pw * scale + 0.5);
	*h = (int)(ph * scale + 0.5);
	*dpi = (int)(scale * 72.0 + 0.5);
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, *w, *h);
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_scale(cr, scale, scale);
	poppler_page_render_for_printing(page, cr);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
		const unsigned char *px = cairo_image_surface_get_data(s);
		int stride = cairo_image_surface_get_stride(s);
		gray = sw_xmalloc((size_t)*w * (size_t)*h);
		for (int y = 0; y < *h; y++) {
			const uint32_t *row = (const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride);
			for (int x = 0; x < *w; x++) {
				uint32_t p = row[x];
				unsigned r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
				gray[(size_t)y * (size_t)*w + (size_t)x] =
					(unsigned char)((r * 299 + g * 587 + b * 114) / 1000);
			}
		}
	}
	cairo_surface_destroy(s);
	g_object_unref(page);
	return gray;
}

static void *ocr_worker(void *arg)
{
	struct ocr_run *r = arg;
	struct sw_ocr *o = NULL;
	struct sw_err err = { 0 };
	struct sw_buf text = SW_BUF_INIT;

	if (sw__extract_ocr_take(&o, r->pool, &err) != 0) {
		pthread_mutex_lock(&r->lock);
		if (!r->err.code)
			r->err = err;
		pthread_mutex_unlock(&r->lock);
		return NULL;
	}
	for (;;) {
		int w = 0, h = 0, dpi = 0;
		pthread_mutex_lock(&r->lock);
		if (r->next == r->ntodo || r->err.code) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		size_t i = r->todo[r->next++];
		if (!sw_ocr_budget_take(r->budget)) {
			r->over_budget[i] = true;
			r->done++;
			pthread_mutex_unlock(&r->lock);
			continue;
		}
		unsigned char *gray = render_gray(r->doc, i, &w, &h, &dpi);
		pthread_mutex_unlock(&r->lock);

		float conf = 0;
		int rc = gray ? sw__extract_ocr_page(o, &text, &conf, gray, w, h, w, dpi, &err) : 0;
		free(gray);
		pthread_mutex_lock(&r->lock);
		if (rc == 0 && gray) {
			r->text[i] = sw_xstrndup(text.data ? text.data : "", text.len);
			r->confidence[i] = conf;
		}
		r->done++;
		sw_progress_update(&r->progress, r->done);
		pthread_mutex_unlock(&r->lock);
	}
	sw_buf_release(&text);
	sw__extract_ocr_give(r->pool, o);
	return NULL;
}

/* OCR the pages in todo, in parallel.  Returns 0, or the error that kept
 * OCR from running at all (tesseract missing). */
static int run_ocr(PopplerDocument *doc, const size_t *todo, size_t ntodo, char **text,
		   float *confidence, bool *over_budget, const struct sw_extract_opts *opts,
		   struct sw_err *err)
{
	struct ocr_run r = { .doc = doc, .todo = todo, .ntodo = ntodo, .text = text,
			     .confidence = confidence, .over_budget = over_budget,
			     .budget = opts->budget, .pool = opts->pool };

	pthread_mutex_init(&r.lock, NULL);
	if (opts->progress)
		sw_progress_start(&r.progress, "OCR pages", ntodo);
	sw__extract_ocr_run(opts->threads, ntodo, ocr_worker, &r);
	sw_progress_finish(&r.progress);
	pthread_mutex_destroy(&r.lock);
	if (r.err.code) {
		*err = r.err;
		return r.err.code;
	}
	return 0;
}

int sw__extract_pdf(struct sw_extract *x, const char *data, size_t len,
		    const struct sw_extract_opts *opts, struct sw_err *err)
{
	GBytes *bytes = NULL;
	GError *gerr = NULL;
	PopplerDocument *doc = NULL;
	char **text = NULL, **ocr_text = NULL;
	float *confidence = NULL;
	bool *over_budget = NULL;
	size_t *todo = NULL, ntodo = 0;
	struct sw__extract_pdf_reader *reader = NULL;
	unsigned char mark[PDF_CHUNK];
	int chunk = opts->text_chunk > 0 && opts->text_chunk < PDF_CHUNK ? (int)opts->text_chunk
									  : PDF_CHUNK;
	int n = 0, rc = 0;

	/* The header may follow up to 1 KiB of junk, as readers allow; a file
	 * without one is not a PDF to guess at. */
	bool header = false;
	for (size_t i = 0; i + 4 <= len && i < 1024 && !header; i++)
		header = memcmp(data + i, "%PDF", 4) == 0;
	if (!header)
		return sw_err_set(err, SW_EINPUT, "not a PDF: no %%PDF header");
	struct sw__extract_pdf_declared decl;
	sw__extract_pdf_declared_objects(data, len, opts->map, &decl);
	if (decl.objects > sw__extract_pdf_objects_max(len))
		return sw_err_set(
			err, SW_ELIMIT,
			"the PDF declares %lld objects (%s at byte %zu) in %zu bytes, more "
			"than sworn opens in a file of this size (%lld): re-save it with a "
			"PDF tool and ingest it again",
			decl.objects, decl.what, decl.at, len, sw__extract_pdf_objects_max(len));
	if (len > SW_PDF_WHOLE_BYTES && !sw__extract_pdf_xref_found(data, len))
		return sw_err_set(
			err, SW_EINPUT,
			"damaged PDF: its end names no cross-reference table, and rebuilding one "
			"reads all %zu bytes into memory: repair it with a PDF tool (qpdf in.pdf "
			"out.pdf) and ingest it again",
			len);
	sw__extract_pdf_poppler_hold();
	bytes = g_bytes_new_static(data, len);
	doc = poppler_document_new_from_bytes(bytes, NULL, &gerr);
	sw__extract_pdf_count_open();
	if (!doc) {
		if (gerr && gerr->domain == POPPLER_ERROR && gerr->code == POPPLER_ERROR_ENCRYPTED)
			rc = sw_err_set(err, SW_EINPUT,
					"the PDF is encrypted: sworn cannot read it without its password");
		else
			rc = sw_err_set(err, SW_EINPUT, "damaged PDF: %s",
					gerr && gerr->message ? gerr->message : "poppler cannot read it");
		goto cleanup;
	}
	n = poppler_document_get_n_pages(doc);
	if (n <= 0) {
		rc = sw_err_set(err, SW_EINPUT, "the PDF has no pages");
		goto cleanup;
	}
	if (n > SW_EXTRACT_MAX_PAGES) {
		rc = sw_err_set(err, SW_ELIMIT, "%d pages is over the limit of %d", n,
				SW_EXTRACT_MAX_PAGES);
		goto cleanup;
	}
	meta_str(x->meta, "title", poppler_document_get_title(doc));
	meta_str(x->meta, "author", poppler_document_get_author(doc));
	meta_str(x->meta, "subject", poppler_document_get_subject(doc));
	meta_str(x->meta, "keywords", poppler_document_get_keywords(doc));
	meta_str(x->meta, "creator", poppler_document_get_creator(doc));
	meta_str(x->meta, "producer", poppler_document_get_producer(doc));
	meta_str(x->meta, "pdf_version", poppler_document_get_pdf_version_string(doc));
	meta_date(x->meta, "created", poppler_document_get_creation_date(doc));
	meta_date(x->meta, "modified", poppler_document_get_modification_date(doc));
	json_object_set_new(x->meta, "pdf_pages", json_integer(n));

	/* Pages are read CHUNK at a time: their text, then OCR of the
	 * image-only ones among them in parallel, then each handed on in
	 * order (to the sink, or appended) and freed. */
	text = sw_xcalloc((size_t)n, sizeof(*text));
	ocr_text = sw_xcalloc((size_t)n, sizeof(*ocr_text));
	confidence = sw_xcalloc((size_t)n, sizeof(*confidence));
	over_budget = sw_xcalloc((size_t)n, sizeof(*over_budget));
	todo = sw_xcalloc((size_t)n, sizeof(*todo));
	struct sw__extract_pdf_bounds bounds = sw__extract_pdf_bounds_fill(
		&(struct sw__extract_pdf_bounds){.chars = opts->pdf_page_chars,
						 .ops = opts->pdf_page_ops,
						 .forms = opts->pdf_page_forms,
						 .ms = opts->pdf_page_ms});
	reader = sw__extract_pdf_reader_new(data, len, n, chunk, opts->text_threads,
					    opts->text_alone, &bounds);
	/* The reader has documents of its own: this one (its cross-reference
	 * table alone is ~30 bytes an object) is opened again only when a page
	 * needs OCR. */
	g_object_unref(doc);
	doc = NULL;
	size_t image_pages = 0, unread = 0, over = 0, cut = 0;
	int first_cut = 0;
	struct sw_err oerr = { 0 };
	for (int c0 = 0; c0 < n && rc == 0; c0 += chunk) {
		int c1 = n - c0 > chunk ? c0 + chunk : n;
		ntodo = 0;
		sw__extract_pdf_reader_next(reader, text + c0, mark);
		for (int i = c0; i < c1; i++) {
			if (mark[i - c0] & SW_PDF_CAND)
				todo[ntodo++] = (size_t)i;
			if ((mark[i - c0] & SW_PDF_CUT) && !cut++)
				first_cut = i + 1;
		}
		image_pages += ntodo;
		/* OCR that cannot run at all (no tesseract) is not tried again;
		 * its pages are kept without text. */
		if (ntodo && opts->ocr && !oerr.code && !doc) {
			doc = poppler_document_new_from_bytes(bytes, NULL, NULL);
			sw__extract_pdf_count_open();
			if (!doc)
				(void)sw_err_set(&oerr, SW_EINPUT,
						 "the PDF could not be opened again for OCR");
		}
		if (ntodo && opts->ocr && !oerr.code)
			(void)run_ocr(doc, todo, ntodo, ocr_text, confidence, over_budget, opts,
				      &oerr);
		if (ntodo && opts->ocr && oerr.code)
			unread += ntodo;
		size_t t = 0;
		for (int i = c0; i < c1 && rc == 0; i++) {
			bool is_todo = t < ntodo && todo[t] == (size_t)i;
			t += is_todo;
			if (is_todo && ocr_text[i]) {
				sw_buf_adds(&x->text, ocr_text[i]);
				sw_extract_page(x);
				x->pages[x->npages - 1].ocr = true;
				x->pages[x->npages - 1].confidence = confidence[i];
				x->ocr_pages++;
			} else {
				if (text[i])
					sw_buf_adds(&x->text, text[i]);
				sw_extract_page(x);
				x->pages[x->npages - 1].image_only =
					is_todo && (!opts->ocr || over_budget[i]);
				x->pages[x->npages - 1].over_budget = is_todo && over_budget[i];
				over += is_todo && over_budget[i];
			}
			g_free(text[i]);
			text[i] = NULL;
			free(ocr_text[i]);
			ocr_text[i] = NULL;
			if (x->sink) {
				rc = x->sink(x->sink_ctx, &x->pages[0], x->text.data ? x->text.data : "",
					     x->text.len, err);
				x->text.len = 0;
				x->npages = 0;
			}
		}
	}
	if (unread)
		sw__extract_warn(x, "%s; %zu image-only page(s) kept without text", oerr.msg,
				 unread);
	if (over) {
		sw__extract_warn(x, "OCR budget reached: %zu image-only page(s) kept without text",
				 over);
		json_object_set_new(x->meta, "ocr_budget_skipped_pages", json_integer((json_int_t)over));
	}
	if (cut) {
		sw__extract_warn(x,
				 "%zu page(s) draw more than sworn reads of one page (%ld characters, "
				 "%ld operators, %ld forms, %.1f s), first page %d: their text is "
				 "kept up to there",
				 cut, bounds.chars, bounds.ops, bounds.forms, bounds.ms / 1000.0,
				 first_cut);
		json_object_set_new(x->meta, "text_cut_pages", json_integer((json_int_t)cut));
	}
	if (image_pages && !opts->ocr)
		json_object_set_new(x->meta, "ocr_skipped_pages", json_integer((json_int_t)image_pages));
cleanup:
	sw__extract_pdf_reader_free(reader);
	if (text)
		for (int i = 0; i < n; i++)
			g_free(text[i]);
	if (ocr_text)
		for (int i = 0; i < n; i++)
			free(ocr_text[i]);
	free(text);
	free(ocr_text);
	free(confidence);
	free(over_budget);
	free(todo);
	if (gerr)
		g_error_free(gerr);
	if (doc)
		g_object_unref(doc);
	if (bytes)
		g_bytes_unref(bytes);
	return rc;
}
