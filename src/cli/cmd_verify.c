/* cmd_verify.c - `sworn verify -m MATTER DRAFT`: the gate. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "authority/authority.h"
#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "cli/cli_signoff.h"
#include "extract/extract.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"
#include "verify/verify.h"

struct verify_opts {
	const char *matter, *html, *format, *uncited, *task, *annotate, *waive, *reason, *by;
	bool json, lenient, no_judge;
};

#define AT(f) offsetof(struct verify_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose record the draft cites", CLI_STRING, AT(matter) },
	{ "json", 0, NULL, "print the verdicts as JSON (DESIGN.md's shape)", CLI_FLAG, AT(json) },
	{ "html", 0, "OUT", "also write a self-contained HTML report to OUT", CLI_PATH, AT(html) },
	{ "annotate", 0, "OUT",
	  "also write the draft as a Word document OUT with a comment on each claim that did "
	  "not pass (a .docx draft: the same document, text and formatting unchanged)",
	  CLI_PATH, AT(annotate) },
	{ "lenient", 0, NULL, "let unverifiable claims pass (they are still listed)", CLI_FLAG,
	  AT(lenient) },
	{ "format", 0, "FORMAT", CLI_DRAFT_FORMAT_HELP, CLI_STRING, AT(format),
	  .values = CLI_DRAFT_FORMATS },
	{ "no-judge", 0, NULL, "do not ask [role \"judge\"] this time", CLI_FLAG, AT(no_judge) },
	{ "uncited", 0, "MODE",
	  "a fact stated with no citation: block, warn (listed, the default) or off; over "
	  "[verify] uncited and the task's", CLI_STRING, AT(uncited), .values = "block warn off" },
	{ "task", 0, "TASK",
	  "read the draft as TASK's output: its uncited default and the elements it requires "
	  "(the declaration's § 1746 clause, a signature line)", CLI_STRING, AT(task),
	  .values = "@tasks" },
	{ "waive", 0, "CLAIM", "waive the blocked claim CLAIM (its number, or its fingerprint "
	  "from --json) with --reason: shown as waived, it no longer blocks", CLI_STRING,
	  AT(waive) },
	{ "reason", 0, "TEXT", "why the waived claim stands (one line, on the record)",
	  CLI_STRING, AT(reason) },
	{ "by", 0, "NAME", "who waives (default: [user] name of sworn.conf or user.conf)",
	  CLI_STRING, AT(by) },
};

struct shown {
	const struct sw_verify_report *rep;
	const char *html;
	const char *annotate;
	size_t comments, anchored;
};

static void print_text(FILE *f, const void *ud)
{
	const struct shown *s = ud;
	sw_verify_print(f, s->rep, cli_colour());
	if (s->html)
		fprintf(f, "report: %s\n", s->html);
	if (s->annotate) {
		fprintf(f, "annotated: %s (%zu comment%s", s->annotate, s->comments,
			s->comments == 1 ? "" : "s");
		if (s->anchored < s->comments)
			fprintf(f, "; %zu with no place in the document's text, left out",
				s->comments - s->anchored);
		fprintf(f, ")\n");
	}
}

/* --annotate: the .docx the draft was read from, with the report's
 * comments, or (any other draft) a new document of its text. */
static int write_annotated(struct shown *s, const struct sw_verify_report *rep,
			   const struct cli_draft *d, const char *path, struct sw_err *err)
{
	struct sw_buf raw = SW_BUF_INIT, out = SW_BUF_INIT;
	int rc = 0;
	if (d->extracted && strcmp(path, "-") != 0) {
		if ((rc = sw_file_read(&raw, path, SW_EXTRACT_MAX_FILE_BYTES, err)) != 0)
			goto cleanup;
		/* A PDF's or an e-mail's text goes into a new document. */
		if (raw.len < 4 || memcmp(raw.data, "PK\3\4", 4) != 0)
			sw_buf_release(&raw);
	}
	if ((rc = sw_verify_docx(&out, &s->comments, &s->anchored, rep, raw.len ? raw.data : NULL,
				 raw.len, err)) != 0) {
		sw_err_wrap(err, rc, "cannot write '%s'", s->annotate);
		goto cleanup;
	}
	rc = sw_file_write_atomic(s->annotate, out.data, out.len, err);
cleanup:
	sw_buf_release(&raw);
	sw_buf_release(&out);
	return rc;
}

