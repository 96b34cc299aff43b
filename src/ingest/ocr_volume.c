/* ocr_volume.c - image-only productions: a load-file row with no text
 * whose pages are the page images its .OPT lists (IMAGES/001/ABC0000001.tif
 * ...), read by OCR page by page; each page keeps the Bates number the .OPT
 * gives it (loadfile.c numbers them).
 *
 * Which image holds a page: an .OPT line names its image file; a line that
 * names the file of the line before, or none, is the next page of that file
 * (a multi-page TIFF is listed either way).  An image listed as a PDF gives
 * its pages as sworn reads any PDF (its text, OCR where it has none).
 *
 * Identity: the row's document is known by the hashes of its images (and
 * the page of each), not by the text OCR gives, so a second import finds it
 * before reading anything.  A document with pages OCR did not read (the
 * budget cut it short, --no-ocr, tesseract missing) is stored with an
 * identity of its own that names those pages: the next import that can
 * read them does not find it under the full identity, reads it in full
 * and (with --replace) replaces it.  A page whose image does not decode is
 * read as far as it can be: it does not make the document partial. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ingest/ingest_int.h"

struct scan_file {
	char *written;           /* as the .OPT writes it */
	struct sw_buf data;
	char sha[SW_SHA256_HEX_LEN + 1];
	bool pdf;
};

struct scan_page {
	int file;                /* index into files, -1: no image */
	size_t index;            /* page within the file */
	bool ocr, over_budget;
	bool unread;             /* has an image OCR did not read (budget,
				  * --no-ocr, no tesseract) */
	float confidence;
};

struct sw_ocr_budget *sw__ingest_budget(struct sw__ingest *in)
{
	if (!in->budget_ready) {
		in->budget.max_pages = in->opts->ocr_max_pages;
		in->budget.max_seconds = in->opts->ocr_max_seconds;
		in->budget_ready = true;
	}
	return &in->budget;
}

struct sw_ocr_pool *sw__ingest_ocr_pool(struct sw__ingest *in)
{
	if (!in->ocr_pool)
		in->ocr_pool = sw_ocr_pool_new();
	return in->ocr_pool;
}

static void identity(struct sw__ingest_scan *s, bool partial)
{
	struct sw_sha256 h;
	sw_sha256_init(&h);
	sw_sha256_update(&h, "sworn scanned pages\n", 20);
	for (size_t i = 0; i < s->npages; i++) {
		const struct scan_page *p = &s->pages[i];
		char line[SW_SHA256_HEX_LEN + 48];
		int n = snprintf(line, sizeof(line), "%s:%zu%s\n",
				 p->file >= 0 ? s->files[p->file].sha : "-", p->index,
				 partial && p->unread ? ":unread" : "");
		sw_sha256_update(&h, line, (size_t)n);
	}
	sw_sha256_final_hex(&h, s->sha);
}

/* The page images of one document are held in memory together while its
 * pages are read in parallel: at most this many bytes of them. */
#define MAX_DOC_IMAGE_BYTES ((size_t)1 << 30)

/* Read the image files of the row's pages, the .OPT's pages[0..count).
 * A file that cannot be resolved or read, or past MAX_DOC_IMAGE_BYTES,
 * costs a warning; its pages stay without an image. */
