/*
 * fleet_place_test.c - inventories (INI and captured nvidia-smi output),
 * memory fit, and placement of the reference's models on the example
 * 12x V100-SXM2 box.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "fleet/fleet.h"
#include "fleet_fixtures.h"

static char *dir, *v100x12;
static struct sw_fleet_calib *cal;

static char *data_path(const char *rel)
{
	const char *d = getenv("SW_TEST_DATA");
	return sw_xasprintf("%s/%s", d ? d : "tests/data", rel);
}

static char *read_all(const char *path)
{
	struct sw_buf b = SW_BUF_INIT;
	struct sw_err err = { 0 };
	if (sw_file_read(&b, path, 1 << 20, &err) != 0)
		fail_msg("%s", err.msg);
	return sw_buf_detach(&b, NULL);
}

static const char *group_gpus(const struct sw_fleet_hw *hw, int g, char *out, size_t n)
{
	size_t k = 0;
	out[0] = '\0';
	for (size_t i = 0; i < hw->groups[g].n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%d", i ? "," : "", hw->gpus[hw->groups[g].gpu[i]].index);
	return out;
}

static void test_inventory_ini(void **state)
{
	(void)state;
	struct sw_fleet_hw hw;
	struct sw_err err = { 0 };
	char buf[64];
	assert_int_equal(sw_fleet_hw_load(&hw, v100x12, &err), 0);
	assert_int_equal(hw.ngpus, 12);
	assert_int_equal(hw.ngroups, 4);
	int a = sw_fleet_hw_find_group(&hw, "board-a");
	assert_string_equal(group_gpus(&hw, a, buf, sizeof(buf)), "4,5,8,9");
	assert_true(hw.groups[a].nvlink);
	assert_int_equal(hw.gpus[3].memory_mib, 16384);
	sw_fleet_hw_release(&hw);

	/* Errors name the file and line. */
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "[gpu \"0\"]\nname = x\nmemory_gib = 32\nbandwidth_gbs = 900\n", "needs compute" },
		{ "[gpu \"0\"]\nmemory_gib = lots\ncompute = 7.0\n", ":2: bad memory_gib 'lots': expected 0.5 to 4096" },
		{ "[gpu \"0\"]\nname = x\ncompute = 7.0\n", ":2: [gpu \"0\"] needs memory_gib" },
		{ "[gpu \"0\"]\nname = x\nmemory_gib = 8000\ncompute = 7.0\n", ":3: bad memory_gib '8000': expected 0.5 to 4096" },
		{ "[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\nbandwith_gbs = 900\ncompute = 7.0\n",
		  ":4: unknown key 'bandwith_gbs' in [gpu \"0\"]: did you mean bandwidth_gbs?" },
		{ "[gpu \"0\"]\nname = x\nmemory_gib = 32\nbandwidth_gbs = fast\ncompute = 7.0\n",
		  ":4: bad bandwidth_gbs 'fast': expected 1 to 100000" },
		{ "[gpu \"0\"]\nname = x\nmemory_gib = 32\nbandwidth_gbs = 900\ncompute = 7\n",
		  ":5: bad compute '7': expected the compute capability, e.g. 7.0" },
		{ "[gpu \"0\"]\nname = x\nmemory_gib = 32\nbandwidth_gbs = 900\ncompute = 7.0\n[gruop \"a\"]\ngpus = 0\n",
		  ":7: unknown section [gruop]: did you mean [group]?" },
		{ "[gpu]\nname = x\n", ":2: [gpu] needs a name: [gpu \"NAME\"]" },
		{ "[gpu \"zero\"]\nmemory_gib = 32\n", "nvidia-smi index" },
		{ "[gpu \"0\"]\nname = Mystery\nmemory_gib = 8\ncompute = 8.6\n", "needs bandwidth_gbs" },
		{ "[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\n"
		  "[group \"a\"]\ngpus = 0,7\n", ":6: [group \"a\"]: '7' is not a GPU" },
		{ "[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\n"
		  "[group \"a\"]\ngpus = 0\n[group \"b\"]\ngpus = 0\n", "in two groups" },
		{ "[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\n"
		  "[group \"a\"]\ngpus = 0\nlink = infiniband\n", ":7: bad link 'infiniband': expected nvlink or pcie" },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(bad); i++) {
		char *p = sw_path_join(dir, "bad.ini");
		fx_write(p, bad[i].text, strlen(bad[i].text));
		assert_int_equal(sw_fleet_hw_load(&hw, p, &err), SW_EINPUT);
		if (!strstr(err.msg, bad[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].want);
		free(p);
	}
}

