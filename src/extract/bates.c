/*
 * bates.c - Bates numbers: splitting one into prefix, counter and suffix the
 * way review platforms do (OpenText Axcelerate's rule), formatting its
 * neighbours, and finding the stamp on a page of produced text.
 */
#include <inttypes.h>
#include <string.h>

#include "extract/extract_int.h"

/* A stamp sits on a short line: its number, a legend and "Page 3 of 7" at
 * most; a longer line is not read further. */
#define STAMP_LINE_MAX_WORDS 16
/* How many non-empty lines at the top and at the bottom may hold a stamp. */
#define STAMP_EDGE_LINES 3
/* "ACME 0001234" is taken as one stamp only with this many digits, since
 * "ROOM 101" or "FORM 1040" are ordinary words beside numbers. */
#define STAMP_SPACED_MIN_DIGITS 6

struct span {
	size_t start, end;
};

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_upper(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_lower(unsigned char c)
{
	return c >= 'a' && c <= 'z';
}

int sw_bates_parse(struct sw_bates *out, const char *s, size_t len)
{
	size_t run_start = 0, run_len = 0, best_start = 0, best_len = 0;
	size_t space_at = SIZE_MAX;

	memset(out, 0, sizeof(*out));
	if (!s || len == 0 || len > SW_BATES_TEXT_MAX)
		return SW_EINPUT;
	/* One pass finds the digit runs; the sentinel at i == len closes the
	 * last run.  Ties go to the first run: in "ACME_000001_003" the
	 * attachment counter is the shorter one anyway. */
	for (size_t i = 0; i <= len; i++) {
		unsigned char c = i < len ? (unsigned char)s[i] : 0;
		if (i < len && (c < 0x20 || c == 0x7f))
			return SW_EINPUT;
		if (i < len && c == ' ') {
			if (space_at != SIZE_MAX)
				return SW_EINPUT;
			space_at = i;
		}
		if (i < len && is_digit(c)) {
			if (run_len++ == 0)
				run_start = i;
			continue;
		}
		if (run_len >= 3 && run_len > best_len) {
			best_start = run_start;
			best_len = run_len;
		}
		run_len = 0;
	}
	if (best_len == 0)
		return SW_EINPUT;
	/* The one space allowed is the separator of "ABC 0001234"; anywhere
	 * else it means two words, not one number. */
	if (space_at != SIZE_MAX && (space_at == 0 || space_at + 1 != best_start))
		return SW_EINPUT;

	size_t keep = best_len < SW_BATES_MAX_DIGITS ? best_len : SW_BATES_MAX_DIGITS;
	size_t num_start = best_start + best_len - keep;
	size_t suffix_start = best_start + best_len;
	if (num_start > sizeof(out->prefix) - 1 ||
	    len - suffix_start > sizeof(out->suffix) - 1)
		return SW_EINPUT;
	/* The prefix is stored and printed as text later; refuse bytes that
	 * are not UTF-8 here rather than in every consumer. */
	if (!sw_utf8_valid(s, len))
		return SW_EINPUT;
	if (!sw_parse_u64(s + num_start, keep, &out->number))
		SW_BUG("a run of %zu digits did not parse", keep);
	memcpy(out->prefix, s, num_start);
	memcpy(out->suffix, s + suffix_start, len - suffix_start);
	out->width = (int)keep;
	return 0;
}

int sw_bates_format(char *out, size_t outsz, const struct sw_bates *b,
		    uint64_t number)
{
	/* b may have been filled by hand; never trust its strings to be
	 * terminated or its width to be sane. */
	int width = b->width < 0 ? 0 : b->width > 20 ? 20 : b->width;
	int plen = (int)strnlen(b->prefix, sizeof(b->prefix) - 1);
	int slen = (int)strnlen(b->suffix, sizeof(b->suffix) - 1);

	return snprintf(out, outsz, "%.*s%0*" PRIu64 "%.*s", plen, b->prefix,
			width, number, slen, b->suffix);
}

/* ------------------------------------------------------- stamp detection */

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_line_end(char c)
{
	return c == '\n' || c == '\f';
}

static bool all_blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_blank((unsigned char)p[i]))
			return false;
	return true;
}

