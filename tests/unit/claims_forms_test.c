/*
 * claims_forms_test.c - what a claim leans on, in drafts as models write
 * them: short forms, supra and id. after a case cited wrongly and then
 * rightly; dates with a month and day and no year; claims inside a
 * quotation; a bare "Rule 56(c)" after a Fed. R. Civ. P. citation.
 * Texts are plain, as markup/ hands a Markdown draft to the scanner
 * (emphasis markers dropped, block quotes indented four spaces).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "claims/claims.h"

/* The index of the nth (from 1) claim of kind whose citation proper
 * (cite_start..cite_end) is cite; -1 when there is none. */
static long nth(const struct sw_claims *c, const char *t, enum sw_claim_kind kind,
		const char *cite, int n)
{
	size_t len = strlen(cite);
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *x = &c->v[i];
		if (x->kind != kind || x->cite_end - x->cite_start != len ||
		    memcmp(t + x->cite_start, cite, len) != 0)
			continue;
		if (--n == 0)
			return (long)i;
	}
	return -1;
}

static void dump(const struct sw_claims *c, const char *t)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *x = &c->v[i];
		fprintf(stderr, "  %zu %s/%s '%.*s' -> %ld", i, sw_claim_kind_name(x->kind),
			sw_claim_form_name(x->form), (int)(x->cite_end - x->cite_start),
			t + x->cite_start, x->resolves_to);
		for (size_t k = 0; k < x->nfields; k++)
			fprintf(stderr, " %s=%s", x->fields[k].name, x->fields[k].value);
		fprintf(stderr, "\n");
	}
}

struct link_row {
	const char *text;
	enum sw_claim_kind kind;
	const char *from;  /* the short form (its first occurrence) */
	const char *to;    /* what it must resolve to, or NULL: unresolved */
	int to_n;          /* which occurrence of `to` */
};

static void test_nearest_full_cite(void **state)
{
	(void)state;
	static const struct link_row rows[] = {
		/* a wrong full cite (318), then the right one (317): the short
		 * form leans on the nearest, not on neither */
		{ "Celotex Corp. v. Catrett, 477 U.S. 318, 322 (1986).\n\n"
		  "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).\n\n"
		  "Summary judgment is proper. Celotex, 477 U.S. at 323.",
		  SW_CLAIM_CASE, "477 U.S. at 323", "477 U.S. 317", 1 },
		/* the same order reversed: still the nearest */
		{ "Celotex Corp. v. Catrett, 477 U.S. 317 (1986). Celotex Corp. v. Catrett, "
		  "477 U.S. 318 (1986). Celotex, 477 U.S. at 323.",
		  SW_CLAIM_CASE, "477 U.S. at 323", "477 U.S. 318", 1 },
		/* a misspelt name at the right page, then the right name at it:
		 * the short form leans on the repeat, not the first */
		{ "Under Celotex Corp. v. Catrell, 477 U.S. 317, 322 (1986), so. Under "
		  "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986), the rule holds. "
		  "Celotex, 477 U.S. at 322.",
		  SW_CLAIM_CASE, "477 U.S. at 322", "477 U.S. 317", 2 },
		/* reversed parties first, then right: supra leans on the repeat */
		{ "Liberty Lobby, Inc. v. Anderson, 477 U.S. 242, 248 (1986). Then "
		  "Anderson v. Liberty Lobby, Inc., 477 U.S. 242, 248 (1986). "
		  "\"The jury.\" Anderson, supra, at 252.",
		  SW_CLAIM_CASE, "supra, at 252", "477 U.S. 242", 2 },
		/* id. after a repeated full cite leans on the repeat */
		{ "Foo v. Barr, 1 U.S. 1 (1990). Then Foo v. Bar, 1 U.S. 1, 3 (1990). Id. at 4.",
		  SW_CLAIM_CASE, "Id. at 4", "1 U.S. 1", 2 },
		/* the short name picks among two cases of one volume, nearest
		 * of that name */
		{ "Foo v. Bar, 1 U.S. 1 (1990). Baz v. Qux, 1 U.S. 20 (1991). Foo v. Bar, "
		  "1 U.S. 1 (1990). Baz v. Qux, 1 U.S. 20 (1991). Foo, 1 U.S. at 5.",
		  SW_CLAIM_CASE, "1 U.S. at 5", "1 U.S. 1", 2 },
		/* no name that matches and one case in the volume: that case's
		 * nearest cite (verify reports the name it gives) */
		{ "Foo v. Barr, 1 U.S. 1 (1990). Foo v. Bar, 1 U.S. 1 (1990). Hollis, 1 U.S. at 5.",
		  SW_CLAIM_CASE, "1 U.S. at 5", "1 U.S. 1", 2 },
		/* supra names no volume: two different cases of the name stay
		 * ambiguous */
		{ "Foo v. Bar, 1 U.S. 1 (1990). Foo v. Baz, 2 F.3d 7 (1999). Foo, supra, at 8.",
		  SW_CLAIM_CASE, "supra, at 8", NULL, 0 },
		/* a short cite of a volume no full cite has */
		{ "Foo v. Bar, 1 U.S. 1 (1990). Foo, 2 U.S. at 5.", SW_CLAIM_CASE, "2 U.S. at 5",
		  NULL, 0 },
	};
	int bad = 0;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const char *t = rows[r].text;
		struct sw_claims c;
		assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
		long from = nth(&c, t, rows[r].kind, rows[r].from, 1);
		long to = rows[r].to ? nth(&c, t, rows[r].kind, rows[r].to, rows[r].to_n) : -1;
		if (from < 0 || (rows[r].to && to < 0) || c.v[from].resolves_to != to) {
			fprintf(stderr, "FAIL row %zu: '%s' should resolve to %ld\n", r, rows[r].from,
				to);
			dump(&c, t);
			bad++;
		}
		sw_claims_release(&c);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nearest_full_cite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
