/* cmd_models.c - `sworn models`: every endpoint of sworn.conf, whether the
 * policy lets it be reached, its health, what the server says it runs, and
 * the speed its last calls really had. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "llm/llm.h"

#define MODELS_TIMEOUT_MS 3000

struct models_opts {
	bool json;
};

static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the endpoints as JSON", CLI_FLAG, offsetof(struct models_opts, json) },
};

/* The roles that use an endpoint, comma-separated; caller frees. */
static char *roles_of(const struct sw_llm_config *cfg, const char *endpoint)
{
	struct sw_buf b = SW_BUF_INIT;
	for (size_t i = 0; i < cfg->n_roles; i++) {
		const struct sw_llm_role *r = &cfg->roles[i];
		bool main_ep = strcmp(r->endpoint, endpoint) == 0;
		bool fb = r->fallback && strcmp(r->fallback, endpoint) == 0;
		if (!main_ep && !fb)
			continue;
		sw_buf_addf(&b, "%s%s%s", b.len ? ", " : "", r->name, main_ep ? "" : " (fallback)");
	}
	return sw_buf_detach(&b, NULL);
}

/* The health shown: a server whose /health is ready but which failed to
 * say what it serves (/v1/models) cannot be used, whatever /health says. */
static enum sw_llm_health shown_health(const struct sw_llm_probe *p)
{
	if (p->health == SW_LLM_READY && !p->have_info && p->error)
		return SW_LLM_BROKEN;
	return p->health;
}

/* /props leaves a count it did not give at 0, which no server has: unknown. */
static json_t *known(long v)
{
	return v > 0 ? json_integer(v) : json_null();
}

static json_t *endpoint_json(const struct sw_llm_endpoint *ep, const struct sw_llm_probe *p,
			     const struct sw_llm_speed *sp, const char *roles)
{
	json_t *gpus = json_array();
	for (size_t i = 0; i < ep->n_gpus; i++)
		json_array_append_new(gpus, json_integer(ep->gpus[i]));
	json_t *j = json_pack("{s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o}",
		"name", sw_json_str(ep->name),
		"url", sw_json_str(ep->unix_path ? ep->unix_path : ep->url),
		"gpus", gpus,
		"policy", p->refused ? "refused" : p->policy ? "allowed" : "untested",
		"policy_detail", p->policy ? sw_json_str(p->policy) : json_null(),
		"address", p->address ? sw_json_str(p->address) : json_null(),
		"health", sw_json_str(sw_llm_health_name(shown_health(p))),
		"error", p->error ? sw_json_str(p->error) : json_null());
	json_object_set_new(j, "roles", sw_json_str(roles));
	if (p->have_info)
		json_object_set_new(j, "server", json_pack("{s:o, s:o, s:o, s:o, s:o, s:b}",
			"model", p->info.model ? sw_json_str(p->info.model) : json_null(),
			"build", p->info.build ? sw_json_str(p->info.build) : json_null(),
			"n_ctx", known(p->info.n_ctx), "total_slots", known(p->info.total_slots),
			"idle_slots", p->info.idle_slots >= 0 ? json_integer(p->info.idle_slots)
							      : json_null(),
			"sleeping", p->info.sleeping));
	if (p->have_info)
		json_object_set_new(json_object_get(j, "server"), "reasoning_settings",
				    json_boolean(p->info.reasoning_settings));
	else
		json_object_set_new(j, "server", json_null());
	json_object_set_new(j, "speed", sp->calls ? json_pack("{s:i, s:f, s:f, s:s}",
		"calls", (int)sp->calls, "prompt_per_second", sp->prompt_per_second,
		"predicted_per_second", sp->predicted_per_second, "last", sp->last) : json_null());
	return j;
}

