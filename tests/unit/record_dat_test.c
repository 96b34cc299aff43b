/*
 * record_dat_test.c - Concordance .DAT load files: the profiles vendors
 * actually ship (þ/DC4 in UTF-8 or Latin-1, pilcrow, CSV), the escapes, bad
 * rows that must not stop the rest, and the limits.
 *
 * Control bytes are spelled out as separate string literals ("\x14" TH)
 * because a C hex escape swallows every hex digit that follows it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"

#define S "\x14"           /* DC4, the Concordance separator */
#define TH "\xc3\xbe"      /* þ in UTF-8 */
#define TL "\xfe"          /* þ in Latin-1 */
#define REG "\xc2\xae"     /* ® in UTF-8 */
#define RENEE "Ren\xc3\xa9" "e"

#define BYTES(lit) lit, sizeof(lit) - 1

static void parse_ok(struct sw_dat *d, const char *data, size_t len)
{
	struct sw_err err = { 0 };
	int rc = sw_dat_parse(d, data, len, &err);
	if (rc != 0)
		fail_msg("parse failed (%d): %s", rc, err.msg);
}

static void parse_fails(const char *data, size_t len, int code,
			const char *needle)
{
	struct sw_dat d;
	struct sw_err err = { 0 };
	int rc = sw_dat_parse(&d, data, len, &err);
	assert_int_equal(rc, code);
	assert_int_equal(err.code, code);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	/* A failed parse leaves nothing behind to free. */
	assert_null(d.records);
	assert_null(d.names);
	sw_dat_release(&d);
}

static const char *val(const struct sw_dat *d, size_t row, const char *name)
{
	int col = sw_dat_field(d, name);
	assert_true(col >= 0);
	assert_true(row < d->nrecords);
	assert_null(d->records[row].error);
	return d->records[row].values[col];
}

static void test_utf8_standard(void **state)
{
	(void)state;
	static const char dat[] =
		TH "BEGBATES" TH S TH "ENDBATES" TH S TH "CUSTODIAN" TH "\r\n"
		TH "ABC0001" TH S TH "ABC0003" TH S TH RENEE TH "\r\n"
		TH "ABC0004" TH S TH "ABC0004" TH S TH "" TH "\r\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.encoding, SW_DAT_UTF8);
	assert_false(d.bom);
	assert_string_equal(d.separator, S);
	assert_string_equal(d.qualifier, TH);
	assert_int_equal(d.nfields, 3);
	assert_string_equal(d.names[0], "BEGBATES");
	assert_string_equal(d.names[2], "CUSTODIAN");
	assert_int_equal(d.nrecords, 2);
	assert_int_equal(d.nbad, 0);
	assert_int_equal(d.records[0].line, 2);
	assert_int_equal(d.records[1].line, 3);
	assert_string_equal(val(&d, 0, "begbates"), "ABC0001");
	assert_string_equal(val(&d, 0, "EndBates"), "ABC0003");
	assert_string_equal(val(&d, 0, "custodian"), RENEE);
	assert_string_equal(val(&d, 1, "custodian"), "");
	assert_int_equal(sw_dat_field(&d, "NOSUCH"), -1);
	assert_int_equal(sw_dat_field(&d, "BEGBATE"), -1);
	sw_dat_release(&d);
}

static void test_latin1(void **state)
{
	(void)state;
	static const char dat[] =
		TL "BEGBATES" TL S TL "CUSTODIAN" TL S TL "NOTE" TL "\r\n"
		TL "ABC0001" TL S TL "Ren\xe9" "e" TL S TL "one\xae" "two" TL "\r\n"
		TL "ABC0002" TL S TL "Fran\xe7" "ois" TL S TL "caf\xe9 \x80" "5" TL "\r\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.encoding, SW_DAT_LATIN1);
	assert_string_equal(d.qualifier, TH);
	assert_string_equal(d.separator, S);
	assert_int_equal(d.nrecords, 2);
	assert_string_equal(val(&d, 0, "CUSTODIAN"), RENEE);
	assert_string_equal(val(&d, 0, "NOTE"), "one\ntwo");
	assert_string_equal(val(&d, 1, "CUSTODIAN"), "Fran\xc3\xa7" "ois");
	/* Windows-1252: 0x80 is the euro sign. */
	assert_string_equal(val(&d, 1, "NOTE"), "caf\xc3\xa9 \xe2\x82\xac" "5");
	sw_dat_release(&d);
}

