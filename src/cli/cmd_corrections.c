/* cmd_corrections.c - `sworn corrections export -m MATTER --kind sft|dpo
 * [--format trl|axolotl|llamafactory] [-o FILE]`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "pipeline/pipeline.h"

struct corrections_opts {
	const char *matter;
	const char *kind;
	const char *format;
	const char *output;
	bool audit;
	bool json;
};

#define AT(f) offsetof(struct corrections_opts, f)
static const struct cli_opt export_opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose corrections to export", CLI_STRING,
	  AT(matter) },
	{ "kind", 0, "KIND",
	  "sft (the window answered with the final) or dpo (the final "
	  "chosen, the draft rejected)",
	  CLI_STRING, AT(kind), .values = "sft dpo" },
	{ "format", 0, "FORMAT",
	  "whose field names: trl (default), axolotl or llamafactory "
	  "(sft and dpo: --kind in the trl format)",
	  CLI_STRING, AT(format), .values = "trl axolotl llamafactory" },
	{ "output", 'o', "FILE",
	  "write the JSON Lines to FILE (atomically) instead of "
	  "standard output",
	  CLI_PATH, AT(output) },
	{ "audit", 0, NULL,
	  "export nothing: list what past exports carried that is no longer "
	  "clean (a document removed or quarantined since), with when and where "
	  "it went; exit 1 when there is any",
	  CLI_FLAG, AT(audit) },
	{ "json", 0, NULL, "with --audit: the findings as JSON", CLI_FLAG, AT(json) },
};

static void print_audit(FILE *f, const void *ud)
{
	const struct sw_export_audit *a = ud;
	if (a->n == 0) {
		fprintf(f,
			"%zu correction export%s logged; none carried a document that has been "
			"removed or quarantined since\n",
			a->exports, a->exports == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct sw_export_audit_row *r = &a->v[i];
		fprintf(f, "correction %lld (run %lld) left on %s as %s/%s to %s; since then: ",
			(long long)r->correction_id, (long long)r->run_id, r->exported_at, r->kind,
			r->format, r->dest);
		sw_term_puts(f, r->documents);
		fputc('\n', f);
	}
	fprintf(f, "%zu of %zu export%s carried text that is no longer active evidence: "
		   "remove those lines from the copies and from any model trained on them\n",
		a->n, a->exports, a->exports == 1 ? "" : "s");
}

static int audit(struct cli_ctx *ctx, const struct corrections_opts *o)
{
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_export_audit a;
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0)
		return cli_fail(&err);
	int rc = sw_corrections_audit(&a, m, &err);
	sw_matter_close(m);
	if (rc != 0)
		return cli_fail(&err);
	json_t *doc = NULL;
	if (o->json) {
		json_t *rows = json_array();
		for (size_t i = 0; i < a.n; i++) {
			const struct sw_export_audit_row *r = &a.v[i];
			json_array_append_new(rows, json_pack(
				"{s:I, s:I, s:s, s:s, s:s, s:s, s:s}", "correction",
				(json_int_t)r->correction_id, "run", (json_int_t)r->run_id,
				"exported_at", r->exported_at, "kind", r->kind, "format", r->format,
				"dest", r->dest, "documents", r->documents));
		}
		doc = json_pack("{s:I, s:o}", "exports", (json_int_t)a.exports, "tainted", rows);
	}
	rc = cli_emit(o->json, doc, print_audit, &a, a.n ? CLI_NO : CLI_OK);
	sw_export_audit_release(&a);
	return rc;
}

static int export(struct cli_ctx *ctx, const struct corrections_opts *o)
{
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	enum sw_export_kind kind = SW_EXPORT_SFT;
	enum sw_export_format fmt = SW_EXPORT_TRL;
	const char *k = o->kind, *fname = o->format ? o->format : "trl";
	size_t written = 0, skipped = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = stdout;
	int rc;

	if (o->json) {
		cli_error("'sworn corrections export' prints no JSON of its own (its lines are "
			  "JSON already): --json goes with --audit");
		return CLI_USAGE;
	}
	/* --format sft|dpo is the spelling from before the trainers'
	 * formats: the kind, in TRL's. */
	if (strcmp(fname, "sft") == 0 || strcmp(fname, "dpo") == 0) {
		if (k && strcmp(k, fname) != 0) {
			cli_error("--kind %s and --format %s disagree", k, fname);
			return CLI_USAGE;
		}
		k = fname;
		fname = "trl";
	}
	if (!k) {
		cli_error("corrections export needs --kind sft or --kind dpo");
		return CLI_USAGE;
	}
	if (strcmp(k, "sft") == 0) {
		kind = SW_EXPORT_SFT;
	} else if (strcmp(k, "dpo") == 0) {
		kind = SW_EXPORT_DPO;
	} else {
		cli_error("bad --kind '%s': give sft or dpo", k);
		return CLI_USAGE;
	}
	if (strcmp(fname, "trl") == 0) {
		fmt = SW_EXPORT_TRL;
	} else if (strcmp(fname, "axolotl") == 0) {
		fmt = SW_EXPORT_AXOLOTL;
	} else if (strcmp(fname, "llamafactory") == 0) {
		fmt = SW_EXPORT_LLAMAFACTORY;
	} else {
		cli_error("bad --format '%s': give trl, axolotl or llamafactory", fname);
		return CLI_USAGE;
	}
	if ((rc = cli_matter_open(&m, ctx, o->matter, &err)) != 0)
		return cli_fail(&err);
	/* A file is written whole or not at all: the lines go to memory
	 * first. */
	if (o->output && !(f = open_memstream(&buf, &len))) {
		sw_matter_close(m);
		cli_error("cannot export: out of memory");
		return CLI_USAGE;
	}
	int64_t *ids = NULL;
	size_t nids = 0;
	rc = sw_corrections_export_ids(f, &written, &skipped, &ids, &nids, m, kind, fmt, &err);
	if (o->output) {
		if (fclose(f) != 0 && rc == 0)
			rc = sw_err_set(&err, SW_EIO, "cannot export: out of memory");
		if (rc == 0)
			rc = sw_file_write_atomic(o->output, buf, len, &err);
	} else if (rc == 0 && fflush(stdout) != 0) {
		rc = sw_err_set(&err, SW_EIO, "cannot write the corrections to standard output");
	}
	/* What left is logged, for --audit after a later removal. */
	if (rc == 0)
		rc = sw_corrections_log_export(m, ids, nids, kind, fmt,
					       o->output ? o->output : "stdout", &err);
	free(ids);
	free(buf);
	sw_matter_close(m);
	if (rc != 0)
		return cli_fail(&err);
	if (cli_globals.quiet)
		return CLI_OK;
	if (skipped)
		fprintf(stderr, "wrote %zu correction%s (%zu left out: a draft, final or window "
				"evidence that is quarantined or no longer active evidence, or a "
				"window that is not a system and a user message)\n",
			written, written == 1 ? "" : "s", skipped);
	else
		fprintf(stderr, "wrote %zu correction%s\n", written, written == 1 ? "" : "s");
	return CLI_OK;
}

