/* cli_table.c - the command table: every command sworn has, found by
 * name, and `sworn help [COMMAND]`, which lists them.  Only main.c and
 * the manual's generator read the table; the commands never do, so no
 * command calls back into the file that calls it. */
#include <string.h>

#include "cli/cli.h"

const struct cli_command *const cli_commands[] = {
	&cli_cmd_init,
	&cli_cmd_matter,
	&cli_cmd_ingest,
	&cli_cmd_search,
	&cli_cmd_show,
	&cli_cmd_gguf,
	&cli_cmd_plan,
	&cli_cmd_claims,
	&cli_cmd_authorities,
	&cli_cmd_verify,
	&cli_cmd_task,
	&cli_cmd_draft,
	&cli_cmd_run,
	&cli_cmd_certify,
	&cli_cmd_corrections,
	&cli_cmd_serve,
	&cli_cmd_models,
	&cli_cmd_ask,
	&cli_cmd_doctor,
	&cli_cmd_fleet,
	&cli_cmd_bench,
	&cli_cmd_version,
	&cli_cmd_help,
};
const size_t cli_ncommands = SW_ARRAY_LEN(cli_commands);

const struct cli_command *cli_find(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (strcmp(cli_commands[i]->name, name) == 0)
			return cli_commands[i];
	return NULL;
}

/* ------------------------------------------------------------------ help */

static int help_run(struct cli_ctx *ctx, const struct cli_command *cmd,
	       const struct cli_args *a)
{
	(void)ctx;
	(void)cmd;
	if (a->npos == 0) {
		printf("commands:\n");
		for (size_t i = 0; i < cli_ncommands; i++)
			printf("  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
		printf("\nRun 'sworn help COMMAND' or 'sworn COMMAND --help' for details.\n");
		return CLI_OK;
	}
	const struct cli_command *target = cli_find(a->pos[0]);
	if (!target) {
		cli_error("'%s' is not a sworn command (see 'sworn help')", a->pos[0]);
		return CLI_USAGE;
	}
	if (a->npos == 1) {
		cli_print_help(stdout, target);
		return CLI_OK;
	}
	const struct cli_subcommand *sub = cli_find_sub(target, a->pos[1]);
	if (!sub) {
		cli_error("'%s' is not a subcommand of 'sworn %s' (see 'sworn help %s')", a->pos[1],
			  target->name, target->name);
		return CLI_USAGE;
	}
	cli_print_sub_help(stdout, target, sub);
	return CLI_OK;
}

const struct cli_command cli_cmd_help = {
	.name = "help",
	.usage = "[COMMAND [SUBCOMMAND]]",
	.summary = "list the commands, or show one command's (or subcommand's) help",
	.opts = NULL,
	.nopts = 0,
	.min_pos = 0,
	.max_pos = 2,
	.run = help_run,
};
