/*
 * claims_record_test.c - claims/ on drafts as local models write them:
 * record id., quotations and the citation of their own sentence, reporters
 * that look like record words, dates, identifiers that look like Bates
 * numbers, exhibit labels with parties, and the streamed JSON.
 *
 * Each row is checked as claims_rows.h says.
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

/* Item 3: id. after a record cite is that record cite, with its own pin. */
static void test_record_id(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "The notice went out late (Ex. 12 at 3). It was never cured. (Id.)", "record", "Id.",
		  "F=id|label=Ex.|number=12|page=3|->Ex. 12 at 3" },
		{ "The notice went out late (Ex. 12 at 3). It was never cured. (Id. at 4.)", "record",
		  "Id. at 4", "F=id|label=Ex.|number=12|page=4|pin=at 4|->Ex. 12 at 3" },
		{ "The notice went out late. Ex. 12 at 3. Acme never cured it. Id. at 5-6.", "record",
		  "Id. at 5-6", "number=12|page=5|page_end=6|->Ex. 12 at 3" },
		{ "Whitaker admitted it. Whitaker Dep. 12:3-5. He said so twice. Id. at 14:2-9.", "record",
		  "Id. at 14:2-9",
		  "F=id|witness=Whitaker|label=Dep.|F=id|page=14|line=2|line_end=9|->Whitaker Dep. 12:3-5" },
		{ "He admitted it. Whitaker Dep. 12:3. The answer ran on. Id. at 12:25-13:2.", "record",
		  "Id. at 12:25-13:2", "page=12|line=25|page_end=13|line_end=2|witness=Whitaker" },
		{ "He admitted it (Whitaker Dep. 12:3). He repeated it (id. 40:1-4).", "record", "id. 40:1-4",
		  "page=40|line=1|line_end=4|witness=Whitaker" },
		{ "Shipments stopped. Lee Decl. \xC2\xB6 3. Payments stopped too. Id. \xC2\xB6 4.", "record",
		  "Id. \xC2\xB6 4", "form=declaration|witness=Lee|paragraph=4|!page|->Lee Decl. \xC2\xB6 3" },
		{ "Shipments stopped. Lee Decl. \xC2\xB6 3. Payments too. Id. \xC2\xB6\xC2\xB6 5-7.", "record",
		  "Id. \xC2\xB6\xC2\xB6 5-7", "paragraph=5|paragraph_end=7" },
		{ "The court so ordered. ECF No. 45 at 2. It said more. Id. at 3.", "record", "Id. at 3",
		  "form=ecf|number=45|page=3|->ECF No. 45 at 2" },
		{ "The invoice was paid. ACME0000004. It was paid late. Id. at 2.", "bates", "Id. at 2",
		  "F=id|prefix=ACME|number=0000004|page=2|position=citation|->ACME0000004" },
		{ "It was signed. BLT-000006\xE2\x80\x93" "BLT-000009. Twice. Id.", "bates", "Id.",
		  "prefix=BLT|number=000006|end=BLT-000009" },
		/* id. without a pin repeats the cite's pin */
		{ "Cured? No. Ex. 7 at 9. Ever? No. Id.", "record", "Id.", "number=7|page=9" },
		/* id. after id. still names the record cite */
		{ "Late. Ex. 3 at 1. Again. Id. at 2. Again. Id. at 3.", "record", "Id. at 3",
		  "number=3|page=3|->Ex. 3 at 1" },
		/* id. after a case is still the case */
		{ "See Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). Id. at 323.", "case", "Id. at 323",
		  "F=id|->Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986)|!label" },
		/* a record cite between: id. follows the latest */
		{ "See Celotex Corp. v. Catrett, 477 U.S. 317 (1986); Ex. 4 at 2. Id. at 5.", "record",
		  "Id. at 5", "number=4|page=5" },
		/* a party exhibit keeps its party through id. */
		{ "The memo says so. Def. Ex. 3 at 2. It says more. Id. at 4.", "record", "Id. at 4",
		  "label=Def. Ex.|party=defendant|number=3|page=4" },
	};
	CHECK(rows);
}

