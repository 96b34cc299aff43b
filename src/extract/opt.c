/*
 * opt.c - Opticon .OPT image cross-references: one page per line,
 * ImageKey,Volume,ImagePath,DocBreak,FolderBreak,BoxBreak,PageCount.
 *
 * The format has no quoting, so a comma in a path cannot be escaped.  A line
 * with more than seven fields therefore keeps the first two and the last four
 * where they belong and gives the rest, commas included, to ImagePath; a line
 * that merely ends in extra empty fields (its DocBreak still in place) is
 * read as the first seven.
 *
 * Memory stays bounded (extract.h): the first pass keeps a bit a page, a
 * block record every SW_OPT_BLOCK pages and the index of the keys asked
 * for; sw_opt_read parses a block's lines again.  Both passes go through
 * parse_line, so that they agree on which line is which page.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extract/extract_int.h"

enum { F_KEY, F_VOLUME, F_IMAGE, F_DOCBREAK, F_FOLDER, F_BOX, F_COUNT, NF };

struct sw_opt_block {
	uint64_t off;  /* where the line of the block's first page starts */
	uint64_t line; /* the line before it */
	uint64_t hash; /* of the block's lines, to the next block's first page */
};

struct opt_key {
	const char *key;
	uint64_t hash;
	size_t page; /* SIZE_MAX until a page has it */
};

/* Open addressing over entries; slot holds an entry's index + 1. */
struct sw_opt_keys {
	struct opt_key *e;
	size_t n, cap;
	uint32_t *slot;
	size_t mask;
	uint64_t seed; /* the hash's, random: keys cannot be chosen to collide */
	bool all; /* every key the pages have, copied into the arena */
};

struct field {
	const char *p;
	size_t n;
};


struct optp {
	struct sw_opt *o;
	bool line_bad;     /* this line had bytes read as Windows-1252 */
	struct sw_buf conv;
	/* A read again: pages [first, last) go to range. */
	struct sw_opt_range *range;
	size_t first, last;
	size_t page;       /* the next page's index */
	size_t block;      /* the block being read (a read again) */
	uint64_t hash;     /* of the current block so far */
	bool started;      /* a block is open */
	bool mismatch;     /* a block's bytes are not what the parse read */
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

	if (op->range) /* a read again: counted by the parse */
		return;
	o->nbad++;
	if (o->first_error)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->first_error = sw_arena_strdup(&o->arena, msg);
}

/* FNV-1a: a change of the bytes between the parse and a read again is
 * caught; nothing here defends against a chosen collision, which the
 * production's author needs no collision for. */
