/*
 * llm_policy_test.c - the local-only policy: the address classes, the
 * refusal message, and the check at connect time through libcurl, with
 * public addresses put behind friendly names by a resolve override.
 *
 * The program first moves into a fresh network namespace that holds only
 * loopback (as root, or in a user namespace).  There a wrong "allow" can
 * reach nothing: a connect to a public address fails with "network
 * unreachable" without a packet leaving.  Where no such namespace can be
 * made the whole program says so loudly and exits 77, which CTest reports as
 * skipped: these tests never run where a bug could reach the network.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#include <cmocka.h>

#include "llm_harness.h"

static enum sw__llm_addr_class classify(const char *addr)
{
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof(ss));
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, addr, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		return sw__llm_addr_classify((struct sockaddr *)in, sizeof(*in));
	}
	assert_int_equal(inet_pton(AF_INET6, addr, &in6->sin6_addr), 1);
	in6->sin6_family = AF_INET6;
	return sw__llm_addr_classify((struct sockaddr *)in6, sizeof(*in6));
}

static void test_classes(void **state)
{
	(void)state;
	static const struct { const char *addr; enum sw__llm_addr_class want; } cases[] = {
		{ "127.0.0.1", SW__LLM_ADDR_LOOPBACK }, { "127.255.1.2", SW__LLM_ADDR_LOOPBACK },
		{ "10.0.0.5", SW__LLM_ADDR_PRIVATE }, { "172.16.0.1", SW__LLM_ADDR_PRIVATE },
		{ "172.31.255.255", SW__LLM_ADDR_PRIVATE }, { "172.32.0.1", SW__LLM_ADDR_PUBLIC },
		{ "172.15.0.1", SW__LLM_ADDR_PUBLIC }, { "192.168.1.20", SW__LLM_ADDR_PRIVATE },
		{ "192.169.0.1", SW__LLM_ADDR_PUBLIC }, { "169.254.10.1", SW__LLM_ADDR_LINK_LOCAL },
		{ "8.8.8.8", SW__LLM_ADDR_PUBLIC }, { "203.0.113.7", SW__LLM_ADDR_PUBLIC },
		{ "100.64.0.1", SW__LLM_ADDR_PUBLIC }, { "0.0.0.0", SW__LLM_ADDR_UNSPECIFIED },
		{ "::1", SW__LLM_ADDR_LOOPBACK }, { "fc00::1", SW__LLM_ADDR_PRIVATE },
		{ "fd12:3456::9", SW__LLM_ADDR_PRIVATE }, { "fe80::1", SW__LLM_ADDR_LINK_LOCAL },
		{ "febf::1", SW__LLM_ADDR_LINK_LOCAL }, { "fec0::1", SW__LLM_ADDR_PUBLIC },
		{ "2001:db8::1", SW__LLM_ADDR_PUBLIC }, { "::", SW__LLM_ADDR_UNSPECIFIED },
		{ "::ffff:127.0.0.1", SW__LLM_ADDR_LOOPBACK }, { "::ffff:10.1.2.3", SW__LLM_ADDR_PRIVATE },
		{ "::ffff:8.8.8.8", SW__LLM_ADDR_PUBLIC },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(cases); i++) {
		if (classify(cases[i].addr) != cases[i].want)
			fail_msg("%s: got %s", cases[i].addr,
				 sw__llm_addr_class_name(classify(cases[i].addr)));
	}
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	assert_int_equal(sw__llm_addr_classify((struct sockaddr *)&un, sizeof(un)), SW__LLM_ADDR_UNIX);
	assert_int_equal(sw__llm_addr_classify(NULL, 0), SW__LLM_ADDR_PUBLIC);
}

static void test_message(void **state)
{
	struct sw_llm_policy p = { SW_LLM_LOCAL_ONLY, NULL, 0 };
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(443) };
	struct sw_err err = { 0 };
	char why[256];
	(void)state;

	inet_pton(AF_INET, "203.0.113.7", &in.sin_addr);
	assert_int_equal(sw__llm_policy_check(&p, false, "board-a", "api.example.com",
					  (struct sockaddr *)&in, sizeof(in), why, sizeof(why), &err),
			 SW_EPOLICY);
	assert_string_equal(err.msg,
		"endpoint 'board-a' refused by the local-only policy: 'api.example.com' connects to "
		"203.0.113.7:443, a public address; sworn sends matter text only to models on this "
		"network (loopback, private addresses, unix sockets)");
	/* Never a suggestion to allow-list what was refused. */
	assert_null(strstr(err.msg, "allow_hosts"));
	assert_null(strstr(err.msg, "allow-remote"));
	inet_pton(AF_INET, "0.0.0.0", &in.sin_addr);
	assert_int_equal(sw__llm_policy_check(&p, false, "any", "0.0.0.0", (struct sockaddr *)&in,
					  sizeof(in), why, sizeof(why), &err), SW_EPOLICY);
	assert_non_null(strstr(err.msg, "0.0.0.0:443, the unspecified address;"));
	inet_pton(AF_INET, "192.168.4.4", &in.sin_addr);
	assert_int_equal(sw__llm_policy_check(&p, false, "b", "gpu2.lan", (struct sockaddr *)&in,
					  sizeof(in), why, sizeof(why), &err), 0);
	assert_string_equal(why, "192.168.4.4:443 is a private address");
}

