/* err.c - the error object, SW_BUG and sw_die. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* Messages are one line by contract: a newline from an outside source (an
 * errno string, sqlite3_errmsg) must not break a caller's output format. */
static void flatten(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

int sw_err_set(struct sw_err *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	flatten(err->msg);
	err->code = code;
	return code;
}

int sw_err_wrap(struct sw_err *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	char prefix[SW_ERR_MSG_MAX];
	char old[SW_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	old[sizeof(old) - 1] = '\0';
	/* Truncation is the intended behaviour for an over-long chain. */
	size_t n = strlen(prefix);
	memcpy(err->msg, prefix, n + 1);
	if (old[0] && n + 2 < sizeof(err->msg)) {
		size_t room = sizeof(err->msg) - n - 3;
		size_t olen = strnlen(old, room);
		memcpy(err->msg + n, ": ", 2);
		memcpy(err->msg + n + 2, old, olen);
		err->msg[n + 2 + olen] = '\0';
	}
	flatten(err->msg);
	if (err->code == 0)
		err->code = code;
	return err->code;
}

void sw_err_clear(struct sw_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

const char *sw_err_name(int code)
{
	switch (code) {
	case SW_OK: return "ok";
	case SW_EUSAGE: return "usage";
	case SW_EINPUT: return "input";
	case SW_EIO: return "io";
	case SW_ENOTFOUND: return "not found";
	case SW_EEXIST: return "exists";
	case SW_ELIMIT: return "limit";
	case SW_EDB: return "database";
	case SW_EPOLICY: return "policy";
	case SW_ECANCEL: return "cancelled";
	case SW_ENET: return "network";
	case SW_EFAULT: return "injected fault";
	default: return "error";
	}
}

void sw_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "sworn: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void sw_die(const char *fmt, ...)
{
	va_list ap;
	fputs("sworn: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}
