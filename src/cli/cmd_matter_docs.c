/* cmd_matter_docs.c - `sworn matter docs` and `sworn matter rm`, the
 * subcommands of cmd_matter.c that look at and fix one matter's documents:
 * their option tables, typed structs and runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"

/* The columns --fields may name: the document's own, "date" (sent, else
 * received, else its own date) and every metadata field. */
enum col { C_ID, C_ORIGIN, C_STATUS, C_KIND, C_PAGES, C_BATES, C_NAME, C_SOURCE, C_DATE,
	   C_FIELD /* + enum sw_doc_field */ };
static const char *const col_names[] = { "id", "origin", "status", "kind", "pages", "bates",
	"name", "source", "date" };
#define COLS_MAX 32
#define CELL_MAX 32 /* characters of a metadata cell but the last column's */

struct docs_shown {
	const struct sw_doc_row *rows;
	size_t n;
	int cols[COLS_MAX];
	size_t ncols; /* 0: the listing without metadata */
};

static int parse_cols(struct docs_shown *s, const char *list)
{
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, ", ");
		int c = -1;
		for (size_t i = 0; i < SW_ARRAY_LEN(col_names) && c < 0; i++)
			if (strlen(col_names[i]) == n && strncmp(col_names[i], p, n) == 0)
				c = (int)i;
		if (c < 0 && n) {
			int f = sw_doc_field_find(p, n);
			c = f < 0 ? -1 : C_FIELD + f;
			if (c < 0) {
				cli_error("bad --fields '%s': no column '%.*s' (give some of id, "
					  "origin,"
					  " status, kind, pages, bates, name, source, date, "
					  "custodian,"
					  " doctype, title, from, to, cc, sent, received, docdate,"
					  " confidentiality)", list, (int)n, p);
				return CLI_USAGE;
			}
		}
		if (c >= 0) {
			if (s->ncols == COLS_MAX) {
				cli_error("bad --fields '%s': more than %d columns", list,
					  COLS_MAX);
				return CLI_USAGE;
			}
			s->cols[s->ncols++] = c;
		}
		p += n;
		p += strspn(p, ", ");
	}
	if (s->ncols == 0) {
		cli_error("bad --fields '%s': name at least one column", list);
		return CLI_USAGE;
	}
	return 0;
}

/* The text of column c for row r (into buf when it is made). */
static const char *cell(char *buf, size_t cap, const struct sw_doc_row *r, int c)
{
	switch (c) {
	case C_ID: snprintf(buf, cap, "%lld", (long long)r->id); return buf;
	case C_ORIGIN: return r->origin;
	case C_STATUS: return r->status;
	case C_KIND: return r->kind;
	case C_PAGES: snprintf(buf, cap, "%u", r->pages); return buf;
	case C_BATES:
		if (r->beg_bates && r->end_bates && strcmp(r->beg_bates, r->end_bates) != 0)
			snprintf(buf, cap, "%s\u2013%s", r->beg_bates, r->end_bates);
		else
			snprintf(buf, cap, "%s", r->beg_bates ? r->beg_bates : "-");
		return buf;
	case C_NAME: return r->name;
	case C_SOURCE: return r->source ? r->source : "-";
	case C_DATE: {
		const char *d = sw_doc_meta_date(&r->meta);
		return *d ? d : "-";
	}
	default: {
		int f = c - C_FIELD;
		if (sw_doc_field_is_date((enum sw_doc_field)f) && r->meta.day[f][0])
			return r->meta.day[f];
		return r->meta.value[f] ? r->meta.value[f] : "-";
	}
	}
}

/* How the listing shows a line break, tab or carriage return inside a
 * name or value: escaped, so that a file named "a\n   7  evidence ..."
 * cannot print a row of its own; NULL for any other byte (the terminal
 * layer replaces the other controls). */
static const char *escaped(char c)
{
	return c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
}

/* s as shown, escapes written out, into out (appended). */
static void add_shown(struct sw_buf *out, const char *s)
{
	for (; *s; s++) {
		const char *e = escaped(*s);
		if (e)
			sw_buf_adds(out, e);
		else
			sw_buf_addc(out, *s);
	}
}

