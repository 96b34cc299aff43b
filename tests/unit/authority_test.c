/*
 * authority_test.c - authority/: name matching with reporters-db's
 * abbreviations, courts, the simple CSV, CourtListener's three files (plain
 * and bz2, in either order, with quoted commas, newlines and backslash
 * escapes), lookups inside a page range, re-import and hostile rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "authority/authority.h"

static void test_names(void **state)
{
	(void)state;
	struct { const char *a, *b; bool match; } rows[] = {
		{ "Bell Atl. Corp. v. Twombly", "Bell Atlantic Corp. v. Twombly", true },
		{ "Bell Atlantic Corporation v. Twombly", "Bell Atl. Corp. v. Twombly", true },
		{ "Anderson v. Liberty Lobby, Inc.", "Anderson v. Liberty Lobby", true },
		{ "Celotex Corp. v. Catrett", "Celotex Corporation v. Catrett, Administratrix", true },
		{ "Nat'l Ass'n of Mfrs. v. Dep't of Def.", "National Association of Manufacturers v. Department of Defense", true },
		{ "Ashcroft vs. Iqbal", "Ashcroft v. Iqbal", true },
		{ "Twombly", "Bell Atlantic Corp. v. Twombly", true },
		{ "Varghese v. China Southern Airlines Co.", "J.D. v. Azar", false },
		{ "Hollis v. Coastal Carriers, Inc.", "Bell Atlantic Corp. v. Twombly", false },
		{ "Smith v. Jones", "Smith v. Brown", false },
		{ "United States v. Smith", "United States v. Jones", false },
		{ "United States v. Smith", "United States v. Smith", true },
		{ "In re Grand Jury Subpoena", "In re Grand Jury Subpoena", true },
		{ "", "Ashcroft v. Iqbal", false },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool got = sw_authority_names_match(rows[i].a, rows[i].b);
		if (got != rows[i].match)
			fail_msg("'%s' vs '%s': got %d", rows[i].a, rows[i].b, got);
	}
	char *k = sw_authority_name_key("Bell Atl. Corp. v. Twombly");
	assert_string_equal(k, "bell atl | twombly");
	free(k);
}

static void test_courts(void **state)
{
	(void)state;
	assert_true(sw_authority_courts_match("11th Cir.", "ca11"));
	assert_true(sw_authority_courts_match("D.C. Cir.", "cadc"));
	assert_true(sw_authority_courts_match("scotus", "U.S."));
	assert_false(sw_authority_courts_match("11th Cir.", "D.C. Cir."));
	assert_false(sw_authority_courts_match("2d Cir.", "scotus"));
	assert_true(sw_authority_courts_match("S.D.N.Y.", "nysd")); /* cannot tell */
	assert_true(sw_authority_courts_match(NULL, "ca1"));
}

static char dir[64];

static char *path_in(const char *name)
{
	return sw_xasprintf("%s/%s", dir, name);
}

