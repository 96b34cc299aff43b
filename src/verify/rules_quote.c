/* rules_quote.c - the verdict of a quotation: on the pages of the citation
 * it is attributed to (a case's opinion: opinion.c; a record cite, a Bates
 * number: here), else anywhere in the evidence.  Record pages are read as words
 * (reading.c): a transcript without its line numbers and headers, and each
 * page joined to the next of its document, so a quotation that runs onto
 * the next page is found (it must start on a cited page). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/rules_int.h"

/* Lines a quotation may run on past the transcript lines cited for it
 * (it must start in them): "Smith Dep. 4:25" for an answer that goes on. */
#define SPAN_RUN_ON 2

/* The words of the quote's longest literal stretch: *n phrases to search
 * for, its first eight words, its first four and its last four (a
 * quotation over two transcript lines has a line number between its words
 * in the index). */
static size_t quote_phrases(char out[3][512], const char *q)
{
	const char *best = q;
	size_t best_len = 0;
	const char *p = q;
	while (*p) {
		const char *s = p;
		while (*p && *p != '[' && *p != ']' &&
		       !(p[0] == '.' && (p[1] == '.' || p[1] == ' ')))
			p++;
		if ((size_t)(p - s) > best_len) {
			best = s;
			best_len = (size_t)(p - s);
		}
		if (*p)
			p++;
	}
	/* word starts and ends */
	size_t ws[64], we[64], nw = 0, k = 0;
	while (k < best_len && nw < SW_ARRAY_LEN(ws)) {
		while (k < best_len && !isalnum((unsigned char)best[k]) &&
		       (unsigned char)best[k] < 0x80)
			k++;
		if (k >= best_len)
			break;
		ws[nw] = k;
		while (k < best_len &&
		       (isalnum((unsigned char)best[k]) || (unsigned char)best[k] >= 0x80))
			k++;
		we[nw++] = k;
	}
	size_t n = 0;
	if (nw == 0)
		return 0;
	size_t a = nw < 8 ? nw : 8;
	snprintf(out[n++], 512, "%.*s", (int)(we[a - 1] - ws[0]), best + ws[0]);
	if (nw > 4) {
		snprintf(out[n++], 512, "%.*s", (int)(we[3] - ws[0]), best + ws[0]);
		snprintf(out[n++], 512, "%.*s", (int)(we[nw - 1] - ws[nw - 4]), best + ws[nw - 4]);
	}
	return n;
}

/* Whether the quotation is on page id (starting there, maybe running onto
 * the next page); on a match *s, *e are its bytes of t's text. */
static bool on_page(struct sw__verify_run *u, struct sw__verify_text *t, int64_t id,
		    const char *quoted, size_t qlen, size_t *s, size_t *e)
{
	if (!sw__verify_text_read(u, t, id, true))
		return false;
	return sw_verify_quote_in(quoted, qlen, t->text.data, t->text.len, s, e) &&
	       *s < t->first_len;
}

/* The closest passage to the quotation on the pages, for a reason ("" when
 * none is close).  Caller frees. */
static char *closest_on(struct sw__verify_run *u, struct sw__verify_text *t, const int64_t *pages,
			size_t n, const char *quoted, size_t qlen)
{
	struct sw__verify_closest best = { 0 };
	char *out = NULL, *where = NULL;
	for (size_t k = 0; k < n; k++) {
		struct sw__verify_closest c;
		if (!sw__verify_text_read(u, t, pages[k], true) ||
		    !sw__verify_closest(&c, quoted, qlen, t->text.data, t->text.len, NULL, 0))
			continue;
		if (c.start >= t->first_len || (best.words && c.same <= best.same)) {
			sw__verify_closest_release(&c);
			continue;
		}
		sw__verify_closest_release(&best);
		best = c;
		free(out);
		free(where);
		out = sw__verify_closest_describe(&c, t->text.data, t->text.len);
		where = sw__verify_text_where(u, t, c.start, c.end);
	}
	sw__verify_closest_release(&best);
	char *r = out ? sw_xasprintf("; closest on %s: %s", where, out) : sw_xstrdup("");
	free(out);
	free(where);
	return r;
}

/* The closest passage in t (already read), for a reason, or "". */
static char *closest_span(struct sw__verify_run *u, struct sw__verify_text *t, const char *quoted,
			  size_t qlen)
{
	struct sw__verify_closest c;
	if (!sw__verify_closest(&c, quoted, qlen, t->text.data, t->text.len, NULL, 0))
		return sw_xstrdup("");
	char *d = sw__verify_closest_describe(&c, t->text.data, t->text.len);
	char *where = sw__verify_text_where(u, t, c.start, c.end);
	char *r = sw_xasprintf("; closest on %s: %s", where, d);
	free(d);
	free(where);
	sw__verify_closest_release(&c);
	return r;
}

/* Whether the quotation is where record citation k points: its transcript
 * lines, or one of its pages (running onto the next).  On a match t holds
 * the text and *s, *e the quotation's bytes. */
