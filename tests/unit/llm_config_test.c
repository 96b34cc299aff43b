/*
 * llm_config_test.c - [policy], [endpoint] and [role] from sworn.conf: the
 * values read, the defaults, and every error naming the file and line.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "llm_harness.h"

static void test_good(void **state)
{
	struct sw_llm_config c;
	struct sw_err err = { 0 };
	(void)state;

	assert_int_equal(h_config(&c, dir,
		"[policy]\nmode = local-only\nallow_hosts = GPU2.lan, [fd00::7]\n"
		"[endpoint \"board-a\"]\n  url = http://127.0.0.1:8081/\n  gpus = 4, 5,8,9\n  slots = 4\n"
		"  api_key_file = keys/a\n"
		"[endpoint \"sock\"]\nurl = unix:/run/sworn/b.sock\n"
		"[endpoint \"v6\"]\nurl = https://[FD00::7]:9000/prefix\n"
		"[role \"drafter\"]\nendpoint = board-a\ntemperature = 0.3\ntop_p = 0.95\n"
		"max_tokens = 4096\ncontext = 32768\nseed = 7\nfallback = sock\n"
		"first_token_timeout = 1.5\ntoken_timeout = 0\nretries = 3\n"
		"[role \"reviewer\"]\nendpoint = v6\n"
		"[gpu \"4\"]\nname = whatever other subsystems read\n", &err), 0);
	assert_int_equal(c.policy.mode, SW_LLM_LOCAL_ONLY);
	assert_int_equal(c.policy.n_allow, 2);
	assert_string_equal(c.policy.allow_hosts[0], "gpu2.lan");
	assert_string_equal(c.policy.allow_hosts[1], "fd00::7");
	assert_int_equal(c.n_endpoints, 3);
	const struct sw_llm_endpoint *a = sw_llm_endpoint_find(&c, "board-a");
	assert_string_equal(a->url, "http://127.0.0.1:8081");
	assert_string_equal(a->host, "127.0.0.1");
	assert_int_equal(a->n_gpus, 4);
	assert_int_equal(a->gpus[2], 8);
	assert_int_equal(a->slots, 4);
	char *key = sw_path_join(dir, "keys/a");
	assert_string_equal(a->api_key_file, key);
	free(key);
	const struct sw_llm_endpoint *s = sw_llm_endpoint_find(&c, "sock");
	assert_string_equal(s->unix_path, "/run/sworn/b.sock");
	assert_string_equal(s->host, "localhost");
	assert_string_equal(sw_llm_endpoint_find(&c, "v6")->host, "fd00::7");
	const struct sw_llm_role *r = sw_llm_role_find(&c, "drafter");
	assert_true(r->temperature == 0.3);
	assert_true(r->top_p == 0.95);
	assert_int_equal(r->max_tokens, 4096);
	assert_int_equal(r->context, 32768);
	assert_true(r->has_seed);
	assert_int_equal(r->seed, 7);
	assert_string_equal(r->fallback, "sock");
	assert_int_equal(r->deadlines.first_token_ms, 1500);
	assert_int_equal(r->deadlines.token_ms, 0);
	assert_int_equal(r->deadlines.connect_ms, sw_llm_default_deadlines.connect_ms);
	assert_int_equal(r->retries, 3);
	const struct sw_llm_role *rv = sw_llm_role_find(&c, "reviewer");
	assert_true(rv->temperature < 0);
	assert_false(rv->has_seed);
	assert_null(sw_llm_role_find(&c, "reasoner"));
	sw_llm_config_release(&c);

	/* Nothing configured: local-only, no endpoints. */
	assert_int_equal(h_config(&c, dir, "[other]\nx = 1\n", &err), 0);
	assert_int_equal(c.policy.mode, SW_LLM_LOCAL_ONLY);
	assert_int_equal(c.n_endpoints, 0);
	sw_llm_config_release(&c);
}

static void expect(const char *text, const char *tail)
{
	struct sw_llm_config c;
	struct sw_err err = { 0 };
	char *want = sw_xasprintf("%s/sworn.conf:%s", dir, tail);
	assert_int_not_equal(h_config(&c, dir, text, &err), 0);
	if (strcmp(err.msg, want) != 0)
		fail_msg("got  '%s'\nwant '%s'", err.msg, want);
	assert_int_equal(c.n_endpoints, 0);
	free(want);
}

/* A role out of reach: recorded with its reason, never over a defined one. */
static void test_unavailable(void **state)
{
	(void)state;
	struct sw_llm_config c;
	memset(&c, 0, sizeof(c));
	assert_null(sw_llm_role_unavailable(&c, "reviewer"));
	sw_llm_config_role_unavailable(&c, "reviewer", "its host does not answer");
	sw_llm_config_role_unavailable(&c, "reviewer", "a second reason");
	assert_int_equal(c.n_unavailable, 1);
	assert_string_equal(sw_llm_role_unavailable(&c, "reviewer"), "its host does not answer");
	assert_null(sw_llm_role_unavailable(&c, "drafter"));
	struct sw_llm_request rq = { 0 };
	struct sw_llm_result res;
	struct sw_err err = { 0 };
	assert_int_equal(sw_llm_chat_role(&res, &c, "reviewer", &rq, &err), SW_ENET);
	assert_non_null(strstr(err.msg, "role 'reviewer' is unavailable: its host does not answer"));
	sw_llm_result_release(&res);
	sw_llm_config_release(&c);
}

