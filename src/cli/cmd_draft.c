/* cmd_draft.c - `sworn draft`: start a drafting run of a task on a matter
 * from a brief, with a live line per running step on a terminal (one line
 * per finished step otherwise), Ctrl-C to pause it; and the driver that
 * `sworn run resume` shares. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "llm/llm.h"
#include "authority/authority.h"
#include "pipeline/pipeline.h"

#define BRIEF_MAX ((size_t)4 << 20)
#define LIVE_MAX 32

static struct sw_llm_cancel cancel;

static void on_sigint(int sig)
{
	(void)sig;
	sw_llm_cancel_request(&cancel);
}

/* ------------------------------------------------------------ progress */

struct live {
	bool tty;
	bool json;
	size_t drawn;                 /* lines drawn last time */
	struct {
		char key[64], endpoint[64];
		size_t tokens;
		double tok_s, elapsed;
		bool used;
	} rows[LIVE_MAX];
};

static void live_erase(struct live *l)
{
	for (size_t i = 0; i < l->drawn; i++)
		fputs("\033[1A\033[2K", stderr);
	l->drawn = 0;
}

static void live_draw(struct live *l)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		if (!l->rows[i].used)
			continue;
		fprintf(stderr, "  %-16s %-12s %6zu tok  %6.1f tok/s  %5.1f s\n", l->rows[i].key,
			l->rows[i].endpoint, l->rows[i].tokens, l->rows[i].tok_s,
			l->rows[i].elapsed);
		l->drawn++;
	}
	fflush(stderr);
}

static int live_row(struct live *l, const char *key, bool make)
{
	int free_row = -1;
	for (int i = 0; i < LIVE_MAX; i++) {
		if (l->rows[i].used && !strcmp(l->rows[i].key, key))
			return i;
		if (!l->rows[i].used && free_row < 0)
			free_row = i;
	}
	if (!make || free_row < 0)
		return -1;
	l->rows[free_row].used = true;
	snprintf(l->rows[free_row].key, sizeof(l->rows[free_row].key), "%s", key);
	return free_row;
}

static void on_event(void *ud, const struct sw_run_event *ev)
{
	struct live *l = ud;
	int r;

	if (l->tty)
		live_erase(l);
	switch (ev->kind) {
	case SW_EV_STEP_START:
	case SW_EV_STEP_TOKENS:
		if (l->tty && (r = live_row(l, ev->key, true)) >= 0) {
			snprintf(l->rows[r].endpoint, sizeof(l->rows[r].endpoint), "%s",
				 ev->endpoint ? ev->endpoint : "");
			l->rows[r].tokens = ev->tokens;
			l->rows[r].tok_s = ev->tok_s;
			l->rows[r].elapsed = ev->elapsed_s;
		}
		break;
	case SW_EV_STEP_DONE:
		if ((r = live_row(l, ev->key, false)) >= 0)
			l->rows[r].used = false;
		if (cli_globals.quiet)
			break; /* --quiet: failures and warnings only */
		if (ev->endpoint)
			sw_term_printf(stderr, "sworn: %s done on %s%s%s%s: %zu tokens, %.1f tok/s, %.1f s\n",
				ev->key, ev->endpoint, ev->host ? " (" : "", ev->host ? ev->host : "",
				ev->host ? ")" : "", ev->tokens, ev->tok_s, ev->elapsed_s);
		else
			sw_term_printf(stderr, "sworn: %s done\n", ev->key);
		break;
	case SW_EV_STEP_FAILED:
		if ((r = live_row(l, ev->key, false)) >= 0)
			l->rows[r].used = false;
		sw_term_printf(stderr, "sworn: %s failed%s%s%s%s%s: %s\n", ev->key,
			ev->endpoint ? " on " : "", ev->endpoint ? ev->endpoint : "",
			ev->host ? " (" : "", ev->host ? ev->host : "", ev->host ? ")" : "",
			ev->message ? ev->message : "?");
		break;
	case SW_EV_VERIFY:
		if (cli_globals.quiet)
			break;
		sw_term_printf(stderr, "sworn: %s: %zu claims, %zu blocked\n", ev->key, ev->claims,
			ev->blocked);
		break;
	case SW_EV_FLAG:
		sw_term_printf(stderr, "sworn: WARNING: evidence in %s reads as instructions to a model: %s\n",
			ev->key, ev->message ? ev->message : "");
		break;
	}
	if (l->tty)
		live_draw(l);
}

/* ------------------------------------------------------------- preflight */

/* Every role the task uses must be in sworn.conf and its endpoint up:
 * say which, and what to start, before anything is journaled. */
