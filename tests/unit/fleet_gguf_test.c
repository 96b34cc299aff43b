/*
 * fleet_gguf_test.c - the GGUF reader and the model summary: realistic
 * shapes (MoE, dense, hybrid recurrent, sliding window, tied output, MTP),
 * versions 2 and 3, split models, truncated and corrupt files, limits.
 *
 * Run as `fleet_gguf_test --write DIR` it only writes the fixture models to
 * DIR, for the black-box tests of `sworn gguf` and `sworn plan`.
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

static void near(double got, double want, double tol)
{
	if (got < want * (1 - tol) || got > want * (1 + tol))
		fail_msg("got %.4g, want %.4g within %.0f%%", got, want, tol * 100);
}

static void load(struct sw_fleet_model *m, const struct fx_spec *s)
{
	struct sw_err err = { 0 };
	char *path = fx_make(dir, "x.gguf", s);
	if (sw_fleet_model_load(m, path, &err) != 0)
		fail_msg("%s", err.msg);
	free(path);
}

static void test_moe_qwen3_30b(void **state)
{
	(void)state;
	struct sw_fleet_model m;
	load(&m, &fx_qwen3_30b_a3b);
	assert_string_equal(m.arch, "qwen3moe");
	assert_string_equal(m.file_type, "Q8_0");
	near((double)m.params_total, 30.5e9, 0.01);
	near((double)m.params_active, 3.0e9, 0.03); /* read per token, reference §6 */
	assert_int_equal(m.n_layer, 48);
	assert_int_equal(m.n_expert, 128);
	assert_int_equal(m.n_expert_used, 8);
	assert_int_equal(m.expert_ff, 768);
	assert_int_equal(m.n_kv_layers, 48);
	assert_int_equal(m.n_head_kv, 4);
	assert_int_equal(m.key_len, 128);
	assert_int_equal(m.layers[0].k_elems, 512);
	assert_false(m.output_tied);
	assert_int_equal(m.n_vocab, 151936);
	assert_true(m.layers[3].moe);
	assert_true(m.layers[3].read_bytes < m.layers[3].bytes / 10);
	sw_fleet_model_release(&m);
}

static void test_dense_32b(void **state)
{
	(void)state;
	struct sw_fleet_model m;
	load(&m, &fx_qwen3_32b);
	near((double)m.params_total, 32.76e9, 0.01);
	near((double)m.params_active, 32.0e9, 0.01);
	assert_int_equal(m.n_expert, 0);
	assert_int_equal(m.layers[10].read_bytes, m.layers[10].bytes);
	/* 64 layers x 8 KV heads x 128 x (K + V) x 2 bytes = 256 KiB per token. */
	uint64_t per_token = 0;
	for (uint32_t i = 0; i < m.n_layer; i++)
		per_token += (m.layers[i].k_elems + m.layers[i].v_elems) * 2u;
	assert_int_equal(per_token, 256 * 1024);
	sw_fleet_model_release(&m);
}

static void test_hybrid_recurrent(void **state)
{
	(void)state;
	struct sw_fleet_model m;
	load(&m, &fx_qwen36_35b_a3b);
	near((double)m.params_total, 34.7e9, 0.01);
	near((double)m.params_active, 2.95e9, 0.02);
	assert_int_equal(m.n_recurrent_layers, 30);
	assert_int_equal(m.n_kv_layers, 10);
	assert_true(m.layers[0].recurrent);
	assert_false(m.layers[3].recurrent);
	assert_int_equal(m.layers[0].k_elems, 0);
	uint64_t state_bytes = 0;
	for (uint32_t i = 0; i < m.n_layer; i++)
		state_bytes += m.layers[i].state_bytes;
	near((double)state_bytes, 63.0 * 1024 * 1024, 0.02); /* reference §6: ~63 MiB */
	sw_fleet_model_release(&m);

	load(&m, &fx_qwen36_27b); /* dense hybrid with one MTP layer */
	assert_int_equal(m.n_layer_all, 65);
	assert_int_equal(m.n_layer, 64);
	assert_int_equal(m.n_mtp, 1);
	assert_true(m.layers[64].mtp);
	near((double)m.params_active, 25.6e9, 0.01);
	sw_fleet_model_release(&m);
}

