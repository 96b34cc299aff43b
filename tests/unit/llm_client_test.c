/*
 * llm_client_test.c - the client against the fake llama-server, one test per
 * behaviour of the protocol and per failure mode: streaming and not, the
 * request fields sent, timings, pings, errors before and during a stream,
 * hangs, resets, slow tokens, size limits, 503 retries, 4xx, API keys,
 * cancellation, health phases, server info, /tokenize, fallback, Unix
 * sockets, scripted answers and the speed log.
 *
 * Everything talks to 127.0.0.1 or a Unix socket.  The program also moves
 * into a loopback-only network namespace when it can (it does not need one).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "llm_harness.h"

struct fixture {
	struct h_fake fake;
	struct sw_llm_config cfg;
	struct sw_llm_client *client;
	struct sw_buf streamed;
};

static void on_text(void *user, const char *text, size_t len)
{
	sw_buf_add(user, text, len);
}

/* Start the fake with args and make a client for it; extra is more
 * sworn.conf text (keys of [endpoint "fake"] first, then sections). */
static void setup(struct fixture *fx, const char *extra, const char *const *args)
{
	struct sw_err err = { 0 };
	memset(fx, 0, sizeof(*fx));
	sw_buf_init(&fx->streamed);
	h_fake_start(&fx->fake, dir, args);
	char *conf = sw_xasprintf("[endpoint \"fake\"]\nurl = http://127.0.0.1:%u\n%s", fx->fake.port,
				  extra ? extra : "");
	assert_int_equal(h_config(&fx->cfg, dir, conf, &err), 0);
	free(conf);
	assert_int_equal(sw_llm_client_new(&fx->client, &fx->cfg, "fake", &err), 0);
}

static void teardown(struct fixture *fx)
{
	sw_llm_client_free(fx->client);
	sw_llm_config_release(&fx->cfg);
	sw_buf_release(&fx->streamed);
	h_fake_stop(&fx->fake);
}

static const struct sw_llm_message hello[] = { { "system", "You are terse." },
					       { "user", "Say hello." } };

static void req_init(struct sw_llm_request *r, struct fixture *fx)
{
	sw_llm_request_init(r);
	r->messages = hello;
	r->n_messages = SW_ARRAY_LEN(hello);
	r->on_text = on_text;
	r->user = &fx->streamed;
	r->deadlines.connect_ms = 2000;
	r->deadlines.total_ms = 10000;
}

/* The last request the fake logged, parsed. */
static json_t *last_request(const struct fixture *fx)
{
	struct sw_buf b = SW_BUF_INIT;
	assert_int_equal(sw_file_read(&b, fx->fake.log, 1 << 20, NULL), 0);
	char *last = b.data;
	for (char *p = b.data; *p; p++)
		if (*p == '\n' && p[1])
			last = p + 1;
	json_t *j = json_loads(last, 0, NULL);
	sw_buf_release(&b);
	assert_non_null(j);
	json_t *body = json_loads(json_string_value(json_object_get(j, "body")), 0, NULL);
	json_decref(j);
	return body;
}

#define DEFAULT_TEXT "The fake llama-server answers every prompt with this sentence."

static void test_stream_ok(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	setup(&fx, NULL, (const char *[]){ "-a", "fake-model", NULL });
	req_init(&rq, &fx);
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.content, DEFAULT_TEXT);
	assert_string_equal(fx.streamed.data, DEFAULT_TEXT);
	assert_int_equal(r.chunks, 10);
	assert_string_equal(r.finish_reason, "stop");
	assert_string_equal(r.model, "fake-model");
	assert_string_equal(r.endpoint, "fake");
	assert_non_null(r.address);
	assert_non_null(strstr(r.address, "127.0.0.1:"));
	assert_true(r.timings.have);
	assert_int_equal(r.timings.predicted_n, 10);
	assert_true(r.timings.prompt_n > 0);
	assert_true(r.timings.predicted_per_second > 0);
	assert_true(r.usage.have);
	assert_int_equal(r.usage.completion_tokens, 10);
	assert_int_equal(r.http_status, 200);
	assert_int_equal(r.attempts, 1);
	assert_false(r.fell_back);
	assert_non_null(strstr(sw_llm_client_policy_reason(fx.client), "loopback"));

	json_t *body = last_request(&fx);
	assert_true(json_is_true(json_object_get(body, "stream")));
	assert_true(json_is_true(json_object_get(json_object_get(body, "stream_options"),
						 "include_usage")));
	assert_true(json_is_true(json_object_get(body, "cache_prompt")));
	assert_null(json_object_get(body, "temperature"));
	assert_int_equal(json_array_size(json_object_get(body, "messages")), 2);
	json_decref(body);
	sw_llm_result_release(&r);

	/* A second call on the same client reuses what it set up. */
	sw_buf_reset(&fx.streamed);
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.content, DEFAULT_TEXT);
	sw_llm_result_release(&r);
	teardown(&fx);
}

