/* cmd_claims.c - `sworn claims [FILE|-]`: the claims a text makes. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "claims/claims.h"
#include "cli/cli.h"
#include "cli/cli_draft.h"

static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the claims as JSON (DESIGN.md's shape)" },
	{ "kind", 'k', "KIND", "list only claims of KIND (case, journal, statute, rule, record, bates, date, quote)" },
	{ "format", 0, "FORMAT", CLI_DRAFT_FORMAT_HELP },
};

/* One line of text for the table: newlines and tabs as spaces, cut at max
 * bytes on a character boundary. */
static void put_flat(FILE *f, const char *s, size_t n, size_t max)
{
	size_t i = 0;
	for (; i < n && i < max; i++) {
		unsigned char c = (unsigned char)s[i];
		fputc(c == '\n' || c == '\t' || c == '\r' ? ' ' : c, f);
	}
	if (i < n) {
		/* finish a cut UTF-8 sequence, then mark the cut */
		while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
			fputc(s[i++], f);
		fputs("...", f);
	}
}

static bool kind_ok(const char *want, const struct sw_claim *c)
{
	return !want || !strcmp(want, sw_claim_kind_name(c->kind));
}

/* --json: a claim's offsets in the draft's own bytes, its line and column. */
struct json_place {
	const struct sw_markup *m;
	struct sw_markup_cursor cur;
};

static void json_place(void *ctx, const struct sw_claim *c, size_t at[4], size_t *line,
		       size_t *col)
{
	struct json_place *p = ctx;
	at[0] = sw_markup_src(p->m, c->start);
	at[1] = sw_markup_src_end(p->m, c->end);
	at[2] = sw_markup_src(p->m, c->cite_start);
	at[3] = sw_markup_src_end(p->m, c->cite_end);
	sw_markup_line_col(p->m, &p->cur, at[0], line, col);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)ctx;
	struct sw_err err = { 0 };
	struct cli_draft d = { 0 };
	struct sw_claims claims = { 0 };
	const char *path = a->npos ? a->pos[0] : "-";
	const char *kind = cli_value(cmd, a, "kind");
	int rc = CLI_OK;

	if (kind) {
		bool known = false;
		for (int k = SW_CLAIM_CASE; k <= SW_CLAIM_QUOTE; k++)
			known |= !strcmp(kind, sw_claim_kind_name(k));
		if (!known) {
			cli_error("unknown --kind '%s': give case, journal, statute, rule, record, bates, date or quote", kind);
			return CLI_USAGE;
		}
	}
	if (cli_draft_read(&d, path, cli_value(cmd, a, "format"), &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE; /* a draft that cannot be read is an input error */
		goto cleanup;
	}
	const struct sw_markup *view = &d.view;
	if (sw_claims_scan(&claims, view->text, view->len, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	if (cli_flag(cmd, a, "json")) {
		/* streamed, not built as a tree: the same document (claims.h) */
		char now[21];
		sw_utc_now(now);
		json_t *audit = json_pack("{s:{s:s, s:s, s:s, s:s, s:s}}", "audit",
			"time", now, "sworn_version", SW_VERSION, "commit", cli_build_commit,
			"draft_sha256", d.sha256, "format", sw_markup_kind_name(view->kind));
		struct json_place pl = { view, { 0 } };
		struct sw_claims_json_opts o = { .kind = kind, .place = json_place, .ctx = &pl,
						 .after = audit };
		if (sw_claims_json_write(stdout, &claims, view->text, path, &o, &err) != 0)
			rc = cli_fail(&err);
		json_decref(audit);
	} else {
		size_t shown = 0;
		struct sw_markup_cursor cur = { 0 };
		for (size_t i = 0; i < claims.n; i++) {
			const struct sw_claim *c = &claims.v[i];
			if (!kind_ok(kind, c))
				continue;
			size_t line, col;
			char at[48];
			sw_markup_line_col(view, &cur, sw_markup_src(view, c->start), &line, &col);
			snprintf(at, sizeof(at), "%zu:%zu", line, col);
			printf("%4zu  %-7s %-9s %-9s  ", i + 1, sw_claim_kind_name(c->kind),
			       sw_claim_form_name(c->form), at);
			put_flat(stdout, view->text + c->start, c->end - c->start, 70);
			putchar('\n');
			printf("      ");
			for (size_t k = 0; k < c->nfields; k++) {
				if (!strcmp(c->fields[k].name, "quoted"))
					continue;
				printf(" %s=", c->fields[k].name);
				put_flat(stdout, c->fields[k].value, strlen(c->fields[k].value), 40);
			}
			if (c->resolves_to >= 0)
				printf(" -> #%ld", c->resolves_to + 1);
			if (c->attributed_to >= 0)
				printf(" -> #%ld", c->attributed_to + 1);
			printf("  (sentence %zu)\n", c->sentence + 1);
			shown++;
		}
		if (!shown)
			fprintf(stderr, "no claims found in '%s'\n", path);
		else
			fprintf(stderr, "%zu claims in %zu sentences\n", shown, claims.nsentences);
	}
cleanup:
	sw_claims_release(&claims);
	cli_draft_release(&d);
	return rc;
}

const struct cli_command cli_cmd_claims = {
	.name = "claims",
	.usage = "[--json] [--kind KIND] [--format FORMAT] [FILE|-]",
	.summary = "list the claims a draft makes: citations, record cites, dates, quotations",
	.description =
		"Reads a draft (Markdown, HTML, text, .docx, PDF or .eml) from FILE, or\n"
		"from standard input when FILE is - or absent, and lists every case\n"
		"citation (full, short, id., supra), statute, rule, record citation, Bates\n"
		"number, date and quotation in it, with its line:column in the draft, the\n"
		"fields of each and what short forms refer to.  Markdown and HTML are\n"
		"read as the text they show (emphasis, links and footnote markers are\n"
		"not part of a name; footnotes are read where they are defined); the\n"
		"kind comes from the extension, else from the first bytes, or from\n"
		"--format.  --json gives each claim's text as read and its byte offsets\n"
		"into the file (for .docx, PDF and .eml into the text read from it: PDF\n"
		"pages joined by form feeds, no OCR).  Nothing is checked: `sworn\n"
		"verify` does that.\n\n"
		"Exit status: 0 on success (with or without claims), 2 when the input\n"
		"cannot be read.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.min_pos = 0,
	.max_pos = 1,
	.flags = 0,
	.run = run,
};