/* Item 4: a quotation belongs to its own sentence's citation. */
static void test_quote_attribution(void **state)
{
	(void)state;
	static const struct row rows[] = {
		/* after it, in the same sentence */
		{ "Whitaker said \"the late delivery credit applies\" (Whitaker Dep. 12:3-5).", "quote",
		  "\"the late delivery credit applies\"", "=>Whitaker Dep. 12:3-5" },
		{ "\"The delivery was late,\" Smith Dep. 12:3-5, and it was.", "quote",
		  "\"The delivery was late,\"", "=>Smith Dep. 12:3-5" },
		/* before it, in the same sentence */
		{ "Under Twombly, 550 U.S. at 556, a claim must be \"plausible on its face.\"", "quote",
		  "\"plausible on its face.\"", "=>Twombly, 550 U.S. at 556" },
		/* the parenthetical that holds it */
		{ "See Foo v. Bar, 1 U.S. 1, 5 (1990) (holding that \"a rule is a rule\").", "quote",
		  "\"a rule is a rule\"", "=>Foo v. Bar, 1 U.S. 1, 5 (1990) (holding that \"a rule is a rule\")" },
		/* a citation sentence after it */
		{ "She wrote \"the goods were late.\" ACME0000003.", "quote", "\"the goods were late.\"",
		  "=>ACME0000003" },
		/* an id. standing right after it, with text after the id. */
		{ "It says \"a.\" (ACME0000001.) It says \"the goods were late.\" (Id.) The rest "
		  "is \"b.\" (ACME0000002.)",
		  "quote", "\"the goods were late.\"", "=>Id." },
		{ "She wrote \"the goods were late.\" Smith Dep. 12:3-5.", "quote",
		  "\"the goods were late.\"", "=>Smith Dep. 12:3-5" },
		{ "She wrote \"the goods were late.\" See Ex. 2 at 1.", "quote", "\"the goods were late.\"",
		  "=>Ex. 2 at 1" },
		{ "She wrote \"the goods were late.\" (Ex. 2 at 1.)", "quote", "\"the goods were late.\"",
		  "=>Ex. 2 at 1" },
		{ "She wrote \xE2\x80\x9Cthe goods were late.\xE2\x80\x9D See, e.g., Ex. 2 at 1; Ex. 3.",
		  "quote", "\xE2\x80\x9Cthe goods were late.\xE2\x80\x9D", "=>Ex. 2 at 1" },
		{ "She wrote \"the goods were late.\" Ex. 2 at 1 [^3].", "quote", "\"the goods were late.\"",
		  "=>Ex. 2 at 1" },
		{ "She wrote \"the goods were late.\" Ex. 2 at 1 (e-mail of March 3).", "quote",
		  "\"the goods were late.\"", "=>Ex. 2 at 1" },
		/* a citation sentence after it before a cite earlier in its sentence,
		 * which supports another part of the sentence */
		{ "The procedure took effect in 2020 (BLT-000003) and says \"customer has an open "
		  "balance.\" (BLT-000006.)", "quote", "\"customer has an open balance.\"", "=>BLT-000006" },
		{ "The notice (Ex. 3) said \"cure within ten days.\" Ex. 4 at 2.", "quote",
		  "\"cure within ten days.\"", "=>Ex. 4 at 2" },
		/* the cite whose parenthetical holds it, before a cite after it */
		{ "See Foo v. Bar, 1 U.S. 1, 5 (1990) (holding that \"a rule is a rule\"); Baz v. Qux, "
		  "2 U.S. 2 (1991).", "quote", "\"a rule is a rule\"",
		  "=>Foo v. Bar, 1 U.S. 1, 5 (1990) (holding that \"a rule is a rule\")" },
		/* never a citation inside the next textual sentence */
		{ "She wrote \"the goods were late.\" The court in Foo v. Bar, 1 U.S. 1 (1990), disagreed.",
		  "quote", "\"the goods were late.\"", "=>-" },
		{ "She wrote \"the goods were late.\" Acme answered in Ex. 4 at 2 that they were not.",
		  "quote", "\"the goods were late.\"", "=>-" },
		{ "She wrote \"the goods were late.\" On March 3, 2021, Acme paid. ACME0000009.", "quote",
		  "\"the goods were late.\"", "=>-" },
		/* two quotations, two citations, each its own */
		{ "He said \"first\" (Ex. 1 at 1), and she said \"second\" (Ex. 2 at 2).", "quote",
		  "\"second\"", "=>Ex. 2 at 2" },
		{ "He said \"first\" (Ex. 1 at 1), and she said \"second\" (Ex. 2 at 2).", "quote",
		  "\"first\"", "=>Ex. 1 at 1" },
		/* a record id. after the quotation */
		{ "The notice issued (Ex. 12 at 3). It said \"cure within ten days\" (Id.).", "quote",
		  "\"cure within ten days\"", "=>Id." },
	};
	CHECK(rows);
}

