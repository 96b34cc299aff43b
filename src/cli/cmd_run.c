/* cmd_run.c - `sworn run`: the runs of a matter: list, show (and the
 * current draft), resume, cancel, approve a lawyer's final, statistics by
 * model, role or task, and the context audit of each window. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "cli/cli_run.h"
#include "cli/cli_signoff.h"
#include "authority/authority.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"

/* Every subcommand takes -m and --json: the first member of its struct. */
struct run_base {
	const char *matter;
	bool json;
};
struct show_opts {
	struct run_base b;
	bool draft, reasoning;
};
struct approve_opts {
	struct run_base b;
	const char *final, *format, *override, *out, *by;
};
struct waive_opts {
	struct run_base b;
	const char *final, *format, *reason, *by;
};
struct stats_opts {
	struct run_base b;
	const char *by;
};

#define BASE_OPTS(type)                                                                            \
	{ "matter",   'm',                                                                         \
	  "MATTER",   "the matter whose runs these are",                                           \
	  CLI_STRING, offsetof(struct type, b.matter) },                                           \
	{                                                                                          \
		"json", 0, NULL, "print JSON", CLI_FLAG, offsetof(struct type, b.json)             \
	}
#define FINAL_OPTS(type, what)                                                                     \
	{ "final", 'f', "FILE", what, CLI_PATH, offsetof(struct type, final) },                    \
	{                                                                                          \
		"format", 0, "FORMAT", CLI_DRAFT_FORMAT_HELP, CLI_STRING,                          \
			offsetof(struct type, format), .values = CLI_DRAFT_FORMATS                 \
	}
#define BY_OPT(type, what)                                                                         \
	{                                                                                          \
		"by", 0, "WHAT", what, CLI_STRING, offsetof(struct type, by)                       \
	}
#define WHO "who decides (default: [user] name of sworn.conf or user.conf)"

struct base_only {
	struct run_base b;
};
static const struct cli_opt base_rows[] = { BASE_OPTS(base_only) };
static const struct cli_opt show_rows[] = {
	BASE_OPTS(show_opts),
	{ "draft", 0, NULL, "print the run's current draft", CLI_FLAG,
	  offsetof(struct show_opts, draft) },
	{ "reasoning", 0, NULL, "print each step's thinking (reasoning models)", CLI_FLAG,
	  offsetof(struct show_opts, reasoning) },
};
static const struct cli_opt approve_rows[] = {
	BASE_OPTS(approve_opts),
	FINAL_OPTS(approve_opts, "the lawyer's edited final version"),
	{ "override", 0, "REASON", "accept the final despite blocked claims, recording why",
	  CLI_STRING, offsetof(struct approve_opts, override) },
	{ "out", 'o', "OUT", "where to write the final document", CLI_PATH,
	  offsetof(struct approve_opts, out) },
	BY_OPT(approve_opts, WHO),
};
static const struct cli_opt waive_rows[] = {
	BASE_OPTS(waive_opts),
	FINAL_OPTS(waive_opts, "number the claims as in this edited version, not the run's draft"),
	{ "reason", 0, "TEXT", "why the claim stands (one line, on the record)", CLI_STRING,
	  offsetof(struct waive_opts, reason) },
	BY_OPT(waive_opts, WHO),
};
static const struct cli_opt stats_rows[] = {
	BASE_OPTS(stats_opts),
	BY_OPT(stats_opts, "group by model, role or task (default model)"),
};

static int run_id_arg(int64_t *id, const char *s)
{
	long long v;
	if (!s || !sw_parse_int(s, 1, INT64_MAX, &v)) {
		cli_error("bad run '%s': give the run's number (sworn run list)", s ? s : "");
		return CLI_USAGE;
	}
	*id = v;
	return 0;
}

/* ------------------------------------------------------------------ run */

