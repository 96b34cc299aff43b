/* rules_record.c - the verdict rules for citations to the record: Bates
 * numbers and ranges (in any spelling, through record.h's canonical form),
 * record cites (exhibits by label, party included; document pages;
 * transcript page:line, ranges across pages) and their id. forms; and which
 * pages a claim's sentence cites, for the dates and quotations beside them
 * (rules_date.c, rules_quote.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define MAX_TR_PAGES 64 /* transcript pages one cite may span */
#define MAX_ID_CHAIN 16 /* id. forms followed back to their citation */

/* ------------------------------------------------------------------ Bates */

/* The Bates number or range claim c writes, canonical. */
static bool bates_ref(const struct sw__verify_run *u, const struct sw_claim *c,
		      struct sw_bates_ref *ref)
{
	if (sw_bates_ref_parse(ref, u->r->text + c->start, c->end - c->start) == 0)
		return true;
	/* The scanner's own reading: prefix, number, end. */
	const char *prefix = sw_claim_get(c, "prefix"), *end = sw_claim_get(c, "end");
	memset(ref, 0, sizeof(*ref));
	if (!prefix || !sw__verify_num(sw_claim_get(c, "number"), &ref->first))
		return false;
	sw_bates_canon_prefix(ref->prefix, prefix, strlen(prefix));
	ref->last = ref->first;
	if (end) {
		struct sw_bates_ref z;
		if (sw_bates_ref_parse(&z, end, strlen(end)) != 0 || strcmp(z.prefix, ref->prefix) ||
		    z.first < ref->first)
			return false;
		ref->last = z.first;
	}
	return ref->prefix[0] != '\0';
}

/* Whether the words before offset at in its sentence make a citation
 * position: an open parenthesis, a signal right before it, or nothing but
 * signals and other citations since the sentence began. */
static bool citation_position(const struct sw__verify_run *u, const struct sw_claim *c)
{
	const char *pos = sw_claim_get(c, "position");
	if (pos)
		return strcmp(pos, "citation") == 0;
	const struct sw_claims *cl = &u->r->claims;
	const struct sw_sentence *s = &cl->sentences[c->sentence];
	const char *t = u->r->text;
	size_t b = s->start <= c->start ? s->start : c->start;
	int depth = 0;
	for (size_t k = b; k < c->start; k++)
		depth += t[k] == '(' ? 1 : t[k] == ')' ? -1 : 0;
	if (depth > 0)
		return true;
	/* The words right before it. */
	static const char *const signals[] = { "see", "also", "cf", "e.g", "accord", "compare",
					       "contra", "generally", "bates", "at", "and" };
	size_t k = c->start;
	while (k > b && (t[k - 1] == ' ' || t[k - 1] == ',' || t[k - 1] == '*' || t[k - 1] == '_'))
		k--;
	size_t w = k;
	while (w > b && (isalpha((unsigned char)t[w - 1]) || t[w - 1] == '.'))
		w--;
	size_t n = k - w;
	while (n && t[w + n - 1] == '.')
		n--;
	for (size_t q = 0; q < SW_ARRAY_LEN(signals); q++)
		if (n && strlen(signals[q]) == n && strncasecmp(t + w, signals[q], n) == 0)
			return true;
	if (k > b && t[k - 1] == ';')
		return true;
	/* Alone at the start of its sentence: a citation sentence. */
	return k == b;
}

bool sw__verify_bates_is_claim(struct sw__verify_run *u, const struct sw_claim *c)
{
	struct sw_bates_ref ref;
	if (bates_ref(u, c, &ref) && sw__verify_series(u, ref.prefix))
		return true;
	return citation_position(u, c);
}

/* number n written as claim c writes its first number: the same prefix,
 * separator and zero padding. */
static char *bates_written(const struct sw_claim *c, uint64_t n)
{
	const char *prefix = sw_claim_get(c, "prefix"), *sep = sw_claim_get(c, "separator");
	const char *num = sw_claim_get(c, "number");
	int width = num ? (int)strlen(num) : 0;
	return sw_xasprintf("%s%s%0*llu", prefix ? prefix : "", sep ? sep : "", width,
			    (unsigned long long)n);
}