static void test_non_stream_and_settings(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	setup(&fx, NULL, NULL);
	req_init(&rq, &fx);
	rq.stream = false;
	rq.temperature = 0.25;
	rq.top_p = 0.9;
	rq.max_tokens = 3;
	rq.has_seed = true;
	rq.seed = 42;
	rq.json_schema = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}";
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.content, "The fake llama-server");
	assert_string_equal(fx.streamed.data, "The fake llama-server");
	assert_true(r.timings.have);
	assert_int_equal(r.timings.predicted_n, 3);
	json_t *body = last_request(&fx);
	assert_true(json_is_false(json_object_get(body, "stream")));
	assert_null(json_object_get(body, "stream_options"));
	assert_true(json_number_value(json_object_get(body, "temperature")) == 0.25);
	assert_true(json_number_value(json_object_get(body, "top_p")) == 0.9);
	assert_int_equal(json_integer_value(json_object_get(body, "max_tokens")), 3);
	assert_int_equal(json_integer_value(json_object_get(body, "seed")), 42);
	json_t *rf = json_object_get(body, "response_format");
	assert_string_equal(json_string_value(json_object_get(rf, "type")), "json_schema");
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(
		rf, "json_schema"), "schema"), "type")), "object");
	json_decref(body);
	sw_llm_result_release(&r);

	/* Streaming with max_tokens ends with finish_reason "length". */
	rq.stream = true;
	rq.json_schema = "[not json";
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "bad JSON schema"));
	sw_llm_result_release(&r);
	rq.json_schema = NULL;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.finish_reason, "length");
	assert_int_equal(r.chunks, 3);
	sw_llm_result_release(&r);
	teardown(&fx);
}

/* Run one chat against a fake in mode with deadlines; returns rc. */
static int chat_mode(struct sw_llm_result *r, struct sw_err *err, const char *const *args,
		     unsigned first_ms, unsigned token_ms, unsigned total_ms, size_t *streamed)
{
	struct fixture fx;
	struct sw_llm_request rq;
	setup(&fx, NULL, args);
	req_init(&rq, &fx);
	rq.deadlines.first_token_ms = first_ms;
	rq.deadlines.token_ms = token_ms;
	if (total_ms)
		rq.deadlines.total_ms = total_ms;
	int rc = sw_llm_chat(r, fx.client, &rq, err);
	if (streamed)
		*streamed = fx.streamed.len;
	teardown(&fx);
	return rc;
}

static void test_pings(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "ping", NULL }, 0, 0,
				   0, NULL), 0);
	assert_int_equal(r.pings, 3);
	assert_string_equal(r.content, DEFAULT_TEXT);
	sw_llm_result_release(&r);
}

static void test_error_before_stream(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "error-before", NULL },
				   0, 0, 0, NULL), SW_ENET);
	assert_non_null(strstr(err.msg, "endpoint 'fake' answered HTTP 500"));
	assert_non_null(strstr(err.msg, "simulated failure before the answer (server_error)"));
	assert_int_equal(r.attempts, 1); /* a 500 is not retried */
	assert_int_equal(r.http_status, 500);
	sw_llm_result_release(&r);
}

static void test_error_mid_stream(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	size_t streamed = 0;
	(void)state;
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "error-mid", NULL },
				   0, 0, 0, &streamed), SW_ENET);
	assert_non_null(strstr(err.msg, "the server failed mid-answer: simulated failure mid-stream"));
	assert_string_equal(r.content, "The fake llama-server");
	assert_int_equal(streamed, strlen("The fake llama-server"));
	assert_int_equal(r.attempts, 1);
	sw_llm_result_release(&r);
}

static void test_no_done(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "no-done", NULL }, 0,
				   0, 0, NULL), SW_ENET);
	assert_non_null(strstr(err.msg, "without [DONE]"));
	sw_llm_result_release(&r);
}