static uint64_t fnv(uint64_t h, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV_START 0xcbf29ce484222325ULL

/* ------------------------------------------------------------ the key index */

/* FNV-1a from a random start, then mixed (MurmurHash3's finaliser) so
 * that the slot's low bits depend on every byte: a production's author
 * who does not know the seed cannot make the keys share slots (which made
 * each lookup a walk, the import quadratic again). */
static uint64_t key_hash(const struct sw_opt_keys *k, const char *p, size_t n)
{
	uint64_t h = fnv(FNV_START ^ k->seed, p, n);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static struct opt_key *key_slot(struct sw_opt_keys *k, const char *p, size_t n,
				uint64_t h, uint32_t **slotp)
{
	for (size_t i = h & k->mask;; i = (i + 1) & k->mask) {
		uint32_t s = k->slot[i];
		if (!s) {
			*slotp = &k->slot[i];
			return NULL;
		}
		struct opt_key *e = &k->e[s - 1];
		if (e->hash == h && strncmp(e->key, p, n) == 0 && e->key[n] == '\0')
			return e;
	}
}

static void keys_grow(struct sw_opt_keys *k)
{
	size_t nslot = k->mask ? (k->mask + 1) * 2 : 64;
	free(k->slot);
	k->slot = sw_xcalloc(nslot, sizeof(*k->slot));
	k->mask = nslot - 1;
	for (size_t i = 0; i < k->n; i++) {
		size_t j = k->e[i].hash & k->mask;
		while (k->slot[j])
			j = (j + 1) & k->mask;
		k->slot[j] = (uint32_t)(i + 1);
	}
}

/* The entry of key p[0..n), added (pointing at key, or at a copy when key
 * is NULL) when absent and add is set. */
static struct opt_key *keys_get(struct sw_opt *o, const char *p, size_t n, const char *key,
				bool add)
{
	struct sw_opt_keys *k = o->keys;
	uint32_t *slot = NULL;
	uint64_t h = key_hash(k, p, n);
	if (!k->mask)
		keys_grow(k);
	struct opt_key *e = key_slot(k, p, n, h, &slot);
	if (e || !add)
		return e;
	if ((k->n + 1) * 2 > k->mask + 1) {
		keys_grow(k);
		(void)key_slot(k, p, n, h, &slot);
	}
	k->e = sw_xgrow(k->e, &k->cap, k->n + 1, sizeof(*k->e));
	e = &k->e[k->n++];
	*e = (struct opt_key){ .key = key ? key : sw_arena_strndup(&o->arena, p, n), .hash = h,
			       .page = SIZE_MAX };
	*slot = (uint32_t)k->n;
	return e;
}

static void keys_init(struct sw_opt *o, const char *const *keys, size_t nkeys)
{
	o->keys = sw_xcalloc(1, sizeof(*o->keys));
	if (getrandom(&o->keys->seed, sizeof(o->keys->seed), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(o->keys->seed))
		o->keys->seed = (uint64_t)(uintptr_t)o->keys ^ (uint64_t)time(NULL);
	o->keys->all = keys == NULL;
	for (size_t i = 0; keys && i < nkeys; i++)
		if (keys[i] && keys[i][0])
			(void)keys_get(o, keys[i], strlen(keys[i]), keys[i], true);
}

size_t sw_opt_find(const struct sw_opt *o, const char *key)
{
	if (!o->keys || !o->keys->n || !key)
		return SIZE_MAX;
	struct opt_key *e = keys_get((struct sw_opt *)o, key, strlen(key), key, false);
	return e ? e->page : SIZE_MAX;
}

/* ------------------------------------------------------------ document breaks */

bool sw_opt_doc_break(const struct sw_opt *o, size_t i)
{
	return i < o->n && (o->breaks[i / 64] >> (i % 64) & 1);
}

void sw_opt_set_doc_break(struct sw_opt *o, size_t i)
{
	if (i < o->n)
		o->breaks[i / 64] |= (uint64_t)1 << (i % 64);
}

size_t sw_opt_next_break(const struct sw_opt *o, size_t from)
{
	if (from >= o->n)
		return o->n;
	size_t w = from / 64;
	uint64_t bits = o->breaks[w] & (~(uint64_t)0 << (from % 64));
	size_t words = (o->n + 63) / 64;
	while (!bits && ++w < words)
		bits = o->breaks[w];
	if (!bits)
		return o->n;
	size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
	return i < o->n ? i : o->n;
}

/* ------------------------------------------------------------ one line */

/* The field as UTF-8: its bytes, or (not valid UTF-8 in a file not known
 * to be) their reading as Windows-1252 in op->conv. */
static struct field utf8_field(struct optp *op, struct field f)
{
	if (f.n == 0 || !op->o->mixed || sw_utf8_valid(f.p, f.n))
		return f;
	sw_buf_reset(&op->conv);
	if (sw_extract_mixed_to_utf8(&op->conv, f.p, f.n))
		op->line_bad = true;
	return (struct field){ op->conv.data, op->conv.len };
}

static char *range_str(struct optp *op, struct field f)
{
	f = utf8_field(op, f);
	return sw_arena_strndup(&op->range->arena, f.p ? f.p : "", f.n);
}

/* A new page: in the parse, its bit, its block and its key; in a read
 * again, its fields when it is one of the range's. */
static int add_page(struct optp *op, struct field *f, struct field key, bool doc_break,
		    uint32_t count, size_t line, struct sw_err *err)
{
	struct sw_opt *o = op->o;
	size_t i = op->page++;
	op->line_bad = false;
	if (op->range) {
		if (i < op->first || i >= op->last)
			return 0;
		struct sw_opt_page *pg = &op->range->pages[i - op->first];
		pg->key = range_str(op, key);
		pg->volume = range_str(op, trim(f[F_VOLUME]));
		pg->image = range_str(op, f[F_IMAGE]); /* as written: spaces may be real */
		pg->doc_break = sw_opt_doc_break(o, i);
		pg->page_count = doc_break ? count : 0;
		pg->line = line > INT_MAX ? INT_MAX : (int)line;
		op->range->n++;
		return 0;
	}
	if (o->n >= SW_OPT_MAX_PAGES)
		return sw_err_set(err, SW_ELIMIT, "more than %d pages (limit SW_OPT_MAX_PAGES)",
				  SW_OPT_MAX_PAGES);
	o->n++;
	if (i / 64 >= o->capbreaks) {
		size_t old = o->capbreaks;
		o->breaks = sw_xgrow(o->breaks, &o->capbreaks, i / 64 + 1, sizeof(*o->breaks));
		memset(o->breaks + old, 0, (o->capbreaks - old) * sizeof(*o->breaks));
	}
	if (doc_break) {
		sw_opt_set_doc_break(o, i);
		o->nbreaks++;
	}
	struct field k = utf8_field(op, key);
	struct opt_key *e = keys_get(o, k.p, k.n, NULL, o->keys->all);
	if (e && e->page == SIZE_MAX)
		e->page = i;
	(void)utf8_field(op, trim(f[F_VOLUME]));
	(void)utf8_field(op, f[F_IMAGE]);
	if (op->line_bad && o->ncp1252++ == 0)
		o->first_cp1252_line = line > INT_MAX ? INT_MAX : (int)line;
	return 0;
}

/* Whether the line is a page (1), not one (0), or an error. */
static int parse_line(struct optp *op, const char *p, size_t len, size_t line,
		      struct sw_err *err)
{
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
	bool doc_break = docbreak.n == 1 && (docbreak.p[0] == 'Y' || docbreak.p[0] == 'y');
	/* A count on a later page is noise some tools write; the document's
	 * length comes from its first page. */
	int rc = add_page(op, f, key, doc_break, (uint32_t)count, line, err);
	return rc ? rc : 1;
}

/* The block before the page starting on this line is closed: in the
 * parse, its hash kept; in a read again, compared (1: they differ, stop). */
static int close_block(struct optp *op)
{
	struct sw_opt *o = op->o;
	if (!op->started)
		return 0;
	if (!op->range) {
		o->blocks[o->nblocks - 1].hash = op->hash;
		return 0;
	}
	if (op->block >= o->nblocks || o->blocks[op->block].hash != op->hash) {
		op->mismatch = true;
		return 1;
	}
	op->block++;
	return 0;
}

/* One line (without its '\n') at offset off: checked and parsed; blank
 * lines give nothing.  Returns 1 when a read again must stop (its bytes
 * changed). */
static int feed_line(struct optp *op, const char *p, size_t len, uint64_t off, size_t line,
		     struct sw_err *err)
{
	size_t all = len;
	if (len && p[len - 1] == '\r')
		len--;
	if (len > SW_OPT_MAX_LINE) {
		if (op->range) {
			op->mismatch = true;
			return 1;
		}
		return sw_err_set(err, SW_ELIMIT,
				  "line %zu is longer than %d bytes (limit SW_OPT_MAX_LINE)",
				  line, SW_OPT_MAX_LINE);
	}
	struct field whole = trim((struct field){ p, len });
	size_t page = op->page;
	int rc = whole.n ? parse_line(op, p, len, line, err) : 0;
	if (rc < 0)
		return rc;
	if (rc == 1 && page % SW_OPT_BLOCK == 0) {
		/* The page starts a block: the one before ends here. */
		if (close_block(op))
			return 1;
		if (!op->range) {
			struct sw_opt *o = op->o;
			o->blocks = sw_xgrow(o->blocks, &o->capblocks, o->nblocks + 1,
					     sizeof(*o->blocks));
			o->blocks[o->nblocks++] = (struct sw_opt_block){ .off = off,
									 .line = line - 1 };
		}
		op->started = true;
		op->hash = FNV_START;
	}
	if (op->started) {
		op->hash = fnv(op->hash, p, all);
		op->hash = fnv(op->hash, "\n", 1);
	}
	return 0;
}

/* ------------------------------------------------------------ the bytes */

/* Feed the lines of the bytes from off, up to end (or the file's end),
 * to feed_line, counting lines from line; stops early when it says so.
 * *endp is where the last line fed ends. */
static int scan(struct optp *op, uint64_t off, uint64_t end, size_t line, uint64_t *endp,
		struct sw_err *err)
{
	const struct sw_opt *o = op->o;
	int rc = 0;
	if (!o->file) {
		size_t pos = (size_t)off, len = (size_t)end;
		while (pos < len && rc == 0) {
			const char *nl = memchr(o->data + pos, '\n', len - pos);
			size_t stop = nl ? (size_t)(nl - o->data) : len;
			rc = feed_line(op, o->data + pos, stop - pos, pos, ++line, err);
			pos = nl ? stop + 1 : len;
		}
		*endp = pos;
		return rc < 0 ? rc : 0;
	}

	/* A chunk at a time; a line cut by the chunk's end waits in carry
	 * (at most SW_OPT_MAX_LINE and its line end, or it is an error). */
	enum { CHUNK = 1 << 20 };
	struct sw_buf carry = SW_BUF_INIT;
	size_t size = end - off < CHUNK ? (size_t)(end - off) + 1 : CHUNK; /* a read again's blocks */
	char *chunk = sw_xmalloc(size);
	uint64_t pos = off, start = off; /* the next byte to read, the line's start */
	while (rc == 0 && !op->mismatch && pos < end) {
		size_t want = end - pos < size ? (size_t)(end - pos) : size;
		ssize_t n = pread(o->fd, chunk, want, (off_t)pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot read the .OPT: %s", strerror(errno));
			break;
		}
		if (n == 0)
			break;
		pos += (uint64_t)n;
		const char *p = chunk;
		size_t len = (size_t)n;
		while (len && rc == 0) {
			const char *nl = memchr(p, '\n', len);
			if (!nl) {
				if (carry.len + len <= SW_OPT_MAX_LINE + 2)
					sw_buf_add(&carry, p, len);
				else if (op->range)
					op->mismatch = true;
				else
					rc = sw_err_set(err, SW_ELIMIT,
							"line %zu is longer than %d bytes (limit SW_OPT_MAX_LINE)",
							line + 1, SW_OPT_MAX_LINE);
				break;
			}
			size_t l = (size_t)(nl - p);
			uint64_t next = start + carry.len + l + 1;
			if (carry.len) {
				sw_buf_add(&carry, p, l);
				rc = feed_line(op, carry.data, carry.len, start, ++line, err);
				sw_buf_reset(&carry);
			} else {
				rc = feed_line(op, p, l, start, ++line, err);
			}
			start = next;
			p += l + 1;
			len -= l + 1;
		}
	}
	if (rc == 0 && carry.len) {
		rc = feed_line(op, carry.data, carry.len, start, ++line, err);
		start += carry.len;
	}
	*endp = start;
	free(chunk);
	sw_buf_release(&carry);
	return rc < 0 ? rc : 0;
}

/* ------------------------------------------------------------ parsing */

static void opt_init(struct sw_opt *o)
{
	memset(o, 0, sizeof(*o));
	sw_arena_init(&o->arena, 4096);
}

/* The first pass over o's bytes from off to end. */
static int parse(struct sw_opt *o, uint64_t off, uint64_t end, const char *const *keys,
		 size_t nkeys, struct sw_err *err)
{
	struct optp op = { .o = o };
	sw_buf_init(&op.conv);
	keys_init(o, keys, nkeys);
	int rc = scan(&op, off, end, 0, &o->end, err);
	if (rc == 0)
		(void)close_block(&op);
	sw_buf_release(&op.conv);
	if (rc)
		sw_opt_release(o);
	return rc;
}

static bool utf16_bom(const char *p, size_t len)
{
	const unsigned char *u = (const unsigned char *)p;
	return len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff));
}

/* Parse o->data[0..len) (after converting UTF-16 into o->owned). */
static int parse_data(struct sw_opt *o, size_t len, const char *const *keys, size_t nkeys,
		      struct sw_err *err)
{
	size_t pos = 0;
	if (utf16_bom(o->data, len)) {
		/* A "Unicode" export: parse the UTF-8 it converts to. */
		struct sw_buf u = SW_BUF_INIT;
		(void)sw_extract_utf16_to_utf8(&u, o->data, len);
		if (u.len && memchr(u.data, '\0', u.len)) {
			sw_buf_release(&u);
			sw_opt_release(o);
			return sw_err_set(err, SW_EINPUT, "not an image file: binary data (NUL bytes)");
		}
		free(o->owned);
		o->owned = sw_buf_detach(&u, &len);
		o->data = o->owned ? o->owned : "";
	}
	if (len >= 3 && memcmp(o->data, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	o->mixed = !sw_utf8_valid(o->data + pos, len - pos);
	return parse(o, pos, len, keys, nkeys, err);
}

int sw_opt_parse(struct sw_opt *out, const char *data, size_t len, struct sw_err *err)
{
	opt_init(out);
	out->data = data ? data : "";
	return parse_data(out, data ? len : 0, NULL, 0, err);
}

int sw_opt_parse_file(struct sw_opt *out, const char *path, size_t limit,
		      const char *const *keys, size_t nkeys, struct sw_err *err)
{
	opt_init(out);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		sw_opt_release(out);
		return sw_err_set(err, SW_EIO, "cannot read %s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > limit) {
		close(fd);
		sw_opt_release(out);
		return S_ISREG(st.st_mode)
			       ? sw_err_set(err, SW_ELIMIT, "%s is larger than %zu bytes", path, limit)
			       : sw_err_set(err, SW_EINPUT, "%s is not a regular file", path);
	}
	char head[3] = { 0 };
	ssize_t nh = pread(fd, head, 3, 0);
	if (nh >= 2 && utf16_bom(head, (size_t)nh)) {
		/* UTF-16 is converted whole: such exports are rare and small. */
		close(fd);
		struct sw_buf all = SW_BUF_INIT;
		int rc = sw_file_read(&all, path, limit, err);
		if (rc) {
			sw_buf_release(&all);
			sw_opt_release(out);
			return rc;
		}
		size_t len;
		out->owned = sw_buf_detach(&all, &len);
		out->data = out->owned ? out->owned : "";
		return parse_data(out, len, keys, nkeys, err);
	}
	out->fd = fd;
	out->file = true;
	out->mixed = true; /* not looked at whole: each field is checked */
	uint64_t off = nh == 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	int rc = parse(out, off, (uint64_t)limit + 1, keys, nkeys, err);
	if (rc == 0 && out->end > limit) { /* it grew while it was read */
		sw_opt_release(out);
		rc = sw_err_set(err, SW_ELIMIT, "%s is larger than %zu bytes", path, limit);
	}
	return rc;
}

/* ------------------------------------------------------------ reading again */

int sw_opt_read(struct sw_opt_range *out, const struct sw_opt *o, size_t first, size_t count,
		struct sw_err *err)
{
	sw_opt_range_release(out);
	sw_arena_init(&out->arena, 4096);
	if (first >= o->n || count == 0)
		return 0;
	if (count > o->n - first)
		count = o->n - first;
	out->pages = sw_xcalloc(count, sizeof(*out->pages));

	struct optp op = { .o = (struct sw_opt *)o, .range = out, .first = first,
			   .last = first + count };
	/* The blocks of the range, exactly: the bytes from the first one's
	 * start to the start of the one after the last. */
	size_t b = first / SW_OPT_BLOCK, lb = (first + count - 1) / SW_OPT_BLOCK;
	uint64_t stop = lb + 1 < o->nblocks ? o->blocks[lb + 1].off : o->end;
	op.block = b;
	op.page = b * SW_OPT_BLOCK;
	sw_buf_init(&op.conv);
	uint64_t endp = 0;
	int rc = scan(&op, o->blocks[b].off, stop, (size_t)o->blocks[b].line, &endp, err);
	/* The last block ends where the bytes read end: its hash is checked
	 * here, the others' as the next began. */
	if (rc == 0 && !op.mismatch)
		op.mismatch = !op.started || op.block != lb || o->blocks[lb].hash != op.hash ||
			      endp != stop;
	sw_buf_release(&op.conv);
	if (rc == 0 && (op.mismatch || out->n != count))
		rc = sw_err_set(err, SW_EINPUT, "the .OPT changed while it was read (its pages"
				" after line %llu are not what they were)",
				(unsigned long long)o->blocks[op.block < o->nblocks ? op.block : b].line);
	if (rc)
		sw_opt_range_release(out);
	return rc;
}

void sw_opt_range_release(struct sw_opt_range *r)
{
	if (!r)
		return;
	free(r->pages);
	sw_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

void sw_opt_release(struct sw_opt *o)
{
	if (!o)
		return;
	if (o->file)
		close(o->fd);
	free(o->breaks);
	free(o->blocks);
	if (o->keys) {
		free(o->keys->e);
		free(o->keys->slot);
		free(o->keys);
	}
	free(o->owned);
	sw_arena_release(&o->arena);
	memset(o, 0, sizeof(*o));
}
