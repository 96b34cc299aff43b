/*
 * transfer.c - one HTTP transfer through libcurl: the easy handle's setup,
 * the write and SSE callbacks, the deadlines, cancellation and the
 * connect-time policy check (the open-socket callback).
 *
 * Each client owns one easy handle inside its own multi handle.  The multi
 * interface is used even for one transfer because its poll loop is where
 * the deadlines live: libcurl's own timeouts know nothing of "first token"
 * or "between tokens", and its progress callback may go a second between
 * calls, far too coarse for a 200 ms deadline.  The connection stays in the
 * multi handle's pool, so consecutive calls to one server reuse it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "llm/llm_int.h"

/* ---------------------------------------------------------------- policy */

/* libcurl asks here for every socket it wants, with the address it is about
 * to connect to: the one place where the policy cannot be talked around by
 * DNS, /etc/hosts or a resolve override. */
static curl_socket_t open_socket(void *user, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct sw_llm_client *c = user;
	char why[sizeof(c->why)];
	const struct sockaddr *sa = &a->addr;

	if (purpose != CURLSOCKTYPE_IPCXN) {
		c->refused = true;
		sw_err_set(&c->refusal, SW_EPOLICY, "endpoint '%s': refused a socket of unknown purpose",
			   c->endpoint);
		return CURL_SOCKET_BAD;
	}
	if (sw__llm_policy_check(&c->policy, c->force_local, c->endpoint, c->host, sa, a->addrlen,
			     why, sizeof(why), &c->refusal) != 0) {
		c->refused = true;
		return CURL_SOCKET_BAD;
	}
	int fd = socket(a->family, a->socktype, a->protocol);
	if (fd < 0)
		return CURL_SOCKET_BAD;
	/* A model server's connection has no business in a child process. */
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	sw__llm_addr_format(c->address, sizeof(c->address), sa, a->addrlen);
	memcpy(c->why, why, sizeof(c->why));
	c->have_address = true;
	return fd;
}

/* ----------------------------------------------------------- fault seams */

/* SWORN_FAULT=http:N: the Nth transfer is aborted by libcurl once it has a
 * connection and before the request goes out, and reports what a reset
 * connection reports; http-mid:N: the Nth transfer takes the first
 * MID_BREAK_BYTES of its body (all of a shorter one) and then breaks, as a
 * server that dies mid-answer would.  The transfer faulted is kept per
 * thread (tests only). */
#define MID_BREAK_BYTES 1024
enum xfer_fault { XF_NONE, XF_RESET, XF_MID };
static _Thread_local const struct sw__llm_xfer *fault_xfer;
static _Thread_local enum xfer_fault fault_kind;
static _Thread_local size_t fault_taken;

static int abort_before_request(void *user, char *conn_primary_ip, char *conn_local_ip,
				int conn_primary_port, int conn_local_port)
{
	(void)user;
	(void)conn_primary_ip;
	(void)conn_local_ip;
	(void)conn_primary_port;
	(void)conn_local_port;
	return CURL_PREREQFUNC_ABORT;
}

static void arm_faults(struct sw__llm_xfer *x)
{
	fault_xfer = NULL;
	fault_kind = XF_NONE;
	fault_taken = 0;
	if (sw_fault("http")) {
		fault_xfer = x;
		fault_kind = XF_RESET;
		curl_easy_setopt(x->c->easy, CURLOPT_PREREQFUNCTION, abort_before_request);
	} else if (sw_fault("http-mid")) {
		fault_xfer = x;
		fault_kind = XF_MID;
	}
}

static enum xfer_fault faulted(const struct sw__llm_xfer *x)
{
	return fault_xfer == x ? fault_kind : XF_NONE;
}

/* -------------------------------------------------------------- transfers */

static size_t take_body(struct sw__llm_xfer *x, char *p, size_t n);


static int on_event(void *user, const char *data, size_t len)
{
	struct sw__llm_xfer *x = user;
	int rc = sw__llm_answer_event(x->answer, data, len);
	if (rc != 0)
		sw_err_set(&x->err, rc, "endpoint '%s': %s%s", x->c->endpoint,
			   rc == SW_ENET ? "the server failed mid-answer: " : "",
			   x->answer->error);
	return rc;
}

static size_t on_write(char *p, size_t size, size_t nmemb, void *user)
{
	struct sw__llm_xfer *x = user;
	size_t n = size * nmemb;

	if (faulted(x) == XF_MID && fault_taken + n >= MID_BREAK_BYTES) {
		/* Anything short of n makes libcurl end the transfer. */
		size_t keep = MID_BREAK_BYTES - fault_taken;
		fault_taken = MID_BREAK_BYTES;
		if (keep > 0)
			(void)take_body(x, p, keep);
		return 0;
	}
	fault_taken += n;
	return take_body(x, p, n);
}

