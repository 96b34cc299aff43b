/*
 * fleet.h - the GPU fleet: read GGUF model headers, describe the GPUs and
 * their NVLink boards, predict whether a model fits a group of GPUs and how
 * fast it will decode and read prompts, place several models on separate
 * boards, and print the llama-server commands and sworn.conf sections that
 * realise the plan.
 *
 * Contract
 *   - The GGUF reader reads the header and the tensor table only; tensor
 *     data is never read, so a file cut after its tensor table (the first
 *     megabytes of a model) is enough to plan.  Split models
 *     (NAME-00001-of-0000N.gguf) are read shard by shard and summed.
 *   - Every GGUF, nvidia-smi output and inventory file is untrusted: every
 *     count and length is checked against the SW_GGUF_MAX_* and
 *     SW_FLEET_MAX_* limits below before anything is allocated (SW_ELIMIT);
 *     malformed bytes give SW_EINPUT with the file and the byte offset.
 *   - Fit and speed are pure functions of a model summary, a GPU group, the
 *     request (context, KV type, slots) and the calibration constants.  They
 *     allocate nothing the caller must free except the documented results.
 *   - Placement puts each model on exactly one group and never across
 *     groups; each group serves at most one model (models on one board would
 *     fight over its GPUs).  A model that fits nowhere is reported with the
 *     reason and what would make it fit.
 *   - Calibration constants live in data/fleet/calibration.ini, embedded in
 *     the binary at build time (no file needs to sit next to the binary); a
 *     user file with the same syntax replaces them.
 *   - Fallible functions return 0 or a negative SW_E* code and fill err (may
 *     be NULL) with one line, lower case, no final period.
 *   - Strings inside returned objects are owned by the object and valid until
 *     it is freed.  Nothing here keeps global state; objects are not shared
 *     between threads without the caller's locking.
 *   - Nothing here needs a GPU: nvidia-smi is only run when asked (detect,
 *     supervision), and its output can be supplied as text instead.
 */
#ifndef SW_FLEET_H
#define SW_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

/* ------------------------------------------------------------------ limits */

#define SW_GGUF_MAX_TENSORS 65536u        /* largest real models: ~3,000 */
#define SW_GGUF_MAX_KV 65536u
#define SW_GGUF_MAX_KEY 65535u            /* the spec's own key limit */
#define SW_GGUF_MAX_STRING (16u << 20)    /* one string value (chat templates) */
#define SW_GGUF_MAX_ARRAY (16u << 20)     /* elements in one array (vocabularies) */
#define SW_GGUF_MAX_ARRAY_DEPTH 4u        /* nested arrays */
#define SW_GGUF_MAX_HEADER (512ull << 20) /* header + tensor table bytes */
#define SW_GGUF_MAX_NAME 64u              /* tensor name bytes (GGML_MAX_NAME) */
#define SW_GGUF_MAX_DIMS 4u
#define SW_GGUF_MAX_SHARDS 512u
#define SW_GGUF_MAX_LAYERS 4096u          /* block_count */
#define SW_GGML_TYPE_COUNT 43u

#define SW_FLEET_MAX_GPUS 64u             /* one bitmask word */
#define SW_FLEET_MAX_GROUPS 64u
#define SW_FLEET_MAX_MODELS 32u
#define SW_FLEET_MAX_CTX (1u << 24)       /* tokens */
#define SW_FLEET_MAX_SLOTS 256u

/* ------------------------------------------------------------ GGUF reader */

/* Metadata value types, numbered as in the GGUF specification. */
enum sw_gguf_type {
	SW_GGUF_U8 = 0, SW_GGUF_I8 = 1, SW_GGUF_U16 = 2, SW_GGUF_I16 = 3,
	SW_GGUF_U32 = 4, SW_GGUF_I32 = 5, SW_GGUF_F32 = 6, SW_GGUF_BOOL = 7,
	SW_GGUF_STRING = 8, SW_GGUF_ARRAY = 9, SW_GGUF_U64 = 10, SW_GGUF_I64 = 11,
	SW_GGUF_F64 = 12,
};

struct sw_gguf; /* opaque: one file, or all shards of a split model */

struct sw_gguf_tensor {
	const char *name;   /* owned by the sw_gguf */
	uint32_t n_dims;
	uint64_t ne[SW_GGUF_MAX_DIMS]; /* unused dimensions are 1 */
	uint32_t type;      /* ggml type id, known (see sw_ggml_type_name) */
	uint64_t offset;    /* in its shard's data section */
	uint64_t bytes;     /* stored size */
	uint32_t shard;     /* 0-based */
};

/* Open path and read its header and tensor table.  A first shard
 * (-00001-of-0000N.gguf) makes the reader open the others from the same
 * folder; a missing shard is SW_ENOTFOUND naming it.  On success *out is
 * owned by the caller (sw_gguf_close). */
int sw_gguf_open(struct sw_gguf **out, const char *path,
		 struct sw_err *err) SW_MUST_USE;

/* Parse a GGUF header held in memory (one shard).  name is used in
 * messages.  The fuzz target's entry point. */
int sw_gguf_parse(struct sw_gguf **out, const void *data, size_t len,
		  const char *name, struct sw_err *err) SW_MUST_USE;

