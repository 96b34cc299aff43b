/* cmd_fleet.c - `sworn fleet up | status | down | history`: start the
 * planned llama-servers under a supervisor, and look at or stop them from
 * any shell. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "fleet/fleet.h"

/* What a command line asked of the fleet, whichever subcommand: what the
 * code below reads.  Each subcommand fills it from its own options. */
struct fleet_opts {
	bool json, foreground;
	const char *host;
};

struct up_opts {
	bool foreground, json;
	const char *host;
};
struct status_opts {
	const char *host;
	bool json;
};
struct down_opts {
	const char *host;
};
struct history_opts {
	bool json;
};

#define HOST_OPT(type, what)                                                                       \
	{                                                                                          \
		"host", 0, "NAME", what, CLI_STRING, offsetof(struct type, host)                   \
	}
#define JSON_OPT(type, what)                                                                       \
	{                                                                                          \
		"json", 0, NULL, what, CLI_FLAG, offsetof(struct type, json)                       \
	}
static const struct cli_opt up_rows[] = {
	{ "foreground", 0, NULL, "supervise in this process instead of in the background", CLI_FLAG,
	  offsetof(struct up_opts, foreground) },
	HOST_OPT(up_opts, "start this host's servers only (several hosts: what another box runs)"),
	JSON_OPT(up_opts, "print the state once up as JSON"),
};
static const struct cli_opt status_rows[] = {
	HOST_OPT(status_opts, "this host's servers only (several hosts: what the other boxes run)"),
	JSON_OPT(status_opts, "print the state as JSON"),
};
static const struct cli_opt down_rows[] = {
	HOST_OPT(down_opts, "stop this host's servers only (several hosts)"),
};
static const struct cli_opt history_rows[] = {
	JSON_OPT(history_opts, "print the history as JSON"),
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

struct shown {
	const struct sw_fleet_state *st;
	const struct sw_fleet_gpu_report *gpus;
};

static void state_text(FILE *f, const void *ud)
{
	const struct shown *sh = ud;
	struct sw_buf out = SW_BUF_INIT;
	sw_fleet_state_text(&out, sh->st);
	if (sh->gpus)
		sw_fleet_gpu_report_text(&out, sh->gpus);
	fputs(out.data, f);
	sw_buf_release(&out);
}

/* The state, and each GPU of its inventory as the driver sees it now
 * (memory its servers hold, heat, power, throttling, ECC, a GPU gone
 * missing) when the fleet is this box's (here: not another host's state
 * read from a shared folder). */
static int show(const struct fleet_opts *o, const struct sw_fleet_state *st, bool here)
{
	struct sw_fleet_gpu_report gpus;
	memset(&gpus, 0, sizeof(gpus));
	/* check_gpus = no: the driver is not asked, as up did not ask it. */
	bool asked = here && !st->gpus_unchecked;
	if (asked)
		sw_fleet_gpu_report(&gpus, st->hardware, st);
	struct shown sh = { st, asked ? &gpus : NULL };
	json_t *doc = NULL;
	if (o->json) {
		doc = sw_fleet_state_json(st, true);
		json_object_set_new(doc, "gpu_health",
				    asked ? sw_fleet_gpu_report_json(&gpus) : json_null());
	}
	int rc = cli_emit(o->json, doc, state_text, &sh,
			  sw_fleet_state_all_ready(st) && gpus.missing == 0 ? CLI_OK : CLI_NO);
	sw_fleet_gpu_report_release(&gpus);
	return rc;
}

/* host: the host whose state file this is (several hosts), or NULL;
 * quiet: print nothing when every server is ready (the caller shows
 * all hosts). */
static int up(struct cli_ctx *ctx, const struct fleet_opts *o, const struct sw_fleet_conf *conf,
	      const char *host, bool quiet)
{
	struct sw_err err = { 0 };
	struct sw_fleet_sv *sv = NULL;
	struct sw_fleet_state st;

	if (sw_fleet_state_load_host(&st, conf->dir, host, NULL) == 0) {
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
	char *logname = sw_fleet_host_file("supervisor", host, "log");
	char *log = sw_path_join(conf->dir, logname);
	free(logname);
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
		if (sw_fleet_state_load_host(&st, conf->dir, host, &err) != 0)
			return cli_fail(&err);
		if (exited || sw_fleet_state_settled(&st) || sw_now() > until)
			break;
		sw_fleet_state_release(&st);
		nap(100);
	}
	int rc = quiet ? (sw_fleet_state_all_ready(&st) ? CLI_OK : CLI_NO) : show(o, &st, true);
	if (exited) {
		char *name = sw_fleet_host_file("supervisor", host, "log");
		cli_error("the supervisor ended (status %d); see %s/%s", code, conf->dir, name);
		free(name);
	} else if (rc != CLI_OK)
		cli_error("not every server is ready; 'sworn fleet status' shows them, logs in %s/logs",
			  conf->dir);
	sw_fleet_state_release(&st);
	return rc;
}

/* ------------------------------------------------------- several hosts */

#define STATUS_TIMEOUT_MS 10000u

/* The roles of host h's planned servers (from this box's state), or of
 * its servers' state, into b as " role (server)". */
static void host_roles(struct sw_buf *b, const struct sw_fleet_office *f, size_t h)
{
	for (size_t i = 0; f->have_state[0] && i < f->state[0].nplanned; i++) {
		const struct sw_fleet_state_planned *p = &f->state[0].planned[i];
		if (p->role && strcmp(p->host, f->hw.hosts[h].name) == 0)
			sw_buf_addf(b, "%s%s (%s)", b->len ? ", " : "", p->role, p->name);
	}
}

static bool hosts_all_ready(const struct sw_fleet_office *f)
{
	for (size_t h = 0; h < f->nhosts; h++)
		if (!f->reachable[h] || !f->have_state[h] || !sw_fleet_state_all_ready(&f->state[h]))
			return false;
	return true;
}

static void hosts_text(FILE *out, const void *ud)
{
	const struct sw_fleet_office *f = ud;
	fprintf(out, "fleet: %zu hosts\n", f->nhosts);
	/* READ: how the host's state was read (its file here, its exec, or
	 * its servers over the LAN). */
	fprintf(out, "%-10s %-4s %-32s %-11s %-26s %-8s %-8s %-10s %s\n", "HOST", "READ", "SERVER",
		"STATE", "URL", "PID", "RESTARTS", "GPUS", "MODEL");
	for (size_t h = 0; h < f->nhosts; h++) {
		const char *name = f->hw.hosts[h].name;
		const char *read = f->read[h] ? f->read[h] : "-";
		if (!f->reachable[h]) {
			struct sw_buf roles = SW_BUF_INIT;
			host_roles(&roles, f, h);
			fprintf(out, "%-10s %-4s %-32s %-11s %s\n", name, read, "-", "unreachable",
				f->why[h]);
			if (roles.len)
				fprintf(out, "    roles unavailable: %s\n", roles.data);
			sw_buf_release(&roles);
			continue;
		}
		if (!f->have_state[h]) {
			fprintf(out, "%-10s %-4s %-32s %-11s %s\n", name, read, "-", "not-up", f->why[h]);
			continue;
		}
		const struct sw_fleet_state *st = &f->state[h];
		if (st->over_lan)
			fprintf(out, "%-10s %-4s %-32s %-11s supervisor unknown: its servers read over "
				     "the LAN (/health, /props), its exec failing: %s\n", name, read, "-",
				"unknown", f->why[h] ? f->why[h] : "no reason given");
		else if (!st->supervisor_running)
			fprintf(out, "%-10s %-4s %-32s %-11s supervisor not running\n", name, read, "-",
				"down");
		for (size_t i = 0; i < st->nservers; i++) {
			const struct sw_fleet_state_server *s = &st->servers[i];
			char pid[32] = "-";
			if (s->pid > 0)
				snprintf(pid, sizeof(pid), "%d%s", s->pid, s->process_running ? "" : "?");
			fprintf(out, "%-10s %-4s %-32s %-11s %-26s %-8s %-8u %-10s %s\n", name, read,
				s->name, s->state, s->url ? s->url : "-", pid, s->restarts,
				s->gpus ? s->gpus : "-", *s->model ? sw_path_base(s->model) : "-");
			if (s->detail)
				fprintf(out, "    %s\n", s->detail);
		}
		if (st->missing_gpus)
			fprintf(out, "%s: missing GPUs:\n%s", name, st->missing_gpus);
	}
}

static json_t *hosts_json(const struct sw_fleet_office *f)
{
	json_t *hosts = json_array(), *servers = json_array(), *unavailable = json_array();
	for (size_t h = 0; h < f->nhosts; h++) {
		const char *name = f->hw.hosts[h].name;
		json_t *o = json_pack("{s:s, s:b}", "name", name, "reachable", f->reachable[h]);
		json_object_set_new(o, "read", f->read[h] ? json_string(f->read[h]) : json_null());
		json_object_set_new(o, "address", f->hw.hosts[h].address
							  ? sw_json_str(f->hw.hosts[h].address) : json_null());
		json_object_set_new(o, "error", f->why[h] ? sw_json_str(f->why[h]) : json_null());
		json_object_set_new(o, "supervisor_running",
				    json_boolean(f->have_state[h] && f->state[h].supervisor_running));
		if (f->have_state[h]) {
			size_t i;
			json_t *s, *js = sw_fleet_state_json(&f->state[h], true);
			json_array_foreach(json_object_get(js, "servers"), i, s) {
				json_object_set_new(s, "host", json_string(name));
				json_array_append(servers, s);
			}
			json_decref(js);
		}
		for (size_t i = 0; !f->reachable[h] && f->have_state[0] && i < f->state[0].nplanned;
		     i++) {
			const struct sw_fleet_state_planned *p = &f->state[0].planned[i];
			if (strcmp(p->host, name) == 0)
				json_array_append_new(
					unavailable,
					json_pack("{s:s, s:s, s:o}", "server", p->name, "host",
						  name, "role",
						  p->role ? sw_json_str(p->role) : json_null()));
		}
		json_array_append_new(hosts, o);
	}
	return json_pack("{s:o, s:o, s:o, s:b}", "hosts", hosts, "servers", servers, "unavailable",
			 unavailable, "all_ready", hosts_all_ready(f));
}

struct hosts_shown {
	const struct sw_fleet_office *f;
	const struct sw_fleet_gpu_report *gpus; /* this box's, or NULL */
};

static void hosts_text_gpus(FILE *out, const void *ud)
{
	const struct hosts_shown *sh = ud;
	hosts_text(out, sh->f);
	if (sh->gpus) {
		struct sw_buf b = SW_BUF_INIT;
		sw_fleet_gpu_report_text(&b, sh->gpus);
		fprintf(out, "%s: %s", sh->f->hw.hosts[0].name, b.data);
		sw_buf_release(&b);
	}
}

/* Every host's servers, and this box's GPUs (each other box shows its own
 * with 'sworn fleet status --host NAME' run there). */
static int hosts_status(const struct fleet_opts *o, struct sw_fleet_office *f)
{
	struct sw_fleet_gpu_report gpus;
	memset(&gpus, 0, sizeof(gpus));
	sw_fleet_office_gather(f, STATUS_TIMEOUT_MS);
	if (f->conf.check_gpus)
		sw_fleet_gpu_report(&gpus, f->hw.hosts[0].source,
				    f->have_state[0] ? &f->state[0] : NULL);
	struct hosts_shown sh = { f, f->conf.check_gpus ? &gpus : NULL };
	int code = hosts_all_ready(f) && gpus.missing == 0 ? CLI_OK : CLI_NO;
	json_t *doc = NULL;
	if (o->json) {
		doc = hosts_json(f);
		json_object_set_new(doc, "gpu_health", f->conf.check_gpus
					? json_pack("{s:s, s:o}", "host", f->hw.hosts[0].name,
						    "report", sw_fleet_gpu_report_json(&gpus))
					: json_null());
	}
	int rc = cli_emit(o->json, doc, hosts_text_gpus, &sh, code);
	sw_fleet_gpu_report_release(&gpus);
	return rc;
}

static int hosts_up(struct cli_ctx *ctx, const struct fleet_opts *o, struct sw_fleet_office *f)
{
	struct sw_err err = { 0 };
	/* Refuse a mismatch before anything starts anywhere. */
	for (size_t h = 1; h < f->nhosts; h++)
		if (cli_fleet_check_version(f, h, &err) != 0)
			return cli_fail(&err);
	const char *local = f->hw.hosts[0].name;
	struct sw_fleet_state st;
	if (sw_fleet_state_load_host(&st, f->conf.dir, local, NULL) == 0) {
		bool running = st.supervisor_running;
		int pid = st.supervisor_pid;
		sw_fleet_state_release(&st);
		if (running) {
			cli_error("the fleet is already up on %s (supervisor pid %d); 'sworn fleet "
				  "down' first", local, pid);
			return CLI_NO;
		}
	}
	f->conf.host = sw_xstrdup(local);
	int rc = up(ctx, o, &f->conf, local, true);
	if (rc == CLI_USAGE)
		return rc;
	double limit = f->conf.ready_timeout_s * (f->conf.restart_max + 1) +
		       f->conf.backoff_max_s * f->conf.restart_max + 60;
	unsigned ms = limit * 1000 > 4.0e9 ? 4000000000u : (unsigned)(limit * 1000);
	for (size_t h = 1; h < f->nhosts; h++) {
		const char *name = f->hw.hosts[h].name;
		const char *args[] = { "fleet", "up", "--host", name, NULL };
		struct sw_buf out = SW_BUF_INIT;
		int code = 0;
		if (sw_fleet_office_exec(&out, &code, f, h, args, ms, &err) != 0)
			cli_error("%s", err.msg);
		else if (code != 0)
			cli_error("host %s: 'sworn fleet up --host %s' exited %d%s%s", name, name, code,
				  out.len ? ":\n" : "", out.data);
		sw_buf_release(&out);
	}
	return hosts_status(o, f);
}

static int hosts_down(struct sw_fleet_office *f)
{
	struct sw_err err = { 0 };
	int rc = CLI_OK;
	for (size_t h = f->nhosts; h-- > 0;) {
		const char *name = f->hw.hosts[h].name;
		struct sw_buf out = SW_BUF_INIT;
		int code = 0;
		if (h == 0) {
			if (sw_fleet_down_host(&out, f->conf.dir, name, 10000, &err) != 0 &&
			    err.code != SW_ENOTFOUND) {
				cli_error("host %s: %s", name, err.msg);
				rc = CLI_NO;
			}
		} else {
			const char *args[] = { "fleet", "down", "--host", name, NULL };
			if (sw_fleet_office_exec(&out, &code, f, h, args, 120000, &err) != 0) {
				cli_error("%s", err.msg);
				rc = CLI_NO;
			} else if (code != 0) {
				cli_error("host %s: 'sworn fleet down --host %s' exited %d", name, name,
					  code);
				rc = CLI_NO;
			}
		}
		for (char *line = out.data; line && *line;) {
			char *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);
			if (len && strncmp(line, "fleet is down", len) != 0)
				sw_term_printf(stdout, "%s: %.*s\n", name, (int)len, line);
			line += len + (nl ? 1 : 0);
		}
		sw_buf_release(&out);
	}
	if (rc == CLI_OK)
		puts("fleet is down on every host");
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
				/* A build a server named, a GGUF file's name. */
				sw_term_printf(stdout, "%s  %-8s %-28s %s%s%s\n", js(e, "time"),
					       ev ? ev : "?", *who ? who : js(e, "endpoint"),
					       js(e, "model_file"), build ? "  build " : "",
					       build ? build : "");
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

/* sworn fleet VERB with several hosts: --host NAME is this box's part
 * (what the first box runs here through exec); without it, every host. */
static int multi_host(struct cli_ctx *ctx, const struct fleet_opts *o, const char *verb,
		      struct sw_fleet_office *f)
{
	struct sw_err err = { 0 };
	if (!o->host) {
		if (strcmp(verb, "up") == 0 && o->foreground) {
			cli_error("--foreground supervises one host: give --host NAME (several hosts "
				  "in [fleet] hardware)");
			return CLI_USAGE;
		}
		if (strcmp(verb, "up") == 0)
			return hosts_up(ctx, o, f);
		if (strcmp(verb, "status") == 0)
			return hosts_status(o, f);
		return hosts_down(f);
	}
	bool known = false;
	for (size_t h = 0; h < f->nhosts; h++)
		known = known || strcmp(f->hw.hosts[h].name, o->host) == 0;
	if (!known) {
		cli_error("--host %s: no such host in [fleet] hardware (%s)", o->host, f->hw.source);
		return CLI_USAGE;
	}
	if (strcmp(verb, "up") == 0) {
		f->conf.host = sw_xstrdup(o->host);
		return up(ctx, o, &f->conf, o->host, false);
	}
	if (strcmp(verb, "down") == 0) {
		struct sw_buf out = SW_BUF_INIT;
		int rc = CLI_OK;
		if (sw_fleet_down_host(&out, f->conf.dir, o->host, 10000, &err) != 0) {
			rc = cli_fail(&err);
			if (err.code == SW_ENOTFOUND)
				rc = CLI_OK; /* never started on this host: nothing to stop */
		}
		sw_term_write(stdout, out.data, out.len);
		puts("fleet is down");
		sw_buf_release(&out);
		return rc;
	}
	struct sw_fleet_state st;
	if (sw_fleet_state_load_host(&st, f->conf.dir, o->host, &err) != 0) {
		if (err.code == SW_ENOTFOUND && o->json)
			return cli_emit(true, json_pack("{s:s, s:b, s:[], s:s, s:o, s:o}", "phase",
							"never_started", "supervisor_running", 0,
							"servers", "host", o->host, "dir",
							sw_json_str(f->conf.dir), "message",
							sw_json_str(err.msg)),
					NULL, NULL, CLI_NO);
		return err.code == SW_ENOTFOUND ? (cli_fail(&err), CLI_NO) : cli_fail(&err);
	}
	/* Another host's state in a shared folder is not this box's GPUs:
	 * they are read only for this box (the first host) or a host whose
	 * supervisor runs here (its own exec). */
	bool here = strcmp(o->host, f->hw.hosts[0].name) == 0 || st.supervisor_running;
	int rc = show(o, &st, here);
	sw_fleet_state_release(&st);
	return rc;
}

static int act(struct cli_ctx *ctx, const char *verb, const struct fleet_opts *o)
{
	struct sw_err err = { 0 };
	struct sw_fleet_conf conf;
	int rc;

	if (strcmp(verb, "history") != 0) {
		/* Several hosts: [fleet] hardware lists inventories of several. */
		struct sw_fleet_office f;
		int frc = sw_fleet_office_open(&f, &ctx->ws.config, ctx->ws.root, &err);
		/* No [fleet] leaves status and down the state folder; status
		 * says what is wrong with a [fleet] whose inventories are bad or
		 * not to be trusted, down still stops this box's servers. */
		if (frc != 0 && (strcmp(verb, "up") == 0 ||
				 (strcmp(verb, "status") == 0 && frc != SW_ENOTFOUND)))
			return cli_fail(&err);
		if (frc == 0 && f.nhosts > 1) {
			rc = multi_host(ctx, o, verb, &f);
			sw_fleet_office_release(&f);
			return rc;
		}
		if (frc == 0)
			sw_fleet_office_release(&f);
		if (o->host) {
			cli_error("--host %s: [fleet] hardware names one host (give several "
				  "inventories, one per host)", o->host);
			return CLI_USAGE;
		}
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
		rc = up(ctx, o, &conf, NULL, false);
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
			rc = show(o, &st, true);
			sw_fleet_state_release(&st);
		}
	} else if (strcmp(verb, "down") == 0) {
		/* down stops processes: it has no document to print, and no
		 * --json (cli_parse says so). */
		struct sw_buf out = SW_BUF_INIT;
		if (sw_fleet_down(&out, conf.dir, 10000, &err) != 0) {
			rc = cli_fail(&err);
		} else {
			sw_term_write(stdout, out.data, out.len);
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

static int up_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct up_opts *o = a->opts;
	(void)cmd;
	return act(ctx, "up",
		   &(struct fleet_opts){
			   .json = o->json, .foreground = o->foreground, .host = o->host });
}

static int status_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct status_opts *o = a->opts;
	(void)cmd;
	return act(ctx, "status", &(struct fleet_opts){ .json = o->json, .host = o->host });
}

static int down_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct down_opts *o = a->opts;
	(void)cmd;
	return act(ctx, "down", &(struct fleet_opts){ .host = o->host });
}

