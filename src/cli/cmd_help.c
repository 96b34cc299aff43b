/* cmd_help.c - `sworn help [COMMAND]`. */
#include "cli/cli.h"

static int run(struct cli_ctx *ctx, const struct cli_command *cmd,
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
	cli_print_help(stdout, target);
	return CLI_OK;
}

const struct cli_command cli_cmd_help = {
	.name = "help",
	.usage = "[COMMAND]",
	.summary = "list the commands, or show one command's help",
	.opts = NULL,
	.nopts = 0,
	.min_pos = 0,
	.max_pos = 1,
	.run = run,
};
