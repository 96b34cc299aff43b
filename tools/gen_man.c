/*
 * gen_man.c - writes sworn's manual pages and bash completion from the
 * command table (src/cli), so that neither can drift from what `sworn
 * COMMAND --help` says.  Run by the build:
 *
 *   gen_man OUTDIR
 *
 * writes OUTDIR/sworn.1, OUTDIR/sworn-COMMAND.1 for every command and
 * OUTDIR/sworn.bash.  Each file is replaced only when its text changed.
 * Exit status 0, or 2 with one line on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "pipeline/pipeline.h"

/* ------------------------------------------------------------------ roff */

/* Append text to b escaped for roff: backslashes, UTF-8 as \[uXXXX] (so
 * the page is plain ASCII whatever the reader's locale), and '-' as \- where
 * it starts an option ("--json", "-m"), so it can be copied. */
static void roff_text(struct sw_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned char c = *p;
		if (c == '\\') {
			sw_buf_adds(b, "\\e");
			p++;
		} else if (c == '-' && (p == (const unsigned char *)s || p[-1] == ' ' ||
					p[-1] == '-' || p[-1] == '[' || p[-1] == '(' ||
					p[-1] == '|' || p[-1] == '"' || p[-1] == '\'')) {
			sw_buf_adds(b, "\\-");
			p++;
		} else if (c < 0x80) {
			sw_buf_add(b, p, 1);
			p++;
		} else {
			/* A well-formed sequence becomes its code point; a stray
			 * byte becomes U+FFFD rather than invalid roff input. */
			unsigned cp = 0xfffd;
			size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
			bool ok = len > 1;
			for (size_t i = 1; ok && i < len; i++)
				ok = (p[i] & 0xc0) == 0x80;
			if (ok) {
				cp = c & (0x7f >> len);
				for (size_t i = 1; i < len; i++)
					cp = (cp << 6) | (p[i] & 0x3f);
			} else {
				len = 1;
			}
			sw_buf_addf(b, "\\[u%04X]", cp);
			p += len;
		}
	}
}

/* One line of running text: a line that would start with a control
 * character ('.' or '\'') is protected with \&. */
static void roff_line(struct sw_buf *b, const char *s)
{
	if (*s == '.' || *s == '\'')
		sw_buf_adds(b, "\\&");
	roff_text(b, s);
	sw_buf_adds(b, "\n");
}

/* The --help description as roff: a blank line starts a paragraph, lines
 * indented by spaces are examples shown as they are. */
static void roff_description(struct sw_buf *b, const char *desc)
{
	char *copy = sw_xstrdup(desc);
	bool literal = false;
	for (char *line = copy, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		bool indented = line[0] == ' ';
		if (indented != literal) {
			sw_buf_adds(b, indented ? ".PP\n.RS 4\n.nf\n" : ".fi\n.RE\n.PP\n");
			literal = indented;
		}
		if (!*line) {
			if (!literal)
				sw_buf_adds(b, ".PP\n");
			continue;
		}
		roff_line(b, indented ? line + strspn(line, " ") : line);
	}
	if (literal)
		sw_buf_adds(b, ".fi\n.RE\n");
	free(copy);
}

static void roff_option(struct sw_buf *b, const struct cli_opt *o)
{
	sw_buf_adds(b, ".TP\n");
	if (o->short_name)
		sw_buf_addf(b, "\\fB\\-%c\\fR", o->short_name);
	if (o->short_name && o->name)
		sw_buf_adds(b, ", ");
	if (o->name) {
		sw_buf_adds(b, "\\fB\\-\\-");
		roff_text(b, o->name);
		sw_buf_adds(b, "\\fR");
	}
	if (o->arg) {
		sw_buf_adds(b, " \\fI");
		roff_text(b, o->arg);
		sw_buf_adds(b, "\\fR");
	}
	sw_buf_adds(b, "\n");
	roff_line(b, o->help);
}

