/* lan.c - another box's fleet read from its servers over the LAN, for a
 * status whose exec to that box does not answer (ssh refused, a broken
 * key): the plan this box keeps names every server's host and url, and
 * each server says for itself whether it is ready (/health) and what it
 * runs (/props, /v1/models).  No supervisor is seen this way. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/fleet_int.h"

/* One planned server of host, asked over the LAN, as a state server. */
static json_t *server_over_lan(const struct sw_fleet_state_planned *p, unsigned timeout_ms,
			       bool *answered)
{
	const char *name = p->name, *url = p->url;
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:b}", "name", name, "url",
			      url, "model", "", "group", "", "pid", 0, "log", "", "started", "",
			      "restarts", 0, "process_running", false);
	json_object_set_new(o, "role", p->role ? sw_json_str(p->role) : json_null());
	if (p->context)
		json_object_set_new(o, "context", json_integer(p->context));
	struct sw_llm_config cfg = { .policy.mode = SW_LLM_LOCAL_ONLY };
	struct sw_err err = { 0 };
	struct sw_llm_probe pr = { 0 };
	cfg.path = sw_xstrdup("fleet");
	if (sw_llm_config_add_url(&cfg, name, url, &err) != 0) {
		json_object_set_new(o, "state", json_string("broken"));
		json_object_set_new(o, "detail", sw_json_str(err.msg));
		goto done;
	}
	sw_llm_probe(&pr, &cfg, name, timeout_ms);
	/* A server with every slot busy serves: it is ready, only slow now. */
	bool ready = !pr.refused && (pr.health == SW_LLM_READY || pr.health == SW_LLM_NO_SLOT);
	*answered = *answered || (!pr.refused && pr.health != SW_LLM_DOWN);
	json_object_set_new(o, "state", json_string(pr.refused ? "refused"
					   : ready ? "ready" : sw_llm_health_name(pr.health)));
	const char *detail = pr.refused ? (pr.policy ? pr.policy : "refused by the policy")
			     : pr.health == SW_LLM_NO_SLOT ? "every slot is busy now"
			     : ready ? NULL
			     : pr.error ? pr.error : sw_llm_health_name(pr.health);
	if (detail)
		json_object_set_new(o, "detail", sw_json_str(detail));
	if (pr.have_info) {
		if (pr.info.model)
			json_object_set_new(o, "model", sw_json_str(pr.info.model));
		if (pr.info.build)
			json_object_set_new(o, "build", sw_json_str(pr.info.build));
	}
done:
	sw_llm_probe_release(&pr);
	sw_llm_config_release(&cfg);
	return o;
}

int sw_fleet_state_over_lan(struct sw_fleet_state *out, const struct sw_fleet_state *here,
			    const char *host, unsigned timeout_ms, struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	json_t *servers = json_array();
	struct sw_buf why = SW_BUF_INIT;
	bool answered = false;
	size_t n = 0;
	int rc = 0;
	for (size_t i = 0; here && i < here->nplanned; i++) {
		const struct sw_fleet_state_planned *p = &here->planned[i];
		if (strcmp(p->host, host) != 0 || !p->url)
			continue;
		if (++n > SW_FLEET_MAX_MODELS)
			break;
		json_t *o = server_over_lan(p, timeout_ms, &answered);
		const char *detail = json_string_value(json_object_get(o, "detail"));
		if (detail && strcmp(json_string_value(json_object_get(o, "state")), "ready") != 0)
			sw_buf_addf(&why, "%s%s", why.len ? "; " : "", detail);
		json_array_append_new(servers, o);
	}
	if (n == 0) {
		rc = sw_err_set(err, SW_ENOTFOUND, "this box's plan names no server on host %s",
				host);
		goto done;
	}
	if (!answered) {
		rc = sw_err_set(err, SW_EIO, "over the LAN no server of host %s answers (%s)", host,
				why.len ? why.data : "no reason given");
		goto done;
	}
	json_t *st = json_pack("{s:s, s:s, s:s, s:b, s:O}", "phase", "unknown", "host", host, "read",
			       "lan", "supervisor_running", false, "servers", servers);
	char *text = json_dumps(st, JSON_COMPACT);
	json_decref(st);
	rc = sw_fleet_state_parse(out, text, strlen(text), host, false, err);
	free(text);
	if (rc == 0)
		out->over_lan = true;
done:
	json_decref(servers);
	sw_buf_release(&why);
	return rc;
}
