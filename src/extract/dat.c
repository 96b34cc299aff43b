/*
 * dat.c - Concordance/Relativity .DAT load files: one document per row, the
 * first row names the columns.
 *
 * The parser works on the file's own bytes and converts each value once, so
 * a production's DAT is read in one pass with no per-byte allocation.  Rows
 * are scanned first into spans (byte ranges plus what needs unescaping) and
 * only a row with the right shape is copied into the arena; a bad row costs
 * nothing but its message.
 *
 * Marker bytes differ by encoding (þ is 0xFE in Latin-1 and C3 BE in UTF-8),
 * so the qualifier, separator and newline mark are kept as byte strings of
 * the source encoding.  Matching multi-byte UTF-8 markers byte by byte is safe
 * because a UTF-8 lead byte never occurs inside another character.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

/* A marker as it is written in the file. */
struct tok {
	unsigned char b[4];
	size_t n; /* 0: no such marker */
};

/* What a field's bytes need before they are a value. */
enum {
	F_DQ = 1,   /* a doubled qualifier stands for one */
	F_MARK = 2, /* the newline mark stands for '\n' */
	F_CR = 4,   /* a CRLF inside a qualified field becomes '\n' */
	F_NUL = 8,  /* a NUL byte: the value would be cut short as a C string */
};

struct span {
	size_t a, b; /* the field's bytes, qualifiers excluded */
	unsigned flags;
};

enum row_status {
	ROW_OK,           /* the row ended at a line end; its count may be off */
	ROW_UNTERMINATED, /* a qualified field ran to the end of the file */
	ROW_JUNK,         /* text after a closing qualifier */
};

struct row {
	enum row_status status;
	size_t nfound;     /* fields seen */
	size_t end;        /* just past the row's line ending */
	size_t nl;         /* newlines inside qualified fields */
	size_t bad_field;  /* 1-based field of an unterminated/junk error */
	size_t long_field; /* 1-based first field over the size limit, or 0 */
	size_t nul_field;  /* 1-based first field holding a NUL byte, or 0 */
	size_t stop;       /* where a bad row's scan stopped */
};

struct parser {
	const unsigned char *u; /* the file after any BOM */
	size_t len;
	struct tok q, s, m;     /* qualifier, separator, newline mark */
	bool qual_stop[256];    /* bytes of interest inside a qualified field */
	bool bare_stop[256];    /* ... and inside an unqualified one */
	struct span *spans;     /* SW_DAT_MAX_FIELDS + 1 */
	size_t *ends;           /* SW_DAT_MAX_FIELDS: value ends in row */
	struct sw_buf tmp, row;
	struct sw_dat *d;
	char *empty;            /* one shared "" for every empty value */
	bool mixed;             /* UTF-8 with stray Windows-1252 bytes: check each value */
	size_t bad_field;       /* 1-based first value of the row read as 1252, or 0 */
	size_t nbad_fields;     /* values of the row read as 1252 */
};

static bool at(const struct parser *ps, size_t pos, const struct tok *t)
{
	return t->n && pos <= ps->len && ps->len - pos >= t->n &&
	       memcmp(ps->u + pos, t->b, t->n) == 0;
}

static void set_tok(struct tok *t, const char *bytes, size_t n)
{
	memcpy(t->b, bytes, n);
	t->n = n;
}

/* True when pos starts a line ending (LF, CRLF, or a CR the file ends on);
 * *after is where the next line starts. */
static bool at_eol(const struct parser *ps, size_t pos, size_t *after)
{
	size_t n = pos >= ps->len ? 0 : ps->u[pos] == '\n' ? 1
		 : ps->u[pos] != '\r' ? SIZE_MAX
		 : pos + 1 == ps->len ? 1 : ps->u[pos + 1] == '\n' ? 2 : SIZE_MAX;

	if (n == SIZE_MAX)
		return false;
	*after = pos + n;
	return true;
}

