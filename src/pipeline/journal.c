/* journal.c - a run's journal in the matter's database: the run, its step
 * instances before and after they run, what went into each window.  Only
 * the thread that runs the engine writes here. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "pipeline/pipeline_int.h"

static int dberr(struct sw_err *err, struct sw_matter *m, const char *what)
{
	return sw_db_error(err, sw_matter_db(m), what);
}

/* A NOT NULL column: never NULL here either. */
static char *col_req(sqlite3_stmt *st, int i)
{
	char *s = sw_db_col_dup(st, i);
	return s ? s : sw_xstrdup("");
}

const char *sw__pipeline_step_status_name(enum sw__pipeline_step_status s)
{
	static const char *const names[] = { "pending", "running", "done", "failed", "cancelled" };
	return (unsigned)s < SW_ARRAY_LEN(names) ? names[s] : "pending";
}

static enum sw__pipeline_step_status status_parse(const char *s)
{
	for (int i = SW__PIPELINE_ST_PENDING; i <= SW__PIPELINE_ST_CANCELLED; i++)
		if (s && !strcmp(s, sw__pipeline_step_status_name(i)))
			return i;
	return SW__PIPELINE_ST_PENDING;
}

void sw__pipeline_rows_free(struct sw__pipeline_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].key);
		free(r[i].step);
		free(r[i].kind);
		free(r[i].output);
		free(r[i].detail);
	}
	free(r);
}

void sw__pipeline_run_release(struct sw__pipeline_run *r)
{
	free(r->task);
	free(r->task_sha256);
	free(r->task_source);
	free(r->brief_name);
	free(r->brief);
	free(r->status);
	free(r->reason);
	memset(r, 0, sizeof(*r));
}

int sw__pipeline_run_insert(int64_t *id, struct sw_matter *m, const struct sw_task *t,
			const char *brief_name, const char *brief, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	char now[21];
	int rc;

	if (!db)
		return SW_EDB;

	sw_utc_now(now);
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO runs (task, task_sha256, task_source, brief_name, brief,"
			       " rounds, status, pid, created_at, updated_at)"
			       " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "journaling the run");
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, t->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, brief_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, brief, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, (int)t->rounds);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)getpid());
	sqlite3_bind_text(st, 8, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dberr(err, m, "journaling the run");
	sqlite3_finalize(st);
	if (rc == 0)
		*id = sqlite3_last_insert_rowid(db);
	return rc;
}