/* Words of a legend, and words that stand before numbers without being Bates
 * prefixes ("EXHIBIT 000123", "PAGE 0012"). */
static const char *const legend_words[] = {
	"CONFIDENTIAL", "HIGHLY", "RESTRICTED", "ATTORNEYS", "ATTORNEY",
	"ATTORNEYS\xe2\x80\x99", "EYES", "ONLY", "FOR", "COUNSEL", "OUTSIDE",
	"SUBJECT", "TO", "PROTECTIVE", "ORDER", "PRODUCED", "BY",
};
/* More words a stamp line may hold besides the number: the rest of the
 * legends vendors stamp ("CONFIDENTIAL TREATMENT REQUESTED", "AEO",
 * "PRIVILEGED"), a "Bates No." caption and "Page 3 of 7".  Compared without
 * regard to case, since OCR and vendors title-case legends as often. */
static const char *const stamp_words[] = {
	"CONFIDENTIAL", "HIGHLY", "RESTRICTED", "ATTORNEYS", "ATTORNEY", "ATTORNEYS'",
	"ATTORNEYS\xe2\x80\x99", "EYES", "ONLY", "FOR", "COUNSEL", "OUTSIDE",
	"SUBJECT", "TO", "PROTECTIVE", "ORDER", "PRODUCED", "BY", "AEO", "TREATMENT",
	"REQUESTED", "FOIA", "PRIVILEGED", "INFORMATION", "MATERIAL", "DESIGNATED",
	"CONFIDENTIALITY", "AND", "BATES", "NO", "PAGE", "OF", "PRODUCTION",
};
static const char *const not_prefixes[] = {
	"PAGE", "PAGES", "EXHIBIT", "EX", "NO", "CASE", "DOCKET", "DKT", "ECF",
	"DOC", "TEL", "FAX", "PHONE", "ID", "FY", "ISO", "SECTION", "SEC", "ART",
};

/* Whether len bytes at p are one of the words of list.  Legends are stamped
 * in capitals; matching "to" or "for" in any case would let prose through. */
static bool in_list(const char *const *list, size_t n, const char *p,
		    size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && memcmp(list[i], p, len) == 0)
			return true;
	return false;
}

static bool in_list_ci(const char *const *list, size_t n, const char *p,
		       size_t len)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (strlen(list[i]) != len)
			continue;
		while (k < len && (p[k] == list[i][k] ||
				   (is_lower((unsigned char)p[k]) && p[k] - 'a' + 'A' == list[i][k])))
			k++;
		if (k == len)
			return true;
	}
	return false;
}

/* Punctuation that wraps a stamp without being part of it: "(ACME000123)",
 * "ACME000123," and "ATTORNEYS'" (the apostrophe of the legend). */
static bool in_set(const char *set, char c)
{
	return c != '\0' && strchr(set, c) != NULL;
}

static struct span trim_word(const char *p, struct span w)
{
	while (w.start < w.end && in_set("([{\"'<", p[w.start]))
		w.start++;
	while (w.end > w.start && in_set(".,;:)]}\"'>", p[w.end - 1]))
		w.end--;
	return w;
}

/* Whether a word may stand on a stamp line beside the number: bare
 * punctuation ("-", an en dash, "|"), a legend word, or the numbers of
 * "Page 3 of 7".  Anything else ("Invoice", "See", a name) makes the line
 * text that merely contains a number. */
static bool stamp_line_word(const char *p, struct span w, bool paged)
{
	struct span t = trim_word(p, w);
	bool alnum = false, digits = t.end > t.start;
	for (size_t i = t.start; i < t.end; i++) {
		unsigned char c = (unsigned char)p[i];
		alnum = alnum || is_digit(c) || is_upper(c) || is_lower(c);
		digits = digits && is_digit(c);
	}
	if (!alnum)
		return true;
	if (digits)
		return paged;
	return in_list_ci(stamp_words, SW_ARRAY_LEN(stamp_words), p + t.start,
			  t.end - t.start);
}

static bool stamp_char(unsigned char c)
{
	return is_upper(c) || is_digit(c) || c == '-' || c == '_' || c == '.';
}

