/* store_stream.c - one document stored page by page, so that a PDF of any
 * length is stored in bounded memory: the transaction is opened and the
 * document's row written first, each page (its index entry and any
 * deposition lines) as it comes, and what depends on every page (transcript
 * or not, the provenance firewall, the page count) is decided at commit.
 * Until then nothing is visible; a crash or an error rolls it all back. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

struct sw_record_doc_writer {
	struct sw_matter *m;
	enum sw_origin origin;
	char *sha256, *beg_bates, *name;
	const char *kind;         /* a static name from the caller's doc */
	int64_t doc_id;
	size_t npages, tr_pages, tr_lines, bytes;
	bool firewall;            /* prints are needed */
	bool maybe_transcript;    /* the caller did not say it is none */
	struct sw_fp_stream fp;
	struct sw_tr_line *lines; /* one page's, reused */
	size_t cap;
};


void sw_record_doc_abort(struct sw_record_doc_writer *w)
{
	if (!w)
		return;
	if (w->doc_id)
		sw__record_doc_undo(w->m);
	sw__record_fp_stream_release(&w->fp);
	free(w->lines);
	free(w->sha256);
	free(w->beg_bates);
	free(w->name);
	free(w);
}

int sw_record_doc_begin(struct sw_record_doc_writer **out, struct sw_matter *m,
			const struct sw_doc_in *doc, struct sw_err *err)
{
	struct sw_record_doc_writer *w = sw_xcalloc(1, sizeof(*w));
	char now[21];
	int rc;

	*out = NULL;
	w->m = m;
	w->origin = doc->origin;
	w->kind = doc->kind;
	w->maybe_transcript = doc->transcript != SW_DOC_TRANSCRIPT_NO;
	w->sha256 = sw_xstrdup(doc->sha256);
	w->beg_bates = doc->beg_bates ? sw_xstrdup(doc->beg_bates) : NULL;
	w->name = sw_xstrdup(doc->name);
	sw__record_fp_stream_init(&w->fp);
	if (m->ws_root && doc->origin == SW_ORIGIN_MODEL) {
		w->firewall = true;
	} else if (m->ws_root && doc->origin == SW_ORIGIN_EVIDENCE) {
		size_t nouts = 0;
		if ((rc = sw__record_prov_outputs(&nouts, m, err)) != 0)
			goto fail;
		w->firewall = nouts > 0;
		/* Only counted against the outputs: held in bounded memory. */
		w->fp.spill = true;
	}
	sqlite3_stmt *ins_doc = sw__record_stmt(m, SW_STMT_INS_DOC, err);
	if (!ins_doc) {
		rc = SW_EDB;
		goto fail;
	}
	if ((rc = sw__record_doc_begin(m, err)) != 0)
		goto fail;
	sw_utc_now(now);
	sw__record_bind_doc(ins_doc, doc, doc->kind, now, 0, "active");
	if ((rc = sw__record_step_done(ins_doc, m->db, "cannot store the document", err)) != 0) {
		sw__record_doc_undo(m);
		goto fail;
	}
	w->doc_id = sqlite3_last_insert_rowid(m->db);
	*out = w;
	return 0;
fail:
	sw_record_doc_abort(w);
	return rc;
}

int sw_record_doc_add_page(struct sw_record_doc_writer *w, const struct sw_page_in *p,
			   struct sw_err *err)
{
	struct sw_matter *m = w->m;
	int rc;

	if (w->npages >= SW_RECORD_MAX_PAGES)
		return sw_err_set(err, SW_ELIMIT, "over %d pages", SW_RECORD_MAX_PAGES);
	int64_t page_id;
	if ((rc = sw__record_put_page(&page_id, m, w->doc_id, w->npages + 1, p, err)) != 0)
		return rc;
	w->npages++;
	w->bytes += p->len;
	if (w->firewall) {
		sw__record_fp_stream_add(&w->fp, p->text, p->len);
		sw__record_fp_stream_add(&w->fp, "\n", 1);
	}
	/* Every deposition page's lines are stored now; commit drops them
	 * again when too few pages are deposition pages. */
	uint32_t tr_page = 0;
	size_t nlines = 0;
	if (!w->maybe_transcript ||
	    sw_transcript_page(&tr_page, &w->lines, &nlines, &w->cap, p->text, p->len) == 0)
		return 0;
	w->tr_pages++;
	w->tr_lines += nlines;
	return sw__record_put_lines(m, w->doc_id, page_id, w->lines, nlines, err);
}