/* Item 5: a volume before a reporter that looks like a record word. */
static void test_reporters_not_exhibits(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "See Hadley v. Baxendale, 9 Ex. 341 (1854).", "case", "Hadley v. Baxendale, 9 Ex. 341 (1854)",
		  "volume=9|canonical=Ex.|page=341|plaintiff=Hadley|defendant=Baxendale" },
		{ "See Hadley v. Baxendale, 9 Ex. 341 (1854).", NULL, "Ex. 341", NULL },
		{ "Hadley v. Baxendale, 9 Exch. 341, 354 (1854)", "case", "Hadley v. Baxendale, 9 Exch. 341, 354 (1854)",
		  "canonical=Ex.|pin=354" },
		{ "Carlill v. Carbolic Smoke Ball Co., [1893] 1 Q.B. 256", "case",
		  "Carlill v. Carbolic Smoke Ball Co., [1893] 1 Q.B. 256", "canonical=Q.B.|volume=1|page=256" },
		{ "Raffles v. Wichelhaus, 2 H. & C. 906 (1864); Ex. 5 at 2.", "record", "Ex. 5 at 2",
		  "number=5|page=2" },
		{ "Victoria Laundry v. Newman, [1949] 2 K.B. 528", "case",
		  "Victoria Laundry v. Newman, [1949] 2 K.B. 528", "canonical=K.B.|defendant=Newman" },
		/* no volume: the record */
		{ "See Ex. 341 at 2.", "record", "Ex. 341 at 2", "number=341|page=2" },
		{ "(Smith Decl. \xC2\xB6 12, Ex. 3.)", "record", "Ex. 3", "number=3" },
		{ "See R. 45.", "record", "R. 45", "form=record|page=45" },
	};
	CHECK(rows);
}

/* Item 6: dates, and identifiers that must not take them. */
static void test_dates(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "Paid on March 3, 2021.", "date", "March 3, 2021", "iso=2021-03-03|precision=day" },
		{ "Paid on Mar. 3, 2021.", "date", "Mar. 3, 2021", "iso=2021-03-03|precision=day" },
		{ "Paid on Sept. 3, 2021.", "date", "Sept. 3, 2021", "iso=2021-09-03" },
		{ "Paid on 3 March 2021.", "date", "3 March 2021", "iso=2021-03-03" },
		{ "Paid on 03/03/2021.", "date", "03/03/2021", "iso=2021-03-03" },
		{ "Paid on 3/3/21.", "date", "3/3/21", "iso=2021-03-03" },
		{ "Paid on 2021-03-03.", "date", "2021-03-03", "iso=2021-03-03" },
		{ "Sent 2021-03-03T16:02:11-05:00 by Lee.", "date", "2021-03-03T16:02:11-05:00",
		  "iso=2021-03-03|precision=day" },
		{ "Sent 2021-03-03T21:02Z.", "date", "2021-03-03T21:02Z", "iso=2021-03-03" },
		{ "In March 2021 it shipped.", "date", "March 2021", "iso=2021-03|precision=month" },
		{ "In 2021 it shipped.", "date", "2021", "iso=2021|precision=year" },
		{ "Sales fell during 2020.", "date", "2020", "iso=2020|precision=year" },
		{ "The week of 3/1/2021-3/5/2021.", "date", "3/1/2021-3/5/2021",
		  "iso=2021-03-01|end_iso=2021-03-05" },
		{ "From March 3 to April 5, 2021.", "date", "March 3 to April 5, 2021",
		  "iso=2021-03-03|end_iso=2021-04-05" },
		{ "From March 2020 to April 2021.", "date", "March 2020 to April 2021",
		  "iso=2020-03|end_iso=2021-04|precision=month" },
		/* the document's own date is not a claim about the record */
		{ "true and correct. Executed on December 1, 2026.", NULL, "December 1, 2026", NULL },
		{ "Dated: December 1, 2026", NULL, "December 1, 2026", NULL },
		{ "The letter dated March 3, 2021 says so.", "date", "March 3, 2021", "iso=2021-03-03" },
		/* identifiers: no date inside them, and the date beside them kept */
		{ "NCR-2021-0147 was opened on March 3, 2021.", "date", "March 3, 2021", "iso=2021-03-03" },
		{ "NCR-2021-0147 was opened on March 3, 2021.", "bates", "NCR-2021-0147",
		  "prefix=NCR|number=2021|rest=-0147|position=text" },
		{ "See PO 2021-03 for the order.", NULL, "2021-03", NULL },
		{ "INV-2021-0315 was paid.", "bates", "INV-2021-0315", "rest=-0315|position=text" },
		{ "INV-2021-0315 was paid.", NULL, "2021-03", NULL },
		{ "In 2021 WL 1234567 the court held.", "case", "2021 WL 1234567", "canonical=WL" },
		{ "In 2021 WL 1234567 the court held.", NULL, "2021", NULL },
		{ "The 2021 budget.", NULL, "2021", NULL },
	};
	CHECK(rows);
}

