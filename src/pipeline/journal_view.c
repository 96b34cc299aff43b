/* journal_view.c - a run read back from the journal as a typed view
 * (struct sw_run_view), and the list of a matter's runs.  The JSON of
 * both is built in run_view_json.c from the same structs. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "pipeline/pipeline_int.h"

/* A run the journal says is running whose process is gone (killed, crashed,
 * or stopped by a full disk, which also kept it from writing its own end)
 * is shown as what it is: paused, resumable, with why. */
static void settle(char **status, char **reason, int64_t id, int64_t pid)
{
	if (!*status || strcmp(*status, "running") != 0)
		return;
	if (pid > 0 && (pid == getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM))
		return;
	free(*status);
	free(*reason);
	*status = sw_xstrdup("paused");
	*reason =
		pid > 0 ? sw_xasprintf(
				  "interrupted: its process %lld ended without journaling its end"
				  " (killed, crashed, or out of disk space); sworn run resume %lld"
				  " goes on from the last finished step",
				  (long long)pid, (long long)id)
			: sw_xasprintf(
				  "interrupted before its process was journaled; sworn run resume"
				  " %lld goes on from the last finished step",
				  (long long)id);
}

static int64_t col_i64(sqlite3_stmt *st, int i, int64_t none)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? none : sqlite3_column_int64(st, i);
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_double(st, i);
}

