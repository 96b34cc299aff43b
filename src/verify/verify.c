/* verify.c - the verdict of every claim: the driver and the gate.
 *
 * Claims are checked in two passes: first the citations (cases, codes,
 * rules, Bates numbers, record cites), which remember the pages and cases
 * they resolve to; then the dates and quotations, which are checked against
 * what the citations beside them resolved to.  Last, a citation inside a
 * quotation takes the quotation's verdict (quoted_claims).  The rule for
 * each kind of claim is in rules_*.c; the helpers they share to set a
 * verdict and add evidence are in verdict.c, below them all. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "verify/rules_int.h"

/* A citation inside a quotation is part of the quoted words: it has the
 * quotation's verdict, "part of the quotation (claim 3) on page 322 of the
 * opinion in ...", and never one of its own ("Rule 56(c) is not in the
 * imported code table" inside a quoted opinion is the opinion's reference,
 * not the draft's).  A date there was checked on the pages of the
 * quotation's record citation (rules_date.c), and keeps that verdict; one
 * in an opinion's words has the quotation's; one in a quotation with no
 * citation was looked for in the whole record and blocks no more than the
 * quotation does. */
static void quoted_claims(struct sw__verify_run *u)
{
	const struct sw_claims *cl = &u->r->claims;
	for (size_t i = 0; i < cl->n; i++) {
		long q = sw__verify_quote_of(u, i);
		if (q < 0)
			continue;
		const struct sw_claim_verdict *qv = &u->r->verdicts[q];
		struct sw_claim_verdict *cv = &u->r->verdicts[i];
		long a = cl->v[q].attributed_to;
		bool record = a >= 0 && (cl->v[a].kind == SW_CLAIM_RECORD ||
					 cl->v[a].kind == SW_CLAIM_BATES);
		if (!qv->reason || (cl->v[i].kind == SW_CLAIM_DATE && record && cv->reason))
			continue;
		if (cl->v[i].kind == SW_CLAIM_DATE && a < 0 && cv->reason &&
		    qv->verdict != SW_VERDICT_SUPPORTED) {
			if (cv->verdict != SW_VERDICT_SUPPORTED) {
				char *own = sw_xstrdup(cv->reason);
				sw__verify_set(u, i, qv->verdict,
					       "%s; it is part of the quotation (claim %ld), which is "
					       "%s: %s",
					       own, q + 1, sw_verdict_name(qv->verdict), qv->reason);
				free(own);
			}
			continue;
		}
		if (qv->verdict == SW_VERDICT_SUPPORTED)
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "part of the quotation (claim %ld) %s",
				       q + 1, qv->reason);
		else
			sw__verify_set(u, i, qv->verdict,
				       "part of the quotation (claim %ld), which is %s: %s", q + 1,
				       sw_verdict_name(qv->verdict), qv->reason);
	}
}

/* ------------------------------------------------------------------ gate */

/* Whether a quotation is a word or two in quotation marks that no
 * citation with a text claims: a term ("the 'Agreement'") or a scare quote
 * ("Acme 'waived' the credit") with no citation, or beside a statute or
 * rule whose text sworn does not keep; not a quotation to check. */
static bool term_in_quotes(const struct sw_claims *cl, const struct sw_claim *c)
{
	const char *q = sw_claim_get(c, "quoted");
	size_t words = 0;
	bool in = false;
	if (c->kind != SW_CLAIM_QUOTE || !q)
		return false;
	if (c->attributed_to >= 0 && (size_t)c->attributed_to < cl->n) {
		enum sw_claim_kind k = cl->v[c->attributed_to].kind;
		if (k != SW_CLAIM_STATUTE && k != SW_CLAIM_RULE && k != SW_CLAIM_JOURNAL)
			return false;
	}
	for (; *q; q++) {
		bool w = *q != ' ' && *q != '\t' && *q != '\n';
		words += w && !in;
		in = w;
	}
	return words <= 2;
}

/* Whether the bytes [s, e) of text hold a letter or digit outside every
 * citation claim among cl's claims from k on. */
