/* journal_signoff.c - what the journal says about a run's sign-off, for the
 * certificate and the views that show decisions: the run, its approval
 * (time, person, override and the verdicts it overrode, the final as
 * approved) and the model and endpoint of each step. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

void sw_signoff_release(struct sw_signoff *s)
{
	if (!s)
		return;
	free(s->task);
	free(s->status);
	free(s->created_at);
	free(s->final_path);
	free(s->final);
	free(s->approved_at);
	free(s->by);
	free(s->by_email);
	free(s->by_bar);
	free(s->override);
	free(s->overridden);
	free(s->waivers);
	for (size_t i = 0; i < s->nsteps; i++) {
		struct sw_signoff_step *t = &s->steps[i];
		free(t->key);
		free(t->role);
		free(t->endpoint);
		free(t->model);
		free(t->host);
		free(t->status);
	}
	free(s->steps);
	memset(s, 0, sizeof(*s));
}

static int read_run(struct sw_signoff *out, sqlite3 *db, struct sw_matter *m, int64_t id,
		    struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sw_db_prepare(&st, db,
			       "SELECT task, status, created_at, final_path, final_doc_id,"
			       " ifnull(parent_run_id, 0) FROM runs WHERE id = ?",
			       "cannot read the run", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		out->task = sw_db_col_dup(st, 0);
		out->status = sw_db_col_dup(st, 1);
		out->created_at = sw_db_col_dup(st, 2);
		out->final_path = sw_db_col_dup(st, 3);
		out->final_doc_id = sqlite3_column_int64(st, 4);
		out->parent_run_id = sqlite3_column_int64(st, 5);
	} else if (s == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s",
				(long long)id, sw_matter_name(m));
	} else {
		rc = sw_db_error(err, db, "cannot read the run");
	}
	sqlite3_finalize(st);
	return rc;
}

/* The approval: the run's latest correction. */
static int read_approval(struct sw_signoff *out, sqlite3 *db, int64_t id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sw_db_prepare(&st, db,
			       "SELECT created_at, by_name, by_email, by_bar, override, overridden,"
			       " final, waivers FROM corrections WHERE run_id = ?"
			       " ORDER BY id DESC LIMIT 1",
			       "cannot read the run's approval", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		out->approved_at = sw_db_col_dup(st, 0);
		out->by = sw_db_col_dup(st, 1);
		out->by_email = sw_db_col_dup(st, 2);
		out->by_bar = sw_db_col_dup(st, 3);
		out->override = sw_db_col_dup(st, 4);
		out->overridden = sw_db_col_dup(st, 5);
		out->final = sw_db_col_dup(st, 6);
		out->final_len = out->final ? (size_t)sqlite3_column_bytes(st, 6) : 0;
		out->waivers = sw_db_col_dup(st, 7);
	} else if (s != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the run's approval");
	}
	sqlite3_finalize(st);
	return rc;
}

