/* cmd_matter_docs.c - `sworn matter docs` and `sworn matter rm`, the
 * subcommands of cmd_matter.c that look at and fix one matter's documents. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"

static json_t *opt_str(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

static json_t *docs_json(const char *matter, const struct sw_doc_row *rows, size_t n)
{
	json_t *docs = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct sw_doc_row *r = &rows[i];
		json_t *j = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}",
			"id", (json_int_t)r->id, "name", sw_json_str(r->name),
			"kind", sw_json_str(r->kind), "origin", sw_json_str(r->origin),
			"status", sw_json_str(r->status), "beg_bates", opt_str(r->beg_bates),
			"end_bates", opt_str(r->end_bates), "pages", (json_int_t)r->pages,
			"source", opt_str(r->source), "imported_at", opt_str(r->imported_at));
		json_object_set_new(j, "parent_id",
				    r->parent_id ? json_integer((json_int_t)r->parent_id) : json_null());
		json_array_append_new(docs, j);
	}
	return json_pack("{s:o, s:o}", "matter", sw_json_str(matter), "documents", docs);
}

struct docs_shown {
	const struct sw_doc_row *rows;
	size_t n;
};

static void print_docs(FILE *f, const void *ud)
{
	const struct docs_shown *s = ud;
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
		sw_term_printf(f, "%6lld  %-9s %-11s %-10s %6u  %-27s %s", (long long)r->id, r->origin,
			       r->status, r->kind, r->pages, bates, r->name);
		if (r->source && strcmp(r->source, r->name) != 0)
			sw_term_printf(f, " (%s)", r->source);
		if (r->parent_id)
			sw_term_printf(f, " [in #%lld]", (long long)r->parent_id);
		fputc('\n', f);
	}
}

int cli_matter_docs(struct cli_ctx *ctx, const char *matter, bool json)
{
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_doc_row *rows = NULL;
	size_t n = 0;

	if (cli_matter_open(&m, ctx, matter, &err) != 0 ||
	    sw_matter_docs(&rows, &n, m, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	struct docs_shown shown = { rows, n };
	int rc = cli_emit(json, json ? docs_json(sw_matter_name(m), rows, n) : NULL, print_docs,
			  &shown, CLI_OK);
	sw_doc_rows_free(rows, n);
	sw_matter_close(m);
	return rc;
}

int cli_matter_rm(struct cli_ctx *ctx, const char *matter, const char *doc, const char *reason,
		  bool json)
{
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
