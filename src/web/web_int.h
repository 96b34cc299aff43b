/* web_int.h - web/'s cross-file internals: the server, one request and
 * its reply, the handlers, the embedded assets, saved edits, page images. */
#ifndef SW_WEB_INT_H
#define SW_WEB_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <jansson.h>

#include "web/web.h"
#include "authority/authority.h"

struct MHD_Daemon;
struct MHD_Connection;

#define SW__WEB_HOSTS 48       /* Host values accepted, at most */
#define SW__WEB_HOST_MAX 128

#define SW__WEB_SESSIONS 16 /* sessions kept; a new one past them drops the oldest */

/* The sessions the page holds (auth.c): made by GET /api/session with the
 * token, each ended ttl_s seconds after its last request. */
struct sw__web_sessions {
	pthread_mutex_t lock;
	unsigned ttl_s;
	struct {
		char id[SW_WEB_TOKEN_HEX + 1]; /* "" for a free slot */
		double used;                   /* sw_now() of its last request */
	} s[SW__WEB_SESSIONS];
};

#define SW__WEB_CONNS 80    /* connections watched (MHD allows 64) */

/* One connection as the request deadline sees it (conns.c). */
struct sw__web_conn {
	bool used;
	bool answering;  /* its request has arrived: not cut */
	bool cut;        /* shut down past the deadline */
	int fd;
	double since;    /* sw_now() it opened, or its last answer was sent */
};

struct sw__web_conns {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t dog;
	bool inited, running, quit;
	unsigned deadline_s;
	unsigned long cuts;
	struct sw__web_conn c[SW__WEB_CONNS];
};

struct sw_web {
	struct MHD_Daemon *daemon;
	const struct sw_workspace *ws;
	char *matter;                 /* the default matter, or NULL */
	char *commit;                 /* or NULL */
	const struct sw_verify_judge *judge; /* approval's, or NULL */
	const struct sw_person *by;   /* who decides in the page, or NULL */
	char token[SW_WEB_TOKEN_HEX + 1];
	struct sw__web_sessions sessions;   /* the pages' (auth.c) */
	struct sw__web_conns conns;         /* the request deadline (conns.c) */
	char csrf[SW_WEB_TOKEN_HEX + 1];    /* per process */
	char host[SW__WEB_HOST_MAX];  /* "127.0.0.1", "[::1]", the bind address */
	char hosts[SW__WEB_HOSTS][SW__WEB_HOST_MAX + 8]; /* HOST:PORT accepted */
	size_t nhosts;
	char origin[SW__WEB_HOST_MAX + 16];               /* http://HOST:PORT */
	unsigned port;
	bool log;
	atomic_bool stopping;         /* sw_web_stop has begun: long waits end */
	int render_ctl;               /* to the page renderer (render.c), or -1 */
	pid_t render_pid;             /* the renderer's spawner, or -1 */
	atomic_int renders;           /* workers running */
	unsigned render_cpu_s;        /* CPU seconds one page's worker may use */
};

/* One request as the handlers see it. */
struct sw__web_req {
	struct sw_web *w;
	struct MHD_Connection *conn;
	bool post;
	const char *path;   /* decoded, checked (no "..", no backslash) */
	const char *session; /* the session it came with, or NULL (the token) */
	const char *body;   /* POST: the bytes received (NUL-terminated) */
	size_t body_len;
};

/* What a handler answers. */
struct sw__web_reply {
	unsigned status;
	const char *type;   /* Content-Type (static) */
	struct sw_buf body;
	bool api;           /* Cache-Control: no-store */
	bool close;         /* Connection: close (the request's framing is in doubt) */
};

/* Replies (reply.c, a leaf every handler calls down into): doc is taken (json_decref'd here). */
void sw__web_reply_json(struct sw__web_reply *r, unsigned status, json_t *doc);
void sw__web_reply_error(struct sw__web_reply *r, unsigned status, const char *fmt, ...)
	SW_PRINTF(3, 4);
/* err's message with the status its code stands for (404 not found, 400
 * input, 413 limit, 409 usage (a state that does not allow it), 500). */
void sw__web_reply_err(struct sw__web_reply *r, const struct sw_err *err);
unsigned sw__web_status_for(int code);
/* text as text/plain with status. */
void sw__web_reply_text(struct sw__web_reply *r, unsigned status, const char *text);
/* Free what r holds. */
void sw__web_reply_release(struct sw__web_reply *r);

/* The request deadline (conns.c): start its watchdog (deadline_s 0: the
 * default) before the daemon, stop it after.  open gives a connection's
 * slot (its socket context; NULL when the table is full: not watched),
 * close drops it before the socket is closed; answering(true) when its
 * request has arrived whole, (false) when the answer has been sent. */
int sw__web_conns_start(struct sw_web *w, unsigned deadline_s, struct sw_err *err) SW_MUST_USE;
void sw__web_conns_stop(struct sw_web *w);
void *sw__web_conns_open(struct sw_web *w, int fd);
void sw__web_conns_close(struct sw_web *w, void *slot);
void sw__web_conns_answering(struct sw_web *w, void *slot, bool answering);

