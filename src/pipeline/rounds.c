/* rounds.c - after the first draft: the gate on it, the reviewer's attack,
 * revisions with the findings and then with the verifier's own reasons,
 * at most the task's rounds; and starting, resuming and ending a run. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "markup/markup.h"
#include "verify/verify.h"
#include "pipeline/run_int.h"

#define MAX_REASONS 200 /* blocked claims kept in a verify step's detail */

void sw_run_result_release(struct sw_run_result *r)
{
	free(r->reason);
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------- verify */

static bool blocks(const struct sw_verify_report *r, size_t i)
{
	enum sw_verdict v = r->verdicts[i].verdict;
	if (r->verdicts[i].waiver) /* a lawyer checked it and said why */
		return false;
	return v != SW_VERDICT_SUPPORTED && !(v == SW_VERDICT_UNVERIFIABLE && r->lenient);
}

/* Store the judge's answers of rep as model output of the run
 * ("run-N-verify#K-judge.json") and count them in the detail d. */
static int store_judge(struct sw__pipeline_engine *e, const struct sw__pipeline_inst *x,
		       const struct sw_verify_report *rep, json_t *d, struct sw_err *err)
{
	json_t *outcomes = json_object();
	char *name = sw_xasprintf("run-%lld-%s-judge.json", (long long)e->run_id, x->key);
	int64_t id = 0;
	int rc = sw__pipeline_judge_store(&id, e->m, name, rep, err);
	for (size_t k = 0; k < rep->njudged; k++) {
		const char *o = sw_judge_outcome_name(rep->judged[k].outcome);
		json_int_t n = json_integer_value(json_object_get(outcomes, o));
		json_object_set_new(outcomes, o, json_integer(n + 1));
	}
	json_object_set_new(d, "judge", json_pack("{s:s, s:I, s:o, s:I}", "mode",
						   sw_judge_mode_name(rep->judge_mode), "judged",
						   (json_int_t)rep->njudged, "outcomes", outcomes,
						   "doc_id", (json_int_t)id));
	free(name);
	return rc;
}

/* The task's elements and, under [verify] headings = STEP.FIELD, one for
 * each instance of step STEP whose item has a string FIELD ("the outline's
 * section \"Argument\"": the title must stand in the draft): a new array
 * for vo (its entries from *own on are owned; free with free_headings),
 * or NULL when the task names no headings. */
static struct sw_verify_element *headings(struct sw__pipeline_engine *e, struct sw_verify_opts *vo,
					  size_t *own)
{
	const char *spec = e->t->headings, *dot = spec ? strchr(spec, '.') : NULL;
	*own = vo->nelements;
	if (!dot)
		return NULL;
	size_t sl = (size_t)(dot - spec), n = 0;
	struct sw_verify_element *els = sw_xcalloc(vo->nelements + e->n + 1, sizeof(*els));
	for (size_t k = 0; k < vo->nelements; k++)
		els[n++] = vo->elements[k];
	for (size_t i = 0; i < e->n; i++) {
		const struct sw__pipeline_inst *x = e->v[i];
		if (!x->step || !x->item_json || strlen(x->step->name) != sl ||
		    strncmp(x->step->name, spec, sl) != 0)
			continue;
		json_t *item = json_loads(x->item_json, 0, NULL);
		const char *title = json_string_value(json_object_get(item, dot + 1));
		if (title && *title)
			els[n++] = (struct sw_verify_element){
				sw_xasprintf("the outline's section \"%s\"", title),
				sw_xstrdup(title)
			};
		json_decref(item);
	}
	vo->elements = els;
	vo->nelements = n;
	return els;
}

static void free_headings(struct sw_verify_element *els, size_t n, size_t own)
{
	for (size_t k = own; els && k < n; k++) {
		free((char *)els[k].name);
		free((char *)els[k].match);
	}
	free(els);
}

/* Verify the draft text as Markdown; x->detail gets the summary. */
static int verify_text(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x, const char *draft,
		       struct sw_err *err)
{
	struct sw_markup view = { 0 };
	struct sw_verify_report rep = { 0 };
	struct sw_verify_opts vo = { .lenient = false };
	struct sw_waivers waivers = { 0 };
	struct sw_judge judge;
	int rc;

	if ((rc = sw_task_verify_opts(&vo, e->t, NULL, -1, err)) != 0)
		return rc;
	/* the outline's sections: each fanned-out item's heading must stand
	 * in the draft, beside the task's own elements */
	size_t own;
	struct sw_verify_element *els = headings(e, &vo, &own);

	/* The judge, when sworn.conf has one: its answers are stored with the
	 * run as model output (below). */
	if (e->o->judge != SW_JUDGE_OFF &&
	    sw_judge_init(&judge, e->o->llm, e->o->judge, e->o->cancel, NULL) == 0)
		vo.judge = &judge.vj;
	if ((rc = sw_markup_parse(&view, SW_MARKUP_MARKDOWN, draft, strlen(draft), err)) != 0) {
		sw_markup_release(&view);
		free_headings(els, vo.nelements, own);
		return rc;
	}
	rc = sw_verify(&rep, e->m, e->o->auth, view.text, view.len, &vo, err);
	free_headings(els, vo.nelements, own);
	/* the matter's waivers hold in a run's rounds as in sworn verify */
	if (rc == 0 && (rc = sw_waivers_load(&waivers, e->m, err)) == 0)
		sw_waivers_apply(&rep, &waivers);
	if (rc != 0) {
		sw_verify_release(&rep);
		sw_waivers_release(&waivers);
		sw_markup_release(&view);
		return rc;
	}
	json_t *d = json_object(), *counts = json_object(), *reasons = json_array();
	size_t blocked = 0;
	for (int v = 0; v < SW_VERDICT_COUNT; v++)
		json_object_set_new(counts, sw_verdict_name(v), json_integer((json_int_t)rep.counts[v]));
	if (rep.nwaived)
		json_object_set_new(counts, "waived", json_integer((json_int_t)rep.nwaived));
	for (size_t i = 0; i < rep.claims.n; i++) {
		if (!blocks(&rep, i))
			continue;
		blocked++;
		if (json_array_size(reasons) >= MAX_REASONS)
			continue;
		const struct sw_claim *c = &rep.claims.v[i];
		json_array_append_new(reasons,
			json_pack("{s:o, s:s, s:s}", "claim",
				  sw_json_strn(rep.text + c->start, c->end - c->start), "verdict",
				  sw_verdict_name(rep.verdicts[i].verdict), "reason",
				  rep.verdicts[i].reason));
	}
	/* what the task requires and facts with no citation, when they block:
	 * the reviser is told as it is told of a claim */
	for (size_t k = 0; rep.uncited_mode == SW_UNCITED_BLOCK && k < rep.nuncited; k++) {
		const struct sw_verify_uncited *un = &rep.uncited[k];
		blocked++;
		if (json_array_size(reasons) < MAX_REASONS)
			json_array_append_new(reasons,
				json_pack("{s:o, s:s, s:s+}", "claim",
					  sw_json_strn(rep.text + un->start, un->end - un->start),
					  "verdict", "uncited", "reason", "states ", un->facts,
					  " with no citation: cite the record or drop it"));
	}
	for (size_t k = 0; k < rep.nmissing; k++) {
		blocked++;
		json_array_append_new(reasons,
			json_pack("{s:s, s:s, s:s+}", "claim", "", "verdict", "missing", "reason",
				  "the draft lacks the task's required element: ", rep.missing[k]));
	}
	if (rep.no_record) {
		blocked++;
		json_array_append_new(reasons,
			json_pack("{s:s, s:s, s:s}", "claim", "", "verdict", "missing", "reason",
				  "the draft cites no record; every fact must cite its page"));
	}
	json_object_set_new(d, "claims", json_integer((json_int_t)rep.claims.n));
	json_object_set_new(d, "blocked", json_integer((json_int_t)blocked));
	json_object_set_new(d, "pass", json_boolean(rep.pass));
	json_object_set_new(d, "counts", counts);
	json_object_set_new(d, "reasons", reasons);
	if (rep.njudged > 0 && (rc = store_judge(e, x, &rep, d, err)) != 0) {
		json_decref(d);
		sw_verify_release(&rep);
		sw_waivers_release(&waivers);
		sw_markup_release(&view);
		return rc;
	}
	free(x->detail);
	x->detail = json_dumps(d, JSON_COMPACT);
	x->claims = rep.claims.n;
	x->blocked = blocked;
	json_decref(d);
	sw_verify_release(&rep);
	sw_waivers_release(&waivers);
	sw_markup_release(&view);
	return 0;
}

/* The verdict summary of a verify instance (run now or journaled). */
static bool verify_passed(struct sw__pipeline_inst *x)
{
	json_t *d = x->detail ? json_loads(x->detail, 0, NULL) : NULL;
	bool pass = json_is_true(json_object_get(d, "pass"));
	x->claims = (size_t)json_integer_value(json_object_get(d, "claims"));
	x->blocked = (size_t)json_integer_value(json_object_get(d, "blocked"));
	json_decref(d);
	return pass;
}

/* The reasons of a verify instance as the reviser reads them. */
static char *verifier_text(const struct sw__pipeline_inst *v)
{
	json_t *d = v && v->detail ? json_loads(v->detail, 0, NULL) : NULL;
	json_t *reasons = json_object_get(d, "reasons");
	struct sw_buf b;
	size_t i;
	json_t *r;

	sw_buf_init(&b);
	json_array_foreach(reasons, i, r) {
		sw_buf_addf(&b, "%zu. \"%s\" is %s: %s\n", i + 1,
			    json_string_value(json_object_get(r, "claim")),
			    json_string_value(json_object_get(r, "verdict")),
			    json_string_value(json_object_get(r, "reason")));
	}
	if (b.len == 0)
		sw_buf_adds(&b, "(the verifier blocked no claim of this draft)\n");
	json_decref(d);
	return sw_buf_detach(&b, NULL);
}

static struct sw__pipeline_inst *run_verify(struct sw__pipeline_engine *e, struct sw__pipeline_inst *draft, int round)
{
	char key[32];
	struct sw_err err = { 0 };
	snprintf(key, sizeof(key), "verify#%d", round);
	struct sw__pipeline_inst *x = sw__pipeline_run_inst_find(e, key);
	if (!x)
		x = sw__pipeline_run_inst_add(e, key, NULL, SW__PIPELINE_VERIFY, 0, round);
	if (x->status == SW__PIPELINE_ST_DONE) {
		(void)verify_passed(x);
		return x;
	}
	struct sw__pipeline_begin b = {
		.run_id = e->run_id, .key = key, .step = "verify", .kind = "verify", .round = round,
	};
	double t0 = sw_now();
	int rc = sw__pipeline_step_begin(&x->row_id, e->m, &b, &err);
	if (rc == 0)
		rc = verify_text(e, x, draft->output, &err);
	x->wall_s = sw_now() - t0;
	if (rc != 0) {
		sw__pipeline_run_fail(e, x, rc, err.msg);
		return NULL;
	}
	struct sw__pipeline_end end = {
		.status = SW__PIPELINE_ST_DONE, .prompt_tokens = -1, .completion_tokens = -1,
		.wall_s = x->wall_s, .detail = x->detail,
	};
	if (sw__pipeline_step_end(e->m, x->row_id, &end, &err) != 0) {
		if (!e->db_error)
			e->db_error = sw_xstrdup(err.msg);
		e->stop = true;
		return NULL;
	}
	x->status = SW__PIPELINE_ST_DONE;
	sw__pipeline_run_event(e, SW_EV_VERIFY, x, NULL);
	return x;
}

/* ------------------------------------------------------- review, revise */

/* Run one model instance (review or revise) to its end. */
static struct sw__pipeline_inst *run_one(struct sw__pipeline_engine *e, const char *key,
				const struct sw_task_step *st, enum sw__pipeline_ikind kind, int round,
				const struct sw__pipeline_fill *fill, const char *draft)
{
	struct sw__pipeline_inst *x = sw__pipeline_run_inst_find(e, key);
	if (!x)
		x = sw__pipeline_run_inst_add(e, key, st, kind, 0, round);
	if (x->status == SW__PIPELINE_ST_DONE)
		return x;
	const char *sources[2] = { e->brief, draft };
	(void)sw__pipeline_run_start_inst(e, x, fill, sources, 2);
	sw__pipeline_run_wait_all(e);
	return x->status == SW__PIPELINE_ST_DONE ? x : NULL;
}

static int set_draft(struct sw__pipeline_engine *e, const struct sw__pipeline_inst *x)
{
	struct sw_err err = { 0 };
	if (sw__pipeline_run_set_draft(e->m, e->run_id, x->doc_id, &err) != 0) {
		if (!e->db_error)
			e->db_error = sw_xstrdup(err.msg);
		e->stop = true;
		return -1;
	}
	return 0;
}

static void review_rounds(struct sw__pipeline_engine *e, struct sw__pipeline_inst *draft,
			  struct sw_run_result *res)
{
	struct sw__pipeline_fill fill;
	struct sw__pipeline_inst *v, *rv;
	char *findings = NULL;
	size_t nfind = 0;

	if (set_draft(e, draft) != 0 || !(v = run_verify(e, draft, 0)))
		return;
	sw__pipeline_run_fill_base(e, &fill);
	fill.draft = draft->output;
	fill.round = "1";
	fill.findings = "";
	fill.verifier = "";
	if (!(rv = run_one(e, "review", &e->t->review, SW__PIPELINE_REVIEW, 0, &fill, draft->output)))
		return;
	findings = sw__pipeline_findings_text(rv->output, &nfind);
	res->claims = v->claims;
	res->blocked = v->blocked;
	if (verify_passed(v) && nfind == 0) {
		res->status = SW_RUN_VERIFIED;
		free(findings);
		return;
	}
	res->status = SW_RUN_BLOCKED;
	for (unsigned r = 1; r <= e->t->rounds && !e->stop; r++) {
		char key[32], round[16];
		char *reasons = verifier_text(v);
		snprintf(key, sizeof(key), "revise#%u", r);
		snprintf(round, sizeof(round), "%u", r);
		sw__pipeline_run_fill_base(e, &fill);
		fill.draft = draft->output;
		fill.findings = r == 1 ? findings
				       : "(the reviewer's findings were addressed in revision 1)";
		fill.verifier = reasons;
		fill.round = round;
		struct sw__pipeline_inst *next = run_one(e, key, &e->t->revise, SW__PIPELINE_REVISE, (int)r, &fill,
						draft->output);
		free(reasons);
		if (!next || set_draft(e, next) != 0)
			break;
		draft = next;
		res->rounds = r;
		if (!(v = run_verify(e, draft, (int)r)))
			break;
		res->claims = v->claims;
		res->blocked = v->blocked;
		if (verify_passed(v)) {
			res->status = SW_RUN_VERIFIED;
			break;
		}
	}
	free(findings);
}

/* ---------------------------------------------------------- a whole run */

static void engine_free(struct sw__pipeline_engine *e)
{
	for (size_t i = 0; i < e->n; i++) {
		if (e->v[i]->w) /* never: every worker is joined first */
			continue;
		sw__pipeline_run_inst_free(e->v[i]);
	}
	free(e->v);
	for (size_t i = 0; i < e->neps; i++) {
		sw_llm_client_free(e->eps[i].client);
		free(e->eps[i].memo);
	}
	sw__pipeline_rows_free(e->rows, e->nrows);
	free(e->expanded);
	free(e->reason);
	free(e->db_error);
	pthread_mutex_destroy(&e->mu);
	pthread_cond_destroy(&e->cv);
}

static int engine_run(struct sw_run_result *out, struct sw_matter *m, const struct sw_task *t,
		      int64_t run_id, const char *brief, const struct sw_run_opts *o,
		      struct sw_err *err)
{
	struct sw__pipeline_engine e = { .m = m, .t = t, .o = o, .run_id = run_id };
	struct sw__pipeline_inst *draft = NULL;
	struct sw__pipeline_run now;
	double t0 = sw_now();
	int rc;

	memset(out, 0, sizeof(*out));
	out->run_id = run_id;
	out->status = SW_RUN_PAUSED;
	e.brief = (char *)brief;
	pthread_mutex_init(&e.mu, NULL);
	pthread_cond_init(&e.cv, NULL);
	e.expanded = sw_xcalloc(t->n_steps + 1, sizeof(bool));
	{
		time_t tt = time(NULL);
		struct tm tm;
		localtime_r(&tt, &tm);
		static const char *const months[] = { "January", "February", "March", "April",
						      "May", "June", "July", "August",
						      "September", "October", "November",
						      "December" };
		snprintf(e.date, sizeof(e.date), "%s %d, %d", months[tm.tm_mon % 12], tm.tm_mday,
			 tm.tm_year + 1900);
	}
	if ((rc = sw__pipeline_rows_load(&e.rows, &e.nrows, m, run_id, err)) != 0) {
		engine_free(&e);
		return rc;
	}
	sw__pipeline_run_drafting(&e, &draft);
	if (!e.stop && draft)
		review_rounds(&e, draft, out);
	sw__pipeline_run_wait_all(&e);

	if (e.stop) {
		out->status = SW_RUN_PAUSED;
		if (e.db_error)
			out->reason = sw_xasprintf("the journal could not be written: %s", e.db_error);
		else if (e.reason)
			out->reason = sw_xstrdup(e.reason);
		else
			out->reason = sw_xstrdup("interrupted");
	} else if (out->status == SW_RUN_BLOCKED) {
		out->reason = sw_xasprintf("%zu claims still blocked after %u rounds", out->blocked,
					   out->rounds);
	}
	out->wall_s = sw_now() - t0;
	/* `sworn run cancel` from elsewhere wins over a pause */
	if (sw__pipeline_run_load(&now, m, run_id, NULL) == 0) {
		if (!strcmp(now.status, "cancelled"))
			out->status = SW_RUN_CANCELLED;
		sw__pipeline_run_release(&now);
	}
	rc = sw__pipeline_run_set(m, run_id, out->status, out->reason, 0, out->wall_s, err);
	engine_free(&e);
	return rc;
}

int sw_run_start(struct sw_run_result *out, struct sw_matter *m, const struct sw_task *t,
		 const char *brief_name, const char *brief, size_t brief_len,
		 const struct sw_run_opts *opts, struct sw_err *err)
{
	int64_t id;
	int rc;

	memset(out, 0, sizeof(*out));
	if (brief_len == 0 || !sw_utf8_valid(brief, brief_len) || memchr(brief, '\0', brief_len))
		return sw_err_set(err, SW_EINPUT, "the brief %s is empty or not UTF-8 text",
				  brief_name);
	char *copy = sw_xstrndup(brief, brief_len);
	rc = sw__pipeline_run_insert(&id, m, t, brief_name, copy, err);
	if (rc == 0)
		rc = engine_run(out, m, t, id, copy, opts, err);
	free(copy);
	return rc;
}

int sw_run_resume(struct sw_run_result *out, struct sw_matter *m, int64_t run_id,
		  const char *ws_root, const struct sw_run_opts *opts, struct sw_err *err)
{
	struct sw__pipeline_run r;
	struct sw_task *t = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = sw__pipeline_run_load(&r, m, run_id, err)) != 0)
		return rc;
	bool alive = r.pid > 0 && r.pid != getpid() && (kill((pid_t)r.pid, 0) == 0 || errno == EPERM);
	if (!strcmp(r.status, "running") && alive) {
		rc = sw_err_set(err, SW_EUSAGE, "run %lld is still running (process %lld)",
				(long long)run_id, (long long)r.pid);
	} else if (strcmp(r.status, "running") && strcmp(r.status, "paused")) {
		rc = sw_err_set(err, SW_EUSAGE, "run %lld is %s: there is nothing to resume%s",
				(long long)run_id, r.status,
				!strcmp(r.status, "verified") ? " (approve it: sworn run approve)" : "");
	} else if ((rc = sw_task_load(&t, ws_root, r.task, err)) == 0 &&
		   strcmp(t->sha256, r.task_sha256)) {
		rc = sw_err_set(err, SW_EUSAGE, "task %s changed since run %lld began (%s); start"
				" a new run with sworn draft", r.task, (long long)run_id, t->source);
	}
	(void)sw_fault("resume-read"); /* tests hold a resume here to race another */
	bool won = false;
	if (rc == 0 &&
	    (rc = sw__pipeline_run_claim(&won, m, run_id, r.status, r.pid, (long)getpid(), err)) ==
		    0 &&
	    !won) {
		/* Another process took it between the read and now. */
		struct sw__pipeline_run now;
		if ((rc = sw__pipeline_run_load(&now, m, run_id, err)) == 0) {
			rc = !strcmp(now.status, "running")
				     ? sw_err_set(err, SW_EUSAGE,
						  "run %lld is being resumed by process %lld",
						  (long long)run_id, (long long)now.pid)
				     : sw_err_set(err, SW_EUSAGE,
						  "run %lld was resumed by another process"
						  " and is %s now (sworn run show %lld)",
						  (long long)run_id, now.status, (long long)run_id);
			sw__pipeline_run_release(&now);
		}
	}
	if (rc == 0 && (rc = sw__pipeline_rows_reset(m, run_id, err)) == 0)
		rc = engine_run(out, m, t, run_id, r.brief, opts, err);
	sw_task_free(t);
	sw__pipeline_run_release(&r);
	return rc;
}
