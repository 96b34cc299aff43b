/*
 * rules_prop.c - the deterministic floor of proposition checks: each fact a
 * cited sentence states (claims.h: money, quantities, percentages,
 * identifiers) must be on the page(s) its citations resolved to, compared
 * by value (numbers) or by parts (identifiers), the page read with the same
 * fact rules as the draft (sw_claims_next_fact).  A fact not there but on
 * another evidence page is unsupported with that page named (a miscite);
 * a number of the same kind on the cited page (the same unit word, or
 * money or a percentage beside one of the sentence's words) that differs
 * is contradicted, quoting the page.  Dates are their own claims and are
 * not judged twice here.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

static void add_cited(struct sw__verify_run *u, size_t k, int64_t *pages, size_t *n)
{
	const struct sw__verify_resolved *res = &u->res[k];
	for (size_t q = 0; q < res->npages && *n < SW_VERIFY_MAX_PAGES; q++) {
		bool have = false;
		for (size_t z = 0; z < *n; z++)
			have |= pages[z] == res->pages[q];
		if (!have)
			pages[(*n)++] = res->pages[q];
	}
}

/* The pages the citations of proposition c's sentence resolved to, and
 * those of a citation sentence right after it. */
static size_t cited_pages(struct sw__verify_run *u, const struct sw_claim *c, int64_t *pages)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t n = 0;
	if (c->resolves_to < 0)
		return 0;
	size_t r = (size_t)c->resolves_to, cs = cl->v[r].sentence;
	for (size_t k = r; k < cl->n && cl->v[k].sentence == cs &&
			   cl->v[k].kind != SW_CLAIM_PROPOSITION; k++) {
		if (cl->v[k].kind != SW_CLAIM_RECORD && cl->v[k].kind != SW_CLAIM_BATES)
			continue;
		add_cited(u, k, pages, &n);
	}
	/* a citation sentence right after it cites for it too */
	for (size_t k = r; k < cl->n && cl->v[k].kind != SW_CLAIM_PROPOSITION &&
			   cl->v[k].start < c->end + 16; k++)
		if ((cl->v[k].kind == SW_CLAIM_RECORD || cl->v[k].kind == SW_CLAIM_BATES) &&
		    cl->v[k].sentence != cs && sw__verify_cite_after(c, &cl->v[k]))
			add_cited(u, k, pages, &n);
	return n;
}

/* Whether identifier fact f is a Bates number the report checks as a
 * citation. */
static bool is_cite(const struct sw__verify_run *u, const struct sw_claim *c,
		    const struct sw_claim_fact *f)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t k0, k1;
	sw__verify_claims_near(u, c, &k0, &k1);
	for (size_t k = k0; k < k1; k++) {
		const struct sw_claim *x = &cl->v[k];
		if (x->sentence == c->sentence && x->kind == SW_CLAIM_BATES && x->start < f->end &&
		    f->start < x->end)
			return true;
	}
	return false;
}

/* The word after [e, ...) of t into w (folded), or "". */
static void next_word(const char *t, size_t len, size_t e, char *w, size_t cap)
{
	while (e < len && (t[e] == ' ' || t[e] == '\n'))
		e++;
	size_t k = 0;
	while (e < len && isalpha((unsigned char)t[e]) && k + 1 < cap)
		w[k++] = (char)tolower((unsigned char)t[e++]);
	w[k] = '\0';
}

/* Whether the differing duration the page says is followed by the word
 * that follows f in the sentence ("twenty-seven days late" and "twenty
 * days late"): the same span, another length. */
static bool same_next_word(struct sw__verify_run *u, const struct sw_claim_fact *f,
			   const struct sw__fact_check *fc)
{
	char a[24], b[24];
	struct sw_err e = { 0 };
	next_word(u->r->text, u->r->len, f->end, a, sizeof(a));
	if (!a[0] || !fc->page_says ||
	    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, fc->page, &e), &e))
		return false;
	const char *p = u->page.data, *hit = NULL;
	size_t n = strlen(fc->page_says);
	for (size_t i = 0; i + n <= u->page.len && !hit; i++)
		if (strncmp(p + i, fc->page_says, n) == 0)
			hit = p + i;
	if (!hit)
		return false;
	next_word(p, u->page.len, (size_t)(hit - p) + n, b, sizeof(b));
	return strcmp(a, b) == 0;
}