static void open_images(struct sw__ingest_scan *s, struct sw__ingest *in,
			struct sw__ingest_volume *v, const struct sw_opt_page *opt,
			size_t count, const char *what)
{
	int cur = -1;          /* the file of the line before */
	bool cur_failed = false;
	const char *cur_written = NULL;
	size_t next_index = 0, held = 0;

	s->pages = sw_xcalloc(count, sizeof(*s->pages));
	s->npages = count;
	for (size_t i = 0; i < count; i++) {
		const char *img = opt[i].image;
		struct scan_page *p = &s->pages[i];
		bool same = !img || !img[0] || (cur_written && !strcmp(img, cur_written));
		if (!same || i == 0) {
			cur = -1;
			cur_failed = false;
			cur_written = img && img[0] ? img : NULL;
			next_index = 0;
			if (cur_written) {
				char *real = NULL;
				struct sw_err e = { 0 };
				struct scan_file f = { .written = sw_xstrdup(img), .data = SW_BUF_INIT };
				size_t room = held < MAX_DOC_IMAGE_BYTES ? MAX_DOC_IMAGE_BYTES - held : 0;
				if (room > SW_RECORD_MAX_FILE_BYTES)
					room = SW_RECORD_MAX_FILE_BYTES;
				if (sw__ingest_volume_resolve(&real, v, img, &e) != 0 ||
				    sw__ingest_volume_read(&f.data, real, room, &e) != 0) {
					if (e.code == SW_ELIMIT && room < SW_RECORD_MAX_FILE_BYTES)
						sw_err_set(&e, SW_ELIMIT,
							   "the document's page images pass %zu MiB together",
							   MAX_DOC_IMAGE_BYTES >> 20);
					sw__ingest_event(in, SW_INGEST_WARNING, what,
							 "page image '%s' (from the .OPT): %s; its page is kept without text",
							 img, e.msg);
					cur_failed = true;
					free(f.written);
					sw_buf_release(&f.data);
				} else {
					held += f.data.len;
					sw_sha256_hex(f.sha, f.data.data, f.data.len);
					f.pdf = f.data.len >= 5 && !memcmp(f.data.data, "%PDF-", 5);
					s->files = sw_xgrow(s->files, &s->capfiles, s->nfiles + 1,
							    sizeof(*s->files));
					s->files[s->nfiles] = f;
					cur = (int)s->nfiles++;
				}
				free(real);
			}
		}
		p->file = cur_failed ? -1 : cur;
		p->index = next_index++;
	}
}

int sw__ingest_scan(struct sw__ingest_scan *s, struct sw__ingest *in,
		    struct sw__ingest_volume *v, const struct sw_opt *opt, size_t first,
		    size_t count, const char *begs, const char *what, struct sw_buf *text)
{
	struct sw_extract x, *pdfs = NULL;
	struct sw_image_page *imgs = NULL;
	struct sw_extract_opts xo = { .ocr = !in->opts->no_ocr, .progress = in->opts->progress,
				      .threads = in->opts->ocr_threads,
				      .budget = sw__ingest_budget(in),
				      .pool = sw__ingest_ocr_pool(in) };
	struct sw_err err = { 0 };
	struct sw_opt_range pg = { 0 };
	size_t nimgs = 0;
	int rc = SW__SCAN_NONE;

	sw_extract_init(&x);
	/* A read that fails (the .OPT changed) fails the row's own read of
	 * its page numbers too, which says so. */
	if (sw_opt_read(&pg, opt, first, count, &err) != 0) {
		sw_err_clear(&err);
		goto cleanup;
	}
	count = pg.n;
	open_images(s, in, v, pg.pages, count, what);
	if (s->nfiles == 0)
		goto cleanup;
	identity(s, false);
	if (sw_record_find_doc(&s->id, in->m, s->sha, begs, &err) == 0) {
		rc = SW__SCAN_FOUND;
		goto cleanup;
	} else if (err.code) {
		goto fatal;
	}
	for (size_t i = 0; i < s->nfiles; i++)
		if (sw_record_keep_original(in->m, s->files[i].sha, s->files[i].data.data,
					    s->files[i].data.len, &err) != 0)
			goto fatal;

	/* PDFs read whole, once each; the other images page by page, all
	 * the document's pages in one parallel run. */
	pdfs = sw_xcalloc(s->nfiles, sizeof(*pdfs));
	for (size_t f = 0; f < s->nfiles; f++) {
		sw_extract_init(&pdfs[f]);
		if (!s->files[f].pdf)
			continue;
		if (sw_format_by_name("pdf")->extract(&pdfs[f], s->files[f].data.data,
						      s->files[f].data.len, &xo, &err) != 0) {
			sw__ingest_event(in, SW_INGEST_WARNING, what,
					 "page image '%s': %s; its pages are kept without text",
					 s->files[f].written, err.msg);
			sw_err_clear(&err);
		}
		for (size_t w = 0; w < pdfs[f].nwarnings; w++)
			sw__ingest_event(in, SW_INGEST_WARNING, what, "%s: %s", s->files[f].written,
					 pdfs[f].warnings[w]);
	}
	imgs = sw_xcalloc(count, sizeof(*imgs));
	for (size_t i = 0; i < count; i++) {
		const struct scan_page *p = &s->pages[i];
		if (p->file < 0 || s->files[p->file].pdf)
			continue;
		const struct scan_file *f = &s->files[p->file];
		imgs[nimgs++] = (struct sw_image_page){
			.data = (const unsigned char *)f->data.data, .len = f->data.len,
			.index = p->index, .name = f->written };
	}
	if (sw_extract_image_pages(&x, imgs, nimgs, &xo, &err) != 0)
		goto fatal;
	for (size_t w = 0; w < x.nwarnings; w++)
		sw__ingest_event(in, SW_INGEST_WARNING, what, "%s", x.warnings[w]);

	/* The pages in order, joined by form feeds. */
	size_t k = 0, unread = 0;
	bool partial = false;
	sw_buf_reset(text);
	for (size_t i = 0; i < count; i++) {
		struct scan_page *p = &s->pages[i];
		const struct sw_xpage *xp = NULL;
		const struct sw_extract *from = NULL;
		if (p->file >= 0 && s->files[p->file].pdf) {
			from = &pdfs[p->file];
			xp = p->index < from->npages ? &from->pages[p->index] : NULL;
		} else if (p->file >= 0) {
			from = &x;
			xp = &x.pages[k++];
		}
		if (i)
			sw_buf_addc(text, '\f');
		if (xp) {
			for (size_t b = 0; b < xp->len; b++) {
				char c = from->text.data[xp->start + b];
				sw_buf_addc(text, c == '\f' ? '\n' : c);
			}
			p->ocr = xp->ocr;
			p->confidence = xp->confidence;
			p->over_budget = xp->over_budget;
			p->unread = xp->image_only;
			partial = partial || xp->image_only;
			s->ocr_pages += xp->ocr;
			unread += xp->over_budget;
		}
	}
	in->sum->ocr_pages += s->ocr_pages;
	s->unread = unread;
	s->ready = true;
	rc = SW__SCAN_READ;
	if (unread) {
		char firstkey[64] = "";
		for (size_t i = 0; i < count && !firstkey[0]; i++)
			if (s->pages[i].over_budget)
				snprintf(firstkey, sizeof(firstkey), "%s", pg.pages[i].key);
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "OCR budget reached: %zu of its %zu page(s) kept without text, from %s",
				 unread, count, firstkey);
	}
	if (partial) {
		/* Pages OCR did not read (the budget, --no-ocr, no tesseract):
		 * the document under an identity that says which, so that a
		 * later import that can read them does not find it stored (an
		 * earlier one may have stopped at the same page). */
		identity(s, true);
		if (sw_record_find_doc(&s->id, in->m, s->sha, begs, &err) == 0)
			rc = SW__SCAN_FOUND;
		else if (err.code)
			goto fatal;
	}
	goto cleanup;
