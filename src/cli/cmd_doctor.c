/* cmd_doctor.c - `sworn doctor`: check the workspace's model set-up and
 * say, line by line, what is fine and what is not. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "fleet/fleet.h"
#include "llm/llm.h"

#define DOCTOR_TIMEOUT_MS 3000

struct doctor_opts {
	bool json, keys;
};

#define AT(f) offsetof(struct doctor_opts, f)
static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the checks as JSON", CLI_FLAG, AT(json) },
	{ "keys", 0, NULL, "print every key of sworn.conf, inventories and calibration files",
	  CLI_FLAG, AT(keys) },
};

/* The reference of every configuration file sworn reads, from the same
 * tables that check them. */
static int print_keys(void)
{
	static const struct {
		const char *title;
		const struct sw_config_schema *schema;
	} files[] = {
		{ "sworn.conf", &sw_llm_config_schema },
		{ NULL, &sw_fleet_conf_schema },
		{ "hardware inventory (sworn plan --hardware, [fleet] hardware)", &sw_fleet_hw_schema },
		{ "calibration (sworn plan --calibration, [fleet] calibration)", &sw_fleet_calib_schema },
	};
	struct sw_buf b = SW_BUF_INIT;
	for (size_t i = 0; i < SW_ARRAY_LEN(files); i++) {
		if (files[i].title)
			sw_buf_addf(&b, "%s# %s\n", i ? "\n" : "", files[i].title);
		sw_config_schema_doc(&b, files[i].schema);
	}
	fputs(b.data, stdout);
	sw_buf_release(&b);
	return CLI_OK;
}

struct report {
	json_t *checks; /* when --json */
	unsigned failed;
};

