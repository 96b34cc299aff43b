/* markup.c - the view's builder, its map back to the source, lines and
 * columns, and which kind a draft is. */
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

void sw__markup_synth(struct sw__markup_builder *b, const char *s, size_t n, size_t off, size_t src_n)
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

void sw__markup_label_event(struct sw__markup_builder *b, enum sw_markup_tag tag, bool open, size_t label,
			size_t label_len)
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

void sw__markup_event(struct sw__markup_builder *b, enum sw_markup_tag tag, bool open, unsigned level)
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

/* ------------------------------------------------------------- the view */

static void index_lines(struct sw_markup *m)
{
	size_t cap = 0;
	m->lines = sw_xgrow(NULL, &cap, 1, sizeof(*m->lines));
	m->lines[0] = 0;
	m->nlines = 1;
	for (const char *p = m->src, *end = m->src + m->src_len;
	     (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		m->lines = sw_xgrow(m->lines, &cap, m->nlines + 1, sizeof(*m->lines));
		m->lines[m->nlines++] = (size_t)(p - m->src) + 1;
	}
}

int sw_markup_parse(struct sw_markup *out, enum sw_markup_kind kind, const char *src,
		    size_t len, struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	if (len > SW_MARKUP_MAX_SOURCE)
		return sw_err_set(err, SW_ELIMIT, "the draft is over the %zu-byte limit",
				  SW_MARKUP_MAX_SOURCE);
	out->src = sw_xmalloc(len + 1);
	if (len)
		memcpy(out->src, src, len);
	out->src[len] = '\0';
	out->src_len = len;
	index_lines(out);
	if (kind == SW_MARKUP_TEXT) {
		out->text = out->src;
		out->len = len;
		if (len) {
			out->runs = sw_xcalloc(1, sizeof(*out->runs));
			out->runs[0] = (struct sw_markup_run){ 0, len, 0, len, true };
			out->nruns = 1;
		}
		return 0;
	}
	struct sw__markup_builder b;
	sw__markup_init(&b, out);
	int rc = kind == SW_MARKUP_MARKDOWN ? sw__markup_markdown(&b, err) : sw__markup_html(&b, err);
	sw__markup_finish(&b);
	return rc;
}

void sw_markup_release(struct sw_markup *m)
{
	if (!m)
		return;
	if (m->text != m->src)
		free(m->text);
	free(m->src);
	free(m->runs);
	free(m->events);
	free(m->emphasis);
	free(m->lines);
	memset(m, 0, sizeof(*m));
}

/* The run that holds plain byte p (p < len), in runs [lo, hi). */
static size_t run_search(const struct sw_markup *m, size_t lo, size_t hi, size_t p)
{
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->runs[mid].plain <= p)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The same from the run *hint (a few steps forward, else a search), which
 * then holds the run found. */
static const struct sw_markup_run *run_near(const struct sw_markup *m, size_t *hint, size_t p)
{
	if (!m->nruns)
		return NULL;
	size_t r = *hint < m->nruns ? *hint : 0;
	if (m->runs[r].plain > p) {
		r = run_search(m, 0, r, p);
	} else {
		for (int k = 0; k < 4 && r + 1 < m->nruns && m->runs[r + 1].plain <= p; k++)
			r++;
		if (r + 1 < m->nruns && m->runs[r + 1].plain <= p)
			r = run_search(m, r, m->nruns, p);
	}
	*hint = r;
	return &m->runs[r];
}

size_t sw_markup_src_at(const struct sw_markup *m, size_t *hint, size_t plain)
{
	if (plain >= m->len)
		return m->src_len;
	const struct sw_markup_run *r = run_near(m, hint, plain);
	if (!r)
		return 0;
	if (r->verbatim)
		return r->src + (plain - r->plain);
	return r->src;
}

size_t sw_markup_src_end_at(const struct sw_markup *m, size_t *hint, size_t end)
{
	if (end == 0)
		return sw_markup_src_at(m, hint, 0);
	if (end > m->len)
		end = m->len;
	const struct sw_markup_run *r = run_near(m, hint, end - 1);
	if (!r)
		return 0;
	if (r->verbatim)
		return r->src + (end - r->plain);
	return r->src + r->src_len;
}

size_t sw_markup_src(const struct sw_markup *m, size_t plain)
{
	size_t hint = 0;
	return sw_markup_src_at(m, &hint, plain);
}

size_t sw_markup_src_end(const struct sw_markup *m, size_t end)
{
	size_t hint = 0;
	return sw_markup_src_end_at(m, &hint, end);
}

void sw_markup_line_col(const struct sw_markup *m, struct sw_markup_cursor *cur, size_t src,
			size_t *line, size_t *col)
{
	if (src > m->src_len)
		src = m->src_len;
	size_t lo = 0, hi = m->nlines;
	if (cur && cur->line >= 1 && cur->line <= m->nlines && m->lines[cur->line - 1] <= src) {
		/* asked in order: the cursor's line or one of the next two */
		size_t l = cur->line - 1;
		for (int k = 0; k < 3 && l + 1 < m->nlines && m->lines[l + 1] <= src; k++)
			l++;
		if (l + 1 >= m->nlines || m->lines[l + 1] > src)
			lo = hi = l;
		else
			lo = l;
	}
	while (hi > lo && hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->lines[mid] <= src)
			lo = mid;
		else
			hi = mid;
	}
	size_t from = m->nlines ? m->lines[lo] : 0, c = 1;
	if (cur && cur->line == lo + 1 && cur->src >= from && cur->src <= src) {
		from = cur->src;
		c = cur->col;
	}
	for (size_t i = from; i < src; i++)
		c += ((unsigned char)m->src[i] & 0xC0) != 0x80;
	*line = lo + 1;
	*col = c;
	if (cur)
		*cur = (struct sw_markup_cursor){ src, lo + 1, c };
}