void sw__verify_bates(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	char *text = sw__verify_claim_text(u, c);
	struct sw_bates_ref ref;
	struct sw_record_page first = { 0 };
	struct sw_err e = { 0 };
	if (!bates_ref(u, c, &ref)) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "sworn cannot read %s as a Bates number or range", text);
		goto done;
	}
	const struct sw_record_series *s = sw__verify_series(u, ref.prefix);
	if (!s) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "%s is cited as a Bates number, but no production of this matter "
			       "uses the prefix %s (productions: %s)",
			       text, ref.prefix, sw__verify_productions(u));
		goto done;
	}
	uint64_t have = 0, count = ref.last - ref.first + 1;
	if (sw_record_bates_lookup(&have, &first, u->m, &ref, &e) != 0) {
		u->err = e;
		goto done;
	}
	const char *lo = s->first ? s->first : s->prefix, *hi = s->last ? s->last : lo;
	if (have != count) {
		bool outside = ref.last < s->lo || ref.first > s->hi;
		if (count == 1 && outside)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not in the production (%s\u2013%s)", text, lo, hi);
		else if (count == 1)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s is not in the production: the series %s\u2013%s skips it "
				       "(%llu of its numbers are missing)",
				       text, lo, hi, (unsigned long long)(s->hi - s->lo + 1 - s->numbers));
		else if (have == 0 && outside)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "none of the %llu pages of %s is in the production (%s\u2013%s)",
				       (unsigned long long)count, text, lo, hi);
		else {
			uint64_t miss = 0;
			if (sw_record_bates_first_missing(&miss, u->m, ref.prefix, ref.first, ref.last,
							  &e) != 0) {
				u->err = e;
				goto done;
			}
			char *m = bates_written(c, miss);
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%llu of the %llu pages of %s %s not in the production, "
				       "the first %s (the series runs %s\u2013%s)",
				       (unsigned long long)(count - have), (unsigned long long)count,
				       text, count - have == 1 ? "is" : "are", m, lo, hi);
			free(m);
		}
		goto done;
	}
	sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is in the production", text);
	for (uint64_t n = ref.first; n <= ref.last && u->res[i].npages < SW_VERIFY_MAX_PAGES; n++) {
		struct sw_record_page p;
		struct sw_err pe = {0};
		if (sw__verify_found(u, sw_record_page_by_bates(&p, u->m, ref.prefix, n, &pe),
				     &pe)) {
			sw__verify_remember_page(&u->res[i], p.id);
			if (n == ref.first || n == ref.last)
				sw__verify_add_page_evidence(u, i, &p, NULL);
		}
		sw_record_page_release(&p);
	}
done:
	sw_record_page_release(&first);
	free(text);
}

/* ----------------------------------------------------------- record cites */

/* Where a record cite points inside its document. */
struct pin {
	bool page_set, line_set, para;
	uint64_t page, page_end, line, line_end;
};

/* Digits at *p into *out, advancing; false when there are none. */
static bool take_num(const char **p, uint64_t *out)
{
	const char *s = *p;
	size_t n = 0;
	while (isdigit((unsigned char)s[n]))
		n++;
	if (n == 0 || n > 18 || !sw_parse_u64(s, n, out))
		return false;
	*p = s + n;
	return true;
}

static bool take_dash(const char **p)
{
	const char *s = *p;
	while (*s == ' ')
		s++;
	if (*s == '-')
		s++;
	else if (!strncmp(s, "\xe2\x80\x93", 3) || !strncmp(s, "\xe2\x80\x94", 3))
		s += 3;
	else
		return false;
	while (*s == ' ')
		s++;
	*p = s;
	return true;
}

/* A pin as written after "Id.": "at 3", "at 3-4", "at 14:3-5",
 * "at 12:25-13:2", "¶ 4".  false when it is none of these. */
