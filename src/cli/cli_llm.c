/* cli_llm.c - the model configuration every command uses: resolved by
 * fleet/ in one call (sworn.conf's sections and the running fleet's
 * servers and roles, sw_fleet_llm_config_load). */
#include "cli/cli.h"
#include "fleet/fleet.h"
#include "llm/llm.h"

int cli_llm_config_load(const struct cli_ctx *ctx, struct sw_llm_config *cfg, struct sw_err *err)
{
	return sw_fleet_llm_config_load(cfg, &ctx->ws.config, ctx->ws.root, err);
}
