/* reclassify.c - an import that finds a document already stored, but is
 * asked for another origin, changes the stored one instead of skipping it
 * in silence.  A model draft first imported as evidence would otherwise
 * stay evidence (able to support its own quotations) and never reach
 * provenance.db, so that a copy in another matter passed as evidence.
 *
 * Becoming model registers the document's fingerprints for the whole
 * workspace, as storing a model output does (sw_record_store_doc); a model
 * output never becomes anything else, since its prints stay registered and
 * the firewall would still keep its copies out, and nothing becomes
 * evidence this way (a change only ever lowers the trust).  Each change is kept in the
 * document's meta (origin_changes: from, to, at, by) and shown by sworn
 * matter audit. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

/* The page texts of a document as the firewall reads them: each page
 * followed by a newline. */
static int doc_text(struct sw_buf *out, sqlite3 *db, int64_t id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT text FROM pages WHERE doc_id = ?1 ORDER BY page_no",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot read the document's pages");
	sqlite3_bind_int64(st, 1, id);
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		sw_buf_add(out, sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
		sw_buf_addc(out, '\n');
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : sw__record_sqlerr(err, db, "cannot read the document's pages");
}

static int reclassify(struct sw_record_reclass *out, struct sw_matter *m, int64_t id,
		      enum sw_origin to, int depth, struct sw_err *err);

/* The documents that came in id (an e-mail's attachments) go with it: the
 * same change, counted in out->children.  One whose origin is already to,
 * or that may not change, stays as it is. */
static int reclassify_children(struct sw_record_reclass *out, struct sw_matter *m, int64_t id,
			       enum sw_origin to, int depth, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int64_t *kids = NULL;
	size_t n = 0, cap = 0;
	int step, rc = 0;
	if (depth >= 8) /* deeper than any family an import makes */
		return 0;
	if (sqlite3_prepare_v2(m->db, "SELECT id FROM documents WHERE parent_id = ?1 ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot read the attachments");
	sqlite3_bind_int64(st, 1, id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		kids = sw_xgrow(kids, &cap, n + 1, sizeof(*kids));
		kids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, "cannot read the attachments");
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct sw_record_reclass k;
		struct sw_err kerr = { 0 };
		int krc = reclassify(&k, m, kids[i], to, depth + 1, &kerr);
		if (krc == SW_EPOLICY)
			continue;
		if (krc) {
			*err = kerr;
			rc = krc;
			break;
		}
		out->children += k.changed + k.children;
	}
	free(kids);
	return rc;
}

/* A family changes whole or not at all: every document's update is one
 * transaction (a savepoint inside the import's own, when one is open), so
 * that a failure at the third attachment leaves the parent and the first
 * two as they were.  The fingerprints registered in provenance.db before a
 * failure stay registered: that errs on the side of caution, and the next
 * run registers them again as nothing. */
int sw_record_reclassify(struct sw_record_reclass *out, struct sw_matter *m, int64_t id,
			 enum sw_origin to, struct sw_err *err)
{
	/* An import's open batch is committed first: no change joins it. */
	int rc = sw_record_batch_commit(m, err);
	bool outer = !sqlite3_get_autocommit(m->db);
	if (rc == 0)
		rc = sw__record_exec(m->db, outer ? "SAVEPOINT reclassify" : "BEGIN IMMEDIATE", err);
	if (rc) {
		memset(out, 0, sizeof(*out));
		out->from = to;
		return rc;
	}
	rc = reclassify(out, m, id, to, 0, err);
	if (rc == 0)
		rc = sw__record_exec(m->db, outer ? "RELEASE reclassify" : "COMMIT", err);
	if (rc) {
		sqlite3_exec(m->db, outer ? "ROLLBACK TO reclassify; RELEASE reclassify" : "ROLLBACK",
			     NULL, NULL, NULL);
		out->changed = false;
		out->children = 0;
	}
	return rc;
}

