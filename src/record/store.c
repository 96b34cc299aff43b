/* store.c - writing one document, its pages, index entries and transcript
 * lines in one transaction, past the provenance firewall, and returning what
 * was decided; model outputs.  Originals are kept by original.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record_int.h"

int sw_record_find_doc(int64_t *out_id, struct sw_matter *m,
			const char *sha256, const char *beg_bates,
			struct sw_err *err)
{
	sqlite3_stmt *st = sw__record_stmt(m, SW_STMT_FIND_DOC, err);
	int rc;
	if (!st)
		return SW_EDB;
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, beg_bates, -1, SQLITE_STATIC);
	int step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		*out_id = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (step == SQLITE_DONE) {
		rc = SW_ENOTFOUND;
	} else {
		rc = sw__record_sqlerr(err, m->db, "cannot look up a document");
	}
	sqlite3_reset(st);
	return rc;
}

/* One statement on one document id: a row's first column as an integer
 * (*out, when out is given) or a change. */
static int doc_stmt(int64_t *out, struct sw_matter *m, const char *sql, int64_t id,
		    const char *what, struct sw_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, what);
	sqlite3_bind_int64(st, 1, id);
	int step = sqlite3_step(st), rc = 0;
	if (step == SQLITE_ROW && out)
		*out = sqlite3_column_int64(st, 0);
	else if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, what);
	sqlite3_finalize(st);
	return rc;
}

int sw_record_family_partial(bool *out, struct sw_matter *m, int64_t id, struct sw_err *err)
{
	int64_t v = 0;
	int rc = doc_stmt(&v, m,
			  "SELECT CASE WHEN json_valid(meta)"
			  " THEN ifnull(json_extract(meta, '$." SW_RECORD_FAMILY_PARTIAL "'), 0)"
			  " ELSE 0 END FROM documents WHERE id = ?1",
			  id, "cannot read a document's family", err);
	*out = rc == 0 && v != 0;
	return rc;
}

int sw_record_family_complete(struct sw_matter *m, int64_t id, struct sw_err *err)
{
	return doc_stmt(NULL, m,
			"UPDATE documents SET meta = json_remove(meta, '$." SW_RECORD_FAMILY_PARTIAL "')"
			" WHERE id = ?1 AND json_valid(meta)",
			id, "cannot mark a document's family complete", err);
}

struct tr_scan {
	struct sw_tr_line *lines;
	size_t n, cap;
	size_t *page_first; /* index of each page's first line in lines */
	uint32_t *page_no;
	size_t tr_pages;
};

/* A document is a transcript when at least half its pages (and at least
 * one) read as numbered deposition pages. */
static void scan_transcript(struct tr_scan *t, const struct sw_doc_in *doc)
{
	t->page_first = sw_xcalloc(doc->npages + 1, sizeof(*t->page_first));
	t->page_no = sw_xcalloc(doc->npages + 1, sizeof(*t->page_no));
	for (size_t i = 0; i < doc->npages; i++) {
		t->page_first[i] = t->n;
		if (sw_transcript_page(&t->page_no[i], &t->lines, &t->n, &t->cap,
				       doc->pages[i].text, doc->pages[i].len) > 0)
			t->tr_pages++;
	}
	t->page_first[doc->npages] = t->n;
}

static void tr_scan_release(struct tr_scan *t)
{
	free(t->lines);
	free(t->page_first);
	free(t->page_no);
}

static int prepare(sqlite3_stmt **st, sqlite3 *db, const char *sql, struct sw_err *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot prepare a statement");
	return 0;
}