static void test_sliding_window_tied(void **state)
{
	(void)state;
	struct sw_fleet_model m;
	load(&m, &fx_gemma4_26b_a4b);
	near((double)m.params_total, 25.2e9, 0.01);
	near((double)m.params_active, 3.8e9, 0.02);
	assert_true(m.output_tied);
	assert_int_equal(m.n_swa_layers, 25);
	assert_int_equal(m.n_kv_layers, 30);
	assert_int_equal(m.layers[0].window, 1024);
	assert_int_equal(m.layers[5].window, 0);
	assert_int_equal(m.layers[0].k_elems, 8 * 256);
	assert_int_equal(m.layers[5].k_elems, 2 * 512);
	sw_fleet_model_release(&m);

	load(&m, &fx_gemma4_31b); /* the pattern as a bool array */
	assert_int_equal(m.n_swa_layers, 50);
	near((double)m.params_total, 30.7e9, 0.01);
	sw_fleet_model_release(&m);
}

static void test_version2_and_metadata(void **state)
{
	(void)state;
	struct fx_spec s = fx_tiny;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_gguf *g = NULL;
	struct sw_err err = { 0 };
	uint64_t v;
	enum sw_gguf_type t;
	s.version = 2;
	fx_build(&b, &s);
	assert_int_equal(sw_gguf_parse(&g, b.data, b.len, "tiny", &err), 0);
	assert_int_equal(sw_gguf_version(g), 2);
	assert_string_equal(sw_gguf_get_str(g, "general.architecture"), "llama");
	assert_true(sw_gguf_get_u64(g, "llama.block_count", &v));
	assert_int_equal(v, 2);
	assert_true(sw_gguf_get_array(g, "tokenizer.ggml.tokens", &t, &v));
	assert_int_equal(t, SW_GGUF_STRING);
	assert_int_equal(v, 3);
	assert_false(sw_gguf_get_u64(g, "general.name", &v));
	assert_int_equal(sw_gguf_alignment(g), 32);
	assert_string_equal(sw_ggml_type_name(sw_gguf_tensor(g, 0)->type), "Q8_0");
	assert_null(sw_gguf_tensor(g, sw_gguf_tensor_count(g)));
	assert_int_equal(strlen(sw_gguf_header_sha256(g)), 64);
	sw_gguf_close(g);
	sw_buf_release(&b);
}

static void test_type_table(void **state)
{
	(void)state;
	assert_int_equal(sw_ggml_block_size(12), 256);
	assert_int_equal(sw_ggml_type_size(12), 144);
	assert_int_equal(sw_ggml_type_size(39), 17);  /* MXFP4 */
	assert_int_equal(sw_ggml_block_size(40), 64); /* NVFP4 */
	assert_int_equal(sw_ggml_type_size(42), 18);  /* Q2_0 */
	assert_null(sw_ggml_type_name(4));            /* removed */
	assert_null(sw_ggml_type_name(43));
	assert_string_equal(sw_gguf_file_type_name(15), "Q4_K_M");
}