/* A client for an endpoint url with one resolve override. */
static struct sw_llm_client *client(struct sw_llm_config *cfg, const char *conf,
				    const char *endpoint, const char *resolve)
{
	struct sw_llm_client *c = NULL;
	struct sw_err err = { 0 };
	assert_int_equal(h_config(cfg, dir, conf, &err), 0);
	assert_int_equal(sw_llm_client_new(&c, cfg, endpoint, &err), 0);
	if (resolve)
		sw__llm_client_add_resolve(c, resolve);
	return c;
}

static int chat(struct sw_llm_client *c, struct sw_llm_result *r, struct sw_err *err)
{
	static const struct sw_llm_message m[] = { { "user", "hello" } };
	struct sw_llm_request rq;
	sw_llm_request_init(&rq);
	rq.messages = m;
	rq.n_messages = 1;
	rq.deadlines.connect_ms = 1000;
	rq.deadlines.total_ms = 3000;
	return sw_llm_chat(r, c, &rq, err);
}

static void test_friendly_name_to_loopback(void **state)
{
	struct h_fake f;
	struct sw_llm_config cfg;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	h_fake_start(&f, dir, NULL);
	char *conf = sw_xasprintf("[endpoint \"lan\"]\nurl = http://models.example:%u\n", f.port);
	char *res = sw_xasprintf("models.example:%u:127.0.0.1", f.port);
	struct sw_llm_client *c = client(&cfg, conf, "lan", res);
	assert_int_equal(chat(c, &r, &err), 0);
	assert_non_null(strstr(r.address, "127.0.0.1"));
	assert_non_null(strstr(sw_llm_client_policy_reason(c), "is loopback"));
	sw_llm_result_release(&r);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
	free(conf);
	free(res);

	/* An http_proxy in the environment is not used: the request still
	 * goes straight to loopback (through a public proxy address it would
	 * be refused). */
	setenv("http_proxy", "http://203.0.113.50:3128", 1);
	setenv("ALL_PROXY", "http://203.0.113.50:3128", 1);
	conf = sw_xasprintf("[endpoint \"local\"]\nurl = http://127.0.0.1:%u\n", f.port);
	c = client(&cfg, conf, "local", NULL);
	assert_int_equal(chat(c, &r, &err), 0);
	sw_llm_result_release(&r);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
	unsetenv("http_proxy");
	unsetenv("ALL_PROXY");
	free(conf);
	h_fake_stop(&f);
}

