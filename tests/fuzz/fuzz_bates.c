/*
 * fuzz_bates.c - hostile text through the Bates parser, the stamp finder,
 * the formatter and the transcript page parser.  Besides memory errors it
 * checks what callers rely on: ranges inside the input, terminated strings,
 * and a formatted number that parses back to itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_bates: %s", what);
}

static void check_bates(const struct sw_bates *b)
{
	check(memchr(b->prefix, 0, sizeof(b->prefix)) != NULL, "prefix unterminated");
	check(memchr(b->suffix, 0, sizeof(b->suffix)) != NULL, "suffix unterminated");
	check(b->width >= 3 && b->width <= SW_BATES_MAX_DIGITS, "width out of range");
}

/* Formatting the parsed number must give back the text that was parsed. */
static void check_round_trip(const struct sw_bates *b, const char *s,
			     size_t len)
{
	char buf[128];
	int n = sw_bates_format(buf, sizeof(buf), b, b->number);
	check(n >= 0 && (size_t)n == len && memcmp(buf, s, len) == 0,
	      "format does not round-trip");
	/* A buffer too small is cut and terminated, never overrun. */
	char small[8];
	memset(small, 'x', sizeof(small));
	sw_bates_format(small, sizeof(small), b, b->number + 1);
	check(memchr(small, 0, sizeof(small)) != NULL, "small buffer unterminated");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sw_bates b;
	size_t start = 0, end = 0;

	if (sw_bates_parse(&b, text, size) == 0) {
		check_bates(&b);
		check_round_trip(&b, text, size);
	}

	if (sw_bates_find_stamp(&b, &start, &end, text, size) == 0) {
		check(start < end && end <= size, "stamp range outside the page");
		check_bates(&b);
		struct sw_bates again;
		check(sw_bates_parse(&again, text + start, end - start) == 0,
		      "stamp does not parse");
		check(again.number == b.number, "stamp number differs");
	} else {
		check(start == 0 && end == 0, "range set without a stamp");
	}

	struct sw_tr_line *lines = NULL;
	size_t n = 0, cap = 0;
	uint32_t page_no = 0;
	size_t count = sw_transcript_page(&page_no, &lines, &n, &cap, text, size);
	check(count == n, "count differs from lines appended");
	check(count == 0 || (page_no >= 1 && page_no <= SW_TR_MAX_PAGE_NO),
	      "page number out of range");
	for (size_t i = 0; i < n; i++) {
		check(lines[i].start <= lines[i].end && lines[i].end <= size,
		      "line range outside the page");
		check(lines[i].line >= 1 && lines[i].line <= SW_TR_MAX_LINE_NO,
		      "line number out of range");
		/* a text without form feeds may hold several pages: line
		 * numbers rise within a page, pages rise */
		check(i == 0 || lines[i].page > lines[i - 1].page ||
			      (lines[i].page == lines[i - 1].page && lines[i].line > lines[i - 1].line),
		      "line numbers do not rise");
		check(i == 0 || lines[i].start > lines[i - 1].end,
		      "lines overlap");
	}
	free(lines);
	return 0;
}