static void test_hang_first_token(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;
	double t0 = sw_now();
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "hang", NULL }, 300, 0,
				   0, NULL), SW_ENET);
	double took = sw_now() - t0;
	assert_non_null(strstr(err.msg, "first-token deadline (300 ms)"));
	/* It names the server as curl's own timeout does: which of the two
	 * fires first is chance on a busy machine (fleet_hosts.sh). */
	assert_non_null(strstr(err.msg, "endpoint 'fake' (http://127.0.0.1:"));
	assert_true(took >= 0.29); /* the deadline was waited for; load only adds */
	sw_llm_result_release(&r);
}

static void test_slow_tokens(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	size_t streamed = 0;
	(void)state;
	/* 150 ms between tokens against a 60 ms deadline. */
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "slow",
				   "--fake-token-delay", "150", NULL }, 1000, 60, 0, &streamed),
			 SW_ENET);
	assert_non_null(strstr(err.msg, "between-token deadline (60 ms)"));
	assert_string_equal(r.content, "The");
	sw_llm_result_release(&r);

	/* The same server with room to breathe finishes. */
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-token-delay", "20", NULL },
				   1000, 500, 0, NULL), 0);
	assert_string_equal(r.content, DEFAULT_TEXT);
	sw_llm_result_release(&r);

	/* And the overall deadline holds over a live but slow stream. */
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-token-delay", "50", NULL },
				   1000, 500, 200, NULL), SW_ENET);
	assert_non_null(strstr(err.msg, "overall deadline (200 ms)"));
	sw_llm_result_release(&r);
}

static void test_reset(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "reset", NULL }, 0, 0,
				   0, NULL), SW_ENET);
	assert_non_null(strstr(err.msg, "endpoint 'fake'"));
	assert_string_equal(r.content, "The fake llama-server");
	sw_llm_result_release(&r);
}

static void test_garbage_and_huge(void **state)
{
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "garbage", NULL }, 0,
				   0, 0, NULL), SW_EINPUT);
	assert_non_null(strstr(err.msg, "malformed event"));
	sw_llm_result_release(&r);
	assert_int_equal(chat_mode(&r, &err, (const char *[]){ "--fake-mode", "huge", NULL }, 0, 0,
				   0, NULL), SW_ELIMIT);
	assert_non_null(strstr(err.msg, "longer than"));
	sw_llm_result_release(&r);
}

static void test_retry_503(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	setup(&fx, NULL, (const char *[]){ "--fake-loading-requests", "2", NULL });
	req_init(&rq, &fx);
	rq.retries = 5;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_int_equal(r.attempts, 3);
	assert_string_equal(r.content, DEFAULT_TEXT);
	sw_llm_result_release(&r);
	teardown(&fx);

	/* Retries are bounded. */
	setup(&fx, NULL, (const char *[]){ "--fake-loading-requests", "5", NULL });
	req_init(&rq, &fx);
	rq.retries = 1;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), SW_ENET);
	assert_int_equal(r.attempts, 2);
	assert_non_null(strstr(err.msg, "HTTP 503: Loading model (unavailable_error)"));
	sw_llm_result_release(&r);
	teardown(&fx);

	/* A 4xx is never retried. */
	setup(&fx, NULL, (const char *[]){ "--fake-mode", "too-long", NULL });
	req_init(&rq, &fx);
	rq.retries = 5;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), SW_ENET);
	assert_int_equal(r.attempts, 1);
	assert_non_null(strstr(err.msg, "HTTP 400"));
	assert_non_null(strstr(err.msg, "exceed_context_size_error"));
	sw_llm_result_release(&r);
	teardown(&fx);

	/* Loading by time: the retries wait it out. */
	setup(&fx, NULL, (const char *[]){ "--fake-loading", "300", NULL });
	req_init(&rq, &fx);
	rq.retries = 10;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_true(r.attempts > 1);
	sw_llm_result_release(&r);
	teardown(&fx);
}