static int export_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct corrections_opts *o = a->opts;
	return o->audit ? audit(ctx, o) : export(ctx, o);
}

static const struct cli_subcommand sub_export = {
	.name = "export",
	.usage = "-m MATTER (--kind sft|dpo [--format trl|axolotl|llamafactory] [-o FILE] | "
		 "--audit [--json])",
	.summary = "write the corrections as JSON Lines for a trainer, or audit past exports",
	.opts = export_opts,
	.nopts = SW_ARRAY_LEN(export_opts),
	.opts_size = sizeof(struct corrections_opts),
	.max_pos = 0,
	.run = export_run,
};

static const struct cli_subcommand *const subs[] = { &sub_export };

const struct cli_command cli_cmd_corrections = {
	.name = "corrections",
	.summary = "export a matter's corrections (model draft, lawyer's final) for fine-tuning",
	.description =
		"Every approved run keeps the model's draft beside the lawyer's final.\n"
		"export writes them as JSON Lines that a trainer loads as they are.\n"
		"--kind sft: the system and user messages that produced the draft,\n"
		"answered with the final, the loss on the final only; --kind dpo: the\n"
		"same prompt, the final chosen and the draft rejected.  --format:\n"
		"  trl           {\"prompt\": [messages], \"completion\": [assistant]};\n"
		"                {\"prompt\", \"chosen\": [assistant], \"rejected\": [...]}\n"
		"  axolotl       {\"messages\"} for type: chat_template; {\"messages\",\n"
		"                \"chosen\": {assistant}, \"rejected\"} for chat_template.default\n"
		"  llamafactory  sharegpt: {\"conversations\": [{\"from\": \"human\"},\n"
		"                {\"from\": \"gpt\"}], \"system\"}; with ranking: true,\n"
		"                {\"conversations\", \"chosen\", \"rejected\", \"system\"}\n"
		"Each line has \"metadata\", which the trainers do not read: run, task,\n"
		"step, model, matter, export_consent, created_at.  --format sft and\n"
		"--format dpo, the older spelling, are --kind sft and --kind dpo in trl.\n\n"
		"A correction leaves only while every page of evidence that any step of\n"
		"its run was given is still active evidence: a document removed (matter\n"
		"rm) or quarantined takes out every correction of every run that read it.\n"
		"Each export is logged; --audit lists what already left and has been\n"
		"removed or quarantined since, with when and where it went (exit 1 when\n"
		"there is any).\n\n"
		"Export is off until the matter turns it on (client confidentiality):\n"
		"sworn matter set -m MATTER corrections.export=yes.  A correction whose\n"
		"draft or final is quarantined, or whose window held evidence that is no\n"
		"longer active evidence, is left out, and the count says so on stderr.",
	.flags = CLI_NEEDS_WORKSPACE,
	.subs = subs,
	.nsubs = SW_ARRAY_LEN(subs),
};
