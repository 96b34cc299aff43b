/* fleet_gpu_test.c - the GPUs right now: nvidia-smi's health and
 * per-process CSV, NVML through the test stand-in library, the offload
 * check (a model that is on the CPU) and the health rows of a fleet (a GPU
 * the inventory names and the driver lacks is missing). */
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

#include "fleet/fleet_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static const char GPUS[] =
	"0, 00000000:1A:00.0, Tesla V100-SXM2-32GB, 32768, 18000, 45, 61.23, 300.00,"
	" 0x0000000000000004, 0\n"
	"1, 00000000:1B:00.0, Tesla V100-SXM2-32GB, 32768, 410, 80, [N/A], [N/A], [N/A],"
	" [Not Supported]\n";
static const char APPS[] = "4242, 17600, 00000000:1A:00.0\n"
			   "4242, 410, 00000000:1B:00.0\n"
			   "999, [N/A], 00000000:1B:00.0\n";

static void test_smi(void **state)
{
	struct sw_fleet_gpus_now g;
	struct sw_err err = { 0 };
	char thr[64];
	(void)state;

	assert_int_equal(sw__fleet_gpus_smi_parse(&g, GPUS, APPS, &err), 0);
	assert_string_equal(g.source, "nvidia-smi");
	assert_int_equal(g.n, 2);
	assert_string_equal(g.gpus[0].pci, "00000000:1A:00.0");
	assert_string_equal(g.gpus[0].name, "Tesla V100-SXM2-32GB");
	assert_int_equal(g.gpus[0].temp_c, 45);
	assert_true(g.gpus[0].power_w > 61.2 && g.gpus[0].power_w < 61.3);
	assert_true(g.gpus[0].power_limit_w == 300);
	assert_int_equal(g.gpus[0].throttle, 4);
	assert_int_equal(g.gpus[0].ecc_uncorrected, 0);
	assert_true(g.gpus[1].power_w < 0);
	assert_int_equal(g.gpus[1].throttle, -1);
	assert_int_equal(g.gpus[1].ecc_uncorrected, -1);
	assert_true(g.gpus[0].procs_known);
	assert_int_equal(sw_fleet_gpu_used_by(&g.gpus[0], 4242), (uint64_t)17600 << 20);
	assert_int_equal(sw_fleet_gpu_used_by(&g.gpus[1], 4242), (uint64_t)410 << 20);
	assert_int_equal(sw_fleet_gpu_used_by(&g.gpus[1], 999), 0);
	assert_int_equal(g.gpus[1].nprocs, 2);
	sw_fleet_throttle_text(thr, sizeof(thr), g.gpus[0].throttle);
	assert_string_equal(thr, "power cap");
	sw_fleet_throttle_text(thr, sizeof(thr), 0x1 | 0x40);
	assert_string_equal(thr, "thermal (hardware)");
	sw_fleet_throttle_text(thr, sizeof(thr), 0x1);
	assert_string_equal(thr, "none");
	sw_fleet_gpus_release(&g);

	/* Without the per-process query: health, processes unknown. */
	assert_int_equal(sw__fleet_gpus_smi_parse(&g, GPUS, NULL, &err), 0);
	assert_false(g.gpus[0].procs_known);
	sw_fleet_gpus_release(&g);

	/* Bad input: one line, nothing kept. */
	assert_int_equal(sw__fleet_gpus_smi_parse(&g, "0, x\n", NULL, &err), SW_EINPUT);
	assert_string_equal(err.msg, "nvidia-smi line 1: expected 10 fields");
	assert_int_equal(sw__fleet_gpus_smi_parse(&g, "", NULL, &err), SW_EINPUT);
	assert_int_equal(sw__fleet_gpus_smi_parse(&g, GPUS, "x, 1, 2\n", &err), SW_EINPUT);
	assert_int_equal(g.n, 0);
}

static void test_offload(void **state)
{
	struct sw_fleet_gpus_now g;
	struct sw_err err = { 0 };
	char why[512];
	int idx[2] = { 0, 1 };
	uint64_t planned[2] = { (uint64_t)(17.5 * GIB), (uint64_t)(19 * GIB) };
	(void)state;

	assert_int_equal(sw__fleet_gpus_smi_parse(&g, GPUS, APPS, &err), 0);
	/* GPU 1 holds 0.4 GiB of its 19 GiB. */
	assert_int_equal(sw_fleet_offload_check(why, sizeof(why), &g, 4242, idx, planned, 2), 1);
	assert_non_null(strstr(why, "model on the CPU: 0.4 GiB of 19.0 GiB on GPU 1"));
	/* GPU 0 alone is as planned. */
	assert_int_equal(sw_fleet_offload_check(why, sizeof(why), &g, 4242, idx, planned, 1), 0);
	/* another process's memory is not the server's */
	assert_int_equal(sw_fleet_offload_check(why, sizeof(why), &g, 777, idx, planned, 1), 1);
	sw_fleet_gpus_release(&g);

	/* No per-process list: not measured, not failed. */
	assert_int_equal(sw__fleet_gpus_smi_parse(&g, GPUS, NULL, &err), 0);
	assert_int_equal(sw_fleet_offload_check(why, sizeof(why), &g, 4242, idx, planned, 2), -1);
	assert_non_null(strstr(why, "offload not measured"));
	sw_fleet_gpus_release(&g);
}

