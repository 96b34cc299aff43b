/* rules_record.c - the verdict rules for the record: Bates numbers, record
 * cites, dates and quotations; sw_verify() in verify.c calls the first two
 * in its first pass and the others in its second, against what the
 * citations beside them resolved to. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/verify_int.h"

/* ------------------------------------------------------------------ Bates */

static const char *production(struct sw__verify_run *u)
{
	if (!u->bates_summary) {
		struct sw_err e = { 0 };
		if (sw_record_bates_summary(&u->bates_summary, u->m, &e) != 0 || !u->bates_summary)
			u->bates_summary = sw_xstrdup("");
		if (!*u->bates_summary) {
			free(u->bates_summary);
			u->bates_summary = sw_xstrdup("no page of the matter is Bates-numbered");
		}
	}
	return u->bates_summary;
}

void sw__verify_bates(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *prefix = sw_claim_get(c, "prefix");
	const char *end = sw_claim_get(c, "end");
	uint64_t first, last;
	char *text = sw__verify_claim_text(u, c);
	struct sw_err e = { 0 };
	if (!prefix || !sw__verify_num(sw_claim_get(c, "number"), &first)) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "%s is not a Bates number sworn can read", text);
		goto done;
	}
	last = first;
	if (end) {
		/* The end of a range: its last digit run. */
		const char *d = end + strlen(end);
		while (d > end && !isdigit((unsigned char)d[-1]))
			d--;
		const char *ds = d;
		while (ds > end && isdigit((unsigned char)ds[-1]))
			ds--;
		if (ds == d || (size_t)(d - ds) > 18 ||
		    !sw_parse_u64(ds, (size_t)(d - ds), &last) || last < first) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not a range sworn can read", text);
			goto done;
		}
	}
	uint64_t have = 0;
	if (sw_record_bates_count(&have, u->m, prefix, first, last, &e) != 0) {
		u->err = e;
		goto done;
	}
	if (have != last - first + 1) {
		if (first == last)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not in the production (%s)", text, production(u));
		else
			sw__verify_set(
				u, i, SW_VERDICT_UNSUPPORTED,
				"%llu of the %llu pages of %s are not in the production (%s)",
				(unsigned long long)(last - first + 1 - have),
				(unsigned long long)(last - first + 1), text, production(u));
		goto done;
	}
	sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is in the production", text);
	for (uint64_t n = first; n <= last && u->res[i].npages < SW_VERIFY_MAX_PAGES; n++) {
		struct sw_record_page p;
		if (sw_record_page_by_bates(&p, u->m, prefix, n, NULL) == 0) {
			sw__verify_remember_page(&u->res[i], p.id);
			if (n == first || n == last)
				sw__verify_add_page_evidence(u, i, &p, NULL);
		}
		sw_record_page_release(&p);
	}
done:
	free(text);
}

/* ----------------------------------------------------------- record cites */

