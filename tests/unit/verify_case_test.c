/*
 * verify_case_test.c - the verdicts of case citations (rules_case.c) and of
 * quotations attributed to them (opinion.c), over an authority table and
 * opinion texts with star pages built in a scratch folder.  Each row is a
 * draft, the claim to look at, the verdict and a piece of the reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define TMPDIR_TAG "verify-case"
#include "tmpdir.h"

#include "verify/verify_int.h"

static struct sw_authority *auth;

static const char cases_csv[] =
	"name,volume,reporter,page,last_page,court,year\n"
	"Celotex Corp. v. Catrett,477,U.S.,317,338,U.S.,1986\n"
	"\"Anderson v. Liberty Lobby, Inc.\",477,U.S.,242,268,U.S.,1986\n"
	"Bell Atlantic Corp. v. Twombly,550,U.S.,544,597,U.S.,2007\n"
	"Ashcroft v. Iqbal,556,U.S.,662,699,U.S.,2009\n"
	"J.D. v. Azar,925,F.3d,1291,1344,D.C. Cir.,2019\n"
	"Matsushita Electric Industrial Co. v. Zenith Radio Corp.,475,U.S.,574,606,U.S.,1986\n"
	"Pennoyer v. Neff,95,U.S.,714,,U.S.,1878\n"
	"International Shoe Co. v. Washington,326,U.S.,310,326,U.S.,1945\n"
	"\"Daubert v. Merrell Dow Pharmaceuticals, Inc.\",509,U.S.,579,601,U.S.,1993\n"
	"United States v. Nixon,418,U.S.,683,716,U.S.,1974\n"
	"New York Times Co. v. Sullivan,376,U.S.,254,305,U.S.,1964\n"
	"In re Grand Jury Subpoena,828,F.2d,1438,1445,9th Cir.,1987\n"
	/* No last page: the next case in the volume bounds a pin, else only
	 * a length no opinion has. */
	"Hadley v. Baxendale,9,Ex.,341,,Ex. Ch.,1854\n"
	"Doe v. Roe,9,Ex.,355,,Ex.,1854\n"
	"Celotex Corp. v. Catrett,106,S. Ct.,2548,,U.S.,1986\n"
	"Nemec v. Shrader,991,A.2d,1120,,Del.,2010\n"
	"Roe v. Doe,991,A.2d,1142,1150,Del.,2010\n";

/* Celotex as CourtListener's plain text gives it: star pages at line
 * starts and in brackets, and a quotation that runs over a page. */
static const char celotex_txt[] =
	"CELOTEX CORP. v. CATRETT\n"
	"JUSTICE REHNQUIST delivered the opinion of the Court.\n"
	"The District Court granted the motion because respondent was unable to\n"
	"produce evidence in support of her allegation.\n"
	"*318 In September 1980, respondent filed this action.\n"
	"*322 In our view, the plain language of Rule 56(c) mandates the entry of\n"
	"summary judgment, after adequate time for discovery and upon motion, against a\n"
	"party who fails to make a showing sufficient to establish the existence of an\n"
	"element essential to that party's case. In such a situation, there can be\n"
	"[*323] \"no genuine issue as to any material fact,\" since a complete failure of\n"
	"proof concerning an essential element of the nonmoving party's case necessarily\n"
	"renders all other facts immaterial. The moving party is \"entitled to a judg-\n"
	"ment as a matter of law\" because the nonmoving party has failed.\n"
	"*324 Rule 56(e) therefore requires the nonmoving party to go beyond the\n"
	"pleadings and by her own affidavits designate specific facts showing that there\n"
	"is a genuine issue for trial. [**2553] We do not mean that the nonmoving party\n"
	"must produce evidence in a form that would be admissible at trial.\n";