/* A model split in three shards: metadata in the first, tensors in all. */
static void test_split(void **state)
{
	(void)state;
	struct sw_buf whole = SW_BUF_INIT;
	struct sw_gguf *g = NULL;
	struct sw_err err = { 0 };
	fx_build(&whole, &fx_tiny);
	assert_int_equal(sw_gguf_parse(&g, whole.data, whole.len, "tiny", &err), 0);
	size_t nt = sw_gguf_tensor_count(g);
	/* Rebuild as three shards with split.* keys; tensors dealt round. */
	for (uint32_t shard = 0; shard < 3; shard++) {
		struct fx_buf f = { .kv = SW_BUF_INIT, .ti = SW_BUF_INIT };
		struct sw_buf out = SW_BUF_INIT;
		if (shard == 0) {
			fx_kv_str(&f, "general.architecture", "llama");
			fx_kv_u32(&f, "llama.block_count", 2);
			fx_kv_u32(&f, "llama.embedding_length", 64);
			fx_kv_u32(&f, "llama.attention.head_count", 4);
			fx_kv_u32(&f, "llama.attention.head_count_kv", 2);
		}
		fx_str(&f.kv, "split.no");
		fx_u32(&f.kv, 2);
		sw_buf_addc(&f.kv, (char)shard);
		sw_buf_addc(&f.kv, 0);
		fx_str(&f.kv, "split.count");
		fx_u32(&f.kv, 2);
		sw_buf_addc(&f.kv, 3);
		sw_buf_addc(&f.kv, 0);
		f.nkv += 2;
		for (size_t i = shard; i < nt; i += 3) {
			const struct sw_gguf_tensor *t = sw_gguf_tensor(g, i);
			fx_tensor(&f, t->name, t->type, t->ne[0], t->ne[1], t->ne[2]);
		}
		sw_buf_adds(&out, "GGUF");
		fx_u32(&out, 3);
		fx_u64(&out, f.nt);
		fx_u64(&out, f.nkv);
		sw_buf_add(&out, f.kv.data, f.kv.len);
		sw_buf_add(&out, f.ti.data, f.ti.len);
		char name[64];
		snprintf(name, sizeof(name), "tiny-%05u-of-00003.gguf", shard + 1);
		char *path = sw_path_join(dir, name);
		fx_write(path, out.data, out.len);
		free(path);
		sw_buf_release(&out);
		sw_buf_release(&f.kv);
		sw_buf_release(&f.ti);
	}
	struct sw_fleet_model m;
	char *first = sw_path_join(dir, "tiny-00001-of-00003.gguf");
	assert_int_equal(sw_fleet_model_load(&m, first, &err), 0);
	assert_int_equal(m.shards, 3);
	struct sw_fleet_model one;
	char *single = fx_make(dir, "tiny.gguf", &fx_tiny);
	assert_int_equal(sw_fleet_model_load(&one, single, &err), 0);
	assert_int_equal(m.weight_bytes, one.weight_bytes);
	assert_int_equal(m.params_total, one.params_total);
	sw_fleet_model_release(&m);
	sw_fleet_model_release(&one);

	/* A later shard alone is refused; a missing shard is named. */
	char *second = sw_path_join(dir, "tiny-00002-of-00003.gguf");
	assert_int_equal(sw_fleet_model_load(&m, second, &err), SW_EUSAGE);
	char *third = sw_path_join(dir, "tiny-00003-of-00003.gguf");
	assert_int_equal(unlink(third), 0);
	assert_int_equal(sw_fleet_model_load(&m, first, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "tiny-00003-of-00003.gguf"));
	free(first);
	free(second);
	free(third);
	free(single);
	sw_gguf_close(g);
	sw_buf_release(&whole);
}

/* Every prefix of a header fails cleanly, never crashes; the header alone
 * (no weights) is enough. */
static void test_truncated(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_gguf *g = NULL;
	struct sw_err err = { 0 };
	fx_build(&b, &fx_qwen3_30b_a3b);
	for (size_t len = 0; len < b.len; len += len < 64 ? 1 : 997) {
		assert_int_not_equal(sw_gguf_parse(&g, b.data, len, "cut", &err), 0);
		assert_null(g);
		assert_true(err.code == SW_EINPUT);
	}
	assert_int_equal(sw_gguf_parse(&g, b.data, b.len, "whole", &err), 0);
	sw_gguf_close(g);
	sw_buf_release(&b);
}

static char *find(struct sw_buf *b, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i + n <= b->len; i++)
		if (memcmp(b->data + i, s, n) == 0)
			return b->data + i;
	return NULL;
}

static void expect_bad(struct sw_buf *b, int code, const char *needle)
{
	struct sw_gguf *g = NULL;
	struct sw_err err = { 0 };
	assert_int_equal(sw_gguf_parse(&g, b->data, b->len, "bad", &err), code);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	sw_buf_release(b);
}