static void test_errors(void **state)
{
	(void)state;
	expect("[policy]\nmode = cloud\n", "2: bad mode 'cloud': expected local-only or allow-remote");
	expect("[policy]\nmod = local-only\n", "2: unknown key 'mod' in [policy]: did you mean mode?");
	expect("[policy]\nzone = local-only\n", "2: unknown key 'zone' in [policy] (known: mode, allow_hosts)");
	expect("[policy]\nallow_hosts = a, b c\n",
	       "2: bad allow_hosts entry 'b c': expected host names separated by commas");
	expect("[policy \"x\"]\nmode = local-only\n", "2: [policy] takes no name");
	expect("[endpoint]\nurl = http://127.0.0.1:1\n", "2: [endpoint] needs a name: [endpoint \"NAME\"]");
	expect("[endpoint \"a b\"]\nurl = http://127.0.0.1:1\n",
	       "2: bad endpoint name 'a b': use up to 64 letters, digits, '-', '_' and '.'");
	expect("\n[endpoint \"a\"]\nurll = http://127.0.0.1:1\n",
	       "3: unknown key 'urll' in [endpoint \"a\"]: did you mean url?");
	expect("[endpoint \"a\"]\nurl = http://h\nslot = 2\n",
	       "3: unknown key 'slot' in [endpoint \"a\"]: did you mean slots?");
	expect("[endpoint \"a\"]\nurl = http://h\nslots = four\n", "3: bad slots 'four': expected 1 to 1024");
	expect("[endpoint \"a\"]\nurl = http://h\nslots = 4096\n", "3: bad slots '4096': expected 1 to 1024");
	expect("[endpoint \"a\"]\nurl = ftp://host\n",
	       "2: bad url 'ftp://host': expected http://HOST:PORT, https://... or unix:/PATH");
	expect("[endpoint \"a\"]\nurl = http://127.0.0.1@evil.example\n",
	       "2: bad url 'http://127.0.0.1@evil.example': no user name in the url (put an API key in api_key_file)");
	expect("[endpoint \"a\"]\nurl = http://127.0.0.1:99999\n",
	       "2: bad url 'http://127.0.0.1:99999': port must be 1-65535");
	expect("[endpoint \"a\"]\nurl = http://:80\n", "2: bad url 'http://:80': no host");
	expect("[endpoint \"a\"]\nurl = http://h/x?y=1\n", "2: bad url 'http://h/x?y=1': no query or fragment, please");
	expect("[endpoint \"a\"]\nurl = unix:run/x.sock\n",
	       "2: bad url 'unix:run/x.sock': a unix socket needs an absolute path (unix:/run/x.sock)");
	expect("[endpoint \"a\"]\nurl = http://h\ngpus = 1,x\n",
	       "3: bad gpus '1,x': expected GPU numbers separated by commas (0,1,2)");
	expect("[endpoint \"a\"]\nurl = http://h\nslots = 0\n", "3: bad slots '0': expected 1 to 1024");
	expect("[endpoint \"a\"]\ngpus = 1\n", "2: [endpoint \"a\"] has no url");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ntemperature = hot\n",
	       "5: bad temperature 'hot': expected 0 to 5");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ntemperature = 5.5\n",
	       "5: bad temperature '5.5': expected 0 to 5");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ntempreature = 1\n",
	       "5: unknown key 'tempreature' in [role \"r\"]: did you mean temperature?");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\nfirst_token_timout = 1\n",
	       "5: unknown key 'first_token_timout' in [role \"r\"]: did you mean first_token_timeout?");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\nretries = 101\n",
	       "5: bad retries '101': expected 0 to 100");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ncontext = 0\n",
	       "5: bad context '0': expected 1 to 100000000 tokens");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ntop_p = 0\n",
	       "5: bad top_p '0': expected more than 0, at most 1");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\nmax_tokens = -1\n",
	       "5: bad max_tokens '-1': expected 1 to 10000000");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\nseed = 1.5\n",
	       "5: bad seed '1.5': expected a number 0 or more");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ntimeout = -2\n",
	       "5: bad timeout '-2': expected seconds from 0 (no limit) to 604800");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\ncolour = red\n",
	       "5: unknown key 'colour' in [role \"r\"] (known: endpoint, fallback, temperature, "
	       "top_p, "
	       "max_tokens, seed, context, reasoning, reasoning_budget, retries, connect_timeout, "
	       "first_token_timeout, "
	       "token_timeout, timeout)");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\ntemperature = 1\n\nendpoint = b\n",
	       "6: role 'r' names endpoint 'b', which no [endpoint] section defines");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\nfallback = zz\n",
	       "5: role 'r' names fallback 'zz', which no [endpoint] section defines");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\nendpoint = a\nfallback = a\n",
	       "5: role 'r' falls back to its own endpoint 'a'");
	expect("[endpoint \"a\"]\nurl = http://h\n[role \"r\"]\ntemperature = 1\n", "4: [role \"r\"] has no endpoint");
}

