/*
 * markup_test.c - markup/: drafts as local models write them (Markdown
 * with italic case names, *Id.*, _See_, headings, lists, block quotes,
 * footnotes, tables, entities, code, links) and as HTML, read as plain
 * text whose every offset maps back to the right source bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "claims/claims.h"
#include "markup/markup.h"

/* The map's invariants: runs cover the text in order, verbatim runs hold
 * the source's bytes, sources never go backwards. */
static void check_map(const struct sw_markup *m)
{
	size_t plain = 0, src = 0;
	for (size_t i = 0; i < m->nruns; i++) {
		const struct sw_markup_run *r = &m->runs[i];
		assert_int_equal(r->plain, plain);
		assert_true(r->src >= src);
		assert_true(r->src + r->src_len <= m->src_len);
		if (r->verbatim) {
			assert_int_equal(r->len, r->src_len);
			assert_memory_equal(m->text + r->plain, m->src + r->src, r->len);
		}
		plain += r->len;
		src = r->src;
	}
	assert_int_equal(plain, m->len);
	assert_int_equal(strlen(m->text), m->len); /* NUL-terminated, no NUL inside */
	for (size_t i = 1; i < m->nevents; i++)
		assert_true(m->events[i].at >= m->events[i - 1].at);
	for (size_t i = 0; i < m->nemphasis; i++)
		assert_true(m->emphasis[i].start < m->emphasis[i].end &&
			    m->emphasis[i].end <= m->len);
}

/* sw_markup_src() and sw_markup_src_end() against the runs read one by
 * one, and their hinted forms asked in increasing, decreasing and
 * scattered order: the hint never changes an answer. */
static void check_lookups(const struct sw_markup *m)
{
	size_t up = 0, down = 0, jump = 0, up_end = 0, down_end = 0, jump_end = 0;
	for (size_t i = 0; i <= m->len; i++) {
		size_t p = i, q = m->len - i, r = (i * 7919) % (m->len + 1);
		size_t want[3], want_end[3], ps[3] = { p, q, r };
		for (int k = 0; k < 3; k++) {
			size_t x = ps[k], run = 0;
			for (size_t j = 0; j < m->nruns; j++)
				if (m->runs[j].plain <= (x ? x - 1 : 0))
					run = j;
			const struct sw_markup_run *e = m->nruns ? &m->runs[run] : NULL;
			want_end[k] = !e ? 0
				: x == 0 ? (m->len ? m->runs[0].src : m->src_len)
				: e->verbatim ? e->src + (x - e->plain)
				: e->src + e->src_len;
			run = 0;
			for (size_t j = 0; j < m->nruns; j++)
				if (m->runs[j].plain <= x)
					run = j;
			const struct sw_markup_run *b = m->nruns ? &m->runs[run] : NULL;
			want[k] = x >= m->len ? m->src_len
				: !b ? 0
				: b->verbatim ? b->src + (x - b->plain)
				: b->src;
		}
		assert_int_equal(sw_markup_src(m, p), want[0]);
		assert_int_equal(sw_markup_src_at(m, &up, p), want[0]);
		assert_int_equal(sw_markup_src_at(m, &down, q), want[1]);
		assert_int_equal(sw_markup_src_at(m, &jump, r), want[2]);
		assert_int_equal(sw_markup_src_end(m, p), want_end[0]);
		assert_int_equal(sw_markup_src_end_at(m, &up_end, p), want_end[0]);
		assert_int_equal(sw_markup_src_end_at(m, &down_end, q), want_end[1]);
		assert_int_equal(sw_markup_src_end_at(m, &jump_end, r), want_end[2]);
	}
	/* line and column of every source offset, counted here, and with a
	 * cursor asked in increasing, decreasing and scattered order */
	struct sw_markup_cursor c_up = { 0 }, c_down = { 0 }, c_jump = { 0 };
	for (size_t i = 0; i <= m->src_len; i++) {
		size_t xs[3] = { i, m->src_len - i, (i * 7919) % (m->src_len + 1) };
		struct sw_markup_cursor *cs[3] = { &c_up, &c_down, &c_jump };
		for (int k = 0; k < 3; k++) {
			size_t want_line = 1, want_col = 1, line, col;
			for (size_t j = 0; j < xs[k]; j++) {
				if (m->src[j] == '\n') {
					want_line++;
					want_col = 1;
				} else if (((unsigned char)m->src[j] & 0xC0) != 0x80) {
					want_col++;
				}
			}
			sw_markup_line_col(m, cs[k], xs[k], &line, &col);
			assert_int_equal(line, want_line);
			assert_int_equal(col, want_col);
			sw_markup_line_col(m, NULL, xs[k], &line, &col);
			assert_int_equal(line, want_line);
			assert_int_equal(col, want_col);
		}
	}
}

