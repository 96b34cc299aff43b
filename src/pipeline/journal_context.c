/*
 * journal_context.c - the context audit: what went into each window of a run, read
 * back from the journal (run_steps, run_sections, run_flags).
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

#include <jansson.h>
#include <sqlite3.h>

#include "pipeline/pipeline_int.h"

static json_t *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? sw_json_strn((const char *)s, (size_t)sqlite3_column_bytes(st, i)) : json_null();
}

static json_t *col_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? json_null()
							  : json_integer(sqlite3_column_int64(st, i));
}

/* Add tokens to by[origin]. */
static void tally(json_t *by, const char *origin, json_int_t tokens)
{
	json_t *o = json_object_get(by, origin);
	if (!o) {
		o = json_object();
		json_object_set_new(o, "tokens", json_integer(0));
		json_object_set_new(by, origin, o);
	}
	json_t *t = json_object_get(o, "tokens");
	json_integer_set(t, json_integer_value(t) + tokens);
}

/* Each origin's share of total: a fraction (two places) and per cent (one). */
static void shares(json_t *by, json_int_t total)
{
	const char *k;
	json_t *o;
	json_object_foreach(by, k, o) {
		double x = total > 0 ? (double)json_integer_value(json_object_get(o, "tokens")) /
					       (double)total
				     : 0.0;
		json_object_set_new(o, "share", json_real(round(x * 100.0) / 100.0));
		json_object_set_new(o, "percent", json_real(round(x * 1000.0) / 10.0));
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

static int step_sections(json_t *jstep, json_t *violations, json_t *run_by,
			 json_int_t *run_tokens, sqlite3 *db, int64_t step_id,
			 const char *key, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	json_t *secs = json_array(), *by = json_object();
	json_int_t total = 0;
	bool estimated = false;
	int rc = 0, step;

	if (sqlite3_prepare_v2(db,
			       "SELECT s.seq, s.kind, s.origin, s.doc_id, s.document, s.page_no,"
			       "  s.bates, s.tokens, s.estimated, d.origin, d.status, d.id"
			       " FROM run_sections AS s LEFT JOIN record_docs AS d ON d.id = s.doc_id"
			       " WHERE s.step_id = ?1 ORDER BY s.seq", -1, &st, NULL) != SQLITE_OK) {
		rc = sw_db_error(err, db, "cannot read the context audit");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, step_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *s = json_object();
		const char *kind = (const char *)sqlite3_column_text(st, 1);
		const char *origin = (const char *)sqlite3_column_text(st, 2);
		json_int_t tokens = sqlite3_column_int64(st, 7);
		bool est = sqlite3_column_int(st, 8) != 0;
		json_object_set_new(s, "seq", json_integer(sqlite3_column_int64(st, 0)));
		json_object_set_new(s, "kind", col_str(st, 1));
		json_object_set_new(s, "origin", col_str(st, 2));
		json_object_set_new(s, "doc_id", col_int(st, 3));
		json_object_set_new(s, "document", col_str(st, 4));
		json_object_set_new(s, "page", col_int(st, 5));
		json_object_set_new(s, "bates", col_str(st, 6));
		json_object_set_new(s, "tokens", json_integer(tokens));
		json_object_set_new(s, "estimated", json_boolean(est));
		json_array_append_new(secs, s);
		tally(by, origin ? origin : "(none)", tokens);
		tally(run_by, origin ? origin : "(none)", tokens);
		total += tokens;
		estimated |= est;
		char *why = kind && !strcmp(kind, "evidence") ? violation(st) : NULL;
		if (why) {
			json_t *v = json_object();
			json_object_set_new(v, "step", sw_json_str(key));
			json_object_set_new(v, "seq", json_integer(sqlite3_column_int64(st, 0)));
			json_object_set_new(v, "doc_id", col_int(st, 3));
			json_object_set_new(v, "document", col_str(st, 4));
			json_object_set_new(v, "bates", col_str(st, 6));
			json_object_set_new(v, "reason", sw_json_str(why));
			json_array_append_new(violations, v);
			free(why);
		}
	}
	if (step != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the context audit");
		goto cleanup;
	}
	shares(by, total);
	*run_tokens += total;
	json_object_set_new(jstep, "sections", secs);
	json_object_set_new(jstep, "tokens", json_integer(total));
	json_object_set_new(jstep, "estimated", json_boolean(estimated));
	json_object_set_new(jstep, "by_origin", by);
	secs = by = NULL;
cleanup:
	json_decref(secs);
	json_decref(by);
	sqlite3_finalize(st);
	return rc;
}

static int run_flags(json_t *flags, sqlite3 *db, int64_t run_id, const char *key,
		     struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, step;
	if (sqlite3_prepare_v2(db,
			       "SELECT s.key, f.doc_id, f.document, f.bates, f.kind, f.excerpt"
			       " FROM run_flags AS f JOIN run_steps AS s ON s.id = f.step_id"
			       " WHERE s.run_id = ?1 AND (?2 IS NULL OR s.key = ?2)"
			       " ORDER BY s.id, f.id", -1, &st, NULL) != SQLITE_OK)
		return sw_db_error(err, db, "cannot read the run's flags");
	sqlite3_bind_int64(st, 1, run_id);
	if (key)
		sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *f = json_object();
		json_object_set_new(f, "step", col_str(st, 0));
		json_object_set_new(f, "doc_id", col_int(st, 1));
		json_object_set_new(f, "document", col_str(st, 2));
		json_object_set_new(f, "bates", col_str(st, 3));
		json_object_set_new(f, "kind", col_str(st, 4));
		json_object_set_new(f, "excerpt", col_str(st, 5));
		json_array_append_new(flags, f);
	}
	if (step != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the run's flags");
	sqlite3_finalize(st);
	return rc;
}

json_t *sw_run_context_json(struct sw_matter *m, int64_t run_id, const char *step,
			    struct sw_err *err)
{
	sqlite3 *db = sw__journal_db(m, err);
	sqlite3_stmt *st = NULL;
	json_t *out = NULL, *steps = json_array(), *violations = json_array(),
	       *flags = json_array(), *by = json_object();
	json_int_t total = 0;
	size_t nsteps = 0;
	int rc = 0, rs;

	if (!db) {
		rc = SW_EDB;
		goto cleanup;
	}
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE id = ?1", -1, &st, NULL) != SQLITE_OK) {
		rc = sw_db_error(err, db, "cannot read the run");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, run_id);
	rs = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rs == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld does not exist in matter %s",
				(long long)run_id, sw_matter_name(m));
		goto cleanup;
	}
	if (rs != SQLITE_ROW) {
		rc = sw_db_error(err, db, "cannot read the run");
		goto cleanup;
	}

	if (sqlite3_prepare_v2(db,
			       "SELECT id, key, step, kind, role, endpoint FROM run_steps"
			       " WHERE run_id = ?1 AND (?2 IS NULL OR key = ?2) ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw_db_error(err, db, "cannot read the run's steps");
		goto cleanup;
	}
	sqlite3_bind_int64(st, 1, run_id);
	if (step)
		sqlite3_bind_text(st, 2, step, -1, SQLITE_STATIC);
	while ((rs = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *js = json_object();
		const char *key = (const char *)sqlite3_column_text(st, 1);
		json_object_set_new(js, "key", col_str(st, 1));
		json_object_set_new(js, "step", col_str(st, 2));
		json_object_set_new(js, "kind", col_str(st, 3));
		json_object_set_new(js, "role", col_str(st, 4));
		json_object_set_new(js, "endpoint", col_str(st, 5));
		json_array_append_new(steps, js);
		nsteps++;
		if ((rc = step_sections(js, violations, by, &total, db, sqlite3_column_int64(st, 0),
					key ? key : "", err)) != 0)
			goto cleanup;
	}
	if (rs != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the run's steps");
		goto cleanup;
	}
	if (step && nsteps == 0) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld has no step '%s'", (long long)run_id,
				step);
		goto cleanup;
	}
	if ((rc = run_flags(flags, db, run_id, step, err)) != 0)
		goto cleanup;
	shares(by, total);

	out = json_object();
	json_object_set_new(out, "run", json_integer(run_id));
	if (step)
		json_object_set_new(out, "step", sw_json_str(step));
	json_object_set_new(out, "steps", steps);
	json_object_set_new(out, "tokens", json_integer(total));
	json_object_set_new(out, "by_origin", by);
	json_object_set_new(out, "violations", violations);
	json_object_set_new(out, "flags", flags);
	steps = violations = flags = by = NULL;
cleanup:
	sqlite3_finalize(st);
	json_decref(steps);
	json_decref(violations);
	json_decref(flags);
	json_decref(by);
	(void)rc;
	return out;
}
