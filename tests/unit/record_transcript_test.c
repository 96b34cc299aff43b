/*
 * record_transcript_test.c - recognising deposition transcript pages and the
 * exact byte range of each numbered line, and refusing prose and lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"

struct parsed {
	uint32_t page_no;
	struct sw_tr_line *lines;
	size_t n, cap;
	size_t count;
};

static void parse(struct parsed *p, const char *text)
{
	p->count = sw_transcript_page(&p->page_no, &p->lines, &p->n, &p->cap,
				      text, strlen(text));
}

static void release(struct parsed *p)
{
	free(p->lines);
	memset(p, 0, sizeof(*p));
}

/* The text of line i, as a string compared against want. */
static void check_line(const struct parsed *p, const char *text, size_t i,
		       uint32_t line, const char *want)
{
	assert_true(i < p->n);
	const struct sw_tr_line *l = &p->lines[i];
	assert_int_equal(l->line, line);
	assert_int_equal(l->page, p->page_no);
	assert_true(l->start <= l->end);
	assert_true(l->end <= strlen(text));
	size_t len = l->end - l->start;
	if (len != strlen(want) || memcmp(text + l->start, want, len) != 0)
		fail_msg("line %u is '%.*s', wanted '%s'", line, (int)len,
			 text + l->start, want);
}

static void test_full_page(void **state)
{
	char text[4096];
	size_t off;
	(void)state;
	off = (size_t)snprintf(text, sizeof(text),
			       "%54sPage 12\n\n", "");
	for (int i = 1; i <= 25; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"%2d   Q.  Question number %d?\n", i, i);
	struct parsed p = { 0 };
	parse(&p, text);
	assert_int_equal(p.count, 25);
	assert_int_equal(p.n, 25);
	assert_int_equal(p.page_no, 12);
	check_line(&p, text, 0, 1, "Q.  Question number 1?");
	check_line(&p, text, 9, 10, "Q.  Question number 10?");
	check_line(&p, text, 24, 25, "Q.  Question number 25?");
	/* Exact offsets: the header line is 54 + 7 + 1 bytes, a blank line,
	 * then " 1   " (5 bytes) before the first line's text. */
	assert_int_equal(p.lines[0].start, 54 + 7 + 1 + 1 + 5);
	assert_int_equal(p.lines[0].end, p.lines[0].start + 22);

	/* A second page appends; the first page's lines stay. */
	const char *next = "Page 13\n"
			   "1 A. Yes.\n2 A. No.\n3\n4 Q. Why?\n5 A. Because.\n";
	size_t count = sw_transcript_page(&p.page_no, &p.lines, &p.n, &p.cap,
					  next, strlen(next));
	assert_int_equal(count, 5);
	assert_int_equal(p.n, 30);
	assert_int_equal(p.page_no, 13);
	assert_int_equal(p.lines[25].page, 13);
	assert_int_equal(p.lines[0].page, 12);
	/* "3" alone is a blank numbered line: an empty range at its end. */
	assert_int_equal(p.lines[27].line, 3);
	assert_int_equal(p.lines[27].start, p.lines[27].end);
	assert_int_equal(p.lines[27].start, strlen("Page 13\n1 A. Yes.\n2 A. No.\n3"));
	release(&p);
}

static void test_dash_header_crlf(void **state)
{
	const char *text =
		"\f\r\n"
		"                    - 7 -\r\n"
		"\r\n"
		" 1\tMR. SMITH:  Let's go on the record.\r\n"
		" 2\t    Q.  State your name.\r\n"
		" 3\t    A.  Jane Roe.\r\n"
		" 5\t    Q.  Where do you work?\r\n"  /* 4 was lost */
		" 6\t    A.  Acme.\r\n"
		"\r\n"
		"       Veritext Legal Solutions\r\n"
		" 8   not part of the page's lines\r\n";
	struct parsed p = { 0 };
	(void)state;
	parse(&p, text);
	assert_int_equal(p.count, 5);
	assert_int_equal(p.page_no, 7);
	check_line(&p, text, 0, 1, "MR. SMITH:  Let's go on the record.");
	check_line(&p, text, 1, 2, "Q.  State your name.");
	check_line(&p, text, 3, 5, "Q.  Where do you work?");
	check_line(&p, text, 4, 6, "A.  Acme.");
	release(&p);
}

static void test_headers(void **state)
{
	static const struct {
		const char *header;
		uint32_t page;
	} cases[] = {
		{ "Page 12", 12 }, { "PAGE 3", 3 }, { "  page   40  ", 40 },
		{ "- 7 -", 7 }, { "-12-", 12 }, { "   118", 118 },
		{ "Page 999999", 999999 },
		{ "Page 1000000", 0 }, { "Page 0", 0 }, { "Page", 0 },
		{ "Page12", 0 }, { "Page 12 of 30", 12 }, { "PAGE 4 OF 210", 4 },
		{ "Page 12 of", 0 }, { "Page 12 of x", 0 }, { "Page 12 12", 0 },
		{ "SMITH, THOMAS   03-02-2022            Page 12", 12 },
		{ "Smith Dep.  Page 5 of 80", 5 }, { "See page 12", 0 },
		{ "Smith Page 12", 0 }, { "- 7", 0 },
		{ "12 -", 0 }, { "Pages 4", 0 }, { "99999999999999999999999", 0 },
		{ "Deposition of John Smith", 0 },
	};
	(void)state;
	for (size_t i = 0; i < SW_ARRAY_LEN(cases); i++) {
		char text[512];
		snprintf(text, sizeof(text),
			 "%s\n1 a\n2 b\n3 c\n4 d\n5 e\n", cases[i].header);
		struct parsed p = { 0 };
		parse(&p, text);
		if (p.page_no != cases[i].page ||
		    p.count != (cases[i].page ? 5u : 0u))
			fail_msg("header '%s': page %u, %zu lines",
				 cases[i].header, p.page_no, p.count);
		release(&p);
	}
}

