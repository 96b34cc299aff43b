/* cli_parse.c - the command line by table: a command's (or subcommand's)
 * options into its typed struct, the subcommand a command line names, and
 * --help.  Called by main.c and the manual's generator; calls down into
 * cli.c for the global options only. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The rows one parse reads: a command's, or one of its subcommands'. */
struct optset {
	char name[64]; /* "run" or "run show", for messages */
	const char *usage;
	const struct cli_opt *opts;
	size_t nopts;
	size_t opts_size;
	const void *opts_init;
	int min_pos, max_pos;
};

static int find_long(const struct cli_opt *opts, size_t n, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (opts[i].name && strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

static int find_short(const struct cli_opt *opts, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (opts[i].short_name == c)
			return (int)i;
	return -1;
}

/* The row of opts that the word a (an option, with or without "=V" or a
 * glued short value) names, or -1; *inline_value is its value when the
 * word carries one. */
static int find_opt(const struct cli_opt *opts, size_t n, const char *a, const char **inline_value)
{
	*inline_value = NULL;
	if (a[1] == '-') {
		const char *eq = strchr(a + 2, '=');
		size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (eq)
			*inline_value = eq + 1;
		return find_long(opts, n, a + 2, len);
	}
	int idx = find_short(opts, n, a[1]);
	if (idx >= 0 && a[2])
		*inline_value = a + 2;
	return idx;
}

/* Store the value of a typed option in its field of the options struct. */
static int bind(void *opts, const struct cli_opt *o, const char *v, struct sw_err *err)
{
	char *at = (char *)opts + o->offset;
	long long n;
	double d;
	if (!v && o->type != CLI_FLAG)
		return sw_err_set(err, SW_EUSAGE, "option --%s needs a value", o->name);
	switch (o->type) {
	case CLI_UNTYPED:
		break;
	case CLI_FLAG: {
		bool b = true;
		memcpy(at, &b, sizeof(b));
		return 0;
	}
	case CLI_PATH:
		if (!*v)
			return sw_err_set(err, SW_EUSAGE, "option --%s needs a path, not ''",
					  o->name);
		/* fall through */
	case CLI_STRING:
		memcpy(at, &v, sizeof(v));
		return 0;
	case CLI_PATHS: {
		struct cli_paths ps;
		if (!*v)
			return sw_err_set(err, SW_EUSAGE, "option --%s needs a path, not ''",
					  o->name);
		memcpy(&ps, at, sizeof(ps));
		if (ps.n >= CLI_MAX_PATHS)
			return sw_err_set(err, SW_EUSAGE, "option --%s is given more than %d times",
					  o->name, CLI_MAX_PATHS);
		ps.v[ps.n++] = v;
		memcpy(at, &ps, sizeof(ps));
		return 0;
	}
	case CLI_INT:
		/* No sign, as a count or a port is written. */
		if (v[0] == '+' || !sw_parse_int(v, (long long)o->min, (long long)o->max, &n))
			return sw_err_set(err, SW_EUSAGE,
					  "bad --%s '%s': give a whole number from %lld to %lld",
					  o->name, v, (long long)o->min, (long long)o->max);
		memcpy(at, &n, sizeof(n));
		return 0;
	case CLI_DOUBLE:
		if (!sw_parse_double(v, o->min, o->max, &d))
			return sw_err_set(err, SW_EUSAGE,
					  "bad --%s '%s': give a number from %g to %g", o->name, v,
					  o->min, o->max);
		memcpy(at, &d, sizeof(d));
		return 0;
	}
	SW_BUG("option --%s has no type %d", o->name, (int)o->type);
}

/* "-m/--matter, --json, -h/--help": the spellings of a table's options. */
static void list_opts(struct sw_buf *b, const struct cli_opt *opts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (opts[i].short_name)
			sw_buf_addf(b, "-%c/", opts[i].short_name);
		sw_buf_addf(b, "--%s, ", opts[i].name);
	}
	sw_buf_adds(b, "-h/--help");
}

/* The one line for an option the (sub)command does not take: what it
 * takes instead, and which subcommand the option belongs to when another
 * one of the same command has it. */
static int refuse(const struct cli_command *cmd, const struct optset *set, const char *a,
		  struct sw_err *err)
{
	struct sw_buf takes = SW_BUF_INIT;
	const char *v;
	size_t len = strcspn(a, "=");
	bool json = len == 6 && strncmp(a, "--json", len) == 0;
	int rc;
	list_opts(&takes, set->opts, set->nopts);
	/* Where it belongs, but not --json: another subcommand's document is
	 * no answer to this one's question. */
	for (size_t i = 0; i < cmd->nsubs && !json; i++) {
		const struct cli_subcommand *s = cmd->subs[i];
		if (find_opt(s->opts, s->nopts, a, &v) >= 0) {
			sw_buf_addf(&takes, " (%.*s belongs to %s: see 'sworn %s %s --help')",
				    (int)len, a, s->name, cmd->name, s->name);
			break;
		}
	}
	if (json)
		rc = sw_err_set(err, SW_EUSAGE, "'sworn %s' prints no JSON: it takes %s", set->name,
				takes.data);
	else
		rc = sw_err_set(err, SW_EUSAGE, "unknown option '%.*s' for 'sworn %s': it takes %s",
				(int)len, a, set->name, takes.data);
	sw_buf_release(&takes);
	return rc;
}

const struct cli_subcommand *cli_find_sub(const struct cli_command *cmd, const char *name)
{
	for (size_t i = 0; i < cmd->nsubs; i++)
		if (strcmp(cmd->subs[i]->name, name) == 0)
			return cmd->subs[i];
	return NULL;
}

/* Whether the option word a, given before the subcommand, takes the next
 * word as its value: by the rows of any subcommand that has it (the table
 * test checks that they agree), or --color. */
static bool takes_next(const struct cli_command *cmd, const char *a)
{
	const char *v;
	if (strcmp(a, "--color") == 0 || strcmp(a, "--colour") == 0)
		return true;
	for (size_t i = 0; i < cmd->nsubs; i++) {
		const struct cli_subcommand *s = cmd->subs[i];
		int idx = find_opt(s->opts, s->nopts, a, &v);
		if (idx >= 0)
			return s->opts[idx].arg && !v;
	}
	return false;
}

int cli_sub_index(const struct cli_command *cmd, int argc, char **argv)
{
	if (!cmd->nsubs)
		return -1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		if (takes_next(cmd, a))
			i++;
	}
	return -1;
}