/* One Windows-1252 byte in a UTF-8 file: still UTF-8 (the þ qualifiers
 * found), only that value read as 1252, its row warned. */
static void test_mixed(void **state)
{
	(void)state;
	static const char dat[] =
		TH "BEGBATES" TH S TH "CUSTODIAN" TH "\r\n"
		TH "ABC0001" TH S TH "Ren\xc3\xa9" "e" TH "\r\n"
		TH "ABC0002" TH S TH "Caf\xe9" TH "\r\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.encoding, SW_DAT_UTF8);
	assert_int_equal(d.nrecords, 2);
	assert_string_equal(val(&d, 0, "CUSTODIAN"), RENEE);
	assert_null(d.records[0].warning);
	assert_string_equal(val(&d, 1, "CUSTODIAN"), "Caf\xc3\xa9");
	assert_string_equal(d.records[1].warning,
			    "line 3: CUSTODIAN is not valid UTF-8: read as Windows-1252");
	assert_int_equal(d.ncp1252, 1);
	sw_dat_release(&d);
}

static void test_bom(void **state)
{
	(void)state;
	static const char dat[] = "\xef\xbb\xbf" TH "DOCID" TH S TH "TITLE" TH "\n"
				  TH "D1" TH S TH "Caf\xc3\xa9" TH "\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_true(d.bom);
	assert_int_equal(d.encoding, SW_DAT_UTF8);
	assert_string_equal(d.names[0], "DOCID");
	assert_string_equal(val(&d, 0, "title"), "Caf\xc3\xa9");
	sw_dat_release(&d);
}

static void test_pilcrow(void **state)
{
	(void)state;
	static const char latin[] = TL "DOCID" TL "\xb6" TL "AUTHOR" TL "\r\n"
				    TL "D1" TL "\xb6" TL "Smith" TL "\r\n";
	static const char utf8[] = TH "DOCID" TH "\xc2\xb6" TH "AUTHOR" TH "\n"
				   TH "D1" TH "\xc2\xb6" TH "Smith" TH "\n";
	struct sw_dat d;

	parse_ok(&d, BYTES(latin));
	assert_string_equal(d.separator, "\xc2\xb6");
	assert_int_equal(d.nfields, 2);
	assert_string_equal(val(&d, 0, "AUTHOR"), "Smith");
	sw_dat_release(&d);

	parse_ok(&d, BYTES(utf8));
	assert_string_equal(d.separator, "\xc2\xb6");
	assert_string_equal(val(&d, 0, "DOCID"), "D1");
	assert_string_equal(val(&d, 0, "AUTHOR"), "Smith");
	sw_dat_release(&d);
}

static void test_csv(void **state)
{
	(void)state;
	static const char dat[] = "\"BegBates\",\"Subject\",\"Pages\"\n"
				  "\"A1\",\"Hello, \"\"world\"\"\",3\n"
				  "\"A2\",,\"\"\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_string_equal(d.qualifier, "\"");
	assert_string_equal(d.separator, ",");
	assert_int_equal(d.nrecords, 2);
	assert_string_equal(val(&d, 0, "SUBJECT"), "Hello, \"world\"");
	assert_string_equal(val(&d, 0, "PAGES"), "3");
	assert_string_equal(val(&d, 1, "SUBJECT"), "");
	assert_string_equal(val(&d, 1, "PAGES"), "");
	sw_dat_release(&d);
}

static void test_unqualified(void **state)
{
	(void)state;
	static const char tabs[] = "DOCID\tAUTHOR\nD1\tSmith\nD2\t\n";
	static const char bare_header[] = "DOCID" S "TITLE\n"
					  TH "D1" TH S TH "a" S "b" TH "\n";
	struct sw_dat d;

	parse_ok(&d, BYTES(tabs));
	assert_string_equal(d.separator, "\t");
	assert_string_equal(d.qualifier, "");
	assert_string_equal(val(&d, 1, "DOCID"), "D2");
	assert_string_equal(val(&d, 1, "AUTHOR"), "");
	sw_dat_release(&d);

	/* Some exports leave the header bare but qualify every value. */
	parse_ok(&d, BYTES(bare_header));
	assert_string_equal(d.qualifier, TH);
	assert_string_equal(val(&d, 0, "DOCID"), "D1");
	assert_string_equal(val(&d, 0, "TITLE"), "a" S "b");
	sw_dat_release(&d);
}