/* The host and URL kept are libcurl's reading of the url, the one it
 * connects to: numbers in any base become a.b.c.d, escapes are decoded, the
 * case of the host is folded for allow_hosts. */
static void test_url_as_curl_reads_it(void **state)
{
	(void)state;
	static const struct {
		const char *url, *host, *kept;
	} cases[] = {
		{ "http://2130706433:8080", "127.0.0.1", "http://127.0.0.1:8080" },
		{ "http://0x7f.1:8080", "127.0.0.1", "http://127.0.0.1:8080" },
		{ "http://0177.0.0.1:8080/v1/", "127.0.0.1", "http://127.0.0.1:8080/v1" },
		{ "http://%67pu2.lan:80", "gpu2.lan", "http://gpu2.lan:80" },
		{ "http://GPU2.Lan:80", "gpu2.lan", "http://GPU2.Lan:80" },
		{ "http://gpu2.lan.:80", "gpu2.lan.", "http://gpu2.lan.:80" },
		{ "https://[FD00::7]", "fd00::7", "https://[FD00::7]" },
		{ "http://[::ffff:127.0.0.1]:81", "::ffff:127.0.0.1", "http://[::ffff:127.0.0.1]:81" },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(cases); i++) {
		struct sw_llm_config c;
		struct sw_err err = { 0 };
		char *text = sw_xasprintf("[endpoint \"a\"]\nurl = %s\n", cases[i].url);
		assert_int_equal(h_config(&c, dir, text, &err), 0);
		const struct sw_llm_endpoint *a = sw_llm_endpoint_find(&c, "a");
		if (strcmp(a->host, cases[i].host) != 0 || strcmp(a->url, cases[i].kept) != 0)
			fail_msg("%s: host '%s' url '%s'", cases[i].url, a->host, a->url);
		sw_llm_config_release(&c);
		free(text);
	}
	expect("[endpoint \"a\"]\nurl = http://user:pw@127.0.0.1:8080\n",
	       "2: bad url 'http://user:pw@127.0.0.1:8080': no user name in the url (put an API key in api_key_file)");
	expect("[endpoint \"a\"]\nurl = http://:pw@127.0.0.1:8080\n",
	       "2: bad url 'http://:pw@127.0.0.1:8080': no user name in the url (put an API key in api_key_file)");
	expect("[endpoint \"a\"]\nurl = http://h:0\n", "2: bad url 'http://h:0': port must be 1-65535");
	expect("[endpoint \"a\"]\nurl = http://h:+80\n", "2: bad url 'http://h:+80': port must be 1-65535");
	expect("[endpoint \"a\"]\nurl = http://h/v1#x\n", "2: bad url 'http://h/v1#x': no query or fragment, please");
	expect("[endpoint \"a\"]\nurl = http://h\\@evil/\n", "2: bad url 'http://h\\@evil/': spaces or control bytes");
	expect("[endpoint \"a\"]\nurl = HTTP://h/\n",
	       "2: bad url 'HTTP://h/': expected http://HOST:PORT, https://... or unix:/PATH");
}

static void test_api_key_file(void **state)
{
	struct sw_llm_config c;
	struct sw_llm_client *cl = NULL;
	struct sw_err err = { 0 };
	(void)state;

	free(h_write(dir, "empty.key", "  \n"));
	assert_int_equal(h_config(&c, dir, "[endpoint \"a\"]\nurl = http://127.0.0.1:1\napi_key_file = empty.key\n"
				  "[endpoint \"b\"]\nurl = http://127.0.0.1:1\napi_key_file = missing.key\n",
				  &err), 0);
	assert_int_equal(sw_llm_client_new(&cl, &c, "a", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "endpoint 'a': api key file"));
	assert_non_null(strstr(err.msg, "is empty"));
	assert_int_not_equal(sw_llm_client_new(&cl, &c, "b", &err), 0);
	assert_non_null(strstr(err.msg, "missing.key"));
	assert_null(cl);
	assert_int_equal(sw_llm_client_new(&cl, &c, "nope", &err), SW_ENOTFOUND);
	sw_llm_config_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unavailable),
		cmocka_unit_test(test_url_as_curl_reads_it),
		cmocka_unit_test(test_api_key_file),
	};
	return cmocka_run_group_tests(tests, h_group_setup, h_group_teardown);
}
