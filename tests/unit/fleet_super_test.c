/*
 * fleet_super_test.c - the pure parts of supervision and benchmarking: the
 * [fleet] section, model specs, the check of the GPUs present against an
 * inventory (by PCI bus id and by index), the generated legal prose, and
 * calibration files written from a measurement.  The processes themselves
 * are exercised by tests/cli/fleet.sh and bench.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fleet/fleet.h"

#define TMPDIR_TAG "fleet-super"
#include "tmpdir.h"

static int load_conf(struct sw_fleet_conf *out, const char *text, struct sw_err *err)
{
	char *path = sw_path_join(dir, "sworn.conf");
	struct sw_config cfg;
	assert_int_equal(sw_file_write_atomic(path, text, strlen(text), err), 0);
	assert_int_equal(sw_config_load(&cfg, path, err), 0);
	int rc = sw_fleet_conf_load(out, &cfg, "/ws", err);
	sw_config_release(&cfg);
	free(path);
	return rc;
}

/* hardware may list one inventory per host; the state file is per host. */
static void test_conf_hosts(void **state)
{
	(void)state;
	struct sw_fleet_conf c;
	struct sw_err err = { 0 };
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nmodel = m\n"
				       "hardware = box1.ini, /hw/box2.ini  box3.ini\n", &err), 0);
	assert_int_equal(c.nhardware, 3);
	assert_string_equal(c.hardware, "/ws/box1.ini");
	assert_string_equal(c.hardware_files[0], "/ws/box1.ini");
	assert_string_equal(c.hardware_files[1], "/hw/box2.ini");
	assert_string_equal(c.hardware_files[2], "/ws/box3.ini");
	assert_null(c.host);
	sw_fleet_conf_release(&c);
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nmodel = m\nhardware = ,  ,\n",
				   &err), SW_EINPUT);
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nmodel = m\n"
				       "hardware = 1 2 3 4 5 6 7 8 9\n", &err), SW_ELIMIT);

	char *f = sw_fleet_state_file(NULL);
	assert_string_equal(f, "state.json");
	free(f);
	f = sw_fleet_state_file("box2");
	assert_string_equal(f, "state-box2.json");
	free(f);
	f = sw_fleet_state_file("../Box 2");
	assert_null(strchr(f, '/'));
	free(f);

	/* Another box's state keeps the live checks it was sent with. */
	static const char text[] =
		"{\"phase\": \"running\", \"supervisor_pid\": 999999, \"host\": \"box2\", "
		"\"supervisor_running\": true, \"servers\": [{\"name\": \"a\", \"state\": "
		"\"ready\", \"pid\": 999998, \"process_running\": true, \"url\": "
		"\"http://10.0.0.12:8081\"}]}";
	struct sw_fleet_state st;
	assert_int_equal(sw_fleet_state_parse(&st, text, strlen(text), "box2", false, &err), 0);
	assert_true(st.supervisor_running);
	assert_string_equal(st.host, "box2");
	assert_true(st.servers[0].process_running);
	sw_fleet_state_release(&st);
	assert_int_equal(sw_fleet_state_parse(&st, text, strlen(text), "here", true, &err), 0);
	assert_false(st.supervisor_running); /* no such process here */
	sw_fleet_state_release(&st);
	assert_int_equal(sw_fleet_state_parse(&st, "[1]", 3, "box2", false, &err), SW_EINPUT);
}

