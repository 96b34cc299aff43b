/*
 * json.c - the few jansson helpers every command uses for --json output.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <utf8proc.h>

#include "base/base.h"

int sw_json_print(FILE *f, const struct json_t *value, struct sw_err *err)
{
	/* JSON_ENCODE_ANY: a command may print a bare string or number, which
	 * json_dumpf refuses by default.  The flush is what makes a full disk
	 * or a closed pipe show up here rather than at exit. */
	size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY;

	if (!value)
		return sw_err_set(err, SW_EUSAGE, "no JSON value to print");
	errno = 0;
	if (json_dumpf(value, f, flags) != 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		return sw_err_set(err, SW_EIO, "cannot write JSON output: %s",
				  errno ? strerror(errno) : "write failed");
	return 0;
}

/* jansson returns NULL only when it cannot allocate (the UTF-8 is valid by
 * now), and out of memory aborts everywhere in sworn. */
static struct json_t *checked(struct json_t *j)
{
	if (!j) {
		fputs("sworn: out of memory\n", stderr);
		abort();
	}
	return j;
}

struct json_t *sw_json_strn(const char *s, size_t len)
{
	struct sw_buf fixed = SW_BUF_INIT;
	struct json_t *j;

	if (!s)
		return checked(json_null());
	if (sw_utf8_valid(s, len))
		return checked(json_stringn(s, len));
	/* Copy valid runs and turn each byte that starts no valid sequence
	 * into U+FFFD, the same rule sw_fold() follows. */
	size_t i = 0, run = 0;
	while (i < len) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
						      (utf8proc_ssize_t)(len - i), &cp);
		if (k > 0) {
			i += (size_t)k;
			continue;
		}
		sw_buf_add(&fixed, s + run, i - run);
		sw_buf_add(&fixed, "\xEF\xBF\xBD", 3);
		run = ++i;
	}
	sw_buf_add(&fixed, s + run, len - run);
	j = checked(json_stringn(fixed.data, fixed.len));
	sw_buf_release(&fixed);
	return j;
}

struct json_t *sw_json_str(const char *s)
{
	return sw_json_strn(s, s ? strlen(s) : 0);
}

bool sw_json_int(const json_t *v, long long lo, long long hi, long long *out)
{
	long long n;
	if (json_is_integer(v)) {
		n = (long long)json_integer_value(v);
	} else if (json_is_real(v)) {
		double d = json_real_value(v);
		/* Range first, in double: only then is the conversion defined;
		 * a fraction shows as a difference after it. */
		if (!isfinite(d) || d < (double)lo || d > (double)hi ||
		    d >= 9223372036854775807.0 || d < -9223372036854775807.0)
			return false;
		n = (long long)d;
		if ((double)n != d)
			return false;
	} else {
		return false;
	}
	if (n < lo || n > hi)
		return false;
	*out = n;
	return true;
}
