/*
 * fit.c - memory fit and speed of one model on one group of GPUs.
 *
 * Memory follows llama.cpp's layer split (reference §4.1): slots are
 * block_count + 1 (the output layer is the extra last slot), -ts gives the
 * slots per GPU, token_embd stays in host memory, a tied output matrix is
 * copied onto the last GPU, MTP layers count as slots but are not loaded.
 *
 * Speed (reference §5): one decoded token reads, GPU after GPU, every
 * weight of its layers (MoE: the router's share of the experts), the KV of
 * every attention layer up to the current position (or window) and the
 * recurrent state twice; each GPU streams at eta times its peak bandwidth,
 * and each layer costs a fixed launch overhead.  Prefill is compute bound:
 * the weights' FLOPs at the GPU's GEMM rate, attention's at the rate of the
 * flash-attention kernel that architecture runs (it dominates at tens of
 * thousands of tokens), and a split's activations over its link.
 */
#include <string.h>

#include "fleet/fleet_int.h"

#define MIB (1024.0 * 1024.0)
#define UBATCH 512
#define CTX_PAD 256
#define HOP_MS 0.03 /* one activation copy between GPUs */

const uint32_t sw_fleet_depths[SW_FLEET_DEPTHS] = { 1024, 4096, 16384, 32768 };

static const struct {
	const char *name;
	double bytes;
} kv_types[SW_KV_COUNT] = {
	[SW_KV_F32] = { "f32", 4 }, [SW_KV_F16] = { "f16", 2 }, [SW_KV_BF16] = { "bf16", 2 },
	[SW_KV_Q8_0] = { "q8_0", 34.0 / 32 }, [SW_KV_Q4_0] = { "q4_0", 18.0 / 32 },
	[SW_KV_Q4_1] = { "q4_1", 20.0 / 32 }, [SW_KV_IQ4_NL] = { "iq4_nl", 18.0 / 32 },
	[SW_KV_Q5_0] = { "q5_0", 22.0 / 32 }, [SW_KV_Q5_1] = { "q5_1", 24.0 / 32 },
};

bool sw_fleet_kv_parse(enum sw_fleet_kv *out, const char *s)
{
	for (int i = 0; i < SW_KV_COUNT; i++)
		if (sw_streq_ci(s, kv_types[i].name)) {
			*out = (enum sw_fleet_kv)i;
			return true;
		}
	return false;
}

const char *sw_fleet_kv_name(enum sw_fleet_kv kv)
{
	return kv < SW_KV_COUNT ? kv_types[kv].name : "?";
}

double sw__fleet_kv_bytes(enum sw_fleet_kv kv)
{
	return kv < SW_KV_COUNT ? kv_types[kv].bytes : 2;
}

static uint32_t pad_ctx(uint32_t ctx)
{
	uint64_t c = ((uint64_t)ctx + CTX_PAD - 1) / CTX_PAD * CTX_PAD;
	return c > SW_FLEET_MAX_CTX ? SW_FLEET_MAX_CTX : (uint32_t)c;
}

/* The device of each slot under the counts in fit->layers. */
static size_t device_of(const struct sw_fleet_fit *fit, uint32_t slot)
{
	uint32_t acc = 0;
	for (size_t d = 0; d < fit->ndev; d++) {
		acc += fit->layers[d];
		if (slot < acc)
			return d;
	}
	return fit->ndev - 1;
}

static uint64_t cells(const struct sw_fleet_layer *L, uint32_t ctx, uint32_t slots)
{
	if (!L->window)
		return ctx;
	uint64_t swa = ((uint64_t)L->window * slots + UBATCH + CTX_PAD - 1) / CTX_PAD * CTX_PAD;
	return swa < ctx ? swa : ctx;
}

static uint64_t ff_width(const struct sw_fleet_model *m)
{
	uint64_t ff = m->n_ff;
	uint64_t moe = m->expert_ff * (m->n_expert_used ? m->n_expert_used : 1) + m->expert_shared_ff;
	return moe > ff ? moe : ff;
}