/* Anderson as html_with_citations gives it. */
static const char anderson_txt[] =
	"<div><p>JUSTICE WHITE delivered the opinion of the Court.</p>\n"
	"<p>The inquiry is whether the evidence presents a sufficient disagreement.\n"
	"<span class=\"star-pagination\">*248</span> Only disputes over facts that might\n"
	"affect the outcome of the suit under the governing law will properly preclude\n"
	"the entry of summary judgment. The court&#8217;s function is not to weigh the\n"
	"evidence.</p></div>\n";

/* Twombly without star pages. */
static const char twombly_txt[] =
	"Factual allegations must be enough to raise a right to relief above the\n"
	"speculative level. The complaint must state a claim to relief that is\n"
	"plausible on its face.\n";

static int group_setup(void **state)
{
	if (setup(state) != 0)
		return -1;
	struct sw_err err = { 0 };
	char *p = sw_xasprintf("%s/cases.csv", dir);
	char *texts = sw_xasprintf("%s/texts", dir);
	char *db = sw_xasprintf("%s/authorities.db", dir);
	int rc = sw_file_write_atomic(p, cases_csv, strlen(cases_csv), &err);
	char *mk = sw_xasprintf("mkdir -p '%s'", texts);
	rc = rc ? rc : system(mk);
	const char *names[] = { "477 U.S. 317.txt", "477 U.S. 242.txt", "550 U.S. 544.txt" };
	const char *bodies[] = { celotex_txt, anderson_txt, twombly_txt };
	for (size_t k = 0; k < 3 && rc == 0; k++) {
		char *f = sw_xasprintf("%s/%s", texts, names[k]);
		rc = sw_file_write_atomic(f, bodies[k], strlen(bodies[k]), &err);
		free(f);
	}
	struct sw_authority_import_summary s;
	rc = rc ? rc : sw_authority_open(&auth, db, true, &err);
	rc = rc ? rc : sw_authority_import(&s, auth, p, false, &err);
	rc = rc ? rc : sw_authority_import(&s, auth, texts, false, &err);
	if (rc == 0 && s.stored != 3)
		rc = -1;
	if (rc)
		print_error("setup: %s\n", err.msg);
	free(mk);
	free(p);
	free(texts);
	free(db);
	return rc ? -1 : 0;
}

static int group_teardown(void **state)
{
	sw_authority_close(auth);
	return teardown(state);
}

/* The first pass's case and code rules, then the quotations attributed to
 * cases: what sw_verify() does for these claims, without a matter. */
static void check(struct sw_verify_report *r, const char *draft)
{
	struct sw__verify_run u;
	struct sw_err err = { 0 };
	memset(r, 0, sizeof(*r));
	memset(&u, 0, sizeof(u));
	assert_int_equal(sw_claims_scan(&r->claims, draft, strlen(draft), &err), 0);
	r->text = sw_xstrdup(draft);
	r->len = strlen(draft);
	size_t n = r->claims.n;
	r->verdicts = sw_xcalloc(n ? n : 1, sizeof(*r->verdicts));
	u.r = r;
	u.auth = auth;
	u.res = sw_xcalloc(n ? n : 1, sizeof(*u.res));
	for (size_t i = 0; i < n; i++) {
		const struct sw_claim *c = &r->claims.v[i];
		if (c->kind == SW_CLAIM_CASE && c->form == SW_FORM_FULL)
			sw__verify_case_full(&u, i);
		else if (c->kind == SW_CLAIM_CASE)
			sw__verify_case_short(&u, i);
		else if (c->kind == SW_CLAIM_STATUTE || c->kind == SW_CLAIM_RULE)
			sw__verify_code(&u, i);
	}
	for (size_t i = 0; i < n; i++) {
		const struct sw_claim *c = &r->claims.v[i];
		if (c->kind == SW_CLAIM_QUOTE && c->attributed_to >= 0 &&
		    r->claims.v[c->attributed_to].kind == SW_CLAIM_CASE)
			sw__verify_quote_opinion(&u, i, (size_t)c->attributed_to);
	}
	for (size_t i = 0; i < n; i++) {
		sw_authority_lookup_release(&u.res[i].lookup);
		if (!r->verdicts[i].reason)
			r->verdicts[i].reason = sw_xstrdup("not checked");
	}
	free(u.res);
}

