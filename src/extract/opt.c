/*
 * opt.c - Opticon .OPT image cross-references: one page per line,
 * ImageKey,Volume,ImagePath,DocBreak,FolderBreak,BoxBreak,PageCount.
 *
 * The format has no quoting, so a comma in a path cannot be escaped.  A line
 * with more than seven fields therefore keeps the first two and the last four
 * where they belong and gives the rest, commas included, to ImagePath; a line
 * that merely ends in extra empty fields (its DocBreak still in place) is
 * read as the first seven.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/extract_int.h"

enum { F_KEY, F_VOLUME, F_IMAGE, F_DOCBREAK, F_FOLDER, F_BOX, F_COUNT, NF };

struct field {
	const char *p;
	size_t n;
};

struct optp {
	struct sw_opt *o;
	bool mixed;        /* not known to be all valid UTF-8: check each field */
	char *last_volume; /* the previous page's, shared when repeated */
	bool line_bad;     /* this line had bytes read as Windows-1252 */
	struct sw_buf conv;
	char *empty;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static struct field trim(struct field f)
{
	while (f.n && is_space(f.p[0])) {
		f.p++;
		f.n--;
	}
	while (f.n && is_space(f.p[f.n - 1]))
		f.n--;
	return f;
}

static char *store(struct optp *op, struct field f)
{
	if (f.n == 0)
		return op->empty;
	if (op->mixed && !sw_utf8_valid(f.p, f.n)) {
		/* Valid UTF-8 stays; other bytes are read as Windows-1252. */
		sw_buf_reset(&op->conv);
		if (sw_extract_mixed_to_utf8(&op->conv, f.p, f.n))
			op->line_bad = true;
		return sw_arena_strndup(&op->o->arena, op->conv.data, op->conv.len);
	}
	return sw_arena_strndup(&op->o->arena, f.p, f.n);
}

static bool all_commas_and_space(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ',' && !is_space(p[i]))
			return false;
	return true;
}

/* DocBreak is Y, N or empty; anything else means the fields are shifted. */
static bool docbreak_plausible(struct field f)
{
	return f.n == 0 || (f.n == 1 && memchr("YyNn", f.p[0], 4));
}

/* Split a line into the seven fields (missing trailing ones empty).  Returns
 * how many comma-separated fields the line has. */
static size_t split(struct field f[NF], const char *line, size_t len)
{
	size_t nf = 1, start = 0, k = 0;
	size_t seventh = SIZE_MAX; /* where the 7th comma sits, if any */

	memset(f, 0, NF * sizeof(*f));
	for (size_t i = 0; i < len; i++) {
		if (line[i] != ',')
			continue;
		if (k < NF) {
			f[k].p = line + start;
			f[k].n = i - start;
			k++;
		}
		if (nf == NF)
			seventh = i;
		nf++;
		start = i + 1;
	}
	if (k < NF) {
		f[k].p = line + start;
		f[k].n = len - start;
	}
	if (nf <= NF || (all_commas_and_space(line + seventh, len - seventh) &&
			 docbreak_plausible(trim(f[F_DOCBREAK]))))
		return nf;

	/* More than seven fields: the extra commas belong to the path.  Take
	 * the last four fields from the right. */
	size_t end = len, c = NF - 1;
	for (size_t i = len; i-- > 0 && c > F_IMAGE;) {
		if (line[i] != ',')
			continue;
		f[c].p = line + i + 1;
		f[c].n = end - (i + 1);
		end = i;
		c--;
	}
	f[F_IMAGE].n = (size_t)(line + end - f[F_IMAGE].p);
	return nf;
}

static void bad_line(struct optp *op, const char *fmt, ...) SW_PRINTF(2, 3);

static void bad_line(struct optp *op, const char *fmt, ...)
{
	struct sw_opt *o = op->o;
	char msg[128];
	va_list ap;

	o->nbad++;
	if (o->first_error)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->first_error = sw_arena_strdup(&o->arena, msg);
}

static int parse_line(struct optp *op, const char *p, size_t len, size_t line,
		      struct sw_err *err)
{
	struct sw_opt *o = op->o;
	struct field f[NF];
	uint64_t count = 0;

	size_t nf = split(f, p, len);
	struct field key = trim(f[F_KEY]);
	struct field docbreak = trim(f[F_DOCBREAK]);
	struct field pages = trim(f[F_COUNT]);

