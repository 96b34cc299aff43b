/* fields_date.c - a date as load files and e-mail headers write it, made
 * YYYY-MM-DD so that it sorts and compares as text.
 *
 * Vendors write dates as their review platform exports them: "03/15/2021",
 * "3/15/21", "2021-03-15T10:42:00Z", "20210315", "15-Mar-2021", "March 15,
 * 2021", "Mon, 15 Mar 2021 10:42:00 -0500" (RFC 5322, as e-mail keeps it),
 * often with a time after the date.  Numbers separated by '/', '-' or '.'
 * with the year last are month first (the US order every platform
 * exports) unless the first cannot be a month ("15/03/2021").  A two-digit
 * year is 1970-2069.  What follows the date (a time, a zone) is not read;
 * anything that leaves the date in doubt ("00/00/0000", "2021", "Q1 2021")
 * is not a date, and the value as written is kept either way. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "record/record_int.h"

static const char *const months[] = { "jan", "feb", "mar", "apr", "may", "jun",
	"jul", "aug", "sep", "oct", "nov", "dec" };

/* The month a word names ("Mar", "March", "Sept"), or 0. */
static int month_word(const char *w, size_t n)
{
	static const char *const full[] = { "january", "february", "march", "april", "may",
		"june", "july", "august", "september", "october", "november", "december" };
	if (n < 3)
		return 0;
	for (int i = 0; i < 12; i++) {
		if (n == 3 && strncasecmp(w, months[i], 3) == 0)
			return i + 1;
		if (n == strlen(full[i]) && strncasecmp(w, full[i], n) == 0)
			return i + 1;
	}
	if (n == 4 && strncasecmp(w, "sept", 4) == 0)
		return 9;
	return 0;
}

static bool is_weekday(const char *w, size_t n)
{
	static const char *const days[] = { "mon", "tue", "wed", "thu", "fri", "sat", "sun",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"tues", "thur", "thurs" };
	for (size_t i = 0; i < SW_ARRAY_LEN(days); i++)
		if (n == strlen(days[i]) && strncasecmp(w, days[i], n) == 0)
			return true;
	return false;
}

/* A token of the date: a run of digits or of letters. */
struct tok {
	const char *s;
	size_t n;
	bool digits;
	long v;       /* its value, for digits (at most 14 read) */
	char sep;     /* the separator before the next token: '/', '-', '.', ',', ' ' or 0 */
};

#define TOKS 8

/* Cut s into at most TOKS tokens; stops at the first byte that is none of
 * digits, letters, blanks and the separators.  Returns the count. */
static size_t cut(struct tok *t, const char *s, size_t len)
{
	size_t n = 0, i = 0;
	while (i < len && n < TOKS) {
		unsigned char c = (unsigned char)s[i];
		if (isdigit(c) || isalpha(c)) {
			struct tok *k = &t[n++];
			bool d = isdigit(c) != 0;
			size_t j = i;
			while (j < len &&
			       (d ? isdigit((unsigned char)s[j]) : isalpha((unsigned char)s[j])))
				j++;
			*k = (struct tok){ .s = s + i, .n = j - i, .digits = d };
			if (d && k->n <= 14)
				for (size_t x = i; x < j; x++)
					k->v = k->v * 10 + (s[x] - '0');
			i = j;
			/* The separator: one of / - . , with blanks around it. */
			char sep = 0;
			while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '/' ||
					   s[i] == '-' || s[i] == '.' || s[i] == ',')) {
				if (s[i] != ' ' && s[i] != '\t')
					sep = sep ? sep : s[i];
				else if (!sep)
					sep = ' ';
				i++;
			}
			k->sep = sep;
			continue;
		}
		if (c == ' ' || c == '\t' || c == ',') {
			i++;
			continue;
		}
		break;
	}
	return n;
}

static bool leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static bool put(char out[SW_DATE_LEN + 1], long y, long m, long d)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (y < 1800 || y > 2199 || m < 1 || m > 12 || d < 1)
		return false;
	if (d > mdays[m - 1] + (m == 2 && leap(y)))
		return false;
	snprintf(out, SW_DATE_LEN + 1, "%04d-%02d-%02d", (int)y % 10000, (int)m % 100,
		 (int)d % 100);
	return true;
}

static long year_of(const struct tok *t)
{
	if (t->n == 4)
		return t->v;
	if (t->n == 2)
		return t->v < 70 ? 2000 + t->v : 1900 + t->v;
	return -1;
}

static bool is_num(const struct tok *t, size_t lo, size_t hi)
{
	return t->digits && t->n >= lo && t->n <= hi;
}

bool sw_date_normalize(char out[SW_DATE_LEN + 1], const char *s, size_t len)
{
	struct tok t[TOKS];
	out[0] = '\0';
	if (len > 128)
		return false;
	size_t n = cut(t, s, len), i = 0;
	if (n && !t[0].digits && is_weekday(t[0].s, t[0].n))
		i++; /* "Mon, 15 Mar 2021" */
	if (i >= n)
		return false;
	const struct tok *a = &t[i], *b = i + 1 < n ? &t[i + 1] : NULL,
			 *c = i + 2 < n ? &t[i + 2] : NULL;
	/* 20210315, 20210315104200 */
	if (is_num(a, 8, 8) || is_num(a, 12, 14)) {
		long v = 0;
		for (size_t x = 0; x < 8; x++)
			v = v * 10 + (a->s[x] - '0');
		return put(out, v / 10000, v / 100 % 100, v % 100);
	}
	if (!b || !c)
		return false;
	bool dash = a->sep == '-' || a->sep == '/' || a->sep == '.';
	/* 2021-03-15, 2021/03/15, 2021-03-15T10:42 (the T starts a word) */
	if (is_num(a, 4, 4) && dash && is_num(b, 1, 2) && b->sep == a->sep && is_num(c, 1, 2))
		return put(out, a->v, b->v, c->v);
	/* 03/15/2021, 3/15/21, 15/03/2021 when 15 cannot be a month */
	if (is_num(a, 1, 2) && dash && is_num(b, 1, 2) && b->sep == a->sep &&
	    (is_num(c, 4, 4) || is_num(c, 2, 2))) {
		long m = a->v, d = b->v;
		if (m > 12 && d <= 12) {
			m = b->v;
			d = a->v;
		}
		return put(out, year_of(c), m, d);
	}
	/* 15-Mar-2021, 15 Mar 2021, 15 March 21 */
	if (is_num(a, 1, 2) && !b->digits && (is_num(c, 4, 4) || is_num(c, 2, 2))) {
		int m = month_word(b->s, b->n);
		return m && put(out, year_of(c), m, a->v);
	}
	/* March 15, 2021; Mar-15-2021 */
	if (!a->digits && is_num(b, 1, 2) && is_num(c, 4, 4)) {
		int m = month_word(a->s, a->n);
		return m && put(out, c->v, m, b->v);
	}
	return false;
}
