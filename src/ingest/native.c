/* native.c - importing files that need an extractor (PDF, e-mail,
 * .docx): the extracted pages get Bates stamps read from their text, the
 * original is kept, and an e-mail's attachments become child documents that
 * point at their message (documents.parent_id), as BEGATTACH/ENDATTACH do in
 * a production. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "ingest/ingest_int.h"

/* An attachment may itself be an e-mail with attachments; this bounds the
 * recursion. */
#define MAX_FAMILY_DEPTH 4

/* A mapped file is hashed MAP_SLICE bytes at a time. */
#define MAP_SLICE ((size_t)4 << 20)

/* The kind an attachment is stored as: its format's name, Markdown being
 * stored as text; NULL when sworn cannot read it. */
static const char *kind_of(const char *name, const char *mime)
{
	const struct sw_format *f = sw_format_of_attachment(name, mime);
	if (!f)
		return NULL;
	return !strcmp(f->name, "markdown") ? "text" : f->name;
}

/* One document to store: the original's bytes and what was extracted. */
struct native {
	struct sw__ingest *in;
	const char *what;        /* for events */
	const char *name;
	const char *kind;
	const char *mime;        /* an attachment's content type, or NULL */
	const char *source_path;
	const char *data;
	size_t len;
	const struct sw_map *map; /* data is this mapped file's, or NULL */
	int64_t parent_id;
	int depth;
};

static int store_native(struct native *n);

/* Extract by kind.  A kind sworn cannot read (an image attached to an
 * e-mail) still becomes a document, of one empty page, so that the family
 * is complete and the original is kept. */
static int extract(struct sw_extract *x, const struct native *n, struct sw_err *err)
{
	const struct sw_ingest_opts *o = n->in->opts;
	if (!n->kind) {
		sw_buf_adds(&x->text, "");
		sw_extract_page(x);
		return 0;
	}
	/* Text attachments are decoded and split like text files. */
	const struct sw_format *f = sw_format_by_name(n->kind);
	struct sw_extract_opts xo = { .ocr = !o->no_ocr, .progress = o->progress,
				      .threads = o->ocr_threads, .budget = sw__ingest_budget(n->in),
				      .pool = sw__ingest_ocr_pool(n->in) };
	return f->extract(x, n->data, n->len, &xo, err);
}

static int store_children(struct native *parent, struct sw_extract *x, int64_t parent_id)
{
	int rc = 0;
	for (size_t i = 0; i < x->nattach && rc == 0; i++) {
		struct sw_xattach *a = &x->attach[i];
		char *what = sw_xasprintf("%s > %s", parent->what, a->name);
		struct native child = {
			.in = parent->in,
			.what = what,
			.name = a->name,
			.kind = kind_of(a->name, a->mime),
			.mime = a->mime,
			.source_path = parent->source_path,
			.data = a->data.data ? a->data.data : "",
			.len = a->data.len,
			.parent_id = parent_id,
			.depth = parent->depth + 1,
		};
		if (child.depth > MAX_FAMILY_DEPTH)
			sw__ingest_event(parent->in, SW_INGEST_FAILED, what,
					 "attachments nested more than %d deep", MAX_FAMILY_DEPTH);
		else
			rc = store_native(&child);
		free(what);
	}
	return rc;
}

/* Store the attachments of the message stored as parent_id (those already
 * stored are found and skipped) and, when none failed, clear the mark that
 * says its family is partial. */
static int complete_family(struct native *n, struct sw_extract *x, int64_t parent_id)
{
	struct sw__ingest *in = n->in;
	struct sw_err err = { 0 };
	uint64_t failed = in->sum->failed;
	int rc = store_children(n, x, parent_id);
	if (rc == 0 && in->sum->failed == failed &&
	    sw_record_family_complete(in->m, parent_id, &err) != 0) {
		in->fatal = err;
		rc = err.code ? err.code : SW_EDB;
	}
	return rc;
}

void sw__ingest_map_sha256(char hex[SW_SHA256_HEX_LEN + 1], const struct sw_map *m)
{
	struct sw_sha256 h;
	sw_sha256_init(&h);
	for (size_t off = 0; off < m->len; off += MAP_SLICE) {
		size_t l = m->len - off < MAP_SLICE ? m->len - off : MAP_SLICE;
		sw_sha256_update(&h, m->data + off, l);
		sw_file_map_drop(m, off, l);
	}
	sw_sha256_final_hex(&h, hex);
}