static int64_t detail_count(const json_t *d, const char *key)
{
	const json_t *v = json_object_get(d, key);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static char *detail_str(const json_t *d, const char *key)
{
	const char *s = json_string_value(json_object_get(d, key));
	return s ? sw_xstrdup(s) : NULL;
}

/* The facts of the step's detail a reader prints. */
static void read_detail(struct sw_run_step_view *s)
{
	json_t *d = json_loads(s->detail, 0, NULL);
	const json_t *reasons = json_object_get(d, "reasons");
	size_t i;
	const json_t *r;

	s->claims = detail_count(d, "claims");
	s->blocked = detail_count(d, "blocked");
	s->findings = detail_count(d, "findings");
	s->reasoning = detail_str(d, "reasoning");
	s->reasoning_note = detail_str(d, "reasoning_note");
	if (json_array_size(reasons)) {
		s->reasons = sw_xcalloc(json_array_size(reasons), sizeof(*s->reasons));
		json_array_foreach(reasons, i, r) {
			struct sw_run_reason *x = &s->reasons[s->nreasons++];
			x->verdict = detail_str(r, "verdict");
			x->claim = detail_str(r, "claim");
			x->reason = detail_str(r, "reason");
		}
	}
	json_decref(d);
}

static int load_steps(struct sw_run_view *v, sqlite3 *db, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, s;

	if ((rc = sw_db_prepare(&st, db,
				"SELECT key, step, kind, ifnull(item, 0), round, role, endpoint,"
				" host, model, status, error, prompt_tokens, completion_tokens,"
				" prompt_per_s, predicted_per_s, wall_s, attempts, started_at,"
				" finished_at, prompt_sha256, ifnull(output_doc_id, 0), detail"
				" FROM run_steps WHERE run_id = ? ORDER BY id",
				"cannot read the run's steps", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, v->id);
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		v->steps = sw_xgrow(v->steps, &cap, v->nsteps + 1, sizeof(*v->steps));
		struct sw_run_step_view *x = &v->steps[v->nsteps++];
		memset(x, 0, sizeof(*x));
		x->key = sw_db_col_dup(st, 0);
		x->step = sw_db_col_dup(st, 1);
		x->kind = sw_db_col_dup(st, 2);
		x->item = sqlite3_column_int(st, 3);
		x->round = sqlite3_column_int(st, 4);
		x->role = sw_db_col_dup(st, 5);
		x->endpoint = sw_db_col_dup(st, 6);
		x->host = sw_db_col_dup(st, 7);
		x->model = sw_db_col_dup(st, 8);
		x->status = sw_db_col_dup(st, 9);
		x->error = sw_db_col_dup(st, 10);
		x->prompt_tokens = col_i64(st, 11, -1);
		x->completion_tokens = col_i64(st, 12, -1);
		x->prompt_per_s = col_real(st, 13);
		x->predicted_per_s = col_real(st, 14);
		x->wall_s = col_real(st, 15);
		x->attempts = sqlite3_column_int(st, 16);
		x->started_at = sw_db_col_dup(st, 17);
		x->finished_at = sw_db_col_dup(st, 18);
		x->prompt_sha256 = sw_db_col_dup(st, 19);
		x->output_doc_id = sqlite3_column_int64(st, 20);
		x->detail = sw_db_col_dup(st, 21);
		if (!x->detail)
			x->detail = sw_xstrdup("{}");
		read_detail(x);
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the run's steps");
	sqlite3_finalize(st);
	return rc;
}

static int load_flags(struct sw_run_view *v, sqlite3 *db, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, s;

	if ((rc = sw_db_prepare(&st, db,
				"SELECT s.key, f.document, f.bates, f.kind, f.excerpt"
				" FROM run_flags f JOIN run_steps s ON s.id = f.step_id"
				" WHERE s.run_id = ? ORDER BY f.id",
				"cannot read the run's flags", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, v->id);
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		v->flags = sw_xgrow(v->flags, &cap, v->nflags + 1, sizeof(*v->flags));
		struct sw_run_flag_view *f = &v->flags[v->nflags++];
		f->step = sw_db_col_dup(st, 0);
		f->document = sw_db_col_dup(st, 1);
		f->bates = sw_db_col_dup(st, 2);
		f->kind = sw_db_col_dup(st, 3);
		f->excerpt = sw_db_col_dup(st, 4);
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the run's flags");
	sqlite3_finalize(st);
	return rc;
}

int sw_run_get(struct sw_run_view *out, struct sw_matter *m, int64_t run_id,
	       struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	int rc, s;

	memset(out, 0, sizeof(*out));
	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(
		     &st, db,
		     "SELECT task, task_sha256, task_source, status, reason, rounds,"
		     " brief_name, created_at, updated_at, wall_s, ifnull(draft_doc_id, 0),"
		     " ifnull(final_doc_id, 0), final_path, ifnull(pid, 0) FROM runs"
		     " WHERE id = ?",
		     "cannot read the run", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		out->id = run_id;
		out->matter = sw_xstrdup(sw_matter_name(m));
		out->task = sw_db_col_dup(st, 0);
		out->task_sha256 = sw_db_col_dup(st, 1);
		out->task_source = sw_db_col_dup(st, 2);
		out->status = sw_db_col_dup(st, 3);
		out->reason = sw_db_col_dup(st, 4);
		out->rounds = (unsigned)sqlite3_column_int(st, 5);
		out->brief = sw_db_col_dup(st, 6);
		out->created_at = sw_db_col_dup(st, 7);
		out->updated_at = sw_db_col_dup(st, 8);
		out->wall_s = sqlite3_column_double(st, 9);
		out->draft_doc_id = sqlite3_column_int64(st, 10);
		out->final_doc_id = sqlite3_column_int64(st, 11);
		out->final_path = sw_db_col_dup(st, 12);
		settle(&out->status, &out->reason, run_id, sqlite3_column_int64(st, 13));
	} else if (s == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s"
				" (sworn run list -m %s shows its runs)",
				(long long)run_id, sw_matter_name(m), sw_matter_name(m));
	} else {
		rc = sw_db_error(err, db, "cannot read the run");
	}
	sqlite3_finalize(st);
	if (rc == 0)
		rc = load_steps(out, db, err);
	if (rc == 0)
		rc = load_flags(out, db, err);
	if (rc != 0)
		sw_run_view_release(out);
	return rc;
}

void sw_run_view_release(struct sw_run_view *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nsteps; i++) {
		struct sw_run_step_view *s = &v->steps[i];
		char **strs[] = { &s->key,	  &s->step,	   &s->kind,
				  &s->role,	  &s->endpoint,	   &s->host,
				  &s->model,	  &s->status,	   &s->error,
				  &s->started_at, &s->finished_at, &s->prompt_sha256,
				  &s->detail,	  &s->reasoning,   &s->reasoning_note };
		for (size_t k = 0; k < SW_ARRAY_LEN(strs); k++)
			free(*strs[k]);
		for (size_t k = 0; k < s->nreasons; k++) {
			free(s->reasons[k].verdict);
			free(s->reasons[k].claim);
			free(s->reasons[k].reason);
		}
		free(s->reasons);
	}
	for (size_t i = 0; i < v->nflags; i++) {
		free(v->flags[i].step);
		free(v->flags[i].document);
		free(v->flags[i].bates);
		free(v->flags[i].kind);
		free(v->flags[i].excerpt);
	}
	char **strs[] = { &v->matter, &v->task, &v->task_sha256, &v->task_source, &v->status,
			  &v->reason, &v->brief, &v->created_at, &v->updated_at, &v->final_path };
	for (size_t k = 0; k < SW_ARRAY_LEN(strs); k++)
		free(*strs[k]);
	free(v->steps);
	free(v->flags);
	memset(v, 0, sizeof(*v));
}

int sw_run_list(struct sw_run_list *out, struct sw_matter *m, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, s;

	memset(out, 0, sizeof(*out));
	if (!db)
		return SW_EDB;
	if ((rc = sw_db_prepare(&st, db,
				"SELECT r.id, r.task, r.status, r.reason, r.brief_name,"
				" r.created_at, r.updated_at, r.wall_s,"
				" (SELECT count(*) FROM run_steps s WHERE s.run_id = r.id),"
				" (SELECT count(*) FROM run_steps s WHERE s.run_id = r.id"
				"   AND s.status = 'done'),"
				" r.final_path, ifnull(r.pid, 0) FROM runs r ORDER BY r.id DESC",
				"cannot read the runs", err)) != 0)
		return rc;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		out->v = sw_xgrow(out->v, &cap, out->n + 1, sizeof(*out->v));
		struct sw_run_summary *r = &out->v[out->n++];
		r->id = sqlite3_column_int64(st, 0);
		r->task = sw_db_col_dup(st, 1);
		r->status = sw_db_col_dup(st, 2);
		r->reason = sw_db_col_dup(st, 3);
		r->brief = sw_db_col_dup(st, 4);
		r->created_at = sw_db_col_dup(st, 5);
		r->updated_at = sw_db_col_dup(st, 6);
		r->wall_s = sqlite3_column_double(st, 7);
		r->steps = sqlite3_column_int64(st, 8);
		r->steps_done = sqlite3_column_int64(st, 9);
		r->final_path = sw_db_col_dup(st, 10);
		settle(&r->status, &r->reason, r->id, sqlite3_column_int64(st, 11));
	}
	if (s != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the runs");
		sw_run_list_release(out);
	}
	sqlite3_finalize(st);
	return rc;
}

void sw_run_list_release(struct sw_run_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		struct sw_run_summary *r = &l->v[i];
		free(r->task);
		free(r->status);
		free(r->reason);
		free(r->brief);
		free(r->created_at);
		free(r->updated_at);
		free(r->final_path);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