void sw__verify_record(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *witness = sw_claim_get(c, "witness");
	const char *label = sw_claim_get(c, "label");
	const char *number = sw_claim_get(c, "number");
	const char *form = sw_claim_get(c, "form");
	char *text = sw__verify_claim_text(u, c);
	struct sw_record_page doc = { 0 }, p = { 0 };
	struct sw_err e = { 0 };
	struct sw_buf name = SW_BUF_INIT;
	if (witness)
		sw_buf_addf(&name, "%s ", witness);
	if (label)
		sw_buf_addf(&name, "%s ", label);
	if (number)
		sw_buf_adds(&name, number);
	sw_trim(name.data);
	name.len = strlen(name.data);
	int rc = sw_record_doc_by_label(&doc, u->m, name.data, &e);
	if (rc == SW_ENOTFOUND) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "no document of the record is labelled '%s'", name.data);
		goto done;
	} else if (rc) {
		u->err = e;
		goto done;
	}
	uint64_t page = 0, line = 0, line_end = 0;
	bool has_page = sw__verify_num(sw_claim_get(c, "page"), &page);
	bool has_line = sw__verify_num(sw_claim_get(c, "line"), &line);
	if (!sw__verify_num(sw_claim_get(c, "line_end"), &line_end))
		line_end = line;
	bool transcript = has_line || (form && (strcmp(form, "deposition") == 0 ||
						strcmp(form, "transcript") == 0));
	if (transcript && has_page) {
		uint64_t first = has_line ? line : 1, last = has_line ? line_end : UINT32_MAX;
		uint32_t found = 0;
		if (page > UINT32_MAX || last < first || last > UINT32_MAX) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "%s: no such page or lines",
				       text);
			goto done;
		}
		if ((rc = sw_record_transcript_lines(&found, &p, u->m, doc.doc_id, (uint32_t)page,
						     (uint32_t)first, (uint32_t)last, &e)) != 0) {
			u->err = e;
			goto done;
		}
		if (found == 0 || (has_line && found != last - first + 1)) {
			if (found == 0)
				sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
					       "%s (%s) has no page %llu%s", name.data,
					       doc.document, (unsigned long long)page,
					       has_line ? " with those lines" : "");
			else
				sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
					       "%s (%s) page %llu has only %u of lines %llu-%llu",
					       name.data, doc.document, (unsigned long long)page,
					       found, (unsigned long long)first,
					       (unsigned long long)last);
			goto done;
		}
		sw__verify_remember_page(&u->res[i], p.id);
		if (has_line && last != first) {
			struct sw_record_page lastp = { 0 };
			uint32_t f2 = 0;
			if (sw_record_transcript_lines(&f2, &lastp, u->m, doc.doc_id,
						       (uint32_t)page, (uint32_t)last,
						       (uint32_t)last, NULL) == 0 &&
			    f2)
				sw__verify_remember_page(&u->res[i], lastp.id);
			sw_record_page_release(&lastp);
		}
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s", name.data, doc.document);
		sw__verify_add_page_evidence(u, i, &p, NULL);
		goto done;
	}
	if (has_page) {
		if (page == 0 || page > UINT32_MAX ||
		    (rc = sw_record_doc_page(&p, u->m, doc.doc_id, (uint32_t)page, &e)) ==
			    SW_ENOTFOUND) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s (%s) has %u page%s, not a page %llu", name.data,
				       doc.document, doc.page_count, doc.page_count == 1 ? "" : "s",
				       (unsigned long long)page);
			goto done;
		} else if (rc) {
			u->err = e;
			goto done;
		}
		sw__verify_remember_page(&u->res[i], p.id);
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s", name.data, doc.document);
		sw__verify_add_page_evidence(u, i, &p, NULL);
		goto done;
	}
	/* The whole document. */
	sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s", name.data, doc.document);
	sw__verify_add_page_evidence(u, i, &doc, NULL);
	for (uint32_t k = 1; k <= doc.page_count && u->res[i].npages < SW_VERIFY_MAX_PAGES; k++) {
		struct sw_record_page q;
		if (sw_record_doc_page(&q, u->m, doc.doc_id, k, NULL) == 0)
			sw__verify_remember_page(&u->res[i], q.id);
		sw_record_page_release(&q);
	}
done:
	sw_buf_release(&name);
	sw_record_page_release(&doc);
	sw_record_page_release(&p);
	free(text);
}

/* ------------------------------------------- the citations beside a claim */

/* Whether the text before a sentence's first claim is only a signal ("See",
 * "See also", "Cf.", "E.g.,"), so that the sentence is a citation sentence
 * for the one before it. */
static bool citation_sentence(const struct sw__verify_run *u, size_t sentence,
			      size_t first_claim_start)
{
	const struct sw_sentence *s = &u->r->claims.sentences[sentence];
	if (first_claim_start < s->start || first_claim_start - s->start > 24)
		return false;
	static const char *const signals[] = { "see", "also", "cf", "e.g", "accord", "compare",
					       "but", "contra", "generally", "and", "with" };
	const char *p = u->r->text + s->start, *e = u->r->text + first_claim_start;
	while (p < e) {
		while (p < e && !isalpha((unsigned char)*p))
			p++;
		const char *w = p;
		while (p < e && (isalpha((unsigned char)*p) || *p == '.'))
			p++;
		if (p == w)
			break;
		size_t n = (size_t)(p - w);
		while (n && w[n - 1] == '.')
			n--;
		bool ok = false;
		for (size_t k = 0; k < SW_ARRAY_LEN(signals); k++)
			if (strlen(signals[k]) == n && strncasecmp(w, signals[k], n) == 0)
				ok = true;
		if (!ok)
			return false;
	}
	return true;
}

/* The pages cited in claim i's sentence, or in the citation sentence right
 * after it; *any_cite says whether there was a record cite at all. */
