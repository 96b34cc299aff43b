/*
 * claims_date.c - dates in the forms US legal writing uses, normalised to
 * ISO 8601 with their precision: March 3, 2021 / Mar. 3, 2021 /
 * Sept. 3, 2021 / 3/3/2021 / 03/03/21 / 2021-03-03 / 3 March 2021 /
 * the third of March, 2021 / March 2021, and ranges of any of them
 * (March 3-5, 2021; March 3 to April 5, 2021; 3/3/2021 - 3/5/2021).
 *
 * A date that cannot exist (February 30) is not a claim: it is more likely
 * something else (a pin cite, a ratio) than a date the verifier should
 * check.
 *
 * A month and day without a year ("Mar. 24", "March 24", "March 3-5",
 * "by 3/24") are dates of precision "monthday", iso "--03-24" (ISO
 * 8601's form with the year left out).  A month name and a day make one
 * anywhere ("May" only after a date word: "You May 5 go" is a verb); the
 * numeric M/D only after a date word ("on", "by", "dated", "until",
 * "before", "after"), so "24/7", "3/4 of", "Section 3/24" and
 * "Rule 12/15" are none, and after "by" a proper fraction ("reduced by
 * 3/4") is none either.
 */
#include <stdio.h>
#include <string.h>

#include "claims/claims_int.h"

struct date {
	int y, m, d; /* d = 0 for month precision; y = 0 for a month and day */
	size_t s, e;
};

/* Whether d is a date at all (a range's end is zeroed when there is none). */
static bool is_set(const struct date *d)
{
	return d->y || d->m;
}

/* A month and day that some year has (February 29 included). */
static bool valid_md(int m, int d)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1];
}

/* Words after which a month and day, or a numeric M/D, is a date. */
static bool after_date_word(const struct sw__claims_scan *sc, size_t p, bool *by)
{
	static const char *const w[] = { "on", "On", "by", "By", "dated", "Dated", "until",
					 "Until", "before", "Before", "after", "After", "since",
					 "Since", NULL };
	size_t ws, we;
	*by = false;
	if (p == 0 || !sw__claims_space_len(sc, p - 1) || !sw__claims_prev_word(sc, p, 0, &ws, &we))
		return false;
	*by = sw__claims_word_is(sc, ws, we, "by") || sw__claims_word_is(sc, ws, we, "By");
	return sw__claims_word_in(sc, ws, we, w);
}