static void view(struct sw_markup *m, enum sw_markup_kind kind, const char *src)
{
	struct sw_err err = { 0 };
	assert_int_equal(sw_markup_parse(m, kind, src, strlen(src), &err), 0);
	check_map(m);
	check_lookups(m);
}

/* The plain offset of needle (which must be there). */
static size_t at(const struct sw_markup *m, const char *needle)
{
	const char *p = strstr(m->text, needle);
	if (!p)
		fail_msg("'%s' is not in the plain text:\n%s", needle, m->text);
	return (size_t)(p - m->text);
}

/* The source from plain offset p begins with want. */
static void src_at(const struct sw_markup *m, size_t p, const char *want)
{
	size_t s = sw_markup_src(m, p);
	if (s > m->src_len || strncmp(m->src + s, want, strlen(want)) != 0)
		fail_msg("plain %zu maps to source %zu '%.20s', not '%s'", p, s, m->src + s, want);
}

static bool has_emphasis(const struct sw_markup *m, const char *text)
{
	for (size_t i = 0; i < m->nemphasis; i++) {
		const struct sw_markup_span *s = &m->emphasis[i];
		if (s->end - s->start == strlen(text) && !memcmp(m->text + s->start, text, strlen(text)))
			return true;
	}
	return false;
}

static size_t count_events(const struct sw_markup *m, enum sw_markup_tag tag, bool open)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nevents; i++)
		n += m->events[i].tag == tag && m->events[i].open == open;
	return n;
}

static void test_italic_case_names(void **state)
{
	(void)state;
	struct sw_markup m;
	const char *src = "Summary judgment is proper. *Celotex Corp. v. Catrett*, 477 U.S. 317, "
			  "322 (1986). *Id.* at 999. _See_ *Anderson v. Liberty Lobby, Inc.*, 477 U.S. "
			  "242, 248 (1986). **Bold** and ***both*** stay words.\n";
	view(&m, SW_MARKUP_MARKDOWN, src);
	assert_null(strchr(m.text, '*'));
	assert_null(strchr(m.text, '_'));
	size_t p = at(&m, "Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).");
	src_at(&m, p, "Celotex Corp. v. Catrett*, 477");
	/* the end of the name maps past the closing '*' */
	size_t e = p + strlen("Celotex Corp. v. Catrett,");
	assert_int_equal(sw_markup_src_end(&m, e), (size_t)(strstr(src, "*, 477") - src) + 2);
	src_at(&m, at(&m, "Id. at 999"), "Id.* at 999");
	src_at(&m, at(&m, "See Anderson v. Liberty Lobby, Inc., 477"), "See_ *Anderson");
	assert_true(has_emphasis(&m, "Celotex Corp. v. Catrett"));
	assert_true(has_emphasis(&m, "Id."));
	assert_true(has_emphasis(&m, "See"));
	assert_true(has_emphasis(&m, "Anderson v. Liberty Lobby, Inc."));
	assert_true(has_emphasis(&m, "both"));
	assert_false(has_emphasis(&m, "Bold"));
	at(&m, "Bold and both stay words.");
	sw_markup_release(&m);
}

/* claims/ over the view: the whole name, no '*', the pin kept. */
static void test_claims_through_view(void **state)
{
	(void)state;
	struct sw_markup m;
	struct sw_claims c = { 0 };
	struct sw_err err = { 0 };
	view(&m, SW_MARKUP_MARKDOWN,
	     "## Argument\nThe standard is settled. *Celotex Corp. v. Catrett*, 477 U.S. 317, 322 "
	     "(1986). *Id.* at 999.\n");
	assert_int_equal(sw_claims_scan(&c, m.text, m.len, &err), 0);
	bool name = false, pin = false;
	for (size_t i = 0; i < c.n; i++) {
		const char *n = sw_claim_get(&c.v[i], "name");
		const char *pn = sw_claim_get(&c.v[i], "pin");
		name |= n && !strcmp(n, "Celotex Corp. v. Catrett");
		pin |= c.v[i].form == SW_FORM_ID && pn && strstr(pn, "999");
		assert_null(memchr(m.text + c.v[i].start, '*', c.v[i].end - c.v[i].start));
	}
	assert_true(name);
	assert_true(pin);
	/* the heading is a sentence of its own */
	assert_true(c.nsentences >= 3);
	assert_memory_equal(m.text + c.sentences[0].start, "Argument", 8);
	assert_int_equal(c.sentences[0].end - c.sentences[0].start, 8);
	sw_claims_release(&c);
	sw_markup_release(&m);
}

