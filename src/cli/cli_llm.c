/* cli_llm.c - the model configuration every command uses: sworn.conf's
 * sections, and the servers and roles of the fleet running here. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "fleet/fleet.h"
#include "llm/llm.h"

int cli_llm_config_load(const struct cli_ctx *ctx, struct sw_llm_config *cfg, struct sw_err *err)
{
	int rc = sw_llm_config_load(cfg, &ctx->ws.config, err);
	if (rc != 0)
		return rc;
	/* Several hosts: the servers of every host that answers; a host that
	 * does not is left out, so its roles are unavailable (no other model
	 * stands in for them). */
	struct cli_fleet f;
	struct sw_err ferr = { 0 };
	if (cli_fleet_open(&f, ctx, &ferr) == 0 && f.nhosts > 1) {
		cli_fleet_gather(&f, 10000);
		for (size_t h = 0; h < f.nhosts && rc == 0; h++)
			if (f.reachable[h] && f.have_state[h])
				rc = sw_fleet_state_llm_merge(cfg, &f.state[h], NULL, err);
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
					why = sw_xasprintf("its server %s is on host %s, which does not "
							   "answer (%s)", server ? server : "?", host,
							   f.why[h] ? f.why[h] : "no reason given");
				else if (s && strcmp(s->state, "ready") != 0)
					why = sw_xasprintf("its server %s on host %s is %s over the LAN "
							   "(%s)", s->name, host, s->state,
							   s->detail ? s->detail : "no reason given");
				if (why)
					sw_llm_config_role_unavailable(cfg, role, why);
				free(why);
			}
		}
		cli_fleet_release(&f);
		if (rc != 0)
			sw_llm_config_release(cfg);
		return rc;
	}
	cli_fleet_release(&f);
	/* No fleet state, or one that cannot be read, is no fleet: sworn.conf
	 * alone, as before the fleet existed (sworn fleet status says why). */
	char *dir = sw_path_join(ctx->ws.root, "fleet");
	struct sw_fleet_state st;
	if (sw_fleet_state_load(&st, dir, NULL) == 0) {
		rc = sw_fleet_state_llm_merge(cfg, &st, NULL, err);
		sw_fleet_state_release(&st);
	}
	free(dir);
	if (rc != 0)
		sw_llm_config_release(cfg);
	return rc;
}