/* Characters (code points) in s as shown. */
static size_t width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += escaped(*s) ? 2 : ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* s in a cell of w characters: cut with an ellipsis, or padded; one line. */
static void put_cell(struct sw_buf *out, const char *s, size_t w, bool last)
{
	size_t n = 0;
	for (const char *p = s; *p; p++) {
		bool lead = ((unsigned char)*p & 0xC0) != 0x80;
		if (lead && !last && n + 1 == w && width(p) > 1) {
			sw_buf_adds(out, "\u2026");
			n++;
			break;
		}
		const char *e = escaped(*p);
		if (e) {
			sw_buf_adds(out, e);
			n += 2;
			continue;
		}
		if (lead)
			n++;
		sw_buf_addc(out, *p);
	}
	for (; !last && n < w; n++)
		sw_buf_addc(out, ' ');
	if (!last)
		sw_buf_adds(out, "  ");
}

static void print_cols(FILE *f, const struct docs_shown *s)
{
	size_t w[COLS_MAX];
	char buf[160];
	for (size_t c = 0; c < s->ncols; c++) {
		int k = s->cols[c];
		w[c] = k < C_FIELD ? strlen(col_names[k]) : strlen(sw_doc_field_name(k - C_FIELD));
		for (size_t i = 0; i < s->n; i++) {
			size_t x = width(cell(buf, sizeof(buf), &s->rows[i], k));
			w[c] = x > w[c] ? x : w[c];
		}
		if (w[c] > CELL_MAX && k >= C_FIELD)
			w[c] = CELL_MAX;
	}
	struct sw_buf line = SW_BUF_INIT;
	for (size_t c = 0; c < s->ncols; c++) {
		int k = s->cols[c];
		put_cell(&line, k < C_FIELD ? col_names[k] : sw_doc_field_name(k - C_FIELD), w[c],
			 c + 1 == s->ncols);
	}
	sw_term_printf(f, "%s\n", line.data);
	for (size_t i = 0; i < s->n; i++) {
		sw_buf_reset(&line);
		for (size_t c = 0; c < s->ncols; c++)
			put_cell(&line, cell(buf, sizeof(buf), &s->rows[i], s->cols[c]), w[c],
				 c + 1 == s->ncols);
		sw_term_printf(f, "%s\n", line.data);
	}
	sw_buf_release(&line);
}

static void print_docs(FILE *f, const void *ud)
{
	const struct docs_shown *s = ud;
	if (s->n && s->ncols) {
		print_cols(f, s);
		return;
	}
	if (s->n == 0)
		sw_term_printf(f, "no documents yet: import some with 'sworn ingest -m MATTER PATH...'\n");
	else
		sw_term_printf(f, "%6s  %-9s %-11s %-10s %6s  %-27s %s\n", "id", "origin", "status", "kind",
			       "pages", "Bates", "name (source)");
	for (size_t i = 0; i < s->n; i++) {
		const struct sw_doc_row *r = &s->rows[i];
		char bates[128];
		if (r->beg_bates && r->end_bates && strcmp(r->beg_bates, r->end_bates) != 0)
			snprintf(bates, sizeof(bates), "%s\u2013%s", r->beg_bates, r->end_bates);
		else
			snprintf(bates, sizeof(bates), "%s", r->beg_bates ? r->beg_bates : "-");
		struct sw_buf shown = SW_BUF_INIT;
		add_shown(&shown, r->name);
		if (r->source && strcmp(r->source, r->name) != 0) {
			sw_buf_adds(&shown, " (");
			add_shown(&shown, r->source);
			sw_buf_addc(&shown, ')');
		}
		sw_term_printf(f, "%6lld  %-9s %-11s %-10s %6u  %-27s %s", (long long)r->id, r->origin,
			       r->status, r->kind, r->pages, bates, shown.data);
		sw_buf_release(&shown);
		if (r->parent_id)
			sw_term_printf(f, " [in #%lld]", (long long)r->parent_id);
		fputc('\n', f);
		/* Its date, custodian and title, when a load file gave them,
		 * on a line of its own under it. */
		const char *date = sw_doc_meta_date(&r->meta);
		const char *parts[] = { *date ? date : NULL, r->meta.value[SW_FIELD_CUSTODIAN],
			r->meta.value[SW_FIELD_TITLE] };
		struct sw_buf line = SW_BUF_INIT;
		for (size_t k = 0; k < SW_ARRAY_LEN(parts); k++)
			if (parts[k]) {
				sw_buf_adds(&line, line.len ? "  \u00b7  " : "        ");
				put_cell(&line, parts[k], 0, true);
			}
		if (line.len)
			sw_term_printf(f, "%s\n", line.data);
		sw_buf_release(&line);
	}
}

