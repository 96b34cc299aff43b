/* signoff.c - a run's decisions as the views show them (pipeline.h,
 * "sign-off"): its sign-off and the waivers that are its own, and their
 * JSON, the one shape sworn run show --json and sworn serve's run page
 * read. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pipeline/pipeline_int.h"

/* Whether waiver x belongs to the run s: given in it, or applied to its
 * final on approval (ids: the approval's JSON array, or NULL). */
static bool of_run(const struct sw_waiver *x, const struct sw_signoff *s, const json_t *ids)
{
	size_t i;
	json_t *v;
	if (x->run_id == s->run_id)
		return true;
	json_array_foreach(ids, i, v)
		if (json_integer_value(v) == x->id)
			return true;
	return false;
}

int sw_decisions_get(struct sw_decisions *out, struct sw_matter *m, int64_t run_id,
		     struct sw_err *err)
{
	int rc;
	memset(out, 0, sizeof(*out));
	if ((rc = sw_signoff_get(&out->s, m, run_id, err)) != 0)
		return rc;
	if ((rc = sw_waivers_load(&out->all, m, err)) != 0) {
		sw_signoff_release(&out->s);
		return rc;
	}
	json_t *ids = out->s.waivers ? json_loads(out->s.waivers, 0, NULL) : NULL;
	out->mine = sw_xcalloc(out->all.n + 1, sizeof(*out->mine));
	for (size_t i = 0; i < out->all.n; i++)
		if (of_run(&out->all.v[i], &out->s, ids))
			out->mine[out->n++] = &out->all.v[i];
	json_decref(ids);
	return 0;
}

void sw_decisions_release(struct sw_decisions *d)
{
	if (!d)
		return;
	sw_signoff_release(&d->s);
	sw_waivers_release(&d->all);
	free(d->mine);
	memset(d, 0, sizeof(*d));
}

static json_t *or_null(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

struct json_t *sw_decisions_json(const struct sw_decisions *d)
{
	json_t *o = json_object();
	const struct sw_signoff *s = &d->s;
	if (s->approved_at)
		json_object_set_new(
			o, "approval",
			json_pack(
				"{s:o, s:o, s:o, s:o, s:o, s:o}", "at", or_null(s->approved_at),
				"by", or_null(s->by), "email", or_null(s->by_email), "bar_number",
				or_null(s->by_bar), "override", or_null(s->override), "overridden",
				s->overridden ? json_loads(s->overridden, 0, NULL) : json_null()));
	else
		json_object_set_new(o, "approval", json_null());
	json_t *w = json_array();
	for (size_t i = 0; i < d->n; i++) {
		const struct sw_waiver *x = d->mine[i];
		json_array_append_new(
			w, json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id",
				     (json_int_t)x->id, "kind", or_null(x->kind), "claim",
				     or_null(x->claim), "verdict", or_null(x->verdict), "reason",
				     or_null(x->reason), "by", or_null(x->by), "email",
				     or_null(x->by_email), "at", or_null(x->at)));
	}
	json_object_set_new(o, "waivers", w);
	json_object_set_new(o, "version_of",
			    s->parent_run_id ? json_integer((json_int_t)s->parent_run_id)
					     : json_null());
	return o;
}

int sw_waiver_give(int64_t *id, long *index, struct sw_matter *m,
		   const struct sw_verify_report *r, const char *claim_id, int64_t run_id,
		   const char *reason, const struct sw_person *by, struct sw_err *err)
{
	int rc;
	*id = 0;
	*index = -1;
	long i = sw_verify_claim_find(r, claim_id);
	if (i == -2)
		return sw_err_set(err, SW_EUSAGE,
				  "claim %s: that fingerprint's start names more than one claim; "
				  "give more of it", claim_id);
	if (i < 0)
		return sw_err_set(err, SW_EUSAGE,
				  "claim %s: no such claim; give a claim's number (1 to %zu) or "
				  "its fingerprint from --json", claim_id, r->claims.n);
	const struct sw_claim_verdict *v = &r->verdicts[i];
	if (v->verdict == SW_VERDICT_SUPPORTED ||
	    (v->verdict == SW_VERDICT_UNVERIFIABLE && r->lenient))
		return sw_err_set(err, SW_EUSAGE, "claim %s is %s and does not block: "
				  "nothing to waive", claim_id, sw_verdict_name(v->verdict));
	if ((rc = sw_waiver_check_reason(reason, err)) != 0)
		return rc;
	if (!by || !by->name)
		return sw_err_set(err, SW_EUSAGE,
				  "a waiver needs the person who gives it: give --by NAME, or put "
				  "[user] name = ... in sworn.conf or user.conf");
	if ((rc = sw_waiver_add(id, m, r, (size_t)i, run_id, reason, by, err)) == 0)
		*index = i;
	return rc;
}
