/*
 * train.c - the training planner's model of memory and time: will a
 * LoRA, QLoRA or full fine-tune fit a board's GPUs, and how many tokens a
 * second will it train.
 *
 * Memory per GPU, by term (docs/PERFORMANCE.md has the checks):
 *   base        frozen weights: QLoRA 4-bit NF4 with double quantisation
 *               (4.127 bits a weight) for every linear layer, the
 *               embedding and lm_head in 16 bits; LoRA and full 16 bits.
 *               Every expert of an MoE is resident.
 *   adapters    the LoRA matrices in fp32 (PEFT upcasts them)
 *   optimizer   their gradients (fp32) and AdamW's two moments (fp32);
 *               full: bf16 gradients and fp32 master weights and moments,
 *               sharded over the board (ZeRO-3 / FSDP)
 *   activations with checkpointing: each layer's input (16 bits) plus one
 *               layer's working set, recomputed in the backward pass;
 *               without: every layer's working set
 *   logits      the lm_head's output for every token, upcast to fp32 for
 *               the loss, with its gradient: LOGIT_BYTES per vocabulary
 *               entry (calibrated)
 *   overhead    CUDA context, cuBLAS workspace and the allocator's
 *               fragmentation
 * Data parallel keeps the whole base on every GPU; when it does not fit, the
 * base is split layer-wise (accelerate's device_map) and only one GPU works
 * at a time.
 *
 * Time per token: FLOPs over the GPU's dense fp16/bf16 tensor peak (fp32
 * accumulation, as PyTorch runs it) times one efficiency factor, ETA,
 * calibrated on published measurements (not one constant per row), plus
 * QLoRA's dequantisation of the base on every pass and, for a layer split,
 * the activations sent between GPUs.
 */
#include <math.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define NF4_BYTES (4.127 / 8)   /* bitsandbytes NF4, double-quantised absmax */
#define LOGIT_BYTES 13.0        /* per vocabulary entry and token, calibrated */
#define OVERHEAD_GIB 0.75       /* CUDA context and cuBLAS workspace */
#define FRAGMENTATION 0.08      /* of everything else */
#define ETA 0.44                /* fraction of the tensor peak, calibrated */
#define ETA_ATTN_NO_FA2 0.5     /* attention without FlashAttention-2 (guess) */
#define ETA_MOE 0.3             /* Transformers' MoE blocks loop over experts (guess) */
#define DEQUANT_BW 0.7          /* fraction of memory bandwidth dequantising */
#define DP_NVLINK 0.97          /* data-parallel scaling per GPU */
#define DP_PCIE 0.92
#define LINK_NVLINK 40e9        /* bytes/s between GPUs of a board */
#define LINK_PCIE 10e9

/* Dense fp16/bf16 tensor throughput with fp32 accumulation, TFLOPS, by
 * name (the more specific first); the compute capability otherwise. */
static const struct {
	const char *name;
	double tflops;
} peaks[] = {
	{ "V100S", 130 }, { "V100-PCIE", 112 }, { "V100", 125 }, { "T4", 65 },
	{ "3090 Ti", 80 }, { "3090", 71 }, { "3080", 59.5 }, { "A6000", 154.8 },
	{ "A5000", 111 }, { "A4000", 76.7 }, { "A100", 312 }, { "A40", 149.7 },
	{ "A10", 125 }, { "4090", 165.2 }, { "4080", 97.5 }, { "L40S", 362 },
	{ "L40", 181 }, { "L4", 121 }, { "H100 PCIe", 756 }, { "H100", 989 },
	{ "H200", 989 }, { "5090", 209.5 }, { "B200", 2250 },
};

static double gpu_tflops(const struct sw_fleet_gpu *g)
{
	for (size_t i = 0; g->name && i < SW_ARRAY_LEN(peaks); i++)
		if (strstr(g->name, peaks[i].name))
			return peaks[i].tflops;
	int cc = g->cc_major * 10 + g->cc_minor;
	return cc >= 90 ? 756 : cc >= 89 ? 165 : cc >= 86 ? 71 : cc >= 80 ? 312 : cc >= 75 ? 65
	       : cc >= 70 ? 112 : 10;
}

const char *sw_fleet_train_method_name(enum sw_fleet_train_method m)
{
	return m == SW_FLEET_TRAIN_QLORA ? "qlora" : m == SW_FLEET_TRAIN_LORA ? "lora" : "full";
}