void sw__fleet_fit_memory(struct sw_fleet_fit *fit, const struct sw_fleet_model *m,
			  const struct sw_fleet_hw *hw, int group, uint32_t ctx,
			  enum sw_fleet_kv kv, uint32_t slots, const struct sw_fleet_calib *cal)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	double kvb = sw__fleet_kv_bytes(kv);
	size_t d = 0;
	uint32_t slot = 0, acc = fit->layers[0];

	fit->ndev = g->n;
	for (size_t i = 0; i < g->n; i++) {
		fit->weights[i] = fit->kv[i] = fit->compute[i] = 0;
	}
	/* Walk layers once, advancing the device as the counts run out. */
	for (; slot < m->n_layer_all; slot++) {
		while (slot >= acc && d + 1 < fit->ndev)
			acc += fit->layers[++d];
		const struct sw_fleet_layer *L = &m->layers[slot];
		if (L->mtp)
			continue;
		fit->weights[d] += L->bytes;
		fit->kv[d] += (uint64_t)((L->k_elems + L->v_elems) * kvb * (double)cells(L, ctx, slots));
		fit->kv[d] += L->state_bytes * slots;
	}
	size_t last = device_of(fit, m->n_layer_all);
	fit->weights[last] += m->output_bytes;
	fit->host_bytes = m->embd_bytes;
	fit->fits = true;
	double act = (double)UBATCH * (4.0 * (double)m->n_embd + 2.0 * (double)ff_width(m)) * 4;
	for (size_t i = 0; i < fit->ndev; i++) {
		struct sw__fleet_consts c;
		const struct sw_fleet_gpu *gpu = &hw->gpus[g->gpu[i]];
		sw__fleet_consts(&c, cal, m, gpu);
		fit->compute[i] = (uint64_t)(c.compute_mib * MIB + act);
		if (i == last)
			fit->compute[i] += (uint64_t)m->n_vocab * UBATCH * 4;
		fit->reserve[i] = (uint64_t)((c.reserve_mib + c.margin_mib) * MIB);
		fit->capacity[i] = gpu->memory_mib * (uint64_t)MIB;
		if (fit->weights[i] + fit->kv[i] + fit->compute[i] + fit->reserve[i] > fit->capacity[i])
			fit->fits = false;
	}
}

static int64_t spare(const struct sw_fleet_fit *f, size_t d)
{
	return (int64_t)f->capacity[d] -
	       (int64_t)(f->weights[d] + f->kv[d] + f->compute[d] + f->reserve[d]);
}

double sw_fleet_decode_tps(const struct sw_fleet_model *m, const struct sw_fleet_hw *hw,
			   int group, const struct sw_fleet_fit *fit, enum sw_fleet_kv kv,
			   uint32_t depth, const struct sw_fleet_calib *cal)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	double kvb = sw__fleet_kv_bytes(kv);
	double bytes[SW_FLEET_MAX_GPUS] = { 0 };
	uint32_t nl[SW_FLEET_MAX_GPUS] = { 0 };
	for (uint32_t il = 0; il < m->n_layer_all; il++) {
		const struct sw_fleet_layer *L = &m->layers[il];
		if (L->mtp)
			continue;
		size_t d = device_of(fit, il);
		uint64_t pos = L->window && L->window < depth ? L->window : depth;
		bytes[d] += (double)L->read_bytes + (L->k_elems + L->v_elems) * kvb * (double)pos +
			    2.0 * (double)L->state_bytes;
		nl[d]++;
	}
	bytes[device_of(fit, m->n_layer_all)] += (double)m->output_bytes;
	double ms = 0;
	size_t used = 0;
	for (size_t d = 0; d < fit->ndev; d++) {
		struct sw__fleet_consts c;
		const struct sw_fleet_gpu *gpu = &hw->gpus[g->gpu[d]];
		sw__fleet_consts(&c, cal, m, gpu);
		ms += bytes[d] / (c.eta * gpu->bandwidth_gbs * 1e9) * 1e3 + nl[d] * c.c_layer_ms;
		if (fit->layers[d])
			used++;
	}
	if (used > 1)
		ms += (double)(used - 1) * HOP_MS;
	return ms > 0 ? 1e3 / ms : 0;
}

/* Activations between GPUs of a layer split, bytes/s: NVLink or PCIe. */
#define LINK_NVLINK_BPS 40e9
#define LINK_PCIE_BPS 12e9

const uint32_t sw_fleet_prompt_depths[SW_FLEET_PROMPT_DEPTHS] = { 1024, 16384, 65536 };

