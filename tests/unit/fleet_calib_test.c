/*
 * fleet_calib_test.c - the speed model against the reference's seed table
 * (4x V100-SXM2-32GB on one NVLink board, Q8_0 weights, q4_0 KV cache, flash
 * attention, context 4k) and one independent anchor.  Every row prints its
 * prediction and error, so the numbers in docs/PERFORMANCE.md can be
 * regenerated with `ctest -V -R fleet_calib`.
 *
 * Targets (issue 7): each MoE row within 15 %, each dense 27-32B row inside
 * the measured 20-28 tok/s band.  The ~128B dense row is disputed: at Q8_0
 * its seed (9 tok/s) is above what a layer split can physically reach, so
 * it is checked for consistency (the model must not exceed that bound, and
 * must not fit the board at Q8_0), not fitted.
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
#include "fleet_fixtures.h"

struct row {
	const struct fx_spec *spec;
	double seed, lo, hi; /* lo/hi: the band that passes */
	const char *kind;
};

static char *dir;
static struct sw_fleet_hw hw;
static struct sw_fleet_calib *cal;

static int setup(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	const char *data = getenv("SW_TEST_DATA");
	char *inv = sw_xasprintf("%s/../../examples/hardware/v100x12.ini", data ? data : "tests/data");
	dir = fx_tmpdir();
	if (sw_fleet_hw_load(&hw, inv, &err) != 0 || sw_fleet_calib_load(&cal, NULL, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		free(inv);
		return -1;
	}
	free(inv);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(cmd);
	free(dir);
	sw_fleet_hw_release(&hw);
	sw_fleet_calib_free(cal);
	return 0;
}

/* Predicted decode tok/s of spec on group at ctx 4k, q4_0 KV. */
static double predict(const struct fx_spec *spec, const char *group, uint32_t ctx,
		      struct sw_fleet_fit *fit, struct sw_fleet_model *m)
{
	struct sw_err err = { 0 };
	char *path = fx_make(dir, "m.gguf", spec);
	assert_int_equal(sw_fleet_model_load(m, path, &err), 0);
	struct sw_fleet_request req = { .ctx = ctx, .kv = SW_KV_Q4_0, .slots = 1 };
	int g = sw_fleet_hw_find_group(&hw, group);
	assert_true(g >= 0);
	sw_fleet_fit(fit, m, &hw, g, &req, cal);
	free(path);
	return sw_fleet_decode_tps(m, &hw, g, fit, SW_KV_Q4_0, ctx, cal);
}

static void test_seed_table(void **state)
{
	(void)state;
	const struct row rows[] = {
		{ &fx_gemma4_26b_a4b, 113, 113 * 0.85, 113 * 1.15, "MoE" },
		{ &fx_qwen36_35b_a3b, 82, 82 * 0.85, 82 * 1.15, "MoE" },
		{ &fx_qwen35_122b_a10b, 50, 50 * 0.85, 50 * 1.15, "MoE" },
		{ &fx_qwen36_27b, 24, 20, 28, "dense" },
		{ &fx_gemma4_31b, 24, 20, 28, "dense" },
		{ &fx_qwen3_32b, 24, 20, 28, "dense" },
	};
	printf("%-26s %8s %9s %7s  %s\n", "model (4x V100, Q8_0)", "seed", "predicted", "error", "target");
	for (size_t i = 0; i < SW_ARRAY_LEN(rows); i++) {
		struct sw_fleet_fit fit;
		struct sw_fleet_model m;
		double p = predict(rows[i].spec, "board-a", 4096, &fit, &m);
		bool dense = strcmp(rows[i].kind, "dense") == 0;
		if (dense)
			printf("%-26s %8s %9.1f %7s  inside 20-28 tok/s%s\n", rows[i].spec->name, "20-28", p, "-",
			       fit.fits ? "" : " (does not fit)");
		else
			printf("%-26s %8.0f %9.1f %+6.1f%%  within 15%%%s\n", rows[i].spec->name, rows[i].seed, p,
			       100 * (p - rows[i].seed) / rows[i].seed, fit.fits ? "" : " (does not fit)");
		assert_true(fit.fits);
		assert_true(p >= rows[i].lo && p <= rows[i].hi);
		sw_fleet_model_release(&m);
	}
}

static void test_disputed_128b(void **state)
{
	(void)state;
	struct sw_fleet_fit fit;
	struct sw_fleet_model m;
	double p = predict(&fx_mistral_128b, "board-a", 4096, &fit, &m);
	/* The layer-split bound: one GPU's bandwidth over the bytes of a token. */
	double bound = 900e9 / ((double)m.params_active * 34 / 32);
	printf("%-26s %8s %9.1f %+6.1f%%  disputed: layer-split bound %.1f tok/s; fits %s\n",
	       fx_mistral_128b.name, "~9", p, 100 * (p - 9) / 9, bound, fit.fits ? "yes" : "no");
	assert_true(p <= bound);
	assert_false(fit.fits);
	assert_true(strstr(fit.why, "quantization") != NULL);
	sw_fleet_model_release(&m);
}

/* Not used to fit the constants: Qwen3.6-35B-A3B at 4 bits on one V100,
 * 16k context, 98.8 tok/s (renfield PR 1267). */
static void test_held_out_anchor(void **state)
{
	(void)state;
	struct fx_spec s = fx_qwen36_35b_a3b;
	struct sw_fleet_fit fit;
	struct sw_fleet_model m;
	s.type = FX_Q4_K;
	s.file_type = 15;
	double p;
	struct sw_fleet_hw one = { 0 };
	struct sw_err err = { 0 };
	char *ini = sw_path_join(dir, "one.ini");
	const char *text = "[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\n";
	fx_write(ini, text, strlen(text));
	assert_int_equal(sw_fleet_hw_load(&one, ini, &err), 0);
	char *path = fx_make(dir, "q4.gguf", &s);
	assert_int_equal(sw_fleet_model_load(&m, path, &err), 0);
	struct sw_fleet_request req = { .ctx = 16384, .kv = SW_KV_Q8_0, .slots = 1 };
	sw_fleet_fit(&fit, &m, &one, 0, &req, cal);
	p = sw_fleet_decode_tps(&m, &one, 0, &fit, SW_KV_Q8_0, 16384, cal);
	printf("%-26s %8.1f %9.1f %+6.1f%%  held out (1x V100, 4-bit, 16k); prompt %.0f tok/s vs 352\n",
	       "Qwen3.6-35B-A3B Q4_K", 98.8, p, 100 * (p - 98.8) / 98.8, fit.prompt_tps);
	assert_true(fit.fits);
	assert_true(p >= 98.8 * 0.85 && p <= 98.8 * 1.15);
	sw_fleet_model_release(&m);
	sw_fleet_hw_release(&one);
	free(path);
	free(ini);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_table),
		cmocka_unit_test(test_disputed_128b),
		cmocka_unit_test(test_held_out_anchor),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