/* Scan a qualified field whose text starts at pos (after the opening
 * qualifier).  Returns the position just past the closing qualifier, or
 * SIZE_MAX when the file ends first.  A newline belongs to the field: some
 * vendors write real line breaks inside qualifiers instead of the mark. */
static size_t scan_qualified(const struct parser *ps, size_t pos,
			     struct span *sp, size_t *nl)
{
	const unsigned char *u = ps->u;
	size_t len = ps->len;

	sp->a = pos;
	sp->flags = 0;
	for (;;) {
		while (pos < len && !ps->qual_stop[u[pos]])
			pos++;
		if (pos >= len)
			return SIZE_MAX;
		if (u[pos] == '\n') {
			(*nl)++;
			pos++;
		} else if (u[pos] == '\r') {
			sp->flags |= F_CR;
			pos++;
		} else if (at(ps, pos, &ps->q)) {
			if (!at(ps, pos + ps->q.n, &ps->q))
				break;
			sp->flags |= F_DQ;
			pos += 2 * ps->q.n;
		} else if (at(ps, pos, &ps->m)) {
			sp->flags |= F_MARK;
			pos += ps->m.n;
		} else {
			if (u[pos] == '\0')
				sp->flags |= F_NUL;
			pos++;
		}
	}
	sp->b = pos;
	return pos + ps->q.n;
}

/* Scan one row starting at pos into spans (at most keep of them; the rest are
 * only counted, so that the error can say how many there were). */
static void scan_row(struct parser *ps, size_t pos, size_t keep, struct row *r)
{
	const unsigned char *u = ps->u;
	size_t len = ps->len;

	memset(r, 0, sizeof(*r));
	for (;;) {
		struct span sp = { pos, pos, 0 };
		bool eol = false;
		size_t after = 0;

		if (at(ps, pos, &ps->q)) {
			pos = scan_qualified(ps, pos + ps->q.n, &sp, &r->nl);
			if (pos == SIZE_MAX) {
				r->status = ROW_UNTERMINATED;
				r->bad_field = r->nfound + 1;
				r->stop = len;
				return;
			}
			if (at_eol(ps, pos, &after)) {
				eol = true;
			} else if (at(ps, pos, &ps->s)) {
				pos += ps->s.n;
			} else {
				r->status = ROW_JUNK;
				r->bad_field = r->nfound + 1;
				/* The closing qualifier may open the next row. */
				r->stop = pos - ps->q.n;
				return;
			}
		} else {
			for (;;) {
				while (pos < len && !ps->bare_stop[u[pos]])
					pos++;
				if (pos >= len || u[pos] == '\n') {
					sp.b = pos;
					if (sp.b > sp.a && u[sp.b - 1] == '\r')
						sp.b--;
					after = pos < len ? pos + 1 : len;
					eol = true;
					break;
				}
				if (at(ps, pos, &ps->s)) {
					sp.b = pos;
					pos += ps->s.n;
					break;
				}
				if (at(ps, pos, &ps->m)) {
					sp.flags |= F_MARK;
					pos += ps->m.n;
				} else {
					if (u[pos] == '\0')
						sp.flags |= F_NUL;
					pos++;
				}
			}
		}
		if (sp.b - sp.a > SW_DAT_MAX_FIELD_BYTES && !r->long_field)
			r->long_field = r->nfound + 1;
		if ((sp.flags & F_NUL) && !r->nul_field)
			r->nul_field = r->nfound + 1;
		if (r->nfound < keep)
			ps->spans[r->nfound] = sp;
		r->nfound++;
		if (eol) {
			r->end = after;
			return;
		}
	}
}