struct row {
	const char *draft;
	enum sw_claim_kind kind; /* the claim looked at: the n-th of this kind */
	int nth;
	enum sw_verdict verdict;
	const char *reason;      /* a substring of its reason */
};

#define SUP SW_VERDICT_SUPPORTED
#define UNS SW_VERDICT_UNSUPPORTED
#define CON SW_VERDICT_CONTRADICTED
#define UNV SW_VERDICT_UNVERIFIABLE
#define CASE SW_CLAIM_CASE
#define QUOTE SW_CLAIM_QUOTE

static const struct row rows[] = {
	/* Names as written, with what a sentence puts before them. */
	{ "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", CASE, 0, SUP,
	  "Celotex Corp. v. Catrett, 477 U.S. 317" },
	{ "In Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986), the Court held so.", CASE, 0,
	  SUP, "Celotex" },
	{ "See Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007).", CASE, 0, SUP, "Twombly" },
	{ "See also Anderson v. Liberty Lobby, Inc., 477 U.S. 242, 248 (1986).", CASE, 0, SUP,
	  "Anderson" },
	{ "As the Supreme Court held in Ashcroft v. Iqbal, 556 U.S. 662, 678 (2009), a claim "
	  "must be plausible.", CASE, 0, SUP, "Iqbal" },
	{ "Cf. Matsushita Elec. Indus. Co. v. Zenith Radio Corp., 475 U.S. 574, 586 (1986).",
	  CASE, 0, SUP, "Matsushita" },
	{ "But see Int'l Shoe Co. v. Washington, 326 U.S. 310, 316 (1945).", CASE, 0, SUP,
	  "International Shoe" },
	{ "See, e.g., Daubert v. Merrell Dow Pharms., Inc., 509 U.S. 579, 589 (1993).", CASE, 0,
	  SUP, "Daubert" },
	{ "U.S. v. Nixon, 418 U.S. 683, 700 (1974).", CASE, 0, SUP, "Nixon" },
	{ "N.Y. Times Co. v. Sullivan, 376 U.S. 254, 279-80 (1964).", CASE, 0, SUP, "Sullivan" },
	{ "In re Grand Jury Subpoena, 828 F.2d 1438, 1440 (9th Cir. 1987).", CASE, 0, SUP,
	  "Grand Jury" },
	{ "J.D. v. Azar, 925 F.3d 1291, 1300 (D.C. Cir. 2019).", CASE, 0, SUP, "J.D. v. Azar" },
	/* An invented name on a real page names both. */
	{ "Hollis v. Coastal Carriers, 550 U.S. 544, 560 (2007).", CASE, 0, CON,
	  "550 U.S. 544 is Bell Atlantic Corp. v. Twombly, not Hollis v. Coastal Carriers" },
	{ "See Hollis v. Coastal Carriers, Inc., 550 U.S. 544 (2007).", CASE, 0, CON,
	  "not Hollis v. Coastal Carriers, Inc." },
	{ "Catrett v. Celotex Corp., 477 U.S. 317 (1986).", CASE, 0, CON,
	  "477 U.S. 317 is Celotex Corp. v. Catrett, not Catrett v. Celotex Corp." },
	{ "Smith v. United States, 418 U.S. 683 (1974).", CASE, 0, CON,
	  "is United States v. Nixon, not Smith v. United States" },
	/* A name that could not be read is never supported on volume and page. */
	{ "*Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986).", CASE, 0, UNV,
	  "the case name before 477 U.S. 317 could not be read (\"Corp. v. Catrett*\"); the "
	  "table has Celotex Corp. v. Catrett there" },
	{ "_Bell Atlantic Corp. v. Twombly_, 550 U.S. 544 (2007).", CASE, 0, UNV,
	  "the case name before 550 U.S. 544 could not be read" },
	{ "Plaintiffs rely on 477 U.S. 317 (1986).", CASE, 0, UNV,
	  "no case name was found before 477 U.S. 317; the table has Celotex Corp. v. Catrett" },
	{ "v., 477 U.S. 317 (1986).", CASE, 0, UNV, "no case name was found before 477 U.S. 317" },
	/* ... but what the page does contradict still counts. */
	{ "*Celotex Corp. v. Catrett*, 477 U.S. 317, 999 (1986).", CASE, 0, CON,
	  "pin 999 is past the last page (338)" },
	{ "*Celotex Corp. v. Catrett*, 477 U.S. 317 (1990).", CASE, 0, CON,
	  "was decided in 1986, not 1990" },
	/* Courts, years, pins. */
	{ "Celotex Corp. v. Catrett, 477 U.S. 317 (2d Cir. 1986).", CASE, 0, CON,
	  "was decided by U.S., not 2d Cir." },
	{ "Celotex Corp. v. Catrett, 477 U.S. 317 (1987).", CASE, 0, CON,
	  "was decided in 1986, not 1987" },
	{ "Celotex Corp. v. Catrett, 477 U.S. 317, 300 (1986).", CASE, 0, CON,
	  "pin 300 comes before" },
	/* Pages that are not where a case starts. */
	{ "Celotex Corp. v. Catrett, 477 U.S. 322 (1986).", CASE, 0, CON,
	  "477 U.S. 322 falls inside Celotex Corp. v. Catrett, 477 U.S. 317 (U.S. 1986): the "
	  "citation gives a page of it as the page where it starts" },
	{ "Varghese v. China S. Airlines Co., 925 F.3d 1339 (11th Cir. 2019).", CASE, 0, CON,
	  "925 F.3d 1339 falls inside J.D. v. Azar, 925 F.3d 1291 (D.C. Cir. 2019); no case "
	  "named Varghese v. China S. Airlines Co. starts there" },
	{ "Pennoyer v. Neff, 95 U.S. 720 (1878).", CASE, 0, CON,
	  "starts at page 714, not at 95 U.S. 720" },
	{ "Foo v. Bar, 477 U.S. 400 (1986).", CASE, 0, UNS,
	  "no case at 477 U.S. 400 in the authority table (the nearest before it starts at page "
	  "317)" },
	{ "Martinez v. Delta Freight Sys., Inc., 812 F.3d 455 (7th Cir. 2016).", CASE, 0, UNS,
	  "no case at 812 F.3d 455 in the authority table, which has no case in volume 812 of "
	  "F.3d" },
	/* Short forms. */
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Twombly, 550 U.S. at 556.", CASE, 1,
	  SUP, "refers to Bell Atlantic Corp. v. Twombly" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Hollis, 550 U.S. at 560.", CASE, 1,
	  CON, "names Hollis, but the citation it shortens (claim 1) is Bell Atlantic Corp. v. "
	       "Twombly" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Twombly, 550 U.S. at 600.", CASE, 1,
	  CON, "pin 600 is past the last page (597)" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Id. at 556.", CASE, 1, SUP,
	  "refers to Bell Atlantic" },
	{ "Twombly, 550 U.S. at 556.", CASE, 0, UNS,
	  "no full citation of a case in 550 U.S. comes before this short form" },
	{ "Id. at 5.", CASE, 0, UNS, "id. has no citation before it to refer to" },
	{ "Hollis v. Coastal Carriers, 550 U.S. 544 (2007). Id. at 556.", CASE, 1, CON,
	  "which is contradicted: 550 U.S. 544 is Bell Atlantic" },
	{ "*Celotex Corp. v. Catrett*, 477 U.S. 317 (1986). Id. at 322.", CASE, 1, UNV,
	  "which is unverifiable: the case name before" },
	{ "*Celotex Corp. v. Catrett*, 477 U.S. 317 (1986). Id. at 999.", CASE, 1, CON,
	  "pin 999 is past the last page (338) of Celotex Corp. v. Catrett" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Id. at 999.", CASE, 1, CON,
	  "pin 999 is past the last page (597)" },
	/* Pins of a case whose last page the table does not know. */
	{ "Hadley v. Baxendale, 9 Ex. 341, 9999 (Ex. Ch. 1854).", CASE, 0, CON,
	  "pin 9999 is past Hadley v. Baxendale, 9 Ex. 341 (Ex. Ch. 1854), which ends before the "
	  "next case in the volume, Doe v. Roe, 9 Ex. 355 (Ex. 1854)" },
	{ "Hadley v. Baxendale, 9 Ex. 341, 356 (Ex. Ch. 1854).", CASE, 0, CON,
	  "pin 356 is past Hadley v. Baxendale" },
	{ "Hadley v. Baxendale, 9 Ex. 341, 354 (Ex. Ch. 1854).", CASE, 0, SUP,
	  "Hadley v. Baxendale, 9 Ex. 341 (Ex. Ch. 1854); the table has no last page, so the pin "
	  "is checked only against the next case in the volume (page 355)" },
	/* A case may end on the page where the next one starts. */
	{ "Hadley v. Baxendale, 9 Ex. 341, 355 (Ex. Ch. 1854).", CASE, 0, SUP,
	  "checked only against the next case in the volume (page 355)" },
	{ "Hadley v. Baxendale, 9 Ex. 341 (Ex. Ch. 1854).", CASE, 0, SUP,
	  "Hadley v. Baxendale, 9 Ex. 341 (Ex. Ch. 1854)" },
	{ "Hadley v. Baxendale, 9 Ex. 341, 341 (Ex. Ch. 1854).", CASE, 0, SUP,
	  "Hadley v. Baxendale, 9 Ex. 341 (Ex. Ch. 1854)" },
	{ "Hadley v. Baxendale, 9 Ex. 341 (1854). Hadley, supra, at 9999.", CASE, 1, CON,
	  "pin 9999 is past Hadley v. Baxendale, 9 Ex. 341 (Ex. Ch. 1854), which ends before" },
	{ "Hadley v. Baxendale, 9 Ex. 341 (1854). Id. at 9999.", CASE, 1, CON,
	  "pin 9999 is past Hadley v. Baxendale" },
	{ "v., 9 Ex. 341, 9999 (1854).", CASE, 0, CON, "pin 9999 is past Hadley v. Baxendale" },
	{ "Celotex Corp. v. Catrett, 106 S. Ct. 2548, 9999 (1986).", CASE, 0, CON,
	  "pin 9999 is 7451 pages past the start of Celotex Corp. v. Catrett, 106 S. Ct. 2548 "
	  "(U.S. 1986), and no reported opinion runs 7452 pages" },
	{ "Celotex Corp. v. Catrett, 106 S. Ct. 2548, 3549 (1986).", CASE, 0, CON,
	  "pin 3549 is 1001 pages past the start" },
	{ "Celotex Corp. v. Catrett, 106 S. Ct. 2548, 3548 (1986).", CASE, 0, SUP,
	  "the table has no last page, so the pin is not checked" },
	{ "Celotex Corp. v. Catrett, 106 S. Ct. 2548, 2553 (1986).", CASE, 0, SUP,
	  "Celotex Corp. v. Catrett, 106 S. Ct. 2548 (U.S. 1986); the table has no last page, so "
	  "the pin is not checked" },
	{ "Celotex Corp. v. Catrett, 106 S. Ct. 2548 (1986). Id. at 2553.", CASE, 1, SUP,
	  "refers to Celotex Corp. v. Catrett, 106 S. Ct. 2548 (U.S. 1986); the table has no last "
	  "page, so the pin is not checked" },
	{ "Nemec v. Shrader, 991 A.2d 1120 (Del. 2010). Nemec, 991 A.2d at 1500.", CASE, 1, CON,
	  "pin 1500 is past Nemec v. Shrader, 991 A.2d 1120 (Del. 2010), which ends before the "
	  "next case in the volume, Roe v. Doe, 991 A.2d 1142 (Del. 2010)" },
	{ "Nemec v. Shrader, 991 A.2d 1120 (Del. 2010). Nemec, 991 A.2d at 1128.", CASE, 1, SUP,
	  "refers to Nemec v. Shrader, 991 A.2d 1120 (Del. 2010); the table has no last page, so "
	  "the pin is checked only against the next case in the volume (page 1142)" },
	{ "Nemec v. Shrader, 991 A.2d 1120 (Del. 2010). Id. at 1500.", CASE, 1, CON,
	  "pin 1500 is past Nemec v. Shrader" },
	/* A known last page still decides alone. */
	{ "Roe v. Doe, 991 A.2d 1142, 1151 (Del. 2010).", CASE, 0, CON,
	  "pin 1151 is past the last page (1150)" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Twombly, supra, at 556.", CASE, 1,
	  SUP, "refers to Bell Atlantic" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (2007). Hollis, supra, at 556.", CASE, 1,
	  UNS, "no full citation of a case named Hollis comes before this supra" },
	{ "Bell Atlantic Corp. v. Twombly, 550 U.S. ___ (2007).", CASE, 0, UNV,
	  "the citation gives no page of 550 U.S., so the table cannot be searched for it" },

	/* Quotations on the pinned page of an opinion with star pages. */
	{ "The Court held that \"the plain language of Rule 56(c) mandates the entry of summary "
	  "judgment.\" Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", QUOTE, 0, SUP,
	  "on page 322 of the opinion in Celotex Corp. v. Catrett, 477 U.S. 317" },
	{ "The Court held that \"the plain language of Rule 56(c) mandates the entry of summary "
	  "judgment.\" Celotex Corp. v. Catrett, 477 U.S. 317, 324 (1986).", QUOTE, 0, CON,
	  "in the opinion in Celotex Corp. v. Catrett, 477 U.S. 317, but on page 322, not at the pin 324" },
	{ "There \"can be 'no genuine issue as to any material fact.'\" Celotex Corp. v. Catrett, "
	  "477 U.S. 317, 322 (1986).", QUOTE, 0, SUP, "on page 322" },
	{ "There \"can be 'no genuine issue as to any material fact.'\" Celotex Corp. v. Catrett, "
	  "477 U.S. 317, 323 (1986).", QUOTE, 0, SUP, "on pages 322-323" },
	{ "There \"can be 'no genuine issue as to any material fact.'\" Celotex Corp. v. Catrett, "
	  "477 U.S. 317, 322-23 (1986).", QUOTE, 0, SUP, "on page 322" },
	{ "The movant is \"entitled to a judgment as a matter of law.\" Celotex Corp. v. Catrett, "
	  "477 U.S. 317, 323 (1986).", QUOTE, 0, SUP, "on page 323" },
	{ "Celotex Corp. v. Catrett, 477 U.S. 317 (1986). The nonmovant must \"go beyond the "
	  "pleadings.\" Id. at 324.", QUOTE, 0, SUP, "on page 324 of the opinion in Celotex Corp. v. Catrett, 477 U.S. 317" },
	{ "Celotex Corp. v. Catrett, 477 U.S. 317 (1986). The nonmovant must \"go beyond the "
	  "pleadings.\" Id. at 318.", QUOTE, 0, CON, "but on page 324, not at the pin 318" },
	{ "Celotex Corp. v. Catrett, 477 U.S. 317, 324 (1986). The nonmovant must \"go beyond the "
	  "pleadings.\" Id.", QUOTE, 0, SUP, "on page 324 of the opinion in Celotex" },
	{ "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986). The nonmovant must \"go beyond the "
	  "pleadings.\" Id.", QUOTE, 0, CON, "but on page 324, not at the pin 322" },
	{ "\"We do not mean that the nonmoving party must produce evidence in a form that would "
	  "be admissible at trial.\" Celotex Corp. v. Catrett, 477 U.S. 317, 324 (1986).", QUOTE,
	  0, SUP, "on page 324" },
	{ "The Court said \"the plain language of Rule 56(c) permits the entry of summary "
	  "judgment.\" Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", QUOTE, 0, UNS,
	  "not found in the opinion in Celotex Corp. v. Catrett, 477 U.S. 317; closest on page 322: \"" },
	{ "The Court said \"the plain language of Rule 56(c) permits the entry of summary "
	  "judgment.\" Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", QUOTE, 0, UNS,
	  "\"permits\" in the draft, \"mandates\" on the page" },
	{ "The Court said \"summary judgment is disfavored in every antitrust case.\" Celotex "
	  "Corp. v. Catrett, 477 U.S. 317, 322 (1986).", QUOTE, 0, UNS,
	  "not found in the opinion in Celotex Corp. v. Catrett, 477 U.S. 317, nor anything close to it" },
	/* Alterations: an ellipsis or a bracket that drops a negation
	 * contradicts; a bracket stands only for words it may stand for,
	 * and the reason names what it stands for. */
	{ "\"We do . . . mean that the nonmoving party must produce evidence in a form that would "
	  "be admissible at trial.\" Celotex Corp. v. Catrett, 477 U.S. 317, 324 (1986).", QUOTE,
	  0, CON, "only as altered: the ellipsis omits \"not\" \xe2\x80\x94 the omission reverses" },
	{ "\"We do [] mean that the nonmoving party [need] produce evidence\" Celotex Corp. v. "
	  "Catrett, 477 U.S. 317, 324 (1986).", QUOTE, 0, UNS, "not found in the opinion" },
	{ "\"We [must] mean that the nonmoving party must produce evidence\" Celotex Corp. v. "
	  "Catrett, 477 U.S. 317, 324 (1986).", QUOTE, 0, CON,
	  "[must] stands for \"do not\" \xe2\x80\x94 the bracket drops a negation" },
	{ "The Court said \"the plain language of Rule 56(c) [requires] the entry of summary "
	  "judgment.\" Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", QUOTE, 0, UNS,
	  "\"[requires]\" in the draft, \"mandates\" on the page" },
	{ "The Court said \"the plain language of [the Rule] mandate[s] the entry of summary "
	  "judgment.\" Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).", QUOTE, 0, SUP,
	  "on page 322 of the opinion in Celotex Corp. v. Catrett, 477 U.S. 317; [the Rule] stands "
	  "for \"Rule 56(c)\"" },
	/* HTML opinion text: tags, the star-pagination span and entities. */
	{ "Only \"disputes over facts that might affect the outcome of the suit under the "
	  "governing law will properly preclude the entry of summary judgment.\" Anderson v. "
	  "Liberty Lobby, Inc., 477 U.S. 242, 248 (1986).", QUOTE, 0, SUP, "on page 248" },
	{ "\"The court's function is not to weigh the evidence.\" Anderson v. Liberty Lobby, "
	  "Inc., 477 U.S. 242, 248 (1986).", QUOTE, 0, SUP, "on page 248" },
	{ "\"The inquiry is whether the evidence presents a sufficient disagreement.\" Anderson v. "
	  "Liberty Lobby, Inc., 477 U.S. 242, 248 (1986).", QUOTE, 0, CON,
	  "but on page 242, not at the pin 248" },
	/* Texts without star pages, cases without texts, cites that failed. */
	{ "A claim must be \"plausible on its face.\" Bell Atlantic Corp. v. Twombly, 550 U.S. 544, "
	  "570 (2007).", QUOTE, 0, SUP,
	  "in the opinion in Bell Atlantic Corp. v. Twombly, 550 U.S. 544 (its text has no star pages, so the pin is not checked)" },
	{ "A claim must be \"plausible on its face.\" Bell Atlantic Corp. v. Twombly, 550 U.S. 544 "
	  "(2007).", QUOTE, 0, SUP, "in the opinion in Bell Atlantic Corp. v. Twombly, 550 U.S. 544" },
	{ "A claim must be \"plausible on its face.\" Ashcroft v. Iqbal, 556 U.S. 662, 678 (2009).",
	  QUOTE, 0, UNV, "no opinion text of 556 U.S. 662 is stored" },
	{ "A claim must be \"plausible on its face.\" Hollis v. Coastal Carriers, 550 U.S. 544, "
	  "570 (2007).", QUOTE, 0, UNS, "attributed to 550 U.S. 544, which is contradicted" },
	{ "The Court held that \"the plain language of Rule 56(c) mandates the entry of summary "
	  "judgment.\" *Celotex Corp. v. Catrett*, 477 U.S. 317, 322 (1986).", QUOTE, 0, SUP,
	  "on page 322" },
};

