/*
 * fuzz_train_config.c - hostile config.json bytes through the training
 * planner's shape reader, and a plan of what it accepts on one RTX 3090.
 * Besides memory errors it checks what a verdict relies on: active
 * parameters never above the total, full-attention layers never above the
 * layers, and a finite peak and speed.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_train_config: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_fleet_train_shape s;
	if (sw_fleet_train_shape_from_config(&s, (const char *)data, size, "fuzz.json", NULL) != 0)
		return 0;
	check(s.params_active <= s.params_total, "more active parameters than parameters");
	check(s.n_attn_layers <= s.n_layer, "more attention layers than layers");
	char name[] = "NVIDIA GeForce RTX 3090", group[] = "g";
	struct sw_fleet_gpu gpu = { .name = name, .memory_mib = 24576, .bandwidth_gbs = 936,
				    .cc_major = 8, .cc_minor = 6 };
	struct sw_fleet_group g = { .name = group, .n = 1 };
	struct sw_fleet_hw hw = { .gpus = &gpu, .ngpus = 1, .groups = &g, .ngroups = 1 };
	struct sw_fleet_train_request r = {
		.seq = 1024, .targets = SW_FLEET_TRAIN_ALL_LINEAR | SW_FLEET_TRAIN_EXPERTS
	};
	struct sw_fleet_train_fit f;
	sw_fleet_train_plan(&f, &s, &hw, 0, &r);
	check(isfinite(f.peak) && f.peak > 0, "peak memory not a positive number");
	check(isfinite(f.tokens_per_s) && f.tokens_per_s > 0, "speed not a positive number");
	sw_fleet_train_shape_release(&s);
	return 0;
}
