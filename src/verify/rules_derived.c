/*
 * rules_derived.c - figures a cited page supports without writing them as
 * the sentence does: a count as a bare numeral ("six men" and a Men column's
 * 6, "ten hours" and 10.0), a duration between two dates or two times of the
 * sentence and its pages ("two days later", "nine days late", "four hours"
 * from 7:00 am to 11:00 am), and an amount the page's amounts give by one
 * step of arithmetic (a sum or a difference of two, a percentage of one:
 * 10% retainage of $412,500.00 is $41,250.00).  Each answer says how, for
 * the reason; none is ever evidence against a sentence.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define DERIVED_DATES 160   /* dates read from a sentence and its pages */
#define DERIVED_FIGURES 256 /* amounts and percentages read from the pages */

/* A numeral of p at i (digits, comma groups, a decimal part) standing on
 * its own: not part of a date, a time, a range, a code or a word. */
static size_t numeral_at(const char *p, size_t len, size_t i, int64_t *v)
{
	if (i > 0 && (isalnum((unsigned char)p[i - 1]) || strchr(".,/:-$#", p[i - 1])))
		return i;
	int64_t n = 0;
	size_t k = i, digits = 0;
	while (k < len && (isdigit((unsigned char)p[k]) ||
			   (p[k] == ',' && k + 1 < len && isdigit((unsigned char)p[k + 1]) &&
			    digits))) {
		if (p[k] != ',') {
			if (n > INT64_MAX / 1000)
				return i;
			n = n * 10 + (p[k] - '0');
			digits++;
		}
		k++;
	}
	if (!digits)
		return i;
	n *= 100;
	if (k + 1 < len && p[k] == '.' && isdigit((unsigned char)p[k + 1])) {
		k++;
		int scale = 10;
		while (k < len && isdigit((unsigned char)p[k])) {
			if (scale)
				n += (p[k] - '0') * scale;
			scale /= 10;
			k++;
		}
	}
	if (k < len && (isalpha((unsigned char)p[k]) || p[k] == '/' || p[k] == ':' ||
			(p[k] == '-' && k + 1 < len && isdigit((unsigned char)p[k + 1]))))
		return i;
	*v = n;
	return k;
}

bool sw__verify_numeral_on(const char *p, size_t len, int64_t value, size_t *at, size_t *end)
{
	for (size_t i = 0; i < len; i++) {
		int64_t v;
		if (!isdigit((unsigned char)p[i]))
			continue;
		size_t e = numeral_at(p, len, i, &v);
		if (e == i) {
			while (i + 1 < len && isalnum((unsigned char)p[i + 1]))
				i++;
			continue;
		}
		if (v == value) {
			*at = i;
			*end = e;
			return true;
		}
		i = e - 1;
	}
	return false;
}

