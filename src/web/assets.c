/* assets.c - the page's files, embedded in the binary at build time from
 * src/web/assets/ (the table is generated into the build folder), found
 * by exact name only. */
#include <string.h>

#include "web/web_int.h"

static bool name_ok(const char *name)
{
	if (!name || !*name || name[0] == '.' || strlen(name) > 128)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

const struct sw__web_asset *sw__web_asset_find(const char *name)
{
	if (!name_ok(name))
		return NULL;
	for (size_t i = 0; i < sw__web_nassets; i++)
		if (strcmp(sw__web_assets[i].name, name) == 0)
			return &sw__web_assets[i];
	return NULL;
}

const char *sw__web_content_type(const char *name)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{ "html", "text/html; charset=utf-8" },
		{ "js", "text/javascript; charset=utf-8" },
		{ "mjs", "text/javascript; charset=utf-8" },
		{ "css", "text/css; charset=utf-8" },
		{ "json", "application/json; charset=utf-8" },
		{ "svg", "image/svg+xml" },
		{ "png", "image/png" },
		{ "ico", "image/x-icon" },
		{ "txt", "text/plain; charset=utf-8" },
	};
	char ext[16];
	sw_path_ext(ext, sizeof(ext), name);
	for (size_t i = 0; i < SW_ARRAY_LEN(types); i++)
		if (strcmp(ext, types[i].ext) == 0)
			return types[i].type;
	return "application/octet-stream";
}
