/* docs.c - what a matter holds, as a person looks at it: the documents
 * listed, one page shown by its Bates number or its document and page.
 * Unlike query.c's, these reads see every document, removed ones too:
 * they say what the record is, not what may support a claim. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "record/record_int.h"

/* A live document before a removed one: removal keeps the row, so a
 * corrected re-production and what it replaced share a name. */
int sw__record_find_named(int64_t *out, char **status, struct sw_matter *m,
			  const char *doc, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, step, live = 0, removed = 0;
	uint64_t id = 0;
	bool numeric = sw_parse_u64(doc, strlen(doc), &id);
	int64_t live_id = 0, removed_id = 0;
	char *live_status = NULL;

	*out = 0;
	if (status)
		*status = NULL;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT id, status, id = ?1 FROM documents WHERE id = ?1 OR name = ?2"
			       " OR beg_bates = ?2 ORDER BY id = ?1 DESC, id",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot look up a document");
	sqlite3_bind_int64(st, 1, numeric ? (sqlite3_int64)id : -1);
	sqlite3_bind_text(st, 2, doc, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t row = sqlite3_column_int64(st, 0);
		const char *s = (const char *)sqlite3_column_text(st, 1);
		if (sqlite3_column_int(st, 2)) { /* its id: nothing else counts */
			live = 1;
			removed = 0;
			live_id = row;
			live_status = sw_xstrdup(s);
			break;
		}
		if (s && strcmp(s, "removed") == 0) {
			if (removed++ == 0)
				removed_id = row;
		} else if (live++ == 0) {
			live_id = row;
			live_status = sw_xstrdup(s);
		}
	}
	if (step != SQLITE_DONE && step != SQLITE_ROW) {
		rc = sw__record_sqlerr(err, m->db, "cannot look up a document");
	} else if (live == 1) {
		*out = live_id;
		if (status) {
			*status = live_status;
			live_status = NULL;
		}
	} else if (live > 1 || (live == 0 && removed > 1)) {
		rc = sw_err_set(err, SW_EUSAGE,
				"%d documents are called '%s': name one by its id (sworn matter docs)",
				live ? live : removed, doc);
	} else if (removed == 1) {
		*out = removed_id;
		if (status)
			*status = sw_xstrdup("removed");
	} else {
		rc = sw_err_set(err, SW_ENOTFOUND, "no document '%s' in this matter", doc);
	}
	free(live_status);
	sqlite3_finalize(st);
	return rc;
}

int sw_matter_docs(struct sw_doc_row **out, size_t *n, struct sw_matter *m,
		   struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT d.id, d.name, d.kind, d.origin, d.status,"
			       " ifnull(d.beg_bates, (SELECT bates FROM pages WHERE doc_id = d.id"
			       "   ORDER BY page_no LIMIT 1)),"
			       " ifnull(d.end_bates, (SELECT bates FROM pages WHERE doc_id = d.id"
			       "   ORDER BY page_no DESC LIMIT 1)),"
			       " d.page_count, d.source_path, d.imported_at, ifnull(d.parent_id, 0)"
			       " FROM documents AS d ORDER BY d.id",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot list the documents");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sw_xgrow(*out, &cap, *n + 1, sizeof(**out));
		struct sw_doc_row *r = &(*out)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		r->name = sw_db_col_dup(st, 1);
		r->kind = sw_db_col_dup(st, 2);
		r->origin = sw_db_col_dup(st, 3);
		r->status = sw_db_col_dup(st, 4);
		r->beg_bates = sw_db_col_dup(st, 5);
		r->end_bates = sw_db_col_dup(st, 6);
		r->pages = (uint32_t)sqlite3_column_int64(st, 7);
		r->source = sw_db_col_dup(st, 8);
		r->imported_at = sw_db_col_dup(st, 9);
		r->parent_id = sqlite3_column_int64(st, 10);
	}
	sqlite3_finalize(st);
	st = NULL;
	/* Their metadata, merged by id (both in id order). */
	if (step == SQLITE_DONE &&
	    sqlite3_prepare_v2(m->db, "SELECT doc_id, field, value, day FROM doc_fields"
			       " ORDER BY doc_id", -1, &st, NULL) != SQLITE_OK)
		step = SQLITE_ERROR;
	for (size_t i = 0; st && (step = sqlite3_step(st)) == SQLITE_ROW;) {
		int64_t id = sqlite3_column_int64(st, 0);
		while (i < *n && (*out)[i].id < id)
			i++;
		if (i < *n && (*out)[i].id == id)
			sw__record_meta_put(&(*out)[i].meta,
					    (const char *)sqlite3_column_text(st, 1),
					    (const char *)sqlite3_column_text(st, 2),
					    (const char *)sqlite3_column_text(st, 3));
	}
	int rc = 0;
	if (step != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot list the documents");
		sw_doc_rows_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

void sw_doc_rows_free(struct sw_doc_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sw_doc_row *r = &rows[i];
		free(r->name);
		free(r->kind);
		free(r->origin);
		free(r->status);
		free(r->beg_bates);
		free(r->end_bates);
		free(r->source);
		free(r->imported_at);
		sw_doc_meta_release(&r->meta);
	}
	free(rows);
}

