/*
 * fleet_access_test.c - the locks on the servers `sworn fleet up` starts:
 * which of them a build's --help offers, the access line fleet status
 * prints, the workspace's API key file, and the key a fleet endpoint gets
 * from the state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fleet/fleet.h"
#include "llm/llm.h"

#define TMPDIR_TAG "fleet-access"
#include "tmpdir.h"

/* --help lines as the build of node-llama-cpp 3.21.1 prints them. */
static const char help_new[] =
	"-fa,   --flash-attn [on|off|auto]       set Flash Attention use ('on', 'off', or 'auto')\n"
	"-fit,  --fit [on|off]                   whether to adjust unset arguments to fit\n"
	"--cors-origins ORIGINS                  comma-separated list of allowed origins for CORS\n"
	"--cors-credentials, --no-cors-credentials\n"
	"                                        whether to allow credentials for CORS\n"
	"--ui, --webui, --no-ui, --no-webui      whether to enable the Web UI (default: enabled)\n"
	"--api-key KEY                           API key to use for authentication\n"
	"--api-key-file FNAME                    path to file containing API keys\n";

/* An older build: a key file and --no-webui, no CORS flags. */
static const char help_old[] =
	"-fa,   --flash-attn FA                  enable Flash Attention\n"
	"--no-webui                              Disable the Web UI (default: enabled)\n"
	"--api-key-file FNAME                    path to file containing API keys (default: "
	"none)\n";

/* A build that offers none of them; "--api-key-filex" is not the flag. */
static const char help_bare[] =
	"-fa,   --flash-attn [on|off|auto]       set Flash Attention use\n"
	"--api-key-filex FNAME                   something else\n";

static void test_caps(void **state)
{
	(void)state;
	struct sw_fleet_server_caps c;
	struct sw_buf b = SW_BUF_INIT;

	sw_fleet_server_caps_parse(&c, "version: 1 (80fb11a)\n", help_new);
	assert_true(c.known);
	assert_true(c.api_key_file);
	assert_true(c.cors_origins);
	assert_true(c.no_cors_credentials);
	assert_string_equal(c.no_webui, "--no-webui");
	sw_fleet_server_caps_access(&b, &c);
	assert_string_equal(b.data,
			    "API key (fleet/api-key); browsers refused (--cors-origins none, "
			    "--no-cors-credentials); web UI off (--no-webui)");

	sw_fleet_server_caps_parse(&c, NULL, help_old);
	assert_true(c.api_key_file);
	assert_false(c.cors_origins);
	assert_false(c.no_cors_credentials);
	assert_string_equal(c.no_webui, "--no-webui");
	sw_fleet_server_caps_access(&b, &c);
	assert_string_equal(b.data,
			    "API key (fleet/api-key); this build has no --cors-origins: a web "
			    "page in a browser here may read its answers; web UI off (--no-webui)");

	sw_fleet_server_caps_parse(&c, NULL, help_bare);
	assert_true(c.known);
	assert_false(c.api_key_file);
	assert_string_equal(c.no_webui, "");
	sw_fleet_server_caps_access(&b, &c);
	assert_non_null(strstr(b.data,
			       "this build has no --api-key-file: anything that reaches its "
			       "port may use it"));
	assert_non_null(strstr(b.data, "this build has no --no-webui: its web chat is on"));

	/* Only --no-ui: that one is passed. */
	sw_fleet_server_caps_parse(&c, NULL,
				   "-fa, --flash-attn [on|off|auto] x\n--ui, --no-ui  web UI\n");
	assert_string_equal(c.no_webui, "--no-ui");

	sw_fleet_server_caps_parse(&c, NULL, NULL);
	assert_false(c.known);
	sw_fleet_server_caps_access(&b, &c);
	assert_non_null(strstr(b.data, "unknown"));
	sw_buf_release(&b);
}

static void test_key_file(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_buf k1 = SW_BUF_INIT, k2 = SW_BUF_INIT;
	struct stat st;
	char *path = NULL, *again = NULL;
	char *fleet = sw_path_join(dir, "fleet");

	assert_int_equal(sw_fleet_api_key_ensure(&path, fleet, &err), 0);
	assert_non_null(strstr(path, "/fleet/api-key"));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(sw_file_read(&k1, path, 4096, &err), 0);
	assert_int_equal(k1.len, 65);
	assert_int_equal(strspn(k1.data, "0123456789abcdef"), 64);

	/* Kept: a second call reads the same key. */
	assert_int_equal(sw_fleet_api_key_ensure(&again, fleet, &err), 0);
	assert_string_equal(again, path);
	assert_int_equal(sw_file_read(&k2, again, 4096, &err), 0);
	assert_string_equal(k1.data, k2.data);
	free(again);
	again = NULL;

	/* Readable by the group: refused, and left for the owner to remove. */
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(sw_fleet_api_key_ensure(&again, fleet, &err), SW_EINPUT);
	assert_null(again);
	assert_non_null(strstr(err.msg, "may be read by others (mode 640)"));
	assert_int_equal(unlink(path), 0);

	/* Not a file. */
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(sw_fleet_api_key_ensure(&again, fleet, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "is not a file"));
	assert_int_equal(rmdir(path), 0);

	sw_buf_release(&k1);
	sw_buf_release(&k2);
	free(path);
	free(fleet);
}

static void config(struct sw_llm_config *c, const char *text)
{
	struct sw_config cfg;
	struct sw_err err = { 0 };
	assert_int_equal(sw_config_parse(&cfg, text, strlen(text), "sworn.conf", &err), 0);
	assert_int_equal(sw_llm_config_load(c, &cfg, &err), 0);
	sw_config_release(&cfg);
}

static void test_merge_key(void **state)
{
	(void)state;
	struct sw_fleet_state st;
	struct sw_llm_config c;
	struct sw_err err = { 0 };
	static const char text[] =
		"{\"phase\": \"running\", \"supervisor_pid\": 0, \"access\": \"API key "
		"(fleet/api-key)\",\n"
		" \"servers\": [\n"
		"  {\"name\": \"a\", \"state\": \"ready\", \"url\": \"http://127.0.0.1:8081\", "
		"\"role\": \"drafter\",\n"
		"   \"api_key_file\": \"/ws/fleet/api-key\"},\n"
		"  {\"name\": \"b\", \"state\": \"ready\", \"url\": \"http://127.0.0.1:8082\",\n"
		"   \"api_key_file\": \"/ws/fleet/api-key\"}]}\n";

	/* Another box's state carries its own live checks (live false). */
	char *t = sw_xasprintf("%.*s\"supervisor_running\": true, %s", 1, text, text + 1);
	assert_int_equal(sw_fleet_state_parse(&st, t, strlen(t), "state.json", false, &err), 0);
	free(t);
	assert_string_equal(st.access, "API key (fleet/api-key)");
	assert_string_equal(st.servers[0].api_key_file, "/ws/fleet/api-key");

	/* A fleet endpoint gets the key; sworn.conf's own key file for the
	 * same server wins. */
	config(&c, "[endpoint \"mine\"]\nurl = http://127.0.0.1:8082\napi_key_file = /etc/k\n");
	assert_int_equal(sw_fleet_state_llm_merge(&c, &st, NULL, &err), 0);
	assert_string_equal(sw_llm_endpoint_find(&c, "a")->api_key_file, "/ws/fleet/api-key");
	assert_string_equal(sw_llm_endpoint_find(&c, "mine")->api_key_file, "/etc/k");
	assert_null(sw_llm_endpoint_find(&c, "b"));
	sw_llm_config_release(&c);
	sw_fleet_state_release(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test(test_merge_key),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
