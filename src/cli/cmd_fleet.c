/* cmd_fleet.c - `sworn fleet up | status | down | history`: start the
 * planned llama-servers under a supervisor, and look at or stop them from
 * any shell. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "fleet/fleet.h"

struct fleet_opts {
	bool json, foreground;
};

#define AT(f) offsetof(struct fleet_opts, f)
static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the state (or the history) as JSON", CLI_FLAG, AT(json) },
	{ "foreground", 0, NULL, "up: supervise in this process instead of in the background",
	  CLI_FLAG, AT(foreground) },
};

static volatile int stop_requested;
static struct sw_fleet_sv *supervising;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	if (supervising)
		sw_fleet_sv_request_stop(supervising);
}

static void catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static const char *js(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static void state_text(FILE *f, const void *ud)
{
	struct sw_buf out = SW_BUF_INIT;
	sw_fleet_state_text(&out, ud);
	fputs(out.data, f);
	sw_buf_release(&out);
}

static int show(const struct fleet_opts *o, const struct sw_fleet_state *st)
{
	return cli_emit(o->json, o->json ? json_incref(st->json) : NULL, state_text, st,
			sw_fleet_state_all_ready(st) ? CLI_OK : CLI_NO);
}

static int up(struct cli_ctx *ctx, const struct fleet_opts *o, const struct sw_fleet_conf *conf)
{
	struct sw_err err = { 0 };
	struct sw_fleet_sv *sv = NULL;
	struct sw_fleet_state st;

	if (sw_fleet_state_load(&st, conf->dir, NULL) == 0) {
		struct sw_buf left = SW_BUF_INIT;
		for (size_t i = 0; i < st.nservers; i++)
			if (st.servers[i].process_running)
				sw_buf_addf(&left, " %s (pid %d)", st.servers[i].name, st.servers[i].pid);
		bool running = st.supervisor_running;
		int pid = st.supervisor_pid;
		sw_fleet_state_release(&st);
		if (running || left.len) {
			if (running)
				cli_error("the fleet is already up (supervisor pid %d); 'sworn fleet down' first",
					  pid);
			else
				cli_error("servers of an earlier run still run without their supervisor:%s; "
					  "'sworn fleet down' stops them", left.data);
			sw_buf_release(&left);
			return CLI_NO;
		}
		sw_buf_release(&left);
	}
	if (sw_fleet_sv_prepare(&sv, conf, &err) != 0 || sw_fleet_sv_write_state(sv, &err) != 0) {
		sw_fleet_sv_free(sv);
		return cli_fail(&err);
	}
	if (o->foreground) {
		supervising = sv;
		catch_signals();
		int rc = sw_fleet_sv_run(sv, &stop_requested);
		supervising = NULL;
		sw_fleet_sv_free(sv);
		return rc == 0 ? CLI_OK : CLI_USAGE;
	}
	char *log = sw_path_join(conf->dir, "supervisor.log");
	int pid = sw_proc_daemonize(log, &err);
	free(log);
	if (pid < 0) {
		sw_fleet_sv_free(sv);
		return cli_fail(&err);
	}
	if (pid == 0) {
		/* The supervisor: it outlives this command. */
		supervising = sv;
		catch_signals();
		int rc = sw_fleet_sv_run(sv, &stop_requested);
		supervising = NULL;
		sw_fleet_sv_free(sv);
		sw_workspace_release(&ctx->ws);
		ctx->have_ws = false;
		exit(rc == 0 ? 0 : 2);
	}
	sw_fleet_sv_free(sv);
	/* Wait until every server is ready or has failed, or the supervisor
	 * ended. */
	double limit = conf->ready_timeout_s * (conf->restart_max + 1) +
		       conf->backoff_max_s * conf->restart_max + 30;
	double until = sw_now() + limit;
	int code = 0;
	bool exited = false;
	for (;;) {
		if (!exited && sw_proc_wait(&code, pid, 0) == 1)
			exited = true;
		if (sw_fleet_state_load(&st, conf->dir, &err) != 0)
			return cli_fail(&err);
		if (exited || sw_fleet_state_settled(&st) || sw_now() > until)
			break;
		sw_fleet_state_release(&st);
		nap(100);
	}
	int rc = show(o, &st);
	if (exited)
		cli_error("the supervisor ended (status %d); see %s/supervisor.log", code, conf->dir);
	else if (rc != CLI_OK)
		cli_error("not every server is ready; 'sworn fleet status' shows them, logs in %s/logs",
			  conf->dir);
	sw_fleet_state_release(&st);
	return rc;
}