static size_t take_body(struct sw__llm_xfer *x, char *p, size_t n)
{
	if (!x->started) {
		char *ct = NULL;
		x->started = true;
		curl_easy_getinfo(x->c->easy, CURLINFO_RESPONSE_CODE, &x->status);
		curl_easy_getinfo(x->c->easy, CURLINFO_CONTENT_TYPE, &ct);
		x->is_sse = x->stream && x->status == 200 && ct &&
			    strncasecmp(ct, "text/event-stream", 17) == 0;
	}
	if (x->is_sse) {
		int rc = sw__llm_sse_feed(&x->sse, p, n, &x->err);
		if (rc != 0) {
			if (rc == SW_ELIMIT && x->err.msg[0] && !strstr(x->err.msg, "endpoint '"))
				sw_err_wrap(&x->err, rc, "endpoint '%s'", x->c->endpoint);
			x->rc = rc;
			return 0;
		}
		if (x->answer->chunks != x->last_chunks) {
			double now = sw_now();
			if (x->last_chunks == 0)
				x->t_first_text = now;
			x->t_last_text = now;
			x->last_chunks = x->answer->chunks;
		}
		return n;
	}
	size_t limit = x->status == 200 ? x->body_limit : SW_LLM_MAX_ERROR_BODY;
	if (x->body.len + n > limit) {
		if (x->status != 200) {
			/* An error body only feeds a message: keep its start. */
			sw_buf_add(&x->body, p, limit - x->body.len);
			return n;
		}
		x->rc = sw_err_set(&x->err, SW_ELIMIT, "endpoint '%s': the response is larger than %zu bytes",
				   x->c->endpoint, limit);
		return 0;
	}
	sw_buf_add(&x->body, p, n);
	return n;
}

void sw__llm_xfer_setup(struct sw_llm_client *c, struct sw__llm_xfer *x, const char *path, const char *post,
		    size_t post_len)
{
	CURL *e = c->easy;
	char *url = sw_xasprintf("%s%s", c->url, path);

	curl_easy_reset(e);
	curl_easy_setopt(e, CURLOPT_URL, url);
	free(url); /* libcurl keeps its own copy of string options */
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	/* An http_proxy in the environment would make the proxy the address
	 * checked and something else the address that answers. */
	curl_easy_setopt(e, CURLOPT_PROXY, "");
	curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, c);
	if (c->unix_path)
		curl_easy_setopt(e, CURLOPT_UNIX_SOCKET_PATH, c->unix_path);
	if (c->resolve)
		curl_easy_setopt(e, CURLOPT_RESOLVE, c->resolve);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, c->headers);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "sworn/" SW_VERSION);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, c->curl_err);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
	if (x->dl.connect_ms)
		curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)x->dl.connect_ms);
	if (post) {
		curl_easy_setopt(e, CURLOPT_POST, 1L);
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_len);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, post);
	} else {
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	}
}

/* The nearest deadline and its name. */
static double next_deadline(const struct sw__llm_xfer *x, const char **which, unsigned *ms)
{
	double d = x->call_deadline;
	*which = "overall";
	*ms = x->dl.total_ms;
	if (x->is_sse && x->last_chunks == 0 && x->dl.first_token_ms) {
		double f = x->t_start + x->dl.first_token_ms / 1000.0;
		if (f < d) {
			d = f;
			*which = "first-token";
			*ms = x->dl.first_token_ms;
		}
	} else if (x->stream && !x->started && x->dl.first_token_ms) {
		double f = x->t_start + x->dl.first_token_ms / 1000.0;
		if (f < d) {
			d = f;
			*which = "first-token";
			*ms = x->dl.first_token_ms;
		}
	}
	if (x->is_sse && x->last_chunks > 0 && x->dl.token_ms) {
		double t = x->t_last_text + x->dl.token_ms / 1000.0;
		if (t < d) {
			d = t;
			*which = "between-token";
			*ms = x->dl.token_ms;
		}
	}
	return d;
}