static int preflight(const struct sw_task *t, const struct sw_llm_config *cfg, struct sw_err *err)
{
	const char *roles[SW_TASK_MAX_STEPS + 2];
	size_t n = 0;

	for (size_t i = 0; i < t->n_steps; i++)
		if (t->steps[i].kind == SW_STEP_MODEL)
			roles[n++] = t->steps[i].role;
	roles[n++] = t->review.role;
	roles[n++] = t->revise.role;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(roles[k], roles[i]);
		if (seen)
			continue;
		const struct sw_llm_role *role = sw_llm_role_find(cfg, roles[i]);
		if (!role && sw_llm_role_unavailable(cfg, roles[i]))
			return sw_err_set(err, SW_ENET, "task %s needs the role '%s', which is "
					  "unavailable: %s", t->name, roles[i],
					  sw_llm_role_unavailable(cfg, roles[i]));
		if (!role)
			return sw_err_set(err, SW_EUSAGE,
					  "task %s needs the role '%s', which sworn.conf does not"
					  " define: add [role \"%s\"] with endpoint = a local"
					  " llama-server (sworn plan prints the sections)",
					  t->name, roles[i], roles[i]);
		const struct sw_llm_endpoint *ep = sw_llm_endpoint_find(cfg, role->endpoint);
		char where[SW_LLM_MAX_URL + 8];
		snprintf(where, sizeof(where), "%s%s", ep && ep->unix_path ? "unix:" : "",
			 !ep ? "?" : ep->unix_path ? ep->unix_path : ep->url);
		struct sw_llm_probe p;
		sw_llm_probe(&p, cfg, role->endpoint, 3000);
		int rc = 0;
		if (p.refused)
			rc = sw_err_set(err, SW_EPOLICY, "role %s: endpoint %s (%s) is refused by the"
					" local-only policy: %s", roles[i], role->endpoint,
					where, p.policy ? p.policy : "");
		else if (p.health != SW_LLM_READY)
			rc = sw_err_set(err, SW_ENET,
					"role %s: no local model answers at endpoint %s (%s): %s;"
					" start llama-server there (sworn plan --help shows how to"
					" get its command) and check with sworn models",
					roles[i], role->endpoint, where,
					p.error ? p.error : sw_llm_health_name(p.health));
		sw_llm_probe_release(&p);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* ---------------------------------------------------------------- driver */

static void print_outcome(FILE *f, const void *ud)
{
	const struct sw_run_result *r = ud;
	fprintf(f, "run %lld: %s", (long long)r->run_id, sw_run_status_name(r->status));
	if (r->status == SW_RUN_VERIFIED || r->status == SW_RUN_BLOCKED)
		fprintf(f, " after %u revision round%s (%zu claims, %zu blocked)", r->rounds,
			r->rounds == 1 ? "" : "s", r->claims, r->blocked);
	fprintf(f, " in %.1f s\n", r->wall_s);
	if (r->reason)
		fprintf(f, "  %s\n", r->reason);
	switch (r->status) {
	case SW_RUN_VERIFIED:
		fprintf(f, "  the gate passes; read it with: sworn run show %lld --draft\n"
			"  approve your edited version with: sworn run approve %lld --final FILE\n",
			(long long)r->run_id, (long long)r->run_id);
		break;
	case SW_RUN_BLOCKED:
		fprintf(f, "  no final document is written; the last draft and its blocked claims:"
			" sworn run show %lld --draft\n", (long long)r->run_id);
		break;
	case SW_RUN_PAUSED:
		fprintf(f, "  continue it with: sworn run resume %lld\n", (long long)r->run_id);
		break;
	default:
		break;
	}
}

struct sw_authority *cli_open_authorities(struct cli_ctx *ctx, struct sw_err *err, int *rc)
{
	struct sw_authority *auth = NULL;
	char *path = sw_path_join(ctx->ws.root, SW_AUTHORITY_DB_NAME);
	*rc = 0;
	if (sw_path_is_file(path) && sw_authority_open(&auth, path, false, err) != 0) {
		auth = NULL;
		*rc = -1;
	}
	free(path);
	return auth;
}

int cli_run_drive(struct cli_ctx *ctx, struct sw_matter *m, const struct sw_task *t,
		  int64_t resume_id, const char *brief_name, const char *brief, size_t brief_len,
		  bool json)
{
	struct sw_llm_config cfg = { 0 };
	struct sw_authority *auth = NULL;
	struct sw_run_result res = { 0 };
	struct live live = { .tty = isatty(STDERR_FILENO) && !json && !cli_globals.quiet, .json = json };
	struct sw_err err = { 0 };
	struct sw_task *loaded = NULL;
	int rc, arc;

	if (cli_llm_config_load(ctx, &cfg, &err) != 0)
		return cli_fail(&err);
	auth = cli_open_authorities(ctx, &err, &arc);
	if (arc != 0) {
		rc = cli_fail(&err);
		goto out;
	}
	if (!t) {
		/* a resume: the run names its task; preflight needs it too */
		struct sw_run_view run;
		if (sw_run_get(&run, m, resume_id, &err) != 0 ||
		    sw_task_load(&loaded, ctx->ws.root, run.task ? run.task : "", &err) != 0) {
			sw_run_view_release(&run);
			rc = cli_fail(&err);
			goto out;
		}
		sw_run_view_release(&run);
		t = loaded;
	}
	if (preflight(t, &cfg, &err) != 0) {
		rc = CLI_USAGE;
		cli_fail(&err);
		goto out;
	}
	enum sw_judge_mode judge = SW_JUDGE_OFF;
	if (sw_judge_conf_load(&judge, &ctx->ws.config, &cfg, &err) != 0) {
		rc = cli_fail(&err);
		goto out;
	}
	struct sw_run_opts ro = {
		.judge = judge,
		.llm = &cfg,
		.auth = auth,
		.cancel = &cancel,
		.on_event = on_event,
		.ud = &live,
	};
	struct sigaction sa = { .sa_handler = on_sigint }, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (resume_id > 0)
		rc = sw_run_resume(&res, m, resume_id, ctx->ws.root, &ro, &err);
	else
		rc = sw_run_start(&res, m, t, brief_name, brief, brief_len, &ro, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (live.tty)
		live_erase(&live);
	if (rc != 0) {
		rc = cli_fail(&err);
		goto out;
	}
	if (atomic_load(&cancel.requested) && res.status == SW_RUN_PAUSED) {
		free(res.reason);
		res.reason = sw_xstrdup("interrupted (Ctrl-C); nothing finished is lost");
	}
	json_t *doc = NULL;
	if (json) {
		struct sw_run_view v;
		if (sw_run_get(&v, m, res.run_id, &err) == 0)
			doc = sw_run_view_json(&v);
		sw_run_view_release(&v);
	}
	rc = cli_emit(json, doc, print_outcome, &res,
		      res.status == SW_RUN_VERIFIED ? CLI_OK : CLI_NO);
out:
	sw_run_result_release(&res);
	sw_task_free(loaded);
	sw_authority_close(auth);
	sw_llm_config_release(&cfg);
	return rc;
}

/* ------------------------------------------------------------ sworn draft */

struct draft_opts {
	const char *matter, *task, *brief;
	bool json;
};

#define AT(f) offsetof(struct draft_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose record the draft is built on", CLI_STRING,
	  AT(matter) },
	{ "task", 't', "TASK", "the task to run (sworn task list)", CLI_STRING, AT(task),
	  .values = "@tasks" },
	{ "brief", 'b', "FILE", "the lawyer's brief: what to draft, for whom, what matters",
	  CLI_PATH, AT(brief) },
	{ "json", 0, NULL, "print the run record as JSON", CLI_FLAG, AT(json) },
};

