/*
 * fuzz_hw.c - a hostile hardware inventory (hardware.ini: [gpu "N"] and
 * [group "NAME"]) through the inventory reader.  The reader takes a path,
 * so the bytes go to one scratch file, made once and rewritten in place
 * (fuzz_scratch.h).
 * Checks: a failure has a message; every group names GPUs that exist.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_hw: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_scratch_path("hardware.ini");
	if (!path || !fuzz_scratch_write(data, size))
		return 0;
	struct sw_fleet_hw hw;
	struct sw_err err = { 0 };
	memset(&hw, 0, sizeof(hw));
	if (sw_fleet_hw_load(&hw, path, &err) != 0) {
		check(err.msg[0] != '\0', "failure without a message");
	} else {
		for (size_t g = 0; g < hw.ngroups; g++) {
			check(hw.groups[g].name != NULL, "a group without a name");
			check(hw.groups[g].n <= SW_FLEET_MAX_GPUS, "a group past the GPU limit");
			for (size_t k = 0; k < hw.groups[g].n; k++)
				check(hw.groups[g].gpu[k] >= 0 && (size_t)hw.groups[g].gpu[k] < hw.ngpus,
				      "a group names a GPU that is not there");
		}
	}
	sw_fleet_hw_release(&hw);
	return 0;
}