static void roff_header(struct sw_buf *b, const char *title)
{
	sw_buf_adds(b, ".\\\" generated from sworn's command table by tools/gen_man.c: do not edit\n");
	sw_buf_adds(b, ".TH ");
	for (const char *p = title; *p; p++) {
		if (*p == '-')
			sw_buf_adds(b, "\\-");
		else
			sw_buf_addf(b, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
	}
	sw_buf_adds(b, " 1 \"\" \"sworn " SW_VERSION "\" \"sworn manual\"\n.nh\n");
}

static const char exit_status[] =
	".SH EXIT STATUS\n"
	".TP\n0\nsuccess\n"
	".TP\n1\nthe command's \\(lqno\\(rq (the gate blocked the draft, nothing was found)\n"
	".TP\n2\na usage or input error; the error is one line on standard error:\n"
	"\\(lqsworn: what failed: why\\(rq\n";

/* A subcommand's section: its synopsis, summary and options. */
static void page_sub(struct sw_buf *b, const struct cli_command *c, const struct cli_subcommand *s)
{
	sw_buf_adds(b, ".SS ");
	roff_text(b, c->name);
	sw_buf_adds(b, " ");
	roff_text(b, s->name);
	sw_buf_adds(b, "\n.B sworn ");
	roff_text(b, c->name);
	sw_buf_adds(b, " ");
	roff_text(b, s->name);
	sw_buf_adds(b, "\n");
	if (*s->usage)
		roff_line(b, s->usage);
	sw_buf_adds(b, ".PP\n");
	roff_line(b, s->summary);
	for (size_t i = 0; i < s->nopts; i++)
		roff_option(b, &s->opts[i]);
}

static void page_command(struct sw_buf *b, const struct cli_command *c)
{
	char title[64];
	snprintf(title, sizeof(title), "sworn-%s", c->name);
	roff_header(b, title);
	sw_buf_adds(b, ".SH NAME\nsworn\\-");
	roff_text(b, c->name);
	sw_buf_adds(b, " \\- ");
	roff_text(b, c->summary);
	sw_buf_adds(b, "\n.SH SYNOPSIS\n");
	for (size_t i = 0; i < c->nsubs; i++) {
		sw_buf_adds(b, i ? ".br\n.B sworn " : ".B sworn ");
		roff_text(b, c->name);
		sw_buf_adds(b, " ");
		roff_text(b, c->subs[i]->name);
		sw_buf_adds(b, "\n");
		if (*c->subs[i]->usage)
			roff_line(b, c->subs[i]->usage);
	}
	if (!c->nsubs) {
		sw_buf_adds(b, ".B sworn ");
		roff_text(b, c->name);
		sw_buf_adds(b, "\n");
		roff_line(b, c->usage);
	}
	/* The summary is the NAME line; the description, when there is one,
	 * says the rest. */
	sw_buf_adds(b, ".SH DESCRIPTION\n");
	if (c->description)
		roff_description(b, c->description);
	else
		roff_line(b, c->summary);
	if (c->nsubs) {
		sw_buf_adds(b, ".SH SUBCOMMANDS\n");
		for (size_t i = 0; i < c->nsubs; i++)
			page_sub(b, c, c->subs[i]);
	}
	sw_buf_adds(b, ".SH OPTIONS\n");
	for (size_t i = 0; i < c->nopts; i++)
		roff_option(b, &c->opts[i]);
	roff_option(b, &(struct cli_opt){ .name = "help", .short_name = 'h', .help = "show this help" });
	sw_buf_adds(b, exit_status);
	sw_buf_adds(b, ".SH SEE ALSO\n.BR sworn (1)\n");
}

static void page_main(struct sw_buf *b)
{
	roff_header(b, "sworn");
	sw_buf_adds(b, ".SH NAME\nsworn \\- ");
	roff_text(b, cli_tagline);
	sw_buf_adds(b, "\n.SH SYNOPSIS\n.B sworn\n[\\fB\\-C\\fR \\fIDIR\\fR] \\fICOMMAND\\fR "
		    "[\\fIARGS\\fR...]\n.br\n.B sworn\n\\fB\\-\\-version\\fR | "
		    "\\fB\\-\\-help\\fR | \\fBhelp\\fR \\fICOMMAND\\fR\n"
		    ".SH DESCRIPTION\n");
	roff_line(b, cli_tagline);
	sw_buf_adds(b, "Commands find the workspace by walking up from the current folder, or from\n"
		    "\\fB\\-C\\fR \\fIDIR\\fR.\n"
		    "Every command has \\fB\\-\\-help\\fR and a page of its own, "
		    "\\fBsworn\\-\\fR\\fICOMMAND\\fR(1).\n"
		    ".SH COMMANDS\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		sw_buf_adds(b, ".TP\n.BR sworn\\-");
		roff_text(b, c->name);
		sw_buf_adds(b, " (1)\n");
		roff_line(b, c->summary);
	}
	sw_buf_adds(b, ".SH OPTIONS\n");
	for (size_t i = 0; i < cli_nglobal_opts; i++)
		roff_option(b, &cli_global_opts[i]);
	sw_buf_adds(b, exit_status);
	sw_buf_adds(b, ".SH ENVIRONMENT\n.TP\nNO_COLOR\nwhen set, output is never coloured\n"
		    ".SH SEE ALSO\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		sw_buf_adds(b, ".BR sworn\\-");
		roff_text(b, cli_commands[i]->name);
		sw_buf_adds(b, i + 1 < cli_ncommands ? " (1),\n" : " (1)\n");
	}
}

/* ------------------------------------------------------------ completion */

/* The options' spellings, space-separated ("-m --matter --json"), into b. */
static void bash_words(struct sw_buf *b, const struct cli_opt *opts, size_t n)
{
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = &opts[i];
		if (o->short_name) {
			sw_buf_addf(b, "%s-%c", first ? "" : " ", o->short_name);
			first = false;
		}
		if (o->name) {
			sw_buf_addf(b, "%s--%s", first ? "" : " ", o->name);
			first = false;
		}
	}
}