void sw_gguf_close(struct sw_gguf *g); /* accepts NULL */

uint32_t sw_gguf_version(const struct sw_gguf *g);
uint32_t sw_gguf_shards(const struct sw_gguf *g);
uint64_t sw_gguf_alignment(const struct sw_gguf *g);
/* Bytes of all shards on disk (0 when parsed from memory). */
uint64_t sw_gguf_file_bytes(const struct sw_gguf *g);
/* SHA-256 (hex) of the header and tensor table bytes of every shard: names a
 * model file without reading its weights.  Borrowed. */
const char *sw_gguf_header_sha256(const struct sw_gguf *g);

size_t sw_gguf_kv_count(const struct sw_gguf *g);
/* The i-th key (borrowed) and its type; NULL when i is out of range. */
const char *sw_gguf_kv_key(const struct sw_gguf *g, size_t i,
			   enum sw_gguf_type *type);

/* Typed lookups by key.  Integers of any width and sign, and bools, read as
 * u64 (negative values fail); floats and integers read as double.  Arrays:
 * *count gets the element count; numeric elements can be read by index. */
const char *sw_gguf_get_str(const struct sw_gguf *g, const char *key);
bool sw_gguf_get_u64(const struct sw_gguf *g, const char *key, uint64_t *out);
bool sw_gguf_get_f64(const struct sw_gguf *g, const char *key, double *out);
bool sw_gguf_get_array(const struct sw_gguf *g, const char *key,
		       enum sw_gguf_type *elem_type, uint64_t *count);
bool sw_gguf_get_array_u64(const struct sw_gguf *g, const char *key,
			   uint64_t i, uint64_t *out);

size_t sw_gguf_tensor_count(const struct sw_gguf *g);
/* Borrowed; NULL when i >= sw_gguf_tensor_count(g). */
const struct sw_gguf_tensor *sw_gguf_tensor(const struct sw_gguf *g, size_t i);

/* ggml type facts (the full table of the reference, ids 0-42).  Name is
 * "Q8_0" etc., NULL for an unknown or removed id; block and type sizes are 0
 * then. */
const char *sw_ggml_type_name(uint32_t type);
uint32_t sw_ggml_block_size(uint32_t type);
uint32_t sw_ggml_type_size(uint32_t type);
/* The general.file_type label ("Q4_K_M"), or NULL. */
const char *sw_gguf_file_type_name(uint64_t ftype);

/* ---------------------------------------------------------- model summary */

/* What one transformer block needs, derived from tensor shapes first and
 * metadata second. */
struct sw_fleet_layer {
	uint64_t bytes;       /* weights stored for this block */
	uint64_t read_bytes;  /* weights read per decoded token (MoE: the
				 router's share of the experts) */
	uint64_t params, active_params;
	uint32_t k_elems;     /* K cache elements per token (0: no KV) */
	uint32_t v_elems;
	uint32_t window;      /* sliding window in tokens; 0 = full attention */
	uint64_t state_bytes; /* recurrent state per sequence (F32) */
	bool recurrent, moe, mtp;
};

struct sw_fleet_model {
	char *path;        /* as given */
	char *name;        /* general.name or the file name */
	char *arch;        /* general.architecture */
	char *file_type;   /* "Q8_0", or "unknown" */
	char *header_sha256;
	uint32_t gguf_version, shards;
	uint32_t n_layer_all;  /* block_count, MTP layers included */
	uint32_t n_layer;      /* block_count minus MTP/NextN layers */
	uint32_t n_mtp;
	uint64_t n_embd, n_vocab, n_ctx_train;
	uint32_t n_head, n_head_kv, key_len, value_len; /* first attention layer */
	uint32_t n_expert, n_expert_used, n_expert_shared;
	uint64_t expert_ff, expert_shared_ff, n_ff;
	uint32_t n_swa_layers, n_recurrent_layers, n_kv_layers, swa_window;
	uint64_t params_total, params_active;
	uint64_t file_bytes;       /* shards on disk (0 if unknown) */
	uint64_t weight_bytes;     /* sum of tensor sizes */
	uint64_t bytes_by_type[SW_GGML_TYPE_COUNT];
	uint64_t embd_bytes;       /* token_embd: stays in host memory */
	uint64_t output_bytes;     /* output head (+norm) on the last GPU; a copy
				      of token_embd when tied */
	uint64_t output_params;
	bool output_tied;
	bool has_bf16;
	struct sw_fleet_layer *layers; /* n_layer_all entries */
};

/* Summarise an open GGUF.  SW_EINPUT when the file lacks what planning needs
 * (architecture, block count, embedding).  Release with
 * sw_fleet_model_release(). */
int sw_fleet_model_from_gguf(struct sw_fleet_model *out, const struct sw_gguf *g,
			     const char *path, struct sw_err *err) SW_MUST_USE;
/* Open path and summarise it. */
int sw_fleet_model_load(struct sw_fleet_model *out, const char *path,
			struct sw_err *err) SW_MUST_USE;
void sw_fleet_model_release(struct sw_fleet_model *m);

/* --------------------------------------------------------------- hardware */