static bool parse_pin_text(const char *s, struct pin *pn)
{
	while (*s == ' ' || *s == ',')
		s++;
	if (!strncmp(s, "\xc2\xb6", 2)) {
		pn->para = true;
		return true;
	}
	if (!strncasecmp(s, "at ", 3))
		s += 3;
	else if (!strncasecmp(s, "p. ", 3))
		s += 3;
	else if (!strncasecmp(s, "pp. ", 4))
		s += 4;
	while (*s == ' ')
		s++;
	if (!take_num(&s, &pn->page))
		return false;
	pn->page_set = true;
	pn->page_end = pn->page;
	if (*s == ':') {
		s++;
		if (!take_num(&s, &pn->line))
			return false;
		pn->line_set = true;
		pn->line_end = pn->line;
		const char *d = s;
		if (take_dash(&d)) {
			uint64_t a;
			if (!take_num(&d, &a))
				return false;
			if (*d == ':') {
				d++;
				pn->page_end = a;
				if (!take_num(&d, &pn->line_end))
					return false;
			} else {
				pn->line_end = a;
			}
		}
		return true;
	}
	const char *d = s;
	if (take_dash(&d) && !take_num(&d, &pn->page_end))
		return false;
	return true;
}

/* The pin of a claim: its fields, else its "pin" text.  false when it has
 * a pin sworn cannot read. */
static bool claim_pin(const struct sw_claim *c, struct pin *pn)
{
	memset(pn, 0, sizeof(*pn));
	pn->page_set = sw__verify_num(sw_claim_get(c, "page"), &pn->page);
	if (pn->page_set) {
		if (!sw__verify_num(sw_claim_get(c, "page_end"), &pn->page_end))
			pn->page_end = pn->page;
		pn->line_set = sw__verify_num(sw_claim_get(c, "line"), &pn->line);
		if (!sw__verify_num(sw_claim_get(c, "line_end"), &pn->line_end))
			pn->line_end = pn->line;
		return true;
	}
	pn->para = sw_claim_get(c, "paragraph") != NULL;
	const char *t = sw_claim_get(c, "pin");
	if (!t || !*t)
		return true;
	return parse_pin_text(t, pn);
}

/* The label claim c cites: "Def. Ex. 3", "Smith Dep.", "ECF No. 45". */
static void claim_label(struct sw_buf *name, const struct sw_claim *c)
{
	const char *witness = sw_claim_get(c, "witness");
	const char *label = sw_claim_get(c, "label");
	const char *number = sw_claim_get(c, "number");
	sw_buf_reset(name);
	if (witness)
		sw_buf_addf(name, "%s ", witness);
	if (label)
		sw_buf_addf(name, "%s ", label);
	if (number)
		sw_buf_adds(name, number);
	while (name->len && name->data[name->len - 1] == ' ')
		name->data[--name->len] = '\0';
}

/* Why no document is labelled name: the labels of the record that name
 * the same kind and number for another party ("Def. Ex. 3" when the draft
 * cites "Pl. Ex. 3"), else a few of the record's labels. */
static void no_label(struct sw__verify_run *u, size_t i, const char *name)
{
	struct sw__verify_rec *r = sw__verify_rec(u);
	(void)sw__verify_doc_label(u, 0); /* loads the labels */
	char *norm = sw_label_normalize(name);
	/* The last two words: "ex 3". */
	const char *tail = norm + strlen(norm);
	for (int sp = 0; tail > norm && sp < 2; tail--)
		if (tail[-1] == ' ' && ++sp == 2)
			break;
	struct sw_buf same = SW_BUF_INIT, some = SW_BUF_INIT;
	size_t nsame = 0, nsome = 0;
	for (size_t k = 0; k < r->nlabels; k++) {
		const char *ln = r->labels[k].norm;
		size_t a = strlen(ln), b = strlen(tail);
		if (*tail && a >= b && strcmp(ln + a - b, tail) == 0 && (a == b || ln[a - b - 1] == ' ')) {
			if (nsame++ < 4)
				sw_buf_addf(&same, "%s%s", same.len ? ", " : "", r->labels[k].label);
		} else if (nsome++ < 6) {
			sw_buf_addf(&some, "%s%s", some.len ? ", " : "", r->labels[k].label);
		}
	}
	if (nsame)
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "no document of the record is labelled '%s'; the record has %s",
			       name, same.data);
	else if (r->nlabels)
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "no document of the record is labelled '%s' (labels: %s%s)", name,
			       some.data, nsome > 6 ? ", ..." : "");
	else
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "no document of the record is labelled '%s' (the matter has no labels)",
			       name);
	sw_buf_release(&same);
	sw_buf_release(&some);
	free(norm);
}