static size_t cited_pages(struct sw__verify_run *u, size_t i, int64_t *pages, size_t max,
			  bool *any_cite, long *case_claim)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t sent = cl->v[i].sentence, n = 0;
	*any_cite = false;
	*case_claim = -1;
	for (int pass = 0; pass < 2; pass++) {
		size_t want = sent + (size_t)pass;
		/* Claims are in order: walk out from i. */
		size_t k = i;
		while (k > 0 && cl->v[k - 1].sentence >= sent)
			k--;
		bool first_in_sentence = true;
		for (; k < cl->n && cl->v[k].sentence <= want; k++) {
			const struct sw_claim *c = &cl->v[k];
			if (c->sentence != want)
				continue;
			if (pass == 1 && first_in_sentence && !citation_sentence(u, want, c->start))
				break;
			first_in_sentence = false;
			if (c->kind == SW_CLAIM_CASE && *case_claim < 0)
				*case_claim = (long)k;
			if (c->kind != SW_CLAIM_RECORD && c->kind != SW_CLAIM_BATES)
				continue;
			*any_cite = true;
			for (size_t j = 0; j < u->res[k].npages && n < max; j++) {
				bool dup = false;
				for (size_t q = 0; q < n; q++)
					dup |= pages[q] == u->res[k].pages[j];
				if (!dup)
					pages[n++] = u->res[k].pages[j];
			}
		}
		if (*any_cite || *case_claim >= 0)
			break;
	}
	return n;
}

/* ------------------------------------------------------------------ dates */

static const char *const months[] = { "january", "february", "march", "april", "may", "june",
				      "july", "august", "september", "october", "november",
				      "december" };

/* Phrases that find a page holding the date iso (precision by length). */
static size_t date_phrases(char out[][48], const char *iso)
{
	unsigned y = 0, mo = 0, d = 0;
	size_t n = 0, len = strlen(iso);
	if (len >= 4)
		y = (unsigned)strtoul(iso, NULL, 10);
	if (len >= 7)
		mo = (unsigned)strtoul(iso + 5, NULL, 10);
	if (len >= 10)
		d = (unsigned)strtoul(iso + 8, NULL, 10);
	if (y == 0)
		return 0;
	if (mo < 1 || mo > 12 || d == 0) {
		/* A month or a year: every page of that year, checked one by one. */
		snprintf(out[n++], 48, "%u", y);
		return n;
	}
	const char *mn = months[mo - 1];
	snprintf(out[n++], 48, "%s %u %u", mn, d, y);
	snprintf(out[n++], 48, "%.3s %u %u", mn, d, y);
	snprintf(out[n++], 48, "%u %s %u", d, mn, y);
	snprintf(out[n++], 48, "%u %u %u", mo, d, y);
	snprintf(out[n++], 48, "%02u %02u %u", mo, d, y);
	snprintf(out[n++], 48, "%u %02u %02u", y, mo, d);
	snprintf(out[n++], 48, "%u %u %02u", mo, d, y % 100);
	if (mo == 9)
		snprintf(out[n++], 48, "sept %u %u", d, y);
	return n;
}

static bool date_on_page(struct sw__verify_run *u, int64_t id, const char *iso, char other[16],
			 size_t *nother, size_t *excerpt_at)
{
	char isos[64][16];
	struct sw_claims scan = { 0 };
	bool hit = false;
	size_t len = strlen(iso);
	if (sw_record_page_text(&u->page, u->m, id, NULL) != 0)
		return false;
	if (sw_claims_scan(&scan, u->page.data, u->page.len, NULL) != 0)
		return false;
	size_t n = 0;
	for (size_t k = 0; k < scan.n && n < SW_ARRAY_LEN(isos); k++) {
		const char *d = sw_claim_get(&scan.v[k], "iso");
		if (scan.v[k].kind != SW_CLAIM_DATE || !d)
			continue;
		if (!hit && strlen(d) >= len && strncmp(d, iso, len) == 0) {
			hit = true;
			*excerpt_at = scan.v[k].start;
		}
		bool dup = false;
		for (size_t q = 0; q < n; q++)
			dup |= strcmp(isos[q], d) == 0;
		if (!dup)
			snprintf(isos[n++], 16, "%s", d);
	}
	sw_claims_release(&scan);
	/* Other full dates on the cited pages, for an unambiguous contradiction. */
	for (size_t q = 0; q < n; q++) {
		if (strlen(isos[q]) != 10 || strcmp(isos[q], other) == 0)
			continue;
		if (*nother == 0)
			snprintf(other, 16, "%s", isos[q]);
		(*nother)++;
	}
	return hit;
}

