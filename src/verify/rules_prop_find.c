/*
 * rules_prop_find.c - where a fact of a cited sentence stands: on a cited
 * page (by value, by parts, a transcript only on its pinned lines), with
 * another value of the same kind beside the same words (it differs), on
 * another line of the cited transcript page, or on a page no citation
 * named (a miscite).  rules_prop.c's proposition check reads with it.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define PROP_ELSEWHERE_PAGES 16 /* pages read when a fact is not on the cited ones */
#define PROP_NEAR 80		/* bytes before a page's number searched for a word */

static bool same_value(const struct sw_claim_fact *f, const struct sw_fact_token *t)
{
	switch (f->kind) {
	case SW_FACT_MONEY:
	case SW_FACT_QUANTITY:
		return (t->kind == SW_FACT_MONEY || t->kind == SW_FACT_QUANTITY) &&
		       t->value == f->value;
	case SW_FACT_PERCENT:
		return t->kind == SW_FACT_PERCENT && t->value == f->value;
	case SW_FACT_IDENTIFIER: {
		/* "PO 4471" and a table's column PO holding 4471 */
		const char *num = strrchr(f->id, '-');
		if (t->kind == SW_FACT_QUANTITY && !t->unit[0] && num && t->value % 100 == 0) {
			char d[32];
			snprintf(d, sizeof(d), "%lld", (long long)(t->value / 100));
			return strcmp(num + 1, d) == 0;
		}
		if (t->kind != SW_FACT_IDENTIFIER)
			return false;
		if (strcmp(t->id, f->id) == 0)
			return true;
		/* "po-4471" and "4471" after another word: the number parts agree */
		const char *a = strrchr(f->id, '-'), *b = strrchr(t->id, '-');
		return a && b && strcmp(a, b) == 0 && isdigit((unsigned char)a[1]) &&
		       strncmp(f->id, t->id, (size_t)(a - f->id)) == 0;
	}
	case SW_FACT_DATE:
		break;
	}
	return false;
}

/* Whether one of the sentence's words before fact f (four letters or more)
 * is in the page's PROP_NEAR bytes before t. */