static void test_conf(void **state)
{
	(void)state;
	struct sw_fleet_conf c;
	struct sw_err err = { 0 };

	assert_int_equal(load_conf(&c,
		"[fleet]\nllama_server = bin/llama-server\nhardware = hw.ini\n"
		"model = /m/a.gguf:ctx=32k\nmodel = b.gguf\nextra_args = --metrics  -t 8\n"
		"probe_timeout = 0.5\nrestart_max = 0\nport = 9000\ncheck_gpus = no\n", &err), 0);
	assert_string_equal(c.server, "/ws/bin/llama-server");
	assert_string_equal(c.hardware, "/ws/hw.ini");
	assert_int_equal(c.nmodels, 2);
	assert_string_equal(c.models[0], "/m/a.gguf:ctx=32k");
	assert_string_equal(c.models[1], "/ws/b.gguf");
	assert_int_equal(c.nextra, 3);
	assert_string_equal(c.extra_args[2], "8");
	assert_true(c.probe_timeout_s == 0.5);
	assert_int_equal(c.restart_max, 0);
	assert_int_equal(c.base_port, 9000);
	assert_false(c.check_gpus);
	assert_true(c.ready_timeout_s == 600);
	assert_string_equal(c.dir, "/ws/fleet");
	sw_fleet_conf_release(&c);

	/* extra_args are split as a shell splits words, with no shell: quotes
	 * keep a space inside an argument (issue 17, item 15). */
	assert_int_equal(load_conf(&c,
		"[fleet]\nllama_server = x\nhardware = h\nmodel = m\n"
		"extra_args = --chat-template-file \"/m/my template.jinja\" -p 'a \"b\"' c\\ d "
		"\"q\\\"x\" $HOME\n", &err), 0);
	assert_int_equal(c.nextra, 7);
	assert_string_equal(c.extra_args[0], "--chat-template-file");
	assert_string_equal(c.extra_args[1], "/m/my template.jinja");
	assert_string_equal(c.extra_args[2], "-p");
	assert_string_equal(c.extra_args[3], "a \"b\"");
	assert_string_equal(c.extra_args[4], "c d");
	assert_string_equal(c.extra_args[5], "q\"x");
	assert_string_equal(c.extra_args[6], "$HOME");
	sw_fleet_conf_release(&c);
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nhardware = h\nmodel = m\n"
				       "extra_args = -p 'open\n", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "never closed"));

	/* A name without '/' is looked up in PATH, not in the workspace. */
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = llama-server\nhardware = h\nmodel = m\n",
				   &err), 0);
	assert_string_equal(c.server, "llama-server");
	sw_fleet_conf_release(&c);

	assert_int_equal(load_conf(&c, "[policy]\nmode = local-only\n", &err), SW_ENOTFOUND);
	assert_int_equal(load_conf(&c, "[fleet]\nhardware = h\nmodel = m\n", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "llama_server"));
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nmodel = m\n", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "hardware"));
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nhardware = h\n", &err), SW_EINPUT);
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nhardware = h\nmodel = m\n"
				       "probe_interval = -1\n", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, ":5:"));
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nhardware = h\nmodel = m\n"
				       "port = 80\n", &err), SW_EINPUT);
	assert_int_equal(load_conf(&c, "[fleet]\nllama_server = x\nhardware = h\nmodel = m\n"
				       "colour = blue\n", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "unknown key 'colour'"));
}

static void test_spec(void **state)
{
	(void)state;
	struct sw_fleet_request r;
	struct sw_err err = { 0 };
	char *path = NULL;

	assert_int_equal(sw_fleet_spec_parse(&path, &r, "/m/x:y.gguf:ctx=16k,kv=q4_0,np=2,role=drafter,"
						 "group=board-a,port=9001", &err), 0);
	assert_string_equal(path, "/m/x:y.gguf");
	assert_int_equal(r.ctx, 16384);
	assert_int_equal(r.kv, SW_KV_Q4_0);
	assert_int_equal(r.slots, 2);
	assert_string_equal(r.role, "drafter");
	assert_string_equal(r.group, "board-a");
	assert_int_equal(r.port, 9001);
	free(path);
	free((char *)r.role);
	free((char *)r.group);
	assert_int_equal(sw_fleet_spec_parse(&path, &r, "a.gguf:ctx=huge", &err), SW_EUSAGE);
	assert_null(path);
	assert_int_equal(sw_fleet_spec_parse(&path, &r, "a.gguf", &err), 0);
	assert_string_equal(path, "a.gguf");
	assert_int_equal(r.kv, SW_KV_Q8_0);
	free(path);
}

static const char query_full[] =
	"index, name, memory.total [MiB], pci.bus_id, compute_cap\n"
	"0, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1A:00.0, 7.0\n"
	"1, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1B:00.0, 7.0\n"
	"2, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1C:00.0, 7.0\n"
	"3, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1D:00.0, 7.0\n";
/* GPU 1 vanished: the ones after it moved down an index. */
static const char query_missing[] =
	"index, name, memory.total [MiB], pci.bus_id, compute_cap\n"
	"0, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1A:00.0, 7.0\n"
	"1, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1C:00.0, 7.0\n"
	"2, Tesla V100-SXM2-32GB, 32768 MiB, 00000000:1D:00.0, 7.0\n";

static void write_inventory(const char *path, bool pci)
{
	static const char *const bus[] = { "0000:1a:00.0", "0000:1b:00.0", "0000:1c:00.0",
					   "0000:1d:00.0" };
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 4; i++) {
		sw_buf_addf(&b, "[gpu \"%d\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\n"
				"bandwidth_gbs = 900\ncompute = 7.0\n", i);
		if (pci)
			sw_buf_addf(&b, "pci = %s\n", bus[i]);
	}
	sw_buf_adds(&b, "[group \"pair-a\"]\ngpus = 0,1\nlink = nvlink\n"
			"[group \"pair-b\"]\ngpus = 2,3\nlink = nvlink\n");
	struct sw_err err = { 0 };
	assert_int_equal(sw_file_write_atomic(path, b.data, b.len, &err), 0);
	sw_buf_release(&b);
}