/* Undo the file's escapes: doubled qualifiers, the newline mark, CRLF. */
static void unescape(struct parser *ps, const struct span *sp, struct sw_buf *out)
{
	size_t i = sp->a, run = sp->a;

	while (i < sp->b) {
		size_t skip;
		const void *rep;
		size_t nrep;

		if ((sp->flags & F_DQ) && at(ps, i, &ps->q)) {
			/* The scan only lets doubled qualifiers through. */
			rep = ps->q.b;
			nrep = ps->q.n;
			skip = 2 * ps->q.n;
		} else if ((sp->flags & F_MARK) && at(ps, i, &ps->m)) {
			rep = "\n";
			nrep = 1;
			skip = ps->m.n;
		} else if ((sp->flags & F_CR) && ps->u[i] == '\r' &&
			   i + 1 < sp->b && ps->u[i + 1] == '\n') {
			rep = "";
			nrep = 0;
			skip = 1;
		} else {
			i++;
			continue;
		}
		sw_buf_add(out, ps->u + run, i - run);
		sw_buf_add(out, rep, nrep);
		i += skip;
		run = i;
	}
	sw_buf_add(out, ps->u + run, sp->b - run);
}

/* Append the value of sp to out as UTF-8, without its NUL. */
static void decode_into(struct parser *ps, const struct span *sp,
			struct sw_buf *out, size_t field)
{
	if (!sp->flags && ps->d->encoding == SW_DAT_UTF8 && !ps->mixed) {
		sw_buf_add(out, ps->u + sp->a, sp->b - sp->a);
		return;
	}
	if (ps->d->encoding == SW_DAT_UTF8 && !ps->mixed) {
		unescape(ps, sp, out);
		return;
	}
	if (ps->mixed) {
		/* Valid UTF-8 stays; a stray byte of another encoding is read
		 * as Windows-1252, and the row says which value held it. */
		const char *src = (const char *)ps->u + sp->a;
		size_t n = sp->b - sp->a;
		if (sp->flags) {
			sw_buf_reset(&ps->tmp);
			unescape(ps, sp, &ps->tmp);
			src = ps->tmp.data;
			n = ps->tmp.len;
		}
		if (sw_extract_mixed_to_utf8(out, src, n)) {
			if (!ps->bad_field)
				ps->bad_field = field + 1;
			ps->nbad_fields++;
		}
		return;
	}
	const char *src = (const char *)ps->u + sp->a;
	size_t n = sp->b - sp->a;
	if (sp->flags) {
		sw_buf_reset(&ps->tmp);
		unescape(ps, sp, &ps->tmp);
		src = ps->tmp.data;
		n = ps->tmp.len;
	}
	sw_latin1_to_utf8(out, src, n);
}

/* The values of a good row, packed into one arena allocation: the pointer
 * array, then the strings.  Per-value allocations would each be rounded up
 * to 16 bytes, a third more memory for typical short metadata. */
static char **decode_row(struct parser *ps)
{
	size_t n = ps->d->nfields;
	size_t *ends = ps->ends;

	sw_buf_reset(&ps->row);
	ps->bad_field = ps->nbad_fields = 0;
	for (size_t i = 0; i < n; i++) {
		decode_into(ps, &ps->spans[i], &ps->row, i);
		sw_buf_addc(&ps->row, '\0');
		ends[i] = ps->row.len;
	}
	char **values = sw_arena_alloc(&ps->d->arena,
				       n * sizeof(char *) + ps->row.len);
	char *text = (char *)(values + n);
	memcpy(text, ps->row.data, ps->row.len);
	for (size_t i = 0, start = 0; i < n; start = ends[i], i++)
		values[i] = ends[i] - start == 1 ? ps->empty : text + start;
	return values;
}

/* Store a marker for the caller as UTF-8 (at most three bytes and a NUL). */
static bool tok_to_utf8(struct parser *ps, const struct tok *t, char out[4])
{
	const char *src = (const char *)t->b;
	size_t n = t->n;

	if (ps->d->encoding == SW_DAT_LATIN1) {
		sw_buf_reset(&ps->tmp);
		sw_latin1_to_utf8(&ps->tmp, src, n);
		src = ps->tmp.data;
		n = ps->tmp.len;
	}
	if (n > 3)
		return false;
	memcpy(out, src, n);
	out[n] = '\0';
	return true;
}