bool sw__verify_words_on(const char *p, size_t len, const struct sw_claim_fact *f, size_t *at,
			 size_t *end)
{
	struct sw_buf w = SW_BUF_INIT;
	sw__verify_fact_words(&w, f);
	bool found = false;
	for (size_t i = 0; i < len && w.len && !found; i++) {
		if (!isalpha((unsigned char)p[i]) || (i > 0 && isalpha((unsigned char)p[i - 1])))
			continue;
		/* the words in order, hyphens and blanks alike, an "and" of the
		 * page's between them ("two hundred and twelve") */
		size_t k = i, q = 0;
		while (q < w.len && k < len) {
			if (w.data[q] == ' ') {
				if (p[k] != ' ' && p[k] != '-' && p[k] != '\n')
					break;
				while (k < len && (p[k] == ' ' || p[k] == '-' || p[k] == '\n'))
					k++;
				if (k + 4 <= len && strncasecmp(p + k, "and ", 4) == 0)
					k += 4;
				q++;
				continue;
			}
			if (tolower((unsigned char)p[k]) != w.data[q])
				break;
			k++;
			q++;
		}
		/* "forty" is not "Forty-eight", nor "two" "two hundred" */
		bool more = k < len &&
			    (isalpha((unsigned char)p[k]) ||
			     (p[k] == '-' && k + 1 < len && isalpha((unsigned char)p[k + 1])));
		if (!more && k + 1 < len && p[k] == ' ') {
			static const char *const go[] = { "hundred", "thousand", "million",
							  "and " };
			for (size_t g = 0; g < SW_ARRAY_LEN(go) && !more; g++)
				more = strncasecmp(p + k + 1, go[g], strlen(go[g])) == 0;
		}
		/* nor "twelve" the end of "two hundred and twelve" */
		if (!more && i > 0) {
			size_t b = i;
			if (p[b - 1] == '-' && b >= 2 && isalpha((unsigned char)p[b - 2]))
				more = true;
			while (b > 0 && (p[b - 1] == ' ' || p[b - 1] == '\n'))
				b--;
			size_t a = b;
			while (a > 0 && isalpha((unsigned char)p[a - 1]))
				a--;
			if (b - a == 3 && strncasecmp(p + a, "and", 3) == 0) {
				b = a;
				while (b > 0 && p[b - 1] == ' ')
					b--;
				a = b;
				while (a > 0 && isalpha((unsigned char)p[a - 1]))
					a--;
			}
			static const char *const scale[] = { "hundred", "thousand", "million",
							     "billion" };
			for (size_t g = 0; g < SW_ARRAY_LEN(scale) && !more; g++)
				more = b - a == strlen(scale[g]) &&
				       strncasecmp(p + a, scale[g], b - a) == 0;
		}
		if (q == w.len && !more) {
			*at = i;
			*end = k;
			found = true;
		}
	}
	sw_buf_release(&w);
	return found;
}

/* ---------------------------------------------------------------- durations */

static int64_t day_number(int y, int m, int d)
{
	/* days since a fixed epoch (civil calendar) */
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe;
}

/* Clock times of t ("7:00 am", "11:00 AM", "14:30") in minutes. */
static size_t text_times(const char *t, size_t len, int *out, size_t n, size_t max)
{
	for (size_t i = 0; i + 4 <= len && n < max; i++) {
		if (!isdigit((unsigned char)t[i]) || (i > 0 && isalnum((unsigned char)t[i - 1])))
			continue;
		size_t k = i;
		int h = 0;
		while (k < len && isdigit((unsigned char)t[k]) && k - i < 2)
			h = h * 10 + (t[k++] - '0');
		if (k + 2 >= len || t[k] != ':' || !isdigit((unsigned char)t[k + 1]) ||
		    !isdigit((unsigned char)t[k + 2]))
			continue;
		int mi = (t[k + 1] - '0') * 10 + (t[k + 2] - '0');
		k += 3;
		size_t b = k;
		while (b < len && t[b] == ' ')
			b++;
		if (b + 1 < len && (t[b] == 'p' || t[b] == 'P') &&
		    (t[b + 1] == 'm' || t[b + 1] == 'M' || t[b + 1] == '.') && h < 12)
			h += 12;
		if (h < 24 && mi < 60)
			out[n++] = h * 60 + mi;
		i = k;
	}
	return n;
}

/* The unit of a duration: days per unit (7 a week), 0 for months (counted
 * as months), -1 for hours, -2 when f is no duration. */
static int duration_unit(const char *u)
{
	static const struct { const char *w; int days; } units[] = {
		{ "day", 1 }, { "days", 1 }, { "calendar", 1 }, { "week", 7 }, { "weeks", 7 },
		{ "month", 0 }, { "months", 0 }, { "year", 12 }, { "years", 12 }, { "hour", -1 },
		{ "hours", -1 }, { "hr", -1 }, { "hrs", -1 }, { "workday", -3 },
	};
	for (size_t k = 0; k < SW_ARRAY_LEN(units); k++)
		if (strcmp(u, units[k].w) == 0)
			return units[k].days;
	return -2;
}

bool sw__verify_is_duration(const struct sw_claim_fact *f)
{
	return f->kind == SW_FACT_QUANTITY && duration_unit(f->unit) != -2;
}