struct sw_fleet_gpu {
	int index;          /* nvidia-smi index (PCI bus order) */
	char *name;
	char *pci;          /* bus id or NULL */
	uint64_t memory_mib;
	double bandwidth_gbs;
	int cc_major, cc_minor;
	int group;          /* index into groups, -1 before grouping */
	int host;           /* index into hosts */
};

struct sw_fleet_group {
	char *name;
	bool nvlink;
	size_t n;
	int gpu[SW_FLEET_MAX_GPUS]; /* indexes into sw_fleet_hw.gpus, in order */
	int host;           /* index into hosts: a group never spans two */
};

/* A machine of the office.  An inventory names its own ([host]: name,
 * address, exec); one without is this machine, named after its file. */
#define SW_FLEET_MAX_HOSTS 8u
struct sw_fleet_host {
	char *name;
	char *address;      /* how the others reach it; NULL: this machine */
	char *exec;         /* the command prefix that runs a command there
			       ("ssh -o BatchMode=yes sworn@ADDRESS" when only
			       address is given); NULL: run here */
	char *source;       /* its inventory file, or "nvidia-smi" */
};

/* The network between two hosts ([link "box1-box2"] in either
 * inventory), for models spanned across them by llama.cpp's RPC. */
struct sw_fleet_link {
	char *name;         /* "box1-box2" as written */
	double bandwidth_gbs;
	double latency_us;
};

struct sw_fleet_hw {
	char *source;       /* file name or "nvidia-smi"; "a.ini + b.ini" merged */
	struct sw_fleet_gpu *gpus;
	size_t ngpus;
	struct sw_fleet_group *groups;
	size_t ngroups;
	struct sw_fleet_host *hosts;  /* at least one once loaded */
	size_t nhosts;
	struct sw_fleet_link *links;
	size_t nlinks;
	char *notes;        /* warnings from reading (unknown GPU names...), or NULL */
};

/* Read an inventory INI ([gpu "N"] and [group "NAME"] sections, DESIGN.md).
 * GPUs in no group become single-GPU groups named "gpu-N".  Errors say
 * "file:line: reason". */
int sw_fleet_hw_load(struct sw_fleet_hw *out, const char *path,
		     struct sw_err *err) SW_MUST_USE;

/* The sections and keys of an inventory file: what sw_fleet_hw_load()
 * checks (an unknown or misspelt key is an error, never a default), and
 * its reference. */
extern const struct sw_config_schema sw_fleet_hw_schema;

/* Build an inventory from the text of
 *   nvidia-smi --query-gpu=index,name,memory.total,pci.bus_id,compute_cap --format=csv
 * and of `nvidia-smi topo -m` (topo may be NULL: every GPU alone).  Boards
 * are the maximal sets of GPUs that are pairwise NVLink-connected (cliques,
 * not connected components).  Bandwidth comes from a table of known GPU
 * names; an unknown name gets a conservative figure and a note. */
int sw_fleet_hw_from_smi(struct sw_fleet_hw *out, const char *query_csv,
			 const char *topo, struct sw_err *err) SW_MUST_USE;

/* Run nvidia-smi (from PATH) twice and parse as above. */
int sw_fleet_hw_detect(struct sw_fleet_hw *out, struct sw_err *err) SW_MUST_USE;

void sw_fleet_hw_release(struct sw_fleet_hw *hw);

/* The group called name, or -1. */
int sw_fleet_hw_find_group(const struct sw_fleet_hw *hw, const char *name);

/* Move the inventory of another host into `into` (from is emptied):
 * GPUs, groups, its host and links.  A group whose name the first already
 * has is renamed HOST.NAME.  SW_EINPUT for two inventories of one host
 * name, SW_ELIMIT past SW_FLEET_MAX_GPUS, _GROUPS or _HOSTS. */
int sw_fleet_hw_merge(struct sw_fleet_hw *into, struct sw_fleet_hw *from,
		      struct sw_err *err) SW_MUST_USE;

/* Load n inventories (one per host) and merge them in order; one file is
 * sw_fleet_hw_load. */
int sw_fleet_hw_load_all(struct sw_fleet_hw *out, const char *const *paths, size_t n,
			 struct sw_err *err) SW_MUST_USE;

/* The link between hosts a and b ([link "A-B"] or [link "B-A"]), or NULL. */
const struct sw_fleet_link *sw_fleet_hw_link(const struct sw_fleet_hw *hw, int a, int b);

/* The address others reach host h at: its address, or 127.0.0.1 for this
 * machine. */
const char *sw_fleet_host_address(const struct sw_fleet_hw *hw, int h);

/* The inventory text of hw's first host ([host], [gpu "N"], [group]), as
 * `sworn plan --detect --write-inventory FILE` writes it. */
void sw_fleet_hw_inventory_text(struct sw_buf *out, const struct sw_fleet_hw *hw);

/* ------------------------------------------------------------ calibration */

struct sw_fleet_calib; /* opaque: parsed calibration.ini */

/* Load the calibration: path, or the copy embedded at build time when path
 * is NULL.  Release with sw_fleet_calib_free(). */
int sw_fleet_calib_load(struct sw_fleet_calib **out, const char *path,
			struct sw_err *err) SW_MUST_USE;
/* Parse calibration text held in memory; name is used in messages. */
int sw_fleet_calib_parse(struct sw_fleet_calib **out, const char *text,
			 size_t len, const char *name, struct sw_err *err) SW_MUST_USE;
