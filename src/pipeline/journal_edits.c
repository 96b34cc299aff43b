/* journal_edits.c - the lawyer's saved edit of a run's draft (the
 * journal's draft_edits): one row per run, its version raised by each
 * save.  A save names the version it was made from; the compare and the
 * write are one IMMEDIATE transaction, so of two tabs saving at once one
 * wins and the other is told (SW_EEXIST), never silently overwritten. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

/* The row of run_id into *text / *version (NULL, 0 when none). */
static int read_edit(char **text, int64_t *version, sqlite3 *db, int64_t run_id,
		     struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, step;
	*text = NULL;
	*version = 0;
	if (sqlite3_prepare_v2(db, "SELECT version, text FROM draft_edits WHERE run_id = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return sw_db_error(err, db, "cannot read the saved edit");
	sqlite3_bind_int64(st, 1, run_id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 1);
		*version = sqlite3_column_int64(st, 0);
		*text = sw_xstrdup(t ? t : "");
	} else if (step != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the saved edit");
	}
	sqlite3_finalize(st);
	return rc;
}

/* SW_EUSAGE when run_id is approved: its draft and final are frozen, as
 * its certificate states them. */
static int frozen(sqlite3 *db, int64_t run_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sw_db_prepare(&st, db, "SELECT status FROM runs WHERE id = ?1",
			       "cannot read the run", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    strcmp((const char *)sqlite3_column_text(st, 0), "approved") == 0)
		rc = sw_err_set(err, SW_EUSAGE,
				"run %lld is approved: its draft and final are frozen as approved "
				"(sworn certify %lld); edit a new version: sworn run version %lld",
				(long long)run_id, (long long)run_id, (long long)run_id);
	sqlite3_finalize(st);
	return rc;
}

int sw_run_edit_get(char **text, int64_t *version, struct sw_matter *m, int64_t run_id,
		    struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	*text = NULL;
	*version = 0;
	return db ? read_edit(text, version, db, run_id, err) : SW_EDB;
}

int sw_run_edit_save(int64_t *version, char **current, struct sw_matter *m, int64_t run_id,
		     int64_t base, const char *text, size_t len, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	char *cur = NULL;
	int64_t cur_v = 0;
	int rc;

	*version = 0;
	*current = NULL;
	if (!db)
		return SW_EDB;
	if ((rc = sw_db_exec(db, "BEGIN IMMEDIATE", err)) != 0)
		return rc;
	if ((rc = frozen(db, run_id, err)) != 0 ||
	    (rc = read_edit(&cur, &cur_v, db, run_id, err)) != 0)
		goto cleanup;
	if (cur_v != base) {
		*version = cur_v;
		*current = cur;
		cur = NULL;
		rc = sw_err_set(err, SW_EEXIST,
				"the draft was saved elsewhere (version %lld, this edit was made "
				"from %lld)", (long long)cur_v, (long long)base);
		goto cleanup;
	}
	char now[21];
	sw_utc_now(now);
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO draft_edits (run_id, version, text, saved_at)"
			       " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (run_id) DO UPDATE SET"
			       " version = excluded.version, text = excluded.text,"
			       " saved_at = excluded.saved_at",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw_db_error(err, db, "cannot save the edit");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, cur_v + 1);
	sqlite3_bind_text(st, 3, text, (int)len, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot save the edit");
		goto cleanup;
	}
	if ((rc = sw_db_exec(db, "COMMIT", err)) != 0)
		goto cleanup;
	*version = cur_v + 1;
cleanup:
	sqlite3_finalize(st);
	if (rc != 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	free(cur);
	return rc;
}
