/*
 * fuzz_hw.c - a hostile hardware inventory (hardware.ini: [gpu "N"] and
 * [group "NAME"]) through the inventory reader.  The reader takes a path,
 * so the bytes go to one scratch file, made once and rewritten in place.
 * Checks: a failure has a message; every group names GPUs that exist.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/sw-fuzz-hw-XXXXXX";
static char *path;

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_hw: %s", what);
}

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path) {
		if (!mkdtemp(dir))
			return 0;
		path = sw_xasprintf("%s/hardware.ini", dir);
		atexit(cleanup);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	bool ok = fwrite(data, 1, size, f) == size;
	if (fclose(f) != 0 || !ok)
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
