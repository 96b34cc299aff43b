/*
 * llm_int.h - llm/ internals shared between its files and its tests: the
 * SSE line parser, the decoder of chat-completion events, the address policy,
 * the client and its transfers, and the test seam that maps names to
 * addresses.
 */
#ifndef SW_LLM_INT_H
#define SW_LLM_INT_H

#include <sys/socket.h>

#include <curl/curl.h>

#include "llm/llm.h"

struct json_t;

/* --------------------------------------------------------------------- SSE */

/* An incremental parser of a text/event-stream body.  Bytes arrive in any
 * split; lines end in LF, CR or CRLF (a CR at the end of one chunk and an LF
 * at the start of the next are one line end).  `data:` lines are joined with
 * '\n' and handed over at the blank line that ends the event; lines starting
 * with ':' are counted as pings; other fields are ignored.  An event not
 * ended by a blank line before EOF is dropped, as the SSE spec says. */
struct sw__llm_sse {
	struct sw_buf line;  /* the current, incomplete line */
	struct sw_buf data;  /* the current event's data */
	bool have_data;      /* a data: line was seen in the current event */
	bool skip_lf;        /* the last byte was a CR ending a line */
	size_t max_line;     /* lines and events longer than this fail */
	size_t pings;
	/* Called for each complete event; a non-zero return stops feeding and
	 * is returned by sw__llm_sse_feed(). */
	int (*on_event)(void *user, const char *data, size_t len);
	void *user;
};

void sw__llm_sse_init(struct sw__llm_sse *s, size_t max_line,
		  int (*on_event)(void *user, const char *data, size_t len), void *user);
void sw__llm_sse_release(struct sw__llm_sse *s);
/* Feed n bytes.  Returns 0, SW_ELIMIT (line too long) or the callback's
 * return value. */
int sw__llm_sse_feed(struct sw__llm_sse *s, const char *p, size_t n, struct sw_err *err);

/* ------------------------------------------------------------- thinking */

/* Where a piece of an answer's content goes (think.c). */
enum sw__llm_think_part {
	SW__LLM_THINK_CONTENT,   /* the answer */
	SW__LLM_THINK_REASONING, /* inside <think>...</think> */
	SW__LLM_THINK_STRAY,     /* a </think> with no opening tag: the
				    content so far was thinking (no text) */
};

/* Receives each piece; a non-zero return stops the feed and is returned. */
typedef int (*sw__llm_think_emit)(void *user, enum sw__llm_think_part part, const char *p,
				  size_t n);

/* The splitter of <think> blocks out of content that arrives in pieces. */
struct sw__llm_think {
	bool in_think;  /* inside an open <think> */
	bool trim;      /* a block just closed: drop the blank before the answer */
	char pend[8];   /* the beginning of a tag cut at a piece's end */
	size_t npend;
};

/* Split n bytes of content into answer and thinking, holding back a tag
 * cut at the end.  Returns 0 or emit's return. */
int sw__llm_think_feed(struct sw__llm_think *t, const char *p, size_t n, sw__llm_think_emit emit,
		       void *user);
/* The end of the content: what was held back goes where it stands. */
int sw__llm_think_flush(struct sw__llm_think *t, sw__llm_think_emit emit, void *user);

/* The state of one chat completion answer as its events are decoded. */
struct sw__llm_answer {
	struct sw_buf content;
	struct sw_buf reasoning;
	struct sw__llm_think think;
	char *finish_reason;
	char *model;
	struct sw_llm_timings timings;
	struct sw_llm_usage usage;
	size_t chunks;       /* events that carried content */
	bool done;           /* [DONE] seen */
	bool failed;         /* an error event or a malformed event */
	int error_code;      /* the error event's code, or 0 */
	char error[SW_ERR_MSG_MAX];
	size_t max_content;
	void (*on_text)(void *user, const char *text, size_t len);
	void *user;
};

void sw__llm_answer_init(struct sw__llm_answer *a, size_t max_content);
void sw__llm_answer_release(struct sw__llm_answer *a);

/* Decode one SSE event's data (a chat.completion.chunk, an error, or
 * [DONE]).  Returns 0 to go on, or SW_EINPUT / SW_ELIMIT / SW_ENET (an
 * error event) with a->error set, after which nothing more is accepted. */
int sw__llm_answer_event(struct sw__llm_answer *a, const char *data, size_t len);

/* Decode a whole non-streamed chat completion body.  Same returns. */
int sw__llm_answer_body(struct sw__llm_answer *a, const char *body, size_t len);

/* The end of an answer (a stream's [DONE] or end, a body): a tag cut at
 * the end is text after all.  Idempotent. */
int sw__llm_answer_finish(struct sw__llm_answer *a);

/* Read llama-server's `timings` / OpenAI `usage` objects. */
void sw__llm_read_timings(struct sw_llm_timings *out, const struct json_t *obj);
void sw__llm_read_usage(struct sw_llm_usage *out, const struct json_t *obj);

/* The message of a llama-server error body: {"error":{"code","message",
 * "type"}}, the old {"status":"..."} shape, or the first line of plain
 * text, into out (size outsz).  Never fails. */
