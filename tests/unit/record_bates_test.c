/*
 * record_bates_test.c - Bates numbers: parsing the forms productions use,
 * formatting neighbours, and finding a page's stamp without mistaking years,
 * dates, phone numbers and docket numbers for one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "record/record.h"

static void check_parse(const char *text, const char *prefix, uint64_t number,
			int width, const char *suffix)
{
	struct sw_bates b;
	int rc = sw_bates_parse(&b, text, strlen(text));
	if (rc != 0)
		fail_msg("'%s' did not parse", text);
	assert_string_equal(b.prefix, prefix);
	assert_int_equal(b.number, number);
	assert_int_equal(b.width, width);
	assert_string_equal(b.suffix, suffix);
}

static void test_parse_forms(void **state)
{
	(void)state;
	check_parse("ABC0001234", "ABC", 1234, 7, "");
	check_parse("ABC-0001234", "ABC-", 1234, 7, "");
	check_parse("ACME_000001", "ACME_", 1, 6, "");
	check_parse("SWHOSP000001", "SWHOSP", 1, 6, "");
	check_parse("OTE-SNY0000176", "OTE-SNY", 176, 7, "");
	check_parse("ABC 0001234", "ABC ", 1234, 7, "");
	check_parse("DEF-000567890", "DEF-", 567890, 9, "");
	check_parse("000001AFCO", "", 1, 6, "AFCO");
	check_parse("ABC123", "ABC", 123, 3, "");
}

static void test_parse_runs(void **state)
{
	(void)state;
	/* The longest run is the counter; the attachment number is a suffix. */
	check_parse("ACME_000001_003", "ACME_", 1, 6, "_003");
	/* A date-like run is longest: accepted, suffix keeps the rest. */
	check_parse("20140904_PROD_PAGE_1", "", 20140904, 8, "_PROD_PAGE_1");
	/* Equal runs: the first one is the counter. */
	check_parse("AB123_456", "AB", 123, 3, "_456");
	/* Over nine digits: the last nine stay, the rest join the prefix. */
	check_parse("12345678901234", "12345", 678901234, 9, "");
	check_parse("ABC0000000001234", "ABC0000", 1234, 9, "");
	check_parse("999999999", "", 999999999, 9, "");
}

static void check_reject(const char *text, size_t len)
{
	struct sw_bates b;
	memset(&b, 0x55, sizeof(b));
	if (sw_bates_parse(&b, text, len) != SW_EINPUT)
		fail_msg("'%.*s' parsed", (int)len, text);
	assert_string_equal(b.prefix, "");
	assert_int_equal(b.width, 0);
}

static void test_parse_rejects(void **state)
{
	(void)state;
	check_reject("", 0);
	check_reject("ABC", 3);
	check_reject("AB12", 4);
	check_reject("ABC  0001234", 12);       /* two spaces */
	check_reject("AB C0001234", 11);        /* space inside the prefix */
	check_reject(" 0001234", 8);            /* leading space */
	check_reject("ABC0001234 ", 11);        /* trailing space */
	check_reject("ABC\t0001234", 11);
	check_reject("ABC\n0001234", 11);
	check_reject("ABC\x7f" "0001234", 11);
	check_reject("ABC0001234\0", 11);
	check_reject("AB\xff" "0001234", 10);   /* not UTF-8 */
	check_reject("ABC0001234_ABCDEFGHIJKLMNOP", 27); /* suffix of 17 */
	/* A prefix of 48 bytes is one too many. */
	check_reject("ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGH0001",
		     52);
	char huge[4096];
	memset(huge, '7', sizeof(huge));
	check_reject(huge, sizeof(huge));
}

static void test_parse_limits(void **state)
{
	(void)state;
	/* 47 bytes of prefix and 15 of suffix are the most that fit. */
	check_parse("ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFG0001"
		    "_ABCDEFGHIJKLMN",
		    "ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFG", 1, 4,
		    "_ABCDEFGHIJKLMN");
	/* Letters outside ASCII are allowed in a prefix. */
	check_parse("\xc3\x84" "BC0001", "\xc3\x84" "BC", 1, 4, "");
}

