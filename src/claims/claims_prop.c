/*
 * claims_prop.c - propositions: a claim per sentence that cites the record,
 * with the checkable facts the sentence states (claims_fact.c's rules) and
 * its dates.
 */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

#define PROP_MAX_FACTS 32 /* facts kept per sentence */

static bool record_cite(const struct sw_claim *x)
{
	return (x->kind == SW_CLAIM_RECORD || x->kind == SW_CLAIM_BATES) &&
	       !sw_claim_get(x, "in_quote");
}

/* A range of the sentence where no fact is looked for. */
struct span {
	size_t s, e;
};

static int cmp_fact(const void *a, const void *b)
{
	const struct sw_claim_fact *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The proposition of sentence s (its claims are [ks, ke)), leaning on cite
 * claim `cite`. */
static void proposition(struct sw__claims_scan *sc, size_t s, size_t ks, size_t ke, size_t cite)
{
	struct sw_claims *c = sc->out;
	size_t ss = c->sentences[s].start, se = c->sentences[s].end;
	struct span *skip = sw_xmalloc((ke - ks + 1) * sizeof(*skip));
	struct sw_claim_fact facts[PROP_MAX_FACTS];
	size_t nskip = 0, nf = 0;
	for (size_t k = ks; k < ke; k++) {
		const struct sw_claim *x = &c->v[k];
		const char *pos = sw_claim_get(x, "position");
		if (x->kind == SW_CLAIM_BATES && pos && !strcmp(pos, "text") && x->form != SW_FORM_ID)
			continue; /* "Invoice INV-10236": an identifier, read below */
		if (x->kind == SW_CLAIM_DATE && !sw_claim_get(x, "in_quote") && nf < PROP_MAX_FACTS)
			facts[nf++] = (struct sw_claim_fact){ .kind = SW_FACT_DATE, .start = x->start,
							      .end = x->end, .unit = "", .id = "" };
		/* merged as they come: claims are sorted by start */
		if (nskip && x->start <= skip[nskip - 1].e) {
			if (x->end > skip[nskip - 1].e)
				skip[nskip - 1].e = x->end;
		} else {
			skip[nskip++] = (struct span){ x->start, x->end };
		}
	}
	size_t pos = ss, j = 0;
	struct sw_fact_token t;
	while (nf < PROP_MAX_FACTS && sw_claims_next_fact(&t, sc->t, se, &pos)) {
		while (j < nskip && skip[j].e <= t.start)
			j++;
		if (j < nskip && skip[j].s < t.end)
			continue;
		struct sw_claim_fact *f = &facts[nf++];
		f->kind = t.kind;
		f->start = t.start;
		f->end = t.end;
		f->value = t.value;
		f->unit = sw_arena_strndup(&c->arena, t.unit, strlen(t.unit));
		f->id = sw_arena_strndup(&c->arena, t.id, strlen(t.id));
	}
	free(skip);
	qsort(facts, nf, sizeof(*facts), cmp_fact);
	struct sw__claims_builder b;
	sw__claims_begin(&b, SW_CLAIM_PROPOSITION, SW_FORM_FULL, ss, se);
	sw__claims_fieldi(&b, "facts", (long)nf);
	long at_i = sw__claims_push(sc, &b);
	if (at_i < 0)
		return;
	struct sw_claim *p = &c->v[at_i];
	p->sentence = s;
	p->resolves_to = (long)cite;
	if (nf) {
		struct sw_claim_fact *mem = sw_arena_alloc(&c->arena, nf * sizeof(*mem));
		memcpy(mem, facts, nf * sizeof(*mem));
		p->facts = mem;
		p->nfacts = nf;
	}
}

void sw__claims_propositions(struct sw__claims_scan *sc, signed char *memo)
{
	struct sw_claims *c = sc->out;
	size_t n = c->n, k = 0;
	/* the claims of each sentence, found in one pass: sentence indices
	 * grow with the claims */
	size_t *first = sw_xmalloc((c->nsentences + 1) * sizeof(*first));
	for (size_t s = 0; s <= c->nsentences; s++) {
		while (k < n && c->v[k].sentence < s)
			k++;
		first[s] = k;
	}
	/* which cite each sentence leans on, before any proposition is
	 * pushed (the citation-sentence test searches the sorted claims) */
	long *lean = sw_xmalloc((c->nsentences + 1) * sizeof(*lean));
	for (size_t s = 0; s < c->nsentences; s++) {
		lean[s] = -1;
		for (size_t x = first[s]; x < first[s + 1] && lean[s] < 0; x++)
			if (record_cite(&c->v[x]))
				lean[s] = (long)x;
		if (lean[s] < 0 && s + 1 < c->nsentences)
			for (size_t x = first[s + 1]; x < first[s + 2] && lean[s] < 0; x++)
				if (record_cite(&c->v[x]))
					lean[s] = (long)x;
		if (lean[s] >= 0 && sw__claims_citation_sentence(sc, memo, s))
			lean[s] = -1;
		else if (lean[s] >= 0 && c->v[lean[s]].sentence != s &&
			 !sw__claims_citation_sentence(sc, memo, s + 1))
			lean[s] = -1;
	}
	for (size_t s = 0; s < c->nsentences && !sc->failed; s++)
		if (lean[s] >= 0)
			proposition(sc, s, first[s], first[s + 1], (size_t)lean[s]);
	free(lean);
	free(first);
}
