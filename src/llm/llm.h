/*
 * llm.h - the client for local llama.cpp servers (`llama-server`, its
 * OpenAI-compatible API): endpoints and roles from sworn.conf, chat
 * completions streamed over SSE or not, the server's timings, deadlines,
 * cancellation, the read-only server endpoints (/health, /props, /v1/models,
 * /slots, /metrics, /tokenize), and the local-only policy.
 *
 * Contract
 *   - llm/ includes base/ only.  It knows nothing of matters, pipelines or
 *     the fleet; it is handed a parsed sw_config and answers calls.
 *   - The local-only policy (the default) is enforced where it cannot be
 *     talked around: on the socket address libcurl is about to connect to
 *     (its open-socket callback), for every connection, after DNS and any
 *     resolve override.  Allowed: loopback, RFC 1918 and fc00::/7 private
 *     addresses, link-local addresses, Unix sockets, and hosts named in
 *     [policy] allow_hosts.  Proxies from the environment are never used and
 *     redirects are never followed, so the address checked is the address
 *     that answers.  A refusal fails the call with SW_EPOLICY and a message
 *     naming the endpoint, the address, the policy and how to change it.
 *   - Nothing falls back silently.  A role may name a `fallback` endpoint;
 *     it is tried only after the role's own endpoint failed before sending
 *     any text (connect failure, 503 retries spent, a 5xx), never after a
 *     policy refusal, a 4xx, a cancellation or a deadline during output.  The
 *     fallback is held to local-only whatever the policy mode, and the
 *     result names the endpoint that answered.
 *   - Retries happen only where they are safe: an HTTP 503 (model loading,
 *     no free slot) before any output, with bounded exponential backoff
 *     inside the overall deadline.  Never on 4xx, never mid-stream.
 *   - Everything read from a server is bounded by the SW_LLM_MAX_* limits
 *     below before it is stored; a server past a limit fails the call with
 *     SW_ELIMIT.
 *   - Errors: functions return 0 or a negative SW_E* code and fill the
 *     `struct sw_err *` (may be NULL) with one line.  SW_ENET for transport
 *     failures, timeouts and HTTP errors, SW_EPOLICY for refusals,
 *     SW_ECANCEL for cancellation, SW_EINPUT for a malformed answer or
 *     configuration, SW_ELIMIT for an answer too big.
 *   - Threads: a client is used by one thread at a time.  Separate clients
 *     may run in parallel threads.  sw_llm_cancel_request() may be called
 *     from any thread or a signal handler.  libcurl's global state is set up
 *     once per process by sw_llm_global_init(), which main() calls before
 *     any command runs (so before any thread starts); sw_llm_client_new()
 *     calls it too, for programs (tests) that did not.
 *   - Ownership: structs filled by this API own their strings; release them
 *     with the matching _release.  Requests are borrowed for the call only.
 */
#ifndef SW_LLM_H
#define SW_LLM_H

#include <stdatomic.h>

#include "base/base.h"

/* ------------------------------------------------------------------ limits */

#define SW_LLM_MAX_ENDPOINTS 256
#define SW_LLM_MAX_ROLES 256
#define SW_LLM_MAX_ALLOW_HOSTS 64
#define SW_LLM_MAX_GPUS 64
#define SW_LLM_MAX_SLOTS 1024
#define SW_LLM_MAX_URL 2048
#define SW_LLM_MAX_KEY_BYTES 4096          /* an API key file */
#define SW_LLM_MAX_SSE_LINE (1u << 20)     /* one line of an event stream */
#define SW_LLM_MAX_CONTENT (8u << 20)      /* the text of one answer */
#define SW_LLM_MAX_BODY (16u << 20)        /* a non-streamed response body */
#define SW_LLM_MAX_ERROR_BODY (64u << 10)  /* the body of an HTTP error */
#define SW_LLM_MAX_RETRIES 100             /* 503 retries of one call */

/* ----------------------------------------------------------- configuration */

enum sw_llm_mode {
	SW_LLM_LOCAL_ONLY = 0, /* the default */
	SW_LLM_ALLOW_REMOTE,
};

struct sw_llm_policy {
	enum sw_llm_mode mode;
	char **allow_hosts; /* lower-cased host names; n_allow entries */
	size_t n_allow;
};

/* Deadlines in milliseconds; 0 means none.  connect: TCP (and TLS) set-up
 * of one attempt; first_token: from the start of an attempt to the first
 * streamed text (prompt processing included); token: between two streamed
 * texts (keep-alive pings do not count: a server that only pings is not
 * generating); total: the whole call, retries and backoff included. */
struct sw_llm_deadlines {
	unsigned connect_ms, first_token_ms, token_ms, total_ms;
};