static void write_file(const char *name, const char *text)
{
	char *p = path_in(name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static struct sw_authority *open_fresh(void)
{
	snprintf(dir, sizeof(dir), "/tmp/sw-auth-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char *p = path_in("authorities.db");
	struct sw_authority *a = NULL;
	struct sw_err err = { 0 };
	assert_int_equal(sw_authority_open(&a, p, true, &err), 0);
	free(p);
	return a;
}

static void cleanup(struct sw_authority *a)
{
	sw_authority_close(a);
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void import_ok(struct sw_authority *a, const char *name, uint64_t stored,
		      uint64_t skipped)
{
	struct sw_authority_import_summary s;
	struct sw_err err = { 0 };
	char *p = path_in(name);
	int rc = sw_authority_import(&s, a, p, false, &err);
	if (rc)
		fail_msg("%s: %s", name, err.msg);
	assert_int_equal(s.stored, stored);
	assert_int_equal(s.skipped, skipped);
	free(p);
}

static void test_simple_and_lookup(void **state)
{
	(void)state;
	struct sw_authority *a = open_fresh();
	write_file("c.csv",
		   "name,volume,reporter,page,last_page,court,year\r\n"
		   "J.D. v. Azar,925,F.3d,1291,1344,D.C. Cir.,2019\r\n"
		   "\"Anderson v. Liberty Lobby, Inc.\",477,U.S.,242,,U.S.,1986\r\n"
		   "bad row,x\r\n"
		   "No Page,1,U.S.,,,U.S.,1900\r\n");
	import_ok(a, "c.csv", 2, 2);
	import_ok(a, "c.csv", 2, 2); /* updates, never duplicates */
	struct sw_authority_lookup l;
	struct sw_err err = { 0 };
	assert_int_equal(sw_authority_lookup_cite(&l, a, "925 F.3d 1339", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_INSIDE);
	assert_string_equal(l.cases[0].name, "J.D. v. Azar");
	sw_authority_lookup_release(&l);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "925 F. 3d 1291", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_STARTS);
	assert_int_equal(l.n, 1);
	sw_authority_lookup_release(&l);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "925 F.3d 1400", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_NONE);
	sw_authority_lookup_release(&l);
	/* A case whose last page is unknown contains nothing. */
	assert_int_equal(sw_authority_lookup_cite(&l, a, "477 U.S. 250", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_NONE);
	sw_authority_lookup_release(&l);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "nonsense", &err), SW_EUSAGE);
	write_file("x.csv", "what,is,this\n1,2,3\n");
	struct sw_authority_import_summary s;
	char *p = path_in("x.csv");
	assert_int_equal(sw_authority_import(&s, a, p, false, &err), SW_EINPUT);
	free(p);
	cleanup(a);
}

/* A test's reading of a cite: "TITLE CODE § SECTION" or "CODE SECTION"
 * (the CLI gives the claim scanner's). */
static bool parse_cite(void *ud, const char *cite, struct sw_authority_section *out)
{
	(void)ud;
	const char *sect = strstr(cite, "\xc2\xa7 ");
	if (sect) {
		int t = 0;
		if (sscanf(cite, "%63s %n", out->title, &t) != 1)
			return false;
		snprintf(out->code, sizeof(out->code), "%.*s", (int)(sect - cite - t - 1),
			 cite + t);
		snprintf(out->section, sizeof(out->section), "%s", sect + 3);
		return true;
	}
	const char *sp = strrchr(cite, ' ');
	if (!sp)
		return false;
	snprintf(out->code, sizeof(out->code), "%.*s", (int)(sp - cite), cite);
	snprintf(out->section, sizeof(out->section), "%s", sp + 1);
	return true;
}

/* Sections' texts, from a CSV and from JSON Lines: stored by code (as the
 * code table compares it), title and section, replaced by a later import,
 * the section joining the code table; rows that cannot be read skipped. */
static void test_code_texts(void **state)
{
	(void)state;
	struct sw_authority *a = open_fresh();
	struct sw_authority_import_summary s;
	struct sw_err err = { 0 };
	struct sw_buf text = SW_BUF_INIT;
	write_file("t.csv", "text,cite\r\n"
			    "\"(a) The district courts shall have\noriginal jurisdiction.\",28 "
			    "U.S.C. \xc2\xa7 1332\r\n"
			    "\"\",28 U.S.C. \xc2\xa7 1331\r\n"
			    "no cite here,nocite\r\n");
	char *p = path_in("t.csv");
	assert_int_equal(sw_authority_import_code_texts(&s, a, p, parse_cite, NULL, &err), 0);
	free(p);
	assert_int_equal(s.format, SW_AUTHORITY_CODE_TEXTS);
	assert_int_equal(s.rows, 3);
	assert_int_equal(s.stored, 1);
	assert_int_equal(s.skipped, 2);
	assert_int_equal(sw_authority_code_text(&text, a, "U. S. C.", "28", "1332", &err), 0);
	assert_string_equal(text.data,
			    "(a) The district courts shall have\noriginal jurisdiction.");
	assert_int_equal(sw_authority_code_exists(a, "U.S.C.", "28", "1332", &err), 1);
	assert_int_equal(sw_authority_code_text(&text, a, "U.S.C.", "28", "1331", &err),
			 SW_ENOTFOUND);
	write_file("t.jsonl",
		   "{\"cite\": \"Fed. R. Civ. P. 56\", \"text\": \"(a) No genuine dispute.\"}\n"
		   "\n{\"cite\": 56}\nnot json\n"
		   "{\"cite\": \"28 U.S.C. \xc2\xa7 1332\", \"text\": \"(a) Replaced.\"}");
	p = path_in("t.jsonl");
	assert_int_equal(sw_authority_import_code_texts(&s, a, p, parse_cite, NULL, &err), 0);
	free(p);
	assert_int_equal(s.rows, 4);
	assert_int_equal(s.stored, 2);
	assert_int_equal(sw_authority_code_text(&text, a, "Fed. R. Civ. P.", NULL, "56", &err), 0);
	assert_string_equal(text.data, "(a) No genuine dispute.");
	assert_int_equal(sw_authority_code_text(&text, a, "U.S.C.", "28", "1332", &err), 0);
	assert_string_equal(text.data, "(a) Replaced.");
	/* Neither a CSV with cite and text nor JSON Lines. */
	write_file("u.csv", "code,title,section,name\nU.S.C.,28,1332,x\n");
	p = path_in("u.csv");
	assert_int_equal(sw_authority_import_code_texts(&s, a, p, parse_cite, NULL, &err),
			 SW_EINPUT);
	free(p);
	sw_buf_release(&text);
	cleanup(a);
}

/* The case that bounds one without a last page: the first to start after
 * it in the same volume of the same reporter, however the reporter is
 * spaced, and none past the volume's last case. */
static void test_next_case(void **state)
{
	(void)state;
	struct sw_authority *a = open_fresh();
	write_file("n.csv",
		   "name,volume,reporter,page,last_page,court,year\r\n"
		   "Hadley v. Baxendale,9,Ex.,341,,Ex. Ch.,1854\r\n"
		   "Later Case v. Other,9,Ex.,400,,Ex.,1854\r\n"
		   "Doe v. Roe,9,Ex.,355,,Ex.,1854\r\n"
		   "Other Volume v. Case,10,Ex.,1,,Ex.,1854\r\n"
		   "Other Reporter v. Case,9,Ex. Ch.,342,,Ex. Ch.,1854\r\n");
	import_ok(a, "n.csv", 5, 0);
	struct sw_authority_lookup l, next;
	struct sw_err err = { 0 };
	assert_int_equal(sw_authority_lookup_cite(&l, a, "9 Ex. 341", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_STARTS);
	assert_int_equal(sw_authority_next_case(&next, a, &l.cases[0], &err), 0);
	assert_int_equal(next.n, 1);
	assert_int_equal(next.hit, SW_AUTHORITY_NONE);
	assert_string_equal(next.cases[0].name, "Doe v. Roe");
	assert_int_equal(next.cases[0].first_page, 355);
	sw_authority_lookup_release(&next);
	sw_authority_lookup_release(&l);
	/* Another reporter's cases under the same volume number do not bound it. */
	assert_int_equal(sw_authority_lookup_cite(&l, a, "9 Ex. Ch. 342", &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(sw_authority_next_case(&next, a, &l.cases[0], &err), 0);
	assert_int_equal(next.n, 0);
	sw_authority_lookup_release(&l);
	/* The last case of its volume has none. */
	assert_int_equal(sw_authority_lookup_cite(&l, a, "9 Ex. 400", &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(sw_authority_next_case(&next, a, &l.cases[0], &err), 0);
	assert_int_equal(next.n, 0);
	assert_null(next.cases);
	sw_authority_lookup_release(&l);
	cleanup(a);
}

/* The lookups' statements are prepared once and kept: a lookup leaves
 * nothing open that stops the same handle's next import (a large one drops
 * and rebuilds the indexes, which fails while a statement is running), and
 * a lookup after that import sees its rows. */
static void test_kept_statements(void **state)
{
	(void)state;
	struct sw_authority *a = open_fresh();
	write_file("one.csv",
		   "name,volume,reporter,page,last_page,court,year\n"
		   "Ashcroft v. Iqbal,556,U.S.,662,699,U.S.,2009\n");
	import_ok(a, "one.csv", 1, 0);
	struct sw_authority_lookup l;
	struct sw_err err = { 0 };
	for (int round = 0; round < 3; round++) {
		assert_int_equal(sw_authority_lookup_cite(&l, a, "556 U.S. 662", &err), 0);
		assert_int_equal(l.hit, SW_AUTHORITY_STARTS);
		sw_authority_lookup_release(&l);
		assert_int_equal(sw_authority_lookup_cite(&l, a, "556 U.S. 670", &err), 0);
		assert_int_equal(l.hit, SW_AUTHORITY_INSIDE);
		sw_authority_lookup_release(&l);
		assert_int_equal(sw_authority_code_exists(a, "U.S.C.", "42", "1983", &err), 0);
	}
	/* More than 100,000 rows by its size: the import that drops the
	 * indexes while it loads. */
	char *p = path_in("big.csv");
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("name,volume,reporter,page,last_page,court,year\n", f);
	for (int i = 1; i <= 110000; i++)
		fprintf(f, "Party%d v. Other%d,%d,F.3d,%d,%d,9th Cir.,2001\n", i, i, 100 + i / 1000,
			i % 1000 * 10 + 1, i % 1000 * 10 + 9);
	fclose(f);
	free(p);
	import_ok(a, "big.csv", 110000, 0);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "155 F.3d 4321", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_STARTS);
	assert_string_equal(l.cases[0].name, "Party55432 v. Other55432");
	sw_authority_lookup_release(&l);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "556 U.S. 662", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_STARTS);
	sw_authority_lookup_release(&l);
	cleanup(a);
}

static void test_courtlistener(void **state)
{
	(void)state;
	struct sw_authority *a = open_fresh();
	/* Citations first, then clusters, then dockets: the join completes the
	 * cases whichever order the files come in. */
	write_file("citations.csv",
		   "id,volume,reporter,page,type,cluster_id,date_created,date_modified\n"
		   "1,550,U.S.,544,1,100,2020-01-01,2020-01-01\n"
		   "2,127,S. Ct.,1955,1,100,2020-01-01,2020-01-01\n"
		   "3,925,F.3d,1291,1,200,2020-01-01,2020-01-01\n"
		   "4,1,U.S.,1,1,notanumber,x,x\n");
	import_ok(a, "citations.csv", 3, 1);
	write_file("clusters.csv",
		   "id,date_created,case_name_short,case_name,case_name_full,date_filed,docket_id\n"
		   "100,x,Twombly,\"Bell Atlantic Corp. v. Twombly\",\"Bell Atlantic Corp., et al. v.\nTwombly\",2007-05-21,10\n"
		   "200,x,Azar,\"J.D. v. Azar\",\"J.D., \\\"a minor\\\" v. Azar\",2019-06-14,20\n");
	import_ok(a, "clusters.csv", 2, 0);
	write_file("dockets.csv", "id,court_id,case_name\n10,scotus,x\n20,cadc,y\n");
	assert_int_equal(system("true"), 0);
	char *cmd = sw_xasprintf("bzip2 '%s/dockets.csv'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	import_ok(a, "dockets.csv.bz2", 2, 0);
	struct sw_authority_lookup l;
	struct sw_err err = { 0 };
	assert_int_equal(sw_authority_lookup_cite(&l, a, "127 S. Ct. 1955", &err), 0);
	assert_int_equal(l.hit, SW_AUTHORITY_STARTS);
	assert_string_equal(l.cases[0].name, "Bell Atlantic Corp. v. Twombly");
	assert_string_equal(l.cases[0].court, "scotus");
	assert_int_equal(l.cases[0].year, 2007);
	sw_authority_lookup_release(&l);
	/* Re-importing the citations keeps what the clusters said. */
	import_ok(a, "citations.csv", 3, 1);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "925 F.3d 1291", &err), 0);
	assert_string_equal(l.cases[0].name, "J.D. v. Azar");
	assert_string_equal(l.cases[0].court, "cadc");
	sw_authority_lookup_release(&l);
	/* Opinion texts named by citation. */
	char *tdir = path_in("texts");
	char *cmd2 = sw_xasprintf("mkdir '%s' && printf 'Factual allegations must be enough to raise a right to relief.' > '%s/550 U.S. 544.txt'", tdir, tdir);
	assert_int_equal(system(cmd2), 0);
	struct sw_authority_import_summary s;
	assert_int_equal(sw_authority_import(&s, a, tdir, false, &err), 0);
	assert_int_equal(s.stored, 1);
	assert_int_equal(sw_authority_lookup_cite(&l, a, "550 U.S. 544", &err), 0);
	assert_true(l.cases[0].has_text);
	struct sw_buf t = SW_BUF_INIT;
	assert_int_equal(sw_authority_text(&t, a, l.cases[0].id, &err), 0);
	assert_non_null(strstr(t.data, "right to relief"));
	sw_buf_release(&t);
	sw_authority_lookup_release(&l);
	free(cmd2);
	free(tdir);
	/* A damaged bz2 file is an input error. */
	write_file("bad.csv.bz2", "BZh9 this is not bzip2 data at all");
	char *p = path_in("bad.csv.bz2");
	assert_int_not_equal(sw_authority_import(&s, a, p, false, &err), 0);
	free(p);
	cleanup(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_courts),
		cmocka_unit_test(test_simple_and_lookup),
		cmocka_unit_test(test_next_case),
		cmocka_unit_test(test_kept_statements),
		cmocka_unit_test(test_courtlistener),
		cmocka_unit_test(test_code_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
