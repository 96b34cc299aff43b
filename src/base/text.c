/* text.c - small string helpers. */
#include <string.h>

#include "base/base.h"

char *sw_trim(char *s)
{
	char *start = s;
	while (*start == ' ' || *start == '\t' || *start == '\r' || *start == '\n')
		start++;
	size_t len = strlen(start);
	while (len > 0 && (start[len - 1] == ' ' || start[len - 1] == '\t' ||
			   start[len - 1] == '\r' || start[len - 1] == '\n'))
		len--;
	memmove(s, start, len);
	s[len] = '\0';
	return s;
}

bool sw_parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool sw_streq_ci(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x += 32;
		if (y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}
