/*
 * transcript.c - recognising a page of a deposition or hearing transcript
 * and the byte range of each numbered line, so that a cite such as
 * "Smith Dep. 30:4-18" can be resolved to the words it points at.
 *
 * The page must open with its number ("Page 12", "Page 12 of 80", "- 12 -",
 * a bare "12" alone on the first non-empty line, or a running header that
 * ends in "Page 12") and go on with lines numbered from 1.  Anything looser
 * would take numbered lists and pleading paper for transcripts.  A text
 * without form feeds may hold several such pages, each after the footer
 * of the one before; a video deposition's time stamps are margin, not
 * words.
 */
#include <string.h>

#include "extract/extract_int.h"

/* Fewer numbered lines than this is a list, not a transcript page. */
#define TR_MIN_LINES 5
/* Footer and margin lines ("Lakeside Court Reporting, LLC") looked past
 * for the next page's header in a text without form feeds. */
#define TR_FOOTER_LINES 3
/* Transcript pages read from one page of text (a text without form feeds). */
#define TR_MAX_SECTIONS 100000
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

static bool is_page_word(const char *p, size_t i, size_t e)
{
	return e - i >= 4 && (p[i] | 0x20) == 'p' && (p[i + 1] | 0x20) == 'a' &&
	       (p[i + 2] | 0x20) == 'g' && (p[i + 3] | 0x20) == 'e';
}

/* Whether p[i..e) is nothing, or " of 80" (a total after the page number). */
static bool of_total(const char *p, size_t i, size_t e)
{
	uint64_t total = 0;
	if (i == e)
		return true;
	size_t j = skip_blanks(p, i, e);
	if (j == i || e - j < 3 || (p[j] | 0x20) != 'o' || (p[j + 1] | 0x20) != 'f' ||
	    !is_blank((unsigned char)p[j + 2]))
		return false;
	j = skip_blanks(p, j + 2, e);
	return read_number(p, &j, e, TR_PAGE_DIGITS, &total) && j == e;
}

static uint32_t parse_header(const char *p, size_t s, size_t e);

/* A running header that carries a caption before its page number:
 * "SMITH, THOMAS   03-02-2022        Page 12" (two blanks or more before
 * "Page").  0 when the line is not one. */
static uint32_t captioned_header(const char *p, size_t s, size_t e)
{
	while (e > s && is_blank((unsigned char)p[e - 1]))
		e--;
	for (size_t i = e; i > s + 2; i--) {
		if (!is_page_word(p, i - 1, e) || !is_blank((unsigned char)p[i - 2]) ||
		    !is_blank((unsigned char)p[i - 3]))
			continue;
		size_t before = skip_blanks(p, s, i - 1);
		if (before >= i - 3)
			return 0; /* nothing before it: parse_header's case */
		return parse_header(p, i - 1, e);
	}
	return 0;
}

/* The page number from a header line: "Page 12" (any case), "Page 12 of
 * 80", "- 12 -" or "12", with blanks around.  0 when the line is not a
 * header. */
static uint32_t parse_header(const char *p, size_t s, size_t e)
{
	uint64_t v = 0;
	size_t i;

	while (e > s && is_blank((unsigned char)p[e - 1]))
		e--;
	i = skip_blanks(p, s, e);
	if (is_page_word(p, i, e)) {
		size_t j = i + 4;
		if (j >= e || !is_blank((unsigned char)p[j]))
			return 0;
		i = skip_blanks(p, j, e);
		if (!read_number(p, &i, e, TR_PAGE_DIGITS, &v) || !of_total(p, i, e))
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
	/* A video deposition's time stamp in the margin, "10:14:32", is not
	 * the witness's words. */
	if (e - i > 9 && is_digit((unsigned char)p[i]) && is_digit((unsigned char)p[i + 1]) &&
	    p[i + 2] == ':' && is_digit((unsigned char)p[i + 3]) &&
	    is_digit((unsigned char)p[i + 4]) && p[i + 5] == ':' &&
	    is_digit((unsigned char)p[i + 6]) && is_digit((unsigned char)p[i + 7]) &&
	    (p[i + 8] == ' ' || p[i + 8] == '\t')) {
		i += 8;
		while (i < e && (p[i] == ' ' || p[i] == '\t'))
			i++;
	}
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

/* The numbered lines of one transcript page from text[*i]: into found
 * (room for SW_TR_MAX_LINE_NO), stopping at the first other line, which
 * *i is left at. */
static size_t read_lines(struct sw_tr_line *found, uint32_t page, const char *text, size_t *i,
			 size_t len)
{
	size_t nfound = 0;
	uint32_t prev = 0;
	while (*i < len) {
		size_t s = *i, e = line_end(text, *i, len), ts, te;
		uint32_t no;
		if (skip_blanks(text, s, e) == e) {
			*i = e < len ? e + 1 : len;
			continue;
		}
		/* Text extraction drops a numbered line that has no text
		 * often enough that one missing number is forgiven; the
		 * first line must still be 1. */
		if (!parse_numbered(text, s, e, &no, &ts, &te) || no <= prev || no > prev + 2 ||
		    (prev == 0 && no != 1))
			break;
		if (nfound >= SW_TR_MAX_LINE_NO)
			SW_BUG("more numbered lines than line numbers");
		found[nfound++] = (struct sw_tr_line){ .page = page, .line = no, .start = ts,
						       .end = te };
		prev = no;
		*i = e < len ? e + 1 : len;
	}
	return nfound;
}

/* The next non-empty line from *i: its range, advancing *i past it.
 * false at the end of the text. */
static bool next_line(const char *text, size_t *i, size_t len, size_t *s, size_t *e)
{
	while (*i < len) {
		*s = *i;
		*e = line_end(text, *i, len);
		*i = *e < len ? *e + 1 : len;
		if (skip_blanks(text, *s, *e) != *e)
			return true;
	}
	return false;
}

static uint32_t header_of(const char *p, size_t s, size_t e)
{
	uint32_t page = parse_header(p, s, e);
	return page ? page : captioned_header(p, s, e);
}

size_t sw_transcript_page(uint32_t *page_no, struct sw_tr_line **lines,
			  size_t *n, size_t *cap, const char *text, size_t len)
{
	/* Line numbers rise strictly within 1..SW_TR_MAX_LINE_NO, so this
	 * holds every line a page can have, and nothing is appended to the
	 * caller's array until a page is known to be a transcript page. */
	struct sw_tr_line found[SW_TR_MAX_LINE_NO];
	size_t total = 0, i = 0, s, e;
	uint32_t prev_page = 0;

	*page_no = 0;
	if (!text)
		return 0;
	/* The first page's header is the first non-empty line. */
	if (!next_line(text, &i, len, &s, &e))
		return 0;
	uint32_t page = header_of(text, s, e);
	for (size_t sections = 0; page != 0 && sections < TR_MAX_SECTIONS; sections++) {
		size_t nfound = read_lines(found, page, text, &i, len);
		if (nfound < TR_MIN_LINES || page <= prev_page)
			break;
		*lines = sw_xgrow(*lines, cap, *n + nfound, sizeof(**lines));
		memcpy(*lines + *n, found, nfound * sizeof(found[0]));
		*n += nfound;
		total += nfound;
		if (*page_no == 0)
			*page_no = page;
		prev_page = page;
		/* A text without form feeds: the next page's header after the
		 * footer and margin lines. */
		page = 0;
		for (int k = 0; k <= TR_FOOTER_LINES && page == 0; k++) {
			if (!next_line(text, &i, len, &s, &e))
				break;
			page = header_of(text, s, e);
		}
	}
	return total;
}
