/* run_view_json.c - a run's typed view and the run list as the JSON that
 * `sworn run show --json`, `sworn run list --json` and the web API carry:
 * the one place that names their keys.  What the journal does not have is
 * null. */
#include <jansson.h>

#include "pipeline/pipeline_int.h"

static json_t *str_or_null(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

static json_t *count_or_null(int64_t n)
{
	return n >= 0 ? json_integer((json_int_t)n) : json_null();
}

static json_t *id_or_null(int64_t id)
{
	return id > 0 ? json_integer((json_int_t)id) : json_null();
}

static json_t *real_or_null(double x)
{
	return x >= 0 ? json_real(x) : json_null();
}

static json_t *step_json(const struct sw_run_step_view *s)
{
	json_t *o = json_object();
	json_t *detail = json_loads(s->detail ? s->detail : "{}", 0, NULL);
	json_object_set_new(o, "key", str_or_null(s->key));
	json_object_set_new(o, "step", str_or_null(s->step));
	json_object_set_new(o, "kind", str_or_null(s->kind));
	json_object_set_new(o, "item", id_or_null(s->item));
	json_object_set_new(o, "round", json_integer(s->round));
	json_object_set_new(o, "role", str_or_null(s->role));
	json_object_set_new(o, "endpoint", str_or_null(s->endpoint));
	json_object_set_new(o, "host", str_or_null(s->host));
	json_object_set_new(o, "model", str_or_null(s->model));
	json_object_set_new(o, "status", str_or_null(s->status));
	json_object_set_new(o, "error", str_or_null(s->error));
	json_object_set_new(o, "prompt_tokens", count_or_null(s->prompt_tokens));
	json_object_set_new(o, "completion_tokens", count_or_null(s->completion_tokens));
	json_object_set_new(o, "prompt_per_s", real_or_null(s->prompt_per_s));
	json_object_set_new(o, "predicted_per_s", real_or_null(s->predicted_per_s));
	json_object_set_new(o, "wall_s", real_or_null(s->wall_s));
	json_object_set_new(o, "attempts", json_integer(s->attempts));
	json_object_set_new(o, "started_at", str_or_null(s->started_at));
	json_object_set_new(o, "finished_at", str_or_null(s->finished_at));
	json_object_set_new(o, "prompt_sha256", str_or_null(s->prompt_sha256));
	json_object_set_new(o, "output_doc_id", id_or_null(s->output_doc_id));
	json_object_set_new(o, "detail", detail ? detail : json_null());
	return o;
}

json_t *sw_run_view_json(const struct sw_run_view *v)
{
	json_t *o = json_object(), *steps = json_array(), *flags = json_array();
	json_object_set_new(o, "id", json_integer((json_int_t)v->id));
	json_object_set_new(o, "task", str_or_null(v->task));
	json_object_set_new(o, "task_sha256", str_or_null(v->task_sha256));
	json_object_set_new(o, "task_source", str_or_null(v->task_source));
	json_object_set_new(o, "status", str_or_null(v->status));
	json_object_set_new(o, "reason", str_or_null(v->reason));
	json_object_set_new(o, "rounds", json_integer(v->rounds));
	json_object_set_new(o, "brief", str_or_null(v->brief));
	json_object_set_new(o, "created_at", str_or_null(v->created_at));
	json_object_set_new(o, "updated_at", str_or_null(v->updated_at));
	json_object_set_new(o, "wall_s", json_real(v->wall_s));
	json_object_set_new(o, "draft_doc_id", id_or_null(v->draft_doc_id));
	json_object_set_new(o, "final_doc_id", id_or_null(v->final_doc_id));
	json_object_set_new(o, "final_path", str_or_null(v->final_path));
	json_object_set_new(o, "matter", str_or_null(v->matter));
	for (size_t i = 0; i < v->nsteps; i++)
		json_array_append_new(steps, step_json(&v->steps[i]));
	for (size_t i = 0; i < v->nflags; i++) {
		const struct sw_run_flag_view *f = &v->flags[i];
		json_array_append_new(flags, json_pack("{s:o, s:o, s:o, s:o, s:o}",
						       "step", str_or_null(f->step),
						       "document", str_or_null(f->document),
						       "bates", str_or_null(f->bates),
						       "kind", str_or_null(f->kind),
						       "excerpt", str_or_null(f->excerpt)));
	}
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "flags", flags);
	return o;
}

json_t *sw_run_list_json(const struct sw_run_list *l)
{
	json_t *a = json_array();
	for (size_t i = 0; i < l->n; i++) {
		const struct sw_run_summary *r = &l->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_integer((json_int_t)r->id));
		json_object_set_new(o, "task", str_or_null(r->task));
		json_object_set_new(o, "status", str_or_null(r->status));
		json_object_set_new(o, "reason", str_or_null(r->reason));
		json_object_set_new(o, "brief", str_or_null(r->brief));
		json_object_set_new(o, "created_at", str_or_null(r->created_at));
		json_object_set_new(o, "updated_at", str_or_null(r->updated_at));
		json_object_set_new(o, "wall_s", json_real(r->wall_s));
		json_object_set_new(o, "steps", json_integer((json_int_t)r->steps));
		json_object_set_new(o, "steps_done", json_integer((json_int_t)r->steps_done));
		json_object_set_new(o, "final_path", str_or_null(r->final_path));
		json_array_append_new(a, o);
	}
	return a;
}

/* ------------------------------------------------------------ run stats */

