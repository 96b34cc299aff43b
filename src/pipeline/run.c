/* run.c - the engine of a run: step instances (fan-outs expanded from an
 * earlier step's JSON list), the scheduler that starts every instance whose
 * inputs are ready as soon as its endpoint has a free slot, the worker
 * threads that make the model calls, and the journal written before and
 * after each step.  The review -> revise -> verify rounds (rounds.c) use
 * the same machinery one instance at a time. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "pipeline/run_int.h"

/* ------------------------------------------------------------ instances */

void sw__pipeline_run_inst_free(struct sw__pipeline_inst *x)
{
	free(x->key);
	free(x->item_json);
	free(x->output);
	free(x->detail);
	free(x->error);
	free(x);
}

struct sw__pipeline_inst *sw__pipeline_run_inst_find(struct sw__pipeline_engine *e, const char *key)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i]->key, key))
			return e->v[i];
	return NULL;
}

struct sw__pipeline_inst *sw__pipeline_run_inst_add(struct sw__pipeline_engine *e, const char *key,
				  const struct sw_task_step *step, enum sw__pipeline_ikind kind, int item,
				  int round)
{
	struct sw__pipeline_inst *x = sw_xcalloc(1, sizeof(*x));
	x->key = sw_xstrdup(key);
	x->step = step;
	x->kind = kind;
	x->item = item;
	x->round = round;
	x->status = SW__PIPELINE_ST_PENDING;
	/* what an earlier process journaled for this key */
	for (size_t i = 0; i < e->nrows; i++)
		if (!strcmp(e->rows[i].key, key)) {
			x->row_id = e->rows[i].id;
			if (e->rows[i].status == SW__PIPELINE_ST_DONE) {
				x->status = SW__PIPELINE_ST_DONE;
				x->output = e->rows[i].output ? sw_xstrdup(e->rows[i].output) : NULL;
				x->doc_id = e->rows[i].output_doc_id;
				x->detail = e->rows[i].detail ? sw_xstrdup(e->rows[i].detail) : NULL;
				x->resumed = true;
			}
		}
	e->v = sw_xgrow(e->v, &e->cap, e->n + 1, sizeof(*e->v));
	e->v[e->n++] = x;
	return x;
}

static const char *kind_name(enum sw__pipeline_ikind k)
{
	static const char *const names[] = { "model", "join", "review", "revise", "verify" };
	return names[k];
}

/* -------------------------------------------------------------- events */

void sw__pipeline_run_event(struct sw__pipeline_engine *e, enum sw_run_event_kind kind, const struct sw__pipeline_inst *x,
		   const char *message)
{
	if (!e->o->on_event)
		return;
	struct sw_run_event ev = { .kind = kind, .message = message };
	if (x) {
		ev.key = x->key;
		ev.role = x->role;
		ev.endpoint = x->endpoint;
		ev.host = x->host;
		ev.tokens = x->w ? atomic_load(&x->w->chunks) : x->tokens;
		ev.elapsed_s = x->w ? sw_now() - x->w->started : x->wall_s;
		ev.tok_s = x->tok_s;
		if (x->w && ev.elapsed_s > 0 && ev.tokens > 0)
			ev.tok_s = (double)ev.tokens / (sw_now() - x->w->first_text);
		ev.claims = x->claims;
		ev.blocked = x->blocked;
	}
	e->o->on_event(e->o->ud, &ev);
}

/* ------------------------------------------------------------- endpoints */

struct sw__pipeline_ep *sw__pipeline_run_endpoint(struct sw__pipeline_engine *e, const char *name)
{
	for (size_t i = 0; i < e->neps; i++)
		if (!strcmp(e->eps[i].name, name))
			return &e->eps[i];
	if (e->neps == SW_ARRAY_LEN(e->eps))
		return NULL;
	struct sw__pipeline_ep *ep = &e->eps[e->neps++];
	const struct sw_llm_endpoint *cfg = sw_llm_endpoint_find(e->o->llm, name);
	memset(ep, 0, sizeof(*ep));
	ep->name = name;
	ep->slots = cfg && cfg->slots ? cfg->slots : 1;
	ep->tokenize = true;
	return ep;
}

/* Tokens of text on the instance's endpoint; an estimate once the server
 * has shown it cannot count. */
