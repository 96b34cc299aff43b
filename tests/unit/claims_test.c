/*
 * claims_test.c - claims/ on the forms eyecite's suite does not cover:
 * record cites, Bates ranges, dates, quotations, statutes and rules,
 * offsets around multi-byte characters, sentences and resolution.
 *
 * Most cases are one table row: a text, the kind of claim expected, its
 * exact text, and fields that must hold ("name=value|name=value").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "claims/claims.h"
#include "claims_rows.h"

static void test_record(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "See Ex. 12 at 3.", "record", "Ex. 12 at 3", "form=exhibit|number=12|page=3" },
		{ "See Exhibit B, at 2.", "record", "Exhibit B, at 2", "form=exhibit|number=B|page=2" },
		{ "(Ex. A-3, p. 4)", "record", "Ex. A-3, p. 4", "number=A-3|page=4" },
		{ "Exs. 4 at 10-12 show it", "record", "Exs. 4 at 10-12", "page=10|page_end=12" },
		{ "PX 17 at 2", "record", "PX 17 at 2", "number=17|page=2" },
		{ "ECF No. 45 at 7.", "record", "ECF No. 45 at 7", "form=ecf|number=45|page=7" },
		{ "ECF 12", "record", "ECF 12", "form=ecf|number=12" },
		{ "Dkt. 45.", "record", "Dkt. 45", "form=ecf|number=45" },
		{ "Dkt. No. 102, at 4", "record", "Dkt. No. 102, at 4", "number=102|page=4" },
		{ "Doc. 45-2 at 3", "record", "Doc. 45-2 at 3", "number=45|attachment=2|page=3" },
		{ "Smith Dep. 45:3-12.", "record", "Smith Dep. 45:3-12",
		  "form=deposition|witness=Smith|page=45|line=3|line_end=12" },
		{ "(Jane Doe Dep. 12:1\xE2\x80\x93" "13:4)", "record", "Jane Doe Dep. 12:1\xE2\x80\x93" "13:4",
		  "witness=Jane Doe|page=12|line=1|page_end=13|line_end=4" },
		{ "Smith Dep. Tr. at 88:2", "record", "Smith Dep. Tr. at 88:2", "page=88|line=2" },
		{ "Tr. 123:4-9", "record", "Tr. 123:4-9", "form=transcript|page=123|line=4|line_end=9" },
		{ "Hr'g Tr. 5:1.", "record", "Tr. 5:1", "form=transcript|page=5|line=1" },
		{ "Smith Decl. \xC2\xB6 7.", "record", "Smith Decl. \xC2\xB6 7",
		  "form=declaration|witness=Smith|paragraph=7" },
		{ "Jones Decl. \xC2\xB6\xC2\xB6 3-5", "record", "Jones Decl. \xC2\xB6\xC2\xB6 3-5",
		  "paragraph=3|paragraph_end=5" },
		{ "R. 456.", "record", "R. 456", "form=record|page=456" },
		{ "J.A. 123-24", "record", "J.A. 123-24", "form=joint_appendix|page=123|page_end=24" },
		{ "App. 12.", "record", "App. 12", "form=appendix|page=12" },
		{ "Pet. App. 12a", "record", "Pet. App. 12a", "form=appendix|label=Pet. App." },
		{ "John R. Smith came", NULL, NULL, NULL },
		{ "the Declaration of Independence", NULL, NULL, NULL },
	};
	CHECK(rows);
}

static void test_bates(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "See ACME0000123.", "bates", "ACME0000123", "prefix=ACME|number=0000123|width=7" },
		{ "ACME-0000123", "bates", "ACME-0000123", "prefix=ACME|number=0000123" },
		{ "ABC_001234", "bates", "ABC_001234", "prefix=ABC|number=001234" },
		{ "DEF 0012345", "bates", "DEF 0012345", "prefix=DEF|number=0012345" },
		{ "ACME0000123-25", "bates", "ACME0000123-25", "start=ACME0000123|end=ACME0000125" },
		{ "ACME0000123 \xE2\x80\x93 ACME0000130", "bates", "ACME0000123 \xE2\x80\x93 ACME0000130",
		  "end=ACME0000130" },
		{ "ACME0000123 through ACME0000130", "bates", "ACME0000123 through ACME0000130",
		  "end=ACME0000130" },
		{ "ACME0000199-05", "bates", "ACME0000199", NULL }, /* an end before the start */
		{ "the 2024 WL 1234567 cite", "case", "2024 WL 1234567", "canonical=WL" },
		{ "ISO-9001 and COVID-19", NULL, NULL, NULL },
	};
	CHECK(rows);
}

