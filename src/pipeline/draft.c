/* draft.c - the drafting steps of a run: one instance per step, or one per
 * item of an earlier step's JSON list (a fan-out), joins, and the loop that
 * starts every ready instance while its endpoint has a free slot, so that
 * steps on different boards run at once. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pipeline/run_int.h"

static size_t step_index(const struct sw_task *t, const struct sw_task_step *st)
{
	return (size_t)(st - t->steps);
}

static bool step_complete(struct sw__pipeline_engine *e, const struct sw_task_step *st)
{
	size_t found = 0;
	if (!st)
		return false;
	if (st->fan_out && !e->expanded[step_index(e->t, st)])
		return false;
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i]->step == st) {
			if (e->v[i]->status != SW__PIPELINE_ST_DONE)
				return false;
			found++;
		}
	return found > 0;
}

/* A complete step's output: its one instance's, or a fan-out's joined in
 * item order.  Caller frees. */
static char *step_output(struct sw__pipeline_engine *e, const struct sw_task_step *st, const char *sep)
{
	struct sw_buf b;
	bool first = true;

	sw_buf_init(&b);
	for (size_t i = 0; i < e->n; i++) {
		struct sw__pipeline_inst *x = e->v[i];
		if (x->step != st || !x->output)
			continue;
		if (!first)
			sw_buf_adds(&b, sep ? sep : "\n\n");
		sw_buf_adds(&b, x->output);
		first = false;
	}
	return sw_buf_detach(&b, NULL);
}

static const struct sw_task_step *find_step(const struct sw_task *t, const char *name)
{
	return name ? sw_task_step_find(t, name) : NULL;
}

/* Make the instances of fan-out step st from its parent's list. */
static void expand(struct sw__pipeline_engine *e, const struct sw_task_step *st)
{
	const struct sw_task_step *parent = find_step(e->t, st->fan_out);
	struct sw__pipeline_inst *px = NULL;
	json_t *root, *list;
	char *why = NULL;

	for (size_t i = 0; i < e->n; i++)
		if (e->v[i]->step == parent)
			px = e->v[i];
	if (!px || !px->output)
		return;
	root = json_loads(px->output, JSON_DECODE_ANY, NULL);
	list = st->fan_key ? json_object_get(root, st->fan_key) : root;
	if (!json_is_array(list) || json_array_size(list) == 0)
		why = sw_xasprintf("the answer has no %s%s%s list for step %s to fan out over",
				   st->fan_key ? "\"" : "", st->fan_key ? st->fan_key : "top-level",
				   st->fan_key ? "\"" : "", st->name);
	else if (json_array_size(list) > SW_TASK_MAX_FANOUT)
		why = sw_xasprintf("the answer lists %zu items for step %s; at most %d",
				   json_array_size(list), st->name, SW_TASK_MAX_FANOUT);
	if (why) {
		/* the parent runs again on resume */
		sw__pipeline_run_fail(e, px, SW_EINPUT, why);
		free(why);
		json_decref(root);
		return;
	}
	size_t i;
	json_t *item;
	json_array_foreach(list, i, item) {
		char key[160];
		snprintf(key, sizeof(key), "%s#%zu", st->name, i + 1);
		struct sw__pipeline_inst *x = sw__pipeline_run_inst_add(e, key, st, SW__PIPELINE_MODEL, (int)i + 1, 0);
		x->item_json = json_dumps(item, JSON_ENCODE_ANY | JSON_COMPACT);
	}
	json_decref(root);
	e->expanded[step_index(e->t, st)] = true;
}

static bool ready(struct sw__pipeline_engine *e, const struct sw__pipeline_inst *x)
{
	const struct sw_task_step *st = x->step;
	if (x->status != SW__PIPELINE_ST_PENDING)
		return false;
	for (size_t i = 0; i < st->n_after; i++)
		if (!step_complete(e, find_step(e->t, st->after[i])))
			return false;
	if (st->join && !step_complete(e, find_step(e->t, st->join)))
		return false;
	return true;
}