/* "list, show or init". */
static void list_subs(struct sw_buf *b, const struct cli_command *cmd)
{
	for (size_t i = 0; i < cmd->nsubs; i++)
		sw_buf_addf(b, "%s%s",
			    i == 0		 ? ""
			    : i + 1 < cmd->nsubs ? ", "
						 : " or ",
			    cmd->subs[i]->name);
}

/* Which subcommand argv names, into out->sub and *set; *skip is the index
 * of its name. */
static int pick_sub(struct cli_args *out, struct optset *set, int *skip,
		    const struct cli_command *cmd, int argc, char **argv, struct sw_err *err)
{
	struct sw_buf names = SW_BUF_INIT;
	int at = cli_sub_index(cmd, argc, argv);
	const struct cli_subcommand *s = at >= 0 ? cli_find_sub(cmd, argv[at]) : NULL;
	if (!s) {
		list_subs(&names, cmd);
		if (at < 0)
			sw_err_set(err, SW_EUSAGE,
				   "'sworn %s' needs a subcommand: %s (see 'sworn %s "
				   "--help')",
				   cmd->name, names.data, cmd->name);
		else
			sw_err_set(err, SW_EUSAGE,
				   "'%s' is not a subcommand of 'sworn %s': give %s "
				   "(usage: sworn %s %s %s; see 'sworn %s --help')",
				   argv[at], cmd->name, names.data, cmd->name, cmd->subs[0]->name,
				   cmd->subs[0]->usage, cmd->name);
		sw_buf_release(&names);
		return SW_EUSAGE;
	}
	out->sub = s;
	*skip = at;
	*set = (struct optset){ "",	      s->usage,	    s->opts,	s->nopts,
				s->opts_size, s->opts_init, s->min_pos, s->max_pos };
	snprintf(set->name, sizeof(set->name), "%s %s", cmd->name, s->name);
	return 0;
}

