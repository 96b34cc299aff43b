/*
 * bates_ref.c - Bates references as a user writes them ("ABC-0001234",
 * "ABC 12-15"), for the queries.  Parsing a produced number, its canonical
 * prefix and finding a page's stamp are extract/'s (bates.c).
 */
#include <inttypes.h>
#include <string.h>

#include "record/record_int.h"

/* An ASCII class, not <ctype.h>'s: the locale must not change a reference. */
static bool in_range(unsigned char c, char lo, char hi)
{
	return c >= (unsigned char)lo && c <= (unsigned char)hi;
}

static bool is_digit(unsigned char c)
{
	return in_range(c, '0', '9');
}

static bool is_alpha(unsigned char c)
{
	return in_range(c, 'A', 'Z') || in_range(c, 'a', 'z');
}

static size_t skip_blanks_at(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* One Bates number at s[*i]: a prefix of letters, digits and separators
 * that starts with a letter, then a counter of SW_BATES_REF_MIN_DIGITS or
 * more digits that is not followed by a letter or digit.  Fills the
 * canonical prefix, the number and its width and advances *i.  An
 * attachment suffix ("_003") is passed over. */
static bool ref_number(char *prefix, uint64_t *num, int *width, const char *s,
		       size_t *i, size_t len)
{
	size_t k = *i, ds = SIZE_MAX, de = 0;
	if (k >= len || !is_alpha((unsigned char)s[k]))
		return false;
	/* The counter is the first run of enough digits that ends the token
	 * (the prefix may hold digits: "AB1-000123"). */
	while (k < len) {
		unsigned char c = (unsigned char)s[k];
		if (is_digit(c)) {
			size_t e = k;
			while (e < len && is_digit((unsigned char)s[e]))
				e++;
			bool ends = e == len || !(is_alpha((unsigned char)s[e]) ||
						 is_digit((unsigned char)s[e]));
			/* "ACME000001_003": the counter, then a suffix. */
			if (ends && e - k >= SW_BATES_REF_MIN_DIGITS) {
				ds = k;
				de = e;
				break;
			}
			k = e;
		} else if (is_alpha(c) || c == '-' || c == '_' || c == '.') {
			k++;
		} else if (c == ' ' && k + 1 < len && is_digit((unsigned char)s[k + 1])) {
			k++; /* "BLT 000006": one space before the counter */
		} else {
			return false;
		}
	}
	if (ds == SIZE_MAX)
		return false;
	/* As sw_bates_parse splits a long run: its last digits count. */
	if (de - ds > SW_BATES_MAX_DIGITS)
		ds = de - SW_BATES_MAX_DIGITS;
	if (ds - *i >= SW_BATES_CANON_MAX)
		return false;
	sw_bates_canon_prefix(prefix, s + *i, ds - *i);
	if (!prefix[0] || !sw_parse_u64(s + ds, de - ds, num))
		return false;
	for (const char *c = prefix; *c; c++)
		if (!in_range((unsigned char)*c, 'A', 'Z') && !is_digit((unsigned char)*c))
			return false;
	*width = (int)(de - ds);
	if (de + 1 < len && (s[de] == '_' || s[de] == '.') && is_digit((unsigned char)s[de + 1])) {
		de++;
		while (de < len && is_digit((unsigned char)s[de]))
			de++;
	}
	*i = de;
	return true;
}

/* A range separator at s[i]: a hyphen, an en or em dash, "to", "through" or
 * "thru", with blanks around.  Returns where the end starts, or 0. */
static size_t range_sep(const char *s, size_t i, size_t len)
{
	static const char *const words[] = { "\xe2\x80\x93", "\xe2\x80\x94", "-", "to ",
					     "through ", "thru ", "TO ", "THROUGH ", "THRU " };
	size_t k = skip_blanks_at(s, i, len);
	for (size_t w = 0; w < SW_ARRAY_LEN(words); w++) {
		size_t n = strlen(words[w]);
		if (len - k >= n && memcmp(s + k, words[w], n) == 0)
			return skip_blanks_at(s, k + n, len);
	}
	return 0;
}

int sw_bates_ref_parse(struct sw_bates_ref *out, const char *s, size_t len)
{
	size_t i = 0;
	memset(out, 0, sizeof(*out));
	if (!s || len > 4 * SW_BATES_TEXT_MAX)
		return SW_EINPUT;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	i = skip_blanks_at(s, 0, len);
	if (!ref_number(out->prefix, &out->first, &out->width, s, &i, len))
		goto bad;
	out->last = out->first;
	if (i == len)
		return 0;
	size_t e = range_sep(s, i, len);
	if (e == 0 || e >= len)
		goto bad;
	if (is_digit((unsigned char)s[e])) {
		/* "BLT-000007-000012", or its last digits: "BLT-000007-12". */
		size_t de = e;
		uint64_t tail;
		while (de < len && is_digit((unsigned char)s[de]))
			de++;
		if (de != len || de - e > 18 || !sw_parse_u64(s + e, de - e, &tail))
			goto bad;
		if ((int)(de - e) < out->width) {
			uint64_t scale = 1;
			for (size_t k = 0; k < de - e; k++)
				scale *= 10;
			tail += out->first - out->first % scale;
		}
		out->last = tail;
	} else {
		char prefix[SW_BATES_CANON_MAX];
		int width;
		size_t k = e;
		if (!ref_number(prefix, &out->last, &width, s, &k, len) || k != len ||
		    strcmp(prefix, out->prefix) != 0)
			goto bad;
	}
	if (out->last < out->first)
		goto bad;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return SW_EINPUT;
}