static int approve(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct approve_opts *o = a->opts;
	struct cli_draft d = { 0 };
	struct sw_approve_result r = { 0 };
	struct sw_person who = { 0 };
	struct sw_err err = { 0 };
	struct sw_authority *auth = NULL;
	struct sw_llm_config llm = { 0 };
	struct sw_judge judge;
	bool judged = false;
	char *out = NULL;
	int rc, arc;

	if (!o->final) {
		cli_error("sworn run approve needs --final FILE: the lawyer's edited version");
		return CLI_USAGE;
	}
	if (o->override && !o->override[0]) {
		cli_error("--override needs a reason (it is recorded with the verdicts it overrides)");
		return CLI_USAGE;
	}
	if (cli_draft_read(&d, o->final, o->format, &err) != 0) {
		cli_fail(&err);
		cli_draft_release(&d);
		return CLI_USAGE;
	}
	auth = cli_open_authorities(ctx, &err, &arc);
	if (arc != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	if (o->out && o->out[0] == '/') {
		out = sw_xstrdup(o->out);
	} else if (o->out) {
		/* the journal keeps where the final went: an absolute path */
		char cwd[4096];
		if (!getcwd(cwd, sizeof(cwd))) {
			cli_error("cannot tell the current folder for '%s'", o->out);
			rc = CLI_USAGE;
			goto done;
		}
		out = sw_path_join(cwd, o->out);
	} else {
		char *dir = sw_path_join(sw_matter_dir(m), "finals");
		if (sw_mkdir_p(dir, 0755, &err) != 0) {
			free(dir);
			rc = cli_fail(&err);
			goto done;
		}
		out = sw_xasprintf("%s/run-%lld-final.md", dir, (long long)id);
		free(dir);
	}
	/* approval re-verifies as sworn verify does: the judge as configured */
	if (cli_judge_setup(&judge, &judged, &llm, ctx, false, &err) != 0) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
		goto done;
	}
	/* An override needs the person who takes it; a clean approval records
	 * the person when one is named. */
	int prc = cli_person(&who, ctx, o->by, &err);
	if (prc != 0 && (o->override || prc != SW_ENOTFOUND)) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
		goto done;
	}
	struct sw_approve_opts ao = {
		.by = prc == 0 ? &who : NULL,
		.judge = judged ? &judge.vj : NULL,
		.final_text = d.view.src,
		.final_len = d.view.src_len,
		.final_name = sw_path_base(o->final),
		.override = o->override,
		.auth = auth,
		.out_path = out,
		.ws = &ctx->ws,
	};
	if (sw_run_approve(&r, m, id, &ao, &err) != 0) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
		goto done;
	}
	json_t *doc = NULL;
	if (o->b.json) {
		doc = json_pack("{s:I, s:b, s:b, s:I, s:I, s:I}", "run", (json_int_t)id, "accepted",
				r.accepted, "overridden", r.overridden, "claims", (json_int_t)r.claims,
				"blocked", (json_int_t)r.blocked, "correction",
				(json_int_t)r.correction_id);
		if (r.accepted)
			json_object_set_new(doc, "final", json_string(out));
		if (r.report_json)
			json_object_set_new(doc, "report", json_loads(r.report_json, 0, NULL));
	}
	rc = cli_emit(o->b.json, doc, cli_run_print_approve, &r, r.accepted ? CLI_OK : CLI_NO);
	if (!r.accepted && !o->b.json && r.report_json) {
		fprintf(stderr, "sworn: run %lld's final is refused; the claims that block:\n",
			(long long)id);
		cli_blocked_print(stderr, r.report_json);
	}
	if (r.accepted && !o->b.json)
		printf("final document: %s\n", out);
	if (r.accepted && !ao.by && !cli_globals.quiet)
		fputs("sworn: approved by nobody named: put [user] name = ... in sworn.conf or "
		      "user.conf (or give --by NAME) to record who approves\n", stderr);
done:
	sw_person_release(&who);
	sw_approve_result_release(&r);
	sw_llm_config_release(&llm);
	sw_authority_close(auth);
	cli_draft_release(&d);
	free(out);
	return rc;
}

/* sworn run waive RUN CLAIM: the claim as numbered in the run's current
 * draft, or in --final FILE. */