/* Whether two of the dates a[0..n) are n days, weeks, months or years
 * apart as f says; *x and *y the pair. */
static bool dates_apart(const struct sw__verify_day *a, size_t n, const struct sw_claim_fact *f,
			int unit, size_t *x, size_t *y)
{
	int64_t want = f->value / 100;
	if (f->value % 100)
		return false;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			if (i == j || (!a[i].y && !a[j].y))
				continue;
			int yi = a[i].y ? a[i].y : a[j].y, yj = a[j].y ? a[j].y : a[i].y;
			int64_t d0 = day_number(yi, a[i].m, a[i].d),
				d1 = day_number(yj, a[j].m, a[j].d);
			if (d1 <= d0)
				continue;
			bool ok;
			if (unit == -3) {
				/* Monday to Friday, the first day counted or not */
				int64_t wd = 0, first = 0;
				for (int64_t dn = d0; dn <= d1 && dn - d0 < 4000; dn++) {
					int64_t dow = (dn + 2) % 7; /* 0 = Monday */
					if (dow < 5) {
						wd++;
						if (dn == d0)
							first = 1;
					}
				}
				ok = wd == want || wd - first == want;
			} else if (unit >= 1 && unit != 12) {
				ok = d1 - d0 == want * unit;
				/* "two weeks" of 13 to 15 days, as people count */
				if (unit == 7 && !ok)
					ok = llabs((d1 - d0) - want * 7) <= 1;
			} else {
				int64_t months = (int64_t)(yj - yi) * 12 + (a[j].m - a[i].m);
				int64_t need = unit == 12 ? want * 12 : want;
				ok = months == need || (months == need + 1 && a[j].d < a[i].d) ||
				     (months == need - 1 && a[j].d > a[i].d);
			}
			if (ok) {
				*x = i;
				*y = j;
				return true;
			}
		}
	return false;
}

char *sw__verify_duration(struct sw__verify_run *u, const struct sw_claim *c,
			  const struct sw_claim_fact *f, const int64_t *pages, size_t np,
			  const char *only)
{
	int unit = duration_unit(f->unit);
	if (f->kind != SW_FACT_QUANTITY || unit == -2)
		return NULL;
	const char *t = u->r->text;
	if (unit == -1) {
		int tm[64];
		size_t n = text_times(t + c->start, c->end - c->start, tm, 0, SW_ARRAY_LEN(tm));
		for (size_t q = 0; q < np && !u->err.code; q++) {
			struct sw_err e = { 0 };
			if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					     &e))
				n = text_times(u->page.data, u->page.len, tm, n, SW_ARRAY_LEN(tm));
		}
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if (tm[j] - tm[i] > 0 &&
				    (int64_t)(tm[j] - tm[i]) * 100 == f->value * 60)
					return sw_xasprintf("%.*s from %d:%02d to %d:%02d",
							    (int)(f->end - f->start), t + f->start,
							    tm[i] / 60, tm[i] % 60, tm[j] / 60,
							    tm[j] % 60);
		return NULL;
	}
	struct sw__verify_day *d = sw_xcalloc(DERIVED_DATES, sizeof(*d));
	size_t n =
		sw__verify_text_days(t + c->start, c->end - c->start, d, 0, DERIVED_DATES, false);
	static const char *const span_words[] = { "late", "later", "after", "before", "earlier",
						  "between", "elapsed", "passed", "behind",
						  "ahead", "early", "delay", "delayed", "from",
						  "until", "through", "since" };
	bool spans = sw__verify_has_any(t + c->start, c->end - c->start, span_words,
					SW_ARRAY_LEN(span_words));
	if (!spans) {
		free(d);
		return NULL; /* "within fourteen days": a term, not a span between dates */
	}
	/* "Three days later, Patel recommended ...": counted from the date of
	 * the sentence before */
	size_t a = f->end;
	while (a < c->end && (t[a] == ' ' || t[a] == ','))
		a++;
	const struct sw_claims *cl = &u->r->claims;
	if ((strncasecmp(t + a, "later", 5) == 0 || strncasecmp(t + a, "earlier", 7) == 0) &&
	    c->sentence > 0 && c->sentence < cl->nsentences) {
		const struct sw_sentence *prev = &cl->sentences[c->sentence - 1];
		/* past a citation sentence to the sentence it cites for */
		if (c->sentence > 1 && prev->end - prev->start < 48 && t[prev->start] == '(')
			prev = &cl->sentences[c->sentence - 2];
		n = sw__verify_text_days(t + prev->start, prev->end - prev->start, d, n,
					 DERIVED_DATES, false);
	}
	if (only)
		n = sw__verify_text_days(only, strlen(only), d, n, DERIVED_DATES, false);
	for (size_t q = 0; q < np && !only && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			n = sw__verify_text_days(u->page.data, u->page.len, d, n, DERIVED_DATES,
						 false);
	}
	size_t x, y;
	char *how = NULL;
	if (dates_apart(d, n, f, unit, &x, &y))
		how = sw_xasprintf("%.*s from %04d-%02d-%02d to %04d-%02d-%02d",
				   (int)(f->end - f->start), t + f->start, d[x].y ? d[x].y : d[y].y,
				   d[x].m, d[x].d, d[y].y ? d[y].y : d[x].y, d[y].m, d[y].d);
	free(d);
	return how;
}