void sw__llm_error_body_message(char *out, size_t outsz, const char *body, size_t len);

/* ------------------------------------------------------------------ policy */

enum sw__llm_addr_class {
	SW__LLM_ADDR_LOOPBACK,
	SW__LLM_ADDR_PRIVATE,
	SW__LLM_ADDR_LINK_LOCAL,
	SW__LLM_ADDR_UNIX,
	SW__LLM_ADDR_UNSPECIFIED, /* 0.0.0.0 and ::, refused as public ones are */
	SW__LLM_ADDR_PUBLIC,     /* anything else */
};

enum sw__llm_addr_class sw__llm_addr_classify(const struct sockaddr *sa, socklen_t len);
const char *sw__llm_addr_class_name(enum sw__llm_addr_class c);

/* Format sa as "1.2.3.4:80", "[::1]:80" or "unix:/path" into out. */
void sw__llm_addr_format(char *out, size_t outsz, const struct sockaddr *sa, socklen_t len);

/* May endpoint `endpoint` (whose URL names `host`) connect to sa?  0 with a
 * reason in why ("127.0.0.1 is loopback"), or SW_EPOLICY with the refusal
 * in err.  `force_local` holds the check to local-only whatever the mode
 * (a role's fallback). */
int sw__llm_policy_check(const struct sw_llm_policy *p, bool force_local,
		     const char *endpoint, const char *host,
		     const struct sockaddr *sa, socklen_t len, char *why,
		     size_t whysz, struct sw_err *err);

/* ---------------------------------------------------- client and transfers */

/* How often a cancellable call looks at its cancel flag while waiting. */
#define SW__LLM_CANCEL_POLL_MS 50

/* One client: an endpoint, its easy handle inside its own multi handle, and
 * what the open-socket callback saw (client.c owns it, transfer.c drives it). */
struct sw_llm_client {
	char *endpoint;
	char *url;
	char *host;
	char *unix_path;
	char *auth;               /* "Authorization: Bearer ..." or NULL */
	struct sw_llm_policy policy; /* a deep copy */
	bool force_local;
	CURL *easy;
	CURLM *multi;
	struct curl_slist *resolve;
	struct curl_slist *headers;
	/* What the open-socket callback saw on the last new connection. */
	char address[128];
	bool have_address;
	char why[256];
	bool refused;
	struct sw_err refusal;
	char curl_err[CURL_ERROR_SIZE];
	int reasoning_caps;       /* -1 not asked yet, 0 /props failed, 1 the
				     server takes the thinking settings per
				     request, 2 it does not (client.c) */
};

/* Whether c (may be NULL) has been asked to cancel. */
bool sw__llm_cancelled(const struct sw_llm_cancel *c);

/* One transfer on a client's easy handle, from setup to its answer. */
struct sw__llm_xfer {
	struct sw_llm_client *c;
	bool stream;             /* the caller asked for SSE */
	bool is_sse;             /* the server answered 200 text/event-stream */
	bool started;            /* the status line and headers are in */
	long status;
	struct sw_buf body;      /* a non-SSE body */
	size_t body_limit;
	struct sw__llm_sse sse;
	struct sw__llm_answer *answer;
	size_t last_chunks;
	double t_start, t_first_text, t_last_text;
	struct sw_llm_deadlines dl;
	double call_deadline;    /* absolute, INFINITY for none */
	struct sw_llm_cancel *cancel;
	int rc;                  /* an error found inside a callback */
	struct sw_err err;
};

/* Prepare x for a transfer on client c: deadlines dl, an absolute
 * call_deadline (INFINITY for none), cancel and answer may be NULL. */
void sw__llm_xfer_init(struct sw__llm_xfer *x, struct sw_llm_client *c, bool stream,
		   const struct sw_llm_deadlines *dl, double call_deadline,
		   struct sw_llm_cancel *cancel, struct sw__llm_answer *answer);
void sw__llm_xfer_release(struct sw__llm_xfer *x);
/* Set c's easy handle up for path: a POST of post_len bytes of post, or a
 * GET when post is NULL. */
void sw__llm_xfer_setup(struct sw_llm_client *c, struct sw__llm_xfer *x, const char *path,
		    const char *post, size_t post_len);
/* Run the transfer to its end, a deadline or a cancel.  Returns 0 or a
 * negative SW_E* code. */
int sw__llm_xfer_perform(struct sw__llm_xfer *x, struct sw_err *err);
/* SW_ENET with the server's error message for x's HTTP status. */
int sw__llm_xfer_http_error(const struct sw__llm_xfer *x, struct sw_err *err);

/* ------------------------------------------------------------- test seams */

/* Map host:port to an address for this client's connections, as curl's
 * CURLOPT_RESOLVE does ("api.example.com:80:203.0.113.7").  Tests use it to
 * put a public address behind a friendly name without DNS; the policy then
 * sees that address at connect time. */
void sw__llm_client_add_resolve(struct sw_llm_client *c, const char *entry);

/* Hold this client to local-only whatever the policy mode (what a role's
 * fallback gets). */
void sw__llm_client_force_local(struct sw_llm_client *c);

#endif /* SW_LLM_INT_H */