/* What completes the value of option o, as a case branch's body: its
 * words, its completer, files for a path, the matters for MATTER, else
 * nothing. */
static void bash_value(struct sw_buf *b, const struct cli_opt *o)
{
	if (o->values && o->values[0] == '@')
		sw_buf_addf(b, "_sworn_%s \"$cur\"; return ;;\n", o->values + 1);
	else if (o->values)
		sw_buf_addf(b, "COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n",
			    o->values);
	else if (cli_opt_takes_path(o))
		sw_buf_adds(b, "_sworn_files \"$cur\"; return ;;\n");
	else if (strcmp(o->arg, "MATTER") == 0)
		sw_buf_adds(b, "_sworn_matters \"$cur\"; return ;;\n");
	else
		sw_buf_adds(b, "return ;;\n");
}

/* The global options that take a word: a case branch each. */
static void bash_global_values(struct sw_buf *b, const char *indent)
{
	for (size_t i = 0; i < cli_nglobal_opts; i++) {
		const struct cli_opt *o = &cli_global_opts[i];
		if (!o->values || !o->name)
			continue;
		sw_buf_addf(b, "%s--%s) ", indent, o->name);
		bash_value(b, o);
	}
}

/* A case pattern matching the option's spellings: "-m|--matter". */
static void bash_pattern(struct sw_buf *b, const struct cli_opt *o)
{
	if (o->short_name)
		sw_buf_addf(b, "-%c", o->short_name);
	if (o->short_name && o->name)
		sw_buf_adds(b, "|");
	if (o->name)
		sw_buf_addf(b, "--%s", o->name);
}

/* The body of a case branch that sets opts for one options table, and
 * completes the value after an option that takes one. */
static void bash_opts(struct sw_buf *b, const char *indent, const struct cli_opt *opts, size_t n,
		      int max_pos)
{
	bool any_value = false;
	for (size_t i = 0; i < n; i++)
		if (opts[i].arg)
			any_value = true;
	if (any_value) {
		sw_buf_addf(b, "%scase $prev in\n", indent);
		for (size_t i = 0; i < n; i++) {
			const struct cli_opt *o = &opts[i];
			if (!o->arg)
				continue;
			sw_buf_adds(b, indent);
			bash_pattern(b, o);
			sw_buf_adds(b, ") ");
			bash_value(b, o);
		}
		sw_buf_addf(b, "%sesac\n", indent);
	}
	sw_buf_addf(b, "%sopts='", indent);
	bash_words(b, opts, n);
	sw_buf_adds(b, n ? " -h --help'\n" : "-h --help'\n");
	if (max_pos == 0)
		sw_buf_addf(b, "%sfiles=0\n", indent);
}

/* Whether row i of subcommand s's table (s == nsubs: the command's) has
 * the name of a row of an earlier subcommand's. */
static bool seen_before(const struct cli_command *c, size_t s, size_t i)
{
	const char *name = (s < c->nsubs ? c->subs[s]->opts : c->opts)[i].name;
	for (size_t t = 0; t < s && t < c->nsubs; t++)
		for (size_t k = 0; k < c->subs[t]->nopts; k++)
			if (strcmp(c->subs[t]->opts[k].name, name) == 0)
				return true;
	return false;
}

/* The spellings of the options that take a value, of the command, of any
 * of its subcommands or global: the word after one is not the
 * subcommand. */