/* --------------------------------------------------------------- arithmetic */


struct figures {
	int64_t money[DERIVED_FIGURES];
	size_t nm;
	int64_t pct[32];
	size_t np;
};

/* Figures past these take no part in arithmetic: their products and sums
 * would overflow (a hostile "$999,999,999,999,999 billion"). */
#define FIGURE_MAX ((int64_t)1 << 48)
#define PERCENT_MAX ((int64_t)1000000)

static void read_figures(const char *p, size_t len, struct figures *g)
{
	struct sw_fact_token tok;
	size_t pos = 0;
	while (sw_claims_next_fact(&tok, p, len, &pos)) {
		if (tok.value < 0 || tok.value > FIGURE_MAX ||
		    (tok.kind == SW_FACT_PERCENT && tok.value > PERCENT_MAX))
			continue;
		if (tok.kind == SW_FACT_MONEY && g->nm < DERIVED_FIGURES)
			g->money[g->nm++] = tok.value;
		else if (tok.kind == SW_FACT_PERCENT && g->np < SW_ARRAY_LEN(g->pct))
			g->pct[g->np++] = tok.value;
	}
}

static void money_text(char *out, size_t cap, int64_t v)
{
	char d[32];
	int n = snprintf(d, sizeof(d), "%lld", (long long)(v / 100));
	size_t k = 0;
	if (k + 1 < cap)
		out[k++] = '$';
	for (int i = 0; i < n && k + 2 < cap; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = d[i];
	}
	snprintf(out + k, cap - k, ".%02lld", (long long)(v % 100));
}

