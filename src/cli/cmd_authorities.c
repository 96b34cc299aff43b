/* cmd_authorities.c - `sworn authorities import FILE... | lookup CITE`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "authority/authority.h"
#include "claims/claims.h"
#include "cli/cli.h"

struct import_opts {
	bool json;
	const char *texts;
};
struct lookup_opts {
	bool json;
};

static const struct cli_opt import_opts[] = {
	{ "json", 0, NULL, "print each import's summary as JSON", CLI_FLAG,
	  offsetof(struct import_opts, json) },
	{ "texts", 0, "FILE",
	  "the texts of code sections and rules, a CSV with the columns cite,text or "
	  "JSON Lines of {\"cite\", \"text\"}, so that a quotation of them is checked",
	  CLI_PATH, offsetof(struct import_opts, texts) },
};
static const struct cli_opt lookup_opts[] = {
	{ "json", 0, NULL, "print the lookup's result as JSON", CLI_FLAG,
	  offsetof(struct lookup_opts, json) },
};

static void copy_field(char *out, size_t size, const char *v)
{
	snprintf(out, size, "%s", v ? v : "");
}

/* A cite of a texts file read as a draft's statute or rule is read (the
 * claim scanner), so that the text is found under the key the gate asks
 * for. */
static bool parse_section(void *ud, const char *cite, struct sw_authority_section *out)
{
	struct sw_claims c = { 0 };
	bool ok = false;
	(void)ud;
	if (sw_claims_scan(&c, cite, strlen(cite), NULL) != 0)
		return false;
	for (size_t i = 0; i < c.n && !ok; i++) {
		const struct sw_claim *k = &c.v[i];
		if (k->kind != SW_CLAIM_STATUTE && k->kind != SW_CLAIM_RULE)
			continue;
		const char *code = sw_claim_get(k, "code");
		const char *section =
			sw_claim_get(k, k->kind == SW_CLAIM_RULE ? "rule" : "section");
		if (!code)
			code = sw_claim_get(k, "reporter");
		if (!code || !section)
			continue;
		copy_field(out->code, sizeof(out->code), code);
		copy_field(out->title, sizeof(out->title), sw_claim_get(k, "title"));
		copy_field(out->section, sizeof(out->section), section);
		ok = true;
	}
	sw_claims_release(&c);
	return ok;
}

static void print_summary(json_t *files, const char *path,
			  const struct sw_authority_import_summary *sum)
{
	if (files)
		json_array_append_new(files, json_pack("{s:o, s:s, s:I, s:I, s:I, s:f}",
			"path", sw_json_str(path), "format",
			sw_authority_format_name(sum->format), "rows", (json_int_t)sum->rows,
			"stored", (json_int_t)sum->stored, "skipped", (json_int_t)sum->skipped,
			"seconds", sum->seconds));
	else
		sw_term_printf(stdout, "%s: %s: %llu rows, %llu stored, %llu skipped in %.2f s\n",
			       path, sw_authority_format_name(sum->format),
			       (unsigned long long)sum->rows, (unsigned long long)sum->stored,
			       (unsigned long long)sum->skipped, sum->seconds);
}

/* Under --json the files imported before a failure are still listed: the
 * document goes out, then the error's line and exit code. */
static int do_import(struct sw_authority *auth, const struct cli_args *a, bool json,
		     const char *texts)
{
	json_t *files = json ? json_array() : NULL;
	struct sw_err err = { 0 };
	int failed = 0;
	if (texts) {
		struct sw_authority_import_summary sum;
		if (sw_authority_import_code_texts(&sum, auth, texts, parse_section, NULL, &err) !=
		    0)
			failed = 1;
		else
			print_summary(files, texts, &sum);
	}
	for (int i = 0; i < a->npos && !failed; i++) {
		struct sw_authority_import_summary sum;
		bool progress = isatty(STDERR_FILENO) && !cli_globals.quiet;
		if (sw_authority_import(&sum, auth, a->pos[i], progress, &err) != 0) {
			failed = 1;
			break;
		}
		print_summary(files, a->pos[i], &sum);
	}
	if (!failed)
		return cli_emit(json, json ? json_pack("{s:o}", "imported", files) : NULL, NULL, NULL,
				CLI_OK);
	if (json && json_array_size(files))
		cli_emit(true, json_pack("{s:o}", "imported", files), NULL, NULL, CLI_OK);
	else
		json_decref(files);
	return cli_fail(&err);
}

static json_t *case_json(const struct sw_authority_case *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", c->name ? sw_json_str(c->name) : json_null());
	char *cite = sw_xasprintf("%s %s %s", c->volume, c->reporter, c->page);
	json_object_set_new(o, "cite", sw_json_str(cite));
	free(cite);
	json_object_set_new(o, "volume", sw_json_str(c->volume));
	json_object_set_new(o, "reporter", sw_json_str(c->reporter));
	json_object_set_new(o, "page", sw_json_str(c->page));
	json_object_set_new(o, "last_page", c->last_page ? json_integer((json_int_t)c->last_page) : json_null());
	json_object_set_new(o, "court", c->court ? sw_json_str(c->court) : json_null());
	json_object_set_new(o, "year", c->year ? json_integer(c->year) : json_null());
	json_object_set_new(o, "text", json_boolean(c->has_text));
	return o;
}

