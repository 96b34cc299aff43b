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

enum sv_state {
	S_PENDING, S_STARTING, S_READY, S_HUNG, S_CRASHED, S_FAILED, S_DEGRADED, S_UNPLACED,
	S_STOPPED,
};

static const char *const state_names[] = {
	"pending", "starting", "ready", "hung", "restarting", "failed", "degraded", "unplaced",
	"stopped",
};

struct server {
	char *name;
	size_t model;
	int group;
	uint16_t port;
	char **argv, **env;
	char *log;
	char *gpus;          /* CUDA_VISIBLE_DEVICES */
	enum sv_state state;
	char error[768];
	int pid;
	unsigned long long ticks;
	char started[21];
	unsigned restarts;
	double t_start, t_next, t_health;
	long log_off;
	struct sw_llm_config llm;
	struct sw_llm_client *client;
};

struct sw_fleet_sv {
	const struct sw_fleet_conf *conf;
	struct sw_fleet_hw hw;
	struct sw_fleet_calib *cal;
	struct sw_fleet_model *models;
	struct sw_fleet_request *reqs;
	struct sw_fleet_plan plan;
	struct sw_fleet_presence presence;
	struct server *s;
	size_t n;
	char *state_path;
	char *started;
	bool dirty;
	struct sw_llm_cancel cancel; /* set to stop: ends a probe in flight */
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void say(const struct server *s, const char *fmt, ...) SW_PRINTF(2, 3);
static void say(const struct server *s, const char *fmt, ...)
{
	char now[21];
	va_list ap;
	sw_utc_now(now);
	printf("%s %s: ", now, s ? s->name : "fleet");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void set_state(struct sw_fleet_sv *sv, struct server *s, enum sv_state st,
		      const char *fmt, ...) SW_PRINTF(4, 5);
static void set_state(struct sw_fleet_sv *sv, struct server *s, enum sv_state st,
		      const char *fmt, ...)
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
		say(s, "%s: %s", state_names[st], s->error);
	else
		say(s, "%s", state_names[st]);
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
	struct server *s = &sv->s[i];
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
	if (pl->group < 0) {
		s->state = S_UNPLACED;
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
		s->state = S_DEGRADED;
		snprintf(s->error, sizeof(s->error),
			 "group %s lost a GPU (see below); the model is not started rather than "
			 "spilling onto the CPU or another group", g->name);
		return;
	}
	s->argv = strv_add(s->argv, &n, c->server);
	s->argv = strv_add(s->argv, &n, "-m");
	s->argv = strv_add(s->argv, &n, m->path);
	s->argv = strv_add(s->argv, &n, "--host");
	s->argv = strv_add(s->argv, &n, "127.0.0.1");
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
	s->argv = strv_add(s->argv, &n, "-fa");
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
	s->argv = strv_add(s->argv, &n, "--fit");
	s->argv = strv_add(s->argv, &n, "off");
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
	s->llm.endpoints[0].url = sw_xasprintf("http://127.0.0.1:%u", pl->port);
	s->llm.endpoints[0].host = sw_xstrdup("127.0.0.1");
	s->state = S_PENDING;
}

int sw_fleet_sv_prepare(struct sw_fleet_sv **out, const struct sw_fleet_conf *conf,
			struct sw_err *err)
{
	struct sw_fleet_sv *sv = sw_xcalloc(1, sizeof(*sv));
	int rc;

	*out = NULL;
	sv->conf = conf;
	if ((rc = sw_fleet_hw_load(&sv->hw, conf->hardware, err)) != 0 ||
	    (rc = sw_fleet_calib_load(&sv->cal, conf->calibration, err)) != 0)
		goto fail;
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
		sw_fleet_presence_check(&sv->presence, &sv->hw, &now);
		sw_fleet_hw_release(&now);
	}
	struct sw_fleet_plan_opts po = {
		.floor_tps = conf->floor_tps, .base_port = conf->base_port, .server = conf->server,
	};
	if ((rc = sw_fleet_plan_make(&sv->plan, &sv->hw, sv->models, sv->reqs, conf->nmodels, &po,
				     sv->cal, err)) != 0)
		goto fail;
	sv->n = conf->nmodels;
	sv->s = sw_xcalloc(sv->n, sizeof(*sv->s));
	for (size_t i = 0; i < sv->n; i++)
		build_server(sv, i);
	sv->state_path = sw_path_join(conf->dir, "state.json");
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
		struct server *s = &sv->s[i];
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
	free(sv);
}

