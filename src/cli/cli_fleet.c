/* cli_fleet.c - a fleet of several hosts seen from one box: which host is
 * this one, running sworn on the others through their exec, and every
 * host's state gathered into one view (sworn fleet status, and the roles
 * every command gets from the fleet). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "cli/cli_fleet.h"
#include "fleet/fleet.h"

int cli_fleet_open(struct cli_fleet *f, const struct cli_ctx *ctx, struct sw_err *err)
{
	memset(f, 0, sizeof(*f));
	int rc = sw_fleet_conf_load(&f->conf, &ctx->ws.config, ctx->ws.root, err);
	if (rc != 0)
		return rc;
	f->have_conf = true;
	f->root = ctx->ws.root;
	if (f->conf.nhardware < 2)
		return 0;
	rc = sw_fleet_hw_load_all(&f->hw, (const char *const *)f->conf.hardware_files,
				  f->conf.nhardware, err);
	if (rc != 0) {
		cli_fleet_release(f);
		return rc;
	}
	f->have_hw = true;
	f->nhosts = f->hw.nhosts > 1 ? f->hw.nhosts : 0;
	/* An inventory says what command runs on its host: held to
	 * sworn.conf's checks before any of it runs. */
	if (f->nhosts > 1 && (rc = sw_fleet_hw_check_trust(&f->hw, err)) != 0) {
		cli_fleet_release(f);
		return rc;
	}
	for (size_t h = 1; h < f->nhosts; h++)
		if (!f->hw.hosts[h].exec) {
			rc = sw_err_set(err, SW_EINPUT, "host %s (%s) has no address or exec: sworn "
							"cannot reach it", f->hw.hosts[h].name,
					f->hw.hosts[h].source);
			cli_fleet_release(f);
			return rc;
		}
	return 0;
}

void cli_fleet_release(struct cli_fleet *f)
{
	if (!f)
		return;
	for (size_t h = 0; h < SW_FLEET_MAX_HOSTS; h++) {
		if (f->have_state[h])
			sw_fleet_state_release(&f->state[h]);
		free(f->why[h]);
	}
	if (f->have_hw)
		sw_fleet_hw_release(&f->hw);
	if (f->have_conf)
		sw_fleet_conf_release(&f->conf);
	memset(f, 0, sizeof(*f));
}

