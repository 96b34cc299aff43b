/*
 * llm_sse_test.c - the event-stream parser and the chat-completion decoder:
 * line ends split across reads, comments (pings), multi-line data, other
 * fields, [DONE], error events, limits, timings and error bodies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "llm/llm_int.h"

struct events {
	char *data[16];
	size_t n;
};

static int collect(void *user, const char *d, size_t len)
{
	struct events *e = user;
	assert_true(e->n < 16);
	e->data[e->n++] = sw_xstrndup(d, len);
	return 0;
}

static void feed_bytewise(struct sw__llm_sse *s, const char *text)
{
	for (size_t i = 0; text[i]; i++)
		assert_int_equal(sw__llm_sse_feed(s, text + i, 1, NULL), 0);
}

static void test_lines(void **state)
{
	static const char text[] =
		": ping\r\n\r\n"
		"data: one\r\n\r\n"
		"data:two\rdata: more\r\r"
		"event: x\nid: 4\nretry: 1\ndatabase: no\ndata\n\n"
		"data: [DONE]\n\n"
		"data: never finished";
	struct events whole = { 0 }, bytes = { 0 };
	struct sw__llm_sse s;
	(void)state;

	sw__llm_sse_init(&s, 1024, collect, &whole);
	assert_int_equal(sw__llm_sse_feed(&s, text, strlen(text), NULL), 0);
	assert_int_equal(s.pings, 1);
	sw__llm_sse_release(&s);
	sw__llm_sse_init(&s, 1024, collect, &bytes);
	feed_bytewise(&s, text);
	sw__llm_sse_release(&s);

	assert_int_equal(whole.n, 4);
	assert_int_equal(bytes.n, 4);
	const char *want[] = { "one", "two\nmore", "", "[DONE]" };
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(whole.data[i], want[i]);
		assert_string_equal(bytes.data[i], want[i]);
		free(whole.data[i]);
		free(bytes.data[i]);
	}
}

static void test_limit(void **state)
{
	struct events e = { 0 };
	struct sw__llm_sse s;
	struct sw_err err = { 0 };
	char big[100];
	(void)state;

	memset(big, 'x', sizeof(big));
	sw__llm_sse_init(&s, 64, collect, &e);
	assert_int_equal(sw__llm_sse_feed(&s, "data: ", 6, &err), 0);
	assert_int_equal(sw__llm_sse_feed(&s, big, sizeof(big), &err), SW_ELIMIT);
	assert_string_equal(err.msg, "a line is longer than 64 bytes");
	sw__llm_sse_release(&s);
}

static void add_text(void *user, const char *text, size_t len)
{
	sw_buf_add(user, text, len);
}

static void test_answer(void **state)
{
	struct sw__llm_answer a;
	struct sw_buf streamed = SW_BUF_INIT;
	(void)state;

	sw__llm_answer_init(&a, 100);
	a.on_text = add_text;
	a.user = &streamed;
	const char *ev[] = {
		"{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null}}],\"model\":\"m1\"}",
		"{\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}",
		"{\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}",
		"{\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}",
		"{\"choices\":[{\"finish_reason\":\"stop\",\"delta\":{}}]}",
		"{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5},"
		"\"timings\":{\"cache_n\":1,\"prompt_n\":3,\"prompt_ms\":30.9,\"prompt_per_second\":97.1,"
		"\"predicted_n\":2,\"predicted_ms\":40,\"predicted_per_second\":50}}",
		"[DONE]",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(ev); i++)
		assert_int_equal(sw__llm_answer_event(&a, ev[i], strlen(ev[i])), 0);
	assert_true(a.done);
	assert_string_equal(a.content.data, "Hello");
	assert_string_equal(streamed.data, "Hello");
	assert_string_equal(a.reasoning.data, "hmm");
	assert_int_equal(a.chunks, 2);
	assert_string_equal(a.model, "m1");
	assert_string_equal(a.finish_reason, "stop");
	assert_true(a.timings.have);
	assert_int_equal(a.timings.cache_n, 1);
	assert_int_equal(a.timings.predicted_n, 2);
	assert_true(a.timings.prompt_ms == 30.9);
	assert_true(a.usage.have);
	assert_int_equal(a.usage.total_tokens, 5);
	/* Nothing may follow [DONE]. */
	assert_int_equal(sw__llm_answer_event(&a, "{}", 2), SW_EINPUT);
	sw__llm_answer_release(&a);
	sw_buf_release(&streamed);

	sw__llm_answer_init(&a, 4);
	static const char err_ev[] = "{\"error\":{\"code\":500,\"message\":\"boom\",\"type\":\"server_error\"}}";
	assert_int_equal(sw__llm_answer_event(&a, err_ev, strlen(err_ev)), SW_ENET);
	assert_string_equal(a.error, "boom (server_error)");
	assert_int_equal(a.error_code, 500);
	sw__llm_answer_release(&a);

	sw__llm_answer_init(&a, 4);
	static const char big[] = "{\"choices\":[{\"delta\":{\"content\":\"12345\"}}]}";
	assert_int_equal(sw__llm_answer_event(&a, big, strlen(big)), SW_ELIMIT);
	assert_string_equal(a.error, "the answer is longer than 4 bytes");
	sw__llm_answer_release(&a);

	sw__llm_answer_init(&a, 4);
	assert_int_equal(sw__llm_answer_event(&a, "[1]", 3), SW_EINPUT);
	assert_string_equal(a.error, "malformed event: not an object");
	sw__llm_answer_release(&a);
}

static void test_error_bodies(void **state)
{
	char msg[128];
	(void)state;
	static const char cur[] = "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}";
	sw__llm_error_body_message(msg, sizeof(msg), cur, strlen(cur));
	assert_string_equal(msg, "Loading model (unavailable_error)");
	sw__llm_error_body_message(msg, sizeof(msg), "{\"status\":\"loading model\"}", 26);
	assert_string_equal(msg, "loading model");
	sw__llm_error_body_message(msg, sizeof(msg), "Bad Gateway\r\nmore", 17);
	assert_string_equal(msg, "Bad Gateway");
	sw__llm_error_body_message(msg, sizeof(msg), "", 0);
	assert_string_equal(msg, "empty body");
	sw__llm_error_body_message(msg, sizeof(msg), "{\"error\":\"a\\u001bb\"}", 20);
	assert_string_equal(msg, "a b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_error_bodies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