static bool words_outside_cites(const struct sw_claims *cl, const char *t, size_t k, size_t s,
				size_t e)
{
	for (size_t b = s; b < e; b++) {
		if (!isalnum((unsigned char)t[b]))
			continue;
		bool in = false;
		for (size_t j = k; j < cl->n && j < k + 16 && cl->v[j].start <= b && !in; j++)
			in = cl->v[j].kind != SW_CLAIM_QUOTE && cl->v[j].kind != SW_CLAIM_DATE &&
			     cl->v[j].kind != SW_CLAIM_PROPOSITION &&
			     cl->v[j].start <= b && b < cl->v[j].end;
		if (!in)
			return true;
	}
	return false;
}

/* Whether claim c of the scan is no claim: a Bates-shaped token that is a
 * name ("Invoice INV-10236": a prefix no production uses, in the text
 * rather than a citation position), a term in quotation marks, or a block
 * quotation that is an attributed inline quotation read twice. */
static bool not_a_claim(struct sw__verify_run *u, const struct sw_claim *c)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t i = (size_t)(c - cl->v);
	if (term_in_quotes(cl, c))
		return true;
	/* a proposition leans on its sentence's first record citation: no
	 * claim when that is none ("Invoice INV-10236 was paid.") */
	if (c->kind == SW_CLAIM_PROPOSITION)
		return c->resolves_to < 0 || (size_t)c->resolves_to >= cl->n ||
		       not_a_claim(u, &cl->v[c->resolves_to]);
	/* An unattributed quotation that holds an attributed one and, outside
	 * it, only citations: "> “...” (Ex. 2.)" read as a block and inline. */
	for (size_t k = i + 1; c->kind == SW_CLAIM_QUOTE && c->attributed_to < 0 && k < cl->n &&
			       k < i + 8 && cl->v[k].start < c->end;
	     k++) {
		const struct sw_claim *q = &cl->v[k];
		if (q->kind == SW_CLAIM_QUOTE && q->end <= c->end && q->attributed_to >= 0)
			return !words_outside_cites(cl, u->r->text, i + 1, c->start, q->start) &&
			       !words_outside_cites(cl, u->r->text, i + 1, q->end, c->end);
	}
	return c->kind == SW_CLAIM_BATES && c->form != SW_FORM_ID && !sw__verify_bates_is_claim(u, c);
}

/* A proposition leaning on a citation that is no claim ("PO 4471 (ACME0000005)":
 * the first Bates-shaped token a name) leans on the next record citation
 * of that sentence that is one, or on none. */
static void prop_relean(struct sw__verify_run *u, struct sw_claim *p)
{
	const struct sw_claims *cl = &u->r->claims;
	if (p->resolves_to < 0 || (size_t)p->resolves_to >= cl->n)
		return;
	size_t r = (size_t)p->resolves_to, s = cl->v[r].sentence;
	p->resolves_to = -1;
	size_t k = r;
	for (; k < cl->n && cl->v[k].sentence == s && cl->v[k].kind != SW_CLAIM_PROPOSITION &&
	       !u->err.code;
	     k++)
		if ((cl->v[k].kind == SW_CLAIM_RECORD || cl->v[k].kind == SW_CLAIM_BATES) &&
		    !sw_claim_get(&cl->v[k], "in_quote") && !not_a_claim(u, &cl->v[k])) {
			p->resolves_to = (long)k;
			return;
		}
	/* "We shipped PO 4471 on April 2. (ACME0000005)": the citation
	 * sentence right after it, when it holds nothing but citations */
	if (k >= cl->n || cl->v[k].sentence != s + 1 || s + 1 >= cl->nsentences ||
	    words_outside_cites(cl, u->r->text, k, cl->sentences[s + 1].start,
				cl->sentences[s + 1].end))
		return;
	for (; k < cl->n && cl->v[k].sentence == s + 1 &&
	       cl->v[k].kind != SW_CLAIM_PROPOSITION && !u->err.code;
	     k++)
		if ((cl->v[k].kind == SW_CLAIM_RECORD || cl->v[k].kind == SW_CLAIM_BATES) &&
		    !not_a_claim(u, &cl->v[k])) {
			p->resolves_to = (long)k;
			return;
		}
}

/* Take the claims that are no claims out of the report, renumbering the
 * links between the claims that stay. */