static void test_nvidia_smi(void **state)
{
	(void)state;
	struct sw_fleet_hw hw;
	struct sw_err err = { 0 };
	char buf[64];
	char *qp = data_path("fleet/v100x12-query.csv"), *tp = data_path("fleet/v100x12-topo.txt");
	char *q = read_all(qp), *t = read_all(tp);
	assert_int_equal(sw_fleet_hw_from_smi(&hw, q, t, &err), 0);
	assert_int_equal(hw.ngpus, 12);
	assert_int_equal(hw.gpus[3].memory_mib, 16384);
	assert_int_equal(hw.gpus[0].cc_major, 7);
	assert_true(hw.gpus[0].bandwidth_gbs == 900);
	/* Cliques, not components: the NV1 links 5-6 and 9-10 join no boards. */
	assert_int_equal(hw.ngroups, 4);
	assert_string_equal(group_gpus(&hw, 0, buf, sizeof(buf)), "4,5,8,9");
	assert_string_equal(group_gpus(&hw, 1, buf, sizeof(buf)), "6,7,10,11");
	assert_string_equal(group_gpus(&hw, 2, buf, sizeof(buf)), "0,1");
	assert_string_equal(group_gpus(&hw, 3, buf, sizeof(buf)), "2,3");
	sw_fleet_hw_release(&hw);
	free(q);
	free(t);
	free(qp);
	free(tp);

	qp = data_path("fleet/box2-query.csv");
	tp = data_path("fleet/box2-topo.txt");
	q = read_all(qp);
	t = read_all(tp);
	assert_int_equal(sw_fleet_hw_from_smi(&hw, q, t, &err), 0);
	assert_int_equal(hw.ngroups, 4); /* two 3090 pairs, two lone V100-PCIe */
	assert_string_equal(group_gpus(&hw, 0, buf, sizeof(buf)), "0,1");
	assert_string_equal(hw.groups[2].name, "gpu-4");
	assert_true(hw.gpus[0].bandwidth_gbs == 936);
	sw_fleet_hw_release(&hw);
	/* Without topology every GPU is alone; headerless output reads too. */
	assert_int_equal(sw_fleet_hw_from_smi(&hw, "0, NVIDIA GeForce RTX 3090, 24576 MiB, 00000000:01:00.0, 8.6\n",
					      NULL, &err), 0);
	assert_int_equal(hw.ngroups, 1);
	sw_fleet_hw_release(&hw);
	assert_int_equal(sw_fleet_hw_from_smi(&hw, "index, name\n", NULL, &err), SW_EINPUT);
	assert_int_equal(sw_fleet_hw_from_smi(&hw, "", NULL, &err), SW_EINPUT);
	free(q);
	free(t);
	free(qp);
	free(tp);
}

struct models {
	struct sw_fleet_model m[8];
	struct sw_fleet_request r[8];
	size_t n;
};

static void add(struct models *ms, const struct fx_spec *s, uint32_t ctx)
{
	struct sw_err err = { 0 };
	char name[32];
	snprintf(name, sizeof(name), "m%zu.gguf", ms->n);
	char *path = fx_make(dir, name, s);
	if (sw_fleet_model_load(&ms->m[ms->n], path, &err) != 0)
		fail_msg("%s", err.msg);
	ms->r[ms->n] = (struct sw_fleet_request){ .ctx = ctx, .kv = SW_KV_Q8_0, .slots = 1 };
	ms->n++;
	free(path);
}

static void release(struct models *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		sw_fleet_model_release(&ms->m[i]);
}

static const char *placed_on(const struct sw_fleet_plan *p, const struct sw_fleet_hw *hw, size_t i)
{
	return p->placed[i].group >= 0 ? hw->groups[p->placed[i].group].name : "-";
}

static void test_fit_mixed_pair(void **state)
{
	(void)state;
	struct sw_fleet_hw hw;
	struct sw_err err = { 0 };
	struct models ms = { 0 };
	struct sw_fleet_fit f;
	assert_int_equal(sw_fleet_hw_load(&hw, v100x12, &err), 0);
	add(&ms, &fx_gemma4_26b_a4b, 32768);
	int g = sw_fleet_hw_find_group(&hw, "pair-23");
	sw_fleet_fit(&f, &ms.m[0], &hw, g, &ms.r[0], cal);
	assert_true(f.fits);
	/* The 16 GB GPU gets fewer layers; slots add up to block_count + 1. */
	assert_true(f.layers[1] < f.layers[0]);
	assert_int_equal(f.layers[0] + f.layers[1], 31);
	for (size_t d = 0; d < 2; d++)
		assert_true(f.weights[d] + f.kv[d] + f.compute[d] + f.reserve[d] <= f.capacity[d]);
	assert_true(f.host_bytes > 0); /* token_embd stays in host memory */
	assert_non_null(strstr(f.warn, "Volta"));

	/* Too much context: says what fits instead. */
	struct sw_fleet_request big = { .ctx = 200000, .kv = SW_KV_F16, .slots = 1 };
	add(&ms, &fx_gemma4_31b, 0);
	sw_fleet_fit(&f, &ms.m[1], &hw, g, &big, cal);
	assert_false(f.fits);
	assert_non_null(strstr(f.why, "the largest context that fits is"));
	assert_non_null(strstr(f.why, "-ctk/-ctv q8_0"));
	assert_true(f.max_ctx >= 32768 && f.max_ctx % 256 == 0);
	/* BF16 weights on Volta are flagged. */
	struct fx_spec bf = fx_qwen3_32b;
	bf.type = FX_BF16;
	add(&ms, &bf, 4096);
	sw_fleet_fit(&f, &ms.m[2], &hw, sw_fleet_hw_find_group(&hw, "board-a"), &ms.r[2], cal);
	assert_non_null(strstr(f.warn, "BF16"));
	release(&ms);
	sw_fleet_hw_release(&hw);
}