static void test_dates(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "On March 3, 2021, it rained.", "date", "March 3, 2021", "iso=2021-03-03|precision=day" },
		{ "Mar. 3, 2021", "date", "Mar. 3, 2021", "iso=2021-03-03" },
		{ "Sept. 3, 2021", "date", "Sept. 3, 2021", "iso=2021-09-03" },
		{ "Sep 3 2021", "date", "Sep 3 2021", "iso=2021-09-03" },
		{ "on 3/3/2021.", "date", "3/3/2021", "iso=2021-03-03" },
		{ "on 03/03/21.", "date", "03/03/21", "iso=2021-03-03" },
		{ "on 12/31/99.", "date", "12/31/99", "iso=1999-12-31" },
		{ "on 2021-03-03.", "date", "2021-03-03", "iso=2021-03-03" },
		{ "on 3 March 2021.", "date", "3 March 2021", "iso=2021-03-03" },
		{ "the third of March, 2021", "date", "the third of March, 2021", "iso=2021-03-03" },
		{ "on the 21st day of June, 2019", "date", "the 21st day of June, 2019", "iso=2019-06-21" },
		{ "the twenty-first of June, 2019", "date", "the twenty-first of June, 2019",
		  "iso=2019-06-21" },
		{ "In March 2021 they met.", "date", "March 2021", "iso=2021-03|precision=month" },
		{ "in May of 2020", "date", "May of 2020", "iso=2020-05|precision=month" },
		{ "March 3\xE2\x80\x93" "5, 2021", "date", "March 3\xE2\x80\x93" "5, 2021",
		  "iso=2021-03-03|end_iso=2021-03-05" },
		{ "from March 3 to April 5, 2021", "date", "March 3 to April 5, 2021",
		  "iso=2021-03-03|end_iso=2021-04-05" },
		{ "March 3, 2021 through April 5, 2021", "date", "March 3, 2021 through April 5, 2021",
		  "end_iso=2021-04-05" },
		{ "between 1/2/2020 and 3/4/2020", "date", "1/2/2020 and 3/4/2020", "end_iso=2020-03-04" },
		{ "February 29, 2020", "date", "February 29, 2020", "iso=2020-02-29" },
		{ "February 29, 2021", NULL, NULL, NULL },
		{ "13/45/2021", NULL, NULL, NULL },
		{ "You May 5 go", NULL, NULL, NULL },
		{ "March 3 was cold", "date", "March 3", "iso=--03-03|precision=monthday" },
	};
	CHECK(rows);
}

static void test_quotes(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "He said \"the rule is clear\" here.", "quote", "\"the rule is clear\"",
		  "quoted=the rule is clear" },
		{ "It held \xE2\x80\x9C" "a claim must be plausible\xE2\x80\x9D.", "quote",
		  "\xE2\x80\x9C" "a claim must be plausible\xE2\x80\x9D", "quoted=a claim must be plausible" },
		{ "\xE2\x80\x9C[t]he court . . . must\xE2\x80\x9D", "quote",
		  "\xE2\x80\x9C[t]he court . . . must\xE2\x80\x9D", "alterations=[t]; . . ." },
		{ "\xE2\x80\x9C" "a \xE2\x80\x98nested\xE2\x80\x99 one\xE2\x80\x9D", "quote",
		  "\xE2\x80\x9C" "a \xE2\x80\x98nested\xE2\x80\x99 one\xE2\x80\x9D", "nested=true" },
		{ "\"It was" "\xE2\x80\xA6" " done\"", "quote", "\"It was\xE2\x80\xA6 done\"",
		  "alterations=\xE2\x80\xA6" },
		{ "Text.\n\n> The quoted block\n> goes on here.\n\nAfter.", "quote",
		  "The quoted block\n> goes on here.", "block=markdown|quoted=The quoted block goes on here." },
		{ "Text.\n\n    An indented block quotation that runs on for\n    a second line too.\n\nAfter.",
		  "quote", "An indented block quotation that runs on for\n    a second line too.",
		  "block=indented" },
		{ "5\" by 7\"", NULL, NULL, NULL },
	};
	CHECK(rows);
}

