/* labels.c - the rows of a labels CSV (label,target) as spreadsheets save
 * it: comma, semicolon or tab separated, RFC 4180 quotes, CRLF, a header
 * row, blank and empty rows.  record/labels.c ties them to documents. */
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

/* Split one CSV line (RFC 4180 quotes) on sep into at most two fields;
 * later fields (a description column) are ignored. */
static int csv_fields(char *out[2], char *line, char sep)
{
	int n = 0;
	char *p = line;
	while (n < 2) {
		while (*p == ' ' || *p == '\t')
			p++;
		char *start = p, *w = p;
		if (*p == '"') {
			start = w = ++p;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			while (*p && *p != sep)
				p++;
		} else {
			while (*p && *p != sep)
				p++;
			w = p;
		}
		char c = *p;
		*w = '\0';
		out[n++] = sw_trim(start);
		if (c != sep)
			break;
		p++;
	}
	return n;
}

/* The separator of a labels file, from its first line: a comma, or the
 * semicolon Excel writes where the comma is the decimal mark, or the tab
 * of "Unicode text" -- whichever occurs outside quotes most. */
static char csv_separator(const char *line)
{
	size_t comma = 0, semi = 0, tab = 0;
	bool quoted = false;
	for (const char *p = line; *p && *p != '\n'; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted)
			comma += *p == ',', semi += *p == ';', tab += *p == '\t';
	}
	if (tab > comma && tab >= semi)
		return '\t';
	return semi > comma ? ';' : ',';
}

/* A header row as spreadsheets title it: "Label,Target", "Exhibit,Bates". */
static bool header_row(const char *a, const char *b)
{
	static const char *const first[] = { "label", "exhibit", "exhibit label", "name", "cite" };
	static const char *const second[] = { "target", "bates", "begbates", "beg bates",
					      "bates begin", "document", "file", "doc" };
	bool fa = false, fb = false;
	for (size_t i = 0; i < SW_ARRAY_LEN(first); i++)
		fa = fa || sw_streq_ci(a, first[i]);
	for (size_t i = 0; i < SW_ARRAY_LEN(second); i++)
		fb = fb || sw_streq_ci(b, second[i]);
	return fa && fb;
}

void sw_labels_parse(struct sw_labels *out, const char *text, size_t len)
{
	memset(out, 0, sizeof(*out));
	sw_buf_add(&out->text, text, len);
	sw_buf_addc(&out->text, '\0');
	char sep = 0;
	bool first_row = true;
	int lineno = 0;
	for (char *line = out->text.data; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		char *f[2] = { NULL, NULL };
		char *cur = line;
		line = nl ? nl + 1 : NULL;
		size_t cl = strlen(cur);
		if (cl && cur[cl - 1] == '\r')
			cur[--cl] = '\0';
		if (!sep)
			sep = csv_separator(cur);
		/* Blank lines, comments, and the empty rows a spreadsheet
		 * leaves (",," or ";;"). */
		bool empty = true;
		for (const char *c = cur; *c && empty; c++)
			empty = *c == sep || *c == ' ' || *c == '\t' || *c == '"';
		if (empty || cur[0] == '#')
			continue;
		int n = csv_fields(f, cur, sep);
		bool header = first_row && n == 2 && header_row(f[0], f[1]);
		first_row = false;
		if (header)
			continue;
		out->rows = sw_xgrow(out->rows, &out->cap, out->n + 1, sizeof(*out->rows));
		struct sw_label_row *r = &out->rows[out->n++];
		r->line = lineno;
		bool ok = n == 2 && f[0][0] && f[1][0];
		r->label = ok ? f[0] : NULL;
		r->target = ok ? f[1] : NULL;
	}
}

void sw_labels_release(struct sw_labels *l)
{
	free(l->rows);
	sw_buf_release(&l->text);
	memset(l, 0, sizeof(*l));
}