/* Item 9: every Bates-shaped token says where it stands. */
static void test_bates_position(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "Invoice INV-10236 was paid.", "bates", "INV-10236",
		  "position=text|prefix=INV|separator=-|number=10236" },
		{ "Acme issued NCR-2021-0147.", "bates", "NCR-2021-0147", "position=text" },
		{ "Log4Shell is CVE-2021-44228.", "bates", "CVE-2021-44228",
		  "position=text|prefix=CVE|rest=-44228" },
		{ "The invoice was paid. ACME0000003.", "bates", "ACME0000003", "position=citation" },
		{ "The invoice was paid (ACME0000003).", "bates", "ACME0000003", "position=citation" },
		{ "The invoice was paid (ACME0000003; Ex. 2 at 1).", "bates", "ACME0000003",
		  "position=citation" },
		{ "The invoice was paid. See ACME0000003.", "bates", "ACME0000003", "position=citation" },
		{ "The invoice was paid, see also BLT-000004, as agreed.", "bates", "BLT-000004",
		  "position=citation" },
		{ "The invoice was paid. Cf. BLT_000004.", "bates", "BLT_000004", "position=citation|separator=_" },
		{ "The invoice was paid (Invoice INV-10237).", "bates", "INV-10237", "position=text" },
		{ "The invoice was paid.\n- ACME0000007.\n", "bates", "ACME0000007", "position=citation" },
		{ "The invoice was paid.\n1. ACME0000007.\n", "bates", "ACME0000007", "position=citation" },
		{ "The invoice was paid. ACME0000008 [^2].", "bates", "ACME0000008", "position=citation" },
		{ "ACME0000006 shows the invoice was paid.", "bates", "ACME0000006", "position=text" },
		{ "The invoice was paid. ACME0000003 at 2.", "bates", "ACME0000003", "position=citation" },
		{ "The invoice was paid. ACME0000003 (invoice of March 3).", "bates", "ACME0000003",
		  "position=citation" },
		{ "The invoice was paid. ACME0000003 was stamped.", "bates", "ACME0000003", "position=text" },
		/* spellings: prefix without its separator, number as digits */
		{ "See BLT-000001.", "bates", "BLT-000001", "prefix=BLT|separator=-|number=000001|width=6" },
		{ "See BLT 000001.", "bates", "BLT 000001", "prefix=BLT|separator= |number=000001" },
		{ "See BLT_000001.", "bates", "BLT_000001", "prefix=BLT|separator=_|number=000001" },
		{ "See ACME0000001.", "bates", "ACME0000001", "prefix=ACME|!separator|number=0000001" },
		{ "See BLT-000006\xE2\x80\x93" "BLT-000009.", "bates", "BLT-000006\xE2\x80\x93" "BLT-000009",
		  "prefix=BLT|number=000006|end=BLT-000009|!rest" },
		{ "See BLT-000007-000012.", "bates", "BLT-000007-000012",
		  "prefix=BLT|number=000007|end=BLT-000012|!rest" },
		{ "See ACME0000007-08.", "bates", "ACME0000007-08", "number=0000007|end=ACME0000008" },
		/* named things of the same shape stand in the text */
		{ "The RTX 3090 and the V100 failed.", "bates", "RTX 3090",
		  "position=text|prefix=RTX|number=3090" },
		{ "The RTX 3090 and the V100 failed.", NULL, "V100", NULL },
		{ "PO 4471 was late.", "bates", "PO 4471", "position=text|prefix=PO" },
		/* ... and a model citing one as a Bates number is caught by position */
		{ "It confirmed the shipment in writing. (GTX 1080.)", "bates", "GTX 1080",
		  "position=citation|prefix=GTX|number=1080" },
		{ "The carrier was Northway Freight. (RTX4090.)", "bates", "RTX4090",
		  "position=citation|prefix=RTX|!separator" },
		{ "- The scanned bill of lading. (RX 7900.)", "bates", "RX 7900", "position=citation" },
		{ "The memo is clear. (BLT\xE2\x80\x91" "000001.)", "bates", "BLT\xE2\x80\x91" "000001",
		  "position=citation|prefix=BLT|separator=\xE2\x80\x91|number=000001" },
		/* record words in capitals keep their meaning */
		{ "See PX 123 at 4.", "record", "PX 123 at 4", "party=plaintiff|number=123|page=4" },
		{ "See ECF 123 at 4.", "record", "ECF 123 at 4", "form=ecf|number=123|page=4" },
		{ "Certified to ISO 9001.", NULL, "ISO 9001", NULL },
		{ "Its Form 10-K says so.", NULL, "Form 10-K", NULL },
		{ "It violated Rule 10b-5(b).", "rule", "Rule 10b-5(b)", "rule=10b-5|pin=(b)" },
		{ "Under Rule 14a-8, it may.", "rule", "Rule 14a-8", "rule=14a-8" },
	};
	CHECK(rows);
}