double sw_fleet_prompt_tps(const struct sw_fleet_model *m, const struct sw_fleet_hw *hw, int group,
			   const struct sw_fleet_fit *fit, uint32_t n,
			   const struct sw_fleet_calib *cal)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	double weights[SW_FLEET_MAX_GPUS] = { 0 }, attn[SW_FLEET_MAX_GPUS] = { 0 };
	/* Each token of the prompt attends to those before it: half the
	 * prompt on average, or the window. */
	for (uint32_t il = 0; il < m->n_layer_all; il++) {
		const struct sw_fleet_layer *L = &m->layers[il];
		if (L->mtp)
			continue;
		size_t d = device_of(fit, il);
		double pos = L->window && L->window < n / 2 ? L->window : n / 2.0;
		weights[d] += 2.0 * (double)L->active_params;
		if (L->k_elems)
			attn[d] += 4.0 * m->n_head * (double)m->key_len * pos;
	}
	weights[device_of(fit, m->n_layer_all)] += 2.0 * (double)m->output_params;
	double s = 0;
	size_t used = 0;
	for (size_t d = 0; d < fit->ndev; d++) {
		struct sw__fleet_consts c;
		sw__fleet_consts(&c, cal, m, &hw->gpus[g->gpu[d]]);
		s += weights[d] / (c.pp_tflops * c.pp_scale * 1e12) +
		     attn[d] / (c.attn_tflops * 1e12);
		used += fit->layers[d] > 0;
	}
	/* A split sends each token's activations (f32) to the next GPU. */
	if (used > 1)
		s += (double)(used - 1) * (double)m->n_embd * 4 /
		     (g->nvlink ? LINK_NVLINK_BPS : LINK_PCIE_BPS);
	return s > 0 ? 1.0 / s : 0;
}

/* Initial counts proportional to each GPU's memory, largest remainder. */
static void split_by_memory(struct sw_fleet_fit *fit, const struct sw_fleet_hw *hw, int group,
			    uint32_t nslots)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	double total = 0, share[SW_FLEET_MAX_GPUS];
	uint32_t given = 0;
	for (size_t d = 0; d < g->n; d++)
		total += (double)hw->gpus[g->gpu[d]].memory_mib;
	for (size_t d = 0; d < g->n; d++) {
		share[d] = nslots * (double)hw->gpus[g->gpu[d]].memory_mib / total;
		fit->layers[d] = (uint32_t)share[d];
		given += fit->layers[d];
	}
	/* Leftovers go to the last GPUs first: the output layer sits there
	 * and tends to need less of the count, so balance from the back. */
	while (given < nslots) {
		size_t best = 0;
		double frac = -1;
		for (size_t d = g->n; d-- > 0;)
			if (share[d] - fit->layers[d] > frac) {
				frac = share[d] - fit->layers[d];
				best = d;
			}
		fit->layers[best]++;
		share[best] = fit->layers[best];
		given++;
	}
	fit->ndev = g->n;
}

/* Find counts that fit, then the fastest among nearby ones. */
static void choose_split(struct sw_fleet_fit *fit, const struct sw_fleet_model *m,
			 const struct sw_fleet_hw *hw, int group, uint32_t ctx,
			 const struct sw_fleet_request *req, const struct sw_fleet_calib *cal)
{
	uint32_t nslots = m->n_layer_all + 1;
	size_t D = hw->groups[group].n;
	split_by_memory(fit, hw, group, nslots);
	sw__fleet_fit_memory(fit, m, hw, group, ctx, req->kv, req->slots, cal);
	/* Repair: move one slot from the most overfull GPU to the one with
	 * the most room, while that helps. */
	for (uint32_t it = 0; !fit->fits && D > 1 && it < nslots * D; it++) {
		size_t worst = 0, best = 0;
		for (size_t d = 1; d < D; d++) {
			if (spare(fit, d) < spare(fit, worst))
				worst = d;
			if (spare(fit, d) > spare(fit, best))
				best = d;
		}
		if (worst == best || fit->layers[worst] == 0)
			break;
		int64_t before = spare(fit, worst) < spare(fit, best) ? spare(fit, worst) : spare(fit, best);
		fit->layers[worst]--;
		fit->layers[best]++;
		sw__fleet_fit_memory(fit, m, hw, group, ctx, req->kv, req->slots, cal);
		int64_t after = spare(fit, worst) < spare(fit, best) ? spare(fit, worst) : spare(fit, best);
		if (after <= before && !fit->fits) {
			fit->layers[worst]++;
			fit->layers[best]--;
			sw__fleet_fit_memory(fit, m, hw, group, ctx, req->kv, req->slots, cal);
			break;
		}
	}
	if (!fit->fits || D < 2)
		return;
	/* Mixed bandwidth: move slots to faster GPUs while it stays inside
	 * memory and speeds decode up. */
	const struct sw_fleet_group *g = &hw->groups[group];
	bool mixed = false;
	for (size_t d = 1; d < D; d++)
		if (hw->gpus[g->gpu[d]].bandwidth_gbs != hw->gpus[g->gpu[0]].bandwidth_gbs)
			mixed = true;
	if (!mixed)
		return;
	double cur = sw_fleet_decode_tps(m, hw, group, fit, req->kv, ctx, cal);
	for (uint32_t it = 0; it < nslots * D; it++) {
		size_t bf = 0, bt = 0;
		double best = cur;
		for (size_t a = 0; a < D; a++)
			for (size_t b = 0; b < D; b++) {
				if (a == b || fit->layers[a] == 0)
					continue;
				fit->layers[a]--;
				fit->layers[b]++;
				sw__fleet_fit_memory(fit, m, hw, group, ctx, req->kv, req->slots, cal);
				double t = fit->fits ? sw_fleet_decode_tps(m, hw, group, fit, req->kv, ctx, cal) : 0;
				if (t > best * 1.0001) {
					best = t;
					bf = a;
					bt = b;
				}
				fit->layers[a]++;
				fit->layers[b]--;
			}
		if (best <= cur)
			break;
		fit->layers[bf]--;
		fit->layers[bt]++;
		cur = best;
	}
	sw__fleet_fit_memory(fit, m, hw, group, ctx, req->kv, req->slots, cal);
}

