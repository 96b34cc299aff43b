/* The command table is the CLI's documentation: every command and option
 * must carry help text, names must be unique, and --help must show them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"

/* One options table: help text on every row, each row bound to a field
 * of its struct by its type, no two rows with one name. */
static void check_opts(const char *what, const struct cli_opt *opts, size_t n, size_t size)
{
	assert_true(n <= CLI_MAX_OPTS);
	if (n)
		assert_true(size > 0);
	for (size_t o = 0; o < n; o++) {
		const struct cli_opt *opt = &opts[o];
		assert_non_null(opt->name);
		if (!opt->help || strlen(opt->help) < 5)
			fail_msg("sworn %s --%s has no help text", what, opt->name);
		assert_true(strcmp(opt->name, "help") != 0 && opt->short_name != 'h');
		if (opt->type == CLI_UNTYPED)
			fail_msg("sworn %s --%s is bound to no field", what, opt->name);
		assert_true((opt->type == CLI_FLAG) == (opt->arg == NULL));
		assert_true(opt->offset < size);
		if (opt->type == CLI_INT || opt->type == CLI_DOUBLE)
			assert_true(opt->min <= opt->max);
		for (size_t p = o + 1; p < n; p++) {
			if (!strcmp(opt->name, opts[p].name))
				fail_msg("sworn %s has two options --%s", what, opt->name);
			if (opt->short_name && opt->short_name == opts[p].short_name)
				fail_msg("sworn %s has two options -%c", what, opt->short_name);
		}
	}
}

/* An option of subcommand s that subcommand t also has takes a value in
 * both or in neither, with the same short name. */
static void check_same(const struct cli_command *c, const struct cli_subcommand *s,
		       const struct cli_subcommand *t, const struct cli_opt *o)
{
	for (size_t k = 0; k < t->nopts; k++) {
		const struct cli_opt *p = &t->opts[k];
		if (strcmp(o->name, p->name) == 0 &&
		    (!o->arg != !p->arg || o->short_name != p->short_name))
			fail_msg("sworn %s %s --%s differs in 'sworn %s %s'", c->name, s->name,
				 o->name, c->name, t->name);
	}
}

/* A command with subcommands has none of its own options, usage or run;
 * each subcommand is documented, typed and named once; an option that
 * several subcommands take takes a value in all or in none, so that the
 * word after it, before the subcommand, is read the same (cli_sub_index). */
static void check_subs(const struct cli_command *c)
{
	char what[64];
	assert_null(c->usage);
	assert_null(c->run);
	assert_int_equal(c->nopts, 0);
	assert_true(c->nsubs >= 1);
	for (size_t i = 0; i < c->nsubs; i++) {
		const struct cli_subcommand *s = c->subs[i];
		snprintf(what, sizeof(what), "%s %s", c->name, s->name);
		assert_non_null(s->name);
		assert_non_null(s->usage);
		assert_non_null(s->run);
		if (!s->summary || strlen(s->summary) < 10)
			fail_msg("sworn %s has no summary", what);
		assert_ptr_equal(cli_find_sub(c, s->name), s);
		assert_true(s->max_pos < 0 || s->max_pos >= s->min_pos);
		check_opts(what, s->opts, s->nopts, s->opts_size);
		for (size_t k = i + 1; k < c->nsubs; k++) {
			const struct cli_subcommand *t = c->subs[k];
			assert_string_not_equal(s->name, t->name);
			for (size_t a = 0; a < s->nopts; a++)
				check_same(c, s, t, &s->opts[a]);
		}
	}
}

static void test_every_command_documented(void **state)
{
	(void)state;
	assert_true(cli_ncommands >= 5);
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		assert_non_null(c->name);
		assert_non_null(c->summary);
		assert_true(strlen(c->summary) > 10);
		assert_ptr_equal(cli_find(c->name), c);
		for (size_t k = i + 1; k < cli_ncommands; k++)
			assert_string_not_equal(c->name, cli_commands[k]->name);
		if (c->nsubs) {
			check_subs(c);
			continue;
		}
		assert_non_null(c->run);
		assert_non_null(c->usage);
		check_opts(c->name, c->opts, c->nopts, c->opts_size);
	}
}

