/* auth.c - the secrets of sworn serve: the workspace's token (0600, made
 * anew at each start unless kept), the sessions the page holds (expiring),
 * the per-process CSRF value, comparing them in constant time; and the
 * strict base64 of uploads. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "web/web_int.h"

int sw__web_random_hex(char *out, size_t n, struct sw_err *err)
{
	unsigned char raw[64];
	static const char hex[] = "0123456789abcdef";
	if (n > sizeof(raw))
		return sw_err_set(err, SW_ELIMIT, "at most %zu random bytes", sizeof(raw));
	size_t got = 0;
	while (got < n) {
		ssize_t k = getrandom(raw + got, n - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return sw_err_set(err, SW_EIO, "cannot read random bytes: %s", strerror(errno));
		got += (size_t)k;
	}
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
	out[2 * n] = '\0';
	return 0;
}

bool sw__web_secret_eq(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;
	/* every byte of the longer one is read, whatever matched before */
	size_t n = la > lb ? la : lb;
	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? b[i] : 0));
	return d == 0;
}

static bool token_valid(const char *s, size_t n)
{
	if (n != SW_WEB_TOKEN_HEX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* A new token into path: written to a file of its own (O_EXCL, 0600) and
 * renamed over path, so that a reader sees the old token or the new one. */
static int token_rotate(char out[SW_WEB_TOKEN_HEX + 1], const char *dir, const char *path,
			struct sw_err *err)
{
	char fresh[SW_WEB_TOKEN_HEX + 2];
	int rc;
	if ((rc = sw__web_random_hex(fresh, SW_WEB_TOKEN_HEX / 2, err)) != 0)
		return rc;
	char *tmp = sw_xasprintf("%s.new-%ld", path, (long)getpid());
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		rc = sw_err_set(err, SW_EIO, "cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	fresh[SW_WEB_TOKEN_HEX] = '\n';
	bool ok = write(fd, fresh, SW_WEB_TOKEN_HEX + 1) == SW_WEB_TOKEN_HEX + 1 && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return rc;
	}
	free(tmp);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	memcpy(out, fresh, SW_WEB_TOKEN_HEX);
	out[SW_WEB_TOKEN_HEX] = '\0';
	return 0;
}

int sw_web_token(char out[SW_WEB_TOKEN_HEX + 1], const char *ws_root, bool rotate,
		 struct sw_err *err)
{
	char *path = sw_path_join(ws_root, SW_WEB_TOKEN_FILE);
	struct sw_buf b = SW_BUF_INIT;
	int rc = 0, fd = -1;

	out[0] = '\0';
	if (rotate) {
		rc = token_rotate(out, ws_root, path, err);
		free(path);
		return rc;
	}
	/* Made with O_EXCL and mode 0600 from the start: never readable by
	 * others, not even for a moment, and two servers started at once
	 * agree on one token (the second reads the first's). */
	char fresh[SW_WEB_TOKEN_HEX + 2];
	if ((rc = sw__web_random_hex(fresh, SW_WEB_TOKEN_HEX / 2, err)) != 0)
		goto cleanup;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		fresh[SW_WEB_TOKEN_HEX] = '\n';
		ssize_t k = write(fd, fresh, SW_WEB_TOKEN_HEX + 1);
		if (k != SW_WEB_TOKEN_HEX + 1 || fsync(fd) != 0) {
			rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(errno));
			unlink(path);
			goto cleanup;
		}
		memcpy(out, fresh, SW_WEB_TOKEN_HEX);
		out[SW_WEB_TOKEN_HEX] = '\0';
		goto cleanup;
	}
	if (errno != EEXIST) {
		rc = sw_err_set(err, SW_EIO, "cannot create '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' is not a plain file", path);
		goto cleanup;
	}
	if ((st.st_mode & 077) && chmod(path, 0600) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot make '%s' private: %s", path, strerror(errno));
		goto cleanup;
	}
	if ((rc = sw_file_read(&b, path, 4096, err)) != 0)
		goto cleanup;
	size_t n = b.len;
	while (n && (b.data[n - 1] == '\n' || b.data[n - 1] == '\r'))
		n--;
	if (!token_valid(b.data ? b.data : "", n)) {
		rc = sw_err_set(err, SW_EINPUT,
				"'%s' holds no token (64 hex digits); remove it to make a new one",
				path);
		goto cleanup;
	}
	memcpy(out, b.data, SW_WEB_TOKEN_HEX);
	out[SW_WEB_TOKEN_HEX] = '\0';
cleanup:
	if (fd >= 0)
		close(fd);
	sw_buf_release(&b);
	free(path);
	return rc;
}