static int store_native(struct native *n)
{
	struct sw__ingest *in = n->in;
	struct sw_extract x;
	struct sw_page_in *pages = NULL;
	struct sw_err err = { 0 };
	char sha[SW_SHA256_HEX_LEN + 1];
	char *meta = NULL;
	int64_t id;
	bool transcript = false;
	int rc = 0;

	sw_extract_init(&x);
	if (n->map)
		sw__ingest_map_sha256(sha, n->map);
	else
		sw_sha256_hex(sha, n->data, n->len);
	if (sw_record_find_doc(&id, in->m, sha, NULL, &err) == 0) {
		bool partial = false;
		if ((n->map ? sw_record_keep_original_fd(in->m, sha, n->map->fd, n->len, &err)
			    : sw_record_keep_original(in->m, sha, n->data, n->len, &err)) != 0 ||
		    sw_record_family_partial(&partial, in->m, id, &err) != 0)
			goto fatal;
		int found = sw__ingest_found(in, id, n->what);
		if (found < 0) {
			rc = found;
			goto cleanup;
		}
		if (!found)
			sw__ingest_event(in, SW_INGEST_SKIPPED, n->what,
					 "already imported as document %lld%s", (long long)id,
					 partial ? "; storing the attachments it still lacks" : "");
		if (!partial)
			goto cleanup;
		/* An earlier import stopped inside this family: read the
		 * message again for its attachments. */
		if (extract(&x, n, &err) != 0) {
			sw__ingest_event(in, SW_INGEST_FAILED, n->what, "%s", err.msg);
			goto cleanup;
		}
		rc = complete_family(n, &x, id);
		goto cleanup;
	} else if (err.code) {
		goto fatal;
	}
	if (n->kind && strcmp(n->kind, "pdf") == 0) {
		/* Stored page by page as read: bounded memory at any length. */
		struct sw_doc_in pdf = {
			.name = n->name, .kind = "pdf", .origin = in->opts->origin,
			.sha256 = sha, .original = sha, .source_path = n->source_path,
			.bytes = n->len, .parent_id = n->parent_id,
		};
		rc = sw__ingest_pdf(in, n->what, &pdf, n->data, n->len, n->map);
		goto cleanup;
	}
	if (extract(&x, n, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, n->what, "%s", err.msg);
		goto cleanup;
	}
	if (x.npages > SW_RECORD_MAX_PAGES) {
		sw__ingest_event(in, SW_INGEST_FAILED, n->what, "%zu pages is over the limit of %d",
				 x.npages, SW_RECORD_MAX_PAGES);
		goto cleanup;
	}
	pages = sw_xcalloc(x.npages, sizeof(*pages));
	size_t stamped = 0, image_only = 0;
	char beg[96] = "", end[96] = "";
	for (size_t i = 0; i < x.npages; i++) {
		struct sw_page_in *p = &pages[i];
		size_t s, e;
		p->text = x.text.data ? x.text.data + x.pages[i].start : "";
		p->len = x.pages[i].len;
		p->ocr = x.pages[i].ocr;
		p->ocr_confidence = x.pages[i].confidence;
		image_only += x.pages[i].image_only;
		if (sw_bates_find_stamp(&p->bates, &s, &e, p->text, p->len) == 0) {
			p->has_bates = true;
			p->bates_source = "stamp";
			sw__ingest_touch_prefix(in, p->bates.prefix);
			if (!beg[0])
				sw_bates_format(beg, sizeof(beg), &p->bates, p->bates.number);
			sw_bates_format(end, sizeof(end), &p->bates, p->bates.number);
			stamped++;
		}
	}
	json_object_set_new(x.meta, "file_name", sw_json_str(n->name));
	if (n->parent_id)
		json_object_set_new(x.meta, "parent_id", json_integer(n->parent_id));
	/* Cleared once the last attachment is stored (complete_family). */
	if (x.nattach)
		json_object_set_new(x.meta, SW_RECORD_FAMILY_PARTIAL, json_true());
	meta = json_dumps(x.meta, JSON_COMPACT);
	if (sw_record_keep_original(in->m, sha, n->data, n->len, &err) != 0)
		goto fatal;
	struct sw_doc_in doc = {
		.name = n->name,
		.kind = n->kind ? n->kind : "attachment",
		.origin = in->opts->origin,
		.sha256 = sha,
		.original = sha,
		.source_path = n->source_path,
		.meta_json = meta,
		.bytes = n->len,
		.pages = pages,
		.npages = x.npages,
		.parent_id = n->parent_id,
	};
	int stored = sw__ingest_store(in, &doc, n->what, &id, &transcript);
	if (stored != 0) {
		rc = stored < 0 ? stored : 0;
		goto cleanup;
	}
	sw__ingest_pages(in, x.npages);
	in->sum->ocr_pages += x.ocr_pages;
	for (size_t i = 0; i < x.nwarnings; i++)
		sw__ingest_event(in, SW_INGEST_WARNING, n->what, "%s", x.warnings[i]);
	if (!n->kind)
		sw__ingest_event(in, SW_INGEST_WARNING, n->what,
				 "kept without text: sworn reads no text from %s files",
				 n->mime ? n->mime : "such");
	if (stamped && stamped < x.npages)
		sw__ingest_event(in, SW_INGEST_WARNING, n->what, "%zu of %zu pages carry no Bates stamp",
				 x.npages - stamped, x.npages);
	if (image_only)
		sw__ingest_event(in, SW_INGEST_WARNING, n->what,
				 "%zu page(s) have no text layer and were not read by OCR", image_only);
	struct sw_buf msg = SW_BUF_INIT;
	sw_buf_addf(&msg, "%s%s, %zu page(s)", transcript ? "transcript, " : "",
		    n->kind ? n->kind : "attachment", x.npages);
	if (beg[0])
		sw_buf_addf(&msg, ", Bates %s-%s", beg, end);
	if (x.ocr_pages)
		sw_buf_addf(&msg, ", %zu read by OCR", x.ocr_pages);
	if (x.nattach)
		sw_buf_addf(&msg, ", %zu attachment(s)", x.nattach);
	if (n->parent_id)
		sw_buf_addf(&msg, ", attached to document %lld", (long long)n->parent_id);
	sw__ingest_event(in, SW_INGEST_IMPORTED, n->what, "%s", msg.data);
	sw_buf_release(&msg);
	rc = x.nattach ? complete_family(n, &x, id) : 0;
	goto cleanup;
fatal:
	in->fatal = err;
	rc = err.code ? err.code : SW_EIO;
cleanup:
	free(pages);
	free(meta);
	sw_extract_release(&x);
	return rc;
}

