/*
 * pdf_xref.c - how many objects a PDF's bytes make poppler hold, read
 * before poppler opens them.
 *
 * poppler sizes its cross-reference table to whatever the file declares:
 * a trailer's /Size, an xref section's "first count" header, an xref
 * stream's /Index pairs, and, when it rebuilds a damaged table, the number
 * of every "N G obj" it finds.  Each entry is some 40 bytes, made and
 * cleared at once, so a 5 KB file declaring /Size 20000773 held 1.8 GB
 * in the fuzzer, and a table of 21,541 entries in a 3 KB file made each
 * stream poppler reads without a good /Length cost 21,541 steps per token
 * (its search for the stream's end asks which object holds each offset).
 *
 * The scan reads every byte as loose tokens, strings and streams included
 * (a string or a comment is not skipped: a '(' in a stream's binary data
 * would hide the rest of the file), so it finds each place poppler would
 * read and some it would not; its cost is one pass, no allocation.  It
 * keeps no pointer behind the token it reads, so what lies behind can be
 * dropped from memory as it goes (a mapped file's pages are read again
 * from the file when poppler wants them): a 50,000-page PDF's scan held
 * the whole file in memory before.  It drops inside a token too, one
 * window at a time: a 640 MiB stream of zeros is one run of blanks.
 *
 * Whether the end of the file leads to its table is read here as well:
 * without one poppler rebuilds the table from every byte of the file.
 */
#include <string.h>

#include "extract/extract_int.h"

#define NUM_CAP 1000000000000000LL /* numbers saturate here */

enum tok { T_INT, T_NAME, T_WORD, T_OPEN, T_CLOSE, T_OTHER };

struct scan {
	const char *p, *end, *base;
	enum tok tok;
	long long num;
	char word[12]; /* a name's or keyword's first bytes, NUL-ended */
	size_t at;     /* the token's offset */
	size_t looked; /* bytes looked at (a number's, again as a word's) */
	/* The mapping data lies in (NULL: none), data's offset in it, and
	 * the offset up to which the scan has dropped what it read. */
	const struct sw_map *map;
	size_t in_map, dropped;
};

_Static_assert((SW_PDF_SCAN_WINDOW & (SW_PDF_SCAN_WINDOW - 1)) == 0,
	       "the scan window is a power of two");

/* Drop from memory what the scan has read up to q, once a window of it is
 * behind.  Called at each token and, inside a long run of one token (a
 * stream of blanks, a word or a number of megabytes), at each window's
 * boundary: a 640 MiB stream of zeros is one run of blanks. */
static void behind(struct scan *s, const char *q)
{
	size_t upto = (size_t)(q - s->base);
	if (s->map && upto > s->dropped && upto - s->dropped >= SW_PDF_SCAN_WINDOW) {
		sw_file_map_drop(s->map, s->in_map + s->dropped, upto - s->dropped);
		s->dropped = upto;
	}
}

/* Whether q is at a window's boundary (inside a run: behind() then). */
static bool at_window(const struct scan *s, const char *q)
{
	return s->map && ((size_t)(q - s->base) & (SW_PDF_SCAN_WINDOW - 1)) == 0;
}

static bool is_space(unsigned char c)
{
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
}

static bool is_delim(unsigned char c)
{
	switch (c) {
	case '(': case ')': case '<': case '>': case '[': case ']':
	case '{': case '}': case '/': case '%':
		return true;
	default:
		return false;
	}
}