static void test_intraword_underscore(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN, "The field my_var_name and snake_case_id stay; 5 * 3 = 15, a*b*c.\n");
	at(&m, "The field my_var_name and snake_case_id stay; 5 * 3 = 15, a");
	assert_int_equal(m.nemphasis, 1); /* a*b*c is emphasis in CommonMark: "b" */
	assert_true(has_emphasis(&m, "b"));
	sw_markup_release(&m);
}

static void test_blocks_separated(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN,
	     "# Statement of Facts\nAcme signed on January 15, 2021.\n\n"
	     "- First item\n- Second item\n\n1. One\n2. Two\n\n---\n\nAfter the rule.\n");
	at(&m, "Statement of Facts\n\nAcme signed on January 15, 2021.\n\n");
	at(&m, "First item\n\nSecond item\n\n");
	at(&m, "One\n\nTwo\n\nAfter the rule.");
	assert_int_equal(count_events(&m, SW_MARKUP_HEADING, true), 1);
	assert_int_equal(m.events[0].tag, SW_MARKUP_HEADING);
	assert_int_equal(m.events[0].level, 1);
	assert_int_equal(count_events(&m, SW_MARKUP_LI, true), 4);
	assert_int_equal(count_events(&m, SW_MARKUP_LI, false), 4);
	assert_int_equal(count_events(&m, SW_MARKUP_HR, true), 1);
	src_at(&m, at(&m, "Acme signed"), "Acme signed on January");
	sw_markup_release(&m);
}

static void test_block_quote_indented(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN,
	     "The court said:\n\n> \"The mere existence of a scintilla of evidence\n"
	     "> will be insufficient.\" *Anderson*, 477 U.S. at 252.\n\nThen more.\n");
	size_t p = at(&m, "\n\n    \"The mere existence of a scintilla of evidence\n"
			  "    will be insufficient.\" Anderson, 477 U.S. at 252.\n\nThen");
	src_at(&m, p + 6, "\"The mere");
	src_at(&m, at(&m, "will be"), "will be insufficient");
	assert_int_equal(count_events(&m, SW_MARKUP_QUOTE, true), 1);
	sw_markup_release(&m);
}

static void test_footnotes(void **state)
{
	(void)state;
	struct sw_markup m;
	const char *src =
		"The standard is settled.[^1] A movant's burden[^note-2] is light.\n\n"
		"[^1]: *See* *Celotex Corp. v. Catrett*, 477 U.S. 317, 323 (1986).\n"
		"[^note-2]: *Id.* at 325;\n    *Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242 (1986).\n\n"
		"Back in the body.\n";
	view(&m, SW_MARKUP_MARKDOWN, src);
	assert_null(strstr(m.text, "[^"));
	assert_null(strchr(m.text, '^'));
	/* markers are one space: never glued to the word before or after */
	size_t p = at(&m, "settled.  A movant's burden  is light.");
	src_at(&m, p + strlen("settled."), "[^1] A movant");
	src_at(&m, at(&m, "burden  is") + strlen("burden"), "[^note-2]");
	/* the definitions are text, each a block of its own */
	src_at(&m, at(&m, "See Celotex Corp. v. Catrett, 477 U.S. 317, 323 (1986)."),
	       "See* *Celotex");
	at(&m, "(1986).\n\nId. at 325;\nAnderson v. Liberty Lobby, Inc., 477 U.S. 242 (1986).\n\n"
	       "Back in the body.");
	assert_true(has_emphasis(&m, "Anderson v. Liberty Lobby, Inc."));
	assert_int_equal(count_events(&m, SW_MARKUP_FNREF, true), 2);
	assert_int_equal(count_events(&m, SW_MARKUP_FOOTNOTE, true), 2);
	assert_int_equal(count_events(&m, SW_MARKUP_FOOTNOTE, false), 2);
	for (size_t i = 0; i < m.nevents; i++) {
		const struct sw_markup_event *e = &m.events[i];
		if (e->tag == SW_MARKUP_FNREF || e->tag == SW_MARKUP_FOOTNOTE) {
			assert_true(e->label_len == 1 || e->label_len == 6);
			assert_true(!memcmp(m.src + e->label, "1", 1) ||
				    !memcmp(m.src + e->label, "note-2", 6));
		}
	}
	sw_markup_release(&m);
}

