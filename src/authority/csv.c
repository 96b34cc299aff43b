/* csv.c - a streaming CSV reader over a file or a `bzip2 -dc` child.
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

#define READ_SIZE ((size_t)256 << 10)

static int start_bzip2(struct sw__csv *c, const char *path, struct sw_err *err)
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

int sw__csv_open(struct sw__csv *c, const char *path, struct sw_err *err)
{
	memset(c, 0, sizeof(*c));
	c->child = -1;
	c->path = path;
	sw_buf_init(&c->row);
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
	c->buf = sw_xmalloc(READ_SIZE);
	return 0;
}

/* The next byte, or -1 at the end of input, or -2 on a read error. */
static int next_byte(struct sw__csv *c)
{
	if (c->pos < c->len)
		return (unsigned char)c->buf[c->pos++];
	if (c->eof)
		return -1;
	for (;;) {
		ssize_t n = read(c->fd, c->buf, READ_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -2;
		if (n == 0) {
			c->eof = true;
			return -1;
		}
		c->len = (size_t)n;
		c->pos = 0;
		c->bytes += (uint64_t)n;
		return (unsigned char)c->buf[c->pos++];
	}
}

static size_t field_len(const struct sw__csv *c)
{
	return c->row.len - c->off[c->nfields - 1];
}

static void add_byte(struct sw__csv *c, int b)
{
	if (c->nfields == 0)
		return;
	if (field_len(c) >= SW_AUTHORITY_MAX_FIELD) {
		c->over = true;
		return;
	}
	sw_buf_addc(&c->row, (char)b);
}

static void start_field(struct sw__csv *c)
{
	if (c->nfields > 0)
		sw_buf_addc(&c->row, '\0');
	if (c->nfields >= SW_AUTHORITY_MAX_COLUMNS) {
		/* Past the limit: later bytes go nowhere (nfields stays put but
		 * the row is marked over, and add_byte writes into the last
		 * kept field only up to its limit). */
		c->over = true;
		return;
	}
	c->off[c->nfields++] = c->row.len;
}

int sw__csv_next(struct sw__csv *c, struct sw_err *err)
{
	sw_buf_reset(&c->row);
	c->nfields = 0;
	c->over = false;
	int b;
	/* Skip blank lines between rows. */
	do {
		b = next_byte(c);
	} while (b == '\n' || b == '\r');
	if (b == -1)
		return 0;
	if (b == -2)
		return sw_err_set(err, SW_EIO, "cannot read '%s': %s", c->path, strerror(errno));
	start_field(c);
	bool quoted = false, was_quoted = false;
	for (;; b = next_byte(c)) {
		if (b == -2)
			return sw_err_set(err, SW_EIO, "cannot read '%s': %s", c->path, strerror(errno));
		if (quoted) {
			if (b == -1)
				return sw_err_set(err, SW_EINPUT, "'%s' ends inside a quoted field (row %llu)",
						  c->path, (unsigned long long)c->rows + 1);
			if (b == '\\' && c->backslash) {
				int e = next_byte(c);
				if (e < 0)
					continue; /* reported on the next turn */
				add_byte(c, e);
			} else if (b == '"') {
				int e = next_byte(c);
				if (e == '"') {
					add_byte(c, '"');
				} else {
					quoted = false;
					if (e < 0) {
						b = e;
						break;
					}
					c->pos--; /* read e again outside quotes */
				}
			} else {
				add_byte(c, b);
			}
			continue;
		}
		if (b == -1 || b == '\n')
			break;
		if (b == ',') {
			start_field(c);
			was_quoted = false;
		} else if (b == '"' && field_len(c) == 0 && !was_quoted) {
			quoted = was_quoted = true;
		} else if (b != '\r') {
			add_byte(c, b);
		}
	}
	sw_buf_addc(&c->row, '\0');
	c->rows++;
	return 1;
}

const char *sw__csv_field(const struct sw__csv *c, size_t i)
{
	return i < c->nfields ? c->row.data + c->off[i] : "";
}

int sw__csv_close(struct sw__csv *c, struct sw_err *err)
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
			  (code == 0 || (code == 128 + SIGPIPE && !c->eof));
		if (!ok && (!err || err->code == 0))
			rc = sw_err_set(err, SW_EINPUT, "cannot decompress '%s': bzip2 says it is damaged",
					c->path);
		c->child = -1;
	}
	free(c->buf);
	c->buf = NULL;
	sw_buf_release(&c->row);
	return rc;
}
