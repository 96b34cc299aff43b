/* cmd_run.c - `sworn run`: the runs of a matter: list, show (and the
 * current draft), resume, cancel, approve a lawyer's final, statistics by
 * model, role or task, and the context audit of each window. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "cli/cli_signoff.h"
#include "authority/authority.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"

struct run_opts {
	const char *matter, *final, *override, *out, *by, *format, *reason;
	bool json, draft, reasoning;
};

#define AT(f) offsetof(struct run_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose runs these are", CLI_STRING, AT(matter) },
	{ "json", 0, NULL, "print JSON", CLI_FLAG, AT(json) },
	{ "draft", 0, NULL, "show: print the run's current draft", CLI_FLAG, AT(draft) },
	{ "reasoning", 0, NULL, "show: print each step's thinking (reasoning models)", CLI_FLAG,
	  AT(reasoning) },
	{ "final", 'f', "FILE", "approve: the lawyer's edited final version", CLI_PATH, AT(final) },
	{ "format", 0, "FORMAT", "approve: " CLI_DRAFT_FORMAT_HELP, CLI_STRING, AT(format),
	  .values = CLI_DRAFT_FORMATS },
	{ "override", 0, "REASON",
	  "approve: accept the final despite blocked claims, recording why", CLI_STRING,
	  AT(override) },
	{ "out", 'o', "OUT", "approve: where to write the final document", CLI_PATH, AT(out) },
	{ "by", 0, "WHAT", "stats: group by model, role or task (default model); approve, waive: "
	  "who decides (default: [user] name of sworn.conf or user.conf)", CLI_STRING, AT(by) },
	{ "reason", 0, "TEXT", "waive: why the claim stands (one line, on the record)", CLI_STRING,
	  AT(reason) },
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

/* ------------------------------------------------------------------ text */

static const char *dash(const char *s)
{
	return s ? s : "-";
}

struct listed {
	const struct sw_run_list *runs;
	struct sw_matter *m;
};

static void print_list(FILE *f, const void *ud)
{
	const struct listed *l = ud;
	const struct sw_run_list *runs = l->runs;
	if (runs->n == 0) {
		fputs("no runs yet (start one with sworn draft)\n", f);
		return;
	}
	fprintf(f, "%-5s %-16s %-10s %-6s %-20s %s\n", "RUN", "TASK", "STATUS", "STEPS",
		"STARTED", "BRIEF");
	for (size_t i = 0; i < runs->n; i++) {
		const struct sw_run_summary *r = &runs->v[i];
		char steps[48];
		snprintf(steps, sizeof(steps), "%lld/%lld", (long long)r->steps_done,
			 (long long)r->steps);
		char status[64];
		struct sw_decisions so;
		struct sw_err err = { 0 };
		if (r->status && !strcmp(r->status, "approved") &&
		    sw_decisions_get(&so, l->m, r->id, &err) == 0) {
			cli_signoff_status(status, sizeof(status), &so, r->status);
			sw_decisions_release(&so);
		} else {
			snprintf(status, sizeof(status), "%s", dash(r->status));
		}
		fprintf(f, "%-5lld %-16s %-10s %-6s %-20s %s\n", (long long)r->id, dash(r->task),
			status, steps, dash(r->created_at), dash(r->brief));
	}
}