/* The stored page that holds transcript line (tr_page, line) of doc, or
 * with line 0 any line of tr_page: its id, or 0. */
static int64_t tr_line_page(struct sw__verify_run *u, int64_t doc, uint64_t tr_page,
			    uint64_t line, struct sw_err *e)
{
	struct sw_record_page p = { 0 };
	uint32_t found = 0;
	int64_t id = 0;
	uint32_t lo = line ? (uint32_t)line : 1, hi = line ? (uint32_t)line : UINT32_MAX;
	if (tr_page > UINT32_MAX || line > UINT32_MAX)
		return 0;
	if (sw_record_transcript_lines(&found, &p, u->m, doc, (uint32_t)tr_page, lo, hi, e) != 0)
		return -1;
	if (found)
		id = p.id;
	sw_record_page_release(&p);
	return id;
}

/* Whether doc has numbered transcript lines on one of its first pages. */
static bool doc_has_lines(struct sw__verify_run *u, const struct sw_record_page *doc)
{
	for (uint32_t k = 1; k <= doc->page_count && k <= 3; k++) {
		struct sw_record_page p = { 0 };
		struct sw_record_tline *l = NULL;
		size_t n = 0;
		if (sw__verify_found(u, sw_record_doc_page(&p, u->m, doc->doc_id, k, &u->lookup),
				     &u->lookup) &&
		    !sw__verify_found(u, sw_record_page_lines(&l, &n, u->m, p.id, &u->lookup),
				      &u->lookup))
			n = 0;
		sw_record_page_release(&p);
		free(l);
		if (n)
			return true;
	}
	return false;
}

/* Check pin pn of claim i in document doc (its first page), cited as name:
 * a transcript's page:line (ranges may cross pages), or the document's
 * pages.  Sets the verdict and remembers the pages. */