/* Identifier f's own code as the sentence writes it ("T-5512" of "ticket
 * T-5512"), standing alone on a cited page: how (caller frees), or NULL. */
static bool literal_in(const char *p, size_t len, const char *w, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (strncasecmp(p + i, w, n) == 0 &&
		    (i == 0 || !isalnum((unsigned char)p[i - 1])) &&
		    (i + n == len || !isalnum((unsigned char)p[i + n])))
			return true;
	return false;
}

static char *literal_id(struct sw__verify_run *u, const struct sw_claim_fact *f,
			const int64_t *pages, size_t np, struct sw__fact_check *fc,
			const struct sw__verify_rows *rows)
{
	const char *t = u->r->text;
	size_t s = f->end;
	while (s > f->start && t[s - 1] != ' ')
		s--;
	size_t n = f->end - s;
	bool digit = false, letter = false;
	for (size_t k = s; k < f->end; k++) {
		digit |= isdigit((unsigned char)t[k]) != 0;
		letter |= isalpha((unsigned char)t[k]) != 0;
	}
	if (n < 4 || !digit || !letter)
		return NULL;
	/* the sentence's table rows: another row's code is not this row's */
	if (rows && rows->set && rows->rows_text && rows->table_text &&
	    literal_in(rows->table_text, strlen(rows->table_text), t + s, n) &&
	    !literal_in(rows->rows_text, strlen(rows->rows_text), t + s, n)) {
		fc->st = SW__FACT_DIFFERS;
		fc->page = rows->page;
		fc->labelled = true;
		free(fc->page_says);
		fc->page_says = sw_xasprintf("%.*s on another row of the table", (int)n, t + s);
		return NULL;
	}
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		if (literal_in(u->page.data, u->page.len, t + s, n)) {
			fc->page = pages[q];
			return sw_xasprintf("%.*s", (int)(f->end - f->start), t + f->start);
		}
	}
	return NULL;
}

/* Fact f, not written on the cited pages as the sentence writes it, that
 * they support all the same: how (caller frees), with fc's page set; or
 * NULL.  A duration the pages only differ on is then no contradiction:
 * which of a page's many spans of days the sentence means is for the
 * judge. */
