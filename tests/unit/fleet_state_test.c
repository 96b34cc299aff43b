/*
 * fleet_state_test.c - state.json read into the typed fleet state (with
 * the live checks of the supervisor and server processes), the status
 * table, the choice of what `sworn bench` measures, and another box's
 * state: its endpoints' host, and read over the LAN.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "fleet/fleet.h"
#include "llm/llm.h"

#define TMPDIR_TAG "fleet-state"
#include "tmpdir.h"

/* A state file as the supervisor writes it; SUP is replaced by this
 * process's pid and start ticks, so that the supervisor "runs". */
static void write_state(const char *phase, bool live_supervisor)
{
	int pid = live_supervisor ? (int)getpid() : 999999;
	unsigned long long ticks = live_supervisor ? sw_proc_start_ticks((int)getpid()) : 1;
	char *text = sw_xasprintf(
		"{\n"
		"  \"phase\": \"%s\", \"supervisor_pid\": %d, \"supervisor_start_ticks\": %llu,\n"
		"  \"started\": \"2026-12-01T10:00:00Z\", \"hardware\": \"/ws/hardware.ini\",\n"
		"  \"missing_gpus\": null,\n"
		"  \"servers\": [\n"
		"    {\"name\": \"qwen3-30b@board-a\", \"state\": \"ready\", \"model\": \"/m/qwen3-30b.gguf\",\n"
		"     \"spec\": \"/m/qwen3-30b.gguf:ctx=32k\", \"group\": \"board-a\", \"gpus\": \"4,5\",\n"
		"     \"url\": \"http://127.0.0.1:8081\", \"log\": \"/ws/fleet/logs/a.log\", \"port\": 8081,\n"
		"     \"pid\": %d, \"start_ticks\": %llu, \"started\": \"\", \"restarts\": 2, \"detail\": null},\n"
		"    {\"name\": \"gemma@board-b\", \"state\": \"degraded\", \"model\": \"/m/gemma.gguf\",\n"
		"     \"spec\": \"/m/gemma.gguf\", \"group\": \"board-b\", \"gpus\": null, \"url\": null,\n"
		"     \"log\": \"/ws/fleet/logs/b.log\", \"port\": 8082, \"pid\": -1, \"start_ticks\": 0,\n"
		"     \"started\": \"\", \"restarts\": 0, \"detail\": \"GPU 9 is missing\"}\n"
		"  ]\n"
		"}\n",
		phase, pid, ticks, pid, ticks);
	char *path = sw_path_join(dir, "state.json");
	struct sw_err err = { 0 };
	assert_int_equal(sw_file_write_atomic(path, text, strlen(text), &err), 0);
	free(path);
	free(text);
}

