/*
 * fleet_fixtures.h - GGUF headers with realistic shapes, written by the
 * tests: the header and tensor table of a model, no weights (the reader
 * never reads them).  The architectures are those of the reference's
 * calibration table (docs/PERFORMANCE.md), written from their published
 * dimensions; the tests check that the parameter counts come out right.
 */
#ifndef SW_FLEET_FIXTURES_H
#define SW_FLEET_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

#define FX_UNUSED __attribute__((unused))
#define FX_Q8_0 8
#define FX_Q4_K 12
#define FX_F32 0
#define FX_F16 1
#define FX_BF16 30

struct fx_spec {
	const char *arch, *name;
	uint32_t n_layer, n_mtp, ctx_train;
	uint64_t n_embd, n_vocab;
	uint32_t n_head, n_head_kv, head_dim; /* full-attention layers */
	int gated_q;                          /* q projection twice as wide */
	uint32_t swa_window, swa_period;      /* layer il is SWA iff il % P < P-1 */
	int swa_pattern_array;                /* write the pattern as a bool array */
	uint32_t swa_head_kv, swa_head_dim;
	int global_k_is_v;                    /* no attn_v on full layers */
	uint64_t n_ff;                        /* dense FFN width, 0 = none */
	uint32_t n_expert, n_used, n_shared;
	uint64_t expert_ff, shexp_ff;
	uint32_t interval;                    /* full_attention_interval; others recurrent */
	uint32_t gdn_qk_heads, gdn_v_heads, gdn_head_dim, conv_kernel;
	int tied;
	uint32_t type;                        /* ggml type of the big matrices */
	uint32_t version;                     /* GGUF version, default 3 */
	uint32_t file_type;
};

