/*
 * llm_int.h - llm/ internals shared between its files and its tests: the
 * SSE line parser, the decoder of chat-completion events, the address policy
 * and the test seam that maps names to addresses.
 */
#ifndef SW_LLM_INT_H
#define SW_LLM_INT_H

#include <sys/socket.h>

#include "llm/llm.h"

struct json_t;

/* --------------------------------------------------------------------- SSE */

/* An incremental parser of a text/event-stream body.  Bytes arrive in any
 * split; lines end in LF, CR or CRLF (a CR at the end of one chunk and an LF
 * at the start of the next are one line end).  `data:` lines are joined with
 * '\n' and handed over at the blank line that ends the event; lines starting
 * with ':' are counted as pings; other fields are ignored.  An event not
 * ended by a blank line before EOF is dropped, as the SSE spec says. */
struct llm_sse {
	struct sw_buf line;  /* the current, incomplete line */
	struct sw_buf data;  /* the current event's data */
	bool have_data;      /* a data: line was seen in the current event */
	bool skip_lf;        /* the last byte was a CR ending a line */
	size_t max_line;     /* lines and events longer than this fail */
	size_t pings;
	/* Called for each complete event; a non-zero return stops feeding and
	 * is returned by llm_sse_feed(). */
	int (*on_event)(void *user, const char *data, size_t len);
	void *user;
};

void llm_sse_init(struct llm_sse *s, size_t max_line,
		  int (*on_event)(void *user, const char *data, size_t len), void *user);
void llm_sse_release(struct llm_sse *s);
/* Feed n bytes.  Returns 0, SW_ELIMIT (line too long) or the callback's
 * return value. */
int llm_sse_feed(struct llm_sse *s, const char *p, size_t n, struct sw_err *err);

/* The state of one chat completion answer as its events are decoded. */
struct llm_answer {
	struct sw_buf content;
	struct sw_buf reasoning;
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

void llm_answer_init(struct llm_answer *a, size_t max_content);
void llm_answer_release(struct llm_answer *a);

/* Decode one SSE event's data (a chat.completion.chunk, an error, or
 * [DONE]).  Returns 0 to go on, or SW_EINPUT / SW_ELIMIT / SW_ENET (an
 * error event) with a->error set, after which nothing more is accepted. */
int llm_answer_event(struct llm_answer *a, const char *data, size_t len);

/* Decode a whole non-streamed chat completion body.  Same returns. */
int llm_answer_body(struct llm_answer *a, const char *body, size_t len);

/* Read llama-server's `timings` / OpenAI `usage` objects. */
void llm_read_timings(struct sw_llm_timings *out, const struct json_t *obj);
void llm_read_usage(struct sw_llm_usage *out, const struct json_t *obj);

/* The message of a llama-server error body: {"error":{"code","message",
 * "type"}}, the old {"status":"..."} shape, or the first line of plain
 * text, into out (size outsz).  Never fails. */
void llm_error_body_message(char *out, size_t outsz, const char *body, size_t len);

/* ------------------------------------------------------------------ policy */

enum llm_addr_class {
	LLM_ADDR_LOOPBACK,
	LLM_ADDR_PRIVATE,
	LLM_ADDR_LINK_LOCAL,
	LLM_ADDR_UNIX,
	LLM_ADDR_PUBLIC,     /* anything else, unspecified addresses included */
};

enum llm_addr_class llm_addr_classify(const struct sockaddr *sa, socklen_t len);
const char *llm_addr_class_name(enum llm_addr_class c);

/* Format sa as "1.2.3.4:80", "[::1]:80" or "unix:/path" into out. */
void llm_addr_format(char *out, size_t outsz, const struct sockaddr *sa, socklen_t len);

/* May endpoint `endpoint` (whose URL names `host`) connect to sa?  0 with a
 * reason in why ("127.0.0.1 is loopback"), or SW_EPOLICY with the refusal
 * in err.  `force_local` holds the check to local-only whatever the mode
 * (a role's fallback). */
int llm_policy_check(const struct sw_llm_policy *p, bool force_local,
		     const char *endpoint, const char *host,
		     const struct sockaddr *sa, socklen_t len, char *why,
		     size_t whysz, struct sw_err *err);

/* ------------------------------------------------------------- test seams */

/* Map host:port to an address for this client's connections, as curl's
 * CURLOPT_RESOLVE does ("api.example.com:80:203.0.113.7").  Tests use it to
 * put a public address behind a friendly name without DNS; the policy then
 * sees that address at connect time. */
void llm_client_add_resolve(struct sw_llm_client *c, const char *entry);

/* Hold this client to local-only whatever the policy mode (what a role's
 * fallback gets). */
void llm_client_force_local(struct sw_llm_client *c);

#endif /* SW_LLM_INT_H */
