/* original.c - a document's original file, kept by content hash in
 * files/xx/<sha256> for those who show it as it was (sworn serve's page
 * images): written under a temporary name, synced, renamed, and the
 * rename synced, so that after a crash files/ holds each original whole or
 * not at all. */
#define _GNU_SOURCE /* copy_file_range, SEEK_DATA */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record_int.h"

/* A stored hash is only ever 64 lower-case hex digits; anything else in
 * the column must not become part of a path. */
static bool sha_valid(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == SW_SHA256_HEX_LEN;
}

int sw_record_doc_original(char **path, struct sw_matter *m, int64_t doc_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	char *p = NULL;
	int rc = 0, step;

	*path = NULL;
	if (sqlite3_prepare_v2(m->db, "SELECT original FROM documents WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot look up a document's original");
	sqlite3_bind_int64(st, 1, doc_id);
	step = sqlite3_step(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot look up a document's original");
		goto cleanup;
	}
	const char *sha = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (!sha || !sha_valid(sha)) {
		rc = sw_err_set(err, SW_ENOTFOUND, "document %lld has no original kept",
				(long long)doc_id);
		goto cleanup;
	}
	char sub[3] = { sha[0], sha[1], '\0' };
	char *dir = sw_path_join(m->files_dir, sub);
	p = sw_path_join(dir, sha);
	free(dir);
	if (!sw_path_is_file(p)) {
		rc = sw_err_set(err, SW_ENOTFOUND, "the original of document %lld is missing from files/",
				(long long)doc_id);
		goto cleanup;
	}
	*path = p;
	p = NULL;
cleanup:
	free(p);
	sqlite3_finalize(st);
	return rc;
}

/* fsync a folder, so that the names made or renamed in it last. */
static int sync_dir(const char *dir, struct sw_err *err)
{
	errno = 0;
	int fd = sw_fault("original-dir-sync") ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;
	if (fd < 0 || fsync(fd) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot sync folder '%s': %s", dir,
				errno ? strerror(errno) : "injected fault");
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Copy the n bytes of src_fd at off into fd at the same offset: the
 * kernel's copy (no bytes through this process's memory) where the
 * filesystem has one. */
static int copy_range(int fd, int src_fd, off_t off, size_t n, const char *tmp,
		      struct sw_err *err)
{
	off_t in = off, out = off;
	char *buf = NULL;
	int rc = 0;
	while (n > 0) {
		ssize_t k = copy_file_range(src_fd, &in, fd, &out, n, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k > 0) {
			n -= (size_t)k;
			continue;
		}
		if (k == 0)
			return sw_err_set(err, SW_EIO,
					  "cannot write '%s': the original got shorter", tmp);
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp,
					  strerror(errno));
		break; /* no kernel copy here: through a buffer */
	}
	if (n > 0)
		buf = sw_xmalloc(1 << 20);
	while (n > 0 && rc == 0) {
		ssize_t k = pread(src_fd, buf, n < (1 << 20) ? n : (1 << 20), in);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp,
					k < 0 ? strerror(errno) : "the original got shorter");
			break;
		}
		for (const char *p = buf; k > 0 && rc == 0;) {
			ssize_t w = pwrite(fd, p, (size_t)k, out);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp,
						strerror(errno));
			else {
				p += w;
				k -= w;
				in += w;
				out += w;
				n -= (size_t)w;
			}
		}
	}
	free(buf);
	return rc;
}

/* Copy len bytes of src_fd from its start into fd, a hole of a sparse
 * original left a hole (a large PDF padded with nothing is not written out
 * whole): the data ranges SEEK_DATA and SEEK_HOLE find, all of it as one
 * range where the filesystem cannot say, then the length. */
static int copy_fd(int fd, int src_fd, size_t len, const char *tmp, struct sw_err *err)
{
	off_t pos = 0, end = (off_t)len;
	int rc = 0;
	while (pos < end && rc == 0) {
		off_t data = lseek(src_fd, pos, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break; /* a hole to the end */
		off_t hole = data < 0 ? end : lseek(src_fd, data, SEEK_HOLE);
		if (data < 0)
			data = pos; /* no holes known here */
		if (hole < 0 || hole > end)
			hole = end;
		if (data >= end)
			break;
		rc = copy_range(fd, src_fd, data, (size_t)(hole - data), tmp, err);
		pos = hole;
	}
	struct stat st;
	if (rc == 0 && (fstat(src_fd, &st) != 0 || st.st_size < end))
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': the original got shorter", tmp);
	if (rc == 0 && ftruncate(fd, end) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp, strerror(errno));
	return rc;
}

static int keep_original(struct sw_matter *m, const char *sha256, const void *data,
			 int src_fd, size_t len, struct sw_err *err)
{
	char sub[3] = { sha256[0], sha256[1], '\0' };
	char *dir = sw_path_join(m->files_dir, sub);
	char *path = sw_path_join(dir, sha256);
	char *tmp = NULL;
	int rc = 0, fd = -1;

	if (sw_path_is_file(path))
		goto cleanup;
	/* files/ exists (the matter made it); only the two-digit folder may
	 * be new, so one mkdir, not a walk of the whole path. */
	unsigned idx = (unsigned)strtoul(sub, NULL, 16) & 0xff;
	bool made = false;
	if (!m->files_made[idx]) {
		if (mkdir(dir, 0700) == 0)
			made = true;
		else if (errno != EEXIST) {
			rc = sw_err_set(err, SW_EIO, "cannot create folder '%s': %s", dir,
					strerror(errno));
			goto cleanup;
		}
		m->files_made[idx] = true;
	}
	/* Written under a temporary name and renamed, so files/ never holds a
	 * partial original under a real hash. */
	tmp = sw_xasprintf("%s.part.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = sw_err_set(err, SW_EIO, "cannot create '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	if (src_fd >= 0 && (rc = copy_fd(fd, src_fd, len, tmp, err)) != 0)
		goto cleanup;
	for (const char *p = data; p && len > 0;) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp, strerror(errno));
			goto cleanup;
		}
		p += n;
		len -= (size_t)n;
	}
	/* On disk before its name is: a crash after the rename must not leave
	 * an empty or partial file under a real hash (which every later
	 * import would take as kept). */
	errno = 0;
	if (sw_fault("original-sync") || fsync(fd) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot sync '%s': %s", tmp,
				errno ? strerror(errno) : "injected fault");
		goto cleanup;
	}
	if (close(fd) != 0) {
		fd = -1;
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot keep '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	/* The rename itself, and a new two-digit folder's entry in files/,
	 * are durable only once their folders are synced. */
	if ((rc = sync_dir(dir, err)) != 0 || (made && (rc = sync_dir(m->files_dir, err)) != 0))
		goto cleanup;
cleanup:
	if (fd >= 0)
		close(fd);
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	free(path);
	free(dir);
	return rc;
}

int sw_record_keep_original(struct sw_matter *m, const char *sha256,
			     const void *data, size_t len, struct sw_err *err)
{
	return keep_original(m, sha256, data, -1, len, err);
}

int sw_record_keep_original_fd(struct sw_matter *m, const char *sha256, int fd, size_t len,
			       struct sw_err *err)
{
	return keep_original(m, sha256, NULL, fd, len, err);
}