static json_t *opt_str(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

struct json_t *sw_doc_rows_json(const char *matter, const struct sw_doc_row *rows, size_t n)
{
	json_t *docs = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct sw_doc_row *r = &rows[i];
		json_t *j = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}",
			"id", (json_int_t)r->id, "name", sw_json_str(r->name),
			"kind", sw_json_str(r->kind), "origin", sw_json_str(r->origin),
			"status", sw_json_str(r->status), "beg_bates", opt_str(r->beg_bates),
			"end_bates", opt_str(r->end_bates), "pages", (json_int_t)r->pages,
			"source", opt_str(r->source), "imported_at", opt_str(r->imported_at));
		json_object_set_new(j, "parent_id",
				    r->parent_id ? json_integer((json_int_t)r->parent_id)
						 : json_null());
		json_object_set_new(j, "metadata", sw_doc_meta_json(&r->meta));
		json_array_append_new(docs, j);
	}
	return json_pack("{s:o, s:o}", "matter", sw_json_str(matter), "documents", docs);
}

#define SHOW_SELECT \
	"SELECT d.id, d.name, d.origin, d.status, p.page_no, d.page_count, p.bates," \
	" p.text_source, p.text FROM pages AS p JOIN documents AS d ON d.id = p.doc_id"

/* Fill out from the first row of st; SW_ENOTFOUND when there is none. */
static int read_page(struct sw_shown_page *out, sqlite3_stmt *st, struct sw_matter *m,
		     struct sw_err *err)
{
	int step = sqlite3_step(st);
	if (step == SQLITE_DONE)
		return SW_ENOTFOUND;
	if (step != SQLITE_ROW)
		return sw__record_sqlerr(err, m->db, "cannot read the page");
	out->doc_id = sqlite3_column_int64(st, 0);
	out->document = sw_db_col_dup(st, 1);
	out->origin = sw_db_col_dup(st, 2);
	out->status = sw_db_col_dup(st, 3);
	out->page_no = (uint32_t)sqlite3_column_int64(st, 4);
	out->page_count = (uint32_t)sqlite3_column_int64(st, 5);
	out->bates = sw_db_col_dup(st, 6);
	out->text_source = sw_db_col_dup(st, 7);
	sw_buf_add(&out->text, sqlite3_column_blob(st, 8), (size_t)sqlite3_column_bytes(st, 8));
	return 0;
}

