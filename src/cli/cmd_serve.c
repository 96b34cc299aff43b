/* cmd_serve.c - `sworn serve`: the review in a browser (web/), on this
 * machine only unless told otherwise, until Ctrl-C. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"
#include "web/web.h"

struct serve_opts {
	const char *matter, *port_file, *bind, *by;
	long long port, render_cpu, session_ttl, request_timeout;
	bool allow_remote, no_token_print, keep_token;
};

#define AT(f) offsetof(struct serve_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter the page opens first (default: the default matter)",
	  CLI_STRING, AT(matter) },
	{ "port", 'p', "N", "listen on port N (default 8765; 0: any free port)", CLI_INT, AT(port),
	  0, 65535 },
	{ "port-file", 0, "FILE", "write the port listened on to FILE (for scripts)", CLI_PATH,
	  AT(port_file) },
	{ "bind", 0, "ADDR", "listen on ADDR instead of 127.0.0.1 (needs --allow-remote unless "
	  "loopback)", CLI_STRING, AT(bind) },
	{ "allow-remote", 0, NULL, "let --bind name an address other machines can reach",
	  CLI_FLAG, AT(allow_remote) },
	{ "by", 0, "NAME", "who reviews and approves in the page (default: [user] name of "
	  "sworn.conf or user.conf)", CLI_STRING, AT(by) },
	{ "render-cpu", 0, "SECONDS", "CPU time one page image may take to draw (default 30, as "
	  "a page's text import)", CLI_INT, AT(render_cpu), 1, 3600 },
	{ "request-timeout", 0, "SECONDS", "close a connection whose request has not arrived "
	  "whole within SECONDS (default 30)", CLI_INT, AT(request_timeout), 1, 3600 },
	{ "keep-token", 0, NULL, "keep the token of " SW_WEB_TOKEN_FILE " (default: a new one "
	  "at each start)", CLI_FLAG, AT(keep_token) },
	{ "session-ttl", 0, "SECONDS", "end a page's session this long after its last request "
	  "(default 28800: 8 hours)", CLI_INT, AT(session_ttl), 1, 2592000 },
	{ "no-token-print", 0, NULL, "print the URL without the access token (it stays in "
	  SW_WEB_TOKEN_FILE ")", CLI_FLAG, AT(no_token_print) },
};

static const struct serve_opts defaults = { .port = SW_WEB_DEFAULT_PORT };

/* Who the server runs for: decisions made in the page are recorded as
 * this person's.  false (and why in msg) when nobody is named; a bad
 * [user] is an error. */
static int serve_person(struct sw_person *p, bool *named, struct cli_ctx *ctx, const char *by,
			struct sw_err *err)
{
	*named = false;
	int rc = sw_person_resolve(p, &ctx->ws.config, by, err);
	if (rc == SW_ENOTFOUND)
		return 0;
	*named = rc == 0;
	return rc;
}

#define STOP_GRACE_MS 1500

/* Ends the process STOP_GRACE_MS after a stop signal when the requests in
 * flight have not ended by then (a judge that does not answer): what they
 * had not committed is rolled back by SQLite, as after a crash. */
