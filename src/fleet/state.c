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
	json_t *planned = json_array();
	for (size_t i = 0; i < sv->n; i++) {
		const struct sw__fleet_server *s = &sv->s[i];
		const struct sw_fleet_model *m = &sv->models[s->model];
		const struct sw_fleet_placement *pl = &sv->plan.placed[s->model];
		/* Every host's state names the whole plan: a status that cannot
		 * reach a box still knows which servers and roles it had.
		 * Its url and context let a status whose exec fails read the
		 * servers over the LAN (sw_fleet_state_over_lan). */
		if (sv->multi && pl->group >= 0) {
			int host = sv->hw.groups[pl->group].host;
			const struct sw_fleet_request *rq = &sv->reqs[s->model];
			char *url = sw_xasprintf("http://%s:%u", sw_fleet_host_address(&sv->hw, host),
						 pl->port);
			json_array_append_new(
				planned,
				json_pack("{s:s, s:s, s:o, s:s, s:I}", "name", s->name, "host",
					  sv->hw.hosts[host].name, "role",
					  rq->role ? sw_json_str(rq->role) : json_null(), "url", url,
					  "context", (json_int_t)(pl->fit.ctx / (rq->slots ? rq->slots : 1))));
			free(url);
		}
		if (s->elsewhere)
			continue;
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
		/* The key sworn's client sends it (sw_fleet_state_llm_merge). */
		json_object_set_new(o, "api_key_file",
				    sv->api_key_file ? sw_json_str(sv->api_key_file) : json_null());
		/* What sworn ask needs to use it as a role (sw_fleet_state_llm_merge). */
		const struct sw_fleet_request *r = &sv->reqs[s->model];
		json_object_set_new(o, "role", r->role ? sw_json_str(r->role) : json_null());
		if (s->model < sv->plan.nmodels && sv->plan.placed[s->model].group >= 0)
			json_object_set_new(o, "context",
					    json_integer(sv->plan.placed[s->model].fit.ctx /
							 (r->slots ? r->slots : 1)));
		json_array_append_new(servers, o);
	}
	json_t *st = json_pack("{s:s, s:i, s:I, s:s, s:s, s:o}", "phase", phase, "supervisor_pid",
			       (int)getpid(), "supervisor_start_ticks",
			       (json_int_t)sw_proc_start_ticks((int)getpid()), "started",
			       sv->started ? sv->started : "", "hardware",
			       sv->multi ? sv->hw.hosts[sv->host].source : sv->conf->hardware,
			       "servers", servers);
	if (sv->multi) {
		json_object_set_new(st, "host", json_string(sv->hw.hosts[sv->host].name));
		json_object_set_new(st, "planned", planned);
	} else {
		json_decref(planned);
	}
	json_object_set_new(st, "missing_gpus",
			    sv->presence.report ? sw_json_str(sv->presence.report) : json_null());
	json_object_set_new(st, "access", sv->access ? sw_json_str(sv->access) : json_null());
	json_object_set_new(st, "check_gpus", json_boolean(sv->conf->check_gpus));
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

char *sw_fleet_host_file(const char *stem, const char *host, const char *ext)
{
	if (!host)
		return sw_xasprintf("%s.%s", stem, ext);
	char slug[128];
	sw__fleet_slug(slug, sizeof(slug), host);
	return sw_xasprintf("%s-%s.%s", stem, slug, ext);
}

char *sw_fleet_state_file(const char *host)
{
	return sw_fleet_host_file("state", host, "json");
}

int sw_fleet_state_load(struct sw_fleet_state *out, const char *dir, struct sw_err *err)
{
	return sw_fleet_state_load_host(out, dir, NULL, err);
}

int sw_fleet_state_load_host(struct sw_fleet_state *out, const char *dir, const char *host,
			     struct sw_err *err)
{
	struct sw_buf b = SW_BUF_INIT;
	char *file = sw_fleet_state_file(host);
	char *path = sw_path_join(dir, file);
	int rc = 0;
	free(file);
	memset(out, 0, sizeof(*out));
	if (!sw_path_is_file(path)) {
		rc = sw_err_set(err, SW_ENOTFOUND, "no fleet state in %s%s%s: the fleet was never "
						   "started here ('sworn fleet up')", dir,
				host ? " for host " : "", host ? host : "");
		goto done;
	}
	if ((rc = sw_file_read(&b, path, SW_FLEET_MAX_STATE, err)) != 0)
		goto done;
	rc = sw_fleet_state_parse(out, b.data, b.len, path, true, err);
done:
	free(path);
	sw_buf_release(&b);
	return rc;
}

bool sw_fleet_state_settled(const struct sw_fleet_state *st)
{
	for (size_t i = 0; i < st->nservers; i++) {
		const char *state = st->servers[i].state;
		if (!strcmp(state, "pending") || !strcmp(state, "starting") ||
		    !strcmp(state, "restarting"))
			return false;
	}
	return true;
}

