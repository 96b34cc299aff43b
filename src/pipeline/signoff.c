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
			json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "at", or_null(s->approved_at),
				  "by", or_null(s->by), "email", or_null(s->by_email), "bar_number",
				  or_null(s->by_bar), "override", or_null(s->override), "overridden",
				  s->overridden ? json_loads(s->overridden, 0, NULL) : json_null()));
	else
		json_object_set_new(o, "approval", json_null());
	json_t *w = json_array();
	for (size_t i = 0; i < d->n; i++) {
		const struct sw_waiver *x = d->mine[i];
		json_array_append_new(w, json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id",
						   (json_int_t)x->id, "kind", or_null(x->kind),
						   "claim", or_null(x->claim), "verdict",
						   or_null(x->verdict), "reason", or_null(x->reason),
						   "by", or_null(x->by), "email", or_null(x->by_email),
						   "at", or_null(x->at)));
	}
	json_object_set_new(o, "waivers", w);
	return o;
}