bool sw_fleet_train_targets_parse(unsigned *out, const char *s, const char **bad, size_t *badlen)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "q", SW_FLEET_TRAIN_Q },
		{ "k", SW_FLEET_TRAIN_K },
		{ "v", SW_FLEET_TRAIN_V },
		{ "o", SW_FLEET_TRAIN_O },
		{ "gate", SW_FLEET_TRAIN_GATE },
		{ "up", SW_FLEET_TRAIN_UP },
		{ "down", SW_FLEET_TRAIN_DOWN },
		{ "experts", SW_FLEET_TRAIN_EXPERTS },
		{ "all", SW_FLEET_TRAIN_ALL_LINEAR },
		{ "attention",
		  SW_FLEET_TRAIN_Q | SW_FLEET_TRAIN_K | SW_FLEET_TRAIN_V | SW_FLEET_TRAIN_O },
		{ "mlp", SW_FLEET_TRAIN_GATE | SW_FLEET_TRAIN_UP | SW_FLEET_TRAIN_DOWN },
	};
	unsigned m = 0;
	for (const char *p = s; *p;) {
		while (*p == ',' || *p == ' ')
			p++;
		if (!*p)
			break;
		const char *e = p;
		while (*e && *e != ',' && *e != ' ')
			e++;
		size_t n = (size_t)(e - p);
		/* q_proj, gate_proj: the trainers' own spelling */
		size_t core = n > 5 && strncmp(e - 5, "_proj", 5) == 0 ? n - 5 : n;
		bool found = false;
		for (size_t i = 0; i < SW_ARRAY_LEN(names); i++)
			if (strlen(names[i].name) == core && strncmp(p, names[i].name, core) == 0) {
				m |= names[i].bit;
				found = true;
			}
		if (!found) {
			*bad = p;
			*badlen = n;
			return false;
		}
		p = e;
	}
	*out = m;
	return m != 0;
}

/* LoRA parameters: rank r on each targeted matrix, r * (in + out). */
static void adapter_params(const struct sw_fleet_train_shape *s, uint32_t r, unsigned t,
			   double *total, double *active)
{
	double h = (double)s->n_embd, R = r;
	double qd = (double)s->n_head * s->head_dim * (s->gated_q ? 2 : 1);
	double od = (double)s->n_head * s->head_dim;
	double kvd = (double)s->n_head_kv * s->head_dim;
	double attn = 0, lin = 0, mlp = 0, experts = 0;
	if (t & SW_FLEET_TRAIN_Q) attn += R * (h + qd);
	if (t & SW_FLEET_TRAIN_K) attn += R * (h + kvd);
	if (t & SW_FLEET_TRAIN_V) attn += R * (h + kvd);
	if (t & SW_FLEET_TRAIN_O) attn += R * (od + h);
	/* A linear-attention layer has one projection in and one out. */
	double lqk = (double)s->lin_qk_heads * s->lin_head_dim;
	double lv = (double)s->lin_v_heads * s->lin_head_dim;
	if (t & (SW_FLEET_TRAIN_Q | SW_FLEET_TRAIN_K | SW_FLEET_TRAIN_V))
		lin += R * (h + 2 * lqk + 2 * lv);
	if (t & SW_FLEET_TRAIN_O) lin += R * (lv + h);
	unsigned mt = t & (SW_FLEET_TRAIN_GATE | SW_FLEET_TRAIN_UP | SW_FLEET_TRAIN_DOWN);
	int nmat = !!(mt & SW_FLEET_TRAIN_GATE) + !!(mt & SW_FLEET_TRAIN_UP) +
		   !!(mt & SW_FLEET_TRAIN_DOWN);
	if (s->n_expert) {
		mlp = nmat * R * (h + (double)s->shexp_ff) * (s->shexp_ff ? s->n_expert_shared : 0);
		if (t & SW_FLEET_TRAIN_EXPERTS)
			experts = (nmat ? nmat : 3) * R * (h + (double)s->expert_ff) * s->n_expert;
	} else {
		mlp = nmat * R * (h + (double)s->n_ff);
	}
	double n_lin = (double)(s->n_layer - s->n_attn_layers);
	double base = s->n_attn_layers * attn + n_lin * lin + s->n_layer * mlp;
	*total = base + s->n_layer * experts;
	*active = base + (s->n_expert ? s->n_layer * experts * s->n_expert_used / s->n_expert : 0);
}

struct board {
	size_t n;
	double capacity;      /* the smallest GPU's bytes */
	double tflops;        /* the slowest GPU's peak */
	double bandwidth;     /* the slowest GPU's bytes/s */
	int cc;               /* the lowest compute capability, 70 = 7.0 */
	bool nvlink;
};

