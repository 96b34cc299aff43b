/* cli_signoff.c - the person who decides and a waiver given on a verified
 * draft, for the commands that record a lawyer's decision (cli_signoff.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli_signoff.h"

int cli_person(struct sw_person *out, const struct cli_ctx *ctx, const char *by,
	       struct sw_err *err)
{
	return sw_person_resolve(out, ctx->have_ws ? &ctx->ws.config : NULL, by, err);
}

/* Store the waiver of the claim claim_id names, by the person --by or the
 * configuration names. */
static int add(long *waived, struct sw_verify_report *rep, struct sw_matter *m,
	       const struct cli_ctx *ctx, const char *claim_id, const char *reason, const char *by,
	       int64_t run_id, struct sw_err *err)
{
	struct sw_person who;
	int64_t id = 0;
	/* the claim and the reason first: their errors say more than a missing
	 * person's */
	long i = sw_verify_claim_find(rep, claim_id);
	if (i >= 0 && rep->verdicts[i].verdict != SW_VERDICT_SUPPORTED &&
	    sw_waiver_check_reason(reason, err) == 0) {
		int rc = cli_person(&who, ctx, by, err);
		if (rc != 0)
			return rc == SW_ENOTFOUND ? SW_EUSAGE : rc;
		rc = sw_waiver_give(&id, waived, m, rep, claim_id, run_id, reason, &who, err);
		sw_person_release(&who);
		return rc;
	}
	return sw_waiver_give(&id, waived, m, rep, claim_id, run_id, reason, NULL, err);
}

int cli_waive(struct sw_waivers *w, long *waived, struct sw_verify_report *rep,
	      struct sw_matter *m, const struct cli_ctx *ctx, const char *claim_id,
	      const char *reason, const char *by, int64_t run_id, struct sw_err *err)
{
	long k = -1;
	int rc = 0;
	memset(w, 0, sizeof(*w));
	if (waived)
		*waived = -1;
	if (!claim_id && reason)
		return sw_err_set(err, SW_EUSAGE, "--reason goes with --waive CLAIM");
	if (claim_id && (rc = add(&k, rep, m, ctx, claim_id, reason, by, run_id, err)) != 0)
		return rc;
	if ((rc = sw_waivers_load(w, m, err)) != 0)
		return rc;
	sw_waivers_apply(rep, w);
	if (waived)
		*waived = k;
	return 0;
}

int cli_authority_open(struct sw_authority **out, char **updated, const struct cli_ctx *ctx,
		       struct sw_err *err)
{
	struct stat st;
	struct tm tm;
	char t[21];
	*out = NULL;
	*updated = NULL;
	char *path = sw_path_join(ctx->ws.root, SW_AUTHORITY_DB_NAME);
	int rc = 0;
	if (sw_path_is_file(path) && (rc = sw_authority_open(out, path, false, err)) == 0 &&
	    stat(path, &st) == 0 && gmtime_r(&st.st_mtime, &tm) &&
	    strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0)
		*updated = sw_xstrdup(t);
	free(path);
	return rc;
}

/* ------------------------------------------------- decisions, as shown */

static json_t *or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void cli_signoff_print(FILE *f, const struct sw_decisions *c)
{
	const struct sw_signoff *s = &c->s;
	if (s->parent_run_id)
		fprintf(f, "\na new version of approved run %lld\n", (long long)s->parent_run_id);
	if (s->approved_at) {
		sw_term_printf(f, "\napproved by %s on %s%s%s\n",
			       s->by ? s->by : "(nobody named)", s->approved_at,
			       s->override ? " with an override" : "",
			       s->override ? "" : ": the gate passed");
		if (s->override)
			sw_term_printf(f, "  override: %s\n", s->override);
	}
	if (c->n)
		fprintf(f, "%swaived claims (%zu):\n", s->approved_at ? "" : "\n", c->n);
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_waiver *x = c->mine[i];
		sw_term_printf(f, "  waived  %s %s (was %s) by %s on %s: %s\n", x->kind, x->claim,
			       x->verdict, x->by, x->at, x->reason);
	}
}

void cli_signoff_status(char *out, size_t outsz, const struct sw_decisions *c,
			const char *status)
{
	bool ov = c->s.override != NULL;
	if (!status || strcmp(status, "approved") != 0 || (!ov && c->n == 0)) {
		snprintf(out, outsz, "%s", status ? status : "-");
		return;
	}
	char w[32] = "";
	if (c->n)
		snprintf(w, sizeof(w), "%zu waiver%s", c->n, c->n == 1 ? "" : "s");
	snprintf(out, outsz, "approved (%s%s%s)", ov ? "override" : "", ov && c->n ? ", " : "", w);
}