static void bash_vals(struct sw_buf *b, const struct cli_command *c)
{
	bool first = true;
	for (size_t s = 0; s <= c->nsubs; s++) {
		const struct cli_opt *opts = s < c->nsubs ? c->subs[s]->opts : c->opts;
		size_t n = s < c->nsubs ? c->subs[s]->nopts : c->nopts;
		for (size_t i = 0; i < n; i++) {
			if (!opts[i].arg || seen_before(c, s, i))
				continue;
			if (opts[i].short_name)
				sw_buf_addf(b, "%s-%c", first ? "" : " ", opts[i].short_name);
			sw_buf_addf(b, "%s--%s", first && !opts[i].short_name ? "" : " ",
				    opts[i].name);
			first = false;
		}
	}
	for (size_t i = 0; i < cli_nglobal_opts; i++)
		if (cli_global_opts[i].arg && cli_global_opts[i].name) {
			sw_buf_addf(b, "%s--%s", first ? "" : " ", cli_global_opts[i].name);
			first = false;
		}
}

/* First pass: the subcommands and the options with a value of command c. */
static void bash_command_words(struct sw_buf *b, const struct cli_command *c)
{
	sw_buf_addf(b, "\t%s) vals='", c->name);
	bash_vals(b, c);
	sw_buf_adds(b, "'");
	if (c->nsubs) {
		sw_buf_adds(b, " subs='");
		for (size_t i = 0; i < c->nsubs; i++)
			sw_buf_addf(b, "%s%s", i ? " " : "", c->subs[i]->name);
		sw_buf_adds(b, "'");
	}
	if (strcmp(c->name, "help") == 0)
		sw_buf_adds(b, " subs=$_sworn_commands");
	sw_buf_adds(b, " ;;\n");
}

/* Second pass: the options of command c, or of its subcommand $sub. */
/* sworn help COMMAND <TAB>: the command's subcommands, then nothing. */
static void bash_help_subs(struct sw_buf *b)
{
	sw_buf_adds(b, "\t\tfiles=0\n\t\t[ $typed -eq 1 ] && case $sub in\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		if (!c->nsubs)
			continue;
		sw_buf_addf(b, "\t\t%s) typed=0 subs='", c->name);
		for (size_t k = 0; k < c->nsubs; k++)
			sw_buf_addf(b, "%s%s", k ? " " : "", c->subs[k]->name);
		sw_buf_adds(b, "' ;;\n");
	}
	sw_buf_adds(b, "\t\tesac\n");
}

static void bash_command(struct sw_buf *b, const struct cli_command *c)
{
	sw_buf_addf(b, "\t%s)\n", c->name);
	if (!c->nsubs) {
		bash_opts(b, "\t\t", c->opts, c->nopts, c->max_pos);
		if (strcmp(c->name, "help") == 0)
			bash_help_subs(b);
		sw_buf_adds(b, "\t\t;;\n");
		return;
	}
	sw_buf_adds(b, "\t\tcase $sub in\n");
	for (size_t i = 0; i < c->nsubs; i++) {
		const struct cli_subcommand *s = c->subs[i];
		sw_buf_addf(b, "\t\t%s)\n", s->name);
		bash_opts(b, "\t\t\t", s->opts, s->nopts, s->max_pos);
		sw_buf_adds(b, "\t\t\t;;\n");
	}
	/* No subcommand yet (or not one of them): its name, or --help. */
	sw_buf_adds(b, "\t\t*) opts='-h --help' ;;\n\t\tesac\n\t\t;;\n");
}

/* The built-in tasks' names, space-separated. */
static void bash_tasks(struct sw_buf *b)
{
	struct sw_task_info *t = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	if (sw_task_list(&t, &n, NULL, &err) != 0)
		sw_die("gen_man: cannot list the built-in tasks: %s", err.msg);
	for (size_t i = 0; i < n; i++)
		sw_buf_addf(b, "%s%s", i ? " " : "", t[i].name);
	sw_task_info_free(t, n);
}