/* Bind a document's row to the cached SW_STMT_INS_DOC statement. */
void sw__record_bind_doc(sqlite3_stmt *ins_doc, const struct sw_doc_in *doc, const char *kind,
			 const char *now, uint64_t pages, const char *status)
{
	sqlite3_bind_text(ins_doc, 1, doc->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 3, sw_origin_name(doc->origin), -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 4, doc->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 5, doc->original, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 6, doc->beg_bates, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 7, doc->end_bates, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 8, doc->source_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 9, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins_doc, 10, (sqlite3_int64)doc->bytes);
	sqlite3_bind_int64(ins_doc, 11, (sqlite3_int64)pages);
	sqlite3_bind_text(ins_doc, 12, doc->meta_json, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 13, status, -1, SQLITE_STATIC);
	if (doc->parent_id > 0)
		sqlite3_bind_int64(ins_doc, 14, doc->parent_id);
	else
		sqlite3_bind_null(ins_doc, 14);
}

/* The provenance firewall for one document: evidence is checked against
 * every model output of the workspace; a model output is registered before
 * it is stored, so a crash between the two errs on the side of caution. */
static int firewall(struct sw_provenance_match *pm, struct sw_matter *m,
		    const struct sw_doc_in *doc, struct sw_err *err)
{
	struct sw_buf all = SW_BUF_INIT;
	struct sw_fp fp;
	int rc = 0;

	memset(pm, 0, sizeof(*pm));
	if (!m->ws_root || (doc->origin != SW_ORIGIN_EVIDENCE && doc->origin != SW_ORIGIN_MODEL))
		return 0;
	if (doc->origin == SW_ORIGIN_EVIDENCE) {
		/* Evidence prints are never stored: with no model output to
		 * compare against, computing them is wasted work (a sixth of a
		 * large import). */
		size_t nouts = 0;
		if ((rc = sw__record_prov_outputs(&nouts, m, err)) != 0 || nouts == 0)
			return rc;
	}
	for (size_t i = 0; i < doc->npages; i++) {
		sw_buf_add(&all, doc->pages[i].text, doc->pages[i].len);
		sw_buf_addc(&all, '\n');
	}
	sw__record_fp_compute_given(&fp, all.data, all.len, doc->given, doc->given_len);
	sw_buf_release(&all);
	if (doc->origin == SW_ORIGIN_EVIDENCE)
		rc = sw__record_prov_check(pm, m, &fp, err);
	else
		rc = sw__record_prov_register(m, doc->sha256, doc->beg_bates, doc->name, &fp, err);
	sw__record_fp_release(&fp);
	return rc;
}

int sw__record_store_decision(struct sw_matter *m, int64_t doc_id,
			       const struct sw_provenance_match *pm, const char *now,
			       struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	if ((rc = prepare(&st, m->db,
			  "INSERT INTO quarantine (doc_id, decision, overlap, contained, shared,"
			  " output_matter, output_name, output_id, decided_at)"
			  " VALUES (?1, 'quarantined', ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
			  err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, doc_id);
	sqlite3_bind_double(st, 2, pm->overlap);
	sqlite3_bind_double(st, 3, pm->contained);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)pm->shared);
	sqlite3_bind_text(st, 5, pm->matter, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, pm->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, pm->output_id);
	sqlite3_bind_text(st, 8, now, -1, SQLITE_STATIC);
	rc = sw__record_step_done(st, m->db, "cannot record the quarantine", err);
	sqlite3_finalize(st);
	return rc;
}