/* Item 12: exhibit labels keep their party. */
static void test_exhibit_labels(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "See Def. Ex. 3 at 2.", "record", "Def. Ex. 3 at 2",
		  "label=Def. Ex.|party=defendant|number=3|page=2" },
		{ "See Defs.' Ex. 3.", "record", "Defs.' Ex. 3", "label=Defs.' Ex.|party=defendant" },
		{ "See Defs.\xE2\x80\x99 Ex. 3.", "record", "Defs.\xE2\x80\x99 Ex. 3", "party=defendant" },
		{ "See Pl. Ex. 3.", "record", "Pl. Ex. 3", "label=Pl. Ex.|party=plaintiff|number=3" },
		{ "See Pls.' Ex. 3.", "record", "Pls.' Ex. 3", "label=Pls.' Ex.|party=plaintiff" },
		{ "See Plaintiff's Exhibit 3.", "record", "Plaintiff's Exhibit 3",
		  "label=Plaintiff's Exhibit|party=plaintiff" },
		{ "See Joint Ex. 12.", "record", "Joint Ex. 12", "party=joint|number=12" },
		{ "See PX 3.", "record", "PX 3", "label=PX|party=plaintiff|number=3" },
		{ "See PX3.", "record", "PX3", "label=PX|party=plaintiff|number=3" },
		{ "See DX-3.", "record", "DX-3", "label=DX|party=defendant|number=3" },
		{ "See JX 12 at 4.", "record", "JX 12 at 4", "label=JX|party=joint|number=12|page=4" },
		{ "See Ex. A-3.", "record", "Ex. A-3", "label=Ex.|number=A-3|!party" },
		{ "See Exhibit 3.", "record", "Exhibit 3", "label=Exhibit|number=3|!party" },
		{ "See Ex. 3.", "record", "Ex. 3", "label=Ex.|!party" },
		/* a list of them, each its own party */
		{ "Def. Ex. 3; Pl. Ex. 3; Ex. 3.", "record", "Pl. Ex. 3", "party=plaintiff" },
	};
	CHECK(rows);
}

