/* text.c - text files as the world writes them: UTF-8 with or without a
 * BOM, UTF-16 from review platforms, Windows-1252, a sequence cut short at
 * the end; and text (and Markdown, read as text for evidence) as pages split
 * on form feeds. */
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

int sw_extract_decode(struct sw_buf *out, bool *latin1, bool *truncated,
		      const char *data, size_t len, struct sw_err *err)
{
	*latin1 = false;
	*truncated = false;
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
		*truncated = true;
	} else {
		sw_latin1_to_utf8(out, data, len);
		*latin1 = true;
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
	bool latin1, truncated;
	struct sw_buf t = SW_BUF_INIT;
	int rc = sw_extract_decode(&t, &latin1, &truncated, data, len, err);
	if (rc == 0) {
		size_t pos = 0, start, n;
		while (sw_extract_ff_page(t.data, t.len, &pos, &start, &n)) {
			sw_buf_add(&out->text, t.data ? t.data + start : "", n);
			sw_extract_page(out);
		}
		if (latin1)
			sw__extract_warn(out, "not valid UTF-8: read as Windows-1252");
	}
	sw_buf_release(&t);
	return rc;
}