struct sw_llm_endpoint {
	char *name;
	char *url;          /* http(s)://host[:port][/prefix], no final '/'; for a
			       Unix socket "http://localhost" */
	char *host;         /* the URL's host, lower-cased, without [ ]; for a
			       Unix socket "localhost" */
	char *unix_path;    /* the socket of url = unix:/path, else NULL */
	char *api_key_file; /* resolved against the config file's folder; NULL */
	int *gpus;          /* n_gpus GPU indices, informational */
	size_t n_gpus;
	unsigned slots;     /* 0 when not given */
	char *fleet_host;   /* a fleet of several hosts: the [host] name of the
			       box this server runs on (set by fleet/'s merge,
			       sw_fleet_state_llm_merge), else NULL */
	int line;           /* the section header's line in the config */
};

/* Whether a role asks its model to think first (reasoning models). */
enum sw_llm_reasoning {
	SW_LLM_REASONING_DEFAULT = 0, /* not sent: the server's and template's */
	SW_LLM_REASONING_ON,
	SW_LLM_REASONING_OFF,
};

struct sw_llm_role {
	char *name;
	char *endpoint;     /* the endpoint's name */
	char *fallback;     /* a local endpoint to try when it fails, or NULL */
	double temperature; /* < 0: not sent (the server's default) */
	double top_p;       /* < 0: not sent */
	long max_tokens;    /* 0: not sent */
	bool has_seed;
	int64_t seed;
	long context;       /* the role's context budget in tokens, 0 = none */
	unsigned retries;   /* 503 retries */
	enum sw_llm_reasoning reasoning;
	long reasoning_budget; /* thinking tokens; 0: not sent */
	struct sw_llm_deadlines deadlines;
	int line;
};

/* A role known to be out of reach (its fleet server is on a host that does
 * not answer): asking for it fails with why, and nothing stands in. */
struct sw_llm_unavailable {
	char *role;
	char *why;
};

struct sw_llm_config {
	char *path; /* the config file, for messages */
	struct sw_llm_policy policy;
	struct sw_llm_endpoint *endpoints;
	size_t n_endpoints;
	struct sw_llm_role *roles;
	size_t n_roles;
	struct sw_llm_unavailable *unavailable;
	size_t n_unavailable;
};

/* Record that role is unavailable, and why (copied); a role cfg defines is
 * left alone.  Why it is unavailable, or NULL. */
void sw_llm_config_role_unavailable(struct sw_llm_config *cfg, const char *role, const char *why);
const char *sw_llm_role_unavailable(const struct sw_llm_config *cfg, const char *role);

/* Read [policy], [endpoint "NAME"] and [role "NAME"] from cfg.  Unknown keys,
 * bad values, a role naming a missing endpoint, duplicate or missing
 * required keys fail with SW_EINPUT and "file:line: what".  Other sections
 * belong to other subsystems and are ignored.  Release with
 * sw_llm_config_release(). */
int sw_llm_config_load(struct sw_llm_config *out, const struct sw_config *cfg,
		       struct sw_err *err) SW_MUST_USE;
void sw_llm_config_release(struct sw_llm_config *c);

/* The keys of [policy], [endpoint "NAME"] and [role "NAME"]: what
 * sw_llm_config_load() checks, and the reference sworn doctor --keys
 * prints. */
extern const struct sw_config_schema sw_llm_config_schema;

/* Add an endpoint called name (copied) for url, read as [endpoint] url is
 * (libcurl's URL parser; SW_EINPUT with "bad url ..." as sw_llm_config_load
 * says it).  For a server named on the command line or by the fleet.
 * Returns 0, or SW_ELIMIT past SW_LLM_MAX_ENDPOINTS. */
int sw_llm_config_add_url(struct sw_llm_config *c, const char *name, const char *url,
			  struct sw_err *err) SW_MUST_USE;

/* Lookups by exact name; NULL when absent (borrowed from c). */
const struct sw_llm_endpoint *sw_llm_endpoint_find(const struct sw_llm_config *c,
						   const char *name);
const struct sw_llm_role *sw_llm_role_find(const struct sw_llm_config *c,
					   const char *name);

/* "local-only" or "allow-remote". */
const char *sw_llm_mode_name(enum sw_llm_mode mode);

/* The deadlines a role gets when sworn.conf says nothing. */
extern const struct sw_llm_deadlines sw_llm_default_deadlines;

/* ----------------------------------------------------------------- calling */

/* libcurl's global set-up, done once per process (pthread_once) and never
 * torn down; later calls only return the first one's result.  Call it before
 * starting threads: libcurl's set-up itself is not thread-safe (main() does).
 * Returns 0 or SW_EIO. */
int sw_llm_global_init(struct sw_err *err) SW_MUST_USE;