/* A footnote whose text is a URL would be a link reference definition:
 * it is text here. */
static void test_footnote_not_link_definition(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN, "See the order.[^2]\n\n[^2]: https://example.org/order.pdf\n");
	at(&m, "https://example.org/order.pdf");
	sw_markup_release(&m);
}

static void test_entities_code_links(void **state)
{
	(void)state;
	struct sw_markup m;
	const char *src = "Smith &amp; Jones, 42 U.S.C. &sect;&nbsp;1983 and &#167; 1981 and &#xA7; 1985; "
			  "`28 U.S.C. § 1332` is code; [*Celotex*](https://example.org/c \"t\") "
			  "and <https://example.org/x> and www.example.org and a@b.org; &bogus; stays.\n";
	view(&m, SW_MARKUP_MARKDOWN, src);
	size_t p = at(&m, "Smith & Jones, 42 U.S.C. \xc2\xa7 1983 and \xc2\xa7 1981 and \xc2\xa7 1985;");
	src_at(&m, p + strlen("Smith "), "&amp; Jones");
	assert_int_equal(sw_markup_src_end(&m, p + strlen("Smith &")),
			 (size_t)(strstr(src, " Jones") - src));
	at(&m, "28 U.S.C. \xc2\xa7 1332 is code; Celotex and https://example.org/x and "
	       "www.example.org and a@b.org; &bogus; stays.");
	assert_null(strstr(m.text, "https://example.org/c"));
	assert_true(has_emphasis(&m, "Celotex"));
	/* no permissive autolinks: the two links are the two written as such */
	assert_int_equal(count_events(&m, SW_MARKUP_LINK, true), 2);
	assert_int_equal(count_events(&m, SW_MARKUP_CODE, true), 1);
	sw_markup_release(&m);
}

/* HTML inside Markdown: tags dropped, <em>/<i> emphasis, an HTML block's
 * text read. */
static void test_html_in_markdown(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN,
	     "See <em>Celotex Corp. v. Catrett</em>, 477 U.S. 317 (1986) and <I>Id.</I> at 5<sup>2</sup>.\n\n"
	     "<div align=\"center\">\n*Anderson v. Liberty Lobby, Inc.*, 477 U.S. 242 (1986).\n</div>\n\n"
	     "<!-- a comment -->\n\nAn <em>unclosed emphasis.\n\nNext.\n");
	at(&m, "See Celotex Corp. v. Catrett, 477 U.S. 317 (1986) and Id. at 52.");
	at(&m, "Anderson v. Liberty Lobby, Inc., 477 U.S. 242 (1986).");
	assert_null(strchr(m.text, '<'));
	assert_true(has_emphasis(&m, "Celotex Corp. v. Catrett"));
	assert_true(has_emphasis(&m, "Id."));
	assert_true(has_emphasis(&m, "Anderson v. Liberty Lobby, Inc."));
	assert_true(has_emphasis(&m, "unclosed emphasis."));
	assert_int_equal(count_events(&m, SW_MARKUP_EM, true), count_events(&m, SW_MARKUP_EM, false));
	sw_markup_release(&m);
}

static void test_tables(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN,
	     "| Case | Holding |\n|------|:-------:|\n| *Celotex Corp. v. Catrett*, 477 U.S. 317 (1986) | "
	     "burden |\n| *Anderson* | genuine dispute |\n| Held; | after a semicolon |\n"
	     "| *Hollis v. Coastal Carriers, Inc.* | 550 U.S. 544 |\n");
	at(&m, "Held; after a semicolon");
	at(&m, "Hollis v. Coastal Carriers, Inc., 550 U.S. 544");
	/* a row's cells joined as a citation's parts; rows apart */
	at(&m, "Case, Holding\n\nCelotex Corp. v. Catrett, 477 U.S. 317 (1986), burden\n\n"
	       "Anderson, genuine dispute");
	assert_int_equal(count_events(&m, SW_MARKUP_TH, true), 2);
	assert_int_equal(count_events(&m, SW_MARKUP_TD, true), 8);
	assert_int_equal(count_events(&m, SW_MARKUP_TR, true), 5);
	sw_markup_release(&m);
}

