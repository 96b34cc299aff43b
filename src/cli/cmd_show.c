/* cmd_show.c - `sworn show BATES | DOC[:PAGE] -m MATTER [--json]`: one page
 * of the record as stored, with what it is: its Bates number, its document
 * and page, the document's origin and status, and where its text came
 * from (the text layer or OCR). */
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"

struct show_opts {
	const char *matter;
	bool json;
};

#define AT(f) offsetof(struct show_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter to read", CLI_STRING, AT(matter) },
	{ "json", 0, NULL, "print the page and what it is as JSON", CLI_FLAG, AT(json) },
};

static void print_page(FILE *f, const void *ud)
{
	const struct sw_shown_page *p = ud;
	/* The page is the production's text: shown cleaned of control
	 * sequences (base.h). */
	sw_term_printf(f, "%s  %s page %u of %u  (document %lld, %s, %s%s)\n",
		p->bates ? p->bates : "(no Bates number)", p->document, p->page_no,
		p->page_count, (long long)p->doc_id, p->origin, p->status,
		p->text_source && strcmp(p->text_source, "ocr") == 0 ? ", text by OCR" : "");
	/* The load file's metadata, a date as read and as written. */
	for (int k = 0; k < SW_DOC_FIELDS; k++) {
		const char *v = p->meta.value[k];
		if (!v)
			continue;
		if (!sw_doc_field_is_date((enum sw_doc_field)k))
			sw_term_printf(f, "  %-16s %s\n", sw_doc_field_label((enum sw_doc_field)k),
				       v);
		else if (!p->meta.day[k][0])
			sw_term_printf(f, "  %-16s %s (not read as a date)\n",
				       sw_doc_field_label((enum sw_doc_field)k), v);
		else if (strcmp(v, p->meta.day[k]) != 0)
			sw_term_printf(f, "  %-16s %s (as written: %s)\n",
				       sw_doc_field_label((enum sw_doc_field)k), p->meta.day[k], v);
		else
			sw_term_printf(f, "  %-16s %s\n", sw_doc_field_label((enum sw_doc_field)k),
				       v);
	}
	if (sw_doc_meta_any(&p->meta))
		fputc('\n', f);
	sw_term_write(f, p->text.data, p->text.len);
	if (p->text.len == 0 || p->text.data[p->text.len - 1] != '\n')
		fputc('\n', f);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct show_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_shown_page p;

	if (cli_matter_open(&m, ctx, o->matter, &err) != 0)
		return cli_fail(&err);
	if (sw_record_show(&p, m, a->pos[0], &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	json_t *doc = NULL;
	if (o->json) {
		doc = sw_shown_page_json(&p);
		json_object_set_new(doc, "matter", sw_json_str(sw_matter_name(m)));
	}
	int rc = cli_emit(o->json, doc, print_page, &p, CLI_OK);
	sw_shown_page_release(&p);
	sw_matter_close(m);
	return rc;
}

const struct cli_command cli_cmd_show = {
	.name = "show",
	.usage = "-m MATTER BATES | DOC[:PAGE] [--json]",
	.summary = "print one page of a matter with its Bates number, document and origin",
	.description =
		"BATES is a Bates number in any spelling (\"BLT-000007\", \"BLT 7\");\n"
		"DOC a document's id, name or BEGBATES (as sworn matter docs lists them),\n"
		"with :PAGE for a page other than the first.  A number stamped on more than\n"
		"one page shows the live one (active evidence before quarantined, before\n"
		"removed).  Removed and quarantined documents can be shown: the status line\n"
		"says what they are.  The document's load-file metadata (custodian, type,\n"
		"title, from, to, cc, dates sent and received, confidentiality) comes\n"
		"before the text, a date as read (YYYY-MM-DD) and as written; --json gives\n"
		"it as \"metadata\".\n\n"
		"Exit status: 0 shown, 2 no such page or document.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct show_opts),
	.min_pos = 1,
	.max_pos = 1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
