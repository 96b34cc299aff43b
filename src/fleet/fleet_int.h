/*
 * fleet_int.h - internals shared by the files of fleet/; nothing outside
 * src/fleet/ includes this.
 */
#ifndef SW_FLEET_INT_H
#define SW_FLEET_INT_H

#include "fleet/fleet.h"
#include "llm/llm.h"

/* The calibration constants for one (architecture class, GPU family). */
struct sw__fleet_consts {
	double eta;            /* fraction of peak bandwidth a GEMV stream reaches */
	double c_layer_ms;     /* per-layer launch and sync overhead, one token */
	double pp_tflops;      /* effective prefill FLOPS of the GPU */
	double pp_scale;       /* class factor on pp_tflops (MoE on Volta: low) */
	double attn_tflops;    /* effective FLOPS of prefill attention */
	double reserve_mib;    /* CUDA context and driver reserve per GPU */
	double margin_mib;     /* safety margin per GPU */
	double compute_mib;    /* fixed part of the compute buffer per GPU */
	const char *class_name;/* borrowed from the calibration */
	const char *gpu_name;
};

/* Resolve the constants for model m on GPU gpu (first matching [class] and
 * [gpu] sections, over [defaults]). */
void sw__fleet_consts(struct sw__fleet_consts *out, const struct sw_fleet_calib *cal,
		      const struct sw_fleet_model *m, const struct sw_fleet_gpu *gpu);

/* The calibration text embedded at build time (generated from
 * data/fleet/calibration.ini into the build folder). */
extern const unsigned char sw__fleet_calibration_ini[];
extern const size_t sw__fleet_calibration_ini_len;

/* KV cache bytes per element, exactly (q8_0 is 34/32, not 1). */
double sw__fleet_kv_bytes(enum sw_fleet_kv kv);

/* Memory of model m on the GPUs of a group for the layer counts in fit->layers
 * (fit->ndev entries), filling weights/kv/compute/reserve/capacity and fits. */
void sw__fleet_fit_memory(struct sw_fleet_fit *fit, const struct sw_fleet_model *m,
			  const struct sw_fleet_hw *hw, int group, uint32_t ctx,
			  enum sw_fleet_kv kv, uint32_t slots,
			  const struct sw_fleet_calib *cal);

/* sw_fleet_fit(), with the search for what would make a misfit fit (the
 * costly part, a search over context lengths) only when explain_misfit:
 * placement fits every model on every group and explains only the few it
 * reports. */
void sw__fleet_fit(struct sw_fleet_fit *out, const struct sw_fleet_model *m,
		   const struct sw_fleet_hw *hw, int group, const struct sw_fleet_request *req,
		   const struct sw_fleet_calib *cal, bool explain_misfit);

/* Run a program and capture its stdout (bounded by limit bytes).  argv[0]
 * is looked up in PATH.  Fails with SW_EIO when it cannot start or exits
 * non-zero; SW_ELIMIT past limit. */
int sw__fleet_capture(struct sw_buf *out, char *const argv[], size_t limit,
		      struct sw_err *err);

/* A short slug of s for names: lower case letters, digits and '-'. */
void sw__fleet_slug(char *out, size_t outsz, const char *s);

/* host_list.c: add a host (copies of the strings; address and exec may be
 * NULL) and give it every GPU and group not yet on a host; add a link;
 * free both lists. */
int sw__fleet_host_add(struct sw_fleet_hw *hw, const char *name, const char *address,
		       const char *exec, const char *source, struct sw_err *err);
int sw__fleet_link_add(struct sw_fleet_hw *hw, const char *name, double bandwidth_gbs,
		       double latency_us, struct sw_err *err);
void sw__fleet_hosts_release(struct sw_fleet_hw *hw);

/* rpc.c: place each model that fits no group across a free group of its
 * host and one of another, through llama.cpp's rpc-server, when that
 * fits (ports for the servers from *port on); and the llama-server flag
 * that names those rpc-servers. */
void sw__fleet_plan_rpc(struct sw_fleet_plan *p, const struct sw_fleet_calib *cal,
			uint16_t *port);
void sw__fleet_rpc_flag(struct sw_buf *b, const struct sw_fleet_plan *p, size_t i);

/* ------------------------------------------------------------ supervisor */

/* The state of one supervised server, as state.json names it. */
enum sw__fleet_sv_state {
	SW__FLEET_SV_PENDING, SW__FLEET_SV_STARTING, SW__FLEET_SV_READY, SW__FLEET_SV_HUNG, SW__FLEET_SV_CRASHED,
	SW__FLEET_SV_FAILED, SW__FLEET_SV_DEGRADED, SW__FLEET_SV_UNPLACED, SW__FLEET_SV_STOPPED,
};

/* The names of enum sw__fleet_sv_state, indexed by it (state.c). */
extern const char *const sw__fleet_sv_state_names[];

/* One planned llama-server under supervision (supervise.c runs it, state.c
 * writes it down). */