static int days_in(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

static bool valid(int y, int m, int d)
{
	return y >= 1600 && y <= 2199 && m >= 1 && m <= 12 && d >= 0 && d <= days_in(y, m);
}

/* A month name at i (full, or abbreviated with or without its period). */
static size_t read_month(const struct sw__claims_scan *sc, size_t i, int *month)
{
	static const struct { const char *name; int m; } names[] = {
		{ "January", 1 }, { "February", 2 }, { "March", 3 }, { "April", 4 },
		{ "May", 5 }, { "June", 6 }, { "July", 7 }, { "August", 8 },
		{ "September", 9 }, { "October", 10 }, { "November", 11 }, { "December", 12 },
		{ "Sept.", 9 }, { "Sept", 9 }, { "Jan.", 1 }, { "Feb.", 2 }, { "Mar.", 3 },
		{ "Apr.", 4 }, { "Jun.", 6 }, { "Jul.", 7 }, { "Aug.", 8 }, { "Sep.", 9 },
		{ "Oct.", 10 }, { "Nov.", 11 }, { "Dec.", 12 }, { "Jan", 1 }, { "Feb", 2 },
		{ "Mar", 3 }, { "Apr", 4 }, { "Jun", 6 }, { "Jul", 7 }, { "Aug", 8 },
		{ "Sep", 9 }, { "Oct", 10 }, { "Nov", 11 }, { "Dec", 12 },
	};
	for (size_t k = 0; k < SW_ARRAY_LEN(names); k++) {
		size_t e = sw__claims_lit(sc, i, names[k].name);
		if (e && !sw__claims_alpha(sw__claims_at(sc, e))) {
			*month = names[k].m;
			return e;
		}
	}
	return 0;
}

/* A day: 1-2 digits, maybe 3rd / 21st. */
static size_t read_day(const struct sw__claims_scan *sc, size_t i, int *day)
{
	size_t e = sw__claims_digits(sc, i);
	if (e == i || e - i > 2)
		return 0;
	*day = (int)sw__claims_num(sc, i, e);
	if ((sw__claims_lit(sc, e, "st") || sw__claims_lit(sc, e, "nd") || sw__claims_lit(sc, e, "rd") ||
	     sw__claims_lit(sc, e, "th")) && !sw__claims_alpha(sw__claims_at(sc, e + 2)))
		e += 2;
	if (sw__claims_alnum(sw__claims_at(sc, e)))
		return 0;
	return e;
}

/* ", 2021" or " 2021" or " of 2021" after a day or month. */
static size_t read_year_after(const struct sw__claims_scan *sc, size_t i, int *year)
{
	size_t k = i, e;
	if (sw__claims_at(sc, k) == ',')
		k++;
	k = sw__claims_ws(sc, k);
	if (k == i && sw__claims_at(sc, i) != ',')
		return 0;
	if ((e = sw__claims_word(sc, k, "of")))
		k = sw__claims_ws(sc, e);
	size_t ye;
	int y = sw__claims_year(sc, k, &ye);
	if (!y || sw__claims_alnum(sw__claims_at(sc, ye)))
		return 0;
	*year = y;
	return ye;
}

/* Month-first: March 3, 2021 / March 2021 / March 3-5, 2021 (end in *z). */
static size_t month_first(const struct sw__claims_scan *sc, size_t i, struct date *a, struct date *z)
{
	int m, d, y, d2 = 0;
	size_t e = read_month(sc, i, &m);
	if (!e)
		return 0;
	size_t k = sw__claims_ws(sc, e), de, dd;
	a->s = i;
	if (k > e && (de = read_day(sc, k, &d))) {
		/* a day range inside one month: March 3-5, 2021 */
		size_t after = de;
		if ((dd = sw__claims_dash(sc, de)) && read_day(sc, dd, &d2)) {
			after = read_day(sc, dd, &d2);
		} else {
			d2 = 0;
		}
		size_t ye = read_year_after(sc, after, &y);
		if (ye && valid(y, m, d)) {
			a->y = y;
			a->m = m;
			a->d = d;
			a->e = ye;
			if (d2 && valid(y, m, d2) && d2 > d && z) {
				z->y = y;
				z->m = m;
				z->d = d2;
				z->s = dd;
				z->e = ye;
			}
			return ye;
		}
		if (ye)
			return 0; /* February 29, 2021: no such day */
		/* March 3 - April 5, 2021: the year comes at the end */
		size_t r = sw__claims_ws(sc, de), t;
		if (z && ((t = sw__claims_dash(sc, r)) || (t = sw__claims_word(sc, r, "to")) ||
			  (t = sw__claims_word(sc, r, "through")))) {
			struct date tail;
			memset(&tail, 0, sizeof(tail));
			size_t te = month_first(sc, sw__claims_ws(sc, t), &tail, NULL);
			if (te && tail.d && tail.y && valid(tail.y, m, d)) {
				a->y = tail.y;
				a->m = m;
				a->d = d;
				a->e = de;
				*z = tail;
				return te;
			}
		}
		/* no year: a month and day ("Mar. 24", "March 3-5") */
		bool by;
		if (!valid_md(m, d) || (m == 5 && e - i == 3 && !after_date_word(sc, i, &by)))
			return 0;
		a->y = 0;
		a->m = m;
		a->d = d;
		a->e = de;
		if (z && d2 > d && valid_md(m, d2) && after > de) {
			z->y = 0;
			z->m = m;
			z->d = d2;
			z->s = dd;
			z->e = after;
			return after;
		}
		return de;
	}
	size_t ye = read_year_after(sc, e, &y);
	if (!ye || !valid(y, m, 0))
		return 0;
	a->y = y;
	a->m = m;
	a->d = 0;
	a->e = ye;
	return ye;
}

/* Day-first: 3 March 2021. */
static size_t day_first(const struct sw__claims_scan *sc, size_t i, struct date *a)
{
	int d, m, y;
	size_t de = read_day(sc, i, &d);
	if (!de)
		return 0;
	size_t k = sw__claims_ws(sc, de), e;
	if (k == de || !(e = read_month(sc, k, &m)))
		return 0;
	size_t ye = read_year_after(sc, e, &y);
	if (!ye || sw__claims_at(sc, e) == ',' || !valid(y, m, d))
		return 0;
	a->s = i;
	a->e = ye;
	a->y = y;
	a->m = m;
	a->d = d;
	return ye;
}

/* The time of an ISO date-time after its date: T16:02:11, .123, Z or
 * -05:00.  Returns its end, or i when there is none. */
static size_t iso_time(const struct sw__claims_scan *sc, size_t i)
{
	if (sw__claims_at(sc, i) != 'T' || !sw__claims_digit(sw__claims_at(sc, i + 1)))
		return i;
	size_t k = i + 1, e = sw__claims_digits(sc, k);
	if (e - k != 2 || sw__claims_at(sc, e) != ':' || sw__claims_digits(sc, e + 1) - (e + 1) != 2)
		return i;
	k = e + 3;
	if (sw__claims_at(sc, k) == ':' && sw__claims_digits(sc, k + 1) - (k + 1) == 2)
		k += 3;
	if (sw__claims_at(sc, k) == '.' && sw__claims_digit(sw__claims_at(sc, k + 1)))
		k = sw__claims_digits(sc, k + 1);
	if (sw__claims_at(sc, k) == 'Z')
		k++;
	else if ((sw__claims_at(sc, k) == '+' || sw__claims_at(sc, k) == '-') &&
		 sw__claims_digits(sc, k + 1) - (k + 1) == 2) {
		k += 3;
		if (sw__claims_at(sc, k) == ':' && sw__claims_digits(sc, k + 1) - (k + 1) == 2)
			k += 3;
	}
	return k;
}

/* 3/3/2021, 03/03/21, 2021-03-03, 2021-03-03T16:02:11-05:00; with
 * in_range, the second date of "3/1/2021-3/5/2021" (a dash before it). */
static size_t numeric_at(const struct sw__claims_scan *sc, size_t i, struct date *a, bool in_range)
{
	if (i > 0 && (sw__claims_alnum(sw__claims_at(sc, i - 1)) || sw__claims_at(sc, i - 1) == '/' ||
		      (sw__claims_at(sc, i - 1) == '-' && !in_range) || sw__claims_at(sc, i - 1) == '.'))
		return 0;
	size_t e1 = sw__claims_digits(sc, i);
	int y, m, d;
	size_t end;
	if (e1 - i == 4 && sw__claims_at(sc, e1) == '-') {
		size_t e2 = sw__claims_digits(sc, e1 + 1);
		if (e2 - e1 != 3 || sw__claims_at(sc, e2) != '-')
			return 0;
		size_t e3 = sw__claims_digits(sc, e2 + 1);
		if (e3 - e2 != 3)
			return 0;
		y = (int)sw__claims_num(sc, i, e1);
		m = (int)sw__claims_num(sc, e1 + 1, e2);
		d = (int)sw__claims_num(sc, e2 + 1, e3);
		end = iso_time(sc, e3);
	} else if ((e1 - i == 1 || e1 - i == 2) && sw__claims_at(sc, e1) == '/') {
		size_t e2 = sw__claims_digits(sc, e1 + 1);
		if (e2 - e1 < 2 || e2 - e1 > 3 || sw__claims_at(sc, e2) != '/')
			return 0;
		size_t e3 = sw__claims_digits(sc, e2 + 1);
		m = (int)sw__claims_num(sc, i, e1);
		d = (int)sw__claims_num(sc, e1 + 1, e2);
		if (e3 - e2 == 5)
			y = (int)sw__claims_num(sc, e2 + 1, e3);
		else if (e3 - e2 == 3) {
			/* two-digit years: 00-69 are this century, 70-99 the last */
			y = (int)sw__claims_num(sc, e2 + 1, e3);
			y += y < 70 ? 2000 : 1900;
		} else
			return 0;
		end = e3;
	} else {
		return 0;
	}
	if (sw__claims_alnum(sw__claims_at(sc, end)) || (sw__claims_at(sc, end) == '/' && sw__claims_digit(sw__claims_at(sc, end + 1))) ||
	    !valid(y, m, d) || d == 0)
		return 0;
	a->s = i;
	a->e = end;
	a->y = y;
	a->m = m;
	a->d = d;
	return end;
}

static size_t numeric(const struct sw__claims_scan *sc, size_t i, struct date *a)
{
	return numeric_at(sc, i, a, false);
}

static size_t any_date(const struct sw__claims_scan *sc, size_t i, struct date *a)
{
	size_t e;
	if ((e = month_first(sc, i, a, NULL)) || (e = numeric_at(sc, i, a, true)) ||
	    (e = day_first(sc, i, a)))
		return e;
	return 0;
}

static void iso(char *out, size_t n, const struct date *d)
{
	if (!d->y)
		snprintf(out, n, "--%02d-%02d", d->m, d->d);
	else if (d->d)
		snprintf(out, n, "%04d-%02d-%02d", d->y, d->m, d->d);
	else if (d->m)
		snprintf(out, n, "%04d-%02d", d->y, d->m);
	else
		snprintf(out, n, "%04d", d->y);
}

static const char *precision(const struct date *d)
{
	return !d->y ? "monthday" : d->d ? "day" : d->m ? "month" : "year";
}

/* The document's own date, not a claim about the record: the execution
 * date of a declaration's perjury clause ("Executed on December 1, 2026")
 * and a dateline ("Dated: December 1, 2026"). */
static bool own_date(const struct sw__claims_scan *sc, size_t start)
{
	static const char *const before[] = { "Executed on ", "executed on ", "Dated: ",
					      "DATED: " };
	for (size_t i = 0; i < SW_ARRAY_LEN(before); i++) {
		size_t n = strlen(before[i]);
		if (start >= n && !memcmp(sc->t + start - n, before[i], n))
			return true;
	}
	return false;
}

/* Push a date (and the end of its range) as a claim. */
static size_t push_date(struct sw__claims_scan *sc, size_t start, struct date *a, struct date *z)
{
	/* a range written as two dates: "to", "through", "until", a dash */
	if (!is_set(z)) {
		size_t k = sw__claims_ws(sc, a->e), t;
		if ((t = sw__claims_dash(sc, k)) || (t = sw__claims_word(sc, k, "to")) ||
		    (t = sw__claims_word(sc, k, "through")) || (t = sw__claims_word(sc, k, "until")) ||
		    (t = sw__claims_word(sc, k, "and"))) {
			struct date b;
			memset(&b, 0, sizeof(b));
			if (any_date(sc, sw__claims_ws(sc, t), &b) && (b.y > a->y || (b.y == a->y &&
			    (b.m > a->m || (b.m == a->m && b.d > a->d)))) && (b.d != 0) == (a->d != 0) &&
			    (b.y != 0) == (a->y != 0)) {
				/* "and" makes a range only after "between" */
				bool and = sw__claims_word(sc, k, "and") != 0;
				size_t bs = sw__claims_ws_back(sc, start, sc->done), ws = bs;
				while (ws > sc->done && sw__claims_alpha(sw__claims_at(sc, ws - 1)))
					ws--;
				if (!and || (bs - ws == 7 && !memcmp(sc->t + ws, "between", 7)))
					*z = b;
			}
		}
	}
	char s[16], e[16];
	struct sw__claims_builder b;
	size_t end = is_set(z) ? z->e : a->e;
	if (z->e > end)
		end = z->e;
	if (own_date(sc, start)) {
		sc->done = end;
		return end;
	}
	sw__claims_begin(&b, SW_CLAIM_DATE, SW_FORM_FULL, start, end);
	iso(s, sizeof(s), a);
	sw__claims_fieldz(&b, "iso", s);
	sw__claims_fieldz(&b, "precision", precision(a));
	if (is_set(z)) {
		iso(e, sizeof(e), z);
		sw__claims_fieldz(&b, "end_iso", e);
		if ((z->d != 0) != (a->d != 0) || (z->m != 0) != (a->m != 0))
			sw__claims_fieldz(&b, "end_precision", precision(z));
	}
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = end;
	return end;
}

size_t sw__claims_try_month(struct sw__claims_scan *sc, size_t p, size_t q, int month)
{
	(void)q;
	(void)month;
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	struct date a, z;
	memset(&a, 0, sizeof(a));
	memset(&z, 0, sizeof(z));
	size_t e = sw__claims_digit(sw__claims_at(sc, p)) ? day_first(sc, p, &a) : month_first(sc, p, &a, &z);
	if (!e)
		return 0;
	return push_date(sc, p, &a, &z);
}

/* "03-Jun-2022", "3-Jun-22": a register's day, month and year by dashes. */
size_t sw__claims_try_dmy_dash(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	int d = 0, m = 0, y = 0;
	size_t i = p;
	while (i < q && sw__claims_digit(sw__claims_at(sc, i)))
		d = d * 10 + (sw__claims_at(sc, i++) - '0');
	if (sw__claims_at(sc, i) != '-')
		return 0;
	size_t me = read_month(sc, i + 1, &m);
	if (!me || sw__claims_at(sc, me) != '-')
		return 0;
	size_t k = me + 1, yd = 0;
	while (k < q && sw__claims_digit(sw__claims_at(sc, k)) && yd < 4) {
		y = y * 10 + (sw__claims_at(sc, k++) - '0');
		yd++;
	}
	if (yd == 2)
		y += 2000;
	else if (yd != 4)
		return 0;
	if (sw__claims_alnum(sw__claims_at(sc, k)) || !valid(y, m, d))
		return 0;
	struct date a, z;
	memset(&a, 0, sizeof(a));
	memset(&z, 0, sizeof(z));
	a.s = p;
	a.e = k;
	a.y = y;
	a.m = m;
	a.d = d;
	return push_date(sc, p, &a, &z);
}

size_t sw__claims_try_numeric_date(struct sw__claims_scan *sc, size_t p, size_t q, bool iso_form)
{
	(void)q;
	(void)iso_form;
	if (p < sc->done)
		return 0;
	struct date a, z;
	memset(&a, 0, sizeof(a));
	memset(&z, 0, sizeof(z));
	if (!numeric(sc, p, &a))
		return 0;
	return push_date(sc, p, &a, &z);
}

size_t sw__claims_try_monthday(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || (p > 0 && (sw__claims_alnum(sw__claims_at(sc, p - 1)) || sw__claims_at(sc, p - 1) == '/' ||
				       sw__claims_at(sc, p - 1) == '-' || sw__claims_at(sc, p - 1) == '.')))
		return 0;
	/* not followed by more of a number: 3/24/2021 is another rule's,
	 * 3/24.5, 3/245 and 3/24/x are not dates */
	int c = sw__claims_at(sc, q);
	if (sw__claims_alnum(c) || ((c == '/' || c == '.' || c == ',' || c == '-' || c == ':') &&
			    sw__claims_digit(sw__claims_at(sc, q + 1))) || c == '%')
		return 0;
	size_t slash = sw__claims_digits(sc, p);
	if (sw__claims_at(sc, slash) != '/')
		return 0;
	int m = (int)sw__claims_num(sc, p, slash), d = (int)sw__claims_num(sc, slash + 1, q);
	bool by;
	if (!valid_md(m, d) || !after_date_word(sc, p, &by))
		return 0;
	/* "reduced by 3/4": a proper fraction of a usual denominator */
	if (by && m < d && (d == 2 || d == 3 || d == 4 || d == 8 || d == 16))
		return 0;
	struct date a = { .y = 0, .m = m, .d = d, .s = p, .e = q }, z;
	memset(&z, 0, sizeof(z));
	return push_date(sc, p, &a, &z);
}

