/*
 * fuzz_smi.c - hostile nvidia-smi output through the inventory builder:
 * the bytes up to the first NUL are `nvidia-smi --query-gpu=... --format=csv`,
 * the rest (when there is a NUL) `nvidia-smi topo -m`.  Checks: a failure
 * has a message; every group is named.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_smi: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Both texts NUL-terminated, as they come from a pipe. */
	char *copy = sw_xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	size_t qlen = strlen(copy);
	const char *topo = qlen < size ? copy + qlen + 1 : NULL;

	struct sw_fleet_hw hw;
	struct sw_err err = { 0 };
	memset(&hw, 0, sizeof(hw));
	if (sw_fleet_hw_from_smi(&hw, copy, topo, &err) != 0) {
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
	free(copy);
	return 0;
}