static void test_api_key(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	enum sw_llm_health h;
	(void)state;

	setup(&fx, NULL, (const char *[]){ "--api-key", "s3cret", NULL });
	req_init(&rq, &fx);
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), SW_ENET);
	assert_non_null(strstr(err.msg, "HTTP 401: Invalid API Key (authentication_error)"));
	assert_int_equal(r.attempts, 1);
	sw_llm_result_release(&r);
	/* /health is public. */
	assert_int_equal(sw_llm_health(&h, fx.client, 2000, &err), 0);
	assert_int_equal(h, SW_LLM_READY);
	sw_llm_client_free(fx.client);
	sw_llm_config_release(&fx.cfg);

	char *key = h_write(dir, "key", "s3cret\n");
	free(key);
	char *conf = sw_xasprintf("[endpoint \"fake\"]\nurl = http://127.0.0.1:%u\napi_key_file = key\n",
				  fx.fake.port);
	assert_int_equal(h_config(&fx.cfg, dir, conf, &err), 0);
	free(conf);
	assert_int_equal(sw_llm_client_new(&fx.client, &fx.cfg, "fake", &err), 0);
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.content, DEFAULT_TEXT);
	sw_llm_result_release(&r);
	teardown(&fx);
}

static void test_refused(void **state)
{
	struct sw_llm_config cfg;
	struct sw_llm_client *c = NULL;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	enum sw_llm_health h;
	(void)state;

	/* Port 1 on loopback: nothing listens there. */
	assert_int_equal(h_config(&cfg, dir, "[endpoint \"gone\"]\nurl = http://127.0.0.1:1\n", &err), 0);
	assert_int_equal(sw_llm_client_new(&c, &cfg, "gone", &err), 0);
	sw_llm_request_init(&rq);
	rq.messages = hello;
	rq.n_messages = 2;
	rq.deadlines.connect_ms = 1000;
	assert_int_equal(sw_llm_chat(&r, c, &rq, &err), SW_ENET);
	assert_non_null(strstr(err.msg, "endpoint 'gone' (http://127.0.0.1:1): cannot connect"));
	assert_int_equal(r.attempts, 1);
	sw_llm_result_release(&r);
	assert_int_equal(sw_llm_health(&h, c, 1000, &err), 0);
	assert_int_equal(h, SW_LLM_DOWN);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
}

struct canceller {
	struct sw_llm_cancel *cancel;
	long after_ms;
};

static void *cancel_later(void *arg)
{
	struct canceller *k = arg;
	h_sleep_ms(k->after_ms);
	sw_llm_cancel_request(k->cancel);
	return NULL;
}

static void test_cancel(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	struct sw_llm_cancel cancel = { false };
	struct canceller k = { &cancel, 200 };
	pthread_t t;
	(void)state;

	setup(&fx, NULL, (const char *[]){ "--fake-mode", "hang", NULL });
	req_init(&rq, &fx);
	rq.cancel = &cancel;
	double t0 = sw_now();
	assert_int_equal(pthread_create(&t, NULL, cancel_later, &k), 0);
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), SW_ECANCEL);
	double took = sw_now() - t0;
	pthread_join(t, NULL);
	assert_non_null(strstr(err.msg, "cancelled"));
	assert_true(took >= 0.19); /* the fake hangs for a minute: ECANCEL is the proof */
	sw_llm_result_release(&r);
	teardown(&fx);
}

static void test_health_phases(void **state)
{
	struct h_fake f;
	struct sw_llm_config cfg;
	struct sw_llm_client *c = NULL;
	struct sw_err err = { 0 };
	enum sw_llm_health h = SW_LLM_READY;
	(void)state;

	/* Fixed port: the fake is not listening yet when we look. */
	int probe = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	assert_int_equal(bind(probe, (struct sockaddr *)&sa, sizeof(sa)), 0);
	getsockname(probe, (struct sockaddr *)&sa, &sl);
	unsigned port = ntohs(sa.sin_port);
	close(probe);
	char portarg[16];
	snprintf(portarg, sizeof(portarg), "%u", port);
	char *conf = sw_xasprintf("[endpoint \"f\"]\nurl = http://127.0.0.1:%u\n", port);
	assert_int_equal(h_config(&cfg, dir, conf, &err), 0);
	free(conf);
	assert_int_equal(sw_llm_client_new(&c, &cfg, "f", &err), 0);

	h_fake_start_ex(&f, dir, false, false, (const char *[]){ "--port", portarg,
			"--fake-listen-delay", "300", "--fake-loading", "400", "--fake-old-health", NULL });
	bool saw[5] = { false };
	double until = sw_now() + 60; /* ends a broken run, not a slow one */
	while (sw_now() < until) {
		assert_int_equal(sw_llm_health(&h, c, 500, &err), 0);
		saw[h] = true;
		if (h == SW_LLM_READY)
			break;
		h_sleep_ms(40);
	}
	assert_true(saw[SW_LLM_DOWN]);
	assert_true(saw[SW_LLM_LOADING]);
	assert_true(saw[SW_LLM_READY]);
	assert_int_equal(h_fake_stop(&f), 0);

	/* Current builds: 503 {"error":{"message":"Loading model"}}. */
	h_fake_start(&f, dir, (const char *[]){ "--port", portarg, "--fake-loading", "5000", NULL });
	assert_int_equal(sw_llm_health(&h, c, 500, &err), 0);
	assert_int_equal(h, SW_LLM_LOADING);
	assert_non_null(strstr(err.msg, "Loading model"));
	h_fake_stop(&f);

	/* A load failure: the process exits 1. */
	h_fake_start_ex(&f, dir, false, false, (const char *[]){ "--fake-load-fail", NULL });
	int st = 0;
	waitpid(f.pid, &st, 0);
	f.pid = 0;
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	h_fake_stop(&f);

	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
}