int sw__ingest_native(struct sw__ingest *in, const char *path, const char *kind)
{
	struct sw_buf raw = SW_BUF_INIT;
	struct sw_map map = { .fd = -1 };
	struct sw_err err = { 0 };
	struct stat st;
	char *real = NULL;
	int rc = 0;

	sw__ingest_tick(in);
	bool mapped = kind && strcmp(kind, "pdf") == 0 && stat(path, &st) == 0 &&
		      S_ISREG(st.st_mode) && (uint64_t)st.st_size >= SW__INGEST_MAP_MIN;
	/* A mapped PDF is read in bounded memory at any size (record.h). */
	int got = mapped ? sw_file_map(&map, path, SW_RECORD_MAX_PDF_BYTES, &err)
			 : sw_file_read(&raw, path, SW_RECORD_MAX_FILE_BYTES, &err);
	if (got != 0) {
		/* Over the size of one file sworn reads (any number of pages
		 * fits; bytes do not): say how to bring it in. */
		sw__ingest_event(in, SW_INGEST_FAILED, path, "%s%s", err.msg,
				 got == SW_ELIMIT ? ": split it into smaller files (a PDF with"
						    " qpdf --split-pages) and ingest those" : "");
		goto cleanup;
	}
	if (mapped) {
		raw.data = (char *)(uintptr_t)map.data; /* borrowed: not released */
		raw.len = map.len;
	}
	if (raw.len == 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "the file is empty");
		goto cleanup;
	}
	real = realpath(path, NULL);
	struct native n = {
		.in = in,
		.what = path,
		.name = sw_path_base(path),
		.kind = kind,
		.source_path = real ? real : path,
		.data = raw.data,
		.len = raw.len,
		.map = mapped ? &map : NULL,
	};
	rc = store_native(&n);
cleanup:
	if (mapped)
		sw_file_unmap(&map);
	else
		sw_buf_release(&raw);
	free(real);
	return rc;
}