void sw_fleet_calib_free(struct sw_fleet_calib *c);

/* The sections and keys of a calibration file, and its reference. */
extern const struct sw_config_schema sw_fleet_calib_schema;

/* --------------------------------------------------------- fit and speed */

/* KV cache types llama-server accepts (-ctk/-ctv). */
enum sw_fleet_kv {
	SW_KV_F32, SW_KV_F16, SW_KV_BF16, SW_KV_Q8_0, SW_KV_Q4_0, SW_KV_Q4_1,
	SW_KV_IQ4_NL, SW_KV_Q5_0, SW_KV_Q5_1, SW_KV_COUNT,
};

/* "q8_0" -> SW_KV_Q8_0; false when unknown. */
bool sw_fleet_kv_parse(enum sw_fleet_kv *out, const char *s);
const char *sw_fleet_kv_name(enum sw_fleet_kv kv);

/* What the user asks of one model. */
struct sw_fleet_request {
	uint32_t ctx;          /* total context (all slots); 0 = 32768 capped
				  at the trained context */
	enum sw_fleet_kv kv;   /* K and V cache type (default q8_0) */
	uint32_t slots;        /* -np (default 1) */
	const char *role;      /* drafter | reasoner | reviewer | NULL */
	const char *group;     /* pin to this group, or NULL */
	uint16_t port;         /* 0 = assigned by the plan */
	/* A reasoning model's thinking: reasoning=on|off (0: the template's
	 * way), reasoning_budget=N tokens (0: none set); passed to the server
	 * as --reasoning and --reasoning-budget where its --help offers them. */
	int reasoning;         /* 0 auto, 1 on, 2 off */
	uint32_t reasoning_budget;
};

#define SW_FLEET_DEPTHS 4     /* decode predicted at 1k, 4k, 16k, 32k */
extern const uint32_t sw_fleet_depths[SW_FLEET_DEPTHS];
#define SW_FLEET_PROMPT_DEPTHS 3 /* prefill predicted for prompts of 1k, 16k, 64k */
extern const uint32_t sw_fleet_prompt_depths[SW_FLEET_PROMPT_DEPTHS];

/* The fit of one model on one group with a chosen layer split. */
struct sw_fleet_fit {
	bool fits;
	size_t ndev;
	uint32_t layers[SW_FLEET_MAX_GPUS]; /* -ts: slots per GPU, sum = block_count+1 */
	uint64_t weights[SW_FLEET_MAX_GPUS];/* bytes per GPU */
	uint64_t kv[SW_FLEET_MAX_GPUS];     /* KV cache and recurrent state */
	uint64_t compute[SW_FLEET_MAX_GPUS];/* compute buffers */
	uint64_t reserve[SW_FLEET_MAX_GPUS];/* CUDA context and safety margin */
	uint64_t capacity[SW_FLEET_MAX_GPUS];
	uint64_t host_bytes;                /* token_embd in host memory */
	uint32_t ctx;                       /* padded to 256 */
	uint32_t max_ctx;                   /* largest context that fits (0: none) */
	double decode_tps;                  /* at ctx (per slot, one stream) */
	double decode_at[SW_FLEET_DEPTHS];  /* at sw_fleet_depths (0 past ctx) */
	double prompt_tps;                  /* a prompt of min(ctx, 4096) tokens */
	double prompt_at[SW_FLEET_PROMPT_DEPTHS]; /* prompts of sw_fleet_prompt_depths
						     tokens (0 past ctx) */
	double prompt_full;                 /* a prompt that fills a slot's context */
	char why[512];                      /* when !fits: what to change */
	char warn[512];                     /* hardware warnings, or "" */
};

/* Fit model on group g of hw for req, choosing the split that keeps every
 * GPU inside its memory and, among those, gives the fastest decode (mixed
 * GPUs: memory and bandwidth both count).  Never fails: a model that does
 * not fit gets fits = false and a reason. */
void sw_fleet_fit(struct sw_fleet_fit *out, const struct sw_fleet_model *m,
		  const struct sw_fleet_hw *hw, int group,
		  const struct sw_fleet_request *req,
		  const struct sw_fleet_calib *cal);

/* Predicted decode tokens/s of one stream at context depth `depth` for the
 * split in fit (bytes read per token over effective bandwidth plus a
 * per-layer overhead).  Exposed for the calibration test and bench. */
double sw_fleet_decode_tps(const struct sw_fleet_model *m,
			   const struct sw_fleet_hw *hw, int group,
			   const struct sw_fleet_fit *fit, enum sw_fleet_kv kv,
			   uint32_t depth, const struct sw_fleet_calib *cal);

/* Predicted prompt tokens/s of a prompt of n tokens from an empty cache,
 * for the split in fit: each token costs the weights' FLOPs at the GPU's
 * prefill rate and attention over the tokens before it (half the prompt
 * on average, or the window) at the rate of the flash-attention kernel its
 * architecture runs, plus the activations a layer split sends between
 * GPUs.  Exposed for bench and the calibration test. */
double sw_fleet_prompt_tps(const struct sw_fleet_model *m, const struct sw_fleet_hw *hw, int group,
			   const struct sw_fleet_fit *fit, uint32_t n,
			   const struct sw_fleet_calib *cal);