static void check_next(const char *text, const char *next)
{
	struct sw_bates b;
	char buf[128];
	assert_int_equal(sw_bates_parse(&b, text, strlen(text)), 0);
	int n = sw_bates_format(buf, sizeof(buf), &b, b.number + 1);
	assert_int_equal(n, (int)strlen(next));
	assert_string_equal(buf, next);
}

static void test_format(void **state)
{
	(void)state;
	check_next("ABC-0000999", "ABC-0001000");
	check_next("ABC999", "ABC1000");           /* width grows */
	check_next("ACME_000001_003", "ACME_000002_003");
	check_next("ABC 0001234", "ABC 0001235");
	check_next("12345678901234", "12345678901235");
	check_next("ABC999999999", "ABC1000000000");

	struct sw_bates b;
	char buf[8];
	assert_int_equal(sw_bates_parse(&b, "DEF-000567890", 13), 0);
	/* snprintf rules: the full length is returned, the output cut. */
	assert_int_equal(sw_bates_format(buf, sizeof(buf), &b, 567890), 13);
	assert_string_equal(buf, "DEF-000");
	assert_int_equal(sw_bates_format(NULL, 0, &b, 1), 13);

	/* A hand-made record with no terminators and a silly width. */
	memset(&b, 'X', sizeof(b));
	b.number = 5;
	b.width = 1000;
	char big[128];
	int n = sw_bates_format(big, sizeof(big), &b, 5);
	assert_int_equal(n, 47 + 20 + 15);
	assert_int_equal(strlen(big), (size_t)n);
}

/* Runs the stamp finder and checks the token found is want. */
static void check_stamp(const char *page, const char *want, uint64_t number)
{
	struct sw_bates b;
	size_t start = 99, end = 99;
	int rc = sw_bates_find_stamp(&b, &start, &end, page, strlen(page));
	if (rc != 0)
		fail_msg("no stamp found, wanted '%s' in:\n%s", want, page);
	const char *at = strstr(page, want);
	assert_non_null(at);
	/* The wanted token may occur earlier in the page; the last one is
	 * the footer's. */
	for (const char *next; (next = strstr(at + 1, want)) != NULL;)
		at = next;
	if (start != (size_t)(at - page) || end != start + strlen(want))
		fail_msg("found [%zu,%zu) '%.*s', wanted '%s'", start, end,
			 (int)(end - start), page + start, want);
	assert_int_equal(b.number, number);
}

static void check_no_stamp(const char *page)
{
	struct sw_bates b;
	size_t start = 99, end = 99;
	int rc = sw_bates_find_stamp(&b, &start, &end, page, strlen(page));
	if (rc != SW_ENOTFOUND)
		fail_msg("stamp [%zu,%zu) '%.*s' found in:\n%s", start, end,
			 (int)(end - start), page + start, page);
	assert_int_equal(start, 0);
	assert_int_equal(end, 0);
}

static const char body[] =
	"This agreement is entered into by and between the parties named\n"
	"below, and sets out the terms on which the goods will be supplied\n"
	"to the buyer over the course of the next twelve months.\n"
	"\n"
	"The seller shall deliver the goods to the buyer's warehouse on the\n"
	"first business day of each month, as set out in Schedule A.\n";

static void test_stamp_footer(void **state)
{
	char page[1024];
	(void)state;
	snprintf(page, sizeof(page), "%s\n\n                    ACME0000123\n", body);
	check_stamp(page, "ACME0000123", 123);
	snprintf(page, sizeof(page), "%sCONFIDENTIAL          ACME-0000123", body);
	check_stamp(page, "ACME-0000123", 123);
	snprintf(page, sizeof(page),
		 "%sHIGHLY CONFIDENTIAL - ATTORNEYS' EYES ONLY   ACME_0000124\n"
		 "\n", body);
	check_stamp(page, "ACME_0000124", 124);
	snprintf(page, sizeof(page), "%sACME 0000125   CONFIDENTIAL - FOR COUNSEL ONLY\n",
		 body);
	check_stamp(page, "ACME 0000125", 125);
	/* The stamp on the second-last line, a legend below it. */
	snprintf(page, sizeof(page), "%sSWHOSP000001\nSUBJECT TO PROTECTIVE ORDER\n",
		 body);
	check_stamp(page, "SWHOSP000001", 1);
	/* Wrapped in parentheses, attachment suffix. */
	snprintf(page, sizeof(page), "%s(ACME_000001_003)\n", body);
	check_stamp(page, "ACME_000001_003", 1);
}