static int run_draft(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct draft_opts *o = a->opts;
	struct sw_matter *m = NULL;
	struct sw_task *t = NULL;
	struct sw_buf brief;
	struct sw_err err = { 0 };
	int rc;

	(void)cmd;
	sw_buf_init(&brief);
	if (!o->task || !o->brief) {
		cli_error("sworn draft needs --task TASK (sworn task list) and --brief FILE");
		return CLI_USAGE;
	}
	if (sw_file_read(&brief, o->brief, BRIEF_MAX, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto out;
	}
	if (sw_task_load(&t, ctx->ws.root, o->task, &err) != 0 ||
	    cli_matter_open(&m, ctx, o->matter, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto out;
	}
	rc = cli_run_drive(ctx, m, t, 0, sw_path_base(o->brief), brief.data, brief.len, o->json);
out:
	sw_matter_close(m);
	sw_task_free(t);
	sw_buf_release(&brief);
	return rc;
}

const struct cli_command cli_cmd_draft = {
	.name = "draft",
	.usage = "-m MATTER --task TASK --brief FILE [--json]",
	.summary = "draft from the record with local models, review, verify and revise",
	.description =
		"Runs TASK (sworn task list) on MATTER from the lawyer's brief: each step's\n"
		"evidence bundle is chosen from the matter's record (evidence only, never\n"
		"quarantined, never a model's earlier output), steps whose inputs are ready\n"
		"run at once on their roles' endpoints, the reviewer attacks the first draft,\n"
		"the reasoner revises it, and the gate checks every claim; blocked claims go\n"
		"back to the reviser with the verifier's reasons for at most the task's\n"
		"rounds.  Every step is journaled in the matter before and after it runs.\n"
		"\n"
		"The run ends verified (exit 0: approve it with sworn run approve), blocked\n"
		"(exit 1: no final document; sworn run show RUN --draft), or paused (exit 1:\n"
		"a step failed or Ctrl-C; sworn run resume RUN continues it without redoing\n"
		"finished steps).  Every role the task uses must name a local llama-server\n"
		"that answers; nothing switches to another model unless the role names a\n"
		"local fallback.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct draft_opts),
	.min_pos = 0,
	.max_pos = 0,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run_draft,
};
