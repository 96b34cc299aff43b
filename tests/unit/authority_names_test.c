/*
 * authority_names_test.c - case names as lawyers and models write them
 * (Bluebook T6 abbreviations, corporate suffixes, "&", "U.S.", "In re",
 * "ex rel.", "et al.", case and diacritics, one party of a short form)
 * against the names CourtListener stores; invented and garbled names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "authority/authority.h"

struct pair {
	const char *cited;
	const char *stored;
	bool match;
};

static const struct pair pairs[] = {
	/* True names as written. */
	{ "Bell Atl. Corp. v. Twombly", "Bell Atlantic Corp. v. Twombly", true },
	{ "Bell Atlantic Corporation v. Twombly", "Bell Atlantic Corp. v. Twombly", true },
	{ "Celotex Corp. v. Catrett", "Celotex Corp. v. Catrett", true },
	{ "CELOTEX CORP. V. CATRETT", "Celotex Corp. v. Catrett", true },
	{ "Anderson v. Liberty Lobby, Inc.", "Anderson v. Liberty Lobby, Inc.", true },
	{ "Anderson v. Liberty Lobby", "Anderson v. Liberty Lobby, Inc.", true },
	{ "Matsushita Elec. Indus. Co. v. Zenith Radio Corp.",
	  "Matsushita Electric Industrial Co. v. Zenith Radio Corp.", true },
	{ "Matsushita Electric Industrial Co., Ltd. v. Zenith Radio Corporation",
	  "Matsushita Elec. Indus. Co. v. Zenith Radio Corp.", true },
	{ "Int'l Shoe Co. v. Washington", "International Shoe Co. v. Washington", true },
	{ "International Shoe Co. v. State of Washington", "International Shoe Co. v. Washington",
	  true },
	{ "Brown v. Bd. of Educ.", "Brown v. Board of Education of Topeka", true },
	{ "N.Y. Times Co. v. Sullivan", "New York Times Co. v. Sullivan", true },
	{ "Chevron U.S.A. Inc. v. Nat. Res. Def. Council, Inc.",
	  "Chevron, U.S.A., Inc. v. Natural Resources Defense Council, Inc.", true },
	{ "Daubert v. Merrell Dow Pharms., Inc.", "Daubert v. Merrell Dow Pharmaceuticals, Inc.",
	  true },
	{ "Erie R.R. Co. v. Tompkins", "Erie Railroad Co. v. Tompkins", true },
	{ "Lujan v. Defs. of Wildlife", "Lujan v. Defenders of Wildlife", true },
	{ "Ass'n for Molecular Pathology v. Myriad Genetics, Inc.",
	  "Association for Molecular Pathology v. Myriad Genetics, Inc.", true },
	{ "Planned Parenthood of Se. Pa. v. Casey",
	  "Planned Parenthood of Southeastern Pennsylvania v. Casey", true },
	{ "Societe Nationale Industrielle Aerospatiale v. U.S. Dist. Ct.",
	  "Soci\xc3\xa9t\xc3\xa9 Nationale Industrielle A\xc3\xa9rospatiale v. United States District Court",
	  true },
	{ "Morrison v. Nat'l Austl. Bank Ltd.", "Morrison v. National Australia Bank Ltd.", true },
	{ "Goodyear Dunlop Tires Operations, S.A. v. Brown",
	  "Goodyear Dunlop Tires Operations, S. A. v. Brown", true },
	{ "J. McIntyre Mach., Ltd. v. Nicastro", "J. McIntyre Machinery, Ltd. v. Nicastro", true },
	{ "World-Wide Volkswagen Corp. v. Woodson", "World-Wide Volkswagen Corp. v. Woodson", true },
	{ "Shady Grove Orthopedic Assocs., P.A. v. Allstate Ins. Co.",
	  "Shady Grove Orthopedic Associates, P. A. v. Allstate Insurance Co.", true },
	{ "AT&T Mobility LLC v. Concepcion", "AT&T Mobility LLC v. Concepcion", true },
	{ "AT & T Mobility v. Concepcion", "AT&T Mobility LLC v. Concepcion", true },
	{ "eBay Inc. v. MercExchange, L.L.C.", "eBay Inc. v. MercExchange, L. L. C.", true },
	{ "KSR Int'l Co. v. Teleflex Inc.", "KSR International Co. v. Teleflex Inc.", true },
	{ "Alice Corp. v. CLS Bank Int'l", "Alice Corp. Pty. Ltd. v. CLS Bank International", true },
	{ "Mayo Collaborative Servs. v. Prometheus Lab'ys, Inc.",
	  "Mayo Collaborative Services v. Prometheus Laboratories, Inc.", true },
	{ "Mayo Collaborative Servs. v. Prometheus Labs., Inc.",
	  "Mayo Collaborative Services v. Prometheus Laboratories, Inc.", true },
	{ "United States v. Nixon", "United States v. Nixon", true },
	{ "U.S. v. Nixon", "United States v. Nixon", true },
	{ "United States ex rel. Jones v. Smith", "United States ex rel. Jones v. Smith", true },
	{ "U.S. ex rel. Jones v. Smith", "United States ex rel. Jones v. Smith", true },
	{ "In re Marriage of Smith", "In re Marriage of Smith", true },
	{ "In re Grand Jury Subpoena", "In re Grand Jury Subpoena Duces Tecum", true },
	{ "Hertz Corp. v. Friend", "The Hertz Corporation v. Friend", true },
	{ "Smith et al. v. Jones", "Smith v. Jones", true },
	{ "Ashcroft v. Iqbal", "Ashcroft v. Iqbal", true },
	{ "J.D. v. Azar", "J.D. v. Azar", true },
	{ "Hadley v. Baxendale", "Hadley v. Baxendale", true },
	{ "Sosa v. Alvarez-Machain", "Sosa v. Alvarez-Machain", true },
	{ "Kiobel v. Royal Dutch Petrol. Co.", "Kiobel v. Royal Dutch Petroleum Co.", true },
	{ "Burger King Corp. v. Rudzewicz", "Burger King Corporation v. Rudzewicz", true },
	{ "Twombly", "Bell Atlantic Corp. v. Twombly", true },
	{ "Bell Atlantic", "Bell Atlantic Corp. v. Twombly", true },
	{ "Iqbal", "Ashcroft v. Iqbal", true },
	{ "Ass\xe2\x80\x99n for Molecular Pathology v. Myriad Genetics, Inc.",
	  "Association for Molecular Pathology v. Myriad Genetics, Inc.", true },
	{ "Ex parte Young", "Ex parte Young", true },
	{ "Young", "Ex parte Young", true },
	{ "Planned Parenthood v. Casey", "Planned Parenthood of Southeastern Pennsylvania v. Casey",
	  true },
	{ "Se. Pa. v. Casey", "Planned Parenthood of Southeastern Pennsylvania v. Casey", true },
	{ "Brown v. Board of Education", "Oliver Brown v. Board of Education of Topeka", true },
	{ "NAACP v. Alabama ex rel. Patterson",
	  "National Association for the Advancement of Colored People v. Alabama ex rel. Patterson",
	  true },
	{ "Chevron U.S.A. Inc. v. NRDC", "Chevron, U.S.A., Inc. v. Natural Resources Defense "
	  "Council, Inc.", true },
	{ "NRDC", "Chevron, U.S.A., Inc. v. Natural Resources Defense Council, Inc.", true },
	{ "NAACP v. Button", "National Association for the Advancement of Colored People v. "
	  "Alabama ex rel. Patterson", false },
	{ "NBA v. Alabama", "National Association for the Advancement of Colored People v. "
	  "Alabama", false },
	/* The example matter's table (examples/authorities/cases.csv). */
	{ "Adickes v. S.H. Kress & Co.", "Adickes v. S. H. Kress & Co.", true },
	{ "Adickes v. S. H. Kress and Company", "Adickes v. S. H. Kress & Co.", true },
	{ "Lorillard Tobacco Co. v. Am. Legacy Found.",
	  "Lorillard Tobacco Co. v. American Legacy Found.", true },
	{ "Lorillard Tobacco Co. v. American Legacy Foundation",
	  "Lorillard Tobacco Co. v. American Legacy Found.", true },
	{ "Nemec v. Shrader", "Nemec v. Shrader", true },
	{ "Scott v. Harris", "Scott v. Harris", true },
	{ "Tolan v. Cotton", "Tolan v. Cotton", true },
	{ "Matsushita Electric Industrial Co. v. Zenith Radio Corp.",
	  "Matsushita Elec. Indus. Co. v. Zenith Radio Corp.", true },
	{ "Bell Atl. Corp. v. Twombly", "Bell Atlantic Corp. v. Twombly", true },
	{ "Scott v. Harrison", "Scott v. Harris", false },
	{ "Tolan v. Cotton Club", "Tolan v. Cotton", true },
	{ "Nemec v. Shrader Corp.", "Nemec v. Shrader", true },
	{ "Martinez v. Delta Freight Sys., Inc.", "Bell Atlantic Corp. v. Twombly", false },
	/* A model's italics, a signal or an opening sentence around a true name. */
	{ "See Celotex Corp. v. Catrett", "Celotex Corp. v. Catrett", true },
	{ "see also Anderson v. Liberty Lobby, Inc.", "Anderson v. Liberty Lobby, Inc.", true },
	{ "Cf. Ashcroft v. Iqbal", "Ashcroft v. Iqbal", true },
	{ "But see Ashcroft v. Iqbal", "Ashcroft v. Iqbal", true },
	{ "See, e.g., Ashcroft v. Iqbal", "Ashcroft v. Iqbal", true },
	{ "In Celotex Corp. v. Catrett", "Celotex Corp. v. Catrett", true },
	{ "As the Supreme Court held in Ashcroft v. Iqbal", "Ashcroft v. Iqbal", true },
	{ "the Court in Bell Atlantic Corp. v. Twombly", "Bell Atlantic Corp. v. Twombly", true },
	/* Invented, swapped or different cases. */
	{ "Hollis v. Coastal Carriers", "Bell Atlantic Corp. v. Twombly", false },
	{ "Varghese v. China S. Airlines Co.", "J.D. v. Azar", false },
	{ "Smith v. Jones", "Smith v. Brown", false },
	{ "Brown v. Mississippi", "Brown v. Board of Education of Topeka", false },
	{ "United States v. Smith", "United States v. Nixon", false },
	{ "State v. Johnson", "State v. Jackson", false },
	{ "People v. Smith", "State v. Smith", false },
	{ "In re Grand Jury Subpoena", "In re Marriage of Smith", false },
	{ "Celotex Corp. v. Johnson", "Celotex Corp. v. Catrett", false },
	{ "Catrett v. Celotex Corp.", "Celotex Corp. v. Catrett", false },
	{ "Twombly v. Bell Atlantic", "Bell Atlantic Corp. v. Twombly", false },
	{ "Atlantic Corp. v. Twombly", "Bell Atlantic Corp. v. Twombly", true },
	{ "Coastal Carriers", "Bell Atlantic Corp. v. Twombly", false },
	{ "Bell Atlantic Corp. v. Twombley", "Bell Atlantic Corp. v. Twombly", false },
	{ "Ashcroft v. Iqbal", "Ashcroft v. al-Kidd", false },
	{ "United States v. Nixon", "Nixon v. United States", false },
	{ "Corp. v. Catrett", "Celotex Corp. v. Catrett", false },
	{ "v.", "Celotex Corp. v. Catrett", false },
	{ "See", "Celotex Corp. v. Catrett", false },
	{ "", "Celotex Corp. v. Catrett", false },
};