	if (memchr(p, '\0', len)) {
		/* The strings are C strings: a NUL would cut a key or path
		 * short without a word. */
		bad_line(op, "line %zu: NUL byte in the line", line);
		return 0;
	}
	if (nf < 4) {
		bad_line(op, "line %zu: expected 7 comma-separated fields", line);
		return 0;
	}
	if (key.n == 0) {
		bad_line(op, "line %zu: empty image key", line);
		return 0;
	}
	if (pages.n && (!sw_parse_u64(pages.p, pages.n, &count) ||
			count > UINT32_MAX)) {
		bad_line(op, "line %zu: the page count is not a number", line);
		return 0;
	}
	if (o->n >= SW_OPT_MAX_PAGES)
		return sw_err_set(err, SW_ELIMIT,
				  "more than %d pages (limit SW_OPT_MAX_PAGES)",
				  SW_OPT_MAX_PAGES);

	o->pages = sw_xgrow(o->pages, &o->cap, o->n + 1, sizeof(*o->pages));
	struct sw_opt_page *pg = &o->pages[o->n++];
	op->line_bad = false;
	pg->key = store(op, key);
	/* Every page of a volume names it: one copy. */
	struct field vol = trim(f[F_VOLUME]);
	if (op->last_volume && strlen(op->last_volume) == vol.n &&
	    memcmp(op->last_volume, vol.p, vol.n) == 0 && (!op->mixed || sw_utf8_valid(vol.p, vol.n)))
		pg->volume = op->last_volume;
	else
		op->last_volume = pg->volume = store(op, vol);
	pg->image = store(op, f[F_IMAGE]); /* as written: spaces may be real */
	pg->doc_break = docbreak.n == 1 && (docbreak.p[0] == 'Y' ||
					    docbreak.p[0] == 'y');
	/* A count on a later page is noise some tools write; the document's
	 * length comes from its first page. */
	pg->page_count = pg->doc_break ? (uint32_t)count : 0;
	pg->line = line > INT_MAX ? INT_MAX : (int)line;
	if (op->line_bad && o->ncp1252++ == 0)
		o->first_cp1252_line = pg->line;
	return 0;
}

/* The page order by key, the file's order among equal keys: built once,
 * so that finding each document's first page is a binary search instead
 * of a walk over every page (which made an import quadratic). */
static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct sw_opt *o = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(o->pages[x].key, o->pages[y].key);
	return c ? c : (x > y) - (x < y);
}

static void build_order(struct sw_opt *o)
{
	if (!o->n)
		return;
	o->order = sw_xcalloc(o->n, sizeof(*o->order));
	for (size_t i = 0; i < o->n; i++)
		o->order[i] = i;
	qsort_r(o->order, o->n, sizeof(*o->order), cmp_order, o);
}

size_t sw_opt_find(const struct sw_opt *o, const char *key)
{
	size_t lo = 0, hi = o->order ? o->n : 0;
	while (lo < hi) { /* the first position whose key is >= key */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(o->pages[o->order[mid]].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < (o->order ? o->n : 0) && strcmp(o->pages[o->order[lo]].key, key) == 0)
		return o->order[lo];
	return SIZE_MAX;
}


static int feed_line(struct optp *op, const char *p, size_t len, size_t line,
		     struct sw_err *err);
static int finish(struct optp *op, int rc);

int sw_opt_parse(struct sw_opt *out, const char *data, size_t len,
		 struct sw_err *err)
{
	struct optp op;
	size_t pos = 0, line = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&op, 0, sizeof(op));
	sw_arena_init(&out->arena, sw__extract_arena_block(len));
	sw_buf_init(&op.conv);
	op.o = out;

	if (len >= 2 && (((unsigned char)data[0] == 0xff && (unsigned char)data[1] == 0xfe) ||
			 ((unsigned char)data[0] == 0xfe && (unsigned char)data[1] == 0xff))) {
		/* A "Unicode" export: parse the UTF-8 it converts to. */
		struct sw_buf u = SW_BUF_INIT;
		(void)sw_extract_utf16_to_utf8(&u, data, len);
		sw_buf_release(&op.conv);
		sw_opt_release(out);
		rc = memchr(u.data, '\0', u.len)
			     ? sw_err_set(err, SW_EINPUT, "not an image file: binary data (NUL bytes)")
			     : sw_opt_parse(out, u.data, u.len, err);
		sw_buf_release(&u);
		return rc;
	}
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	op.mixed = !sw_utf8_valid(data + pos, len - pos);
	op.empty = sw_arena_strndup(&out->arena, "", 0);

	while (pos < len && rc == 0) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		rc = feed_line(&op, data + pos, end - pos, ++line, err);
		pos = nl ? end + 1 : len;
	}
	return finish(&op, rc);
}