/* The next token; false at the end. */
static bool next(struct scan *s)
{
	const char *from = s->p;
	while (s->p < s->end && is_space((unsigned char)*s->p)) {
		s->p++;
		if (at_window(s, s->p))
			behind(s, s->p);
	}
	s->looked += (size_t)(s->p - from);
	if (s->p >= s->end)
		return false;
	s->at = (size_t)(s->p - s->base);
	unsigned char c = (unsigned char)*s->p;
	if (c == '[' || c == ']') {
		s->tok = c == '[' ? T_OPEN : T_CLOSE;
		s->p++;
		s->looked++;
		return true;
	}
	if (is_delim(c) && c != '/') {
		s->tok = T_OTHER;
		s->p++;
		s->looked++;
		return true;
	}
	const char *q = s->p + (c == '/');
	if (c != '/' && (c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'))) {
		/* A number; a real counts by its whole part, a sign is dropped:
		 * counting too much is safe. */
		long long v = 0;
		bool digits = false, frac = false;
		for (q += c == '+' || c == '-'; q < s->end; q++) {
			if (at_window(s, q))
				behind(s, q);
			unsigned char d = (unsigned char)*q;
			if (d == '.' && !frac) {
				frac = true;
			} else if (d >= '0' && d <= '9') {
				digits = true;
				if (!frac)
					v = v >= NUM_CAP / 10 ? NUM_CAP : v * 10 + (d - '0');
			} else {
				break;
			}
		}
		s->looked += (size_t)(q - s->p);
		if (digits && (q >= s->end || is_space((unsigned char)*q) || is_delim((unsigned char)*q))) {
			s->tok = T_INT;
			s->num = v;
			s->p = q;
			return true;
		}
		/* Read again as a word: what the number dropped is read back
		 * from the file, and is dropped again behind the word. */
		q = s->p;
		if (s->map && s->dropped > (size_t)(q - s->base))
			s->dropped = (size_t)(q - s->base);
	}
	size_t n = 0;
	while (q < s->end && !is_space((unsigned char)*q) && !is_delim((unsigned char)*q)) {
		if (n + 1 < sizeof s->word)
			s->word[n++] = *q;
		q++;
		if (at_window(s, q))
			behind(s, q);
	}
	s->word[n] = '\0';
	s->tok = c == '/' ? T_NAME : T_WORD;
	s->looked += q > s->p ? (size_t)(q - s->p) : 1;
	s->p = q > s->p ? q : s->p + 1;
	return true;
}

static void note(struct sw__extract_pdf_declared *d, long long objects, size_t at, const char *what)
{
	if (objects > d->objects) {
		d->objects = objects;
		d->at = at;
		d->what = what;
	}
}

void sw__extract_pdf_declared_objects(const char *data, size_t len, const struct sw_map *map,
				      struct sw__extract_pdf_declared *d)
{
	struct scan s = { .p = data, .end = data + len, .base = data };
	if (map && data >= map->data && data + len <= map->data + map->len) {
		s.map = map;
		s.in_map = (size_t)(data - map->data);
	}
	/* The last two numbers, with where the first of them began. */
	long long n1 = -1, n2 = -1;
	size_t at1 = 0, at2 = 0;
	enum { PLAIN, SIZE, INDEX_NAME, INDEX, XREF } mode = PLAIN;
	int pending = 0; /* numbers held in INDEX and XREF */

	memset(d, 0, sizeof *d);
	d->what = "";
	while (next(&s)) {
		enum tok t = s.tok;
		behind(&s, s.base + s.at);
		switch (mode) {
		case SIZE:
			if (t == T_INT)
				note(d, s.num, s.at, "/Size");
			mode = PLAIN;
			break;
		case INDEX_NAME:
			mode = t == T_OPEN ? INDEX : PLAIN;
			pending = 0;
			continue;
		case INDEX:
			/* /Index [first count ...]: the table reaches first + count. */
			if (t == T_INT) {
				if (pending++ % 2 == 1)
					note(d, n2 + s.num, at2, "/Index");
				n2 = s.num;
				at2 = s.at;
				continue;
			}
			mode = PLAIN;
			break;
		case XREF:
			/* "xref", then sections of "first count" followed by count
			 * entries "offset gen n|f": two numbers followed by a third
			 * (or by anything but n or f) are a section's head. */
			if (t == T_INT) {
				if (pending == 2) {
					note(d, n1 + n2, at1, "an xref section");
					pending = 0;
				}
				if (pending == 0) {
					n1 = s.num;
					at1 = s.at;
				} else {
					n2 = s.num;
					at2 = s.at;
				}
				pending++;
				continue;
			}
			if (t == T_WORD && pending == 2 && (!strcmp(s.word, "n") || !strcmp(s.word, "f"))) {
				pending = 0;
				continue;
			}
			if (pending == 2)
				note(d, n1 + n2, at1, "an xref section");
			mode = PLAIN;
			pending = 0;
			n1 = n2 = -1;
			break;
		case PLAIN:
			break;
		}
		if (t == T_INT) {
			n1 = n2;
			at1 = at2;
			n2 = s.num;
			at2 = s.at;
			continue;
		}
		if (t == T_WORD && !strcmp(s.word, "obj") && n1 >= 0 && n2 >= 0)
			note(d, n1 + 1, at1, "an object number");
		else if (t == T_WORD && !strcmp(s.word, "xref"))
			mode = XREF, pending = 0;
		else if (t == T_NAME && !strcmp(s.word, "Size"))
			mode = SIZE;
		else if (t == T_NAME && !strcmp(s.word, "Index"))
			mode = INDEX_NAME;
		n1 = n2 = -1;
	}
	if (mode == XREF && pending == 2)
		note(d, n1 + n2, at1, "an xref section");
	if (s.map)
		sw_file_map_drop(map, s.in_map + s.dropped, len - s.dropped);
	d->looked = s.looked;
}

long long sw__extract_pdf_objects_max(size_t len)
{
	return SW_PDF_OBJECTS_MIN + (long long)(len / SW_PDF_OBJECT_BYTES);
}

bool sw__extract_pdf_xref_found(const char *data, size_t len)
{
	/* poppler looks for startxref in the last 1,024 bytes. */
	size_t from = len > 1024 ? len - 1024 : 0, at = SIZE_MAX;
	for (size_t i = from; i + 9 <= len; i++)
		if (memcmp(data + i, "startxref", 9) == 0)
			at = i + 9;
	if (at == SIZE_MAX)
		return false;
	struct scan s = { .p = data + at, .end = data + len, .base = data };
	if (!next(&s) || s.tok != T_INT || s.num <= 0 || (unsigned long long)s.num >= len)
		return false;
	/* There: "xref", or the head of an xref stream's object ("N G obj"). */
	size_t off = (size_t)s.num;
	s = (struct scan){ .p = data + off, .end = data + (len - off > 64 ? off + 64 : len),
			   .base = data };
	if (!next(&s))
		return false;
	if (s.tok == T_WORD && strcmp(s.word, "xref") == 0)
		return true;
	return s.tok == T_INT && next(&s) && s.tok == T_INT && next(&s) && s.tok == T_WORD &&
	       strcmp(s.word, "obj") == 0;
}
