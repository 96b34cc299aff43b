/*
 * fuzz_web_request.c - hostile bytes through what sworn serve reads of a
 * request before any handler: the raw path's encoded separators, the
 * decoded path cut into segments, a session credential looked up, an
 * upload's base64, an asset's name.  Besides memory errors it checks what
 * the routes rely on: no segment is empty, "." or "..", or holds a '/', a
 * backslash or a control byte; no credential but the session's own is a
 * live session; base64 decodes to at most 3 bytes per 4 and only when well
 * formed.
 *
 * The input is cut at its first two NUL bytes: path, credential, base64.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_web_request: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	const char *path = s;
	const char *cred = memchr(s, 0, size) ? s + strlen(s) + 1 : s + size;
	size_t used = (size_t)(cred - s);
	const char *b64 = used < size && memchr(cred, 0, size - used) ?
			  cred + strlen(cred) + 1 : s + size;

	(void)sw__web_path_encoded_sep(path);
	char buf[SW__WEB_MAX_PATH + 1];
	char *seg[SW__WEB_MAX_SEGMENTS];
	size_t n = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	if (sw__web_path_split(buf, seg, &n)) {
		check(n <= SW__WEB_MAX_SEGMENTS, "too many segments");
		for (size_t i = 0; i < n; i++) {
			check(seg[i][0] != '\0', "empty segment");
			check(strcmp(seg[i], ".") && strcmp(seg[i], ".."), "dot segment");
			for (const char *p = seg[i]; *p; p++)
				check(*p != '/' && *p != '\\' && (unsigned char)*p >= 0x20,
				      "separator in a segment");
		}
		if (n)
			(void)sw__web_asset_find(seg[n - 1]);
	}

	struct sw__web_sessions t;
	char id[SW_WEB_TOKEN_HEX + 1];
	struct sw_err serr = { 0 };
	sw__web_sessions_init(&t, 60);
	if (sw__web_session_new(&t, id, 1000, &serr) == 0) {
		check(sw__web_session_use(&t, cred, 1001) == !strcmp(cred, id),
		      "a credential not the session's passed");
		check(!sw__web_session_use(&t, id, 2000), "an expired session passed");
	}
	sw__web_sessions_release(&t);

	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	size_t blen = strlen(b64);
	if (sw__web_base64_decode(&out, b64, blen, 4096, &err) == 0) {
		check(blen % 4 == 0, "decoded a length not a multiple of 4");
		check(out.len <= blen / 4 * 3, "decoded too much");
		check(out.len <= 4096, "past the limit");
	}
	sw_buf_release(&out);
	free(s);
	return 0;
}
