/* native_pdf.c - a PDF imported page by page: each page, as the extractor
 * reads it, gets its Bates stamp and is stored inside the document's open
 * transaction (sw_record_doc_begin), then dropped; the document becomes
 * visible only at the commit. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ingest/ingest_int.h"

/* Pages stored between two drops of a mapped file's pages from memory. */
#define DROP_EVERY 64

struct pdf_sink {
	struct sw__ingest *in;
	const struct sw_map *map;
	struct sw_record_doc_writer *w;
	size_t pages, stamped, image_only;
	char beg[96], end[96];
};

static int sink(void *ctx, const struct sw_xpage *xp, const char *text, size_t len,
		struct sw_err *err)
{
	struct pdf_sink *k = ctx;
	struct sw_page_in p = { .text = text, .len = len, .ocr = xp->ocr,
				.ocr_confidence = xp->confidence };
	size_t s, e;
	k->image_only += xp->image_only;
	if (sw_bates_find_stamp(&p.bates, &s, &e, text, len) == 0) {
		p.has_bates = true;
		p.bates_source = "stamp";
		sw__ingest_touch_prefix(k->in, p.bates.prefix);
		if (!k->beg[0])
			sw_bates_format(k->beg, sizeof(k->beg), &p.bates, p.bates.number);
		sw_bates_format(k->end, sizeof(k->end), &p.bates, p.bates.number);
		k->stamped++;
	}
	k->pages++;
	/* What poppler read of a mapped file so far is paged in; it may be
	 * read again, from the file, if needed. */
	if (k->map && k->pages % DROP_EVERY == 0)
		sw_file_map_drop(k->map, 0, k->map->len);
	return sw_record_doc_add_page(k->w, &p, err);
}

int sw__ingest_pdf(struct sw__ingest *in, const char *what, struct sw_doc_in *doc,
		   const char *data, size_t len, const struct sw_map *map)
{
	const struct sw_ingest_opts *o = in->opts;
	struct sw_extract_opts xo = { .ocr = !o->no_ocr, .progress = o->progress,
				      .threads = o->ocr_threads, .budget = sw__ingest_budget(in),
				      .pool = sw__ingest_ocr_pool(in), .map = map };
	struct pdf_sink k = { .in = in, .map = map };
	struct sw_extract x;
	struct sw_record_stored stored;
	struct sw_err err = { 0 };
	char *meta = NULL;
	int rc = 0;

	sw_extract_init(&x);
	if ((map ? sw_record_keep_original_fd(in->m, doc->sha256, map->fd, len, &err)
		 : sw_record_keep_original(in->m, doc->sha256, data, len, &err)) != 0 ||
	    sw_record_doc_begin(&k.w, in->m, doc, &err) != 0)
		goto failed;
	x.sink = sink;
	x.sink_ctx = &k;
	if (sw_format_by_name("pdf")->extract(&x, data, len, &xo, &err) != 0) {
		sw_record_doc_abort(k.w);
		goto failed;
	}
	json_object_set_new(x.meta, "file_name", sw_json_str(doc->name));
	if (doc->parent_id)
		json_object_set_new(x.meta, "parent_id", json_integer(doc->parent_id));
	meta = json_dumps(x.meta, JSON_COMPACT);
	if (sw_record_doc_commit(k.w, &stored, meta, &err) != 0)
		goto failed;
	int64_t id = stored.id;
	bool transcript = stored.transcript;
	if ((rc = sw__ingest_stored(in, doc, &stored)) != 0)
		goto cleanup;
	sw__ingest_pages(in, k.pages);
	in->sum->ocr_pages += x.ocr_pages;
	for (size_t i = 0; i < x.nwarnings; i++)
		sw__ingest_event(in, SW_INGEST_WARNING, what, "%s", x.warnings[i]);
	if (k.stamped && k.stamped < k.pages)
		sw__ingest_event(in, SW_INGEST_WARNING, what, "%zu of %zu pages carry no Bates stamp",
				 k.pages - k.stamped, k.pages);
	if (k.image_only)
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "%zu page(s) have no text layer and were not read by OCR",
				 k.image_only);
	struct sw_buf msg = SW_BUF_INIT;
	sw_buf_addf(&msg, "%spdf, %zu page(s)", transcript ? "transcript, " : "", k.pages);
	if (k.beg[0])
		sw_buf_addf(&msg, ", Bates %s-%s", k.beg, k.end);
	if (x.ocr_pages)
		sw_buf_addf(&msg, ", %zu read by OCR", x.ocr_pages);
	if (doc->parent_id)
		sw_buf_addf(&msg, ", attached to document %lld", (long long)doc->parent_id);
	(void)id;
	sw__ingest_event(in, SW_INGEST_IMPORTED, what, "%s", msg.data);
	sw_buf_release(&msg);
	goto cleanup;
failed:
	if (sw__ingest_fatal(&err)) {
		in->fatal = err;
		rc = err.code ? err.code : SW_EIO;
	} else {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
	}
cleanup:
	free(meta);
	sw_extract_release(&x);
	return rc;
}