static void test_stamp_header(void **state)
{
	char page[1024];
	(void)state;
	snprintf(page, sizeof(page), "DEF-000567890\n\n%s", body);
	check_stamp(page, "DEF-000567890", 567890);
	snprintf(page, sizeof(page),
		 "CONFIDENTIAL\n\nOTE-SNY0000176\nMemo to File\n%s", body);
	check_stamp(page, "OTE-SNY0000176", 176);
	/* Both: the footer wins. */
	snprintf(page, sizeof(page), "ABC0000001\n%sABC0000002\n", body);
	check_stamp(page, "ABC0000002", 2);
	/* A one-line page is both header and footer. */
	check_stamp("ZZ0000042", "ZZ0000042", 42);
	check_stamp("\f\n  ZZ 0000043  \n\f", "ZZ 0000043", 43);
	check_stamp("memo\nACME0000001.002\n", "ACME0000001.002", 1);
	/* Four-digit counters only when zero-padded. */
	check_stamp("memo\nABC0123\n", "ABC0123", 123);
}

static void test_stamp_crlf(void **state)
{
	(void)state;
	const char *page =
		"Page one of the letter\r\n"
		"Dear Sir, we write to you about the shipment of last week\r\n"
		"which arrived damaged and incomplete at our warehouse.\r\n"
		"\r\n"
		"CONFIDENTIAL\r\n"
		"ACME0000777\r\n"
		"\r\n";
	check_stamp(page, "ACME0000777", 777);
}

static void test_stamp_far_from_edges(void **state)
{
	(void)state;
	/* A Bates number in the middle of the page is a cite, not a stamp. */
	check_no_stamp("line one\nline two\nline three\n"
		       "See ABC0001234\n"
		       "line five\nline six\nline seven\n");
	check_no_stamp("");
	check_no_stamp("\n\n\r\n\f  \n");
	check_no_stamp(body);
}

static void test_stamp_false_positives(void **state)
{
	(void)state;
	check_no_stamp("Annual report 2021\n\nbody\n");
	check_no_stamp("body\n\nCOVID-19 update\n");
	check_no_stamp("body\n\nPage 3 of 10\n");
	check_no_stamp("Claims under \xc2\xa7 1983\n\nbody\n");
	check_no_stamp("Dated 3/4/2021\n\nbody\n");
	check_no_stamp("body\n\nCall 555-123-4567\n");
	check_no_stamp("body\n\nExhibit 12\n");
	check_no_stamp("EXHIBIT 123456\n\nbody\n");
	check_no_stamp("Case No. 1:21-cv-01234\n\nbody\n");
	check_no_stamp("Case 1:21-cv-01234-ABC Document 45 Filed 03/04/21\n\nbody\n");
	check_no_stamp("FY2021 Budget\nISO9001 certified\n\nbody\n");
	check_no_stamp("body\n\nCONFIDENTIAL 0001234\n");
	check_no_stamp("body\n\nAcme0001234\n");          /* lower case */
	check_no_stamp("body\n\nA0001234\n");             /* one letter */
	check_no_stamp("body\n\nABC 01234\n");            /* spaced, 5 digits */
	check_no_stamp("body\n\nABC1234\n");              /* 4 digits, unpadded */
	check_no_stamp("body\n\nhttp://ACME.COM/0001234\n");
	check_no_stamp("body\n\n.ABC0001234\n");      /* starts with a dot */
	check_no_stamp("body\n\n00_0A0_0E2_0030\n");
	check_no_stamp("body\n\nACME0001234_AB12\n");  /* odd suffix */
	check_no_stamp("body\n\nACME0001234_\n");
	check_no_stamp("body\n\nACCT 12345678901\n");  /* over nine digits */
	check_no_stamp("body\n\nACCT12345678901\n");
	/* Prose: a long line with a Bates cite in it is not a stamp line. */
	check_no_stamp("body\n\nAs the witness said at ACME0001234 the goods had "
		       "already left the warehouse by then\n");
}

/* A stamp is a line holding only the number, perhaps with a legend or
 * "Page x of y"; a number inside text on the edge lines is an identifier
 * (an invoice, a purchase order, a case number), never a stamp. */