static void test_server_info(void **state)
{
	struct fixture fx;
	struct sw_llm_server_info info;
	struct sw_err err = { 0 };
	struct sw_buf b = SW_BUF_INIT;
	size_t n = 0;
	(void)state;

	setup(&fx, NULL, (const char *[]){ "-m", "/models/x.gguf", "-c", "8192", "-np", "2",
					    "-ngl", "99", "--metrics", NULL });
	assert_int_equal(sw_llm_server_info(&info, fx.client, 2000, &err), 0);
	assert_string_equal(info.model, "/models/x.gguf");
	assert_string_equal(info.build, "b0000-fake");
	assert_int_equal(info.n_ctx, 4096);
	assert_int_equal(info.total_slots, 2);
	assert_int_equal(info.idle_slots, 2);
	sw_llm_server_info_release(&info);
	assert_int_equal(sw_llm_get(&b, fx.client, "/metrics", 2000, &err), 0);
	assert_non_null(strstr(b.data, "llamacpp:prompt_tokens_total"));
	assert_int_equal(sw_llm_tokenize(&n, fx.client, "Hello, world.", 2000, &err), 0);
	assert_int_equal(n, 4);
	teardown(&fx);

	setup(&fx, NULL, (const char *[]){ "--no-slots", NULL });
	assert_int_equal(sw_llm_server_info(&info, fx.client, 2000, &err), 0);
	assert_int_equal(info.idle_slots, -1);
	sw_llm_server_info_release(&info);
	assert_int_equal(sw_llm_get(&b, fx.client, "/metrics", 2000, &err), SW_ENET);
	assert_non_null(strstr(err.msg, "HTTP 501"));
	sw_buf_release(&b);
	teardown(&fx);
}

static void test_fallback(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	setup(&fx, "[endpoint \"gone\"]\nurl = http://127.0.0.1:1\n"
		   "[role \"drafter\"]\nendpoint = gone\nfallback = fake\nconnect_timeout = 1\n"
		   "[role \"plain\"]\nendpoint = gone\nconnect_timeout = 1\n"
		   "[role \"keyed\"]\nendpoint = fake\nfallback = gone\n", NULL);
	req_init(&rq, &fx);
	assert_int_equal(sw_llm_chat_role(&r, &fx.cfg, "drafter", &rq, &err), 0);
	assert_true(r.fell_back);
	assert_string_equal(r.endpoint, "fake");
	assert_int_equal(r.attempts, 2);
	assert_string_equal(r.content, DEFAULT_TEXT);
	sw_llm_result_release(&r);

	/* Without a fallback named, nothing else is tried. */
	assert_int_equal(sw_llm_chat_role(&r, &fx.cfg, "plain", &rq, &err), SW_ENET);
	assert_false(r.fell_back);
	assert_non_null(strstr(err.msg, "endpoint 'gone'"));
	sw_llm_result_release(&r);

	assert_int_equal(sw_llm_chat_role(&r, &fx.cfg, "nobody", &rq, &err), SW_ENOTFOUND);
	sw_llm_result_release(&r);
	teardown(&fx);

	/* A 4xx is the request's fault: no fallback. */
	setup(&fx, "[endpoint \"other\"]\nurl = http://127.0.0.1:1\n"
		   "[role \"r\"]\nendpoint = fake\nfallback = other\n",
	      (const char *[]){ "--fake-mode", "too-long", NULL });
	req_init(&rq, &fx);
	assert_int_equal(sw_llm_chat_role(&r, &fx.cfg, "r", &rq, &err), SW_ENET);
	assert_false(r.fell_back);
	assert_non_null(strstr(err.msg, "HTTP 400"));
	sw_llm_result_release(&r);
	teardown(&fx);
}