static char *derived(struct sw__verify_run *u, const struct sw_claim *c,
		     const struct sw_claim_fact *f, const int64_t *pages, size_t np,
		     struct sw__fact_check *fc, const struct sw__verify_rows *rows)
{
	char *how = NULL;
	/* the page gives the same span another length ("nine working days of
	 * standby" for "eleven working days of standby"): what it says stands */
	if (fc->st == SW__FACT_DIFFERS && sw__verify_is_duration(f) && same_next_word(u, f, fc))
		return NULL;
	/* the page counts the same thing otherwise ("Welds tested ... 52",
	 * "2 men"): a bare 45 elsewhere on it is no support */
	if (fc->st == SW__FACT_DIFFERS && f->kind == SW_FACT_QUANTITY &&
	    (fc->labelled || !sw__verify_is_duration(f)))
		return NULL;
	/* a span of days, weeks, months or years is written with its unit or
	 * given by dates; a bare 6 is not "six weeks" */
	bool span = sw__verify_is_duration(f) && f->unit[0] != 'h';
	if (f->kind == SW_FACT_QUANTITY) {
		/* a count the page gives by listing; or a table's column of the
		 * noun that counts otherwise ("Three foremen" and a Foreman
		 * column of two names), which no bare 3 elsewhere rescues */
		int64_t cp = -1;
		size_t listed = 0;
		if (!u->err.code && (how = sw__verify_count(u, c, f, pages, np, &cp, &listed)))
			fc->page = cp;
		if (!how && listed) {
			fc->st = SW__FACT_DIFFERS;
			fc->labelled = true;
			fc->page = pages[0];
			free(fc->page_says);
			fc->page_says =
				sw_xasprintf("%zu %s, as the page counts them", listed, f->unit);
			return NULL;
		}
		bool soft = sw__verify_soft_count(u->r->text, f);
		for (size_t q = 0; q < np && !how && !span && !soft && !u->err.code; q++) {
			struct sw_err e = { 0 };
			size_t at, end, ps = 0, pe;
			if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					      &e))
				continue;
			pe = u->page.len;
			bool pin = sw__verify_pin(u, c, pages[q], u->page.data, pe, &ps, &pe, NULL,
						  NULL);
			/* a pinned transcript's line numbers ("12") are no figures */
			size_t sn = (pin ? pe : u->page.len) - ps;
			char *lines = pin ? sw__verify_unnumbered(u->page.data + ps, sn) : NULL;
			const char *sp0 = lines ? lines : u->page.data + ps;
			bool hit = sw__verify_numeral_on(sp0, sn, f->value, &at, &end) ||
				   sw__verify_words_on(sp0, sn, f, &at, &end);
			free(lines);
			if (hit) {
				fc->page = pages[q];
				how = sw_xasprintf("%.*s (%.*s)", (int)(f->end - f->start),
						   u->r->text + f->start, (int)(end - at),
						   u->page.data + ps + at);
			}
		}
		/* a span in a table's column of days ("Delay (days)": 14) */
		for (size_t q = 0; q < np && !how && span && !u->err.code; q++) {
			struct sw_err e = { 0 };
			size_t at, end;
			if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					     &e) &&
			    sw__verify_table_cell(u->page.data, u->page.len, f->unit, f->value, &at,
						  &end)) {
				fc->page = pages[q];
				how = sw_xasprintf("%.*s (%.*s in its column)",
						   (int)(f->end - f->start), u->r->text + f->start,
						   (int)(end - at), u->page.data + at);
			}
		}
		if (!how && !u->err.code &&
		    (how = sw__verify_duration(u, c, f, pages, np,
					       rows && rows->set ? rows->rows_text : NULL)))
			fc->page = rows && rows->set ? rows->page : pages[0];
	} else if (f->kind == SW_FACT_IDENTIFIER && !u->err.code &&
		   (how = literal_id(u, f, pages, np, fc, rows)) != NULL) {
		/* "ticket T-5512" and the register's T-5512 */
	} else if (f->kind == SW_FACT_IDENTIFIER && !u->err.code) {
		/* "Lot 20" and a Lot column's 20 */
		const char *dash = strrchr(f->id, '-');
		char cls[24];
		int64_t num = 0;
		bool digits = dash && dash[1] && (size_t)(dash - f->id) < sizeof(cls) &&
			      strchr(f->id, '-') == dash;
		for (const char *d = dash ? dash + 1 : ""; digits && *d; d++) {
			digits = isdigit((unsigned char)*d) && num < INT64_MAX / 1000;
			num = num * 10 + (*d - '0');
		}
		if (digits) {
			memcpy(cls, f->id, (size_t)(dash - f->id));
			cls[dash - f->id] = '\0';
			for (size_t q = 0; q < np && !how && !u->err.code; q++) {
				struct sw_err e = { 0 };
				size_t at, end;
				if (sw__verify_found(
					    u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					    &e) &&
				    sw__verify_table_cell(u->page.data, u->page.len, cls, num * 100,
							  &at, &end)) {
					fc->page = pages[q];
					how = sw_xasprintf("%.*s (%.*s in its column)",
							   (int)(f->end - f->start),
							   u->r->text + f->start, (int)(end - at),
							   u->page.data + at);
				}
			}
		}
	} else if (f->kind == SW_FACT_MONEY && !u->err.code) {
		if ((how = sw__verify_arithmetic(u, c, f, pages, np))) {
			char *x = sw_xasprintf("%.*s (%s)", (int)(f->end - f->start),
					       u->r->text + f->start, how);
			free(how);
			how = x;
			fc->page = pages[0];
		}
	}
	if (how) {
		free(fc->page_says);
		fc->page_says = NULL;
		fc->st = SW__FACT_ON;
	} else if (fc->st == SW__FACT_DIFFERS && sw__verify_is_duration(f) &&
		   !same_next_word(u, f, fc)) {
		free(fc->page_says);
		fc->page_says = NULL;
		fc->st = SW__FACT_MISSING;
	}
	return how;
}

