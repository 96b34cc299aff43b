/* main.c - `sworn`: global options, dispatch through the command table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "llm/llm.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: sworn [-C DIR] COMMAND [ARGS...]\n"
		"       sworn --version [--json] | --help | help COMMAND\n\n%s\n\ncommands:\n",
		cli_tagline);
	for (size_t i = 0; i < cli_ncommands; i++)
		fprintf(f, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
	fputs("\nglobal options:\n", f);
	for (size_t i = 0; i < cli_nglobal_opts; i++) {
		const struct cli_opt *o = &cli_global_opts[i];
		char left[32];
		if (o->name)
			snprintf(left, sizeof(left), "--%s", o->name);
		else
			snprintf(left, sizeof(left), "-%c %s", o->short_name, o->arg ? o->arg : "");
		fprintf(f, "  %-11s %s\n", left, o->help);
	}
	fputs("\nRun 'sworn COMMAND --help' for a command's options.\n", f);
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = { .dir = "." };
	struct cli_args args = { 0 };
	struct sw_err err = { 0 };
	int i = 1, rc;

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--version") == 0) {
			/* `sworn version`, with what follows as its arguments
			 * (--version --json) */
			argv[i] = (char *)"version";
			break;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return CLI_OK;
		}
		int used = cli_parse_global(argc - i, argv + i, &err);
		if (used < 0)
			return cli_fail(&err);
		if (used > 0) {
			i += used;
			continue;
		}
		if (strcmp(argv[i], "-C") == 0 && i + 1 < argc) {
			ctx.dir = argv[i + 1];
			i += 2;
			continue;
		}
		if (strncmp(argv[i], "-C", 2) == 0 && argv[i][2]) {
			ctx.dir = argv[i] + 2;
			i++;
			continue;
		}
		cli_error("unknown option '%s' (see 'sworn --help')", argv[i]);
		return CLI_USAGE;
	}
	/* As git does: -C makes relative paths and the workspace search start
	 * in DIR. */
	if (strcmp(ctx.dir, ".") != 0) {
		if (chdir(ctx.dir) != 0) {
			cli_error("cannot change to '%s': %s", ctx.dir, strerror(errno));
			return CLI_USAGE;
		}
		ctx.dir = ".";
	}
	if (i >= argc) {
		usage(stderr);
		return CLI_USAGE;
	}
	const struct cli_command *cmd = cli_find(argv[i]);
	if (!cmd) {
		cli_error("'%s' is not a sworn command (see 'sworn --help')", argv[i]);
		return CLI_USAGE;
	}
	for (int k = i + 1; k < argc; k++) {
		if (strcmp(argv[k], "--") == 0)
			break;
		if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
			/* sworn run show --help: the subcommand's own options. */
			int at = cli_sub_index(cmd, argc - i - 1, argv + i + 1);
			const struct cli_subcommand *sub =
				at >= 0 ? cli_find_sub(cmd, argv[i + 1 + at]) : NULL;
			if (sub)
				cli_print_sub_help(stdout, cmd, sub);
			else
				cli_print_help(stdout, cmd);
			return CLI_OK;
		}
	}
	if (cli_parse(&args, cmd, argc - i - 1, argv + i + 1, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	/* llm.h: libcurl's global set-up, once, before any command starts a
	 * thread (ingest's OCR workers, the fleet supervisor, bench). */
	if (!(cmd->flags & CLI_NO_SERVER) && sw_llm_global_init(&err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	if (cmd->flags & CLI_NEEDS_WORKSPACE) {
		if (sw_workspace_open(&ctx.ws, ctx.dir, &err) != 0) {
			/* No workspace where the command was run (or -C names
			 * no folder): the caller's mistake, a usage error. */
			rc = cli_fail(&err);
			if (err.code == SW_ENOTFOUND)
				rc = CLI_USAGE;
			goto cleanup;
		}
		ctx.have_ws = true;
		if (!(cmd->flags & CLI_OWN_CONF_CHECK) &&
		    sw_config_check_sections(&ctx.ws.config, cli_conf_schemas, cli_nconf_schemas,
					     &err) != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
	}
	rc = args.sub ? args.sub->run(&ctx, cmd, &args) : cmd->run(&ctx, cmd, &args);
	/* A "no" whose output was lost is no answer: 2 with a line, as for
	 * a success (an error, already reported, keeps its line). */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc != CLI_USAGE) {
		cli_error("cannot write the output: %s", strerror(errno));
		rc = CLI_USAGE;
	}
cleanup:
	cli_args_release(&args);
	if (ctx.have_ws)
		sw_workspace_release(&ctx.ws);
	return rc;
}

/* AddressSanitizer's defaults, in sanitizer builds only (make check's
 * asan preset, make fuzz).  sworn and each module it loads (sworn-web.so,
 * sworn-extract.so, ...) link the same static libraries, so their
 * non-static globals are defined in both, identically, and the module's
 * references bind to sworn's copies (DESIGN.md, "Modules").  clang's ASan
 * reports every global defined twice (detect_odr_violation=2); 1 reports
 * two definitions of different sizes only, which would be a real ODR
 * violation.  intercept_tls_get_addr=0: the runtime's hook on
 * __tls_get_addr (LLVM 16 and GCC 13 and older) can record a wrong range
 * for a dynamic TLS block, and LeakSanitizer's tracer then crashes at exit
 * ("Tracer caught signal 11"; clang 14's build failed cli_ingest_integrity
 * so).  Without the hook LeakSanitizer does not scan dynamic TLS, which
 * could only report a leak too many: sworn holds no heap block through
 * thread-local storage alone.  ASAN_OPTIONS in the
 * environment still wins, key by key. */
#if defined(__SANITIZE_ADDRESS__)
#define SW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SW_ASAN 1
#endif
#endif
#ifdef SW_ASAN
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "detect_odr_violation=1:intercept_tls_get_addr=0";
}
#endif