static void test_presence(void **state)
{
	(void)state;
	struct sw_fleet_hw inv, full, missing;
	struct sw_fleet_presence p;
	struct sw_err err = { 0 };
	char *path = sw_path_join(dir, "hw.ini");

	assert_int_equal(sw_fleet_hw_from_smi(&full, query_full, NULL, &err), 0);
	assert_int_equal(sw_fleet_hw_from_smi(&missing, query_missing, NULL, &err), 0);

	/* With PCI bus ids: GPU 1 is the missing one, 2 and 3 moved to 1 and 2,
	 * pair-b stays usable under its new indices. */
	write_inventory(path, true);
	assert_int_equal(sw_fleet_hw_load(&inv, path, &err), 0);
	sw_fleet_presence_check(&p, &inv, &full);
	assert_int_equal(p.missing, 0);
	assert_null(p.report);
	sw_fleet_presence_release(&p);
	sw_fleet_presence_check(&p, &inv, &missing);
	assert_int_equal(p.missing, 1);
	int a = sw_fleet_hw_find_group(&inv, "pair-a"), b = sw_fleet_hw_find_group(&inv, "pair-b");
	assert_false(p.group_ok[a]);
	assert_true(p.group_ok[b]);
	assert_int_equal(p.now_index[0], 0);
	assert_int_equal(p.now_index[1], -1);
	assert_int_equal(p.now_index[2], 1);
	assert_int_equal(p.now_index[3], 2);
	assert_non_null(strstr(p.report, "GPU 1 (Tesla V100-SXM2-32GB, 0000:1b:00.0) of group pair-a"));
	sw_fleet_presence_release(&p);
	sw_fleet_hw_release(&inv);

	/* Without them only index and name can match: the last index is the
	 * one that looks missing. */
	write_inventory(path, false);
	assert_int_equal(sw_fleet_hw_load(&inv, path, &err), 0);
	sw_fleet_presence_check(&p, &inv, &missing);
	assert_int_equal(p.missing, 1);
	assert_int_equal(p.now_index[3], -1);
	assert_true(p.group_ok[sw_fleet_hw_find_group(&inv, "pair-a")]);
	assert_false(p.group_ok[sw_fleet_hw_find_group(&inv, "pair-b")]);
	sw_fleet_presence_release(&p);
	sw_fleet_hw_release(&inv);

	sw_fleet_hw_release(&full);
	sw_fleet_hw_release(&missing);
	free(path);
}

static void test_legal_text(void **state)
{
	(void)state;
	struct sw_buf a = SW_BUF_INIT, b = SW_BUF_INIT, c = SW_BUF_INIT;
	sw_fleet_legal_text(&a, 5000, 7);
	sw_fleet_legal_text(&b, 5000, 7);
	sw_fleet_legal_text(&c, 5000, 8);
	assert_string_equal(a.data, b.data);
	assert_string_not_equal(a.data, c.data);
	size_t words = 1;
	for (const char *p = a.data; *p; p++)
		words += *p == ' ';
	assert_true(words >= 5000 && words < 5600);
	assert_true(sw_utf8_valid(a.data, a.len));
	sw_buf_release(&a);
	sw_buf_release(&b);
	sw_buf_release(&c);
}

static void test_calibration(void **state)
{
	(void)state;
	struct sw_fleet_bench b = {
		.endpoint = (char *)"board-a", .build = (char *)"b7000-abc",
		.predicted = true, .predicted_for = (char *)"m.gguf on board-a",
		.decode_ratio = 0.5, .prompt_ratio = 2.0, .eta = 0.8, .c_layer_ms = 0.1,
		.pp_tflops = 59, .pp_scale = 0.06, .cc_major = 7, .cc_minor = 0,
		.arch = (char *)"qwen3moe", .moe = true,
	};
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	assert_int_equal(sw_fleet_bench_calibration(&out, &b, NULL, &err), 0);
	const char *g = strstr(out.data, "[gpu \"measured\"]\ncompute = 7.0\neta = 0.4000\n");
	const char *v = strstr(out.data, "[gpu \"volta\"]");
	const char *c = strstr(out.data, "[class \"measured\"]\narch = qwen3moe\nmoe = yes\n"
					 "c_layer_ms = 0.2000\npp_scale = 0.1200\n");
	const char *first_class = strstr(out.data, "\n[class ") + 1;
	assert_non_null(g);
	assert_non_null(v);
	assert_non_null(c);
	assert_true(g < v);
	assert_true(c == first_class);
	/* It is a calibration the planner accepts. */
	struct sw_fleet_calib *cal = NULL;
	assert_int_equal(sw_fleet_calib_parse(&cal, out.data, out.len, "saved", &err), 0);
	sw_fleet_calib_free(cal);
	sw_buf_release(&out);

	b.predicted = false;
	assert_int_equal(sw_fleet_bench_calibration(&out, &b, NULL, &err), SW_EUSAGE);
	b.predicted = true;
	assert_int_equal(sw_fleet_bench_calibration(&out, &b, "[defaults]\neta = 1\n", &err),
			 SW_EINPUT);
	sw_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_conf_hosts),
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_presence),
		cmocka_unit_test(test_legal_text),
		cmocka_unit_test(test_calibration),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
