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

/* The field name of the nth (from 1) claim of kind whose text is match:
 * its value, "" when the claim has none, NULL when there is no such claim. */
static const char *field_of(const char *t, enum sw_claim_kind kind, const char *match, int n,
			    const char *name, struct sw_claims *c)
{
	size_t len = strlen(match);
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *x = &c->v[i];
		if (x->kind != kind || x->end - x->start != len ||
		    memcmp(t + x->start, match, len) != 0 || --n > 0)
			continue;
		const char *v = sw_claim_get(x, name);
		return v ? v : "";
	}
	return NULL;
}

struct field_row {
	const char *text;
	enum sw_claim_kind kind;
	const char *match; /* the claim's text, or NULL: no claim of kind at all */
	int n;
	const char *name, *want;
};

static void check_fields(const struct field_row *rows, size_t nrows)
{
	int bad = 0;
	for (size_t r = 0; r < nrows; r++) {
		const char *t = rows[r].text;
		struct sw_claims c;
		assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
		bool ok;
		if (!rows[r].match) {
			ok = true;
			for (size_t i = 0; i < c.n; i++)
				ok = ok && c.v[i].kind != rows[r].kind;
		} else {
			const char *got = field_of(t, rows[r].kind, rows[r].match, rows[r].n,
						   rows[r].name, &c);
			ok = got && !strcmp(got, rows[r].want);
		}
		if (!ok) {
			fprintf(stderr, "FAIL row %zu: '%s' %s %s=%s\n", r, t,
				rows[r].match ? rows[r].match : "(no claim)", rows[r].name,
				rows[r].want);
			dump(&c, t);
			bad++;
		}
		sw_claims_release(&c);
	}
	assert_int_equal(bad, 0);
}

static void test_monthday(void **state)
{
	(void)state;
	static const struct field_row rows[] = {
		{ "The die was expected by Mar. 24. (BLT-000001.)", SW_CLAIM_DATE, "Mar. 24", 1,
		  "iso", "--03-24" },
		{ "The die was expected by Mar. 24. (BLT-000001.)", SW_CLAIM_DATE, "Mar. 24", 1,
		  "precision", "monthday" },
		{ "It was expected by March 24. (BLT-000001.)", SW_CLAIM_DATE, "March 24", 1, "iso",
		  "--03-24" },
		{ "Expected on 3/24. (BLT-000001.)", SW_CLAIM_DATE, "3/24", 1, "iso", "--03-24" },
		{ "The memo is dated 12/31, a Friday.", SW_CLAIM_DATE, "12/31", 1, "iso", "--12-31" },
		{ "Shipments ran March 3-5.", SW_CLAIM_DATE, "March 3-5", 1, "end_iso", "--03-05" },
		{ "It was due on the March 10 date.", SW_CLAIM_DATE, "March 10", 1, "precision",
		  "monthday" },
		{ "Leap day, February 29, is valid.", SW_CLAIM_DATE, "February 29", 1, "iso",
		  "--02-29" },
		{ "A full date stays full: March 24, 2021.", SW_CLAIM_DATE, "March 24, 2021", 1,
		  "iso", "2021-03-24" },
		/* no dates: numbers with a slash and no date word, fractions, a
		 * day that no year has, the verb May, a full date that cannot be */
		{ "The plant runs 24/7.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "Section 3/24 of the plan applies.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "The team scored 3/4 on the audit.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "Rule 12/15 says so.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "The credit was cut by 3/4.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "It moved by 1/2 a point.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "Expected on 2/30.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "Expected on 3/24/.", SW_CLAIM_DATE, "3/24", 1, "iso", "--03-24" },
		{ "on 3/245 units", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "on 3/24.5 units", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "You May 5 go.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "April 31 never comes.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		{ "February 29, 2021 never came.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
		/* the number before a slash still starts a citation */
		{ "See 3/4 U.S. 5 and Ex. 3/24.", SW_CLAIM_DATE, NULL, 0, NULL, NULL },
	};
	check_fields(rows, sizeof(rows) / sizeof(rows[0]));
}

static void test_in_quote(void **state)
{
	(void)state;
	const char *celotex =
		"Under Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986), \"[t]he plain language "
		"of Rule 56(c) mandates the entry of summary judgment.\" Celotex, 477 U.S. at 322.";
	/* block quotations as markup/ hands them over: indented four spaces */
	const char *block = "Smith wrote:\n\n    \u201cWe ship March 31, 2021.\u201d "
			    "(ACME0000003.)\n\nThen:\n\n    We will not make the March 10 date "
			    "for PO 4471 and we are sorry.\n    (ACME0000003.)\n";
	static struct field_row rows[] = {
		{ NULL, SW_CLAIM_RULE, "Rule 56(c)", 1, "in_quote", "true" },
		{ NULL, SW_CLAIM_CASE, "Celotex, 477 U.S. at 322", 1, "in_quote", "" },
		{ NULL, SW_CLAIM_CASE, "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986)", 1,
		  "in_quote", "" },
		/* a date inside a quotation is in it; the citation after an
		 * inline quotation inside a block, and a block's last citation
		 * sentence, are the quotations' sources */
		{ NULL, SW_CLAIM_DATE, "March 31, 2021", 1, "in_quote", "true" },
		{ NULL, SW_CLAIM_BATES, "ACME0000003", 1, "in_quote", "" },
		{ NULL, SW_CLAIM_DATE, "March 10", 1, "in_quote", "true" },
		{ NULL, SW_CLAIM_BATES, "ACME0000003", 2, "in_quote", "" },
		/* a bare rule after a Federal Rules citation takes its code; in a
		 * quotation, or with none before it, it stays bare */
		{ "Fed. R. Civ. P. 56(a) applies. So Rule 56(c) does too.", SW_CLAIM_RULE,
		  "Rule 56(c)", 1, "code", "Fed. R. Civ. P." },
		{ "Rule 56(c) applies. Fed. R. Civ. P. 56(a) too.", SW_CLAIM_RULE, "Rule 56(c)", 1,
		  "code", "Rule" },
		{ "Fed. R. Civ. P. 56(a) and Fed. R. Evid. 702 apply. Rule 702 governs.",
		  SW_CLAIM_RULE, "Rule 702", 1, "code", "Fed. R. Evid." },
		{ "Fed. R. Civ. P. 56(a) and Fed. R. Evid. 702 apply. Rule 12 governs.",
		  SW_CLAIM_RULE, "Rule 12", 1, "code", "Rule" },
		{ NULL, SW_CLAIM_RULE, "Rule 56(c)", 1, "code", "Rule" },
		/* a citation that ends a block quotation is its source */
		{ "Then:\n\n    We will not make the March 10 date for PO 4471 and we are sorry "
		  "(ACME0000003).\n", SW_CLAIM_BATES, "ACME0000003", 1, "in_quote", "" },
		{ "Then:\n\n    We will not make the March 10 date for PO 4471 and we are sorry "
		  "(ACME0000003).\n", SW_CLAIM_DATE, "March 10", 1, "in_quote", "true" },
	};
	for (size_t r = 0; r < 3; r++)
		rows[r].text = celotex;
	for (size_t r = 3; r < 7; r++)
		rows[r].text = block;
	rows[11].text = "Fed. R. Civ. P. 56(a) applies. The court said \"Rule 56(c) governs "
			"this motion.\" Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).";
	check_fields(rows, sizeof(rows) / sizeof(rows[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nearest_full_cite),
		cmocka_unit_test(test_monthday),
		cmocka_unit_test(test_in_quote),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