/* Position of the first t in [a, b), or SIZE_MAX. */
static size_t find_tok(const struct parser *ps, size_t a, size_t b,
		       const struct tok *t)
{
	while (a < b) {
		const unsigned char *hit = memchr(ps->u + a, t->b[0], b - a);
		if (!hit)
			break;
		a = (size_t)(hit - ps->u);
		if (b - a >= t->n && memcmp(hit, t->b, t->n) == 0)
			return a;
		a++;
	}
	return SIZE_MAX;
}

/* The Latin-1 byte b as the file writes it: itself, or its UTF-8 pair. */
static void set_latin1(const struct parser *ps, struct tok *t, unsigned char b)
{
	if (ps->d->encoding == SW_DAT_LATIN1) {
		t->b[0] = b;
		t->n = 1;
	} else {
		t->b[0] = (unsigned char)(0xc0 | (b >> 6));
		t->b[1] = (unsigned char)(0x80 | (b & 0x3f));
		t->n = 2;
	}
}

/* The qualifier a line starting at pos opens with, if any. */
static void detect_qualifier(const struct parser *ps, size_t pos, struct tok *q)
{
	struct tok thorn;

	set_latin1(ps, &thorn, 0xfe);
	q->n = 0;
	if (at(ps, pos, &thorn))
		*q = thorn;
	else if (pos < ps->len && ps->u[pos] == '"')
		set_tok(q, "\"", 1);
}

static size_t skip_blank_lines(const struct parser *ps, size_t pos, size_t *line)
{
	size_t after;

	while (pos < ps->len && at_eol(ps, pos, &after)) {
		pos = after;
		(*line)++;
	}
	return pos;
}

static void build_tables(struct parser *ps)
{
	memset(ps->qual_stop, 0, sizeof(ps->qual_stop));
	memset(ps->bare_stop, 0, sizeof(ps->bare_stop));
	ps->qual_stop['\n'] = ps->qual_stop['\r'] = ps->qual_stop['\0'] = true;
	ps->bare_stop['\n'] = ps->bare_stop['\0'] = true;
	if (ps->q.n)
		ps->qual_stop[ps->q.b[0]] = true;
	ps->qual_stop[ps->m.b[0]] = ps->bare_stop[ps->m.b[0]] = true;
	if (ps->s.n)
		ps->bare_stop[ps->s.b[0]] = true;
}

/* Find the qualifier and separator from the header row at pos.  A qualified
 * header gives the separator exactly: the character after the first field's
 * closing qualifier.  An unqualified one is searched for the usual separators
 * in order of how strongly they suggest a load file. */
static int detect_profile(struct parser *ps, size_t pos, size_t line,
			  struct sw_err *err)
{
	struct sw_dat *d = ps->d;
	struct span sp;
	size_t nl = 0, after;

	set_latin1(ps, &ps->m, 0xae);
	detect_qualifier(ps, pos, &ps->q);
	ps->s.n = 0;
	build_tables(ps);

