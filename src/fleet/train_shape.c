/*
 * train_shape.c - what a fine-tune needs of a model: its shapes, from a
 * Hugging Face config.json (training starts from safetensors, and the
 * config sits beside them) or from a GGUF header.
 *
 * Parameter counts are computed from the shapes, not read: a config.json
 * carries none, and computing them is what checks the shapes were read
 * right (the tests compare them with the published totals).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/fleet_int.h"

/* The object holding the language model's keys: the config itself, or its
 * "text_config" (multimodal wrappers such as Qwen3.5/3.6 and Gemma 3). */
static json_t *text_object(json_t *root)
{
	json_t *t = json_object_get(root, "text_config");
	return json_is_object(t) && json_object_get(t, "hidden_size") ? t : root;
}

static bool get_u64(json_t *o, json_t *root, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (!v && o != root)
		v = json_object_get(root, key);
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return true;
	}
	return false;
}

static uint64_t u64_or(json_t *o, json_t *root, const char *key, uint64_t def)
{
	uint64_t v;
	return get_u64(o, root, key, &v) ? v : def;
}

static const char *str_of(json_t *o, json_t *root, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!v && o != root)
		v = json_object_get(root, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A model's name from its config's path: the folder of a config.json
 * (Qwen3-14B/config.json), or the file name without ".config.json". */
static char *config_name(const char *path)
{
	const char *base = sw_path_base(path);
	if (strcmp(base, "config.json") == 0 && base > path) {
		const char *end = base - 1, *start = end;
		while (start > path && start[-1] != '/')
			start--;
		if (end > start)
			return sw_xstrndup(start, (size_t)(end - start));
	}
	size_t n = strlen(base);
	const char *dot = strstr(base, ".config.json");
	if (!dot)
		dot = n > 5 && strcmp(base + n - 5, ".json") == 0 ? base + n - 5 : base + n;
	return sw_xstrndup(base, (size_t)(dot - base));
}

/* Parameters of one full-attention layer's projections. */
static uint64_t attn_params(const struct sw_fleet_train_shape *s)
{
	uint64_t qd = (uint64_t)s->n_head * s->head_dim;
	uint64_t kvd = (uint64_t)s->n_head_kv * s->head_dim;
	return s->n_embd * qd * (s->gated_q ? 2 : 1) + 2 * s->n_embd * kvd + qd * s->n_embd;
}

/* Parameters of one linear-attention (gated delta-net) layer: the q, k, v
 * and z projections in, the two gates' rows, the projection out. */
static uint64_t linear_params(const struct sw_fleet_train_shape *s)
{
	uint64_t qk = (uint64_t)s->lin_qk_heads * s->lin_head_dim;
	uint64_t v = (uint64_t)s->lin_v_heads * s->lin_head_dim;
	return s->n_embd * (2 * qk + 2 * v) + 2 * s->n_embd * s->lin_v_heads + v * s->n_embd;
}

/* Totals from the shapes. */
static void count(struct sw_fleet_train_shape *s)
{
	uint64_t h = s->n_embd;
	uint64_t n_lin = s->n_layer - s->n_attn_layers;
	uint64_t mlp, mlp_active;
	if (s->n_expert) {
		uint64_t shared =
			3 * h * s->shexp_ff * (s->n_expert_shared ? s->n_expert_shared : 1);
		if (!s->shexp_ff)
			shared = 0;
		uint64_t router = h * s->n_expert + (shared ? h : 0);
		mlp = 3 * h * s->expert_ff * s->n_expert + shared + router;
		mlp_active = 3 * h * s->expert_ff * s->n_expert_used + shared + router;
	} else {
		mlp = mlp_active = 3 * h * s->n_ff;
	}
	uint64_t attn = s->n_attn_layers * attn_params(s) + n_lin * linear_params(s);
	uint64_t head = s->n_vocab * h;
	s->params_embed = head * (s->tied ? 1 : 2);
	s->params_total = attn + s->n_layer * mlp + s->params_embed;
	/* The lm_head is computed for every token; the embedding is a lookup. */
	s->params_active = attn + s->n_layer * mlp_active + head;
}

int sw_fleet_train_shape_from_config(struct sw_fleet_train_shape *out, const char *text, size_t len,
			       const char *name, struct sw_err *err)
{
	struct sw_fleet_train_shape *s = out;
	json_error_t je;
	int rc = 0;
	memset(s, 0, sizeof(*s));
	s->source = "config.json";
	s->path = sw_xstrdup(name);
	json_t *root = json_loadb(text, len, 0, &je);
	if (!json_is_object(root)) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' is not a config.json: %s (line %d)", name,
				root ? "not an object" : je.text, je.line);
		goto cleanup;
	}
	json_t *o = text_object(root);
	const char *type = str_of(o, root, "model_type");
	s->arch = sw_xstrdup(type ? type : "unknown");
	const char *nm = str_of(root, root, "_name_or_path");
	s->name = nm && *nm ? sw_xstrdup(sw_path_base(nm)) : config_name(name);
	static const char *const need[] = { "hidden_size", "num_hidden_layers",
					    "num_attention_heads", "vocab_size" };
	uint64_t v[4];
	for (size_t i = 0; i < SW_ARRAY_LEN(need); i++)
		if (!get_u64(o, root, need[i], &v[i]) || v[i] == 0) {
			rc = sw_err_set(err, SW_EINPUT,
					"'%s' has no %s: give the model's own config.json "
					"(beside its safetensors) or its GGUF",
					name, need[i]);
			goto cleanup;
		}
	if (v[0] > (1u << 20) || v[1] > SW_GGUF_MAX_LAYERS || v[2] > 4096 || v[3] > (1u << 24)) {
		rc = sw_err_set(err, SW_ELIMIT,
				"'%s': a shape past any real model's (hidden_size %llu, "
				"%llu layers)",
				name, (unsigned long long)v[0], (unsigned long long)v[1]);
		goto cleanup;
	}
	s->n_embd = v[0];
	s->n_layer = (uint32_t)v[1];
	s->n_head = (uint32_t)v[2];
	s->n_vocab = v[3];
	uint64_t kv = u64_or(o, root, "num_key_value_heads", s->n_head);
	uint64_t hd = u64_or(o, root, "head_dim", s->n_embd / s->n_head);
	s->n_head_kv = kv > UINT32_MAX ? UINT32_MAX : (uint32_t)kv;
	s->head_dim = hd > UINT32_MAX ? UINT32_MAX : (uint32_t)hd;
	s->n_ff = u64_or(o, root, "intermediate_size", 0);
	s->ctx_train = u64_or(o, root, "max_position_embeddings", 0);
	json_t *tie = json_object_get(o, "tie_word_embeddings");
	if (!tie)
		tie = json_object_get(root, "tie_word_embeddings");
	s->tied = json_is_true(tie);
	json_t *gate = json_object_get(o, "attn_output_gate");
	s->gated_q = json_is_true(gate);
	const char *dtype = str_of(o, root, "torch_dtype");
	if (!dtype)
		dtype = str_of(o, root, "dtype");
	s->bf16_trained = dtype && strcmp(dtype, "bfloat16") == 0;

	/* Experts: the names differ by family. */
	uint64_t ne = u64_or(o, root, "num_experts", 0);
	if (!ne)
		ne = u64_or(o, root, "num_local_experts", 0);
	if (!ne)
		ne = u64_or(o, root, "n_routed_experts", 0);
	if (ne > 4096) {
		rc = sw_err_set(err, SW_ELIMIT, "'%s': %llu experts", name, (unsigned long long)ne);
		goto cleanup;
	}
	s->n_expert = (uint32_t)ne;
	if (ne) {
		uint64_t used = u64_or(o, root, "num_experts_per_tok", 1);
		s->n_expert_used = used > ne ? (uint32_t)ne : (uint32_t)used;
		s->expert_ff = u64_or(o, root, "moe_intermediate_size", s->n_ff);
		s->shexp_ff = u64_or(o, root, "shared_expert_intermediate_size", 0);
		uint64_t shared = u64_or(o, root, "n_shared_experts", s->shexp_ff ? 1 : 0);
		s->n_expert_shared = shared > 65 ? 65 : (uint32_t)shared;
		if (!s->shexp_ff && s->n_expert_shared)
			s->shexp_ff = s->expert_ff;
	}

	/* Hybrid attention: layer_types, or every interval-th layer full. */
	/* MTP layers (mtp_num_hidden_layers) are not among these: a
	 * fine-tune leaves them alone. */
	json_t *types = json_object_get(o, "layer_types");
	s->n_attn_layers = s->n_layer;
	if (json_is_array(types) && json_array_size(types) == s->n_layer) {
		uint32_t full = 0;
		for (size_t i = 0; i < json_array_size(types); i++) {
			const char *t = json_string_value(json_array_get(types, i));
			full += !t || strcmp(t, "linear_attention") != 0;
		}
		s->n_attn_layers = full;
	} else if (get_u64(o, root, "full_attention_interval", &v[0]) && v[0] > 0) {
		s->n_attn_layers = (uint32_t)(s->n_layer / v[0]);
	}
	if (s->n_attn_layers < s->n_layer) {
		uint64_t qk = u64_or(o, root, "linear_num_key_heads", s->n_head);
		uint64_t vh = u64_or(o, root, "linear_num_value_heads", qk);
		uint64_t ld = u64_or(o, root, "linear_key_head_dim", s->head_dim);
		s->lin_qk_heads = qk > UINT32_MAX ? UINT32_MAX : (uint32_t)qk;
		s->lin_v_heads = vh > UINT32_MAX ? UINT32_MAX : (uint32_t)vh;
		s->lin_head_dim = ld > UINT32_MAX ? UINT32_MAX : (uint32_t)ld;
	}
	/* Every width past any real model's: a typo, or hostile bytes that
	 * would overflow the counts below. */
	if (s->head_dim > 65536 || s->n_head_kv > 4096 || s->n_ff > (1u << 22) ||
	    s->expert_ff > (1u << 22) || s->shexp_ff > (1u << 22) || s->n_expert_shared > 64 ||
	    s->lin_qk_heads > 4096 || s->lin_v_heads > 4096 || s->lin_head_dim > 65536) {
		rc = sw_err_set(err, SW_ELIMIT,
				"'%s': a width past any real model's (head_dim %u, "
				"intermediate_size %llu)",
				name, s->head_dim, (unsigned long long)s->n_ff);
		goto cleanup;
	}
	if (!s->n_ff && !s->n_expert) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' has no intermediate_size", name);
		goto cleanup;
	}
	count(s);