void sw__web_sessions_init(struct sw__web_sessions *t, unsigned ttl_s)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->ttl_s = ttl_s ? ttl_s : SW_WEB_SESSION_TTL;
}

void sw__web_sessions_release(struct sw__web_sessions *t)
{
	pthread_mutex_destroy(&t->lock);
	memset(t->s, 0, sizeof(t->s));
}

int sw__web_session_new(struct sw__web_sessions *t, char out[SW_WEB_TOKEN_HEX + 1], double now,
			struct sw_err *err)
{
	int rc = sw__web_random_hex(out, SW_WEB_TOKEN_HEX / 2, err);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&t->lock);
	/* a free or expired slot, else the one used longest ago */
	size_t k = 0;
	for (size_t i = 0; i < SW__WEB_SESSIONS; i++) {
		if (!t->s[i].id[0] || now - t->s[i].used > t->ttl_s) {
			k = i;
			break;
		}
		if (t->s[i].used < t->s[k].used)
			k = i;
	}
	memcpy(t->s[k].id, out, SW_WEB_TOKEN_HEX + 1);
	t->s[k].used = now;
	pthread_mutex_unlock(&t->lock);
	return 0;
}

bool sw__web_session_use(struct sw__web_sessions *t, const char *id, double now)
{
	bool live = false;
	if (strlen(id) != SW_WEB_TOKEN_HEX)
		return false;
	pthread_mutex_lock(&t->lock);
	for (size_t i = 0; i < SW__WEB_SESSIONS; i++) {
		if (!t->s[i].id[0])
			continue;
		if (now - t->s[i].used > t->ttl_s) {
			memset(&t->s[i], 0, sizeof(t->s[i])); /* expired: gone */
			continue;
		}
		if (sw__web_secret_eq(id, t->s[i].id)) {
			t->s[i].used = now;
			live = true;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return live;
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int sw__web_base64_decode(struct sw_buf *out, const char *s, size_t len, size_t limit,
			  struct sw_err *err)
{
	sw_buf_reset(out);
	if (len % 4)
		return sw_err_set(err, SW_EINPUT, "content_base64 is not base64 (its length)");
	if (len / 4 * 3 > limit + 2)
		return sw_err_set(err, SW_ELIMIT, "the file is over the %zu-byte limit", limit);
	sw_buf_grow(out, len / 4 * 3 + 1);
	for (size_t i = 0; i < len; i += 4) {
		int v[4];
		int pad = 0;
		for (int k = 0; k < 4; k++) {
			unsigned char c = (unsigned char)s[i + k];
			if (c == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			if (pad || (v[k] = b64_value(c)) < 0)
				return sw_err_set(err, SW_EINPUT,
						  "content_base64 is not base64 (byte %zu)", i + (size_t)k);
		}
		unsigned triple = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 |
				  (unsigned)v[3];
		sw_buf_addc(out, (char)(triple >> 16));
		if (pad < 2)
			sw_buf_addc(out, (char)(triple >> 8 & 0xff));
		if (pad < 1)
			sw_buf_addc(out, (char)(triple & 0xff));
	}
	if (out->len > limit)
		return sw_err_set(err, SW_ELIMIT, "the file is over the %zu-byte limit", limit);
	return 0;
}
