/* journal_corrections.c - the lawyer's corrections as the journal keeps
 * them, read one at a time for export, each with whether it is still
 * clean: its draft and final active, and every page of evidence its
 * window held still active evidence (record/'s view record_docs, as the
 * documents are today). */
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
		"        WHERE st.run_id = ?1 AND st.key = ?2 AND s.kind = 'evidence'"
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
		"  (SELECT s.model FROM run_steps s WHERE s.run_id = c.run_id AND s.key = c.step_key),"
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
				err)) != 0 ||
		    (rc = fn(&c, ctx)) != 0)
			goto cleanup;
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the corrections");
cleanup:
	sqlite3_finalize(st);
	return rc;
}