bool sw_fleet_state_all_ready(const struct sw_fleet_state *st)
{
	if (!st->supervisor_running)
		return false;
	for (size_t i = 0; i < st->nservers; i++)
		if (strcmp(st->servers[i].state, "ready") != 0)
			return false;
	return true;
}

/* States that outlast the supervisor: what a server was left in. */
static bool final_state(const char *state)
{
	return !strcmp(state, "stopped") || !strcmp(state, "degraded") ||
	       !strcmp(state, "unplaced") || !strcmp(state, "failed");
}

void sw_fleet_state_text(struct sw_buf *out, const struct sw_fleet_state *st)
{
	bool running = st->supervisor_running;
	sw_buf_addf(out, "fleet: supervisor %s (pid %d), started %s\n",
		    running ? "running" : "not running", st->supervisor_pid, st->started);
	sw_buf_addf(out, "%-32s %-10s %-6s %-8s %-8s %-12s %s\n", "SERVER", "STATE", "PORT", "PID",
		    "RESTARTS", "GPUS", "MODEL");
	for (size_t i = 0; i < st->nservers; i++) {
		const struct sw_fleet_state_server *s = &st->servers[i];
		char pid[32] = "-";
		if (s->pid > 0)
			snprintf(pid, sizeof(pid), "%d%s", s->pid, s->process_running ? "" : "?");
		sw_buf_addf(out, "%-32s %-10s %-6u %-8s %-8u %-12s %s\n", s->name,
			    !running && !final_state(s->state) ? "stale" : s->state, s->port, pid,
			    s->restarts, s->gpus ? s->gpus : "-", sw_path_base(s->model));
		if (s->detail)
			sw_buf_addf(out, "    %s\n", s->detail);
	}
	if (st->access)
		sw_buf_addf(out, "access: %s\n", st->access);
	if (st->missing_gpus)
		sw_buf_addf(out, "missing GPUs:\n%s", st->missing_gpus);
}

const struct sw_fleet_state_server *sw_fleet_state_find(const struct sw_fleet_state *st,
							 const char *name, const char *url)
{
	for (size_t i = 0; st && i < st->nservers; i++) {
		const struct sw_fleet_state_server *s = &st->servers[i];
		if (name && strcmp(name, s->name) == 0)
			return s;
		if (url && s->url && strcmp(url, s->url) == 0)
			return s;
		if (!name && !url && s->url && strcmp(s->state, "ready") == 0)
			return s;
	}
	return NULL;
}

/* A role name a [role "NAME"] section could have. */
static bool role_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64 || s[0] == '-' || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", s[i]))
			return false;
	return true;
}

int sw_fleet_state_llm_merge(struct sw_llm_config *cfg, const struct sw_fleet_state *st,
			     size_t *added, struct sw_err *err)
{
	if (added)
		*added = 0;
	/* A state read over the LAN has no supervisor to vouch for it: only
	 * the servers that answered /health ready count. */
	if (!st || !(st->supervisor_running || st->over_lan))
		return 0;
	for (size_t i = 0; i < st->nservers; i++) {
		const struct sw_fleet_state_server *s = &st->servers[i];
		if (!s->url || !*s->url || (st->over_lan && strcmp(s->state, "ready") != 0))
			continue;
		size_t e = 0;
		while (e < cfg->n_endpoints && strcmp(cfg->endpoints[e].name, s->name) != 0)
			e++;
		for (size_t k = 0; e == cfg->n_endpoints && k < cfg->n_endpoints; k++)
			if (strcmp(cfg->endpoints[k].url, s->url) == 0)
				e = k;
		if (e == cfg->n_endpoints) {
			int rc = sw_llm_config_add_url(cfg, s->name, s->url, err);
			if (rc != 0)
				return rc;
		}
		/* The box it runs on: what a pipeline step records as its host. */
		struct sw_llm_endpoint *ep = &cfg->endpoints[e];
		if (st->host && !ep->fleet_host)
			ep->fleet_host = sw_xstrdup(st->host);
		/* The server demands the workspace's key: send it, unless
		 * sworn.conf names a key file of its own for the endpoint. */
		if (s->api_key_file && !ep->api_key_file)
			ep->api_key_file = sw_xstrdup(s->api_key_file);
		const char *epname = ep->name;
		if (!s->role || !role_name_ok(s->role) || sw_llm_role_find(cfg, s->role))
			continue;
		if (cfg->n_roles >= SW_LLM_MAX_ROLES)
			return sw_err_set(err, SW_ELIMIT, "more than %d roles", SW_LLM_MAX_ROLES);
		cfg->roles = sw_xrealloc(cfg->roles, (cfg->n_roles + 1) * sizeof(*cfg->roles));
		struct sw_llm_role *r = &cfg->roles[cfg->n_roles++];
		/* The defaults of a [role] section that sets only endpoint. */
		*r = (struct sw_llm_role){
			.name = sw_xstrdup(s->role),
			.endpoint = sw_xstrdup(epname),
			.temperature = -1,
			.top_p = -1,
			.context = (long)s->context,
			.retries = 10,
			.deadlines = sw_llm_default_deadlines,
		};
		if (added)
			(*added)++;
	}
	return 0;
}

