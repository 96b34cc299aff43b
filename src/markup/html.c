/* html.c - an HTML draft as plain text: tags dropped, entities decoded,
 * white space collapsed, the structure kept as events. */
#include <string.h>

#include "markup/markup_int.h"

enum el_kind { EL_NONE, EL_EVENT, EL_BLOCK, EL_RAW, EL_VOID };

struct element {
	const char *name;
	enum el_kind kind;
	enum sw_markup_tag tag;   /* EL_EVENT, EL_VOID */
	bool block;               /* a separator before and after */
};

static const struct element elements[] = {
	{ "p", EL_EVENT, SW_MARKUP_P, true },
	{ "h1", EL_EVENT, SW_MARKUP_HEADING, true }, { "h2", EL_EVENT, SW_MARKUP_HEADING, true },
	{ "h3", EL_EVENT, SW_MARKUP_HEADING, true }, { "h4", EL_EVENT, SW_MARKUP_HEADING, true },
	{ "h5", EL_EVENT, SW_MARKUP_HEADING, true }, { "h6", EL_EVENT, SW_MARKUP_HEADING, true },
	{ "ul", EL_EVENT, SW_MARKUP_UL, true }, { "ol", EL_EVENT, SW_MARKUP_OL, true },
	{ "li", EL_EVENT, SW_MARKUP_LI, true },
	{ "blockquote", EL_EVENT, SW_MARKUP_QUOTE, true },
	{ "pre", EL_EVENT, SW_MARKUP_CODEBLOCK, true },
	{ "table", EL_EVENT, SW_MARKUP_TABLE, true }, { "tr", EL_EVENT, SW_MARKUP_TR, false },
	{ "th", EL_EVENT, SW_MARKUP_TH, true }, { "td", EL_EVENT, SW_MARKUP_TD, true },
	{ "em", EL_EVENT, SW_MARKUP_EM, false }, { "i", EL_EVENT, SW_MARKUP_EM, false },
	{ "cite", EL_EVENT, SW_MARKUP_EM, false }, { "u", EL_EVENT, SW_MARKUP_EM, false },
	{ "dfn", EL_EVENT, SW_MARKUP_EM, false }, { "var", EL_EVENT, SW_MARKUP_EM, false },
	{ "strong", EL_EVENT, SW_MARKUP_STRONG, false }, { "b", EL_EVENT, SW_MARKUP_STRONG, false },
	{ "del", EL_EVENT, SW_MARKUP_DEL, false }, { "s", EL_EVENT, SW_MARKUP_DEL, false },
	{ "strike", EL_EVENT, SW_MARKUP_DEL, false },
	{ "code", EL_EVENT, SW_MARKUP_CODE, false }, { "tt", EL_EVENT, SW_MARKUP_CODE, false },
	{ "kbd", EL_EVENT, SW_MARKUP_CODE, false }, { "samp", EL_EVENT, SW_MARKUP_CODE, false },
	{ "a", EL_EVENT, SW_MARKUP_LINK, false },
	{ "br", EL_VOID, SW_MARKUP_BR, false }, { "hr", EL_VOID, SW_MARKUP_HR, true },
	{ "script", EL_RAW, SW_MARKUP_P, true }, { "style", EL_RAW, SW_MARKUP_P, true },
	{ "title", EL_RAW, SW_MARKUP_P, true }, { "template", EL_RAW, SW_MARKUP_P, true },
	{ "textarea", EL_RAW, SW_MARKUP_P, true }, { "noscript", EL_RAW, SW_MARKUP_P, true },
	{ "div", EL_BLOCK, SW_MARKUP_P, true }, { "section", EL_BLOCK, SW_MARKUP_P, true },
	{ "article", EL_BLOCK, SW_MARKUP_P, true }, { "header", EL_BLOCK, SW_MARKUP_P, true },
	{ "footer", EL_BLOCK, SW_MARKUP_P, true }, { "main", EL_BLOCK, SW_MARKUP_P, true },
	{ "nav", EL_BLOCK, SW_MARKUP_P, true }, { "aside", EL_BLOCK, SW_MARKUP_P, true },
	{ "body", EL_BLOCK, SW_MARKUP_P, true }, { "html", EL_BLOCK, SW_MARKUP_P, true },
	{ "head", EL_BLOCK, SW_MARKUP_P, true }, { "figure", EL_BLOCK, SW_MARKUP_P, true },
	{ "figcaption", EL_BLOCK, SW_MARKUP_P, true }, { "caption", EL_BLOCK, SW_MARKUP_P, true },
	{ "dl", EL_BLOCK, SW_MARKUP_P, true }, { "dt", EL_BLOCK, SW_MARKUP_P, true },
	{ "dd", EL_BLOCK, SW_MARKUP_P, true }, { "address", EL_BLOCK, SW_MARKUP_P, true },
	{ "center", EL_BLOCK, SW_MARKUP_P, true }, { "form", EL_BLOCK, SW_MARKUP_P, true },
	{ "tbody", EL_BLOCK, SW_MARKUP_P, false }, { "thead", EL_BLOCK, SW_MARKUP_P, false },
	{ "tfoot", EL_BLOCK, SW_MARKUP_P, false },
};

