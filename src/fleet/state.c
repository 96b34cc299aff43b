/* state.c - what the supervisor leaves in the workspace and what reads it
 * back: state.json and history.jsonl as supervise.c runs, the status table,
 * and `sworn fleet down`, which stops what a state file names. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "fleet/fleet_int.h"

const char *const sw__fleet_sv_state_names[] = {
	"pending", "starting", "ready",	   "hung",    "restarting",
	"failed",  "degraded", "unplaced", "stopped",
};

/* ----------------------------------------------------------------- state */

static json_t *state_json(const struct sw_fleet_sv *sv, const char *phase)
{
	json_t *servers = json_array();
	for (size_t i = 0; i < sv->n; i++) {
		const struct sw__fleet_server *s = &sv->s[i];
		const struct sw_fleet_model *m = &sv->models[s->model];
		json_t *o = json_pack(
			"{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:s, s:i, s:s}", "name", s->name,
			"state", sw__fleet_sv_state_names[s->state], "model", m->path, "group",
			s->group >= 0 ? sv->hw.groups[s->group].name : "", "port", (int)s->port,
			"pid", s->pid, "start_ticks", (json_int_t)s->ticks, "started", s->started,
			"restarts", (int)s->restarts, "log", s->log);
		json_object_set_new(o, "spec", sw_json_str(sv->conf->models[s->model]));
		json_object_set_new(o, "gpus", s->gpus ? json_string(s->gpus) : json_null());
		json_object_set_new(o, "url", s->llm.n_endpoints ? json_string(s->llm.endpoints[0].url)
								 : json_null());
		json_object_set_new(o, "detail", s->error[0] ? sw_json_str(s->error) : json_null());
		json_array_append_new(servers, o);
	}
	json_t *st = json_pack("{s:s, s:i, s:I, s:s, s:s, s:o}", "phase", phase, "supervisor_pid",
			       (int)getpid(), "supervisor_start_ticks",
			       (json_int_t)sw_proc_start_ticks((int)getpid()), "started",
			       sv->started ? sv->started : "", "hardware", sv->conf->hardware,
			       "servers", servers);
	json_object_set_new(st, "missing_gpus",
			    sv->presence.report ? sw_json_str(sv->presence.report) : json_null());
	return st;
}

int sw__fleet_sv_write(struct sw_fleet_sv *sv, const char *phase, struct sw_err *err)
{
	json_t *st = state_json(sv, phase);
	char *text = json_dumps(st, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(st);
	int rc = sw_file_write_atomic(sv->state_path, text, strlen(text), err);
	free(text);
	sv->dirty = false;
	return rc;
}

int sw_fleet_sv_write_state(struct sw_fleet_sv *sv, struct sw_err *err)
{
	char *logs = sw_path_join(sv->conf->dir, "logs");
	int rc = sw_mkdir_p(logs, 0700, err);
	free(logs);
	if (rc != 0)
		return rc;
	if (!sv->started) {
		char now[21];
		sw_utc_now(now);
		sv->started = sw_xstrdup(now);
	}
	return sw__fleet_sv_write(sv, "starting", err);
}

int sw_fleet_history_append(const char *dir, json_t *event, struct sw_err *err)
{
	char now[21];
	sw_utc_now(now);
	json_t *e = json_deep_copy(event);
	json_object_set_new(e, "time", json_string(now));
	char *line = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(e);
	char *path = sw_path_join(dir, "history.jsonl");
	int rc = sw_mkdir_p(dir, 0700, err);
	FILE *f = rc == 0 ? fopen(path, "a") : NULL;
	if (rc == 0 && !f)
		rc = sw_err_set(err, SW_EIO, "cannot open '%s': %s", path, strerror(errno));
	if (f) {
		fprintf(f, "%s\n", line);
		if (fclose(f) != 0)
			rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(errno));
	}
	free(path);
	free(line);
	return rc;
}