static void test_not_transcripts(void **state)
{
	static const char *const texts[] = {
		/* Prose with a page header. */
		("Page 4\n\nThe parties agree that the goods will be\n"
		 "delivered on the first of each month.\n"),
		/* A numbered list of three items. */
		"Page 2\n1 First item\n2 Second item\n3 Third item\n",
		/* List numbering with periods. */
		"Page 2\n1. a\n2. b\n3. c\n4. d\n5. e\n6. f\n",
		/* Numbered lines but no header. */
		"1 a\n2 b\n3 c\n4 d\n5 e\n6 f\n",
		/* Does not start at 1. */
		"Page 2\n2 a\n3 b\n4 c\n5 d\n6 e\n7 f\n",
		/* Two numbers missing in a row ends the run at 3 lines. */
		"Page 2\n1 a\n2 b\n3 c\n6 d\n7 e\n8 f\n",
		/* Something between the header and line 1. */
		"Page 2\nCAPTION\n1 a\n2 b\n3 c\n4 d\n5 e\n",
		/* Numbers over the limit. */
		"Page 2\n1 a\n2 b\n3 c\n4 d\n999999999999999999999999 e\n",
		"",
		"\n\n\n",
	};
	(void)state;
	for (size_t i = 0; i < SW_ARRAY_LEN(texts); i++) {
		struct parsed p = { 0 };
		parse(&p, texts[i]);
		if (p.count != 0 || p.n != 0 || p.lines != NULL || p.page_no != 0)
			fail_msg("text %zu taken as a transcript page", i);
		release(&p);
	}
}

/* A transcript saved without form feeds: pages one after the other, each
 * after the footer of the one before. */
static void test_pages_in_one_text(void **state)
{
	const char *text =
		"                                        Page 4\n"
		" 1   Q.  Did anyone tell Acme?\n"
		" 2   A.  Not in writing.\n"
		" 3   Q.  Orally?\n"
		" 4   A.  I told Jane Roe on the phone that the\n"
		" 5       controller was holding all credits until the\n"
		"\n"
		"              Lakeside Court Reporting, LLC\n"
		"                                        Page 5\n"
		" 1       ship dates were final.\n"
		" 2   Q.  When was that call?\n"
		" 3   A.  Around March 5.\n"
		" 4   Q.  Did Ms. Roe agree to wait?\n"
		" 5   A.  She did not say.\n"
		"              Lakeside Court Reporting, LLC\n"
		"                                        Page 3\n" /* going back: not a next page */
		" 1   x\n 2   x\n 3   x\n 4   x\n 5   x\n";
	struct parsed p = { 0 };
	(void)state;
	parse(&p, text);
	assert_int_equal(p.count, 10);
	assert_int_equal(p.page_no, 4);
	assert_int_equal(p.lines[4].page, 4);
	assert_int_equal(p.lines[5].page, 5);
	check_line(&p, text, 4, 5, "controller was holding all credits until the");
	assert_int_equal(p.lines[5].line, 1);
	const struct sw_tr_line *l = &p.lines[5];
	assert_memory_equal(text + l->start, "ship dates were final.", l->end - l->start);
	release(&p);

	/* A second page too short to be one is not read. */
	const char *t2 = "Page 1\n1 a\n2 b\n3 c\n4 d\n5 e\nPage 2\n1 a\n2 b\n";
	parse(&p, t2);
	assert_int_equal(p.count, 5);
	release(&p);
	/* Prose after the footer ends the transcript. */
	const char *t3 = "Page 1\n1 a\n2 b\n3 c\n4 d\n5 e\nfooter\nmore\nand more\nstill\n"
			 "Page 2\n1 a\n2 b\n3 c\n4 d\n5 e\n";
	parse(&p, t3);
	assert_int_equal(p.count, 5);
	release(&p);
}

/* Video depositions stamp each line with the time. */
static void test_time_stamps(void **state)
{
	const char *text = "Page 9\n"
			   " 1   10:14:32   Q.  Where were you?\n"
			   " 2   10:14:35   A.  At the plant.\n"
			   " 3   10:14:40\n"
			   " 4   10:14:41   Q.  On March 3?\n"
			   " 5   10:30 a.m. is when it started.\n";
	struct parsed p = { 0 };
	(void)state;
	parse(&p, text);
	assert_int_equal(p.count, 5);
	check_line(&p, text, 0, 1, "Q.  Where were you?");
	check_line(&p, text, 1, 2, "A.  At the plant.");
	check_line(&p, text, 2, 3, "10:14:40"); /* a stamp alone stays: nothing follows it */
	check_line(&p, text, 3, 4, "Q.  On March 3?");
	check_line(&p, text, 4, 5, "10:30 a.m. is when it started.");
	release(&p);
}

static void test_line_limit(void **state)
{
	char text[8192];
	size_t off;
	struct parsed p = { 0 };
	(void)state;
	off = (size_t)snprintf(text, sizeof(text), "Page 1\n");
	for (int i = 1; i <= SW_TR_MAX_LINE_NO + 5; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"%d x\n", i);
	parse(&p, text);
	assert_int_equal(p.count, SW_TR_MAX_LINE_NO);
	assert_int_equal(p.lines[SW_TR_MAX_LINE_NO - 1].line, SW_TR_MAX_LINE_NO);
	release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_page),
		cmocka_unit_test(test_dash_header_crlf),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_not_transcripts),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_pages_in_one_text),
		cmocka_unit_test(test_time_stamps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