static void board_of(struct board *b, const struct sw_fleet_hw *hw, int group)
{
	const struct sw_fleet_group *g = &hw->groups[group];
	memset(b, 0, sizeof(*b));
	b->n = g->n;
	b->nvlink = g->nvlink;
	b->cc = 1000;
	for (size_t d = 0; d < g->n; d++) {
		const struct sw_fleet_gpu *gpu = &hw->gpus[g->gpu[d]];
		double cap = (double)gpu->memory_mib * 1024 * 1024, tf = gpu_tflops(gpu);
		int cc = gpu->cc_major * 10 + gpu->cc_minor;
		if (d == 0 || cap < b->capacity) b->capacity = cap;
		if (d == 0 || tf < b->tflops) b->tflops = tf;
		if (d == 0 || gpu->bandwidth_gbs * 1e9 < b->bandwidth)
			b->bandwidth = gpu->bandwidth_gbs * 1e9;
		if (cc < b->cc) b->cc = cc;
	}
}

/* Memory and time at sequence length seq, the base split or not. */
static void estimate(struct sw_fleet_train_fit *f, const struct sw_fleet_train_shape *s,
		     const struct board *b, const struct sw_fleet_train_request *r, uint32_t seq,
		     bool split)
{
	double h = (double)s->n_embd, V = (double)s->n_vocab, n = (double)b->n;
	double P = (double)s->params_total, Pe = (double)s->params_embed;
	double A, Aact;
	bool ckpt = !r->no_checkpointing;
	adapter_params(s, r->rank, r->targets, &A, &Aact);
	double base = r->method == SW_FLEET_TRAIN_QLORA ? (P - Pe) * NF4_BYTES + Pe * 2 : P * 2;
	double head = V * h * 2;
	double layers = s->n_layer;
	f->layer_split = split;
	f->trainable = r->method == SW_FLEET_TRAIN_FULL ? s->params_total : (uint64_t)A;
	if (r->method == SW_FLEET_TRAIN_FULL) {
		/* ZeRO-3: weights, gradients and AdamW state sharded over the
		 * board; one layer's weights gathered at a time. */
		f->base = 2 * P / n + 2 * 2 * (P - Pe) / (layers ? layers : 1);
		f->adapters = 0;
		f->optimizer = 14 * P / n;
	} else if (split) {
		/* The fullest GPU is the last: its share of the layers and the
		 * lm_head with the logits. */
		f->base = (base - head) / n + head;
		f->adapters = 4 * A / n;
		f->optimizer = 12 * A / n;
		layers = ceil(layers / n);
	} else {
		f->base = base;
		f->adapters = 4 * A;
		f->optimizer = 12 * A;
	}
	double qd = (double)s->n_head * s->head_dim * (s->gated_q ? 2 : 1);
	double kvd = (double)s->n_head_kv * s->head_dim;
	double ffa = s->n_expert ? (double)s->expert_ff * s->n_expert_used +
					   (double)s->shexp_ff * s->n_expert_shared
				 : (double)s->n_ff;
	/* One layer's saved tensors, 16 bits each: norms' outputs and the
	 * residual, q/k/v and the attention output, the MLP's gate, up and
	 * activation. */
	double work = 2 * (4 * h + 2 * qd + 2 * kvd + 3 * ffa);
	double tok = (double)seq * r->micro_batch;
	f->activations = tok * (ckpt ? layers * h * 2 + work : layers * work);
	f->logits = LOGIT_BYTES * V *
		    (r->chunked_loss && tok > SW_FLEET_TRAIN_LOSS_CHUNK ? SW_FLEET_TRAIN_LOSS_CHUNK
									: tok);
	double sub = f->base + f->adapters + f->optimizer + f->activations + f->logits;
	f->overhead = OVERHEAD_GIB * GIB + FRAGMENTATION * sub;
	f->peak = sub + f->overhead;
	f->capacity = b->capacity;
	f->fits = f->peak <= f->capacity;

	/* Time.  Frozen base: forward 2P, the activations' gradients 2P, the
	 * recomputed forward 2P; no weight gradients but the adapters'. */
	double Pa = (double)s->params_active;
	double lin_mult = r->method == SW_FLEET_TRAIN_FULL ? (ckpt ? 8 : 6) : (ckpt ? 6 : 4);
	double flin = lin_mult * Pa + (r->method == SW_FLEET_TRAIN_FULL ? 0 : 8 * Aact);
	/* Causal attention: 2 * heads * head_dim * seq per token and layer
	 * forward; backward twice that plus the kernel's own recompute; the
	 * checkpoint's recompute once more. */
	double fattn = 2.0 * s->n_head * s->head_dim * seq * s->n_attn_layers * (ckpt ? 5 : 4);
	bool fa2 = b->cc >= 80;
	double peak = b->tflops * 1e12;
	double eta_lin = ETA * (s->n_expert ? ETA_MOE : 1);
	double t = flin / (eta_lin * peak) + fattn / (ETA * (fa2 ? 1 : ETA_ATTN_NO_FA2) * peak);
	if (r->method == SW_FLEET_TRAIN_QLORA) {
		/* Each pass dequantises every 4-bit weight to 16 bits and the
		 * GEMM reads it back. */
		double passes = ckpt ? 3 : 2;
		t += passes * (P - Pe) * (NF4_BYTES + 4) / (DEQUANT_BW * b->bandwidth) / tok;
	}
	double link = b->nvlink ? LINK_NVLINK : LINK_PCIE;
	if (r->method == SW_FLEET_TRAIN_FULL && b->n > 1)
		/* ZeRO-3 gathers the weights forward and backward and scatters
		 * the gradients, every micro-batch. */
		t += 3 * 2 * P * (n - 1) / n / link / tok;
	if (split) {
		/* One GPU at a time; at each boundary the activations go forward
		 * twice (with the recompute) and their gradients back. */
		t += (n - 1) * (ckpt ? 3 : 2) * h * 2 / link;
		f->tokens_per_s = 1 / t;
	} else {
		f->tokens_per_s = n * (b->n > 1 ? (b->nvlink ? DP_NVLINK : DP_PCIE) : 1) / t;
	}
	f->flops_per_token = flin + fattn;
	f->gpu_tflops = b->tflops;
	snprintf(f->terms, sizeof(f->terms),
		 "%s%.0fx active params (%.2fB)%s + attention %.1f "
		 "GFLOP at %u tokens",
		 r->method == SW_FLEET_TRAIN_FULL ? "full: " : "frozen base: ", lin_mult, Pa / 1e9,
		 r->method == SW_FLEET_TRAIN_FULL ? "" : " + 8x adapters", fattn / 1e9, seq);
	f->hours_per_epoch = r->data.tokens ? (double)r->data.tokens / f->tokens_per_s / 3600 : 0;
}

