/* api_waive.c - the sign-off's API: POST /api/m/M/waive, a lawyer's waiver
 * of one blocked claim of a draft, given in the page as sworn verify
 * --waive gives it, by the person sworn serve runs for; and GET
 * /runs/ID/certificate, an approved run's certificate for the page's
 * Print. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "web/web_int.h"
#include "llm/llm.h"
#include "markup/markup.h"
#include "pipeline/pipeline.h"
#include "verify/verify.h"

/* {"text": the draft as verified, "claim": its fingerprint (or number),
 * "reason": one line, "run": the run it belongs to (optional)}. */
void sw__web_waive(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_err err = { 0 };
	struct sw_markup view = { 0 };
	struct sw_verify_report rep = { 0 };
	struct sw_authority *auth = NULL;
	long long run = 0;
	bool ok;
	json_t *body = sw__web_body_json(q, r);
	if (!body)
		return;
	json_t *t = json_object_get(body, "text"), *c = json_object_get(body, "claim"),
	       *why = json_object_get(body, "reason"), *rid = json_object_get(body, "run");
	if (!json_is_string(t) || !json_is_string(c) || !json_is_string(why) ||
	    (rid && !json_is_null(rid) && !sw_json_int(rid, 1, INT64_MAX, &run))) {
		sw__web_reply_error(r, 400,
				    "a waiver needs \"text\", \"claim\" (its fingerprint) and "
				    "\"reason\" as strings, and \"run\" a run's number or null");
		goto cleanup;
	}
	if (!q->w->by) {
		sw__web_reply_error(r, 409,
				    "nobody is named to give a waiver: start sworn serve "
				    "with --by NAME, or put [user] name = ... in sworn.conf");
		goto cleanup;
	}
	const char *text = json_string_value(t);
	size_t len = json_string_length(t);
	if (sw_markup_parse(&view, SW_MARKUP_MARKDOWN, text, len, &err) != 0 ||
	    sw__web_verify_bounds(m, view.text, view.len, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	auth = sw__web_authorities(q, r, &ok);
	if (!ok)
		goto cleanup;
	struct sw_verify_opts vo = { .lenient = false };
	int64_t id = 0;
	long k = -1;
	if (sw_verify(&rep, m, auth, view.text, view.len, &vo, &err) != 0 ||
	    sw_waiver_give(&id, &k, m, &rep, json_string_value(c), run, json_string_value(why),
			   q->w->by, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	sw__web_reply_json(r, 200, json_pack("{s:I, s:I, s:s, s:s}", "waiver", (json_int_t)id,
					     "claim", (json_int_t)(k + 1), "by", q->w->by->name,
					     "reason", json_string_value(why)));
cleanup:
	sw_verify_release(&rep);
	sw_markup_release(&view);
	sw_authority_close(auth);
	json_decref(body);
}

/* {"markdown": the certificate of an approved run, "certificate": its
 * JSON}; 409 for a run that is not approved. */
void sw__web_run_certificate(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			     int64_t id)
{
	struct sw_err err = { 0 };
	struct sw_llm_config llm = { 0 };
	struct sw_authority *auth = NULL;
	struct sw_buf md = SW_BUF_INIT;
	json_t *cert = NULL;
	char updated[21] = "";
	struct stat sb;
	struct tm tm;
	bool ok;

	auth = sw__web_authorities(q, r, &ok);
	if (!ok)
		goto cleanup;
	char *path = sw_path_join(q->w->ws->root, SW_AUTHORITY_DB_NAME);
	if (auth && stat(path, &sb) == 0 && gmtime_r(&sb.st_mtime, &tm))
		strftime(updated, sizeof(updated), "%Y-%m-%dT%H:%M:%SZ", &tm);
	free(path);
	if (sw_llm_config_load(&llm, &q->w->ws->config, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	struct sw_certify_opts co = { .auth = auth,
				      .authorities_updated = updated[0] ? updated : NULL,
				      .version = SW_VERSION,
				      .commit = q->w->commit,
				      .llm = &llm };
	if (sw_certify(&cert, m, id, &co, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	sw_certify_markdown(&md, cert);
	sw__web_reply_json(r, 200, json_pack("{s:s%, s:O}", "markdown", md.data ? md.data : "",
					     md.len, "certificate", cert));
cleanup:
	json_decref(cert);
	sw_buf_release(&md);
	sw_llm_config_release(&llm);
	sw_authority_close(auth);
}

/* POST /runs/ID/version: a new run from an approved run's final, to edit
 * (the approved run stays frozen): {"run": its id}. */
void sw__web_run_version(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			 int64_t id)
{
	struct sw_err err = { 0 };
	int64_t nid = 0;
	json_t *body = sw__web_body_json(q, r);
	if (!body)
		return;
	if (sw_run_new_version(&nid, m, id, &err) != 0)
		sw__web_reply_err(r, &err);
	else
		sw__web_reply_json(r, 200, json_pack("{s:I, s:I}", "run", (json_int_t)nid,
						     "version_of", (json_int_t)id));
	json_decref(body);
}
