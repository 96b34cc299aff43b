/* api_waive.c - POST /api/m/M/waive: a lawyer's waiver of one blocked claim
 * of a draft, given in the page as sworn verify --waive gives it, by the
 * person sworn serve runs for. */
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"
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
		sw__web_reply_error(r, 400, "a waiver needs \"text\", \"claim\" (its fingerprint) and "
					    "\"reason\" as strings, and \"run\" a run's number or null");
		goto cleanup;
	}
	if (!q->w->by) {
		sw__web_reply_error(r, 409, "nobody is named to give a waiver: start sworn serve "
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
