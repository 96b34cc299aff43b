/* quote.c - finding a quotation in a text as lawyers alter quotations and
 * as PDFs, e-mails and transcripts break lines: the calls the rest of
 * verify/ makes, which compile the quotation and cut the text into words
 * (quote_pattern.c), search (quote_find.c) and describe an alteration
 * (alter.c), and the excerpt a reason quotes. */
#include <stdlib.h>
#include <string.h>

#include "verify/quote_int.h"

/* An alteration of quote's match in text, described, or NULL: rev the one
 * that adds or drops a negation (when the quotation is in text only so),
 * else its first bracketed substitution. */
static char *alteration(const char *quote, size_t qlen, const char *text, size_t len,
			const struct sw__verify_skip *skip, size_t nskip, bool rev,
			size_t *start, size_t *end)
{
	struct sw__verify_pattern p;
	struct sw__words w;
	sw__verify_pattern_init(&p, quote, qlen);
	char *why = NULL;
	if (p.nwords) {
		sw__verify_words_init(&w, text, len, skip, nskip);
		size_t ws, we;
		struct sw__verify_alter a = { 0 };
		bool ok;
		if (rev)
			ok = !sw__verify_pattern_find(&p, &w, 0, w.n, &ws, &we) &&
			     sw__verify_pattern_find_alter(&p, &w, 0, w.n, &ws, &we, &a, NULL);
		else
			ok = sw__verify_pattern_find_sub(&p, &w, 0, w.n, &ws, &we, &a);
		if (ok && a.found) {
			why = sw__verify_alter_describe(&p, &w, text, &a);
			if (start)
				*start = w.map[w.w[ws].s];
			if (end)
				*end = sw__verify_words_end(&w, we - 1);
		}
		sw__verify_words_release(&w);
	}
	sw__verify_pattern_release(&p);
	return why;
}

char *sw__verify_quote_reversed(const char *quote, size_t qlen, const char *text, size_t len,
				const struct sw__verify_skip *skip, size_t nskip, size_t *start,
				size_t *end)
{
	return alteration(quote, qlen, text, len, skip, nskip, true, start, end);
}

char *sw__verify_quote_note(const char *quote, size_t qlen, const char *text, size_t len,
			    const struct sw__verify_skip *skip, size_t nskip)
{
	return alteration(quote, qlen, text, len, skip, nskip, false, NULL, NULL);
}

bool sw__verify_quote_find(const char *quote, size_t qlen, const char *text, size_t len,
			   const struct sw__verify_skip *skip, size_t nskip, size_t *start,
			   size_t *end)
{
	struct sw__verify_pattern p;
	struct sw__words w;
	size_t ws, we;
	sw__verify_pattern_init(&p, quote, qlen);
	bool found = false;
	if (p.nwords) {
		sw__verify_words_init(&w, text, len, skip, nskip);
		found = sw__verify_pattern_find(&p, &w, 0, w.n, &ws, &we);
		if (found) {
			if (start)
				*start = w.map[w.w[ws].s];
			if (end)
				*end = sw__verify_words_end(&w, we - 1);
		}
		sw__verify_words_release(&w);
	}
	sw__verify_pattern_release(&p);
	return found;
}

bool sw_verify_quote_in(const char *quote, size_t qlen, const char *text, size_t len,
			size_t *start, size_t *end)
{
	return sw__verify_quote_find(quote, qlen, text, len, NULL, 0, start, end);
}

char *sw__verify_excerpt(const char *text, size_t len, size_t start, size_t end)
{
	const size_t ctx = 40;
	if (start > len)
		start = len;
	if (end > len)
		end = len;
	if (end < start)
		end = start;
	size_t s = start > ctx ? start - ctx : 0;
	size_t e = end + ctx < len ? end + ctx : len;
	if (e - s > SW_VERIFY_EXCERPT) {
		s = start;
		e = s + SW_VERIFY_EXCERPT < len ? s + SW_VERIFY_EXCERPT : len;
	}
	s = sw_utf8_cut(text, len, s);
	while (e < len && ((unsigned char)text[e] & 0xC0) == 0x80)
		e++;
	struct sw_buf b = SW_BUF_INIT;
	if (s > 0)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	bool space = false;
	for (size_t i = s; i < e; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			space = b.len > 0;
			continue;
		}
		if (space)
			sw_buf_addc(&b, ' ');
		space = false;
		sw_buf_addc(&b, (char)c);
	}
	if (e < len)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	return sw_buf_detach(&b, NULL);
}