static void test_authority(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007).", "case",
		  "Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007)",
		  "volume=550|canonical=U.S.|page=544|pin=556|year=2007|plaintiff=Bell Atl. Corp.|defendant=Twombly" },
		{ "Varghese v. China Southern Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019)", "case",
		  "Varghese v. China Southern Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019)",
		  "court=11th Cir.|pin=1345|name=Varghese v. China Southern Airlines Co." },
		{ "Twombly, 550 U.S. at 556\xE2\x80\x93" "57.", "case", "Twombly, 550 U.S. at 556\xE2\x80\x93" "57",
		  "pin=556\xE2\x80\x93" "57|antecedent=Twombly" },
		{ "2024 WL 3812259, at *11", "case", "2024 WL 3812259, at *11", "pin=at *11" },
		{ "2013 IL App (1st) 111279-U", "case", "2013 IL App (1st) 111279-U", "page=111279-U" },
		{ "28 U.S.C. \xC2\xA7 1332(a)(1)", "statute", "28 U.S.C. \xC2\xA7 1332(a)(1)",
		  "title=28|code=U.S.C.|section=1332|pin=(a)(1)" },
		{ "42 U.S.C. \xC2\xA7" "1983", "statute", "42 U.S.C. \xC2\xA7" "1983", "section=1983" },
		{ "\xC2\xA7\xC2\xA7 1981\xE2\x80\x93" "1983", "statute", "\xC2\xA7\xC2\xA7 1981\xE2\x80\x93" "1983",
		  "section=1981\xE2\x80\x93" "1983" },
		{ "29 C.F.R. \xC2\xA7 1630.2(g)", "statute", "29 C.F.R. \xC2\xA7 1630.2(g)",
		  "code=C.F.R.|section=1630.2" },
		{ "Fed. R. Civ. P. 56(a)", "rule", "Fed. R. Civ. P. 56(a)",
		  "code=Fed. R. Civ. P.|rule=56|pin=(a)" },
		{ "Fed. R. Evid. 801(d)(2)", "rule", "Fed. R. Evid. 801(d)(2)", "rule=801|pin=(d)(2)" },
		{ "Local Rule 56.1", "rule", "Local Rule 56.1", "rule=56.1|local=true" },
		{ "L.R. 7.1(b)", "rule", "L.R. 7.1(b)", "rule=7.1" },
		{ "Rule 12(b)(6)", "rule", "Rule 12(b)(6)", "rule=12|pin=(b)(6)" },
	};
	CHECK(rows);
}

/* Offsets stay exact around multi-byte characters. */
static void test_offsets_multibyte(void **state)
{
	(void)state;
	const char *t = "\xE2\x80\x9CQuote\xE2\x80\x9D \xE2\x80\x94 Foo v. Bar, 1 U.S. 1, 2\xE2\x80\x93" "3 (1990); "
			"\xC2\xA7 12; Smith Decl. \xC2\xB6 4; ACME0000001\xE2\x80\x93" "09.";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	const struct sw_claim *x = find(&c, t, "case", "Foo v. Bar, 1 U.S. 1, 2\xE2\x80\x93" "3 (1990)");
	assert_non_null(x);
	assert_int_equal(x->start, 16); /* after 3 + 5 + 3 + 1 + 3 + 1 bytes */
	assert_non_null(find(&c, t, "statute", "\xC2\xA7 12"));
	assert_non_null(find(&c, t, "record", "Smith Decl. \xC2\xB6 4"));
	assert_non_null(find(&c, t, "bates", "ACME0000001\xE2\x80\x93" "09"));
	x = find(&c, t, "quote", "\xE2\x80\x9CQuote\xE2\x80\x9D");
	assert_non_null(x);
	assert_int_equal(x->start, 0);
	assert_int_equal(x->end, 11);
	/* the quote is attributed to the citation after it */
	assert_true(x->attributed_to >= 0);
	assert_int_equal(c.v[x->attributed_to].kind, SW_CLAIM_CASE);
	sw_claims_release(&c);
}