static void test_code_block_and_crlf(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN,
	     "\xef\xbb\xbfIntro *Celotex*.\r\n\r\n```\r\nline one\r\nline two\r\n```\r\n\r\nAfter.\r\n");
	src_at(&m, at(&m, "Intro Celotex."), "Intro *Celotex*");
	at(&m, "    line one");
	at(&m, "    line two");
	at(&m, "After.");
	assert_int_equal(count_events(&m, SW_MARKUP_CODEBLOCK, true), 1);
	sw_markup_release(&m);
}

static void test_unbalanced_and_nested(void **state)
{
	(void)state;
	struct sw_markup m;
	view(&m, SW_MARKUP_MARKDOWN,
	     "*unclosed emphasis *Celotex Corp. v. Catrett*, 477 U.S. 317 and **bold *nested* bold** "
	     "and ____ and * alone * and _*mixed*_ end\n");
	at(&m, "Celotex Corp. v. Catrett, 477 U.S. 317");
	assert_true(has_emphasis(&m, "nested"));
	sw_markup_release(&m);
}

static void test_line_col(void **state)
{
	(void)state;
	struct sw_markup m;
	struct sw_markup_cursor cur = { 0 };
	size_t line, col;
	const char *src = "# Titre \xc3\xa9t\xc3\xa9\n\nLe caf\xc3\xa9 *Celotex*, 477 U.S. 317.\n";
	view(&m, SW_MARKUP_MARKDOWN, src);
	size_t p = at(&m, "Celotex, 477");
	sw_markup_line_col(&m, &cur, sw_markup_src(&m, p), &line, &col);
	assert_int_equal(line, 3);
	assert_int_equal(col, 10); /* "Le café *" is 9 characters */
	sw_markup_line_col(&m, &cur, sw_markup_src(&m, at(&m, "477")), &line, &col);
	assert_int_equal(line, 3);
	assert_int_equal(col, 20);
	/* out of order, without a cursor */
	sw_markup_line_col(&m, NULL, 2, &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 3);
	sw_markup_line_col(&m, &cur, m.src_len, &line, &col);
	assert_int_equal(line, 4);
	assert_int_equal(col, 1);
	sw_markup_release(&m);
}

static void test_text_is_identity(void **state)
{
	(void)state;
	struct sw_markup m;
	const char *src = "Plain *text* stays _as_ written: [^1] &amp; # not a heading\n> not a quote\n";
	view(&m, SW_MARKUP_TEXT, src);
	assert_string_equal(m.text, src);
	assert_int_equal(m.len, strlen(src));
	assert_int_equal(m.nevents, 0);
	assert_int_equal(m.nemphasis, 0);
	for (size_t i = 0; i <= m.len; i++) {
		assert_int_equal(sw_markup_src(&m, i), i);
		assert_int_equal(sw_markup_src_end(&m, i), i);
	}
	sw_markup_release(&m);
	view(&m, SW_MARKUP_TEXT, "");
	assert_int_equal(m.len, 0);
	assert_int_equal(sw_markup_src(&m, 0), 0);
	sw_markup_release(&m);
}