int sw_fleet_bench_target(struct sw_fleet_bench_target *out, struct sw_llm_config *cfg,
			  const struct sw_fleet_state *st, const char *want, struct sw_err *err)
{
	const struct sw_fleet_state_server *fs = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	if (want && (strncmp(want, "http://", 7) == 0 || strncmp(want, "https://", 8) == 0)) {
		if ((rc = sw_llm_config_add_url(cfg, want, want, err)) != 0)
			return rc;
		out->endpoint = want;
		fs = sw_fleet_state_find(st, NULL, cfg->endpoints[cfg->n_endpoints - 1].url);
	} else if (want && sw_llm_endpoint_find(cfg, want)) {
		out->endpoint = want;
		fs = sw_fleet_state_find(st, NULL, sw_llm_endpoint_find(cfg, want)->url);
	} else if ((fs = sw_fleet_state_find(st, want, NULL)) != NULL && fs->url) {
		if ((rc = sw_llm_config_add_url(cfg, fs->name, fs->url, err)) != 0)
			return rc;
		out->endpoint = fs->name;
	} else if (want) {
		return sw_err_set(err, SW_EUSAGE,
				  "no endpoint '%s' in sworn.conf and no fleet server of that name "
				  "(give a name or an http:// URL)", want);
	} else if (cfg->n_endpoints == 1) {
		fs = NULL;
		out->endpoint = cfg->endpoints[0].name;
	} else {
		return sw_err_set(err, SW_EUSAGE,
				  "which server? give an endpoint of sworn.conf, a fleet server or a URL "
				  "(no fleet server is ready%s)",
				  cfg->n_endpoints ? " and sworn.conf has several endpoints" : "");
	}
	out->server = fs;
	for (size_t e = 0; fs && fs->api_key_file && e < cfg->n_endpoints; e++)
		if (strcmp(cfg->endpoints[e].name, out->endpoint) == 0 &&
		    !cfg->endpoints[e].api_key_file)
			cfg->endpoints[e].api_key_file = sw_xstrdup(fs->api_key_file);
	if (fs) {
		out->spec = fs->spec;
		out->hardware = st->hardware;
		out->group = fs->group;
	}
	return 0;
}

int sw_fleet_down(struct sw_buf *report, const char *dir, unsigned grace_ms, struct sw_err *err)
{
	return sw_fleet_down_host(report, dir, NULL, grace_ms, err);
}

int sw_fleet_down_host(struct sw_buf *report, const char *dir, const char *host, unsigned grace_ms,
		       struct sw_err *err)
{
	struct sw_fleet_state st;
	int rc = sw_fleet_state_load_host(&st, dir, host, err);
	if (rc != 0)
		return rc;
	if (st.supervisor_running) {
		int pid = st.supervisor_pid;
		unsigned long long t = st.supervisor_start_ticks;
		/* The supervisor stops its servers itself (up to 10 s each). */
		kill((pid_t)pid, SIGTERM);
		double until = sw_now() + grace_ms / 1000.0 + 10.0 * (double)st.nservers;
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
	for (size_t i = 0; i < st.nservers; i++) {
		const struct sw_fleet_state_server *s = &st.servers[i];
		if (s->pid > 0 && sw_proc_running(s->pid, s->start_ticks)) {
			int k = sw_proc_stop(s->pid, grace_ms, err);
			if (k < 0) {
				rc = k;
				continue;
			}
			sw_buf_addf(report, "%s: stopped pid %d%s\n", s->name, s->pid,
				    k == 1 ? " (SIGKILL)" : "");
		}
	}
	sw_fleet_state_release(&st);
	if (rc == 0) {
		/* Written over what the supervisor left last, which may have
		 * changed while it stopped. */
		struct sw_fleet_state now;
		if (sw_fleet_state_load_host(&now, dir, host, NULL) == 0) {
			free(now.phase);
			now.phase = sw_xstrdup("stopped");
			for (size_t i = 0; i < now.nservers; i++) {
				struct sw_fleet_state_server *s = &now.servers[i];
				if (strcmp(s->state, "degraded") && strcmp(s->state, "unplaced") &&
				    strcmp(s->state, "failed")) {
					free(s->state);
					s->state = sw_xstrdup("stopped");
				}
				s->pid = -1;
			}
			json_t *js = sw_fleet_state_json(&now, false);
			char *text = json_dumps(js, JSON_INDENT(2) | JSON_SORT_KEYS);
			json_decref(js);
			char *file = sw_fleet_state_file(host);
			char *path = sw_path_join(dir, file);
			free(file);
			rc = sw_file_write_atomic(path, text, strlen(text), err);
			free(path);
			free(text);
			sw_fleet_state_release(&now);
		}
	}
	return rc;
}
