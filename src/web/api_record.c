/* api_record.c - the record through the browser: a matter's documents,
 * search, one page's text and its image.  Text is only ever a JSON
 * string: the page shows it as text. */
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"

#define MAX_HITS 200

static json_t *opt_str(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

void sw__web_docs(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_doc_row *rows = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	(void)q;
	if (sw_matter_docs(&rows, &n, m, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	json_t *docs = sw_doc_rows_json(sw_matter_name(m), rows, n);
	sw_doc_rows_free(rows, n);
	sw__web_reply_json(r, 200, docs);
}

/* The snippet without the search's \x01 ... \x02 marks, and each match's
 * [start, end) byte range in it. */
static json_t *hit_json(const struct sw_search_hit *h)
{
	struct sw_buf b = SW_BUF_INIT;
	json_t *marks = json_array();
	size_t start = 0;
	bool open = false;
	for (const char *s = h->snippet ? h->snippet : ""; *s; s++) {
		if (*s == '\x01') {
			start = b.len;
			open = true;
		} else if (*s == '\x02') {
			if (open)
				json_array_append_new(marks, json_pack("[I, I]", (json_int_t)start,
								       (json_int_t)b.len));
			open = false;
		} else {
			sw_buf_addc(&b, *s);
		}
	}
	json_t *j = json_pack("{s:o, s:I, s:o, s:I, s:o, s:o, s:o, s:f, s:o}",
		"doc", sw_json_str(h->document), "doc_id", (json_int_t)h->doc_id,
		"bates", opt_str(h->bates), "page", (json_int_t)h->page,
		"cite", opt_str(h->cite), "origin", sw_json_str(h->origin),
		"snippet", sw_json_strn(b.data ? b.data : "", b.len), "score", h->score,
		"marks", marks);
	sw_buf_release(&b);
	return j;
}

void sw__web_search(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_search_hit *hits = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	long long limit = 20;
	const char *text = sw__web_arg(q, "q");

	if (!sw__web_arg_int(&limit, q, r, "limit", 1, MAX_HITS, false))
		return;
	if (!text || !*text) {
		sw__web_reply_error(r, 400, "'q' is missing: give the words to search for");
		return;
	}
	if (strlen(text) > SW_SEARCH_MAX_QUERY || !sw_utf8_valid(text, strlen(text))) {
		sw__web_reply_error(r, 400, "'q' is not a query (UTF-8, at most %d bytes)",
				    SW_SEARCH_MAX_QUERY);
		return;
	}
	struct sw_search_opts so = { .limit = (size_t)limit };
	if (sw_search(&hits, &n, m, text, &so, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, hit_json(&hits[i]));
	sw_search_hits_free(hits, n);
	sw__web_reply_json(r, 200, json_pack("{s:o, s:o}", "query", sw_json_str(text), "hits", arr));
}

/* The page ?doc=ID&page=N or ?bates=NUMBER names, as sworn show finds it;
 * false with a reply when there is none. */
static bool find_page(struct sw_shown_page *p, struct sw__web_req *q, struct sw__web_reply *r,
		      struct sw_matter *m, bool bates_ok)
{
	long long doc = 0, page = 1;
	struct sw_err err = { 0 };
	char what[64];
	const char *bates = bates_ok ? sw__web_arg(q, "bates") : NULL;

	memset(p, 0, sizeof(*p));
	if (bates && *bates) {
		size_t bl = strlen(bates);
		struct sw_bates_ref ref;
		/* a number only, never a document's name: the name route is ?doc= */
		if (bl > 128 || sw_bates_ref_parse(&ref, bates, bl) != 0 || ref.first != ref.last) {
			sw__web_reply_error(r, 400, "bad 'bates': give one Bates number");
			return false;
		}
		if (sw_record_show(p, m, bates, &err) != 0) {
			sw__web_reply_err(r, &err);
			return false;
		}
		return true;
	}
	if (!sw__web_arg_int(&doc, q, r, "doc", 1, INT64_MAX, true) ||
	    !sw__web_arg_int(&page, q, r, "page", 1, SW_RECORD_MAX_PAGES, false))
		return false;
	snprintf(what, sizeof(what), "%lld:%lld", doc, page);
	if (sw_record_show(p, m, what, &err) != 0) {
		sw__web_reply_err(r, &err);
		return false;
	}
	if (p->doc_id != doc) {
		/* an id is looked up first, so this is only a name that reads
		 * as a number: not what ?doc= asks for */
		sw_shown_page_release(p);
		sw__web_reply_error(r, 404, "no document %lld", doc);
		return false;
	}
	return true;
}

/* The original's path when it is a PDF whose pages are the document's
 * (a load file's native may be paged otherwise: then no image). */
static char *pdf_original(struct sw__web_req *q, struct sw_matter *m,
			  const struct sw_shown_page *p)
{
	char *path = NULL;
	unsigned pages = 0;
	struct sw_err err = { 0 };
	char magic[5];
	if (sw_record_doc_original(&path, m, p->doc_id, &err) != 0)
		return NULL;
	FILE *f = fopen(path, "rb");
	bool pdf = f && fread(magic, 1, 5, f) == 5 && memcmp(magic, "%PDF-", 5) == 0;
	if (f)
		fclose(f);
	if (pdf) {
		pdf = sw__web_render_pages(&pages, q->w, path, &err) == 0 &&
		      pages == p->page_count;
	}
	if (!pdf) {
		free(path);
		return NULL;
	}
	return path;
}

void sw__web_page(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_shown_page p;
	if (!find_page(&p, q, r, m, true))
		return;
	char *pdf = pdf_original(q, m, &p);
	json_t *j = sw_shown_page_json(&p);
	json_object_set_new(j, "has_image", json_boolean(pdf != NULL));
	free(pdf);
	sw_shown_page_release(&p);
	sw__web_reply_json(r, 200, j);
}

void sw__web_page_png(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_shown_page p;
	struct sw_err err = { 0 };
	if (!find_page(&p, q, r, m, false))
		return;
	char *pdf = pdf_original(q, m, &p);
	if (!pdf) {
		sw__web_reply_error(r, 404, "the record holds no PDF of this document");
		sw_shown_page_release(&p);
		return;
	}
	struct sw_buf png = SW_BUF_INIT;
	int rc = sw__web_render_png(&png, q->w, pdf, p.page_no, &err);
	if (rc != 0) {
		sw__web_reply_err(r, &err);
	} else {
		sw_buf_reset(&r->body);
		sw_buf_add(&r->body, png.data, png.len);
		r->status = 200;
		r->type = "image/png";
		r->api = true;
	}
	sw_buf_release(&png);
	free(pdf);
	sw_shown_page_release(&p);
}
