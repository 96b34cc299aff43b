/* markdown.c - Markdown through md4c, and the footnotes md4c does not
 * know: definitions are cut out of the document and parsed as blocks of
 * their own where they stand; markers become one space. */
#include <stdlib.h>
#include <string.h>

#include <md4c.h>

#include "markup/markup_int.h"

/* CommonMark with GitHub's tables and strikethrough.  Not the permissive
 * autolinks: "www.x" or "a@b" would turn a run of text into a link.  No
 * HTML blocks: a block that opens with a tag is read as a paragraph whose
 * tags are dropped, so that its text is scanned. */
#define MK_FLAGS (MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_NOHTMLBLOCKS)

struct marker {
	size_t start, end;   /* "[^1]" in the source */
	size_t label, label_len;
};

struct md_state {
	struct sw__markup_builder *b;
	struct marker *markers;
	size_t nmarkers, markers_cap;
	size_t next_marker;  /* the first marker not yet emitted */
	size_t code_block;   /* inside a code block */
	size_t html_em;      /* <em>/<i> tags open in the current block */
	bool code_line_start;
};

static bool label_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* The label's end when s[i] starts "[^label]", else 0. */
static size_t footnote_at(const char *s, size_t n, size_t i)
{
	if (i + 3 >= n || s[i] != '[' || s[i + 1] != '^')
		return 0;
	size_t e = i + 2;
	while (e < n && e - (i + 2) < SW_MARKUP_MAX_LABEL && label_char((unsigned char)s[e]))
		e++;
	if (e == i + 2 || e >= n || s[e] != ']')
		return 0;
	return e;
}

static void find_markers(struct md_state *st, const char *s, size_t n)
{
	for (const char *p = s; (p = memchr(p, '[', (size_t)(s + n - p))) != NULL; p++) {
		size_t i = (size_t)(p - s), e = footnote_at(s, n, i);
		if (!e)
			continue;
		st->markers = sw_xgrow(st->markers, &st->markers_cap, st->nmarkers + 1,
				       sizeof(*st->markers));
		st->markers[st->nmarkers++] = (struct marker){ i, e + 1, i + 2, e - (i + 2) };
		p = s + e;
	}
}

static void block_start(struct sw__markup_builder *b)
{
	sw__markup_blank(b);
	sw__markup_indent(b);
}

static int enter_block(MD_BLOCKTYPE type, void *detail, void *ud)
{
	struct md_state *st = ud;
	struct sw__markup_builder *b = st->b;
	switch (type) {
	case MD_BLOCK_DOC:
		break;
	case MD_BLOCK_QUOTE:
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_QUOTE, true, 0);
		b->quote++;
		break;
	case MD_BLOCK_UL:
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_UL, true, 0);
		break;
	case MD_BLOCK_OL:
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_OL, true, 0);
		break;
	case MD_BLOCK_LI:
		sw__markup_event(b, SW_MARKUP_LI, true, 0);
		block_start(b);
		break;
	case MD_BLOCK_HR:
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_HR, true, 0);
		break;
	case MD_BLOCK_H:
		block_start(b);
		sw__markup_event(b, SW_MARKUP_HEADING, true, ((MD_BLOCK_H_DETAIL *)detail)->level);
		break;
	case MD_BLOCK_CODE:
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_CODEBLOCK, true, 0);
		b->quote++;
		st->code_block++;
		st->code_line_start = true;
		break;
	case MD_BLOCK_HTML:
		sw__markup_blank(b);
		break;
	case MD_BLOCK_P:
		block_start(b);
		sw__markup_event(b, SW_MARKUP_P, true, 0);
		break;
	case MD_BLOCK_TABLE:
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_TABLE, true, 0);
		break;
	case MD_BLOCK_TR:
		block_start(b);
		sw__markup_event(b, SW_MARKUP_TR, true, 0);
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		sw__markup_cell(b);
		sw__markup_event(b, type == MD_BLOCK_TH ? SW_MARKUP_TH : SW_MARKUP_TD, true, 0);
		break;
	case MD_BLOCK_THEAD:
	case MD_BLOCK_TBODY:
		break;
	}
	return 0;
}

static int leave_block(MD_BLOCKTYPE type, void *detail, void *ud)
{
	struct md_state *st = ud;
	struct sw__markup_builder *b = st->b;
	for (; st->html_em; st->html_em--)
		sw__markup_em(b, false); /* an inline <em> left open ends with its block */
	switch (type) {
	case MD_BLOCK_QUOTE:
		if (b->quote)
			b->quote--;
		sw__markup_blank(b);
		sw__markup_event(b, SW_MARKUP_QUOTE, false, 0);
		break;
	case MD_BLOCK_UL:
	case MD_BLOCK_OL:
		sw__markup_event(b, type == MD_BLOCK_UL ? SW_MARKUP_UL : SW_MARKUP_OL, false, 0);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_LI:
		sw__markup_event(b, SW_MARKUP_LI, false, 0);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_H:
		sw__markup_event(b, SW_MARKUP_HEADING, false, ((MD_BLOCK_H_DETAIL *)detail)->level);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_CODE:
		if (b->quote)
			b->quote--;
		if (st->code_block)
			st->code_block--;
		sw__markup_event(b, SW_MARKUP_CODEBLOCK, false, 0);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_P:
		sw__markup_event(b, SW_MARKUP_P, false, 0);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_TABLE:
		sw__markup_event(b, SW_MARKUP_TABLE, false, 0);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_TR:
		sw__markup_event(b, SW_MARKUP_TR, false, 0);
		sw__markup_blank(b);
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		sw__markup_event(b, type == MD_BLOCK_TH ? SW_MARKUP_TH : SW_MARKUP_TD, false, 0);
		break;
	default:
		sw__markup_blank(b);
		break;
	}
	return 0;
}

