/*
 * fleet_int.h - internals shared by the files of fleet/; nothing outside
 * src/fleet/ includes this.
 */
#ifndef SW_FLEET_INT_H
#define SW_FLEET_INT_H

#include "fleet/fleet.h"

/* The calibration constants for one (architecture class, GPU family). */
struct sw__fleet_consts {
	double eta;            /* fraction of peak bandwidth a GEMV stream reaches */
	double c_layer_ms;     /* per-layer launch and sync overhead, one token */
	double pp_tflops;      /* effective prefill FLOPS of the GPU */
	double pp_scale;       /* class factor on pp_tflops (MoE on Volta: low) */
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

#endif /* SW_FLEET_INT_H */