static int count_on_endpoint(size_t *out, bool *estimated, const char *text, size_t len,
			     void *ud)
{
	struct sw__pipeline_ep *ep = ud;
	struct sw_err err = { 0 };
	char *copy;
	int rc;

	if (!ep || !ep->tokenize || !ep->client) {
		*out = sw_tokens_estimate(text, len);
		*estimated = true;
		return 0;
	}
	/* FNV-1a: a memo of what this server counted, never a guess */
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
	if (!ep->memo)
		ep->memo = sw_xcalloc(SW__PIPELINE_TOKEN_CACHE, sizeof(*ep->memo));
	struct sw__pipeline_token_memo *slot = &ep->memo[h % SW__PIPELINE_TOKEN_CACHE];
	if (slot->len == len && slot->hash == h && len > 0) {
		*out = slot->tokens;
		return 0;
	}
	copy = sw_xstrndup(text, len);
	rc = sw_llm_tokenize(out, ep->client, copy, ep->timeout_ms, &err);
	free(copy);
	if (rc != 0) {
		ep->tokenize = false;
		*out = sw_tokens_estimate(text, len);
		*estimated = true;
	} else {
		*slot = (struct sw__pipeline_token_memo){ .hash = h, .len = len, .tokens = *out };
	}
	return 0;
}

/* ---------------------------------------------------------------- worker */

static void on_text(void *user, const char *text, size_t len)
{
	struct sw__pipeline_worker *w = user;
	(void)text;
	(void)len;
	if (atomic_fetch_add(&w->chunks, 1) == 0)
		w->first_text = sw_now();
}