static bool on_cite(struct sw__verify_run *u, struct sw__verify_text *t, size_t k,
		    const char *quoted, size_t qlen, size_t *s, size_t *e)
{
	const struct sw__verify_resolved *rs = &u->res[k];
	const struct sw__verify_span *sp = sw__verify_span_of(u, k);
	if (sp)
		return sw__verify_text_read_span(u, t, rs->pages, rs->npages, sp, SPAN_RUN_ON) &&
		       sw_verify_quote_in(quoted, qlen, t->text.data, t->text.len, s, e) &&
		       *s < t->first_len;
	for (size_t q = 0; q < rs->npages; q++)
		if (on_page(u, t, rs->pages[q], quoted, qlen, s, e))
			return true;
	return false;
}

/* A record cite as written, its witness included. */
static char *cite_text(const struct sw__verify_run *u, const struct sw_claim *c)
{
	if (c->kind == SW_CLAIM_RECORD && c->start < c->cite_start)
		return sw_xstrndup(u->r->text + c->start, c->cite_end - c->start);
	return sw__verify_claim_text(u, c);
}

/* Quotation i attributed to record citation a (written atext): on a's
 * pages or lines, else on another record citation beside it (a sentence
 * that cites two pages, a citation sentence after it). */
static void record_quote(struct sw__verify_run *u, size_t i, size_t a, const char *atext,
			 const char *quoted, size_t qlen, struct sw__verify_text *t)
{
	const struct sw__verify_resolved *ar = &u->res[a];
	const struct sw_claim_verdict *av = &u->r->verdicts[a];
	size_t s = 0, e = 0;
	if (ar->npages == 0) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "attributed to %s, which is %s", atext,
			       sw_verdict_name(av->verdict));
		return;
	}
	struct sw__verify_near near;
	sw__verify_near(u, i, &near);
	long order[1 + SW__VERIFY_NEAR_MAX];
	size_t n = 0;
	order[n++] = (long)a;
	/* Only citations on the quotation's own side: when its citation comes
	 * after it, a citation earlier in the sentence is another claim's. */
	for (size_t k = 0; k < near.n; k++)
		if (near.cites[k] != (long)a && u->res[near.cites[k]].npages &&
		    (near.cites[k] > (long)i) == (a > i))
			order[n++] = near.cites[k];
	for (size_t k = 0; k < n; k++) {
		if (!on_cite(u, t, (size_t)order[k], quoted, qlen, &s, &e))
			continue;
		char *where = sw__verify_text_where(u, t, s, e);
		char *ct = k ? cite_text(u, &u->r->claims.v[order[k]]) : sw_xstrdup(atext);
		char *note = sw__verify_quote_note(quoted, qlen, t->text.data, t->text.len, NULL, 0);
		bool same = !strcmp(ct, where); /* not "on ACME0000003 (ACME0000003)" */
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "on %s%s%s%s%s%s", ct, same ? "" : " (",
			       same ? "" : where, same ? "" : ")", note ? "; " : "", note ? note : "");
		free(note);
		sw__verify_text_evidence(u, i, t, s, e);
		free(ct);
		free(where);
		return;
	}
	/* On the cited pages only through an ellipsis or a bracket that adds
	 * or drops a negation: the quotation says the opposite of the page. */
	for (size_t q = 0; q < ar->npages && q < SW_VERIFY_MAX_PAGES; q++) {
		if (!sw__verify_text_read(u, t, ar->pages[q], true))
			continue;
		char *why = sw__verify_quote_reversed(quoted, qlen, t->text.data, t->text.len, NULL,
						      0, &s, &e);
		if (why && s < t->first_len) {
			char *where = sw__verify_text_where(u, t, s, e);
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "on %s only as altered: %s",
				       where, why);
			sw__verify_text_evidence(u, i, t, s, e);
			free(where);
			free(why);
			return;
		}
		free(why);
	}
	/* The other citations tried, for the reason. */
	struct sw_buf also = SW_BUF_INIT;
	for (size_t k = 1; k < n && k < 4; k++) {
		const struct sw__verify_resolved *rk = &u->res[order[k]];
		char *ct = cite_text(u, &u->r->claims.v[order[k]]);
		char *pn = sw__verify_pages_name(u, rk->pages, rk->npages);
		sw_buf_addf(&also, ", nor on %s (%s)", ct, pn);
		free(ct);
		free(pn);
	}
	const char *nor = also.len ? also.data : "";
	const struct sw__verify_span *sp = sw__verify_span_of(u, a);
	if (sp && sw__verify_text_read_span(u, t, ar->pages, ar->npages, sp, 0)) {
		char *where = sw__verify_text_where(u, t, 0, t->text.len);
		char *close = closest_span(u, t, quoted, qlen);
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "not found verbatim in the cited lines, %s%s%s", where, nor, close);
		free(close);
		free(where);
	} else {
		char *where = sw__verify_pages_name(u, ar->pages, ar->npages);
		char *close = closest_on(u, t, ar->pages, ar->npages, quoted, qlen);
		bool same = !strcmp(atext, where); /* "ACME0000003 (ACME0000003)" */
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "not found verbatim on %s%s%s%s%s%s",
			       atext, same ? "" : " (", same ? "" : where, same ? "" : ")", nor,
			       close);
		free(close);
		free(where);
	}
	sw_buf_release(&also);
}

