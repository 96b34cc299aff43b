/* cli_plan.h - `sworn plan --train` (cmd_plan_train.c), called by
 * cmd_plan.c with the options it parsed. */
#ifndef SW_CLI_PLAN_H
#define SW_CLI_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"

struct cli_plan_train {
	const struct cli_paths *hardware; /* the inventories */
	const struct cli_paths *boards;   /* --board NAME...; none: every group */
	const char *method, *target, *matter; /* NULL: the defaults */
	long long rank, seq, micro_batch, grad_accum; /* 0: the defaults */
	bool no_checkpointing, chunked_loss, compare, json;
};

/* Plan a fine-tune of each model (a config.json or a GGUF) on each board;
 * exit code CLI_OK when some combination fits, CLI_NO when none does,
 * CLI_USAGE on bad input.  May load the workspace into ctx (the
 * corrections give the sequence length). */
int cli_plan_train(struct cli_ctx *ctx, const struct cli_plan_train *o, char *const *models,
		   size_t nmodels);

#endif /* SW_CLI_PLAN_H */