struct open_el {
	enum sw_markup_tag tag;
	unsigned level;
};

struct html {
	struct sw__markup_builder *b;
	const char *s;
	size_t n;
	struct open_el stack[SW_MARKUP_MAX_DEPTH];
	size_t depth;
	size_t pre;
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static bool alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static const struct element *find(const char *name, size_t n)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(elements); i++) {
		const char *e = elements[i].name;
		size_t k = 0;
		while (k < n && e[k] && e[k] == lower((unsigned char)name[k]))
			k++;
		if (k == n && !e[k])
			return &elements[i];
	}
	return NULL;
}

static bool is_block_tag(enum sw_markup_tag t)
{
	return t != SW_MARKUP_EM && t != SW_MARKUP_STRONG && t != SW_MARKUP_DEL &&
	       t != SW_MARKUP_CODE && t != SW_MARKUP_LINK;
}

/* Blocks with a blank line before and after; a row's cells are joined
 * (sw__markup_cell). */
static bool separated(enum sw_markup_tag t)
{
	return is_block_tag(t) && t != SW_MARKUP_TD && t != SW_MARKUP_TH;
}

static void emit_close(struct html *h, enum sw_markup_tag t, unsigned level)
{
	struct sw__markup_builder *b = h->b;
	if (t == SW_MARKUP_EM) {
		sw__markup_em(b, false);
		return;
	}
	if (t == SW_MARKUP_QUOTE && b->quote)
		b->quote--;
	if (t == SW_MARKUP_CODEBLOCK && h->pre) {
		h->pre--;
		if (b->quote)
			b->quote--;
	}
	sw__markup_event(b, t, false, level);
	if (separated(t))
		sw__markup_blank(b);
}

/* Close the open elements down to and including index i. */
static void close_to(struct html *h, size_t i)
{
	while (h->depth > i) {
		h->depth--;
		emit_close(h, h->stack[h->depth].tag, h->stack[h->depth].level);
	}
}

/* The topmost open t above any of the stoppers, or SIZE_MAX. */
static size_t open_index(const struct html *h, enum sw_markup_tag t, const enum sw_markup_tag *stop,
			 size_t nstop)
{
	for (size_t i = h->depth; i-- > 0;) {
		if (h->stack[i].tag == t)
			return i;
		for (size_t k = 0; k < nstop; k++)
			if (h->stack[i].tag == stop[k])
				return SIZE_MAX;
	}
	return SIZE_MAX;
}

/* What an opening tag ends by implication: a paragraph ends at any block,
 * a list item at the next, a cell at the next cell, a row at the next. */