static void run_join(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x)
{
	const struct sw_task_step *st = x->step;
	struct sw_err err = { 0 };
	char *text = step_output(e, find_step(e->t, st->join), st->separator);
	char *name = sw_xasprintf("run-%lld-%s.md", (long long)e->run_id, x->key);
	struct sw__pipeline_begin b = {
		.run_id = e->run_id, .key = x->key, .step = st->name, .kind = "join",
	};
	int rc = sw__pipeline_step_begin(&x->row_id, e->m, &b, &err);
	if (rc == 0)
		rc = sw_record_add_model_output(&x->doc_id, e->m, name, text, strlen(text), &err);
	free(name);
	if (rc != 0) {
		sw__pipeline_run_fail(e, x, rc, err.msg);
		free(text);
		return;
	}
	struct sw__pipeline_end end = {
		.status = SW__PIPELINE_ST_DONE, .output = text, .output_doc_id = x->doc_id,
		.prompt_tokens = -1, .completion_tokens = -1,
	};
	if (sw__pipeline_step_end(e->m, x->row_id, &end, &err) != 0) {
		if (!e->db_error)
			e->db_error = sw_xstrdup(err.msg);
		e->stop = true;
	}
	x->output = text;
	x->status = SW__PIPELINE_ST_DONE;
	sw__pipeline_run_event(e, SW_EV_STEP_DONE, x, NULL);
}

static void start_model(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x)
{
	const struct sw_task_step *st = x->step;
	const char *sources[16];
	char *owned[16];
	size_t ns = 0, no = 0;
	const char *names[SW_TASK_MAX_STEPS];
	const char *outs[SW_TASK_MAX_STEPS];
	size_t nsteps = 0;
	struct sw__pipeline_fill fill;

	sw__pipeline_run_fill_base(e, &fill);
	fill.item = x->item_json;
	for (size_t i = 0; i < st->n_after && nsteps < SW_TASK_MAX_STEPS; i++) {
		const struct sw_task_step *a = find_step(e->t, st->after[i]);
		if (!a)
			continue; /* never: the task loader checked every name */
		char *o = step_output(e, a, a->separator);
		if (no < SW_ARRAY_LEN(owned))
			owned[no++] = o;
		names[nsteps] = a->name;
		outs[nsteps++] = o;
	}
	fill.step_names = names;
	fill.step_outputs = outs;
	fill.n_steps = nsteps;
	for (size_t i = 0; i < st->n_evidence && ns < SW_ARRAY_LEN(sources); i++) {
		const char *src = st->evidence[i];
		if (!strcmp(src, "brief"))
			sources[ns++] = e->brief;
		else if (!strcmp(src, "item") && x->item_json)
			sources[ns++] = x->item_json;
		else if (!strcmp(src, "topic") && st->topic)
			sources[ns++] = st->topic;
		else
			for (size_t k = 0; k < nsteps; k++)
				if (!strcmp(names[k], src))
					sources[ns++] = outs[k];
		if (ns == SW_ARRAY_LEN(sources))
			break;
	}
	(void)sw__pipeline_run_start_inst(e, x, &fill, sources, ns);
	for (size_t i = 0; i < no; i++)
		free(owned[i]);
}

void sw__pipeline_run_drafting(struct sw__pipeline_engine *e, struct sw__pipeline_inst **draft)
{
	*draft = NULL;
	for (size_t i = 0; i < e->t->n_steps; i++)
		if (!e->t->steps[i].fan_out)
			sw__pipeline_run_inst_add(e, e->t->steps[i].name, &e->t->steps[i],
					 e->t->steps[i].kind == SW_STEP_JOIN ? SW__PIPELINE_JOIN : SW__PIPELINE_MODEL, 0, 0);
	while (!e->stop) {
		bool progress = false;
		size_t running = 0;
		for (size_t i = 0; i < e->t->n_steps; i++) {
			const struct sw_task_step *st = &e->t->steps[i];
			if (st->fan_out && !e->expanded[i] &&
			    step_complete(e, find_step(e->t, st->fan_out))) {
				expand(e, st);
				progress = true;
			}
		}
		for (size_t i = 0; i < e->n && !e->stop; i++) {
			struct sw__pipeline_inst *x = e->v[i];
			if (x->kind != SW__PIPELINE_MODEL && x->kind != SW__PIPELINE_JOIN)
				continue;
			if (!ready(e, x))
				continue;
			if (x->kind == SW__PIPELINE_JOIN) {
				run_join(e, x);
				progress = true;
			} else if (sw__pipeline_run_slot_free(e, x->step)) {
				start_model(e, x);
				progress = true;
			}
		}
		for (size_t i = 0; i < e->n; i++)
			running += e->v[i]->w != NULL;
		if (running == 0 && !progress)
			break;
		if (running > 0)
			(void)sw__pipeline_run_wait(e);
	}
	sw__pipeline_run_wait_all(e);
	if (e->stop)
		return;
	const struct sw_task_step *ds = find_step(e->t, e->t->draft_step);
	if (!ds || !step_complete(e, ds)) {
		if (!e->reason)
			e->reason = sw_xasprintf("the drafting steps ended without the draft step"
						 " '%s'", e->t->draft_step);
		e->stop = true;
		return;
	}
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i]->step == ds)
			*draft = e->v[i];
}
