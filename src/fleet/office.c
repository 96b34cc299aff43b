/*
 * office.c - a fleet of several hosts seen from one box, and the model
 * configuration every command uses.  The first inventory [fleet] hardware
 * lists is this box's (by convention); every other host is reached through
 * its exec, running `sworn -C WORKSPACE ...` there (remote.c quotes it for
 * ssh): the workspace has the same path on every box and sworn is in the
 * PATH the exec gives.  sw_fleet_llm_config_load() is the one call that
 * resolves sworn.conf's endpoints and roles with the running fleet's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

int sw_fleet_office_open(struct sw_fleet_office *f, const struct sw_config *cfg,
			 const char *workspace, struct sw_err *err)
{
	memset(f, 0, sizeof(*f));
	int rc = sw_fleet_conf_load(&f->conf, cfg, workspace, err);
	if (rc != 0)
		return rc;
	f->have_conf = true;
	f->root = workspace;
	if (f->conf.nhardware < 2)
		return 0;
	rc = sw_fleet_hw_load_all(&f->hw, (const char *const *)f->conf.hardware_files,
				  f->conf.nhardware, err);
	if (rc != 0) {
		sw_fleet_office_release(f);
		return rc;
	}
	f->have_hw = true;
	f->nhosts = f->hw.nhosts > 1 ? f->hw.nhosts : 0;
	/* An inventory says what command runs on its host: held to
	 * sworn.conf's checks before any of it runs. */
	if (f->nhosts > 1 && (rc = sw_fleet_hw_check_trust(&f->hw, err)) != 0) {
		sw_fleet_office_release(f);
		return rc;
	}
	for (size_t h = 1; h < f->nhosts; h++)
		if (!f->hw.hosts[h].exec) {
			rc = sw_err_set(err, SW_EINPUT,
					"host %s (%s) has no address or exec: sworn "
					"cannot reach it",
					f->hw.hosts[h].name, f->hw.hosts[h].source);
			sw_fleet_office_release(f);
			return rc;
		}
	return 0;
}

void sw_fleet_office_release(struct sw_fleet_office *f)
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

int sw_fleet_office_exec(struct sw_buf *out, int *code, struct sw_fleet_office *f, size_t h,
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
			snprintf(f->last_error, sizeof(f->last_error), "%s",
				 last ? last + 1 : e.data);
		}
		sw_buf_release(&e);
	}
	free(log);
	for (size_t i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	return rc;
}

/* Each server's /health and /props over the LAN, when a host's exec fails. */
#define LAN_TIMEOUT_MS 3000u

void sw_fleet_office_gather(struct sw_fleet_office *f, unsigned timeout_ms)
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
		int rc = sw_fleet_office_exec(&out, &code, f, h, args, timeout_ms, &err);
		if (rc == 0 && code != 0 && code != 1)
			rc = sw_err_set(&err, SW_EIO, "host %s: its status exited %d%s%s", name,
					code, f->last_error[0] ? ": " : "", f->last_error);
		if (rc == 0)
			rc = sw_fleet_state_parse(&f->state[h], out.data, out.len, name, false,
						  &err);
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
			    sw_fleet_state_over_lan(&f->state[h], &f->state[0], name,
						    LAN_TIMEOUT_MS, &lan) == 0) {
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

const char *sw_fleet_office_server_host(const struct sw_fleet_office *f, const char *server)
{
	for (size_t i = 0; f->have_state[0] && i < f->state[0].nplanned; i++)
		if (strcmp(f->state[0].planned[i].name, server) == 0)
			return f->state[0].planned[i].host;
	return NULL;
}

int sw_fleet_state_here(struct sw_fleet_state *out, const struct sw_config *cfg,
			const char *workspace)
{
	struct sw_fleet_office f;
	struct sw_err err = { 0 };
	char *dir = sw_path_join(workspace, "fleet");
	const char *host = NULL;
	int rc;
	if (sw_fleet_office_open(&f, cfg, workspace, &err) == 0 && f.nhosts > 1)
		host = f.hw.hosts[0].name;
	rc = sw_fleet_state_load_host(out, dir, host, NULL);
	sw_fleet_office_release(&f);
	free(dir);
	return rc;
}

int sw_fleet_llm_config_load(struct sw_llm_config *out, const struct sw_config *conf,
			     const char *workspace, struct sw_err *err)
{
	int rc = sw_llm_config_load(out, conf, err);
	if (rc != 0)
		return rc;
	/* Several hosts: the servers of every host that answers; a host that
	 * does not is left out, so its roles are unavailable (no other model
	 * stands in for them). */
	struct sw_fleet_office f;
	struct sw_err ferr = { 0 };
	if (sw_fleet_office_open(&f, conf, workspace, &ferr) == 0 && f.nhosts > 1) {
		sw_fleet_office_gather(&f, 10000);
		for (size_t h = 0; h < f.nhosts && rc == 0; h++)
			if (f.reachable[h] && f.have_state[h])
				rc = sw_fleet_state_llm_merge(out, &f.state[h], NULL, err);
		/* The roles planned on a host that did not answer. */
		for (size_t i = 0; f.have_state[0] && i < f.state[0].nplanned; i++) {
			const char *role = f.state[0].planned[i].role;
			const char *host = f.state[0].planned[i].host;
			const char *server = f.state[0].planned[i].name;
			for (size_t h = 1; rc == 0 && role && host && h < f.nhosts; h++) {
				if (strcmp(f.hw.hosts[h].name, host) != 0)
					continue;
				char *why = NULL;
				const struct sw_fleet_state_server *s =
					f.reachable[h] && f.have_state[h] && f.state[h].over_lan
						? sw_fleet_state_find(&f.state[h], server, NULL)
						: NULL;
				if (!f.reachable[h])
					why = sw_xasprintf(
						"its server %s is on host %s, which does not "
						"answer (%s)",
						server ? server : "?", host,
						f.why[h] ? f.why[h] : "no reason given");
				else if (s && strcmp(s->state, "ready") != 0)
					why = sw_xasprintf(
						"its server %s on host %s is %s over the LAN "
						"(%s)",
						s->name, host, s->state,
						s->detail ? s->detail : "no reason given");
				if (why)
					sw_llm_config_role_unavailable(out, role, why);
				free(why);
			}
		}
		sw_fleet_office_release(&f);
		if (rc != 0)
			sw_llm_config_release(out);
		return rc;
	}
	sw_fleet_office_release(&f);
	/* No fleet state, or one that cannot be read, is no fleet: sworn.conf
	 * alone, as before the fleet existed (sworn fleet status says why). */
	char *dir = sw_path_join(workspace, "fleet");
	struct sw_fleet_state st;
	if (sw_fleet_state_load(&st, dir, NULL) == 0) {
		rc = sw_fleet_state_llm_merge(out, &st, NULL, err);
		sw_fleet_state_release(&st);
	}
	free(dir);
	if (rc != 0)
		sw_llm_config_release(out);
	return rc;
}
