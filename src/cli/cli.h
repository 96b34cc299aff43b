/*
 * cli.h - the `sworn` command line: a table of commands, each with a table
 * of options, that drives parsing, usage lines and --help.
 *
 * Contract
 *   - Every command and every option has help text; a unit test walks the
 *     table and fails on one without.
 *   - Exit codes: 0 ok, 1 the command's "no" (gate blocked, nothing found),
 *     2 usage or input error.  Errors are one line on stderr:
 *     "sworn: what failed: why".
 *   - Human output goes to stdout; --json prints one JSON document on stdout
 *     instead.  Progress lines go to stderr, on a terminal only.
 *
 * To add a command: write src/cli/cmd_<name>.c with its option table and a
 * `const struct cli_command cli_cmd_<name>`, declare it below, and list it in
 * cli_commands[] (cli.c).  Nothing else needs an edit.
 */
#ifndef SW_CLI_H
#define SW_CLI_H

#include "base/base.h"
#include "record/record.h"

enum { CLI_OK = 0, CLI_NO = 1, CLI_USAGE = 2 };
#define CLI_MAX_OPTS 16

struct cli_opt {
	const char *name;  /* long name, used as --name */
	char short_name;   /* -x, or 0 */
	const char *arg;   /* metavariable ("NAME") or NULL for a flag */
	const char *help;  /* one line */
};

struct cli_args {
	const char *value[CLI_MAX_OPTS]; /* by option index; NULL when absent */
	bool set[CLI_MAX_OPTS];
	char **pos;                      /* positional arguments (borrowed) */
	int npos;
};

struct cli_ctx {
	const char *dir;          /* -C DIR, or "." */
	struct sw_workspace ws;   /* loaded when the command needs it */
	bool have_ws;
};

enum cli_flags {
	CLI_NEEDS_WORKSPACE = 1 << 0, /* find and load the workspace first */
};

struct cli_command {
	const char *name;
	const char *usage;        /* after "sworn NAME " */
	const char *summary;      /* one line for `sworn help` */
	const char *description;  /* paragraphs for --help; may be NULL */
	const struct cli_opt *opts;
	size_t nopts;
	int min_pos, max_pos;     /* positional arguments; max -1 = any */
	unsigned flags;
	int (*run)(struct cli_ctx *ctx, const struct cli_command *cmd,
		   const struct cli_args *args);
};

extern const struct cli_command *const cli_commands[];
extern const size_t cli_ncommands;

/* The command called name, or NULL. */
const struct cli_command *cli_find(const char *name);

/* Parse argv (after the command name) by the command's option table.
 * --help is handled by the caller before this.  SW_EUSAGE with a message on
 * an unknown option, a missing value or a wrong number of arguments. */
int cli_parse(struct cli_args *out, const struct cli_command *cmd, int argc,
	      char **argv, struct sw_err *err);

/* The index of the option named name in cmd's table; SW_BUG if absent. */
int cli_opt_index(const struct cli_command *cmd, const char *name);
/* The option's value or NULL; whether a flag was given. */
const char *cli_value(const struct cli_command *cmd, const struct cli_args *a,
		      const char *name);
bool cli_flag(const struct cli_command *cmd, const struct cli_args *a,
	      const char *name);

/* Print usage, description and every option of cmd to f. */
void cli_print_help(FILE *f, const struct cli_command *cmd);

/* What the program is, in one line, and the options taken before the
 * command (main parses them; usage, the man page and completion list them).
 * -C has no long name: its name is NULL. */
extern const char cli_tagline[];
extern const struct cli_opt cli_global_opts[];
extern const size_t cli_nglobal_opts;

/* The subcommands cmd's usage names: the first word of each top-level
 * " | " alternative, when there are two or more and each starts with a
 * lower-case word ("new NAME | list [--json]" gives new and list).  Writes
 * up to max NUL-terminated names into out; returns how many. */
#define CLI_MAX_SUBCMD 24
size_t cli_subcommands(char out[][CLI_MAX_SUBCMD], size_t max,
		       const struct cli_command *cmd);

/* Whether an option's value is a path (its metavariable is FILE, OUT, PATH,
 * DIR or GGUF, as the tables write them): completion offers files for it. */
bool cli_opt_takes_path(const struct cli_opt *o);

/* Print "sworn: msg" on stderr and return the exit code for err->code. */
int cli_fail(const struct sw_err *err);
/* Print "sworn: ..." on stderr. */
void cli_error(const char *fmt, ...) SW_PRINTF(1, 2);
/* The exit code for an error code. */
int cli_exit_code(int code);

/* Open the matter named by -m (or fail with a usage error). */
int cli_open_matter(struct sw_matter **out, struct cli_ctx *ctx,
		    const struct cli_command *cmd, const struct cli_args *a,
		    struct sw_err *err);

/* Whether stdout is a terminal that may be coloured (NO_COLOR unset). */
bool cli_colour(void);

/* Format a byte count as "12.3 MiB" into out. */
void cli_human_bytes(char *out, size_t outsz, uint64_t bytes);

extern const struct cli_command cli_cmd_init;
extern const struct cli_command cli_cmd_matter;
extern const struct cli_command cli_cmd_ingest;
extern const struct cli_command cli_cmd_search;
extern const struct cli_command cli_cmd_help;
extern const struct cli_command cli_cmd_claims;
extern const struct cli_command cli_cmd_authorities;
extern const struct cli_command cli_cmd_verify;
extern const struct cli_command cli_cmd_gguf;
extern const struct cli_command cli_cmd_plan;
extern const struct cli_command cli_cmd_models;
extern const struct cli_command cli_cmd_ask;
extern const struct cli_command cli_cmd_doctor;
extern const struct cli_command cli_cmd_fleet;
extern const struct cli_command cli_cmd_bench;

#endif /* SW_CLI_H */
