/*
 * sse.c - the event-stream line parser and the decoder of llama-server's
 * chat-completion events and bodies.
 *
 * The parser is on the per-token path, so a complete line that arrives in
 * one piece is handled where it lies; only lines split across reads are
 * copied into the line buffer.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "llm/llm_int.h"

void sw__llm_sse_init(struct sw__llm_sse *s, size_t max_line,
		  int (*on_event)(void *user, const char *data, size_t len), void *user)
{
	memset(s, 0, sizeof(*s));
	sw_buf_init(&s->line);
	sw_buf_init(&s->data);
	s->max_line = max_line;
	s->on_event = on_event;
	s->user = user;
}

void sw__llm_sse_release(struct sw__llm_sse *s)
{
	if (!s)
		return;
	sw_buf_release(&s->line);
	sw_buf_release(&s->data);
}

static bool has_prefix(const char *p, size_t n, const char *lit, size_t litn)
{
	return n >= litn && memcmp(p, lit, litn) == 0;
}

/* One complete line, without its end. */
static int sse_line(struct sw__llm_sse *s, const char *p, size_t n, struct sw_err *err)
{
	if (n == 0) {
		if (!s->have_data)
			return 0;
		s->have_data = false;
		int rc = s->on_event(s->user, s->data.data, s->data.len);
		sw_buf_reset(&s->data);
		return rc;
	}
	if (p[0] == ':') {
		s->pings++;
		return 0;
	}
	if (!has_prefix(p, n, "data", 4))
		return 0; /* event:, id:, retry: and unknown fields mean nothing here */
	if (n > 4 && p[4] != ':')
		return 0; /* a field named e.g. "database" */
	p += 4;
	n -= 4;
	if (n > 0) {
		p++; /* the ':' */
		n--;
	}
	if (n > 0 && p[0] == ' ')
		p++, n--;
	if (s->have_data) {
		if (s->data.len + 1 + n > s->max_line)
			return sw_err_set(err, SW_ELIMIT, "an event is longer than %zu bytes",
					  s->max_line);
		sw_buf_addc(&s->data, '\n');
	}
	sw_buf_add(&s->data, p, n);
	s->have_data = true;
	return 0;
}