int sw_record_store_doc(struct sw_record_stored *out, struct sw_matter *m,
			 const struct sw_doc_in *doc, struct sw_err *err)
{
	sqlite3_stmt *ins_doc = NULL;
	struct tr_scan tr = { 0 };
	struct sw_provenance_match pm = { 0 };
	char now[21];
	bool in_tx = false;
	int rc;

	memset(out, 0, sizeof(*out));
	sw_utc_now(now);
	if ((rc = firewall(&pm, m, doc, err)) != 0)
		goto cleanup;
	if (doc->transcript != SW_DOC_TRANSCRIPT_NO)
		scan_transcript(&tr, doc);
	bool transcript = tr.tr_pages > 0 && tr.tr_pages * 2 >= doc->npages;
	const char *kind = transcript ? "transcript" : doc->kind;

	if (!(ins_doc = sw__record_stmt(m, SW_STMT_INS_DOC, err))) {
		rc = SW_EDB;
		goto cleanup;
	}
	if ((rc = sw__record_doc_begin(m, err)) != 0)
		goto cleanup;
	in_tx = true;

	sw__record_bind_doc(ins_doc, doc, kind, now, doc->npages,
			    pm.quarantine ? "quarantined" : "active");
	if ((rc = sw__record_step_done(ins_doc, m->db, "cannot store the document", err)) != 0)
		goto cleanup;
	int64_t doc_id = sqlite3_last_insert_rowid(m->db);
	if (pm.quarantine && (rc = sw__record_store_decision(m, doc_id, &pm, now, err)) != 0)
		goto cleanup;
	if (doc->meta_json && (rc = sw__record_fields_refresh(m, doc_id, err)) != 0)
		goto cleanup;

	size_t bytes = 0;
	for (size_t i = 0; i < doc->npages; i++) {
		const struct sw_page_in *p = &doc->pages[i];
		int64_t page_id;
		if ((rc = sw__record_put_page(&page_id, m, doc_id, i + 1, p, err)) != 0)
			goto cleanup;
		bytes += p->len;
		if (transcript &&
		    (rc = sw__record_put_lines(m, doc_id, page_id, tr.lines + tr.page_first[i],
					       tr.page_first[i + 1] - tr.page_first[i], err)) != 0)
			goto cleanup;
	}
	if (sw_fault("store-doc")) {
		rc = sw_err_set(err, SW_EFAULT, "cannot store the document: injected fault");
		goto cleanup;
	}
	if ((rc = sw__record_doc_done(m, doc->npages, bytes, err)) != 0)
		goto cleanup;
	in_tx = false;
	/* provenance.db is to name a committed document. */
	if (doc->origin == SW_ORIGIN_MODEL && (rc = sw_record_batch_commit(m, err)) != 0)
		goto cleanup;
	out->id = doc_id;
	out->transcript = transcript;
	if (doc->origin == SW_ORIGIN_MODEL)
		sw__record_prov_set_doc(m, doc->sha256, doc->beg_bates, doc_id);
	if (pm.quarantine) {
		out->quarantine = pm; /* the caller's now */
		memset(&pm, 0, sizeof(pm));
	}
cleanup:
	sw_provenance_match_release(&pm);
	sqlite3_reset(ins_doc);
	if (in_tx)
		sw__record_doc_undo(m);
	tr_scan_release(&tr);
	return rc;
}

static const char *const origin_names[] = {
	[SW_ORIGIN_EVIDENCE] = "evidence",
	[SW_ORIGIN_MODEL] = "model",
	[SW_ORIGIN_HUMAN] = "human",
	[SW_ORIGIN_TEMPLATE] = "template",
};

const char *sw_origin_name(enum sw_origin o)
{
	if ((size_t)o >= SW_ARRAY_LEN(origin_names))
		SW_BUG("bad origin %d", (int)o);
	return origin_names[o];
}

int sw_origin_parse(enum sw_origin *out, const char *s, struct sw_err *err)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(origin_names); i++)
		if (strcmp(s, origin_names[i]) == 0) {
			*out = (enum sw_origin)i;
			return 0;
		}
	return sw_err_set(err, SW_EUSAGE,
			  "bad origin '%s': use evidence, model, human or template", s);
}

int sw_record_split_pages(struct sw_page_in **pages, size_t *n,
			   const char *text, size_t len, struct sw_err *err)
{
	size_t count = 1, cap = 0;
	for (size_t i = 0; i + 1 < len; i++)
		if (text[i] == '\f')
			count++;
	if (count > SW_RECORD_MAX_PAGES)
		return sw_err_set(err, SW_ELIMIT, "%zu pages is over the limit of %d",
				  count, SW_RECORD_MAX_PAGES);
	struct sw_page_in *p = NULL;
	p = sw_xgrow(p, &cap, count, sizeof(*p));
	size_t k = 0, pos = 0, start, plen;
	while (sw_extract_ff_page(text, len, &pos, &start, &plen)) {
		memset(&p[k], 0, sizeof(p[k]));
		p[k].text = text + start;
		p[k].len = plen;
		k++;
	}
	*pages = p;
	*n = k;
	return 0;
}

