/* markup_builder.c - the view's builder that html.c and markdown.c call down
 * into: runs of plain text mapped to source bytes, structure events, and
 * character references.  A leaf: it calls nothing else in markup/. */
#include <stdlib.h>
#include <string.h>

#include "markup/markup_int.h"

void sw__markup_init(struct sw__markup_builder *b, struct sw_markup *m)
{
	memset(b, 0, sizeof(*b));
	b->m = m;
	b->src = m->src;
	b->src_len = m->src_len;
	sw_buf_init(&b->text);
	/* the plain text is about as long as the source: one allocation, not
	 * a copy at every doubling */
	sw_buf_grow(&b->text, m->src_len + m->src_len / 16 + 64);
}

static struct sw_markup_run *push_run(struct sw__markup_builder *b)
{
	struct sw_markup *m = b->m;
	m->runs = sw_xgrow(m->runs, &b->runs_cap, m->nruns + 1, sizeof(*m->runs));
	struct sw_markup_run *r = &m->runs[m->nruns++];
	memset(r, 0, sizeof(*r));
	return r;
}

void sw__markup_verbatim(struct sw__markup_builder *b, size_t off, size_t n)
{
	struct sw_markup *m = b->m;
	if (!n)
		return;
	/* the separators since the last verbatim byte stand for the source up
	 * to this one */
	for (size_t i = b->pending; i < m->nruns; i++) {
		struct sw_markup_run *r = &m->runs[i];
		if (!r->verbatim && !r->src_len && off > r->src)
			r->src_len = off - r->src;
	}
	struct sw_markup_run *last = m->nruns ? &m->runs[m->nruns - 1] : NULL;
	if (last && last->verbatim && last->src + last->len == off &&
	    last->plain + last->len == b->text.len) {
		last->len += n;
		last->src_len += n;
	} else {
		struct sw_markup_run *r = push_run(b);
		r->plain = b->text.len;
		r->len = r->src_len = n;
		r->src = off;
		r->verbatim = true;
	}
	sw_buf_add(&b->text, b->src + off, n);
	b->src_pos = off + n;
	b->pending = m->nruns;
}

void sw__markup_synth(struct sw__markup_builder *b, const char *s, size_t n, size_t off,
		      size_t src_n)
{
	if (!n)
		return;
	struct sw_markup_run *r = push_run(b);
	r->plain = b->text.len;
	r->len = n;
	r->src = off;
	r->src_len = src_n;
	sw_buf_add(&b->text, s, n);
	if (off + src_n > b->src_pos)
		b->src_pos = off + src_n;
	b->pending = b->m->nruns;
}

void sw__markup_gap(struct sw__markup_builder *b, const char *s, size_t n)
{
	struct sw_markup *m = b->m;
	if (!n)
		return;
	struct sw_markup_run *last = m->nruns ? &m->runs[m->nruns - 1] : NULL;
	if (last && !last->verbatim && m->nruns > b->pending && last->src == b->src_pos &&
	    !last->src_len && last->plain + last->len == b->text.len) {
		last->len += n;
	} else {
		struct sw_markup_run *r = push_run(b);
		r->plain = b->text.len;
		r->len = n;
		r->src = b->src_pos;
	}
	sw_buf_add(&b->text, s, n);
}

void sw__markup_blank(struct sw__markup_builder *b)
{
	size_t n = b->text.len;
	const char *t = b->text.data;
	if (!n)
		return;
	/* drop trailing blanks from the count: indentation of an empty line */
	size_t e = n;
	while (e > 0 && t[e - 1] == ' ')
		e--;
	if (e >= 2 && t[e - 1] == '\n' && t[e - 2] == '\n')
		return;
	sw__markup_gap(b, "\n\n", e > 0 && t[e - 1] == '\n' ? 1 : 2);
}