static void endpoint_text(const struct sw_llm_endpoint *ep, const struct sw_llm_probe *p,
			  const struct sw_llm_speed *sp, const char *roles)
{
	sw_term_printf(stdout, "%s  %s\n", ep->name, ep->unix_path ? ep->unix_path : ep->url);
	if (p->refused)
		sw_term_printf(stdout, "  policy  REFUSED: %s\n", p->policy);
	else if (p->policy)
		sw_term_printf(stdout, "  policy  allowed: %s\n", p->policy);
	else
		sw_term_printf(stdout, "  policy  not checked: no connection was made\n");
	sw_term_printf(stdout, "  health  %s%s%s\n", sw_llm_health_name(shown_health(p)), p->error ? ": " : "",
	       p->error ? p->error : "");
	if (p->have_info) {
		char ctxs[24] = "?", slots[24] = "?";
		if (p->info.n_ctx > 0)
			snprintf(ctxs, sizeof(ctxs), "%ld", p->info.n_ctx);
		if (p->info.total_slots > 0)
			snprintf(slots, sizeof(slots), "%ld", p->info.total_slots);
		sw_term_printf(stdout, "  model   %s\n", p->info.model ? p->info.model : "?");
		sw_term_printf(stdout, "  server  context %s per slot, ", ctxs);
		if (p->info.idle_slots >= 0)
			sw_term_printf(stdout, "%ld of %s slots idle", p->info.idle_slots, slots);
		else
			sw_term_printf(stdout, "%s slots", slots);
		sw_term_printf(stdout, ", build %s%s\n", p->info.build ? p->info.build : "?",
		       p->info.sleeping ? ", sleeping" : "");
		sw_term_printf(stdout, "  think   %s\n", p->info.reasoning_settings
			       ? "a role's reasoning and reasoning_budget are sent"
			       : "a role's reasoning and reasoning_budget are not sent (its /props"
				 " lists no chat_template_caps)");
	}
	if (ep->n_gpus) {
		sw_term_printf(stdout, "  gpus    ");
		for (size_t i = 0; i < ep->n_gpus; i++)
			sw_term_printf(stdout, "%s%d", i ? "," : "", ep->gpus[i]);
		putchar('\n');
	}
	if (sp->calls)
		sw_term_printf(stdout, "  speed   prompt %.1f tok/s, decode %.1f tok/s (last %u call%s, newest %s)\n",
		       sp->prompt_per_second, sp->predicted_per_second, sp->calls,
		       sp->calls == 1 ? "" : "s", sp->last);
	else
		sw_term_printf(stdout, "  speed   no calls recorded yet\n");
	sw_term_printf(stdout, "  roles   %s\n", *roles ? roles : "(none)");
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	struct sw_err err = { 0 };
	struct sw_llm_config cfg = { 0 };
	bool json = ((const struct models_opts *)a->opts)->json;
	json_t *arr = json ? json_array() : NULL;
	char *speed_log = NULL;
	int rc = CLI_OK;

	if (cli_llm_config_load(ctx, &cfg, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	speed_log = sw_path_join(ctx->ws.root, "llm-speed.log");
	for (size_t i = 0; i < cfg.n_endpoints; i++) {
		const struct sw_llm_endpoint *ep = &cfg.endpoints[i];
		struct sw_llm_probe p;
		struct sw_llm_speed sp;
		char *roles = roles_of(&cfg, ep->name);
		sw_llm_probe(&p, &cfg, ep->name, MODELS_TIMEOUT_MS);
		if (sw_llm_stats_speed(&sp, speed_log, ep->name, &err) != 0)
			memset(&sp, 0, sizeof(sp));
		if (json) {
			json_array_append_new(arr, endpoint_json(ep, &p, &sp, roles));
		} else {
			if (i)
				putchar('\n');
			endpoint_text(ep, &p, &sp, roles);
		}
		sw_llm_probe_release(&p);
		free(roles);
	}
	if (!json && cfg.n_endpoints == 0 && !cli_globals.quiet)
		fprintf(stderr, "no endpoints: add an [endpoint \"NAME\"] section to %s\n", cfg.path);
	json_t *doc = json ? json_pack("{s:s, s:o}", "policy", sw_llm_mode_name(cfg.policy.mode),
				       "endpoints", arr) : NULL;
	arr = NULL;
	rc = cli_emit(json, doc, NULL, NULL, cfg.n_endpoints ? CLI_OK : CLI_NO);
cleanup:
	json_decref(arr);
	free(speed_log);
	sw_llm_config_release(&cfg);
	return rc;
}

const struct cli_command cli_cmd_models = {
	.name = "models",
	.usage = "[--json]",
	.summary = "endpoints, health, what each server reports, measured speed",
	.description =
		"For every [endpoint] of sworn.conf: whether the policy allows it (checked on\n"
		"the address actually connected to), its health (ready, loading, busy, down),\n"
		"the model, context per slot, slots and build the server reports, and the\n"
		"prompt and decode speed of its last calls (from llm-speed.log in the\n"
		"workspace, written by 'sworn ask').\n\n"
		"Exit status: 0 with endpoints listed, 1 when none is configured, 2 on a\n"
		"configuration error.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct models_opts),
	.min_pos = 0,
	.max_pos = 0,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