int cli_parse(struct cli_args *out, const struct cli_command *cmd, int argc, char **argv,
	      struct sw_err *err)
{
	struct optset set = { "",	    cmd->usage,	    cmd->opts,
			      cmd->nopts,   cmd->opts_size, cmd->opts_init,
			      cmd->min_pos, cmd->max_pos };
	int skip = -1;
	snprintf(set.name, sizeof(set.name), "%s", cmd->name);
	memset(out, 0, sizeof(*out));
	out->pos = sw_xcalloc((size_t)argc + 1, sizeof(char *));
	if (cmd->nsubs) {
		int e = pick_sub(out, &set, &skip, cmd, argc, argv, err);
		if (e != 0)
			return e;
	}
	if (set.nopts > CLI_MAX_OPTS)
		SW_BUG("'sworn %s' has too many options", set.name);
	if (set.opts_size) {
		out->opts = sw_xcalloc(1, set.opts_size);
		if (set.opts_init)
			memcpy(out->opts, set.opts_init, set.opts_size);
	}
	bool only_pos = false;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		const char *inline_value = NULL;
		if (i == skip)
			continue;
		if (only_pos || a[0] != '-' || a[1] == '\0') {
			out->pos[out->npos++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = true;
			continue;
		}
		int idx = find_opt(set.opts, set.nopts, a, &inline_value);
		if (idx < 0) {
			/* --color and --quiet may also follow the command. */
			int used = cli_parse_global(argc - i, argv + i, err);
			if (used < 0)
				return used;
			if (used > 0) {
				i += used - 1;
				continue;
			}
			return refuse(cmd, &set, a, err);
		}
		const struct cli_opt *o = &set.opts[idx];
		if (!o->arg) {
			if (inline_value)
				return sw_err_set(err, SW_EUSAGE, "option --%s takes no value",
						  o->name);
			out->set[idx] = true;
			int e = out->opts ? bind(out->opts, o, NULL, err) : 0;
			if (e != 0)
				return e;
			continue;
		}
		if (!inline_value) {
			if (i + 1 >= argc)
				return sw_err_set(err, SW_EUSAGE, "option --%s needs a value (%s)",
						  o->name, o->arg);
			inline_value = argv[++i];
		}
		out->set[idx] = true;
		out->value[idx] = inline_value;
		int e = out->opts ? bind(out->opts, o, inline_value, err) : 0;
		if (e != 0)
			return e;
	}
	if (out->npos < set.min_pos)
		return sw_err_set(err, SW_EUSAGE, "too few arguments: usage: sworn %s %s", set.name,
				  set.usage);
	if (set.max_pos >= 0 && out->npos > set.max_pos)
		return sw_err_set(err, SW_EUSAGE, "too many arguments: usage: sworn %s %s",
				  set.name, set.usage);
	return 0;
}

void cli_args_release(struct cli_args *a)
{
	free(a->pos);
	free(a->opts);
	a->pos = NULL;
	a->opts = NULL;
}

bool cli_opt_takes_path(const struct cli_opt *o)
{
	return o->type == CLI_PATH || o->type == CLI_PATHS;
}

/* ------------------------------------------------------------------ help */

static void print_opts(FILE *f, const struct cli_opt *opts, size_t n)
{
	fputs("\noptions:\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = &opts[i];
		char left[64];
		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(f, "  %-26s %s\n", left, o->help);
	}
	fprintf(f, "  %-26s %s\n", "-h, --help", "show this help");
}

void cli_print_help(FILE *f, const struct cli_command *cmd)
{
	if (!cmd->nsubs) {
		fprintf(f, "usage: sworn %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
		if (cmd->description)
			fprintf(f, "\n%s\n", cmd->description);
		print_opts(f, cmd->opts, cmd->nopts);
		return;
	}
	for (size_t i = 0; i < cmd->nsubs; i++)
		fprintf(f, "%s sworn %s %s%s%s\n", i ? "   or:" : "usage:", cmd->name,
			cmd->subs[i]->name, *cmd->subs[i]->usage ? " " : "", cmd->subs[i]->usage);
	fprintf(f, "\n%s\n", cmd->summary);
	if (cmd->description)
		fprintf(f, "\n%s\n", cmd->description);
	fputs("\nsubcommands:\n", f);
	for (size_t i = 0; i < cmd->nsubs; i++)
		fprintf(f, "  %-10s %s\n", cmd->subs[i]->name, cmd->subs[i]->summary);
	print_opts(f, NULL, 0);
	fprintf(f, "\nRun 'sworn %s SUBCOMMAND --help' for a subcommand's options.\n", cmd->name);
}

void cli_print_sub_help(FILE *f, const struct cli_command *cmd, const struct cli_subcommand *sub)
{
	fprintf(f, "usage: sworn %s %s%s%s\n\n%s\n", cmd->name, sub->name, *sub->usage ? " " : "",
		sub->usage, sub->summary);
	print_opts(f, sub->opts, sub->nopts);
	fprintf(f, "\nRun 'sworn %s --help' for what 'sworn %s' does.\n", cmd->name, cmd->name);
}
