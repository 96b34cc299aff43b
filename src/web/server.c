/* server.c - the HTTP side of sworn serve: binding, the checks every
 * request passes before any handler sees it (Host, token or session,
 * CSRF and Origin for POST, the path's shape, the body's size), the
 * headers every response carries, and the request log.  The dispatcher:
 * replies are reply.c's, the API's routes routes.c's. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "web/web_int.h"

#define CSP                                                                                        \
	"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "    \
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

/* What one connection's request has gathered between the calls of the
 * access handler. */
struct pending {
	struct sw_buf body;
	bool started;    /* the first call of the handler is past */
	bool too_big;
	bool answered;   /* refused at the first call */
	bool encoded_sep; /* the raw path spells '/', '\\' or NUL as %XX */
	double t0;
};

static enum MHD_Result send_reply(struct MHD_Connection *c, struct sw__web_reply *r)
{
	size_t len = 0;
	char *data = sw_buf_detach(&r->body, &len);
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(len, data ? data : (char *)"",
						data ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!resp) {
		free(data);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Security-Policy", CSP);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Cross-Origin-Opener-Policy", "same-origin");
	MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
	if (r->type)
		MHD_add_response_header(resp, "Content-Type", r->type);
	if (r->close)
		MHD_add_response_header(resp, "Connection", "close");
	MHD_add_response_header(resp, "Cache-Control", r->api ? "no-store" : "no-cache");
	enum MHD_Result ok = MHD_queue_response(c, r->status, resp);
	MHD_destroy_response(resp);
	return ok;
}

/* -------------------------------------------------------------- checks */

/* What a request's headers say twice: two Host headers, or two
 * Content-Length values that differ, are answered 400 (a proxy in front
 * may have read the other one). */
struct twice {
	unsigned hosts;
	const char *length;
	bool lengths_differ;
};

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key,
				    const char *value)
{
	struct twice *t = cls;
	(void)kind;
	if (!strcasecmp(key, "Host")) {
		t->hosts++;
	} else if (!strcasecmp(key, "Content-Length")) {
		if (t->length && strcmp(t->length, value ? value : "") != 0)
			t->lengths_differ = true;
		t->length = value ? value : "";
	}
	return MHD_YES;
}

