/*
 * state_json.c - a fleet state file's text and its typed face: parsing
 * state.json (or another box's `fleet status --json`) into struct
 * sw_fleet_state, with the live checks, and writing the struct back as
 * JSON, which is what `fleet status --json` prints and what `fleet down`
 * leaves.  Readers use the struct's fields; no JSON tree outlives a call.
 * A leaf: state.c (load, down) and lan.c (a box read over the LAN) call it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/fleet_int.h"

static char *dup_str(const json_t *o, const char *key, bool or_null)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? sw_xstrdup(v) : or_null ? NULL : sw_xstrdup("");
}

static long long int_of(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static unsigned context_of(const json_t *o)
{
	long long n = int_of(o, "context");
	return n > 0 && n <= SW_FLEET_MAX_CTX ? (unsigned)n : 0;
}

void sw_fleet_state_release(struct sw_fleet_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nservers; i++) {
		struct sw_fleet_state_server *s = &st->servers[i];
		free(s->name);
		free(s->state);
		free(s->model);
		free(s->spec);
		free(s->group);
		free(s->gpus);
		free(s->url);
		free(s->log);
		free(s->started);
		free(s->detail);
		free(s->role);
		free(s->api_key_file);
		free(s->build);
	}
	for (size_t i = 0; i < st->nplanned; i++) {
		free(st->planned[i].name);
		free(st->planned[i].host);
		free(st->planned[i].role);
		free(st->planned[i].url);
	}
	free(st->planned);
	free(st->servers);
	free(st->access);
	free(st->phase);
	free(st->started);
	free(st->hardware);
	free(st->host);
	free(st->missing_gpus);
	memset(st, 0, sizeof(*st));
}

static void read_server(struct sw_fleet_state_server *s, const json_t *o, bool live)
{
	s->name = dup_str(o, "name", false);
	s->state = dup_str(o, "state", false);
	s->model = dup_str(o, "model", false);
	s->spec = dup_str(o, "spec", true);
	s->group = dup_str(o, "group", false);
	s->gpus = dup_str(o, "gpus", true);
	s->url = dup_str(o, "url", true);
	s->log = dup_str(o, "log", false);
	s->started = dup_str(o, "started", false);
	s->detail = dup_str(o, "detail", true);
	s->role = dup_str(o, "role", true);
	s->api_key_file = dup_str(o, "api_key_file", true);
	s->build = dup_str(o, "build", true);
	s->context = context_of(o);
	long long port = int_of(o, "port");
	s->port = port > 0 && port <= 65535 ? (unsigned)port : 0;
	long long pid = int_of(o, "pid");
	s->pid = pid > 0 && pid <= INT32_MAX ? (int)pid : -1;
	s->start_ticks = (unsigned long long)int_of(o, "start_ticks");
	long long r = int_of(o, "restarts");
	s->restarts = r > 0 && r < 1000000 ? (unsigned)r : 0;
	/* Another box's state (live false) carries its own live checks. */
	s->process_running = live ? s->pid > 0 && sw_proc_running(s->pid, s->start_ticks)
				  : json_is_true(json_object_get(o, "process_running"));
}

int sw_fleet_state_parse(struct sw_fleet_state *out, const char *text, size_t len,
			 const char *name, bool live, struct sw_err *err)
{
	json_error_t je;
	json_t *js = json_loadb(text, len, 0, &je);
	json_t *servers = json_object_get(js, "servers");
	json_t *planned = json_object_get(js, "planned");
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(js) || !json_is_array(servers) ||
	    json_array_size(servers) > SW_FLEET_MAX_MODELS * SW_FLEET_MAX_GROUPS ||
	    json_array_size(planned) > SW_FLEET_MAX_MODELS * SW_FLEET_MAX_GROUPS) {
		rc = sw_err_set(err, SW_EINPUT, "%s: not a fleet state file (%s)", name,
				!json_is_object(js)	  ? (js ? "not an object" : je.text)
				: !json_is_array(servers) ? "no list of servers"
							  : "too many servers");
		goto done;
	}
	out->phase = dup_str(js, "phase", false);
	out->supervisor_pid = (int)int_of(js, "supervisor_pid");
	out->supervisor_start_ticks = (unsigned long long)int_of(js, "supervisor_start_ticks");
	out->started = dup_str(js, "started", false);
	out->hardware = dup_str(js, "hardware", true);
	out->missing_gpus = dup_str(js, "missing_gpus", true);
	out->host = dup_str(js, "host", true);
	out->access = dup_str(js, "access", true);
	out->gpus_unchecked = json_is_false(json_object_get(js, "check_gpus"));
	const char *read = json_string_value(json_object_get(js, "read"));
	out->over_lan = read && strcmp(read, "lan") == 0;
	out->supervisor_running =
		live ? out->supervisor_pid > 0 && strcmp(out->phase, "stopped") != 0 &&
				sw_proc_running(out->supervisor_pid, out->supervisor_start_ticks)
		     : json_is_true(json_object_get(js, "supervisor_running"));
	out->nservers = json_array_size(servers);
	out->servers = sw_xcalloc(out->nservers + 1, sizeof(*out->servers));
	for (size_t i = 0; i < out->nservers; i++)
		read_server(&out->servers[i], json_array_get(servers, i), live);
	out->planned = sw_xcalloc(json_array_size(planned) + 1, sizeof(*out->planned));
	for (size_t i = 0; i < json_array_size(planned); i++) {
		const json_t *p = json_array_get(planned, i);
		/* Only what names a server and its host is a plan's entry. */
		if (!json_is_string(json_object_get(p, "name")) ||
		    !json_is_string(json_object_get(p, "host")))
			continue;
		struct sw_fleet_state_planned *e = &out->planned[out->nplanned++];
		e->name = dup_str(p, "name", false);
		e->host = dup_str(p, "host", false);
		e->role = dup_str(p, "role", true);
		e->url = dup_str(p, "url", true);
		e->context = context_of(p);
	}