static void test_load(void **state)
{
	(void)state;
	struct sw_fleet_state st;
	struct sw_err err = { 0 };

	write_state("running", true);
	assert_int_equal(sw_fleet_state_load(&st, dir, &err), 0);
	assert_string_equal(st.phase, "running");
	assert_true(st.supervisor_running);
	assert_string_equal(st.hardware, "/ws/hardware.ini");
	assert_null(st.missing_gpus);
	assert_int_equal(st.nservers, 2);
	const struct sw_fleet_state_server *a = &st.servers[0], *b = &st.servers[1];
	assert_string_equal(a->name, "qwen3-30b@board-a");
	assert_string_equal(a->spec, "/m/qwen3-30b.gguf:ctx=32k");
	assert_string_equal(a->url, "http://127.0.0.1:8081");
	assert_int_equal(a->port, 8081);
	assert_int_equal(a->restarts, 2);
	assert_true(a->process_running);
	assert_null(b->url);
	assert_null(b->gpus);
	assert_string_equal(b->detail, "GPU 9 is missing");
	assert_false(b->process_running);
	/* The live checks are in the JSON that --json prints, not in the
	 * file's; the typed state round-trips. */
	json_t *js = sw_fleet_state_json(&st, true);
	assert_true(json_is_true(json_object_get(js, "supervisor_running")));
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(js, "servers"), 0),
						 "process_running")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(js,
				"servers"), 1), "detail")), "GPU 9 is missing");
	json_decref(js);
	js = sw_fleet_state_json(&st, false);
	assert_null(json_object_get(js, "supervisor_running"));
	char *text = json_dumps(js, 0);
	struct sw_fleet_state again;
	assert_int_equal(sw_fleet_state_parse(&again, text, strlen(text), "again", false, &err), 0);
	assert_int_equal(again.nservers, 2);
	assert_string_equal(again.servers[0].spec, "/m/qwen3-30b.gguf:ctx=32k");
	assert_int_equal(again.servers[0].port, 8081);
	assert_string_equal(again.hardware, "/ws/hardware.ini");
	sw_fleet_state_release(&again);
	free(text);
	json_decref(js);
	assert_true(sw_fleet_state_settled(&st));
	assert_false(sw_fleet_state_all_ready(&st)); /* one is degraded */

	struct sw_buf out = SW_BUF_INIT;
	sw_fleet_state_text(&out, &st);
	assert_non_null(strstr(out.data, "fleet: supervisor running (pid "));
	assert_non_null(strstr(out.data, "qwen3-30b@board-a                ready      8081"));
	assert_non_null(strstr(out.data, "    GPU 9 is missing\n"));
	sw_buf_release(&out);
	sw_fleet_state_release(&st);

	/* A supervisor that is gone: what was ready is stale now. */
	write_state("running", false);
	assert_int_equal(sw_fleet_state_load(&st, dir, &err), 0);
	assert_false(st.supervisor_running);
	assert_false(st.servers[0].process_running);
	sw_buf_init(&out);
	sw_fleet_state_text(&out, &st);
	assert_non_null(strstr(out.data, "qwen3-30b@board-a                stale "));
	assert_non_null(strstr(out.data, "gemma@board-b                    degraded"));
	assert_non_null(strstr(out.data, "999999?"));
	sw_buf_release(&out);
	sw_fleet_state_release(&st);
	sw_fleet_state_release(&st); /* twice is fine */
}

static void test_bad_files(void **state)
{
	(void)state;
	struct sw_fleet_state st;
	struct sw_err err = { 0 };
	char *empty = sw_path_join(dir, "nothing-here");
	assert_int_equal(sw_fleet_state_load(&st, empty, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "never started"));
	free(empty);

	char *path = sw_path_join(dir, "state.json");
	static const char *const bad[] = { "{\"servers\": 3}", "[1, 2]", "{\"phase\": " };
	for (size_t i = 0; i < SW_ARRAY_LEN(bad); i++) {
		assert_int_equal(sw_file_write_atomic(path, bad[i], strlen(bad[i]), &err), 0);
		assert_int_equal(sw_fleet_state_load(&st, dir, &err), SW_EINPUT);
		assert_non_null(strstr(err.msg, "not a fleet state file"));
		assert_null(st.servers);
	}
	/* Odd member types are read as absent, never trusted. */
	const char *odd = "{\"servers\": [{\"name\": 7, \"pid\": \"12\", \"port\": 99999}]}";
	assert_int_equal(sw_file_write_atomic(path, odd, strlen(odd), &err), 0);
	assert_int_equal(sw_fleet_state_load(&st, dir, &err), 0);
	assert_string_equal(st.servers[0].name, "");
	assert_int_equal(st.servers[0].pid, -1);
	assert_int_equal(st.servers[0].port, 0);
	assert_false(st.supervisor_running);
	sw_fleet_state_release(&st);
	free(path);
}

static void config(struct sw_llm_config *c, const char *text)
{
	struct sw_config cfg;
	struct sw_err err = { 0 };
	assert_int_equal(sw_config_parse(&cfg, text, strlen(text), "sworn.conf", &err), 0);
	assert_int_equal(sw_llm_config_load(c, &cfg, &err), 0);
	sw_config_release(&cfg);
}