static const struct sw_claim *nth(const struct sw_verify_report *r, enum sw_claim_kind kind,
				  int n, size_t *index)
{
	for (size_t i = 0; i < r->claims.n; i++)
		if (r->claims.v[i].kind == kind && n-- == 0) {
			*index = i;
			return &r->claims.v[i];
		}
	return NULL;
}

static void test_rows(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		const struct row *w = &rows[k];
		struct sw_verify_report r;
		check(&r, w->draft);
		size_t i = 0;
		if (!nth(&r, w->kind, w->nth, &i)) {
			print_error("row %zu: no such claim in \"%s\"\n", k, w->draft);
			bad++;
		} else if (r.verdicts[i].verdict != w->verdict || !strstr(r.verdicts[i].reason, w->reason)) {
			print_error("row %zu: \"%s\"\n  got %s: %s\n  want %s: ...%s...\n", k, w->draft,
				    sw_verdict_name(r.verdicts[i].verdict), r.verdicts[i].reason,
				    sw_verdict_name(w->verdict), w->reason);
			bad++;
		}
		sw_verify_release(&r);
	}
	assert_int_equal(bad, 0);
}

/* A true fabrication and a parsing failure never share a reason: every
 * row's reason text, with its claim's own words taken out, is told apart
 * by verdict. */