void sw__markup_cell(struct sw__markup_builder *b)
{
	size_t e = b->text.len;
	const char *t = b->text.data;
	while (e > 0 && t[e - 1] == ' ')
		e--;
	if (e == 0 || t[e - 1] == '\n')
		return;
	if (e < b->text.len)
		return; /* the cell before ended with a space: enough */
	/* after "Inc." too: a name's abbreviation, not a sentence's end */
	bool punct = t[e - 1] == ',' || t[e - 1] == ';' || t[e - 1] == ':';
	sw__markup_gap(b, punct ? " " : ", ", punct ? 1 : 2);
}

void sw__markup_indent(struct sw__markup_builder *b)
{
	if (!b->quote)
		return;
	/* once per line: a quote's paragraph inside a list item is indented
	 * by the first block that starts on the line */
	size_t n = b->text.len, k = n;
	while (k > 0 && n - k < 8 && b->text.data[k - 1] == ' ')
		k--;
	if (n - k >= 4 && (k == 0 || b->text.data[k - 1] == '\n'))
		return;
	sw__markup_gap(b, "    ", 4);
}

void sw__markup_newline(struct sw__markup_builder *b)
{
	sw__markup_gap(b, "\n", 1);
	sw__markup_indent(b);
}

void sw__markup_label_event(struct sw__markup_builder *b, enum sw_markup_tag tag, bool open,
			    size_t label, size_t label_len)
{
	struct sw_markup *m = b->m;
	m->events = sw_xgrow(m->events, &b->events_cap, m->nevents + 1, sizeof(*m->events));
	struct sw_markup_event *e = &m->events[m->nevents++];
	memset(e, 0, sizeof(*e));
	e->at = b->text.len;
	e->tag = (uint8_t)tag;
	e->open = open;
	e->label = label;
	e->label_len = (uint8_t)(label_len > SW_MARKUP_MAX_LABEL ? SW_MARKUP_MAX_LABEL : label_len);
}

void sw__markup_event(struct sw__markup_builder *b, enum sw_markup_tag tag, bool open,
		      unsigned level)
{
	sw__markup_label_event(b, tag, open, 0, 0);
	b->m->events[b->m->nevents - 1].level = (uint8_t)(level > 6 ? 6 : level);
}

void sw__markup_em(struct sw__markup_builder *b, bool open)
{
	struct sw_markup *m = b->m;
	sw__markup_event(b, SW_MARKUP_EM, open, 0);
	if (open) {
		if (b->nem < SW_ARRAY_LEN(b->em_open))
			b->em_open[b->nem] = b->text.len;
		b->nem++;
		return;
	}
	if (!b->nem)
		return;
	b->nem--;
	if (b->nem >= SW_ARRAY_LEN(b->em_open))
		return;
	size_t s = b->em_open[b->nem];
	if (s >= b->text.len)
		return;
	m->emphasis = sw_xgrow(m->emphasis, &b->emph_cap, m->nemphasis + 1,
			       sizeof(*m->emphasis));
	m->emphasis[m->nemphasis].start = s;
	m->emphasis[m->nemphasis].end = b->text.len;
	m->nemphasis++;
}

void sw__markup_finish(struct sw__markup_builder *b)
{
	struct sw_markup *m = b->m;
	for (size_t i = b->pending; i < m->nruns; i++)
		if (!m->runs[i].verbatim && !m->runs[i].src_len && m->src_len > m->runs[i].src)
			m->runs[i].src_len = m->src_len - m->runs[i].src;
	/* emphasis spans in document order (they were closed inner first) */
	for (size_t i = 1; i < m->nemphasis; i++) {
		struct sw_markup_span s = m->emphasis[i];
		size_t j = i;
		while (j > 0 && m->emphasis[j - 1].start > s.start) {
			m->emphasis[j] = m->emphasis[j - 1];
			j--;
		}
		m->emphasis[j] = s;
	}
	sw_buf_addc(&b->text, '\0');
	m->text = sw_buf_detach(&b->text, &m->len);
	m->len--;
}

/* ------------------------------------------------------------ entities */