size_t sw__claims_try_ordinal_date(struct sw__claims_scan *sc, size_t p, size_t q, int day)
{
	(void)day;
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	static const char *const words[] = {
		"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
		"ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
		"fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
		"twentieth",
	};
	size_t k = sw__claims_ws(sc, p + 3);
	int d = 0;
	if (sw__claims_digit(sw__claims_at(sc, k))) {
		if (!read_day(sc, k, &d))
			return 0;
	} else {
		size_t e;
		int base = 0;
		if ((e = sw__claims_lit(sc, k, "twenty-"))) {
			base = 20;
			k = e;
		} else if ((e = sw__claims_lit(sc, k, "thirty-"))) {
			base = 30;
			k = e;
		}
		for (size_t i = 0; i < SW_ARRAY_LEN(words) && !d; i++)
			if (sw__claims_word(sc, k, words[i]))
				d = (int)i + 1;
		if (!d && sw__claims_word(sc, k, "thirtieth"))
			d = 30;
		if (base && d > 9)
			return 0;
		d += base;
	}
	int m, y;
	size_t e = read_month(sc, q, &m);
	if (!e)
		return 0;
	size_t ye = read_year_after(sc, e, &y);
	if (!ye || !valid(y, m, d) || d == 0)
		return 0;
	struct date a = { .y = y, .m = m, .d = d, .s = p, .e = ye }, z;
	memset(&z, 0, sizeof(z));
	return push_date(sc, p, &a, &z);
}

size_t sw__claims_try_year(struct sw__claims_scan *sc, size_t p, size_t q)
{
	/* a year alone is a date only after a word that makes it one: "in
	 * 2021", "during 2020", "since 2019", "until 2022", "fiscal 2021" */
	static const char *const before[] = { "in", "In", "during", "During", "since", "Since",
					      "until", "Until", "through", "fiscal", "Fiscal",
					      "year", "early", "late", "mid", "Throughout",
					      "throughout", NULL };
	size_t ye;
	int y;
	if (p < sc->done || q - p != 4 || !(y = sw__claims_year(sc, p, &ye)) || ye != q)
		return 0;
	int c = sw__claims_at(sc, q);
	if (sw__claims_alnum(c) || c == '-' || c == '/' || (c == ',' && sw__claims_digit(sw__claims_at(sc, q + 1))))
		return 0;
	size_t ws, we;
	if (p == 0 || sw__claims_at(sc, p - 1) != ' ' || !sw__claims_prev_word(sc, p, sc->done, &ws, &we) ||
	    !sw__claims_word_in(sc, ws, we, before))
		return 0;
	struct date a = { .y = y, .s = p, .e = q }, z;
	memset(&z, 0, sizeof(z));
	return push_date(sc, p, &a, &z);
}
