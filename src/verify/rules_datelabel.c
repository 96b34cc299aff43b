/*
 * rules_datelabel.c - a date the page gives in another role.  A page that
 * labels its dates ("Invoice date: April 2, 2021", "Shipped: March 31,
 * 2021") says what each one is.  A sentence that gives its date to an act
 * one label names ("We shipped PO 4471 on April 2, 2021") while the page
 * puts that date under another label, and the act's label under another
 * date, is contradicted, quoting both lines.  A date the page labels
 * nowhere, or a sentence that says the other label's words too, is left
 * to the date's own claim.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define LABEL_MAX 32 /* bytes before a colon that make a label */
#define LABEL_DAYS 4 /* days read of one labelled line */

struct labelled {
	size_t ls, le, ce; /* the line; its label ends at ce (the colon) */
	struct sw__verify_day day;
};

/* Whether label p[s, e) shares a content word with the sentence (its
 * stems st): "Shipped" with "shipped", "Ship date" with "ships". */
static bool label_said(const char *p, size_t s, size_t e, const struct sw__verify_stems *st)
{
	struct sw__verify_stems ls = { 0 };
	sw__verify_stems_of(p, s, e, 8, &ls);
	for (size_t k = 0; k < ls.n; k++)
		/* every label of a date says "date" ("dated": "dat") */
		if (strcmp(ls.w[k], "date") != 0 && strcmp(ls.w[k], "dat") != 0 &&
		    sw__verify_has_stem(st, ls.w[k]))
			return true;
	return false;
}

static bool same_day(const struct sw__verify_day *a, const struct sw__verify_day *b)
{
	return a->m == b->m && a->d == b->d && (!a->y || !b->y || a->y == b->y);
}

/* The labelled dates of page p: lines "Label: <a date>", into out. */
static size_t labelled_days(const char *p, size_t len, struct labelled *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0, a, le; n < max && sw__verify_line_next(p, len, &i, &a, &le);) {
		const char *colon = a < le ? memchr(p + a, ':', le - a) : NULL;
		if (colon && colon > p + a && (size_t)(colon - (p + a)) <= LABEL_MAX &&
		    isalpha((unsigned char)p[a])) {
			size_t ce = (size_t)(colon - p);
			struct sw__verify_day d[LABEL_DAYS];
			size_t z = le;
			while (z > ce && (p[z - 1] == ' ' || p[z - 1] == '\r'))
				z--;
			if (sw__verify_text_days(p + ce + 1, z - ce - 1, d, 0, LABEL_DAYS, false) ==
			    1)
				out[n++] = (struct labelled){
					.ls = a, .le = z, .ce = ce, .day = d[0]
				};
		}
	}
	return n;
}

char *sw__verify_date_label(struct sw__verify_run *u, const struct sw_claim *c,
			    const int64_t *pages, size_t np, const struct sw__verify_sentence *sn)
{
	const char *t = u->r->text;
	struct sw__verify_day sd[2];
	size_t nd = 0;
	const struct sw_claim_fact *df = NULL;
	for (size_t k = 0; k < c->nfacts && nd < 2; k++)
		if (c->facts[k].kind == SW_FACT_DATE) {
			nd = sw__verify_text_days(t + c->facts[k].start,
						  c->facts[k].end - c->facts[k].start, sd, nd, 2,
						  false);
			df = &c->facts[k];
		}
	if (nd != 1 || !df)
		return NULL; /* one date, or the sentence's dates are no one act's */
	const struct sw__verify_reading *sent = &sn->rd;
	char *why = NULL;
	for (size_t q = 0; q < np && !why && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		/* first, cheaply: a label the sentence says ("Shipped:"); most
		 * pages have none, and their dates are never read here */
		bool any = false;
		for (size_t i = 0, a, le;
		     !any && sw__verify_line_next(p, u->page.len, &i, &a, &le);) {
			const char *colon = a < le ? memchr(p + a, ':', le - a) : NULL;
			any = colon && colon > p + a && (size_t)(colon - (p + a)) <= LABEL_MAX &&
			      label_said(p, a, (size_t)(colon - p), &sent->st);
		}
		if (!any)
			continue;
		struct labelled lb[32];
		size_t n = labelled_days(p, u->page.len, lb, SW_ARRAY_LEN(lb));
		/* the line with the sentence's date, under a label it does not
		 * say; a line whose label it says, with another date */
		const struct labelled *mine = NULL, *act = NULL;
		bool said_mine = false;
		for (size_t k = 0; k < n; k++) {
			bool said = label_said(p, lb[k].ls, lb[k].ce, &sent->st);
			if (same_day(&lb[k].day, &sd[0])) {
				mine = mine ? mine : &lb[k];
				said_mine |= said;
			} else if (said && !act) {
				act = &lb[k];
			}
		}
		if (!mine || !act || said_mine)
			continue;
		char *pn = sw__verify_page_name(u, pages[q]);
		why = sw_xasprintf("%s gives \"%.*s\"; %.*s is its \"%.*s\"", pn,
				   (int)(act->le - act->ls), p + act->ls,
				   (int)(df->end - df->start), t + df->start,
				   (int)(mine->ce - mine->ls), p + mine->ls);
		free(pn);
	}
	return why;
}