struct sw__fleet_server {
	char *name;
	size_t model;
	int group;
	uint16_t port;
	char **argv, **env;
	char *log;
	char *gpus;          /* CUDA_VISIBLE_DEVICES */
	enum sw__fleet_sv_state state;
	char error[768];
	int pid;
	unsigned long long ticks;
	char started[21];
	unsigned restarts;
	double t_start, t_next, t_health;
	long log_off;
	struct sw_llm_config llm;
	struct sw_llm_client *client;
	bool elsewhere;      /* placed on another host: not this supervisor's */
};

/* The supervisor: what sw_fleet_sv_prepare() builds. */
struct sw_fleet_sv {
	const struct sw_fleet_conf *conf;
	struct sw_fleet_hw hw;
	struct sw_fleet_calib *cal;
	struct sw_fleet_model *models;
	struct sw_fleet_request *reqs;
	struct sw_fleet_plan plan;
	struct sw_fleet_presence presence;
	struct sw__fleet_server *s;
	size_t n;
	char *state_path;
	char *started;
	bool dirty;
	struct sw_llm_cancel cancel; /* set to stop: ends a probe in flight */
	struct sw_fleet_server_caps caps; /* what conf->server accepts */
	char *api_key_file;  /* the workspace's key (caps.api_key_file), or NULL */
	char *access;        /* what the servers are locked with, in words */
	int host;            /* the host supervised here (index into hw.hosts) */
	bool multi;          /* the inventories name several hosts */
};

/* sw_fleet_presence_check() for the GPUs of host (-1: all): the other
 * hosts' GPUs count as present and are not reported. */
void sw__fleet_presence_check_host(struct sw_fleet_presence *out, const struct sw_fleet_hw *inv,
				   const struct sw_fleet_hw *now, int host);

/* sv_say.c: sleep ms milliseconds, through signals. */
void sw__fleet_sleep_ms(unsigned ms);

/* Print a time-stamped line of the supervisor's log, for server s (or the
 * fleet when NULL). */
void sw__fleet_sv_say(const struct sw__fleet_server *s, const char *fmt, ...) SW_PRINTF(2, 3);

/* Write state.json for phase ("starting", "running", "stopped") atomically
 * and clear sv->dirty.  Returns 0 or a negative SW_E* code. */
int sw__fleet_sv_write(struct sw_fleet_sv *sv, const char *phase, struct sw_err *err);

/* Append a history.jsonl event for server s, with extra's members (or
 * none when NULL) copied in; takes ownership of extra (callers pass a fresh
 * json_pack()).  A failure is only logged. */
void sw__fleet_sv_history(const struct sw_fleet_sv *sv, const struct sw__fleet_server *s,
			  const char *event, struct json_t *extra);

/* ------------------------------------------------------- GPUs right now */

/* gpu_nvml.c: every GPU through NVML.  SW_ENOTFOUND when the library is
 * absent (or SWORN_NVML=off), SW_EIO when it answers with an error. */
int sw__fleet_gpus_nvml(struct sw_fleet_gpus_now *out, struct sw_err *err);

/* gpu_smi.c: every GPU from nvidia-smi's health and per-process queries;
 * the parser of their text alone (apps may be NULL: not read). */
int sw__fleet_gpus_smi(struct sw_fleet_gpus_now *out, struct sw_err *err);
int sw__fleet_gpus_smi_parse(struct sw_fleet_gpus_now *out, const char *gpus_csv,
			     const char *apps_csv, struct sw_err *err);

/* gpu_list.c: append a GPU (zeroed but for the unknowns: -1) or a process
 * of GPU g; SW_ELIMIT past SW_FLEET_MAX_GPUS / SW_FLEET_MAX_PROCS. */
struct sw_fleet_gpu_now *sw__fleet_gpus_add(struct sw_fleet_gpus_now *g, struct sw_err *err);
int sw__fleet_gpu_proc_add(struct sw_fleet_gpus_now *g, size_t gpu, int pid, uint64_t used,
			   struct sw_err *err);

/* The drawing of a plan (draw.c) measures and paints with cairo, which
 * sworn does not link (binding it cost 2 ms of every start): draw.c is
 * built into the module sworn-fleet.so, whose only export is the table
 * below, and draw_load.c's sw_fleet_plan_svg and sw_fleet_plan_png load it
 * on first use and call through it (base.h's sw_module_load). */
#define SW__FLEET_DRAW_ABI 1 /* bump when the table or a struct it passes changes */
#define SW__FLEET_DRAW_SYMBOL "sw__fleet_draw_v1"

struct sw__fleet_draw {
	unsigned abi;
	const char *version; /* SW_VERSION */
	size_t sizes[3];     /* sizeof sw_fleet_plan, sw_buf, sw_err */
	void (*svg)(struct sw_buf *out, const struct sw_fleet_plan *p);
	int (*png)(const struct sw_fleet_plan *p, const char *path, struct sw_err *err);
};

extern const struct sw__fleet_draw sw__fleet_draw_v1;
void sw__fleet_draw_svg(struct sw_buf *out, const struct sw_fleet_plan *p);
int sw__fleet_draw_png(const struct sw_fleet_plan *p, const char *path,
		       struct sw_err *err) SW_MUST_USE;

#endif /* SW_FLEET_INT_H */