static void drop_names(struct sw__verify_run *u)
{
	struct sw_claims *cl = &u->r->claims;
	long *to = NULL;
	size_t k = 0;
	bool any = false;
	for (size_t i = 0; i < cl->n && !u->err.code; i++)
		if (cl->v[i].kind == SW_CLAIM_PROPOSITION)
			prop_relean(u, &cl->v[i]);
	for (size_t i = 0; i < cl->n && !u->err.code && !any; i++)
		any = not_a_claim(u, &cl->v[i]);
	if (!any || u->err.code)
		return;
	to = sw_xmalloc(cl->n * sizeof(*to));
	for (size_t i = 0; i < cl->n; i++) {
		bool name = not_a_claim(u, &cl->v[i]);
		to[i] = name ? -1 : (long)k;
		if (!name)
			cl->v[k++] = cl->v[i];
	}
	size_t old = cl->n;
	cl->n = k;
	for (size_t i = 0; i < k; i++) {
		long *links[] = { &cl->v[i].resolves_to, &cl->v[i].parallel_to,
				  &cl->v[i].attributed_to };
		for (size_t q = 0; q < SW_ARRAY_LEN(links); q++)
			if (*links[q] >= 0)
				*links[q] = (size_t)*links[q] < old ? to[*links[q]] : -1;
	}
	free(to);
}

/* The process's CPU seconds: on a shared machine, what a pass cost without
 * the time it waited for a core. */
/* Which rule gives a claim its verdict, and in which pass: the citations
 * first, as they remember the pages and cases they resolve to; then the
 * dates and quotations, checked against what the citations beside them
 * resolved to; the propositions last, timed apart.  A claim's rule is the
 * first entry of its kind whose form is its own or ANY_FORM; a claim no
 * entry takes is "not checked" (sw_verify's last loop). */
enum { PASS_CITATIONS, PASS_BESIDE, PASS_PROPOSITIONS };
#define ANY_FORM (-1)

struct rule {
	enum sw_claim_kind kind;
	int form; /* enum sw_claim_form, or ANY_FORM */
	int pass;
	void (*check)(struct sw__verify_run *u, size_t i);
};

static void journal(struct sw__verify_run *u, size_t i)
{
	sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
		       "journal articles are not in the authority table");
}

static const struct rule rules[] = {
	{ SW_CLAIM_CASE, SW_FORM_FULL, PASS_CITATIONS, sw__verify_case_full },
	{ SW_CLAIM_CASE, ANY_FORM, PASS_CITATIONS, sw__verify_case_short },
	{ SW_CLAIM_STATUTE, ANY_FORM, PASS_CITATIONS, sw__verify_code },
	{ SW_CLAIM_RULE, ANY_FORM, PASS_CITATIONS, sw__verify_code },
	{ SW_CLAIM_BATES, SW_FORM_ID, PASS_CITATIONS, sw__verify_record }, /* Id. after Bates */
	{ SW_CLAIM_BATES, ANY_FORM, PASS_CITATIONS, sw__verify_bates },
	{ SW_CLAIM_RECORD, ANY_FORM, PASS_CITATIONS, sw__verify_record },
	{ SW_CLAIM_JOURNAL, ANY_FORM, PASS_CITATIONS, journal },
	{ SW_CLAIM_DATE, ANY_FORM, PASS_BESIDE, sw__verify_date },
	{ SW_CLAIM_QUOTE, ANY_FORM, PASS_BESIDE, sw__verify_quote },
	{ SW_CLAIM_PROPOSITION, ANY_FORM, PASS_PROPOSITIONS, sw__verify_proposition },
};

static const struct rule *rule_of(const struct sw_claim *c)
{
	for (size_t k = 0; k < SW_ARRAY_LEN(rules); k++)
		if (rules[k].kind == c->kind &&
		    (rules[k].form == ANY_FORM || rules[k].form == (int)c->form))
			return &rules[k];
	return NULL;
}

static void run_pass(struct sw__verify_run *u, int pass)
{
	const struct sw_claims *cl = &u->r->claims;
	for (size_t i = 0; i < cl->n && !u->err.code; i++) {
		const struct rule *r = rule_of(&cl->v[i]);
		if (r && r->pass == pass)
			r->check(u, i);
	}
}

