/*
 * claims_quote.c - quotations: straight and curly, nested, block quotations
 * (Markdown "> " lines or an indented paragraph), with the Bluebook
 * alterations ([t]he, . . ., …) listed so the verifier can compare the
 * quotation with its source without being fooled by them.
 *
 * Quotations do not move the scan past them: the citations inside a
 * quotation are claims too.
 */
#include <string.h>

#include "claims/claims_int.h"

static bool para_break(const struct sw__claims_scan *sc, size_t i)
{
	return sw__claims_at(sc, i) == '\n' && sw__claims_at(sc, sw__claims_blanks(sc, i + 1)) == '\n';
}

/* Alterations and nesting inside [s, e): fields of b.  buf keeps the list
 * until the claim is pushed. */
static void alterations(const struct sw__claims_scan *sc, size_t s, size_t e,
			struct sw__claims_builder *b, struct sw_buf *buf)
{
	bool nested = false;
	for (size_t i = s; i < e; i++) {
		int c = sw__claims_at(sc, i);
		size_t a_e = 0;
		if (c == '[') {
			size_t k = i + 1;
			while (k < e && k < i + 40 && sw__claims_at(sc, k) != ']' && sw__claims_at(sc, k) != '[')
				k++;
			if (k < e && sw__claims_at(sc, k) == ']')
				a_e = k + 1;
		} else if (c == '.' && sw__claims_lit(sc, i, ". . .")) {
			a_e = i + 5;
			if (sw__claims_lit(sc, a_e, " ."))
				a_e += 2;
		} else if (c == '.' && sw__claims_lit(sc, i, "...")) {
			a_e = i + 3;
		} else if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 && sw__claims_at(sc, i + 2) == 0xA6) {
			a_e = i + 3; /* … */
		} else if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 && sw__claims_at(sc, i + 2) == 0x98) {
			nested = true; /* ‘ */
		} else if (c == '\'' && i > s && sw__claims_space_len(sc, i - 1)) {
			nested = true;
		}
		if (a_e) {
			if (buf->len)
				sw_buf_adds(buf, "; ");
			sw_buf_add(buf, sc->t + i, a_e - i);
			i = a_e - 1;
		}
	}
	if (buf->len)
		sw__claims_field(b, "alterations", buf->data, buf->len);
	if (nested)
		sw__claims_fieldz(b, "nested", "true");
}

void sw__claims_try_quote(struct sw__claims_scan *sc, size_t p, size_t q)
{
	bool curly = q - p == 3;
	size_t close = 0, close_e = 0;
	if (!curly) {
		/* a straight quote opens after a space or an opening mark */
		int before = p ? sw__claims_at(sc, p - 1) : ' ';
		if (!(before == ' ' || before == '\n' || before == '\t' || before == '(' ||
		      before == '[' || before == 0x94 /* after an em dash */ || p == 0) ||
		    sw__claims_space_len(sc, q) || sw__claims_at(sc, q) == '"')
			return;
	}
	int depth = 1;
	for (size_t i = q; i < sc->n && i < q + SW__CLAIMS_QUOTE_MAX; i++) {
		int c = sw__claims_at(sc, i);
		if (para_break(sc, i))
			return;
		if (curly && c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80) {
			if (sw__claims_at(sc, i + 2) == 0x9C)
				depth++;
			else if (sw__claims_at(sc, i + 2) == 0x9D && --depth == 0) {
				close = i;
				close_e = i + 3;
				break;
			}
		} else if (!curly && c == '"') {
			close = i;
			close_e = i + 1;
			break;
		}
	}
	if (!close || close == q)
		return;
	/* at least one letter or digit inside */
	bool word = false;
	for (size_t i = q; i < close && !word; i++)
		word = sw__claims_alnum(sw__claims_at(sc, i));
	if (!word)
		return;
	struct sw__claims_builder b;
	struct sw_buf buf = SW_BUF_INIT;
	sw__claims_begin(&b, SW_CLAIM_QUOTE, SW_FORM_FULL, p, close_e);
	b.cite_start = q;
	b.cite_end = close;
	sw__claims_field(&b, "quoted", sc->t + q, close - q);
	alterations(sc, q, close, &b, &buf);
	sw__claims_push(sc, &b);
	sw_buf_release(&buf);
}

