/* opinion.c - a quotation attributed to a case, checked against the stored
 * opinion text, on the page its pin names.
 *
 * Opinion texts carry the reporter's pages as star markers: "*322",
 * "[*322]", "*322" at the start of a line (CourtListener's plain text and
 * html_with_citations, Westlaw and Lexis prints).  A marker starts its page:
 * the text from "*322" to the next marker is page 322, the text before the
 * first marker the case's first page.  A marker counts only when its page
 * lies in the case's range and does not go back, so a footnote's "*" or a
 * number after an asterisk in the prose is not a page.  Markers with more
 * stars ("[**2553]", another reporter's pages), HTML tags and entities are
 * not words either.  A quotation with a pin must start on the pinned pages,
 * or run onto them from the page before; one found elsewhere in the opinion
 * is contradicted with the page it is on. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/quote_int.h"

#define MAX_MARK_DIGITS 6
#define MAX_TAG 1024
#define MAX_ENTITY 10
#define UNKNOWN_LAST_PAGES 5000 /* pages a case may run when its end is unknown */

struct star {
	size_t at;     /* where the page starts (the marker's first byte) */
	uint64_t page;
};

struct opinion {
	struct sw__verify_skip *skip;
	size_t nskip, skip_cap;
	struct star *star;
	size_t nstar, star_cap;
};

static void add_skip(struct opinion *o, size_t s, size_t e, bool join)
{
	o->skip = sw_xgrow(o->skip, &o->skip_cap, o->nskip + 1, sizeof(*o->skip));
	o->skip[o->nskip++] = (struct sw__verify_skip){ s, e, join };
}

static bool looks_html(const char *t, size_t n)
{
	size_t look = n < 65536 ? n : 65536;
	for (size_t i = 0; i + 2 < look; i++)
		if (t[i] == '<' && (t[i + 1] == '/' || t[i + 1] == 'p' || t[i + 1] == 'd' ||
				    t[i + 1] == 's' || t[i + 1] == 'a' || t[i + 1] == 'b' ||
				    t[i + 1] == 'h' || t[i + 1] == 'i'))
			return true;
	return false;
}

/* The markers and the ranges that are not words. */
static void read_opinion(struct opinion *o, const char *t, size_t n, uint64_t first,
			 uint64_t last)
{
	bool html = looks_html(t, n);
	uint64_t top = last ? last : first + UNKNOWN_LAST_PAGES, prev = first;
	for (size_t i = 0; i < n; i++) {
		if (html && t[i] == '<') {
			size_t e = i + 1;
			while (e < n && e - i < MAX_TAG && t[e] != '>' && t[e] != '<')
				e++;
			if (e < n && t[e] == '>') {
				add_skip(o, i, e + 1, false);
				i = e;
				continue;
			}
		}
		if (html && t[i] == '&') {
			size_t e = i + 1;
			while (e < n && e - i < MAX_ENTITY && (isalnum((unsigned char)t[e]) || t[e] == '#'))
				e++;
			if (e < n && t[e] == ';' && e > i + 1) {
				/* "court&#8217;s": inside a word it joins. */
				bool inside = i > 0 && isalpha((unsigned char)t[i - 1]) && e + 1 < n &&
					      isalpha((unsigned char)t[e + 1]);
				add_skip(o, i, e + 1, inside);
				i = e;
				continue;
			}
		}
		if (t[i] != '*' || (i > 0 && t[i - 1] == '*'))
			continue;
		/* "*322", "[*322]", "**2553", "[***265]". */
		size_t s = i, stars = 0, k = i;
		while (k < n && t[k] == '*')
			k++, stars++;
		size_t ds = k;
		while (k < n && k - ds < MAX_MARK_DIGITS + 1 && isdigit((unsigned char)t[k]))
			k++;
		if (k == ds || k - ds > MAX_MARK_DIGITS || (k < n && isalnum((unsigned char)t[k])))
			continue;
		bool open = s > 0 && t[s - 1] == '[';
		unsigned char before = s > 0 ? (unsigned char)t[s - 1] : '\n';
		if (!(open || isspace(before) || before == '(' || before == '>' || before == '"'))
			continue;
		size_t e = k;
		if (open && e < n && t[e] == ']') {
			s--;
			e++;
		}
		uint64_t page = 0;
		for (size_t d = ds; d < k; d++)
			page = page * 10 + (uint64_t)(t[d] - '0');
		if (stars == 1 && page >= prev && page >= first && page <= top) {
			o->star = sw_xgrow(o->star, &o->star_cap, o->nstar + 1, sizeof(*o->star));
			o->star[o->nstar++] = (struct star){ s, page };
			prev = page;
		} else if (stars == 1) {
			continue; /* "*5" in the prose: a word like any other */
		}
		add_skip(o, s, e, false);
		i = e - 1;
	}
}

