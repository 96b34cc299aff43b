/* approve.c - the lawyer's final: verified again (a human edit can add an
 * error too), accepted when the gate passes or with an override reason,
 * written out, stored with origin human, and kept beside the model's draft
 * as a correction with its word diff. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "markup/markup.h"
#include "pipeline/pipeline_int.h"
#include "verify/verify.h"

void sw_approve_result_release(struct sw_approve_result *r)
{
	if (!r)
		return;
	free(r->report_json);
	memset(r, 0, sizeof(*r));
}

/* What to do about a run that is not ready for approval. */
static int not_ready(struct sw_err *err, int64_t id, const char *status, const char *path)
{
	if (!status)
		status = "";
	if (strcmp(status, "approved") == 0)
		return sw_err_set(err, SW_EUSAGE,
				  "run %lld is approved already (its final is %s); start a new "
				  "run with sworn draft to draft again",
				  (long long)id, path ? path : "stored");
	if (strcmp(status, "running") == 0)
		return sw_err_set(err, SW_EUSAGE,
				  "run %lld is still running: approve it once it ends verified or "
				  "blocked (sworn run show %lld)",
				  (long long)id, (long long)id);
	if (strcmp(status, "paused") == 0)
		return sw_err_set(err, SW_EUSAGE,
				  "run %lld is paused before its draft was verified: finish it "
				  "with: sworn run resume %lld",
				  (long long)id, (long long)id);
	return sw_err_set(err, SW_EUSAGE,
			  "run %lld is %s and has no verified draft to approve; start a new "
			  "run with sworn draft",
			  (long long)id, status);
}

/* A claim the gate blocks: anything but supported (approval is strict)
 * that the lawyer has not waived. */
static bool blocks(const struct sw_claim_verdict *v)
{
	return v->verdict != SW_VERDICT_SUPPORTED && !v->waiver;
}

/* The ids of the waivers that let claims pass, as a JSON array; NULL for
 * none. */
static char *waivers_json(const struct sw_verify_report *r)
{
	if (r->nwaived == 0)
		return NULL;
	json_t *a = json_array();
	for (size_t i = 0; i < r->claims.n; i++) {
		const struct sw_verify_waiver *w = r->verdicts[i].waiver;
		bool seen = false;
		for (size_t k = 0; w && k < json_array_size(a); k++)
			seen = seen || json_integer_value(json_array_get(a, k)) == w->id;
		if (w && !seen)
			json_array_append_new(a, json_integer((json_int_t)w->id));
	}
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

/* The verdicts an override accepts: [{claim, verdict, reason}]. */
static char *overridden_json(const struct sw_verify_report *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->claims.n; i++) {
		const struct sw_claim *c = &r->claims.v[i];
		if (!blocks(&r->verdicts[i]))
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "claim", sw_json_strn(r->text + c->start, c->end - c->start));
		json_object_set_new(o, "verdict", json_string(sw_verdict_name(r->verdicts[i].verdict)));
		json_object_set_new(o, "reason", sw_json_str(r->verdicts[i].reason));
		json_array_append_new(a, o);
	}
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

