/*
 * transcript.c - recognising a page of a deposition or hearing transcript
 * and the byte range of each numbered line, so that a cite such as
 * "Smith Dep. 30:4-18" can be resolved to the words it points at.
 *
 * The page must open with its number ("Page 12", "- 12 -" or a bare "12"
 * alone on the first non-empty line) and go on with lines numbered from 1.
 * Anything looser would take numbered lists and pleading paper for
 * transcripts.
 */
#include <string.h>

#include "record/record_int.h"

/* Fewer numbered lines than this is a list, not a transcript page. */
#define TR_MIN_LINES 5
/* Page numbers are read from at most this many digits, so "Page
 * 99999999999999999999" cannot overflow anything; SW_TR_MAX_PAGE_NO bounds
 * the value. */
#define TR_PAGE_DIGITS 6

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static size_t skip_blanks(const char *p, size_t i, size_t end)
{
	while (i < end && is_blank((unsigned char)p[i]))
		i++;
	return i;
}

/* A run of 1..maxdigits digits at p[*i] as a number, advancing *i; false when
 * there is none or it is longer (a longer run is never a page or line
 * number we accept, so it need not be read). */
static bool read_number(const char *p, size_t *i, size_t end, size_t maxdigits,
			uint64_t *out)
{
	size_t s = *i, e = s;
	while (e < end && is_digit((unsigned char)p[e]) && e - s <= maxdigits)
		e++;
	if (e == s || e - s > maxdigits)
		return false;
	if (!sw_parse_u64(p + s, e - s, out))
		return false;
	*i = e;
	return true;
}

/* The page number from a header line: "Page 12" (any case), "- 12 -" or
 * "12", with blanks around.  0 when the line is not a header. */
static uint32_t parse_header(const char *p, size_t s, size_t e)
{
	uint64_t v = 0;
	size_t i;

	while (e > s && is_blank((unsigned char)p[e - 1]))
		e--;
	i = skip_blanks(p, s, e);
	if (e - i >= 4 && (p[i] | 0x20) == 'p' && (p[i + 1] | 0x20) == 'a' &&
	    (p[i + 2] | 0x20) == 'g' && (p[i + 3] | 0x20) == 'e') {
		size_t j = i + 4;
		if (j >= e || !is_blank((unsigned char)p[j]))
			return 0;
		i = skip_blanks(p, j, e);
		if (!read_number(p, &i, e, TR_PAGE_DIGITS, &v) || i != e)
			return 0;
	} else if (i < e && p[i] == '-') {
		i = skip_blanks(p, i + 1, e);
		if (!read_number(p, &i, e, TR_PAGE_DIGITS, &v))
			return 0;
		i = skip_blanks(p, i, e);
		if (i + 1 != e || p[i] != '-')
			return 0;
	} else if (!read_number(p, &i, e, TR_PAGE_DIGITS, &v) || i != e) {
		return 0;
	}
	if (v == 0 || v > SW_TR_MAX_PAGE_NO)
		return 0;
	return (uint32_t)v;
}

/* A numbered line: blanks, a number 1..SW_TR_MAX_LINE_NO, then a space or tab
 * and the text, or nothing (a blank numbered line).  Fills the number and the
 * text's range, which excludes the number's spacing and a final '\r'. */
static bool parse_numbered(const char *p, size_t s, size_t e, uint32_t *no,
			   size_t *ts, size_t *te)
{
	uint64_t v = 0;
	size_t i;

	if (e > s && p[e - 1] == '\r')
		e--;
	i = skip_blanks(p, s, e);
	if (!read_number(p, &i, e, 2, &v) || v == 0 || v > SW_TR_MAX_LINE_NO)
		return false;
	if (i < e && p[i] != ' ' && p[i] != '\t')
		return false;
	while (i < e && (p[i] == ' ' || p[i] == '\t'))
		i++;
	*no = (uint32_t)v;
	*ts = i;
	*te = e;
	return true;
}

static size_t line_end(const char *p, size_t i, size_t len)
{
	const char *nl = memchr(p + i, '\n', len - i);
	return nl ? (size_t)(nl - p) : len;
}

size_t sw_transcript_page(uint32_t *page_no, struct sw_tr_line **lines,
			  size_t *n, size_t *cap, const char *text, size_t len)
{
	/* Line numbers rise strictly within 1..SW_TR_MAX_LINE_NO, so this
	 * holds every line a page can have, and nothing is appended to the
	 * caller's array until the page is known to be a transcript page. */
	struct sw_tr_line found[SW_TR_MAX_LINE_NO];
	size_t nfound = 0, i = 0;
	uint32_t page = 0, prev = 0;

	*page_no = 0;
	if (!text)
		return 0;
	while (i < len && page == 0) {
		size_t s = i, e = line_end(text, i, len);
		i = e < len ? e + 1 : len;
		if (skip_blanks(text, s, e) == e)
			continue;
		page = parse_header(text, s, e);
		if (page == 0)
			return 0;
	}
	while (i < len && page != 0) {
		size_t s = i, e = line_end(text, i, len), ts, te;
		uint32_t no;
		i = e < len ? e + 1 : len;
		if (skip_blanks(text, s, e) == e)
			continue;
		/* Text extraction drops a numbered line that has no text
		 * often enough that one missing number is forgiven; the
		 * first line must still be 1. */
		if (!parse_numbered(text, s, e, &no, &ts, &te) || no <= prev ||
		    no > prev + 2 || (prev == 0 && no != 1))
			break;
		if (nfound >= SW_ARRAY_LEN(found))
			SW_BUG("more numbered lines than line numbers");
		found[nfound++] = (struct sw_tr_line){ .page = page, .line = no,
						       .start = ts, .end = te };
		prev = no;
	}
	if (nfound < TR_MIN_LINES)
		return 0;
	*lines = sw_xgrow(*lines, cap, *n + nfound, sizeof(**lines));
	memcpy(*lines + *n, found, nfound * sizeof(found[0]));
	*n += nfound;
	*page_no = page;
	return nfound;
}
