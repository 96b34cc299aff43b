/* reply.c - what a handler answers, written: a JSON document (escaped so
 * that nothing reads it as HTML), an error object, plain text, the status
 * an error code stands for.  A leaf: the dispatcher (server.c, api.c) and
 * every handler call down into it, and it calls none of them. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"

void sw__web_reply_json(struct sw__web_reply *r, unsigned status, json_t *doc)
{
	sw_buf_reset(&r->body);
	r->status = status;
	r->type = "application/json; charset=utf-8";
	r->api = true;
	char *s = doc ? json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	json_decref(doc);
	if (!s) {
		r->status = 500;
		sw_buf_adds(&r->body, "{\"error\":\"cannot write the answer\"}");
		return;
	}
	/* '<', '>' and '&' appear in JSON only inside strings, so escaping
	 * them changes no value, and a reply that something did read as HTML
	 * still holds no tag */
	for (const char *p = s; *p; p++) {
		if (*p == '<')
			sw_buf_adds(&r->body, "\\u003c");
		else if (*p == '>')
			sw_buf_adds(&r->body, "\\u003e");
		else if (*p == '&')
			sw_buf_adds(&r->body, "\\u0026");
		else
			sw_buf_addc(&r->body, *p);
	}
	free(s);
}

void sw__web_reply_error(struct sw__web_reply *r, unsigned status, const char *fmt, ...)
{
	struct sw_buf msg = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	sw__web_reply_json(r, status, json_pack("{s:o}", "error", sw_json_str(msg.data ? msg.data
										       : "")));
	sw_buf_release(&msg);
}

unsigned sw__web_status_for(int code)
{
	switch (code) {
	case SW_ENOTFOUND:
		return 404;
	case SW_EINPUT:
		return 400;
	case SW_ELIMIT:
		return 413;
	case SW_EUSAGE:
	case SW_EEXIST:
		return 409;
	case SW_EPOLICY:
		return 403;
	case SW_ECANCEL:
		return 503;
	default:
		return 500;
	}
}

void sw__web_reply_err(struct sw__web_reply *r, const struct sw_err *err)
{
	sw__web_reply_error(r, sw__web_status_for(err->code), "%s",
			    err->msg[0] ? err->msg : sw_err_name(err->code));
}

void sw__web_reply_text(struct sw__web_reply *r, unsigned status, const char *text)
{
	sw_buf_reset(&r->body);
	r->status = status;
	r->type = "text/plain; charset=utf-8";
	sw_buf_adds(&r->body, text);
}

void sw__web_reply_release(struct sw__web_reply *r)
{
	sw_buf_release(&r->body);
}
