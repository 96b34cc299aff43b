/*
 * journal_context.c - the context audit: what went into each window of a
 * run, read back from the journal (run_steps, run_sections, run_flags)
 * into a struct sw_run_context.
 *
 * A section of kind "evidence" must hold a page of an active evidence
 * document: the bundle builder can only find such pages, so a violation
 * here means the journal was written by something else, or a document was
 * quarantined after the run (the firewall found it was a model's output).
 * Both are worth a line: the check joins record/'s view of the documents
 * (record_docs) as they are today, not as they were when the window was
 * built.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

/* Add tokens to origin's share in *v (first appearance order). */
static void tally(struct sw_context_share **v, size_t *n, size_t *cap, const char *origin,
		  int64_t tokens)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].origin, origin)) {
			(*v)[i].tokens += tokens;
			return;
		}
	*v = sw_xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[*n] = (struct sw_context_share){ .origin = sw_xstrdup(origin), .tokens = tokens };
	(*n)++;
}

/* Each origin's share of total: a fraction (two places) and per cent (one). */
static void shares(struct sw_context_share *v, size_t n, int64_t total)
{
	for (size_t i = 0; i < n; i++) {
		double x = total > 0 ? (double)v[i].tokens / (double)total : 0.0;
		v[i].share = round(x * 100.0) / 100.0;
		v[i].percent = round(x * 1000.0) / 10.0;
	}
}

/* Why an evidence section breaks the rule, or NULL.  Columns: 2 origin,
 * 3 doc_id, 9 the document's origin today, 10 its status, 11 whether it
 * exists. */
static char *violation(sqlite3_stmt *st)
{
	const char *origin = (const char *)sqlite3_column_text(st, 2);
	if (!origin || strcmp(origin, "evidence"))
		return sw_xasprintf("a section of kind evidence has origin %s",
				    origin ? origin : "(none)");
	if (sqlite3_column_type(st, 3) == SQLITE_NULL)
		return sw_xstrdup("a section of kind evidence names no document");
	long long id = sqlite3_column_int64(st, 3);
	if (sqlite3_column_type(st, 11) == SQLITE_NULL)
		return sw_xasprintf("document %lld does not exist", id);
	const char *dorigin = (const char *)sqlite3_column_text(st, 9);
	const char *status = (const char *)sqlite3_column_text(st, 10);
	if (!dorigin || strcmp(dorigin, "evidence"))
		return sw_xasprintf("document %lld is of origin %s, not evidence", id,
				    dorigin ? dorigin : "(none)");
	if (!status || strcmp(status, "active"))
		return sw_xasprintf("document %lld is %s, not active evidence", id,
				    status ? status : "(none)");
	return NULL;
}

struct run_tally {
	size_t norigins_cap, nviolations_cap;
};

