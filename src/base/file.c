/* file.c - whole-file reads, mapped files, atomic writes, folders and path
 * strings. */
#define _DEFAULT_SOURCE /* madvise (posix_madvise's DONTNEED does nothing on Linux) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

int sw_file_read(struct sw_buf *out, const char *path, size_t limit,
		 struct sw_err *err)
{
	int fd = -1, rc = 0;
	struct stat st;

	sw_buf_reset(out);
	if (sw_fault("read"))
		return sw_err_set(err, SW_EFAULT, "cannot read '%s': injected fault", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sw_err_set(err, errno == ENOENT ? SW_ENOTFOUND : SW_EIO,
				  "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot stat '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = sw_err_set(err, SW_EINPUT, "cannot read '%s': it is a folder", path);
		goto cleanup;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit) {
		rc = sw_err_set(err, SW_ELIMIT, "cannot read '%s': %lld bytes is over the limit of %zu",
				path, (long long)st.st_size, limit);
		goto cleanup;
	}
	if (S_ISREG(st.st_mode))
		sw_buf_grow(out, (size_t)st.st_size);
	for (;;) {
		sw_buf_grow(out, 64 * 1024);
		ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
		/* SWORN_FAULT=file-read:N: the Nth read(2) fails as a bad disk
		 * or a dropped network share would. */
		if (sw_fault("file-read")) {
			n = -1;
			errno = EIO;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", path, strerror(errno));
			goto cleanup;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		if (out->len > limit) {
			rc = sw_err_set(err, SW_ELIMIT, "cannot read '%s': over the limit of %zu bytes",
					path, limit);
			goto cleanup;
		}
	}
	out->data[out->len] = '\0';
cleanup:
	if (fd >= 0)
		close(fd);
	if (rc)
		sw_buf_reset(out);
	return rc;
}

int sw_file_map(struct sw_map *out, const char *path, size_t limit, struct sw_err *err)
{
	struct stat st;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (sw_fault("read"))
		return sw_err_set(err, SW_EFAULT, "cannot read '%s': injected fault", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sw_err_set(err, errno == ENOENT ? SW_ENOTFOUND : SW_EIO,
				  "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot stat '%s': %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		rc = sw_err_set(err, SW_EINPUT, "cannot map '%s': not a regular file", path);
	} else if (st.st_size <= 0) {
		rc = sw_err_set(err, SW_EINPUT, "cannot map '%s': the file is empty", path);
	} else if ((uint64_t)st.st_size > limit) {
		rc = sw_err_set(err, SW_ELIMIT, "cannot read '%s': %lld bytes is over the limit of %zu",
				path, (long long)st.st_size, limit);
	} else {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			rc = sw_err_set(err, SW_EIO, "cannot map '%s': %s", path, strerror(errno));
		} else {
			out->data = p;
			out->len = (size_t)st.st_size;
			out->fd = fd;
			return 0;
		}
	}
	close(fd);
	return rc;
}

void sw_file_map_drop(const struct sw_map *m, size_t off, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t page = pg > 0 ? (size_t)pg : 4096;
	if (!m->data || off >= m->len)
		return;
	if (len > m->len - off)
		len = m->len - off;
	size_t start = off / page * page;
	/* A clean read-only private mapping: the kernel only forgets where
	 * the pages are; the bytes stay what the file holds. */
	(void)madvise((void *)(uintptr_t)(m->data + start), off + len - start, MADV_DONTNEED);
}

void sw_file_unmap(struct sw_map *m)
{
	if (m->data)
		munmap((void *)(uintptr_t)m->data, m->len);
	if (m->fd >= 0)
		close(m->fd);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}

int sw_file_write_atomic(const char *path, const void *data, size_t len,
			 struct sw_err *err)
{
	char *tmp = sw_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = -1, rc = 0;
	const char *p = data;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = sw_err_set(err, SW_EIO, "cannot create '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp, strerror(errno));
			goto cleanup;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot sync '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	if (close(fd) != 0) {
		fd = -1;
		rc = sw_err_set(err, SW_EIO, "cannot close '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot rename '%s' to '%s': %s", tmp, path,
				strerror(errno));
cleanup:
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

int sw_mkdir_p(const char *path, unsigned mode, struct sw_err *err)
{
	char *copy = sw_xstrdup(path);
	int rc = 0;
	for (char *p = copy + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(copy, mode) != 0 && errno != EEXIST) {
			rc = sw_err_set(err, SW_EIO, "cannot create folder '%s': %s", copy,
					strerror(errno));
			break;
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
	if (rc == 0 && !sw_path_is_dir(path))
		rc = sw_err_set(err, SW_EIO, "cannot create folder '%s': a file is in the way", path);
	free(copy);
	return rc;
}

bool sw_path_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool sw_path_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *sw_path_join(const char *dir, const char *rel)
{
	if (rel[0] == '/' || dir[0] == '\0')
		return sw_xstrdup(rel);
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	return sw_xasprintf("%.*s/%s", (int)dl, dir, rel);
}

const char *sw_path_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

char *sw_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return sw_xstrdup(".");
	if (slash == path)
		return sw_xstrdup("/");
	return sw_xstrndup(path, (size_t)(slash - path));
}

void sw_path_ext(char *out, size_t outsz, const char *path)
{
	const char *base = sw_path_base(path);
	const char *dot = strrchr(base, '.');
	size_t i = 0;
	if (outsz == 0)
		return;
	if (dot && dot != base)
		for (dot++; *dot && i + 1 < outsz; dot++)
			out[i++] = (char)((*dot >= 'A' && *dot <= 'Z') ? *dot + 32 : *dot);
	out[i] = '\0';
}

const char *sw_path_distrust(unsigned long owner, unsigned mode, unsigned long me)
{
	if (owner != me)
		return "owned by another user";
	if (mode & S_IWOTH)
		return "writable by others";
	if (mode & S_IWGRP)
		return "writable by its group";
	return NULL;
}