static void test_place_v100x12(void **state)
{
	(void)state;
	struct sw_fleet_hw hw;
	struct sw_err err = { 0 };
	struct models ms = { 0 };
	struct sw_fleet_plan p;
	struct sw_fleet_plan_opts o = { 0 };
	assert_int_equal(sw_fleet_hw_load(&hw, v100x12, &err), 0);
	add(&ms, &fx_qwen35_122b_a10b, 16384);
	add(&ms, &fx_qwen36_35b_a3b, 32768);
	add(&ms, &fx_gemma4_26b_a4b, 32768);
	add(&ms, &fx_qwen3_32b, 32768);
	ms.r[0].role = "reasoner";
	ms.r[1].role = "drafter";
	assert_int_equal(sw_fleet_plan_make(&p, &hw, ms.m, ms.r, ms.n, &o, cal, &err), 0);
	for (size_t i = 0; i < ms.n; i++)
		printf("%-22s %-8s %6.1f tok/s  %s\n", ms.m[i].name, placed_on(&p, &hw, i),
		       p.placed[i].fit.decode_tps, p.placed[i].reason);
	printf("planned in %.2f ms\n", p.elapsed_ms);
	/* The 122B fits only a board; the small MoEs take the pairs that meet
	 * the floor; the dense 32B meets it nowhere and runs below it. */
	assert_true(strncmp(placed_on(&p, &hw, 0), "board-", 6) == 0);
	assert_string_equal(placed_on(&p, &hw, 1), "pair-01");
	assert_string_equal(placed_on(&p, &hw, 2), "pair-23");
	assert_true(strncmp(placed_on(&p, &hw, 3), "board-", 6) == 0);
	assert_false(p.placed[0].below_floor);
	assert_true(p.placed[3].below_floor);
	assert_non_null(strstr(p.placed[3].reason, "meets the 40 tok/s floor on no free group"));
	assert_int_equal(sw_fleet_plan_unplaced(&p), 0);
	const char *cmd = p.placed[1].command;
	assert_non_null(strstr(cmd, "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 llama-server -m "));
	assert_non_null(strstr(cmd, "--host 127.0.0.1 --port 8082 -ngl 41 -sm layer -ts "));
	assert_non_null(strstr(cmd, "-fa on -ctk q8_0 -ctv q8_0 -c 32768 -np 1 --fit off"));

	struct sw_buf conf = SW_BUF_INIT;
	sw_fleet_plan_conf(&conf, &p);
	assert_non_null(strstr(conf.data, "[endpoint \"pair-01-qwen3-6-35b-a3b\"]\nurl = http://127.0.0.1:8082\n"
				"gpus = 0,1\nslots = 1\n"));
	assert_non_null(strstr(conf.data, "[role \"drafter\"]\nendpoint = pair-01-qwen3-6-35b-a3b\ncontext = 32768\n"));
	sw_buf_release(&conf);

	json_t *j = sw_fleet_plan_json(&p);
	json_t *m0 = json_array_get(json_object_get(j, "models"), 0);
	assert_true(json_is_true(json_object_get(m0, "fits")));
	assert_int_equal(json_array_size(json_object_get(m0, "gpus")), 4);
	assert_int_equal(json_array_size(json_object_get(m0, "memory")), 4);
	assert_true(json_real_value(json_object_get(json_object_get(m0, "predicted"), "decode_tps")) > 40);
	assert_non_null(json_object_get(json_object_get(m0, "predicted"), "prompt_tps"));
	assert_true(json_is_string(json_object_get(m0, "command")));
	json_decref(j);

	struct sw_buf svg = SW_BUF_INIT;
	sw_fleet_plan_svg(&svg, &p);
	assert_true(strncmp(svg.data, "<svg ", 5) == 0);
	assert_non_null(strstr(svg.data, "board-a"));
	assert_non_null(strstr(svg.data, "GPU11"));
	sw_buf_release(&svg);
	sw_fleet_plan_release(&p);

	/* --strict-floor leaves the dense model out, with the reason. */
	o.strict_floor = true;
	assert_int_equal(sw_fleet_plan_make(&p, &hw, ms.m, ms.r, ms.n, &o, cal, &err), 0);
	assert_int_equal(p.placed[3].group, -1);
	assert_non_null(strstr(p.placed[3].reason, "--strict-floor"));
	assert_null(p.placed[3].command);
	sw_fleet_plan_release(&p);

	/* A fifth model finds every group taken. */
	o.strict_floor = false;
	add(&ms, &fx_qwen3_30b_a3b, 32768);
	assert_int_equal(sw_fleet_plan_make(&p, &hw, ms.m, ms.r, ms.n, &o, cal, &err), 0);
	assert_int_equal(sw_fleet_plan_unplaced(&p), 1);
	size_t out = 0;
	for (size_t i = 0; i < ms.n; i++)
		if (p.placed[i].group < 0)
			out = i;
	assert_non_null(strstr(p.placed[out].reason, "serving another model"));
	/* No two models share a group, and no model spans groups. */
	for (size_t i = 0; i < ms.n; i++)
		for (size_t k = i + 1; k < ms.n; k++)
			if (p.placed[i].group >= 0)
				assert_int_not_equal(p.placed[i].group, p.placed[k].group);
	sw_fleet_plan_release(&p);

	/* The 128B dense at Q8_0 fits nowhere: a smaller quantization is named. */
	struct models big = { 0 };
	add(&big, &fx_mistral_128b, 32768);
	assert_int_equal(sw_fleet_plan_make(&p, &hw, big.m, big.r, big.n, &o, cal, &err), 0);
	assert_int_equal(p.placed[0].group, -1);
	assert_non_null(strstr(p.placed[0].reason, "fits no group"));
	assert_non_null(strstr(p.placed[0].reason, "bits/weight"));
	sw_fleet_plan_release(&p);
	/* A pin to an unknown group is a usage error. */
	big.r[0].group = "board-z";
	assert_int_equal(sw_fleet_plan_make(&p, &hw, big.m, big.r, big.n, &o, cal, &err), SW_EUSAGE);
	release(&big);
	release(&ms);
	sw_fleet_hw_release(&hw);
}