static enum sw_markup_tag span_tag(MD_SPANTYPE type, bool *known)
{
	*known = true;
	switch (type) {
	case MD_SPAN_STRONG: return SW_MARKUP_STRONG;
	case MD_SPAN_DEL: return SW_MARKUP_DEL;
	case MD_SPAN_CODE: return SW_MARKUP_CODE;
	case MD_SPAN_A: return SW_MARKUP_LINK;
	default: break;
	}
	*known = false;
	return SW_MARKUP_P;
}

static int span(MD_SPANTYPE type, void *ud, bool open)
{
	struct md_state *st = ud;
	if (type == MD_SPAN_EM) {
		sw__markup_em(st->b, open);
		return 0;
	}
	bool known;
	enum sw_markup_tag tag = span_tag(type, &known);
	if (known)
		sw__markup_event(st->b, tag, open, 0);
	return 0;
}

static int enter_span(MD_SPANTYPE type, void *detail, void *ud)
{
	(void)detail;
	return span(type, ud, true);
}

static int leave_span(MD_SPANTYPE type, void *detail, void *ud)
{
	(void)detail;
	return span(type, ud, false);
}

/* Where md4c's text lies in the source, or false when it is not there. */
static bool source_off(const struct sw__markup_builder *b, const char *s, size_t n, size_t *off)
{
	if (s < b->src || s > b->src + b->src_len || n > b->src_len - (size_t)(s - b->src))
		return false;
	*off = (size_t)(s - b->src);
	return true;
}

/* Normal text, with the footnote markers in it replaced. */
static void normal_text(struct md_state *st, size_t off, size_t n)
{
	struct sw__markup_builder *b = st->b;
	size_t end = off + n;
	/* the first marker that ends after off */
	size_t lo = st->next_marker, hi = st->nmarkers;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->markers[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; off < end; k++) {
		if (k >= st->nmarkers || st->markers[k].start >= end) {
			sw__markup_verbatim(b, off, end - off);
			break;
		}
		const struct marker *mk = &st->markers[k];
		if (mk->start > off)
			sw__markup_verbatim(b, off, mk->start - off);
		if (mk->start >= off) {
			sw__markup_label_event(b, SW_MARKUP_FNREF, true, mk->label, mk->label_len);
			sw__markup_synth(b, " ", 1, mk->start, mk->end - mk->start);
			st->next_marker = k + 1;
		}
		off = mk->end < end ? mk->end : end;
	}
}

static void code_text(struct md_state *st, size_t off, size_t n)
{
	struct sw__markup_builder *b = st->b;
	if (!st->code_block) {
		sw__markup_verbatim(b, off, n);
		return;
	}
	size_t end = off + n;
	while (off < end) {
		if (st->code_line_start) {
			sw__markup_indent(b);
			st->code_line_start = false;
		}
		const char *nl = memchr(b->src + off, '\n', end - off);
		size_t e = nl ? (size_t)(nl - b->src) + 1 : end;
		sw__markup_verbatim(b, off, e - off);
		if (nl)
			st->code_line_start = true;
		off = e;
	}
}

/* Inline HTML in Markdown: <em> and <i> are emphasis like *...*; every
 * other tag is dropped. */
static void html_tag(struct md_state *st, const char *s, size_t n)
{
	static const char *const tags[] = { "<em>", "<i>", "</em>", "</i>" };
	for (size_t i = 0; i < SW_ARRAY_LEN(tags); i++) {
		size_t l = strlen(tags[i]);
		if (n != l)
			continue;
		size_t k = 0;
		while (k < l && (s[k] | 0x20) == tags[i][k])
			k++;
		if (k < l)
			continue;
		if (i < 2) {
			sw__markup_em(st->b, true);
			st->html_em++;
		} else if (st->html_em) {
			sw__markup_em(st->b, false);
			st->html_em--;
		}
		return;
	}
}