/* The verdict of the claim of c's sentence that covers [s, e) (a date
 * checked as its own claim), or supported when none does. */
static const struct sw_claim_verdict *own_claim(const struct sw__verify_run *u,
						const struct sw_claim *c, size_t s, size_t e)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t k0, k1;
	sw__verify_claims_near(u, c, &k0, &k1);
	for (size_t k = k0; k < k1; k++) {
		const struct sw_claim *x = &cl->v[k];
		if (x->sentence == c->sentence && x->start <= s && e <= x->end)
			return &u->r->verdicts[k];
	}
	return NULL;
}

/* The meaning rules, in order, once a sentence's facts hold: each reads
 * the sentence (struct sw__verify_sentence) against its cited pages and
 * gives a reason when the page plainly says otherwise. */
static const struct {
	char *(*rule)(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		      size_t np, const struct sw__verify_sentence *sn);
	enum sw_verdict verdict;
} meaning[] = {
	{ sw__verify_polarity, SW_VERDICT_CONTRADICTED },     /* rules_polarity.c */
	{ sw__verify_qa, SW_VERDICT_CONTRADICTED },           /* rules_qa.c */
	{ sw__verify_said_by, SW_VERDICT_CONTRADICTED },      /* rules_speaker.c */
	{ sw__verify_numbered, SW_VERDICT_CONTRADICTED },     /* rules_numbered.c */
	{ sw__verify_row_state, SW_VERDICT_CONTRADICTED },    /* rules_rowstate.c */
	{ sw__verify_addressee, SW_VERDICT_CONTRADICTED },    /* rules_addressee.c */
	{ sw__verify_date_label, SW_VERDICT_CONTRADICTED },   /* rules_datelabel.c */
	{ sw__verify_place, SW_VERDICT_CONTRADICTED },        /* rules_place.c */
	{ sw__verify_pin_elsewhere, SW_VERDICT_UNSUPPORTED }, /* rules_pinmiss.c */
};

/* Whether fact f stands on page's line that gives a total ("Week total:
 * 45 hours, 66 panels set", "Total 212"). */
static bool on_total_line(struct sw__verify_run *u, const struct sw_claim *c,
			  const struct sw_claim_fact *f, int64_t page)
{
	struct sw__fact_check fc = { 0 };
	bool on = sw__verify_fact_on_page(u, c, f, page, &fc, true, true) && fc.st == SW__FACT_ON;
	free(fc.page_says);
	free(fc.elsewhere);
	if (!on)
		return false;
	const char *p = u->page.data;
	size_t a = fc.at, b = fc.at;
	while (a > 0 && p[a - 1] != '\n')
		a--;
	while (b < u->page.len && p[b] != '\n')
		b++;
	for (size_t x = a; x + 5 <= b; x++)
		if (strncasecmp(p + x, "total", 5) == 0)
			return true;
	return false;
}

