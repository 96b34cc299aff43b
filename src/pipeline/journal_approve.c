/* journal_approve.c - what approval reads and writes in the journal: the
 * run's state, the step whose output is its draft, and, in one
 * transaction with the final's file, the run approved and the correction
 * stored. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

int sw__journal_approval_state(char **status, char **final_path, int64_t *draft_doc,
			       struct sw_matter *m, int64_t id, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	int rc;

	*status = *final_path = NULL;
	*draft_doc = 0;
	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(&st, db,
				"SELECT status, final_path, draft_doc_id FROM runs WHERE id = ?",
				"cannot read the run", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		*status = sw_db_col_dup(st, 0);
		if (!*status) /* NOT NULL in the schema */
			*status = sw_xstrdup("");
		*final_path = sw_db_col_dup(st, 1);
		*draft_doc = sqlite3_column_int64(st, 2);
	} else if (s == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s",
				(long long)id, sw_matter_name(m));
	} else {
		rc = sw_db_error(err, db, "cannot read the run");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw__journal_draft_step(char **key, char **messages, char **output, struct sw_matter *m,
			   int64_t run_id, int64_t doc_id, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	int rc;

	*key = *messages = *output = NULL;
	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(&st, db,
				"SELECT key, messages, output FROM run_steps WHERE run_id = ?"
				" AND output_doc_id = ? AND output IS NOT NULL"
				" ORDER BY id DESC LIMIT 1",
				"cannot read the run's draft", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, doc_id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		*key = sw_db_col_dup(st, 0);
		*messages = sw_db_col_dup(st, 1);
		*output = sw_db_col_dup(st, 2);
		if (!*messages)
			*messages = sw_xstrdup("[]");
	} else if (s == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld has no draft step to approve",
				(long long)run_id);
	} else {
		rc = sw_db_error(err, db, "cannot read the run's draft");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw__journal_begin(struct sw_matter *m, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	return db ? sw_db_exec(db, "BEGIN IMMEDIATE", err) : SW_EDB;
}

int sw__journal_commit(struct sw_matter *m, struct sw_err *err)
{
	return sw_db_exec(sw_matter_db(m), "COMMIT", err);
}

void sw__journal_rollback(struct sw_matter *m)
{
	sqlite3_exec(sw_matter_db(m), "ROLLBACK", NULL, NULL, NULL);
}

int sw__journal_approve(int64_t *corr_id, struct sw_matter *m,
			const struct sw__journal_approval *a, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	int rc;

	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(&st, db,
				"UPDATE runs SET status = 'approved', final_doc_id = ?,"
				" final_path = ?, updated_at = ?, reason = NULL WHERE id = ?"
				" AND status IN ('verified', 'blocked')",
				"cannot approve the run", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, a->final_doc_id);
	sqlite3_bind_text(st, 2, a->final_path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, a->at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, a->run_id);
	rc = sw_db_step_done(st, "cannot approve the run", err);
	if (rc == 0 && sqlite3_changes(db) != 1)
		rc = sw_err_set(err, SW_EUSAGE,
				"run %lld changed while its final was checked; look at it with "
				"sworn run show %lld",
				(long long)a->run_id, (long long)a->run_id);
	sqlite3_finalize(st);
	if (rc)
		return rc;

	if ((rc = sw_db_prepare(&st, db,
				"INSERT INTO corrections (run_id, step_key, messages, draft, final,"
				" draft_doc_id, final_doc_id, diff, words_kept, words_changed,"
				" words_added, words_removed, override, overridden, created_at,"
				" by_name, by_email, by_bar, waivers)"
				" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				"cannot store the correction", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, a->run_id);
	sqlite3_bind_text(st, 2, a->step_key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, a->messages, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, a->draft, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, a->final, (int)a->final_len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 6, a->draft_doc_id);
	sqlite3_bind_int64(st, 7, a->final_doc_id);
	sqlite3_bind_text(st, 8, a->diff, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)a->words->kept);
	sqlite3_bind_int64(st, 10, (sqlite3_int64)a->words->changed);
	sqlite3_bind_int64(st, 11, (sqlite3_int64)a->words->added);
	sqlite3_bind_int64(st, 12, (sqlite3_int64)a->words->removed);
	sw_db_bind_text_or_null(st, 13, a->override);
	sw_db_bind_text_or_null(st, 14, a->overridden);
	sqlite3_bind_text(st, 15, a->at, -1, SQLITE_TRANSIENT);
	sw_db_bind_text_or_null(st, 16, a->by ? a->by->name : NULL);
	sw_db_bind_text_or_null(st, 17, a->by ? a->by->email : NULL);
	sw_db_bind_text_or_null(st, 18, a->by ? a->by->bar_number : NULL);
	sw_db_bind_text_or_null(st, 19, a->waivers);
	if ((rc = sw_db_step_done(st, "cannot store the correction", err)) == 0)
		*corr_id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return rc;
}