static void print_show(FILE *f, const void *ud)
{
	const struct sw_run_view *run = ud;
	fprintf(f, "run %lld · task %s · %s%s%s\n", (long long)run->id, dash(run->task),
		dash(run->status), run->reason ? " · " : "", run->reason ? run->reason : "");
	fprintf(f, "brief %s · started %s · %.1f s of work\n", dash(run->brief),
		dash(run->created_at), run->wall_s);
	/* HOST: the box of each step's server, when the fleet spans several */
	bool hosts = false;
	for (size_t i = 0; i < run->nsteps; i++)
		hosts = hosts || run->steps[i].host;
	fprintf(f, "\n%-14s %-9s %-10s %-12s ", "STEP", "STATUS", "ROLE", "ENDPOINT");
	if (hosts)
		fprintf(f, "%-10s ", "HOST");
	fprintf(f, "%-22s %7s %8s %7s\n", "MODEL", "TOKENS", "TOK/S", "SECONDS");
	for (size_t i = 0; i < run->nsteps; i++) {
		const struct sw_run_step_view *s = &run->steps[i];
		fprintf(f, "%-14s %-9s %-10s %-12s ", dash(s->key), dash(s->status), dash(s->role),
			dash(s->endpoint));
		if (hosts)
			fprintf(f, "%-10s ", dash(s->host));
		fprintf(f, "%-22.22s %7lld %8.1f %7.2f", dash(s->model),
			(long long)(s->completion_tokens > 0 ? s->completion_tokens : 0),
			s->predicted_per_s > 0 ? s->predicted_per_s : 0,
			s->wall_s > 0 ? s->wall_s : 0);
		if (s->claims >= 0)
			fprintf(f, "  %lld claims, %lld blocked", (long long)s->claims,
				(long long)(s->blocked > 0 ? s->blocked : 0));
		if (s->findings >= 0)
			fprintf(f, "  %lld findings", (long long)s->findings);
		if (s->error)
			fprintf(f, "\n    %s", s->error);
		fputc('\n', f);
	}
	for (size_t i = 0; i < run->nflags; i++) {
		const struct sw_run_flag_view *fl = &run->flags[i];
		fprintf(f,
			"WARNING: %s: evidence %s %s reads as instructions to a model (%s): %s\n",
			dash(fl->step), dash(fl->document), fl->bates ? fl->bates : "",
			dash(fl->kind), dash(fl->excerpt));
	}
	/* the blocked claims of the last verify, as the gate gave them */
	const struct sw_run_step_view *last = NULL;
	for (size_t i = 0; i < run->nsteps; i++)
		if (run->steps[i].kind && !strcmp(run->steps[i].kind, "verify") &&
		    run->steps[i].status && !strcmp(run->steps[i].status, "done"))
			last = &run->steps[i];
	for (size_t i = 0; last && i < last->nreasons; i++) {
		const struct sw_run_reason *r = &last->reasons[i];
		if (i == 0)
			fprintf(f, "\nblocked in %s:\n", dash(last->key));
		fprintf(f, "  %s: \"%s\"\n    %s\n", dash(r->verdict), dash(r->claim),
			dash(r->reason));
	}
}

/* The thinking a reasoning model did before each step's answer, which
 * never became the step's output (kept in the step's detail).  A model's
 * text: cleaned for the terminal. */
static void print_reasoning(const struct sw_run_view *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->nsteps; i++) {
		const struct sw_run_step_view *s = &run->steps[i];
		const char *r = s->reasoning, *note = s->reasoning_note;
		if (!r && !note)
			continue;
		n++;
		printf("\n--- %s: thinking (%s)\n", dash(s->key), dash(s->model));
		if (note) {
			sw_term_puts(stdout, note);
			putchar('\n');
		}
		if (r) {
			sw_term_puts(stdout, r);
			if (*r && r[strlen(r) - 1] != '\n')
				putchar('\n');
		}
	}
	if (n == 0)
		puts("\nno step of this run kept any thinking");
}

static void print_approve(FILE *f, const void *ud)
{
	const struct sw_approve_result *r = ud;
	if (!r->accepted) {
		fprintf(f, "refused: %zu of %zu claims of the final are blocked; fix them, or accept"
			" with --override \"reason\" (recorded)\n", r->blocked, r->claims);
		return;
	}
	fprintf(f, "approved%s: %zu claims, %zu blocked; correction %lld stored (words kept %zu,"
		" changed %zu, added %zu, removed %zu)\n", r->overridden ? " with override" : "",
		r->claims, r->blocked, (long long)r->correction_id, r->words.kept, r->words.changed,
		r->words.added, r->words.removed);
}

/* A figure of a stats row, or "-" where there is no data (< 0). */
static void num_col(FILE *f, double x, int width, int prec)
{
	if (x >= 0)
		fprintf(f, " %*.*f", width, prec, x);
	else
		fprintf(f, " %*s", width, "-");
}

