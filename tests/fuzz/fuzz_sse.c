/*
 * fuzz_sse.c - hostile bytes through the event-stream parser and the
 * chat-completion decoder, as a server (or something pretending to be one)
 * might send them.  Besides memory errors it checks what the client relies
 * on: the answer is the same however the bytes are split across reads, it
 * never passes its limit, and it is NUL-terminated.  The same bytes also go
 * through the non-streamed body decoder and the error-body reader.
 *
 * The first byte picks the read size for the split run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small limits, so the fuzzer reaches them. */
#define FUZZ_MAX_LINE 4096
#define FUZZ_MAX_CONTENT 2048

struct run {
	struct sw__llm_sse sse;
	struct sw__llm_answer a;
	struct sw_buf streamed;
	int rc;
};

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_sse: %s", what);
}

static void on_text(void *user, const char *text, size_t len)
{
	check(len > 0, "empty text handed on");
	sw_buf_add(user, text, len);
}

static int on_event(void *user, const char *d, size_t len)
{
	struct run *r = user;
	check(d[len] == '\0', "event data unterminated");
	return sw__llm_answer_event(&r->a, d, len);
}

static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	sw_buf_init(&r->streamed);
	sw__llm_sse_init(&r->sse, FUZZ_MAX_LINE, on_event, r);
	sw__llm_answer_init(&r->a, FUZZ_MAX_CONTENT);
	r->a.on_text = on_text;
	r->a.user = &r->streamed;
}

static void run_feed(struct run *r, const char *p, size_t n, size_t step)
{
	for (size_t off = 0; off < n && r->rc == 0; off += step) {
		size_t k = n - off < step ? n - off : step;
		r->rc = sw__llm_sse_feed(&r->sse, p + off, k, NULL);
	}
}

static void run_release(struct run *r)
{
	sw__llm_sse_release(&r->sse);
	sw__llm_answer_release(&r->a);
	sw_buf_release(&r->streamed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run whole, split;
	size_t step;
	const char *text;

	if (size == 0)
		return 0;
	step = (size_t)data[0] % 17 + 1;
	text = (const char *)data + 1;
	size--;

	run_init(&whole);
	run_init(&split);
	run_feed(&whole, text, size, size ? size : 1);
	run_feed(&split, text, size, step);

	check(whole.rc == split.rc, "result depends on how the bytes are split");
	check(whole.a.content.len == split.a.content.len &&
	      memcmp(whole.a.content.data, split.a.content.data, whole.a.content.len) == 0,
	      "content depends on the split");
	check(whole.a.done == split.a.done && whole.a.failed == split.a.failed,
	      "state depends on the split");
	check(whole.sse.pings == split.sse.pings || whole.rc != 0, "pings depend on the split");
	check(whole.a.content.len + whole.a.reasoning.len <= FUZZ_MAX_CONTENT, "content past its limit");
	check(whole.a.content.data[whole.a.content.len] == '\0', "content unterminated");
	check(whole.streamed.len == whole.a.content.len &&
	      memcmp(whole.streamed.data, whole.a.content.data, whole.streamed.len) == 0,
	      "streamed text differs from the content");
	check(whole.a.chunks <= whole.a.content.len, "more chunks than bytes");
	run_release(&whole);
	run_release(&split);

	struct sw__llm_answer body;
	sw__llm_answer_init(&body, FUZZ_MAX_CONTENT);
	int rc = sw__llm_answer_body(&body, text, size);
	check(rc != 0 || body.done, "a decoded body is not done");
	check(body.content.len + body.reasoning.len <= FUZZ_MAX_CONTENT, "body past its limit");
	sw__llm_answer_release(&body);

	char msg[64];
	sw__llm_error_body_message(msg, sizeof(msg), text, size);
	check(memchr(msg, '\0', sizeof(msg)) != NULL, "error message unterminated");
	for (const char *p = msg; *p; p++)
		check((unsigned char)*p >= 0x20 && *p != 0x7f, "control byte in an error message");
	return 0;
}