static void *conn_slot(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* "Authorization: Bearer X", X the workspace's token or a live session
 * (*session then X).  No cookie is read: a browser sends a cookie of
 * 127.0.0.1 to every port of it, so to any other local service too. */
static bool authenticated(struct sw_web *w, struct MHD_Connection *c, const char **session)
{
	const char *auth = header(c, "Authorization");
	*session = NULL;
	if (!auth || strncmp(auth, "Bearer ", 7) != 0)
		return false;
	if (sw__web_secret_eq(auth + 7, w->token))
		return true;
	if (!sw__web_session_use(&w->sessions, auth + 7, sw_now()))
		return false;
	*session = auth + 7;
	return true;
}

/* POST only: the CSRF token the page got from /api/session, and an Origin
 * (when the browser sends one) that is this server as the Host named it. */
static bool post_ok(const struct sw_web *w, struct MHD_Connection *c, const char *host)
{
	const char *csrf = header(c, "X-CSRF-Token");
	if (!csrf || !sw__web_secret_eq(csrf, w->csrf))
		return false;
	const char *origin = header(c, "Origin");
	if (!origin)
		return true;
	char want[SW__WEB_HOST_MAX + 16];
	snprintf(want, sizeof(want), "http://%s", host);
	return strcmp(origin, want) == 0;
}

/* --------------------------------------------------------------- routes */

static void serve_asset(struct sw__web_reply *r, const char *name)
{
	const struct sw__web_asset *a = sw__web_asset_find(name);
	if (!a) {
		sw__web_reply_text(r, 404, "not found\n");
		return;
	}
	sw_buf_reset(&r->body);
	sw_buf_add(&r->body, a->data, a->len);
	r->status = 200;
	r->type = sw__web_content_type(a->name);
}

static void route(struct sw__web_req *q, struct sw__web_reply *r, const char *host)
{
	struct sw_web *w = q->w;
	char path[SW__WEB_MAX_PATH + 1];
	char *seg[SW__WEB_MAX_SEGMENTS];
	size_t nseg = 0;

	size_t plen = strlen(q->path);
	if (plen > SW__WEB_MAX_PATH) {
		sw__web_reply_text(r, 404, "not found\n");
		return;
	}
	memcpy(path, q->path, plen + 1);
	if (!sw__web_path_split(path, seg, &nseg)) {
		sw__web_reply_text(r, 404, "not found\n");
		return;
	}
	bool is_api = nseg >= 1 && strcmp(seg[0], "api") == 0;
	/* The page and its assets are the same for everyone and hold nothing
	 * of the record: served without a credential, so that the first visit
	 * (?token= in the URL) loads the script that swaps the token for a
	 * session, kept in the tab's sessionStorage and sent as a header. */
	if (!is_api) {
		if (q->post)
			sw__web_reply_text(r, 405, "method not allowed\n");
		else if (nseg == 0)
			serve_asset(r, "index.html");
		else if (nseg == 2 && strcmp(seg[0], "assets") == 0)
			serve_asset(r, seg[1]);
		else
			sw__web_reply_text(r, 404, "not found\n");
		return;
	}
	if (!authenticated(w, q->conn, &q->session)) {
		sw__web_reply_text(r, 403, "forbidden: no token, or the session has ended: "
				   "open the URL sworn serve printed\n");
		return;
	}
	if (q->post && !post_ok(w, q->conn, host)) {
		sw__web_reply_text(r, 403, "forbidden: cross-site request or missing CSRF token\n");
		return;
	}
	sw__web_api(q, r, seg + 1, nseg - 1);
}

static void log_line(const struct sw_web *w, const char *method, const char *url,
		     unsigned status, double t0)
{
	if (!w->log)
		return;
	/* the path only: a query may hold the token */
	char shown[256];
	size_t i = 0;
	for (; url[i] && i + 1 < sizeof(shown); i++)
		shown[i] = (unsigned char)url[i] < 0x20 || url[i] == 0x7f ? '?' : url[i];
	shown[i] = '\0';
	fprintf(stderr, "sworn serve: %s %s %u (%.0f ms)\n", method, shown, status,
		(sw_now() - t0) * 1000.0);
}

/* libmicrohttpd decodes the path before the handler sees it, so the raw
 * request line is read here (its return value is the request's first
 * *con_cls): an encoded separator ("acme%2fdocs") must not pass for a real
 * one. */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	(void)c;
	struct pending *p = sw_xcalloc(1, sizeof(*p));
	p->t0 = sw_now();
	p->encoded_sep = sw__web_path_encoded_sep(uri ? uri : "");
	return p;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct sw_web *w = cls;
	struct pending *p = *con_cls;
	struct sw__web_reply r = { .status = 500 };
	enum MHD_Result ok;
	(void)version;

	bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
	if (!p) {
		/* uri_seen makes it; without it, as if it had found nothing */
		p = sw_xcalloc(1, sizeof(*p));
		p->t0 = sw_now();
		*con_cls = p;
	}
	if (!p->started) {
		p->started = true;
		const char *host = header(c, "Host");
		unsigned refuse = 0;
		const char *why = NULL;
		struct twice tw = { 0 };
		MHD_get_connection_values(c, MHD_HEADER_KIND, count_header, &tw);
		if (tw.hosts > 1) {
			refuse = 400;
			why = "bad request: two Host headers\n";
		} else if (tw.lengths_differ) {
			refuse = 400;
			why = "bad request: two different Content-Length values\n";
		} else if (!post && strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
		    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
			refuse = 405;
			why = "method not allowed\n";
		} else if (!sw__web_host_ok(w, host)) {
			/* DNS rebinding: a page of another site that resolves
			 * its own name to 127.0.0.1 still sends its Host */
			refuse = 403;
			why = "forbidden: wrong Host\n";
		} else if (post) {
			const char *cl = header(c, "Content-Length");
			uint64_t n = 0;
			if (cl && (!sw_parse_u64(cl, strlen(cl), &n) || n > SW_WEB_MAX_BODY)) {
				refuse = 413;
				why = "request body too large\n";
			}
		}
		if (!refuse)
			return MHD_YES;
		p->answered = true;
		sw__web_conns_answering(w, conn_slot(c), true);
		sw__web_reply_text(&r, refuse, why);
		r.close = refuse == 400; /* where its body ends is not known */
		log_line(w, method, url, refuse, p->t0);
		ok = send_reply(c, &r);
		sw__web_reply_release(&r);
		return ok;
	}
	if (p->answered) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (*upload_size) {
		if (!post || p->body.len + *upload_size > SW_WEB_MAX_BODY)
			p->too_big = true;
		if (!p->too_big)
			sw_buf_add(&p->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	p->answered = true;
	sw__web_conns_answering(w, conn_slot(c), true);
	struct sw__web_req q = {
		.w = w,
		.conn = c,
		.post = post,
		.path = p->encoded_sep ? "/\x01" : url, /* a path no route has */
		.body = p->body.data ? p->body.data : "",
		.body_len = p->body.len,
	};
	if (p->too_big) {
		sw__web_reply_text(&r, 413, "request body too large\n");
	} else {
		/* sw_buf keeps its bytes NUL-terminated */
		route(&q, &r, header(c, "Host"));
	}
	log_line(w, method, url, r.status, p->t0);
	ok = send_reply(c, &r);
	sw__web_reply_release(&r);
	return ok;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	(void)toe;
	sw__web_conns_answering(cls, conn_slot(c), false);
	struct pending *p = *con_cls;
	if (!p)
		return;
	sw_buf_release(&p->body);
	free(p);
	*con_cls = NULL;
}

/* A connection opened or closed: kept for the request deadline. */
static void notify_conn(void *cls, struct MHD_Connection *c, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct sw_web *w = cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		*socket_context = ci ? sw__web_conns_open(w, ci->connect_fd) : NULL;
	} else {
		sw__web_conns_close(w, *socket_context);
		*socket_context = NULL;
	}
}

/* ------------------------------------------------------------ lifecycle */

int sw_web_start(struct sw_web **out, const struct sw_web_opts *o, struct sw_err *err)
{
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	struct sockaddr *sa;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD;
	const char *bind = o->bind ? o->bind : "127.0.0.1";
	int rc;

	*out = NULL;
	if (o->port > 65535)
		return sw_err_set(err, SW_EUSAGE, "bad port %u: give 0 to 65535", o->port);
	memset(&a4, 0, sizeof(a4));
	memset(&a6, 0, sizeof(a6));
	if (inet_pton(AF_INET, bind, &a4.sin_addr) == 1) {
		a4.sin_family = AF_INET;
		a4.sin_port = htons((uint16_t)o->port);
		sa = (struct sockaddr *)&a4;
	} else if (inet_pton(AF_INET6, bind, &a6.sin6_addr) == 1) {
		a6.sin6_family = AF_INET6;
		a6.sin6_port = htons((uint16_t)o->port);
		sa = (struct sockaddr *)&a6;
		flags |= MHD_USE_IPv6;
	} else {
		return sw_err_set(err, SW_EUSAGE, "bad --bind '%s': give an IPv4 or IPv6 address",
				  bind);
	}
	if (!sw_web_addr_is_loopback(bind) && !o->allow_remote)
		return sw_err_set(err, SW_EUSAGE,
				  "--bind %s is not a loopback address: add --allow-remote to "
				  "serve the matter to other machines", bind);
	if (!o->token || strlen(o->token) != SW_WEB_TOKEN_HEX)
		return sw_err_set(err, SW_EUSAGE, "the server needs the workspace's token");

	struct sw_web *w = sw_xcalloc(1, sizeof(*w));
	w->ws = o->ws;
	w->matter = o->matter ? sw_xstrdup(o->matter) : NULL;
	w->commit = o->commit ? sw_xstrdup(o->commit) : NULL;
	w->judge = o->judge;
	w->by = o->by;
	w->log = o->log;
	memcpy(w->token, o->token, SW_WEB_TOKEN_HEX + 1);
	w->render_ctl = -1;
	w->render_pid = -1;
	w->render_cpu_s = o->render_cpu_s ? o->render_cpu_s : SW__WEB_RENDER_CPU_S;
	sw__web_sessions_init(&w->sessions, o->session_ttl_s);
	if ((rc = sw__web_random_hex(w->csrf, SW_WEB_TOKEN_HEX / 2, err)) != 0)
		goto fail;
	if (sa->sa_family == AF_INET6)
		snprintf(w->host, sizeof(w->host), "[%s]", bind);
	else
		snprintf(w->host, sizeof(w->host), "%s", bind);

	/* before the server's threads: the renderer is forked from a process
	 * with one thread */
	if ((rc = sw__web_render_start(w, err)) != 0 ||
	    (rc = sw__web_conns_start(w, o->request_deadline_s, err)) != 0)
		goto fail;
	w->daemon = MHD_start_daemon(
		flags, (uint16_t)o->port, NULL, NULL, answer, w,
		MHD_OPTION_SOCK_ADDR, sa,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)SW_WEB_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)32,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)60,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 << 10),
		MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
		MHD_OPTION_NOTIFY_COMPLETED, completed, w,
		MHD_OPTION_NOTIFY_CONNECTION, notify_conn, w,
		MHD_OPTION_URI_LOG_CALLBACK, uri_seen, w,
		MHD_OPTION_END);
	if (!w->daemon) {
		rc = sw_err_set(err, SW_EIO, "cannot listen on %s port %u (in use?)", w->host,
				o->port);
		goto fail;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(w->daemon,
							       MHD_DAEMON_INFO_BIND_PORT);
	w->port = info && info->port ? info->port : o->port;
	sw__web_hosts_fill(w, bind);
	snprintf(w->origin, sizeof(w->origin), "http://%s", w->hosts[0]);
	*out = w;
	return 0;
fail:
	sw_web_stop(w);
	return rc;
}

unsigned sw_web_port(const struct sw_web *w)
{
	return w->port;
}

const char *sw_web_host(const struct sw_web *w)
{
	return w->host;
}

void sw_web_stop(struct sw_web *w)
{
	if (!w)
		return;
	atomic_store(&w->stopping, true);
	if (w->daemon)
		MHD_stop_daemon(w->daemon);
	sw__web_conns_stop(w);
	sw__web_render_stop(w);
	sw__web_sessions_release(&w->sessions);
	free(w->matter);
	free(w->commit);
	free(w);
}