static void print_stats(FILE *f, const void *ud)
{
	const struct sw_run_stats *st = ud;
	if (st->n == 0) {
		fputs("no runs yet (start one with sworn draft)\n", f);
		return;
	}
	fprintf(f, "%-24s %5s %11s %9s %7s %8s %6s %9s %9s %8s\n", "", "RUNS", "BLOCKED/100",
		"FINDINGS", "ROUNDS", "BLOCKED%", "EDITS", "DECODE/s", "PROMPT/s", "WALL s");
	for (size_t i = 0; i < st->n; i++) {
		const struct sw_run_stats_row *r = &st->v[i];
		fprintf(f, "%-24.24s %5lld", r->group ? r->group : "(unknown)", (long long)r->runs);
		num_col(f, r->blocked_per_100_claims, 11, 1);
		num_col(f, r->findings_per_draft, 9, 1);
		num_col(f, r->rounds_to_verified, 7, 1);
		if (r->blocked_share >= 0)
			fprintf(f, " %7.0f%%", 100 * r->blocked_share);
		else
			fprintf(f, " %8s", "-");
		num_col(f, r->edit_ratio, 6, 2);
		num_col(f, r->decode_tok_s, 9, 1);
		num_col(f, r->prompt_tok_s, 9, 1);
		num_col(f, r->wall_s, 8, 1);
		fputc('\n', f);
	}
}

static void print_context(FILE *f, const void *ud)
{
	const struct sw_run_context *c = ud;
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct sw_context_step *st = &c->steps[i];
		fprintf(f, "%s (%s on %s): %lld tokens\n", dash(st->key), dash(st->role),
			dash(st->endpoint), (long long)st->tokens);
		for (size_t k = 0; k < st->nsections; k++) {
			const struct sw_context_section *sec = &st->sections[k];
			fprintf(f, "  %-12s %-9s %6lld%s", dash(sec->kind), dash(sec->origin),
				(long long)sec->tokens, sec->estimated ? "~" : " ");
			if (sec->document)
				fprintf(f, "  %s p. %lld", sec->document, (long long)sec->page);
			if (sec->bates)
				fprintf(f, " (%s)", sec->bates);
			fputc('\n', f);
		}
	}
	fputs("by origin:", f);
	for (size_t i = 0; i < c->norigins; i++)
		fprintf(f, "  %s %lld (%.0f%%)", c->by_origin[i].origin,
			(long long)c->by_origin[i].tokens, 100 * c->by_origin[i].share);
	fputc('\n', f);
	size_t nv = c->nviolations;
	fprintf(f, "%s\n", nv ? "VIOLATIONS: non-evidence text was presented as evidence (see --json)"
			      : "no non-evidence text was presented as evidence");
}

/* ------------------------------------------------------------------ run */