/* Evidence: page id, with an excerpt of its text around [start, end). */
static void page_evidence_at(struct sw__verify_run *u, size_t i, int64_t id, size_t start,
			     size_t end)
{
	struct sw_record_page p = { 0 };
	if (sw_record_page_by_id(&p, u->m, id, NULL) == 0 &&
	    sw_record_page_text(&u->page, u->m, id, NULL) == 0) {
		char *ex = sw__verify_excerpt(u->page.data, u->page.len, start, end);
		sw__verify_add_page_evidence(u, i, &p, ex);
		free(ex);
	}
	sw_record_page_release(&p);
}

/* "ACME0000004" or "smith-dep.txt p. 2" for page id, for reasons. */
static char *page_name(struct sw__verify_run *u, int64_t id)
{
	struct sw_record_page p = { 0 };
	char *s;
	if (sw_record_page_by_id(&p, u->m, id, NULL) != 0)
		s = sw_xstrdup("?");
	else if (p.bates)
		s = sw_xstrdup(p.bates);
	else
		s = sw_xasprintf("%s p. %u", p.document, p.page_no);
	sw_record_page_release(&p);
	return s;
}

static char *pages_name(struct sw__verify_run *u, const int64_t *pages, size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	for (size_t k = 0; k < n && k < 4; k++) {
		char *s = page_name(u, pages[k]);
		sw_buf_addf(&b, "%s%s", k ? ", " : "", s);
		free(s);
	}
	if (n > 4)
		sw_buf_addf(&b, " and %zu more", n - 4);
	return sw_buf_detach(&b, NULL);
}

void sw__verify_date(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *iso = sw_claim_get(c, "iso");
	char *text = sw__verify_claim_text(u, c);
	int64_t pages[SW_VERIFY_MAX_PAGES];
	bool any_cite;
	long case_claim;
	int64_t *found = NULL;
	size_t nfound = 0;
	if (!iso || strlen(iso) < 4 || !isdigit((unsigned char)iso[0])) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "%s is not a date sworn can place",
			       text);
		goto done;
	}
	size_t n = cited_pages(u, i, pages, SW_ARRAY_LEN(pages), &any_cite, &case_claim);
	if (n > 0) {
		char other[16] = "";
		size_t nother = 0, at = 0;
		for (size_t k = 0; k < n; k++) {
			if (date_on_page(u, pages[k], iso, other, &nother, &at)) {
				sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
					       "%s is on the cited page", text);
				page_evidence_at(u, i, pages[k], at, at + 1);
				goto done;
			}
		}
		char *where = pages_name(u, pages, n);
		if (nother == 1 && strlen(iso) == 10)
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "the cited page (%s) gives %s, not %s", where, other, iso);
		else
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not on the cited page (%s)", text, where);
		free(where);
		goto done;
	}
	if (!any_cite && case_claim >= 0 && u->res[case_claim].have_case &&
	    u->res[case_claim].kase.year > 0 &&
	    (int)strtol(iso, NULL, 10) == u->res[case_claim].kase.year) {
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "the year of the case cited beside it");
		sw__verify_add_case_evidence(u, i, &u->res[case_claim].kase);
		goto done;
	}
	/* No citation beside it: it must appear somewhere in the evidence. */
	char phrases[12][48];
	const char *pp[12];
	size_t np = date_phrases(phrases, iso);
	for (size_t k = 0; k < np; k++)
		pp[k] = phrases[k];
	struct sw_err e = { 0 };
	if (sw_record_find_pages(&found, &nfound, u->m, pp, np, SW_VERIFY_MAX_CANDIDATES, &e) !=
	    0) {
		u->err = e;
		goto done;
	}
	for (size_t k = 0; k < nfound; k++) {
		char other[16] = "";
		size_t nother = 0, at = 0;
		if (date_on_page(u, found[k], iso, other, &nother, &at)) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s appears in the evidence",
				       text);
			page_evidence_at(u, i, found[k], at, at + 1);
			goto done;
		}
	}
	sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "%s appears nowhere in the evidence%s", text,
		       any_cite ? " (its citation does not resolve)" : "");
done:
	free(found);
	free(text);
}

/* ------------------------------------------------------------- quotations */