static void test_bench_target(void **state)
{
	(void)state;
	struct sw_fleet_state st;
	struct sw_fleet_bench_target t;
	struct sw_llm_config c;
	struct sw_err err = { 0 };

	write_state("running", true);
	assert_int_equal(sw_fleet_state_load(&st, dir, &err), 0);

	/* Nothing named: the first ready fleet server, with its plan. */
	config(&c, "[endpoint \"a\"]\nurl = http://127.0.0.1:9000\n[endpoint \"b\"]\nurl = http://127.0.0.1:9001\n");
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, NULL, &err), 0);
	assert_string_equal(t.endpoint, "qwen3-30b@board-a");
	assert_ptr_equal(t.server, &st.servers[0]);
	assert_string_equal(t.spec, "/m/qwen3-30b.gguf:ctx=32k");
	assert_string_equal(t.hardware, "/ws/hardware.ini");
	assert_string_equal(t.group, "board-a");
	assert_non_null(sw_llm_endpoint_find(&c, "qwen3-30b@board-a"));
	sw_llm_config_release(&c);

	/* A URL that is a fleet server's is that server. */
	config(&c, "");
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, "http://127.0.0.1:8081/", &err), 0);
	assert_string_equal(t.endpoint, "http://127.0.0.1:8081/");
	assert_ptr_equal(t.server, &st.servers[0]);
	/* Another URL is no fleet server: no plan to predict from. */
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, "http://127.0.0.1:7000", &err), 0);
	assert_null(t.server);
	assert_null(t.spec);
	/* A URL is read as sworn.conf's are. */
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, "http://u@127.0.0.1:7000", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "no user name"));
	sw_llm_config_release(&c);

	/* An endpoint of sworn.conf; then names that are nothing. */
	config(&c, "[endpoint \"a\"]\nurl = http://127.0.0.1:9000\n[endpoint \"b\"]\nurl = http://127.0.0.1:9001\n");
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, "b", &err), 0);
	assert_string_equal(t.endpoint, "b");
	assert_null(t.server);
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, "gemma@board-b", &err), SW_EUSAGE);
	assert_int_equal(sw_fleet_bench_target(&t, &c, &st, "zz", &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "no endpoint 'zz' in sworn.conf"));
	/* No fleet and two endpoints: which? */
	assert_int_equal(sw_fleet_bench_target(&t, &c, NULL, NULL, &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "several endpoints"));
	sw_llm_config_release(&c);
	/* No fleet and one endpoint: that one. */
	config(&c, "[endpoint \"only\"]\nurl = http://127.0.0.1:9000\n");
	assert_int_equal(sw_fleet_bench_target(&t, &c, NULL, NULL, &err), 0);
	assert_string_equal(t.endpoint, "only");
	sw_llm_config_release(&c);
	sw_fleet_state_release(&st);
}

static void test_down_rewrites(void **state)
{
	(void)state;
	struct sw_fleet_state st;
	struct sw_buf report = SW_BUF_INIT;
	struct sw_err err = { 0 };

	/* A dead supervisor and no live server: down only records it. */
	write_state("running", false);
	assert_int_equal(sw_fleet_down(&report, dir, 100, &err), 0);
	assert_string_equal(report.data, "");
	assert_int_equal(sw_fleet_state_load(&st, dir, &err), 0);
	assert_string_equal(st.phase, "stopped");
	assert_string_equal(st.servers[0].state, "stopped");
	assert_string_equal(st.servers[1].state, "degraded");
	assert_int_equal(st.servers[0].pid, -1);
	sw_fleet_state_release(&st);
	sw_buf_release(&report);
}

/* Several hosts: the merge names each endpoint's box; a state read over
 * the LAN gives only its ready servers; a box whose servers do not answer
 * (or that the policy refuses) is not read that way. */