static void test_newlines_in_fields(void **state)
{
	(void)state;
	static const char dat[] =
		TH "DOCID" TH S TH "TEXT" TH "\r\n"
		TH "D1" TH S TH "first" REG "second" REG TH "\r\n"
		TH "D2" TH S TH "real\r\nbreak\nhere" TH "\r\n"
		TH "D3" TH S TH "after" TH "\r\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.nrecords, 3);
	assert_string_equal(val(&d, 0, "TEXT"), "first\nsecond\n");
	assert_string_equal(val(&d, 1, "TEXT"), "real\nbreak\nhere");
	assert_int_equal(d.records[1].line, 3);
	/* Line numbers count the newlines inside D2's field. */
	assert_int_equal(d.records[2].line, 6);
	assert_string_equal(val(&d, 2, "DOCID"), "D3");
	sw_dat_release(&d);
}

static void test_doubled_qualifier(void **state)
{
	(void)state;
	static const char dat[] = TH "DOCID" TH S TH "NOTE" TH "\n"
				  TH "D1" TH S TH "says " TH TH "hi" TH TH TH "\n"
				  TH TH S TH TH TH TH "\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.nrecords, 2);
	assert_string_equal(val(&d, 0, "NOTE"), "says " TH "hi" TH);
	assert_string_equal(val(&d, 1, "DOCID"), "");
	assert_string_equal(val(&d, 1, "NOTE"), TH);
	sw_dat_release(&d);
}

static void test_bad_row_continues(void **state)
{
	(void)state;
	static const char dat[] =
		TH "A" TH S TH "B" TH S TH "C" TH "\r\n"
		TH "1" TH S TH "2" TH S TH "3" TH "\r\n"
		TH "4" TH S TH "5" TH "\r\n"
		"\r\n"
		TH "7" TH S TH "8" TH S TH "9" TH "\r\n"
		TH "x" TH S TH "y" TH S TH "z" TH S TH "extra" TH "\r\n"
		TH "10" TH S TH "11" TH S TH "12" TH "\r\n"
		"\r\n\r\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.nrecords, 5);
	assert_int_equal(d.nbad, 2);
	assert_string_equal(val(&d, 0, "C"), "3");
	assert_null(d.records[1].values);
	assert_string_equal(d.records[1].error, "line 3: expected 3 fields, found 2");
	assert_int_equal(d.records[2].line, 5);
	assert_string_equal(val(&d, 2, "A"), "7");
	assert_string_equal(d.records[3].error, "line 6: expected 3 fields, found 4");
	assert_string_equal(val(&d, 4, "B"), "11");
	assert_int_equal(d.records[4].line, 7);
	sw_dat_release(&d);
}

static void test_unterminated(void **state)
{
	(void)state;
	static const char at_eof[] = TH "A" TH S TH "B" TH "\n"
				     TH "1" TH S TH "2" TH "\n"
				     TH "3" TH S TH "never closed\n";
	/* A stray qualifier must not swallow the rows after it. */
	static const char stray[] = TH "A" TH S TH "B" TH "\n"
				    TH "1" TH S TH "open\n"
				    TH "3" TH S TH "4" TH "\n"
				    TH "5" TH S TH "6" TH "\n";
	struct sw_dat d;

	parse_ok(&d, BYTES(at_eof));
	assert_int_equal(d.nrecords, 2);
	assert_int_equal(d.nbad, 1);
	assert_string_equal(val(&d, 0, "B"), "2");
	assert_null(d.records[1].values);
	assert_string_equal(d.records[1].error,
			    "line 3: unterminated qualifier in field 2");
	sw_dat_release(&d);

	parse_ok(&d, BYTES(stray));
	assert_int_equal(d.nbad, 1);
	assert_int_equal(d.nrecords, 3);
	assert_string_equal(d.records[0].error,
			    "line 2: text after the closing qualifier of field 2");
	assert_int_equal(d.records[1].line, 3);
	assert_string_equal(val(&d, 1, "A"), "3");
	assert_string_equal(val(&d, 2, "B"), "6");
	sw_dat_release(&d);

	/* Every line broken the same way: each is reported, none is lost. */
	parse_ok(&d, BYTES(TH "A" TH "\n" TH "x\n" TH "y\n" TH "z\n" TH "ok" TH "\n"));
	assert_int_equal(d.nrecords, 4);
	assert_int_equal(d.nbad, 3);
	assert_string_equal(d.records[0].error,
			    "line 2: text after the closing qualifier of field 1");
	assert_string_equal(d.records[1].error,
			    "line 3: text after the closing qualifier of field 1");
	assert_string_equal(d.records[2].error,
			    "line 4: text after the closing qualifier of field 1");
	assert_string_equal(val(&d, 3, "A"), "ok");
	assert_int_equal(d.records[3].line, 5);
	sw_dat_release(&d);
}