/* Calibration architectures (reference §6). */
static const struct fx_spec fx_qwen3_30b_a3b FX_UNUSED = {
	.arch = "qwen3moe", .name = "Qwen3-30B-A3B", .n_layer = 48, .ctx_train = 40960,
	.n_embd = 2048, .n_vocab = 151936, .n_head = 32, .n_head_kv = 4, .head_dim = 128,
	.n_expert = 128, .n_used = 8, .expert_ff = 768, .type = FX_Q8_0, .file_type = 7,
};
static const struct fx_spec fx_qwen3_32b FX_UNUSED = {
	.arch = "qwen3", .name = "Qwen3-32B", .n_layer = 64, .ctx_train = 40960,
	.n_embd = 5120, .n_vocab = 151936, .n_head = 64, .n_head_kv = 8, .head_dim = 128,
	.n_ff = 25600, .type = FX_Q8_0, .file_type = 7,
};
static const struct fx_spec fx_qwen36_35b_a3b FX_UNUSED = {
	.arch = "qwen35moe", .name = "Qwen3.6-35B-A3B", .n_layer = 40, .ctx_train = 262144,
	.n_embd = 2048, .n_vocab = 248320, .n_head = 16, .n_head_kv = 2, .head_dim = 256,
	.gated_q = 1, .n_expert = 256, .n_used = 8, .n_shared = 1, .expert_ff = 512,
	.shexp_ff = 512, .interval = 4, .gdn_qk_heads = 16, .gdn_v_heads = 32,
	.gdn_head_dim = 128, .conv_kernel = 4, .type = FX_Q8_0, .file_type = 7,
};
static const struct fx_spec fx_qwen35_122b_a10b FX_UNUSED = {
	.arch = "qwen35moe", .name = "Qwen3.5-122B-A10B", .n_layer = 48, .ctx_train = 262144,
	.n_embd = 3072, .n_vocab = 248320, .n_head = 32, .n_head_kv = 2, .head_dim = 256,
	.gated_q = 1, .n_expert = 256, .n_used = 8, .n_shared = 1, .expert_ff = 1024,
	.shexp_ff = 1024, .interval = 4, .gdn_qk_heads = 16, .gdn_v_heads = 64,
	.gdn_head_dim = 128, .conv_kernel = 4, .type = FX_Q8_0, .file_type = 7,
};
static const struct fx_spec fx_qwen36_27b FX_UNUSED = {
	.arch = "qwen35", .name = "Qwen3.6-27B", .n_layer = 64, .n_mtp = 1, .ctx_train = 262144,
	.n_embd = 5120, .n_vocab = 248320, .n_head = 24, .n_head_kv = 4, .head_dim = 256,
	.gated_q = 1, .n_ff = 17408, .interval = 4, .gdn_qk_heads = 16, .gdn_v_heads = 48,
	.gdn_head_dim = 128, .conv_kernel = 4, .type = FX_Q8_0, .file_type = 7,
};
static const struct fx_spec fx_gemma4_26b_a4b FX_UNUSED = {
	.arch = "gemma4", .name = "Gemma-4-26B-A4B", .n_layer = 30, .ctx_train = 262144,
	.n_embd = 2816, .n_vocab = 262144, .n_head = 16, .n_head_kv = 2, .head_dim = 512,
	.swa_window = 1024, .swa_period = 6, .swa_head_kv = 8, .swa_head_dim = 256,
	.global_k_is_v = 1, .n_ff = 2112, .n_expert = 128, .n_used = 8, .expert_ff = 704,
	.tied = 1, .type = FX_Q8_0, .file_type = 7,
};
static const struct fx_spec fx_gemma4_31b FX_UNUSED = {
	.arch = "gemma4", .name = "Gemma-4-31B", .n_layer = 60, .ctx_train = 262144,
	.n_embd = 5376, .n_vocab = 262144, .n_head = 32, .n_head_kv = 4, .head_dim = 512,
	.swa_window = 1024, .swa_period = 6, .swa_pattern_array = 1, .swa_head_kv = 16,
	.swa_head_dim = 256, .global_k_is_v = 1, .n_ff = 21504, .tied = 1, .type = FX_Q8_0,
	.file_type = 7,
};
static const struct fx_spec fx_mistral_128b FX_UNUSED = {
	.arch = "mistral3", .name = "Mistral-Medium-3.5-128B", .n_layer = 88, .ctx_train = 262144,
	.n_embd = 12288, .n_vocab = 131072, .n_head = 96, .n_head_kv = 8, .head_dim = 128,
	.n_ff = 28672, .type = FX_Q8_0, .file_type = 7,
};
/* A small model for seeds and quick tests. */
static const struct fx_spec fx_tiny FX_UNUSED = {
	.arch = "llama", .name = "tiny", .n_layer = 2, .ctx_train = 4096, .n_embd = 64,
	.n_vocab = 256, .n_head = 4, .n_head_kv = 2, .head_dim = 16, .n_ff = 128,
	.type = FX_Q8_0, .file_type = 7,
};

struct fx_buf {
	struct sw_buf b;
	uint32_t nkv, nt;
	struct sw_buf kv, ti;
	uint64_t offset;
	uint32_t version;
};

static void fx_u32(struct sw_buf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		sw_buf_addc(b, (char)(v >> (8 * i)));
}

static void fx_u64(struct sw_buf *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		sw_buf_addc(b, (char)(v >> (8 * i)));
}

static void fx_str(struct sw_buf *b, const char *s)
{
	fx_u64(b, strlen(s));
	sw_buf_adds(b, s);
}

static FX_UNUSED void fx_kv_u32(struct fx_buf *f, const char *k, uint32_t v)
{
	fx_str(&f->kv, k);
	fx_u32(&f->kv, 4);
	fx_u32(&f->kv, v);
	f->nkv++;
}

static FX_UNUSED void fx_kv_str(struct fx_buf *f, const char *k, const char *v)
{
	fx_str(&f->kv, k);
	fx_u32(&f->kv, 8);
	fx_str(&f->kv, v);
	f->nkv++;
}