static void test_resolution(void **state)
{
	(void)state;
	const char *t = "Foo v. Bar, 1 U.S. 1 (1990). Id. at 2. Ex. 5 at 3. Id. at 4. "
			"Foo, 1 U.S. at 5. Bar, supra, at 6. Baz v. Qux, 2 F.3d 7 (1999). Foo at 8.";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	long full = -1;
	for (size_t i = 0; i < c.n; i++)
		if (c.v[i].kind == SW_CLAIM_CASE && c.v[i].form == SW_FORM_FULL && full < 0)
			full = (long)i;
	assert_true(full >= 0);
	int ids = 0, seen_short = 0, seen_supra = 0, seen_ref = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct sw_claim *x = &c.v[i];
		if (x->form == SW_FORM_ID) {
			ids++;
			if (ids == 1) {
				assert_int_equal(x->kind, SW_CLAIM_CASE);
				assert_int_equal(x->resolves_to, full);
			} else {
				/* after a record cite, id. is a record cite */
				assert_int_equal(x->kind, SW_CLAIM_RECORD);
				assert_int_equal(c.v[x->resolves_to].kind, SW_CLAIM_RECORD);
			}
		}
		if (x->form == SW_FORM_SHORT) {
			seen_short = 1;
			assert_int_equal(x->resolves_to, full);
		}
		if (x->form == SW_FORM_SUPRA) {
			seen_supra = 1;
			assert_int_equal(x->resolves_to, full);
		}
		if (x->form == SW_FORM_REFERENCE) {
			seen_ref = 1;
			assert_int_equal(x->resolves_to, full);
		}
	}
	assert_int_equal(ids, 2);
	assert_true(seen_short && seen_supra && seen_ref);
	sw_claims_release(&c);
}

static void test_sentences(void **state)
{
	(void)state;
	const char *t = "The deposition was on March 3, 2021. Smith Dep. 4:1-5. See Fed. R. Civ. P. 30. "
			"Mr. Jones agreed, see U.S. v. Boch Oldsmobile, Inc., 909 F.2d 657 (1st Cir. 1990).\n\n"
			"A new paragraph";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	assert_int_equal(c.nsentences, 5);
	const struct sw_claim *d = find(&c, t, "date", "March 3, 2021");
	const struct sw_claim *r = find(&c, t, "record", "Smith Dep. 4:1-5");
	assert_non_null(d);
	assert_non_null(r);
	assert_int_equal(d->sentence, 0);
	assert_int_equal(r->sentence, 1);
	assert_int_equal(c.sentences[4].start, strlen(t) - strlen("A new paragraph"));
	sw_claims_release(&c);
}

/* "Sentence. (CITE) Next sentence.": the parenthetical after the stop is
 * the first sentence's citation, a sentence of its own, never the start
 * of the next; "(CITE.)" and "(CITE)." were sentences already. */
static void test_cite_after_stop(void **state)
{
	(void)state;
	const char *t = "Park wrote that Lot 20 would ship. (CRV0000008) Hale wrote back. "
			"(Smith Dep. 3:1-2) Then a third (ACME0000003). And (see below) a fourth.";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	const struct sw_claim *a = find(&c, t, "bates", "CRV0000008");
	const struct sw_claim *b = find(&c, t, "record", "Smith Dep. 3:1-2");
	assert_non_null(a);
	assert_non_null(b);
	const struct sw_sentence *sa = &c.sentences[a->sentence];
	const struct sw_sentence *sb = &c.sentences[b->sentence];
	assert_int_equal(sa->start, strstr(t, "(CRV") - t);
	assert_int_equal(sa->end, strstr(t, " Hale") - t);
	assert_int_equal(sb->end, strstr(t, " Then") - t);
	/* a parenthesis with no citation stays inside its sentence */
	assert_int_equal(c.sentences[c.nsentences - 1].start, strstr(t, "And (see") - t);
	sw_claims_release(&c);
}

/* Numbered paragraphs of a plain-text draft, 100 and up too: the number
 * opens its paragraph's sentence and ends none. */