/* A NUL would silently cut a value short as a C string: the row is bad. */
static void test_nul_bytes(void **state)
{
	(void)state;
	static const char dat[] = "DOCID" S "TITLE\n"
				  "D1" S "cut\0here\n"
				  TH "D2" TH S TH "a\0b" TH "\n"
				  "D3" S "fine\n";
	struct sw_dat d;
	parse_ok(&d, BYTES(dat));
	assert_int_equal(d.nrecords, 3);
	assert_int_equal(d.nbad, 2);
	assert_string_equal(d.records[0].error, "line 2: NUL byte in field 2");
	assert_string_equal(d.records[1].error, "line 3: NUL byte in field 2");
	assert_string_equal(val(&d, 2, "TITLE"), "fine");
	sw_dat_release(&d);

	parse_fails(BYTES("DOC\0ID" S "TITLE\n"), SW_EINPUT, "NUL byte in field 1");
}

static void test_header_forms(void **state)
{
	(void)state;
	static const char only[] = TH " begBates " TH S TH "Custodian" TH S
				   TH "custodian" TH "\r\n\r\n";
	static const char one_col[] = "\n\nDOCID\nD1\nD2";
	struct sw_dat d;

	parse_ok(&d, BYTES(only));
	assert_int_equal(d.nrecords, 0);
	assert_int_equal(d.nfields, 3);
	assert_string_equal(d.names[0], "BEGBATES");
	/* Duplicate names are kept; the lookup finds the first. */
	assert_string_equal(d.names[2], "CUSTODIAN");
	assert_int_equal(sw_dat_field(&d, "CUSTODIAN"), 1);
	sw_dat_release(&d);

	parse_ok(&d, BYTES(one_col));
	assert_int_equal(d.nfields, 1);
	assert_int_equal(d.nrecords, 2);
	assert_int_equal(d.records[0].line, 4);
	assert_string_equal(val(&d, 1, "DOCID"), "D2");
	sw_dat_release(&d);
}

/* Encode UTF-8 text (BMP only) as UTF-16, LE or BE, with or without a BOM. */
static size_t to_utf16(char *out, size_t cap, const char *u8, bool le, bool bom)
{
	size_t n = 0;
	if (bom) {
		out[n++] = le ? '\xff' : '\xfe';
		out[n++] = le ? '\xfe' : '\xff';
	}
	for (const unsigned char *p = (const unsigned char *)u8; *p && n + 2 <= cap;) {
		unsigned c = *p++;
		if (c >= 0xe0) {
			c = (c & 0x0f) << 12 | (p[0] & 0x3fu) << 6 | (p[1] & 0x3fu);
			p += 2;
		} else if (c >= 0xc0) {
			c = (c & 0x1f) << 6 | (p[0] & 0x3fu);
			p += 1;
		}
		out[n++] = (char)(le ? c & 0xff : c >> 8);
		out[n++] = (char)(le ? c >> 8 : c & 0xff);
	}
	return n;
}

/* Review platforms export "Unicode" load files as UTF-16 LE with a BOM
 * (Relativity's default); BE and BOM-less ones occur too.  Each parses to
 * the same values as the UTF-8 file, þ, DC4 and the ® newline mark
 * included. */
