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
			       "SELECT task, status, created_at, final_path, final_doc_id FROM runs"
			       " WHERE id = ?",
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
