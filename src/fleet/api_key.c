/* api_key.c - the key every server `sworn fleet up` starts demands
 * (--api-key-file), kept in the workspace's fleet folder for the owner
 * alone, and sent by sworn's client (the endpoint's api_key_file). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet_int.h"

#define KEY_BYTES 32

/* An existing key file that only its owner (us) may read or write. */
static int check_key(const char *path, const struct stat *st, struct sw_err *err)
{
	if (!S_ISREG(st->st_mode))
		return sw_err_set(err, SW_EINPUT,
				  "'%s' is not a file: remove it, and 'sworn fleet up' "
				  "writes a new key",
				  path);
	if (st->st_uid != geteuid())
		return sw_err_set(err, SW_EINPUT, "'%s' belongs to another user: remove it, and "
				  "'sworn fleet up' writes a new key", path);
	if (st->st_mode & 077)
		return sw_err_set(err, SW_EINPUT,
				  "'%s' may be read by others (mode %03o), so the key "
				  "may be known: remove it, and 'sworn fleet up' writes a new one",
				  path, (unsigned)(st->st_mode & 0777));
	return 0;
}

static int write_key(const char *path, struct sw_err *err)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[KEY_BYTES];
	char text[2 * KEY_BYTES + 2];
	size_t got = 0;
	while (got < sizeof(raw)) {
		ssize_t k = getrandom(raw + got, sizeof(raw) - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return sw_err_set(err, SW_EIO, "cannot read random bytes: %s",
					  strerror(errno));
		got += (size_t)k;
	}
	for (size_t i = 0; i < sizeof(raw); i++) {
		text[2 * i] = hex[raw[i] >> 4];
		text[2 * i + 1] = hex[raw[i] & 15];
	}
	text[2 * KEY_BYTES] = '\n';
	text[2 * KEY_BYTES + 1] = '\0';
	memset(raw, 0, sizeof(raw));
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int e = errno;
		memset(text, 0, sizeof(text));
		/* Another `fleet up` wrote it first: that one is the key. */
		if (e == EEXIST)
			return 0;
		return sw_err_set(err, SW_EIO, "cannot create '%s': %s", path, strerror(e));
	}
	size_t len = strlen(text);
	ssize_t w = write(fd, text, len);
	memset(text, 0, sizeof(text));
	bool ok = w == (ssize_t)len && fsync(fd) == 0;
	int e = w >= 0 && !ok && w != (ssize_t)len ? ENOSPC : errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		unlink(path);
		return sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

int sw_fleet_api_key_ensure(char **out, const char *dir, struct sw_err *err)
{
	char *path = sw_path_join(dir, SW_FLEET_KEY_FILE);
	struct stat st;
	int rc;

	*out = NULL;
	if ((rc = sw_mkdir_p(dir, 0700, err)) != 0)
		goto cleanup;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT) {
			rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", path, strerror(errno));
			goto cleanup;
		}
		if ((rc = write_key(path, err)) != 0)
			goto cleanup;
		if (lstat(path, &st) != 0) {
			rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", path, strerror(errno));
			goto cleanup;
		}
	}
	if ((rc = check_key(path, &st, err)) != 0)
		goto cleanup;
	*out = path;
	path = NULL;
cleanup:
	free(path);
	return rc;
}