int sw__llm_sse_feed(struct sw__llm_sse *s, const char *p, size_t n, struct sw_err *err)
{
	const char *end = p + n;
	int rc = 0;

	if (s->skip_lf && p < end) {
		s->skip_lf = false;
		if (*p == '\n')
			p++;
	}
	while (p < end) {
		const char *eol = p;
		while (eol < end && *eol != '\n' && *eol != '\r')
			eol++;
		if (eol == end) {
			if (s->line.len + (size_t)(end - p) > s->max_line)
				return sw_err_set(err, SW_ELIMIT, "a line is longer than %zu bytes",
						  s->max_line);
			sw_buf_add(&s->line, p, (size_t)(end - p));
			break;
		}
		if (s->line.len > 0) {
			if (s->line.len + (size_t)(eol - p) > s->max_line)
				return sw_err_set(err, SW_ELIMIT, "a line is longer than %zu bytes",
						  s->max_line);
			sw_buf_add(&s->line, p, (size_t)(eol - p));
			rc = sse_line(s, s->line.data, s->line.len, err);
			sw_buf_reset(&s->line);
		} else {
			if ((size_t)(eol - p) > s->max_line)
				return sw_err_set(err, SW_ELIMIT, "a line is longer than %zu bytes",
						  s->max_line);
			rc = sse_line(s, p, (size_t)(eol - p), err);
		}
		if (rc != 0)
			return rc;
		p = eol + 1;
		if (*eol == '\r') {
			if (p == end)
				s->skip_lf = true;
			else if (*p == '\n')
				p++;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ events */

void sw__llm_answer_init(struct sw__llm_answer *a, size_t max_content)
{
	memset(a, 0, sizeof(*a));
	sw_buf_init(&a->content);
	sw_buf_init(&a->reasoning);
	a->max_content = max_content;
}

void sw__llm_answer_release(struct sw__llm_answer *a)
{
	if (!a)
		return;
	sw_buf_release(&a->content);
	sw_buf_release(&a->reasoning);
	free(a->finish_reason);
	free(a->model);
	memset(a, 0, sizeof(*a));
}

SW_PRINTF(3, 4)
static int fail(struct sw__llm_answer *a, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->error, sizeof(a->error), fmt, ap);
	va_end(ap);
	a->failed = true;
	return code;
}

/* A count or code from the server, 0 unless it is a whole number in
 * [lo, hi] (a huge one is no count: converting it is undefined). */
static long get_long(const json_t *obj, const char *key, long lo, long hi)
{
	long long v;
	return sw_json_int(json_object_get(obj, key), lo, hi, &v) ? (long)v : 0;
}

static double get_double(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : 0.0;
}

void sw__llm_read_timings(struct sw_llm_timings *out, const json_t *obj)
{
	if (!json_is_object(obj))
		return;
	out->have = true;
	out->cache_n = get_long(obj, "cache_n", 0, LONG_MAX);
	out->prompt_n = get_long(obj, "prompt_n", 0, LONG_MAX);
	out->predicted_n = get_long(obj, "predicted_n", 0, LONG_MAX);
	out->prompt_ms = get_double(obj, "prompt_ms");
	out->predicted_ms = get_double(obj, "predicted_ms");
	out->prompt_per_second = get_double(obj, "prompt_per_second");
	out->predicted_per_second = get_double(obj, "predicted_per_second");
}

void sw__llm_read_usage(struct sw_llm_usage *out, const json_t *obj)
{
	if (!json_is_object(obj))
		return;
	out->have = true;
	out->prompt_tokens = get_long(obj, "prompt_tokens", 0, LONG_MAX);
	out->completion_tokens = get_long(obj, "completion_tokens", 0, LONG_MAX);
	out->total_tokens = get_long(obj, "total_tokens", 0, LONG_MAX);
}

/* Where the splitter puts each piece of content: the answer (shown as it
 * comes) or the thinking. */
static int think_emit(void *user, enum sw__llm_think_part part, const char *p, size_t n)
{
	struct sw__llm_answer *a = user;
	if (part == SW__LLM_THINK_STRAY) {
		/* Already shown when streamed; kept out of the answer. */
		sw_buf_add(&a->reasoning, a->content.data ? a->content.data : "", a->content.len);
		sw_buf_reset(&a->content);
		return 0;
	}
	if (part == SW__LLM_THINK_REASONING) {
		sw_buf_add(&a->reasoning, p, n);
		return 0;
	}
	sw_buf_add(&a->content, p, n);
	if (a->on_text)
		a->on_text(a->user, p, n);
	return 0;
}

static int add_text(struct sw__llm_answer *a, const json_t *v, bool content, bool stream)
{
	if (!json_is_string(v))
		return 0;
	size_t n = json_string_length(v);
	if (n == 0)
		return 0;
	if (a->content.len + a->reasoning.len + a->think.npend + n > a->max_content)
		return fail(a, SW_ELIMIT, "the answer is longer than %zu bytes", a->max_content);
	if (!content) {
		sw_buf_add(&a->reasoning, json_string_value(v), n);
		return 0;
	}
	if (stream)
		a->chunks++;
	return sw__llm_think_feed(&a->think, json_string_value(v), n, think_emit, a);
}

int sw__llm_answer_finish(struct sw__llm_answer *a)
{
	return sw__llm_think_flush(&a->think, think_emit, a);
}

static void set_str(char **dst, const json_t *v)
{
	if (!json_is_string(v))
		return;
	free(*dst);
	*dst = sw_xstrndup(json_string_value(v), json_string_length(v));
}

static int error_object(struct sw__llm_answer *a, const json_t *e)
{
	const json_t *msg = json_object_get(e, "message");
	const json_t *type = json_object_get(e, "type");
	a->error_code = (int)get_long(e, "code", INT_MIN, INT_MAX);
	if (json_is_string(type))
		return fail(a, SW_ENET, "%s (%s)",
			    json_is_string(msg) ? json_string_value(msg) : "no message",
			    json_string_value(type));
	return fail(a, SW_ENET, "%s", json_is_string(msg) ? json_string_value(msg) : "no message");
}

/* The parts of a chunk or a body: choices[0] (delta or message), model,
 * timings, usage. */
static int read_answer(struct sw__llm_answer *a, const json_t *root, bool stream)
{
	const json_t *choices = json_object_get(root, "choices");
	int rc = 0;

	if (json_is_array(choices) && json_array_size(choices) > 0) {
		const json_t *c0 = json_array_get(choices, 0);
		const json_t *part = json_object_get(c0, stream ? "delta" : "message");
		if (json_is_object(part)) {
			/* llama.cpp says reasoning_content; other servers of the
			 * same API say reasoning.  Thinking first: it comes
			 * first when one event carries both. */
			const json_t *r = json_object_get(part, "reasoning_content");
			if (!json_is_string(r))
				r = json_object_get(part, "reasoning");
			rc = add_text(a, r, false, stream);
			if (rc == 0)
				rc = add_text(a, json_object_get(part, "content"), true, stream);
		}
		set_str(&a->finish_reason, json_object_get(c0, "finish_reason"));
	}
	if (!a->model)
		set_str(&a->model, json_object_get(root, "model"));
	if (json_object_get(root, "timings"))
		sw__llm_read_timings(&a->timings, json_object_get(root, "timings"));
	if (json_object_get(root, "usage"))
		sw__llm_read_usage(&a->usage, json_object_get(root, "usage"));
	return rc;
}

int sw__llm_answer_event(struct sw__llm_answer *a, const char *data, size_t len)
{
	json_t *root = NULL;
	json_error_t jerr;
	int rc = 0;

	if (a->failed)
		return SW_EINPUT;
	if (a->done)
		return fail(a, SW_EINPUT, "an event came after [DONE]");
	if (len == 6 && memcmp(data, "[DONE]", 6) == 0) {
		a->done = true;
		return sw__llm_answer_finish(a);
	}
	root = json_loadb(data, len, 0, &jerr);
	if (!json_is_object(root)) {
		rc = fail(a, SW_EINPUT, "malformed event: %s", root ? "not an object" : jerr.text);
		goto cleanup;
	}
	const json_t *e = json_object_get(root, "error");
	if (e) {
		rc = json_is_object(e) ? error_object(a, e)
				       : fail(a, SW_ENET, "error event: %s",
					      json_is_string(e) ? json_string_value(e) : "no message");
		goto cleanup;
	}
	rc = read_answer(a, root, true);
cleanup:
	json_decref(root);
	return rc;
}

int sw__llm_answer_body(struct sw__llm_answer *a, const char *body, size_t len)
{
	json_t *root = NULL;
	json_error_t jerr;
	int rc = 0;

	root = json_loadb(body, len, 0, &jerr);
	if (!json_is_object(root)) {
		rc = fail(a, SW_EINPUT, "malformed response: %s", root ? "not an object" : jerr.text);
		goto cleanup;
	}
	if (json_object_get(root, "error")) {
		const json_t *e = json_object_get(root, "error");
		rc = json_is_object(e) ? error_object(a, e) : fail(a, SW_ENET, "error response");
		goto cleanup;
	}
	if (!json_is_array(json_object_get(root, "choices"))) {
		rc = fail(a, SW_EINPUT, "malformed response: no choices");
		goto cleanup;
	}
	/* The whole text is known: on_text gets the answer once, without
	 * what a stray </think> turns into thinking. */
	void (*on_text)(void *, const char *, size_t) = a->on_text;
	a->on_text = NULL;
	rc = read_answer(a, root, false);
	if (rc == 0)
		rc = sw__llm_answer_finish(a);
	a->on_text = on_text;
	if (rc == 0) {
		a->done = true;
		if (on_text && a->content.len)
			on_text(a->user, a->content.data, a->content.len);
	}
cleanup:
	json_decref(root);
	return rc;
}

void sw__llm_error_body_message(char *out, size_t outsz, const char *body, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loadb(body, len, 0, &jerr);
	const json_t *e = json_object_get(root, "error");
	const json_t *status = json_object_get(root, "status");

	if (json_is_object(e)) {
		const json_t *msg = json_object_get(e, "message");
		const json_t *type = json_object_get(e, "type");
		snprintf(out, outsz, "%s%s%s%s", json_is_string(msg) ? json_string_value(msg) : "error",
			 json_is_string(type) ? " (" : "",
			 json_is_string(type) ? json_string_value(type) : "",
			 json_is_string(type) ? ")" : "");
	} else if (json_is_string(e)) {
		snprintf(out, outsz, "%s", json_string_value(e));
	} else if (json_is_string(status)) {
		snprintf(out, outsz, "%s", json_string_value(status));
	} else {
		size_t n = 0;
		while (n < len && n < 200 && body[n] != '\n' && body[n] != '\r')
			n++;
		if (n == 0)
			snprintf(out, outsz, "empty body");
		else
			snprintf(out, outsz, "%.*s", (int)n, body);
	}
	/* A server's text goes into a one-line message on a terminal. */
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	json_decref(root);
}