static void test_calibration_file(void **state)
{
	(void)state;
	struct sw_fleet_calib *c = NULL;
	struct sw_err err = { 0 };
	const char *bad = "[defaults]\neta = fast\n";
	assert_int_equal(sw_fleet_calib_parse(&c, bad, strlen(bad), "c.ini", &err), SW_EINPUT);
	assert_string_equal(err.msg, "c.ini:2: bad eta 'fast': expected 0 to 1000000000");
	const char *orphan = "eta = 1\n";
	assert_int_equal(sw_fleet_calib_parse(&c, orphan, strlen(orphan), "c.ini", &err), SW_EINPUT);
	const char *typo = "[defaults]\neta = 0.5\n[gpu \"v\"]\ncompute = 7.0\nreserv_mib = 300\n";
	assert_int_equal(sw_fleet_calib_parse(&c, typo, strlen(typo), "c.ini", &err), SW_EINPUT);
	assert_string_equal(err.msg, "c.ini:5: unknown key 'reserv_mib' in [gpu \"v\"]: did you mean reserve_mib?");
	const char *negative = "[class \"x\"]\narch = *\npp_scale = -1\n";
	assert_int_equal(sw_fleet_calib_parse(&c, negative, strlen(negative), "c.ini", &err), SW_EINPUT);
	assert_string_equal(err.msg, "c.ini:3: bad pp_scale '-1': expected 0 to 1000000000");
	const char *moe = "[class \"x\"]\narch = *\nmoe = maybe\n";
	assert_int_equal(sw_fleet_calib_parse(&c, moe, strlen(moe), "c.ini", &err), SW_EINPUT);
	assert_string_equal(err.msg, "c.ini:3: bad moe 'maybe': expected yes, no or any");
	const char *ok = "[defaults]\neta = 0.5 ; half\n[class \"all\"]\narch = *\nc_layer_ms = 0\n";
	assert_int_equal(sw_fleet_calib_parse(&c, ok, strlen(ok), "c.ini", &err), 0);
	sw_fleet_calib_free(c);
}

static int setup(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	dir = fx_tmpdir();
	v100x12 = data_path("../../examples/hardware/v100x12.ini");
	return sw_fleet_calib_load(&cal, NULL, &err);
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);
	free(cmd);
	free(dir);
	free(v100x12);
	sw_fleet_calib_free(cal);
	return rc == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inventory_ini),
		cmocka_unit_test(test_nvidia_smi),
		cmocka_unit_test(test_fit_mixed_pair),
		cmocka_unit_test(test_place_v100x12),
		cmocka_unit_test(test_calibration_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