void cli_blocked_print(FILE *f, const char *report_json)
{
	json_t *r = report_json ? json_loads(report_json, 0, NULL) : NULL;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(r, "claims"), i, c)
	{
		const char *v = json_string_value(json_object_get(c, "verdict"));
		if (!v || !strcmp(v, "supported") || !strcmp(v, "waived"))
			continue;
		sw_term_printf(f, "  %lld:%lld  %-12s %-11s %s\n      %s\n",
			       (long long)json_integer_value(json_object_get(c, "line")),
			       (long long)json_integer_value(json_object_get(c, "column")), v,
			       json_string_value(json_object_get(c, "kind")),
			       json_string_value(json_object_get(c, "text")),
			       json_string_value(json_object_get(c, "reason")));
	}
	/* what the task requires and the final lacks blocks too */
	json_array_foreach(json_object_get(r, "uncited"), i, c)
		if (json_is_true(json_object_get(c, "blocks")))
			sw_term_printf(f, "  uncited: %s\n      states %s and cites nothing\n",
				       json_string_value(json_object_get(c, "text")),
				       json_string_value(json_object_get(c, "facts")));
	json_array_foreach(json_object_get(r, "missing_elements"), i, c)
		sw_term_printf(f, "  missing: the task requires %s; the final has none\n",
			       json_string_value(c));
	if (json_is_true(json_object_get(r, "no_record_citation")))
		fputs("  missing: the task expects record support; the final cites no record\n", f);
	json_decref(r);
}

/* ------------------------------------------------------ the matter audit */

int cli_signoff_audit(struct json_t **out, struct sw_matter *m, struct sw_err *err)
{
	struct sw_run_list runs;
	struct sw_waivers w;
	int rc;
	*out = NULL;
	if ((rc = sw_run_list(&runs, m, err)) != 0)
		return rc;
	if ((rc = sw_waivers_load(&w, m, err)) != 0) {
		sw_run_list_release(&runs);
		return rc;
	}
	json_t *approvals = json_array(), *waivers = json_array();
	for (size_t i = runs.n; i-- > 0 && rc == 0;) {
		const struct sw_run_summary *r = &runs.v[i];
		struct sw_signoff s;
		if (!r->status || strcmp(r->status, "approved") != 0)
			continue;
		if ((rc = sw_signoff_get(&s, m, r->id, err)) != 0)
			break;
		json_array_append_new(approvals,
				      json_pack("{s:I, s:o, s:o, s:o}", "run", (json_int_t)r->id,
						"at", or_null(s.approved_at), "by", or_null(s.by),
						"override", or_null(s.override)));
		sw_signoff_release(&s);
	}
	for (size_t i = 0; i < w.n; i++) {
		const struct sw_waiver *x = &w.v[i];
		json_t *o =
			json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s}", "id", (json_int_t)x->id,
				  "kind", x->kind, "claim", x->claim, "verdict", x->verdict,
				  "reason", x->reason, "by", x->by, "at", x->at);
		json_object_set_new(o, "run", x->run_id ? json_integer((json_int_t)x->run_id)
							: json_null());
		json_array_append_new(waivers, o);
	}
	sw_waivers_release(&w);
	sw_run_list_release(&runs);
	if (rc) {
		json_decref(approvals);
		json_decref(waivers);
		return rc;
	}
	*out = json_pack("{s:o, s:o}", "approvals", approvals, "waivers", waivers);
	return 0;
}

void cli_signoff_audit_print(FILE *f, const struct json_t *a)
{
	const json_t *ap = json_object_get(a, "approvals"), *wv = json_object_get(a, "waivers");
	size_t i;
	json_t *x;
	fprintf(f, "sign-off decisions (%zu approvals, %zu waivers):\n", json_array_size(ap),
		json_array_size(wv));
	json_array_foreach(ap, i, x)
	{
		const char *ov = json_string_value(json_object_get(x, "override"));
		const char *by = json_string_value(json_object_get(x, "by"));
		sw_term_printf(f, "  %s  approved    run %lld by %s%s%s\n",
			       json_string_value(json_object_get(x, "at")),
			       (long long)json_integer_value(json_object_get(x, "run")),
			       by ? by : "(nobody named)", ov ? " with override: " : "",
			       ov ? ov : "");
	}
	json_array_foreach(wv, i, x)
		sw_term_printf(f, "  %s  waived      %s %s (was %s) by %s: %s\n",
			       json_string_value(json_object_get(x, "at")),
			       json_string_value(json_object_get(x, "kind")),
			       json_string_value(json_object_get(x, "claim")),
			       json_string_value(json_object_get(x, "verdict")),
			       json_string_value(json_object_get(x, "by")),
			       json_string_value(json_object_get(x, "reason")));
}
