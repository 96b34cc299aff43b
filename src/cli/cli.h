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
 * How to write a command (the contract for every cmd_<name>.c)
 *   1. A struct of the command's options, one typed field per option, and
 *      the table that binds each option to its field:
 *
 *        struct search_opts { const char *matter; long long limit; bool json; };
 *        #define AT(f) offsetof(struct search_opts, f)
 *        static const struct cli_opt opts[] = {
 *            { "matter", 'm', "MATTER", "the matter to search", CLI_STRING, AT(matter) },
 *            { "limit", 'n', "N", "at most N hits", CLI_INT, AT(limit), 1, 100000 },
 *            { "json", 0, NULL, "print the hits as JSON", CLI_FLAG, AT(json) },
 *        };
 *
 *      Field types: CLI_FLAG bool, CLI_STRING and CLI_PATH const char *
 *      (NULL when absent; PATH is completed as a file and may not be
 *      empty), CLI_INT long long, CLI_DOUBLE double.  An INT or DOUBLE
 *      outside [min, max] (or not a number) is refused by cli_parse with
 *      "bad --NAME 'V': give ... from MIN to MAX" and exit status 2, before
 *      the command runs.  Absent options keep the value of opts_init (zero
 *      when NULL): give opts_init when 0 is a valid value.
 *   2. `const struct cli_command cli_cmd_<name>` with .opts, .nopts,
 *      .opts_size = sizeof(struct search_opts) (and .opts_init), declared
 *      below and listed in cli_commands[] (cli_table.c).  Nothing else needs an
 *      edit: --help, the man page and the bash completion read the table.
 *   3. run() reads its options as `const struct search_opts *o = a->opts;`,
 *      and ends with cli_emit(): the JSON document under --json, else the
 *      text, and the exit code.  Errors: return cli_fail(&err).
 *
 *   Every table is typed; a row without a type (CLI_UNTYPED) fails the
 *   table test.
 *
 * A command with subcommands (sworn run show, sworn matter docs) is a
 * table of them, as git's parse-options is: each `struct cli_subcommand`
 * has its own options table, typed struct, usage, positional counts and
 * run(), and the command itself has .subs and .nsubs instead of options,
 * usage and run.  cli_parse finds the subcommand (the first word that is
 * not an option or an option's value), refuses an option it does not take
 * with one line that names the ones it does, and fills its struct;
 * `sworn CMD SUB --help`, the man page and the bash completion read the
 * same rows.  Subcommands of one command may share a first member of
 * their structs (run's -m and --json); each binds only the fields it
 * takes.  A subcommand may live in a file of its own (cmd_matter_docs.c's
 * cli_sub_matter_docs): .subs is an array of pointers.
 */
#ifndef SW_CLI_H
#define SW_CLI_H

#include <stddef.h>

#include "base/base.h"
#include "record/record.h"

/* Option rows name their fields by position and leave min and max out
 * where the type has no bounds. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

enum { CLI_OK = 0, CLI_NO = 1, CLI_USAGE = 2 };
#define CLI_MAX_OPTS 32

/* The field an option fills (see the note above); CLI_UNTYPED: a row
 * left without a type, which the table test refuses. */
enum cli_type { CLI_UNTYPED = 0, CLI_FLAG, CLI_STRING, CLI_PATH, CLI_INT, CLI_DOUBLE,
		CLI_PATHS };

/* The field of a CLI_PATHS option, which may be given several times
 * (--hardware a.ini --hardware b.ini): the paths in order, borrowed from
 * argv. */
#define CLI_MAX_PATHS 8
struct cli_paths {
	const char *v[CLI_MAX_PATHS];
	size_t n;
};

struct cli_opt {
	const char *name;  /* long name, used as --name */
	char short_name;   /* -x, or 0 */
	const char *arg;   /* metavariable ("NAME") or NULL for a flag */
	const char *help;  /* one line */
	enum cli_type type;
	size_t offset;     /* of its field in the command's options struct */
	double min, max;   /* bounds of a CLI_INT or CLI_DOUBLE value */
	/* For completion: the words the value may be, space-separated
	 * ("auto always never"), or "@NAME", completed by the script's
	 * _sworn_NAME ("@tasks"); NULL: anything (a path: files). */
	const char *values;
};

struct cli_subcommand;
struct cli_args {
	const struct cli_subcommand *sub; /* the subcommand given, or NULL */
	void *opts;                      /* the (sub)command's options struct (owned) */
	const char *value[CLI_MAX_OPTS]; /* by option index; NULL when absent */
	bool set[CLI_MAX_OPTS];
	char **pos;                      /* positional arguments after the
					  * (sub)command's name (borrowed) */
	int npos;
};

struct cli_ctx {
	const char *dir;          /* -C DIR, or "." */
	struct sw_workspace ws;   /* loaded when the command needs it */
	bool have_ws;
};

enum cli_flags {
	CLI_NEEDS_WORKSPACE = 1 << 0, /* find and load the workspace first */
	/* main refuses a sworn.conf with a section no schema of
	 * cli_conf_schemas has, before any command runs; this command
	 * reports it itself instead (sworn doctor). */
	CLI_OWN_CONF_CHECK = 1 << 1,
	/* The command talks to no server and starts no thread: main skips
	 * libcurl's global set-up, which loads libcurl (llm/curl_load.c). */
	CLI_NO_SERVER = 1 << 2,
};

struct cli_command;

/* One subcommand: `sworn CMD NAME USAGE`. */
struct cli_subcommand {
	const char *name;
	const char *usage;        /* after "sworn CMD NAME "; "" for none */
	const char *summary;      /* one line for the command's --help */
	const struct cli_opt *opts;
	size_t nopts;
	size_t opts_size;         /* sizeof its options struct; 0 with no options */
	const void *opts_init;    /* the options' defaults, or NULL for zeros */
	int min_pos, max_pos;     /* positional arguments after NAME; max -1 = any */
	/* args->sub is this row */
	int (*run)(struct cli_ctx *ctx, const struct cli_command *cmd,
		   const struct cli_args *args);
};

struct cli_command {
	const char *name;
	const char *usage;        /* after "sworn NAME "; NULL with subcommands */
	const char *summary;      /* one line for `sworn help` */
	const char *description;  /* paragraphs for --help; may be NULL */
	const struct cli_opt *opts;
	size_t nopts;
	size_t opts_size;         /* sizeof its options struct; 0 with no options */
	const void *opts_init;    /* the options' defaults, or NULL for zeros */
	int min_pos, max_pos;     /* positional arguments; max -1 = any */
	unsigned flags;
	/* NULL with subcommands: each has its own */
	int (*run)(struct cli_ctx *ctx, const struct cli_command *cmd,
		   const struct cli_args *args);
	/* NULL, or nsubs subcommands (then no options of its own) */
	const struct cli_subcommand *const *subs;
	size_t nsubs;
};

extern const struct cli_command *const cli_commands[];
extern const size_t cli_ncommands;

/* The command called name, or NULL. */
const struct cli_command *cli_find(const char *name);

/* Parse argv (after the command name) by the command's option table into
 * out, and fill out->opts (allocated, opts_init first) from the typed
 * rows.  For a command with subcommands: find the subcommand first
 * (out->sub) and parse by its table instead; its name is not among
 * out->pos.  --help is handled by the caller before this.  SW_EUSAGE with
 * a message on a missing or unknown subcommand, an option the (sub)command
 * does not take (the message lists the ones it does), a missing value, a
 * number out of its bounds, an empty path or a wrong number of arguments.
 * Release out with cli_args_release, also after a failure. */
int cli_parse(struct cli_args *out, const struct cli_command *cmd, int argc,
	      char **argv, struct sw_err *err);
void cli_args_release(struct cli_args *a);

/* The subcommand of cmd called name, or NULL. */
const struct cli_subcommand *cli_find_sub(const struct cli_command *cmd, const char *name);
/* The index in argv (after the command name) of the word that names
 * cmd's subcommand: the first that is neither an option nor the value of
 * one; -1 when there is none or cmd has no subcommands. */
int cli_sub_index(const struct cli_command *cmd, int argc, char **argv);


/* The end of every command's output: with json, print doc (taken, freed
 * here) as one JSON document on stdout; without, call text when text is
 * not NULL (doc, if any, is freed unprinted) and write what it wrote to
 * stdout cleaned by sw_term_clean: a document's name, a Bates number, a
 * model's name from its GGUF file can hold any control sequence, and no
 * text writer has to remember (base.h, "terminal").  Returns code, or the
 * exit code of a failed write (with its line on stderr).
 *
 * An object document is printed with the stamp of cli_json_stamp() as its
 * first members ("sworn": {"version", "commit"}, "schema"), before its own
 * (a member of its own by those names is dropped; doc itself is left
 * unchanged, so a caller may pass json_incref of a tree it keeps).  A
 * document that is not an object (the lists of `sworn run list` and
 * `sworn fleet history`) is printed as it is, unstamped: wrapping it
 * would change its shape under its readers.  A new command's document is
 * an object. */
struct json_t;
int cli_emit(bool json, struct json_t *doc, void (*text)(FILE *f, const void *ud),
	     const void *ud, int code);
/* The same, text(stdout, ud) written as it is: for a writer with colour
 * of its own, which cleans the outside text it writes itself (sworn
 * verify's report, through sw_term_*). */
int cli_emit_styled(bool json, struct json_t *doc, void (*text)(FILE *f, const void *ud),
		    const void *ud, int code);

/* The shape of sworn's --json documents: raised when a member changes
 * meaning or goes away (not when one is added). */
#define CLI_JSON_SCHEMA 1

/* A new object {"sworn": {"version": SW_VERSION, "commit": the build's
 * git commit}, "schema": CLI_JSON_SCHEMA}, the members every --json
 * document starts with (cli_emit adds them; a command that streams its
 * JSON itself writes them).  Caller owns the reference. */
struct json_t *cli_json_stamp(void);

/* Print usage, description and every option of cmd to f; for a command
 * with subcommands, each one's usage and summary instead of options. */
void cli_print_help(FILE *f, const struct cli_command *cmd);
/* Print the usage, summary and every option of cmd's subcommand sub. */
void cli_print_sub_help(FILE *f, const struct cli_command *cmd,
			const struct cli_subcommand *sub);

/* What the program is, in one line, and the options taken before the
 * command (main parses them; usage, the man page and completion list them).
 * -C has no long name: its name is NULL. */
extern const char cli_tagline[];
extern const struct cli_opt cli_global_opts[];
extern const size_t cli_nglobal_opts;

/* The schemas that share sworn.conf (llm's and fleet's): a section none
 * of them has is an error at load ("sworn.conf:LINE: unknown section
 * [x]: did you mean [y]?").  A subsystem that reads sworn.conf lists its
 * schema here. */
extern const struct sw_config_schema *const cli_conf_schemas[];
extern const size_t cli_nconf_schemas;

/* Whether an option's value is a path (CLI_PATH or CLI_PATHS):
 * completion offers files for it. */
bool cli_opt_takes_path(const struct cli_opt *o);

/* Print "sworn: msg" on stderr and return the exit code for err->code. */
int cli_fail(const struct sw_err *err);
/* Print "sworn: ..." on stderr. */
void cli_error(const char *fmt, ...) SW_PRINTF(1, 2);
/* The exit code for an error code. */
int cli_exit_code(int code);

/* Open the matter called name, the value of -m; NULL: the default matter
 * (cli_default_matter), and without one a usage error that says how to
 * name one.  A matter that does not exist is SW_ENOTFOUND (exit 2); the
 * message says where a default's name came from. */
int cli_matter_open(struct sw_matter **out, struct cli_ctx *ctx, const char *name,
		    struct sw_err *err);
/* The default matter: $SWORN_MATTER when set and not empty, else the one
 * `sworn matter use NAME` stored in the workspace (matters/.default), else
 * *out NULL.  *out is the caller's; *from names its source ("SWORN_MATTER",
 * "sworn matter use") or is NULL.  SW_EINPUT for a stored file that holds
 * no valid name. */
int cli_default_matter(char **out, const char **from, struct cli_ctx *ctx, struct sw_err *err);
/* Make the existing matter name the workspace's default (matters/.default,
 * written atomically).  SW_ENOTFOUND when there is no such matter. */
int cli_matter_use(struct cli_ctx *ctx, const char *name, struct sw_err *err);

/* The global options main parses before the command: --color=WHEN and
 * --quiet (no progress, hints or summaries on stderr; errors and the
 * command's answer still print). */
enum cli_colour_mode { CLI_COLOUR_AUTO, CLI_COLOUR_ALWAYS, CLI_COLOUR_NEVER };
struct cli_globals {
	enum cli_colour_mode colour;
	bool quiet;
};
extern struct cli_globals cli_globals;
/* auto, always or never into *out; SW_EUSAGE with a message otherwise. */
int cli_parse_colour(enum cli_colour_mode *out, const char *v, struct sw_err *err);
/* If argv[0] (of argc words) is --quiet, -q, --color=WHEN or --color WHEN,
 * set cli_globals and return how many words it took; 0 for another word;
 * SW_EUSAGE for a bad WHEN.  main calls it before the command, cli_parse
 * for an option the command's own table lacks. */
int cli_parse_global(int argc, char **argv, struct sw_err *err);

/* Read all of standard input into out, at most max bytes: SW_ELIMIT past
 * them, SW_EIO on a read error, each message naming what ("the prompt"). */
int cli_read_stdin(struct sw_buf *out, size_t max, const char *what,
		   struct sw_err *err) SW_MUST_USE;

/* Whether stdout may be coloured: --color=always, never, or (auto) a
 * terminal with NO_COLOR unset. */
bool cli_colour(void);

/* Format a byte count as "12.3 MiB" into out. */
void cli_human_bytes(char *out, size_t outsz, uint64_t bytes);

/* The workspace's authority table, or NULL when it has none (no error:
 * case claims are then unverifiable); *rc is -1 with err set when the table
 * exists but cannot be opened. */
struct sw_authority;
struct sw_authority *cli_open_authorities(struct cli_ctx *ctx, struct sw_err *err, int *rc);

/* sworn.conf's [policy], [endpoint] and [role] sections, with the servers
 * and roles of a fleet running in this workspace added where sworn.conf
 * does not name them (sw_fleet_state_llm_merge; cli_llm.c): what every
 * command that calls a model loads.  0 or a negative SW_E* code; cfg is
 * empty after a failure. */
struct sw_llm_config;
int cli_llm_config_load(const struct cli_ctx *ctx, struct sw_llm_config *cfg,
			struct sw_err *err) SW_MUST_USE;

/* The judge for a verification into *j, or none (*on false): [verify]
 * judge and [role "judge"] (of sworn.conf or the running fleet), unless
 * no_judge; llm is loaded into (release it with sw_llm_config_release
 * whatever the outcome).  A sworn.conf that llm/ refuses matters only
 * when it names a judge.  Prints which judge on stderr unless --quiet
 * (cli_judge.c).  0 or a negative SW_E* code. */
struct sw_judge;
int cli_judge_setup(struct sw_judge *j, bool *on, struct sw_llm_config *llm,
		    const struct cli_ctx *ctx, bool no_judge, struct sw_err *err) SW_MUST_USE;

/* Drive a run to its end on a terminal (cmd_draft.c): start one of task t
 * from the brief, or (t NULL) resume run resume_id; live progress on
 * stderr, Ctrl-C pauses it; the outcome (or --json the run record) on
 * stdout.  Returns the exit code: 0 verified, 1 blocked or paused, 2 an
 * error. */
struct sw_task;
int cli_run_drive(struct cli_ctx *ctx, struct sw_matter *m, const struct sw_task *t,
		  int64_t resume_id, const char *brief_name, const char *brief, size_t brief_len,
		  bool json);

/* The subcommands of sworn matter that live in files of their own:
 * docs and rm (cmd_matter_docs.c), qc (cmd_matter_qc.c). */
extern const struct cli_subcommand cli_sub_matter_docs;
extern const struct cli_subcommand cli_sub_matter_rm;
extern const struct cli_subcommand cli_sub_matter_qc;

extern const struct cli_command cli_cmd_init;
extern const struct cli_command cli_cmd_matter;
extern const struct cli_command cli_cmd_ingest;
extern const struct cli_command cli_cmd_search;
extern const struct cli_command cli_cmd_show;
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
extern const struct cli_command cli_cmd_task;
extern const struct cli_command cli_cmd_draft;
extern const struct cli_command cli_cmd_run;
extern const struct cli_command cli_cmd_certify;
extern const struct cli_command cli_cmd_corrections;
extern const struct cli_command cli_cmd_serve;
extern const struct cli_command cli_cmd_version;

#endif /* SW_CLI_H */
