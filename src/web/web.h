/*
 * web.h - `sworn serve`: the review in a browser.  A local HTTP server
 * (libmicrohttpd) that serves the page embedded in the binary and a JSON
 * API over what the CLI does: matters, documents, search, pages (text and
 * image), runs, the context audit, drafts with their verdicts, saved edits,
 * the verifier, approval.
 *
 * Contract
 *   - web/ sees pipeline/, verify/, llm/, record/, extract/ (the draft
 *     readers for uploads), claims/, authority/, markup/, fleet/ and base/
 *     (tests/layering.sh).  It has no logic of its own over the record or
 *     the runs: every answer comes from those subsystems' public calls
 *     (sw_run_json, sw_verify_json, sw_record_show, ...).
 *   - Security (docs/DESIGN.md, "sworn serve"): binds 127.0.0.1 unless the
 *     caller allows another address; every API request needs
 *     "Authorization: Bearer X", X the workspace's token (new at each start
 *     unless kept) or a session the page got for it (kept in the tab's
 *     sessionStorage, ended SW_WEB_SESSION_TTL after its last use; no
 *     cookie: a browser would send it to every port of the host), else 403;
 *     the page and its assets (nothing of the record) need none; the Host
 *     header must name the server, once; POST is the only method that changes anything
 *     and needs the CSRF token and a matching Origin when one is sent; a
 *     strict Content-Security-Policy and nosniff on every response; request
 *     bodies at most SW_WEB_MAX_BODY; paths with "..", "." segments,
 *     backslashes or encoded separators are 404; record text is only ever
 *     sent as JSON strings.
 *   - Bounds: a request must arrive whole within its deadline; one request
 *     verifies at most SW_WEB_MAX_DRAFT bytes and SW_WEB_MAX_CLAIMS claims;
 *     a page image is drawn in a worker process with CPU and memory limits,
 *     killed past them or when the server stops.
 *   - Threads: libmicrohttpd's internal polling thread and a pool of
 *     SW_WEB_THREADS workers.  Each request opens its own matter (and
 *     authority table) and closes it, so no handle is shared between
 *     threads; saved edits are compared and written in one IMMEDIATE
 *     transaction, so two tabs never overwrite each other silently.
 *   - Errors: 0 or a negative SW_E* code with one line in err; a request
 *     that fails is answered {"error": "one line"} with a 4xx/5xx status.
 */
#ifndef SW_WEB_H
#define SW_WEB_H

#include "base/base.h"
#include "record/record.h"

#define SW_WEB_MAX_BODY ((size_t)16 << 20) /* a request body, in bytes */
/* What one request may verify (the page's Verify, a run's draft, Approve):
 * a pasted 2.6 MB draft took 71 s and 1.16 GB of a worker.  Past these the
 * request is refused (413) with a line that says to use sworn verify. */
#define SW_WEB_MAX_DRAFT ((size_t)1 << 20) /* bytes of text */
#define SW_WEB_MAX_CLAIMS 5000
#define SW_WEB_THREADS 4                   /* request workers */
#define SW_WEB_TOKEN_FILE "serve.token"    /* in the workspace, mode 0600 */
#define SW_WEB_TOKEN_HEX 64                /* 32 random bytes in hex */
#define SW_WEB_DEFAULT_PORT 8765
#define SW_WEB_SESSION_TTL 28800           /* a page's session: 8 h after its last request */
#define SW_WEB_REQUEST_DEADLINE 30         /* seconds for a request to arrive whole */

/* The workspace's access token (ws_root/SW_WEB_TOKEN_FILE).  rotate: a
 * new one from 32 random bytes, written with mode 0600 to a file of its own
 * and renamed over the old (sworn serve's every start unless --keep-token).
 * Else read when it exists (its mode tightened to 0600 if it was looser),
 * or made as above.  SW_EINPUT for a file that holds no token. */
int sw_web_token(char out[SW_WEB_TOKEN_HEX + 1], const char *ws_root, bool rotate,
		 struct sw_err *err) SW_MUST_USE;

struct sw_verify_judge; /* verify/verify.h */
struct sw_person;       /* pipeline/pipeline.h */

struct sw_web_opts {
	const struct sw_workspace *ws; /* borrowed for the server's life */
	const char *matter;    /* the default matter's name, or NULL */
	const char *bind;      /* an IPv4 or IPv6 address; NULL: 127.0.0.1 */
	bool allow_remote;     /* a bind address that is not loopback is refused without */
	unsigned port;         /* 0: any free port */
	const char *token;     /* sw_web_token's */
	const char *commit;    /* the build's git commit, for reports' audit stamp; may be NULL */
	const struct sw_verify_judge *judge; /* approval's judge, as sworn run approve
				  asks it (borrowed for the server's life; called from
				  several request threads at once); NULL: none */
	const struct sw_person *by; /* who the server runs for: the page names them and
				  approvals made in it record them (borrowed for the
				  server's life); NULL: nobody named */
	bool log;              /* one line per request on stderr */
	unsigned render_cpu_s; /* CPU seconds a page image may take to draw; 0: 30,
				* as a page's text import */
	unsigned session_ttl_s; /* a session ends this long after its last request;
				 * 0: SW_WEB_SESSION_TTL */
	unsigned request_deadline_s; /* a request (its headers and body) must arrive
				      * whole within this, or its connection is
				      * closed; 0: SW_WEB_REQUEST_DEADLINE */
};

struct sw_web; /* opaque: a running server */

/* Bind and start serving (the threads run until sw_web_stop).  SW_EUSAGE
 * for a bad bind address or a non-loopback one without allow_remote,
 * SW_EIO when the address cannot be bound (the port in use). */
int sw_web_start(struct sw_web **out, const struct sw_web_opts *o,
		 struct sw_err *err) SW_MUST_USE;

/* The port bound (the chosen one when opts asked for 0). */
unsigned sw_web_port(const struct sw_web *w);

/* The host part of the server's URLs: "127.0.0.1", or the bind address
 * ("[::1]" for IPv6).  Borrowed. */
const char *sw_web_host(const struct sw_web *w);

/* Whether addr (an IPv4 or IPv6 address as text) is a loopback address;
 * false when it is not an address at all. */
bool sw_web_addr_is_loopback(const char *addr);

/* Stop serving (waits for requests in progress) and free w.  NULL is
 * allowed. */
void sw_web_stop(struct sw_web *w);

#endif /* SW_WEB_H */
