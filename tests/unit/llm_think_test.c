/* llm_think_test.c - a reasoning model's thinking never becomes the answer:
 * reasoning_content, reasoning, a <think> block left in the content and a
 * stray </think>, streamed in every split and not streamed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "llm/llm_int.h"

static void add_text(void *user, const char *text, size_t len)
{
	sw_buf_add(user, text, len);
}

static void event(struct sw__llm_answer *a, const char *key, const char *text, size_t n)
{
	json_t *ev = json_pack("{s:[{s:{s:o}}]}", "choices", "delta", key, sw_json_strn(text, n));
	char *s = json_dumps(ev, JSON_COMPACT);
	assert_int_equal(sw__llm_answer_event(a, s, strlen(s)), 0);
	free(s);
	json_decref(ev);
}

struct want {
	const char *content;   /* what the model wrote, in the content */
	const char *answer;    /* what the answer must be */
	const char *reasoning; /* what the thinking must be ("" none) */
	const char *shown;     /* what on_text saw when streamed */
};

static const struct want cases[] = {
	{ "Hello", "Hello", "", "Hello" },
	{ "<think>weigh it</think>\n\nThe answer.", "The answer.", "weigh it", "The answer." },
	{ "  <think>a</think>b", "  b", "a", "  b" },
	/* The template opened the block in the prompt. */
	{ "I should check.</think>\n\nThe answer.", "The answer.", "I should check.",
	  "I should check.The answer." },
	/* Cut off while thinking: no answer, all thinking. */
	{ "<think>still going", "", "still going", "" },
	/* Things that look like tags and are not. */
	{ "a < b and <thin> and </thinker", "a < b and <thin> and </thinker", "",
	  "a < b and <thin> and </thinker" },
	{ "ends in <thi", "ends in <thi", "", "ends in <thi" },
	{ "<think>x</think>y<think>z</think>w", "yw", "xz", "yw" },
};

/* Each case sent as two events split at every byte, and byte by byte. */
static void test_streamed(void **state)
{
	(void)state;
	for (size_t c = 0; c < SW_ARRAY_LEN(cases); c++) {
		const char *t = cases[c].content;
		size_t n = strlen(t);
		for (size_t cut = 0; cut <= n + 1; cut++) {
			struct sw__llm_answer a;
			struct sw_buf shown = SW_BUF_INIT;
			sw__llm_answer_init(&a, 1000);
			a.on_text = add_text;
			a.user = &shown;
			if (cut <= n) {
				if (cut > 0)
					event(&a, "content", t, cut);
				if (cut < n)
					event(&a, "content", t + cut, n - cut);
			} else {
				for (size_t i = 0; i < n; i++)
					event(&a, "content", t + i, 1);
			}
			assert_int_equal(sw__llm_answer_event(&a, "[DONE]", 6), 0);
			assert_string_equal(a.content.len ? a.content.data : "", cases[c].answer);
			assert_string_equal(a.reasoning.len ? a.reasoning.data : "",
					    cases[c].reasoning);
			assert_string_equal(shown.len ? shown.data : "", cases[c].shown);
			sw__llm_answer_release(&a);
			sw_buf_release(&shown);
		}
	}
}

static void test_body(void **state)
{
	(void)state;
	for (size_t c = 0; c < SW_ARRAY_LEN(cases); c++) {
		struct sw__llm_answer a;
		json_t *body = json_pack("{s:[{s:{s:s}}]}", "choices", "message", "content",
					 cases[c].content);
		char *s = json_dumps(body, JSON_COMPACT);
		sw__llm_answer_init(&a, 1000);
		assert_int_equal(sw__llm_answer_body(&a, s, strlen(s)), 0);
		assert_string_equal(a.content.len ? a.content.data : "", cases[c].answer);
		assert_string_equal(a.reasoning.len ? a.reasoning.data : "", cases[c].reasoning);
		sw__llm_answer_release(&a);
		free(s);
		json_decref(body);
	}
}

/* The servers that parse the thinking out themselves. */
static void test_keys(void **state)
{
	static const char *const keys[] = { "reasoning_content", "reasoning" };
	(void)state;
	for (size_t k = 0; k < SW_ARRAY_LEN(keys); k++) {
		struct sw__llm_answer a;
		struct sw_buf shown = SW_BUF_INIT;
		sw__llm_answer_init(&a, 1000);
		a.on_text = add_text;
		a.user = &shown;
		event(&a, keys[k], "first ", 6);
		event(&a, keys[k], "think", 5);
		event(&a, "content", "Answer.", 7);
		assert_int_equal(sw__llm_answer_event(&a, "[DONE]", 6), 0);
		assert_string_equal(a.content.data, "Answer.");
		assert_string_equal(a.reasoning.data, "first think");
		assert_string_equal(shown.data, "Answer.");
		sw__llm_answer_release(&a);
		sw_buf_release(&shown);

		char *body = sw_xasprintf("{\"choices\":[{\"message\":{\"%s\":\"mull\","
					  "\"content\":\"Done.\"}}]}", keys[k]);
		sw__llm_answer_init(&a, 1000);
		assert_int_equal(sw__llm_answer_body(&a, body, strlen(body)), 0);
		assert_string_equal(a.content.data, "Done.");
		assert_string_equal(a.reasoning.data, "mull");
		sw__llm_answer_release(&a);
		free(body);
	}
}

/* Thinking counts against the answer's bound. */
static void test_limit(void **state)
{
	struct sw__llm_answer a;
	(void)state;
	sw__llm_answer_init(&a, 10);
	event(&a, "content", "<think>123", 10);
	static const char more[] = "{\"choices\":[{\"delta\":{\"content\":\"6789</think>\"}}]}";
	assert_int_equal(sw__llm_answer_event(&a, more, strlen(more)), SW_ELIMIT);
	sw__llm_answer_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streamed),
		cmocka_unit_test(test_body),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