static int do_lookup(struct sw_authority *auth, const struct cli_args *a, bool json)
{
	struct sw_authority_lookup l;
	struct sw_err err = { 0 };
	struct sw_buf cite = SW_BUF_INIT;
	for (int i = 0; i < a->npos; i++)
		sw_buf_addf(&cite, "%s%s", i > 0 ? " " : "", a->pos[i]);
	int rc = sw_authority_lookup_cite(&l, auth, cite.data, &err);
	if (rc) {
		sw_buf_release(&cite);
		return cli_fail(&err);
	}
	static const char *const hits[] = { "none", "starts", "inside" };
	json_t *o = NULL;
	if (json) {
		o = json_object();
		json_object_set_new(o, "cite", sw_json_str(cite.data));
		json_object_set_new(o, "hit", json_string(hits[l.hit]));
		json_t *arr = json_array();
		for (size_t k = 0; k < l.n; k++)
			if (l.hit != SW_AUTHORITY_NONE)
				json_array_append_new(arr, case_json(&l.cases[k]));
		json_object_set_new(o, "cases", arr);
	} else if (l.hit == SW_AUTHORITY_NONE) {
		printf("%s: no case starts at or contains that page\n", cite.data);
		if (l.n) {
			char *s = sw_authority_case_format(&l.cases[0]);
			sw_term_printf(stdout, "  nearest case before it: %s%s\n", s,
			       l.cases[0].last_page ? "" : " (its last page is unknown)");
			free(s);
		}
	} else {
		for (size_t k = 0; k < l.n; k++) {
			char *s = sw_authority_case_format(&l.cases[k]);
			sw_term_printf(stdout, "%s%s", l.hit == SW_AUTHORITY_INSIDE ? "inside " : "", s);
			if (l.cases[k].last_page)
				printf(", pages %llu-%llu", (unsigned long long)l.cases[k].first_page,
				       (unsigned long long)l.cases[k].last_page);
			printf("%s\n", l.cases[k].has_text ? ", opinion text stored" : "");
			free(s);
		}
	}
	bool found = l.hit != SW_AUTHORITY_NONE;
	sw_authority_lookup_release(&l);
	sw_buf_release(&cite);
	return cli_emit(json, o, NULL, NULL, found ? CLI_OK : CLI_NO);
}

/* The workspace's table, opened for writing by import. */
static int with_table(struct cli_ctx *ctx, const struct cli_args *a, bool import)
{
	struct sw_err err = { 0 };
	struct sw_authority *auth = NULL;
	char *path = sw_path_join(ctx->ws.root, SW_AUTHORITY_DB_NAME);
	int rc;
	if (sw_authority_open(&auth, path, import, &err) != 0) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
	} else if (import) {
		const struct import_opts *o = a->opts;
		rc = do_import(auth, a, o->json, o->texts);
	} else {
		const struct lookup_opts *o = a->opts;
		rc = do_lookup(auth, a, o->json);
	}
	sw_authority_close(auth);
	free(path);
	return rc;
}

static int import_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct import_opts *o = a->opts;
	if (a->npos == 0 && !o->texts) {
		cli_error("usage: sworn %s import %s", cmd->name, a->sub->usage);
		return CLI_USAGE;
	}
	return with_table(ctx, a, true);
}

static int lookup_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	return with_table(ctx, a, false);
}

static const struct cli_subcommand sub_import = {
	.name = "import",
	.usage = "[--json] [--texts FILE] FILE...",
	.summary = "read cases, code tables, opinion texts or code section texts into the table",
	.opts = import_opts,
	.nopts = SW_ARRAY_LEN(import_opts),
	.opts_size = sizeof(struct import_opts),
	.max_pos = -1,
	.run = import_run,
};

static const struct cli_subcommand sub_lookup = {
	.name = "lookup",
	.usage = "[--json] CITE",
	.summary = "the case that starts at CITE or whose pages contain it",
	.opts = lookup_opts,
	.nopts = SW_ARRAY_LEN(lookup_opts),
	.opts_size = sizeof(struct lookup_opts),
	.min_pos = 1,
	.max_pos = -1,
	.run = lookup_run,
};

static const struct cli_subcommand *const subs[] = { &sub_import, &sub_lookup };

const struct cli_command cli_cmd_authorities = {
	.name = "authorities",
	.summary = "the workspace's table of real authorities: import, look up",
	.description =
		"import reads, by each file's header: the simple CSV\n"
		"  name,volume,reporter,page,last_page,court,year\n"
		"a code table (code,title,section,name), CourtListener's bulk citations,\n"
		"opinion-clusters and dockets CSVs (plain or .bz2, streamed), or a folder\n"
		"of opinion texts named by citation (\"550 U.S. 544.txt\").  Re-importing\n"
		"updates rows; it never duplicates them.\n"
		"--texts FILE stores the text of code sections and rules (a CSV with the\n"
		"columns cite,text, e.g. \"28 U.S.C. § 1332\",\"(a) The district courts\n"
		"...\", or JSON Lines of {\"cite\": ..., \"text\": ...}), so that sworn verify\n"
		"checks a quotation of them; without it such a quotation is unverifiable.\n\n"
		"lookup prints the case that starts at CITE (\"925 F.3d 1339\") or whose\n"
		"pages contain it; exit status 1 when there is none.",
	.flags = CLI_NEEDS_WORKSPACE,
	.subs = subs,
	.nsubs = SW_ARRAY_LEN(subs),
};