/* Quotation i attributed to statute or rule ac (written atext): in the
 * section's text when `authorities import --texts` stored it. */
static void code_quote(struct sw__verify_run *u, size_t i, const struct sw_claim *ac,
		       const char *atext, const char *quoted, size_t qlen)
{
	const char *code = sw_claim_get(ac, "code");
	const char *section = sw_claim_get(ac, ac->kind == SW_CLAIM_RULE ? "rule" : "section");
	struct sw_buf text = SW_BUF_INIT;
	struct sw_err e = { 0 };
	size_t s = 0, end = 0;
	if (!code)
		code = sw_claim_get(ac, "reporter");
	int rc = !u->auth || !code || !section || ac->kind == SW_CLAIM_JOURNAL
			 ? SW_ENOTFOUND
			 : sw_authority_code_text(&text, u->auth, code, sw_claim_get(ac, "title"),
						  section, &e);
	if (rc == SW_ENOTFOUND && ac->kind != SW_CLAIM_JOURNAL) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "no text of %s is stored: add the "
			       "section's text with `sworn authorities import --texts FILE` (a CSV "
			       "of cite,text or JSON Lines)", atext);
	} else if (rc != 0) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "no text of %s is stored%s%s", atext,
			       e.code ? ": " : "", e.code ? e.msg : "");
	} else if (sw_verify_quote_in(quoted, qlen, text.data, text.len, &s, &end)) {
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "in the text of %s", atext);
		struct sw_evidence *ev = sw__verify_add_evidence(u, i);
		ev->source = "authority";
		ev->cite = sw_xstrdup(atext);
		ev->excerpt = sw__verify_excerpt(text.data, text.len, s, end);
	} else {
		struct sw__verify_closest c;
		char *close = NULL;
		if (sw__verify_closest(&c, quoted, qlen, text.data, text.len, NULL, 0)) {
			close = sw__verify_closest_describe(&c, text.data, text.len);
			sw__verify_closest_release(&c);
		}
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "not found verbatim in the text of %s%s%s", atext,
			       close ? "; closest: " : "", close ? close : "");
		free(close);
	}
	sw_buf_release(&text);
}

void sw__verify_quote(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *quoted = sw_claim_get(c, "quoted");
	int64_t *found = NULL;
	size_t nfound = 0;
	struct sw__verify_text t;
	sw__verify_text_init(&t);
	if (!quoted || !*quoted) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "an empty quotation");
		goto done;
	}
	size_t qlen = strlen(quoted), s = 0, e = 0;
	long a = c->attributed_to;
	if (a >= 0 && (size_t)a < u->r->claims.n) {
		const struct sw_claim *ac = &u->r->claims.v[a];
		char *atext = cite_text(u, ac);
		if (ac->kind == SW_CLAIM_CASE) {
			/* the opinion's text, on its pin's star pages (opinion.c) */
			free(atext);
			sw__verify_quote_opinion(u, i, (size_t)a);
			goto done;
		}
		if (ac->kind == SW_CLAIM_STATUTE || ac->kind == SW_CLAIM_RULE ||
		    ac->kind == SW_CLAIM_JOURNAL) {
			code_quote(u, i, ac, atext, quoted, qlen);
			free(atext);
			goto done;
		}
		if (ac->kind == SW_CLAIM_RECORD || ac->kind == SW_CLAIM_BATES) {
			record_quote(u, i, (size_t)a, atext, quoted, qlen, &t);
			free(atext);
			goto done;
		}
		free(atext);
	}
	/* Not attributed: it may still be the record's words. */
	char phrases[3][512];
	const char *pp[3];
	size_t np = quote_phrases(phrases, quoted);
	for (size_t k = 0; k < np; k++)
		pp[k] = phrases[k];
	struct sw_err err = { 0 };
	if (sw_record_find_pages(&found, &nfound, u->m, pp, np, SW_VERIFY_MAX_CANDIDATES, &err) !=
	    0) {
		u->err = err;
		goto done;
	}
	for (size_t k = 0; k < nfound; k++) {
		if (on_page(u, &t, found[k], quoted, qlen, &s, &e)) {
			char *where = sw__verify_text_where(u, &t, s, e);
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
				       "found in the evidence (%s), though no citation says where",
				       where);
			sw__verify_text_evidence(u, i, &t, s, e);
			free(where);
			goto done;
		}
	}
	sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
		       "no citation says where this is from, and it is not in the evidence");
done:
	sw__verify_text_release(&t);
	free(found);
}