struct docs_opts {
	const char *matter, *fields;
	bool json;
};

static const struct cli_opt docs_opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose documents to list", CLI_STRING,
	  offsetof(struct docs_opts, matter) },
	{ "fields", 0, "LIST",
	  "the columns to print, separated by commas (id, origin, status, kind, pages, bates, "
	  "name, source, date, custodian, doctype, title, from, to, cc, sent, received, docdate, "
	  "confidentiality)",
	  CLI_STRING, offsetof(struct docs_opts, fields) },
	{ "json", 0, NULL, "print every document and all its fields as JSON", CLI_FLAG,
	  offsetof(struct docs_opts, json) },
};

static int docs_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct docs_opts *o = a->opts;
	const char *matter = o->matter, *fields = o->fields;
	bool json = o->json;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_doc_row *rows = NULL;
	struct docs_shown shown = { 0 };
	size_t n = 0;
	int rc;

	if (fields && (rc = parse_cols(&shown, fields)) != 0)
		return rc;
	if (cli_matter_open(&m, ctx, matter, &err) != 0 ||
	    sw_matter_docs(&rows, &n, m, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	shown.rows = rows;
	shown.n = n;
	rc = cli_emit(json, json ? sw_doc_rows_json(sw_matter_name(m), rows, n) : NULL, print_docs,
			  &shown, CLI_OK);
	sw_doc_rows_free(rows, n);
	sw_matter_close(m);
	return rc;
}

const struct cli_subcommand cli_sub_matter_docs = {
	.name = "docs",
	.usage = "-m MATTER [--fields LIST] [--json]",
	.summary = "every document: id, origin, status, kind, pages, Bates range, name, source",
	.opts = docs_opts,
	.nopts = SW_ARRAY_LEN(docs_opts),
	.opts_size = sizeof(struct docs_opts),
	.max_pos = 0,
	.run = docs_run,
};

struct rm_opts {
	const char *matter, *reason;
	bool json;
};

static const struct cli_opt rm_opts[] = {
	{ "matter", 'm', "MATTER", "the matter to take the document out of", CLI_STRING,
	  offsetof(struct rm_opts, matter) },
	{ "reason", 0, "TEXT", "why it leaves the record (required, recorded in the audit)",
	  CLI_STRING, offsetof(struct rm_opts, reason) },
	{ "json", 0, NULL, "print what was removed as JSON", CLI_FLAG,
	  offsetof(struct rm_opts, json) },
};

static int rm_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct rm_opts *o = a->opts;
	const char *matter = o->matter, *doc = a->pos[0], *reason = o->reason;
	bool json = o->json;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	int64_t id = 0;
	uint64_t count = 0;

	if (!reason || !*reason) {
		cli_error("sworn matter rm needs --reason \"why it leaves the record\"");
		return CLI_USAGE;
	}
	if (cli_matter_open(&m, ctx, matter, &err) != 0 ||
	    sw_record_remove(&id, &count, m, doc, reason, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	json_t *out = NULL;
	if (json)
		out = json_pack("{s:o, s:I, s:I, s:o}", "matter", sw_json_str(sw_matter_name(m)),
				"removed", (json_int_t)id, "documents", (json_int_t)count,
				"reason", sw_json_str(reason));
	else
		printf("removed document %lld (%s)%s from search and evidence; the original and"
		       " the reason are kept (sworn matter audit)\n",
		       (long long)id, doc, count > 1 ? " and what came in it" : "");
	sw_matter_close(m);
	return cli_emit(json, out, NULL, NULL, CLI_OK);
}

const struct cli_subcommand cli_sub_matter_rm = {
	.name = "rm",
	.usage = "-m MATTER DOC --reason TEXT [--json]",
	.summary =
		"take a document (an id, name or BEGBATES) and its attachments out of the record",
	.opts = rm_opts,
	.nopts = SW_ARRAY_LEN(rm_opts),
	.opts_size = sizeof(struct rm_opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = rm_run,
};