static void test_pairs(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		const struct pair *p = &pairs[k];
		bool got = sw_authority_names_match(p->cited, p->stored);
		if (got != p->match) {
			char *a = sw_authority_name_key(p->cited), *b = sw_authority_name_key(p->stored);
			print_error("pair %zu: \"%s\" / \"%s\": got %d, want %d (keys \"%s\" / \"%s\")\n",
				    k, p->cited, p->stored, got, p->match, a, b);
			free(a);
			free(b);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

struct readable {
	const char *name;
	bool ok;
};

static const struct readable readables[] = {
	{ "Celotex Corp. v. Catrett", true },
	{ "In re Marriage of Smith", true },
	{ "Twombly", true },
	{ "Corp. v. Catrett*", false },
	{ "Corp. v. Catrett", false },
	{ "*Celotex Corp. v. Catrett", false },
	{ "_Celotex Corp._ v. Catrett", false },
	{ "v.", false },
	{ "See", false },
	{ "See also", false },
	{ "e.g.,", false },
	{ "Inc. v. Smith", false },
	{ "the Court in", false },
	{ "", false },
	{ "Smith v.", false },
	{ "See Celotex Corp. v. Catrett", true },
	{ "As the Supreme Court held in Ashcroft v. Iqbal", true },
};

static void test_readable(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(readables) / sizeof(readables[0]); k++) {
		const struct readable *r = &readables[k];
		if (sw_authority_name_readable(r->name) != r->ok)
			fail_msg("\"%s\": readable should be %d", r->name, r->ok);
	}
	char *c = sw_authority_name_clean("See, e.g., In Celotex Corp. v. Catrett");
	assert_string_equal(c, "Celotex Corp. v. Catrett");
	free(c);
	c = sw_authority_name_clean("As the Supreme Court held in Ashcroft v. Iqbal");
	assert_string_equal(c, "Ashcroft v. Iqbal");
	free(c);
	c = sw_authority_name_clean("In re Marriage of Smith");
	assert_string_equal(c, "In re Marriage of Smith");
	free(c);
	c = sw_authority_name_clean("Board of Education v. Brown");
	assert_string_equal(c, "Board of Education v. Brown");
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_readable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