int sw_opt_parse_file(struct sw_opt *out, const char *path, size_t limit, struct sw_err *err)
{
	struct optp op;
	struct sw_buf carry = SW_BUF_INIT;
	size_t line = 0;
	int rc = 0;
	char *chunk = NULL;

	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return sw_err_set(err, SW_EIO, "cannot read %s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > limit) {
		close(fd);
		return S_ISREG(st.st_mode)
			       ? sw_err_set(err, SW_ELIMIT, "%s is larger than %zu bytes", path, limit)
			       : sw_err_set(err, SW_EINPUT, "%s is not a regular file", path);
	}
	unsigned char head[2] = { 0 };
	if (pread(fd, head, 2, 0) == 2 && ((head[0] == 0xff && head[1] == 0xfe) ||
					   (head[0] == 0xfe && head[1] == 0xff))) {
		/* UTF-16 is converted whole: such exports are rare and small. */
		close(fd);
		struct sw_buf all = SW_BUF_INIT;
		rc = sw_file_read(&all, path, limit, err);
		if (rc == 0)
			rc = sw_opt_parse(out, all.data, all.len, err);
		sw_buf_release(&all);
		return rc;
	}
	memset(&op, 0, sizeof(op));
	sw_arena_init(&out->arena, sw__extract_arena_block((size_t)st.st_size));
	sw_buf_init(&op.conv);
	op.o = out;
	op.mixed = true; /* not looked at whole: each field is checked */
	op.empty = sw_arena_strndup(&out->arena, "", 0);

	/* Read a chunk at a time; a line cut by the chunk's end waits in
	 * carry (at most SW_OPT_MAX_LINE and its line end, or it is an
	 * error anyway). */
	enum { CHUNK = 1 << 20 };
	chunk = sw_xmalloc(CHUNK);
	bool first = true;
	for (;;) {
		ssize_t n = read(fd, chunk, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot read %s: %s", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		const char *p = chunk;
		size_t len = (size_t)n;
		if (first && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
			p += 3;
			len -= 3;
		}
		first = false;
		while (len && rc == 0) {
			const char *nl = memchr(p, '\n', len);
			if (!nl) {
				if (carry.len + len > SW_OPT_MAX_LINE + 2)
					rc = sw_err_set(err, SW_ELIMIT,
							"line %zu is longer than %d bytes (limit SW_OPT_MAX_LINE)",
							line + 1, SW_OPT_MAX_LINE);
				else
					sw_buf_add(&carry, p, len);
				break;
			}
			size_t l = (size_t)(nl - p);
			if (carry.len) {
				sw_buf_add(&carry, p, l);
				rc = feed_line(&op, carry.data, carry.len, ++line, err);
				sw_buf_reset(&carry);
			} else {
				rc = feed_line(&op, p, l, ++line, err);
			}
			p += l + 1;
			len -= l + 1;
		}
		if (rc)
			break;
	}
	if (rc == 0 && carry.len)
		rc = feed_line(&op, carry.data, carry.len, ++line, err);
	free(chunk);
	sw_buf_release(&carry);
	close(fd);
	return finish(&op, rc);
}

/* One line (without its '\n'): checked and parsed; blank lines give
 * nothing. */
static int feed_line(struct optp *op, const char *p, size_t len, size_t line,
		     struct sw_err *err)
{
	if (len && p[len - 1] == '\r')
		len--;
	if (len > SW_OPT_MAX_LINE)
		return sw_err_set(err, SW_ELIMIT,
				  "line %zu is longer than %d bytes (limit SW_OPT_MAX_LINE)",
				  line, SW_OPT_MAX_LINE);
	struct field whole = trim((struct field){ p, len });
	return whole.n ? parse_line(op, p, len, line, err) : 0;
}

/* The end of a parse: the page array trimmed to its size and the key
 * order built, or everything released on an error. */
static int finish(struct optp *op, int rc)
{
	struct sw_opt *out = op->o;
	sw_buf_release(&op->conv);
	if (rc) {
		sw_opt_release(out);
	} else if (out->n && out->n < out->cap) {
		/* Growth left up to half the array unused. */
		out->pages = sw_xrealloc(out->pages, out->n * sizeof(*out->pages));
		out->cap = out->n;
	}
	if (rc == 0)
		build_order(out);
	return rc;
}

void sw_opt_release(struct sw_opt *o)
{
	if (!o)
		return;
	free(o->pages);
	free(o->order);
	sw_arena_release(&o->arena);
	memset(o, 0, sizeof(*o));
}
