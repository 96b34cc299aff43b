/* markup.c - the view: parse dispatches to html.c or markdown.c, the map
 * back to the source, lines and columns, and which kind a draft is. */
#include <stdlib.h>
#include <string.h>

#include "markup/markup_int.h"

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
