/*
 * model.c - from a GGUF header to what planning needs: per-layer weight
 * bytes, the bytes one decoded token reads, KV cache geometry, sliding
 * windows and recurrent state.
 *
 * Tensor shapes are trusted over metadata where both exist (reference §3):
 * a layer with blk.N.ssm_* tensors is recurrent whatever the keys say, and
 * attn_k's rows give the KV heads times the head size of that very layer.
 * Metadata fills in what shapes cannot say (windows, experts used).
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

struct keys {
	const struct sw_gguf *g;
	const char *arch;
};

/* {arch}.suffix as an integer, scalar or per-layer array element il. */
static bool key_u64(const struct keys *k, const char *suffix, uint32_t il, uint64_t *out)
{
	char key[256];
	snprintf(key, sizeof(key), "%s.%s", k->arch, suffix);
	if (sw_gguf_get_u64(k->g, key, out))
		return true;
	return sw_gguf_get_array_u64(k->g, key, il, out);
}

static uint64_t key_or(const struct keys *k, const char *suffix, uint32_t il, uint64_t def)
{
	uint64_t v;
	return key_u64(k, suffix, il, &v) ? v : def;
}

static bool is_array(const struct keys *k, const char *suffix)
{
	char key[256];
	snprintf(key, sizeof(key), "%s.%s", k->arch, suffix);
	return sw_gguf_get_array(k->g, key, NULL, NULL);
}

/* "blk.12.ffn_up_exps.weight" -> 12 and the rest after the dot. */
static bool layer_of(const char *name, uint32_t *il, const char **rest)
{
	if (strncmp(name, "blk.", 4) != 0)
		return false;
	const char *p = name + 4;
	uint64_t v = 0;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > SW_GGUF_MAX_LAYERS)
			return false;
		p++;
	}
	if (*p != '.')
		return false;
	*il = (uint32_t)v;
	*rest = p + 1;
	return true;
}

static uint64_t elems(const struct sw_gguf_tensor *t)
{
	return t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3];
}

static bool arch_is(const char *arch, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(arch, *list) == 0)
			return true;
	return false;
}

/* Architectures whose recurrent layers follow full_attention_interval. */
static const char *const interval_archs[] = { "qwen3next", "qwen35", "qwen35moe", NULL };