fatal:
	in->fatal = err;
	rc = err.code ? err.code : SW_EIO;
cleanup:
	if (pdfs)
		for (size_t f = 0; f < s->nfiles; f++)
			sw_extract_release(&pdfs[f]);
	free(pdfs);
	free(imgs);
	sw_extract_release(&x);
	sw_opt_range_release(&pg);
	return rc;
}

void sw__ingest_scan_pages(const struct sw__ingest_scan *s, struct sw_page_in *pages,
			   size_t n)
{
	for (size_t i = 0; i < n && i < s->npages; i++) {
		pages[i].ocr = s->pages[i].ocr;
		pages[i].ocr_confidence = s->pages[i].confidence;
	}
}

const char *sw__ingest_scan_original(const struct sw__ingest_scan *s)
{
	return s->nfiles ? s->files[0].sha : NULL;
}

char *sw__ingest_scan_meta(const struct sw__ingest_scan *s, char *meta)
{
	if (!s->ready)
		return meta;
	json_t *o = json_loads(meta ? meta : "{}", 0, NULL);
	if (!o)
		return meta;
	json_t *images = json_array();
	for (size_t i = 0; i < s->nfiles; i++)
		json_array_append_new(images, json_pack("{s:o, s:s}", "image",
			sw_json_str(s->files[i].written), "sha256", s->files[i].sha));
	json_object_set_new(o, "page_images", images);
	json_object_set_new(o, "ocr_pages", json_integer((json_int_t)s->ocr_pages));
	if (s->unread)
		json_object_set_new(o, "ocr_unread_pages", json_integer((json_int_t)s->unread));
	char *out = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!out)
		return meta;
	free(meta);
	return out;
}

void sw__ingest_scan_release(struct sw__ingest_scan *s)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i].written);
		sw_buf_release(&s->files[i].data);
	}
	free(s->files);
	free(s->pages);
	memset(s, 0, sizeof(*s));
}