	if (ps->q.n) {
		size_t c = scan_qualified(ps, pos + ps->q.n, &sp, &nl);
		if (c == SIZE_MAX)
			return sw_err_set(err, SW_EINPUT,
					  "header row, line %zu: unterminated qualifier in field 1",
					  line);
		if (!at_eol(ps, c, &after)) {
			size_t n = 1;
			unsigned char lead = ps->u[c];
			if (d->encoding == SW_DAT_UTF8 && lead >= 0x80)
				n = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
			/* A letter, digit or space there is text the
			 * qualifier should have enclosed, not a separator. */
			bool alnum = (lead >= '0' && lead <= '9') ||
				     ((lead | 0x20) >= 'a' && (lead | 0x20) <= 'z');
			if (alnum || lead == ' ' || lead == '\r' || lead == '\0' ||
			    n > ps->len - c)
				return sw_err_set(err, SW_EINPUT,
						  "header row, line %zu: text after the closing qualifier of field 1",
						  line);
			set_tok(&ps->s, (const char *)ps->u + c, n);
		}
	} else {
		const unsigned char *nlp = memchr(ps->u + pos, '\n', ps->len - pos);
		size_t end = nlp ? (size_t)(nlp - ps->u) : ps->len;
		struct tok cand[5];
		set_tok(&cand[0], "\x14", 1);
		set_latin1(ps, &cand[1], 0xb6);
		set_tok(&cand[2], "\t", 1);
		set_tok(&cand[3], "|", 1);
		set_tok(&cand[4], ",", 1);
		for (size_t i = 0; i < SW_ARRAY_LEN(cand) && !ps->s.n; i++)
			if (find_tok(ps, pos, end, &cand[i]) != SIZE_MAX)
				ps->s = cand[i];
		/* Some exports leave the header bare but qualify every value. */
		size_t next_line = line + 1;
		size_t first = skip_blank_lines(ps, nlp ? end + 1 : end, &next_line);
		detect_qualifier(ps, first, &ps->q);
	}
	if (!ps->s.n)
		set_tok(&ps->s, "\x14", 1); /* one column: the default is moot */
	if (!tok_to_utf8(ps, &ps->s, d->separator))
		return sw_err_set(err, SW_EINPUT,
				  "header row, line %zu: the separator is not a character sworn supports",
				  line);
	if (!tok_to_utf8(ps, &ps->q, d->qualifier))
		SW_BUG("qualifier longer than three bytes");
	build_tables(ps);
	return 0;
}

/* Why row r is bad, into msg; false when it is good. */
static bool row_message(const struct parser *ps, size_t line,
			const struct row *r, char msg[160])
{
	if (r->status == ROW_UNTERMINATED)
		snprintf(msg, 160, "line %zu: unterminated qualifier in field %zu",
			 line, r->bad_field);
	else if (r->status == ROW_JUNK)
		snprintf(msg, 160,
			 "line %zu: text after the closing qualifier of field %zu",
			 line, r->bad_field);
	else if (r->nfound != ps->d->nfields)
		snprintf(msg, 160, "line %zu: expected %zu fields, found %zu",
			 line, ps->d->nfields, r->nfound);
	else if (r->long_field)
		snprintf(msg, 160,
			 "line %zu: field %zu is longer than %zu bytes (limit SW_DAT_MAX_FIELD_BYTES)",
			 line, r->long_field, SW_DAT_MAX_FIELD_BYTES);
	else if (r->nul_field)
		snprintf(msg, 160, "line %zu: NUL byte in field %zu",
			 line, r->nul_field);
	else
		return false;
	return true;
}

static int parse_header(struct parser *ps, size_t pos, size_t line,
			struct row *r, struct sw_err *err)
{
	struct sw_dat *d = ps->d;
	char msg[160];

	scan_row(ps, pos, SW_DAT_MAX_FIELDS + 1, r);
	if (r->nfound > SW_DAT_MAX_FIELDS)
		return sw_err_set(err, SW_ELIMIT,
				  "header row has more than %d fields (limit SW_DAT_MAX_FIELDS)",
				  SW_DAT_MAX_FIELDS);
	d->nfields = r->nfound;
	if (row_message(ps, line, r, msg))
		return sw_err_set(err, r->status == ROW_OK && r->long_field
				  ? SW_ELIMIT : SW_EINPUT, "header row, %s", msg);

	/* Names are compared, never shown back verbatim: trim and upper-case
	 * them once here (ASCII only; UTF-8 stays intact). */
	d->names = decode_row(ps);
	for (size_t i = 0; i < d->nfields; i++) {
		char *name = sw_trim(d->names[i]);
		for (char *c = name; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 'a' + 'A');
	}
	return 0;
}

/* The start of the line after the one holding stop, counting into *line
 * every newline from pos on. */
static size_t past_line(const struct parser *ps, size_t pos, size_t stop,
			size_t *line)
{
	for (;;) {
		const unsigned char *nl = memchr(ps->u + pos, '\n', ps->len - pos);
		if (!nl)
			return ps->len;
		pos = (size_t)(nl - ps->u) + 1;
		(*line)++;
		if (pos > stop)
			return pos;
	}
}