/* --json: the report written a claim at a time (sw_verify_json_write), the
 * stamp first and what this command adds last; a tree of every claim's
 * JSON took four times the report's own memory.  Returns code, or the
 * exit code of a failed write. */
static int print_json(const struct sw_verify_report *rep, const char *path,
		      const struct shown *s, bool judged, int code)
{
	struct sw_err err = { 0 };
	json_t *stamp = cli_json_stamp(), *after = json_object();
	if (s->annotate)
		json_object_set_new(after, "annotated",
				    json_pack("{s:s, s:I, s:I}", "path", s->annotate, "comments",
					      (json_int_t)s->comments, "anchored",
					      (json_int_t)s->anchored));
	if (judged)
		json_object_set_new(after, "judge", sw_judge_answers_json(rep));
	json_object_set_new(after, "timing",
			    json_pack("{s:f, s:f, s:f, s:f, s:f}", "claims_s", rep->claims_s,
				      "propositions_s", rep->propositions_s, "judge_s", rep->judge_s,
				      "claims_cpu_s", rep->claims_cpu_s, "propositions_cpu_s",
				      rep->propositions_cpu_s));
	if (sw_verify_json_write(stdout, rep, path, stamp, after, &err) != 0)
		code = cli_fail(&err);
	json_decref(stamp);
	json_decref(after);
	return code;
}

/* When the authority table was last written (only an import writes it),
 * as "YYYY-MM-DDTHH:MM:SSZ" in out, or false. */