/* Set from any thread (or a signal handler) to stop the calls that were
 * given it; they end within about 50 ms with SW_ECANCEL. */
struct sw_llm_cancel {
	atomic_bool requested;
};
void sw_llm_cancel_request(struct sw_llm_cancel *c);

struct sw_llm_message {
	const char *role;    /* "system", "user", "assistant" */
	const char *content;
};

struct sw_llm_request {
	const struct sw_llm_message *messages;
	size_t n_messages;
	double temperature;      /* < 0: not sent */
	double top_p;            /* < 0: not sent */
	long max_tokens;         /* 0: not sent */
	bool has_seed;
	int64_t seed;
	const char *json_schema; /* a JSON Schema (text) the answer must follow,
				    or NULL */
	bool stream;
	/* Thinking on or off, and its budget in tokens (0: not sent).  Sent
	 * only to a server whose /props says it takes them per request (it
	 * lists chat_template_caps: `chat_template_kwargs.enable_thinking`
	 * and `thinking_budget_tokens`); otherwise left out, and the result's
	 * reasoning_note says so. */
	enum sw_llm_reasoning reasoning;
	long reasoning_budget;
	unsigned retries;        /* 503 retries, at most SW_LLM_MAX_RETRIES */
	struct sw_llm_deadlines deadlines;
	struct sw_llm_cancel *cancel; /* NULL: not cancellable */
	/* Streamed text as it arrives (content only, not reasoning); may be
	 * NULL.  len > 0; text is not NUL-terminated. */
	void (*on_text)(void *user, const char *text, size_t len);
	void *user;
};

/* A request with nothing set: server defaults, no deadlines, stream on. */
void sw_llm_request_init(struct sw_llm_request *r);
/* Copy a role's sampling settings, retries and deadlines into r. */
void sw_llm_request_apply_role(struct sw_llm_request *r, const struct sw_llm_role *role);

/* The server's own account of a call (llama-server's `timings`). */
struct sw_llm_timings {
	bool have;
	long cache_n, prompt_n, predicted_n;
	double prompt_ms, predicted_ms;
	double prompt_per_second, predicted_per_second;
};

struct sw_llm_usage {
	bool have;
	long prompt_tokens, completion_tokens, total_tokens;
};

/* The record of one call. */
struct sw_llm_result {
	char *endpoint;      /* the endpoint that answered */
	char *address;       /* the address connected to ("127.0.0.1:8081",
				"unix:/path"), or NULL */
	char *model;         /* as the server names it, or NULL */
	char *content;       /* the answer, NUL-terminated; never NULL after a
				successful call */
	size_t content_len;
	char *reasoning;     /* the model's thinking, or NULL: the answer's
				reasoning_content (llama.cpp) or reasoning
				(others), and any <think>...</think> block
				left in the content (or all before a </think>
				with no opening tag), taken out of content.
				Streamed, on_text never sees a block; text
				before a stray </think> was already passed to
				on_text, but content drops it. */
	char *reasoning_note;/* the role's reasoning settings that the server
				does not take per request and were not sent,
				in words, or NULL */
	char *finish_reason; /* "stop", "length", ... or NULL */
	struct sw_llm_timings timings;
	struct sw_llm_usage usage;
	int http_status;
	unsigned attempts;   /* HTTP requests made, retries included */
	bool fell_back;      /* the role's fallback endpoint answered */
	size_t chunks;       /* streamed events carrying text */
	size_t pings;        /* ':' keep-alive lines seen */
	double first_text_s; /* seconds to the first text (streams) */
	double total_s;      /* seconds for the whole call */
};

void sw_llm_result_release(struct sw_llm_result *r);

/* A client for one endpoint of cfg, under cfg's policy.  The key file, if
 * any, is read now.  Free with sw_llm_client_free(). */
struct sw_llm_client;
int sw_llm_client_new(struct sw_llm_client **out, const struct sw_llm_config *cfg,
		      const char *endpoint, struct sw_err *err) SW_MUST_USE;
void sw_llm_client_free(struct sw_llm_client *c);

/* One chat completion (POST /v1/chat/completions).  On success out holds the
 * answer and the timings; on failure out is still filled as far as the call
 * got (release it either way).  The text passed to on_text is the same text
 * that ends up in out->content. */
int sw_llm_chat(struct sw_llm_result *out, struct sw_llm_client *c,
		const struct sw_llm_request *req, struct sw_err *err) SW_MUST_USE;

/* A chat completion for a role of cfg: the role's endpoint, then its
 * fallback under the rules of the contract above.  req's settings win over
 * the role's where req sets them (see sw_llm_request_apply_role). */
int sw_llm_chat_role(struct sw_llm_result *out, const struct sw_llm_config *cfg,
		     const char *role, const struct sw_llm_request *req,
		     struct sw_err *err) SW_MUST_USE;