static void test_hosts_lan(void **state)
{
	(void)state;
	static const char box2[] =
		"{\"phase\": \"running\", \"host\": \"box2\", \"supervisor_running\": true,"
		" \"servers\": [{\"name\": \"gemma\", \"state\": \"ready\", \"role\": \"reviewer\","
		" \"url\": \"http://10.0.0.12:8081\"}, {\"name\": \"qwen\", \"state\": \"down\","
		" \"role\": \"drafter\", \"url\": \"http://10.0.0.12:8082\"}]}";
	struct sw_fleet_state st;
	struct sw_llm_config c;
	struct sw_err err = { 0 };
	assert_int_equal(sw_fleet_state_parse(&st, box2, strlen(box2), "box2", false, &err), 0);
	config(&c, "[endpoint \"pasted\"]\nurl = http://10.0.0.12:8081\n");
	assert_int_equal(sw_fleet_state_llm_merge(&c, &st, NULL, &err), 0);
	assert_string_equal(sw_llm_endpoint_find(&c, "pasted")->fleet_host, "box2");
	assert_string_equal(sw_llm_endpoint_find(&c, "qwen")->fleet_host, "box2");
	assert_non_null(sw_llm_role_find(&c, "drafter"));
	sw_llm_config_release(&c);

	/* Read over the LAN: no supervisor, and only the ready server. */
	st.supervisor_running = false;
	st.over_lan = true;
	config(&c, "");
	assert_int_equal(sw_fleet_state_llm_merge(&c, &st, NULL, &err), 0);
	assert_non_null(sw_llm_role_find(&c, "reviewer"));
	assert_null(sw_llm_role_find(&c, "drafter"));
	assert_null(sw_llm_endpoint_find(&c, "qwen"));
	sw_llm_config_release(&c);
	st.over_lan = false;
	config(&c, "");
	assert_int_equal(sw_fleet_state_llm_merge(&c, &st, NULL, &err), 0);
	assert_int_equal(c.n_endpoints, 0); /* no supervisor, not over the LAN */
	sw_llm_config_release(&c);
	sw_fleet_state_release(&st);

	/* This box's plan: box2's server where nothing listens, box3's at a
	 * public address (refused by the policy before any connection). */
	static const char here[] =
		"{\"phase\": \"running\", \"host\": \"box1\", \"servers\": [], \"planned\": ["
		"{\"name\": \"gemma\", \"host\": \"box2\", \"role\": \"reviewer\","
		" \"url\": \"http://127.0.0.1:1\", \"context\": 8192},"
		"{\"name\": \"qwen\", \"host\": \"box3\", \"role\": null,"
		" \"url\": \"http://8.8.8.8:8081\"}, {\"host\": \"box4\"}]}";
	struct sw_fleet_state h, lan;
	assert_int_equal(sw_fleet_state_parse(&h, here, strlen(here), "here", false, &err), 0);
	/* The plan, typed: an entry without a server's name is no entry. */
	assert_int_equal(h.nplanned, 2);
	assert_string_equal(h.planned[0].host, "box2");
	assert_string_equal(h.planned[0].role, "reviewer");
	assert_int_equal(h.planned[0].context, 8192);
	assert_null(h.planned[1].role);
	assert_int_equal(h.planned[1].context, 0);
	assert_int_equal(sw_fleet_state_over_lan(&lan, &h, "box2", 2000, &err), SW_EIO);
	assert_non_null(strstr(err.msg, "over the LAN no server of host box2 answers"));
	assert_int_equal(sw_fleet_state_over_lan(&lan, &h, "box3", 2000, &err), SW_EIO);
	assert_non_null(strstr(err.msg, "8.8.8.8"));
	assert_int_equal(sw_fleet_state_over_lan(&lan, &h, "box4", 2000, &err), SW_ENOTFOUND);
	assert_int_equal(sw_fleet_state_over_lan(&lan, &h, "box9", 2000, &err), SW_ENOTFOUND);
	assert_int_equal(sw_fleet_state_over_lan(&lan, NULL, "box2", 2000, &err), SW_ENOTFOUND);
	sw_fleet_state_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bench_target),
		cmocka_unit_test(test_down_rewrites),
		cmocka_unit_test(test_hosts_lan),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