static void test_utf16(void **state)
{
	(void)state;
	static const char u8[] =
		TH "BEGBATES" TH S TH "ENDBATES" TH S TH "CUSTODIAN" TH S TH "TEXTPATH" TH "\r\n"
		TH "ACME0000001" TH S TH "ACME0000003" TH S TH "Ren\xc3\xa9" "e \xe2\x80\x9cR\xe2\x80\x9d" TH S
		TH "TEXT\\TEXT001\\ACME0000001.txt" TH "\r\n"
		TH "ACME0000004" TH S TH "ACME0000004" TH S TH "line one\xc2\xaeline two" TH S
		TH "TEXT\\TEXT001\\ACME0000004.txt" TH "\r\n";
	const bool forms[][2] = { { true, true }, { false, true }, { true, false }, { false, false } };
	for (size_t f = 0; f < 4; f++) {
		char buf[1024];
		size_t n = to_utf16(buf, sizeof(buf), u8, forms[f][0], forms[f][1]);
		struct sw_dat d;
		parse_ok(&d, buf, n);
		assert_int_equal(d.encoding, SW_DAT_UTF16);
		assert_int_equal(d.nfields, 4);
		assert_int_equal(d.nrecords, 2);
		assert_string_equal(d.separator, S);
		assert_string_equal(d.qualifier, TH);
		assert_string_equal(val(&d, 0, "BEGBATES"), "ACME0000001");
		assert_string_equal(val(&d, 0, "CUSTODIAN"),
				    "Ren\xc3\xa9" "e \xe2\x80\x9cR\xe2\x80\x9d");
		assert_string_equal(val(&d, 0, "TEXTPATH"), "TEXT\\TEXT001\\ACME0000001.txt");
		assert_string_equal(val(&d, 1, "CUSTODIAN"), "line one\nline two");
		sw_dat_release(&d);
	}
	/* A surrogate pair (U+1F600) and a lone surrogate (U+FFFD). */
	static const char pair[] = "\xff\xfe" "A\0" "\n\0" "\x3d\xd8\x00\xde" "\n\0" "\x3d\xd8" "x\0" "\n\0";
	struct sw_dat d;
	parse_ok(&d, pair, sizeof(pair) - 1);
	assert_int_equal(d.nrecords, 2);
	assert_string_equal(d.records[0].values[0], "\xf0\x9f\x98\x80");
	assert_string_equal(d.records[1].values[0], "\xef\xbf\xbdx");
	sw_dat_release(&d);
}

static void test_refusals(void **state)
{
	(void)state;
	parse_fails("", 0, SW_EINPUT, "no header row");
	parse_fails(BYTES("\r\n\n\r\n"), SW_EINPUT, "no header row");
	parse_fails(BYTES("\xef\xbb\xbf"), SW_EINPUT, "no header row");
	/* UTF-16 that converts to no header row, or to binary. */
	parse_fails(BYTES("\xff\xfe"), SW_EINPUT, "no header row");
	parse_fails(BYTES("\xff\xfe\x00\x00\x00\x00"), SW_EINPUT, "binary data");
	parse_fails(BYTES(TH "A" TH S TH "B\n"), SW_EINPUT,
		    "unterminated qualifier in field 2");
	parse_fails(BYTES(TH "A" TH "x" S TH "B" TH "\n"), SW_EINPUT,
		    "header row, line 1: text after the closing qualifier of field 1");
}

