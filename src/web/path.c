/* path.c - the shape of a request's path, checked before any route: the
 * decoded path cut into segments, and the raw one read for encoded
 * separators that decoding would hide. */
#include <string.h>

#include "web/web_int.h"

bool sw__web_path_split(char *path, char **seg, size_t *nseg)
{
	*nseg = 0;
	if (path[0] != '/')
		return false;
	if (path[1] == '\0')
		return true;
	char *p = path + 1;
	for (;;) {
		char *slash = strchr(p, '/');
		if (slash)
			*slash = '\0';
		if (!*p || !strcmp(p, ".") || !strcmp(p, "..") || *nseg == SW__WEB_MAX_SEGMENTS)
			return false;
		for (const char *s = p; *s; s++)
			if (*s == '\\' || (unsigned char)*s < 0x20 || *s == 0x7f)
				return false;
		seg[(*nseg)++] = p;
		if (!slash)
			return true;
		p = slash + 1;
	}
}

bool sw__web_path_encoded_sep(const char *uri)
{
	for (const char *s = uri; *s && *s != '?'; s++) {
		if (s[0] != '%' || !s[1] || !s[2])
			continue;
		char h = s[1], l = (char)(s[2] | 0x20);
		if ((h == '2' && l == 'f') || (h == '5' && l == 'c') || (h == '0' && l == '0'))
			return true;
	}
	return false;
}
