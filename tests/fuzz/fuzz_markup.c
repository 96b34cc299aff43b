/*
 * fuzz_markup.c - hostile drafts through markup/ as Markdown and as HTML.
 * Besides memory errors it checks what callers rely on: runs that cover
 * the plain text in order, verbatim runs that hold the source's bytes, a
 * map that stays inside the source and never goes backwards, events in
 * order and nested, emphasis inside the text, and line:column in range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "markup/markup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_markup: %s", what);
}

static void one(enum sw_markup_kind kind, const char *src, size_t size)
{
	struct sw_markup m;
	struct sw_err err = { 0 };
	if (sw_markup_parse(&m, kind, src, size, &err) != 0) {
		sw_markup_release(&m);
		return;
	}
	size_t plain = 0, last = 0;
	for (size_t i = 0; i < m.nruns; i++) {
		const struct sw_markup_run *r = &m.runs[i];
		check(r->plain == plain, "runs do not cover the text in order");
		check(r->src >= last, "the map goes backwards");
		check(r->src <= m.src_len && r->src_len <= m.src_len - r->src, "a run outside the source");
		check(!r->verbatim || (r->len == r->src_len &&
				       !memcmp(m.text + r->plain, m.src + r->src, r->len)),
		      "a verbatim run that is not the source");
		plain += r->len;
		last = r->src;
	}
	check(plain == m.len, "runs do not end at the text's end");
	size_t prev = 0, depth = 0;
	for (size_t p = 0; p <= m.len; p += 1 + p / 7) {
		size_t s = sw_markup_src(&m, p), e = sw_markup_src_end(&m, p);
		check(s <= m.src_len && e <= m.src_len, "a mapped offset outside the source");
		check(s >= prev, "the map is not monotonic");
		prev = s;
	}
	for (size_t i = 0; i < m.nevents; i++) {
		const struct sw_markup_event *ev = &m.events[i];
		check(ev->at <= m.len, "an event past the text");
		check(i == 0 || ev->at >= m.events[i - 1].at, "events out of order");
		check(ev->label <= m.src_len && ev->label_len <= m.src_len - ev->label,
		      "a label outside the source");
		if (ev->tag == SW_MARKUP_HR || ev->tag == SW_MARKUP_BR || ev->tag == SW_MARKUP_FNREF)
			continue;
		if (ev->open)
			depth++;
		else
			check(depth-- > 0, "a close without an open");
	}
	check(depth == 0, "an element left open");
	for (size_t i = 0; i < m.nemphasis; i++)
		check(m.emphasis[i].start < m.emphasis[i].end && m.emphasis[i].end <= m.len &&
		      (i == 0 || m.emphasis[i].start >= m.emphasis[i - 1].start),
		      "emphasis outside the text or out of order");
	struct sw_markup_cursor cur = { 0 };
	size_t line, col;
	sw_markup_line_col(&m, &cur, m.src_len / 2, &line, &col);
	check(line >= 1 && line <= m.nlines && col >= 1, "line:column out of range");
	sw_markup_line_col(&m, &cur, m.src_len, &line, &col);
	check(line == m.nlines, "the last line is not the source's last");
	sw_markup_release(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *src = (const char *)data;
	one(SW_MARKUP_MARKDOWN, src, size);
	one(SW_MARKUP_HTML, src, size);
	one(sw_markup_kind_for(NULL, src, size), src, size);
	return 0;
}