static int parse_rows(struct parser *ps, size_t pos, size_t line,
		      struct sw_err *err)
{
	struct sw_dat *d = ps->d;
	size_t cap = 0;
	size_t guard = 0; /* end of the furthest scan that went wrong */
	struct row r;
	char msg[160];

	for (;;) {
		pos = skip_blank_lines(ps, pos, &line);
		if (pos >= ps->len)
			return 0;
		if (d->nrecords >= SW_DAT_MAX_RECORDS)
			return sw_err_set(err, SW_ELIMIT,
					  "more than %d rows (limit SW_DAT_MAX_RECORDS)",
					  SW_DAT_MAX_RECORDS);
		scan_row(ps, pos, d->nfields, &r);

		d->records = sw_xgrow(d->records, &cap, d->nrecords + 1,
				      sizeof(*d->records));
		struct sw_dat_record *rec = &d->records[d->nrecords++];
		rec->line = line > INT_MAX ? INT_MAX : (int)line;
		rec->values = NULL;
		rec->error = NULL;
		rec->warning = NULL;
		if (row_message(ps, line, &r, msg)) {
			rec->error = sw_arena_strdup(&d->arena, msg);
			d->nbad++;
		} else {
			rec->values = decode_row(ps);
			if (ps->bad_field) {
				char w[200];
				const char *name = d->names[ps->bad_field - 1];
				if (ps->nbad_fields == 1)
					snprintf(w, sizeof(w),
						 "line %zu: %.64s is not valid UTF-8: read as Windows-1252",
						 line, name[0] ? name : "a field");
				else
					snprintf(w, sizeof(w),
						 "line %zu: %zu fields (the first %.64s) are not valid UTF-8:"
						 " their other bytes read as Windows-1252",
						 line, ps->nbad_fields, name[0] ? name : "unnamed");
				rec->warning = sw_arena_strdup(&d->arena, w);
				d->ncp1252++;
			}
		}

		if (r.status == ROW_OK) {
			pos = r.end;
			line += 1 + r.nl;
		} else if (pos >= guard) {
			/* A stray qualifier may have swallowed the rows that
			 * follow: start again on the next line. */
			guard = r.stop;
			pos = past_line(ps, pos, pos, &line);
		} else {
			/* Already inside a region scanned once: go past this
			 * scan's stop so that no byte is read more than twice
			 * and hostile files stay linear. */
			pos = past_line(ps, pos, r.stop, &line);
			if (r.stop > guard)
				guard = r.stop;
		}
	}
}

size_t sw__extract_arena_block(size_t len)
{
	if (len < 4096)
		return 4096;
	return len < 256 * 1024 ? len : 256 * 1024;
}