static FX_UNUSED void fx_kv_arr_u32(struct fx_buf *f, const char *k, const uint32_t *v, uint32_t n,
				    uint32_t elem_type)
{
	fx_str(&f->kv, k);
	fx_u32(&f->kv, 9);
	fx_u32(&f->kv, elem_type);
	fx_u64(&f->kv, n);
	for (uint32_t i = 0; i < n; i++) {
		if (elem_type == 7 || elem_type == 0)
			sw_buf_addc(&f->kv, (char)v[i]);
		else
			fx_u32(&f->kv, v[i]);
	}
	f->nkv++;
}

static uint64_t fx_type_bytes(uint32_t type, uint64_t elems)
{
	switch (type) {
	case FX_F32: return elems * 4;
	case FX_F16: case FX_BF16: return elems * 2;
	case FX_Q8_0: return elems / 32 * 34;
	case FX_Q4_K: return elems / 256 * 144;
	default: return elems;
	}
}

static void fx_tensor(struct fx_buf *f, const char *name, uint32_t type, uint64_t a, uint64_t b,
		      uint64_t c)
{
	uint32_t dims = c > 1 ? 3 : b > 1 ? 2 : 1;
	/* Rows must be whole blocks: quantized types only on wide rows. */
	if ((type == FX_Q8_0 && a % 32) || (type == FX_Q4_K && a % 256))
		type = FX_F16;
	fx_str(&f->ti, name);
	fx_u32(&f->ti, dims);
	fx_u64(&f->ti, a);
	if (dims > 1)
		fx_u64(&f->ti, b);
	if (dims > 2)
		fx_u64(&f->ti, c);
	fx_u32(&f->ti, type);
	fx_u64(&f->ti, f->offset);
	f->offset += (fx_type_bytes(type, a * b * c) + 31) / 32 * 32;
	f->nt++;
}

static void fx_layer_tensor(struct fx_buf *f, uint32_t il, const char *what, uint32_t type,
			    uint64_t a, uint64_t b, uint64_t c)
{
	char name[64];
	snprintf(name, sizeof(name), "blk.%u.%s", il, what);
	fx_tensor(f, name, type, a, b, c);
}

static FX_UNUSED int fx_is_swa(const struct fx_spec *s, uint32_t il)
{
	return s->swa_window && s->swa_period > 1 && il % s->swa_period < s->swa_period - 1;
}

static FX_UNUSED int fx_is_recurrent(const struct fx_spec *s, uint32_t il)
{
	return s->interval && (il + 1) % s->interval != 0 && il < s->n_layer;
}

