/* rules_date.c - the verdict of a date: checked on the pages its sentence
 * cites, as a date with its precision, never as a string.
 *
 * Both sides are read as dates: the draft's by the claim scanner (its "iso",
 * "precision" and "end_iso" fields), a page's by the same scanner over the
 * page's words (a transcript without its line numbers) plus the forms
 * records hold that prose does not: ISO date-times ("2021-03-03T16:02:11
 * -05:00", an e-mail's Date as stored) and RFC 5322 headers ("Wed, 3 Mar
 * 2021 16:02:11 -0500", which the scanner reads as "3 Mar 2021").
 *
 * A day matches the same day (or a range on the page that holds it); a
 * month ("March 2021") any day of that month; a year any date of that year.
 * A cited page that gives one other date where the draft gives a day or a
 * month contradicts it, and the reason quotes the page.  A date whose
 * sentence cites nothing is looked for in the whole record: found, it is
 * supported with the note "found elsewhere in the record, not tied to this
 * sentence" (the record does hold it, but no citation says where).
 *
 * A month and day with no year ("Mar. 24", precision monthday) is checked
 * by month and day alone: the year is left free, not inferred from the
 * dates around it (a draft's nearest full date is often of another year,
 * and a page's own "the March 10 date" gives none either).  It matches a
 * date of any year, or a page's own month and day, on the same day; a
 * page's month and day never says a draft's full date.
 *
 * A date inside a quotation (claims.h: in_quote) is checked on the pages
 * of the quotation's record citation (ACME0000003 after a block quotation
 * holding "March 31, 2021"); one in a quotation attributed to a case takes
 * the quotation's verdict, and one in a quotation attributed to nothing is
 * looked for as any uncited date, then blocks no more than the quotation
 * does (verify.c).  A date in a sentence that ends in
 * a colon and introduces a block quotation ("Smith wrote on March 24,
 * 2021:") is tied to the block quotation's citation (sw__verify_near). */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verify/rules_int.h"

#define MAX_PAGE_DATES 128

struct ymd {
	int y, m, d; /* m = 0: a year; d = 0: a month; y = 0: a month and day */
};

struct pdate {
	struct ymd a, z; /* z == a unless a range */
	size_t s, e;     /* in the reading text */
};

static bool parse_iso(const char *s, struct ymd *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || strlen(s) < 4)
		return false;
	if (s[0] == '-' && s[1] == '-') {
		/* --03-24: a month and day, no year */
		if (strlen(s) != 7 || !isdigit((unsigned char)s[2]) ||
		    !isdigit((unsigned char)s[3]) || s[4] != '-' || !isdigit((unsigned char)s[5]) ||
		    !isdigit((unsigned char)s[6]))
			return false;
		out->m = (s[2] - '0') * 10 + (s[3] - '0');
		out->d = (s[5] - '0') * 10 + (s[6] - '0');
		return out->m >= 1 && out->m <= 12 && out->d >= 1 && out->d <= 31;
	}
	for (int k = 0; k < 4; k++)
		if (!isdigit((unsigned char)s[k]))
			return false;
	out->y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	if (s[4] == '-' && isdigit((unsigned char)s[5]) && isdigit((unsigned char)s[6])) {
		out->m = (s[5] - '0') * 10 + (s[6] - '0');
		if (s[7] == '-' && isdigit((unsigned char)s[8]) && isdigit((unsigned char)s[9]))
			out->d = (s[8] - '0') * 10 + (s[9] - '0');
	}
	return out->y > 0 && out->m >= 0 && out->m <= 12 && out->d >= 0 && out->d <= 31;
}

bool sw__verify_iso_day(const char *iso, struct sw__verify_day *out)
{
	struct ymd d;
	if (!parse_iso(iso, &d) || !d.m || !d.d)
		return false;
	*out = (struct sw__verify_day){ d.y, d.m, d.d };
	return true;
}

size_t sw__verify_text_days(const char *t, size_t len, struct sw__verify_day *out, size_t n,
			    size_t max, bool full_only)
{
	struct sw_claims scan = { 0 };
	if (sw_claims_scan(&scan, t, len, NULL) == 0)
		for (size_t k = 0; k < scan.n && n < max; k++) {
			const struct sw_claim *c = &scan.v[k];
			if (c->kind != SW_CLAIM_DATE)
				continue;
			if (sw__verify_iso_day(sw_claim_get(c, "iso"), &out[n]) &&
			    (!full_only || out[n].y))
				n++;
			if (!full_only && n < max &&
			    sw__verify_iso_day(sw_claim_get(c, "end_iso"), &out[n]))
				n++;
		}
	sw_claims_release(&scan);
	return n;
}

