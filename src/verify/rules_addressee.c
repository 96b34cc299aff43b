/*
 * rules_addressee.c - who asked whom.  A sentence that has a party ask,
 * bill or request something ("Carver asked Delmar for $240,480.00") cited
 * to a document addressed to that very party ("To: Carver Construction
 * Co." on its first page) turns the request around: the addressee is the
 * one asked.  Contradicted, naming the addressee line.  A document that
 * also has a From: line of the party (an e-mail quoting the party's own
 * message) is left alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

/* Verbs of asking for something. */
static const char *const asks[] = { "asked",  "asks",	  "requested", "requests", "billed",
				    "bills",  "invoiced", "invoices",  "demanded", "demands",
				    "sought", "seeks",	  "claimed",   "claims" };

/* The first line of p labelled label ("To:"), its value's bounds; false
 * when none. */
static bool labelled(const char *p, size_t len, const char *label, size_t *vs, size_t *ve)
{
	size_t ll = strlen(label);
	for (size_t i = 0, a, le; sw__verify_line_next(p, len, &i, &a, &le);)
		if (le - a > ll && strncasecmp(p + a, label, ll) == 0) {
			*vs = a + ll;
			*ve = le;
			return true;
		}
	return false;
}

/* Whether word w (n bytes) stands in p[s, e), case folded. */
static bool word_in(const char *p, size_t s, size_t e, const char *w, size_t n)
{
	for (size_t i = s; i + n <= e; i++)
		if (strncasecmp(p + i, w, n) == 0 &&
		    (i == s || !isalpha((unsigned char)p[i - 1])) &&
		    (i + n == e || !isalpha((unsigned char)p[i + n])))
			return true;
	return false;
}

/* Whether any From: line of p names word w. */
static bool from_names(const char *p, size_t len, const char *w, size_t n)
{
	for (size_t i = 0, a, le; sw__verify_line_next(p, len, &i, &a, &le);)
		if (le - a > 5 && strncasecmp(p + a, "from:", 5) == 0 && word_in(p, a, le, w, n))
			return true;
	return false;
}

char *sw__verify_addressee(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
			   size_t np, const struct sw__verify_sentence *sn)
{
	(void)sn; /* the sentence's text is read as written */
	const char *t = u->r->text;
	/* "Carver asked": the capitalised word before a verb of asking */
	size_t ws = 0, we = 0;
	for (size_t i = c->start; i < c->end && !we; i++) {
		if (!isalpha((unsigned char)t[i]) ||
		    (i > c->start && isalpha((unsigned char)t[i - 1])))
			continue;
		size_t e = i;
		while (e < c->end && isalpha((unsigned char)t[e]))
			e++;
		bool ask = false;
		for (size_t k = 0; k < SW_ARRAY_LEN(asks) && !ask; k++)
			ask = e - i == strlen(asks[k]) && strncasecmp(t + i, asks[k], e - i) == 0;
		if (ask && i >= c->start + 3 && t[i - 1] == ' ') {
			size_t b = i - 1, a = b;
			while (a > c->start && isalpha((unsigned char)t[a - 1]))
				a--;
			if (b - a >= 3 && isupper((unsigned char)t[a])) {
				ws = a;
				we = b;
			}
		}
		i = e;
	}
	if (!we)
		return NULL;
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_record_page pg = { 0 }, first = { 0 };
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_by_id(&pg, u->m, pages[q], &e), &e))
			continue;
		int64_t at =
			pg.page_no > 1 && sw__verify_found(u,
							   sw_record_doc_page(&first, u->m,
									      pg.doc_id, 1, &e),
							   &e)
				? first.id
				: pages[q];
		sw_record_page_release(&pg);
		sw_record_page_release(&first);
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, at, &e), &e))
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len, vs, ve;
		if (!labelled(p, len, "to:", &vs, &ve) || !word_in(p, vs, ve, t + ws, we - ws) ||
		    from_names(p, len, t + ws, we - ws))
			continue;
		while (vs < ve && p[vs] == ' ')
			vs++;
		while (ve > vs && (p[ve - 1] == ' ' || p[ve - 1] == '\r'))
			ve--;
		char *pn = sw__verify_page_name(u, at);
		char *why =
			sw_xasprintf("%s is addressed to %.*s: %.*s is the one asked, not the one "
				     "asking",
				     pn, (int)(ve - vs), p + vs, (int)(we - ws), t + ws);
		free(pn);
		return why;
	}
	return NULL;
}