static int step_sections(struct sw_run_context *c, struct run_tally *t, struct sw_context_step *js,
			 sqlite3 *db, int64_t step_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0, ocap = 0;
	int rc, step;

	if ((rc = sw_db_prepare(
		     &st, db,
		     "SELECT s.seq, s.kind, s.origin, s.doc_id, s.document, s.page_no,"
		     "  s.bates, s.tokens, s.estimated, d.origin, d.status, d.id"
		     " FROM run_sections AS s LEFT JOIN record_docs AS d ON d.id = s.doc_id"
		     " WHERE s.step_id = ?1 ORDER BY s.seq",
		     "cannot read the context audit", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, step_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		js->sections =
			sw_xgrow(js->sections, &cap, js->nsections + 1, sizeof(*js->sections));
		struct sw_context_section *s = &js->sections[js->nsections++];
		memset(s, 0, sizeof(*s));
		s->seq = sqlite3_column_int64(st, 0);
		s->kind = sw_db_col_dup(st, 1);
		s->origin = sw_db_col_dup(st, 2);
		s->doc_id = sqlite3_column_int64(st, 3);
		s->document = sw_db_col_dup(st, 4);
		s->page = sqlite3_column_int64(st, 5);
		s->bates = sw_db_col_dup(st, 6);
		s->tokens = sqlite3_column_int64(st, 7);
		s->estimated = sqlite3_column_int(st, 8) != 0;
		const char *origin = s->origin ? s->origin : "(none)";
		tally(&js->by_origin, &js->norigins, &ocap, origin, s->tokens);
		tally(&c->by_origin, &c->norigins, &t->norigins_cap, origin, s->tokens);
		js->tokens += s->tokens;
		js->estimated |= s->estimated;
		char *why = s->kind && !strcmp(s->kind, "evidence") ? violation(st) : NULL;
		if (why) {
			c->violations = sw_xgrow(c->violations, &t->nviolations_cap,
						 c->nviolations + 1, sizeof(*c->violations));
			c->violations[c->nviolations++] = (struct sw_context_violation){
				.step = sw_xstrdup(js->key ? js->key : ""),
				.seq = s->seq,
				.doc_id = s->doc_id,
				.document = s->document ? sw_xstrdup(s->document) : NULL,
				.bates = s->bates ? sw_xstrdup(s->bates) : NULL,
				.reason = why,
			};
		}
	}
	if (step != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the context audit");
	sqlite3_finalize(st);
	if (rc == 0) {
		shares(js->by_origin, js->norigins, js->tokens);
		c->tokens += js->tokens;
	}
	return rc;
}

static int run_flags(struct sw_run_context *c, sqlite3 *db, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, step;
	if ((rc = sw_db_prepare(&st, db,
				"SELECT s.key, f.doc_id, f.document, f.bates, f.kind, f.excerpt"
				" FROM run_flags AS f JOIN run_steps AS s ON s.id = f.step_id"
				" WHERE s.run_id = ?1 AND (?2 IS NULL OR s.key = ?2)"
				" ORDER BY s.id, f.id",
				"cannot read the run's flags", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, c->run);
	if (c->step)
		sqlite3_bind_text(st, 2, c->step, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		c->flags = sw_xgrow(c->flags, &cap, c->nflags + 1, sizeof(*c->flags));
		c->flags[c->nflags++] = (struct sw_run_flag_view){
			.step = sw_db_col_dup(st, 0),
			.doc_id = sqlite3_column_int64(st, 1),
			.document = sw_db_col_dup(st, 2),
			.bates = sw_db_col_dup(st, 3),
			.kind = sw_db_col_dup(st, 4),
			.excerpt = sw_db_col_dup(st, 5),
		};
	}
	if (step != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the run's flags");
	sqlite3_finalize(st);
	return rc;
}

static int load_steps(struct sw_run_context *c, struct run_tally *t, sqlite3 *db,
		      struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, rs;

	if ((rc = sw_db_prepare(&st, db,
				"SELECT id, key, step, kind, role, endpoint FROM run_steps"
				" WHERE run_id = ?1 AND (?2 IS NULL OR key = ?2) ORDER BY id",
				"cannot read the run's steps", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, c->run);
	if (c->step)
		sqlite3_bind_text(st, 2, c->step, -1, SQLITE_STATIC);
	while ((rs = sqlite3_step(st)) == SQLITE_ROW) {
		c->steps = sw_xgrow(c->steps, &cap, c->nsteps + 1, sizeof(*c->steps));
		struct sw_context_step *js = &c->steps[c->nsteps++];
		memset(js, 0, sizeof(*js));
		js->key = sw_db_col_dup(st, 1);
		js->step = sw_db_col_dup(st, 2);
		js->kind = sw_db_col_dup(st, 3);
		js->role = sw_db_col_dup(st, 4);
		js->endpoint = sw_db_col_dup(st, 5);
		if ((rc = step_sections(c, t, js, db, sqlite3_column_int64(st, 0), err)) != 0)
			break;
	}
	if (rc == 0 && rs != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the run's steps");
	sqlite3_finalize(st);
	return rc;
}

int sw_run_context(struct sw_run_context *out, struct sw_matter *m, int64_t run_id,
		   const char *step, struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	struct run_tally t = { 0 };
	int rc, rs;

	memset(out, 0, sizeof(*out));
	if (!db)
		return SW_EDB;
	out->run = run_id;
	out->step = step ? sw_xstrdup(step) : NULL;
	if ((rc = sw_db_prepare(&st, db, "SELECT 1 FROM runs WHERE id = ?1", "cannot read the run",
				err)) != 0)
		goto fail;
	sqlite3_bind_int64(st, 1, run_id);
	rs = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rs == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s",
				(long long)run_id, sw_matter_name(m));
		goto fail;
	}
	if (rs != SQLITE_ROW) {
		rc = sw_db_error(err, db, "cannot read the run");
		goto fail;
	}
	if ((rc = load_steps(out, &t, db, err)) != 0)
		goto fail;
	if (step && out->nsteps == 0) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld has no step '%s'", (long long)run_id,
				step);
		goto fail;
	}
	if ((rc = run_flags(out, db, err)) != 0)
		goto fail;
	shares(out->by_origin, out->norigins, out->tokens);
	return 0;
fail:
	sw_run_context_release(out);
	return rc;
}

static void shares_free(struct sw_context_share *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].origin);
	free(v);
}

void sw_run_context_release(struct sw_run_context *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nsteps; i++) {
		struct sw_context_step *s = &c->steps[i];
		for (size_t k = 0; k < s->nsections; k++) {
			free(s->sections[k].kind);
			free(s->sections[k].origin);
			free(s->sections[k].document);
			free(s->sections[k].bates);
		}
		free(s->sections);
		shares_free(s->by_origin, s->norigins);
		free(s->key);
		free(s->step);
		free(s->kind);
		free(s->role);
		free(s->endpoint);
	}
	for (size_t i = 0; i < c->nviolations; i++) {
		free(c->violations[i].step);
		free(c->violations[i].document);
		free(c->violations[i].bates);
		free(c->violations[i].reason);
	}
	for (size_t i = 0; i < c->nflags; i++) {
		free(c->flags[i].step);
		free(c->flags[i].document);
		free(c->flags[i].bates);
		free(c->flags[i].kind);
		free(c->flags[i].excerpt);
	}
	shares_free(c->by_origin, c->norigins);
	free(c->steps);
	free(c->violations);
	free(c->flags);
	free(c->step);
	memset(c, 0, sizeof(*c));
}