static void bash_script(struct sw_buf *b)
{
	sw_buf_adds(b, "# bash completion for sworn: generated from its command table by\n"
		    "# tools/gen_man.c; do not edit.  Load it with: . sworn.bash\n\n"
		    "_sworn_commands='");
	for (size_t i = 0; i < cli_ncommands; i++)
		sw_buf_addf(b, "%s%s", i ? " " : "", cli_commands[i]->name);
	sw_buf_adds(b, "'\n\n"
		"_sworn_files()\n{\n"
		"\tcompopt -o filenames 2>/dev/null\n"
		"\tlocal IFS=$'\\n'\n"
		"\tCOMPREPLY=($(compgen -f -- \"$1\"))\n}\n\n"
		"_sworn_dirs()\n{\n"
		"\tcompopt -o filenames 2>/dev/null\n"
		"\tlocal IFS=$'\\n'\n"
		"\tCOMPREPLY=($(compgen -d -- \"$1\"))\n}\n\n"
		"# The matters of the workspace found by walking up from the current\n"
		"# folder (or -C DIR), as sworn finds it: the folder with sworn.conf.\n"
		"_sworn_matters()\n{\n"
		"\tlocal d=${_sworn_dir:-.}\n"
		"\td=$(cd \"$d\" 2>/dev/null && pwd) || return\n"
		"\twhile [ -n \"$d\" ] && [ ! -f \"$d/sworn.conf\" ]; do d=${d%/*}; done\n"
		"\t[ -d \"$d/matters\" ] || return\n"
		"\tlocal m names=\n"
		"\tfor m in \"$d\"/matters/*/; do\n"
		"\t\t[ -d \"$m\" ] || continue\n"
		"\t\tm=${m%/}; names=\"$names ${m##*/}\"\n"
		"\tdone\n"
		"\tCOMPREPLY=($(compgen -W \"$names\" -- \"$1\"))\n}\n\n"
		"# The built-in tasks and the workspace's own (tasks/NAME/).\n"
		"_sworn_tasks()\n{\n"
		"\tlocal names='");
	bash_tasks(b);
	sw_buf_adds(b, "' d=${_sworn_dir:-.} t\n"
		"\td=$(cd \"$d\" 2>/dev/null && pwd) || d=\n"
		"\twhile [ -n \"$d\" ] && [ ! -f \"$d/sworn.conf\" ]; do d=${d%/*}; done\n"
		"\tif [ -n \"$d\" ] && [ -d \"$d/tasks\" ]; then\n"
		"\t\tfor t in \"$d\"/tasks/*/; do\n"
		"\t\t\t[ -d \"$t\" ] || continue\n"
		"\t\t\tt=${t%/}; names=\"$names ${t##*/}\"\n"
		"\t\tdone\n"
		"\tfi\n"
		"\tCOMPREPLY=($(compgen -W \"$names\" -- \"$1\"))\n}\n\n"
		"_sworn()\n{\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
		"\tlocal i=1 cmd= _sworn_dir=.\n"
		"\tCOMPREPLY=()\n"
		"\t# --opt=value: bash splits the '=' off as a word of its own.\n"
		"\tif [ \"$cur\" = = ]; then\n"
		"\t\tcur=\n"
		"\telif [ \"$prev\" = = ] && [ $COMP_CWORD -ge 2 ]; then\n"
		"\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
		"\tfi\n"
		"\t# The command is the first word that is not a global option.\n"
		"\twhile [ $i -lt $COMP_CWORD ]; do\n"
		"\t\tcase ${COMP_WORDS[i]} in\n"
		"\t\t-C) _sworn_dir=${COMP_WORDS[i+1]}; i=$((i + 2)); continue ;;\n"
		"\t\t-C*) _sworn_dir=${COMP_WORDS[i]#-C}; i=$((i + 1)); continue ;;\n");
	/* A global option's value is not the command. */
	for (size_t i = 0; i < cli_nglobal_opts; i++)
		if (cli_global_opts[i].arg && cli_global_opts[i].name)
			sw_buf_addf(b, "\t\t--%s) [ \"${COMP_WORDS[i+1]}\" = = ] && i=$((i + 1)); "
				    "i=$((i + 2)); continue ;;\n", cli_global_opts[i].name);
	sw_buf_adds(b, "\t\t-*) i=$((i + 1)); continue ;;\n"
		"\t\tesac\n"
		"\t\tcmd=${COMP_WORDS[i]}\n"
		"\t\tbreak\n"
		"\tdone\n"
		"\t# A global option's value, before or after the command.\n"
		"\tcase $prev in\n");
	bash_global_values(b, "\t");
	sw_buf_adds(b, "\tesac\n"
		"\tif [ -z \"$cmd\" ]; then\n"
		"\t\tcase $prev in -C) _sworn_dirs \"$cur\"; return ;; esac\n"
		"\t\tcase $cur in\n"
		"\t\t-*) COMPREPLY=($(compgen -W '");
	bash_words(b, cli_global_opts, cli_nglobal_opts);
	sw_buf_adds(b, "' -- \"$cur\")) ;;\n"
		"\t\t*) COMPREPLY=($(compgen -W \"$_sworn_commands\" -- \"$cur\")) ;;\n"
		"\t\tesac\n"
		"\t\treturn\n"
		"\tfi\n"
		"\tlocal opts= subs= vals= sub= files=1\n"
		"\tcase $cmd in\n");
	for (size_t i = 0; i < cli_ncommands; i++)
		bash_command_words(b, cli_commands[i]);
	sw_buf_adds(b, "\t*) return ;;\n"
		"\tesac\n"
		"\t# The first word after the command that is neither an option nor\n"
		"\t# an option's value (--opt=value is three words) is the subcommand.\n"
		"\tlocal k=$((i + 1)) w typed=0\n"
		"\twhile [ $k -lt $COMP_CWORD ]; do\n"
		"\t\tw=${COMP_WORDS[k]}\n"
		"\t\tcase $w in\n"
		"\t\t-*)\n"
		"\t\t\tcase \" $vals \" in *\" $w \"*)\n"
		"\t\t\t\tk=$((k + 1))\n"
		"\t\t\t\t[ \"${COMP_WORDS[k]}\" = = ] && k=$((k + 1)) ;;\n"
		"\t\t\tesac ;;\n"
		"\t\t*) [ $typed -eq 0 ] && sub=$w; typed=$((typed + 1)) ;;\n"
		"\t\tesac\n"
		"\t\tk=$((k + 1))\n"
		"\tdone\n"
		"\tcase $cmd in\n");
	for (size_t i = 0; i < cli_ncommands; i++)
		bash_command(b, cli_commands[i]);
	sw_buf_adds(b, "\t*) return ;;\n"
		"\tesac\n"
		"\tif [[ $cur == -* ]]; then\n"
		"\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
		"\telif [ -n \"$subs\" ] && [ $typed -eq 0 ]; then\n"
		"\t\tCOMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
		"\telif [ $files -eq 1 ]; then\n"
		"\t\t_sworn_files \"$cur\"\n"
		"\tfi\n"
		"}\n\n"
		"complete -F _sworn sworn\n");
}

