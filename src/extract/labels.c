/* labels.c - the rows of a labels CSV (label,target) as spreadsheets save
 * it: comma, semicolon or tab separated, RFC 4180 quotes (base/'s reader),
 * CRLF, a header row, blank and empty rows.  record/labels.c ties them to
 * documents. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

/* The separator of a labels file, from its first line: a comma, or the
 * semicolon Excel writes where the comma is the decimal mark, or the tab
 * of "Unicode text" -- whichever occurs outside quotes most. */
static char csv_separator(const char *line, size_t len)
{
	size_t comma = 0, semi = 0, tab = 0;
	bool quoted = false;
	/* Bounded by len: the text need not end with a NUL. */
	for (const char *p = line; p < line + len && *p && *p != '\n'; p++) {
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

/* A field as typed with a blank before its quote (`Exhibit 4, "Ex. 5"`):
 * the reader keeps such quotes as text, as RFC 4180 says; a labels file
 * means them as quotes.  Undone in place on the trimmed field. */
static char *unquote(char *f)
{
	size_t n = strlen(f);
	if (n < 2 || f[0] != '"' || f[n - 1] != '"')
		return f;
	char *w = f;
	for (const char *p = f + 1; p < f + n - 1; p++) {
		*w++ = *p;
		if (*p == '"' && p[1] == '"')
			p++;
	}
	*w = '\0';
	return f;
}

/* Whether a field holds nothing but blanks and quotes. */
static bool blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '"')
		s++;
	return *s == '\0';
}

/* Rows as they are read: each label's offset in out->text (the buffer
 * moves as it grows; the pointers are set at the end), SIZE_MAX for a bad
 * row.  The target follows its label. */
struct pending {
	size_t *at, cap;
};

static void add_row(struct sw_labels *out, struct pending *p, int line, const char *label,
		    const char *target, size_t extra)
{
	out->rows = sw_xgrow(out->rows, &out->cap, out->n + 1, sizeof(*out->rows));
	p->at = sw_xgrow(p->at, &p->cap, out->n + 1, sizeof(*p->at));
	out->rows[out->n] = (struct sw_label_row){ .line = line, .extra = extra };
	p->at[out->n++] = label ? out->text.len : SIZE_MAX;
	if (!label)
		return;
	sw_buf_add(&out->text, label, strlen(label) + 1);
	sw_buf_add(&out->text, target, strlen(target) + 1);
}

void sw_labels_parse(struct sw_labels *out, const char *text, size_t len)
{
	struct sw_csv c;
	struct sw_err err = { 0 };
	struct pending p = { 0 };
	bool first_row = true;
	int rc;

	memset(out, 0, sizeof(*out));
	sw_csv_init_mem(&c, text, len, "labels");
	c.delim = csv_separator(text, len);
	while ((rc = sw_csv_next(&c, &err)) == 1) {
		int line = c.line > INT_MAX ? INT_MAX : (int)c.line;
		/* Comments, and the empty rows a spreadsheet leaves (",,"). */
		if (sw_csv_field(&c, 0)[0] == '#')
			continue;
		bool empty = true;
		for (size_t i = 0; i < c.nfields && empty; i++)
			empty = blank(sw_csv_field(&c, i));
		if (empty)
			continue;
		/* Later fields (a description column) are ignored, and counted
		 * so that the importer can say so. */
		char *f0 = unquote(sw_trim(sw_xstrdup(sw_csv_field(&c, 0))));
		char *f1 = unquote(sw_trim(sw_xstrdup(sw_csv_field(&c, 1))));
		bool header = first_row && c.nfields >= 2 && header_row(f0, f1);
		first_row = false;
		if (!header) {
			bool ok = !c.over && c.nfields >= 2 && f0[0] && f1[0];
			size_t extra = 0;
			for (size_t i = 2; i < c.nfields; i++)
				extra += !blank(sw_csv_field(&c, i));
			add_row(out, &p, line, ok ? f0 : NULL, ok ? f1 : NULL, extra);
		}
		free(f0);
		free(f1);
	}
	/* A quote never closed: the rest of the file is that row, bad. */
	if (rc != 0)
		add_row(out, &p, c.line > INT_MAX ? INT_MAX : (int)c.line, NULL, NULL, 0);
	sw_csv_release(&c);
	for (size_t i = 0; i < out->n; i++) {
		if (p.at[i] == SIZE_MAX)
			continue;
		out->rows[i].label = out->text.data + p.at[i];
		out->rows[i].target = out->rows[i].label + strlen(out->rows[i].label) + 1;
	}
	free(p.at);
}

void sw_labels_release(struct sw_labels *l)
{
	free(l->rows);
	sw_buf_release(&l->text);
	memset(l, 0, sizeof(*l));
}
