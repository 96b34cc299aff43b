/*
 * rules_lines.c - a transcript's numbered lines and the claims a
 * proposition leans on: where a line's words start, the line a byte is on,
 * the lines a proposition's citation pins on a page, and the claims near a
 * proposition.  Below the proposition rules (rules_polarity.c,
 * rules_prop_text.c, rules_prop.c, rules_prop_names.c), which all read
 * pins; it calls nothing else in verify/.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/rules_int.h"

bool sw__verify_line_next(const char *p, size_t len, size_t *i, size_t *a, size_t *le)
{
	if (*i >= len)
		return false;
	size_t e = *i;
	while (e < len && p[e] != '\n')
		e++;
	size_t b = *i;
	while (b < e && (p[b] == ' ' || p[b] == '\t'))
		b++;
	*a = b;
	*le = e;
	*i = e < len ? e + 1 : len;
	return true;
}

char *sw__verify_unnumbered(const char *p, size_t n)
{
	char *out = sw_xmalloc(n + 1);
	memcpy(out, p, n);
	out[n] = '\0';
	for (size_t i = 0, a, le; sw__verify_line_next(p, n, &i, &a, &le);) {
		size_t w = sw__verify_line_words(p, a, le);
		for (size_t k = a; k < w; k++)
			out[k] = ' ';
	}
	return out;
}

size_t sw__verify_line_words(const char *p, size_t i, size_t le)
{
	size_t k = i;
	while (k < le && p[k] == ' ')
		k++;
	size_t d = k;
	while (d < le && isdigit((unsigned char)p[d]))
		d++;
	if (d > k && (d == le || p[d] == ' '))
		k = d;
	while (k < le && p[k] == ' ')
		k++;
	return k;
}

void sw__verify_claims_near(const struct sw__verify_run *u, const struct sw_claim *c, size_t *k0,
			    size_t *k1)
{
	const struct sw_claims *cl = &u->r->claims;
	/* the other claims come first (the propositions after them), in
	 * document order: bisect for both */
	size_t n = 0, top = cl->n;
	while (n < top) {
		size_t mid = n + (top - n) / 2;
		if (cl->v[mid].kind != SW_CLAIM_PROPOSITION)
			n = mid + 1;
		else
			top = mid;
	}
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cl->v[mid].start < c->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && cl->v[lo - 1].end > c->start)
		lo--;
	size_t e = lo;
	while (e < n && cl->v[e].start < c->end + SW__VERIFY_AFTER)
		e++;
	/* and the whole of the sentence its citation is in */
	if (c->resolves_to >= 0 && (size_t)c->resolves_to < n) {
		size_t r = (size_t)c->resolves_to, cs = cl->v[r].sentence;
		if (r < lo)
			lo = r;
		while (lo > 0 && cl->v[lo - 1].sentence == cs)
			lo--;
		if (r >= e)
			e = r + 1;
		while (e < n && cl->v[e].sentence == cs)
			e++;
	}
	*k0 = lo;
	*k1 = e;
}

/* When line p[i, le) starts with a transcript line number (after its
 * margin, a space after it): that number into *cur; else *cur as it was. */
static void number_of(const char *p, size_t i, size_t le, long *cur)
{
	size_t k = i;
	while (k < le && p[k] == ' ')
		k++;
	if (k < le && isdigit((unsigned char)p[k])) {
		long v = 0;
		size_t d = k;
		while (d < le && isdigit((unsigned char)p[d]) && v < 100000)
			v = v * 10 + (p[d++] - '0');
		if (d < le && p[d] == ' ')
			*cur = v;
	}
}

/* The transcript lines [l0, l1] of page text p: their bytes [*s, *e).
 * false when the page has no such numbered lines. */
bool sw__verify_lines_of(const char *p, size_t len, long l0, long l1, size_t *s, size_t *e)
{
	bool any = false;
	long cur = -1;
	for (size_t i = 0; i < len;) {
		size_t le = i;
		while (le < len && p[le] != '\n')
			le++;
		number_of(p, i, le, &cur);
		if (cur >= l0 && cur <= l1) {
			if (!any)
				*s = i;
			*e = le;
			any = true;
		}
		i = le + 1;
	}
	return any;
}

/* The line pin of the sentence's transcript citation that resolved to
 * page `page`: lines [*l0, *l1] of it; false when none. */
bool sw__verify_pin_of(const struct sw__verify_run *u, const struct sw_claim *c, int64_t page,
		       long *l0, long *l1)
{
	const struct sw_claims *cl = &u->r->claims;
	if (c->resolves_to < 0 || (size_t)c->resolves_to >= cl->n)
		return false;
	/* the citations it leans on: its own sentence's, or a citation
	 * sentence right after it ("... (Smith Dep. 3:7-8) and that ... (Id.
	 * at 3:9-10.)"); lines of one page cited twice are read as one run */
	size_t cs = cl->v[c->resolves_to].sentence, k0, k1;
	bool found = false;
	sw__verify_claims_near(u, c, &k0, &k1);
	for (size_t k = k0; k < k1; k++) {
		const struct sw_claim *x = &cl->v[k];
		if (x->kind != SW_CLAIM_RECORD ||
		    (x->sentence != cs && !sw__verify_cite_after(c, x)))
			continue;
		const char *line = sw_claim_get(x, "line");
		const struct sw__verify_resolved *r = &u->res[k];
		const char *le = sw_claim_get(x, "line_end"), *pe = sw_claim_get(x, "page_end");
		for (size_t q = 0; q < r->npages; q++) {
			if (r->pages[q] != page)
				continue;
			if (!line)
				return false; /* the whole page is cited */
			long a = atol(line), b = le ? atol(le) : a;
			if (pe && r->npages > 1) {
				if (q == 0)
					b = 100000;
				else if (q == r->npages - 1)
					a = 0;
				else
					a = 0, b = 100000;
			}
			if (!found || a < *l0)
				*l0 = a;
			if (!found || b > *l1)
				*l1 = b;
			found = true;
		}
	}
	return found;
}

bool sw__verify_cite_after(const struct sw_claim *c, const struct sw_claim *x)
{
	return x->start >= c->end && x->start - c->end <= 12;
}

bool sw__verify_pin(const struct sw__verify_run *u, const struct sw_claim *c, int64_t page,
		    const char *p, size_t len, size_t *s, size_t *e, long *l0, long *l1)
{
	long a, b;
	if (!sw__verify_pin_of(u, c, page, &a, &b) || !sw__verify_lines_of(p, len, a, b, s, e))
		return false;
	if (l0)
		*l0 = a;
	if (l1)
		*l1 = b;
	return true;
}

long sw__verify_line_of(const char *p, size_t len, size_t off)
{
	long cur = 0;
	for (size_t i = 0; i < len && i <= off;) {
		size_t le = i;
		while (le < len && p[le] != '\n')
			le++;
		number_of(p, i, le, &cur);
		i = le + 1;
	}
	return cur;
}