static int waive(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct waive_opts *o = a->opts;
	const char *claim = a->pos[1];
	struct sw_err err = { 0 };
	struct cli_draft d = { 0 };
	struct sw_markup view = { 0 };
	struct sw_verify_report rep = { 0 };
	struct sw_waivers w = { 0 };
	struct sw_authority *auth = NULL;
	char *draft = NULL;
	long k = -1;
	int rc = CLI_USAGE, arc;

	auth = cli_open_authorities(ctx, &err, &arc);
	if (arc != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	const char *text;
	size_t len;
	if (o->final) {
		if (cli_draft_read(&d, o->final, o->format, &err) != 0) {
			cli_fail(&err);
			goto done;
		}
		text = d.view.text;
		len = d.view.len;
	} else {
		if (sw_run_draft(&draft, m, id, &err) != 0 ||
		    sw_markup_parse(&view, SW_MARKUP_MARKDOWN, draft, strlen(draft), &err) != 0) {
			cli_fail(&err);
			goto done;
		}
		text = view.text;
		len = view.len;
	}
	struct sw_verify_opts vo = { .lenient = false };
	if (sw_verify(&rep, m, auth, text, len, &vo, &err) != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	if (cli_waive(&w, &k, &rep, m, ctx, claim, o->reason ? o->reason : "", o->by, id,
		      &err) != 0) {
		cli_fail(&err);
		goto done;
	}
	const struct sw_verify_waiver *x = rep.verdicts[k].waiver;
	json_t *doc = o->b.json ? json_pack("{s:I, s:I, s:s, s:s, s:s, s:b}", "run", (json_int_t)id,
					    "waiver", (json_int_t)(x ? x->id : 0), "reason",
					    x ? x->reason : "", "by", x ? x->by : "", "at",
					    x ? x->at : "", "gate", rep.pass)
				: NULL;
	rc = cli_emit(o->b.json, doc, NULL, NULL, CLI_OK);
	if (!o->b.json && x)
		sw_term_printf(stdout, "claim %ld waived by %s on %s: %s\n%zu claims: %zu waived; "
			       "the gate %s\n", k + 1, x->by, x->at, x->reason, rep.claims.n,
			       rep.nwaived, rep.pass ? "passes" : "still blocks");
done:
	sw_verify_release(&rep);
	sw_waivers_release(&w);
	sw_markup_release(&view);
	cli_draft_release(&d);
	sw_authority_close(auth);
	free(draft);
	return rc;
}

/* A subcommand's work, with the matter open and the run's number (0 for
 * list and stats); returns the exit code. */
struct act {
	int (*fn)(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a);
	bool needs_id; /* the first argument is a run's number */
};

/* Open what act needs (the run's number read first, then the matter),
 * do it, and close the matter. */
static int with_run(struct cli_ctx *ctx, const struct cli_args *a, struct act act)
{
	const struct run_base *b = a->opts;
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	int64_t id = 0;
	int rc;
	if (act.needs_id && (rc = run_id_arg(&id, a->pos[0])) != 0)
		return rc;
	if (cli_matter_open(&m, ctx, b->matter, &err) != 0) {
		cli_fail(&err);
		return CLI_USAGE;
	}
	rc = act.fn(ctx, m, id, a);
	sw_matter_close(m);
	return rc;
}

/* NAME_run, the subcommand's run(): NAME by with_run. */
#define RUN_WITH(name, id)                                                                         \
	static int name##_run(struct cli_ctx *ctx, const struct cli_command *cmd,                  \
			      const struct cli_args *a)                                            \
	{                                                                                          \
		(void)cmd;                                                                         \
		return with_run(ctx, a, (struct act){ name, id });                                 \
	}

/* A lookup's "no" (no such run or step) is an input error. */
static int input_error(int rc)
{
	return rc == CLI_NO ? CLI_USAGE : rc;
}

static int list(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct run_base *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_run_list runs;
	int rc;
	(void)ctx;
	(void)id;
	if (sw_run_list(&runs, m, &err) != 0)
		return input_error(cli_fail(&err));
	/* an object, so that cli_emit stamps it like every document */
	struct cli_run_listed l = { &runs, m };
	rc = cli_emit(o->json, o->json ? json_pack("{s:o}", "runs", sw_run_list_json(&runs)) : NULL,
		      cli_run_print_list, &l, CLI_OK);
	sw_run_list_release(&runs);
	return rc;
}
RUN_WITH(list, false)

static int show(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct show_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_run_view view;
	int rc = CLI_OK;
	(void)ctx;
	bool have = sw_run_get(&view, m, id, &err) == 0;
	json_t *doc = have ? sw_run_view_json(&view) : NULL;
	if (doc && o->draft) {
		char *draft = NULL;
		if (sw_run_draft(&draft, m, id, &err) != 0) {
			rc = cli_fail(&err);
		} else {
			if (o->b.json)
				json_object_set_new(doc, "draft", json_string(draft));
			else
				sw_term_puts(stdout, draft); /* a model's text */
			rc = o->b.json ? cli_emit(true, json_incref(doc), NULL, NULL, CLI_OK)
				       : CLI_OK;
		}
		free(draft);
	} else {
		struct sw_decisions so = { 0 };
		if (doc && sw_decisions_get(&so, m, id, &err) != 0) {
			json_decref(doc);
			doc = NULL;
		}
		if (doc && o->b.json)
			json_object_update_new(doc, sw_decisions_json(&so));
		rc = doc ? cli_emit(o->b.json, o->b.json ? json_incref(doc) : NULL,
				    cli_run_print_show, &view, CLI_OK)
			 : cli_fail(&err);
		if (doc && rc == CLI_OK && !o->b.json)
			cli_signoff_print(stdout, &so);
		sw_decisions_release(&so);
		if (rc == CLI_OK && o->reasoning && !o->b.json)
			cli_run_print_reasoning(&view);
	}
	sw_run_view_release(&view);
	if (rc == CLI_NO && !doc)
		rc = CLI_USAGE; /* a lookup error (no such run) is an input error */
	json_decref(doc);
	return rc;
}
RUN_WITH(show, true)

static int resume(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct run_base *o = a->opts;
	return cli_run_drive(ctx, m, NULL, id, NULL, NULL, 0, o->json);
}
RUN_WITH(resume, true)

static int cancel(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct run_base *o = a->opts;
	struct sw_err err = { 0 };
	(void)ctx;
	if (sw_run_cancel(m, id, &err) != 0)
		return input_error(cli_fail(&err));
	int rc = cli_emit(
		o->json,
		o->json ? json_pack("{s:I, s:s}", "run", (json_int_t)id, "status", "cancelled")
			: NULL,
		NULL, NULL, CLI_OK);
	if (rc == CLI_OK && !o->json)
		printf("run %lld cancelled\n", (long long)id);
	return rc;
}
RUN_WITH(cancel, true)
RUN_WITH(approve, true)
RUN_WITH(waive, true)

static int version(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct run_base *o = a->opts;
	struct sw_err err = { 0 };
	int64_t nid = 0;
	(void)ctx;
	int rc = sw_run_new_version(&nid, m, id, &err) == 0 ? CLI_OK : cli_fail(&err);
	if (rc == CLI_OK)
		rc = cli_emit(o->json,
			      o->json ? json_pack("{s:I, s:I}", "run", (json_int_t)nid,
						  "version_of", (json_int_t)id)
				      : NULL,
			      NULL, NULL, CLI_OK);
	if (rc == CLI_OK && !o->json)
		printf("run %lld: a new version of approved run %lld; edit it (sworn run show %lld "
		       "--draft) and approve it (sworn run approve %lld --final FILE)\n",
		       (long long)nid, (long long)id, (long long)nid, (long long)nid);
	return input_error(rc);
}
RUN_WITH(version, true)

static int stats(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct stats_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_run_stats st;
	enum sw_stats_by by = SW_STATS_MODEL;
	(void)ctx;
	(void)id;
	if (o->by && !strcmp(o->by, "role"))
		by = SW_STATS_ROLE;
	else if (o->by && !strcmp(o->by, "task"))
		by = SW_STATS_TASK;
	if (sw_run_stats(&st, m, by, &err) != 0)
		return input_error(cli_fail(&err));
	int rc = cli_emit(o->b.json,
			  o->b.json ? json_pack("{s:s, s:o}", "by", o->by ? o->by : "model",
						"groups", sw_run_stats_to_json(&st))
				    : NULL,
			  cli_run_print_stats, &st, CLI_OK);
	sw_run_stats_release(&st);
	return rc;
}

/* --by is checked before the matter is opened. */
static int stats_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct stats_opts *o = a->opts;
	(void)cmd;
	if (o->by && strcmp(o->by, "model") && strcmp(o->by, "role") && strcmp(o->by, "task")) {
		cli_error("bad --by '%s': give model, role or task", o->by);
		return CLI_USAGE;
	}
	return with_run(ctx, a, (struct act){ stats, false });
}