static void *worker_main(void *arg)
{
	struct sw__pipeline_worker *w = arg;
	struct sw__pipeline_engine *e = w->e;

	w->rc = sw_llm_chat_role(&w->res, e->o->llm, w->role, &w->req, &w->err);
	pthread_mutex_lock(&e->mu);
	w->done = true;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

static void worker_free(struct sw__pipeline_worker *w)
{
	if (!w)
		return;
	sw_llm_result_release(&w->res);
	free(w->system);
	free(w->user);
	free(w->messages_json);
	free(w->evidence);
	free(w);
}

/* -------------------------------------------------------- starting a step */

static char *messages_json(const char *system, const char *user)
{
	json_t *a = json_array();
	json_array_append_new(a, json_pack("{s:s, s:s}", "role", "system", "content", system));
	json_array_append_new(a, json_pack("{s:s, s:s}", "role", "user", "content", user));
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

/* The window's budget for evidence: the role's context less the rest of
 * the prompt and the answer. */
static size_t evidence_budget(struct sw__pipeline_engine *e, const struct sw_llm_role *role,
			      const struct sw_task_step *st, size_t rest_bytes)
{
	long ctx = role && role->context > 0 ? role->context : 8192;
	long answer = st->max_tokens > 0 ? st->max_tokens
		      : role && role->max_tokens > 0 ? role->max_tokens : 2048;
	long rest = (long)((rest_bytes + 3) / 4) + 256;
	long left = ctx - answer - rest;
	(void)e;
	return left > 256 ? (size_t)left : 256;
}

void sw__pipeline_run_fail(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x, int code, const char *why)
{
	struct sw__pipeline_end end = {
		.status = code == SW_ECANCEL ? SW__PIPELINE_ST_CANCELLED : SW__PIPELINE_ST_FAILED,
		.error = why,
		.prompt_tokens = -1,
		.completion_tokens = -1,
		.wall_s = x->wall_s,
	};
	struct sw_err err = { 0 };
	x->status = end.status;
	free(x->error);
	x->error = sw_xasprintf("step %s: %s", x->key, why);
	if (x->row_id > 0 && sw__pipeline_step_end(e->m, x->row_id, &end, &err) != 0 && !e->db_error)
		e->db_error = sw_xstrdup(err.msg);
	if (code != SW_ECANCEL && !e->reason)
		e->reason = sw_xstrdup(x->error);
	e->stop = true;
	sw__pipeline_run_event(e, SW_EV_STEP_FAILED, x, why);
}

/* Build x's window (bundle, template, sections journaled) and start its
 * worker thread.  Returns 0 when started (or failed cleanly: x says so). */
int sw__pipeline_run_start_inst(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x, const struct sw__pipeline_fill *fill0,
		       const char *const *sources, size_t nsources)
{
	const struct sw_task_step *st = x->step;
	const struct sw_llm_role *role = sw_llm_role_find(e->o->llm, st->role);
	struct sw__pipeline_fill fill = *fill0;
	struct sw_bundle bundle = { 0 };
	struct sw__pipeline_section *secs = NULL;
	size_t nsecs = 0, seccap = 0;
	struct sw_buf user;
	struct sw_err err = { 0 };
	struct sw__pipeline_worker *w;
	struct sw__pipeline_ep *ep;
	int rc;

	x->role = st->role;
	if (!role) {
		char *why = sw_xasprintf("role '%s' is not in sworn.conf (add [role \"%s\"] with"
					 " endpoint = a local llama-server; sworn plan prints one)",
					 st->role, st->role);
		sw__pipeline_run_fail(e, x, SW_EINPUT, why);
		free(why);
		return 0;
	}
	x->endpoint = role->endpoint;
	const struct sw_llm_endpoint *epcfg = sw_llm_endpoint_find(e->o->llm, role->endpoint);
	x->host = epcfg ? epcfg->fleet_host : NULL;
	ep = sw__pipeline_run_endpoint(e, role->endpoint);
	if (!ep) {
		sw__pipeline_run_fail(e, x, SW_ELIMIT, "too many endpoints in one run");
		return 0;
	}
	if (!ep->client && ep->tokenize) {
		ep->timeout_ms = e->o->token_timeout_ms ? e->o->token_timeout_ms : 5000;
		if (sw_llm_client_new(&ep->client, e->o->llm, ep->name, &err) != 0) {
			ep->client = NULL;
			ep->tokenize = false;
		}
	}

	/* the system message first: its tokens are part of the window */
	secs = sw_xgrow(secs, &seccap, 1, sizeof(*secs));
	secs[0] = (struct sw__pipeline_section){ .kind = "system", .origin = "template" };
	{
		bool est = false;
		size_t n = 0;
		count_on_endpoint(&n, &est, e->t->system_text, strlen(e->t->system_text), ep);
		secs[0].tokens = n;
		secs[0].estimated = est;
	}
	nsecs = 1;

	if (nsources > 0) {
		size_t rest = strlen(e->t->system_text) + strlen(st->template_text);
		for (size_t i = 0; i < nsources; i++)
			rest += strlen(sources[i]);
		struct sw_bundle_opts bo = {
			.sources = sources,
			.n_sources = nsources,
			.budget_tokens = evidence_budget(e, role, st, rest),
			.max_pages = st->evidence_pages,
			.count = count_on_endpoint,
			.count_ud = ep,
		};
		if ((rc = sw_bundle_build(&bundle, e->m, &bo, &err)) != 0) {
			sw__pipeline_run_fail(e, x, rc, err.msg);
			free(secs);
			return 0;
		}
		fill.evidence = bundle.text;
	}

	sw_buf_init(&user);
	rc = sw__pipeline_prompt(&user, &secs, &nsecs, st->template_text, st->template_name, &fill,
			     &bundle, count_on_endpoint, ep, &err);
	if (rc != 0) {
		sw__pipeline_run_fail(e, x, rc, err.msg);
		goto out;
	}

	w = sw_xcalloc(1, sizeof(*w));
	w->e = e;
	w->role = st->role;
	w->system = sw_xstrdup(e->t->system_text);
	w->user = sw_buf_detach(&user, NULL);
	w->messages_json = messages_json(w->system, w->user);
	w->evidence = bundle.text ? sw_xstrdup(bundle.text) : NULL;
	w->msgs[0] = (struct sw_llm_message){ "system", w->system };
	w->msgs[1] = (struct sw_llm_message){ "user", w->user };
	sw_llm_request_init(&w->req);
	w->req.messages = w->msgs;
	w->req.n_messages = 2;
	w->req.stream = true;
	w->req.cancel = e->o->cancel;
	w->req.on_text = on_text;
	w->req.user = w;
	if (st->max_tokens > 0)
		w->req.max_tokens = st->max_tokens;
	if (st->output == SW_OUT_JSON && st->schema)
		w->req.json_schema = st->schema;
	/* sampling, retries and deadlines are the role's (sw_llm_chat_role) */

	struct sw__pipeline_begin b = {
		.run_id = e->run_id,
		.key = x->key,
		.step = st->name,
		.kind = kind_name(x->kind),
		.role = st->role,
		.endpoint = role->endpoint,
		/* the box the fleet runs that server on (several hosts) */
		.host = x->host,
		.messages = w->messages_json,
		.item = x->item,
		.round = x->round,
	};
	if ((rc = sw__pipeline_step_begin(&x->row_id, e->m, &b, &err)) != 0 ||
	    (rc = sw__pipeline_sections_put(e->m, x->row_id, secs, nsecs, bundle.flags,
					bundle.n_flags, &err)) != 0) {
		if (!e->db_error)
			e->db_error = sw_xstrdup(err.msg);
		e->stop = true;
		worker_free(w);
		goto out;
	}
	for (size_t i = 0; i < bundle.n_flags; i++) {
		char *msg = sw_xasprintf("%s%s%s (%s): %s", bundle.flags[i].document,
					 bundle.flags[i].bates ? " " : "",
					 bundle.flags[i].bates ? bundle.flags[i].bates : "",
					 bundle.flags[i].kind, bundle.flags[i].excerpt);
		sw__pipeline_run_event(e, SW_EV_FLAG, x, msg);
		free(msg);
	}
	x->status = SW__PIPELINE_ST_RUNNING;
	x->w = w;
	ep->used++;
	w->started = w->first_text = sw_now();
	sw__pipeline_run_event(e, SW_EV_STEP_START, x, NULL);
	if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
		x->w = NULL;
		ep->used--;
		worker_free(w);
		sw__pipeline_run_fail(e, x, SW_EIO, "cannot start a thread");
	}
out:
	sw_buf_release(&user);
	free(secs);
	sw_bundle_release(&bundle);
	return 0;
}

/* A reasoning model's thinking (never the output) and the thinking
 * settings its server did not take, kept beside the step in its detail
 * (`sworn run show --reasoning`). */
static void detail_add_reasoning(struct sw__pipeline_inst *x, const struct sw_llm_result *r)
{
	json_t *d = x->detail ? json_loads(x->detail, 0, NULL) : NULL;
	if (!json_is_object(d)) {
		json_decref(d);
		d = json_object();
	}
	if (r->reasoning)
		json_object_set_new(d, "reasoning", sw_json_str(r->reasoning));
	if (r->reasoning_note)
		json_object_set_new(d, "reasoning_note", sw_json_str(r->reasoning_note));
	free(x->detail);
	x->detail = json_dumps(d, JSON_COMPACT);
	if (!x->detail)
		SW_BUG("json_dumps failed");
	json_decref(d);
}

/* A finished worker: journal its outcome. */
static void finish_inst(struct sw__pipeline_engine *e, struct sw__pipeline_inst *x)
{
	struct sw__pipeline_worker *w = x->w;
	struct sw__pipeline_ep *ep = sw__pipeline_run_endpoint(e, x->endpoint);
	struct sw_err err = { 0 };

	pthread_join(w->thread, NULL);
	x->w = NULL;
	if (ep && ep->used > 0)
		ep->used--;
	x->wall_s = sw_now() - w->started;
	x->tokens = w->res.timings.have ? (size_t)w->res.timings.predicted_n
		    : w->res.usage.have ? (size_t)w->res.usage.completion_tokens
					: atomic_load(&w->chunks);
	x->tok_s = w->res.timings.have ? w->res.timings.predicted_per_second : 0;
	if (w->rc != 0) {
		sw__pipeline_run_fail(e, x, w->rc, w->err.msg[0] ? w->err.msg : sw_err_name(w->rc));
		worker_free(w);
		return;
	}
	if (x->step->output == SW_OUT_JSON || x->kind == SW__PIPELINE_REVIEW) {
		json_error_t je;
		json_t *j = json_loads(w->res.content, JSON_DECODE_ANY, &je);
		if (!j) {
			char *why = sw_xasprintf("the answer is not the JSON the step asks for (%s,"
						 " line %d)", je.text, je.line);
			sw__pipeline_run_fail(e, x, SW_EINPUT, why);
			free(why);
			worker_free(w);
			return;
		}
		json_decref(j);
		if (x->kind == SW__PIPELINE_REVIEW) {
			size_t k = 0;
			free(sw__pipeline_findings_text(w->res.content, &k));
			free(x->detail);
			x->detail = sw_xasprintf("{\"findings\":%zu}", k);
		}
	}
	if (w->res.reasoning || w->res.reasoning_note)
		detail_add_reasoning(x, &w->res);
	char *name = sw_xasprintf("run-%lld-%s.md", (long long)e->run_id, x->key);
	int rc = sw_record_add_model_output_given(&x->doc_id, e->m, name, w->res.content,
						  w->res.content_len, w->evidence,
						  w->evidence ? strlen(w->evidence) : 0, &err);
	free(name);
	if (rc != 0) {
		sw__pipeline_run_fail(e, x, rc, err.msg);
		worker_free(w);
		return;
	}
	x->output = sw_xstrdup(w->res.content);
	struct sw__pipeline_end end = {
		.status = SW__PIPELINE_ST_DONE,
		.output = x->output,
		.output_doc_id = x->doc_id,
		.model = w->res.model,
		.prompt_tokens = w->res.timings.have ? w->res.timings.prompt_n
				 : w->res.usage.have ? w->res.usage.prompt_tokens : -1,
		.completion_tokens = (long)x->tokens,
		.prompt_per_s = w->res.timings.prompt_per_second,
		.predicted_per_s = w->res.timings.predicted_per_second,
		.wall_s = x->wall_s,
		.attempts = w->res.attempts,
		.detail = x->detail,
	};
	if (sw__pipeline_step_end(e->m, x->row_id, &end, &err) != 0) {
		if (!e->db_error)
			e->db_error = sw_xstrdup(err.msg);
		e->stop = true;
	}
	x->status = SW__PIPELINE_ST_DONE;
	sw__pipeline_run_event(e, SW_EV_STEP_DONE, x, NULL);
	worker_free(w);
}

/* Wait until a worker finishes (or a tick passes: live progress and the
 * cancel flag), then journal every finished one.  Returns how many are
 * still running. */
size_t sw__pipeline_run_wait(struct sw__pipeline_engine *e)
{
	size_t running = 0, done = 0;
	struct timespec ts;

	pthread_mutex_lock(&e->mu);
	for (;;) {
		running = done = 0;
		for (size_t i = 0; i < e->n; i++)
			if (e->v[i]->w) {
				running++;
				done += e->v[i]->w->done;
			}
		if (running == 0 || done > 0)
			break;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&e->cv, &e->mu, &ts) != 0)
			break; /* a tick */
	}
	pthread_mutex_unlock(&e->mu);
	for (size_t i = 0; i < e->n; i++) {
		struct sw__pipeline_inst *x = e->v[i];
		bool finished;
		if (!x->w)
			continue;
		pthread_mutex_lock(&e->mu);
		finished = x->w->done;
		pthread_mutex_unlock(&e->mu);
		if (finished) {
			finish_inst(e, x);
			running--;
		} else {
			sw__pipeline_run_event(e, SW_EV_STEP_TOKENS, x, NULL);
		}
	}
	if (e->o->cancel && atomic_load(&e->o->cancel->requested))
		e->stop = true;
	return running;
}

void sw__pipeline_run_wait_all(struct sw__pipeline_engine *e)
{
	while (sw__pipeline_run_wait(e) > 0)
		;
}

bool sw__pipeline_run_slot_free(struct sw__pipeline_engine *e, const struct sw_task_step *st)
{
	const struct sw_llm_role *role = sw_llm_role_find(e->o->llm, st->role);
	if (!role)
		return true; /* it fails at once, with the reason */
	struct sw__pipeline_ep *ep = sw__pipeline_run_endpoint(e, role->endpoint);
	return !ep || ep->used < ep->slots;
}

void sw__pipeline_run_fill_base(struct sw__pipeline_engine *e, struct sw__pipeline_fill *f)
{
	memset(f, 0, sizeof(*f));
	f->brief = e->brief;
	f->matter = sw_matter_name(e->m);
	f->task = e->t->name;
	f->date = e->date;
}