/* Run the transfer set up on c->easy to its end, a deadline or a cancel. */
int sw__llm_xfer_perform(struct sw__llm_xfer *x, struct sw_err *err)
{
	struct sw_llm_client *c = x->c;
	CURLcode result = CURLE_OK;
	int running = 1, rc = 0;
	bool finished = false;

	c->refused = false;
	sw_err_clear(&c->refusal);
	c->curl_err[0] = '\0';
	x->t_start = sw_now();
	arm_faults(x);
	if (curl_multi_add_handle(c->multi, c->easy) != CURLM_OK)
		return sw_err_set(err, SW_EIO, "endpoint '%s': cannot start a transfer", c->endpoint);
	for (;;) {
		CURLMcode mc = curl_multi_perform(c->multi, &running);
		if (mc != CURLM_OK) {
			rc = sw_err_set(err, SW_EIO, "endpoint '%s': %s", c->endpoint,
					curl_multi_strerror(mc));
			break;
		}
		if (running == 0) {
			CURLMsg *m;
			int left;
			while ((m = curl_multi_info_read(c->multi, &left)) != NULL)
				if (m->msg == CURLMSG_DONE)
					result = m->data.result;
			finished = true;
			break;
		}
		if (sw__llm_cancelled(x->cancel)) {
			rc = sw_err_set(err, SW_ECANCEL, "endpoint '%s': cancelled", c->endpoint);
			break;
		}
		const char *which;
		unsigned ms;
		double now = sw_now();
		double deadline = next_deadline(x, &which, &ms);
		if (now >= deadline) {
			/* The url as curl's own timeout names it: which of the two
			 * fires first (both at a connect's deadline) is chance. */
			rc = sw_err_set(err, SW_ENET,
					"endpoint '%s' (%s): no answer within the %s deadline (%u ms)",
					c->endpoint, c->unix_path ? c->unix_path : c->url, which, ms);
			break;
		}
		double wait = (deadline - now) * 1000.0 + 1;
		if (wait > 1000)
			wait = 1000;
		if (x->cancel && wait > SW__LLM_CANCEL_POLL_MS)
			wait = SW__LLM_CANCEL_POLL_MS;
		curl_multi_poll(c->multi, NULL, 0, (int)wait, NULL);
	}
	/* Removing an unfinished transfer aborts it and drops its connection. */
	curl_multi_remove_handle(c->multi, c->easy);
	if (rc != 0 || !finished)
		return rc;
	if (x->rc != 0) {
		if (err) {
			err->code = 0;
			sw_err_set(err, x->rc, "%s", x->err.msg);
		}
		return x->rc;
	}
	/* A status line with no body (a redirect, a bare 500) never reached
	 * the write callback: its status is read here, or it would be 0. */
	if (result == CURLE_OK && !x->started)
		curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &x->status);
	if (result == CURLE_OK && faulted(x) == XF_MID)
		result = CURLE_WRITE_ERROR; /* all of a short body came: the end did not */
	if (result == CURLE_OK)
		return 0;
	if (c->refused && (result == CURLE_COULDNT_CONNECT || result == CURLE_OPERATION_TIMEDOUT ||
			   result == CURLE_COULDNT_RESOLVE_HOST)) {
		if (err)
			*err = c->refusal;
		return SW_EPOLICY;
	}
	const char *what = c->curl_err[0] ? c->curl_err : curl_easy_strerror(result);
	if (faulted(x) != XF_NONE && (result == CURLE_ABORTED_BY_CALLBACK ||
				      result == CURLE_WRITE_ERROR)) {
		result = CURLE_RECV_ERROR;
		what = "Connection reset by peer (injected fault)";
	}
	switch (result) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
		return sw_err_set(err, SW_ENET, "endpoint '%s' (%s): cannot connect: %s", c->endpoint,
				  c->unix_path ? c->unix_path : c->url, what);
	case CURLE_OPERATION_TIMEDOUT:
		return sw_err_set(err, SW_ENET, "endpoint '%s' (%s): %s", c->endpoint,
				  c->unix_path ? c->unix_path : c->url, what);
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
		return sw_err_set(err, SW_ENET, "endpoint '%s': the connection broke %s: %s", c->endpoint,
				  x->started ? "mid-answer" : "before an answer", what);
	default:
		return sw_err_set(err, SW_ENET, "endpoint '%s': %s", c->endpoint, what);
	}
}

void sw__llm_xfer_init(struct sw__llm_xfer *x, struct sw_llm_client *c, bool stream,
		   const struct sw_llm_deadlines *dl, double call_deadline,
		   struct sw_llm_cancel *cancel, struct sw__llm_answer *answer)
{
	memset(x, 0, sizeof(*x));
	x->c = c;
	x->stream = stream;
	x->dl = *dl;
	x->call_deadline = call_deadline;
	x->cancel = cancel;
	x->answer = answer;
	x->body_limit = SW_LLM_MAX_BODY;
	sw_buf_init(&x->body);
	sw__llm_sse_init(&x->sse, SW_LLM_MAX_SSE_LINE, on_event, x);
}

void sw__llm_xfer_release(struct sw__llm_xfer *x)
{
	sw_buf_release(&x->body);
	sw__llm_sse_release(&x->sse);
}

int sw__llm_xfer_http_error(const struct sw__llm_xfer *x, struct sw_err *err)
{
	char msg[300];
	if (x->status >= 300 && x->status < 400) {
		/* Never followed (the policy judged this address, not that one):
		 * named, so that the fix is plain. */
		char *to = NULL;
		curl_easy_getinfo(x->c->easy, CURLINFO_REDIRECT_URL, &to);
		return sw_err_set(err, SW_ENET,
				  "endpoint '%s' answered HTTP %ld, a redirect%s%.200s%s, which sworn "
				  "does not follow: give the url it is served at",
				  x->c->endpoint, x->status, to ? " to '" : "", to ? to : "",
				  to ? "'" : "");
	}
	sw__llm_error_body_message(msg, sizeof(msg), x->body.data, x->body.len);
	return sw_err_set(err, SW_ENET, "endpoint '%s' answered HTTP %ld: %s", x->c->endpoint,
			  x->status, msg);
}