static int show_bates(struct sw_shown_page *out, struct sw_matter *m,
		      const struct sw_bates_ref *ref, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->db, SHOW_SELECT
			       " WHERE p.bates_prefix = ?1 AND p.bates_num = ?2"
			       " ORDER BY CASE d.status WHEN 'active' THEN 0"
			       "   WHEN 'quarantined' THEN 1 ELSE 2 END, d.id LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot look up a Bates number");
	sqlite3_bind_text(st, 1, ref->prefix, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)ref->first);
	int rc = read_page(out, st, m, err);
	sqlite3_finalize(st);
	if (rc == 0)
		rc = sw_record_doc_meta(&out->meta, m, out->doc_id, err);
	return rc;
}

static int show_doc_page(struct sw_shown_page *out, struct sw_matter *m, int64_t doc,
			 uint32_t page, const char *what, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->db, SHOW_SELECT " WHERE p.doc_id = ?1 AND p.page_no = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot read the page");
	sqlite3_bind_int64(st, 1, doc);
	sqlite3_bind_int64(st, 2, page);
	int rc = read_page(out, st, m, err);
	sqlite3_finalize(st);
	if (rc == SW_ENOTFOUND)
		rc = sw_err_set(err, SW_ENOTFOUND, "document %lld ('%s') has no page %u",
				(long long)doc, what, page);
	if (rc == 0)
		rc = sw_record_doc_meta(&out->meta, m, out->doc_id, err);
	return rc;
}

int sw_record_show(struct sw_shown_page *out, struct sw_matter *m, const char *what,
		   struct sw_err *err)
{
	struct sw_bates_ref ref;
	struct sw_err miss = { 0 };
	int64_t doc = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->text = (struct sw_buf)SW_BUF_INIT;
	size_t len = strlen(what);
	if (sw_bates_ref_parse(&ref, what, len) == 0 && ref.first == ref.last) {
		rc = show_bates(out, m, &ref, err);
		if (rc != SW_ENOTFOUND)
			return rc;
	}
	rc = sw__record_find_named(&doc, NULL, m, what, &miss);
	if (rc == 0)
		return show_doc_page(out, m, doc, 1, what, err);
	/* DOC:PAGE, when DOC alone names nothing ("notes:v2.txt" may). */
	const char *colon = strrchr(what, ':');
	uint64_t page = 0;
	if (rc == SW_ENOTFOUND && colon && colon > what &&
	    sw_parse_u64(colon + 1, strlen(colon + 1), &page) && page >= 1 &&
	    page <= SW_RECORD_MAX_PAGES) {
		char *name = sw_xstrndup(what, (size_t)(colon - what));
		rc = sw__record_find_named(&doc, NULL, m, name, err);
		if (rc == 0)
			rc = show_doc_page(out, m, doc, (uint32_t)page, name, err);
		free(name);
		return rc;
	}
	if (err)
		*err = miss;
	if (rc == SW_ENOTFOUND)
		return sw_err_set(err, SW_ENOTFOUND,
				  "no page or document '%s' in this matter (a Bates number, or DOC[:PAGE])",
				  what);
	return rc;
}

void sw_shown_page_release(struct sw_shown_page *p)
{
	if (!p)
		return;
	free(p->document);
	free(p->origin);
	free(p->status);
	free(p->bates);
	free(p->text_source);
	sw_buf_release(&p->text);
	sw_doc_meta_release(&p->meta);
	memset(p, 0, sizeof(*p));
}

struct json_t *sw_shown_page_json(const struct sw_shown_page *p)
{
	json_t *j = json_pack("{s:I, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}", "document_id",
			      (json_int_t)p->doc_id, "document", sw_json_str(p->document), "bates",
			      opt_str(p->bates), "page", (json_int_t)p->page_no, "pages",
			      (json_int_t)p->page_count, "origin", sw_json_str(p->origin), "status",
			      sw_json_str(p->status), "text_source", opt_str(p->text_source),
			      "text", sw_json_strn(p->text.data ? p->text.data : "", p->text.len));
	json_object_set_new(j, "metadata", sw_doc_meta_json(&p->meta));
	return j;
}