/* a compared with b at a's precision: <0, 0, >0. */
static int cmp_at(const struct ymd *a, const struct ymd *b)
{
	if (a->y != b->y)
		return a->y < b->y ? -1 : 1;
	if (!a->m)
		return 0;
	if (a->m != b->m)
		return a->m < b->m ? -1 : 1;
	if (!a->d)
		return 0;
	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	return 0;
}

/* Whether x and y are the same date at the precision of p. */
static bool same_at(const struct ymd *p, const struct ymd *x, const struct ymd *y)
{
	return (!p->y || x->y == y->y) && (!p->m || x->m == y->m) && (!p->d || x->d == y->d);
}

/* Whether month and day c (no year) is what page date q says: the same
 * month and day in any year, or inside a range of one year on the page. */
static bool says_monthday(const struct ymd *c, const struct pdate *q)
{
	if (!q->a.d || !q->z.d)
		return false;
	if ((q->a.m == c->m && q->a.d == c->d) || (q->z.m == c->m && q->z.d == c->d))
		return true;
	int v = c->m * 100 + c->d, lo = q->a.m * 100 + q->a.d, hi = q->z.m * 100 + q->z.d;
	return q->a.y == q->z.y && lo < v && v < hi;
}

/* Whether the page date q says date c (at c's precision): the same day, a
 * day of that month or year, or a range on the page that holds it. */
static bool says(const struct ymd *c, const struct pdate *q)
{
	if (!c->y)
		return says_monthday(c, q);
	/* The page must be at least as precise as the draft. */
	if ((c->d && !q->a.d) || (c->m && !q->a.m) || !q->a.y)
		return false;
	if (cmp_at(c, &q->a) == 0 || cmp_at(c, &q->z) == 0)
		return true;
	return cmp_at(c, &q->a) > 0 && cmp_at(c, &q->z) < 0;
}