int sw__pipeline_run_load(struct sw__pipeline_run *out, struct sw_matter *m, int64_t id,
		      struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	int rc;

	if (!db)
		return SW_EDB;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db,
			       "SELECT task, task_sha256, task_source, brief_name, brief, status,"
			       " reason, rounds, ifnull(pid, 0), ifnull(draft_doc_id, 0), wall_s"
			       " FROM runs WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "reading the run");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = id;
		out->task = col_req(st, 0);
		out->task_sha256 = col_req(st, 1);
		out->task_source = col_req(st, 2);
		out->brief_name = col_req(st, 3);
		out->brief = col_req(st, 4);
		out->status = col_req(st, 5);
		out->reason = sw_db_col_dup(st, 6);
		out->rounds = (unsigned)sqlite3_column_int(st, 7);
		out->pid = sqlite3_column_int64(st, 8);
		out->draft_doc_id = sqlite3_column_int64(st, 9);
		out->wall_s = sqlite3_column_double(st, 10);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s"
				" (sworn run list -m %s shows its runs)",
				(long long)id, sw_matter_name(m), sw_matter_name(m));
	} else {
		rc = dberr(err, m, "reading the run");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw__pipeline_run_set(struct sw_matter *m, int64_t id, enum sw_run_status s,
		     const char *reason, long pid, double add_wall_s, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	char now[21];
	int rc;

	if (!db)
		return SW_EDB;

	sw_utc_now(now);
	if (sqlite3_prepare_v2(db,
			       "UPDATE runs SET status = ?, reason = ?, pid = ?, updated_at = ?,"
			       " wall_s = wall_s + ? WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "journaling the run");
	sqlite3_bind_text(st, 1, sw_run_status_name(s), -1, SQLITE_STATIC);
	sw_db_bind_text_or_null(st, 2, reason);
	if (pid > 0)
		sqlite3_bind_int64(st, 3, pid);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 5, add_wall_s);
	sqlite3_bind_int64(st, 6, id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dberr(err, m, "journaling the run");
	sqlite3_finalize(st);
	return rc;
}

int sw__pipeline_run_claim(bool *won, struct sw_matter *m, int64_t id, const char *seen_status,
			   int64_t seen_pid, long pid, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	char now[21];
	int rc;

	*won = false;
	if (!db)
		return SW_EDB;
	sw_utc_now(now);
	/* A compare-and-set: the run changes hands only if it is still as it
	 * was read (SQLite runs one writer at a time). */
	if ((rc = sw_db_prepare(&st, db,
				"UPDATE runs SET status = 'running', reason = NULL, pid = ?1,"
				" updated_at = ?2 WHERE id = ?3 AND status = ?4"
				" AND ifnull(pid, 0) = ?5",
				"journaling the run", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, pid);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, id);
	sqlite3_bind_text(st, 4, seen_status, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, seen_pid);
	if ((rc = sw_db_step_done(st, "journaling the run", err)) == 0)
		*won = sqlite3_changes(db) == 1;
	sqlite3_finalize(st);
	return rc;
}

int sw__pipeline_run_set_draft(struct sw_matter *m, int64_t id, int64_t doc_id, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	int rc;

	if (!db)
		return SW_EDB;

	if (sqlite3_prepare_v2(db, "UPDATE runs SET draft_doc_id = ? WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "journaling the draft");
	sqlite3_bind_int64(st, 1, doc_id);
	sqlite3_bind_int64(st, 2, id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dberr(err, m, "journaling the draft");
	sqlite3_finalize(st);
	return rc;
}

int sw__pipeline_rows_load(struct sw__pipeline_row **out, size_t *n, struct sw_matter *m,
		       int64_t run_id, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	struct sw__pipeline_row *v = NULL;
	size_t k = 0, cap = 0;
	int rc;

	if (!db)
		return SW_EDB;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT id, key, step, kind, ifnull(item, 0), round, status, output,"
			       " ifnull(output_doc_id, 0), detail FROM run_steps WHERE run_id = ?"
			       " ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "reading the run's steps");
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = sw_xgrow(v, &cap, k + 1, sizeof(*v));
		struct sw__pipeline_row *r = &v[k++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		r->key = sw_db_col_dup(st, 1);
		r->step = sw_db_col_dup(st, 2);
		r->kind = sw_db_col_dup(st, 3);
		r->item = sqlite3_column_int(st, 4);
		r->round = sqlite3_column_int(st, 5);
		r->status = status_parse((const char *)sqlite3_column_text(st, 6));
		r->output = sw_db_col_dup(st, 7);
		r->output_doc_id = sqlite3_column_int64(st, 8);
		r->detail = sw_db_col_dup(st, 9);
	}
	if (rc != SQLITE_DONE) {
		rc = dberr(err, m, "reading the run's steps");
		sw__pipeline_rows_free(v, k);
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	*out = v;
	*n = k;
	return 0;
}

int sw__pipeline_step_begin(int64_t *id, struct sw_matter *m, const struct sw__pipeline_begin *b,
			struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	char now[21], sha[SW_SHA256_HEX_LEN + 1] = "";
	int rc;

	if (!db)
		return SW_EDB;

	sw_utc_now(now);
	if (b->messages)
		sw_sha256_hex(sha, b->messages, strlen(b->messages));
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO run_steps (run_id, key, step, kind, item, round, role,"
			       " endpoint, host, status, prompt_sha256, messages, started_at,"
			       " attempts)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?12, 'running', ?9, ?10, ?11,"
			       " 1)"
			       " ON CONFLICT (run_id, key) DO UPDATE SET status = 'running',"
			       " role = ?7, endpoint = ?8, host = ?12, prompt_sha256 = ?9,"
			       " messages = ?10, started_at = ?11, error = NULL,"
			       " attempts = attempts + 1"
			       " RETURNING id",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "journaling a step");
	sqlite3_bind_int64(st, 1, b->run_id);
	sqlite3_bind_text(st, 2, b->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, b->step, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, b->kind, -1, SQLITE_STATIC);
	if (b->item > 0)
		sqlite3_bind_int(st, 5, b->item);
	else
		sqlite3_bind_null(st, 5);
	sqlite3_bind_int(st, 6, b->round);
	sw_db_bind_text_or_null(st, 7, b->role);
	sw_db_bind_text_or_null(st, 8, b->endpoint);
	sw_db_bind_text_or_null(st, 9, b->messages ? sha : NULL);
	sw_db_bind_text_or_null(st, 10, b->messages);
	sqlite3_bind_text(st, 11, now, -1, SQLITE_STATIC);
	sw_db_bind_text_or_null(st, 12, b->host);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		rc = 0;
	} else {
		rc = dberr(err, m, "journaling a step");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw__pipeline_step_end(struct sw_matter *m, int64_t id, const struct sw__pipeline_end *e,
		      struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	char now[21];
	int rc;

	if (!db)
		return SW_EDB;

	sw_utc_now(now);
	if (sqlite3_prepare_v2(db,
			       "UPDATE run_steps SET status = ?1, output = ?2, output_doc_id = ?3,"
			       " error = ?4, model = ifnull(?5, model), prompt_tokens = ?6,"
			       " completion_tokens = ?7, prompt_per_s = ?8, predicted_per_s = ?9,"
			       " wall_s = ?10, finished_at = ?11, detail = ifnull(?12, '{}')"
			       " WHERE id = ?13",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "journaling a step");
	sqlite3_bind_text(st, 1, sw__pipeline_step_status_name(e->status), -1, SQLITE_STATIC);
	sw_db_bind_text_or_null(st, 2, e->output);
	if (e->output_doc_id > 0)
		sqlite3_bind_int64(st, 3, e->output_doc_id);
	else
		sqlite3_bind_null(st, 3);
	sw_db_bind_text_or_null(st, 4, e->error);
	sw_db_bind_text_or_null(st, 5, e->model);
	if (e->prompt_tokens >= 0)
		sqlite3_bind_int64(st, 6, e->prompt_tokens);
	else
		sqlite3_bind_null(st, 6);
	if (e->completion_tokens >= 0)
		sqlite3_bind_int64(st, 7, e->completion_tokens);
	else
		sqlite3_bind_null(st, 7);
	if (e->prompt_per_s > 0)
		sqlite3_bind_double(st, 8, e->prompt_per_s);
	else
		sqlite3_bind_null(st, 8);
	if (e->predicted_per_s > 0)
		sqlite3_bind_double(st, 9, e->predicted_per_s);
	else
		sqlite3_bind_null(st, 9);
	sqlite3_bind_double(st, 10, e->wall_s);
	sqlite3_bind_text(st, 11, now, -1, SQLITE_STATIC);
	sw_db_bind_text_or_null(st, 12, e->detail);
	sqlite3_bind_int64(st, 13, id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dberr(err, m, "journaling a step");
	sqlite3_finalize(st);
	return rc;
}

int sw__pipeline_sections_put(struct sw_matter *m, int64_t step_id,
			  const struct sw__pipeline_section *s, size_t n,
			  const struct sw_inject_flag *flags, size_t nflags, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *del = NULL, *ins = NULL, *delf = NULL, *insf = NULL;
	int rc = 0;

	if (!db)
		return SW_EDB;

	if (sw_db_exec(db, "SAVEPOINT sections", err) != 0)
		return SW_EDB;
	if (sqlite3_prepare_v2(db, "DELETE FROM run_sections WHERE step_id = ?", -1, &del, NULL) ||
	    sqlite3_prepare_v2(db, "DELETE FROM run_flags WHERE step_id = ?", -1, &delf, NULL) ||
	    sqlite3_prepare_v2(db,
			       "INSERT INTO run_sections (step_id, seq, kind, origin, doc_id,"
			       " document, page_no, bates, tokens, estimated)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &ins, NULL) ||
	    sqlite3_prepare_v2(db,
			       "INSERT INTO run_flags (step_id, doc_id, document, bates, kind, excerpt)"
			       " VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &insf, NULL)) {
		rc = dberr(err, m, "journaling a window");
		goto out;
	}
	sqlite3_bind_int64(del, 1, step_id);
	sqlite3_bind_int64(delf, 1, step_id);
	if (sqlite3_step(del) != SQLITE_DONE || sqlite3_step(delf) != SQLITE_DONE) {
		rc = dberr(err, m, "journaling a window");
		goto out;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, step_id);
		sqlite3_bind_int64(ins, 2, (sqlite3_int64)i + 1);
		sqlite3_bind_text(ins, 3, s[i].kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, s[i].origin, -1, SQLITE_STATIC);
		if (s[i].doc_id > 0)
			sqlite3_bind_int64(ins, 5, s[i].doc_id);
		else
			sqlite3_bind_null(ins, 5);
		sw_db_bind_text_or_null(ins, 6, s[i].document);
		if (s[i].page_no > 0)
			sqlite3_bind_int(ins, 7, (int)s[i].page_no);
		else
			sqlite3_bind_null(ins, 7);
		sw_db_bind_text_or_null(ins, 8, s[i].bates);
		sqlite3_bind_int64(ins, 9, (sqlite3_int64)s[i].tokens);
		sqlite3_bind_int(ins, 10, s[i].estimated);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = dberr(err, m, "journaling a window");
	}
	for (size_t i = 0; i < nflags && rc == 0; i++) {
		sqlite3_reset(insf);
		sqlite3_bind_int64(insf, 1, step_id);
		sqlite3_bind_int64(insf, 2, flags[i].doc_id);
		sw_db_bind_text_or_null(insf, 3, flags[i].document);
		sw_db_bind_text_or_null(insf, 4, flags[i].bates);
		sw_db_bind_text_or_null(insf, 5, flags[i].kind ? flags[i].kind : "instructions");
		sw_db_bind_text_or_null(insf, 6, flags[i].excerpt ? flags[i].excerpt : "");
		if (sqlite3_step(insf) != SQLITE_DONE)
			rc = dberr(err, m, "journaling a window");
	}
out:
	sqlite3_finalize(del);
	sqlite3_finalize(delf);
	sqlite3_finalize(ins);
	sqlite3_finalize(insf);
	if (rc == 0)
		rc = sw_db_exec(db, "RELEASE sections", err);
	else
		if (sw_db_exec(db, "ROLLBACK TO sections; RELEASE sections", NULL) != 0)
			rc = SW_EDB;
	return rc;
}

int sw__pipeline_rows_reset(struct sw_matter *m, int64_t run_id, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	int rc;

	if (!db)
		return SW_EDB;

	if (sqlite3_prepare_v2(db,
			       "UPDATE run_steps SET status = 'pending' WHERE run_id = ?"
			       " AND status IN ('running', 'failed', 'cancelled')",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "journaling the run");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dberr(err, m, "journaling the run");
	sqlite3_finalize(st);
	return rc;
}

/* ------------------------------------------------------------ read back */

int sw_run_cancel(struct sw_matter *m, int64_t run_id, struct sw_err *err)
{
	struct sw__pipeline_run r;
	int rc;

	if ((rc = sw__pipeline_run_load(&r, m, run_id, err)) != 0)
		return rc;
	if (strcmp(r.status, "running") && strcmp(r.status, "paused")) {
		rc = sw_err_set(err, SW_EUSAGE, "run %lld is %s: only a running or paused run"
				" can be cancelled", (long long)run_id, r.status);
		sw__pipeline_run_release(&r);
		return rc;
	}
	/* A run still going in another process is asked to stop (it journals
	 * its own end); the row says cancelled either way. */
	if (!strcmp(r.status, "running") && r.pid > 0 && r.pid != getpid())
		(void)kill((pid_t)r.pid, SIGINT);
	rc = sw__pipeline_run_set(m, run_id, SW_RUN_CANCELLED, "cancelled by sworn run cancel", 0, 0,
			      err);
	sw__pipeline_run_release(&r);
	return rc;
}

int sw_run_draft(char **out, struct sw_matter *m, int64_t run_id, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st;
	int rc;

	if (!db)
		return SW_EDB;

	*out = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT s.output FROM runs r JOIN run_steps s ON s.run_id = r.id"
			       " AND s.output_doc_id = r.draft_doc_id AND s.status = 'done'"
			       " WHERE r.id = ? ORDER BY s.id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return dberr(err, m, "reading the draft");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		*out = sw_db_col_dup(st, 0);
		rc = 0;
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld has no draft yet", (long long)run_id);
	} else {
		rc = dberr(err, m, "reading the draft");
	}
	sqlite3_finalize(st);
	return rc;
}
