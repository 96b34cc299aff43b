/* supervise.c - start the planned llama-servers, wait until each answers,
 * restart the ones that crash, report the ones that hang, keep the state in
 * the workspace, and stop them all. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "fleet/fleet_int.h"
#include "llm/llm.h"

static void set_state(struct sw_fleet_sv *sv, struct sw__fleet_server *s,
		      enum sw__fleet_sv_state st, const char *fmt, ...) SW_PRINTF(4, 5);
static void set_state(struct sw_fleet_sv *sv, struct sw__fleet_server *s,
		      enum sw__fleet_sv_state st, const char *fmt, ...)
{
	s->state = st;
	s->error[0] = '\0';
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(s->error, sizeof(s->error), fmt, ap);
		va_end(ap);
	}
	sv->dirty = true;
	if (s->error[0])
		sw__fleet_sv_say(s, "%s: %s", sw__fleet_sv_state_names[st], s->error);
	else
		sw__fleet_sv_say(s, "%s", sw__fleet_sv_state_names[st]);
}

/* ------------------------------------------------------------- preparing */

static char **strv_add(char **v, size_t *n, const char *s)
{
	v = sw_xrealloc(v, (*n + 2) * sizeof(char *));
	v[(*n)++] = sw_xstrdup(s);
	v[*n] = NULL;
	return v;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void build_server(struct sw_fleet_sv *sv, size_t i)
{
	const struct sw_fleet_conf *c = sv->conf;
	const struct sw_fleet_placement *pl = &sv->plan.placed[i];
	const struct sw_fleet_model *m = &sv->models[i];
	const struct sw_fleet_request *r = &sv->reqs[i];
	struct sw__fleet_server *s = &sv->s[i];
	char num[64];
	size_t n = 0;

	s->name = sw_fleet_endpoint_name(&sv->plan, i);
	s->model = i;
	s->group = pl->group;
	s->port = pl->port;
	s->pid = -1;
	char *logs = sw_path_join(c->dir, "logs");
	char *file = sw_xasprintf("%s.log", s->name);
	s->log = sw_path_join(logs, file);
	free(file);
	free(logs);
	/* Several hosts: each box's supervisor runs its own servers; the
	 * first host's also reports the models placed nowhere. */
	if (sv->multi && (pl->group >= 0 ? sv->hw.groups[pl->group].host != sv->host : sv->host != 0)) {
		s->elsewhere = true;
		s->state = SW__FLEET_SV_UNPLACED;
		return;
	}
	const char *listen = sv->multi ? sw_fleet_host_address(&sv->hw, sv->host) : "127.0.0.1";
	if (pl->group < 0) {
		s->state = SW__FLEET_SV_UNPLACED;
		snprintf(s->error, sizeof(s->error), "%s", pl->reason);
		return;
	}
	const struct sw_fleet_group *g = &sv->hw.groups[pl->group];
	struct sw_buf gpus = SW_BUF_INIT;
	for (size_t d = 0; d < g->n; d++) {
		int now = sv->presence.now_index[g->gpu[d]];
		sw_buf_addf(&gpus, "%s%d", d ? "," : "", now >= 0 ? now : sv->hw.gpus[g->gpu[d]].index);
	}
	s->gpus = sw_buf_detach(&gpus, NULL);
	if (c->check_gpus && !sv->presence.group_ok[pl->group]) {
		s->state = SW__FLEET_SV_DEGRADED;
		snprintf(s->error, sizeof(s->error),
			 "group %s lost a GPU (see below); the model is not started rather than "
			 "spilling onto the CPU or another group", g->name);
		return;
	}
	s->argv = strv_add(s->argv, &n, c->server);
	s->argv = strv_add(s->argv, &n, "-m");
	s->argv = strv_add(s->argv, &n, m->path);
	s->argv = strv_add(s->argv, &n, "--host");
	s->argv = strv_add(s->argv, &n, listen);
	s->argv = strv_add(s->argv, &n, "--port");
	snprintf(num, sizeof(num), "%u", pl->port);
	s->argv = strv_add(s->argv, &n, num);
	s->argv = strv_add(s->argv, &n, "-ngl");
	snprintf(num, sizeof(num), "%u", m->n_layer_all + 1);
	s->argv = strv_add(s->argv, &n, num);
	s->argv = strv_add(s->argv, &n, "-sm");
	s->argv = strv_add(s->argv, &n, "layer");
	struct sw_buf ts = SW_BUF_INIT;
	for (size_t d = 0; d < pl->fit.ndev; d++)
		sw_buf_addf(&ts, "%s%u", d ? "," : "", pl->fit.layers[d]);
	s->argv = strv_add(s->argv, &n, "-ts");
	s->argv = strv_add(s->argv, &n, ts.data);
	sw_buf_release(&ts);
	bool known = sv->caps.known;
	s->argv = strv_add(s->argv, &n, "-fa");
	if (!known || sv->caps.fa_value)
		s->argv = strv_add(s->argv, &n, "on");
	s->argv = strv_add(s->argv, &n, "-ctk");
	s->argv = strv_add(s->argv, &n, sw_fleet_kv_name(r->kv));
	s->argv = strv_add(s->argv, &n, "-ctv");
	s->argv = strv_add(s->argv, &n, sw_fleet_kv_name(r->kv));
	s->argv = strv_add(s->argv, &n, "-c");
	snprintf(num, sizeof(num), "%u", pl->fit.ctx);
	s->argv = strv_add(s->argv, &n, num);
	s->argv = strv_add(s->argv, &n, "-np");
	snprintf(num, sizeof(num), "%u", r->slots ? r->slots : 1);
	s->argv = strv_add(s->argv, &n, num);
	if (!known || sv->caps.fit) {
		s->argv = strv_add(s->argv, &n, "--fit");
		s->argv = strv_add(s->argv, &n, "off");
	}
	/* Locked down as far as this build allows (sw_fleet_server_caps_access
	 * says how far in fleet status): the workspace's API key, no browser
	 * origin, no web chat. */
	if (sv->api_key_file) {
		s->argv = strv_add(s->argv, &n, "--api-key-file");
		s->argv = strv_add(s->argv, &n, sv->api_key_file);
	}
	if (known && sv->caps.cors_origins) {
		s->argv = strv_add(s->argv, &n, "--cors-origins");
		s->argv = strv_add(s->argv, &n, SW_FLEET_CORS_NONE);
	}
	if (known && sv->caps.no_cors_credentials)
		s->argv = strv_add(s->argv, &n, "--no-cors-credentials");
	if (known && sv->caps.no_webui[0])
		s->argv = strv_add(s->argv, &n, sv->caps.no_webui);
	/* A reasoning model's settings, where this build takes them; one it
	 * does not is said, not sent (an unknown flag stops the server). */
	if (r->reasoning && known && sv->caps.reasoning) {
		s->argv = strv_add(s->argv, &n, "--reasoning");
		s->argv = strv_add(s->argv, &n, r->reasoning == 1 ? "on" : "off");
	} else if (r->reasoning) {
		sw__fleet_sv_say(s,
				 "reasoning=%s not passed: this build's --help has no --reasoning",
				 r->reasoning == 1 ? "on" : "off");
	}
	if (r->reasoning_budget && known && sv->caps.reasoning_budget) {
		s->argv = strv_add(s->argv, &n, "--reasoning-budget");
		snprintf(num, sizeof(num), "%u", r->reasoning_budget);
		s->argv = strv_add(s->argv, &n, num);
	} else if (r->reasoning_budget) {
		sw__fleet_sv_say(s, "reasoning_budget=%u not passed: this build's --help has no"
				 " --reasoning-budget", r->reasoning_budget);
	}
	for (size_t k = 0; k < c->nextra; k++)
		s->argv = strv_add(s->argv, &n, c->extra_args[k]);
	size_t ne = 0;
	s->env = strv_add(s->env, &ne, "CUDA_DEVICE_ORDER=PCI_BUS_ID");
	char *vis = sw_xasprintf("CUDA_VISIBLE_DEVICES=%s", s->gpus);
	s->env = strv_add(s->env, &ne, vis);
	free(vis);
	/* The client this supervisor probes the server with. */
	s->llm.path = sw_xstrdup("fleet");
	s->llm.policy.mode = SW_LLM_LOCAL_ONLY;
	s->llm.endpoints = sw_xcalloc(1, sizeof(*s->llm.endpoints));
	s->llm.n_endpoints = 1;
	s->llm.endpoints[0].name = sw_xstrdup(s->name);
	s->llm.endpoints[0].url = sw_xasprintf("http://%s:%u", listen, pl->port);
	s->llm.endpoints[0].host = sw_xstrdup(listen);
	if (sv->api_key_file)
		s->llm.endpoints[0].api_key_file = sw_xstrdup(sv->api_key_file);
	s->state = SW__FLEET_SV_PENDING;
}

int sw_fleet_sv_prepare(struct sw_fleet_sv **out, const struct sw_fleet_conf *conf,
			struct sw_err *err)
{
	struct sw_fleet_sv *sv = sw_xcalloc(1, sizeof(*sv));
	int rc;

	*out = NULL;
	sv->conf = conf;
	if (conf->nhardware > 1)
		rc = sw_fleet_hw_load_all(&sv->hw, (const char *const *)conf->hardware_files,
					  conf->nhardware, err);
	else
		rc = sw_fleet_hw_load(&sv->hw, conf->hardware, err);
	if (rc != 0 || (rc = sw_fleet_calib_load(&sv->cal, conf->calibration, err)) != 0)
		goto fail;
	sv->multi = sv->hw.nhosts > 1;
	if (conf->host) {
		sv->host = -1;
		for (size_t h = 0; h < sv->hw.nhosts; h++)
			if (strcmp(sv->hw.hosts[h].name, conf->host) == 0)
				sv->host = (int)h;
		if (sv->host < 0) {
			rc = sw_err_set(err, SW_EUSAGE, "no host '%s' in [fleet] hardware (%s)",
					conf->host, sv->hw.source);
			goto fail;
		}
	}
	sv->models = sw_xcalloc(conf->nmodels, sizeof(*sv->models));
	sv->reqs = sw_xcalloc(conf->nmodels, sizeof(*sv->reqs));
	for (size_t i = 0; i < conf->nmodels; i++) {
		char *path = NULL;
		rc = sw_fleet_spec_parse(&path, &sv->reqs[i], conf->models[i], err);
		if (rc == 0)
			rc = sw_fleet_model_load(&sv->models[i], path, err);
		free(path);
		if (rc != 0) {
			sw_err_wrap(err, rc, "[fleet] model");
			goto fail;
		}
	}
	for (size_t i = 0; i < SW_FLEET_MAX_GPUS; i++)
		sv->presence.now_index[i] = -1;
	for (size_t g = 0; g < SW_FLEET_MAX_GROUPS; g++)
		sv->presence.group_ok[g] = true;
	if (conf->check_gpus) {
		/* The GPU list only: a vanished card is missing from it (the
		 * topology matrix does not matter here). */
		struct sw_fleet_hw now = { 0 };
		struct sw_buf q = SW_BUF_INIT;
		char *qargv[] = { (char *)"nvidia-smi",
				  (char *)"--query-gpu=index,name,memory.total,pci.bus_id,compute_cap",
				  (char *)"--format=csv", NULL };
		rc = sw__fleet_capture(&q, qargv, 1u << 20, err);
		if (rc == 0)
			rc = sw_fleet_hw_from_smi(&now, q.data, NULL, err);
		sw_buf_release(&q);
		if (rc != 0) {
			sw_err_wrap(err, rc, "cannot check the GPUs present (nvidia-smi; [fleet] check_gpus = "
					     "no skips the check)");
			goto fail;
		}
		sw__fleet_presence_check_host(&sv->presence, &sv->hw, &now, sv->multi ? sv->host : -1);
		sw_fleet_hw_release(&now);
	}
	/* sworn.conf names the program by its path: held to sworn.conf's own
	 * checks (a bare name is PATH's, as the shell's would be). */
	if (strchr(conf->server, '/') &&
	    (rc = sw_fleet_program_check_trust(conf->server, err)) != 0)
		goto fail;
	/* The flags of the build that will run: a server that cannot be read
	 * gets the newest ones, and its start fails with its own message. */
	struct sw_err cerr = { 0 };
	if (sw_fleet_server_caps_read(&sv->caps, conf->server, &cerr) != 0)
		sv->caps.known = false;
	if (sv->caps.known && sv->caps.api_key_file &&
	    (rc = sw_fleet_api_key_ensure(&sv->api_key_file, conf->dir, err)) != 0) {
		sw_err_wrap(err, rc, "the servers' API key");
		goto fail;
	}
	struct sw_buf access = SW_BUF_INIT;
	sw_fleet_server_caps_access(&access, &sv->caps);
	sv->access = sw_buf_detach(&access, NULL);
	struct sw_fleet_plan_opts po = {
		.floor_tps = conf->floor_tps, .base_port = conf->base_port, .server = conf->server,
		.caps = &sv->caps,
	};
	if ((rc = sw_fleet_plan_make(&sv->plan, &sv->hw, sv->models, sv->reqs, conf->nmodels, &po,
				     sv->cal, err)) != 0)
		goto fail;
	sv->n = conf->nmodels;
	sv->s = sw_xcalloc(sv->n, sizeof(*sv->s));
	for (size_t i = 0; i < sv->n; i++)
		build_server(sv, i);
	char *file = sw_fleet_state_file(sv->multi ? sv->hw.hosts[sv->host].name : NULL);
	sv->state_path = sw_path_join(conf->dir, file);
	free(file);
	*out = sv;
	return 0;
fail:
	sw_fleet_sv_free(sv);
	return rc;
}

void sw_fleet_sv_free(struct sw_fleet_sv *sv)
{
	if (!sv)
		return;
	for (size_t i = 0; i < sv->n; i++) {
		struct sw__fleet_server *s = &sv->s[i];
		free(s->name);
		strv_free(s->argv);
		strv_free(s->env);
		free(s->log);
		free(s->gpus);
		sw_llm_client_free(s->client);
		sw_llm_config_release(&s->llm);
	}
	free(sv->s);
	sw_fleet_plan_release(&sv->plan);
	for (size_t i = 0; sv->models && i < sv->conf->nmodels; i++) {
		sw_fleet_model_release(&sv->models[i]);
		free((char *)sv->reqs[i].role);
		free((char *)sv->reqs[i].group);
	}
	free(sv->models);
	free(sv->reqs);
	sw_fleet_presence_release(&sv->presence);
	sw_fleet_calib_free(sv->cal);
	sw_fleet_hw_release(&sv->hw);
	free(sv->state_path);
	free(sv->started);
	free(sv->api_key_file);
	free(sv->access);
	free(sv);
}

/* -------------------------------------------------------------- the logs */

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
	fclose(f);
	return n < 0 ? 0 : n;
}