static void test_unix_socket(void **state)
{
	struct h_fake f;
	struct sw_llm_config cfg;
	struct sw_llm_client *c = NULL;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	h_fake_start_ex(&f, dir, true, true, NULL);
	char *conf = sw_xasprintf("[endpoint \"sock\"]\nurl = unix:%s\n", f.sock);
	assert_int_equal(h_config(&cfg, dir, conf, &err), 0);
	free(conf);
	assert_int_equal(sw_llm_client_new(&c, &cfg, "sock", &err), 0);
	sw_llm_request_init(&rq);
	rq.messages = hello;
	rq.n_messages = 2;
	assert_int_equal(sw_llm_chat(&r, c, &rq, &err), 0);
	assert_string_equal(r.content, DEFAULT_TEXT);
	assert_non_null(r.address);
	assert_memory_equal(r.address, "unix:", 5);
	assert_non_null(strstr(sw_llm_client_policy_reason(c), "unix socket"));
	sw_llm_result_release(&r);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
	h_fake_stop(&f);
}

static void test_script(void **state)
{
	struct fixture fx;
	struct sw_llm_request rq;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	char *script = h_write(dir, "script.ini",
		"[answer \"first\"]\nseq = 1\ntext = See Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019).\n"
		"[answer \"fixed\"]\nmatch = unsupported\ntext = I withdraw that citation.\\nNo authority supports it.\n"
		"[answer \"broken\"]\nmatch = break\nmode = error-mid\n");
	setup(&fx, NULL, (const char *[]){ "--fake-script", script, NULL });
	req_init(&rq, &fx);
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_non_null(strstr(r.content, "925 F.3d 1339"));
	sw_llm_result_release(&r);
	struct sw_llm_message fix[] = { { "user", "That citation is unsupported; fix it." } };
	rq.messages = fix;
	rq.n_messages = 1;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.content, "I withdraw that citation.\nNo authority supports it.");
	sw_llm_result_release(&r);
	struct sw_llm_message brk[] = { { "user", "please break" } };
	rq.messages = brk;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), SW_ENET);
	sw_llm_result_release(&r);
	/* No answer matches: the default sentence. */
	rq.messages = hello;
	rq.n_messages = 2;
	assert_int_equal(sw_llm_chat(&r, fx.client, &rq, &err), 0);
	assert_string_equal(r.content, DEFAULT_TEXT);

	char *log = sw_path_join(dir, "speed.log");
	struct sw_llm_speed sp;
	assert_int_equal(sw_llm_stats_speed(&sp, log, "fake", &err), 0);
	assert_int_equal(sp.calls, 0);
	for (int i = 0; i < 7; i++)
		assert_int_equal(sw_llm_stats_append(log, &r, &err), 0);
	assert_int_equal(sw_llm_stats_speed(&sp, log, "fake", &err), 0);
	assert_int_equal(sp.calls, 5);
	assert_true(sp.predicted_per_second > 0);
	assert_int_equal(sw_llm_stats_speed(&sp, log, "other", &err), 0);
	assert_int_equal(sp.calls, 0);
	free(log);
	sw_llm_result_release(&r);
	free(script);
	teardown(&fx);
}

int main(void)
{
	h_netns_enter(false, "llm_client_test");
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_ok),
		cmocka_unit_test(test_non_stream_and_settings),
		cmocka_unit_test(test_pings),
		cmocka_unit_test(test_error_before_stream),
		cmocka_unit_test(test_error_mid_stream),
		cmocka_unit_test(test_no_done),
		cmocka_unit_test(test_hang_first_token),
		cmocka_unit_test(test_slow_tokens),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_garbage_and_huge),
		cmocka_unit_test(test_retry_503),
		cmocka_unit_test(test_api_key),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_health_phases),
		cmocka_unit_test(test_server_info),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_unix_socket),
		cmocka_unit_test(test_script),
	};
	return cmocka_run_group_tests(tests, h_group_setup, h_group_teardown);
}