void sw__fleet_sv_history(const struct sw_fleet_sv *sv, const struct sw__fleet_server *s,
			  const char *event, json_t *extra)
{
	const struct sw_fleet_model *m = &sv->models[s->model];
	struct sw_buf flags = SW_BUF_INIT;
	for (size_t i = 1; s->argv && s->argv[i]; i++)
		sw_buf_addf(&flags, "%s%s", i > 1 ? " " : "", s->argv[i]);
	json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:s, s:i, s:i, s:i}", "event",
			      event, "server", s->name, "model_file", sw_path_base(m->path),
			      "model_path", m->path, "model_bytes", (json_int_t)m->file_bytes,
			      "header_sha256", m->header_sha256 ? m->header_sha256 : "", "flags",
			      flags.data, "gpus", s->gpus ? s->gpus : "", "port", (int)s->port,
			      "pid", s->pid, "restarts", (int)s->restarts);
	if (extra) {
		json_object_update(e, extra);
		json_decref(extra);
	}
	struct sw_err err = { 0 };
	if (sw_fleet_history_append(sv->conf->dir, e, &err) != 0)
		sw__fleet_sv_say(s, "cannot record history: %s", err.msg);
	json_decref(e);
	sw_buf_release(&flags);
}

/* ------------------------------------------------------- status and down */

static bool sup_running(const json_t *st)
{
	json_int_t pid = json_integer_value(json_object_get(st, "supervisor_pid"));
	json_int_t ticks = json_integer_value(json_object_get(st, "supervisor_start_ticks"));
	const char *phase = json_string_value(json_object_get(st, "phase"));
	return pid > 0 && phase && strcmp(phase, "stopped") != 0 &&
	       sw_proc_running((int)pid, (unsigned long long)ticks);
}

int sw_fleet_state_load(json_t **out, const char *dir, struct sw_err *err)
{
	struct sw_buf b = SW_BUF_INIT;
	char *path = sw_path_join(dir, "state.json");
	int rc = 0;
	*out = NULL;
	if (!sw_path_is_file(path)) {
		rc = sw_err_set(err, SW_ENOTFOUND, "no fleet state in %s: the fleet was never started "
						   "here ('sworn fleet up')", dir);
		goto done;
	}
	if ((rc = sw_file_read(&b, path, SW_FLEET_MAX_STATE, err)) != 0)
		goto done;
	json_error_t je;
	json_t *st = json_loadb(b.data, b.len, 0, &je);
	if (!json_is_object(st) || !json_is_array(json_object_get(st, "servers"))) {
		json_decref(st);
		rc = sw_err_set(err, SW_EINPUT, "%s: not a fleet state file (%s)", path, je.text);
		goto done;
	}
	json_object_set_new(st, "supervisor_running", json_boolean(sup_running(st)));
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(st, "servers"), i, s) {
		json_int_t pid = json_integer_value(json_object_get(s, "pid"));
		json_int_t t = json_integer_value(json_object_get(s, "start_ticks"));
		json_object_set_new(s, "process_running",
				    json_boolean(pid > 0 && sw_proc_running((int)pid, (unsigned long long)t)));
	}
	*out = st;
done:
	free(path);
	sw_buf_release(&b);
	return rc;
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

bool sw_fleet_state_settled(const json_t *st)
{
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(st, "servers"), i, s) {
		const char *state = str(s, "state");
		if (!strcmp(state, "pending") || !strcmp(state, "starting") ||
		    !strcmp(state, "restarting"))
			return false;
	}
	return true;
}

bool sw_fleet_state_all_ready(const json_t *st)
{
	size_t i;
	json_t *s;
	if (!json_is_true(json_object_get(st, "supervisor_running")))
		return false;
	json_array_foreach(json_object_get(st, "servers"), i, s)
		if (strcmp(str(s, "state"), "ready") != 0)
			return false;
	return true;
}