static void check_pin(struct sw__verify_run *u, size_t i, const struct sw_record_page *doc,
		      const char *name, const char *label, const struct pin *pn, bool transcript)
{
	struct sw_err e = { 0 };
	const char *dn = doc->document;
	if (transcript && pn->page_set) {
		uint64_t p0 = pn->page, p1 = pn->page_end;
		uint64_t l0 = pn->line_set ? pn->line : 0, l1 = pn->line_set ? pn->line_end : 0;
		if (p1 < p0 || (p1 == p0 && l1 < l0)) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s: the cited range ends before it starts, so it names no "
				       "lines of %s",
				       name, dn);
			return;
		}
		if (p1 - p0 >= MAX_TR_PAGES) {
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "%s: the cited range spans more than %d transcript pages", name,
				       MAX_TR_PAGES);
			return;
		}
		if (p1 == p0 && pn->line_set) {
			uint32_t found = 0;
			struct sw_record_page p = { 0 };
			if (p0 > UINT32_MAX || l1 > UINT32_MAX ||
			    sw_record_transcript_lines(&found, &p, u->m, doc->doc_id, (uint32_t)p0,
						       (uint32_t)l0, (uint32_t)l1, &e) != 0) {
				if (e.code)
					u->err = e;
				else
					sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
						       "%s (%s) has no page %llu", name, dn,
						       (unsigned long long)p0);
				return;
			}
			sw_record_page_release(&p);
			if (found != l1 - l0 + 1) {
				if (tr_line_page(u, doc->doc_id, p0, 0, &e) == 0)
					goto no_page;
				if (found == 0 && l1 == l0)
					sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
						       "%s (%s) has no line %llu on page %llu", name, dn,
						       (unsigned long long)l0, (unsigned long long)p0);
				else if (found == 0)
					sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
						       "%s (%s) has none of lines %llu-%llu on page %llu",
						       name, dn, (unsigned long long)l0,
						       (unsigned long long)l1, (unsigned long long)p0);
				else
					sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
						       "%s (%s) page %llu has only %u of lines %llu-%llu",
						       name, dn, (unsigned long long)p0, found,
						       (unsigned long long)l0, (unsigned long long)l1);
				return;
			}
		}
		/* Every transcript page of the range, its first and last line. */
		for (uint64_t tp = p0; tp <= p1; tp++) {
			uint64_t want = tp == p0 ? l0 : tp == p1 ? l1 : 0;
			int64_t id = tr_line_page(u, doc->doc_id, tp, want, &e);
			if (id < 0) {
				u->err = e;
				return;
			}
			if (id == 0 && want && tr_line_page(u, doc->doc_id, tp, 0, &e) > 0) {
				sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
					       "%s (%s) has no line %llu on page %llu", name, dn,
					       (unsigned long long)want, (unsigned long long)tp);
				return;
			}
			if (id == 0) {
				p0 = tp;
				goto no_page;
			}
			sw__verify_remember_page(&u->res[i], id);
		}
		if (l0 && p1 <= UINT32_MAX && l1 <= UINT32_MAX) {
			struct sw__verify_span sp = { .doc = doc->doc_id, .p0 = (uint32_t)p0,
						      .l0 = (uint32_t)l0, .p1 = (uint32_t)p1,
						      .l1 = (uint32_t)l1 };
			sw__verify_set_span(u, i, &sp);
		}
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s", name, dn);
		struct sw_record_page first = { 0 };
		if (sw__verify_found(
			    u, sw_record_page_by_id(&first, u->m, u->res[i].pages[0], &u->lookup),
			    &u->lookup)) {
			sw__verify_add_page_evidence(u, i, &first, NULL);
			struct sw_claim_verdict *cv = &u->r->verdicts[i];
			struct sw_buf cite = SW_BUF_INIT;
			sw_buf_addf(&cite, "%s %llu", label, (unsigned long long)p0);
			if (l0 && p1 == p0 && l1 == l0)
				sw_buf_addf(&cite, ":%llu", (unsigned long long)l0);
			else if (l0 && p1 == p0)
				sw_buf_addf(&cite, ":%llu-%llu", (unsigned long long)l0,
					    (unsigned long long)l1);
			else if (l0)
				sw_buf_addf(&cite, ":%llu-%llu:%llu", (unsigned long long)l0,
					    (unsigned long long)p1, (unsigned long long)l1);
			else if (p1 != p0)
				sw_buf_addf(&cite, "-%llu", (unsigned long long)p1);
			cv->evidence[cv->nevidence - 1].cite = sw_buf_detach(&cite, NULL);
		}
		sw_record_page_release(&first);
		return;
no_page:
		if (!doc_has_lines(u, doc))
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "%s (%s) is cited by page and line, but sworn found no numbered "
				       "transcript lines in it",
				       name, dn);
		else
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "%s (%s) has no page %llu", name,
				       dn, (unsigned long long)p0);
		return;
	}
	if (pn->page_set) {
		if (pn->page_end < pn->page) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "%s: the cited pages end before they start, so they name no "
				       "page of %s",
				       name, dn);
			return;
		}
		for (uint64_t pg = pn->page; pg <= pn->page_end; pg++) {
			struct sw_record_page p = { 0 };
			int rc = SW_ENOTFOUND;
			if (pg == 0 || pg > UINT32_MAX ||
			    (rc = sw_record_doc_page(&p, u->m, doc->doc_id, (uint32_t)pg, &e)) ==
				    SW_ENOTFOUND) {
				sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
					       "%s (%s) has %u page%s, not a page %llu", name, dn,
					       doc->page_count, doc->page_count == 1 ? "" : "s",
					       (unsigned long long)pg);
				sw_record_page_release(&p);
				return;
			} else if (rc) {
				u->err = e;
				return;
			}
			sw__verify_remember_page(&u->res[i], p.id);
			sw_record_page_release(&p);
			if (u->res[i].npages >= SW_VERIFY_MAX_PAGES)
				break;
		}
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s", name, dn);
		struct sw_record_page first = { 0 };
		if (u->res[i].npages &&
		    sw__verify_found(
			    u, sw_record_page_by_id(&first, u->m, u->res[i].pages[0], &u->lookup),
			    &u->lookup))
			sw__verify_add_page_evidence(u, i, &first, NULL);
		sw_record_page_release(&first);
		return;
	}
	/* The whole document (or a paragraph of it, which sworn cannot place). */
	if (pn->para)
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
			       "%s is %s (sworn does not place its paragraphs: its dates and "
			       "quotations are checked on the whole document)",
			       name, dn);
	else
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s", name, dn);
	sw__verify_add_page_evidence(u, i, doc, NULL);
	for (uint32_t k = 1; k <= doc->page_count && u->res[i].npages < SW_VERIFY_MAX_PAGES; k++) {
		struct sw_record_page q;
		if (sw__verify_found(u, sw_record_doc_page(&q, u->m, doc->doc_id, k, &u->lookup),
				     &u->lookup))
			sw__verify_remember_page(&u->res[i], q.id);
		sw_record_page_release(&q);
	}
}

