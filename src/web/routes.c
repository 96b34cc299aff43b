/* routes.c - the JSON API's routes (docs/DESIGN.md, "sworn serve"): one
 * table of {method, pattern, handler}, matched against the path's segments
 * after /api/.  The dispatcher alone: the helpers its handlers share are
 * api.c's and reply.c's, so no handler calls back into this file. */
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"

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
	{ "GET", "m/:matter/qc", .matter = sw__web_qc },
	{ "GET", "m/:matter/qc.csv", .matter = sw__web_qc_csv },
	{ "POST", "m/:matter/verify", .matter = sw__web_verify },
	{ "POST", "m/:matter/verify.docx", .matter = sw__web_verify_docx },
	{ "POST", "m/:matter/waive", .matter = sw__web_waive },
	{ "GET", "m/:matter/runs/:run", .run = sw__web_run_show },
	{ "GET", "m/:matter/runs/:run/context", .run = sw__web_run_context },
	{ "GET", "m/:matter/runs/:run/draft", .run = sw__web_draft_get },
	{ "POST", "m/:matter/runs/:run/draft", .run = sw__web_draft_save },
	{ "GET", "m/:matter/runs/:run/draft.docx", .run = sw__web_draft_docx },
	{ "POST", "m/:matter/runs/:run/approve", .run = sw__web_approve },
	{ "GET", "m/:matter/runs/:run/certificate", .run = sw__web_run_certificate },
	{ "POST", "m/:matter/runs/:run/version", .run = sw__web_run_version },
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