/* The page of byte off. */
static uint64_t page_of(const struct opinion *o, size_t off, uint64_t first)
{
	uint64_t p = first;
	size_t lo = 0, hi = o->nstar;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->star[mid].at <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0)
		p = o->star[lo - 1].page;
	return p;
}

/* Where page p starts (0 before the first marker), and where the page after
 * q ends. */
static void page_span(const struct opinion *o, uint64_t p, uint64_t q, uint64_t first, size_t len,
		      size_t *from, size_t *to)
{
	*from = p <= first ? 0 : len;
	*to = len;
	for (size_t k = 0; k < o->nstar; k++) {
		if (o->star[k].page >= p && *from == len)
			*from = o->star[k].at;
		if (o->star[k].page > q) {
			*to = o->star[k].at;
			break;
		}
	}
	if (*from > *to)
		*from = *to;
}

/* The pages a pin names: "322", "322-23", "1291-93", "at 5". */
static bool read_pin(const char *pin, uint64_t *lo, uint64_t *hi)
{
	if (!sw__verify_num(pin, lo))
		return false;
	*hi = *lo;
	const char *p = pin;
	while (*p && !isdigit((unsigned char)*p))
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '-' || (unsigned char)*p == 0xE2) {
		while (*p && !isdigit((unsigned char)*p) && p - pin < 64)
			p++;
		uint64_t end;
		size_t nd = 0;
		while (isdigit((unsigned char)p[nd]))
			nd++;
		if (nd && nd <= 18 && sw_parse_u64(p, nd, &end)) {
			/* "322-23": the end keeps the start's leading digits. */
			uint64_t scale = 1;
			for (size_t k = 0; k < nd; k++)
				scale *= 10;
			if (end < *lo)
				end = (*lo / scale) * scale + end;
			if (end >= *lo && end - *lo < 1000)
				*hi = end;
		}
	}
	return true;
}

static void add_opinion_evidence(struct sw__verify_run *u, size_t i,
				 const struct sw_authority_case *k, const char *text, size_t len,
				 size_t s, size_t e)
{
	struct sw_evidence *ev = sw__verify_add_evidence(u, i);
	ev->source = "authority";
	ev->cite = sw_xasprintf("%s %s %s", k->volume, k->reporter, k->page);
	ev->name = k->name ? sw_xstrdup(k->name) : NULL;
	ev->excerpt = sw__verify_excerpt(text, len, s, e);
}

/* "; [Acme] stands for \"the buyer\"" for a reason, or "" (sub not found).
 * Caller frees. */
static char *altered(const struct sw__verify_pattern *p, const struct sw__words *w, const char *text,
		     const struct sw__verify_alter *sub)
{
	if (!sub->found)
		return sw_xstrdup("");
	char *d = sw__verify_alter_describe(p, w, text, sub);
	char *r = sw_xasprintf("; %s", d);
	free(d);
	return r;
}