static void expect_refused(const char *conf, const char *endpoint, const char *resolve,
			   const char *want1, const char *want2)
{
	struct sw_llm_config cfg;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	enum sw_llm_health h;
	struct sw_llm_client *c = client(&cfg, conf, endpoint, resolve);
	assert_int_equal(chat(c, &r, &err), SW_EPOLICY); /* refused: a timeout is SW_ENET */
	if (!strstr(err.msg, want1) || !strstr(err.msg, want2))
		fail_msg("message lacks '%s' or '%s': %s", want1, want2, err.msg);
	assert_non_null(strstr(err.msg, "local-only"));
	assert_null(r.address);
	sw_llm_result_release(&r);
	/* /health goes through the same check. */
	assert_int_equal(sw_llm_health(&h, c, 1000, &err), SW_EPOLICY);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
}

static void test_public_refused(void **state)
{
	(void)state;
	/* A friendly name that resolves to a public address. */
	expect_refused("[endpoint \"cloud\"]\nurl = http://gpu.example.com:8080\n", "cloud",
		       "gpu.example.com:8080:203.0.113.7", "endpoint 'cloud'", "203.0.113.7:8080");
	/* A public literal, IPv4 and IPv6. */
	expect_refused("[endpoint \"v4\"]\nurl = http://198.51.100.3:8080\n", "v4", NULL,
		       "endpoint 'v4'", "198.51.100.3:8080");
	expect_refused("[endpoint \"v6\"]\nurl = http://[2001:db8::5]:8080\n", "v6", NULL,
		       "endpoint 'v6'", "[2001:db8::5]:8080");
	/* An IPv4-mapped public address is judged by its IPv4 part. */
	expect_refused("[endpoint \"mapped\"]\nurl = http://mapped.example:8080\n", "mapped",
		       "mapped.example:8080:[::ffff:203.0.113.9]", "endpoint 'mapped'", "203.0.113.9");
	/* A public address written as one number, in hex or in octal is still
	 * the public address curl connects to. */
	expect_refused("[endpoint \"dec\"]\nurl = http://3325256711:8080\n", "dec", NULL,
		       "endpoint 'dec'", "198.51.100.7:8080");
	expect_refused("[endpoint \"hex\"]\nurl = http://0xC6336407:8080\n", "hex", NULL,
		       "endpoint 'hex'", "198.51.100.7:8080");
	expect_refused("[endpoint \"oct\"]\nurl = http://0306.063.0144.07:8080\n", "oct", NULL,
		       "endpoint 'oct'", "198.51.100.7:8080");
	expect_refused("[endpoint \"m6\"]\nurl = http://[::ffff:198.51.100.7]:8080\n", "m6", NULL,
		       "endpoint 'm6'", "198.51.100.7");
	/* allow_hosts matches the host curl connects to: a trailing dot or an
	 * escaped letter is not a way around it, in either direction. */
	expect_refused("[policy]\nallow_hosts = gpu2.lan\n[endpoint \"dot\"]\nurl = http://gpu2.lan.:8080\n",
		       "dot", "gpu2.lan.:8080:203.0.113.8", "endpoint 'dot'", "local-only policy");
	expect_refused("[policy]\nallow_hosts = gpu2.lan\n[endpoint \"esc\"]\nurl = http://gpu2.lan%2e:8080\n",
		       "esc", "gpu2.lan.:8080:203.0.113.8", "endpoint 'esc'", "local-only policy");
	/* allow_hosts names hosts, not addresses that happen to resolve. */
	expect_refused("[policy]\nallow_hosts = gpu2.lan\n[endpoint \"e\"]\nurl = http://evil.example:80\n",
		       "e", "evil.example:80:203.0.113.8", "endpoint 'e'", "local-only policy");
}

/* A connection the policy lets through: in this namespace it can only fail
 * with "network unreachable", never with a policy refusal. */
