/* fleet_train.h - the training planner (sworn plan --train).
 * A part of fleet/fleet.h, which includes it: include "fleet/fleet.h", never this file. */
#ifndef SW_FLEET_TRAIN_H
#define SW_FLEET_TRAIN_H

#ifndef SW_FLEET_H
#error "include fleet/fleet.h, not fleet_train.h"
#endif

/* ------------------------------------------------------- training plan */

/*
 * `sworn plan --train`: will a LoRA, QLoRA or full fine-tune of a model fit
 * a board, how fast, and what breaks on that hardware.  A model's shapes
 * come from a Hugging Face config.json (training starts from safetensors)
 * or a GGUF header.  Memory per GPU and tokens per second follow the terms
 * DESIGN.md and docs/PERFORMANCE.md name; the one efficiency factor is
 * calibrated on published measurements (docs/PERFORMANCE.md).  Pure
 * functions: nothing here runs a trainer or touches a GPU.
 */

#define SW_FLEET_TRAIN_MAX_CONFIG (4u << 20) /* bytes of a config.json */
#define SW_FLEET_TRAIN_MAX_RANK 4096u
#define SW_FLEET_TRAIN_MAX_SEQ (1u << 22)
#define SW_FLEET_TRAIN_LOSS_CHUNK 1024u

enum sw_fleet_train_method { SW_FLEET_TRAIN_QLORA, SW_FLEET_TRAIN_LORA, SW_FLEET_TRAIN_FULL };

/* What training needs of a model, from either source. */
struct sw_fleet_train_shape {
	char *path, *name, *arch;
	const char *source;     /* "config.json" or "GGUF" (static) */
	uint32_t n_layer;       /* transformer blocks (MTP layers left out) */
	uint32_t n_attn_layers; /* full-attention layers; the rest are linear
				   (gated delta-net) or recurrent */
	uint64_t n_embd, n_vocab, n_ff;
	uint32_t n_head, n_head_kv, head_dim;
	bool gated_q;           /* q projection twice as wide (Qwen3.5/3.6) */
	uint32_t n_expert, n_expert_used, n_expert_shared;
	uint64_t expert_ff, shexp_ff;
	uint32_t lin_qk_heads, lin_v_heads, lin_head_dim; /* linear-attention layers */
	bool tied;              /* lm_head shares the embedding */
	bool bf16_trained;      /* published in bfloat16 */
	uint64_t ctx_train;
	uint64_t params_total, params_active; /* computed from the above */
	uint64_t params_embed;  /* embedding plus untied lm_head */
};

/* Read a config.json (flat, or with the text model under "text_config")
 * or a GGUF header, by the file's name (.json) or content.  SW_EINPUT
 * names the missing key.  Release with sw_fleet_train_shape_release(). */
int sw_fleet_train_shape_load(struct sw_fleet_train_shape *out, const char *path,
			struct sw_err *err) SW_MUST_USE;
/* Parse config.json text (name in messages). */
int sw_fleet_train_shape_from_config(struct sw_fleet_train_shape *out, const char *text, size_t len,
			       const char *name, struct sw_err *err) SW_MUST_USE;
/* From a GGUF model summary. */
void sw_fleet_train_shape_from_model(struct sw_fleet_train_shape *out,
				     const struct sw_fleet_model *m);
void sw_fleet_train_shape_release(struct sw_fleet_train_shape *s);

/* Target modules: bits of a mask, parsed from "q,k,v,o,gate,up,down"
 * ("all" = every linear of attention and MLP; "experts" adds the routed
 * experts of an MoE, which the MLP names alone do not reach). */
enum {
	SW_FLEET_TRAIN_Q = 1,
	SW_FLEET_TRAIN_K = 2,
	SW_FLEET_TRAIN_V = 4,
	SW_FLEET_TRAIN_O = 8,
	SW_FLEET_TRAIN_GATE = 16,
	SW_FLEET_TRAIN_UP = 32,
	SW_FLEET_TRAIN_DOWN = 64,
	SW_FLEET_TRAIN_EXPERTS = 128,
	SW_FLEET_TRAIN_ALL_LINEAR = 127,
};
/* false on an unknown name (*bad gets it, borrowed from s up to a comma). */
bool sw_fleet_train_targets_parse(unsigned *out, const char *s, const char **bad, size_t *badlen);

/* The corrections a fine-tune learns from, in tokens (0: not known). */
struct sw_fleet_train_data {
	size_t examples;
	uint64_t tokens;        /* all examples together */
	uint32_t longest, p95;  /* one example */
};

struct sw_fleet_train_request {
	enum sw_fleet_train_method method;
	uint32_t rank;          /* default 16 */
	unsigned targets;       /* default SW_FLEET_TRAIN_ALL_LINEAR */
	uint32_t seq;           /* 0: from data (p95, or longest when it
				   fits), else 4096 */
	uint32_t micro_batch;   /* per GPU, default 1 */
	uint32_t grad_accum;    /* default 8 */
	bool no_checkpointing;  /* gradient checkpointing is on by default */
	bool chunked_loss;      /* the trainer computes the loss SW_FLEET_TRAIN_LOSS_CHUNK
				   tokens at a time (Liger, Unsloth, Cut
				   Cross-Entropy): no full logits */
	struct sw_fleet_train_data data;
};

/* The verdict for one model on one board. */
struct sw_fleet_train_fit {
	bool fits;
	bool layer_split;       /* base split layer-wise over the GPUs; else
				   data parallel with the base on every GPU
				   (full fine-tunes: sharded, ZeRO-3) */
	size_t ngpus;
	uint32_t seq;
	const char *seq_from;   /* "given", "p95 of N corrections", ... */
	const char *attention;  /* the kernel the GPU runs */
	const char *precision;  /* "bf16" or "fp16 with loss scaling" */
	/* Bytes on the fullest GPU, by term. */
	double base, adapters, optimizer, activations, logits, overhead, peak, capacity;
	uint64_t trainable;     /* parameters trained */
	double flops_per_token; /* all passes, per token */
	double gpu_tflops;      /* dense fp16/bf16 tensor peak of one GPU */
	double tokens_per_s;    /* the whole board */
	double hours_per_epoch; /* 0 when the data is not known */
	char terms[256];        /* the FLOP terms, in words */
	char why[384];          /* when !fits: what would */
	char warn[1024];        /* "; "-separated warnings, or "" */
};

/* Plan r for shape s on group g of hw.  Never fails. */
void sw_fleet_train_plan(struct sw_fleet_train_fit *out, const struct sw_fleet_train_shape *s,
		   const struct sw_fleet_hw *hw, int group, const struct sw_fleet_train_request *r);

/* Report one verdict; a model x board table; the JSON of one verdict (a
 * new reference). */
void sw_fleet_train_fit_text(struct sw_buf *out, const struct sw_fleet_train_shape *s,
			     const struct sw_fleet_hw *hw, int group,
			     const struct sw_fleet_train_request *r,
			     const struct sw_fleet_train_fit *f);
void sw_fleet_train_compare_text(struct sw_buf *out, const struct sw_fleet_train_shape *shapes,
				 size_t nshapes, const struct sw_fleet_hw *hw, const int *groups,
				 size_t ngroups, const struct sw_fleet_train_fit *fits);
struct json_t *sw_fleet_train_fit_json(const struct sw_fleet_train_shape *s,
				       const struct sw_fleet_hw *hw, int group,
				       const struct sw_fleet_train_request *r,
				       const struct sw_fleet_train_fit *f);
const char *sw_fleet_train_method_name(enum sw_fleet_train_method m);

#endif /* SW_FLEET_TRAIN_H */