static uint32_t effective_ctx(const struct sw_fleet_model *m, const struct sw_fleet_request *req)
{
	uint32_t ctx = req->ctx;
	if (!ctx) {
		ctx = 32768;
		if (m->n_ctx_train && m->n_ctx_train < ctx)
			ctx = (uint32_t)m->n_ctx_train;
	}
	return pad_ctx(ctx ? ctx : CTX_PAD);
}

/* The largest context (multiple of 256) that fits with kv, 0 if none. */
static uint32_t max_fitting_ctx(const struct sw_fleet_model *m, const struct sw_fleet_hw *hw,
				int group, const struct sw_fleet_request *req, enum sw_fleet_kv kv,
				const struct sw_fleet_calib *cal)
{
	struct sw_fleet_fit f;
	struct sw_fleet_request r = *req;
	uint32_t lo = 0, hi = (uint32_t)(m->n_ctx_train ? m->n_ctx_train : 131072) / CTX_PAD;
	r.kv = kv;
	if (hi > SW_FLEET_MAX_CTX / CTX_PAD)
		hi = SW_FLEET_MAX_CTX / CTX_PAD;
	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;
		memset(&f, 0, sizeof(f));
		choose_split(&f, m, hw, group, mid * CTX_PAD, &r, cal);
		if (f.fits)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo * CTX_PAD;
}

static void gib(char *out, size_t n, double bytes)
{
	snprintf(out, n, "%.1f GiB", bytes / (MIB * 1024));
}

static void explain(struct sw_fleet_fit *fit, const struct sw_fleet_model *m,
		    const struct sw_fleet_hw *hw, int group, const struct sw_fleet_request *req,
		    const struct sw_fleet_calib *cal)
{
	double cap = 0, fixed = 0, weights = 0, kv = 0;
	char a[32], b[32], c[32];
	for (size_t d = 0; d < fit->ndev; d++) {
		cap += (double)fit->capacity[d];
		fixed += (double)(fit->compute[d] + fit->reserve[d]);
		weights += (double)fit->weights[d];
		kv += (double)fit->kv[d];
	}
	gib(a, sizeof(a), weights);
	gib(b, sizeof(b), cap - fixed);
	gib(c, sizeof(c), kv);
	uint32_t mc = weights > cap - fixed ? 0 : max_fitting_ctx(m, hw, group, req, req->kv, cal);
	if (mc == 0) {
		/* The weights themselves do not fit (in total, or as whole layers
		 * on these GPUs): name the quantization that would, and a group. */
		double params = (double)(m->params_total ? m->params_total : 1);
		double bpw = (cap - fixed - kv) * 0.95 * 8 / params;
		int gi = -1;
		size_t best = 0;
		for (size_t i = 0; i < hw->ngroups; i++) {
			double gc = 0;
			for (size_t k = 0; k < hw->groups[i].n; k++)
				gc += (double)hw->gpus[hw->groups[i].gpu[k]].memory_mib * MIB;
			if (gc * 0.93 > weights + kv + fixed && (gi < 0 || hw->groups[i].n < best)) {
				gi = (int)i;
				best = hw->groups[i].n;
			}
		}
		snprintf(fit->why, sizeof(fit->why),
			 "weights need %s and the group has %s after reserves%s: use a smaller quantization "
			 "(at most ~%.1f bits/weight)%s%s",
			 a, b, weights > cap - fixed ? "" : " (whole layers do not divide across its GPUs)",
			 bpw > 0 ? bpw : 0.0, gi >= 0 ? " or a larger group such as " : "",
			 gi >= 0 ? hw->groups[gi].name : "");
		return;
	}
	fit->max_ctx = mc;
	enum sw_fleet_kv smaller = req->kv == SW_KV_Q4_0 ? req->kv
				   : (req->kv == SW_KV_Q8_0 || req->kv == SW_KV_Q5_1 || req->kv == SW_KV_Q5_0)
				   ? SW_KV_Q4_0 : SW_KV_Q8_0;
	uint32_t mc2 = smaller != req->kv ? max_fitting_ctx(m, hw, group, req, smaller, cal) : 0;
	if (mc > 0) {
		size_t n = (size_t)snprintf(fit->why, sizeof(fit->why),
			 "at context %u the KV cache (%s %s) does not fit beside %s of weights: "
			 "the largest context that fits is %u",
			 fit->ctx, c, sw_fleet_kv_name(req->kv), a, mc);
		if (mc2 > mc && n < sizeof(fit->why))
			snprintf(fit->why + n, sizeof(fit->why) - n, ", or %u with -ctk/-ctv %s", mc2,
				 sw_fleet_kv_name(smaller));
		return;
	}
}

