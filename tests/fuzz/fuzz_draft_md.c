/*
 * fuzz_draft_md.c - a hostile Markdown draft read as `sworn verify` reads
 * one: the markup view (md4c), then the claim scanner over its plain text,
 * then each claim mapped back to the draft's bytes.  fuzz_markup covers the
 * view alone; this covers what verify does with it.  Checks: every claim
 * lies inside the plain text, and maps to a source range inside the draft
 * that does not run backwards.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "markup/markup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_draft_md: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_markup m;
	struct sw_err err = { 0 };
	memset(&m, 0, sizeof(m));
	if (sw_markup_parse(&m, SW_MARKUP_MARKDOWN, (const char *)data, size, &err) != 0) {
		check(err.msg[0] != '\0', "failure without a message");
		sw_markup_release(&m);
		return 0;
	}
	struct sw_claims c;
	memset(&c, 0, sizeof(c));
	if (sw_claims_scan_terminated(&c, m.text, m.len, &err) == 0) {
		size_t hint = 0, hint_end = 0;
		for (size_t i = 0; i < c.n; i++) {
			const struct sw_claim *cl = &c.v[i];
			check(cl->start <= cl->end && cl->end <= m.len, "a claim outside the text");
			size_t s = sw_markup_src_at(&m, &hint, cl->start);
			size_t e = sw_markup_src_end_at(&m, &hint_end, cl->end);
			check(s <= m.src_len && e <= m.src_len, "a claim maps outside the draft");
			check(cl->start == cl->end || s <= e, "a claim maps backwards");
		}
	}
	sw_claims_release(&c);
	sw_markup_release(&m);
	return 0;
}
