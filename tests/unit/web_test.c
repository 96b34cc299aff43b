/*
 * web_test.c - the pieces of sworn serve that read what a client sends:
 * the path's shape (raw and decoded), the session cookie, strict base64,
 * secrets compared, asset names; and the workspace's token file (made
 * 0600, kept across calls, tightened, refused when it holds no token).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "web/web_int.h"

static bool split(const char *path, size_t *n, char seg0[64])
{
	char buf[SW__WEB_MAX_PATH + 1];
	char *seg[SW__WEB_MAX_SEGMENTS];
	snprintf(buf, sizeof(buf), "%s", path);
	bool ok = sw__web_path_split(buf, seg, n);
	if (ok && *n && seg0)
		snprintf(seg0, 64, "%s", seg[0]);
	return ok;
}

static void test_paths(void **state)
{
	(void)state;
	size_t n = 99;
	char first[64];
	assert_true(split("/", &n, NULL));
	assert_int_equal(n, 0);
	assert_true(split("/api/m/acme/docs", &n, first));
	assert_int_equal(n, 4);
	assert_string_equal(first, "api");
	assert_true(split("/assets/app.js", &n, NULL));
	assert_true(split("/api/m/a.b/page.png", &n, NULL));
	static const char *const bad[] = {
		"", "api", "/..", "/assets/../web.h", "/assets/./index.html", "/assets//x",
		"/assets/", "/a\\b", "/a/\x01", "/a/\x7f", "/../etc/passwd", "/a/b/..",
		"/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(bad); i++)
		assert_false(split(bad[i], &n, NULL));
	assert_true(split("/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16", &n, NULL));
	assert_int_equal(n, 16);

	assert_true(sw__web_path_encoded_sep("/api/m/acme%2fdocs"));
	assert_true(sw__web_path_encoded_sep("/api/m/acme%2Fdocs"));
	assert_true(sw__web_path_encoded_sep("/assets/..%5Cweb.h"));
	assert_true(sw__web_path_encoded_sep("/x%00.js"));
	assert_false(sw__web_path_encoded_sep("/api/m/acme/search?q=a%2Fb"));
	assert_false(sw__web_path_encoded_sep("/assets/%2e%2e/x")); /* decoded "..": split refuses */
	assert_false(sw__web_path_encoded_sep("/x%2"));
	assert_false(sw__web_path_encoded_sep("/x%"));
}

/* Sessions end ttl seconds after their last use (the clock is given), and
 * a full table drops the one used longest ago. */
static void test_sessions(void **state)
{
	(void)state;
	struct sw__web_sessions t;
	struct sw_err err = { 0 };
	char a[SW_WEB_TOKEN_HEX + 1], b[SW_WEB_TOKEN_HEX + 1], c[SW_WEB_TOKEN_HEX + 1];
	sw__web_sessions_init(&t, 100);
	assert_int_equal(sw__web_session_new(&t, a, 1000, &err), 0);
	assert_int_equal(strlen(a), SW_WEB_TOKEN_HEX);
	assert_int_equal(sw__web_session_new(&t, b, 1000, &err), 0);
	assert_string_not_equal(a, b);
	assert_true(sw__web_session_use(&t, a, 1090));
	assert_true(sw__web_session_use(&t, a, 1180)); /* 90 s after its last use */
	assert_false(sw__web_session_use(&t, b, 1180)); /* 180 s: ended */
	assert_false(sw__web_session_use(&t, b, 1000)); /* and gone */
	assert_false(sw__web_session_use(&t, a, 1281));
	assert_false(sw__web_session_use(&t, "", 1000));
	assert_false(sw__web_session_use(&t, "abc", 1000));

	/* a full table: the oldest goes */
	assert_int_equal(sw__web_session_new(&t, c, 2000, &err), 0);
	for (int i = 0; i < SW__WEB_SESSIONS - 1; i++)
		assert_int_equal(sw__web_session_new(&t, b, 2001 + i, &err), 0);
	assert_true(sw__web_session_use(&t, c, 2050));
	assert_int_equal(sw__web_session_new(&t, a, 2051, &err), 0); /* drops 2001's */
	assert_true(sw__web_session_use(&t, c, 2052));
	assert_true(sw__web_session_use(&t, a, 2052));
	assert_true(sw__web_session_use(&t, b, 2052)); /* the newest of the loop stays */
	sw__web_sessions_release(&t);
}

static void b64(const char *in, const char *want, int rc)
{
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	assert_int_equal(sw__web_base64_decode(&out, in, strlen(in), 1024, &err), rc);
	if (rc == 0) {
		assert_int_equal(out.len, strlen(want));
		assert_memory_equal(out.data ? out.data : "", want, out.len);
	} else {
		assert_true(err.msg[0] != '\0');
	}
	sw_buf_release(&out);
}

