/*
 * fuzz_claims.c - hostile text through the claims scanner.  Besides memory
 * errors it checks what callers rely on: every claim inside the text and on
 * character boundaries, claims in document order, indices that point at
 * claims, sentences inside the text and in order, and JSON that builds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "claims/claims.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_claims: %s", what);
}

/* Not in the middle of a UTF-8 sequence (a continuation byte after a
 * lead byte). */
static bool boundary(const uint8_t *d, size_t size, size_t i)
{
	if (i == 0 || i >= size)
		return true;
	if ((d[i] & 0xC0) != 0x80)
		return true;
	/* a continuation byte starts a claim only if no lead byte owns it */
	for (size_t k = 1; k <= 3 && k <= i; k++) {
		uint8_t c = d[i - k];
		if ((c & 0xC0) != 0x80)
			return !((c >= 0xC2 && c <= 0xF4) && (size_t)((c >= 0xF0) ? 3 : (c >= 0xE0) ? 2 : 1) >= k);
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_claims c;
	if (sw_claims_scan(&c, (const char *)data, size, NULL) != 0)
		return 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct sw_claim *x = &c.v[i];
		check(x->start < x->end && x->end <= size, "claim outside the text");
		check(x->cite_start >= x->start && x->cite_start <= x->cite_end &&
		      x->cite_end <= x->end, "citation outside its claim");
		check(boundary(data, size, x->start) && boundary(data, size, x->end),
		      "claim cuts a character");
		/* propositions follow every other claim, in sentence order */
		check(i == 0 || c.v[i - 1].start <= x->start ||
		      (x->kind == SW_CLAIM_PROPOSITION && c.v[i - 1].kind != SW_CLAIM_PROPOSITION),
		      "claims out of order");
		check(x->kind != SW_CLAIM_PROPOSITION || i + 1 == c.n ||
		      c.v[i + 1].kind == SW_CLAIM_PROPOSITION, "a claim after the propositions");
		check(x->resolves_to < (long)c.n && x->parallel_to < (long)c.n &&
		      x->attributed_to < (long)c.n, "index past the claims");
		check(x->resolves_to != (long)i, "claim resolves to itself");
		check(c.nsentences == 0 || x->sentence < c.nsentences, "sentence past the end");
		for (size_t k = 0; k < x->nfields; k++)
			check(x->fields[k].name && x->fields[k].value, "field without value");
	}
	for (size_t s = 0; s < c.nsentences; s++) {
		check(c.sentences[s].start < c.sentences[s].end && c.sentences[s].end <= size,
		      "sentence outside the text");
		check(s == 0 || c.sentences[s - 1].end <= c.sentences[s].start, "sentences overlap");
	}
	json_t *j = sw_claims_json(&c, (const char *)data, "fuzz");
	check(j != NULL, "no JSON");
	json_decref(j);
	sw_claims_release(&c);
	return 0;
}