static int add_text(int64_t *out_id, struct sw_matter *m, enum sw_origin origin,
		    const char *name, const char *text, size_t len, const char *given,
		    size_t given_len, struct sw_err *err);

int sw_record_add_model_output(int64_t *out_id, struct sw_matter *m,
			       const char *name, const char *text, size_t len,
			       struct sw_err *err)
{
	return add_text(out_id, m, SW_ORIGIN_MODEL, name, text, len, NULL, 0, err);
}

int sw_record_add_model_output_given(int64_t *out_id, struct sw_matter *m,
				     const char *name, const char *text, size_t len,
				     const char *given, size_t given_len, struct sw_err *err)
{
	return add_text(out_id, m, SW_ORIGIN_MODEL, name, text, len, given, given_len, err);
}

int sw_record_add_text(int64_t *out_id, struct sw_matter *m, enum sw_origin origin,
		       const char *name, const char *text, size_t len, struct sw_err *err)
{
	return add_text(out_id, m, origin, name, text, len, NULL, 0, err);
}

static int add_text(int64_t *out_id, struct sw_matter *m, enum sw_origin origin,
		    const char *name, const char *text, size_t len, const char *given,
		    size_t given_len, struct sw_err *err)
{
	static const char *const sources[] = {
		[SW_ORIGIN_EVIDENCE] = "(evidence text)",
		[SW_ORIGIN_MODEL] = "(model output)",
		[SW_ORIGIN_HUMAN] = "(human text)",
		[SW_ORIGIN_TEMPLATE] = "(template)",
	};
	struct sw_page_in *pages = NULL;
	size_t npages = 0;
	char sha[SW_SHA256_HEX_LEN + 1];
	struct sw_record_stored stored;
	int rc;

	if (len > SW_RECORD_MAX_FILE_BYTES)
		return sw_err_set(err, SW_ELIMIT, "%s text '%s' is over %zu bytes",
				  sw_origin_name(origin), name, SW_RECORD_MAX_FILE_BYTES);
	if (!sw_utf8_valid(text, len) || memchr(text, '\0', len))
		return sw_err_set(err, SW_EINPUT, "%s text '%s' is not UTF-8 text",
				  sw_origin_name(origin), name);
	sw_sha256_hex(sha, text, len);
	if ((rc = sw_record_find_doc(out_id, m, sha, NULL, err)) != SW_ENOTFOUND)
		return rc;
	sw_err_clear(err);
	(void)sw_fault("text-lookup"); /* tests hold a store here to race another */
	if ((rc = sw_record_split_pages(&pages, &npages, text, len, err)) != 0)
		return rc;
	struct sw_doc_in doc = {
		.name = name,
		.kind = "text",
		.origin = origin,
		.sha256 = sha,
		.source_path = sources[origin],
		.bytes = len,
		.pages = pages,
		.npages = npages,
		.given = origin == SW_ORIGIN_MODEL ? given : NULL,
		.given_len = given_len,
		/* A model's or a lawyer's text is a draft, never a deposition. */
		.transcript = origin == SW_ORIGIN_EVIDENCE ? SW_DOC_TRANSCRIPT_MAYBE
							   : SW_DOC_TRANSCRIPT_NO,
	};
	rc = sw_record_store_doc(&stored, m, &doc, err);
	if (rc == 0)
		*out_id = stored.id;
	else if (rc == SW_EEXIST) {
		/* Another process stored the same text between the look-up and
		 * the insert (two drafts at once writing one output): the same
		 * text is one document, which both share. */
		struct sw_err again = { 0 };
		if (sw_record_find_doc(out_id, m, sha, NULL, &again) == 0) {
			sw_err_clear(err);
			rc = 0;
		}
	}
	sw_record_stored_release(&stored);
	free(pages);
	return rc;
}

void sw_record_stored_release(struct sw_record_stored *s)
{
	sw_provenance_match_release(&s->quarantine);
}