static void warnings(struct sw_fleet_fit *fit, const struct sw_fleet_model *m,
		     const struct sw_fleet_hw *hw, int group, const struct sw_fleet_request *req)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	bool volta = false, old = false;
	size_t n = 0;
	for (size_t d = 0; d < g->n; d++) {
		const struct sw_fleet_gpu *gpu = &hw->gpus[g->gpu[d]];
		if (gpu->cc_major == 7 && gpu->cc_minor == 0)
			volta = true;
		if (gpu->cc_major < 8)
			old = true;
	}
	fit->warn[0] = '\0';
#define ADD(...) do { if (n < sizeof(fit->warn)) \
	n += (size_t)snprintf(fit->warn + n, sizeof(fit->warn) - n, __VA_ARGS__); } while (0)
	if (old && m->has_bf16)
		ADD("BF16 weights on GPUs without BF16 (SM < 8.0): convert to F16 or a quantized GGUF; ");
	if (old && req->kv == SW_KV_BF16)
		ADD("bf16 KV cache on GPUs without BF16: use f16, q8_0 or q4_0; ");
	if (volta)
		ADD("Volta (SM 7.0): build llama.cpp with CUDA 12.x (CUDA 13 dropped sm_70); "
		    "no FP8, AWQ or Marlin kernels; ");
#undef ADD
	n = strlen(fit->warn);
	if (n >= 2 && fit->warn[n - 2] == ';')
		fit->warn[n - 2] = '\0';
}

void sw_fleet_fit(struct sw_fleet_fit *out, const struct sw_fleet_model *m,
		  const struct sw_fleet_hw *hw, int group, const struct sw_fleet_request *req,
		  const struct sw_fleet_calib *cal)
{
	sw__fleet_fit(out, m, hw, group, req, cal, true);
}

void sw__fleet_fit(struct sw_fleet_fit *out, const struct sw_fleet_model *m,
		   const struct sw_fleet_hw *hw, int group, const struct sw_fleet_request *req,
		   const struct sw_fleet_calib *cal, bool explain_misfit)
{
	struct sw_fleet_request r = *req;
	memset(out, 0, sizeof(*out));
	if (!r.slots)
		r.slots = 1;
	out->ctx = effective_ctx(m, &r);
	choose_split(out, m, hw, group, out->ctx, &r, cal);
	out->ctx = effective_ctx(m, &r);
	warnings(out, m, hw, group, &r);
	/* Speeds are predicted even when it does not fit: they tell the user
	 * whether a bigger group is worth having. */
	uint32_t per_slot = out->ctx / r.slots;
	out->decode_tps = sw_fleet_decode_tps(m, hw, group, out, r.kv, per_slot, cal);
	for (int i = 0; i < SW_FLEET_DEPTHS; i++)
		out->decode_at[i] = sw_fleet_depths[i] <= per_slot
			? sw_fleet_decode_tps(m, hw, group, out, r.kv, sw_fleet_depths[i], cal) : 0;
	out->prompt_tps =
		sw_fleet_prompt_tps(m, hw, group, out, per_slot < 4096 ? per_slot : 4096, cal);
	for (int i = 0; i < SW_FLEET_PROMPT_DEPTHS; i++)
		out->prompt_at[i] = sw_fleet_prompt_depths[i] <= per_slot
					    ? sw_fleet_prompt_tps(m, hw, group, out,
								  sw_fleet_prompt_depths[i], cal)
					    : 0;
	out->prompt_full = sw_fleet_prompt_tps(m, hw, group, out, per_slot, cal);
	if (!out->fits && explain_misfit)
		explain(out, m, hw, group, &r, cal);
	else
		out->max_ctx = 0;
}