static bool file_time(char out[21], const char *path)
{
	struct stat st;
	struct tm tm;
	if (stat(path, &st) != 0 || !gmtime_r(&st.st_mtime, &tm))
		return false;
	return strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0;
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct verify_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct cli_draft d = { 0 };
	struct sw_matter *m = NULL;
	struct sw_authority *auth = NULL;
	struct sw_waivers waivers = { 0 };
	struct sw_verify_report rep = { 0 };
	struct sw_llm_config llm = { 0 };
	struct sw_judge judge;
	struct sw_task *task = NULL;
	bool judged = false;
	const char *path = a->pos[0];
	const char *html = o->html;
	char *auth_path = NULL, *last_import = NULL;
	int rc = CLI_USAGE;

	if (cli_draft_read(&d, path, o->format, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
		goto cleanup;
	}
	/* No authority table is no error: case claims are then unverifiable,
	 * which the gate reports. */
	auth_path = sw_path_join(ctx->ws.root, SW_AUTHORITY_DB_NAME);
	if (sw_path_is_file(auth_path) && sw_authority_open(&auth, auth_path, false, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	if (cli_judge_setup(&judge, &judged, &llm, ctx, o->no_judge, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto cleanup;
	}
	struct sw_verify_opts vo = { .lenient = o->lenient, .judge = judged ? &judge.vj : NULL };
	int umode = -1;
	if (o->uncited && (umode = sw_uncited_mode_parse(o->uncited)) < 0) {
		sw_err_set(&err, SW_EINPUT, "--uncited %s: say block, warn or off", o->uncited);
		cli_fail(&err);
		rc = CLI_USAGE;
		goto cleanup;
	}
	if (o->task && sw_task_load(&task, ctx->ws.root, o->task, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto cleanup;
	}
	if (sw_task_verify_opts(&vo, task, &ctx->ws.config, umode, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto cleanup;
	}
	if (sw_verify(&rep, m, auth, d.view.text, d.view.len, &vo, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	if (cli_waive(&waivers, NULL, &rep, m, ctx, o->waive, o->reason, o->by, 0, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto cleanup;
	}
	struct sw_verify_audit audit = {
		.matter = sw_matter_name(m),
		.version = SW_VERSION,
		.commit = cli_build_commit,
		.draft_sha256 = d.sha256,
		.format = d.extracted && d.view.kind == SW_MARKUP_TEXT ? "extracted text"
								       : sw_markup_kind_name(d.view.kind),
	};
	char now[21], auth_time[21];
	sw_utc_now(now);
	audit.time = now;
	if (auth && file_time(auth_time, auth_path))
		audit.authorities_updated = auth_time;
	if (sw_record_import_stamp(&audit.record_documents, &last_import, m, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	audit.record_last_import = last_import;
	rep.view = &d.view;
	rep.audit = &audit;
	if (html) {
		FILE *f = fopen(html, "w");
		if (!f || sw_verify_html(f, &rep, sw_path_base(path), &err) != 0 || fclose(f) != 0) {
			if (!err.code)
				sw_err_set(&err, SW_EIO, "cannot write '%s'", html);
			cli_fail(&err);
			goto cleanup;
		}
	}
	struct shown shown = { &rep, html, o->annotate, 0, 0 };
	if (o->annotate && write_annotated(&shown, &rep, &d, path, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	if (o->json)
		rc = print_json(&rep, path, &shown, judged, rep.pass ? CLI_OK : CLI_NO);
	else
		rc = cli_emit_styled(false, NULL, print_text, &shown, rep.pass ? CLI_OK : CLI_NO);
cleanup:
	sw_task_free(task);
	sw_verify_release(&rep);
	sw_waivers_release(&waivers);
	sw_llm_config_release(&llm);
	sw_authority_close(auth);
	sw_matter_close(m);
	cli_draft_release(&d);
	free(auth_path);
	free(last_import);
	return rc;
}

const struct cli_command cli_cmd_verify = {
	.name = "verify",
	.usage = "-m MATTER DRAFT [--json] [--html OUT] [--annotate OUT.docx] [--lenient] "
		 "[--format FORMAT] [--no-judge] [--uncited MODE] [--task TASK] [--waive CLAIM "
		 "--reason TEXT [--by NAME]]",
	.summary = "check every claim of a draft against the record and the authorities",
	.description =
		"Finds every case citation, statute, rule, record citation, Bates number,\n"
		"date and quotation in DRAFT (Markdown, HTML, text, .docx, PDF or .eml;\n"
		"PDF pages are read from their text layer, without OCR) and checks each\n"
		"against the matter's evidence and the workspace's authority table.\n"
		"Markdown and HTML are read as the text they show (--format overrides\n"
		"the kind the extension or the first bytes give).  Each claim is given\n"
		"as line:column of the draft (of the extracted text for .docx, PDF and\n"
		".eml); --json and --html carry an audit stamp (matter, time, sworn\n"
		"version and commit, the draft's SHA-256, the record's document count\n"
		"and last import, when the authority table was last updated).\n"
		"--annotate OUT.docx writes the draft for Word: a .docx draft comes\n"
		"back as it was, with a comment anchored on each claim that did not\n"
		"pass (its verdict, the reason, the page that supports or contradicts\n"
		"it); any other draft becomes a new document of its text.\n"
		"Each claim is supported (with its evidence), unsupported, contradicted\n"
		"or unverifiable.\n"
		"Blocked claims are listed first, each with its reason.\n"
		"--waive CLAIM --reason TEXT records, in the matter's journal, that\n"
		"a lawyer (--by, else [user] name) checked a blocked claim by hand: it\n"
		"is shown as waived with the reason, and no longer blocks, in every\n"
		"later check of a draft of the matter that makes the same claim; a\n"
		"change to the claim's words or citation ends the waiver.\n"
		"With a [role \"judge\"] in sworn.conf, each cited sentence whose facts\n"
		"passed is also put to that model with only its cited pages; its\n"
		"\"supported\" counts only with a span found on the page, and [verify]\n"
		"judge = block|warn|off says whether its doubts block (warn: reasons\n"
		"only); --json then has its answers under \"judge\".\n"
		"A sentence that states a date, an amount, a quantity, a percentage\n"
		"or an identifier and cites nothing is listed as uncited; it blocks\n"
		"under --uncited block (else [verify] uncited of sworn.conf, else\n"
		"the task's, else warn).  --task TASK also requires the elements the\n"
		"task names (a declaration's 28 U.S.C. 1746 clause, a signature line)\n"
		"and blocks a draft that cites no record when the task needs one.\n\n"
		"Exit status: 0 the gate passes, 1 it blocks, 2 usage or input error.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct verify_opts),
	.min_pos = 1,
	.max_pos = 1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
