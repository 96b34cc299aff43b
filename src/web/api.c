/* api.c - the JSON API's routes (docs/DESIGN.md, "sworn serve"), the
 * session, and what every handler shares: query arguments read with range
 * checks, the body as JSON, the matter opened for one request. */
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

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
	if (sw_matter_open(&m, q->w->ws, name, &err) != 0) {
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

void sw__web_session(struct sw__web_req *q, struct sw__web_reply *r)
{
	const struct sw_web *w = q->w;
	sw__web_reply_json(r, 200, json_pack("{s:s, s:o, s:s}", "csrf", w->csrf, "matter",
					     w->matter ? sw_json_str(w->matter) : json_null(),
					     "version", SW_VERSION));
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

/* The API's routes: a request is matched against each pattern (the path's
 * segments after /api/; ":matter" is a matter's name, opened for this
 * request only; ":run" a run's number), and answered by the one handler
 * set.  A path that matches only with another method is 405. */
struct route {
	const char *method; /* "GET" (HEAD too) or "POST" */
	const char *pattern;
	void (*plain)(struct sw__web_req *q, struct sw__web_reply *r);
	void (*matter)(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
	void (*run)(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		    int64_t run_id);
};

static const struct route routes[] = {
	{ "GET", "session", .plain = sw__web_session },
	{ "GET", "matters", .plain = sw__web_matters },
	{ "GET", "m/:matter/docs", .matter = sw__web_docs },
	{ "GET", "m/:matter/search", .matter = sw__web_search },
	{ "GET", "m/:matter/page", .matter = sw__web_page },
	{ "GET", "m/:matter/page.png", .matter = sw__web_page_png },
	{ "GET", "m/:matter/runs", .matter = sw__web_runs },
	{ "POST", "m/:matter/verify", .matter = sw__web_verify },
	{ "GET", "m/:matter/runs/:run", .run = sw__web_run_show },
	{ "GET", "m/:matter/runs/:run/context", .run = sw__web_run_context },
	{ "GET", "m/:matter/runs/:run/draft", .run = sw__web_draft_get },
	{ "POST", "m/:matter/runs/:run/draft", .run = sw__web_draft_save },
	{ "POST", "m/:matter/runs/:run/approve", .run = sw__web_approve },
};

/* Whether seg[0..nseg) has pattern's shape: *matter and *run get the
 * segments that stand for ":matter" and ":run" (NULL when it has none). */
static bool match(const char *pattern, char **seg, size_t nseg, const char **matter,
		  const char **run)
{
	size_t i = 0;
	*matter = *run = NULL;
	for (const char *p = pattern; *p; i++) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (i >= nseg)
			return false;
		if (len == 7 && !strncmp(p, ":matter", 7))
			*matter = seg[i];
		else if (len == 4 && !strncmp(p, ":run", 4))
			*run = seg[i];
		else if (strlen(seg[i]) != len || strncmp(seg[i], p, len) != 0)
			return false;
		p += len + (end != NULL);
	}
	return i == nseg;
}

void sw__web_api(struct sw__web_req *q, struct sw__web_reply *r, char **seg, size_t nseg)
{
	const struct route *hit = NULL, *other = NULL;
	const char *name = NULL, *run = NULL;
	r->api = true;
	for (size_t i = 0; i < SW_ARRAY_LEN(routes) && !hit; i++) {
		const char *n, *k;
		if (!match(routes[i].pattern, seg, nseg, &n, &k))
			continue;
		if (q->post == !strcmp(routes[i].method, "POST")) {
			hit = &routes[i];
			name = n;
			run = k;
		} else if (!other) {
			other = &routes[i];
		}
	}
	if (!hit) {
		if (other)
			sw__web_reply_error(r, 405, "use %s here", other->method);
		else
			sw__web_reply_error(r, 404, "no such address");
		return;
	}
	long long run_id = 0;
	if (run && !sw_parse_int(run, 1, INT64_MAX, &run_id)) {
		sw__web_reply_error(r, 404, "bad run '%s': give the run's number", run);
		return;
	}
	if (hit->plain) {
		hit->plain(q, r);
		return;
	}
	struct sw_matter *m = sw__web_matter(q, r, name);
	if (!m)
		return;
	if (hit->matter)
		hit->matter(q, r, m);
	else
		hit->run(q, r, m, run_id);
	sw_matter_close(m);
}