static void test_paragraph_numbers(void **state)
{
	(void)state;
	const char *t = "99. The order shipped (ACME0000004).\n100. The order shipped "
			"(ACME0000004).\n1000. The order shipped (ACME0000004).\n";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	assert_int_equal(c.nsentences, 3);
	assert_int_equal(c.sentences[1].start, strstr(t, "100.") - t);
	assert_int_equal(c.sentences[2].start, strstr(t, "1000.") - t);
	sw_claims_release(&c);
}

static void test_hostile(void **state)
{
	(void)state;
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, "", 0, NULL), 0);
	assert_int_equal(c.n, 0);
	sw_claims_release(&c);
	/* NUL bytes, a cut UTF-8 sequence and a cite at the very end */
	static const char t[] = "1 U.S.\0 1 \xE2\x80 Id. at 1 \xC2";
	assert_int_equal(sw_claims_scan(&c, t, sizeof(t) - 1, NULL), 0);
	for (size_t i = 0; i < c.n; i++)
		assert_true(c.v[i].end <= sizeof(t) - 1);
	sw_claims_release(&c);
	/* a long chain of parallel-looking cites stays linear and bounded */
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 20000; i++)
		sw_buf_adds(&b, "1 U.S. 1, ");
	assert_int_equal(sw_claims_scan(&c, b.data, b.len, NULL), 0);
	assert_true(c.n > 0);
	sw_claims_release(&c);
	sw_buf_release(&b);
	struct sw_err err = { 0 };
	assert_int_equal(sw_claims_scan(&c, "x", SW_CLAIMS_MAX_TEXT + 1, &err), SW_ELIMIT);
	assert_non_null(strstr(err.msg, "limit"));
}

static void test_json(void **state)
{
	(void)state;
	const char *t = "Varghese v. China Southern Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019).";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	json_t *j = sw_claims_json(&c, t, "motion.md");
	assert_string_equal(json_string_value(json_object_get(j, "draft")), "motion.md");
	json_t *first = json_array_get(json_object_get(j, "claims"), 0);
	assert_string_equal(json_string_value(json_object_get(first, "kind")), "case");
	assert_int_equal(json_integer_value(json_object_get(first, "start")), 0);
	assert_int_equal(json_integer_value(json_object_get(first, "end")), strlen(t) - 1);
	json_t *f = json_object_get(first, "fields");
	assert_string_equal(json_string_value(json_object_get(f, "reporter")), "F.3d");
	assert_string_equal(json_string_value(json_object_get(f, "court")), "11th Cir.");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "summary"), "claims")), 1);
	json_decref(j);
	sw_claims_release(&c);
}

/* A scale word after a number past what a value holds: the fact keeps the
 * largest value (one no record supports), never a wrapped-round number
 * (UBSan stops at the overflow). */
static void test_fact_too_large(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		enum sw_fact_kind kind;
	} rows[] = {
		{ "paid $999,999,999,999,999 billion in fees", SW_FACT_MONEY },
		{ "paid USD 999,999,999,999,999 million in fees", SW_FACT_MONEY },
		{ "shipped 12346666666666600 million housings", SW_FACT_QUANTITY },
	};
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct sw_fact_token f;
		size_t pos = 0;
		assert_true(sw_claims_next_fact(&f, rows[k].text, strlen(rows[k].text), &pos));
		assert_int_equal(f.kind, rows[k].kind);
		assert_true(f.value == INT64_MAX);
	}
	struct sw_fact_token f;
	size_t pos = 0;
	const char *fine = "paid $2.5 billion in fees";
	assert_true(sw_claims_next_fact(&f, fine, strlen(fine), &pos));
	assert_true(f.value == 250000000000);
}

/* The fact rules on the shapes issue 36 names: compound number words,
 * labels that count nothing, days of another kind. */
