/* api.c - what every handler of the JSON API shares: query arguments read
 * with range checks, the body as JSON, the matter (and the authority
 * table) opened for one request; and the two handlers that need nothing
 * else (the session, the list of matters).  The routes are routes.c's. */
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "pipeline/pipeline.h"
#include "web/web_int.h"

const char *sw__web_arg(const struct sw__web_req *q, const char *name)
{
	return MHD_lookup_connection_value(q->conn, MHD_GET_ARGUMENT_KIND, name);
}

bool sw__web_arg_int(long long *out, const struct sw__web_req *q, struct sw__web_reply *r,
		     const char *name, long long lo, long long hi, bool required)
{
	const char *v = sw__web_arg(q, name);
	if (!v || !*v) {
		if (!required)
			return true;
		sw__web_reply_error(r, 400, "'%s' is missing", name);
		return false;
	}
	if (!sw_parse_int(v, lo, hi, out)) {
		sw__web_reply_error(r, 400, "bad '%s': give a whole number from %lld to %lld", name,
				    lo, hi);
		return false;
	}
	return true;
}

json_t *sw__web_body_json(const struct sw__web_req *q, struct sw__web_reply *r)
{
	json_error_t je;
	if (!sw_utf8_valid(q->body, q->body_len)) {
		sw__web_reply_error(r, 400, "the body is not UTF-8");
		return NULL;
	}
	json_t *j = json_loadb(q->body, q->body_len, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		sw__web_reply_error(r, 400, "the body is not JSON: %s (at %d:%d)", je.text, je.line,
				    je.column);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		sw__web_reply_error(r, 400, "the body is not a JSON object");
		return NULL;
	}
	return j;
}

struct sw_matter *sw__web_matter(const struct sw__web_req *q, struct sw__web_reply *r,
				 const char *name)
{
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	if (!sw_matter_name_valid(name)) {
		sw__web_reply_error(r, 404, "no matter is called so");
		return NULL;
	}
	if (sw_matter_open(&m, q->w->ws, name, &err) != 0 ||
	    sw_run_journal_open(m, &err) != 0) {
		sw_matter_close(m);
		sw__web_reply_err(r, &err);
		return NULL;
	}
	return m;
}

struct sw_authority *sw__web_authorities(const struct sw__web_req *q, struct sw__web_reply *r,
					 bool *ok)
{
	struct sw_authority *auth = NULL;
	struct sw_err err = { 0 };
	char *path = sw_path_join(q->w->ws->root, SW_AUTHORITY_DB_NAME);
	*ok = true;
	if (sw_path_is_file(path) && sw_authority_open(&auth, path, false, &err) != 0) {
		sw__web_reply_err(r, &err);
		r->status = 500;
		*ok = false;
	}
	free(path);
	return auth;
}

/* With the token: a new session for the page to keep; with a session:
 * that one.  Both with the CSRF value that POSTs send. */
void sw__web_session(struct sw__web_req *q, struct sw__web_reply *r)
{
	struct sw_web *w = q->w;
	char id[SW_WEB_TOKEN_HEX + 1];
	struct sw_err err = { 0 };
	if (q->session) {
		snprintf(id, sizeof(id), "%s", q->session);
	} else if (sw__web_session_new(&w->sessions, id, sw_now(), &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	json_t *doc = json_pack("{s:s, s:s, s:I, s:o, s:s, s:{s:I, s:I}}", "session", id, "csrf",
				w->csrf, "session_ttl_s", (json_int_t)w->sessions.ttl_s, "matter",
				w->matter ? sw_json_str(w->matter) : json_null(), "version",
				SW_VERSION, "limits", "draft_bytes", (json_int_t)SW_WEB_MAX_DRAFT,
				"claims", (json_int_t)SW_WEB_MAX_CLAIMS);
	/* who the server runs for: the page names them beside Approve */
	char *user = w->by ? sw_person_label(w->by) : NULL;
	json_object_set_new(doc, "user", user ? sw_json_str(user) : json_null());
	free(user);
	sw__web_reply_json(r, 200, doc);
}

void sw__web_matters(struct sw__web_req *q, struct sw__web_reply *r)
{
	char **names = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	if (sw_matter_list(&names, &n, q->w->ws, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		struct sw_matter *m = NULL;
		struct sw_matter_stats st;
		memset(&st, 0, sizeof(st));
		if (sw_matter_open(&m, q->w->ws, names[i], &err) != 0 ||
		    sw_matter_stats(&st, m, &err) != 0) {
			/* one broken matter does not hide the others */
			json_array_append_new(arr, json_pack("{s:o, s:n, s:n, s:o}", "name",
							     sw_json_str(names[i]), "documents",
							     "pages", "error", sw_json_str(err.msg)));
		} else {
			json_array_append_new(arr, json_pack("{s:o, s:I, s:I}", "name",
							     sw_json_str(names[i]), "documents",
							     (json_int_t)st.documents, "pages",
							     (json_int_t)st.pages));
		}
		sw_matter_stats_release(&st);
		sw_matter_close(m);
		sw_err_clear(&err);
		free(names[i]);
	}
	free(names);
	sw__web_reply_json(r, 200, json_pack("{s:o}", "matters", arr));
}