/* ---------------------------------------------------------------- kinds */

const char *sw_markup_kind_name(enum sw_markup_kind kind)
{
	switch (kind) {
	case SW_MARKUP_TEXT: return "text";
	case SW_MARKUP_MARKDOWN: return "markdown";
	case SW_MARKUP_HTML: return "html";
	}
	return "text";
}

bool sw_markup_kind_parse(enum sw_markup_kind *out, const char *name)
{
	if (!strcmp(name, "text"))
		*out = SW_MARKUP_TEXT;
	else if (!strcmp(name, "markdown") || !strcmp(name, "md"))
		*out = SW_MARKUP_MARKDOWN;
	else if (!strcmp(name, "html"))
		*out = SW_MARKUP_HTML;
	else
		return false;
	return true;
}

static bool word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

/* One line of Markdown's unmistakable shapes. */
static bool markdown_line(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && i < 3 && s[i] == ' ')
		i++;
	size_t h = i;
	while (h < n && s[h] == '#')
		h++;
	if (h > i && h - i <= 6 && h + 1 < n && s[h] == ' ' && s[h + 1] != ' ')
		return true;
	if (n - i >= 3 && (!memcmp(s + i, "```", 3) || !memcmp(s + i, "~~~", 3)))
		return true;
	/* a table's rule: | --- | :---: | */
	bool bar = false, dashes = false, other = false;
	for (size_t k = i; k < n; k++) {
		if (s[k] == '|')
			bar = true;
		else if (s[k] == '-' && k + 2 < n && s[k + 1] == '-' && s[k + 2] == '-')
			dashes = true;
		else if (s[k] != '-' && s[k] != ':' && s[k] != ' ' && s[k] != '\r')
			other = true;
	}
	if (bar && dashes && !other)
		return true;
	for (size_t k = 0; k + 3 < n; k++) {
		/* a footnote [^1] */
		if (s[k] == '[' && s[k + 1] == '^' && word_char((unsigned char)s[k + 2])) {
			size_t e = k + 2;
			while (e < n && e < k + 2 + SW_MARKUP_MAX_LABEL && word_char((unsigned char)s[e]))
				e++;
			if (e < n && s[e] == ']')
				return true;
		}
		/* emphasis around a word: *Name*, _See_, **bold** */
		char d = s[k];
		if ((d == '*' || d == '_') && (k == 0 || s[k - 1] == ' ' || s[k - 1] == '(' ||
					     s[k - 1] == '"' || s[k - 1] == d)) {
			size_t a = k + 1;
			if (a < n && s[a] == d)
				a++;
			if (a >= n || !word_char((unsigned char)s[a]))
				continue;
			for (size_t e = a + 1; e < n; e++) {
				if (s[e] != d)
					continue;
				unsigned char before = (unsigned char)s[e - 1];
				unsigned char after = e + 1 < n ? (unsigned char)s[e + 1] : ' ';
				if ((word_char(before) || before == '.') && !word_char(after))
					return true;
				break;
			}
		}
	}
	return false;
}

static bool sniff_markdown(const char *data, size_t len)
{
	size_t lim = len < ((size_t)64 << 10) ? len : ((size_t)64 << 10);
	for (size_t i = 0; i < lim;) {
		const char *nl = memchr(data + i, '\n', lim - i);
		size_t e = nl ? (size_t)(nl - data) : lim;
		if (markdown_line(data + i, e - i))
			return true;
		i = e + 1;
	}
	return false;
}

static bool sniff_html(const char *data, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	static const char *const opens[] = { "<!doctype html", "<html" };
	for (size_t k = 0; k < SW_ARRAY_LEN(opens); k++) {
		size_t n = strlen(opens[k]);
		if (len - i < n)
			continue;
		size_t j = 0;
		while (j < n && (data[i + j] | 0x20) == (opens[k][j] | 0x20))
			j++;
		if (j == n)
			return true;
	}
	return false;
}

enum sw_markup_kind sw_markup_kind_for(const char *path, const char *data, size_t len)
{
	if (path) {
		char ext[16];
		sw_path_ext(ext, sizeof(ext), path);
		static const char *const md[] = { "md", "markdown", "mdown", "mkd", "mkdn" };
		for (size_t i = 0; i < SW_ARRAY_LEN(md); i++)
			if (!strcmp(ext, md[i]))
				return SW_MARKUP_MARKDOWN;
		if (!strcmp(ext, "html") || !strcmp(ext, "htm") || !strcmp(ext, "xhtml"))
			return SW_MARKUP_HTML;
		if (!strcmp(ext, "txt") || !strcmp(ext, "text"))
			return SW_MARKUP_TEXT;
	}
	if (sniff_html(data, len))
		return SW_MARKUP_HTML;
	if (sniff_markdown(data, len))
		return SW_MARKUP_MARKDOWN;
	return SW_MARKUP_TEXT;
}