static int text(MD_TEXTTYPE type, const MD_CHAR *s, MD_SIZE size, void *ud)
{
	struct md_state *st = ud;
	struct sw__markup_builder *b = st->b;
	size_t off = 0, n = size;
	bool in_src = source_off(b, s, n, &off);
	switch (type) {
	case MD_TEXT_NORMAL:
	case MD_TEXT_CODE:
		if (in_src && type == MD_TEXT_NORMAL) {
			normal_text(st, off, n);
		} else if (in_src) {
			code_text(st, off, n);
		} else {
			/* md4c's own bytes: a code block's line ends */
			if (st->code_block && st->code_line_start && n) {
				sw__markup_indent(b);
				st->code_line_start = false;
			}
			sw__markup_gap(b, s, n);
			if (st->code_block && n && s[n - 1] == '\n')
				st->code_line_start = true;
		}
		break;
	case MD_TEXT_NULLCHAR:
		sw__markup_gap(b, "\xef\xbf\xbd", 3);
		break;
	case MD_TEXT_BR:
		sw__markup_event(b, SW_MARKUP_BR, true, 0);
		sw__markup_newline(b);
		break;
	case MD_TEXT_SOFTBR:
		sw__markup_newline(b);
		break;
	case MD_TEXT_ENTITY: {
		char out[4];
		size_t l = sw__markup_entity(out, s, n);
		size_t w = l ? strnlen(out, 4) : 0;
		if (!l && in_src)
			sw__markup_verbatim(b, off, n);
		else if (!l)
			sw__markup_gap(b, s, n);
		else if (in_src)
			sw__markup_synth(b, out, w, off, n);
		else
			sw__markup_gap(b, out, w);
		break;
	}
	case MD_TEXT_HTML:
		html_tag(st, s, n);
		break;
	case MD_TEXT_LATEXMATH:
		break;
	}
	return 0;
}

static int parse(struct md_state *st, size_t start, size_t end, unsigned flags,
		 struct sw_err *err)
{
	MD_PARSER p = {
		.abi_version = 0,
		.flags = flags,
		.enter_block = enter_block,
		.leave_block = leave_block,
		.enter_span = enter_span,
		.leave_span = leave_span,
		.text = text,
	};
	if (end <= start)
		return 0;
	st->b->quote = 0;
	st->b->nem = 0;
	st->code_block = 0;
	st->html_em = 0;
	if (md_parse(st->b->src + start, (MD_SIZE)(end - start), &p, st) != 0)
		return sw_err_set(err, SW_EINPUT, "cannot read the draft as Markdown");
	return 0;
}

static size_t line_end(const char *s, size_t n, size_t i)
{
	const char *nl = memchr(s + i, '\n', n - i);
	return nl ? (size_t)(nl - s) + 1 : n;
}

static bool blank_line(const char *s, size_t i, size_t e)
{
	for (; i < e; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

static size_t indent_of(const char *s, size_t i, size_t e)
{
	size_t k = i;
	while (k < e && s[k] == ' ')
		k++;
	return k < e && s[k] == '\t' ? 4 : k - i;
}

static bool fence_line(const char *s, size_t i, size_t e)
{
	size_t k = i;
	while (k < e && k - i < 3 && s[k] == ' ')
		k++;
	return e - k >= 3 && (!memcmp(s + k, "```", 3) || !memcmp(s + k, "~~~", 3));
}

/* A definition's label end when the line at i opens "[^label]:". */
static size_t definition_at(const char *s, size_t n, size_t i)
{
	size_t k = i;
	while (k < n && k - i < 3 && s[k] == ' ')
		k++;
	size_t e = footnote_at(s, n, k);
	return e && e + 1 < n && s[e + 1] == ':' ? e : 0;
}

int sw__markup_markdown(struct sw__markup_builder *b, struct sw_err *err)
{
	struct md_state st = { .b = b };
	const char *s = b->src;
	size_t n = b->src_len, body = 0, i = 0;
	int rc = 0;
	bool fence = false;
	if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		body = i = 3;
	find_markers(&st, s, n);
	while (i < n && rc == 0) {
		size_t e = line_end(s, n, i), le;
		if (fence_line(s, i, e))
			fence = !fence;
		if (fence || !(le = definition_at(s, n, i))) {
			i = e;
			continue;
		}
		/* the body before it, then the definition: its first line, lazy
		 * lines after it, and indented paragraphs after blank lines */
		rc = parse(&st, body, i, MK_FLAGS, err);
		size_t k = i;
		while (k < n && s[k] == ' ')
			k++;
		size_t lab = k + 2, lab_len = le - lab, content = le + 2, end = e;
		while (end < n) {
			size_t ne = line_end(s, n, end);
			if (blank_line(s, end, ne)) {
				size_t nx = ne;
				while (nx < n && blank_line(s, nx, line_end(s, n, nx)))
					nx = line_end(s, n, nx);
				if (nx >= n || indent_of(s, nx, line_end(s, n, nx)) < 4)
					break;
				end = nx;
				continue;
			}
			if (definition_at(s, n, end) || fence_line(s, end, ne))
				break;
			end = ne;
		}
		sw__markup_blank(b);
		sw__markup_label_event(b, SW_MARKUP_FOOTNOTE, true, lab, lab_len);
		if (rc == 0)
			rc = parse(&st, content, end, MK_FLAGS | MD_FLAG_NOINDENTEDCODEBLOCKS, err);
		sw__markup_blank(b);
		sw__markup_label_event(b, SW_MARKUP_FOOTNOTE, false, lab, lab_len);
		body = i = end;
	}
	if (rc == 0)
		rc = parse(&st, body, n, MK_FLAGS, err);
	free(st.markers);
	return rc;
}