/* ----------------------------------------------------------------- state */

static json_t *state_json(const struct sw_fleet_sv *sv, const char *phase)
{
	json_t *servers = json_array();
	for (size_t i = 0; i < sv->n; i++) {
		const struct server *s = &sv->s[i];
		const struct sw_fleet_model *m = &sv->models[s->model];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:s, s:i, s:s}",
				      "name", s->name, "state", state_names[s->state], "model",
				      m->path, "group",
				      s->group >= 0 ? sv->hw.groups[s->group].name : "",
				      "port", (int)s->port, "pid", s->pid, "start_ticks",
				      (json_int_t)s->ticks, "started", s->started, "restarts",
				      (int)s->restarts, "log", s->log);
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

static int write_state(struct sw_fleet_sv *sv, const char *phase, struct sw_err *err)
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
	return write_state(sv, "starting", err);
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

static void history(const struct sw_fleet_sv *sv, const struct server *s, const char *event,
		    json_t *extra)
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
	if (extra)
		json_object_update(e, extra);
	struct sw_err err = { 0 };
	if (sw_fleet_history_append(sv->conf->dir, e, &err) != 0)
		say(s, "cannot record history: %s", err.msg);
	json_decref(e);
	sw_buf_release(&flags);
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
static void read_log(struct sw_buf *out, const struct server *s)
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

static void spawn(struct sw_fleet_sv *sv, struct server *s)
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
		set_state(sv, s, S_FAILED, "%s", err.msg);
		return;
	}
	/* Something already answering on the port would pass for this server. */
	enum sw_llm_health h = SW_LLM_DOWN;
	if (sw_llm_health(&h, s->client, 500, NULL) == 0 && h != SW_LLM_DOWN) {
		set_state(sv, s, S_FAILED, "port %u already answers (%s): another server is running "
					  "there", s->port, sw_llm_health_name(h));
		history(sv, s, "fail", json_pack("{s:s}", "error", "port in use"));
		return;
	}
	if (sw_proc_spawn(&s->pid, &spec, &err) != 0) {
		s->pid = -1;
		set_state(sv, s, S_FAILED, "%s", err.msg);
		history(sv, s, "fail", json_pack("{s:s}", "error", err.msg));
		return;
	}
	s->ticks = sw_proc_start_ticks(s->pid);
	sw_utc_now(s->started);
	s->t_start = sw_now();
	s->t_health = 0;
	set_state(sv, s, S_STARTING, "pid %d, port %u, GPUs %s, log %s", s->pid, s->port, s->gpus,
		  s->log);
}

static void stop(struct sw_fleet_sv *sv, struct server *s)
{
	(void)sv;
	if (s->pid > 0) {
		struct sw_err err = { 0 };
		if (sw_proc_stop(s->pid, 10000, &err) < 0)
			say(s, "%s", err.msg);
	}
	s->pid = -1;
	s->ticks = 0;
}

/* One token from the server, within the probe timeout. */
static int probe(struct sw_fleet_sv *sv, struct server *s, struct sw_err *err)
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

static void crashed(struct sw_fleet_sv *sv, struct server *s, int code)
{
	struct sw_buf log = SW_BUF_INIT;
	char why[512];
	read_log(&log, s);
	if (load_failed(log.data, why, sizeof(why))) {
		set_state(sv, s, S_FAILED, "the model did not load (exit %d): %s", code, why);
		history(sv, s, "fail", json_pack("{s:s, s:i}", "error", why, "exit", code));
	} else if (s->restarts >= sv->conf->restart_max) {
		set_state(sv, s, S_FAILED, "exited with status %d after %u restarts; giving up", code,
			  s->restarts);
		history(sv, s, "fail", json_pack("{s:s, s:i}", "error", "restarts spent", "exit", code));
	} else {
		double delay = sv->conf->backoff_s;
		for (unsigned i = 0; i < s->restarts && delay < sv->conf->backoff_max_s; i++)
			delay *= 2;
		if (delay > sv->conf->backoff_max_s)
			delay = sv->conf->backoff_max_s;
		s->t_next = sw_now() + delay;
		set_state(sv, s, S_CRASHED, "exited with status %d; restart %u of %u in %.1f s", code,
			  s->restarts + 1, sv->conf->restart_max, delay);
		history(sv, s, "crash", json_pack("{s:i}", "exit", code));
	}
	s->pid = -1;
	s->ticks = 0;
	sw_buf_release(&log);
}