static void test_stamp_lines_only(void **state)
{
	char page[1024];
	(void)state;
	static const struct {
		const char *line, *want;
		uint64_t number;
	} yes[] = {
		{ "ACME0000123", "ACME0000123", 123 },
		{ "   BLT-000006   ", "BLT-000006", 6 },
		{ "CONFIDENTIAL BLT-000007", "BLT-000007", 7 },
		{ "BLT-000007 CONFIDENTIAL", "BLT-000007", 7 },
		{ "Confidential BLT-000008", "BLT-000008", 8 },
		{ "HIGHLY CONFIDENTIAL \xe2\x80\x93 AEO BLT-000009", "BLT-000009", 9 },
		{ "HIGHLY CONFIDENTIAL - ATTORNEYS\xe2\x80\x99 EYES ONLY    BLT-000010", "BLT-000010", 10 },
		{ "Page 3 of 7                 BLT-000011", "BLT-000011", 11 },
		{ "BLT-000012        Page 3 of 7", "BLT-000012", 12 },
		{ "PAGE 3 OF 7 | BLT-000013", "BLT-000013", 13 },
		{ "CONFIDENTIAL TREATMENT REQUESTED BY BLT BLT-000014", "BLT-000014", 14 },
		{ "Acme Confidential ACME0000019", "ACME0000019", 19 },
		{ "Bates No. BLT-000015", "BLT-000015", 15 },
		{ "PRIVILEGED AND CONFIDENTIAL   BLT_000016", "BLT_000016", 16 },
		{ "(BLT000017)", "BLT000017", 17 },
		{ "SUBJECT TO PROTECTIVE ORDER \xe2\x80\x94 BLT 000018", "BLT 000018", 18 },
	};
	static const char *const no[] = {
		"Invoice INV-10236",
		"Invoice No. INV-10236",
		"See INV-10236.",
		"PO 4471 NCR-2021-0147",
		"Ref: ACME0000123",
		"Our file ABC-00123 refers",
		"Please quote ORD-55555 when you pay",
		"Customer ACCT-00012345",
		"Tracking UPS-123456789",
		"Model RTX-04090 graphics card",
		"John Smith JS-00012",
		"Page 3 of 7",
		"CONFIDENTIAL",
		"Regards, Tom BLT-000020",
		"Invoice INV-10236 CONFIDENTIAL",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(yes); i++) {
		snprintf(page, sizeof(page), "%s\n%s\n", body, yes[i].line);
		if (yes[i].want)
			check_stamp(page, yes[i].want, yes[i].number);
		else
			check_no_stamp(page);
		/* The same line heading the page. */
		snprintf(page, sizeof(page), "%s\n\n%s", yes[i].line, body);
		if (yes[i].want)
			check_stamp(page, yes[i].want, yes[i].number);
	}
	for (size_t i = 0; i < SW_ARRAY_LEN(no); i++) {
		snprintf(page, sizeof(page), "%s\n\n%s\n", body, no[i]);
		check_no_stamp(page);
		snprintf(page, sizeof(page), "%s\n%s", no[i], body);
		check_no_stamp(page);
	}
	/* The e-mail that made a fake series: its last line names an invoice. */
	check_no_stamp("From: a@example.com\nTo: b@example.com\nDate: Wed, 3 Mar 2021 16:02:11 -0500\n"
		       "Subject: payment\n\nPlease find the invoice attached.\n\nThanks,\nTom\n"
		       "Invoice INV-10236\n");
	/* ... while its real stamp under it still counts. */
	check_stamp("Subject: payment\n\nPlease pay.\nInvoice INV-10236\nBLT-000021\n",
		    "BLT-000021", 21);
}

static void check_ref(const char *text, const char *prefix, uint64_t first, uint64_t last,
		      int width)
{
	struct sw_bates_ref r;
	if (sw_bates_ref_parse(&r, text, strlen(text)) != 0)
		fail_msg("'%s' did not parse as a Bates number or range", text);
	if (strcmp(r.prefix, prefix) != 0 || r.first != first || r.last != last || r.width != width)
		fail_msg("'%s' gave %s %llu-%llu width %d", text, r.prefix,
			 (unsigned long long)r.first, (unsigned long long)r.last, r.width);
}