static bool is_transcript_form(const struct sw_claim *c, const struct pin *pn)
{
	const char *form = sw_claim_get(c, "form");
	return pn->line_set || (form && (strcmp(form, "deposition") == 0 ||
					 strcmp(form, "transcript") == 0));
}

/* "Id." and "Id. at 3" after a record citation: the same document. */
static void record_id(struct sw__verify_run *u, size_t i)
{
	const struct sw_claims *cl = &u->r->claims;
	const struct sw_claim *c = &cl->v[i];
	char *text = sw__verify_claim_text(u, c);
	long a = c->resolves_to;
	for (int k = 0; k < MAX_ID_CHAIN && a >= 0 && (size_t)a < cl->n &&
			cl->v[a].form == SW_FORM_ID && (size_t)a != i;
	     k++)
		a = cl->v[a].resolves_to;
	if (a < 0 || (size_t)a >= i ||
	    (cl->v[a].kind != SW_CLAIM_RECORD && cl->v[a].kind != SW_CLAIM_BATES) ||
	    cl->v[a].form == SW_FORM_ID) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "%s does not follow a record citation sworn could read", text);
		goto done;
	}
	const struct sw_claim *ac = &cl->v[a];
	const struct sw_claim_verdict *av = &u->r->verdicts[a];
	char *atext = sw__verify_claim_text(u, ac);
	struct pin pn;
	if (av->verdict != SW_VERDICT_SUPPORTED || u->res[a].npages == 0) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "%s refers to %s, which is %s", text,
			       atext, sw_verdict_name(av->verdict));
	} else if (!claim_pin(c, &pn)) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "sworn cannot read the pin of %s (after %s)", text, atext);
	} else if (!pn.page_set) {
		/* No pin: what the citation before it cites. */
		for (size_t k = 0; k < u->res[a].npages; k++)
			sw__verify_remember_page(&u->res[i], u->res[a].pages[k]);
		const struct sw__verify_span *sp = sw__verify_span_of(u, (size_t)a);
		if (sp)
			sw__verify_set_span(u, i, sp);
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is %s, cited just before", text,
			       atext);
		for (size_t k = 0; k < av->nevidence && k < 2; k++) {
			struct sw_evidence *ev = sw__verify_add_evidence(u, i);
			const struct sw_evidence *from = &u->r->verdicts[a].evidence[k];
			ev->source = from->source;
			ev->document = from->document ? sw_xstrdup(from->document) : NULL;
			ev->bates = from->bates ? sw_xstrdup(from->bates) : NULL;
			ev->page = from->page;
			ev->cite = from->cite ? sw_xstrdup(from->cite) : NULL;
		}
	} else if (ac->kind == SW_CLAIM_BATES) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "%s follows the Bates number %s: sworn cannot tell which page the "
			       "pin means",
			       text, atext);
	} else {
		struct sw_record_page doc = { 0 }, p0 = { 0 };
		if (sw__verify_found(
			    u, sw_record_page_by_id(&p0, u->m, u->res[a].pages[0], &u->lookup),
			    &u->lookup) &&
		    sw__verify_found(u, sw_record_doc_page(&doc, u->m, p0.doc_id, 1, &u->lookup),
				     &u->lookup)) {
			struct sw_buf name = SW_BUF_INIT;
			claim_label(&name, ac);
			char *as = sw_xasprintf("%s (%s)", text, name.data);
			check_pin(u, i, &doc, as, name.data, &pn, is_transcript_form(ac, &pn));
			free(as);
			sw_buf_release(&name);
		} else {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "%s refers to %s, whose document "
				       "is no longer evidence", text, atext);
		}
		sw_record_page_release(&doc);
		sw_record_page_release(&p0);
	}
	free(atext);