/* -------------------------------------------------------- server endpoints */

enum sw_llm_health {
	SW_LLM_DOWN = 0,   /* nothing listening, or it did not answer */
	SW_LLM_LOADING,    /* 503 loading model */
	SW_LLM_NO_SLOT,    /* 503 no slot available */
	SW_LLM_READY,      /* 200 ok */
	SW_LLM_BROKEN,     /* answered something else */
};

const char *sw_llm_health_name(enum sw_llm_health h);

/* GET /health.  A server that is down or loading is an answer, not an
 * error: the call fails only on a policy refusal (SW_EPOLICY), a
 * cancellation or a bad argument.  err gets the detail for DOWN/BROKEN too
 * when it is not NULL. */
int sw_llm_health(enum sw_llm_health *out, struct sw_llm_client *c,
		  unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* What a server says about itself (/v1/models, /props, /slots). */
struct sw_llm_server_info {
	char *model;        /* /v1/models data[0].id */
	char *build;        /* /props build_info */
	long n_ctx;         /* /props default_generation_settings.n_ctx */
	long total_slots;   /* /props total_slots */
	long idle_slots;    /* /slots entries not processing; -1 unknown */
	bool sleeping;      /* /props is_sleeping */
	bool reasoning_settings; /* /props lists chat_template_caps: a role's
				    reasoning and reasoning_budget are sent */
};
void sw_llm_server_info_release(struct sw_llm_server_info *i);

/* Fill what the server answers; a missing /slots (501) is not an error. */
int sw_llm_server_info(struct sw_llm_server_info *out, struct sw_llm_client *c,
		       unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* GET path and return the body (at most SW_LLM_MAX_BODY bytes); a status
 * other than 200 fails with SW_ENET and the server's error message.  For
 * /metrics (Prometheus text) and anything not covered above. */
int sw_llm_get(struct sw_buf *out, struct sw_llm_client *c, const char *path,
	       unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* The exact token count of text in the server's model (POST /tokenize). */
int sw_llm_tokenize(size_t *out_count, struct sw_llm_client *c, const char *text,
		    unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* How the local-only policy classes a numeric address ("10.0.0.12",
 * "fd00::2"): "loopback", "a private address", "link-local", "the
 * unspecified address" or "a public address"; NULL when addr is not a
 * numeric address (a host name is classed only once resolved). *local says
 * whether the policy lets sworn send to it without allow-remote. */
const char *sw_llm_address_class(const char *addr, bool *local);

/* The address the client last connected to ("127.0.0.1:8081",
 * "unix:/path"), or NULL before any connection.  Borrowed until the next
 * call. */
const char *sw_llm_client_address(const struct sw_llm_client *c);

/* Why the policy allowed the last connection ("127.0.0.1 is loopback",
 * "gpu2.lan is in allow_hosts"), or NULL.  Borrowed until the next call. */
const char *sw_llm_client_policy_reason(const struct sw_llm_client *c);

/* Everything `sworn models` and `sworn doctor` show about one endpoint:
 * whether the policy lets it be reached (and why), its health, and what it
 * says about itself.  Never fails: what went wrong is in the fields. */
struct sw_llm_probe {
	bool refused;               /* the policy refused the connection */
	char *address;              /* the address connected to, or NULL */
	char *policy;               /* why allowed, or the refusal; NULL when
				       no connection was tried */
	enum sw_llm_health health;
	char *error;                /* why not ready (or the client's own
				       failure), or NULL */
	bool have_info;
	struct sw_llm_server_info info;
};

void sw_llm_probe(struct sw_llm_probe *out, const struct sw_llm_config *cfg,
		  const char *endpoint, unsigned timeout_ms);
void sw_llm_probe_release(struct sw_llm_probe *p);

/* ------------------------------------------------------------ speed record */

/* Append a finished call's timings to the log at path (one line per call,
 * created when missing, trimmed to its newest entries when it grows past
 * a bound).  Calls without timings are skipped. */
int sw_llm_stats_append(const char *path, const struct sw_llm_result *r,
			struct sw_err *err) SW_MUST_USE;

struct sw_llm_speed {
	unsigned calls;            /* calls averaged, 0 when none */
	double prompt_per_second;  /* averaged over the calls, by tokens */
	double predicted_per_second;
	char last[21];             /* UTC time of the newest call */
};

/* The speed of an endpoint's last (up to 5) calls from the log at path.  A
 * missing log gives calls = 0. */
int sw_llm_stats_speed(struct sw_llm_speed *out, const char *path,
		       const char *endpoint, struct sw_err *err) SW_MUST_USE;

#endif /* SW_LLM_H */