/* Whether a parsed token is a believable stamp rather than a year, a date, a
 * phone number, a statute or a docket number: an upper-case prefix that
 * starts with a letter and has at least two, made of stamp characters; a
 * counter of five digits or a zero-padded one of four ("FY2021" and
 * "ISO9001" are not stamps) from a run of at most SW_BATES_MAX_DIGITS (a
 * longer run is an account or reference number more often than a counter);
 * and no suffix but an attachment number ("_003"). */
static bool stamp_ok(const struct sw_bates *b)
{
	char letters[SW_BATES_PREFIX_MAX];
	size_t nletters = 0, plen = strlen(b->prefix);

	if (!is_upper((unsigned char)b->prefix[0]) ||
	    is_digit((unsigned char)b->prefix[plen - 1]))
		return false;
	for (const char *c = b->prefix; *c; c++) {
		unsigned char u = (unsigned char)*c;
		if (is_upper(u))
			letters[nletters++] = *c;
		else if (!stamp_char(u) && u != ' ')
			return false;
	}
	if (b->suffix[0] != '\0' &&
	    (!in_set("-_.", b->suffix[0]) || b->suffix[1] == '\0'))
		return false;
	for (const char *c = b->suffix + (b->suffix[0] != '\0'); *c; c++)
		if (!is_digit((unsigned char)*c))
			return false;
	if (nletters < 2)
		return false;
	if (in_list(not_prefixes, SW_ARRAY_LEN(not_prefixes), letters, nletters) ||
	    in_list(legend_words, SW_ARRAY_LEN(legend_words), letters, nletters))
		return false;
	if (b->width >= 5)
		return true;
	return b->width == 4 && b->number < 1000;
}

static bool all_upper(const char *p, struct span w)
{
	for (size_t i = w.start; i < w.end; i++)
		if (!is_upper((unsigned char)p[i]))
			return false;
	return w.end > w.start;
}

static bool all_digits(const char *p, struct span w)
{
	for (size_t i = w.start; i < w.end; i++)
		if (!is_digit((unsigned char)p[i]))
			return false;
	return w.end > w.start;
}

/* The next whitespace-separated word at or after *pos within line, or false
 * when none is left. */
static bool next_word(const char *p, struct span line, size_t *pos,
		      struct span *w)
{
	size_t i = *pos;
	while (i < line.end && is_blank((unsigned char)p[i]))
		i++;
	if (i >= line.end)
		return false;
	w->start = i;
	while (i < line.end && !is_blank((unsigned char)p[i]))
		i++;
	w->end = i;
	*pos = i;
	return true;
}

/* The rightmost stamp on a line (stamps sit in the corners, so the last one
 * is the footer's right-hand one), or false when the line has none or holds
 * anything besides the stamp and its legend: "Invoice INV-10236" or "See
 * ABC0001234" is text that names a number, not a stamp. */
static bool scan_line(struct sw_bates *out, struct span *tok, const char *p,
		      struct span line)
{
	struct span w, next;
	struct sw_bates b;
	size_t pos = line.start, words = 0;
	bool found = false, paged = false;

	while (next_word(p, line, &pos, &w)) {
		struct span t = trim_word(p, w);
		if (++words > STAMP_LINE_MAX_WORDS)
			return false;
		paged = paged || in_list_ci((const char *const[]){ "PAGE" }, 1, p + t.start,
					    t.end - t.start);
	}