char *sw__verify_arithmetic(struct sw__verify_run *u, const struct sw_claim *c,
			    const struct sw_claim_fact *f, const int64_t *pages, size_t np)
{
	if (f->kind != SW_FACT_MONEY || f->value <= 0 || f->value > FIGURE_MAX)
		return NULL;
	char *how = NULL, a[40], b[40];
	int64_t v = f->value;
	static const char *const sum_words[] = { "together", "combined", "sum", "in all",
						 "plus" };
	static const char *const diff_words[] = { "balance", "remaining", "less", "net",
						  "difference", "minus", "after deducting" };
	const char *cs = u->r->text + c->start;
	size_t cl = c->end - c->start;
	bool sums = sw__verify_has_any(cs, cl, sum_words, SW_ARRAY_LEN(sum_words));
	bool diffs = sw__verify_has_any(cs, cl, diff_words, SW_ARRAY_LEN(diff_words));
	struct figures *g = sw_xcalloc(1, sizeof(*g));
	/* the sentence's own percentages ("10% retainage") count */
	read_figures(u->r->text + c->start, c->end - c->start, g);
	/* "$35,370.00 due and $200,811.50 in retainage, for a total of
	 * $236,181.50": a total of the sentence's own amounts, each of which
	 * is checked on the page as a fact of its own */
	bool total = sums || sw__verify_has_word(cs, cl, "total");
	for (size_t i = 0; i < g->nm && total && !how; i++)
		for (size_t j = i + 1; j < g->nm && !how; j++)
			if (g->money[i] != v && g->money[j] != v &&
			    g->money[i] + g->money[j] == v) {
				money_text(a, sizeof(a), g->money[i]);
				money_text(b, sizeof(b), g->money[j]);
				how = sw_xasprintf("%s + %s, the sentence's own figures", a, b);
			}
	if (how) {
		free(g);
		return how;
	}
	g->nm = 0;
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			read_figures(u->page.data, u->page.len, g);
	}
	for (size_t i = 0; i < g->nm && !how; i++) {
		for (size_t k = 0; k < g->np && !how; k++) {
			/* a percentage of an amount, to the cent */
			int64_t num = g->money[i] * g->pct[k];
			if (g->pct[k] > 0 && llabs(num - v * 10000) < 10000 / 2 + 1) {
				money_text(a, sizeof(a), g->money[i]);
				how = sw_xasprintf("%lld.%02lld%% of %s",
						   (long long)(g->pct[k] / 100),
						   (long long)(g->pct[k] % 100), a);
			}
		}
		/* a sum or a difference of two of the page's amounts, only
		 * where the sentence says it adds or takes away: an invoice's
		 * many figures give many sums, and a figure from another page
		 * must not pass as one of them */
		for (size_t j = 0; j < g->nm && !how && (sums || diffs); j++) {
			if (i == j)
				continue;
			money_text(a, sizeof(a), g->money[i]);
			money_text(b, sizeof(b), g->money[j]);
			if (sums && i < j && g->money[i] + g->money[j] == v)
				how = sw_xasprintf("%s + %s", a, b);
			else if (diffs && g->money[i] - g->money[j] == v)
				how = sw_xasprintf("%s - %s", a, b);
		}
	}
	free(g);
	return how;
}

bool sw__verify_stated_product(const char *t, const struct sw_claim *c, size_t *qi, size_t *ri,
			       size_t *pi)
{
	static const char *const per[] = { "a ", "per ", "each ", "every ", "an " };
	for (size_t r = 0; r < c->nfacts; r++) {
		const struct sw_claim_fact *rf = &c->facts[r];
		if (rf->kind != SW_FACT_PERCENT)
			continue;
		/* the rate's period: "two percent a week" */
		size_t k = rf->end;
		while (k < c->end && t[k] == ' ')
			k++;
		size_t pl = 0;
		for (size_t x = 0; x < SW_ARRAY_LEN(per) && !pl; x++)
			if (strncasecmp(t + k, per[x], strlen(per[x])) == 0)
				pl = strlen(per[x]);
		if (!pl)
			continue;
		k += pl;
		char unit[16];
		size_t n = 0;
		while (k + n < c->end && isalpha((unsigned char)t[k + n]) && n + 1 < sizeof(unit)) {
			unit[n] = (char)tolower((unsigned char)t[k + n]);
			n++;
		}
		unit[n] = '\0';
		if (n > 3 && unit[n - 1] == 's')
			unit[n - 1] = '\0';
		for (size_t q = 0; q < c->nfacts; q++) {
			const struct sw_claim_fact *qf = &c->facts[q];
			if (qf->kind != SW_FACT_QUANTITY || strcmp(qf->unit, unit) != 0)
				continue;
			for (size_t p = 0; p < c->nfacts; p++) {
				const struct sw_claim_fact *pf = &c->facts[p];
				if (p == r || pf->kind != SW_FACT_PERCENT || qf->value <= 0 ||
				    rf->value > INT64_MAX / qf->value ||
				    qf->value * rf->value / 100 != pf->value)
					continue;
				*qi = q;
				*ri = r;
				*pi = p;
				return true;
			}
		}
	}
	return false;
}