done:
	free(text);
}

void sw__verify_record(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	if (c->form == SW_FORM_ID) {
		record_id(u, i);
		return;
	}
	struct sw_record_page doc = { 0 };
	struct sw_err e = { 0 };
	struct sw_buf name = SW_BUF_INIT;
	struct pin pn;
	claim_label(&name, c);
	if (!name.len) {
		char *text = sw__verify_claim_text(u, c);
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "sworn cannot read which document %s names", text);
		free(text);
		goto done;
	}
	int rc = sw_record_doc_by_label(&doc, u->m, name.data, &e);
	if (rc == SW_ENOTFOUND) {
		no_label(u, i, name.data);
		goto done;
	} else if (rc) {
		u->err = e;
		goto done;
	}
	if (!claim_pin(c, &pn)) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "sworn cannot read the pin of %s",
			       name.data);
		goto done;
	}
	check_pin(u, i, &doc, name.data, name.data, &pn, is_transcript_form(c, &pn));
done:
	sw_buf_release(&name);
	sw_record_page_release(&doc);
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

/* Whether claim c is a record or Bates citation. */
static bool record_cite(const struct sw_claim *c)
{
	return c->kind == SW_CLAIM_RECORD || c->kind == SW_CLAIM_BATES;
}

void sw__verify_near(struct sw__verify_run *u, size_t i, struct sw__verify_near *out)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t sent = cl->v[i].sentence, first = i, last = i;
	memset(out, 0, sizeof(*out));
	out->case_claim = -1;
	while (first > 0 && cl->v[first - 1].sentence == sent)
		first--;
	while (last + 1 < cl->n && cl->v[last + 1].sentence == sent)
		last++;
	/* the following sentence, when it is a citation sentence */
	size_t ns = last + 1, ne = ns;
	if (ns < cl->n && cl->v[ns].sentence == sent + 1 &&
	    citation_sentence(u, sent + 1, cl->v[ns].start)) {
		while (ne < cl->n && cl->v[ne].sentence == sent + 1)
			ne++;
	}
	long order[3 * SW__VERIFY_NEAR_MAX];
	size_t n = 0;
	for (size_t k = i + 1; k <= last && n < SW_ARRAY_LEN(order); k++)
		order[n++] = (long)k;
	for (size_t k = ns; k < ne && n < SW_ARRAY_LEN(order); k++)
		order[n++] = (long)k;
	for (size_t k = i; k > first && n < SW_ARRAY_LEN(order); k--)
		order[n++] = (long)(k - 1);
	/* a citation inside a quotation is the quoted text's, not a source
	 * of what stands beside the quotation */
	bool quoted = sw_claim_get(&cl->v[i], "in_quote") != NULL;
	for (size_t q = 0; q < n; q++) {
		const struct sw_claim *c = &cl->v[order[q]];
		if (!quoted && sw_claim_get(c, "in_quote"))
			continue;
		if (c->kind == SW_CLAIM_CASE && out->case_claim < 0)
			out->case_claim = order[q];
		if (record_cite(c) && out->n < SW__VERIFY_NEAR_MAX)
			out->cites[out->n++] = order[q];
	}
	/* "Smith wrote to Roe on March 24, 2021:" then a block quotation: the
	 * sentence is tied to the block quotation's citation */
	const struct sw_sentence *st = sent < cl->nsentences ? &cl->sentences[sent] : NULL;
	if (out->n == 0 && st && st->end > st->start && u->r->text[st->end - 1] == ':' &&
	    last + 1 < cl->n) {
		const struct sw_claim *b = &cl->v[last + 1];
		if (b->kind == SW_CLAIM_QUOTE && sw_claim_get(b, "block") && b->attributed_to >= 0 &&
		    b->sentence <= sent + 1) {
			const struct sw_claim *a = &cl->v[b->attributed_to];
			if (record_cite(a))
				out->cites[out->n++] = b->attributed_to;
			else if (a->kind == SW_CLAIM_CASE && out->case_claim < 0)
				out->case_claim = b->attributed_to;
		}
	}
}