	pos = line.start;
	while (next_word(p, line, &pos, &w)) {
		struct span t = trim_word(p, w);
		size_t after = pos;
		/* "ACME 0001234": a bare upper-case word, one space, and a
		 * long digit run make one stamp. */
		if (all_upper(p, t) && t.end == w.end && t.end - t.start >= 2 &&
		    next_word(p, line, &after, &next) && next.start == w.end + 1 &&
		    p[w.end] == ' ') {
			struct span d = trim_word(p, next);
			if (d.start == next.start && all_digits(p, d) &&
			    d.end - d.start >= STAMP_SPACED_MIN_DIGITS &&
			    sw_bates_parse(&b, p + t.start, d.end - t.start) == 0 &&
			    stamp_ok(&b)) {
				*out = b;
				*tok = (struct span){ t.start, d.end };
				found = true;
				pos = after;
				continue;
			}
		}
		if (sw_bates_parse(&b, p + t.start, t.end - t.start) == 0 &&
		    stamp_ok(&b)) {
			*out = b;
			*tok = t;
			found = true;
		}
	}
	if (!found)
		return false;
	/* Every other word must belong to the legend, or name the producing
	 * party as the prefix does ("ACME CONFIDENTIAL ACME0000123"). */
	char canon[SW_BATES_CANON_MAX];
	sw_bates_canon_prefix(canon, out->prefix, strlen(out->prefix));
	pos = line.start;
	while (next_word(p, line, &pos, &w)) {
		if (w.end <= tok->start || w.start >= tok->end) {
			struct span t = trim_word(p, w);
			bool party = t.end - t.start == strlen(canon) &&
				     in_list_ci((const char *const[]){ canon }, 1, p + t.start,
						t.end - t.start);
			if (!party && !stamp_line_word(p, w, paged))
				return false;
		} else if (w.start < tok->start || w.end > tok->end) {
			/* The word holds the stamp and more: only wrapping
			 * punctuation may be left over. */
			struct span t = trim_word(p, w);
			if (t.start < tok->start || t.end > tok->end)
				return false;
		}
	}
	return true;
}

/* Up to max non-empty lines from the top of the page, top first. */
static size_t first_lines(struct span *lines, size_t max, const char *p,
			  size_t len)
{
	size_t n = 0, i = 0;
	while (i < len && n < max) {
		size_t s = i;
		while (i < len && !is_line_end(p[i]))
			i++;
		if (!all_blank(p + s, i - s))
			lines[n++] = (struct span){ s, i };
		i++;
	}
	return n;
}

/* Up to max non-empty lines from the bottom of the page, bottom first. */
static size_t last_lines(struct span *lines, size_t max, const char *p,
			 size_t len)
{
	size_t n = 0, e = len;
	while (n < max) {
		size_t s = e;
		while (s > 0 && !is_line_end(p[s - 1]))
			s--;
		if (!all_blank(p + s, e - s))
			lines[n++] = (struct span){ s, e };
		if (s == 0)
			break;
		e = s - 1;
	}
	return n;
}

int sw_bates_find_stamp(struct sw_bates *out, size_t *start, size_t *end,
			const char *page, size_t len)
{
	struct span top[STAMP_EDGE_LINES], bottom[STAMP_EDGE_LINES];
	struct span order[2 * STAMP_EDGE_LINES], tok = { 0, 0 };
	size_t ntop, nbottom, norder = 0;

	memset(out, 0, sizeof(*out));
	*start = 0;
	*end = 0;
	if (!page || len == 0)
		return SW_ENOTFOUND;
	ntop = first_lines(top, STAMP_EDGE_LINES, page, len);
	nbottom = last_lines(bottom, STAMP_EDGE_LINES, page, len);
	/* The footer wins over the header: a header number is more often a
	 * document's own reference than the producing party's stamp.  A short
	 * page's lines are both top and bottom; look at each once. */
	for (size_t i = 0; i < nbottom; i++)
		order[norder++] = bottom[i];
	for (size_t i = 0; i < ntop; i++) {
		bool seen = false;
		for (size_t j = 0; j < nbottom; j++)
			seen = seen || bottom[j].start == top[i].start;
		if (!seen)
			order[norder++] = top[i];
	}
	for (size_t i = 0; i < norder; i++) {
		if (scan_line(out, &tok, page, order[i])) {
			*start = tok.start;
			*end = tok.end;
			return 0;
		}
	}
	memset(out, 0, sizeof(*out));
	return SW_ENOTFOUND;
}

/* ------------------------------------------------------ canonical form */

static bool canon_drop(char c)
{
	return c == '-' || c == '_' || c == ' ' || c == '.';
}

void sw_bates_canon_prefix(char *out, const char *prefix, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len && prefix[i] && n + 1 < SW_BATES_CANON_MAX; i++) {
		char c = prefix[i];
		if (canon_drop(c))
			continue;
		out[n++] = is_lower((unsigned char)c) ? (char)(c - 'a' + 'A') : c;
	}
	out[n] = '\0';
}
