/* fleet_remote_test.c - a command sent to another host through its exec:
 * quoted for the remote shell when the exec is ssh, passed as it is
 * otherwise; host names and addresses held to what they can be. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fleet/fleet.h"

static char *joined(char **v, size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	for (size_t i = 0; i < n; i++)
		sw_buf_addf(&b, "%s%s", i ? "|" : "", v[i]);
	return sw_buf_detach(&b, NULL);
}

static void check(const char *exec, const char *want)
{
	static const char *const cmd[] = { "sworn", "-C", "/srv/office files/it's $(x)", "fleet",
					   "status", NULL };
	char **v = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	assert_int_equal(sw_fleet_exec_argv(&v, &n, exec, cmd, &err), 0);
	assert_null(v[n]);
	char *got = joined(v, n);
	if (strcmp(got, want) != 0)
		fail_msg("got  %s\nwant %s", got, want);
	free(got);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void test_exec(void **state)
{
	(void)state;
	check("ssh -o BatchMode=yes sworn@10.0.0.12",
	      "ssh|-o|BatchMode=yes|sworn@10.0.0.12|'sworn'|'-C'|"
	      "'/srv/office files/it'\\''s $(x)'|'fleet'|'status'");
	check("/usr/bin/autossh -M 0 box2",
	      "/usr/bin/autossh|-M|0|box2|'sworn'|'-C'|'/srv/office files/it'\\''s $(x)'|"
	      "'fleet'|'status'");
	/* Not a shell: the words arrive as they are. */
	check("ip netns exec box2 env", "ip|netns|exec|box2|env|sworn|-C|"
	      "/srv/office files/it's $(x)|fleet|status");
	char **v = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	static const char *const none[] = { NULL };
	assert_int_equal(sw_fleet_exec_argv(&v, &n, "  ", none, &err), SW_EINPUT);
	assert_int_equal(sw_fleet_exec_argv(&v, &n, "ssh 'box", none, &err), SW_EINPUT);
	assert_null(v);
}

static void test_names(void **state)
{
	(void)state;
	static const char *const good[] = { "box2", "gpu2.lan", "a", "x-1.y-2", "10.0.0.12" };
	static const char *const bad[] = { "", "box2$(touch X)", "box 2", "-box", "box-", ".box",
					   "box..lan", "box.", "b;c", "b`c`", "b/c", "b'c" };
	for (size_t i = 0; i < SW_ARRAY_LEN(good); i++)
		assert_true(sw_fleet_host_name_ok(good[i]));
	for (size_t i = 0; i < SW_ARRAY_LEN(bad); i++)
		if (sw_fleet_host_name_ok(bad[i]))
			fail_msg("'%s' taken for a host name", bad[i]);
	assert_true(sw_fleet_host_address_ok("fd00::2"));
	assert_true(sw_fleet_host_address_ok("10.0.0.12"));
	assert_false(sw_fleet_host_address_ok("10.0.0.12;id"));
	assert_false(sw_fleet_host_address_ok("$(id)"));
	struct sw_buf b = SW_BUF_INIT;
	sw_fleet_shell_quote(&b, "a'b");
	assert_string_equal(b.data, "'a'\\''b'");
	sw_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