/* An option whose values completion offers takes a value, and its help
 * names each of them, so that what --help says and what the shell offers
 * agree; "@NAME" names a completer the script defines. */
static void check_values(const char *cmd, const struct cli_opt *o)
{
	if (!o->values)
		return;
	if (!o->arg)
		fail_msg("sworn %s --%s offers values but takes none", cmd, o->name);
	if (o->values[0] == '@') {
		if (strcmp(o->values, "@tasks") != 0)
			fail_msg("sworn %s --%s: no completer %s", cmd, o->name, o->values);
		return;
	}
	char *words = sw_xstrdup(o->values);
	for (char *w = words, *end; *w; w = end) {
		end = w + strcspn(w, " ");
		bool last = *end == '\0';
		*end = '\0';
		if (!strstr(o->help, w))
			fail_msg("sworn %s --%s offers '%s', which its help does not name", cmd,
				 o->name, w);
		end = last ? end : end + 1;
	}
	free(words);
}

static void test_values_are_named(void **state)
{
	(void)state;
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		for (size_t o = 0; o < c->nopts; o++)
			check_values(c->name, &c->opts[o]);
		for (size_t k = 0; k < c->nsubs; k++)
			for (size_t o = 0; o < c->subs[k]->nopts; o++)
				check_values(c->subs[k]->name, &c->subs[k]->opts[o]);
	}
	for (size_t o = 0; o < cli_nglobal_opts; o++)
		check_values("(global)", &cli_global_opts[o]);
}

/* What print(f) writes, NUL-terminated; the caller frees it. */
static char *help_text(const struct cli_command *c, const struct cli_subcommand *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	if (s)
		cli_print_sub_help(f, c, s);
	else
		cli_print_help(f, c);
	fclose(f);
	return text;
}

static void check_help_opts(const char *what, const char *text, const struct cli_opt *opts,
			    size_t n)
{
	for (size_t o = 0; o < n; o++) {
		char flag[64];
		snprintf(flag, sizeof(flag), "--%s", opts[o].name);
		if (!strstr(text, flag) || !strstr(text, opts[o].help))
			fail_msg("sworn %s --help does not show %s", what, flag);
	}
	assert_non_null(strstr(text, "-h, --help"));
}

/* sworn CMD --help shows its usage and options, or each subcommand's
 * usage and summary; sworn CMD SUB --help shows the subcommand's usage
 * and every option it takes. */
static void test_help_lists_every_option(void **state)
{
	(void)state;
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		char *text = help_text(c, NULL);
		if (!c->nsubs) {
			assert_non_null(strstr(text, c->usage));
			check_help_opts(c->name, text, c->opts, c->nopts);
		}
		for (size_t k = 0; k < c->nsubs; k++) {
			const struct cli_subcommand *s = c->subs[k];
			char line[512], what[64];
			snprintf(line, sizeof(line), "sworn %s %s %s", c->name, s->name, s->usage);
			snprintf(what, sizeof(what), "%s %s", c->name, s->name);
			if (!strstr(text, *s->usage ? line : what) || !strstr(text, s->summary))
				fail_msg("sworn %s --help does not show '%s'", c->name, line);
			char *sub = help_text(c, s);
			if (!strstr(sub, *s->usage ? line : what))
				fail_msg("sworn %s --help shows no usage", what);
			check_help_opts(what, sub, s->opts, s->nopts);
			free(sub);
		}
		free(text);
	}
}

/* argv arrays are writable in C; string literals are not (-Wwrite-strings). */
static char **argv_of(size_t n, const char *const *v)
{
	char **out = sw_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		out[i] = sw_xstrdup(v[i]);
	return out;
}

static void argv_free(char **v)
{
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* The index of option name in c's table (the test fails when absent). */
static int opt_idx(const struct cli_command *c, const char *name)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (!strcmp(c->opts[i].name, name))
			return (int)i;
	fail_msg("%s has no option --%s", c->name, name);
	return 0;
}