static void test_nvml(void **state)
{
	const char *lib = getenv("SW_FAKE_NVML_LIB");
	char path[] = "/tmp/sworn-nvml-XXXXXX";
	struct sw_fleet_gpus_now g;
	struct sw_err err = { 0 };
	(void)state;

	assert_non_null(lib);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("gpu 0 00000000:1A:00.0 32768 51 250.5 300 0x20 3 Tesla V100-SXM2-32GB\n"
	      "gpu 1 00000000:1B:00.0 32768 40 50 300 0x0 - Tesla V100-SXM2-32GB\n"
	      "proc 1 4242 410\n", f);
	fclose(f);
	setenv("SWORN_NVML", lib, 1);
	setenv("SW_FAKE_NVML", path, 1);
	assert_int_equal(sw_fleet_gpus_read(&g, &err), 0);
	assert_string_equal(g.source, "NVML");
	assert_int_equal(g.n, 2);
	assert_string_equal(g.gpus[0].name, "Tesla V100-SXM2-32GB");
	assert_string_equal(g.gpus[1].pci, "00000000:1B:00.0");
	assert_int_equal(g.gpus[0].temp_c, 51);
	assert_true(g.gpus[0].power_w > 250.4 && g.gpus[0].power_w < 250.6);
	assert_int_equal(g.gpus[0].throttle, 0x20);
	assert_int_equal(g.gpus[0].ecc_uncorrected, 3);
	assert_int_equal(g.gpus[1].ecc_uncorrected, -1);
	assert_int_equal(sw_fleet_gpu_used_by(&g.gpus[1], 4242), (uint64_t)410 << 20);
	assert_true(g.gpus[0].procs_known);
	sw_fleet_gpus_release(&g);

	/* No driver loaded, no nvidia-smi: one error naming both. */
	unsetenv("SW_FAKE_NVML");
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(sw_fleet_gpus_read(&g, &err), SW_EIO);
	assert_non_null(strstr(err.msg, "NVML: cannot initialise: Driver Not Loaded"));
	assert_non_null(strstr(err.msg, "nvidia-smi"));
	setenv("SWORN_NVML", "off", 1);
	assert_int_equal(sw__fleet_gpus_nvml(&g, &err), SW_ENOTFOUND);
	unlink(path);
}

static void test_health(void **state)
{
	struct sw_fleet_gpus_now g;
	struct sw_fleet_hw inv = { 0 };
	struct sw_fleet_state st = { 0 };
	struct sw_fleet_state_server srv = { 0 };
	struct sw_fleet_gpu_health *rows = NULL;
	struct sw_err err = { 0 };
	struct sw_buf text = SW_BUF_INIT;
	size_t n = 0;
	char ini[] = "/tmp/sworn-inv-XXXXXX";
	(void)state;

	int fd = mkstemp(ini);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\npci = "
	      "00000000:1A:00.0\n"
	      "[gpu \"1\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\npci = "
	      "00000000:1B:00.0\n"
	      "[gpu \"2\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\npci = "
	      "00000000:1C:00.0\n"
	      "[group \"pair\"]\ngpus = 0,1\nlink = nvlink\n",
	      f);
	fclose(f);
	assert_int_equal(sw_fleet_hw_load(&inv, ini, &err), 0);
	assert_int_equal(sw__fleet_gpus_smi_parse(&g, GPUS, APPS, &err), 0);
	srv.name = (char *)"pair-01-model";
	srv.gpus = (char *)"0,1";
	srv.pid = 4242;
	srv.process_running = true;
	st.servers = &srv;
	st.nservers = 1;
	sw_fleet_gpu_health(&rows, &n, &inv, &g, &st);
	assert_int_equal(n, 3);
	assert_false(rows[0].missing);
	assert_string_equal(rows[0].server, "pair-01-model");
	assert_true(rows[0].server_known);
	assert_int_equal(rows[0].server_bytes, (uint64_t)17600 << 20);
	assert_true(rows[2].missing);
	sw_fleet_gpu_health_text(&text, rows, n, g.source);
	assert_non_null(strstr(text.data, "GPUs (nvidia-smi):"));
	assert_non_null(strstr(text.data, "17.2 GiB"));
	assert_non_null(strstr(text.data, "45 C"));
	assert_non_null(strstr(text.data, "61/300 W"));
	assert_non_null(strstr(text.data, "power cap"));
	assert_non_null(strstr(text.data, "missing"));
	assert_non_null(
		strstr(text.data, "GPU 2 (Tesla V100-SXM2-32GB) of group gpu-2 is missing"));
	assert_non_null(strstr(text.data, "cold"));
	json_t *j = sw_fleet_gpu_health_json(rows, n);
	assert_int_equal(json_array_size(j), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 2), "state")),
			    "missing");
	json_decref(j);
	free(rows);
	sw_buf_release(&text);
	sw_fleet_gpus_release(&g);
	sw_fleet_hw_release(&inv);
	unlink(ini);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smi),
		cmocka_unit_test(test_offload),
		cmocka_unit_test(test_nvml),
		cmocka_unit_test(test_health),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