#include "fleet/fleet_train.h"

/* -------------------------------------------------------------- placement */

/* What a llama-server build accepts, read from its --version and --help. */
struct sw_fleet_server_caps {
	bool known;          /* a llama-server --help was read */
	long build;          /* N of "version: N (commit)", -1 unknown */
	char version[128];   /* that line, or "" */
	bool fa_value;       /* -fa takes on|off|auto (else a bare -fa) */
	bool fit;            /* knows --fit */
	/* The locks sworn puts on the servers it starts, where offered: */
	bool api_key_file;   /* --api-key-file FNAME */
	bool cors_origins;   /* --cors-origins ORIGINS */
	bool no_cors_credentials; /* --no-cors-credentials */
	char no_webui[16];   /* "--no-webui" or "--no-ui", or "" */
	bool reasoning;      /* --reasoning on|off|auto */
	bool reasoning_budget; /* --reasoning-budget N */
};

/* The value of --cors-origins for the servers sworn starts: an origin no
 * page can have, so that no browser lets a page read an answer (or send
 * a request that needs a preflight, as one with the API key does). */
#define SW_FLEET_CORS_NONE "none"

/* Into out (reset first): what the servers of caps are locked with, in
 * words for `fleet status` ("API key (...); browsers refused (...); web UI
 * off (...)"), each lock this build lacks said instead ("this build has no
 * --cors-origins: ..."). */
void sw_fleet_server_caps_access(struct sw_buf *out, const struct sw_fleet_server_caps *caps);

/* The builds the flags sworn uses by default (-fa on, --fit off) need. */
extern const char sw_fleet_server_min_build[];

/* Read caps from the text of --version and --help (either may be NULL);
 * known stays false when help does not look like llama-server's. */
void sw_fleet_server_caps_parse(struct sw_fleet_server_caps *out, const char *version,
				const char *help);
/* Run SERVER --version and --help (a path, or a name in PATH; bounded in
 * time and size) and parse them.  SW_ENOTFOUND when it cannot be run,
 * SW_EINPUT when its --help is not llama-server's; out is then unknown. */
int sw_fleet_server_caps_read(struct sw_fleet_server_caps *out, const char *server,
			      struct sw_err *err) SW_MUST_USE;
/* One "server   ..." line for the plan: the build and the flags chosen, or,
 * caps NULL or unknown, the minimum build the commands need. */
void sw_fleet_server_caps_note(struct sw_buf *out, const struct sw_fleet_server_caps *caps,
			       const char *server);

struct sw_fleet_plan_opts {
	double floor_tps;    /* decode floor, default 40 */
	bool strict_floor;   /* leave a model unplaced rather than below the floor */
	uint16_t base_port;  /* first port, default 8081 */
	const char *server;  /* llama-server path for commands, default "llama-server" */
	const char *host;    /* --host of this machine's servers, default 127.0.0.1
				(a server on another host listens on its address) */
	/* A model that fits no group may span a group of another host,
	 * through llama.cpp's rpc-server (never sworn's own transport). */
	bool allow_rpc;
	/* What the server build accepts (borrowed; NULL or unknown: the
	 * newest flags, -fa on and --fit off). */
	const struct sw_fleet_server_caps *caps;
};

struct sw_fleet_placement {
	size_t model;        /* index into the plan's models */
	int group;           /* -1 when not placed */
	uint16_t port;
	bool below_floor;
	struct sw_fleet_fit fit;       /* on the chosen group (with rpc_group: its GPUs
					  first, then rpc_group's) */
	char reason[768];    /* why here, or why nowhere */
	char *command;       /* the llama-server command line; NULL unless placed */
	/* Spanned over RPC (allow_rpc): the helper group on another host, its
	 * rpc-server commands (one per line, run on that host), and the
	 * predictions of the same split without the network. */
	int rpc_group;       /* -1: not spanned */
	uint16_t rpc_port;   /* the first rpc-server's port (one per GPU) */
	char *rpc_commands;
	double rpc_base_decode_tps, rpc_base_prompt_tps;
};


struct sw_fleet_plan {
	const struct sw_fleet_hw *hw;          /* borrowed */
	const struct sw_fleet_model *models;   /* borrowed, nmodels entries */
	const struct sw_fleet_request *reqs;   /* borrowed */
	size_t nmodels;
	struct sw_fleet_plan_opts opts;
	struct sw_fleet_placement *placed;     /* nmodels entries, in input order */
	double elapsed_ms;                     /* time spent planning */
};

/* Place models on groups.  The plan borrows hw, models and reqs, which must
 * outlive it.  SW_EUSAGE for a request that names an unknown group or more
 * models than SW_FLEET_MAX_MODELS.  Release with sw_fleet_plan_release(). */
int sw_fleet_plan_make(struct sw_fleet_plan *out, const struct sw_fleet_hw *hw,
		       const struct sw_fleet_model *models,
		       const struct sw_fleet_request *reqs, size_t nmodels,
		       const struct sw_fleet_plan_opts *opts,
		       const struct sw_fleet_calib *cal,
		       struct sw_err *err) SW_MUST_USE;
void sw_fleet_plan_release(struct sw_fleet_plan *p);