static int history_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct history_opts *o = a->opts;
	(void)cmd;
	return act(ctx, "history", &(struct fleet_opts){ .json = o->json });
}

#define FLEET_SUB(verb, use, what, type)                                                           \
	{                                                                                          \
		.name = #verb, .usage = use, .summary = what, .opts = type##_rows,                 \
		.nopts = SW_ARRAY_LEN(type##_rows), .opts_size = sizeof(struct type##_opts),       \
		.run = verb##_run                                                                  \
	}
static const struct cli_subcommand sub_up =
	FLEET_SUB(up, "[--foreground] [--host NAME] [--json]",
		  "start the planned servers and leave a supervisor behind", up);
static const struct cli_subcommand sub_status = FLEET_SUB(
	status, "[--host NAME] [--json]", "every server's state, and the GPUs' health", status);
static const struct cli_subcommand sub_down =
	FLEET_SUB(down, "[--host NAME]", "stop the supervisor and every server", down);
static const struct cli_subcommand sub_history =
	FLEET_SUB(history, "[--json]", "every start, crash, hang and benchmark", history);

static const struct cli_subcommand *const subs[] = { &sub_up, &sub_status, &sub_down,
						     &sub_history };

const struct cli_command cli_cmd_fleet = {
	.name = "fleet",
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
		"Several hosts: hardware lists one inventory per host, this box's first;\n"
		"each other host is reached through its exec ([host] exec, or ssh to its\n"
		"address), which runs `sworn -C WORKSPACE fleet up|status|down --host NAME`\n"
		"there: the workspace has the same path on every box and sworn is in the\n"
		"PATH exec gives.  up refuses a box whose `sworn version` differs (version\n"
		"or commit); each box supervises its own servers (fleet/state-HOST.json).\n"
		"status shows every host (10 s each) and how it was read (READ: file,\n"
		"exec, or lan: its exec failing, its servers' /health and /props over the\n"
		"network, 3 s each); a host that answers neither way is unreachable and\n"
		"its models' roles are unavailable; down stops all.\n\n"
		"sworn.conf:\n"
		"  [fleet]\n"
		"  llama_server = /opt/llama.cpp/build/bin/llama-server\n"
		"  hardware = hardware.ini            ; or: box1.ini box2.ini\n"
		"  model = /models/qwen3-30b-a3b-q8_0.gguf:ctx=32k,role=drafter\n"
		"  ; optional: calibration, extra_args, floor, port (8081), ready_timeout\n"
		"  ; (600 s), probe_interval (30 s), probe_timeout (60 s), restart_backoff\n"
		"  ; (2 s), restart_backoff_max (60 s), restart_max (5), check_gpus (yes)\n\n"
		"Exit status: 0 every server ready, 1 not (or not up), 2 usage or input error.",
	.flags = CLI_NEEDS_WORKSPACE,
	.subs = subs,
	.nsubs = SW_ARRAY_LEN(subs),
};