static void test_reasons_distinct(void **state)
{
	(void)state;
	const char *drafts[] = {
		"Hollis v. Coastal Carriers, 550 U.S. 544 (2007).",
		"*Celotex Corp. v. Catrett*, 477 U.S. 317 (1986).",
		"Plaintiffs rely on 477 U.S. 317 (1986).",
		"Foo v. Bar, 477 U.S. 400 (1986).",
		"Martinez v. Delta Freight Sys., Inc., 812 F.3d 455 (7th Cir. 2016).",
	};
	char *reasons[5];
	for (size_t k = 0; k < 5; k++) {
		struct sw_verify_report r;
		check(&r, drafts[k]);
		reasons[k] = sw_xstrdup(r.verdicts[0].reason);
		sw_verify_release(&r);
	}
	for (size_t a = 0; a < 5; a++)
		for (size_t b = a + 1; b < 5; b++)
			assert_string_not_equal(reasons[a], reasons[b]);
	/* The unreadable name and the missing one say so, and neither
	 * claims the case is invented. */
	assert_null(strstr(reasons[1], "not Hollis"));
	assert_null(strstr(reasons[1], "no case at"));
	assert_null(strstr(reasons[2], "no case at"));
	for (size_t k = 0; k < 5; k++)
		free(reasons[k]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_reasons_distinct),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