static double cpu_now(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int sw_verify(struct sw_verify_report *out, struct sw_matter *m,
	      struct sw_authority *auth, const char *text, size_t len,
	      const struct sw_verify_opts *opts, struct sw_err *err)
{
	struct sw__verify_run u;
	int rc;
	memset(out, 0, sizeof(*out));
	memset(&u, 0, sizeof(u));
	out->lenient = opts && opts->lenient;
	double t0 = sw_now(), c0 = cpu_now();
	if ((rc = sw_claims_scan(&out->claims, text, len, err)) != 0)
		return rc;
	out->text = sw_xstrndup(text, len);
	out->len = len;
	u.r = out;
	u.m = m;
	u.auth = auth;
	sw_buf_init(&u.page);
	drop_names(&u);
	size_t n = out->claims.n;
	out->verdicts = sw_xcalloc(n ? n : 1, sizeof(*out->verdicts));
	u.res = sw_xcalloc(n ? n : 1, sizeof(*u.res));
	/* every look-up of the passes in one read transaction: one snapshot
	 * of the record, and not the cost of starting one per query */
	bool snapshot = m && sw_record_read_begin(m);
	run_pass(&u, PASS_CITATIONS);
	run_pass(&u, PASS_BESIDE);
	if (!u.err.code)
		quoted_claims(&u);
	if (!u.err.code)
		sw__verify_speakers(&u);
	double t1 = sw_now(), c1 = cpu_now();
	run_pass(&u, PASS_PROPOSITIONS);
	double t2 = sw_now(), c2 = cpu_now();
	if (snapshot) /* not held while a judge thinks */
		sw_record_read_end(m);
	if (!u.err.code && opts)
		sw__verify_judge_pass(&u, opts->judge);
	/* without a judge, a proposition whose facts hold is listed as not
	 * judged for its meaning: it passes, and says so */
	bool judge = opts && opts->judge && opts->judge->ask && opts->judge->mode != SW_JUDGE_OFF;
	for (size_t i = 0; i < n && !u.err.code && !judge; i++) {
		struct sw_claim_verdict *cv = &out->verdicts[i];
		if (out->claims.v[i].kind == SW_CLAIM_PROPOSITION && cv->reason &&
		    cv->verdict == SW_VERDICT_SUPPORTED && cv->nfacts) {
			char *r = sw_xasprintf(
				"%s; its meaning is not judged (no judge configured)", cv->reason);
			free(cv->reason);
			cv->reason = r;
		}
	}
	out->claims_s = t1 - t0;
	out->propositions_s = t2 - t1;
	out->claims_cpu_s = c1 - c0;
	out->propositions_cpu_s = c2 - c1;
	out->judge_s = sw_now() - t2;
	for (size_t i = 0; i < n; i++) {
		sw_authority_lookup_release(&u.res[i].lookup);
		free(u.res[i].pages);
	}
	free(u.res);
	free(u.bates_summary);
	sw__verify_rec_free(&u);
	sw_buf_release(&u.page);
	if (u.err.code) {
		if (err)
			*err = u.err;
		sw_verify_release(out);
		return u.err.code;
	}
	for (size_t i = 0; i < n; i++) {
		if (!out->verdicts[i].reason)
			sw__verify_set(&(struct sw__verify_run){.r = out}, i,
				       SW_VERDICT_UNVERIFIABLE, "not checked");
		out->counts[out->verdicts[i].verdict]++;
	}
	sw__verify_uncited(out, opts);
	out->pass = out->counts[SW_VERDICT_UNSUPPORTED] == 0 &&
		    out->counts[SW_VERDICT_CONTRADICTED] == 0 &&
		    (out->lenient || out->counts[SW_VERDICT_UNVERIFIABLE] == 0) &&
		    !sw__verify_uncited_blocks(out);
	return 0;
}

void sw_verify_release(struct sw_verify_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->verdicts && i < r->claims.n; i++) {
		struct sw_claim_verdict *v = &r->verdicts[i];
		free(v->reason);
		for (size_t k = 0; k < v->nevidence; k++) {
			free(v->evidence[k].document);
			free(v->evidence[k].bates);
			free(v->evidence[k].excerpt);
			free(v->evidence[k].cite);
			free(v->evidence[k].name);
		}
		free(v->evidence);
		for (size_t k = 0; k < v->nfacts; k++) {
			free(v->facts[k].page);
			free(v->facts[k].found_on);
			free(v->facts[k].page_says);
		}
		free(v->facts);
	}
	free(r->verdicts);
	sw__verify_uncited_release(r);
	sw__verify_judged_release(r);
	free(r->text);
	sw_claims_release(&r->claims);
	memset(r, 0, sizeof(*r));
}