int cli_fleet_exec(struct sw_buf *out, int *code, struct cli_fleet *f, size_t h,
		   const char *const *args, unsigned timeout_ms, struct sw_err *err)
{
	char **argv = NULL;
	size_t n = 0, nargs = 0;
	while (args[nargs])
		nargs++;
	const char **cmd = sw_xcalloc(nargs + 4, sizeof(char *));
	size_t k = 0;
	cmd[k++] = "sworn";
	cmd[k++] = "-C";
	cmd[k++] = f->root;
	for (size_t i = 0; i < nargs; i++)
		cmd[k++] = args[i];
	cmd[k] = NULL;
	/* Through ssh each word is quoted for the shell there: a workspace
	 * path with a blank stays one word, a $ stays a $. */
	int rc = sw_fleet_exec_argv(&argv, &n, f->hw.hosts[h].exec, cmd, err);
	free(cmd);
	if (rc != 0)
		return sw_err_wrap(err, rc, "host %s: exec", f->hw.hosts[h].name);
	/* Its stderr (ssh's "No route to host") goes to fleet/exec-HOST.log,
	 * whose last line explains a failure. */
	char *file = sw_fleet_host_file("exec", f->hw.hosts[h].name, "log");
	char *log = sw_path_join(f->conf.dir, file);
	free(file);
	struct sw_err ignored = { 0 };
	if (sw_mkdir_p(f->conf.dir, 0700, &ignored) != 0)
		ignored.code = 0; /* the exec still runs; its stderr is lost */
	(void)remove(log);
	struct sw_proc_spec spec = { .argv = (const char *const *)argv, .log_path = log };
	rc = sw_proc_capture(out, code, &spec, SW_FLEET_MAX_STATE, timeout_ms, err);
	if (rc != 0) {
		sw_err_wrap(err, rc, "host %s", f->hw.hosts[h].name);
	} else if (*code != 0) {
		struct sw_buf e = SW_BUF_INIT;
		if (sw_file_read(&e, log, 1u << 20, &ignored) == 0) {
			while (e.len && (e.data[e.len - 1] == '\n' || e.data[e.len - 1] == '\r'))
				e.data[--e.len] = '\0';
			const char *last = strrchr(e.data, '\n');
			snprintf(f->last_error, sizeof(f->last_error), "%s", last ? last + 1 : e.data);
		}
		sw_buf_release(&e);
	}
	free(log);
	for (size_t i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	return rc;
}

int cli_fleet_check_version(struct cli_fleet *f, size_t h, struct sw_err *err)
{
	static const char *const args[] = { "version", "--json", NULL };
	struct sw_buf out = SW_BUF_INIT;
	int code = 0;
	int rc = cli_fleet_exec(&out, &code, f, h, args, 10000, err);
	if (rc == 0) {
		json_t *js = json_loadb(out.data, out.len, 0, NULL);
		const char *v = json_string_value(json_object_get(js, "version"));
		const char *c = json_string_value(json_object_get(js, "commit"));
		if (code != 0 || !v || !c)
			rc = sw_err_set(err, SW_EIO, "host %s: 'sworn version --json' through its exec "
						     "did not answer (exit %d%s%s)", f->hw.hosts[h].name, code,
					f->last_error[0] ? ": " : "", f->last_error);
		else if (strcmp(v, SW_VERSION) != 0 || strcmp(c, cli_build_commit) != 0)
			rc = sw_err_set(err, SW_EINPUT, "host %s runs sworn %s (%s), this box %s (%s): "
							"install the same build on every box",
					f->hw.hosts[h].name, v, c, SW_VERSION, cli_build_commit);
		json_decref(js);
	}
	sw_buf_release(&out);
	return rc;
}

/* Each server's /health and /props over the LAN, when a host's exec fails. */
#define LAN_TIMEOUT_MS 3000u

void cli_fleet_gather(struct cli_fleet *f, unsigned timeout_ms)
{
	for (size_t h = 0; h < f->nhosts; h++) {
		struct sw_err err = { 0 };
		const char *name = f->hw.hosts[h].name;
		if (h == 0) {
			if (sw_fleet_state_load_host(&f->state[h], f->conf.dir, name, &err) == 0)
				f->have_state[h] = true;
			else
				f->why[h] = sw_xstrdup(err.msg);
			f->reachable[h] = true;
			f->read[h] = "file";
			continue;
		}
		const char *args[] = { "fleet", "status", "--host", name, "--json", NULL };
		struct sw_buf out = SW_BUF_INIT;
		int code = 0;
		f->last_error[0] = '\0';
		int rc = cli_fleet_exec(&out, &code, f, h, args, timeout_ms, &err);
		if (rc == 0 && code != 0 && code != 1)
			rc = sw_err_set(&err, SW_EIO, "host %s: its status exited %d%s%s", name, code,
					f->last_error[0] ? ": " : "", f->last_error);
		if (rc == 0)
			rc = sw_fleet_state_parse(&f->state[h], out.data, out.len, name, false, &err);
		if (rc == 0) {
			f->have_state[h] = true;
			f->reachable[h] = true;
			f->read[h] = "exec";
		} else {
			/* Its servers may still answer over the LAN (ssh refused,
			 * the box itself up). */
			struct sw_err lan = { 0 };
			f->why[h] = sw_xstrdup(err.msg);
			if (f->have_state[0] &&
			    sw_fleet_state_over_lan(&f->state[h], &f->state[0], name, LAN_TIMEOUT_MS,
						    &lan) == 0) {
				f->have_state[h] = true;
				f->reachable[h] = true;
				f->read[h] = "lan";
			} else if (lan.code != 0 && lan.code != SW_ENOTFOUND) {
				free(f->why[h]);
				f->why[h] = sw_xasprintf("%s; %s", err.msg, lan.msg);
			}
		}
		sw_buf_release(&out);
	}
}

const char *cli_fleet_server_host(const struct cli_fleet *f, const char *server)
{
	for (size_t i = 0; f->have_state[0] && i < f->state[0].nplanned; i++)
		if (strcmp(f->state[0].planned[i].name, server) == 0)
			return f->state[0].planned[i].host;
	return NULL;
}

int cli_fleet_state_here(const struct cli_ctx *ctx, struct sw_fleet_state *out)
{
	struct cli_fleet f;
	struct sw_err err = { 0 };
	char *dir = sw_path_join(ctx->ws.root, "fleet");
	const char *host = NULL;
	int rc;
	if (cli_fleet_open(&f, ctx, &err) == 0 && f.nhosts > 1)
		host = f.hw.hosts[0].name;
	rc = sw_fleet_state_load_host(out, dir, host, NULL);
	cli_fleet_release(&f);
	free(dir);
	return rc;
}
