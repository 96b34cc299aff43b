/* number.c - whole-string number parsing with bounds, for configuration
 * values and tool output.  strtoll() and strtod() alone accept leading
 * blanks and stop at the first stray byte; these refuse both. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "base/base.h"

static bool starts_ok(const char *s)
{
	return s && *s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r' &&
	       *s != '\v' && *s != '\f';
}

bool sw_parse_int(const char *s, long long lo, long long hi, long long *out)
{
	char *end = NULL;
	if (!starts_ok(s))
		return false;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool sw_parse_double(const char *s, double lo, double hi, double *out)
{
	char *end = NULL;
	if (!starts_ok(s))
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || !(v >= lo && v <= hi))
		return false;
	*out = v;
	return true;
}
