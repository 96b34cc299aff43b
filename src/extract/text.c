/* text.c - text files as the world writes them: UTF-8 with or without a
 * BOM, UTF-16 from review platforms, Windows-1252, a sequence cut short at
 * the end; and text (and Markdown, read as text for evidence) as pages split
 * on form feeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

/* Whether len bytes end in a UTF-8 sequence cut short, and the rest is
 * valid UTF-8: a lead byte followed by too few continuation bytes.  A lone
 * lead byte after pure ASCII is as likely a Windows-1252 letter ("caf\xe9"),
 * so it counts as cut only when the text before it holds other multi-byte
 * characters. */
static bool utf8_cut_at_end(const unsigned char *s, size_t len, size_t *valid)
{
	for (size_t tail = 1; tail <= 3 && tail <= len; tail++) {
		unsigned char lead = s[len - tail];
		if ((lead & 0xc0) == 0x80)
			continue; /* a continuation byte: look further back */
		size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		if (lead < 0xc2 || lead > 0xf4 || need <= tail)
			return false;
		if (!sw_utf8_valid((const char *)s, len - tail))
			return false;
		bool multibyte_before = false;
		for (size_t i = 0; i < len - tail && !multibyte_before; i++)
			multibyte_before = s[i] >= 0x80;
		if (tail == 1 && !multibyte_before)
			return false;
		*valid = len - tail;
		return true;
	}
	return false;
}

static void put_utf8(struct sw_buf *out, uint32_t c)
{
	char b[4];
	size_t n;
	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	sw_buf_add(out, b, n);
}

bool sw_extract_utf16_to_utf8(struct sw_buf *out, const char *data, size_t len)
{
	const unsigned char *u = (const unsigned char *)data;
	bool le;
	size_t i = 0;
	if (len >= 2 && u[0] == 0xff && u[1] == 0xfe) {
		le = true;
		i = 2;
	} else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff) {
		le = false;
		i = 2;
	} else if (len >= 4 && u[0] && !u[1] && u[2] && !u[3]) {
		le = true; /* "B\0E\0": ASCII in UTF-16 LE without a mark */
	} else if (len >= 4 && !u[0] && u[1] && !u[2] && u[3]) {
		le = false;
	} else {
		return false;
	}
	sw_buf_reset(out);
	sw_buf_grow(out, len + len / 2);
	for (; i + 1 < len; i += 2) {
		uint32_t c = le ? (uint32_t)(u[i] | u[i + 1] << 8) : (uint32_t)(u[i] << 8 | u[i + 1]);
		if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
			uint32_t d = le ? (uint32_t)(u[i + 2] | u[i + 3] << 8)
					: (uint32_t)(u[i + 2] << 8 | u[i + 3]);
			if (d >= 0xdc00 && d < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
				i += 2;
			} else {
				c = 0xfffd;
			}
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		put_utf8(out, c);
	}
	if (i < len) /* an odd last byte: half a character */
		put_utf8(out, 0xfffd);
	return true;
}

/* The length of the valid UTF-8 sequence at p (n bytes left), or 0: no
 * overlong forms, surrogates or code points past U+10FFFF. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	size_t need = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < need || (p[1] & 0xc0) != 0x80)
		return 0;
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
		return 0;
	for (size_t k = 2; k < need; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return need;
}

size_t sw_extract_mixed_to_utf8(struct sw_buf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0, bad = 0;
	while (i < len) {
		size_t k = u[i] < 0x80 ? 1 : utf8_seq(u + i, len - i);
		if (k) {
			i += k;
			continue;
		}
		sw_buf_add(out, s + run, i - run);
		sw_latin1_to_utf8(out, s + i, 1);
		bad++;
		run = ++i;
	}
	sw_buf_add(out, s + run, len - run);
	return bad;
}

void sw_extract_utf8_census(const char *s, size_t len, size_t *multibyte, size_t *invalid)
{
	const unsigned char *u = (const unsigned char *)s;
	*multibyte = *invalid = 0;
	for (size_t i = 0; i < len;) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = utf8_seq(u + i, len - i);
		if (k) {
			(*multibyte)++;
			i += k;
		} else {
			(*invalid)++;
			i++;
		}
	}
}

/* Decode line by line what is not all valid UTF-8: a line that is valid
 * stays as it is, and within another only the bytes that are not part of a
 * valid sequence are read as Windows-1252 (one such byte in a UTF-8 file
 * must not turn every "Renée" into "RenÃ©e"). */
static void decode_mixed(struct sw_buf *out, struct sw_decoded *d, const char *data,
			 size_t len)
{
	size_t pos = 0, line = 1;
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) + 1 : len;
		size_t bad = sw_extract_mixed_to_utf8(out, data + pos, end - pos);
		if (bad) {
			if (!d->cp1252_lines)
				d->first_line = line;
			d->cp1252_lines++;
			d->cp1252_bytes += bad;
		}
		pos = end;
		line++;
	}
}