static int read_steps(struct sw_signoff *out, sqlite3 *db, int64_t id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc = sw_db_prepare(&st, db,
			       "SELECT key, role, endpoint, model, host, status FROM run_steps"
			       " WHERE run_id = ? ORDER BY id",
			       "cannot read the run's steps", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		out->steps = sw_xgrow(out->steps, &cap, out->nsteps + 1, sizeof(*out->steps));
		struct sw_signoff_step *t = &out->steps[out->nsteps++];
		t->key = sw_db_col_dup(st, 0);
		t->role = sw_db_col_dup(st, 1);
		t->endpoint = sw_db_col_dup(st, 2);
		t->model = sw_db_col_dup(st, 3);
		t->host = sw_db_col_dup(st, 4);
		t->status = sw_db_col_dup(st, 5);
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the run's steps");
	sqlite3_finalize(st);
	return rc;
}

int sw_signoff_get(struct sw_signoff *out, struct sw_matter *m, int64_t run_id,
		   struct sw_err *err)
{
	int rc;
	memset(out, 0, sizeof(*out));
	out->run_id = run_id;
	sqlite3 *db = sw__journal_db(m, err);
	if (!db)
		return err ? err->code : SW_EDB;
	if ((rc = read_run(out, db, m, run_id, err)) != 0 ||
	    (rc = read_approval(out, db, run_id, err)) != 0 ||
	    (rc = read_steps(out, db, run_id, err)) != 0)
		sw_signoff_release(out);
	return rc;
}

/* In the transaction: the approved run's final and the window its draft
 * came from. */
static int approved_final(int64_t *final_doc, char **messages, char **final, sqlite3 *db,
			  struct sw_matter *m, int64_t id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sw_db_prepare(&st, db,
			       "SELECT r.status, r.final_doc_id, c.messages, c.final FROM runs r"
			       " LEFT JOIN corrections c ON c.run_id = r.id WHERE r.id = ?"
			       " ORDER BY c.id DESC LIMIT 1",
			       "cannot read the run", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s",
				(long long)id, sw_matter_name(m));
	} else if (s != SQLITE_ROW) {
		rc = sw_db_error(err, db, "cannot read the run");
	} else if (!sqlite3_column_text(st, 0) ||
		   strcmp((const char *)sqlite3_column_text(st, 0), "approved") != 0 ||
		   !sqlite3_column_text(st, 3)) {
		rc = sw_err_set(err, SW_EUSAGE,
				"run %lld is not approved: edit its draft as it is (sworn run show "
				"%lld --draft), a new version is of an approved run",
				(long long)id, (long long)id);
	} else {
		*final_doc = sqlite3_column_int64(st, 1);
		*messages = sw_db_col_dup(st, 2);
		*final = sw_db_col_dup(st, 3);
	}
	sqlite3_finalize(st);
	return rc;
}

int sw_run_new_version(int64_t *out, struct sw_matter *m, int64_t run_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	char *messages = NULL, *final = NULL, now[21];
	int64_t final_doc = 0;
	int rc;

	*out = 0;
	sqlite3 *db = sw__journal_db(m, err);
	if (!db)
		return err ? err->code : SW_EDB;
	if ((rc = sw_db_exec(db, "BEGIN IMMEDIATE", err)) != 0)
		return rc;
	if ((rc = approved_final(&final_doc, &messages, &final, db, m, run_id, err)) != 0)
		goto cleanup;
	sw_utc_now(now);
	/* the new run starts verified, its draft the approved final */
	if ((rc = sw_db_prepare(&st, db,
				"INSERT INTO runs (task, task_sha256, task_source, brief_name,"
				" brief, brief_doc_id, rounds, status, reason, draft_doc_id,"
				" created_at, updated_at, wall_s, parent_run_id)"
				" SELECT task, task_sha256, task_source, brief_name, brief,"
				" brief_doc_id, rounds, 'verified',"
				" 'a new version of approved run ' || id, ?2, ?3, ?3, 0, id"
				" FROM runs WHERE id = ?1",
				"cannot start the new version", err)) != 0)
		goto cleanup;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, final_doc);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
	if ((rc = sw_db_step_done(st, "cannot start the new version", err)) != 0)
		goto cleanup;
	*out = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	st = NULL;
	/* its one step: the approved final, which approval reads as the draft */
	if ((rc = sw_db_prepare(
		     &st, db,
		     "INSERT INTO run_steps (run_id, key, step, kind, status, messages,"
		     " output, output_doc_id, started_at, finished_at, detail)"
		     " VALUES (?1, 'version', 'version', 'version', 'done', ?2, ?3, ?4, ?5,"
		     " ?5, json_object('parent_run', ?6))",
		     "cannot start the new version", err)) != 0)
		goto cleanup;
	sqlite3_bind_int64(st, 1, *out);
	sw_db_bind_text_or_null(st, 2, messages ? messages : "[]");
	sqlite3_bind_text(st, 3, final, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, final_doc);
	sqlite3_bind_text(st, 5, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 6, run_id);
	if ((rc = sw_db_step_done(st, "cannot start the new version", err)) != 0)
		goto cleanup;
	rc = sw_db_exec(db, "COMMIT", err);
cleanup:
	sqlite3_finalize(st);
	if (rc) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		*out = 0;
	}
	free(messages);
	free(final);
	return rc;
}