/* Every spelling of one number gives one canonical form; so does every
 * spelling of a range. */
static void test_ref_spellings(void **state)
{
	(void)state;
	static const char *const six[] = {
		"BLT-000006", "BLT000006", "BLT 000006", "BLT_000006", "BLT.000006", "blt-000006",
		"Blt_0006", "BLT-006", "BLT-000000006", "  BLT-000006  ", "BLT-000006_001",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(six); i++) {
		struct sw_bates_ref r;
		if (sw_bates_ref_parse(&r, six[i], strlen(six[i])) != 0)
			fail_msg("'%s' did not parse", six[i]);
		if (strcmp(r.prefix, "BLT") != 0 || r.first != 6 || r.last != 6)
			fail_msg("'%s' gave %s %llu", six[i], r.prefix, (unsigned long long)r.first);
	}
	check_ref("BLT-000006", "BLT", 6, 6, 6);
	check_ref("BLT-000006\xe2\x80\x93" "BLT-000009", "BLT", 6, 9, 6);
	check_ref("BLT-000006 \xe2\x80\x93 BLT-000009", "BLT", 6, 9, 6);
	check_ref("BLT-000006\xe2\x80\x94" "BLT-000009", "BLT", 6, 9, 6);
	check_ref("BLT-000006 - BLT-000009", "BLT", 6, 9, 6);
	check_ref("BLT-000006-BLT-000009", "BLT", 6, 9, 6);
	check_ref("BLT-000007-000012", "BLT", 7, 12, 6);
	check_ref("BLT-000007-12", "BLT", 7, 12, 6);
	check_ref("BLT000107-09", "BLT", 107, 109, 6);
	check_ref("BLT 000006 to BLT 000009", "BLT", 6, 9, 6);
	check_ref("BLT-000006 through BLT-000009", "BLT", 6, 9, 6);
	check_ref("BLT-000006 thru BLT000009", "BLT", 6, 9, 6);
	check_ref("ACME0000001", "ACME", 1, 1, 7);
	check_ref("OTE-SNY0000176", "OTESNY", 176, 176, 7);
	check_ref("AB1-000123", "AB1", 123, 123, 6);
	check_ref("ABC0000000001234", "ABC0000", 1234, 1234, 9); /* as sw_bates_parse splits it */

	static const char *const bad[] = {
		"", "BLT", "000006", "BLT-06", "BLT-000009-BLT-000006", "BLT-000006-XYZ-000009",
		"BLT-000006 and more", "BLT-000006-", "-BLT-000006", "BLT--", "\xc2\xa7 1983",
		"BLT-000006 to", "BLT-000006\x01", "BLT-000006-000003",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(bad); i++) {
		struct sw_bates_ref r;
		memset(&r, 0x55, sizeof(r));
		if (sw_bates_ref_parse(&r, bad[i], strlen(bad[i])) != SW_EINPUT)
			fail_msg("'%s' parsed", bad[i]);
		assert_string_equal(r.prefix, "");
	}
	/* The canonical prefix of every stored spelling. */
	char c[SW_BATES_CANON_MAX];
	sw_bates_canon_prefix(c, "BLT-", 4);
	assert_string_equal(c, "BLT");
	sw_bates_canon_prefix(c, "blt_ ", 5);
	assert_string_equal(c, "BLT");
	sw_bates_canon_prefix(c, "OTE-SNY", 7);
	assert_string_equal(c, "OTESNY");
	/* And the parse of a stored number agrees with the canonical form. */
	struct sw_bates b;
	struct sw_bates_ref r;
	assert_int_equal(sw_bates_parse(&b, "ACME_000001_003", 15), 0);
	sw_bates_canon_prefix(c, b.prefix, strlen(b.prefix));
	assert_int_equal(sw_bates_ref_parse(&r, "ACME_000001_003", 15), 0);
	assert_string_equal(c, r.prefix);
	assert_int_equal(b.number, r.first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_runs),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_limits),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_stamp_footer),
		cmocka_unit_test(test_stamp_header),
		cmocka_unit_test(test_stamp_crlf),
		cmocka_unit_test(test_stamp_far_from_edges),
		cmocka_unit_test(test_stamp_false_positives),
		cmocka_unit_test(test_stamp_lines_only),
		cmocka_unit_test(test_ref_spellings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