int sw_run_approve(struct sw_approve_result *out, struct sw_matter *m, int64_t run_id,
		   const struct sw_approve_opts *o, struct sw_err *err)
{
	char *status = NULL, *final_path = NULL, *key = NULL, *messages = NULL, *draft = NULL;
	char *override = NULL, *overridden = NULL, *diff = NULL, *name = NULL, *waived = NULL;
	int64_t draft_doc = 0, final_doc = 0;
	struct sw_markup view;
	struct sw_verify_report rep;
	struct sw_waivers waivers = { 0 };
	struct sw__pipeline_run run = { 0 };
	struct sw_task *task = NULL;
	json_t *ops = NULL;
	struct sw_diff_stats ds;
	bool in_tx = false;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&view, 0, sizeof(view));
	memset(&rep, 0, sizeof(rep));
	if (!o->final_text || !o->out_path || !*o->out_path)
		return sw_err_set(err, SW_EUSAGE, "approval needs the final text and a path to "
						  "write it to");
	if (o->override) {
		override = sw_trim(sw_xstrdup(o->override));
		if (!*override || strpbrk(override, "\r\n")) {
			free(override);
			return sw_err_set(err, SW_EUSAGE,
					  "an override needs its reason, one line of text");
		}
	}
	if ((rc = sw__journal_approval_state(&status, &final_path, &draft_doc, m, run_id, err)) !=
	    0)
		goto cleanup;
	if (!status)
		status = sw_xstrdup("");
	if (strcmp(status, "verified") != 0 && strcmp(status, "blocked") != 0) {
		rc = not_ready(err, run_id, status, final_path);
		goto cleanup;
	}
	if (draft_doc <= 0) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld has no draft to approve",
				(long long)run_id);
		goto cleanup;
	}
	if ((rc = sw__journal_draft_step(&key, &messages, &draft, m, run_id, draft_doc, err)) != 0)
		goto cleanup;
	if (!key || !draft) {
		rc = sw_err_set(err, SW_ENOTFOUND, "run %lld has no draft to approve",
				(long long)run_id);
		goto cleanup;
	}

	/* An empty final is no document to sign, override or not. */
	bool blank = true;
	for (size_t i = 0; i < o->final_len && blank; i++)
		blank = strchr(" \t\r\n\f\v", o->final_text[i]) != NULL;
	if (blank) {
		rc = sw_err_set(err, SW_EUSAGE, "the final of run %lld is empty: write the text to "
				"approve (sworn run show %lld --draft gives the draft)",
				(long long)run_id, (long long)run_id);
		goto cleanup;
	}

	/* The final is read as a model's draft is written, as Markdown (an
	 * HTML file as HTML), and its plain text verified. */
	enum sw_markup_kind kind = sw_markup_kind_for(o->final_name, o->final_text, o->final_len);
	if (kind != SW_MARKUP_HTML)
		kind = SW_MARKUP_MARKDOWN;
	if ((rc = sw_markup_parse(&view, kind, o->final_text, o->final_len, err)) != 0) {
		sw_err_wrap(err, rc, "cannot read the final");
		goto cleanup;
	}
	/* Held to what the run's drafts were held to: the task's elements,
	 * its [verify] uncited and record, the workspace's [verify]. */
	struct sw_verify_opts vo = { .lenient = false };
	if ((rc = sw__pipeline_run_load(&run, m, run_id, err)) != 0 ||
	    (rc = sw_task_load(&task, o->ws ? o->ws->root : NULL, run.task, err)) != 0 ||
	    (rc = sw_task_verify_opts(&vo, task, o->ws ? &o->ws->config : NULL, -1, err)) != 0) {
		sw_err_wrap(err, rc, "cannot approve run %lld", (long long)run_id);
		goto cleanup;
	}
	vo.judge = o->judge;
	if ((rc = sw_verify(&rep, m, o->auth, view.text, view.len, &vo, err)) != 0) {
		sw_err_wrap(err, rc, "cannot verify the final");
		goto cleanup;
	}
	if ((rc = sw_waivers_load(&waivers, m, err)) != 0)
		goto cleanup;
	out->waived = sw_waivers_apply(&rep, &waivers);
	rep.view = &view;
	out->claims = rep.claims.n;
	for (size_t i = 0; i < rep.claims.n; i++)
		out->blocked += blocks(&rep.verdicts[i]);
	json_t *rj = sw_verify_json(&rep, o->final_name ? o->final_name : "final");
	if (rep.njudged)
		json_object_set_new(rj, "judge", sw_judge_answers_json(&rep));
	out->report_json = json_dumps(rj, JSON_COMPACT);
	json_decref(rj);
	if (!rep.pass && !override)
		goto cleanup; /* refused: nothing changes */

	if ((rc = sw_word_diff(&ops, &ds, draft, strlen(draft), o->final_text, o->final_len,
			       err)) != 0)
		goto cleanup;
	diff = json_dumps(ops, JSON_COMPACT);
	if (!rep.pass)
		overridden = overridden_json(&rep);
	waived = waivers_json(&rep);

	/* The human document stands by itself (the same text again is a
	 * no-op), so it may be stored before the transaction that points the
	 * run at it. */
	name = sw_xasprintf("run-%lld-final.md", (long long)run_id);
	if ((rc = sw_record_add_text(&final_doc, m, SW_ORIGIN_HUMAN, name, o->final_text,
				     o->final_len, err)) != 0)
		goto cleanup;
	if (rep.njudged) {
		/* the judge's answers on the final: the model's words, kept */
		char *jn = sw_xasprintf("run-%lld-approve-judge.json", (long long)run_id);
		int64_t jid = 0;
		rc = sw__pipeline_judge_store(&jid, m, jn, &rep, err);
		free(jn);
		if (rc != 0)
			goto cleanup;
	}

	char now[21];
	sw_utc_now(now);
	if ((rc = sw__journal_begin(m, err)) != 0)
		goto cleanup;
	in_tx = true;
	struct sw__journal_approval ap = {
		.run_id = run_id, .step_key = key, .messages = messages, .draft = draft,
		.draft_doc_id = draft_doc, .final = o->final_text, .final_len = o->final_len,
		.final_doc_id = final_doc, .final_path = o->out_path, .diff = diff,
		.words = &ds, .override = rep.pass ? NULL : override, .overridden = overridden,
		.at = now, .by = o->by, .waivers = waived,
	};
	if ((rc = sw__journal_approve(&out->correction_id, m, &ap, err)) != 0)
		goto cleanup;
	/* The file last: a failure before it leaves nothing written, and
	 * one at it rolls the run back. */
	if ((rc = sw_file_write_atomic(o->out_path, o->final_text, o->final_len, err)) != 0)
		goto cleanup;
	if ((rc = sw__journal_commit(m, err)) != 0) {
		sw_err_wrap(err, rc, "the final was written to '%s' but the run is not approved",
			    o->out_path);
		goto cleanup;
	}
	in_tx = false;
	out->accepted = true;
	out->overridden = !rep.pass;
	out->words.kept = ds.kept;
	out->words.changed = ds.changed;
	out->words.added = ds.added;
	out->words.removed = ds.removed;
cleanup:
	if (in_tx)
		sw__journal_rollback(m);
	if (rc) {
		free(out->report_json);
		memset(out, 0, sizeof(*out));
	}
	rep.view = NULL;
	sw_verify_release(&rep);
	sw_waivers_release(&waivers);
	sw__pipeline_run_release(&run);
	sw_task_free(task);
	sw_markup_release(&view);
	json_decref(ops);
	free(status);
	free(final_path);
	free(key);
	free(messages);
	free(draft);
	free(override);
	free(overridden);
	free(waived);
	free(diff);
	free(name);
	return rc;
}
