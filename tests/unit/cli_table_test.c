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

static void test_every_command_documented(void **state)
{
	(void)state;
	assert_true(cli_ncommands >= 5);
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		assert_non_null(c->name);
		assert_non_null(c->run);
		assert_non_null(c->usage);
		assert_non_null(c->summary);
		assert_true(strlen(c->summary) > 10);
		assert_ptr_equal(cli_find(c->name), c);
		for (size_t k = i + 1; k < cli_ncommands; k++)
			assert_string_not_equal(c->name, cli_commands[k]->name);
		assert_true(c->nopts <= CLI_MAX_OPTS);
		for (size_t o = 0; o < c->nopts; o++) {
			const struct cli_opt *opt = &c->opts[o];
			if (!opt->help || strlen(opt->help) < 5)
				fail_msg("sworn %s --%s has no help text", c->name, opt->name);
			assert_true(strcmp(opt->name, "help") != 0);
			for (size_t p = o + 1; p < c->nopts; p++) {
				assert_string_not_equal(opt->name, c->opts[p].name);
				if (opt->short_name)
					assert_int_not_equal(opt->short_name, c->opts[p].short_name);
			}
		}
	}
}

static void test_help_lists_every_option(void **state)
{
	(void)state;
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = cli_commands[i];
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		assert_non_null(f);
		cli_print_help(f, c);
		fclose(f);
		assert_non_null(strstr(text, c->usage));
		for (size_t o = 0; o < c->nopts; o++) {
			char flag[64];
			snprintf(flag, sizeof(flag), "--%s", c->opts[o].name);
			if (!strstr(text, flag) || !strstr(text, c->opts[o].help))
				fail_msg("sworn %s --help does not show %s", c->name, flag);
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
	assert_string_equal(cli_value(c, &a, "matter"), "acme");
	assert_string_equal(cli_value(c, &a, "labels"), "l.csv");
	assert_true(cli_flag(c, &a, "verbose"));
	assert_false(cli_flag(c, &a, "json"));
	assert_int_equal(a.npos, 2);
	assert_string_equal(a.pos[0], "x");
	assert_string_equal(a.pos[1], "-y");
	free(a.pos);

	ARGV(bad, "--nope");
	assert_int_equal(cli_parse(&a, c, 1, bad, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "--nope"));
	free(a.pos);
	ARGV(missing, "-m");
	assert_int_equal(cli_parse(&a, c, 1, missing, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "needs a value"));
	free(a.pos);
	ARGV(flagval, "--json=yes");
	assert_int_equal(cli_parse(&a, c, 1, flagval, &err), SW_EUSAGE);
	free(a.pos);
	ARGV(glued, "-macme");
	assert_int_equal(cli_parse(&a, c, 1, glued, &err), 0);
	assert_string_equal(cli_value(c, &a, "matter"), "acme");
	free(a.pos);
	argv_free(argv);
	argv_free(bad);
	argv_free(missing);
	argv_free(flagval);
	argv_free(glued);
}

static void test_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(cli_exit_code(0), 0);
	assert_int_equal(cli_exit_code(SW_ENOTFOUND), 1);
	assert_int_equal(cli_exit_code(SW_EUSAGE), 2);
	assert_int_equal(cli_exit_code(SW_EINPUT), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_command_documented),
		cmocka_unit_test(test_help_lists_every_option),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_exit_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
