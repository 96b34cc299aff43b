/*
 * csv.c - one RFC 4180 reader for every CSV sworn reads: CourtListener's
 * bulk files (tens of gigabytes, through a bzip2 pipe), nvidia-smi's query
 * output, label files from Excel.
 *
 * It holds one read buffer and one row, never the file.  Lenient where the
 * world is: a quote inside an unquoted field is a literal, bytes after a
 * closing quote are kept, a lone CR is dropped, blank lines between rows
 * are skipped, a UTF-8 byte order mark at the start is dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

#define READ_SIZE ((size_t)256 << 10)

static void init(struct sw_csv *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->delim = ',';
	c->max_field = SW_CSV_MAX_FIELD;
	c->max_fields = SW_CSV_MAX_FIELDS;
	c->max_row = SW_CSV_MAX_ROW;
	c->fd = -1;
	c->name = name;
	c->next_line = 1;
	sw_buf_init(&c->row);
}

void sw_csv_init_fd(struct sw_csv *c, int fd, const char *name)
{
	init(c, name);
	c->fd = fd;
}

void sw_csv_init_mem(struct sw_csv *c, const char *text, size_t len, const char *name)
{
	init(c, name);
	c->buf = (char *)(uintptr_t)text; /* never written: mem is set */
	c->len = len;
	c->mem = true;
	c->eof = true;
	c->bytes = len;
}

/* The next byte, or -1 at the end of input, or -2 on a read error. */
static int next_byte(struct sw_csv *c)
{
	if (c->nback > 0)
		return c->back[--c->nback];
	if (c->pos < c->len)
		return (unsigned char)c->buf[c->pos++];
	if (c->eof)
		return -1;
	if (!c->buf)
		c->buf = sw_xmalloc(READ_SIZE);
	for (;;) {
		ssize_t n = read(c->fd, c->buf, READ_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			c->read_errno = errno;
			return -2;
		}
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

/* Put back a byte (or an end) that next_byte() gave; the next call gives
 * it again.  At most SW_ARRAY_LEN(c->back) deep. */
static void unread(struct sw_csv *c, int b)
{
	if (c->nback >= (int)SW_ARRAY_LEN(c->back))
		SW_BUG("csv: pushback too deep");
	c->back[c->nback++] = b;
}

static size_t field_len(const struct sw_csv *c)
{
	return c->row.len - c->off[c->nfields - 1];
}

static void add_byte(struct sw_csv *c, int b)
{
	if (c->nfields == 0 || c->dropping)
		return;
	if (field_len(c) >= c->max_field || c->row.len >= c->max_row) {
		c->over = true;
		return;
	}
	sw_buf_addc(&c->row, (char)b);
}

static void start_field(struct sw_csv *c)
{
	if (c->nfields >= c->max_fields || c->row.len + 1 >= c->max_row) {
		/* Past the limit: later bytes go nowhere. */
		c->over = true;
		c->dropping = true;
		return;
	}
	if (c->nfields > 0)
		sw_buf_addc(&c->row, '\0');
	c->off = sw_xgrow(c->off, &c->off_cap, c->nfields + 1, sizeof(*c->off));
	c->off[c->nfields++] = c->row.len;
}

static int read_error(struct sw_csv *c, struct sw_err *err)
{
	return sw_err_set(err, SW_EIO, "cannot read '%s': %s", c->name, strerror(c->read_errno));
}

int sw_csv_next(struct sw_csv *c, struct sw_err *err)
{
	sw_buf_reset(&c->row);
	c->nfields = 0;
	c->over = false;
	c->dropping = false;
	int b = next_byte(c);
	if (!c->started) {
		c->started = true;
		if (b == 0xEF) {
			int b2 = next_byte(c);
			int b3 = b2 == 0xBB ? next_byte(c) : -1;
			if (b2 == 0xBB && b3 == 0xBF) {
				b = next_byte(c);
			} else if (b2 == 0xBB) {
				unread(c, b3);
				unread(c, b2);
			} else {
				unread(c, b2);
			}
		}
	}
	/* Skip blank lines between rows. */
	while (b == '\n' || b == '\r') {
		if (b == '\n')
			c->next_line++;
		b = next_byte(c);
	}
	if (b == -1)
		return 0;
	if (b == -2)
		return read_error(c, err);
	c->line = c->next_line;
	start_field(c);
	bool quoted = false, was_quoted = false;
	for (;; b = next_byte(c)) {
		if (b == -2)
			return read_error(c, err);
		if (quoted) {
			if (b == -1)
				return sw_err_set(err, SW_EINPUT,
						  "%s:%llu: the file ends inside a quoted field",
						  c->name, (unsigned long long)c->line);
			if (b == '\n')
				c->next_line++;
			if (b == '\\' && c->backslash) {
				int e = next_byte(c);
				if (e < 0)
					continue; /* reported on the next turn */
				if (e == '\n')
					c->next_line++;
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
					unread(c, e); /* read e again outside quotes */
				}
			} else {
				add_byte(c, b);
			}
			continue;
		}
		if (b == -1)
			break;
		if (b == '\n') {
			c->next_line++;
			break;
		}
		if (b == c->delim) {
			start_field(c);
			was_quoted = false;
		} else if (b == '"' && !c->dropping && field_len(c) == 0 && !was_quoted) {
			quoted = was_quoted = true;
		} else if (b != '\r') {
			add_byte(c, b);
		}
	}
	if (b == -2)
		return read_error(c, err);
	sw_buf_addc(&c->row, '\0');
	c->rows++;
	return 1;
}

const char *sw_csv_field(const struct sw_csv *c, size_t i)
{
	return i < c->nfields ? c->row.data + c->off[i] : "";
}

void sw_csv_release(struct sw_csv *c)
{
	if (!c)
		return;
	if (!c->mem)
		free(c->buf);
	free(c->off);
	sw_buf_release(&c->row);
	c->buf = NULL;
	c->off = NULL;
	c->off_cap = 0;
	c->nfields = 0;
}