void sw__verify_quote_opinion(struct sw__verify_run *u, size_t i, size_t a)
{
	const struct sw_claim *qc = &u->r->claims.v[i];
	const struct sw_claim *ac = &u->r->claims.v[a];
	const struct sw_claim_verdict *av = &u->r->verdicts[a];
	const struct sw__verify_resolved *ar = &u->res[a];
	const char *quoted = sw_claim_get(qc, "quoted");
	char *atext = sw__verify_claim_text(u, ac);
	struct sw_buf op = SW_BUF_INIT;
	struct opinion o = { 0 };
	struct sw__verify_pattern p = { 0 };
	struct sw__words w = { 0 };
	struct sw__verify_closest cl = { 0 };
	const struct sw_authority_case *k = &ar->kase;
	struct sw__verify_alter sub;
	char *note = NULL;
	if (!quoted || !*quoted) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "an empty quotation");
		goto done;
	}
	if (!ar->have_case || av->verdict == SW_VERDICT_UNSUPPORTED ||
	    av->verdict == SW_VERDICT_CONTRADICTED) {
		sw__verify_set(u, i,
			       av->verdict == SW_VERDICT_UNVERIFIABLE ? SW_VERDICT_UNVERIFIABLE
								      : SW_VERDICT_UNSUPPORTED,
			       "attributed to %s, which is %s", atext, sw_verdict_name(av->verdict));
		goto done;
	}
	if (!k->has_text) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "no opinion text of %s is stored",
			       atext);
		goto done;
	}
	struct sw_err err = { 0 };
	if (sw_authority_text(&op, u->auth, k->id, &err) != 0) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "the opinion text of %s cannot be read: %s", atext, err.msg);
		goto done;
	}
	/* The case by name from here on: "Id. at 324" says less. */
	free(atext);
	atext = k->name ? sw_xasprintf("%s, %s %s %s", k->name, k->volume, k->reporter, k->page)
			: sw_xasprintf("%s %s %s", k->volume, k->reporter, k->page);
	uint64_t first = k->first_page, lo = 0, hi = 0;
	/* A bare "Id." cites the page the citation before it cited. */
	const struct sw_claim *pc = ac;
	const char *pin = sw_claim_get(pc, "pin");
	for (int hops = 0; !pin && pc->form == SW_FORM_ID && pc->resolves_to >= 0 &&
			   (size_t)pc->resolves_to < u->r->claims.n && hops < 16;
	     hops++) {
		pc = &u->r->claims.v[pc->resolves_to];
		pin = sw_claim_get(pc, "pin");
	}
	if (!pin && pc->form == SW_FORM_SHORT)
		pin = sw_claim_get(pc, "page");
	bool pinned = pin && read_pin(pin, &lo, &hi);
	char pins[48];
	if (lo == hi)
		snprintf(pins, sizeof(pins), "%llu", (unsigned long long)lo);
	else
		snprintf(pins, sizeof(pins), "%llu-%llu", (unsigned long long)lo,
			 (unsigned long long)hi);
	read_opinion(&o, op.data, op.len, first, k->last_page);
	sw__verify_pattern_init(&p, quoted, strlen(quoted));
	sw__verify_words_init(&w, op.data, op.len, o.skip, o.nskip);
	bool paged = o.nstar > 0 && first > 0;
	size_t from = 0, to = w.n, ws, we;
	if (pinned && paged) {
		size_t bf, bt;
		page_span(&o, lo, hi, first, op.len, &bf, &bt);
		from = sw__verify_words_at(&w, bf);
		to = sw__verify_words_at(&w, bt);
		if (sw__verify_pattern_find_sub(&p, &w, from, to, &ws, &we, &sub)) {
			size_t s = w.map[w.w[ws].s], e = sw__verify_words_end(&w, we - 1);
			note = altered(&p, &w, op.data, &sub);
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "on page %llu of the opinion in %s%s",
				       (unsigned long long)page_of(&o, s, first), atext, note);
			add_opinion_evidence(u, i, k, op.data, op.len, s, e);
			goto done;
		}
	}
	if (sw__verify_pattern_find_sub(&p, &w, 0, w.n, &ws, &we, &sub)) {
		size_t s = w.map[w.w[ws].s], e = sw__verify_words_end(&w, we - 1);
		uint64_t ps = page_of(&o, s, first), pe = page_of(&o, e ? e - 1 : 0, first);
		note = altered(&p, &w, op.data, &sub);
		if (!pinned || !paged) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "in the opinion in %s%s%s", atext,
				       !pinned ? ""
				       : " (its text has no star pages, so the pin is not checked)",
				       note);
		} else if (pe >= lo && ps <= hi) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
				       "on pages %llu-%llu of the opinion in %s%s", (unsigned long long)ps,
				       (unsigned long long)pe, atext, note);
		} else {
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "in the opinion in %s, but on page %llu, not at the pin %s",
				       atext, (unsigned long long)ps, pins);
		}
		add_opinion_evidence(u, i, k, op.data, op.len, s, e);
		goto done;
	}
	/* In it only through an ellipsis or a bracket that adds or drops a
	 * negation: the quotation reverses the opinion. */
	struct sw__verify_alter rev;
	if (sw__verify_pattern_find_alter(&p, &w, 0, w.n, &ws, &we, &rev, NULL) && rev.found) {
		size_t s = w.map[w.w[ws].s], e = sw__verify_words_end(&w, we - 1);
		char *why = sw__verify_alter_describe(&p, &w, op.data, &rev);
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "in the opinion in %s only as altered: %s",
			       atext, why);
		add_opinion_evidence(u, i, k, op.data, op.len, s, e);
		free(why);
		goto done;
	}
	/* Not in the opinion: the closest passage on the pinned pages, else
	 * anywhere in it. */
	bool near = pinned && paged && sw__verify_closest_in(&cl, &p, &w, op.data, from, to);
	if (!near)
		near = sw__verify_closest_in(&cl, &p, &w, op.data, 0, w.n);
	if (near) {
		char *d = sw__verify_closest_describe(&cl, op.data, op.len);
		if (paged)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "not found in the opinion in %s; closest on page %llu: %s",
				       atext, (unsigned long long)page_of(&o, cl.start, first), d);
		else
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "not found in the opinion in %s; closest: %s", atext, d);
		add_opinion_evidence(u, i, k, op.data, op.len, cl.start, cl.end);
		free(d);
	} else {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "not found in the opinion in %s, nor anything close to it", atext);
	}
done:
	free(note);
	sw__verify_closest_release(&cl);
	sw__verify_words_release(&w);
	sw__verify_pattern_release(&p);
	free(o.skip);
	free(o.star);
	sw_buf_release(&op);
	free(atext);
}