/* The log of the current run (from s->log_off), its last
 * SW_FLEET_MAX_LOG_SCAN bytes at most. */
static void read_log(struct sw_buf *out, const struct sw__fleet_server *s)
{
	sw_buf_reset(out);
	FILE *f = fopen(s->log, "rb");
	if (!f)
		return;
	long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
	long from = s->log_off;
	if (end - from > (long)SW_FLEET_MAX_LOG_SCAN)
		from = end - (long)SW_FLEET_MAX_LOG_SCAN;
	if (from >= 0 && end > from && fseek(f, from, SEEK_SET) == 0) {
		sw_buf_grow(out, (size_t)(end - from));
		size_t got = fread(out->data, 1, (size_t)(end - from), f);
		out->len = got;
		out->data[got] = '\0';
	}
	fclose(f);
}

/* The line of text holding p, into out. */
static void line_at(char *out, size_t outsz, const char *text, const char *p)
{
	const char *a = p, *b = p;
	while (a > text && a[-1] != '\n')
		a--;
	while (*b && *b != '\n')
		b++;
	snprintf(out, outsz, "%.*s", (int)(b - a), a);
}

/* A load failure: the log line that says so, in why. */
static bool load_failed(const char *log, char *why, size_t whysz)
{
	static const char *const marks[] = {
		"error loading model", "exiting due to model loading error", "failed to load model",
		"cudaMalloc failed", "failed to allocate CUDA",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(marks); i++) {
		const char *p = strstr(log, marks[i]);
		if (p) {
			line_at(why, whysz, log, p);
			return true;
		}
	}
	return false;
}