int sw_dat_parse(struct sw_dat *out, const char *data, size_t len,
		 struct sw_err *err)
{
	struct parser ps;
	struct row r;
	size_t pos = 0, line = 1;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&ps, 0, sizeof(ps));
	sw_arena_init(&out->arena, sw__extract_arena_block(len));
	sw_buf_init(&ps.tmp);
	sw_buf_init(&ps.row);
	ps.d = out;

	if (len > SW_DAT_MAX_BYTES) {
		rc = sw_err_set(err, SW_ELIMIT,
				"load file is larger than %zu bytes (limit SW_DAT_MAX_BYTES)",
				SW_DAT_MAX_BYTES);
		goto cleanup;
	}
	ps.u = (const unsigned char *)data;
	ps.len = len;
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		out->bom = true;
		ps.u += 3;
		ps.len -= 3;
	}
	/* A UTF-16 BOM, or UTF-16 without one: a NUL in one of the first two
	 * bytes, as every ASCII character has.  Relativity and other review
	 * platforms export "Unicode" load files as UTF-16 LE with a BOM; they
	 * are parsed as the UTF-8 they convert to. */
	if (!out->bom && ps.len >= 2 &&
	    ((ps.u[0] == 0xff && ps.u[1] == 0xfe) || (ps.u[0] == 0xfe && ps.u[1] == 0xff) ||
	     ps.u[0] == 0 || ps.u[1] == 0)) {
		struct sw_buf u = SW_BUF_INIT;
		if (!sw_extract_utf16_to_utf8(&u, data, len)) {
			rc = sw_err_set(err, SW_EINPUT, "not a load file: binary data (NUL bytes)");
			goto cleanup;
		}
		/* The converted text is a shorter or equal UTF-8 file except
		 * for rare scripts; its limit was checked on the original. */
		sw_dat_release(out);
		rc = u.len > SW_DAT_MAX_BYTES || (u.len >= 2 && (u.data[0] == 0 || u.data[1] == 0))
			     ? sw_err_set(err, SW_EINPUT, "not a load file: binary data (NUL bytes)")
			     : sw_dat_parse(out, u.data, u.len, err);
		sw_buf_release(&u);
		if (rc == 0)
			out->encoding = SW_DAT_UTF16;
		free(ps.spans);
		sw_buf_release(&ps.tmp);
		sw_buf_release(&ps.row);
		return rc;
	}
	/* Lines ended by CR alone (classic Mac OS, some old exporters): with
	 * no LF anywhere the whole file would be one header row and yield no
	 * document.  Each CR becomes an LF in a copy, parsed as such; line
	 * numbers stay the same. */
	if (ps.len && !memchr(ps.u, '\n', ps.len) && memchr(ps.u, '\r', ps.len)) {
		char *copy = sw_xmalloc(len);
		for (size_t i = 0; i < len; i++)
			copy[i] = data[i] == '\r' ? '\n' : data[i];
		sw_dat_release(out);
		rc = sw_dat_parse(out, copy, len, err);
		free(copy);
		if (rc == 0)
			out->cr_line_ends = true;
		free(ps.spans);
		sw_buf_release(&ps.tmp);
		sw_buf_release(&ps.row);
		return rc;
	}
	/* One Windows-1252 byte must not make a UTF-8 file Latin-1 (its þ
	 * qualifiers unseen, every "Renée" mojibake): a file mostly of valid
	 * multi-byte sequences is UTF-8, its stray bytes read value by value. */
	if (sw_utf8_valid((const char *)ps.u, ps.len)) {
		out->encoding = SW_DAT_UTF8;
	} else {
		size_t multi, invalid;
		sw_extract_utf8_census((const char *)ps.u, ps.len, &multi, &invalid);
		ps.mixed = multi > 0 && multi >= invalid;
		out->encoding = ps.mixed ? SW_DAT_UTF8 : SW_DAT_LATIN1;
	}

	pos = skip_blank_lines(&ps, 0, &line);
	if (pos >= ps.len) {
		rc = sw_err_set(err, SW_EINPUT, "no header row");
		goto cleanup;
	}
	ps.spans = sw_xmalloc((SW_DAT_MAX_FIELDS + 1) * sizeof(*ps.spans));
	ps.ends = sw_xmalloc(SW_DAT_MAX_FIELDS * sizeof(*ps.ends));
	ps.empty = sw_arena_strndup(&out->arena, "", 0);
	rc = detect_profile(&ps, pos, line, err);
	if (rc)
		goto cleanup;
	rc = parse_header(&ps, pos, line, &r, err);
	if (rc)
		goto cleanup;
	rc = parse_rows(&ps, r.end, line + 1 + r.nl, err);

cleanup:
	free(ps.spans);
	free(ps.ends);
	sw_buf_release(&ps.tmp);
	sw_buf_release(&ps.row);
	if (rc)
		sw_dat_release(out);
	return rc;
}

void sw_dat_release(struct sw_dat *d)
{
	if (!d)
		return;
	free(d->records);
	sw_arena_release(&d->arena);
	memset(d, 0, sizeof(*d));
}

int sw_dat_field(const struct sw_dat *d, const char *name)
{
	if (!d || !name)
		return -1;
	for (size_t i = 0; i < d->nfields; i++)
		if (sw_streq_ci(d->names[i], name))
			return (int)i;
	return -1;
}