static int history(const struct fleet_opts *o, const struct sw_fleet_conf *conf)
{
	struct sw_buf b = SW_BUF_INIT;
	struct sw_err err = { 0 };
	char *path = sw_path_join(conf->dir, "history.jsonl");
	bool json = o->json;
	json_t *all = json_array();
	int rc = CLI_OK;

	if (!sw_path_is_file(path)) {
		cli_error("no fleet history yet in %s", conf->dir);
		rc = CLI_NO;
		goto done;
	}
	if (sw_file_read(&b, path, 64u << 20, &err) != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	for (char *line = b.data; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		json_t *e = json_loadb(line, len, 0, NULL);
		if (json_is_object(e)) {
			if (json) {
				json_array_append(all, e);
			} else {
				const char *ev = json_string_value(json_object_get(e, "event"));
				const char *build = json_string_value(json_object_get(e, "build"));
				const char *who = js(e, "server");
				printf("%s  %-8s %-28s %s%s%s\n", js(e, "time"), ev ? ev : "?",
				       *who ? who : js(e, "endpoint"), js(e, "model_file"),
				       build ? "  build " : "", build ? build : "");
			}
		}
		json_decref(e);
		line += len + (nl ? 1 : 0);
	}
	rc = cli_emit(json, all, NULL, NULL, CLI_OK);
	all = NULL;
done:
	json_decref(all);
	free(path);
	sw_buf_release(&b);
	return rc;
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct fleet_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_fleet_conf conf;
	const char *verb = a->pos[0];
	int rc;

	if (strcmp(verb, "up") && strcmp(verb, "status") && strcmp(verb, "down") &&
	    strcmp(verb, "history")) {
		cli_error("unknown 'sworn fleet %s': give up, status, down or history", verb);
		return CLI_USAGE;
	}
	if (strcmp(verb, "up") == 0) {
		if (sw_fleet_conf_load(&conf, &ctx->ws.config, ctx->ws.root, &err) != 0)
			return cli_fail(&err);
	} else {
		/* status, down and history need only the folder. */
		memset(&conf, 0, sizeof(conf));
		conf.dir = sw_path_join(ctx->ws.root, "fleet");
	}
	if (strcmp(verb, "up") == 0) {
		rc = up(ctx, o, &conf);
	} else if (strcmp(verb, "status") == 0) {
		struct sw_fleet_state st;
		if (sw_fleet_state_load(&st, conf.dir, &err) != 0) {
			/* A fleet never started is not up: the status's "no",
			 * and with --json a document that says so. */
			if (err.code == SW_ENOTFOUND && o->json) {
				rc = cli_emit(true, json_pack("{s:s, s:b, s:[], s:o, s:o}", "phase",
							      "never_started", "supervisor_running", 0,
							      "servers", "dir", sw_json_str(conf.dir),
							      "message", sw_json_str(err.msg)),
					      NULL, NULL, CLI_NO);
			} else {
				rc = cli_fail(&err);
				if (err.code == SW_ENOTFOUND)
					rc = CLI_NO;
			}
		} else {
			rc = show(o, &st);
			sw_fleet_state_release(&st);
		}
	} else if (strcmp(verb, "down") == 0 && o->json) {
		/* down stops processes: it has no document to print. */
		cli_error("'sworn fleet down' prints no JSON: run it without --json, then "
			  "'sworn fleet status --json'");
		rc = CLI_USAGE;
	} else if (strcmp(verb, "down") == 0) {
		struct sw_buf out = SW_BUF_INIT;
		if (sw_fleet_down(&out, conf.dir, 10000, &err) != 0) {
			rc = cli_fail(&err);
		} else {
			fputs(out.data, stdout);
			puts("fleet is down");
			rc = CLI_OK;
		}
		sw_buf_release(&out);
	} else {
		rc = history(o, &conf);
	}
	sw_fleet_conf_release(&conf);
	return rc;
}

const struct cli_command cli_cmd_fleet = {
	.name = "fleet",
	.usage = "up [--foreground] | status | down | history [--json]",
	.summary = "start, watch and stop the planned llama-servers ([fleet] in sworn.conf)",
	.description =
		"up: plan the [fleet] models on the inventory, compare the GPUs nvidia-smi\n"
		"reports with it (a group that lost a GPU is degraded: its model is not\n"
		"started), then start each server with CUDA_DEVICE_ORDER and\n"
		"CUDA_VISIBLE_DEVICES and a log in fleet/logs/, wait until /health is ready\n"
		"and a one-token completion answers, and leave a supervisor behind that\n"
		"restarts crashed servers (doubling backoff, restart_max times) and reports\n"
		"servers that hang.  A log showing layers on the CPU fails the server.\n"
		"status and down work from any shell (state in fleet/state.json); history\n"
		"lists every start, crash, hang and benchmark (fleet/history.jsonl).\n\n"
		"sworn.conf:\n"
		"  [fleet]\n"
		"  llama_server = /opt/llama.cpp/build/bin/llama-server\n"
		"  hardware = hardware.ini\n"
		"  model = /models/qwen3-30b-a3b-q8_0.gguf:ctx=32k,role=drafter\n"
		"  ; optional: calibration, extra_args, floor, port (8081), ready_timeout\n"
		"  ; (600 s), probe_interval (30 s), probe_timeout (60 s), restart_backoff\n"
		"  ; (2 s), restart_backoff_max (60 s), restart_max (5), check_gpus (yes)\n\n"
		"Exit status: 0 every server ready, 1 not (or not up), 2 usage or input error.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct fleet_opts),
	.min_pos = 1,
	.max_pos = 1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
