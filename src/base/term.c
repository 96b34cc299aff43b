/* term.c - outside text made safe to show a person (base.h, "terminal").
 *
 * A terminal obeys C0 controls (ESC starts every CSI, OSC and DCS
 * sequence; CR and BS move the cursor back over what was written), C1
 * controls written as UTF-8 (U+009B is CSI on many terminals) and raw
 * 0x80-0x9F bytes (the same, on 8-bit terminals).  All of them, DEL and
 * any byte that is not part of valid UTF-8 become U+FFFD; newline and tab
 * are kept.  The decoder is strict (no overlong forms, no surrogates, no
 * code point past U+10FFFF): a lenient one would let C1 through in an
 * overlong disguise. */
#include <stdarg.h>
#include <string.h>

#include "base/base.h"

#define REPLACEMENT "\xef\xbf\xbd"

/* The length of the valid UTF-8 sequence at s (at most len bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		n = 2, v = c & 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3, v = c & 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return n;
}

static bool is_control(uint32_t cp)
{
	return (cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F ||
	       (cp >= 0x80 && cp <= 0x9F);
}

void sw_term_clean(struct sw_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0; /* bytes [run, i) are clean and not yet copied */
	while (i < len) {
		uint32_t cp = 0;
		size_t n = utf8_seq(p + i, len - i, &cp);
		if (n && !is_control(cp)) {
			i += n;
			continue;
		}
		sw_buf_add(out, s + run, i - run);
		sw_buf_adds(out, REPLACEMENT);
		i += n ? n : 1;
		run = i;
	}
	sw_buf_add(out, s + run, i - run);
}

void sw_term_write(FILE *f, const char *s, size_t len)
{
	struct sw_buf b;
	sw_buf_init(&b);
	sw_term_clean(&b, s, len);
	if (b.len)
		fwrite(b.data, 1, b.len, f);
	sw_buf_release(&b);
}

void sw_term_puts(FILE *f, const char *s)
{
	if (s)
		sw_term_write(f, s, strlen(s));
}

void sw_term_vprintf(FILE *f, const char *fmt, va_list ap)
{
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_vaddf(&b, fmt, ap);
	sw_term_write(f, b.data, b.len);
	sw_buf_release(&b);
}

void sw_term_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sw_term_vprintf(f, fmt, ap);
	va_end(ap);
}

/* How many bytes at the end of s start a UTF-8 sequence that is not
 * finished (a lead byte and fewer continuation bytes than it needs). */
static size_t unfinished_tail(const unsigned char *s, size_t len)
{
	for (size_t back = 1; back <= 3 && back <= len; back++) {
		unsigned char c = s[len - back];
		if ((c & 0xC0) == 0x80)
			continue;
		size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
			    : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
		return need > back ? back : 0;
	}
	return 0;
}

void sw_term_stream_write(struct sw_term_stream *s, FILE *f, const char *p, size_t len)
{
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_add(&b, s->held, s->n);
	sw_buf_add(&b, p, len);
	size_t keep = unfinished_tail((const unsigned char *)b.data, b.len);
	memcpy(s->held, b.data + b.len - keep, keep);
	s->n = keep;
	sw_term_write(f, b.data, b.len - keep);
	sw_buf_release(&b);
}

void sw_term_stream_end(struct sw_term_stream *s, FILE *f)
{
	sw_term_write(f, s->held, s->n);
	s->n = 0;
}