static int reclassify(struct sw_record_reclass *out, struct sw_matter *m, int64_t id,
		      enum sw_origin to, int depth, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	char *origin = NULL, *status = NULL, *sha = NULL, *beg = NULL, *name = NULL;
	struct sw_buf text = SW_BUF_INIT;
	char now[21];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->from = to;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT origin, status, sha256, beg_bates, name FROM documents WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot read the document");
	sqlite3_bind_int64(st, 1, id);
	int step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		origin = sw_db_col_dup(st, 0);
		status = sw_db_col_dup(st, 1);
		sha = sw_db_col_dup(st, 2);
		beg = sw_db_col_dup(st, 3);
		name = sw_db_col_dup(st, 4);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_ROW) {
		rc = step == SQLITE_DONE
			     ? sw_err_set(err, SW_ENOTFOUND, "no document %lld", (long long)id)
			     : sw__record_sqlerr(err, m->db, "cannot read the document");
		goto cleanup;
	}
	if (!origin || sw_origin_parse(&out->from, origin, err) != 0) {
		rc = sw_err_set(err, SW_EDB, "document %lld has no known origin", (long long)id);
		goto cleanup;
	}
	if (out->from == to)
		goto cleanup;
	if (sw_fault("reclassify")) {
		rc = sw_err_set(err, SW_EFAULT, "cannot change the origin of document %lld:"
				" injected fault", (long long)id);
		goto cleanup;
	}
	if (out->from == SW_ORIGIN_MODEL) {
		rc = sw_err_set(err, SW_EPOLICY,
				"already stored as a model output (document %lld); a model output"
				" never becomes %s", (long long)id, sw_origin_name(to));
		goto cleanup;
	}
	if (to == SW_ORIGIN_EVIDENCE) {
		/* Only ever towards less trust: nothing becomes evidence
		 * because a folder was imported again without --origin. */
		rc = sw_err_set(err, SW_EPOLICY,
				"already stored as %s (document %lld); an import does not make it"
				" evidence: give --origin %s, or remove it (sworn matter rm) and import"
				" it again", origin, (long long)id, origin);
		goto cleanup;
	}
	if (status && strcmp(status, "removed") == 0) {
		rc = sw_err_set(err, SW_EPOLICY,
				"already stored as %s and removed from the record (document %lld);"
				" its origin is not changed", origin, (long long)id);
		goto cleanup;
	}
	if (to == SW_ORIGIN_MODEL && m->ws_root) {
		/* Registered before the matter changes, as a new model output
		 * is: a crash in between errs on the side of caution. */
		struct sw_fp fp;
		if ((rc = doc_text(&text, m->db, id, err)) != 0)
			goto cleanup;
		sw__record_fp_compute(&fp, text.data, text.len);
		rc = sw__record_prov_register(m, sha, beg, name, &fp, err);
		sw__record_fp_release(&fp);
		if (rc)
			goto cleanup;
	}
	sw_utc_now(now);
	/* A quarantine keeps evidence out; for any other origin the document
	 * is what it is declared to be. */
	if (sqlite3_prepare_v2(m->db,
			       "UPDATE documents SET origin = ?2,"
			       " status = CASE WHEN ?2 = 'evidence' THEN status ELSE 'active' END,"
			       " meta = json_set(CASE WHEN json_valid(meta) THEN meta ELSE '{}' END,"
			       "  '$.origin_changes', json_insert(ifnull(CASE WHEN json_valid(meta)"
			       "  THEN json_extract(meta, '$.origin_changes') END, json('[]')), '$[#]',"
			       "  json_object('from', ?3, 'to', ?2, 'at', ?4, 'by', 'import')))"
			       " WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot change the document's origin");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, sw_origin_name(to), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, origin, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE || sqlite3_changes(m->db) != 1) {
		rc = sw__record_sqlerr(err, m->db, "cannot change the document's origin");
		goto cleanup;
	}
	if (to == SW_ORIGIN_MODEL)
		sw__record_prov_set_doc(m, sha, beg, id);
	out->changed = true;
	rc = reclassify_children(out, m, id, to, depth, err);
cleanup:
	sqlite3_finalize(st);
	sw_buf_release(&text);
	free(origin);
	free(status);
	free(sha);
	free(beg);
	free(name);
	return rc;
}
