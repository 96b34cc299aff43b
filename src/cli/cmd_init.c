/* cmd_init.c - `sworn init [DIR]`: create a workspace. */
#include "cli/cli.h"

struct init_opts {
	bool quiet;
};

static const struct cli_opt opts[] = {
	{ "quiet", 'q', NULL, "print nothing on success", CLI_FLAG, offsetof(struct init_opts, quiet) },
};

static int run(struct cli_ctx *ctx, const struct cli_command *cmd,
	       const struct cli_args *a)
{
	(void)cmd;
	const struct init_opts *o = a->opts;
	struct sw_err err = { 0 };
	const char *dir = a->npos ? a->pos[0] : ctx->dir;
	if (sw_workspace_create(dir, &err) != 0)
		return cli_fail(&err);
	if (!o->quiet && !cli_globals.quiet)
		printf("created a sworn workspace in '%s' (sworn.conf, matters/)\n"
		       "next: sworn matter new NAME\n", dir);
	return CLI_OK;
}

const struct cli_command cli_cmd_init = {
	.name = "init",
	.usage = "[DIR]",
	.summary = "create a workspace (sworn.conf and matters/) in DIR or here",
	.description = "A workspace holds sworn.conf (models, endpoints, policy) and one\n"
		       "folder per matter.  Other commands find it by walking up from the\n"
		       "current folder, or from -C DIR.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct init_opts),
	.min_pos = 0,
	.max_pos = 1,
	.run = run,
};