int sw_fleet_model_from_gguf(struct sw_fleet_model *out, const struct sw_gguf *g,
			     const char *path, struct sw_err *err)
{
	struct sw_fleet_model *m = out;
	struct keys k = { g, NULL };
	uint64_t v;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->path = sw_xstrdup(path);
	const char *arch = sw_gguf_get_str(g, "general.architecture");
	if (!arch || !*arch || strlen(arch) > 64) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' has no general.architecture", path);
		goto cleanup;
	}
	m->arch = sw_xstrdup(arch);
	k.arch = m->arch;
	const char *name = sw_gguf_get_str(g, "general.name");
	m->name = sw_xstrdup(name && *name ? name : sw_path_base(path));
	const char *ft = sw_gguf_get_u64(g, "general.file_type", &v) ? sw_gguf_file_type_name(v) : NULL;
	m->file_type = sw_xstrdup(ft ? ft : "unknown");
	m->header_sha256 = sw_xstrdup(sw_gguf_header_sha256(g));
	m->gguf_version = sw_gguf_version(g);
	m->shards = sw_gguf_shards(g);
	m->file_bytes = sw_gguf_file_bytes(g);

	if (!key_u64(&k, "block_count", 0, &v) || v == 0) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' has no %s.block_count", path, arch);
		goto cleanup;
	}
	if (v > SW_GGUF_MAX_LAYERS) {
		rc = sw_err_set(err, SW_ELIMIT, "'%s': %llu layers (limit %u)", path,
				(unsigned long long)v, SW_GGUF_MAX_LAYERS);
		goto cleanup;
	}
	m->n_layer_all = (uint32_t)v;
	m->n_mtp = (uint32_t)key_or(&k, "nextn_predict_layers", 0, 0);
	if (m->n_mtp >= m->n_layer_all)
		m->n_mtp = 0;
	m->n_layer = m->n_layer_all - m->n_mtp;
	m->n_ctx_train = key_or(&k, "context_length", 0, 0);
	m->n_embd = key_or(&k, "embedding_length", 0, 0);
	m->n_expert = (uint32_t)key_or(&k, "expert_count", 0, 0);
	m->n_expert_used = (uint32_t)key_or(&k, "expert_used_count", 0, 0);
	m->n_expert_shared = (uint32_t)key_or(&k, "expert_shared_count", 0, 0);
	m->expert_ff = key_or(&k, "expert_feed_forward_length", 0, 0);
	m->expert_shared_ff = key_or(&k, "expert_shared_feed_forward_length", 0, 0);
	m->n_ff = key_or(&k, "feed_forward_length", 0, 0);
	m->layers = sw_xcalloc(m->n_layer_all, sizeof(*m->layers));

	/* Tensors: bytes per layer, experts read at the router's rate. */
	const struct sw_gguf_tensor *tok = NULL, *outw = NULL;
	for (size_t i = 0; i < sw_gguf_tensor_count(g); i++) {
		const struct sw_gguf_tensor *t = sw_gguf_tensor(g, i);
		uint32_t il;
		const char *rest;
		m->params_total += elems(t);
		m->weight_bytes += t->bytes;
		m->bytes_by_type[t->type] += t->bytes;
		if (t->type == 30)
			m->has_bf16 = true;
		if (strcmp(t->name, "token_embd.weight") == 0) {
			tok = t;
			m->embd_bytes = t->bytes;
			continue;
		}
		if (strcmp(t->name, "output.weight") == 0 || strcmp(t->name, "output_norm.weight") == 0) {
			if (strcmp(t->name, "output.weight") == 0)
				outw = t;
			m->output_bytes += t->bytes;
			m->output_params += elems(t);
			continue;
		}
		if (!layer_of(t->name, &il, &rest) || il >= m->n_layer_all) {
			/* Other global tensors (rope factors, position embeddings):
			 * small; count them with the output layer. */
			m->output_bytes += t->bytes;
			m->output_params += elems(t);
			continue;
		}
		struct sw_fleet_layer *L = &m->layers[il];
		L->bytes += t->bytes;
		L->params += elems(t);
		if (strstr(rest, "nextn") || il >= m->n_layer)
			L->mtp = true;
		if (strncmp(rest, "ssm_", 4) == 0)
			L->recurrent = true;
		bool expert = strstr(rest, "_exps") != NULL || strstr(rest, "_chexps") != NULL;
		if (expert) {
			L->moe = true;
			uint64_t n_exp = m->n_expert ? m->n_expert : t->ne[2];
			uint64_t used = m->n_expert_used ? m->n_expert_used : n_exp;
			if (n_exp == 0 || used > n_exp)
				used = n_exp = 1;
			L->read_bytes += t->bytes / n_exp * used;
			L->active_params += elems(t) / n_exp * used;
		} else {
			L->read_bytes += t->bytes;
			L->active_params += elems(t);
		}
		if (strcmp(rest, "attn_k.weight") == 0 && t->ne[1] <= UINT32_MAX)
			L->k_elems = (uint32_t)t->ne[1];
		if (strcmp(rest, "attn_v.weight") == 0 && t->ne[1] <= UINT32_MAX)
			L->v_elems = (uint32_t)t->ne[1];
	}
	if (!m->n_embd && tok)
		m->n_embd = tok->ne[0];
	if (!m->n_embd) {
		rc = sw_err_set(err, SW_EINPUT, "'%s' has no %s.embedding_length", path, arch);
		goto cleanup;
	}
	if (tok)
		m->n_vocab = tok->ne[1];
	else if (key_u64(&k, "vocab_size", 0, &v))
		m->n_vocab = v;
	else if (sw_gguf_get_array(g, "tokenizer.ggml.tokens", NULL, &v))
		m->n_vocab = v;
	if (!outw && tok) {
		/* Tied embeddings: llama.cpp puts a copy of token_embd on the
		 * output device, and every token reads it. */
		m->output_tied = true;
		m->output_bytes += tok->bytes;
		m->output_params += elems(tok);
	}

	/* Attention geometry, sliding windows and recurrent layers. */
	uint64_t n_head0 = key_or(&k, "attention.head_count", 0, 0);
	uint64_t swa = key_or(&k, "attention.sliding_window", 0, 0);
	uint64_t pattern = 0;
	bool pattern_array = is_array(&k, "attention.sliding_window_pattern");
	if (!pattern_array)
		pattern = key_or(&k, "attention.sliding_window_pattern", 0, 0);
	uint64_t interval = key_or(&k, "full_attention_interval", 0,
				   arch_is(arch, interval_archs) ? 4 : 0);
	bool recurrent_array = is_array(&k, "attention.recurrent_layers");
	uint64_t lora = key_or(&k, "attention.kv_lora_rank", 0, 0);
	uint64_t rope = key_or(&k, "rope.dimension_count", 0, 0);
	uint64_t conv = key_or(&k, "ssm.conv_kernel", 0, 0);
	uint64_t inner = key_or(&k, "ssm.inner_size", 0, 0);
	uint64_t state = key_or(&k, "ssm.state_size", 0, 0);
	uint64_t groups = key_or(&k, "ssm.group_count", 0, 0);
	uint64_t shared_kv = key_or(&k, "attention.shared_kv_layers", 0, 0);
	if (swa > SW_FLEET_MAX_CTX)
		swa = SW_FLEET_MAX_CTX;
	m->swa_window = (uint32_t)swa;

	for (uint32_t il = 0; il < m->n_layer_all; il++) {
		struct sw_fleet_layer *L = &m->layers[il];
		if (recurrent_array)
			L->recurrent = key_or(&k, "attention.recurrent_layers", il, 0) != 0;
		else if (interval && (il + 1) % interval != 0 && !L->mtp)
			L->recurrent = true;
		if (L->mtp)
			continue;
		if (L->recurrent) {
			L->k_elems = L->v_elems = 0;
			/* Conv state (kernel-1 columns) and the SSM / delta-net
			 * state, both F32, per sequence. */
			uint64_t conv_ch = inner + 2 * groups * state;
			uint64_t st = (state * inner + (conv ? conv - 1 : 0) * conv_ch) * 4;
			L->state_bytes = st > (UINT64_C(1) << 40) ? 0 : st;
			m->n_recurrent_layers++;
			continue;
		}
		bool is_swa = false;
		if (pattern_array)
			is_swa = key_or(&k, "attention.sliding_window_pattern", il, 0) != 0;
		else if (pattern > 1)
			is_swa = il % pattern < pattern - 1;
		if (swa && is_swa)
			L->window = (uint32_t)swa;
		uint64_t nh = key_or(&k, "attention.head_count", il, n_head0);
		uint64_t nkv = key_or(&k, "attention.head_count_kv", il, nh);
		uint64_t kl = key_or(&k, L->window ? "attention.key_length_swa" : "attention.key_length", 0,
				     key_or(&k, "attention.key_length", 0, nh ? m->n_embd / nh : 0));
		uint64_t vl = key_or(&k, L->window ? "attention.value_length_swa" : "attention.value_length", 0,
				     key_or(&k, "attention.value_length", 0, kl));
		if (lora) {
			L->k_elems = (uint32_t)(lora + rope);
			L->v_elems = 0;
		} else {
			if (!L->k_elems && nkv * kl <= UINT32_MAX)
				L->k_elems = (uint32_t)(nkv * kl);
			if (!L->v_elems && nkv * vl <= UINT32_MAX)
				L->v_elems = (uint32_t)(nkv * vl);
			if (nkv == 0)
				L->k_elems = L->v_elems = 0;
		}
		if (shared_kv && il >= m->n_layer - (shared_kv < m->n_layer ? shared_kv : m->n_layer))
			L->k_elems = L->v_elems = 0;
		if (L->k_elems || L->v_elems) {
			m->n_kv_layers++;
			if (L->window)
				m->n_swa_layers++;
			if (!m->n_head) {
				m->n_head = (uint32_t)(nh <= UINT32_MAX ? nh : 0);
				m->n_head_kv = (uint32_t)(nkv <= UINT32_MAX ? nkv : 0);
				m->key_len = (uint32_t)(kl <= UINT32_MAX ? kl : 0);
				m->value_len = (uint32_t)(vl <= UINT32_MAX ? vl : 0);
			}
		}
	}
	if (!m->n_head)
		m->n_head = (uint32_t)(n_head0 <= UINT32_MAX ? n_head0 : 0);
	for (uint32_t il = 0; il < m->n_layer_all; il++)
		if (!m->layers[il].mtp)
			m->params_active += m->layers[il].active_params;
	m->params_active += m->output_params;
	if (!m->n_expert)
		for (uint32_t il = 0; il < m->n_layer_all; il++)
			if (m->layers[il].moe)
				m->n_expert = 1;
cleanup:
	if (rc)
		sw_fleet_model_release(m);
	return rc;
}

int sw_fleet_model_load(struct sw_fleet_model *out, const char *path, struct sw_err *err)
{
	struct sw_gguf *g = NULL;
	int rc = sw_gguf_open(&g, path, err);
	if (rc == 0)
		rc = sw_fleet_model_from_gguf(out, g, path, err);
	else
		memset(out, 0, sizeof(*out));
	sw_gguf_close(g);
	return rc;
}

void sw_fleet_model_release(struct sw_fleet_model *m)
{
	if (!m)
		return;
	free(m->path);
	free(m->name);
	free(m->arch);
	free(m->file_type);
	free(m->header_sha256);
	free(m->layers);
	memset(m, 0, sizeof(*m));
}