struct entity {
	const char *name;
	const char *utf8;
};

/* The named entities drafts use; an unknown one stays as written. */
static const struct entity entities[] = {
	{ "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" }, { "apos", "'" },
	{ "nbsp", " " }, { "ensp", " " }, { "emsp", " " }, { "thinsp", " " },
	{ "sect", "\xc2\xa7" }, { "para", "\xc2\xb6" }, { "copy", "\xc2\xa9" },
	{ "reg", "\xc2\xae" }, { "trade", "\xe2\x84\xa2" }, { "deg", "\xc2\xb0" },
	{ "mdash", "\xe2\x80\x94" }, { "ndash", "\xe2\x80\x93" }, { "minus", "\xe2\x88\x92" },
	{ "lsquo", "\xe2\x80\x98" }, { "rsquo", "\xe2\x80\x99" }, { "ldquo", "\xe2\x80\x9c" },
	{ "rdquo", "\xe2\x80\x9d" }, { "sbquo", "\xe2\x80\x9a" }, { "bdquo", "\xe2\x80\x9e" },
	{ "hellip", "\xe2\x80\xa6" }, { "bull", "\xe2\x80\xa2" }, { "middot", "\xc2\xb7" },
	{ "laquo", "\xc2\xab" }, { "raquo", "\xc2\xbb" }, { "dagger", "\xe2\x80\xa0" },
	{ "Dagger", "\xe2\x80\xa1" }, { "shy", "" }, { "zwsp", "" }, { "times", "\xc3\x97" },
	{ "eacute", "\xc3\xa9" }, { "Eacute", "\xc3\x89" }, { "egrave", "\xc3\xa8" },
	{ "aacute", "\xc3\xa1" }, { "agrave", "\xc3\xa0" }, { "ntilde", "\xc3\xb1" },
	{ "ouml", "\xc3\xb6" }, { "uuml", "\xc3\xbc" }, { "auml", "\xc3\xa4" },
	{ "ccedil", "\xc3\xa7" }, { "iacute", "\xc3\xad" }, { "oacute", "\xc3\xb3" },
	{ "uacute", "\xc3\xba" }, { "szlig", "\xc3\x9f" }, { "frac12", "\xc2\xbd" },
	{ "cent", "\xc2\xa2" }, { "pound", "\xc2\xa3" }, { "euro", "\xe2\x82\xac" },
	{ "yen", "\xc2\xa5" },
};

static size_t utf8_put(char out[4], unsigned long cp)
{
	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp == 0xA0)
		cp = ' ';
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t sw__markup_entity(char out[4], const char *s, size_t n)
{
	memset(out, 0, 4); /* callers take the decoded width with strnlen */
	if (n < 3 || s[0] != '&')
		return 0;
	size_t e = 1;
	while (e < n && e < 12 && s[e] != ';')
		e++;
	if (e >= n || s[e] != ';')
		return 0;
	const char *name = s + 1;
	size_t nn = e - 1;
	if (nn >= 2 && name[0] == '#') {
		bool hex = name[1] == 'x' || name[1] == 'X';
		unsigned long cp = 0;
		size_t k = hex ? 2 : 1;
		if (k >= nn)
			return 0;
		for (; k < nn; k++) {
			int c = (unsigned char)name[k], d;
			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (hex && c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (hex && c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return 0;
			cp = cp * (hex ? 16 : 10) + (unsigned long)d;
			if (cp > 0x10FFFF)
				cp = 0x110000; /* stays out of range: U+FFFD */
		}
		return utf8_put(out, cp) ? e + 1 : 0;
	}
	for (size_t i = 0; i < SW_ARRAY_LEN(entities); i++) {
		if (strlen(entities[i].name) == nn && !memcmp(entities[i].name, name, nn)) {
			size_t l = strlen(entities[i].utf8);
			memcpy(out, entities[i].utf8, l);
			memset(out + l, 0, 4 - l);
			return e + 1;
		}
	}
	return 0;
}