cleanup:
	json_decref(root);
	if (rc)
		sw_fleet_train_shape_release(s);
	return rc;
}

void sw_fleet_train_shape_from_model(struct sw_fleet_train_shape *out,
				     const struct sw_fleet_model *m)
{
	struct sw_fleet_train_shape *s = out;
	memset(s, 0, sizeof(*s));
	s->source = "GGUF";
	s->path = sw_xstrdup(m->path);
	s->name = sw_xstrdup(m->name);
	s->arch = sw_xstrdup(m->arch);
	s->n_layer = m->n_layer;
	s->n_attn_layers = m->n_kv_layers ? m->n_kv_layers : m->n_layer;
	s->n_embd = m->n_embd;
	s->n_vocab = m->n_vocab;
	s->n_ff = m->n_ff;
	s->n_head = m->n_head;
	s->n_head_kv = m->n_head_kv ? m->n_head_kv : m->n_head;
	s->head_dim = m->key_len ? m->key_len : (m->n_head ? (uint32_t)(m->n_embd / m->n_head) : 0);
	s->n_expert = m->n_expert > 1 ? m->n_expert : 0;
	s->n_expert_used = m->n_expert_used;
	s->n_expert_shared =
		m->n_expert_shared ? m->n_expert_shared : (m->expert_shared_ff ? 1 : 0);
	s->expert_ff = m->expert_ff;
	s->shexp_ff = m->expert_shared_ff;
	/* A GGUF does not say how the recurrent layers' projections are
	 * shaped for a trainer; the attention heads stand in for them. */
	s->lin_qk_heads = s->lin_v_heads = s->n_head;
	s->lin_head_dim = s->head_dim;
	s->tied = m->output_tied;
	s->ctx_train = m->n_ctx_train;
	/* The GGUF's own tensors say more than any shape: take its counts.
	 * Published checkpoints of current families are bfloat16; a GGUF does
	 * not record what the model was trained in. */
	s->bf16_trained = true;
	s->params_embed = s->n_vocab * s->n_embd * (s->tied ? 1 : 2);
	s->params_total = m->params_total;
	s->params_active = m->params_active;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && strcmp(s + a - b, tail) == 0;
}

int sw_fleet_train_shape_load(struct sw_fleet_train_shape *out, const char *path,
			      struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	if (ends_with(path, ".json")) {
		struct sw_buf b = SW_BUF_INIT;
		int rc = sw_file_read(&b, path, SW_FLEET_TRAIN_MAX_CONFIG, err);
		if (rc == 0)
			rc = sw_fleet_train_shape_from_config(out, b.data, b.len, path, err);
		sw_buf_release(&b);
		return rc;
	}
	struct sw_fleet_model m;
	int rc = sw_fleet_model_load(&m, path, err);
	if (rc != 0)
		return rc;
	sw_fleet_train_shape_from_model(out, &m);
	sw_fleet_model_release(&m);
	return 0;
}

void sw_fleet_train_shape_release(struct sw_fleet_train_shape *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->name);
	free(s->arch);
	memset(s, 0, sizeof(*s));
}