static void implied_close(struct html *h, enum sw_markup_tag t)
{
	static const enum sw_markup_tag cell_stop[] = { SW_MARKUP_TABLE, SW_MARKUP_QUOTE };
	static const enum sw_markup_tag li_stop[] = { SW_MARKUP_UL, SW_MARKUP_OL };
	static const enum sw_markup_tag p_stop[] = { SW_MARKUP_LI, SW_MARKUP_TD, SW_MARKUP_TH,
						     SW_MARKUP_QUOTE, SW_MARKUP_TABLE };
	size_t i = SIZE_MAX;
	if (is_block_tag(t))
		i = open_index(h, SW_MARKUP_P, p_stop, SW_ARRAY_LEN(p_stop));
	if (i == SIZE_MAX && t == SW_MARKUP_LI)
		i = open_index(h, SW_MARKUP_LI, li_stop, SW_ARRAY_LEN(li_stop));
	if (i == SIZE_MAX && (t == SW_MARKUP_TD || t == SW_MARKUP_TH)) {
		size_t a = open_index(h, SW_MARKUP_TD, cell_stop, 2);
		size_t c = open_index(h, SW_MARKUP_TH, cell_stop, 2);
		i = a == SIZE_MAX ? c : c == SIZE_MAX ? a : (a < c ? a : c);
	}
	if (i == SIZE_MAX && t == SW_MARKUP_TR)
		i = open_index(h, SW_MARKUP_TR, cell_stop, 1);
	if (i != SIZE_MAX)
		close_to(h, i);
}

static void open_tag(struct html *h, const struct element *el, unsigned level)
{
	struct sw__markup_builder *b = h->b;
	enum sw_markup_tag t = el->tag;
	implied_close(h, t);
	if (el->kind == EL_VOID) {
		if (t == SW_MARKUP_BR) {
			sw__markup_event(b, t, true, 0);
			sw__markup_newline(b);
		} else {
			sw__markup_blank(b);
			sw__markup_event(b, t, true, 0);
		}
		return;
	}
	if (h->depth >= SW_MARKUP_MAX_DEPTH)
		return; /* past the bound: its text is read, its structure is not */
	if (separated(t))
		sw__markup_blank(b);
	else if (t == SW_MARKUP_TD || t == SW_MARKUP_TH)
		sw__markup_cell(b);
	if (t == SW_MARKUP_EM)
		sw__markup_em(b, true);
	else
		sw__markup_event(b, t, true, level);
	if (t == SW_MARKUP_QUOTE)
		b->quote++;
	if (t == SW_MARKUP_CODEBLOCK) {
		h->pre++;
		b->quote++;
	}
	if (separated(t))
		sw__markup_indent(b);
	h->stack[h->depth].tag = t;
	h->stack[h->depth++].level = level;
}

static void close_tag(struct html *h, const struct element *el)
{
	static const enum sw_markup_tag none[] = { SW_MARKUP_P };
	size_t i = open_index(h, el->tag, none, 0);
	if (i != SIZE_MAX)
		close_to(h, i);
}

/* Past the end of "</name ...>" from i, or n when there is none. */
static size_t raw_end(const struct html *h, size_t i, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = h->s + i; (p = memchr(p, '<', (size_t)(h->s + h->n - p))) != NULL; p++) {
		size_t k = (size_t)(p - h->s);
		if (k + 2 + nl > h->n || p[1] != '/')
			continue;
		size_t j = 0;
		while (j < nl && lower((unsigned char)p[2 + j]) == name[j])
			j++;
		if (j < nl || (k + 2 + nl < h->n && alpha((unsigned char)p[2 + nl])))
			continue;
		const char *gt = memchr(p, '>', (size_t)(h->s + h->n - p));
		return gt ? (size_t)(gt - h->s) + 1 : h->n;
	}
	return h->n;
}

/* A tag at i (s[i] == '<'): handled, and the offset after it; 0 when the
 * '<' is text. */