static int exec_doc(struct sw_matter *m, const char *sql, int64_t id, const char *text,
		    const char *what, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot prepare a statement");
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	int rc = sw__record_step_done(st, m->db, what, err);
	sqlite3_finalize(st);
	return rc;
}


int sw_record_doc_commit(struct sw_record_doc_writer *w, struct sw_record_stored *out,
			 const char *meta_json, struct sw_err *err)
{
	char now[21];

	sw_utc_now(now);
	struct sw_matter *m = w->m;
	struct sw_provenance_match pm = { 0 };
	struct sw_fp fp = { 0 };
	char count[24];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	bool transcript = w->tr_pages > 0 && w->tr_pages * 2 >= w->npages;
	if (w->firewall) {
		if (w->origin == SW_ORIGIN_EVIDENCE) {
			rc = sw__record_prov_check_stream(&pm, m, &w->fp, err);
		} else {
			sw__record_fp_stream_finish(&w->fp, &fp);
			rc = sw__record_prov_register(m, w->sha256, w->beg_bates, w->name, &fp, err);
			sw__record_fp_release(&fp);
		}
		if (rc)
			goto cleanup;
	}
	snprintf(count, sizeof(count), "%zu", w->npages);
	if ((rc = exec_doc(m, "UPDATE documents SET page_count = CAST(?2 AS INTEGER) WHERE id = ?1",
			   w->doc_id, count, "cannot store the document", err)) != 0)
		goto cleanup;
	if (transcript &&
	    (rc = exec_doc(m, "UPDATE documents SET kind = ?2 WHERE id = ?1", w->doc_id,
			   "transcript", "cannot store the document", err)) != 0)
		goto cleanup;
	if (!transcript && w->tr_lines &&
	    (rc = exec_doc(m, "DELETE FROM transcript_lines WHERE doc_id = ?1 AND ?2 IS NULL",
			   w->doc_id, NULL, "cannot store the document", err)) != 0)
		goto cleanup;
	if (meta_json &&
	    (rc = exec_doc(m, "UPDATE documents SET meta = ?2 WHERE id = ?1", w->doc_id,
			   meta_json, "cannot store the document", err)) != 0)
		goto cleanup;
	if ((rc = sw__record_fields_refresh(m, w->doc_id, err)) != 0)
		goto cleanup;
	if (pm.quarantine &&
	    ((rc = exec_doc(m, "UPDATE documents SET status = ?2 WHERE id = ?1", w->doc_id,
			    "quarantined", "cannot store the document", err)) != 0 ||
	     (rc = sw__record_store_decision(m, w->doc_id, &pm, now, err)) != 0))
		goto cleanup;
	if (sw_fault("store-doc")) {
		rc = sw_err_set(err, SW_EFAULT, "cannot store the document: injected fault");
		goto cleanup;
	}
	if ((rc = sw__record_doc_done(m, w->npages, w->bytes, err)) != 0)
		goto cleanup;
	out->id = w->doc_id;
	out->transcript = transcript;
	w->doc_id = 0; /* committed: nothing to roll back */
	/* provenance.db is to name a committed document. */
	if (w->origin == SW_ORIGIN_MODEL && (rc = sw_record_batch_commit(m, err)) != 0) {
		memset(out, 0, sizeof(*out));
		goto cleanup;
	}
	if (w->origin == SW_ORIGIN_MODEL)
		sw__record_prov_set_doc(m, w->sha256, w->beg_bates, out->id);
	if (pm.quarantine) {
		out->quarantine = pm;
		memset(&pm, 0, sizeof(pm));
	}
cleanup:
	sw_provenance_match_release(&pm);
	sw_record_doc_abort(w);
	return rc;
}