static int days_in(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

/* ISO date-times in text: 2021-03-03T16:02 and on. */
static size_t iso_datetimes(const char *t, size_t len, struct pdate *out, size_t n, size_t max)
{
	for (size_t i = 0; i + 16 <= len && n < max; i++) {
		const char *p = t + i;
		if (!isdigit((unsigned char)p[0]) || (i > 0 && isalnum((unsigned char)t[i - 1])))
			continue;
		bool ok = true;
		static const char shape[] = "dddd-dd-ddTdd:dd";
		for (size_t k = 0; k < 16 && ok; k++)
			ok = shape[k] == 'd' ? isdigit((unsigned char)p[k]) != 0 :
			     shape[k] == 'T' ? (p[k] == 'T' || p[k] == 't') : p[k] == shape[k];
		if (!ok)
			continue;
		struct ymd d = { (p[0] - '0') * 1000 + (p[1] - '0') * 100 + (p[2] - '0') * 10 +
					 (p[3] - '0'),
				 (p[5] - '0') * 10 + (p[6] - '0'),
				 (p[8] - '0') * 10 + (p[9] - '0') };
		if (d.m < 1 || d.m > 12 || d.d < 1 || d.d > days_in(d.y, d.m))
			continue;
		size_t e = i + 16;
		while (e < len && (isdigit((unsigned char)t[e]) || t[e] == ':' || t[e] == '.' ||
				   t[e] == '+' || t[e] == '-' || t[e] == 'Z'))
			e++;
		out[n++] = (struct pdate){ .a = d, .z = d, .s = i, .e = e };
		i = e;
	}
	return n;
}

/* Every date of a reading text, at most max. */
static size_t page_dates(const struct sw__verify_text *t, struct pdate *out, size_t max)
{
	struct sw_claims scan = { 0 };
	size_t n = 0;
	if (sw_claims_scan(&scan, t->text.data, t->text.len, NULL) == 0) {
		for (size_t k = 0; k < scan.n && n < max; k++) {
			const struct sw_claim *c = &scan.v[k];
			struct pdate q = { .s = c->start, .e = c->end };
			if (c->kind != SW_CLAIM_DATE || !parse_iso(sw_claim_get(c, "iso"), &q.a))
				continue;
			if (!parse_iso(sw_claim_get(c, "end_iso"), &q.z))
				q.z = q.a;
			out[n++] = q;
		}
	}
	sw_claims_release(&scan);
	return iso_datetimes(t->text.data, t->text.len, out, n, max);
}

/* A place in the record, captured while its text is at hand. */
struct place {
	int64_t page;
	char *where;   /* "ACME0000004", "Smith Dep. 12:8" */
	char *excerpt;
	char *cite;    /* transcript lines, or NULL */
};

static void place_take(struct sw__verify_run *u, const struct sw__verify_text *t, size_t s,
		       size_t e, struct place *pl)
{
	const struct sw__verify_seg *g = sw__verify_text_seg(t, s);
	pl->page = g ? g->page : 0;
	pl->where = sw__verify_text_where(u, t, s, e);
	pl->excerpt = sw__verify_excerpt(t->text.data, t->text.len, s, e);
	pl->cite = g && g->tr_page ? sw_xstrdup(pl->where) : NULL;
}

static void place_release(struct place *pl)
{
	free(pl->where);
	free(pl->excerpt);
	free(pl->cite);
	memset(pl, 0, sizeof(*pl));
}

/* Evidence for claim i at place pl. */
static void place_evidence(struct sw__verify_run *u, size_t i, const struct place *pl)
{
	struct sw_record_page p = { 0 };
	struct sw_err pe = {0};
	if (sw__verify_found(u, sw_record_page_by_id(&p, u->m, pl->page, &pe), &pe)) {
		sw__verify_add_page_evidence(u, i, &p, pl->excerpt);
		if (pl->cite) {
			struct sw_claim_verdict *cv = &u->r->verdicts[i];
			cv->evidence[cv->nevidence - 1].cite = sw_xstrdup(pl->cite);
		}
	}
	sw_record_page_release(&p);
}

/* What the cited text says against a claim. */
struct page_check {
	bool hit;
	struct place at;
	/* the other dates at the claim's precision, distinct */
	struct pdate other[4];
	struct place other_at[4];
	size_t nother;
	char other_text[4][64];
};

static void check_release(struct page_check *pc)
{
	place_release(&pc->at);
	for (size_t k = 0; k < pc->nother; k++)
		place_release(&pc->other_at[k]);
}

static void text_of(const struct sw__verify_text *t, const struct pdate *q, char *out, size_t n)
{
	size_t k = 0;
	bool sp = false;
	for (size_t i = q->s; i < q->e && i < t->text.len && k + 2 < n; i++) {
		unsigned char c = (unsigned char)t->text.data[i];
		if (isspace(c)) {
			sp = k > 0;
			continue;
		}
		if (sp)
			out[k++] = ' ';
		sp = false;
		out[k++] = (char)c;
	}
	out[k] = '\0';
}

/* Check the claim's date(s) a (and z, for a range) against text t, read. */
static void check_text(struct sw__verify_run *u, const struct sw__verify_text *t,
		       const struct ymd *a, const struct ymd *z, struct page_check *pc)
{
	struct pdate d[MAX_PAGE_DATES];
	size_t n = page_dates(t, d, SW_ARRAY_LEN(d));
	bool ha = false, hz = z == NULL;
	size_t at = 0;
	for (size_t k = 0; k < n; k++) {
		bool sa = says(a, &d[k]), sz = z && says(z, &d[k]);
		if (sa && !ha) {
			ha = true;
			at = k;
		}
		hz |= sz;
		if (sa || sz)
			continue;
		/* another date, as precise as the claim (a page's month and day
		 * says nothing against a year) */
		if ((a->d && !d[k].a.d) || (a->m && !d[k].a.m) || !a->m || (a->y && !d[k].a.y))
			continue;
		bool dup = false;
		for (size_t q = 0; q < pc->nother; q++)
			dup |= same_at(a, &pc->other[q].a, &d[k].a);
		if (!dup && pc->nother < SW_ARRAY_LEN(pc->other)) {
			pc->other[pc->nother] = d[k];
			place_take(u, t, d[k].s, d[k].e, &pc->other_at[pc->nother]);
			text_of(t, &d[k], pc->other_text[pc->nother], sizeof(pc->other_text[0]));
			pc->nother++;
		}
	}
	if (ha && hz && !pc->hit) {
		pc->hit = true;
		place_take(u, t, d[at].s, d[at].e, &pc->at);
	}
}

static void check_page(struct sw__verify_run *u, struct sw__verify_text *t, int64_t id,
		       const struct ymd *a, const struct ymd *z, struct page_check *pc)
{
	if (sw__verify_text_read(u, t, id, false))
		check_text(u, t, a, z, pc);
}

/* Phrases that find pages holding date a (precision by its fields). */
static size_t date_phrases(char out[][48], const struct ymd *a)
{
	static const char *const months[] = { "january", "february", "march", "april", "may",
					      "june", "july", "august", "september", "october",
					      "november", "december" };
	size_t n = 0;
	if (!a->m) {
		snprintf(out[n++], 48, "%d", a->y);
		return n;
	}
	const char *mn = months[a->m - 1];
	if (!a->y) {
		/* a month and day: every year's spellings of it */
		snprintf(out[n++], 48, "%s %d", mn, a->d);
		snprintf(out[n++], 48, "%.3s %d", mn, a->d);
		snprintf(out[n++], 48, "%d %s", a->d, mn);
		snprintf(out[n++], 48, "%d %.3s", a->d, mn);
		snprintf(out[n++], 48, "%d %d", a->m, a->d);
		snprintf(out[n++], 48, "%02d %02d", a->m, a->d);
		if (a->m == 9)
			snprintf(out[n++], 48, "sept %d", a->d);
		return n;
	}
	if (!a->d) {
		snprintf(out[n++], 48, "%s %d", mn, a->y);
		snprintf(out[n++], 48, "%.3s %d", mn, a->y);
		snprintf(out[n++], 48, "%d %02d", a->y, a->m);
		return n;
	}
	snprintf(out[n++], 48, "%s %d %d", mn, a->d, a->y);
	snprintf(out[n++], 48, "%.3s %d %d", mn, a->d, a->y);
	snprintf(out[n++], 48, "%d %s %d", a->d, mn, a->y);
	snprintf(out[n++], 48, "%d %.3s %d", a->d, mn, a->y);
	snprintf(out[n++], 48, "%02d %.3s %d", a->d, mn, a->y);
	snprintf(out[n++], 48, "%d %d %d", a->m, a->d, a->y);
	snprintf(out[n++], 48, "%02d %02d %d", a->m, a->d, a->y);
	snprintf(out[n++], 48, "%d %02d %02d", a->y, a->m, a->d);
	snprintf(out[n++], 48, "%d %d %02d", a->m, a->d, a->y % 100);
	snprintf(out[n++], 48, "%02d %02d %02d", a->m, a->d, a->y % 100);
	snprintf(out[n++], 48, "%d %02d %02dt*", a->y, a->m, a->d); /* ISO date-times */
	if (a->m == 9)
		snprintf(out[n++], 48, "sept %d %d", a->d, a->y);
	return n;
}

/* Look for the date in the whole record: true when found (verdict set). */
static bool found_elsewhere(struct sw__verify_run *u, size_t i, struct sw__verify_text *t,
			    const struct ymd *a, const struct ymd *z, const char *text)
{
	char phrases[16][48];
	const char *pp[16];
	struct sw_err e = { 0 };
	int64_t *found = NULL;
	size_t nfound = 0;
	bool done = false;
	/* the date's own spellings (an ISO date-time is "2021 03 03t16 02" to
	 * the index, found by its prefix) */
	size_t np = date_phrases(phrases, a);
	for (size_t k = 0; k < np; k++)
		pp[k] = phrases[k];
	if (sw_record_find_pages(&found, &nfound, u->m, pp, np, SW_VERIFY_MAX_CANDIDATES, &e) !=
	    0) {
		u->err = e;
		return true;
	}
	for (size_t k = 0; k < nfound && !done; k++) {
		struct page_check pc = { 0 };
		check_page(u, t, found[k], a, z, &pc);
		if (pc.hit) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
				       "%s is found elsewhere in the record, not tied to this "
				       "sentence (%s)",
				       text, pc.at.where);
			place_evidence(u, i, &pc.at);
			done = true;
		}
		check_release(&pc);
	}
	free(found);
	return done;
}