static void test_corrupt(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	/* Bad magic, version 1, unknown version. */
	fx_build(&b, &fx_tiny);
	b.data[0] = 'X';
	expect_bad(&b, SW_EINPUT, "not a GGUF");
	fx_build(&b, &fx_tiny);
	b.data[4] = 1;
	expect_bad(&b, SW_EINPUT, "version 1");
	/* A huge tensor count is refused before any allocation. */
	fx_build(&b, &fx_tiny);
	memset(b.data + 8, 0xff, 8);
	expect_bad(&b, SW_ELIMIT, "tensors");
	fx_build(&b, &fx_tiny);
	memset(b.data + 16, 0x7f, 4);
	expect_bad(&b, SW_ELIMIT, "metadata");
	/* A key length of 2^60. */
	fx_build(&b, &fx_tiny);
	memset(b.data + 24, 0xff, 7);
	expect_bad(&b, SW_ELIMIT, "metadata key");
	/* Unknown value type in the first key. */
	fx_build(&b, &fx_tiny);
	b.data[24 + 8 + strlen("general.architecture")] = 99;
	expect_bad(&b, SW_EINPUT, "unknown type");
	/* An unknown tensor type (search the first tensor's type field). */
	struct sw_gguf *g = NULL;
	struct sw_err err = { 0 };
	fx_build(&b, &fx_tiny);
	assert_int_equal(sw_gguf_parse(&g, b.data, b.len, "x", &err), 0);
	sw_gguf_close(g);
	const char *tn = "token_embd.weight";
	char *at = find(&b, tn);
	assert_non_null(at);
	at[strlen(tn) + 4 + 16] = 4; /* n_dims u32, two u64 dims, then the type */
	expect_bad(&b, SW_EINPUT, "unknown type 4");
	/* Misaligned offset. */
	fx_build(&b, &fx_tiny);
	at = find(&b, tn);
	at[strlen(tn) + 4 + 16 + 4] = 3;
	expect_bad(&b, SW_EINPUT, "offset");
}

static void test_missing_keys(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_gguf *g = NULL;
	struct sw_fleet_model m;
	struct sw_err err = { 0 };
	/* An empty but valid GGUF: no architecture. */
	sw_buf_adds(&b, "GGUF");
	fx_u32(&b, 3);
	fx_u64(&b, 0);
	fx_u64(&b, 0);
	assert_int_equal(sw_gguf_parse(&g, b.data, b.len, "empty", &err), 0);
	assert_int_equal(sw_fleet_model_from_gguf(&m, g, "empty", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "general.architecture"));
	sw_gguf_close(g);
	sw_buf_release(&b);
}

static int setup(void **state)
{
	(void)state;
	dir = fx_tmpdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);
	free(cmd);
	free(dir);
	return rc == 0 ? 0 : -1;
}

/* The fixture models for the black-box tests. */
static int write_fixtures(const char *to)
{
	static const struct {
		const char *file;
		const struct fx_spec *spec;
	} all[] = {
		{ "qwen3-30b-a3b-q8_0.gguf", &fx_qwen3_30b_a3b },
		{ "qwen3-32b-q8_0.gguf", &fx_qwen3_32b },
		{ "qwen3.6-35b-a3b-q8_0.gguf", &fx_qwen36_35b_a3b },
		{ "qwen3.5-122b-a10b-q8_0.gguf", &fx_qwen35_122b_a10b },
		{ "qwen3.6-27b-q8_0.gguf", &fx_qwen36_27b },
		{ "gemma-4-26b-a4b-q8_0.gguf", &fx_gemma4_26b_a4b },
		{ "gemma-4-31b-q8_0.gguf", &fx_gemma4_31b },
		{ "mistral-medium-3.5-128b-q8_0.gguf", &fx_mistral_128b },
		{ "tiny.gguf", &fx_tiny },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(all); i++)
		free(fx_make(to, all[i].file, all[i].spec));
	struct fx_spec bf = fx_qwen3_32b;
	bf.type = FX_BF16;
	bf.file_type = 32;
	bf.name = "Qwen3-32B-BF16";
	free(fx_make(to, "qwen3-32b-bf16.gguf", &bf));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--write") == 0)
		return write_fixtures(argv[2]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moe_qwen3_30b),
		cmocka_unit_test(test_dense_32b),
		cmocka_unit_test(test_hybrid_recurrent),
		cmocka_unit_test(test_sliding_window_tied),
		cmocka_unit_test(test_version2_and_metadata),
		cmocka_unit_test(test_type_table),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_missing_keys),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