void sw_fleet_state_text(struct sw_buf *out, const json_t *st)
{
	bool running = json_is_true(json_object_get(st, "supervisor_running"));
	sw_buf_addf(out, "fleet: supervisor %s (pid %lld), started %s\n",
		    running ? "running" : "not running",
		    (long long)json_integer_value(json_object_get(st, "supervisor_pid")),
		    str(st, "started"));
	sw_buf_addf(out, "%-32s %-10s %-6s %-8s %-8s %-12s %s\n", "SERVER", "STATE", "PORT", "PID",
		    "RESTARTS", "GPUS", "MODEL");
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(st, "servers"), i, s) {
		const char *state = str(s, "state");
		bool proc = json_is_true(json_object_get(s, "process_running"));
		char pid[32] = "-";
		if (json_integer_value(json_object_get(s, "pid")) > 0)
			snprintf(pid, sizeof(pid), "%lld%s",
				 (long long)json_integer_value(json_object_get(s, "pid")),
				 proc ? "" : "?");
		sw_buf_addf(out, "%-32s %-10s %-6lld %-8s %-8lld %-12s %s\n", str(s, "name"),
			    !running && strcmp(state, "stopped") != 0 && strcmp(state, "degraded") &&
				    strcmp(state, "unplaced") && strcmp(state, "failed")
				    ? "stale" : state,
			    (long long)json_integer_value(json_object_get(s, "port")), pid,
			    (long long)json_integer_value(json_object_get(s, "restarts")),
			    json_is_string(json_object_get(s, "gpus")) ? str(s, "gpus") : "-",
			    sw_path_base(str(s, "model")));
		if (json_is_string(json_object_get(s, "detail")))
			sw_buf_addf(out, "    %s\n", str(s, "detail"));
	}
	if (json_is_string(json_object_get(st, "missing_gpus")))
		sw_buf_addf(out, "missing GPUs:\n%s", str(st, "missing_gpus"));
}

int sw_fleet_down(struct sw_buf *report, const char *dir, unsigned grace_ms, struct sw_err *err)
{
	json_t *st = NULL;
	int rc = sw_fleet_state_load(&st, dir, err);
	if (rc != 0)
		return rc;
	if (json_is_true(json_object_get(st, "supervisor_running"))) {
		int pid = (int)json_integer_value(json_object_get(st, "supervisor_pid"));
		unsigned long long t =
			(unsigned long long)json_integer_value(json_object_get(st, "supervisor_start_ticks"));
		/* The supervisor stops its servers itself (up to 10 s each). */
		kill((pid_t)pid, SIGTERM);
		double until = sw_now() + grace_ms / 1000.0 + 10.0 * (double)json_array_size(
			json_object_get(st, "servers"));
		while (sw_proc_running(pid, t) && sw_now() < until)
			sw__fleet_sleep_ms(20);
		if (sw_proc_running(pid, t)) {
			kill((pid_t)pid, SIGKILL);
			sw_buf_addf(report, "supervisor %d did not stop; killed\n", pid);
		} else {
			sw_buf_addf(report, "supervisor %d stopped\n", pid);
		}
	}
	/* Servers a dead supervisor left behind. */
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(st, "servers"), i, s) {
		int pid = (int)json_integer_value(json_object_get(s, "pid"));
		unsigned long long t = (unsigned long long)json_integer_value(json_object_get(s, "start_ticks"));
		if (pid > 0 && sw_proc_running(pid, t)) {
			int k = sw_proc_stop(pid, grace_ms, err);
			if (k < 0) {
				rc = k;
				continue;
			}
			sw_buf_addf(report, "%s: stopped pid %d%s\n", str(s, "name"), pid,
				    k == 1 ? " (SIGKILL)" : "");
		}
	}
	json_decref(st);
	if (rc == 0) {
		json_t *now = NULL;
		if (sw_fleet_state_load(&now, dir, NULL) == 0) {
			json_object_set_new(now, "phase", json_string("stopped"));
			json_array_foreach(json_object_get(now, "servers"), i, s) {
				const char *state = str(s, "state");
				if (strcmp(state, "degraded") && strcmp(state, "unplaced") &&
				    strcmp(state, "failed"))
					json_object_set_new(s, "state", json_string("stopped"));
				json_object_set_new(s, "pid", json_integer(-1));
				json_object_del(s, "process_running");
			}
			json_object_del(now, "supervisor_running");
			char *text = json_dumps(now, JSON_INDENT(2) | JSON_SORT_KEYS);
			char *path = sw_path_join(dir, "state.json");
			rc = sw_file_write_atomic(path, text, strlen(text), err);
			free(path);
			free(text);
			json_decref(now);
		}
	}
	return rc;
}