/* Number of models not placed. */
size_t sw_fleet_plan_unplaced(const struct sw_fleet_plan *p);
/* Device d of placement i's fit: its index into hw->gpus (its group's
 * GPUs, then its rpc_group's); -1 past them. */
int sw_fleet_placement_gpu(const struct sw_fleet_plan *p, size_t i, size_t d);

/* Outputs of a plan: the human report, the sworn.conf endpoint (and role)
 * sections, the JSON document (a new jansson reference: a struct json_t *),
 * and an SVG drawing of the boards with each GPU's memory use. */
void sw_fleet_plan_text(struct sw_buf *out, const struct sw_fleet_plan *p);
void sw_fleet_plan_conf(struct sw_buf *out, const struct sw_fleet_plan *p);
struct json_t *sw_fleet_plan_json(const struct sw_fleet_plan *p);
void sw_fleet_plan_svg(struct sw_buf *out, const struct sw_fleet_plan *p);
/* The same picture as sw_fleet_plan_svg (draw.c: every label measured with
 * cairo before its box is sized), painted by cairo into a PNG at path.
 * SW_EIO when it cannot be written.  Both draw in sworn's module
 * sworn-fleet.so, loaded on first use: without it the PNG fails with its
 * reason (SW_ENOTFOUND or SW_EIO), and the SVG stops sworn saying so. */
int sw_fleet_plan_png(const struct sw_fleet_plan *p, const char *path,
		      struct sw_err *err) SW_MUST_USE;

/* The endpoint name used for placement i ("board-a-qwen3-30b"); caller frees. */
char *sw_fleet_endpoint_name(const struct sw_fleet_plan *p, size_t i);

/* "model.gguf:ctx=32k,kv=q8_0,role=drafter,np=2,group=board-a,port=8090"
 * (and reasoning=on|off, reasoning_budget=N for a reasoning model):
 * *path gets a fresh copy of the file part, r the options (role and group
 * are fresh strings too: free them).  SW_EUSAGE on a bad option. */