static bool near_words(const char *s, size_t ss, const struct sw_claim_fact *f, const char *p,
		       size_t t0)
{
	size_t b = f->start > ss + 48 ? f->start - 48 : ss;
	size_t pb = t0 > PROP_NEAR ? t0 - PROP_NEAR : 0;
	for (size_t i = b; i < f->start;) {
		if (!isalpha((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t e = i;
		while (e < f->start && isalpha((unsigned char)s[e]))
			e++;
		if (e - i >= 4 && (i == 0 || !isalpha((unsigned char)s[i - 1])))
			for (size_t k = pb; k + (e - i) <= t0; k++)
				if (strncasecmp(p + k, s + i, e - i) == 0)
					return true;
		i = e;
	}
	return false;
}

/* Whether page token t is a figure of the same kind as f that says
 * something else. */
static bool differs(const struct sw__verify_run *u, const struct sw_claim *c,
		    const struct sw_claim_fact *f, const struct sw_fact_token *t, const char *p)
{
	if (same_value(f, t))
		return false;
	switch (f->kind) {
	case SW_FACT_QUANTITY:
		return t->kind == SW_FACT_QUANTITY && f->unit[0] && strcmp(f->unit, t->unit) == 0;
	case SW_FACT_MONEY:
		return t->kind == SW_FACT_MONEY && near_words(u->r->text, c->start, f, p, t->start);
	case SW_FACT_PERCENT:
		return t->kind == SW_FACT_PERCENT &&
		       near_words(u->r->text, c->start, f, p, t->start);
	case SW_FACT_IDENTIFIER: {
		const char *a = strchr(f->id, '-'), *b = strchr(t->id, '-');
		return t->kind == SW_FACT_IDENTIFIER && a && b && a - f->id == b - t->id &&
		       strncmp(f->id, t->id, (size_t)(a - f->id)) == 0;
	}
	case SW_FACT_DATE:
		break;
	}
	return false;
}

/* How far apart the values of f and page token t are, relative to the
 * larger (in thousandths); 0 for identifiers, which keep the first. */
static int64_t apart(const struct sw_claim_fact *f, const struct sw_fact_token *t)
{
	if (f->kind == SW_FACT_IDENTIFIER || f->value < 0 || t->value < 0)
		return 0;
	int64_t a = f->value, b = t->value, hi = a > b ? a : b, gap = a > b ? a - b : b - a;
	if (hi <= 0)
		return 0;
	return gap > INT64_MAX / 1000 ? gap / (hi / 1000 + 1) : gap * 1000 / hi;
}

/* Look for fact f on page id: SW__FACT_ON, SW__FACT_DIFFERS or SW__FACT_MISSING; a
 * cited transcript page only on the lines its citation pins when pins.
 * false on a hard failure. */
bool sw__verify_fact_on_page(struct sw__verify_run *u, const struct sw_claim *c,
			     const struct sw_claim_fact *f, int64_t id, struct sw__fact_check *fc,
			     bool cited, bool pins)
{
	struct sw_err e = { 0 };
	if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, id, &e), &e))
		return false;
	const char *p = u->page.data;
	struct sw__verify_lines ln = { 0 };
	size_t pos = 0, len = u->page.len, ps, pe;
	if (cited && pins && sw__verify_pin(u, c, id, p, len, &ps, &pe, NULL, NULL)) {
		sw__verify_lines_read(&ln, p, ps, pe);
		p = ln.text;
		len = ln.len;
	}
	struct sw_fact_token t;
	bool diff = false;
	size_t ds = 0, de = 0;
	int64_t dist = INT64_MAX;
	while (sw_claims_next_fact(&t, p, len, &pos)) {
		/* elsewhere, a bare value is not enough: "three weeks" is not
		 * "Three years" */
		if (same_value(f, &t) &&
		    (cited || f->kind != SW_FACT_QUANTITY || strcmp(f->unit, t.unit) == 0)) {
			fc->st = SW__FACT_ON;
			fc->page = id;
			fc->weak = f->kind == SW_FACT_QUANTITY && t.unit[0] && f->unit[0] &&
				   strcmp(f->unit, t.unit) != 0;
			fc->at = ln.map ? ln.map[t.start] : t.start;
			fc->end = ln.map ? ln.map[t.end - 1] + 1 : t.end;
			sw__verify_lines_release(&ln);
			return true;
		}
		/* of the figures that differ, the one nearest in value: the
		 * page's $18,240.00 for the sentence's $18,420.00, not the
		 * $380.00 a line before it */
		int64_t d = apart(f, &t);
		if (cited && (!diff || d < dist) && differs(u, c, f, &t, p)) {
			diff = true;
			dist = d;
			ds = t.start;
			de = t.end;
		}
	}
	if (diff && fc->st != SW__FACT_DIFFERS) {
		fc->st = SW__FACT_DIFFERS;
		fc->page = id;
		fc->page_says = sw_xstrndup(p + ds, de - ds);
	}
	sw__verify_lines_release(&ln);
	return true;
}

/* The phrase a search for fact f uses: its number grouped by thousands as
 * the search tokenizer cuts "12,000" ("12 000"), an identifier's numbers. */
static void fact_phrase(char *out, size_t cap, const struct sw_claim_fact *f)
{
	if (f->kind == SW_FACT_IDENTIFIER) {
		const char *d = strrchr(f->id, '-');
		snprintf(out, cap, "%s", d ? d + 1 : f->id);
		return;
	}
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%lld", (long long)(f->value / 100));
	size_t k = 0;
	for (int i = 0; i < n && k + 2 < cap; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ' ';
		out[k++] = digits[i];
	}
	out[k] = '\0';
	if (f->value % 100)
		snprintf(out + k, cap - k, " %02lld", (long long)(f->value % 100));
}

/* The document of page id and the page's number in it (-1 when unknown). */
static int64_t doc_of(struct sw__verify_run *u, int64_t page, uint32_t *page_no)
{
	struct sw_record_page p = { 0 };
	struct sw_err e = { 0 };
	int64_t d = -1;
	if (page_no)
		*page_no = 0;
	if (sw__verify_found(u, sw_record_page_by_id(&p, u->m, page, &e), &e)) {
		d = p.doc_id;
		if (page_no)
			*page_no = p.page_no;
	}
	sw_record_page_release(&p);
	return d;
}