static void test_fact_shapes(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		bool fact;
		int64_t value; /* hundredths */
		const char *unit;
	} rows[] = {
		{ "about three hundred and forty hours that week", true, 34000, "hour" },
		{ "two hundred and twelve panels in five lots", true, 21200, "panel" },
		{ "fifty-two thousand, eight hundred dollars", true, 5280000, "" },
		{ "within ten business days of the notice", true, 1000, "workday" },
		{ "seven calendar days after the event", true, 700, "day" },
		/* counts said without a number word, and the noun counted */
		{ "the invoice has a single charge", true, 100, "charge" },
		{ "both damaged panels were rejected", true, 200, "panel" },
		{ "Pay Application No. 4 has four line items", true, 400, "item" },
		{ "rejected only one Lot 20 panel", true, 100, "panel" },
		{ "worked only two of the logged days", true, 200, "day" },
		{ "a single-family home", false, 0, "" },
		{ "braced twenty to a truck", true, 2000, "per truck" },
		{ "twelve panels to a truck", true, 1200, "per truck" },
		{ "40 loads per week", true, 4000, "per week" },
		{ "interest at 5 per cent", true, 500, "" },
		{ "both Acme and Brightline signed", false, 0, "" },
		{ "the Sequence 1 steel arrived", false, 0, "" },
		{ "Crew 4 works on the deck", false, 0, "" },
		{ "Tier 1 pricing applies", false, 0, "" },
		{ "Only 2 men worked", true, 200, "men" },
		{ "hauled three of the five lots", true, 300, "lot" },
		{ "loaded forty Lot 20 panels", true, 4000, "panel" },
		{ "six Tallgrass laborers did it", true, 600, "laborer" },
		{ "on six Keel Transport trucks", true, 600, "truck" },
		{ "it gave a 17-day extension", true, 1700, "day" },
	};
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct sw_fact_token f;
		size_t pos = 0;
		bool got = sw_claims_next_fact(&f, rows[k].text, strlen(rows[k].text), &pos);
		if (got != rows[k].fact)
			fail_msg("'%s': fact %d, expected %d", rows[k].text, got, rows[k].fact);
		if (!got)
			continue;
		if (f.value != rows[k].value)
			fail_msg("'%s': value %lld, expected %lld", rows[k].text,
				 (long long)f.value, (long long)rows[k].value);
		if (rows[k].unit[0] && strcmp(f.unit, rows[k].unit) != 0)
			fail_msg("'%s': unit '%s', expected '%s'", rows[k].text, f.unit,
				 rows[k].unit);
	}
}

/* A register's dates, day-month-year by dashes. */
static void test_dmy_dash(void **state)
{
	(void)state;
	const char *t = "Assembled 03-Jun-2022; idle from 6-Jun-22; not a date: 31-Feb-2022.";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	const char *want[] = { "2022-06-03", "2022-06-06" };
	size_t n = 0;
	for (size_t k = 0; k < c.n; k++)
		if (c.v[k].kind == SW_CLAIM_DATE) {
			assert_true(n < 2);
			assert_string_equal(sw_claim_get(&c.v[k], "iso"), want[n]);
			n++;
		}
	assert_int_equal(n, 2);
	sw_claims_release(&c);
}

/* A chronology one entry a line, with or without a final stop: a claim
 * per line, never one per paragraph. */
static void test_line_entries(void **state)
{
	(void)state;
	const char *t = "Chronology\n\n"
			"June 6, 2022 - Crane rigged; no steel on site (Pl. Ex. 4 at 1).\n"
			"June 7, 2022 - Crane on standby with two men (Pl. Ex. 4 at 1)\n"
			"6/21/2022 Crew 1 erects 32 pieces (RSE0000026)\n"
			"- 2022-06-22: Crew 2 bolts up 418 bolts (RSE0000026)\n";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	size_t props = 0;
	for (size_t k = 0; k < c.n; k++) {
		if (c.v[k].kind != SW_CLAIM_PROPOSITION)
			continue;
		props++;
		/* each proposition is one line */
		assert_null(memchr(t + c.v[k].start, '\n', c.v[k].end - c.v[k].start));
	}
	assert_int_equal(props, 4);
	sw_claims_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_bates),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_authority),
		cmocka_unit_test(test_offsets_multibyte),
		cmocka_unit_test(test_resolution),
		cmocka_unit_test(test_sentences),
		cmocka_unit_test(test_cite_after_stop),
		cmocka_unit_test(test_paragraph_numbers),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_fact_too_large),
		cmocka_unit_test(test_fact_shapes),
		cmocka_unit_test(test_line_entries),
		cmocka_unit_test(test_dmy_dash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
