/* cmd_run_text.c - what sworn run prints as text: the list of runs, one
 * run, its reasoning, an approval, the statistics and the context audit
 * (cli_run.h).  Leaves: they call nothing in cmd_run.c. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_run.h"
#include "cli/cli_signoff.h"

/* ------------------------------------------------------------------ text */

static const char *dash(const char *s)
{
	return s ? s : "-";
}

void cli_run_print_list(FILE *f, const void *ud)
{
	const struct cli_run_listed *l = ud;
	const struct sw_run_list *runs = l->runs;
	if (runs->n == 0) {
		fputs("no runs yet (start one with sworn draft)\n", f);
		return;
	}
	fprintf(f, "%-5s %-16s %-10s %-6s %-20s %s\n", "RUN", "TASK", "STATUS", "STEPS", "STARTED",
		"BRIEF");
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

void cli_run_print_show(FILE *f, const void *ud)
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
void cli_run_print_reasoning(const struct sw_run_view *run)
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

void cli_run_print_approve(FILE *f, const void *ud)
{
	const struct sw_approve_result *r = ud;
	if (!r->accepted) {
		fprintf(f,
			"refused: %zu of %zu claims of the final are blocked; fix them, or accept"
			" with --override \"reason\" (recorded)\n",
			r->blocked, r->claims);
		return;
	}
	fprintf(f,
		"approved%s: %zu claims, %zu blocked; correction %lld stored (words kept %zu,"
		" changed %zu, added %zu, removed %zu)\n",
		r->overridden ? " with override" : "", r->claims, r->blocked,
		(long long)r->correction_id, r->words.kept, r->words.changed, r->words.added,
		r->words.removed);
}

/* A figure of a stats row, or "-" where there is no data (< 0). */
static void num_col(FILE *f, double x, int width, int prec)
{
	if (x >= 0)
		fprintf(f, " %*.*f", width, prec, x);
	else
		fprintf(f, " %*s", width, "-");
}

void cli_run_print_stats(FILE *f, const void *ud)
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

void cli_run_print_context(FILE *f, const void *ud)
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
	fprintf(f, "%s\n",
		nv ? "VIOLATIONS: non-evidence text was presented as evidence (see --json)"
		   : "no non-evidence text was presented as evidence");
}