json_t *sw_run_stats_to_json(const struct sw_run_stats *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->n; i++) {
		const struct sw_run_stats_row *r = &s->v[i];
		json_t *o = json_object();
		json_object_set_new(o, sw__run_stats_by_name(s->by), str_or_null(r->group));
		json_object_set_new(o, "runs", json_integer((json_int_t)r->runs));
		json_object_set_new(o, "first_draft_claims", count_or_null(r->first_draft_claims));
		json_object_set_new(o, "blocked_per_100_claims",
				    real_or_null(r->blocked_per_100_claims));
		json_object_set_new(o, "findings_per_draft", real_or_null(r->findings_per_draft));
		json_object_set_new(o, "rounds_to_verified", real_or_null(r->rounds_to_verified));
		json_object_set_new(o, "blocked_share", real_or_null(r->blocked_share));
		json_object_set_new(o, "corrections", json_integer((json_int_t)r->corrections));
		json_object_set_new(o, "edit_ratio", real_or_null(r->edit_ratio));
		json_object_set_new(o, "decode_tok_s", real_or_null(r->decode_tok_s));
		json_object_set_new(o, "prompt_tok_s", real_or_null(r->prompt_tok_s));
		json_object_set_new(o, "wall_s", real_or_null(r->wall_s));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *sw_run_stats_json(struct sw_matter *m, enum sw_stats_by by, struct sw_err *err)
{
	struct sw_run_stats s;
	if (sw_run_stats(&s, m, by, err) != 0)
		return NULL;
	json_t *j = sw_run_stats_to_json(&s);
	sw_run_stats_release(&s);
	return j;
}

/* ------------------------------------------------------ the context audit */

static json_t *shares_json(const struct sw_context_share *v, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, v[i].origin,
				    json_pack("{s:I, s:f, s:f}", "tokens", (json_int_t)v[i].tokens,
					      "share", v[i].share, "percent", v[i].percent));
	return o;
}

json_t *sw_run_context_to_json(const struct sw_run_context *c)
{
	json_t *out = json_object(), *steps = json_array(), *violations = json_array(),
	       *flags = json_array();
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct sw_context_step *s = &c->steps[i];
		json_t *js = json_object(), *secs = json_array();
		json_object_set_new(js, "key", str_or_null(s->key));
		json_object_set_new(js, "step", str_or_null(s->step));
		json_object_set_new(js, "kind", str_or_null(s->kind));
		json_object_set_new(js, "role", str_or_null(s->role));
		json_object_set_new(js, "endpoint", str_or_null(s->endpoint));
		for (size_t k = 0; k < s->nsections; k++) {
			const struct sw_context_section *x = &s->sections[k];
			json_t *o = json_object();
			json_object_set_new(o, "seq", json_integer((json_int_t)x->seq));
			json_object_set_new(o, "kind", str_or_null(x->kind));
			json_object_set_new(o, "origin", str_or_null(x->origin));
			json_object_set_new(o, "doc_id", id_or_null(x->doc_id));
			json_object_set_new(o, "document", str_or_null(x->document));
			json_object_set_new(o, "page", id_or_null(x->page));
			json_object_set_new(o, "bates", str_or_null(x->bates));
			json_object_set_new(o, "tokens", json_integer((json_int_t)x->tokens));
			json_object_set_new(o, "estimated", json_boolean(x->estimated));
			json_array_append_new(secs, o);
		}
		json_object_set_new(js, "sections", secs);
		json_object_set_new(js, "tokens", json_integer((json_int_t)s->tokens));
		json_object_set_new(js, "estimated", json_boolean(s->estimated));
		json_object_set_new(js, "by_origin", shares_json(s->by_origin, s->norigins));
		json_array_append_new(steps, js);
	}
	for (size_t i = 0; i < c->nviolations; i++) {
		const struct sw_context_violation *v = &c->violations[i];
		json_t *o = json_object();
		json_object_set_new(o, "step", str_or_null(v->step));
		json_object_set_new(o, "seq", json_integer((json_int_t)v->seq));
		json_object_set_new(o, "doc_id", id_or_null(v->doc_id));
		json_object_set_new(o, "document", str_or_null(v->document));
		json_object_set_new(o, "bates", str_or_null(v->bates));
		json_object_set_new(o, "reason", str_or_null(v->reason));
		json_array_append_new(violations, o);
	}
	for (size_t i = 0; i < c->nflags; i++) {
		const struct sw_run_flag_view *f = &c->flags[i];
		json_t *o = json_object();
		json_object_set_new(o, "step", str_or_null(f->step));
		json_object_set_new(o, "doc_id", id_or_null(f->doc_id));
		json_object_set_new(o, "document", str_or_null(f->document));
		json_object_set_new(o, "bates", str_or_null(f->bates));
		json_object_set_new(o, "kind", str_or_null(f->kind));
		json_object_set_new(o, "excerpt", str_or_null(f->excerpt));
		json_array_append_new(flags, o);
	}
	json_object_set_new(out, "run", json_integer((json_int_t)c->run));
	if (c->step)
		json_object_set_new(out, "step", sw_json_str(c->step));
	json_object_set_new(out, "steps", steps);
	json_object_set_new(out, "tokens", json_integer((json_int_t)c->tokens));
	json_object_set_new(out, "by_origin", shares_json(c->by_origin, c->norigins));
	json_object_set_new(out, "violations", violations);
	json_object_set_new(out, "flags", flags);
	return out;
}

json_t *sw_run_context_json(struct sw_matter *m, int64_t run_id, const char *step,
			    struct sw_err *err)
{
	struct sw_run_context c;
	if (sw_run_context(&c, m, run_id, step, err) != 0)
		return NULL;
	json_t *j = sw_run_context_to_json(&c);
	sw_run_context_release(&c);
	return j;
}