/* The Host values w answers (hosts.c), from its bind address, w->host
 * and w->port: the bind address; with loopback, localhost and 127.0.0.1
 * too; with a wildcard (0.0.0.0, ::), every address of this machine's
 * interfaces and its host name; with any address not loopback, the host
 * name. */
void sw__web_hosts_fill(struct sw_web *w, const char *bind);
/* Whether host (a Host header, NULL allowed) is one of them (names in
 * any case). */
bool sw__web_host_ok(const struct sw_web *w, const char *host);

/* ---------------------------------------------------------------- paths */

#define SW__WEB_MAX_PATH 2048
#define SW__WEB_MAX_SEGMENTS 16

/* Cut a decoded path ("/api/m/acme/docs") into at most
 * SW__WEB_MAX_SEGMENTS segments in place (seg points into path; "/" gives
 * none).  False for any shape that could name something outside what the
 * routes mean: no leading '/', a "." or ".." segment, an empty one ("//",
 * a trailing '/'), a backslash or a control byte, too many segments. */
bool sw__web_path_split(char *path, char **seg, size_t *nseg);

/* Whether the path of a raw request target (up to its '?') spells '/',
 * '\' or NUL as %XX, in either case. */
bool sw__web_path_encoded_sep(const char *uri);

/* The API below /api/ (routes.c): seg are the path's segments after "api". */
void sw__web_api(struct sw__web_req *q, struct sw__web_reply *r, char **seg, size_t nseg);

/* A query argument, or NULL. */
const char *sw__web_arg(const struct sw__web_req *q, const char *name);
/* A query argument as a whole number in [lo, hi] into *out; false with a
 * 400 reply when it is absent (and required) or malformed. */
bool sw__web_arg_int(long long *out, const struct sw__web_req *q, struct sw__web_reply *r,
		     const char *name, long long lo, long long hi, bool required);

/* The POST body as a JSON object (NULL with a 400 reply otherwise):
 * UTF-8, no duplicate keys, no NUL in strings. */
json_t *sw__web_body_json(const struct sw__web_req *q, struct sw__web_reply *r);

/* Open the matter called name (NULL with a reply: 404 when there is no
 * such matter or the name is not one). */
struct sw_matter *sw__web_matter(const struct sw__web_req *q, struct sw__web_reply *r,
				 const char *name);
/* The workspace's authority table, NULL when it has none; *ok false (with
 * a 500 reply) when it exists but cannot be opened. */
struct sw_authority *sw__web_authorities(const struct sw__web_req *q, struct sw__web_reply *r,
					 bool *ok);

/* Handlers (api.c, api_record.c, api_runs.c, api_verify.c), called by
 * api.c's route table. */