/* Bytes no text holds: C0 controls other than tab, line feed, carriage
 * return and form feed, and DEL. */
static bool control_byte(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f;
}

/* Why bytes without a NUL are still not text, or NULL: more than a
 * sixteenth control bytes (random bytes hold a ninth), or nine tenths bytes
 * that are not UTF-8 (even an 8-bit code page's prose has its spaces and
 * punctuation in ASCII). */
static const char *not_text(const char *data, size_t len, const struct sw_decoded *d,
			    char *why, size_t whysz)
{
	const unsigned char *u = (const unsigned char *)data;
	size_t ctl = 0;
	for (size_t i = 0; i < len; i++)
		ctl += control_byte(u[i]);
	if (len && ctl * 16 > len) {
		snprintf(why, whysz, "binary data (%zu%% control bytes), not text",
			 ctl * 100 / len);
		return why;
	}
	if (len >= 16 && d->cp1252_bytes * 10 > len * 9) {
		snprintf(why, whysz, "binary data (%zu%% bytes that are not UTF-8), not text",
			 d->cp1252_bytes * 100 / len);
		return why;
	}
	return NULL;
}

void sw_extract_decoded_note(char *buf, size_t n, const struct sw_decoded *d)
{
	if (d->cp1252_lines == 1)
		snprintf(buf, n, "line %zu is not valid UTF-8: read as Windows-1252", d->first_line);
	else
		snprintf(buf, n, "%zu lines are not valid UTF-8, the first line %zu:"
			 " their other bytes read as Windows-1252", d->cp1252_lines, d->first_line);
}

int sw_extract_decode(struct sw_buf *out, bool *latin1, bool *truncated,
		      const char *data, size_t len, struct sw_err *err)
{
	struct sw_decoded d;
	int rc = sw_extract_decode_text(out, &d, data, len, err);
	*latin1 = d.cp1252_lines > 0;
	*truncated = d.truncated;
	return rc;
}

int sw_extract_decode_text(struct sw_buf *out, struct sw_decoded *d, const char *data,
			   size_t len, struct sw_err *err)
{
	memset(d, 0, sizeof(*d));
	sw_buf_reset(out);
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		data += 3;
		len -= 3;
	} else {
		/* Review platforms export extracted text as UTF-16 LE as often
		 * as UTF-8; the BOM, or the NULs of ASCII, say which. */
		struct sw_buf u = SW_BUF_INIT;
		if (sw_extract_utf16_to_utf8(&u, data, len)) {
			bool ok = !memchr(u.data, '\0', u.len);
			if (ok)
				sw_buf_add(out, u.data, u.len);
			sw_buf_release(&u);
			if (!ok)
				return sw_err_set(err, SW_EINPUT, "binary data (NUL bytes), not text");
			return 0;
		}
	}
	if (memchr(data, '\0', len))
		return sw_err_set(err, SW_EINPUT, "binary data (NUL bytes), not text");
	size_t valid = 0;
	if (sw_utf8_valid(data, len)) {
		sw_buf_add(out, data, len);
	} else if (utf8_cut_at_end((const unsigned char *)data, len, &valid)) {
		sw_buf_add(out, data, valid);
		d->truncated = true;
	} else {
		decode_mixed(out, d, data, len);
	}
	char why[96];
	if (not_text(data, len, d, why, sizeof(why))) {
		sw_buf_reset(out);
		return sw_err_set(err, SW_EINPUT, "%s", why);
	}
	return 0;
}

bool sw_extract_ff_page(const char *text, size_t len, size_t *pos, size_t *start,
			size_t *n)
{
	size_t s = *pos;
	if (s > len || (s == len && s > 0))
		return false; /* done, or a final form feed: no empty page */
	const char *ff = s < len ? memchr(text + s, '\f', len - s) : NULL;
	size_t e = ff ? (size_t)(ff - text) : len;
	*start = s;
	*n = e - s;
	*pos = ff ? e + 1 : len + 1;
	return true;
}

int sw__extract_text(struct sw_extract *out, const char *data, size_t len,
		     const struct sw_extract_opts *opts, struct sw_err *err)
{
	(void)opts;
	struct sw_decoded d;
	struct sw_buf t = SW_BUF_INIT;
	int rc = sw_extract_decode_text(&t, &d, data, len, err);
	if (rc == 0) {
		size_t pos = 0, start, n;
		while (sw_extract_ff_page(t.data, t.len, &pos, &start, &n)) {
			sw_buf_add(&out->text, t.data ? t.data + start : "", n);
			sw_extract_page(out);
		}
		if (d.cp1252_lines) {
			char note[128];
			sw_extract_decoded_note(note, sizeof(note), &d);
			sw__extract_warn(out, "%s", note);
		}
	}
	sw_buf_release(&t);
	return rc;
}