SW_PRINTF(4, 5)
static void check(struct report *r, const char *verdict, const char *what, const char *fmt, ...)
{
	struct sw_buf b = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (strcmp(verdict, "FAIL") == 0)
		r->failed++;
	if (r->checks)
		json_array_append_new(r->checks, json_pack("{s:s, s:o, s:o}", "verdict", verdict,
							   "what", sw_json_str(what),
							   "detail", sw_json_str(b.data)));
	else
		printf("%-5s %s: %s\n", verdict, what, b.data);
	sw_buf_release(&b);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct doctor_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_llm_config cfg = { 0 };
	struct report rep = { 0 };
	enum sw_llm_health *health = NULL;
	long *n_ctx = NULL;
	int rc;

	if (o->keys)
		return print_keys();
	if (o->json)
		rep.checks = json_array();
	/* A section no subsystem reads (a misspelt [endpont]) is a FAIL line
	 * here; main refuses it for every other command (CLI_OWN_CONF_CHECK). */
	if (sw_config_check_sections(&ctx->ws.config, cli_conf_schemas, cli_nconf_schemas,
				     &err) != 0 ||
	    cli_llm_config_load(ctx, &cfg, &err) != 0) {
		check(&rep, "FAIL", "sworn.conf", "%s", err.msg);
		goto report;
	}
	check(&rep, "ok", "sworn.conf", "policy %s%s%s, %zu endpoint%s, %zu role%s",
	      sw_llm_mode_name(cfg.policy.mode), cfg.policy.n_allow ? ", allow_hosts " : "",
	      cfg.policy.n_allow ? cfg.policy.allow_hosts[0] : "", cfg.n_endpoints,
	      cfg.n_endpoints == 1 ? "" : "s", cfg.n_roles, cfg.n_roles == 1 ? "" : "s");
	if (cfg.policy.mode == SW_LLM_ALLOW_REMOTE)
		check(&rep, "warn", "policy",
		      "allow-remote: endpoints may be outside this network; set mode = local-only in [policy] to forbid that");
	health = sw_xcalloc(cfg.n_endpoints + 1, sizeof(*health));
	n_ctx = sw_xcalloc(cfg.n_endpoints + 1, sizeof(*n_ctx));
	for (size_t i = 0; i < cfg.n_endpoints; i++) {
		const struct sw_llm_endpoint *ep = &cfg.endpoints[i];
		struct sw_llm_probe p;
		char *what = sw_xasprintf("endpoint %s", ep->name);
		sw_llm_probe(&p, &cfg, ep->name, DOCTOR_TIMEOUT_MS);
		health[i] = p.health;
		n_ctx[i] = p.have_info ? p.info.n_ctx : 0;
		if (p.refused)
			check(&rep, "FAIL", what, "%s", p.policy);
		else if (p.health == SW_LLM_READY)
			check(&rep, "ok", what, "%s; ready%s%s", p.policy ? p.policy : "allowed",
			      p.have_info && p.info.model ? ", model " : "",
			      p.have_info && p.info.model ? p.info.model : "");
		else if (p.health == SW_LLM_LOADING || p.health == SW_LLM_NO_SLOT)
			check(&rep, "warn", what, "%s; %s", p.policy ? p.policy : "allowed",
			      sw_llm_health_name(p.health));
		else
			check(&rep, "FAIL", what, "%s%s%s", p.policy ? p.policy : "",
			      p.policy ? "; " : "", p.error ? p.error : sw_llm_health_name(p.health));
		sw_llm_probe_release(&p);
		free(what);
	}
	for (size_t i = 0; i < cfg.n_roles; i++) {
		const struct sw_llm_role *r = &cfg.roles[i];
		char *what = sw_xasprintf("role %s", r->name);
		size_t e = (size_t)(sw_llm_endpoint_find(&cfg, r->endpoint) - cfg.endpoints);
		/* llama-server cuts a prompt longer than a slot's context and
		 * still answers 200: a budget past it would lose text silently. */
		if (health[e] == SW_LLM_READY && n_ctx[e] > 0 && r->context > n_ctx[e])
			check(&rep, "warn", what,
			      "context %ld is more than endpoint %s's %ld tokens per slot: longer"
			      " prompts would be cut by the server; lower context or start the server"
			      " with a larger -c (or fewer -np)",
			      r->context, r->endpoint, n_ctx[e]);
		else if (health[e] == SW_LLM_READY)
			check(&rep, "ok", what, "endpoint %s is ready%s%s", r->endpoint,
			      r->fallback ? ", local fallback " : "", r->fallback ? r->fallback : "");
		else
			check(&rep, r->fallback ? "warn" : "FAIL", what, "endpoint %s is not ready%s%s",
			      r->endpoint, r->fallback ? "; it would fall back to " : "",
			      r->fallback ? r->fallback : "");
		free(what);
	}
	if (cfg.n_roles == 0)
		check(&rep, "warn", "roles", "no [role] section: 'sworn ask' has nothing to use");
report:
	rc = cli_emit(o->json,
		      o->json ? json_pack("{s:b, s:o}", "ok", rep.failed == 0, "checks", rep.checks) : NULL,
		      NULL, NULL, rep.failed ? CLI_NO : CLI_OK);
	free(health);
	free(n_ctx);
	sw_llm_config_release(&cfg);
	return rc;
}

const struct cli_command cli_cmd_doctor = {
	.name = "doctor",
	.usage = "[--json] [--keys]",
	.summary = "check sworn.conf, every endpoint's policy status and health, and the roles",
	.description =
		"Each line is ok, warn or FAIL.  Endpoints are checked on the address actually\n"
		"connected to, as every call is: an endpoint the local-only policy refuses is\n"
		"a FAIL that names the address and how to change the policy.  --keys prints\n"
		"the reference of every configuration key instead, from the tables that\n"
		"check them.\n\n"
		"Exit status: 0 when nothing failed, 1 when something did.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct doctor_opts),
	.min_pos = 0,
	.max_pos = 0,
	.flags = CLI_NEEDS_WORKSPACE | CLI_OWN_CONF_CHECK,
	.run = run,
};