static void became_ready(struct sw_fleet_sv *sv, struct server *s)
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
	history(sv, s, "start", extra);
	json_decref(extra);
	set_state(sv, s, S_READY, "ready in %.1f s (build %s)", sw_now() - s->t_start,
		  info.build ? info.build : "unknown");
	sw_llm_server_info_release(&info);
	s->t_next = sw_now() + sv->conf->probe_interval_s;
}

static void check_starting(struct sw_fleet_sv *sv, struct server *s)
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
		set_state(sv, s, S_FAILED, "not ready after %.0f s (ready_timeout); see %s",
			  sv->conf->ready_timeout_s, s->log);
		history(sv, s, "fail", json_pack("{s:s}", "error", "ready timeout"));
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
		set_state(sv, s, S_FAILED, "the log shows CPU fallback, which sworn does not accept: %s",
			  why);
		history(sv, s, "fail", json_pack("{s:s}", "error", why));
		return;
	}
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

static void check_running(struct sw_fleet_sv *sv, struct server *s)
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
		if (s->state != S_HUNG) {
			set_state(sv, s, S_HUNG, "running but /health is %s: %s", sw_llm_health_name(h),
				  err.msg);
			history(sv, s, "hang", json_pack("{s:s}", "error", s->error));
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
		if (s->state != S_HUNG) {
			set_state(sv, s, S_HUNG,
				  "/health is ok but a one-token completion failed after %.1f s: %s",
				  sw_now() - t0, err.msg);
			history(sv, s, "hang", json_pack("{s:s}", "error", s->error));
		}
	} else if (s->state == S_HUNG) {
		set_state(sv, s, S_READY, "answers again");
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
	say(NULL, "supervisor pid %d, %zu server%s", (int)getpid(), sv->n, sv->n == 1 ? "" : "s");
	if (sv->presence.report)
		say(NULL, "GPUs missing:\n%s", sv->presence.report);
	for (size_t i = 0; i < sv->n; i++) {
		struct server *s = &sv->s[i];
		if (s->state == S_DEGRADED || s->state == S_UNPLACED) {
			say(s, "%s: %s", state_names[s->state], s->error);
			if (s->state == S_DEGRADED)
				history(sv, s, "degraded", json_pack("{s:s}", "error",
					sv->presence.report ? sv->presence.report : ""));
		}
	}
	for (size_t i = 0; i < sv->n; i++)
		if (sv->s[i].state == S_PENDING)
			spawn(sv, &sv->s[i]);
	if (write_state(sv, "running", &err) != 0)
		say(NULL, "%s", err.msg);
	for (;;) {
		if (*stop_flag || atomic_load(&sv->cancel.requested)) {
			say(NULL, "stopping on request");
			break;
		}
		if (!sw_path_is_dir(sv->conf->dir)) {
			say(NULL, "the state folder is gone; stopping");
			break;
		}
		size_t live = 0;
		for (size_t i = 0; i < sv->n && !*stop_flag && !atomic_load(&sv->cancel.requested); i++) {
			struct server *s = &sv->s[i];
			switch (s->state) {
			case S_STARTING:
				check_starting(sv, s);
				break;
			case S_READY:
			case S_HUNG:
				check_running(sv, s);
				break;
			case S_CRASHED:
				if (sw_now() >= s->t_next) {
					s->restarts++;
					spawn(sv, s);
				}
				break;
			default:
				break;
			}
			if (s->state == S_STARTING || s->state == S_READY || s->state == S_HUNG ||
			    s->state == S_CRASHED)
				live++;
		}
		if (sv->dirty && write_state(sv, "running", &err) != 0)
			say(NULL, "%s", err.msg);
		if (live == 0) {
			say(NULL, "no server left to supervise");
			break;
		}
		sleep_ms(50);
	}
	for (size_t i = 0; i < sv->n; i++) {
		struct server *s = &sv->s[i];
		if (s->pid > 0) {
			stop(sv, s);
			set_state(sv, s, S_STOPPED, NULL);
			history(sv, s, "stop", NULL);
		}
	}
	if (sw_path_is_dir(sv->conf->dir) && write_state(sv, "stopped", &err) != 0)
		say(NULL, "%s", err.msg);
	say(NULL, "supervisor exits");
	return 0;
}

void sw_fleet_sv_request_stop(struct sw_fleet_sv *sv)
{
	sw_llm_cancel_request(&sv->cancel);
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
			sleep_ms(20);
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