static void test_limits(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_dat d;

	/* The size is refused before a byte is read. */
	parse_fails("x", SW_DAT_MAX_BYTES + 1, SW_ELIMIT, "SW_DAT_MAX_BYTES");

	for (int i = 0; i <= SW_DAT_MAX_FIELDS; i++)
		sw_buf_addf(&b, "%s" TH "F%d" TH, i ? S : "", i);
	sw_buf_adds(&b, "\n");
	parse_fails(b.data, b.len, SW_ELIMIT, "SW_DAT_MAX_FIELDS");

	/* Exactly the limit is fine. */
	sw_buf_reset(&b);
	for (int i = 0; i < SW_DAT_MAX_FIELDS; i++)
		sw_buf_addf(&b, "%sF%d", i ? S : "", i);
	parse_ok(&d, b.data, b.len);
	assert_int_equal(d.nfields, SW_DAT_MAX_FIELDS);
	assert_int_equal(sw_dat_field(&d, "F999"), 999);
	sw_dat_release(&d);

	/* One oversized value costs its row, not the file. */
	sw_buf_reset(&b);
	sw_buf_adds(&b, "DOCID" S "TEXT\nD1" S);
	size_t at = b.len;
	sw_buf_grow(&b, SW_DAT_MAX_FIELD_BYTES + 1);
	memset(b.data + at, 'x', SW_DAT_MAX_FIELD_BYTES + 1);
	b.len += SW_DAT_MAX_FIELD_BYTES + 1;
	sw_buf_adds(&b, "\nD2" S "short\n");
	parse_ok(&d, b.data, b.len);
	assert_int_equal(d.nrecords, 2);
	assert_int_equal(d.nbad, 1);
	assert_non_null(strstr(d.records[0].error, "SW_DAT_MAX_FIELD_BYTES"));
	assert_string_equal(val(&d, 1, "TEXT"), "short");
	sw_dat_release(&d);

	sw_buf_release(&b);
}

/* A production-sized file: every row must come back, in order. */
static void test_many_rows(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_dat d;

	for (int i = 0; i < 20; i++)
		sw_buf_addf(&b, "%s" TH "FIELD%d" TH, i ? S : "", i);
	sw_buf_adds(&b, "\r\n");
	for (int r = 0; r < 50000; r++) {
		for (int i = 0; i < 20; i++)
			sw_buf_addf(&b, "%s" TH "value %d.%d" REG "x" TH, i ? S : "", r, i);
		sw_buf_adds(&b, "\r\n");
	}
	parse_ok(&d, b.data, b.len);
	assert_int_equal(d.nrecords, 50000);
	assert_int_equal(d.nbad, 0);
	assert_string_equal(val(&d, 49999, "FIELD19"), "value 49999.19\nx");
	assert_int_equal(d.records[49999].line, 50001);
	sw_dat_release(&d);
	sw_buf_release(&b);
}

/* Lines ended by CR alone (issue 41): every row is read, with its own
 * line number, both qualified and bare; a file with LF keeps a lone CR
 * inside a field as it is. */
static void test_cr_line_ends(void **state)
{
	(void)state;
	static const char qual[] = TH "BEGBATES" TH S TH "TEXTPATH" TH "\r"
				   TH "ACME0000001" TH S TH "TEXT\\A.txt" TH "\r"
				   TH "ACME0000002" TH S TH "TEXT\\B.txt" TH "\r";
	struct sw_dat d;
	parse_ok(&d, qual, sizeof(qual) - 1);
	assert_true(d.cr_line_ends);
	assert_int_equal(d.nfields, 2);
	assert_int_equal(d.nrecords, 2);
	assert_int_equal(d.nbad, 0);
	assert_string_equal(val(&d, 1, "BEGBATES"), "ACME0000002");
	assert_string_equal(val(&d, 1, "TEXTPATH"), "TEXT\\B.txt");
	assert_int_equal(d.records[1].line, 3);
	sw_dat_release(&d);
	static const char bare[] = "BEGBATES,ENDBATES\rA1,A2\r\rA3,A3";
	parse_ok(&d, bare, sizeof(bare) - 1);
	assert_int_equal(d.nrecords, 2);
	assert_string_equal(val(&d, 1, "ENDBATES"), "A3");
	assert_int_equal(d.records[1].line, 4);
	sw_dat_release(&d);
	static const char mixed[] = "BEGBATES,NOTE\nA1,x\ry\n";
	parse_ok(&d, mixed, sizeof(mixed) - 1);
	assert_false(d.cr_line_ends);
	assert_int_equal(d.nrecords, 1);
	sw_dat_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_standard),
		cmocka_unit_test(test_latin1),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_pilcrow),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_unqualified),
		cmocka_unit_test(test_newlines_in_fields),
		cmocka_unit_test(test_doubled_qualifier),
		cmocka_unit_test(test_bad_row_continues),
		cmocka_unit_test(test_unterminated),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_header_forms),
		cmocka_unit_test(test_utf16),
		cmocka_unit_test(test_cr_line_ends),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_many_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