static int do_approve(struct cli_ctx *ctx, struct sw_matter *m, int64_t id,
		      const struct run_opts *o)
{
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
	if (o->json) {
		doc = json_pack("{s:I, s:b, s:b, s:I, s:I, s:I}", "run", (json_int_t)id, "accepted",
				r.accepted, "overridden", r.overridden, "claims", (json_int_t)r.claims,
				"blocked", (json_int_t)r.blocked, "correction",
				(json_int_t)r.correction_id);
		if (r.accepted)
			json_object_set_new(doc, "final", json_string(out));
		if (r.report_json)
			json_object_set_new(doc, "report", json_loads(r.report_json, 0, NULL));
	}
	rc = cli_emit(o->json, doc, print_approve, &r, r.accepted ? CLI_OK : CLI_NO);
	if (!r.accepted && !o->json && r.report_json) {
		fprintf(stderr, "sworn: run %lld's final is refused; the claims that block:\n",
			(long long)id);
		cli_blocked_print(stderr, r.report_json);
	}
	if (r.accepted && !o->json)
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
static int do_waive(struct cli_ctx *ctx, struct sw_matter *m, int64_t id, const char *claim,
		    const struct run_opts *o)
{
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
	json_t *doc = o->json ? json_pack("{s:I, s:I, s:s, s:s, s:s, s:b}", "run", (json_int_t)id,
					  "waiver", (json_int_t)(x ? x->id : 0), "reason",
					  x ? x->reason : "", "by", x ? x->by : "", "at",
					  x ? x->at : "", "gate", rep.pass)
			      : NULL;
	rc = cli_emit(o->json, doc, NULL, NULL, CLI_OK);
	if (!o->json && x)
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

static int run_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct run_opts *o = a->opts;
	const char *sub = a->pos[0];
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	json_t *doc = NULL;
	int64_t id = 0;
	int rc;

	(void)cmd;
	bool needs_id = strcmp(sub, "list") && strcmp(sub, "stats");
	if (!strcmp(sub, "list") || !strcmp(sub, "stats")) {
		if (a->npos != 1) {
			cli_error("sworn run %s takes no run number", sub);
			return CLI_USAGE;
		}
	} else if (!strcmp(sub, "waive")) {
		if (a->npos != 3) {
			cli_error("usage: sworn run waive RUN CLAIM --reason TEXT [--final FILE]");
			return CLI_USAGE;
		}
	} else if (!strcmp(sub, "show") || !strcmp(sub, "resume") || !strcmp(sub, "cancel") ||
		   !strcmp(sub, "approve") || !strcmp(sub, "context") || !strcmp(sub, "version")) {
		if (a->npos < 2 || (a->npos > 2 && strcmp(sub, "context")) || a->npos > 3) {
			cli_error("usage: sworn run %s RUN%s", sub,
				  !strcmp(sub, "context") ? " [STEP]" : "");
			return CLI_USAGE;
		}
	} else {
		cli_error("unknown subcommand 'run %s' (list, show, resume, cancel, approve, waive,"
			  " version, stats, context)", sub);
		return CLI_USAGE;
	}
	if (needs_id && (rc = run_id_arg(&id, a->pos[1])) != 0)
		return rc;
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0) {
		cli_fail(&err);
		return CLI_USAGE;
	}
	if (!strcmp(sub, "list")) {
		struct sw_run_list list;
		if (sw_run_list(&list, m, &err) != 0) {
			rc = cli_fail(&err);
			if (rc == CLI_NO)
				rc = CLI_USAGE;
		} else {
			/* an object, so that cli_emit stamps it like every document */
			struct listed l = { &list, m };
			rc = cli_emit(o->json, o->json ? json_pack("{s:o}", "runs",
								 sw_run_list_json(&list)) : NULL,
				      print_list, &l, CLI_OK);
			sw_run_list_release(&list);
		}
	} else if (!strcmp(sub, "show")) {
		struct sw_run_view view;
		bool have = sw_run_get(&view, m, id, &err) == 0;
		doc = have ? sw_run_view_json(&view) : NULL;
		if (doc && o->draft) {
			char *draft = NULL;
			if (sw_run_draft(&draft, m, id, &err) != 0) {
				rc = cli_fail(&err);
			} else {
				if (o->json)
					json_object_set_new(doc, "draft", json_string(draft));
				else
					sw_term_puts(stdout, draft); /* a model's text */
				rc = o->json ? cli_emit(true, json_incref(doc), NULL, NULL, CLI_OK) : CLI_OK;
			}
			free(draft);
		} else {
			struct sw_decisions so = { 0 };
			if (doc && sw_decisions_get(&so, m, id, &err) != 0) {
				json_decref(doc);
				doc = NULL;
			}
			if (doc && o->json)
				json_object_update_new(doc, sw_decisions_json(&so));
			rc = doc ? cli_emit(o->json, o->json ? json_incref(doc) : NULL, print_show,
					    &view, CLI_OK)
				 : cli_fail(&err);
			if (doc && rc == CLI_OK && !o->json)
				cli_signoff_print(stdout, &so);
			sw_decisions_release(&so);
			if (rc == CLI_OK && o->reasoning && !o->json)
				print_reasoning(&view);
		}
		sw_run_view_release(&view);
	} else if (!strcmp(sub, "resume")) {
		rc = cli_run_drive(ctx, m, NULL, id, NULL, NULL, 0, o->json);
	} else if (!strcmp(sub, "cancel")) {
		rc = sw_run_cancel(m, id, &err) == 0 ? CLI_OK : cli_fail(&err);
		if (rc == CLI_OK)
			rc = cli_emit(o->json, o->json ? json_pack("{s:I, s:s}", "run", (json_int_t)id,
								   "status", "cancelled")
						       : NULL,
				      NULL, NULL, CLI_OK);
		if (rc == CLI_OK && !o->json)
			printf("run %lld cancelled\n", (long long)id);
	} else if (!strcmp(sub, "approve")) {
		rc = do_approve(ctx, m, id, o);
	} else if (!strcmp(sub, "waive")) {
		rc = do_waive(ctx, m, id, a->pos[2], o);
	} else if (!strcmp(sub, "version")) {
		int64_t nid = 0;
		rc = sw_run_new_version(&nid, m, id, &err) == 0 ? CLI_OK : cli_fail(&err);
		if (rc == CLI_OK)
			rc = cli_emit(o->json,
				      o->json ? json_pack("{s:I, s:I}", "run", (json_int_t)nid,
							  "version_of", (json_int_t)id)
					      : NULL,
				      NULL, NULL, CLI_OK);
		if (rc == CLI_OK && !o->json)
			printf("run %lld: a new version of approved run %lld; edit it (sworn run "
			       "show %lld "
			       "--draft) and approve it (sworn run approve %lld --final FILE)\n",
			       (long long)nid, (long long)id, (long long)nid, (long long)nid);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
	} else if (!strcmp(sub, "stats")) {
		enum sw_stats_by by = SW_STATS_MODEL;
		if (o->by && !strcmp(o->by, "role"))
			by = SW_STATS_ROLE;
		else if (o->by && !strcmp(o->by, "task"))
			by = SW_STATS_TASK;
		else if (o->by && strcmp(o->by, "model")) {
			cli_error("bad --by '%s': give model, role or task", o->by);
			sw_matter_close(m);
			return CLI_USAGE;
		}
		struct sw_run_stats st;
		if (sw_run_stats(&st, m, by, &err) != 0) {
			rc = cli_fail(&err);
			if (rc == CLI_NO)
				rc = CLI_USAGE;
		} else {
			rc = cli_emit(o->json, o->json ? json_pack("{s:s, s:o}", "by",
								 o->by ? o->by : "model", "groups",
								 sw_run_stats_to_json(&st))
						       : NULL,
				      print_stats, &st, CLI_OK);
			sw_run_stats_release(&st);
		}
	} else {
		struct sw_run_context c;
		if (sw_run_context(&c, m, id, a->npos > 2 ? a->pos[2] : NULL, &err) != 0) {
			rc = cli_fail(&err);
			if (rc == CLI_NO)
				rc = CLI_USAGE; /* no such run or step: an input error */
		} else {
			rc = cli_emit(o->json, o->json ? sw_run_context_to_json(&c) : NULL,
				      print_context, &c, c.nviolations ? CLI_NO : CLI_OK);
			sw_run_context_release(&c);
		}
	}
	if (rc == CLI_NO && !doc && (!strcmp(sub, "show") || !strcmp(sub, "cancel")))
		rc = CLI_USAGE; /* a lookup error (no such run) is an input error */
	json_decref(doc);
	sw_matter_close(m);
	return rc;
}

const struct cli_command cli_cmd_run = {
	.name = "run",
	.usage = "list | show RUN [--draft] [--reasoning] | resume RUN | cancel RUN | approve RUN "
		 "--final FILE"
		 " [--override REASON] [-o OUT] [--by NAME] | waive RUN CLAIM --reason TEXT "
		 "[--final FILE] [--by NAME] | version RUN | stats [--by model|role|task] | "
		 "context RUN [STEP]"
		 " (each with -m MATTER [--json])",
	.summary = "the drafting runs of a matter: show, resume, approve, statistics, context audit",
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
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct run_opts),
	.min_pos = 1,
	.max_pos = 3,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run_run,
};