/* Another evidence page, not one of the cited, that holds f: its name,
 * searched for as digits and as words ("14 days" and "fourteen days").  An
 * identifier in a heading of a cited page's document (the invoice number
 * at the top of its first page) is the document's own: *same_doc is set. */
char *sw__verify_fact_elsewhere(struct sw__verify_run *u, const struct sw_claim *c,
				const struct sw_claim_fact *f, const int64_t *pages, size_t npages,
				bool *same_doc)
{
	char phrase[64];
	struct sw_buf words = SW_BUF_INIT;
	const char *ph[1] = { phrase };
	int64_t *hits = NULL, *more = NULL;
	size_t nh = 0, nm = 0;
	char *name = NULL;
	struct sw_err e = { 0 };
	fact_phrase(phrase, sizeof(phrase), f);
	if (!sw__verify_found(u,
			      sw_record_find_pages(&hits, &nh, u->m, ph, 1,
						   PROP_ELSEWHERE_PAGES + npages, &e),
			      &e))
		return NULL;
	sw__verify_fact_words(&words, f);
	if (words.len) {
		const char *wp[1] = { words.data };
		if (sw__verify_found(u,
				     sw_record_find_pages(&more, &nm, u->m, wp, 1,
							  PROP_ELSEWHERE_PAGES + npages, &e),
				     &e) &&
		    nm) {
			hits = sw_xrealloc(hits, (nh + nm) * sizeof(*hits));
			for (size_t k = 0; k < nm; k++) {
				bool dup = false;
				for (size_t q = 0; q < nh && !dup; q++)
					dup = hits[q] == more[k];
				if (!dup)
					hits[nh++] = more[k];
			}
		}
		free(more);
	}
	sw_buf_release(&words);
	for (size_t k = 0;
	     k < nh && !*same_doc && !u->err.code && (!name || f->kind == SW_FACT_IDENTIFIER);
	     k++) {
		bool cited = false;
		for (size_t q = 0; q < npages; q++)
			cited |= pages[q] == hits[k];
		struct sw__fact_check fc = { .st = SW__FACT_MISSING };
		if (cited || !sw__verify_fact_on_page(u, c, f, hits[k], &fc, false, false) ||
		    fc.st != SW__FACT_ON)
			continue;
		if (!name)
			name = sw__verify_page_name(u, hits[k]);
		if (f->kind != SW_FACT_IDENTIFIER)
			continue;
		uint32_t no;
		int64_t d = doc_of(u, hits[k], &no);
		if (d < 0 || !sw__verify_heading(u->page.data, u->page.len, fc.at, no == 1))
			continue;
		for (size_t q = 0; q < npages && !*same_doc; q++)
			*same_doc = doc_of(u, pages[q], NULL) == d;
	}
	free(hits);
	return name;
}

/* Fact f of a pinned transcript page, outside the pinned lines: "Smith
 * Dep. 4:3" (caller frees), or NULL when it is not on those pages. */
char *sw__verify_fact_off_pin(struct sw__verify_run *u, const struct sw_claim *c,
			      const struct sw_claim_fact *f, const int64_t *pages, size_t np)
{
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		size_t s, en;
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e) ||
		    !sw__verify_pin(u, c, pages[q], u->page.data, u->page.len, &s, &en, NULL, NULL))
			continue;
		struct sw__fact_check fc = { .st = SW__FACT_MISSING };
		if (!sw__verify_fact_on_page(u, c, f, pages[q], &fc, true, false) ||
		    fc.st != SW__FACT_ON) {
			free(fc.page_says);
			continue;
		}
		long line = sw__verify_line_of(u->page.data, u->page.len, fc.at);
		char *pn = sw__verify_page_name(u, pages[q]);
		char *out = line > 0 ? sw_xasprintf("%s:%ld", pn, line) : sw_xstrdup(pn);
		free(pn);
		return out;
	}
	return NULL;
}