/* Check the date against the pages (or transcript lines) of citation k. */
static void check_cite(struct sw__verify_run *u, struct sw__verify_text *t, long k,
		       const struct ymd *a, const struct ymd *z, struct page_check *pc)
{
	const struct sw__verify_resolved *rs = &u->res[k];
	const struct sw__verify_span *sp = sw__verify_span_of(u, (size_t)k);
	if (sp) {
		if (sw__verify_text_read_span(u, t, rs->pages, rs->npages, sp, 0))
			check_text(u, t, a, z, pc);
		return;
	}
	for (size_t q = 0; q < rs->npages && !pc->hit; q++)
		check_page(u, t, rs->pages[q], a, z, pc);
}

void sw__verify_date(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	char *text = sw__verify_claim_text(u, c);
	struct sw__verify_near near;
	struct ymd a, z;
	struct sw__verify_text t;
	sw__verify_text_init(&t);
	if (!parse_iso(sw_claim_get(c, "iso"), &a)) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "sworn cannot read %s as a date",
			       text);
		goto done;
	}
	bool range = parse_iso(sw_claim_get(c, "end_iso"), &z);
	const struct ymd *zp = range ? &z : NULL;
	long q = sw__verify_quote_of(u, i);
	long a_ = q >= 0 ? u->r->claims.v[q].attributed_to : -1;
	if (a_ >= 0) {
		/* inside a quotation: where the quotation's citation points; the
		 * words of a case's opinion take the quotation's verdict (verify.c) */
		if (u->r->claims.v[a_].kind != SW_CLAIM_RECORD &&
		    u->r->claims.v[a_].kind != SW_CLAIM_BATES)
			goto done;
		sw__verify_near(u, (size_t)q, &near);
		size_t k = 0;
		while (k < near.n && near.cites[k] != a_)
			k++;
		if (k == near.n) {
			if (near.n < SW__VERIFY_NEAR_MAX)
				near.n++;
			else
				k = near.n - 1; /* the farthest gives way */
		}
		memmove(&near.cites[1], &near.cites[0], k * sizeof(near.cites[0]));
		near.cites[0] = a_;
	} else {
		sw__verify_near(u, i, &near);
	}
	if (near.n > 0) {
		long primary = near.cites[0];
		struct page_check pc = { 0 };
		/* On any of the pages cited beside it, nearest first. */
		for (size_t k = 0; k < near.n && !pc.hit; k++) {
			struct page_check one = { 0 };
			check_cite(u, &t, near.cites[k], &a, zp, k == 0 ? &pc : &one);
			if (one.hit) {
				check_release(&pc);
				pc = one;
			} else {
				check_release(&one);
			}
		}
		if (pc.hit) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is on the cited page (%s)",
				       text, pc.at.where);
			place_evidence(u, i, &pc.at);
			check_release(&pc);
			goto done;
		}
		if (u->res[primary].npages == 0) {
			char *ct = sw__verify_claim_text(u, &u->r->claims.v[primary]);
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "%s cannot be checked where it is cited: %s does not resolve "
				       "to a page of the record",
				       text, ct);
			free(ct);
			check_release(&pc);
			goto done;
		}
		/* What the nearest citation's pages give instead. */
		char *cited = sw__verify_pages_name(u, u->res[primary].pages,
						    u->res[primary].npages);
		size_t one = pc.nother == 1 ? 0 : SIZE_MAX, same_month = 0;
		for (size_t k = 0; k < pc.nother && a.d && one == SIZE_MAX; k++)
			same_month += (!a.y || pc.other[k].a.y == a.y) && pc.other[k].a.m == a.m;
		for (size_t k = 0; k < pc.nother && same_month == 1 && one == SIZE_MAX; k++)
			if ((!a.y || pc.other[k].a.y == a.y) && pc.other[k].a.m == a.m)
				one = k;
		if (one != SIZE_MAX && a.m && !range) {
			char iso[16];
			const struct ymd *o = &pc.other[one].a;
			if (!o->y)
				snprintf(iso, sizeof(iso), "--%02d-%02d", o->m, o->d);
			else
				snprintf(iso, sizeof(iso), o->d ? "%04d-%02d-%02d" : "%04d-%02d", o->y,
					 o->m, o->d);
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "the cited page (%s) gives \"%s\" (%s), not %s",
				       pc.other_at[one].where, pc.other_text[one], iso, text);
			place_evidence(u, i, &pc.other_at[one]);
		} else if (pc.nother > 1) {
			struct sw_buf b = SW_BUF_INIT;
			for (size_t k = 0; k < pc.nother && k < 3; k++)
				sw_buf_addf(&b, "%s\"%s\"", k ? ", " : "", pc.other_text[k]);
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not on the cited page (%s), which gives %s%s", text,
				       cited, b.data, pc.nother > 3 ? " and more" : "");
			sw_buf_release(&b);
		} else {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not on the cited page (%s)", text, cited);
		}
		check_release(&pc);
		free(cited);
		goto done;
	}
	long cc = near.case_claim;
	if (cc >= 0 && u->res[cc].have_case && u->res[cc].kase.year > 0 && !a.m &&
	    a.y == u->res[cc].kase.year) {
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is the year of the case cited beside it",
			       text);
		sw__verify_add_case_evidence(u, i, &u->res[cc].kase);
		goto done;
	}
	/* No record citation beside it: it must appear somewhere in the
	 * evidence, and the reason says it is not tied to the sentence. */
	if (found_elsewhere(u, i, &t, &a, zp, text))
		goto done;
	sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "%s appears nowhere in the evidence", text);
done:
	sw__verify_text_release(&t);
	free(text);
}