static void test_base64(void **state)
{
	(void)state;
	b64("", "", 0);
	b64("TWFu", "Man", 0);
	b64("TWE=", "Ma", 0);
	b64("TQ==", "M", 0);
	b64("aGVsbG8gd29ybGQ=", "hello world", 0);
	b64("TWF", NULL, SW_EINPUT);      /* length */
	b64("TW=u", NULL, SW_EINPUT);     /* padding inside */
	b64("T===", NULL, SW_EINPUT);     /* too much padding */
	b64("TQ==TWFu", NULL, SW_EINPUT); /* padding before the end */
	b64("TW u", NULL, SW_EINPUT);     /* a blank */
	b64("TW\nu", NULL, SW_EINPUT);
	b64("TWF!", NULL, SW_EINPUT);
	/* over the limit, refused before decoding */
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	char big[4001];
	memset(big, 'A', 4000);
	big[4000] = '\0';
	assert_int_equal(sw__web_base64_decode(&out, big, 4000, 1024, &err), SW_ELIMIT);
	sw_buf_release(&out);
}

static void test_secrets_and_assets(void **state)
{
	(void)state;
	assert_true(sw__web_secret_eq("abc", "abc"));
	assert_false(sw__web_secret_eq("abc", "abd"));
	assert_false(sw__web_secret_eq("abc", "abcd"));
	assert_false(sw__web_secret_eq("", "a"));
	assert_true(sw__web_secret_eq("", ""));
	char a[65], b[65];
	struct sw_err err = { 0 };
	assert_int_equal(sw__web_random_hex(a, 32, &err), 0);
	assert_int_equal(sw__web_random_hex(b, 32, &err), 0);
	assert_int_equal(strlen(a), 64);
	assert_int_not_equal(strcmp(a, b), 0);
	assert_int_equal(strspn(a, "0123456789abcdef"), 64);

	assert_null(sw__web_asset_find("../web.h"));
	assert_null(sw__web_asset_find(".hidden"));
	assert_null(sw__web_asset_find("a/b"));
	assert_null(sw__web_asset_find(""));
	assert_null(sw__web_asset_find(NULL));
	for (size_t i = 0; i < sw__web_nassets; i++)
		assert_ptr_equal(sw__web_asset_find(sw__web_assets[i].name), &sw__web_assets[i]);
	assert_string_equal(sw__web_content_type("app.js"), "text/javascript; charset=utf-8");
	assert_string_equal(sw__web_content_type("index.html"), "text/html; charset=utf-8");
	assert_string_equal(sw__web_content_type("x.bin"), "application/octet-stream");
	assert_true(sw_web_addr_is_loopback("127.0.0.1"));
	assert_true(sw_web_addr_is_loopback("127.1.2.3"));
	assert_true(sw_web_addr_is_loopback("::1"));
	assert_false(sw_web_addr_is_loopback("0.0.0.0"));
	assert_false(sw_web_addr_is_loopback("192.0.2.1"));
	assert_false(sw_web_addr_is_loopback("::"));
	assert_false(sw_web_addr_is_loopback("localhost"));
}

static void test_token_file(void **state)
{
	(void)state;
	char dir[] = "web_test.XXXXXX";
	char t1[SW_WEB_TOKEN_HEX + 1], t2[SW_WEB_TOKEN_HEX + 1];
	struct sw_err err = { 0 };
	struct stat st;
	assert_non_null(mkdtemp(dir));
	char *path = sw_path_join(dir, SW_WEB_TOKEN_FILE);

	assert_int_equal(sw_web_token(t1, dir, false, &err), 0);
	assert_int_equal(strlen(t1), SW_WEB_TOKEN_HEX);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(sw_web_token(t2, dir, false, &err), 0);
	assert_string_equal(t1, t2); /* the same across restarts */

	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(sw_web_token(t2, dir, false, &err), 0);
	assert_string_equal(t1, t2);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600); /* tightened */

	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a token\n", f);
	fclose(f);
	assert_int_equal(sw_web_token(t2, dir, false, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "holds no token"));

	/* rotated: a new token, 0600, replacing even a file that held none */
	assert_int_equal(sw_web_token(t2, dir, true, &err), 0);
	assert_int_equal(strlen(t2), SW_WEB_TOKEN_HEX);
	assert_string_not_equal(t1, t2);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(sw_web_token(t1, dir, false, &err), 0);
	assert_string_equal(t1, t2); /* kept: what the rotation wrote */
	assert_int_equal(sw_web_token(t1, dir, true, &err), 0);
	assert_string_not_equal(t1, t2);

	unlink(path);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_not_equal(sw_web_token(t2, dir, false, &err), 0); /* a link is not followed */
	/* the link replaced, not followed */
	assert_int_equal(sw_web_token(t2, dir, true, &err), 0);
	struct stat lst;
	assert_int_equal(lstat(path, &lst), 0);
	assert_true(S_ISREG(lst.st_mode));
	unlink(path);
	rmdir(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_secrets_and_assets),
		cmocka_unit_test(test_token_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