static void test_html(void **state)
{
	(void)state;
	struct sw_markup m;
	const char *src =
		"<!DOCTYPE html>\n<html><head><title>*Not* a claim 1 U.S. 1</title>\n"
		"<style>p { color: red }</style><script>var s = \"<p>1 U.S. 1</p>\";</script></head>\n"
		"<body><h2>Argument</h2><p>Summary judgment is proper. <em>Celotex Corp. v.\n"
		"  Catrett</em>, 477&nbsp;U.S. 317, 322 (1986); <i>Id.</i> at 999.<!-- <em>x</em> -->\n"
		"<p>Second &amp; &#8220;quoted&#8221; &bogus; a < b.\n"
		"<blockquote><p>&ldquo;The mere existence.&rdquo;</p></blockquote>\n"
		"<ul><li>One <b>bold</b><li>Two</ul><table><tr><td><u>Anderson</u><td>477 U.S. 242"
		"</table><p>Unterminated <em>tag";
	view(&m, SW_MARKUP_HTML, src);
	assert_null(strstr(m.text, "Not"));
	assert_null(strstr(m.text, "color"));
	assert_null(strstr(m.text, "var s"));
	assert_null(strchr(m.text, '>'));
	size_t p = at(&m, "Argument\n\nSummary judgment is proper. Celotex Corp. v. Catrett, "
			  "477 U.S. 317, 322 (1986); Id. at 999.");
	src_at(&m, p, "Argument</h2>");
	src_at(&m, at(&m, "Catrett,"), "Catrett</em>");
	at(&m, "Second & \xe2\x80\x9cquoted\xe2\x80\x9d &bogus; a < b.");
	at(&m, "\n\n    \xe2\x80\x9cThe mere existence.\xe2\x80\x9d\n\n");
	at(&m, "One bold\n\nTwo\n\n");
	at(&m, "Anderson, 477 U.S. 242\n\n");
	at(&m, "Unterminated tag");
	assert_true(has_emphasis(&m, "Celotex Corp. v. Catrett"));
	assert_true(has_emphasis(&m, "Id."));
	assert_true(has_emphasis(&m, "Anderson"));
	assert_true(has_emphasis(&m, "tag")); /* closed at the end */
	assert_int_equal(count_events(&m, SW_MARKUP_HEADING, true), 1);
	assert_int_equal(count_events(&m, SW_MARKUP_P, true), count_events(&m, SW_MARKUP_P, false));
	assert_int_equal(count_events(&m, SW_MARKUP_LI, true), 2);
	assert_int_equal(count_events(&m, SW_MARKUP_LI, false), 2);
	assert_int_equal(count_events(&m, SW_MARKUP_TD, false), 2);
	sw_markup_release(&m);
}

/* Hostile HTML: deep nesting is bounded, unterminated comments and raw
 * elements end the text, stray closing tags are ignored, and events stay
 * nested. */
static void test_html_hostile(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 5000; i++)
		sw_buf_adds(&b, "<blockquote><em>");
	sw_buf_adds(&b, "deep</p></li></td></em></blockquote>");
	struct sw_markup m;
	struct sw_err err = { 0 };
	assert_int_equal(sw_markup_parse(&m, SW_MARKUP_HTML, b.data, b.len, &err), 0);
	check_map(&m);
	at(&m, "deep");
	assert_true(m.nevents <= 2 * SW_MARKUP_MAX_DEPTH + 2);
	size_t depth = 0;
	for (size_t i = 0; i < m.nevents; i++) {
		if (m.events[i].open)
			depth++;
		else
			depth--;
		assert_true(depth <= SW_MARKUP_MAX_DEPTH);
	}
	assert_int_equal(depth, 0);
	sw_markup_release(&m);
	view(&m, SW_MARKUP_HTML, "before <!-- never closed <p>hidden");
	assert_string_equal(m.text, "before ");
	sw_markup_release(&m);
	view(&m, SW_MARKUP_HTML, "before <script>hidden");
	assert_null(strstr(m.text, "hidden"));
	sw_markup_release(&m);
	view(&m, SW_MARKUP_HTML, "party&#39;s &#x27;x&#x27; &#8220;y&#8221; &#x1F600;.");
	assert_string_equal(m.text, "party's 'x' \xe2\x80\x9cy\xe2\x80\x9d \xf0\x9f\x98\x80.");
	sw_markup_release(&m);
	view(&m, SW_MARKUP_MARKDOWN, "party&#39;s &#x27;x&#x27; &#8220;y&#8221;.");
	assert_string_equal(m.text, "party's 'x' \xe2\x80\x9cy\xe2\x80\x9d.\n\n");
	sw_markup_release(&m);
	view(&m, SW_MARKUP_HTML, "</em></p>text <a href=\"x>y\">link</a> &#99999999; &#x; end");
	at(&m, "text link \xef\xbf\xbd &#x; end");
	sw_markup_release(&m);
	sw_buf_release(&b);
}