/* Markdown leftovers around claims do not break them. */
static void test_markdown_leftovers(void **state)
{
	(void)state;
	static const struct row rows[] = {
		{ "- Acme shipped late. Ex. 4 at 2.\n- It never cured. Id. at 3.\n", "record", "Id. at 3",
		  "number=4|page=3" },
		{ "1. Acme shipped late.[^1] Ex. 4 at 2.\n2. Paid (ACME0000002).\n", "bates", "ACME0000002",
		  "position=citation" },
		{ "[^1]: See Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", "case",
		  "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986)", "plaintiff=Celotex Corp." },
	};
	CHECK(rows);
}

/* "at N" outside citations and many supra cites resolve as before, and
 * stay linear: a hundred thousand of them scan in well under the test's
 * time limit (quadratic code took minutes on far fewer). */
static void test_references_at_scale(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 3000; i++)
		sw_buf_addf(&b, "See Party%d v. Other%d, %d F.3d %d (2d Cir. 2001). The hearing at %d "
				"was held at %d. Party%d at %d. Other%d, supra, at %d.\n",
			    i, i, 1 + i % 900, 1 + i, 1 + i % 12, 1 + i % 9, i / 2, 2 + i, i / 3, 3 + i);
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, b.data, b.len, NULL), 0);
	int refs = 0, supras = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct sw_claim *x = &c.v[i];
		if (x->form == SW_FORM_REFERENCE) {
			refs++;
			/* "PartyN at" names the cite of PartyN */
			const char *pl = sw_claim_get(x, "plaintiff");
			assert_non_null(pl);
			assert_true(x->resolves_to >= 0);
			assert_string_equal(sw_claim_get(&c.v[x->resolves_to], "plaintiff"), pl);
		}
		if (x->form == SW_FORM_SUPRA) {
			supras++;
			assert_true(x->resolves_to >= 0);
			assert_string_equal(sw_claim_get(&c.v[x->resolves_to], "defendant"),
					    sw_claim_get(x, "antecedent"));
		}
	}
	assert_int_equal(refs, 3000);
	assert_int_equal(supras, 3000);
	sw_claims_release(&c);
	sw_buf_release(&b);
}

/* ------------------------------------------------------------------ JSON */

static char *tree_doc(const struct sw_claims *c, const char *t, const char *kind, json_t *after)
{
	json_t *doc = sw_claims_json(c, t, "draft.md");
	if (kind) {
		json_t *all = json_object_get(doc, "claims"), *keep = json_array();
		size_t i;
		json_t *x;
		json_array_foreach(all, i, x)
			if (!strcmp(json_string_value(json_object_get(x, "kind")), kind))
				json_array_append(keep, x);
		json_object_set_new(doc, "claims", keep);
	}
	if (after)
		json_object_update(doc, after);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_int_equal(sw_json_print(f, doc, NULL), 0);
	fclose(f);
	json_decref(doc);
	return buf;
}

static char *stream_doc(const struct sw_claims *c, const char *t, const struct sw_claims_json_opts *o)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_int_equal(sw_claims_json_write(f, c, t, "draft.md", o, NULL), 0);
	fclose(f);
	return buf;
}

/* The place callback of a caller whose draft had 10 bytes before the text. */
static void shifted(void *ctx, const struct sw_claim *c, size_t at[4], size_t *line, size_t *col)
{
	(void)c;
	size_t *calls = ctx;
	for (int k = 0; k < 4; k++)
		at[k] += 10;
	*line = ++*calls;
	*col = 1;
}