static int context(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const struct cli_args *a)
{
	const struct run_base *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_run_context c;
	(void)ctx;
	if (sw_run_context(&c, m, id, a->npos > 1 ? a->pos[1] : NULL, &err) != 0)
		return input_error(cli_fail(&err)); /* no such run or step */
	int rc = cli_emit(o->json, o->json ? sw_run_context_to_json(&c) : NULL,
			  cli_run_print_context, &c, c.nviolations ? CLI_NO : CLI_OK);
	sw_run_context_release(&c);
	return rc;
}
RUN_WITH(context, true)

#define RUN_SUB(verb, use, what, table, type, min, max, fn)                                        \
	{                                                                                          \
		.name = verb, .usage = use, .summary = what, .opts = table,                        \
		.nopts = SW_ARRAY_LEN(table), .opts_size = sizeof(struct type), .min_pos = min,    \
		.max_pos = max, .run = fn                                                          \
	}
#define MJ "[-m MATTER] [--json]"
static const struct cli_subcommand sub_list =
	RUN_SUB("list", MJ, "every run, newest first", base_rows, base_only, 0, 0, list_run);
static const struct cli_subcommand sub_show =
	RUN_SUB("show", "RUN [--draft] [--reasoning] " MJ,
		"a run's steps, tokens and times, warnings, blocked claims and sign-off", show_rows,
		show_opts, 1, 1, show_run);