static void test_markdown_hostile(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 3000; i++)
		sw_buf_adds(&b, "> ");
	sw_buf_adds(&b, "*deep\n");
	for (int i = 0; i < 3000; i++)
		sw_buf_adds(&b, "[^");
	sw_buf_adds(&b, "\n");
	for (int i = 0; i < 2000; i++)
		sw_buf_adds(&b, "*_");
	sw_buf_adds(&b, "\n[^1]:\n[^2]: [^2]\n\n[^");
	struct sw_markup m;
	struct sw_err err = { 0 };
	assert_int_equal(sw_markup_parse(&m, SW_MARKUP_MARKDOWN, b.data, b.len, &err), 0);
	check_map(&m);
	at(&m, "deep");
	sw_markup_release(&m);
	sw_buf_release(&b);
	/* past the limit: refused before anything is read */
	assert_int_equal(sw_markup_parse(&m, SW_MARKUP_MARKDOWN, "", SW_MARKUP_MAX_SOURCE + 1, &err),
			 SW_ELIMIT);
	sw_markup_release(&m);
}

static void test_kinds(void **state)
{
	(void)state;
	const char *plain = "In Celotex Corp. v. Catrett, 477 U.S. 317 (1986), 5 * 3 = 15.\n> quoted\n";
	assert_int_equal(sw_markup_kind_for("brief.md", plain, strlen(plain)), SW_MARKUP_MARKDOWN);
	assert_int_equal(sw_markup_kind_for("brief.MARKDOWN", plain, strlen(plain)), SW_MARKUP_MARKDOWN);
	assert_int_equal(sw_markup_kind_for("brief.mkd", plain, strlen(plain)), SW_MARKUP_MARKDOWN);
	assert_int_equal(sw_markup_kind_for("brief.htm", plain, strlen(plain)), SW_MARKUP_HTML);
	assert_int_equal(sw_markup_kind_for("brief.txt", "# Heading *x*", 13), SW_MARKUP_TEXT);
	assert_int_equal(sw_markup_kind_for(NULL, plain, strlen(plain)), SW_MARKUP_TEXT);
	assert_int_equal(sw_markup_kind_for("brief", plain, strlen(plain)), SW_MARKUP_TEXT);
	const char *md[] = {
		"Intro.\n## Argument\nText.",
		"See *Celotex Corp. v. Catrett*, 477 U.S. 317.",
		"_See_ Anderson.",
		"A claim.[^1]",
		"```\ncode\n```",
		"| a | b |\n|---|---|\n| 1 | 2 |",
		"Some **bold** words.",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(md); i++)
		if (sw_markup_kind_for(NULL, md[i], strlen(md[i])) != SW_MARKUP_MARKDOWN)
			fail_msg("not sniffed as Markdown: %s", md[i]);
	const char *text[] = {
		"5 * 3 = 15 and 4 * 2 = 8.",
		"#hashtag and a_b_c and file_name.txt",
		"Price: $5 * qty; see * note.",
		"- a list item\n- another",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(text); i++)
		if (sw_markup_kind_for("-", text[i], strlen(text[i])) != SW_MARKUP_TEXT)
			fail_msg("sniffed as markup: %s", text[i]);
	assert_int_equal(sw_markup_kind_for(NULL, "\xef\xbb\xbf  <!doctype HTML><p>x", 26), SW_MARKUP_HTML);
	assert_int_equal(sw_markup_kind_for(NULL, "<HTML><body>x", 13), SW_MARKUP_HTML);
	enum sw_markup_kind k;
	assert_true(sw_markup_kind_parse(&k, "md") && k == SW_MARKUP_MARKDOWN);
	assert_true(sw_markup_kind_parse(&k, "html") && k == SW_MARKUP_HTML);
	assert_true(sw_markup_kind_parse(&k, "text") && k == SW_MARKUP_TEXT);
	assert_false(sw_markup_kind_parse(&k, "docx"));
	assert_string_equal(sw_markup_kind_name(SW_MARKUP_MARKDOWN), "markdown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_italic_case_names),
		cmocka_unit_test(test_claims_through_view),
		cmocka_unit_test(test_intraword_underscore),
		cmocka_unit_test(test_blocks_separated),
		cmocka_unit_test(test_block_quote_indented),
		cmocka_unit_test(test_footnotes),
		cmocka_unit_test(test_footnote_not_link_definition),
		cmocka_unit_test(test_entities_code_links),
		cmocka_unit_test(test_html_in_markdown),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_code_block_and_crlf),
		cmocka_unit_test(test_unbalanced_and_nested),
		cmocka_unit_test(test_line_col),
		cmocka_unit_test(test_text_is_identity),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_html_hostile),
		cmocka_unit_test(test_markdown_hostile),
		cmocka_unit_test(test_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
