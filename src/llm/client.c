/*
 * client.c - the request/response API over HTTP to llama-server: clients
 * and their lifecycle, chat completions (streamed or not) with their
 * retries and fallbacks, and the read-only endpoints.  How one transfer is
 * set up and driven to its deadlines is in transfer.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "llm/llm_int.h"

/* Backoff between 503 retries: doubling from the first, capped. */
#define BACKOFF_FIRST_MS 100
#define BACKOFF_MAX_MS 2000
/* The connect deadline of the small read-only requests when none given. */
#define INFO_CONNECT_MS 5000


/* libcurl's global state is set up once per process and never torn down:
 * curl_global_init and curl_global_cleanup are not safe to call while other
 * threads use libcurl, so clients must not pair them per client. */
static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_FAILED_INIT;

static void global_setup(void)
{
	global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int sw_llm_global_init(struct sw_err *err)
{
	if (pthread_once(&global_once, global_setup) != 0)
		SW_BUG("pthread_once failed");
	if (global_rc != CURLE_OK)
		return sw_err_set(err, SW_EIO, "cannot initialise libcurl: %s",
				  curl_easy_strerror(global_rc));
	return 0;
}

/* -------------------------------------------------------------- lifecycle */

static int read_key(char **out, const char *path, struct sw_err *err)
{
	struct sw_buf b = SW_BUF_INIT;
	int rc = sw_file_read(&b, path, SW_LLM_MAX_KEY_BYTES, err);

	*out = NULL;
	if (rc != 0)
		goto cleanup;
	char *key = sw_trim(b.data);
	if (!*key) {
		rc = sw_err_set(err, SW_EINPUT, "api key file '%s' is empty", path);
		goto cleanup;
	}
	for (const char *p = key; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == 0x7f) {
			rc = sw_err_set(err, SW_EINPUT,
					"api key file '%s' holds spaces or control bytes in the key", path);
			goto cleanup;
		}
	*out = sw_xstrdup(key);
cleanup:
	sw_buf_release(&b);
	return rc;
}

int sw_llm_client_new(struct sw_llm_client **out, const struct sw_llm_config *cfg,
		      const char *endpoint, struct sw_err *err)
{
	const struct sw_llm_endpoint *ep = sw_llm_endpoint_find(cfg, endpoint);
	struct sw_llm_client *c = NULL;
	char *key = NULL;
	int rc = 0;

	*out = NULL;
	if (!ep)
		return sw_err_set(err, SW_ENOTFOUND, "no endpoint '%s' in %s", endpoint ? endpoint : "",
				  cfg->path);
	if (ep->api_key_file && (rc = read_key(&key, ep->api_key_file, err)) != 0) {
		sw_err_wrap(err, rc, "endpoint '%s'", ep->name);
		goto cleanup;
	}
	if ((rc = sw_llm_global_init(err)) != 0)
		goto cleanup;
	c = sw_xcalloc(1, sizeof(*c));
	c->reasoning_caps = -1;
	c->endpoint = sw_xstrdup(ep->name);
	c->url = sw_xstrdup(ep->url);
	c->host = sw_xstrdup(ep->host);
	c->unix_path = ep->unix_path ? sw_xstrdup(ep->unix_path) : NULL;
	c->policy.mode = cfg->policy.mode;
	c->policy.n_allow = cfg->policy.n_allow;
	c->policy.allow_hosts = sw_xcalloc(cfg->policy.n_allow + 1, sizeof(char *));
	for (size_t i = 0; i < cfg->policy.n_allow; i++)
		c->policy.allow_hosts[i] = sw_xstrdup(cfg->policy.allow_hosts[i]);
	c->easy = curl_easy_init();
	c->multi = curl_multi_init();
	if (!c->easy || !c->multi) {
		rc = sw_err_set(err, SW_EIO, "cannot create a libcurl handle");
		goto cleanup;
	}
	c->headers = curl_slist_append(c->headers, "Content-Type: application/json");
	/* curl waits up to a second for "100 Continue" before sending a large
	 * body; llama-server gains nothing from that handshake. */
	c->headers = curl_slist_append(c->headers, "Expect:");
	if (key) {
		c->auth = sw_xasprintf("Authorization: Bearer %s", key);
		c->headers = curl_slist_append(c->headers, c->auth);
	}
	if (!c->headers)
		SW_BUG("curl_slist_append failed");
	*out = c;
	c = NULL;
cleanup:
	if (key) {
		memset(key, 0, strlen(key));
		free(key);
	}
	sw_llm_client_free(c);
	return rc;
}

void sw_llm_client_free(struct sw_llm_client *c)
{
	if (!c)
		return;
	if (c->multi)
		curl_multi_cleanup(c->multi);
	if (c->easy)
		curl_easy_cleanup(c->easy);
	curl_slist_free_all(c->resolve);
	curl_slist_free_all(c->headers);
	for (size_t i = 0; i < c->policy.n_allow; i++)
		free(c->policy.allow_hosts[i]);
	free(c->policy.allow_hosts);
	if (c->auth) {
		memset(c->auth, 0, strlen(c->auth));
		free(c->auth);
	}
	free(c->endpoint);
	free(c->url);
	free(c->host);
	free(c->unix_path);
	free(c);
}

void sw__llm_client_add_resolve(struct sw_llm_client *c, const char *entry)
{
	c->resolve = curl_slist_append(c->resolve, entry);
	if (!c->resolve)
		SW_BUG("curl_slist_append failed");
}

void sw__llm_client_force_local(struct sw_llm_client *c)
{
	c->force_local = true;
}

const char *sw_llm_client_address(const struct sw_llm_client *c)
{
	return c->have_address ? c->address : NULL;
}

const char *sw_llm_client_policy_reason(const struct sw_llm_client *c)
{
	return c->have_address ? c->why : NULL;
}

/* ------------------------------------------------------------------- chat */

void sw_llm_request_init(struct sw_llm_request *r)
{
	memset(r, 0, sizeof(*r));
	r->temperature = -1;
	r->top_p = -1;
	r->stream = true;
}

void sw_llm_request_apply_role(struct sw_llm_request *r, const struct sw_llm_role *role)
{
	if (r->temperature < 0)
		r->temperature = role->temperature;
	if (r->top_p < 0)
		r->top_p = role->top_p;
	if (r->max_tokens == 0)
		r->max_tokens = role->max_tokens;
	if (!r->has_seed && role->has_seed) {
		r->has_seed = true;
		r->seed = role->seed;
	}
	if (r->retries == 0)
		r->retries = role->retries;
	if (r->reasoning == SW_LLM_REASONING_DEFAULT)
		r->reasoning = role->reasoning;
	if (r->reasoning_budget == 0)
		r->reasoning_budget = role->reasoning_budget;
	const struct sw_llm_deadlines *d = &role->deadlines;
	if (!r->deadlines.connect_ms)
		r->deadlines.connect_ms = d->connect_ms;
	if (!r->deadlines.first_token_ms)
		r->deadlines.first_token_ms = d->first_token_ms;
	if (!r->deadlines.token_ms)
		r->deadlines.token_ms = d->token_ms;
	if (!r->deadlines.total_ms)
		r->deadlines.total_ms = d->total_ms;
}

void sw_llm_result_release(struct sw_llm_result *r)
{
	if (!r)
		return;
	free(r->endpoint);
	free(r->address);
	free(r->model);
	free(r->content);
	free(r->reasoning);
	free(r->reasoning_note);
	free(r->finish_reason);
	memset(r, 0, sizeof(*r));
}

static int build_body(char **out, const struct sw_llm_request *req, bool reasoning,
		      struct sw_err *err)
{
	json_t *root = json_object();
	json_t *msgs = json_array();
	json_t *schema = NULL;
	int rc = 0;

	*out = NULL;
	if (req->n_messages == 0) {
		rc = sw_err_set(err, SW_EUSAGE, "a chat request needs at least one message");
		goto cleanup;
	}
	for (size_t i = 0; i < req->n_messages; i++)
		json_array_append_new(msgs, json_pack("{s:o, s:o}", "role",
						      sw_json_str(req->messages[i].role), "content",
						      sw_json_str(req->messages[i].content)));
	json_object_set(root, "messages", msgs);
	json_object_set_new(root, "stream", json_boolean(req->stream));
	if (req->stream)
		json_object_set_new(root, "stream_options", json_pack("{s:b}", "include_usage", 1));
	/* llama-server's default today, said out loud so a change of default
	 * cannot change how a run behaves. */
	json_object_set_new(root, "cache_prompt", json_true());
	if (req->temperature >= 0)
		json_object_set_new(root, "temperature", json_real(req->temperature));
	if (req->top_p >= 0)
		json_object_set_new(root, "top_p", json_real(req->top_p));
	if (req->max_tokens > 0)
		json_object_set_new(root, "max_tokens", json_integer(req->max_tokens));
	if (req->has_seed)
		json_object_set_new(root, "seed", json_integer((json_int_t)req->seed));
	if (reasoning && req->reasoning != SW_LLM_REASONING_DEFAULT)
		json_object_set_new(root, "chat_template_kwargs",
				    json_pack("{s:b}", "enable_thinking",
					      req->reasoning == SW_LLM_REASONING_ON));
	if (reasoning && req->reasoning_budget > 0)
		json_object_set_new(root, "thinking_budget_tokens",
				    json_integer((json_int_t)req->reasoning_budget));
	if (req->json_schema) {
		json_error_t jerr;
		schema = json_loads(req->json_schema, 0, &jerr);
		if (!json_is_object(schema)) {
			rc = sw_err_set(err, SW_EINPUT, "bad JSON schema: %s",
					schema ? "not an object" : jerr.text);
			goto cleanup;
		}
		json_object_set_new(root, "response_format",
				    json_pack("{s:s, s:{s:s, s:O}}", "type", "json_schema", "json_schema",
					      "name", "answer", "schema", schema));
		/* llama-server also reads a top-level "json_schema"; some builds
		 * (b4748, for one) drop the response_format form silently. */
		json_object_set(root, "json_schema", schema);
	}
	*out = json_dumps(root, JSON_COMPACT);
	if (!*out)
		SW_BUG("json_dumps failed");
cleanup:
	json_decref(schema);
	json_decref(msgs);
	json_decref(root);
	return rc;
}

static void sleep_ms(double ms, struct sw_llm_cancel *cancel)
{
	double end = sw_now() + ms / 1000.0;
	for (;;) {
		double left = (end - sw_now()) * 1000.0;
		if (left <= 0 || sw__llm_cancelled(cancel))
			return;
		if (left > SW__LLM_CANCEL_POLL_MS)
			left = SW__LLM_CANCEL_POLL_MS;
		struct timespec ts = { 0, (long)(left * 1e6) };
		nanosleep(&ts, NULL);
	}
}

static json_t *get_json(struct sw_llm_client *c, const char *path, unsigned timeout_ms,
			int *rc, struct sw_err *err);

/* Whether the server takes the thinking settings per request, asked once
 * per client: llama-server builds that list chat_template_caps in /props
 * render the template with chat_template_kwargs (enable_thinking) and read
 * thinking_budget_tokens; an older build or another server would ignore
 * them or refuse the request.  On false, *why says what was seen. */
static bool takes_reasoning(struct sw_llm_client *c, unsigned timeout_ms, const char **why)
{
	if (c->reasoning_caps < 0) {
		struct sw_err soft = { 0 };
		int rc;
		json_t *props = get_json(c, "/props", timeout_ms ? timeout_ms : INFO_CONNECT_MS,
					 &rc, &soft);
		c->reasoning_caps = rc != 0 ? 0 : json_is_object(json_object_get(props,
							"chat_template_caps")) ? 1 : 2;
		json_decref(props);
	}
	*why = c->reasoning_caps == 0 ? "its /props did not answer"
				      : "its /props lists no chat_template_caps (a build too old"
					" to take them per request)";
	return c->reasoning_caps == 1;
}

static char *reasoning_note(const struct sw_llm_request *req, const char *why)
{
	char budget[48] = "";
	if (req->reasoning_budget > 0)
		snprintf(budget, sizeof(budget), "%sreasoning_budget = %ld",
			 req->reasoning != SW_LLM_REASONING_DEFAULT ? " and " : "",
			 req->reasoning_budget);
	return sw_xasprintf("%s%s not sent: %s",
			    req->reasoning == SW_LLM_REASONING_ON ? "reasoning = on"
			    : req->reasoning == SW_LLM_REASONING_OFF ? "reasoning = off" : "",
			    budget, why);
}

static void fill_result(struct sw_llm_result *out, struct sw_llm_client *c, struct sw__llm_answer *a,
			const struct sw__llm_xfer *x)
{
	free(out->endpoint);
	out->endpoint = sw_xstrdup(c->endpoint);
	free(out->address);
	out->address = c->have_address ? sw_xstrdup(c->address) : NULL;
	free(out->model);
	out->model = a->model;
	a->model = NULL;
	free(out->finish_reason);
	out->finish_reason = a->finish_reason;
	a->finish_reason = NULL;
	/* A stream cut short: a tag held back at its end is text. */
	if (!a->failed)
		(void)sw__llm_answer_finish(a);
	free(out->content);
	out->content = sw_buf_detach(&a->content, &out->content_len);
	free(out->reasoning);
	out->reasoning = a->reasoning.len ? sw_buf_detach(&a->reasoning, NULL) : NULL;
	out->timings = a->timings;
	out->usage = a->usage;
	out->http_status = (int)x->status;
	out->chunks = a->chunks;
	out->pings = x->sse.pings;
	out->first_text_s = a->chunks ? x->t_first_text - x->t_start : 0;
}

int sw_llm_chat(struct sw_llm_result *out, struct sw_llm_client *c,
		const struct sw_llm_request *req, struct sw_err *err)
{
	char *body = NULL;
	struct sw__llm_answer answer;
	struct sw__llm_xfer x;
	double t0 = sw_now();
	double call_deadline = req->deadlines.total_ms ? t0 + req->deadlines.total_ms / 1000.0
						       : INFINITY;
	double backoff = BACKOFF_FIRST_MS;
	unsigned retries = req->retries > SW_LLM_MAX_RETRIES ? SW_LLM_MAX_RETRIES : req->retries;
	int rc;

	bool reasoning = false;

	memset(out, 0, sizeof(*out));
	sw__llm_answer_init(&answer, SW_LLM_MAX_CONTENT);
	sw__llm_xfer_init(&x, c, req->stream, &req->deadlines, call_deadline, req->cancel, &answer);
	if (req->reasoning != SW_LLM_REASONING_DEFAULT || req->reasoning_budget > 0) {
		const char *why;
		reasoning = takes_reasoning(c, req->deadlines.connect_ms, &why);
		if (!reasoning)
			out->reasoning_note = reasoning_note(req, why);
	}
	if ((rc = build_body(&body, req, reasoning, err)) != 0)
		goto cleanup;
	for (;;) {
		sw__llm_answer_release(&answer);
		sw__llm_answer_init(&answer, SW_LLM_MAX_CONTENT);
		answer.on_text = req->on_text;
		answer.user = req->user;
		sw__llm_xfer_release(&x);
		sw__llm_xfer_init(&x, c, req->stream, &req->deadlines, call_deadline, req->cancel,
			      &answer);
		sw__llm_xfer_setup(c, &x, "/v1/chat/completions", body, strlen(body));
		out->attempts++;
		rc = sw__llm_xfer_perform(&x, err);
		if (rc == 0 && x.status == 200 && x.is_sse) {
			if (!answer.done)
				rc = sw_err_set(err, SW_ENET,
						"endpoint '%s': the stream ended without [DONE] (the answer is cut short)",
						c->endpoint);
			break;
		}
		if (rc == 0 && x.status == 200) {
			rc = sw__llm_answer_body(&answer, x.body.data, x.body.len);
			/* The decoder hands the whole text to on_text. */
			if (rc != 0)
				sw_err_set(err, rc, "endpoint '%s': %s", c->endpoint, answer.error);
			break;
		}
		if (rc != 0)
			break;
		rc = sw__llm_xfer_http_error(&x, err);
		/* 503 means the server did not start on the request (loading,
		 * no free slot): the one answer safe to repeat. */
		if (x.status != 503 || out->attempts > retries)
			break;
		double left = (call_deadline - sw_now()) * 1000.0;
		if (left <= backoff)
			break;
		sleep_ms(backoff, req->cancel);
		if (sw__llm_cancelled(req->cancel)) {
			rc = sw_err_set(err, SW_ECANCEL, "endpoint '%s': cancelled", c->endpoint);
			break;
		}
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
cleanup:
	fill_result(out, c, &answer, &x);
	out->total_s = sw_now() - t0;
	sw__llm_answer_release(&answer);
	sw__llm_xfer_release(&x);
	free(body);
	return rc;
}

/* Worth trying the fallback: nothing was shown, and the failure was the
 * server's or the network's, not the request's or the user's. */
static bool may_fall_back(int rc, const struct sw_llm_result *r)
{
	if (rc != SW_ENET || r->chunks > 0 || r->content_len > 0)
		return false;
	return !(r->http_status >= 400 && r->http_status < 500);
}

int sw_llm_chat_role(struct sw_llm_result *out, const struct sw_llm_config *cfg,
		     const char *role, const struct sw_llm_request *req, struct sw_err *err)
{
	const struct sw_llm_role *r = sw_llm_role_find(cfg, role);
	struct sw_llm_client *c = NULL;
	struct sw_llm_request rq = *req;
	struct sw_err first = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	if (!r && sw_llm_role_unavailable(cfg, role))
		return sw_err_set(err, SW_ENET, "role '%s' is unavailable: %s", role,
				  sw_llm_role_unavailable(cfg, role));
	if (!r)
		return sw_err_set(err, SW_ENOTFOUND, "no role '%s' in %s (add a [role \"%s\"] section)",
				  role, cfg->path, role);
	sw_llm_request_apply_role(&rq, r);
	if ((rc = sw_llm_client_new(&c, cfg, r->endpoint, &first)) == 0)
		rc = sw_llm_chat(out, c, &rq, &first);
	sw_llm_client_free(c);
	c = NULL;
	if (rc == 0 || !r->fallback || !may_fall_back(rc, out)) {
		if (rc != 0 && err)
			*err = first;
		return rc;
	}
	unsigned attempts = out->attempts;
	sw_llm_result_release(out);
	if ((rc = sw_llm_client_new(&c, cfg, r->fallback, err)) == 0) {
		sw__llm_client_force_local(c);
		rc = sw_llm_chat(out, c, &rq, err);
	}
	sw_llm_client_free(c);
	out->attempts += attempts;
	out->fell_back = true;
	if (rc != 0)
		sw_err_wrap(err, rc, "%s; then fallback", first.msg);
	return rc;
}

/* ---------------------------------------------------------- info requests */

/* One small request: status and body back, HTTP errors are not errors. */
static int simple(struct sw_llm_client *c, const char *path, const char *post, unsigned timeout_ms,
		  long *status, struct sw_buf *body, struct sw_err *err)
{
	struct sw_llm_deadlines dl = { 0 };
	struct sw__llm_xfer x;
	int rc;

	if (!timeout_ms)
		timeout_ms = 10000;
	dl.total_ms = timeout_ms;
	dl.connect_ms = timeout_ms < INFO_CONNECT_MS ? timeout_ms : INFO_CONNECT_MS;
	sw__llm_xfer_init(&x, c, false, &dl, sw_now() + timeout_ms / 1000.0, NULL, NULL);
	sw__llm_xfer_setup(c, &x, path, post, post ? strlen(post) : 0);
	rc = sw__llm_xfer_perform(&x, err);
	*status = x.status;
	if (rc == 0) {
		sw_buf_reset(body);
		sw_buf_add(body, x.body.data, x.body.len);
	}
	sw__llm_xfer_release(&x);
	return rc;
}

/* sw_llm_get with the HTTP status kept for the caller. */
static int get_status(struct sw_buf *out, long *status, struct sw_llm_client *c,
		      const char *path, unsigned timeout_ms, struct sw_err *err)
{
	int rc;

	*status = 0;
	if (!path || path[0] != '/')
		return sw_err_set(err, SW_EUSAGE, "a server path starts with '/'");
	rc = simple(c, path, NULL, timeout_ms, status, out, err);
	if (rc == 0 && *status != 200) {
		char msg[300];
		sw__llm_error_body_message(msg, sizeof(msg), out->data, out->len);
		rc = sw_err_set(err, SW_ENET, "endpoint '%s': GET %s answered HTTP %ld: %s",
				c->endpoint, path, *status, msg);
	}
	return rc;
}

int sw_llm_get(struct sw_buf *out, struct sw_llm_client *c, const char *path,
	       unsigned timeout_ms, struct sw_err *err)
{
	long status;
	return get_status(out, &status, c, path, timeout_ms, err);
}

const char *sw_llm_health_name(enum sw_llm_health h)
{
	switch (h) {
	case SW_LLM_DOWN: return "down";
	case SW_LLM_LOADING: return "loading";
	case SW_LLM_NO_SLOT: return "busy";
	case SW_LLM_READY: return "ready";
	case SW_LLM_BROKEN: return "broken";
	}
	return "?";
}

/* Both /health shapes: {"status":"ok"|"loading model"|"no slot available"}
 * (old builds) and {"error":{"message":"Loading model"}} (current). */
int sw_llm_health(enum sw_llm_health *out, struct sw_llm_client *c, unsigned timeout_ms,
		  struct sw_err *err)
{
	struct sw_buf body = SW_BUF_INIT;
	long status = 0;
	char msg[300];
	int rc = simple(c, "/health", NULL, timeout_ms, &status, &body, err);

	*out = SW_LLM_DOWN;
	if (rc == SW_EPOLICY || rc == SW_ECANCEL || rc == SW_EUSAGE)
		goto cleanup;
	if (rc != 0) {
		rc = 0; /* down is an answer */
		goto cleanup;
	}
	sw__llm_error_body_message(msg, sizeof(msg), body.data, body.len);
	if (strstr(msg, "no slot"))
		*out = SW_LLM_NO_SLOT;
	else if (status == 200)
		*out = SW_LLM_READY;
	else if (status == 503)
		*out = SW_LLM_LOADING;
	else
		*out = SW_LLM_BROKEN;
	if (*out != SW_LLM_READY)
		sw_err_set(err, SW_ENET, "endpoint '%s': /health answered HTTP %ld: %s", c->endpoint,
			   status, msg);
cleanup:
	sw_buf_release(&body);
	return rc;
}

void sw_llm_server_info_release(struct sw_llm_server_info *i)
{
	if (!i)
		return;
	free(i->model);
	free(i->build);
	memset(i, 0, sizeof(*i));
}

static json_t *get_json(struct sw_llm_client *c, const char *path, unsigned timeout_ms,
			int *rc, struct sw_err *err)
{
	struct sw_buf body = SW_BUF_INIT;
	json_t *root = NULL;
	long status;

	*rc = get_status(&body, &status, c, path, timeout_ms, err);
	/* /health and /v1/models are public on llama-server even with
	 * --api-key; /props is not.  A 401 there means every completion will
	 * fail too, so it is an error, not an unknown. */
	if (status == 401 || status == 403)
		*rc = sw_err_set(err, SW_EPOLICY,
				 "endpoint '%s': GET %s answered HTTP %ld: the server wants an API key;"
				 " set api_key_file in [endpoint \"%s\"]",
				 c->endpoint, path, status, c->endpoint);
	if (*rc == 0)
		root = json_loadb(body.data, body.len, 0, NULL);
	sw_buf_release(&body);
	return root;
}

int sw_llm_server_info(struct sw_llm_server_info *out, struct sw_llm_client *c,
		       unsigned timeout_ms, struct sw_err *err)
{
	json_t *models = NULL, *props = NULL, *slots = NULL;
	struct sw_err soft = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	out->idle_slots = -1;
	models = get_json(c, "/v1/models", timeout_ms, &rc, err);
	if (rc != 0)
		goto cleanup;
	const json_t *id = json_object_get(json_array_get(json_object_get(models, "data"), 0), "id");
	if (json_is_string(id))
		out->model = sw_xstrdup(json_string_value(id));
	/* /props and /slots may be missing (other servers, --no-slots): what
	 * they would say is then unknown, not an error. */
	props = get_json(c, "/props", timeout_ms, &rc, &soft);
	if (rc == SW_EPOLICY || rc == SW_ECANCEL)
		goto hard;
	const json_t *b = json_object_get(props, "build_info");
	if (json_is_string(b))
		out->build = sw_xstrdup(json_string_value(b));
	const json_t *dgs = json_object_get(props, "default_generation_settings");
	long long v;
	out->n_ctx = sw_json_int(json_object_get(dgs, "n_ctx"), 0, LONG_MAX, &v) ? (long)v : 0;
	out->total_slots = sw_json_int(json_object_get(props, "total_slots"), 0, LONG_MAX, &v)
				   ? (long)v : 0;
	out->sleeping = json_is_true(json_object_get(props, "is_sleeping"));
	out->reasoning_settings = json_is_object(json_object_get(props, "chat_template_caps"));
	slots = get_json(c, "/slots", timeout_ms, &rc, &soft);
	if (rc == SW_EPOLICY || rc == SW_ECANCEL)
		goto hard;
	if (json_is_array(slots)) {
		size_t i;
		const json_t *s;
		out->idle_slots = 0;
		json_array_foreach(slots, i, s)
			if (!json_is_true(json_object_get(s, "is_processing")))
				out->idle_slots++;
	}
	rc = 0;
	goto cleanup;
hard:
	if (err)
		*err = soft;
cleanup:
	json_decref(models);
	json_decref(props);
	json_decref(slots);
	return rc;
}

int sw_llm_tokenize(size_t *out_count, struct sw_llm_client *c, const char *text,
		    unsigned timeout_ms, struct sw_err *err)
{
	json_t *req = json_pack("{s:o, s:b}", "content", sw_json_str(text), "add_special", 0);
	char *post = json_dumps(req, JSON_COMPACT);
	struct sw_buf body = SW_BUF_INIT;
	json_t *root = NULL;
	long status = 0;
	int rc;

	*out_count = 0;
	if (!post)
		SW_BUG("json_dumps failed");
	rc = simple(c, "/tokenize", post, timeout_ms, &status, &body, err);
	if (rc != 0)
		goto cleanup;
	if (status != 200) {
		char msg[300];
		sw__llm_error_body_message(msg, sizeof(msg), body.data, body.len);
		rc = sw_err_set(err, SW_ENET, "endpoint '%s': /tokenize answered HTTP %ld: %s",
				c->endpoint, status, msg);
		goto cleanup;
	}
	root = json_loadb(body.data, body.len, 0, NULL);
	const json_t *tokens = json_object_get(root, "tokens");
	if (!json_is_array(tokens)) {
		rc = sw_err_set(err, SW_EINPUT, "endpoint '%s': /tokenize answered without a tokens array",
				c->endpoint);
		goto cleanup;
	}
	*out_count = json_array_size(tokens);
cleanup:
	json_decref(root);
	json_decref(req);
	free(post);
	sw_buf_release(&body);
	return rc;
}
