/*
 * pipeline_template_test.c - prompt templates: literal text kept byte for
 * byte, {{placeholders}} filled and their spans reported, and the errors
 * (unclosed, empty, too long, bad bytes, not fillable) with TEMPLATE:LINE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline/pipeline.h"

/* The values of a step that can fill brief, evidence and item.KEY. */
static const char *lookup(void *ud, const char *name, size_t len, const char **key_out)
{
	int *calls = ud;
	(*calls)++;
	static const struct {
		const char *name, *value;
	} vals[] = {
		{ "brief", "Declare the delivery dates." },
		{ "evidence", "<<<EVIDENCE doc=po.pdf bates=ACME0000004 page=1>>>\nShipped 2023-04-02.\n<<<END EVIDENCE>>>" },
		{ "item.title", "The Late Deliveries" },
		{ "date", "" },
		{ "braces", "{{brief}}" },
	};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		if (strlen(vals[i].name) == len && memcmp(vals[i].name, name, len) == 0) {
			*key_out = vals[i].name;
			return vals[i].value;
		}
	return NULL;
}

static void test_render(void **state)
{
	(void)state;
	/* Markdown as a lawyer edits it: CRLF, a single brace, a JSON
	 * example, a non-ASCII byte, blanks inside the braces. */
	const char *tmpl = "## {{ item.title }}\r\nBrief: {{brief}}\r\n"
			   "Shape: {\"a\": 1} \xc2\xa7 1746 {single}\n{{evidence}}\n"
			   "Date: [{{date}}] and {{braces}} end";
	struct sw_buf out = SW_BUF_INIT;
	struct sw_tmpl_span *spans = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	int calls = 0;
	assert_int_equal(sw_tmpl_render(&out, &spans, &n, tmpl, "section.md", lookup, &calls, &err),
			 0);
	const char *want = "## The Late Deliveries\r\nBrief: Declare the delivery dates.\r\n"
			   "Shape: {\"a\": 1} \xc2\xa7 1746 {single}\n"
			   "<<<EVIDENCE doc=po.pdf bates=ACME0000004 page=1>>>\nShipped 2023-04-02.\n"
			   "<<<END EVIDENCE>>>\nDate: [] and {{brief}} end";
	assert_int_equal(out.len, strlen(want));
	assert_memory_equal(out.data, want, out.len);
	assert_int_equal(n, 5);
	assert_int_equal(calls, 5);
	assert_string_equal(spans[0].name, "item.title");
	assert_memory_equal(out.data + spans[0].start, "The Late Deliveries", spans[0].len);
	assert_string_equal(spans[2].name, "evidence");
	assert_memory_equal(out.data + spans[2].start, "<<<EVIDENCE", 11);
	assert_int_equal(spans[3].len, 0);
	/* A value is not scanned again: the {{brief}} in braces' value stays. */
	assert_string_equal(spans[4].name, "braces");
	assert_memory_equal(out.data + spans[4].start, "{{brief}}", 9);
	free(spans);

	/* Appends to what out holds; no placeholder: the text as it is. */
	spans = NULL;
	assert_int_equal(sw_tmpl_render(&out, &spans, &n, "tail", "t.md", lookup, &calls, &err), 0);
	assert_int_equal(n, 0);
	assert_memory_equal(out.data + strlen(want), "tail", 4);
	free(spans);
	sw_buf_release(&out);
}

static void expect_error(const char *tmpl, const char *msg)
{
	struct sw_buf out = SW_BUF_INIT;
	struct sw_tmpl_span *spans = (struct sw_tmpl_span *)1;
	size_t n = 99;
	struct sw_err err = { 0 };
	int calls = 0;
	sw_buf_adds(&out, "kept");
	int rc = sw_tmpl_render(&out, &spans, &n, tmpl, "draft.md", lookup, &calls, &err);
	assert_int_equal(rc, SW_EINPUT);
	assert_string_equal(err.msg, msg);
	assert_null(spans);
	assert_int_equal(n, 0);
	/* What out held before stays; nothing half-rendered is left. */
	assert_int_equal(out.len, 4);
	sw_buf_release(&out);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("one\ntwo {{brief\n}} three", "draft.md:2: '{{' without '}}' on its line");
	expect_error("{{brief}}\n\n\nend {{", "draft.md:4: '{{' without '}}' on its line");
	expect_error("a\n{{ }}", "draft.md:2: an empty {{}}: name a placeholder");
	expect_error("x {{brief|upper}} y",
		     "draft.md:1: bad placeholder '{{brief|upper}}': a name is letters, digits, "
		     "'_' and '.'");
	expect_error("{{#if brief}}", "draft.md:1: bad placeholder '{{#if brief}}': a name is "
		     "letters, digits, '_' and '.'");
	expect_error("ok {{brief}}\n{{verifier}}",
		     "draft.md:2: {{verifier}} is not a placeholder here");
	char longname[200];
	memset(longname, 0, sizeof(longname));
	memcpy(longname, "{{", 2);
	memset(longname + 2, 'a', 65);
	memcpy(longname + 2 + 65, "}}", 2);
	expect_error(longname, "draft.md:1: a placeholder name longer than 64 bytes");
	/* 64 bytes is allowed (and then not fillable here). */
	longname[2 + 64] = '}';
	longname[2 + 65] = '}';
	longname[2 + 66] = '\0';
	char msg[256];
	snprintf(msg, sizeof(msg), "draft.md:1: %s is not a placeholder here", longname);
	expect_error(longname, msg);
}

static void test_limit(void **state)
{
	(void)state;
	size_t n = SW_TASK_MAX_FILE + 1;
	char *big = malloc(n + 1);
	memset(big, 'x', n);
	big[n] = '\0';
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	int calls = 0;
	assert_int_equal(sw_tmpl_render(&out, NULL, NULL, big, "big.md", lookup, &calls, &err),
			 SW_ELIMIT);
	free(big);
	sw_buf_release(&out);
}

struct seen {
	char names[8][80];
	int lines[8];
	int n;
	int stop_at;
};

static int each(void *ud, const char *name, size_t len, int line)
{
	struct seen *s = ud;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%.*s", (int)len, name);
	s->lines[s->n++] = line;
	return s->n == s->stop_at ? 42 : 0;
}

static void test_each(void **state)
{
	(void)state;
	struct seen s = { .stop_at = 0 };
	assert_int_equal(sw_tmpl_each("{{a}}\n\n{{ step.outline }} {{item.x}}\n", each, &s), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[1], "step.outline");
	assert_int_equal(s.lines[0], 1);
	assert_int_equal(s.lines[1], 3);
	assert_int_equal(s.lines[2], 3);
	struct seen t = { .stop_at = 2 };
	assert_int_equal(sw_tmpl_each("{{a}}{{b}}{{c}}", each, &t), 42);
	assert_int_equal(t.n, 2);
	struct seen u = { .stop_at = 0 };
	assert_int_equal(sw_tmpl_each("{{a}} {{b", each, &u), SW_EINPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_each),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