static void expect_allowed_unreachable(const char *conf, const char *endpoint, const char *resolve)
{
	struct sw_llm_config cfg;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	struct sw_llm_client *c = client(&cfg, conf, endpoint, resolve);
	assert_true(h_in_netns);
	assert_int_equal(chat(c, &r, &err), SW_ENET);
	assert_non_null(strstr(err.msg, "cannot connect"));
	assert_null(strstr(err.msg, "policy"));
	sw_llm_result_release(&r);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
}

static void test_allow_hosts_and_allow_remote(void **state)
{
	(void)state;
	expect_allowed_unreachable("[policy]\nallow_hosts = other.lan, GPU2.lan\n"
				   "[endpoint \"g\"]\nurl = http://gpu2.lan:8080\n",
				   "g", "gpu2.lan:8080:203.0.113.20");
	/* The same host spelt with an escape is the same host to curl. */
	expect_allowed_unreachable("[policy]\nallow_hosts = gpu2.lan\n"
				   "[endpoint \"g2\"]\nurl = http://%67pu2.LAN:8080\n",
				   "g2", "gpu2.lan:8080:203.0.113.20");
	expect_allowed_unreachable("[policy]\nmode = allow-remote\n"
				   "[endpoint \"r\"]\nurl = http://remote.example:8080\n",
				   "r", "remote.example:8080:203.0.113.21");
	/* Private addresses need no allow_hosts (nothing listens there). */
	expect_allowed_unreachable("[endpoint \"p\"]\nurl = http://10.9.8.7:8080\n", "p", NULL);
}

static void test_fallback_held_local(void **state)
{
	struct sw_llm_config cfg;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	static const struct sw_llm_message m[] = { { "user", "hello" } };
	struct sw_llm_request rq;
	(void)state;

	/* Even under allow-remote, a fallback must be local. */
	assert_int_equal(h_config(&cfg, dir,
		"[policy]\nmode = allow-remote\n"
		"[endpoint \"gone\"]\nurl = http://127.0.0.1:1\n"
		"[endpoint \"far\"]\nurl = http://198.51.100.77:8080\n"
		"[role \"drafter\"]\nendpoint = gone\nfallback = far\nconnect_timeout = 1\n", &err), 0);
	sw_llm_request_init(&rq);
	rq.messages = m;
	rq.n_messages = 1;
	assert_int_equal(sw_llm_chat_role(&r, &cfg, "drafter", &rq, &err), SW_EPOLICY);
	assert_true(r.fell_back);
	assert_non_null(strstr(err.msg, "fallback endpoint must be local"));
	assert_non_null(strstr(err.msg, "endpoint 'gone'"));
	sw_llm_result_release(&r);
	sw_llm_config_release(&cfg);
}

static void test_unix_socket_allowed(void **state)
{
	struct h_fake f;
	struct sw_llm_config cfg;
	struct sw_llm_result r;
	struct sw_err err = { 0 };
	(void)state;

	h_fake_start_ex(&f, dir, true, true, NULL);
	char *conf = sw_xasprintf("[endpoint \"s\"]\nurl = unix:%s\n", f.sock);
	struct sw_llm_client *c = client(&cfg, conf, "s", NULL);
	assert_int_equal(chat(c, &r, &err), 0);
	assert_non_null(strstr(sw_llm_client_policy_reason(c), "unix socket"));
	sw_llm_result_release(&r);
	sw_llm_client_free(c);
	sw_llm_config_release(&cfg);
	free(conf);
	h_fake_stop(&f);
}

int main(void)
{
	h_netns_enter(true, "llm_policy_test");
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_friendly_name_to_loopback),
		cmocka_unit_test(test_public_refused),
		cmocka_unit_test(test_allow_hosts_and_allow_remote),
		cmocka_unit_test(test_fallback_held_local),
		cmocka_unit_test(test_unix_socket_allowed),
	};
	return cmocka_run_group_tests(tests, h_group_setup, h_group_teardown);
}