#define ARGV(name, ...) \
	static const char *const name##_src[] = { __VA_ARGS__ }; \
	char **name = argv_of(SW_ARRAY_LEN(name##_src), name##_src)

static void test_parse(void **state)
{
	(void)state;
	const struct cli_command *c = cli_find("ingest");
	struct cli_args a;
	struct sw_err err = { 0 };
	ARGV(argv, "-m", "acme", "--labels=l.csv", "-v", "x", "--", "-y");
	assert_int_equal(cli_parse(&a, c, 7, argv, &err), 0);
	/* the raw values by option index, beside the typed struct */
	assert_string_equal(a.value[opt_idx(c, "matter")], "acme");
	assert_string_equal(a.value[opt_idx(c, "labels")], "l.csv");
	assert_true(a.set[opt_idx(c, "verbose")]);
	assert_false(a.set[opt_idx(c, "json")]);
	assert_non_null(a.opts);
	assert_int_equal(a.npos, 2);
	assert_string_equal(a.pos[0], "x");
	assert_string_equal(a.pos[1], "-y");
	cli_args_release(&a);

	ARGV(bad, "--nope");
	assert_int_equal(cli_parse(&a, c, 1, bad, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "--nope"));
	cli_args_release(&a);
	ARGV(missing, "-m");
	assert_int_equal(cli_parse(&a, c, 1, missing, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "needs a value"));
	cli_args_release(&a);
	ARGV(flagval, "--json=yes");
	assert_int_equal(cli_parse(&a, c, 1, flagval, &err), SW_EUSAGE);
	cli_args_release(&a);
	ARGV(glued, "-macme");
	assert_int_equal(cli_parse(&a, c, 1, glued, &err), 0);
	assert_string_equal(a.value[opt_idx(c, "matter")], "acme");
	cli_args_release(&a);
	argv_free(argv);
	argv_free(bad);
	argv_free(missing);
	argv_free(flagval);
	argv_free(glued);
}

/* Typed options: values land in the command's struct, numbers are checked
 * against the table's bounds before the command runs. */
static void test_typed(void **state)
{
	(void)state;
	const struct cli_command *c = cli_find("search");
	struct cli_args a;
	struct sw_err err = { 0 };
	ARGV(ok, "-m", "acme", "-n", "7", "--json", "late");
	assert_int_equal(cli_parse(&a, c, 6, ok, &err), 0);
	/* by the table, not by guessing the struct's layout */
	for (size_t i = 0; i < c->nopts; i++) {
		const char *at = (const char *)a.opts + c->opts[i].offset;
		if (!strcmp(c->opts[i].name, "matter")) {
			const char *v;
			memcpy(&v, at, sizeof(v));
			assert_string_equal(v, "acme");
		} else if (!strcmp(c->opts[i].name, "limit")) {
			long long v;
			memcpy(&v, at, sizeof(v));
			assert_int_equal(v, 7);
		} else if (!strcmp(c->opts[i].name, "json") || !strcmp(c->opts[i].name, "fts")) {
			bool v;
			memcpy(&v, at, sizeof(v));
			assert_true(v == !strcmp(c->opts[i].name, "json"));
		}
	}
	cli_args_release(&a);

	static const char *const bad_limits[] = { "0", "100001", "x", "+5", "5 ", "-1", "" };
	for (size_t i = 0; i < SW_ARRAY_LEN(bad_limits); i++) {
		const char *src[] = { "-n", bad_limits[i], "q" };
		char **bad = argv_of(3, src);
		assert_int_equal(cli_parse(&a, c, 3, bad, &err), SW_EUSAGE);
		assert_non_null(strstr(err.msg, "bad --limit"));
		assert_non_null(strstr(err.msg, "from 1 to 100000"));
		assert_null(strchr(err.msg, '\n'));
		cli_args_release(&a);
		argv_free(bad);
	}

	/* a double with its bounds, and a default that is not zero */
	const struct cli_command *ask = cli_find("ask");
	ARGV(t, "ROLE", "hi");
	assert_int_equal(cli_parse(&a, ask, 2, t, &err), 0);
	for (size_t i = 0; i < ask->nopts; i++)
		if (!strcmp(ask->opts[i].name, "temperature")) {
			double v;
			memcpy(&v, (const char *)a.opts + ask->opts[i].offset, sizeof(v));
			assert_true(v < 0);
		}
	cli_args_release(&a);
	ARGV(hot, "-t", "5.5", "ROLE", "hi");
	assert_int_equal(cli_parse(&a, ask, 4, hot, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "bad --temperature '5.5'"));
	cli_args_release(&a);

	/* a path may not be empty */
	const struct cli_command *v = cli_find("verify");
	ARGV(nopath, "--html=", "d.md");
	assert_int_equal(cli_parse(&a, v, 2, nopath, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "--html"));
	cli_args_release(&a);
	argv_free(ok);
	argv_free(t);
	argv_free(hot);
	argv_free(nopath);
}

/* A subcommand: found before or after options, parsed by its own table
 * into its own struct, its name not among the arguments; an option it
 * does not take refused with one line that lists the ones it does. */
static void test_subcommands(void **state)
{
	(void)state;
	const struct cli_command *c = cli_find("run");
	struct cli_args a;
	struct sw_err err = { 0 };
	assert_non_null(c);
	assert_non_null(cli_find_sub(c, "show"));
	assert_null(cli_find_sub(c, "nope"));

	ARGV(ok, "-m", "acme", "show", "7", "--draft");
	assert_int_equal(cli_sub_index(c, 5, ok), 2);
	assert_int_equal(cli_parse(&a, c, 5, ok, &err), 0);
	assert_ptr_equal(a.sub, cli_find_sub(c, "show"));
	assert_int_equal(a.npos, 1);
	assert_string_equal(a.pos[0], "7");
	for (size_t i = 0; i < a.sub->nopts; i++) {
		const char *at = (const char *)a.opts + a.sub->opts[i].offset;
		if (!strcmp(a.sub->opts[i].name, "draft")) {
			bool v;
			memcpy(&v, at, sizeof(v));
			assert_true(v);
		} else if (!strcmp(a.sub->opts[i].name, "matter")) {
			const char *v;
			memcpy(&v, at, sizeof(v));
			assert_string_equal(v, "acme");
		}
	}
	cli_args_release(&a);

	ARGV(other, "approve", "7", "--draft");
	assert_int_equal(cli_parse(&a, c, 3, other, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "unknown option '--draft' for 'sworn run approve'"));
	assert_non_null(strstr(err.msg, "--final"));
	assert_non_null(strstr(err.msg, "--draft belongs to show"));
	assert_null(strchr(err.msg, '\n'));
	cli_args_release(&a);

	ARGV(none, "-m", "acme");
	assert_int_equal(cli_sub_index(c, 2, none), -1);
	assert_int_equal(cli_parse(&a, c, 2, none, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "needs a subcommand"));
	cli_args_release(&a);

	ARGV(bad, "frob");
	assert_int_equal(cli_parse(&a, c, 1, bad, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "'frob' is not a subcommand of 'sworn run'"));
	cli_args_release(&a);

	/* a value that looks like a subcommand is the option's */
	ARGV(val, "--by", "list", "stats");
	assert_int_equal(cli_sub_index(c, 3, val), 2);
	assert_int_equal(cli_parse(&a, c, 3, val, &err), 0);
	assert_string_equal(a.sub->name, "stats");
	cli_args_release(&a);

	ARGV(count, "waive", "7");
	assert_int_equal(cli_parse(&a, c, 2, count, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "too few arguments: usage: sworn run waive"));
	cli_args_release(&a);

	/* a command with none: --json refused as printing none */
	ARGV(nojson, "--json");
	assert_int_equal(cli_parse(&a, cli_find("init"), 1, nojson, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "'sworn init' prints no JSON"));
	cli_args_release(&a);
	argv_free(ok);
	argv_free(other);
	argv_free(none);
	argv_free(bad);
	argv_free(val);
	argv_free(count);
	argv_free(nojson);
}

static void test_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(cli_exit_code(0), 0);
	/* Not there (a file, a matter, the workspace) is an input error; a
	 * policy refusal is the command's "no". */
	assert_int_equal(cli_exit_code(SW_ENOTFOUND), 2);
	assert_int_equal(cli_exit_code(SW_EPOLICY), 1);
	assert_int_equal(cli_exit_code(SW_EUSAGE), 2);
	assert_int_equal(cli_exit_code(SW_EINPUT), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_command_documented),
		cmocka_unit_test(test_help_lists_every_option),
		cmocka_unit_test(test_values_are_named),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_typed),
		cmocka_unit_test(test_subcommands),
		cmocka_unit_test(test_exit_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