static void *stop_watchdog(void *arg)
{
	(void)arg;
	struct timespec t = { STOP_GRACE_MS / 1000, (STOP_GRACE_MS % 1000) * 1000000L };
	while (nanosleep(&t, &t) != 0)
		;
	static const char msg[] = "sworn serve: requests still running 1.5 s after the signal: "
				  "stopped without them (their unsaved work is not kept)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(0);
	_exit(0);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct serve_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_web *w = NULL;
	struct sw_matter *m = NULL;
	struct sw_llm_config llm = { 0 };
	struct sw_judge judge;
	struct sw_person who = { 0 };
	struct sw_err nobody = { 0 };
	bool judged = false, named = false;
	char token[SW_WEB_TOKEN_HEX + 1];
	char *matter = NULL;
	const char *from = NULL;
	sigset_t stop, old;
	int rc = CLI_USAGE, sig = 0;

	if (o->allow_remote && !o->bind) {
		cli_error("--allow-remote goes with --bind ADDR");
		return CLI_USAGE;
	}
	/* The matter named (or the default) must exist; none at all is fine:
	 * the page lists the matters. */
	if (o->matter) {
		matter = sw_xstrdup(o->matter);
	} else if (cli_default_matter(&matter, &from, ctx, &err) != 0) {
		return cli_fail(&err);
	}
	if (matter) {
		if (cli_matter_open(&m, ctx, matter, &err) != 0) {
			free(matter);
			cli_fail(&err);
			return CLI_USAGE;
		}
		sw_matter_close(m);
	}
	if (sw_web_token(token, ctx->ws.root, !o->keep_token, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	/* Approve re-verifies as sworn run approve does, with the judge as
	 * configured; the page's Verify never asks it (it must answer at
	 * once). */
	if (cli_judge_setup(&judge, &judged, &llm, ctx, false, &err) != 0) {
		cli_fail(&err);
		rc = CLI_USAGE;
		goto cleanup;
	}
	/* The server's threads start with SIGINT and SIGTERM blocked, so they
	 * reach this thread's sigwait only. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	signal(SIGPIPE, SIG_IGN);
	if (serve_person(&who, &named, ctx, o->by, &nobody) != 0) {
		rc = cli_fail(&nobody);
		goto unblock;
	}
	struct sw_web_opts wo = {
		.by = named ? &who : NULL,
		.ws = &ctx->ws,
		.matter = matter,
		.bind = o->bind,
		.allow_remote = o->allow_remote,
		.port = (unsigned)o->port,
		.token = token,
		.commit = cli_build_commit,
		.judge = judged ? &judge.vj : NULL,
		.log = !cli_globals.quiet,
		.render_cpu_s = (unsigned)o->render_cpu,
		.session_ttl_s = (unsigned)o->session_ttl,
		.request_deadline_s = (unsigned)o->request_timeout,
	};
	if (sw_web_start(&w, &wo, &err) != 0) {
		rc = cli_fail(&err);
		if (err.code == SW_EIO)
			rc = CLI_USAGE;
		goto unblock;
	}
	unsigned port = sw_web_port(w);
	if (o->port_file) {
		char line[16];
		int n = snprintf(line, sizeof(line), "%u\n", port);
		if (sw_file_write_atomic(o->port_file, line, (size_t)n, &err) != 0) {
			rc = cli_fail(&err);
			goto unblock;
		}
	}
	if (o->bind && !sw_web_addr_is_loopback(o->bind))
		fprintf(stderr, "sworn serve: warning: listening on %s: anyone who can reach this "
				"machine and has the token can read and change the matters\n",
			o->bind);
	if (o->no_token_print)
		printf("sworn serve: http://%s:%u/ (open it with ?token= and the token in %s/%s)\n",
		       sw_web_host(w), port, ctx->ws.root, SW_WEB_TOKEN_FILE);
	else
		printf("sworn serve: http://%s:%u/?token=%s\n", sw_web_host(w), port, token);
	fflush(stdout);
	if (!cli_globals.quiet)
		fputs("sworn serve: Ctrl-C stops it\n", stderr);
	if (!cli_globals.quiet && named) {
		char *label = sw_person_label(&who);
		fprintf(stderr, "sworn serve: for %s (from %s)\n", label, who.source);
		free(label);
	} else if (!cli_globals.quiet) {
		fprintf(stderr, "sworn serve: for nobody named: %s\n", nobody.msg);
	}
	while (sigwait(&stop, &sig) != 0)
		;
	if (!cli_globals.quiet)
		fprintf(stderr, "sworn serve: stopped (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
	pthread_t dog;
	if (pthread_create(&dog, NULL, stop_watchdog, NULL) == 0)
		pthread_detach(dog);
	rc = CLI_OK;
unblock:
	sw_web_stop(w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
cleanup:
	sw_person_release(&who);
	sw_llm_config_release(&llm);
	free(matter);
	return rc;
}

const struct cli_command cli_cmd_serve = {
	.name = "serve",
	.usage = "[-m MATTER] [--port N] [--port-file FILE] [--bind ADDR --allow-remote]"
		 " [--render-cpu SECONDS] [--by NAME]"
		 " [--keep-token] [--session-ttl SECONDS] [--request-timeout SECONDS]"
		 " [--no-token-print]",
	.summary = "review runs, drafts and their evidence in a browser on this machine",
	.description =
		"Serves a local page for what the CLI does: matters, their documents and\n"
		"search, runs (live while they run), a draft with each claim coloured by its\n"
		"verdict and the record page (text and image) behind it, the context audit,\n"
		"edits saved as they are made, Verify and Approve (as sworn run approve:\n"
		"a failing draft needs an override reason; a [role \"judge\"] is asked as\n"
		"there, never by Verify).  Prints the URL to open, with the workspace's\n"
		"access token (kept in " SW_WEB_TOKEN_FILE ", mode 0600, a new one at each\n"
		"start unless --keep-token).  The page swaps it for a session it keeps in\n"
		"the tab (no cookie: a cookie would reach every other service on this\n"
		"machine), ended --session-ttl seconds after its last request; every API\n"
		"request without the token or a live session is refused.  Listens on\n"
		"127.0.0.1 only unless\n"
		"--bind names another address with --allow-remote.  One line per request on\n"
		"standard error unless --quiet.  A page image is drawn by a worker process\n"
		"with limits (--render-cpu seconds of CPU, 2 GiB), killed past them: the\n"
		"page's text is shown instead.  Ctrl-C or SIGTERM stops it within 2\n"
		"seconds, whatever it is doing.  One request's work is bounded: its\n"
		"headers and body must arrive within --request-timeout seconds, and the\n"
		"page verifies at most 1 MiB of text and 5,000 claims at once (use sworn\n"
		"verify for more).  With --bind 0.0.0.0 (or ::) the page answers to this\n"
		"machine's addresses and host name.\n\n"
		"Exit status: 0 stopped by a signal, 2 usage error or the port in use.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct serve_opts),
	.opts_init = &defaults,
	.min_pos = 0,
	.max_pos = 0,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