int sw_fleet_spec_parse(char **path, struct sw_fleet_request *r, const char *spec,
			struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------------ supervision */

/*
 * `sworn fleet up` plans the models of [fleet] in sworn.conf on its
 * inventory, checks the GPUs nvidia-smi reports against it, and hands the
 * servers to a supervisor process that starts them (each with
 * CUDA_DEVICE_ORDER, CUDA_VISIBLE_DEVICES and its own log), waits until
 * /health is ready and a one-token completion answers, restarts a crashed
 * server with doubling backoff (bounded count and delay), and reports a
 * server whose completions hang while /health is fine.  A model whose
 * group lost a GPU is "degraded" and not started; a log that shows layers
 * left on the CPU fails the server.  The supervisor keeps its state in
 * WORKSPACE/fleet/state.json (pids with their start times, ports, states),
 * so `status` and `down` work from any shell, and appends every start,
 * crash, hang and benchmark to WORKSPACE/fleet/history.jsonl.
 */

#define SW_FLEET_MAX_EXTRA_ARGS 64
#define SW_FLEET_MAX_STATE (4u << 20)   /* bytes of state.json */
#define SW_FLEET_MAX_LOG_SCAN (1u << 20) /* bytes of a server log scanned */

/* The [fleet] section of sworn.conf. */
struct sw_fleet_conf {
	char *server;          /* llama_server: a path (workspace-relative) or a
				  name looked up in PATH */
	char *hardware;        /* hardware: the (first) inventory file */
	char *hardware_files[SW_FLEET_MAX_HOSTS]; /* every file hardware lists */
	size_t nhardware;
	char *host;            /* set by the caller: the host whose servers this
				  supervisor runs (--host); NULL: the first
				  inventory's, this box by convention */
	char *calibration;     /* calibration: or NULL for the built-in */
	char **models;         /* `model` lines (repeatable): FILE[:ctx=..,...]
				  with FILE resolved against the workspace */
	size_t nmodels;
	char **extra_args;     /* extra_args: more llama-server flags */
	size_t nextra;
	double floor_tps;      /* floor (default 40) */
	uint16_t base_port;    /* port (default 8081) */
	double ready_timeout_s;  /* ready_timeout: load to first answer (600) */
	double probe_interval_s; /* probe_interval: between checks (30) */
	double probe_timeout_s;  /* probe_timeout: one-token answer (60) */
	double backoff_s;        /* restart_backoff: first delay (2), doubling */
	double backoff_max_s;    /* restart_backoff_max (60) */
	unsigned restart_max;    /* restart_max: restarts before giving up (5) */
	bool check_gpus;         /* check_gpus: compare nvidia-smi (yes) */
	char *dir;               /* WORKSPACE/fleet */
};

#define SW_FLEET_KEY_FILE "api-key" /* in the fleet folder */

/* The workspace's key for the servers `fleet up` starts: dir/api-key,
 * written once (32 random bytes as hex, mode 0600) when missing.  A key
 * file that others may read or write is refused (SW_EINPUT): it may have
 * been read.  *out gets its path; caller frees. */
int sw_fleet_api_key_ensure(char **out, const char *dir, struct sw_err *err) SW_MUST_USE;

/* Split s into words as extra_args are split (blanks, 'single' and
 * "double" quotes, backslash; nothing expanded, no shell): a host's exec.
 * *out gets *n words (no NULL at the end): free each and the array. */
int sw_fleet_split_words(char ***out, size_t *n, const char *s, struct sw_err *err) SW_MUST_USE;

/* The argv that runs cmd (NULL-terminated words) on a host through its
 * exec: exec's words, then cmd's, each quoted for the remote shell when
 * exec's program is ssh (ssh joins its arguments and hands them to a
 * shell there), as they are otherwise.  *out is NULL-terminated, *n
 * words before the NULL: free each and the array.  SW_EINPUT for an
 * empty or badly quoted exec. */
int sw_fleet_exec_argv(char ***out, size_t *n, const char *exec, const char *const *cmd,
		       struct sw_err *err) SW_MUST_USE;
/* word as one word of a POSIX shell: '...', each ' written '\''. */
void sw_fleet_shell_quote(struct sw_buf *out, const char *word);
/* A host name (RFC 1123: letters, digits, '-', dots between labels);
 * an address: such a name or a numeric IPv4 or IPv6 address. */
bool sw_fleet_host_name_ok(const char *s);
bool sw_fleet_host_address_ok(const char *s);
/* Files that say what runs get sworn.conf's checks (yours, writable by
 * you alone): each inventory of hw that gives its host an exec (or an
 * address, whose default exec is ssh), and a program sworn starts (root's
 * own may be used too).  SW_EPOLICY with what is wrong and the fix; a
 * file that cannot be read is left to its reader to report. */
int sw_fleet_hw_check_trust(const struct sw_fleet_hw *hw, struct sw_err *err) SW_MUST_USE;
int sw_fleet_program_check_trust(const char *path, struct sw_err *err) SW_MUST_USE;

/* Read [fleet] from cfg; workspace is the folder paths are relative to.
 * SW_ENOTFOUND when there is no [fleet] section, SW_EINPUT with
 * "file:line: what" for a bad value. */
int sw_fleet_conf_load(struct sw_fleet_conf *out, const struct sw_config *cfg,
		       const char *workspace, struct sw_err *err) SW_MUST_USE;
void sw_fleet_conf_release(struct sw_fleet_conf *c);

/* The keys of [fleet]: what sw_fleet_conf_load() checks, and its
 * reference (sw_config_schema_doc). */
extern const struct sw_config_schema sw_fleet_conf_schema;

/* Which GPUs of an inventory are present now.  A GPU is matched by PCI bus
 * id when the inventory gives one (its index may have moved: nvidia-smi
 * renumbers when a card vanishes), else by index and name. */
struct sw_fleet_presence {
	int now_index[SW_FLEET_MAX_GPUS];   /* by inventory GPU: index now, -1 */
	bool group_ok[SW_FLEET_MAX_GROUPS]; /* every GPU of the group present */
	size_t missing;                     /* inventory GPUs not found */
	char *report;                       /* one line per missing GPU, or NULL */
};
void sw_fleet_presence_check(struct sw_fleet_presence *out, const struct sw_fleet_hw *inv,
			     const struct sw_fleet_hw *now);
void sw_fleet_presence_release(struct sw_fleet_presence *p);

#include "fleet/fleet_gpu.h"

/* ------------------------------------------- several hosts, from one box */

/* A fleet of several hosts seen from this box (office.c).  The first
 * inventory [fleet] hardware lists is this box's; every other host is
 * reached through its exec, running `sworn -C WORKSPACE ...` there. */
struct sw_fleet_office {
	struct sw_fleet_conf conf;
	bool have_conf, have_hw;
	struct sw_fleet_hw hw;      /* every inventory merged */
	size_t nhosts;              /* 0: one host */
	const char *root;           /* the workspace (borrowed) */
	/* After sw_fleet_office_gather(): */
	struct sw_fleet_state state[SW_FLEET_MAX_HOSTS];
	bool have_state[SW_FLEET_MAX_HOSTS];
	bool reachable[SW_FLEET_MAX_HOSTS];
	/* How each host's state was read: "file" (this box's), "exec", "lan"
	 * (its servers' /health and /props, its exec failing), NULL (not). */
	const char *read[SW_FLEET_MAX_HOSTS];
	char *why[SW_FLEET_MAX_HOSTS]; /* no state: why; read over the LAN:
					  why its exec failed */
	char last_error[256];       /* the last stderr line of a failed exec */
};

/* Load [fleet] of cfg (paths relative to workspace, borrowed until
 * release) and, when it lists inventories of several hosts, their merge,
 * held to sw_fleet_hw_check_trust.  SW_ENOTFOUND without [fleet]; a host
 * other than the first without exec is SW_EINPUT. */
int sw_fleet_office_open(struct sw_fleet_office *f, const struct sw_config *cfg,
			 const char *workspace, struct sw_err *err) SW_MUST_USE;
void sw_fleet_office_release(struct sw_fleet_office *f);

/* Run `EXEC sworn -C WORKSPACE ARGS...` for host h (sw_fleet_exec_argv)
 * within timeout_ms, stdout into out, exit status into *code; its stderr
 * goes to fleet/exec-HOST.log, whose last line is kept in f->last_error
 * when it exits non-zero. */
int sw_fleet_office_exec(struct sw_buf *out, int *code, struct sw_fleet_office *f, size_t h,
			 const char *const *args, unsigned timeout_ms,
			 struct sw_err *err) SW_MUST_USE;

/* Every host's state: this box's from its file, the others' through exec
 * (`fleet status --host NAME --json`, timeout_ms each), or when that fails
 * from their servers over the LAN (sw_fleet_state_over_lan).  A host that
 * answers neither way is left unreachable with both reasons in why. */
void sw_fleet_office_gather(struct sw_fleet_office *f, unsigned timeout_ms);

/* The host the plan put server on (from this box's state), or NULL. */
const char *sw_fleet_office_server_host(const struct sw_fleet_office *f, const char *server);

/* This box's fleet state: fleet/state.json of workspace, or with several
 * hosts the first host's (fleet/state-HOST.json).  0, or an SW_E* code. */
int sw_fleet_state_here(struct sw_fleet_state *out, const struct sw_config *cfg,
			const char *workspace) SW_MUST_USE;

struct sw_llm_config;

/* The model configuration every command uses, in one call: sworn.conf's
 * [policy], [endpoint] and [role] sections, and the servers and roles of
 * the fleet running here (sw_fleet_state_llm_merge).  Several hosts: every
 * host's state is gathered (through its exec, 10 s each, or over the
 * LAN); the roles of a host that does not answer are unavailable, with
 * why.  Errors as sw_llm_config_load; release with sw_llm_config_release. */
int sw_fleet_llm_config_load(struct sw_llm_config *out, const struct sw_config *cfg,
			     const char *workspace, struct sw_err *err) SW_MUST_USE;

/* Append one event (a JSON object; "time" is added) to dir/history.jsonl. */
int sw_fleet_history_append(const char *dir, struct json_t *event,
			    struct sw_err *err) SW_MUST_USE;

/* -------------------------------------------------------------- benchmark */

/* `sworn bench`: prompt and decode speed of a running server at several
 * context depths (sw_fleet_depths, those the server's context allows), from
 * the server's own timings, with generated legal text as the prompt; and,
 * when the model, inventory and group are known, the prediction beside it.
 * Works with any server that speaks llama-server's API. */

struct sw_llm_client;

#define SW_FLEET_BENCH_SLOW 3.0

struct sw_fleet_bench_point {
	uint32_t depth;            /* tokens of prompt asked for */
	long prompt_n, cache_n, predicted_n;
	double prompt_tps, decode_tps;           /* measured */
	double pred_prompt_tps, pred_decode_tps; /* 0 without a prediction */
};

struct sw_fleet_bench {
	char *endpoint;
	char *build;       /* /props build_info, or NULL */
	char *model;       /* what the server names its model, or NULL */
	long n_ctx;        /* per slot, from /props (0 unknown) */
	unsigned gen;      /* tokens asked for at each depth */
	size_t n;
	struct sw_fleet_bench_point pt[SW_FLEET_DEPTHS];
	bool predicted;
	char *predicted_for; /* "MODEL on GROUP" */
	/* For calibration: measured over predicted, mean over depths. */
	double decode_ratio, prompt_ratio;
	/* Prompts read more than SW_FLEET_BENCH_SLOW times slower than
	 * predicted: the model is likely not (all) on the GPUs planned. */
	bool slow;
	/* The constants the prediction used and the model they apply to. */
	double eta, c_layer_ms, pp_tflops, pp_scale;
	int cc_major, cc_minor;
	char *arch;
	bool moe;
};

struct sw_fleet_bench_opts {
	unsigned gen_tokens;          /* default 64 */
	unsigned timeout_s;           /* per request, default 600 */
	uint32_t max_depth;           /* 0: as the context allows */
	/* The prediction: all four set, or none. */
	const struct sw_fleet_model *model;
	const struct sw_fleet_hw *hw;
	int group;
	const struct sw_fleet_request *req;
	const struct sw_fleet_calib *cal;
};

/* Run the benchmark against c (its endpoint is named endpoint in the
 * results). */
int sw_fleet_bench_run(struct sw_fleet_bench *out, struct sw_llm_client *c,
		       const char *endpoint, const struct sw_fleet_bench_opts *o,
		       struct sw_err *err) SW_MUST_USE;
void sw_fleet_bench_release(struct sw_fleet_bench *b);

void sw_fleet_bench_text(struct sw_buf *out, const struct sw_fleet_bench *b);
struct json_t *sw_fleet_bench_json(const struct sw_fleet_bench *b);
/* tok/s against depth: decode and prompt, measured and predicted. */
void sw_fleet_bench_svg(struct sw_buf *out, const struct sw_fleet_bench *b);

/* A calibration file: base_text (a calibration.ini; NULL for the built-in
 * one) with [gpu "measured"] and [class "measured"] sections put first,
 * scaled so that the prediction matches this measurement.  SW_EUSAGE when
 * the benchmark had no prediction. */
int sw_fleet_bench_calibration(struct sw_buf *out, const struct sw_fleet_bench *b,
			       const char *base_text, struct sw_err *err) SW_MUST_USE;

/* About `words` words of plausible legal prose (a motion's facts and
 * argument), the same for the same seed. */
void sw_fleet_legal_text(struct sw_buf *out, size_t words, uint64_t seed);

#endif /* SW_FLEET_H */