static size_t tag(struct html *h, size_t i)
{
	const char *s = h->s;
	size_t n = h->n;
	if (i + 3 < n && !memcmp(s + i, "<!--", 4)) {
		for (size_t k = i + 4; k + 2 < n; k++)
			if (s[k] == '-' && s[k + 1] == '-' && s[k + 2] == '>')
				return k + 3;
		return n;
	}
	if (i + 1 < n && (s[i + 1] == '!' || s[i + 1] == '?')) {
		const char *gt = memchr(s + i, '>', n - i);
		return gt ? (size_t)(gt - s) + 1 : n;
	}
	size_t k = i + 1;
	bool closing = k < n && s[k] == '/';
	if (closing)
		k++;
	size_t name = k;
	while (k < n && (alpha((unsigned char)s[k]) || (k > name && s[k] >= '0' && s[k] <= '9')))
		k++;
	if (k == name || (k < n && !space((unsigned char)s[k]) && s[k] != '>' && s[k] != '/'))
		return 0;
	size_t name_len = k - name;
	/* to the '>' outside quotes */
	char q = 0;
	for (; k < n; k++) {
		if (q) {
			if (s[k] == q)
				q = 0;
		} else if (s[k] == '"' || s[k] == '\'') {
			q = s[k];
		} else if (s[k] == '>') {
			break;
		}
	}
	if (k >= n)
		return 0; /* no end: the rest is text */
	size_t after = k + 1;
	const struct element *el = find(s + name, name_len);
	if (!el)
		return after;
	if (el->kind == EL_RAW) {
		if (closing)
			return after;
		sw__markup_blank(h->b);
		return raw_end(h, after, el->name);
	}
	if (el->kind == EL_BLOCK) {
		implied_close(h, SW_MARKUP_P);
		sw__markup_blank(h->b);
		sw__markup_indent(h->b);
		return after;
	}
	unsigned level = el->tag == SW_MARKUP_HEADING ? (unsigned)(el->name[1] - '0') : 0;
	if (closing)
		close_tag(h, el);
	else
		open_tag(h, el, level);
	return after;
}

static void text_run(struct html *h, size_t off, size_t n)
{
	struct sw__markup_builder *b = h->b;
	if (!h->pre) {
		sw__markup_verbatim(b, off, n);
		return;
	}
	size_t end = off + n;
	while (off < end) {
		const char *nl = memchr(h->s + off, '\n', end - off);
		size_t e = nl ? (size_t)(nl - h->s) + 1 : end;
		sw__markup_verbatim(b, off, e - off);
		if (nl && e < end)
			sw__markup_indent(b);
		off = e;
	}
}

int sw__markup_html(struct sw__markup_builder *b, struct sw_err *err)
{
	(void)err;
	struct html h = { .b = b, .s = b->src, .n = b->src_len };
	const char *s = h.s;
	size_t n = h.n, i = 0;
	if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c == '<') {
			size_t e = tag(&h, i);
			if (e) {
				i = e;
				continue;
			}
			sw__markup_verbatim(b, i, 1);
			i++;
			continue;
		}
		if (c == '&') {
			char out[4];
			size_t l = sw__markup_entity(out, s + i, n - i);
			if (l)
				sw__markup_synth(b, out, strnlen(out, 4), i, l);
			else
				sw__markup_verbatim(b, i, 1);
			i += l ? l : 1;
			continue;
		}
		if (space(c) && !h.pre) {
			size_t e = i;
			while (e < n && space((unsigned char)s[e]))
				e++;
			size_t t = b->text.len;
			bool at_start = !t || b->text.data[t - 1] == ' ' || b->text.data[t - 1] == '\n';
			if (!at_start) {
				if (e - i == 1 && c == ' ')
					sw__markup_verbatim(b, i, 1);
				else
					sw__markup_synth(b, " ", 1, i, e - i);
			}
			i = e;
			continue;
		}
		size_t e = i + 1;
		while (e < n && s[e] != '<' && s[e] != '&' && (h.pre || !space((unsigned char)s[e])))
			e++;
		text_run(&h, i, e - i);
		i = e;
	}
	close_to(&h, 0);
	return 0;
}