done:
	json_decref(js);
	if (rc != 0)
		sw_fleet_state_release(out);
	return rc;
}

static json_t *str_or_null(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

json_t *sw_fleet_state_json(const struct sw_fleet_state *st, bool live)
{
	json_t *servers = json_array();
	for (size_t i = 0; i < st->nservers; i++) {
		const struct sw_fleet_state_server *s = &st->servers[i];
		json_t *o =
			json_pack("{s:o, s:o, s:o, s:o, s:i, s:i, s:I, s:o, s:i, s:o}", "name",
				  str_or_null(s->name), "state", str_or_null(s->state), "model",
				  str_or_null(s->model), "group", str_or_null(s->group), "port",
				  (int)s->port, "pid", s->pid, "start_ticks",
				  (json_int_t)s->start_ticks, "started", str_or_null(s->started),
				  "restarts", (int)s->restarts, "log", str_or_null(s->log));
		json_object_set_new(o, "spec", str_or_null(s->spec));
		json_object_set_new(o, "gpus", str_or_null(s->gpus));
		json_object_set_new(o, "url", str_or_null(s->url));
		json_object_set_new(o, "detail", str_or_null(s->detail));
		json_object_set_new(o, "api_key_file", str_or_null(s->api_key_file));
		json_object_set_new(o, "role", str_or_null(s->role));
		if (s->context)
			json_object_set_new(o, "context", json_integer(s->context));
		if (s->build)
			json_object_set_new(o, "build", sw_json_str(s->build));
		if (live)
			json_object_set_new(o, "process_running", json_boolean(s->process_running));
		json_array_append_new(servers, o);
	}
	json_t *js =
		json_pack("{s:o, s:i, s:I, s:o, s:o, s:o, s:o, s:o}", "phase",
			  str_or_null(st->phase), "supervisor_pid", st->supervisor_pid,
			  "supervisor_start_ticks", (json_int_t)st->supervisor_start_ticks,
			  "started", str_or_null(st->started), "hardware",
			  str_or_null(st->hardware), "missing_gpus", str_or_null(st->missing_gpus),
			  "access", str_or_null(st->access), "servers", servers);
	if (st->host)
		json_object_set_new(js, "host", sw_json_str(st->host));
	json_object_set_new(js, "check_gpus", json_boolean(!st->gpus_unchecked));
	if (st->over_lan)
		json_object_set_new(js, "read", json_string("lan"));
	if (st->nplanned) {
		json_t *planned = json_array();
		for (size_t i = 0; i < st->nplanned; i++) {
			const struct sw_fleet_state_planned *p = &st->planned[i];
			json_t *o = json_pack("{s:o, s:o, s:o, s:o}", "name", str_or_null(p->name),
					      "host", str_or_null(p->host), "role",
					      str_or_null(p->role), "url", str_or_null(p->url));
			if (p->context)
				json_object_set_new(o, "context", json_integer(p->context));
			json_array_append_new(planned, o);
		}
		json_object_set_new(js, "planned", planned);
	}
	if (live)
		json_object_set_new(js, "supervisor_running", json_boolean(st->supervisor_running));
	return js;
}