void sw__web_session(struct sw__web_req *q, struct sw__web_reply *r);
void sw__web_matters(struct sw__web_req *q, struct sw__web_reply *r);
void sw__web_docs(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
void sw__web_search(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
void sw__web_page(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
void sw__web_page_png(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
void sw__web_runs(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
/* /runs/ID, /runs/ID/context, GET and POST /runs/ID/draft, /runs/ID/approve. */
void sw__web_run_show(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		      int64_t run_id);
void sw__web_run_context(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			 int64_t run_id);
void sw__web_draft_get(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		       int64_t run_id);
void sw__web_draft_save(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			int64_t run_id);
void sw__web_approve(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
		     int64_t run_id);
/* GET /runs/ID/draft.docx (api_docx.c): the current draft as a Word
 * document with a comment on each claim that does not pass. */
void sw__web_draft_docx(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			int64_t run_id);
/* POST /verify.docx (api_verify.c): a draft sent as to /verify, answered
 * as a Word document: an uploaded .docx with the comments added, any other
 * draft a new document. */
void sw__web_verify_docx(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
/* api_docx.c: verify len bytes of src read as kind against m and reply
 * with the Word document: docx (docx_len bytes) with the comments added,
 * or (docx NULL) a new document of the text. */
void sw__web_reply_docx(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			const char *src, size_t len, int kind, const char *docx, size_t docx_len);
void sw__web_verify(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
/* GET /qc and /qc.csv (api_qc.c): the matter's production QC report as
 * `sworn matter qc --json` and `--format csv` write it (?volume=NAME: one). */
void sw__web_qc(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
void sw__web_qc_csv(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
/* POST /waive (api_waive.c): a waiver of one blocked claim of a draft, by
 * the person the server runs for (409 when it runs for nobody named). */
void sw__web_waive(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m);
/* GET /runs/ID/certificate (api_waive.c): an approved run's certificate,
 * {markdown, certificate}, for the page's Print; 409 before approval. */
void sw__web_run_certificate(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			     int64_t run_id);
/* POST /runs/ID/version (api_waive.c): a new run from an approved run's
 * final, {run, version_of}; 409 for a run not approved. */
void sw__web_run_version(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			 int64_t run_id);

/* Whether text (NUL-terminated at len) is within what one request may
 * verify: SW_WEB_MAX_DRAFT bytes, SW_WEB_MAX_CLAIMS claims.  SW_ELIMIT with
 * a line saying so (and to use sworn verify) when it is not. */
int sw__web_verify_bounds(struct sw_matter *m, const char *text, size_t len,
			  struct sw_err *err) SW_MUST_USE;

/* Verify len bytes of src read as kind against m (and auth, may be NULL):
 * the whole `sworn verify --json` object into *report, offsets into src.
 * Deterministic rules only (no judge: a browser's Verify is to answer at
 * once).  0 or SW_E*. */
int sw__web_verify_json(json_t **report, const struct sw_web *w, struct sw_matter *m,
			struct sw_authority *auth, const char *src, size_t len, int kind,
			const char *name, const char *format_name, struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------------- assets */

struct sw__web_asset {
	const char *name;          /* the file name under src/web/assets/ */
	const unsigned char *data;
	size_t len;
};
/* Generated into the build folder from src/web/assets/ (CMakeLists.txt). */
extern const struct sw__web_asset sw__web_assets[];
extern const size_t sw__web_nassets;

/* The asset called name, or NULL (names are [A-Za-z0-9._-], no leading
 * dot: anything else is NULL). */
const struct sw__web_asset *sw__web_asset_find(const char *name);
/* The Content-Type for name's extension (static). */
const char *sw__web_content_type(const char *name);

/* ---------------------------------------------------------- tokens */

/* n random bytes as 2n hex digits into out (2n + 1 bytes). */
int sw__web_random_hex(char *out, size_t n, struct sw_err *err) SW_MUST_USE;
/* Whether a and b are equal, in time that depends only on their lengths. */
bool sw__web_secret_eq(const char *a, const char *b);
/* Sessions (struct sw__web_sessions): init with ttl_s (0: the default),
 * release.  session_new makes one (random, 64 hex digits) into out at
 * now (sw_now()); session_use says whether id is a live one at now and
 * makes now its last use (dropping those expired).  Thread-safe. */
void sw__web_sessions_init(struct sw__web_sessions *t, unsigned ttl_s);
void sw__web_sessions_release(struct sw__web_sessions *t);
int sw__web_session_new(struct sw__web_sessions *t, char out[SW_WEB_TOKEN_HEX + 1], double now,
			struct sw_err *err) SW_MUST_USE;
bool sw__web_session_use(struct sw__web_sessions *t, const char *id, double now);

/* Strict base64 (RFC 4648, padding required, no blanks) into out;
 * SW_EINPUT for anything else, SW_ELIMIT past limit bytes decoded. */
int sw__web_base64_decode(struct sw_buf *out, const char *s, size_t len, size_t limit,
			  struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------- page images */

#define SW__WEB_PAGE_DPI 110        /* a readable page on a laptop screen */
#define SW__WEB_PAGE_MAX_PX 2200    /* the longer side at most, in pixels */

#define SW__WEB_RENDERS 2           /* page workers at once; more are told to retry */
#define SW__WEB_RENDER_CPU_S 30     /* CPU seconds, as a page's text import (extract.h) */
#define SW__WEB_RENDER_AS ((rlim_t)2 << 30) /* a worker's address space */

/* Start the page renderer (render.c): a process forked now, before the
 * server's threads, that forks a worker with limits for each page. */
int sw__web_render_start(struct sw_web *w, struct sw_err *err) SW_MUST_USE;
/* End it (its workers die with it).  Safe when it never started. */
void sw__web_render_stop(struct sw_web *w);

/* What the two calls below do, in a worker of the renderer: the page
 * count into *pages, page_no's PNG into out.  SW_ELIMIT when the worker
 * ran past its bounds (killed), SW_ECANCEL when the server is stopping or
 * SW__WEB_RENDERS workers run already, else as the calls below. */
int sw__web_render_pages(unsigned *pages, struct sw_web *w, const char *path,
			 struct sw_err *err) SW_MUST_USE;
int sw__web_render_png(struct sw_buf *out, struct sw_web *w, const char *path,
		       unsigned page_no, struct sw_err *err) SW_MUST_USE;

/* In-process, for the renderer's workers only (page_image.c):
 * how many pages the PDF at path has into *pages; SW_EINPUT when it is
 * not a PDF poppler can open. */
int sw__web_pdf_pages(unsigned *pages, const char *path, struct sw_err *err) SW_MUST_USE;

/* Page page_no (1-based) of the PDF at path as a PNG into out, at
 * SW__WEB_PAGE_DPI with the longer side at most SW__WEB_PAGE_MAX_PX, drawn
 * within the text import's page bounds (page_draw.h) and cpu_ms of CPU.
 * SW_ENOTFOUND for no such page, SW_EINPUT for a PDF poppler cannot open,
 * SW_ELIMIT for a page that draws past the bounds. */
int sw__web_page_render(struct sw_buf *out, const char *path, unsigned page_no, long cpu_ms,
			struct sw_err *err) SW_MUST_USE;

#endif /* SW_WEB_INT_H */
