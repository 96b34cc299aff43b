/*
 * fleet_prefill_test.c - prefill (prompt processing) at the depths
 * drafting uses, against published llama.cpp measurements.  Every row
 * prints measured, predicted and the error, so docs/PERFORMANCE.md's table
 * can be regenerated with `ctest -V -R fleet_prefill`.
 *
 * Target (issue 42 part 4): within 35 % on at least four rows.  The RTX
 * 3090 series of one Qwen3.x-27B (rows "fit") set Ampere's attn_tflops and
 * the V100 pair set Volta's; the others are checks.
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

static char *dir;
static struct sw_fleet_calib *cal;

/* Llama-3.1-8B's shape (llama.cpp's "llama 8B" benchmark model). */
static const struct fx_spec fx_llama8b = {
	.arch = "llama", .name = "Llama-8B", .n_layer = 32, .ctx_train = 131072,
	.n_embd = 4096, .n_vocab = 128256, .n_head = 32, .n_head_kv = 8, .head_dim = 128,
	.n_ff = 14336, .type = FX_Q4_K, .file_type = 15,
};

static const char *const boards[] = {
	"[gpu \"0\"]\nname = NVIDIA GeForce RTX 3090\nmemory_gib = 24\ncompute = 8.6\n",
	"[gpu \"0\"]\nname = Tesla V100-SXM2-32GB\nmemory_gib = 32\ncompute = 7.0\n",
	"[gpu \"0\"]\nname = NVIDIA GeForce RTX 5090\nmemory_gib = 32\ncompute = "
	"12.0\nbandwidth_gbs = 1792\n"
	"[gpu \"1\"]\nname = NVIDIA GeForce RTX 5090\nmemory_gib = 32\ncompute = "
	"12.0\nbandwidth_gbs = 1792\n"
	"[group \"pair\"]\ngpus = 0,1\n",
};

struct row {
	const char *what;       /* model, GPUs, test */
	const struct fx_spec *spec;
	uint32_t quant;         /* ggml type of the big matrices */
	int board;              /* index into boards */
	uint32_t prompt, depth; /* tokens read, tokens already in the cache */
	double measured;
	const char *role;       /* "fit" or "check" */
};

static const struct row rows[] = {
	{ "llama 8B Q4_0, RTX 3090, pp512 @ d32768", &fx_llama8b,
	  FX_Q4_K, 0, 512, 32768, 1448, "check" },
	{ "Qwen3.x-27B Q4_K, RTX 3090, 1k prompt", &fx_qwen36_27b,
	  FX_Q4_K, 0, 1024, 0, 673, "check" },
	{ "Qwen3.x-27B Q4_K, RTX 3090, 8k prompt", &fx_qwen36_27b,
	  FX_Q4_K, 0, 8024, 0, 993, "fit" },
	{ "Qwen3.x-27B Q4_K, RTX 3090, 32k prompt", &fx_qwen36_27b,
	  FX_Q4_K, 0, 32025, 0, 889, "fit" },
	{ "Qwen3.x-27B Q4_K, RTX 3090, 64k prompt", &fx_qwen36_27b,
	  FX_Q4_K, 0, 64025, 0, 737, "fit" },
	{ "Qwen3.x-27B Q4_K, RTX 3090, 128k prompt", &fx_qwen36_27b,
	  FX_Q4_K, 0, 128026, 0, 540, "fit" },
	{ "Qwen3.6-35B-A3B 4-bit, V100, 4k prompt", &fx_qwen36_35b_a3b,
	  FX_Q4_K, 1, 4096, 0, 372, "fit" },
	{ "Qwen3.6-35B-A3B 4-bit, V100, 16k prompt", &fx_qwen36_35b_a3b,
	  FX_Q4_K, 1, 16384, 0, 349, "fit" },
	{ "Qwen3.x-27B, 2x RTX 5090 split, 10k prompt", &fx_qwen36_27b,
	  FX_Q8_0, 2, 10000, 0, 4190, "check" },
	{ "Qwen3.x-27B, 2x RTX 5090 split, 90k prompt", &fx_qwen36_27b,
	  FX_Q8_0, 2, 89999, 0, 3035, "check" },
};

static int setup(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	dir = fx_tmpdir();
	if (sw_fleet_calib_load(&cal, NULL, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
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
	sw_fleet_calib_free(cal);
	return 0;
}

/* Predicted prompt tok/s of a row: a prompt of `prompt` tokens after
 * `depth` cached ones attends on average to depth + prompt/2 tokens,
 * which is what a prompt of 2 x depth + prompt tokens from empty does. */
static double predict(const struct row *r)
{
	struct sw_err err = { 0 };
	struct sw_fleet_hw hw = { 0 };
	struct sw_fleet_model m;
	struct sw_fleet_fit fit;
	struct fx_spec s = *r->spec;
	s.type = r->quant;
	char *ini = sw_path_join(dir, "board.ini");
	fx_write(ini, boards[r->board], strlen(boards[r->board]));
	assert_int_equal(sw_fleet_hw_load(&hw, ini, &err), 0);
	char *path = fx_make(dir, "m.gguf", &s);
	assert_int_equal(sw_fleet_model_load(&m, path, &err), 0);
	struct sw_fleet_request req = { .ctx = 131072, .kv = SW_KV_Q8_0, .slots = 1 };
	sw_fleet_fit(&fit, &m, &hw, 0, &req, cal);
	double p = sw_fleet_prompt_tps(&m, &hw, 0, &fit, 2 * r->depth + r->prompt, cal);
	sw_fleet_model_release(&m);
	sw_fleet_hw_release(&hw);
	free(path);
	free(ini);
	return p;
}

static void test_published_prefill(void **state)
{
	(void)state;
	size_t hits = 0, checks = 0, check_hits = 0;
	printf("%-46s %9s %9s %8s\n", "published prefill", "measured", "predicted", "error");
	for (size_t i = 0; i < SW_ARRAY_LEN(rows); i++) {
		double p = predict(&rows[i]);
		double e = (p - rows[i].measured) / rows[i].measured;
		bool hit = e > -0.35 && e < 0.35;
		printf("%-46s %9.0f %9.0f %+7.0f%%  %s%s\n", rows[i].what, rows[i].measured, p,
		       100 * e, rows[i].role, hit ? "" : "  MISS");
		hits += hit;
		if (strcmp(rows[i].role, "check") == 0) {
			checks++;
			check_hits += hit;
		}
	}
	printf("within 35%%: %zu of %zu rows, %zu of %zu checks\n", hits, SW_ARRAY_LEN(rows),
	       check_hits, checks);
	assert_true(hits >= 4);
	assert_true(check_hits * 2 >= checks);
}

/* Attention is what slows long prompts: the same model reads a 128k
 * prompt slower than an 8k one, and more so on Volta, whose attention
 * kernel is slow. */
static void test_depth_slows_prefill(void **state)
{
	(void)state;
	struct row a = rows[2], b = rows[5];
	double short_3090 = predict(&a), long_3090 = predict(&b);
	assert_true(long_3090 < short_3090 * 0.7);
	a.board = b.board = 1;
	double short_v100 = predict(&a), long_v100 = predict(&b);
	assert_true(long_v100 / short_v100 < long_3090 / short_3090);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_published_prefill),
		cmocka_unit_test(test_depth_slows_prefill),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
