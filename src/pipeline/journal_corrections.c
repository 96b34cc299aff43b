/* journal_corrections.c - the lawyer's corrections as the journal keeps
 * them, read one at a time for export, each with whether it is still
 * clean: its draft and final active, and every page of evidence that any
 * step of its run was given still active evidence (record/'s view
 * record_docs, as the documents are today).  Any step: a document's words
 * travel from the window that read it into that step's output, and from
 * there into every later step's messages, the verifier's reasons and the
 * drafts, so one removed page taints the whole run.  And the log of what
 * left in an export, for the audit of what a later removal concerns. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

static int clean(bool *ok, sqlite3 *db, int64_t run_id, const char *key, int64_t draft_doc,
		 int64_t final_doc, struct sw_err *err)
{
	static const char sql[] =
		"SELECT (SELECT count(*) FROM record_docs WHERE id IN (?3, ?4)"
		"        AND status = 'active') = (CASE WHEN ?3 = ?4 THEN 1 ELSE 2 END)"
		"   AND NOT EXISTS (SELECT 1 FROM run_sections s"
		"        JOIN run_steps st ON st.id = s.step_id"
		"        WHERE st.run_id = ?1 AND s.kind = 'evidence'"
		"          AND (s.doc_id IS NULL OR NOT EXISTS (SELECT 1 FROM record_docs d"
		"               WHERE d.id = s.doc_id AND d.origin = 'evidence'"
		"                 AND d.status = 'active')))";
	sqlite3_stmt *st = NULL;
	int rc;
	*ok = false;
	if ((rc = sw_db_prepare(&st, db, sql, "cannot check a correction", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, draft_doc);
	sqlite3_bind_int64(st, 4, final_doc);
	if (sqlite3_step(st) == SQLITE_ROW)
		*ok = sqlite3_column_int(st, 0) != 0;
	else
		rc = sw_db_error(err, db, "cannot check a correction");
	sqlite3_finalize(st);
	return rc;
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

int sw__journal_corrections_each(struct sw_matter *m,
				 int (*fn)(const struct sw__journal_correction *c, void *ctx),
				 void *ctx, struct sw_err *err)
{
	static const char sql[] =
		"SELECT c.id, c.run_id, c.step_key, c.messages, c.draft, c.final,"
		"  ifnull(c.draft_doc_id, 0), ifnull(c.final_doc_id, 0), c.created_at, r.task,"
		"  (SELECT s.model FROM run_steps s WHERE s.run_id = c.run_id AND s.key = "
		"c.step_key),"
		"  c.override, c.by_name, c.waivers"
		" FROM corrections c JOIN runs r ON r.id = c.run_id ORDER BY c.id";
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	int rc, s;

	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(&st, db, sql, "cannot read the corrections", err)) != 0)
		return rc;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		struct sw__journal_correction c = {
			.id = sqlite3_column_int64(st, 0),
			.run_id = sqlite3_column_int64(st, 1),
			.step_key = col(st, 2) ? col(st, 2) : "",
			.messages = col(st, 3),
			.draft = col(st, 4) ? col(st, 4) : "",
			.final = col(st, 5) ? col(st, 5) : "",
			.draft_doc_id = sqlite3_column_int64(st, 6),
			.final_doc_id = sqlite3_column_int64(st, 7),
			.created_at = col(st, 8) ? col(st, 8) : "",
			.task = col(st, 9) ? col(st, 9) : "",
			.model = col(st, 10),
			.override = col(st, 11),
			.by = col(st, 12),
			.waivers = col(st, 13),
		};
		if ((rc = clean(&c.clean, db, c.run_id, c.step_key, c.draft_doc_id, c.final_doc_id,
				err)) != 0)
			goto cleanup;
		/* a new version of an approved run (sworn run version) was drafted
		 * by a lawyer, not a model: nothing for a model to learn */
		if (strcmp(c.step_key, "version") == 0)
			c.clean = false;
		if ((rc = fn(&c, ctx)) != 0)
			goto cleanup;
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the corrections");
cleanup:
	sqlite3_finalize(st);
	return rc;
}

int sw__journal_export_log(struct sw_matter *m, const int64_t *ids, size_t n, const char *kind,
			   const char *format, const char *dest, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	char now[21];
	int rc;

	if (!db)
		return SW_EDB;
	if (n == 0)
		return 0;
	sw_utc_now(now);
	if ((rc = sw_db_exec(db, "BEGIN IMMEDIATE", err)) != 0)
		return rc;
	if ((rc = sw_db_prepare(&st, db,
				"INSERT INTO correction_exports (correction_id, kind, format, dest,"
				" exported_at) VALUES (?, ?, ?, ?, ?)",
				"cannot log the export", err)) == 0) {
		for (size_t i = 0; i < n && rc == 0; i++) {
			sqlite3_bind_int64(st, 1, ids[i]);
			sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, format, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 4, dest, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 5, now, -1, SQLITE_STATIC);
			rc = sw_db_step_done(st, "cannot log the export", err);
		}
	}
	sqlite3_finalize(st);
	if (rc == 0)
		rc = sw_db_exec(db, "COMMIT", err);
	if (rc != 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int sw_corrections_audit(struct sw_export_audit *out, struct sw_matter *m, struct sw_err *err)
{
	/* Every export of a correction whose run was given a page that is no
	 * longer active evidence, or whose draft or final is not active, with
	 * the documents concerned as they are today. */
	static const char sql[] =
		"SELECT e.id, e.correction_id, c.run_id, e.exported_at, e.kind, e.format, e.dest,"
		"  (SELECT group_concat(x, '; ') FROM (SELECT DISTINCT d.name || ' (' ||"
		"      CASE WHEN d.status <> 'active' THEN d.status ELSE d.origin END || ')' AS x"
		"    FROM run_sections s JOIN run_steps st ON st.id = s.step_id"
		"    JOIN record_docs d ON d.id = s.doc_id"
		"    WHERE st.run_id = c.run_id AND s.kind = 'evidence'"
		"      AND (d.origin <> 'evidence' OR d.status <> 'active')"
		"    UNION SELECT DISTINCT d.name || ' (' || d.status || ')' FROM record_docs d"
		"    WHERE d.id IN (c.draft_doc_id, c.final_doc_id) AND d.status <> 'active'))"
		" FROM correction_exports e JOIN corrections c ON c.id = e.correction_id"
		" ORDER BY e.id";
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, s;

	memset(out, 0, sizeof(*out));
	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(&st, db, sql, "cannot read the exports", err)) != 0)
		return rc;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		out->exports++;
		if (sqlite3_column_type(st, 7) == SQLITE_NULL)
			continue;
		out->v = sw_xgrow(out->v, &cap, out->n + 1, sizeof(*out->v));
		struct sw_export_audit_row *r = &out->v[out->n++];
		r->export_id = sqlite3_column_int64(st, 0);
		r->correction_id = sqlite3_column_int64(st, 1);
		r->run_id = sqlite3_column_int64(st, 2);
		r->exported_at = sw_db_col_dup(st, 3);
		r->kind = sw_db_col_dup(st, 4);
		r->format = sw_db_col_dup(st, 5);
		r->dest = sw_db_col_dup(st, 6);
		r->documents = sw_db_col_dup(st, 7);
	}
	if (s != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the exports");
		sw_export_audit_release(out);
	}
	sqlite3_finalize(st);
	return rc;
}

void sw_export_audit_release(struct sw_export_audit *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].exported_at);
		free(a->v[i].kind);
		free(a->v[i].format);
		free(a->v[i].dest);
		free(a->v[i].documents);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}
