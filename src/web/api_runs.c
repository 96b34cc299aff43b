/* api_runs.c - a matter's drafting runs through the browser: the list, one
 * run (polled while it runs), its context audit, its draft with the
 * verifier's report, the lawyer's saved edits, approval. */
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"
#include "markup/markup.h"
#include "pipeline/pipeline.h"

#define MAX_STEP_KEY 128

void sw__web_runs(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_err err = { 0 };
	(void)q;
	struct sw_run_list list;
	if (sw_run_list(&list, m, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	/* the object sworn run list --json prints */
	sw__web_reply_json(r, 200, json_pack("{s:o}", "runs", sw_run_list_json(&list)));
	sw_run_list_release(&list);
}

void sw__web_run_show(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		      int64_t id)
{
	(void)q;
	struct sw_err err = { 0 };
	struct sw_run_view v;
	struct sw_decisions d;
	if (sw_run_get(&v, m, id, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	if (sw_decisions_get(&d, m, id, &err) != 0) {
		sw_run_view_release(&v);
		sw__web_reply_err(r, &err);
		return;
	}
	/* the run with its decisions: who approved, an override, its waivers */
	json_t *doc = sw_run_view_json(&v);
	json_object_update_new(doc, sw_decisions_json(&d));
	sw__web_reply_json(r, 200, doc);
	sw_decisions_release(&d);
	sw_run_view_release(&v);
}

void sw__web_run_context(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			 int64_t id)
{
	struct sw_err err = { 0 };
	const char *step = sw__web_arg(q, "step");
	if (step && (!*step || strlen(step) > MAX_STEP_KEY || !sw_utf8_valid(step, strlen(step)))) {
		sw__web_reply_error(r, 400, "bad 'step': give a step's key (draft, verify#0, ...)");
		return;
	}
	json_t *doc = sw_run_context_json(m, id, step, &err);
	if (!doc)
		sw__web_reply_err(r, &err);
	else
		sw__web_reply_json(r, 200, doc);
}

/* A draft reads as pipeline/ reads a final: Markdown, or HTML when it is
 * an HTML page. */
static int draft_kind(const char *text, size_t len)
{
	return sw_markup_kind_for(NULL, text, len) == SW_MARKUP_HTML ? SW_MARKUP_HTML
								      : SW_MARKUP_MARKDOWN;
}

/* The run's current text: the saved edit, else its own draft. */
static int current_text(char **text, int64_t *version, struct sw_matter *m, int64_t id,
			struct sw_err *err)
{
	char *draft = NULL;
	int rc;
	*text = NULL;
	/* the run's own draft first: no run, or none yet, is a 404 even
	 * when an edit were somehow saved */
	if ((rc = sw_run_draft(&draft, m, id, err)) != 0)
		return rc;
	if ((rc = sw_run_edit_get(text, version, m, id, err)) != 0) {
		free(draft);
		return rc;
	}
	if (*text)
		free(draft);
	else
		*text = draft;
	return 0;
}

void sw__web_draft_get(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		       int64_t id)
{
	struct sw_err err = { 0 };
	char *text = NULL, name[64];
	int64_t version = 0;
	json_t *report = NULL;
	bool ok;
	struct sw_authority *auth = NULL;

	if (current_text(&text, &version, m, id, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	auth = sw__web_authorities(q, r, &ok);
	if (!ok)
		goto cleanup;
	size_t len = strlen(text);
	snprintf(name, sizeof(name), "run %lld draft", (long long)id);
	if (sw__web_verify_json(&report, q->w, m, auth, text, len, draft_kind(text, len), name,
				NULL, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	sw__web_reply_json(r, 200, json_pack("{s:o, s:I, s:b, s:o}", "text", sw_json_str(text),
					     "version", (json_int_t)version, "edited", version > 0,
					     "report", report));
cleanup:
	sw_authority_close(auth);
	free(text);
}

/* A string member of body (NULL with a 400 reply when it is absent or not
 * a string, and required). */
static const char *body_str(json_t *body, struct sw__web_reply *r, const char *key,
			    size_t *len, bool required)
{
	json_t *v = json_object_get(body, key);
	if (!v && !required)
		return NULL;
	if (!json_is_string(v)) {
		sw__web_reply_error(r, 400, "\"%s\" must be a string", key);
		return NULL;
	}
	if (len)
		*len = json_string_length(v);
	return json_string_value(v);
}

void sw__web_draft_save(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			int64_t id)
{
	struct sw_err err = { 0 };
	char *draft = NULL, *current = NULL;
	long long base = 0;
	int64_t version = 0;
	size_t len = 0;
	json_t *body = sw__web_body_json(q, r);
	if (!body)
		return;
	const char *text = body_str(body, r, "text", &len, true);
	if (!text)
		goto cleanup;
	if (!sw_json_int(json_object_get(body, "base_version"), 0, INT64_MAX - 1, &base)) {
		sw__web_reply_error(r, 400, "\"base_version\" must be the version the edit was "
					    "made from (0 for the run's own draft)");
		goto cleanup;
	}
	/* only a run that has a draft has edits */
	if (sw_run_draft(&draft, m, id, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	int rc = sw_run_edit_save(&version, &current, m, id, base, text, len, &err);
	if (rc == SW_EEXIST) {
		sw__web_reply_json(r, 409, json_pack("{s:o, s:I, s:o}", "error", sw_json_str(err.msg),
						     "version", (json_int_t)version, "text",
						     sw_json_str(current ? current : draft)));
	} else if (rc != 0) {
		sw__web_reply_err(r, &err);
	} else {
		sw__web_reply_json(r, 200, json_pack("{s:I}", "version", (json_int_t)version));
	}
cleanup:
	free(draft);
	free(current);
	json_decref(body);
}

void sw__web_approve(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		     int64_t id)
{
	struct sw_err err = { 0 };
	struct sw_approve_result res;
	struct sw_authority *auth = NULL;
	char *dir = NULL, *out = NULL, name[64];
	size_t len = 0;
	bool ok;

	memset(&res, 0, sizeof(res));
	json_t *body = sw__web_body_json(q, r);
	if (!body)
		return;
	const char *text = body_str(body, r, "text", &len, true);
	if (!text)
		goto cleanup;
	if (sw__web_verify_bounds(m, text, len, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	const char *override = NULL;
	json_t *ov = json_object_get(body, "override");
	if (ov && !json_is_null(ov)) {
		if (!(override = body_str(body, r, "override", NULL, true)))
			goto cleanup;
		if (!*override) {
			sw__web_reply_error(r, 400, "an override needs its reason (it is recorded "
						    "with the verdicts it overrides)");
			goto cleanup;
		}
		/* an override is someone's decision, as on the command line */
		if (!q->w->by) {
			sw__web_reply_error(r, 400, "an override needs the name of the person who "
						    "decides: restart sworn serve with --by NAME, or put "
						    "[user] name = ... in user.conf or sworn.conf");
			goto cleanup;
		}
	}
	auth = sw__web_authorities(q, r, &ok);
	if (!ok)
		goto cleanup;
	/* where sworn run approve writes it by default */
	dir = sw_path_join(sw_matter_dir(m), "finals");
	if (sw_mkdir_p(dir, 0755, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	out = sw_xasprintf("%s/run-%lld-final.md", dir, (long long)id);
	snprintf(name, sizeof(name), "run-%lld-final.md", (long long)id);
	struct sw_approve_opts ao = {
		.final_text = text,
		.final_len = len,
		.final_name = name,
		.override = override,
		.auth = auth,
		.out_path = out,
		.judge = q->w->judge, /* as sworn run approve: the judge as configured */
		.by = q->w->by,       /* who the server runs for */
		.ws = q->w->ws,       /* the run's task and [verify] */
	};
	if (sw_run_approve(&res, m, id, &ao, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	json_t *report = res.report_json ? json_loads(res.report_json, 0, NULL) : NULL;
	if (!res.accepted) {
		char msg[160];
		snprintf(msg, sizeof(msg),
			 "the draft has %zu blocked claim%s: fix them, or give an override reason",
			 res.blocked, res.blocked == 1 ? "" : "s");
		sw__web_reply_json(r, 409, json_pack("{s:s, s:o}", "error", msg, "report",
						     report ? report : json_null()));
		goto cleanup;
	}
	/* the object sworn run approve --json prints */
	json_t *doc = json_pack("{s:I, s:b, s:b, s:I, s:I, s:I, s:o}", "run", (json_int_t)id,
				"accepted", res.accepted, "overridden", res.overridden, "claims",
				(json_int_t)res.claims, "blocked", (json_int_t)res.blocked,
				"correction", (json_int_t)res.correction_id, "final", sw_json_str(out));
	if (report)
		json_object_set_new(doc, "report", report);
	sw__web_reply_json(r, 200, doc);
cleanup:
	sw_approve_result_release(&res);
	sw_authority_close(auth);
	free(dir);
	free(out);
	json_decref(body);
}