/* Layers or the whole model left on the CPU. */
static bool cpu_fallback(const char *log, char *why, size_t whysz)
{
	static const char *const marks[] = {
		"no usable GPU found", "failed to initialize CUDA", "ggml_cuda_init: failed",
		"no CUDA-capable device",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(marks); i++) {
		const char *p = strstr(log, marks[i]);
		if (p) {
			line_at(why, whysz, log, p);
			return true;
		}
	}
	/* "load_tensors: offloaded 30/49 layers to GPU" */
	for (const char *p = strstr(log, "offloaded "); p; p = strstr(p + 1, "offloaded ")) {
		unsigned long a, b;
		char *end;
		errno = 0;
		a = strtoul(p + 10, &end, 10);
		if (end == p + 10 || *end != '/')
			continue;
		const char *q = end + 1;
		b = strtoul(q, &end, 10);
		if (end == q || errno)
			continue;
		if (a < b) {
			line_at(why, whysz, log, p);
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------ supervising */

static void spawn(struct sw_fleet_sv *sv, struct sw__fleet_server *s)
{
	struct sw_err err = { 0 };
	struct sw_proc_spec spec = {
		.argv = (const char *const *)s->argv,
		.env = (const char *const *)s->env,
		.log_path = s->log,
		.own_group = true,
	};
	s->log_off = file_size(s->log);
	FILE *f = fopen(s->log, "a");
	if (f) {
		char now[21];
		sw_utc_now(now);
		fprintf(f, "\n==== sworn fleet: start %u at %s: CUDA_DEVICE_ORDER=PCI_BUS_ID "
			   "CUDA_VISIBLE_DEVICES=%s", s->restarts, now, s->gpus);
		for (size_t i = 0; s->argv[i]; i++)
			fprintf(f, " %s", s->argv[i]);
		fputs("\n", f);
		fclose(f);
		s->log_off = file_size(s->log);
	}
	if (!s->client && sw_llm_client_new(&s->client, &s->llm, s->name, &err) != 0) {
		set_state(sv, s, SW__FLEET_SV_FAILED, "%s", err.msg);
		return;
	}
	/* Something already answering on the port would pass for this server. */
	enum sw_llm_health h = SW_LLM_DOWN;
	if (sw_llm_health(&h, s->client, 500, NULL) == 0 && h != SW_LLM_DOWN) {
		set_state(sv, s, SW__FLEET_SV_FAILED,
			  "port %u already answers (%s): another server is running "
			  "there",
			  s->port, sw_llm_health_name(h));
		sw__fleet_sv_history(sv, s, "fail", json_pack("{s:s}", "error", "port in use"));
		return;
	}
	if (sw_proc_spawn(&s->pid, &spec, &err) != 0) {
		s->pid = -1;
		set_state(sv, s, SW__FLEET_SV_FAILED, "%s", err.msg);
		sw__fleet_sv_history(sv, s, "fail", json_pack("{s:s}", "error", err.msg));
		return;
	}
	s->ticks = sw_proc_start_ticks(s->pid);
	sw_utc_now(s->started);
	s->t_start = sw_now();
	s->t_health = 0;
	set_state(sv, s, SW__FLEET_SV_STARTING, "pid %d, port %u, GPUs %s, log %s", s->pid, s->port,
		  s->gpus, s->log);
}

static void stop(struct sw_fleet_sv *sv, struct sw__fleet_server *s)
{
	(void)sv;
	if (s->pid > 0) {
		struct sw_err err = { 0 };
		if (sw_proc_stop(s->pid, 10000, &err) < 0)
			sw__fleet_sv_say(s, "%s", err.msg);
	}
	s->pid = -1;
	s->ticks = 0;
}

/* One token from the server, within the probe timeout. */
static int probe(struct sw_fleet_sv *sv, struct sw__fleet_server *s, struct sw_err *err)
{
	struct sw_llm_message msg = { "user", "Reply with one word: ready." };
	struct sw_llm_request req;
	struct sw_llm_result res = { 0 };
	sw_llm_request_init(&req);
	req.messages = &msg;
	req.n_messages = 1;
	req.max_tokens = 1;
	req.temperature = 0;
	req.stream = false;
	req.retries = 0;
	req.deadlines.connect_ms = 2000;
	req.deadlines.total_ms = (unsigned)(sv->conf->probe_timeout_s * 1000);
	req.cancel = &sv->cancel;
	int rc = sw_llm_chat(&res, s->client, &req, err);
	sw_llm_result_release(&res);
	return rc;
}

static void crashed(struct sw_fleet_sv *sv, struct sw__fleet_server *s, int code)
{
	struct sw_buf log = SW_BUF_INIT;
	char why[512];
	read_log(&log, s);
	if (load_failed(log.data, why, sizeof(why))) {
		set_state(sv, s, SW__FLEET_SV_FAILED, "the model did not load (exit %d): %s", code, why);
		sw__fleet_sv_history(sv, s, "fail",
				     json_pack("{s:s, s:i}", "error", why, "exit", code));
	} else if (s->restarts >= sv->conf->restart_max) {
		set_state(sv, s, SW__FLEET_SV_FAILED,
			  "exited with status %d after %u restarts; giving up", code, s->restarts);
		sw__fleet_sv_history(
			sv, s, "fail",
			json_pack("{s:s, s:i}", "error", "restarts spent", "exit", code));
	} else {
		double delay = sv->conf->backoff_s;
		for (unsigned i = 0; i < s->restarts && delay < sv->conf->backoff_max_s; i++)
			delay *= 2;
		if (delay > sv->conf->backoff_max_s)
			delay = sv->conf->backoff_max_s;
		s->t_next = sw_now() + delay;
		set_state(sv, s, SW__FLEET_SV_CRASHED,
			  "exited with status %d; restart %u of %u in %.1f s", code,
			  s->restarts + 1, sv->conf->restart_max, delay);
		sw__fleet_sv_history(sv, s, "crash", json_pack("{s:i}", "exit", code));
	}
	s->pid = -1;
	s->ticks = 0;
	sw_buf_release(&log);
}

static void became_ready(struct sw_fleet_sv *sv, struct sw__fleet_server *s)
{
	struct sw_llm_server_info info = { 0 };
	struct sw_err err = { 0 };
	json_t *extra = json_object();
	if (sw_llm_server_info(&info, s->client, 5000, &err) == 0) {
		json_object_set_new(extra, "build", info.build ? json_string(info.build) : json_null());
		json_object_set_new(extra, "server_model", info.model ? sw_json_str(info.model) : json_null());
		json_object_set_new(extra, "n_ctx", json_integer(info.n_ctx));
	} else {
		json_object_set_new(extra, "build", json_null());
	}
	json_object_set_new(extra, "ready_s", json_real(sw_now() - s->t_start));
	sw__fleet_sv_history(sv, s, "start", extra);
	set_state(sv, s, SW__FLEET_SV_READY, "ready in %.1f s (build %s)", sw_now() - s->t_start,
		  info.build ? info.build : "unknown");
	sw_llm_server_info_release(&info);
	s->t_next = sw_now() + sv->conf->probe_interval_s;
}

/* A server that answers may still run on the CPU (a build without CUDA,
 * a driver it cannot use) where its log no longer says so: measure the
 * memory its process holds on each GPU of its group against the plan.
 * False when it failed (stopped and marked); a driver that cannot say is
 * noted, not failed. */
static bool offloaded(struct sw_fleet_sv *sv, struct sw__fleet_server *s)
{
	const struct sw_fleet_placement *pl = &sv->plan.placed[s->model];
	const struct sw_fleet_group *g = &sv->hw.groups[pl->group];
	struct sw_fleet_gpus_now now = { 0 };
	struct sw_err err = { 0 };
	int idx[SW_FLEET_MAX_GPUS];
	uint64_t planned[SW_FLEET_MAX_GPUS];
	char why[512];
	size_t n = g->n < pl->fit.ndev ? g->n : pl->fit.ndev;

	for (size_t d = 0; d < n; d++) {
		int at = sv->presence.now_index[g->gpu[d]];
		idx[d] = at >= 0 ? at : sv->hw.gpus[g->gpu[d]].index;
		planned[d] = pl->fit.weights[d] + pl->fit.kv[d] + pl->fit.compute[d];
	}
	if (sw_fleet_gpus_read(&now, &err) != 0) {
		sw__fleet_sv_say(s, "offload not measured: %s", err.msg);
		return true;
	}
	int rc = sw_fleet_offload_check(why, sizeof(why), &now, s->pid, idx, planned, n);
	sw_fleet_gpus_release(&now);
	if (rc <= 0) {
		sw__fleet_sv_say(s, "%s", why);
		return true;
	}
	stop(sv, s);
	set_state(sv, s, SW__FLEET_SV_FAILED, "%s", why);
	sw__fleet_sv_history(sv, s, "fail", json_pack("{s:s}", "error", why));
	return false;
}

static void check_starting(struct sw_fleet_sv *sv, struct sw__fleet_server *s)
{
	struct sw_err err = { 0 };
	enum sw_llm_health h = SW_LLM_DOWN;
	int code = 0;

	if (sw_proc_wait(&code, s->pid, 0) == 1) {
		crashed(sv, s, code);
		return;
	}
	double now = sw_now();
	if (now - s->t_start > sv->conf->ready_timeout_s) {
		stop(sv, s);
		set_state(sv, s, SW__FLEET_SV_FAILED, "not ready after %.0f s (ready_timeout); see %s",
			  sv->conf->ready_timeout_s, s->log);
		sw__fleet_sv_history(sv, s, "fail", json_pack("{s:s}", "error", "ready timeout"));
		return;
	}
	if (now < s->t_health)
		return;
	s->t_health = now + 0.2;
	if (sw_llm_health(&h, s->client, 1000, &err) != 0 || h != SW_LLM_READY)
		return;
	struct sw_buf log = SW_BUF_INIT;
	char why[512];
	read_log(&log, s);
	bool cpu = cpu_fallback(log.data, why, sizeof(why));
	sw_buf_release(&log);
	if (cpu) {
		stop(sv, s);
		set_state(sv, s, SW__FLEET_SV_FAILED,
			  "the log shows CPU fallback, which sworn does not accept: %s", why);
		sw__fleet_sv_history(sv, s, "fail", json_pack("{s:s}", "error", why));
		return;
	}
	if (sv->conf->check_gpus && !offloaded(sv, s))
		return;
	int rc = probe(sv, s, &err);
	if (rc == SW_ECANCEL)
		return;
	if (rc != 0) {
		snprintf(s->error, sizeof(s->error), "health ok, first completion failed: %s", err.msg);
		sv->dirty = true;
		return;
	}
	became_ready(sv, s);
}

static void check_running(struct sw_fleet_sv *sv, struct sw__fleet_server *s)
{
	struct sw_err err = { 0 };
	enum sw_llm_health h = SW_LLM_DOWN;
	int code = 0;

	if (sw_proc_wait(&code, s->pid, 0) == 1) {
		crashed(sv, s, code);
		return;
	}
	if (sw_now() < s->t_next)
		return;
	s->t_next = sw_now() + sv->conf->probe_interval_s;
	if (sw_llm_health(&h, s->client, 2000, &err) != 0 || h != SW_LLM_READY) {
		if (h == SW_LLM_NO_SLOT || h == SW_LLM_LOADING)
			return;
		if (s->state != SW__FLEET_SV_HUNG) {
			set_state(sv, s, SW__FLEET_SV_HUNG, "running but /health is %s: %s",
				  sw_llm_health_name(h), err.msg);
			sw__fleet_sv_history(sv, s, "hang", json_pack("{s:s}", "error", s->error));
		}
		return;
	}
	/* A slot busy with someone's long answer is not a hang: probe only
	 * when a slot is free. */
	struct sw_llm_server_info info = { 0 };
	bool busy = sw_llm_server_info(&info, s->client, 2000, NULL) == 0 && info.idle_slots == 0;
	sw_llm_server_info_release(&info);
	if (busy)
		return;
	double t0 = sw_now();
	int rc = probe(sv, s, &err);
	if (rc == SW_ECANCEL)
		return; /* stopping: says nothing about the server */
	if (rc != 0) {
		if (s->state != SW__FLEET_SV_HUNG) {
			set_state(
				sv, s, SW__FLEET_SV_HUNG,
				"/health is ok but a one-token completion failed after %.1f s: %s",
				sw_now() - t0, err.msg);
			sw__fleet_sv_history(sv, s, "hang", json_pack("{s:s}", "error", s->error));
		}
	} else if (s->state == SW__FLEET_SV_HUNG) {
		set_state(sv, s, SW__FLEET_SV_READY, "answers again");
	}
	s->t_next = sw_now() + sv->conf->probe_interval_s;
}

int sw_fleet_sv_run(struct sw_fleet_sv *sv, volatile int *stop_flag)
{
	struct sw_err err = { 0 };
	if (!sv->started) {
		char now[21];
		sw_utc_now(now);
		sv->started = sw_xstrdup(now);
	}
	sw__fleet_sv_say(NULL, "supervisor pid %d, %zu server%s", (int)getpid(), sv->n,
			 sv->n == 1 ? "" : "s");
	if (sv->presence.report)
		sw__fleet_sv_say(NULL, "GPUs missing:\n%s", sv->presence.report);
	for (size_t i = 0; i < sv->n; i++) {
		struct sw__fleet_server *s = &sv->s[i];
		if (s->elsewhere)
			continue;
		if (s->state == SW__FLEET_SV_DEGRADED || s->state == SW__FLEET_SV_UNPLACED) {
			sw__fleet_sv_say(s, "%s: %s", sw__fleet_sv_state_names[s->state], s->error);
			if (s->state == SW__FLEET_SV_DEGRADED)
				sw__fleet_sv_history(
					sv, s, "degraded",
					json_pack("{s:s}", "error",
						  sv->presence.report ? sv->presence.report : ""));
		}
	}
	for (size_t i = 0; i < sv->n; i++)
		if (sv->s[i].state == SW__FLEET_SV_PENDING)
			spawn(sv, &sv->s[i]);
	if (sw__fleet_sv_write(sv, "running", &err) != 0)
		sw__fleet_sv_say(NULL, "%s", err.msg);
	for (;;) {
		if (*stop_flag || atomic_load(&sv->cancel.requested)) {
			sw__fleet_sv_say(NULL, "stopping on request");
			break;
		}
		if (!sw_path_is_dir(sv->conf->dir)) {
			sw__fleet_sv_say(NULL, "the state folder is gone; stopping");
			break;
		}
		size_t live = 0;
		for (size_t i = 0; i < sv->n && !*stop_flag && !atomic_load(&sv->cancel.requested); i++) {
			struct sw__fleet_server *s = &sv->s[i];
			switch (s->state) {
			case SW__FLEET_SV_STARTING:
				check_starting(sv, s);
				break;
			case SW__FLEET_SV_READY:
			case SW__FLEET_SV_HUNG:
				check_running(sv, s);
				break;
			case SW__FLEET_SV_CRASHED:
				if (sw_now() >= s->t_next) {
					s->restarts++;
					spawn(sv, s);
				}
				break;
			default:
				break;
			}
			if (s->state == SW__FLEET_SV_STARTING || s->state == SW__FLEET_SV_READY ||
			    s->state == SW__FLEET_SV_HUNG || s->state == SW__FLEET_SV_CRASHED)
				live++;
		}
		if (sv->dirty && sw__fleet_sv_write(sv, "running", &err) != 0)
			sw__fleet_sv_say(NULL, "%s", err.msg);
		if (live == 0) {
			sw__fleet_sv_say(NULL, "no server left to supervise");
			break;
		}
		sw__fleet_sleep_ms(50);
	}
	for (size_t i = 0; i < sv->n; i++) {
		struct sw__fleet_server *s = &sv->s[i];
		if (s->pid > 0) {
			stop(sv, s);
			set_state(sv, s, SW__FLEET_SV_STOPPED, NULL);
			sw__fleet_sv_history(sv, s, "stop", NULL);
		}
	}
	if (sw_path_is_dir(sv->conf->dir) && sw__fleet_sv_write(sv, "stopped", &err) != 0)
		sw__fleet_sv_say(NULL, "%s", err.msg);
	sw__fleet_sv_say(NULL, "supervisor exits");
	return 0;
}

void sw_fleet_sv_request_stop(struct sw_fleet_sv *sv)
{
	sw_llm_cancel_request(&sv->cancel);
}