static const struct cli_subcommand sub_resume =
	RUN_SUB("resume", "RUN " MJ, "continue a paused or crashed run without redoing steps",
		base_rows, base_only, 1, 1, resume_run);
static const struct cli_subcommand sub_cancel =
	RUN_SUB("cancel", "RUN " MJ, "stop a run for good", base_rows, base_only, 1, 1, cancel_run);
static const struct cli_subcommand sub_approve =
	RUN_SUB("approve", "RUN --final FILE [--override REASON] [-o OUT] [--by NAME] " MJ,
		"verify the lawyer's edited final again and accept it when the gate passes",
		approve_rows, approve_opts, 1, 1, approve_run);
static const struct cli_subcommand sub_waive =
	RUN_SUB("waive", "RUN CLAIM --reason TEXT [--final FILE] [--by NAME] " MJ,
		"waive one blocked claim, with the reason on the record", waive_rows, waive_opts, 2,
		2, waive_run);
static const struct cli_subcommand sub_version =
	RUN_SUB("version", "RUN " MJ, "a new run whose draft is an approved run's final", base_rows,
		base_only, 1, 1, version_run);
static const struct cli_subcommand sub_stats =
	RUN_SUB("stats", "[--by model|role|task] " MJ,
		"blocked claims, findings, rounds, edit ratio and tok/s by model, role or task",
		stats_rows, stats_opts, 0, 0, stats_run);
static const struct cli_subcommand sub_context =
	RUN_SUB("context", "RUN [STEP] " MJ,
		"every section of every window with its origin, document, Bates and tokens",
		base_rows, base_only, 1, 2, context_run);

static const struct cli_subcommand *const subs[] = {
	&sub_list,  &sub_show,	  &sub_resume, &sub_cancel,  &sub_approve,
	&sub_waive, &sub_version, &sub_stats,  &sub_context,
};

const struct cli_command cli_cmd_run = {
	.name = "run",
	.summary =
		"the drafting runs of a matter: show, resume, approve, statistics, context audit",
	.description =
		"list: every run, newest first.  show: its steps with endpoint (and its\n"
		"host when the fleet spans several boxes), model, tokens, tok/s and time,\n"
		"injection warnings, and the claims the last verify\n"
		"blocked; --draft prints the current draft.  resume: continue a paused or\n"
		"crashed run without redoing finished steps.  cancel: stop a run for good.\n"
		"approve: verify the lawyer's edited final again (human edits can add errors\n"
		"too); it is accepted only when the gate passes, or with --override \"reason\",\n"
		"which is recorded with the verdicts it overrode.  The final is written (by\n"
		"default to matters/MATTER/finals/run-RUN-final.md), stored with origin human,\n"
		"and the pair (model draft, final) kept as a correction; who approved\n"
		"(--by, else [user] name) is recorded with it, and refused, it lists each\n"
		"claim that blocks on stderr.  waive: waive claim CLAIM (its number in the\n"
		"run's draft, or in --final FILE, or its fingerprint) with --reason, as\n"
		"sworn verify --waive does.  show and list give the approver, the override\n"
		"and the waivers.  An approved run is frozen: version makes a new run\n"
		"whose draft is its final, to edit and approve again.  stats: per model,\n"
		"role or task: first-draft claims blocked per 100, review findings, rounds to\n"
		"verified, edit ratio, tok/s.  context: every section of every window with\n"
		"its origin, document, Bates number and tokens; exit 1 if any text that is\n"
		"not evidence was presented as evidence.",
	.flags = CLI_NEEDS_WORKSPACE,
	.subs = subs,
	.nsubs = SW_ARRAY_LEN(subs),
};