/* The line starting at i: its end (at '\n' or the end). */
static size_t line_end(const struct sw__claims_scan *sc, size_t i)
{
	const char *nl = memchr(sc->t + i, '\n', sc->n - i);
	return nl ? (size_t)(nl - sc->t) : sc->n;
}

static size_t indent(const struct sw__claims_scan *sc, size_t i)
{
	size_t k = i;
	while (k < sc->n && (sw__claims_at(sc, k) == ' ' || sw__claims_at(sc, k) == '\t'))
		k++;
	if (sw__claims_at(sc, i) == '\t' || k - i >= 4)
		return k;
	return 0;
}

size_t sw__claims_try_block(struct sw__claims_scan *sc, size_t p)
{
	size_t k = sw__claims_blanks(sc, p);
	bool md = sw__claims_at(sc, k) == '>';
	/* an indented block starts a paragraph: a blank line (or the text's
	 * start) before it */
	if (!md) {
		if (!indent(sc, p))
			return 0;
		if (p > 0) {
			size_t b = p - 1; /* the '\n' before this line */
			while (b > 0 && (sw__claims_at(sc, b - 1) == ' ' || sw__claims_at(sc, b - 1) == '\t' ||
					 sw__claims_at(sc, b - 1) == '\r'))
				b--;
			if (b == 0 || sw__claims_at(sc, b - 1) != '\n')
				return 0;
		}
	}
	/* the first line of a Markdown block only: later lines are part of it */
	if (md && p > 0) {
		size_t prev = p - 1, ps = prev;
		while (ps > 0 && sw__claims_at(sc, ps - 1) != '\n')
			ps--;
		if (sw__claims_at(sc, sw__claims_blanks(sc, ps)) == '>' && ps < prev)
			return 0;
	}
	struct sw_buf text = SW_BUF_INIT, alt = SW_BUF_INIT;
	size_t i = p, last = p, first = 0;
	while (i < sc->n && i < p + SW__CLAIMS_BLOCK_MAX) {
		size_t s = sw__claims_blanks(sc, i), e = line_end(sc, i);
		if (md) {
			if (sw__claims_at(sc, s) != '>')
				break;
			s++;
			if (sw__claims_at(sc, s) == ' ')
				s++;
		} else {
			if (s == e || !indent(sc, i))
				break;
		}
		if (!first)
			first = s;
		if (text.len)
			sw_buf_addc(&text, ' ');
		sw_buf_add(&text, sc->t + s, e - s);
		last = e;
		if (e >= sc->n)
			break;
		i = e + 1;
	}
	size_t words = 0;
	for (size_t w = 0; w < text.len; w++)
		if (sw__claims_alnum((unsigned char)text.data[w]) &&
		    (w == 0 || text.data[w - 1] == ' '))
			words++;
	while (last > first && (sw__claims_at(sc, last - 1) == ' ' || sw__claims_at(sc, last - 1) == '\r'))
		last--;
	/* an indented line or two of a list is not a quotation: ask for a few
	 * words at least */
	if (first && last > first && words >= (md ? 1 : 6)) {
		struct sw__claims_builder b;
		sw__claims_begin(&b, SW_CLAIM_QUOTE, SW_FORM_FULL, first, last);
		sw__claims_field(&b, "quoted", text.data, text.len);
		sw__claims_fieldz(&b, "block", md ? "markdown" : "indented");
		alterations(sc, first, last, &b, &alt);
		sw__claims_push(sc, &b);
	}
	sw_buf_release(&text);
	sw_buf_release(&alt);
	return 0;
}