/* The words of the quote's longest literal stretch, for a search. */
static void quote_phrase(char *out, size_t outsz, const char *q)
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
	/* Eight words at most, whole ones (a cut word would match nothing). */
	size_t words = 0, k = 0;
	while (k < best_len && words < 8) {
		while (k < best_len && !isalnum((unsigned char)best[k]))
			k++;
		while (k < best_len &&
		       (isalnum((unsigned char)best[k]) || (unsigned char)best[k] >= 0x80))
			k++;
		words++;
	}
	size_t start = 0;
	if (best_len && best == q)
		start = 0;
	snprintf(out, outsz, "%.*s", (int)(k - start), best + start);
}

void sw__verify_quote(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *quoted = sw_claim_get(c, "quoted");
	char *text = sw__verify_claim_text(u, c);
	int64_t *found = NULL;
	size_t nfound = 0;
	struct sw_buf op = SW_BUF_INIT;
	if (!quoted || !*quoted) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "an empty quotation");
		goto done;
	}
	size_t qlen = strlen(quoted), s = 0, e = 0;
	long a = c->attributed_to;
	if (a >= 0 && (size_t)a < u->r->claims.n) {
		const struct sw_claim *ac = &u->r->claims.v[a];
		const struct sw_claim_verdict *av = &u->r->verdicts[a];
		char *atext = sw__verify_claim_text(u, ac);
		if (ac->kind == SW_CLAIM_CASE) {
			const struct sw__verify_resolved *ar = &u->res[a];
			if (av->verdict != SW_VERDICT_SUPPORTED || !ar->have_case) {
				sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
					       "attributed to %s, which is %s", atext,
					       sw_verdict_name(av->verdict));
			} else if (!ar->kase.has_text) {
				sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
					       "no opinion text of %s is stored", atext);
			} else {
				struct sw_err err = { 0 };
				if (sw_authority_text(&op, u->auth, ar->kase.id, &err) == 0 &&
				    sw_verify_quote_in(quoted, qlen, op.data, op.len, &s, &e)) {
					sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
						       "in the opinion of %s", atext);
					struct sw_evidence *ev = sw__verify_add_evidence(u, i);
					ev->source = "authority";
					ev->cite = sw_xasprintf("%s %s %s", ar->kase.volume,
								ar->kase.reporter, ar->kase.page);
					ev->name = ar->kase.name ? sw_xstrdup(ar->kase.name) : NULL;
					ev->excerpt = sw__verify_excerpt(op.data, op.len, s, e);
				} else {
					sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
						       "not found in the opinion of %s", atext);
				}
			}
			free(atext);
			goto done;
		}
		if (ac->kind == SW_CLAIM_STATUTE || ac->kind == SW_CLAIM_RULE ||
		    ac->kind == SW_CLAIM_JOURNAL) {
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "no text of %s is stored",
				       atext);
			free(atext);
			goto done;
		}
		if (ac->kind == SW_CLAIM_RECORD || ac->kind == SW_CLAIM_BATES) {
			const struct sw__verify_resolved *ar = &u->res[a];
			if (ar->npages == 0) {
				sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
					       "attributed to %s, which is %s", atext,
					       sw_verdict_name(av->verdict));
				free(atext);
				goto done;
			}
			for (size_t k = 0; k < ar->npages; k++) {
				if (sw_record_page_text(&u->page, u->m, ar->pages[k], NULL) == 0 &&
				    sw_verify_quote_in(quoted, qlen, u->page.data, u->page.len, &s,
						       &e)) {
					sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "on %s", atext);
					page_evidence_at(u, i, ar->pages[k], s, e);
					free(atext);
					goto done;
				}
			}
			char *where = pages_name(u, ar->pages, ar->npages);
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "not found verbatim on %s (%s)", atext, where);
			free(where);
			free(atext);
			goto done;
		}
		free(atext);
	}
	/* Not attributed: it may still be the record's words. */
	char phrase[512];
	quote_phrase(phrase, sizeof(phrase), quoted);
	const char *pp[1] = { phrase };
	struct sw_err err = { 0 };
	if (sw_record_find_pages(&found, &nfound, u->m, pp, 1, SW_VERIFY_MAX_CANDIDATES, &err) !=
	    0) {
		u->err = err;
		goto done;
	}
	for (size_t k = 0; k < nfound; k++) {
		if (sw_record_page_text(&u->page, u->m, found[k], NULL) == 0 &&
		    sw_verify_quote_in(quoted, qlen, u->page.data, u->page.len, &s, &e)) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "found in the evidence");
			page_evidence_at(u, i, found[k], s, e);
			goto done;
		}
	}
	sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
		       "no citation says where this is from, and it is not in the evidence");
done:
	sw_buf_release(&op);
	free(found);
	free(text);
}

