/* remove.c - taking documents out of the record: sworn matter rm, and a
 * corrected re-production replacing what it corrects.  A removed document
 * keeps its row, its pages' text and its original in files/ (the record of
 * what was produced must survive its correction); it leaves the full-text
 * index and, with status 'removed', every query of search, the verifier
 * and the pipeline, which all ask for status 'active'.  Each removal is a
 * row of removals, read back by sw_matter_audit. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

/* The documents one removal takes: the document and, for sworn matter rm,
 * everything that came in it, at any depth; never one already removed. */
#define FAMILY \
	"WITH RECURSIVE fam(id) AS (SELECT ?1 UNION" \
	" SELECT d.id FROM documents AS d JOIN fam ON d.parent_id = fam.id WHERE ?5)"

static int exec_bound(sqlite3 *db, const char *sql, int64_t id, const char *reason,
		      int64_t replaced_by, const char *now, bool family,
		      uint64_t *changes, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot remove the document");
	sqlite3_bind_int64(st, 1, id);
	/* Every statement names ?5 (FAMILY), so ?2..?4 exist even where unused. */
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_STATIC);
	if (replaced_by > 0)
		sqlite3_bind_int64(st, 3, replaced_by);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, family);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = sw__record_sqlerr(err, db, "cannot remove the document");
	else if (changes)
		*changes = (uint64_t)sqlite3_changes(db);
	sqlite3_finalize(st);
	return rc;
}

/* Inside the caller's transaction: the decision first (it keeps the status
 * it had), then the index entries (an external-content FTS5 table is told
 * the text it indexed), then the status. */
static int remove_one(uint64_t *count, sqlite3 *db, int64_t id, const char *reason,
		      int64_t replaced_by, const char *now, bool family,
		      struct sw_err *err)
{
	int rc;
	if ((rc = exec_bound(db, FAMILY
			     " INSERT INTO removals (doc_id, prior_status, reason, replaced_by,"
			     " removed_at) SELECT d.id, d.status, ?2, ?3, ?4 FROM documents AS d"
			     " WHERE d.id IN fam AND d.status <> 'removed'",
			     id, reason, replaced_by, now, family, NULL, err)) != 0 ||
	    (rc = exec_bound(db, FAMILY
			     " INSERT INTO pages_fts (pages_fts, rowid, text)"
			     " SELECT 'delete', p.id, p.text FROM pages AS p"
			     " JOIN documents AS d ON d.id = p.doc_id"
			     " WHERE p.doc_id IN fam AND d.status <> 'removed'",
			     id, reason, replaced_by, now, family, NULL, err)) != 0)
		return rc;
	uint64_t n = 0;
	if ((rc = exec_bound(db, FAMILY
			     " UPDATE documents SET status = 'removed'"
			     " WHERE id IN fam AND status <> 'removed'",
			     id, reason, replaced_by, now, family, &n, err)) != 0)
		return rc;
	*count += n;
	return 0;
}

static int check_reason(const char *reason, struct sw_err *err)
{
	if (!reason || !*reason)
		return sw_err_set(err, SW_EUSAGE, "removing a document needs --reason \"why\"");
	if (strchr(reason, '\n') || strlen(reason) > 2000 || !sw_utf8_valid(reason, strlen(reason)))
		return sw_err_set(err, SW_EUSAGE, "the reason must be one line of text");
	return 0;
}

int sw_record_remove(int64_t *out_id, uint64_t *count, struct sw_matter *m,
		     const char *doc, const char *reason, struct sw_err *err)
{
	char *status = NULL;
	char now[21];
	uint64_t n = 0;
	int rc;

	*out_id = 0;
	if (count)
		*count = 0;
	if ((rc = check_reason(reason, err)) != 0)
		return rc;
	if ((rc = sw__record_begin(m, err)) != 0)
		return rc;
	if ((rc = sw__record_find_named(out_id, &status, m, doc, err)) != 0)
		goto cleanup;
	if (status && strcmp(status, "removed") == 0) {
		rc = sw_err_set(err, SW_EUSAGE, "document %lld ('%s') is already removed",
				(long long)*out_id, doc);
		goto cleanup;
	}
	sw_utc_now(now);
	if ((rc = remove_one(&n, m->db, *out_id, reason, 0, now, true, err)) != 0 ||
	    (rc = sw__record_exec(m->db, "COMMIT", err)) != 0)
		goto cleanup;
	if (count)
		*count = n;
	free(status);
	return 0;
cleanup:
	sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	free(status);
	return rc;
}

int sw_record_replace_older(uint64_t *count, char **names, struct sw_matter *m,
			    int64_t new_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	struct sw_buf list = SW_BUF_INIT;
	int64_t *ids = NULL;
	size_t nids = 0, cap = 0;
	char now[21], *reason = NULL;
	int rc = 0, step;

	*count = 0;
	if (names)
		*names = NULL;
	if ((rc = sw__record_begin(m, err)) != 0)
		return rc;
	/* The attachments of what is replaced stay: a load file lists each
	 * with its own BEGBATES (replaced, or unchanged and found again), and
	 * an e-mail's unchanged attachments are the same documents. */
	if (sqlite3_prepare_v2(m->db,
			       "SELECT o.id, o.name FROM documents AS o, documents AS n"
			       " WHERE n.id = ?1 AND o.id <> n.id AND o.status <> 'removed'"
			       " AND o.origin = n.origin AND CASE WHEN n.beg_bates IS NOT NULL"
			       "   THEN o.beg_bates = n.beg_bates"
			       "   ELSE n.parent_id IS NULL AND o.beg_bates IS NULL"
			       "     AND o.parent_id IS NULL AND o.name = n.name END"
			       " ORDER BY o.id",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot find what the document replaces");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, new_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		ids = sw_xgrow(ids, &cap, nids + 1, sizeof(*ids));
		ids[nids++] = sqlite3_column_int64(st, 0);
		sw_buf_addf(&list, "%s%s", list.len ? ", " : "",
			    (const char *)sqlite3_column_text(st, 1));
	}
	if (step != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot find what the document replaces");
		goto cleanup;
	}
	sqlite3_finalize(st);
	st = NULL;
	sw_utc_now(now);
	reason = sw_xasprintf("replaced by document %lld, a corrected re-production",
			      (long long)new_id);
	for (size_t i = 0; i < nids; i++)
		if ((rc = remove_one(count, m->db, ids[i], reason, new_id, now, false, err)) != 0)
			goto cleanup;
	if ((rc = sw__record_exec(m->db, "COMMIT", err)) != 0)
		goto cleanup;
	if (names && list.len)
		*names = sw_buf_detach(&list, NULL);
	goto done;
cleanup:
	sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	*count = 0;
done:
	sqlite3_finalize(st);
	sw_buf_release(&list);
	free(reason);
	free(ids);
	return rc;
}