static uint32_t round_seq(uint32_t v)
{
	uint64_t x = ((uint64_t)v + 255) / 256 * 256;
	return x > SW_FLEET_TRAIN_MAX_SEQ ? SW_FLEET_TRAIN_MAX_SEQ : (uint32_t)x;
}

/* Data parallel when it fits, else the layer split. */
static void fit_at(struct sw_fleet_train_fit *f, const struct sw_fleet_train_shape *s,
		   const struct board *b, const struct sw_fleet_train_request *r, uint32_t seq)
{
	estimate(f, s, b, r, seq, false);
	if (!f->fits && b->n > 1 && r->method != SW_FLEET_TRAIN_FULL)
		estimate(f, s, b, r, seq, true);
	f->seq = seq;
}

/* The first group of hw whose GPUs all have bf16 (sm80+), or -1. */
static int bf16_group(const struct sw_fleet_hw *hw)
{
	for (size_t i = 0; i < hw->ngroups; i++) {
		bool ok = true;
		for (size_t d = 0; d < hw->groups[i].n; d++)
			ok = ok && hw->gpus[hw->groups[i].gpu[d]].cc_major >= 8;
		if (ok && hw->groups[i].n)
			return (int)i;
	}
	return -1;
}

static void warnings(struct sw_fleet_train_fit *f, const struct sw_fleet_train_shape *s,
		     const struct sw_fleet_hw *hw, const struct board *b,
		     const struct sw_fleet_train_request *r)
{
	size_t n = 0;
#define ADD(...) do { if (n < sizeof(f->warn)) \
	n += (size_t)snprintf(f->warn + n, sizeof(f->warn) - n, __VA_ARGS__); } while (0)
	if (b->cc < 80 && s->bf16_trained) {
		int g = bf16_group(hw);
		ADD("%s was trained in bf16%s and these GPUs have no bf16: fp16 activations can "
		    "overflow past 65504: train with loss scaling and stop on inf/nan losses, or "
		    "on "
		    "%s, which has bf16; ",
		    s->name, strcmp(s->source, "GGUF") == 0 ? " (assumed)" : "",
		    g >= 0 ? hw->groups[g].name : "an sm80+ board");
	}
	if (b->cc == 70)
		ADD("Volta (sm_70): CUDA 13 dropped it and recent PyTorch CUDA wheels leave it "
		    "out: "
		    "use a build whose torch.cuda.get_arch_list() has sm_70 (CUDA 12.x) and check "
		    "bitsandbytes on it first; no FlashAttention-2 (sm80+): PyTorch's "
		    "memory-efficient "
		    "attention instead, slower at long sequences; ");
	else if (b->cc < 80)
		ADD("no FlashAttention-2 below sm80: PyTorch's memory-efficient attention "
		    "instead; ");
	if (s->n_expert) {
		double gib = (double)s->params_total *
			     (r->method == SW_FLEET_TRAIN_QLORA ? NF4_BYTES : 2) / GIB;
		ADD("MoE: all %u experts stay in memory (%.0f GiB) though %u work per token; ",
		    s->n_expert, gib, s->n_expert_used);
		if (r->targets & SW_FLEET_TRAIN_EXPERTS)
			ADD("adapters on the routed experts need PEFT's target_parameters (fused "
			    "expert "
			    "tensors, Transformers 5) or per-expert modules (older); check that "
			    "your "
			    "trainer (Unsloth, axolotl, LLaMA-Factory, TRL all go through PEFT) "
			    "supports "
			    "this model's experts; ");
		else
			ADD("adapters go on attention and the shared expert only (add 'experts' to "
			    "--target for the routed ones); ");
		ADD("MoE training speed is not calibrated on a published figure; ");
	}
	if (f->logits > 0.25 * f->peak && !r->chunked_loss)
		ADD("the logits of a %llu-token vocabulary take %.1f GiB: a chunked cross-entropy "
		    "(Liger kernel, Unsloth, Cut Cross-Entropy) would save most of it "
		    "(--chunked-loss plans with one); ",
		    (unsigned long long)s->n_vocab, f->logits / GIB);
	if (f->layer_split)
		ADD("the base does not fit one GPU: split layer-wise, one GPU works at a time; ");
	if (r->method == SW_FLEET_TRAIN_FULL)
		ADD("full fine-tune: ZeRO-3/FSDP sharding assumed%s; ",
		    b->nvlink ? "" : " over PCIe, which the weight gathers make slow");