void sw__verify_proposition(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *t = u->r->text;
	int64_t pages[SW_VERIFY_MAX_PAGES];
	size_t np = cited_pages(u, c, pages), checked = 0, bad = 0;
	struct sw__fact_check *fc = sw_xcalloc(c->nfacts + 1, sizeof(*fc));
	struct sw_fact_verdict *fv = sw_xcalloc(c->nfacts + SW__VERIFY_PROP_NAMES + 1, sizeof(*fv));
	size_t nfv = c->nfacts;
	struct sw_buf why = SW_BUF_INIT, ok = SW_BUF_INIT;
	enum sw_verdict v = SW_VERDICT_SUPPORTED;
	char *where = NULL;
	struct sw__verify_rows rows = { 0 };

	for (size_t k = 0; k < c->nfacts; k++)
		fv[k] = (struct sw_fact_verdict){ .kind = sw_fact_kind_name(c->facts[k].kind),
						  .fact = (int)k, .start = c->facts[k].start,
						  .end = c->facts[k].end,
						  .verdict = SW_VERDICT_UNVERIFIABLE };
	if (!np) {
		/* the citation's own claim says why it found no page; the
		 * proposition only follows it */
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
			       "nothing to compare: its citation resolves to no page (the "
			       "citation's own claim says why)");
		goto cleanup;
	}
	where = sw__verify_where(u, c, pages, np);
	/* a table's rows of the sentence's date: its figures are read there */
	bool have_rows = sw__verify_rows(u, c, pages, np, &rows);
	if (have_rows && rows.label_bad) {
		char *pn = sw__verify_page_name(u, rows.page);
		sw_buf_addf(&why, "the rows of its date on %s are another's, not %s's", pn,
			    rows.label_bad);
		free(pn);
		v = SW_VERDICT_CONTRADICTED;
		checked++;
		bad++;
	}
	/* "three weeks at two percent a week is six percent": the premise and
	 * the product stand on the page's rate */
	size_t pq = SIZE_MAX, pr = SIZE_MAX, pp = SIZE_MAX;
	bool product = sw__verify_stated_product(t, c, &pq, &pr, &pp);
	if (product) {
		struct sw__fact_check rc = { 0 };
		for (size_t q = 0; q < np && rc.st != SW__FACT_ON && !u->err.code; q++)
			sw__verify_fact_on_page(u, c, &c->facts[pr], pages[q], &rc, true, true);
		product = rc.st == SW__FACT_ON;
		free(rc.page_says);
	}
	for (size_t k = 0; k < c->nfacts && !u->err.code; k++) {
		const struct sw_claim_fact *f = &c->facts[k];
		int w = (int)(f->end - f->start);
		fv[k].page = sw_xstrdup(where);
		if (product && (k == pq || k == pp)) {
			const struct sw_claim_fact *rf = &c->facts[pr];
			checked++;
			sw_buf_addf(&ok, "%s%.*s (%s: %.*s x %.*s)", ok.len ? ", " : "", w,
				    t + f->start, k == pq ? "its own premise" : "its arithmetic",
				    (int)(c->facts[pq].end - c->facts[pq].start),
				    t + c->facts[pq].start, (int)(rf->end - rf->start), t + rf->start);
			fv[k].verdict = SW_VERDICT_SUPPORTED;
			continue;
		}
		if (f->kind == SW_FACT_DATE || (f->kind == SW_FACT_IDENTIFIER && is_cite(u, c, f))) {
			fc[k].st = SW__FACT_SKIP;
			fv[k].own_claim = true;
			/* a date its own claim finds wrong is a fact of the
			 * sentence that fails: the proposition says so too */
			const struct sw_claim_verdict *dv = own_claim(u, c, f->start, f->end);
			if (f->kind == SW_FACT_DATE && dv && dv->reason &&
			    (dv->verdict == SW_VERDICT_UNSUPPORTED ||
			     dv->verdict == SW_VERDICT_CONTRADICTED)) {
				sw_buf_addf(&why, "%sthe date %.*s: %s", why.len ? "; " : "", w,
					    t + f->start, dv->reason);
				if (dv->verdict == SW_VERDICT_CONTRADICTED || v == SW_VERDICT_SUPPORTED)
					v = dv->verdict;
				checked++;
				bad++;
			}
			continue;
		}
		checked++;
		fc[k].st = SW__FACT_MISSING;
		char *says = NULL;
		int in_row = have_rows ? sw__verify_row_fact(u, &rows, f, &says) : 0;
		/* "For the week, 45 hours": the table's total line, not the row
		 * of the week's first date */
		if (in_row < 0 && on_total_line(u, c, f, rows.page)) {
			free(says);
			says = NULL;
			in_row = 1;
		}
		if (in_row) {
			char *pn = sw__verify_page_name(u, rows.page);
			fv[k].found_on = in_row > 0 ? sw_xstrdup(pn) : NULL;
			if (in_row > 0) {
				sw_buf_addf(&ok, "%s%.*s (its row)", ok.len ? ", " : "", w,
					    t + f->start);
				fv[k].verdict = SW_VERDICT_SUPPORTED;
			} else {
				sw_buf_addf(&why, "%sthe row of its date on %s has %s, not %.*s",
					    why.len ? "; " : "", pn, says ? says : "no such figure",
					    w, t + f->start);
				fv[k].verdict = SW_VERDICT_CONTRADICTED;
				fv[k].page_says = says;
				says = NULL;
				v = SW_VERDICT_CONTRADICTED;
				bad++;
			}
			free(says);
			free(pn);
			continue;
		}
		for (size_t q = 0; q < np && fc[k].st != SW__FACT_ON && !u->err.code; q++)
			sw__verify_fact_on_page(u, c, f, pages[q], &fc[k], true, true);
		if (fc[k].st == SW__FACT_ON && sw__verify_denied_mention(t, c->start, f)) {
			char *pn = sw__verify_page_name(u, fc[k].page);
			sw_buf_addf(&why, "%sthe sentence says the page does not mention %.*s, but %s "
				    "does", why.len ? "; " : "", w, t + f->start, pn);
			fv[k].verdict = SW_VERDICT_CONTRADICTED;
			fv[k].found_on = pn;
			v = SW_VERDICT_CONTRADICTED;
			bad++;
			continue;
		}
		/* a count the page gives in a labelled line: "Welds tested
		 * ...... 52" for "tested 45 welds" */
		for (size_t q = 0; q < np && (fc[k].st != SW__FACT_ON || fc[k].weak) &&
				   f->kind == SW_FACT_QUANTITY && !u->err.code; q++) {
			struct sw_err e = { 0 };
			char *lsays = NULL;
			if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					      &e))
				continue;
			int lv = sw__verify_labelled(u->page.data, u->page.len, t, c->start, f,
						     &lsays);
			if (lv > 0) {
				fc[k].st = SW__FACT_ON;
				fc[k].page = pages[q];
			} else if (lv < 0 && fc[k].st != SW__FACT_DIFFERS) {
				fc[k].weak = false;
				fc[k].labelled = true;
				fc[k].st = SW__FACT_DIFFERS;
				fc[k].page = pages[q];
				free(fc[k].page_says);
				fc[k].page_says = lsays;
				lsays = NULL;
			}
			free(lsays);
		}
		if (fc[k].st == SW__FACT_ON) {
			sw_buf_addf(&ok, "%s%.*s", ok.len ? ", " : "", w, t + f->start);
			fv[k].verdict = SW_VERDICT_SUPPORTED;
			fv[k].found_on = sw__verify_page_name(u, fc[k].page);
			continue;
		}
		/* a count as a bare numeral of the cited lines ("six men", a Men
		 * column's 6), a duration between two dates, an amount by one
		 * step of arithmetic: supported, saying how */
		char *how = derived(u, c, f, pages, np, &fc[k], &rows);
		if (how) {
			sw_buf_addf(&ok, "%s%s", ok.len ? ", " : "", how);
			fv[k].verdict = SW_VERDICT_SUPPORTED;
			fv[k].found_on = sw__verify_page_name(u, fc[k].page);
			free(how);
			continue;
		}
		if (sw__verify_soft_count(t, f) && fc[k].st != SW__FACT_DIFFERS) {
			fc[k].st = SW__FACT_SKIP; /* no list of its noun: not checked */
			checked--;
			continue;
		}
		bool same_doc = false;
		fc[k].elsewhere = sw__verify_fact_off_pin(u, c, f, pages, np);
		if (!fc[k].elsewhere && !u->err.code)
			fc[k].elsewhere = sw__verify_fact_elsewhere(u, c, f, pages, np, &same_doc);
		if (same_doc && f->kind == SW_FACT_IDENTIFIER && fc[k].st != SW__FACT_DIFFERS) {
			sw_buf_addf(&ok, "%s%.*s", ok.len ? ", " : "", w, t + f->start);
			fv[k].verdict = SW_VERDICT_SUPPORTED;
			fv[k].found_on = sw_xstrdup(fc[k].elsewhere);
			continue;
		}
		bad++;
		if (why.len)
			sw_buf_adds(&why, "; ");
		fv[k].found_on = fc[k].elsewhere ? sw_xstrdup(fc[k].elsewhere) : NULL;
		if (fc[k].st == SW__FACT_DIFFERS) {
			char *pn = sw__verify_page_name(u, fc[k].page);
			sw_buf_addf(&why, "%s says %s, not %.*s", pn, fc[k].page_says, w, t + f->start);
			if (fc[k].elsewhere)
				sw_buf_addf(&why, " (%.*s is on %s)", w, t + f->start, fc[k].elsewhere);
			free(pn);
			v = SW_VERDICT_CONTRADICTED;
			fv[k].verdict = SW_VERDICT_CONTRADICTED;
			fv[k].page_says = sw_xstrdup(fc[k].page_says);
		} else if (fc[k].elsewhere) {
			sw_buf_addf(&why, "%.*s is not on %s; it is on %s", w, t + f->start, where,
				    fc[k].elsewhere);
			fv[k].verdict = SW_VERDICT_UNSUPPORTED;
		} else {
			sw_buf_addf(&why, "%.*s is not on %s nor anywhere else in the record", w,
				    t + f->start, where);
			fv[k].verdict = SW_VERDICT_UNSUPPORTED;
		}
		if (v == SW_VERDICT_SUPPORTED)
			v = SW_VERDICT_UNSUPPORTED;
	}
	if (!u->err.code) {
		size_t before = why.len;
		bool contra = false;
		size_t nn = sw__verify_check_names(u, c, pages, np, where, fv + nfv, &why, &ok,
						   &contra, &rows);
		if (contra)
			v = SW_VERDICT_CONTRADICTED;
		checked += nn;
		nfv += nn;
		if (why.len > before && v == SW_VERDICT_SUPPORTED)
			v = SW_VERDICT_UNSUPPORTED;
		bad += why.len > before;
	}
	if (!u->err.code && !bad) {
		/* the sentence read once; the first rule that speaks decides */
		struct sw__verify_sentence *sn = sw_xcalloc(1, sizeof(*sn));
		sn->nsp = sw__verify_claim_spans(u, c, sn->sp, SW__VERIFY_PROP_SPANS);
		sn->nnm = sw__verify_names(t, c->start, c->end, sn->sp, sn->nsp, sn->nm,
					   SW_ARRAY_LEN(sn->nm));
		sw__verify_read_words(t, c->start, c->end, sn->sp, sn->nsp, &sn->rd, sn->nm,
				      sn->nnm);
		for (size_t r = 0; r < SW_ARRAY_LEN(meaning) && !u->err.code; r++) {
			char *neg = meaning[r].rule(u, c, pages, np, sn);
			if (neg) {
				sw_buf_adds(&why, neg);
				v = meaning[r].verdict;
				bad++;
				free(neg);
				break;
			}
		}
		free(sn);
	}
	if (u->err.code)
		goto cleanup;
	if (bad) {
		sw__verify_set(u, i, v, "%s", why.data);
	} else if (!checked) {
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED,
			       "no checkable facts (amounts, quantities, identifiers, names the "
			       "record knows) to compare; its citation and dates are checked as "
			       "their own claims");
	} else {
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s on %s", ok.data, where);
		for (size_t k = 0; k < c->nfacts && u->r->verdicts[i].nevidence < 4; k++) {
			if (fc[k].st != SW__FACT_ON)
				continue;
			struct sw_record_page p = { 0 };
			struct sw_err e = { 0 };
			if (!sw__verify_found(u, sw_record_page_by_id(&p, u->m, fc[k].page, &e), &e) ||
			    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, fc[k].page, &e), &e)) {
				sw_record_page_release(&p);
				break;
			}
			char *ex = sw__verify_excerpt(u->page.data, u->page.len, fc[k].at, fc[k].end);
			sw__verify_add_page_evidence(u, i, &p, ex);
			free(ex);
			sw_record_page_release(&p);
		}
	}
cleanup:;
	struct sw_claim_verdict *cv = &u->r->verdicts[i];
	cv->facts = fv;
	cv->nfacts = nfv;
	for (size_t k = 0; k < c->nfacts; k++) {
		free(fc[k].page_says);
		free(fc[k].elsewhere);
	}
	free(fc);
	free(where);
	sw__verify_rows_release(&rows);
	sw_buf_release(&why);
	sw_buf_release(&ok);
}