/* ---------------------------------------------------------------- output */

/* Write text to dir/name unless the file already holds exactly that, so
 * that the build does not redo what depends on an unchanged page. */
static int write_file(const char *dir, const char *name, const struct sw_buf *b,
		      struct sw_err *err)
{
	char *path = sw_path_join(dir, name);
	struct sw_buf old = SW_BUF_INIT;
	int rc = 0;
	if (sw_path_is_file(path) && sw_file_read(&old, path, 16u << 20, NULL) == 0 &&
	    old.len == b->len && memcmp(old.data, b->data, b->len) == 0)
		goto cleanup;
	FILE *f = fopen(path, "w");
	if (!f) {
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	bool ok = fwrite(b->data, 1, b->len, f) == b->len;
	if (fclose(f) != 0 || !ok)
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", path, strerror(errno));
cleanup:
	sw_buf_release(&old);
	free(path);
	return rc;
}

int main(int argc, char **argv)
{
	struct sw_err err = { 0 };
	struct sw_buf b = SW_BUF_INIT;
	int rc = 0;

	if (argc != 2) {
		fputs("usage: gen_man OUTDIR\n", stderr);
		return 2;
	}
	if (sw_mkdir_p(argv[1], 0755, &err) != 0) {
		fprintf(stderr, "gen_man: %s\n", err.msg);
		return 2;
	}
	page_main(&b);
	rc = write_file(argv[1], "sworn.1", &b, &err);
	for (size_t i = 0; rc == 0 && i < cli_ncommands; i++) {
		char name[64];
		snprintf(name, sizeof(name), "sworn-%s.1", cli_commands[i]->name);
		sw_buf_reset(&b);
		page_command(&b, cli_commands[i]);
		rc = write_file(argv[1], name, &b, &err);
	}
	if (rc == 0) {
		sw_buf_reset(&b);
		bash_script(&b);
		rc = write_file(argv[1], "sworn.bash", &b, &err);
	}
	sw_buf_release(&b);
	if (rc) {
		fprintf(stderr, "gen_man: %s\n", err.msg);
		return 2;
	}
	return 0;
}