/* The header and tensor table of spec in out (no weights). */
static FX_UNUSED void fx_build(struct sw_buf *out, const struct fx_spec *s)
{
	struct fx_buf f = { .b = SW_BUF_INIT, .kv = SW_BUF_INIT, .ti = SW_BUF_INIT };
	char key[128];
	const char *a = s->arch;
	uint32_t T = s->type, nl = s->n_layer + s->n_mtp;
	uint64_t E = s->n_embd;
#define K(suffix) (snprintf(key, sizeof(key), "%s.%s", a, suffix), key)
	fx_kv_str(&f, "general.architecture", a);
	fx_kv_str(&f, "general.name", s->name);
	fx_kv_u32(&f, "general.file_type", s->file_type);
	fx_kv_u32(&f, "general.alignment", 32);
	fx_kv_u32(&f, K("block_count"), nl);
	if (s->n_mtp)
		fx_kv_u32(&f, K("nextn_predict_layers"), s->n_mtp);
	fx_kv_u32(&f, K("context_length"), s->ctx_train);
	fx_kv_u32(&f, K("embedding_length"), (uint32_t)E);
	if (s->n_ff)
		fx_kv_u32(&f, K("feed_forward_length"), (uint32_t)s->n_ff);
	fx_kv_u32(&f, K("attention.head_count"), s->n_head);
	fx_kv_u32(&f, K("attention.key_length"), s->head_dim);
	fx_kv_u32(&f, K("attention.value_length"), s->head_dim);
	if (s->swa_window) {
		uint32_t *kvh = calloc(nl, sizeof(uint32_t)), *pat = calloc(nl, sizeof(uint32_t));
		for (uint32_t il = 0; il < nl; il++) {
			pat[il] = (uint32_t)fx_is_swa(s, il);
			kvh[il] = pat[il] ? s->swa_head_kv : s->n_head_kv;
		}
		fx_kv_arr_u32(&f, K("attention.head_count_kv"), kvh, nl, 4);
		fx_kv_u32(&f, K("attention.sliding_window"), s->swa_window);
		if (s->swa_pattern_array)
			fx_kv_arr_u32(&f, K("attention.sliding_window_pattern"), pat, nl, 7);
		else
			fx_kv_u32(&f, K("attention.sliding_window_pattern"), s->swa_period);
		fx_kv_u32(&f, K("attention.key_length_swa"), s->swa_head_dim);
		fx_kv_u32(&f, K("attention.value_length_swa"), s->swa_head_dim);
		free(kvh);
		free(pat);
	} else {
		fx_kv_u32(&f, K("attention.head_count_kv"), s->n_head_kv);
	}
	if (s->n_expert) {
		fx_kv_u32(&f, K("expert_count"), s->n_expert);
		fx_kv_u32(&f, K("expert_used_count"), s->n_used);
		fx_kv_u32(&f, K("expert_feed_forward_length"), (uint32_t)s->expert_ff);
		if (s->n_shared) {
			fx_kv_u32(&f, K("expert_shared_count"), s->n_shared);
			fx_kv_u32(&f, K("expert_shared_feed_forward_length"), (uint32_t)s->shexp_ff);
		}
	}
	if (s->interval) {
		fx_kv_u32(&f, K("full_attention_interval"), s->interval);
		fx_kv_u32(&f, K("ssm.conv_kernel"), s->conv_kernel);
		fx_kv_u32(&f, K("ssm.state_size"), s->gdn_head_dim);
		fx_kv_u32(&f, K("ssm.group_count"), s->gdn_qk_heads);
		fx_kv_u32(&f, K("ssm.time_step_rank"), s->gdn_v_heads);
		fx_kv_u32(&f, K("ssm.inner_size"), s->gdn_v_heads * s->gdn_head_dim);
	}
	/* A short vocabulary array: real ones are read through the same way. */
	fx_str(&f.kv, "tokenizer.ggml.tokens");
	fx_u32(&f.kv, 9);
	fx_u32(&f.kv, 8);
	fx_u64(&f.kv, 3);
	fx_str(&f.kv, "<s>");
	fx_str(&f.kv, "</s>");
	fx_str(&f.kv, "the");
	f.nkv++;
#undef K

	fx_tensor(&f, "token_embd.weight", T, E, s->n_vocab, 1);
	for (uint32_t il = 0; il < nl; il++) {
		fx_layer_tensor(&f, il, "attn_norm.weight", FX_F32, E, 1, 1);
		if (il >= s->n_layer) {
			fx_layer_tensor(&f, il, "nextn.eh_proj.weight", T, 2 * E, E, 1);
		} else if (fx_is_recurrent(s, il)) {
			uint64_t qk = (uint64_t)s->gdn_qk_heads * s->gdn_head_dim;
			uint64_t v = (uint64_t)s->gdn_v_heads * s->gdn_head_dim;
			fx_layer_tensor(&f, il, "attn_qkv.weight", T, E, 2 * qk + v, 1);
			fx_layer_tensor(&f, il, "attn_gate.weight", T, E, v, 1);
			fx_layer_tensor(&f, il, "ssm_conv1d.weight", FX_F32, s->conv_kernel, 2 * qk + v, 1);
			fx_layer_tensor(&f, il, "ssm_a", FX_F32, s->gdn_v_heads, 1, 1);
			fx_layer_tensor(&f, il, "ssm_dt.bias", FX_F32, s->gdn_v_heads, 1, 1);
			fx_layer_tensor(&f, il, "ssm_beta_alpha.weight", T, E, 2 * s->gdn_v_heads, 1);
			fx_layer_tensor(&f, il, "ssm_norm.weight", FX_F32, s->gdn_head_dim, 1, 1);
			fx_layer_tensor(&f, il, "ssm_out.weight", T, v, E, 1);
		} else {
			int swa = fx_is_swa(s, il);
			uint64_t hd = swa ? s->swa_head_dim : s->head_dim;
			uint64_t nkv = swa ? s->swa_head_kv : s->n_head_kv;
			uint64_t q = (uint64_t)s->n_head * hd;
			fx_layer_tensor(&f, il, "attn_q.weight", T, E, s->gated_q ? 2 * q : q, 1);
			fx_layer_tensor(&f, il, "attn_k.weight", T, E, nkv * hd, 1);
			if (swa || !s->global_k_is_v)
				fx_layer_tensor(&f, il, "attn_v.weight", T, E, nkv * hd, 1);
			fx_layer_tensor(&f, il, "attn_output.weight", T, q, E, 1);
		}
		fx_layer_tensor(&f, il, "ffn_norm.weight", FX_F32, E, 1, 1);
		if (s->n_ff) {
			fx_layer_tensor(&f, il, "ffn_gate.weight", T, E, s->n_ff, 1);
			fx_layer_tensor(&f, il, "ffn_up.weight", T, E, s->n_ff, 1);
			fx_layer_tensor(&f, il, "ffn_down.weight", T, s->n_ff, E, 1);
		}
		if (s->n_expert && il < s->n_layer) {
			fx_layer_tensor(&f, il, "ffn_gate_inp.weight", FX_F32, E, s->n_expert, 1);
			fx_layer_tensor(&f, il, "ffn_gate_exps.weight", T, E, s->expert_ff, s->n_expert);
			fx_layer_tensor(&f, il, "ffn_up_exps.weight", T, E, s->expert_ff, s->n_expert);
			fx_layer_tensor(&f, il, "ffn_down_exps.weight", T, s->expert_ff, E, s->n_expert);
			if (s->n_shared) {
				fx_layer_tensor(&f, il, "ffn_gate_shexp.weight", T, E, s->shexp_ff, 1);
				fx_layer_tensor(&f, il, "ffn_up_shexp.weight", T, E, s->shexp_ff, 1);
				fx_layer_tensor(&f, il, "ffn_down_shexp.weight", T, s->shexp_ff, E, 1);
			}
		}
	}
	fx_tensor(&f, "output_norm.weight", FX_F32, E, 1, 1);
	if (!s->tied)
		fx_tensor(&f, "output.weight", T, E, s->n_vocab, 1);

	sw_buf_reset(out);
	sw_buf_adds(out, "GGUF");
	fx_u32(out, s->version ? s->version : 3);
	fx_u64(out, f.nt);
	fx_u64(out, f.nkv);
	sw_buf_add(out, f.kv.data, f.kv.len);
	sw_buf_add(out, f.ti.data, f.ti.len);
	while (out->len % 32)
		sw_buf_addc(out, 0);
	sw_buf_release(&f.kv);
	sw_buf_release(&f.ti);
}

static FX_UNUSED void fx_write(const char *path, const void *data, size_t len)
{
	FILE *fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp) != 0)
		SW_BUG("cannot write fixture '%s'", path);
}

/* Write spec to dir/file; returns the path (caller frees). */
static FX_UNUSED char *fx_make(const char *dir, const char *file, const struct fx_spec *s)
{
	struct sw_buf b = SW_BUF_INIT;
	char *path = sw_path_join(dir, file);
	fx_build(&b, s);
	fx_write(path, b.data, b.len);
	sw_buf_release(&b);
	return path;
}

/* A fresh temporary folder; caller removes it with fx_rmdir. */
static FX_UNUSED char *fx_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	char *dir = sw_xasprintf("%s/sworn-fleet-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		SW_BUG("mkdtemp failed");
	return dir;
}

#endif /* SW_FLEET_FIXTURES_H */