static void test_json_stream(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"",
		"No claims here.",
		"See Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). Id. at 323. He said \"a\\b\" "
		"(Ex. 12 at 3). (Id.) Invoice INV-10236 \t was paid on March 3, 2021.\r\n",
		"Control \x01\x1f bytes, a DEL \x7f, a slash / and \xE2\x80\xA8 and bad \xFF\xFE bytes: "
		"\"quoted \xC3\xA9\" ACME0000003.",
		"He said \"caf\xC3\xA9 then a bad \xFF byte\" (Ex. 4 at 1).",
	};
	/* block quotations longer than the writer's buffer holds escaped (its
	 * second path): one UTF-8 with escapes, one with a bad byte */
	char *longs[2];
	for (int k = 0; k < 2; k++) {
		struct sw_buf q = SW_BUF_INIT;
		sw_buf_adds(&q, "The court held:\n\n");
		for (int n = 0; n < 600; n++)
			sw_buf_adds(&q, "    the caf\xC3\xA9\t\\ ok \x01 said \"so\" here\n");
		if (k)
			sw_buf_adds(&q, "    a bad \xFF byte\n");
		sw_buf_adds(&q, "\nSee Ex. 3 at 2. Then ACME0000003.");
		longs[k] = sw_buf_detach(&q, NULL);
	}
	const char *all[SW_ARRAY_LEN(texts) + 2];
	for (size_t i = 0; i < SW_ARRAY_LEN(texts); i++)
		all[i] = texts[i];
	all[SW_ARRAY_LEN(texts)] = longs[0];
	all[SW_ARRAY_LEN(texts) + 1] = longs[1];
	for (size_t i = 0; i < SW_ARRAY_LEN(all); i++) {
		const char *t = all[i];
		struct sw_claims c;
		assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
		char *a = tree_doc(&c, t, NULL, NULL), *b = stream_doc(&c, t, NULL);
		assert_string_equal(a, b);
		if (i >= SW_ARRAY_LEN(texts))
			assert_true(strlen(b) > 20000); /* the long quotation is in it */
		free(a);
		/* read in place (NUL-terminated): the same claims */
		struct sw_claims d;
		assert_int_equal(sw_claims_scan_terminated(&d, t, strlen(t), NULL), 0);
		a = stream_doc(&d, t, NULL);
		assert_string_equal(a, b);
		sw_claims_release(&d);
		free(a);
		free(b);
		/* one kind only */
		struct sw_claims_json_opts o = { .kind = "record" };
		a = tree_doc(&c, t, "record", NULL);
		b = stream_doc(&c, t, &o);
		assert_string_equal(a, b);
		free(a);
		free(b);
		/* offsets moved, line and column, an audit after the summary */
		json_t *after = json_pack("{s:{s:s, s:i, s:[s, i], s:{}}}", "audit", "time", "2026-12-01T00:00:00Z",
					  "documents", 3, "list", "x\"y", 4, "empty");
		size_t calls = 0;
		struct sw_claims_json_opts o2 = { .place = shifted, .ctx = &calls, .after = after };
		b = stream_doc(&c, t, &o2);
		json_t *doc = sw_claims_json(&c, t, "draft.md");
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(doc, "claims"), k, x) {
			static const char *const keys[] = { "start", "end", "cite_start", "cite_end" };
			for (int j = 0; j < 4; j++)
				json_object_set_new(x, keys[j],
					json_integer(json_integer_value(json_object_get(x, keys[j])) + 10));
			json_object_set_new(x, "line", json_integer((json_int_t)k + 1));
			json_object_set_new(x, "column", json_integer(1));
		}
		json_object_update(doc, after);
		char *want = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&want, &n);
		assert_int_equal(sw_json_print(f, doc, NULL), 0);
		fclose(f);
		assert_string_equal(want, b);
		free(want);
		free(b);
		json_decref(doc);
		json_decref(after);
		sw_claims_release(&c);
	}
	free(longs[0]);
	free(longs[1]);
}

static void test_json_write_error(void **state)
{
	(void)state;
	const char *t = "See Ex. 3.";
	struct sw_claims c;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	FILE *f = fopen("/dev/full", "w");
	if (!f) {
		sw_claims_release(&c);
		fail_msg("cannot open /dev/full");
	}
	struct sw_err err = { 0 };
	assert_int_equal(sw_claims_json_write(f, &c, t, "-", NULL, &err), SW_EIO);
	assert_non_null(strstr(err.msg, "cannot write"));
	fclose(f);
	sw_claims_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_id),
		cmocka_unit_test(test_quote_attribution),
		cmocka_unit_test(test_reporters_not_exhibits),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_bates_position),
		cmocka_unit_test(test_exhibit_labels),
		cmocka_unit_test(test_markdown_leftovers),
		cmocka_unit_test(test_references_at_scale),
		cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_json_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
