/* csv.c - CSV rows (base's reader) from a file or a `bzip2 -dc` child.
 *
 * CourtListener's bulk files are tens of gigabytes once decompressed, so the
 * reader holds one buffer and one row, never the file.  bzip2 runs as a
 * child process (base's sw_proc_reader) rather than through libbz2 so that
 * decompression uses a second core while the parser and SQLite use this
 * one. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authority/authority_int.h"

static int start_bzip2(struct sw__authority_csv *c, const char *path, struct sw_err *err)
{
	static const char *const argv[] = { "bzip2", "-dc", NULL };
	struct sw_proc_spec spec = { .argv = argv, .stdin_path = path };
	struct sw_proc_reader r;
	int rc = sw_proc_reader_open(&r, &spec, err);
	if (rc != 0)
		return sw_err_wrap(err, rc, "cannot decompress '%s'", path);
	c->fd = r.fd;
	c->child = r.pid;
	return 0;
}

int sw__authority_csv_open(struct sw__authority_csv *c, const char *path, struct sw_err *err)
{
	memset(c, 0, sizeof(*c));
	c->child = -1;
	c->path = path;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		c->fd = -1;
		return sw_err_set(err, errno == ENOENT ? SW_ENOTFOUND : SW_EIO,
				  "cannot open '%s': %s", path, strerror(errno));
	}
	char magic[3] = { 0 };
	ssize_t got = read(fd, magic, sizeof(magic));
	if (got == 3 && memcmp(magic, "BZh", 3) == 0) {
		close(fd);
		c->fd = -1;
		int rc = start_bzip2(c, path, err);
		if (rc)
			return rc;
	} else {
		if (lseek(fd, 0, SEEK_SET) != 0) {
			close(fd);
			c->fd = -1;
			return sw_err_set(err, SW_EIO, "cannot read '%s': %s", path, strerror(errno));
		}
		c->fd = fd;
	}
	sw_csv_init_fd(&c->r, c->fd, path);
	c->r.max_field = SW_AUTHORITY_MAX_FIELD;
	c->r.max_fields = SW_AUTHORITY_MAX_COLUMNS;
	c->r.max_row = SW_AUTHORITY_MAX_FIELD * SW_AUTHORITY_MAX_COLUMNS;
	return 0;
}

int sw__authority_csv_next(struct sw__authority_csv *c, struct sw_err *err)
{
	c->r.backslash = c->backslash;
	int rc = sw_csv_next(&c->r, err);
	c->nfields = rc == 1 ? c->r.nfields : 0;
	c->over = rc == 1 && c->r.over;
	c->bytes = c->r.bytes;
	c->rows = c->r.rows;
	return rc;
}

const char *sw__authority_csv_field(const struct sw__authority_csv *c, size_t i)
{
	return sw_csv_field(&c->r, i);
}

int sw__authority_csv_close(struct sw__authority_csv *c, struct sw_err *err)
{
	int rc = 0;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->child > 0) {
		struct sw_proc_reader r = { -1, (int)c->child };
		int code = 0;
		/* A reader that stopped early closed the pipe: bzip2 may die of
		 * SIGPIPE, which is no error of the file's. */
		bool ok = sw_proc_reader_close(&r, &code) == 0 &&
			  (code == 0 || (code == 128 + SIGPIPE && !c->r.eof));
		if (!ok && (!err || err->code == 0))
			rc = sw_err_set(err, SW_EINPUT, "cannot decompress '%s': bzip2 says it is damaged",
					c->path);
		c->child = -1;
	}
	sw_csv_release(&c->r);
	return rc;
}