#undef ADD
	n = strlen(f->warn);
	if (n >= 2 && f->warn[n - 2] == ';')
		f->warn[n - 2] = '\0';
}

void sw_fleet_train_plan(struct sw_fleet_train_fit *out, const struct sw_fleet_train_shape *s,
			 const struct sw_fleet_hw *hw, int group,
			 const struct sw_fleet_train_request *req)
{
	struct sw_fleet_train_request r = *req;
	struct board b;
	memset(out, 0, sizeof(*out));
	if (!r.rank) r.rank = 16;
	if (!r.targets) r.targets = SW_FLEET_TRAIN_ALL_LINEAR;
	if (!r.micro_batch) r.micro_batch = 1;
	if (!r.grad_accum) r.grad_accum = 8;
	board_of(&b, hw, group);
	out->ngpus = b.n;
	if (r.seq) {
		fit_at(out, s, &b, &r, r.seq);
		out->seq_from = "given";
	} else if (r.data.longest) {
		fit_at(out, s, &b, &r, round_seq(r.data.longest));
		out->seq_from = "the longest correction";
		if (!out->fits && r.data.p95 && round_seq(r.data.p95) < out->seq) {
			fit_at(out, s, &b, &r, round_seq(r.data.p95));
			out->seq_from =
				"the 95th percentile of the corrections (the longest does not fit)";
		}
	} else {
		fit_at(out, s, &b, &r, 4096);
		out->seq_from = "default: no corrections read";
	}
	out->attention = b.cc >= 80 ? "FlashAttention-2"
				    : "PyTorch SDPA memory-efficient (no FA2 below sm80)";
	out->precision = b.cc >= 80 ? "bf16" : "fp16 with loss scaling";
	warnings(out, s, hw, &b, &r);
	if (!out->fits) {
		double over = (out->peak - out->capacity) / GIB;
		snprintf(out->why, sizeof(out->why),
			 "needs %.1f GiB on a %.1f GiB GPU (%.1f over): %s", out->peak / GIB,
			 out->capacity / GIB, over,
			 r.method == SW_FLEET_TRAIN_LORA
				 ? "try --method qlora, a shorter --seq or a larger board"
			 : r.no_checkpointing
				 ? "turn gradient checkpointing on, or a shorter --seq"
				 : "a shorter --seq, a smaller model or a larger board");
	}
}
