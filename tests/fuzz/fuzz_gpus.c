/*
 * fuzz_gpus.c - hostile nvidia-smi health and per-process output through
 * the reader `fleet status`, `doctor` and the offload check use: the bytes
 * up to the first NUL are the --query-gpu health CSV, the rest (when there
 * is a NUL) the --query-compute-apps CSV.  Checks: a failure has a message
 * and keeps nothing; every process sits on a listed GPU within the limits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_gpus: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = sw_xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	size_t glen = strlen(copy);
	const char *apps = glen < size ? copy + glen + 1 : NULL;

	struct sw_fleet_gpus_now g;
	struct sw_err err = { 0 };
	if (sw__fleet_gpus_smi_parse(&g, copy, apps, &err) != 0) {
		check(err.msg[0] != '\0', "failure without a message");
		check(g.n == 0 && g.gpus == NULL, "a failure kept GPUs");
	} else {
		size_t procs = 0;
		check(g.n > 0 && g.n <= SW_FLEET_MAX_GPUS, "GPU count out of bounds");
		for (size_t i = 0; i < g.n; i++) {
			check(g.gpus[i].index >= 0 && g.gpus[i].index < (int)SW_FLEET_MAX_GPUS,
			      "a GPU index out of bounds");
			check(memchr(g.gpus[i].pci, '\0', sizeof(g.gpus[i].pci)) != NULL,
			      "an unterminated bus id");
			procs += g.gpus[i].nprocs;
			for (size_t k = 0; k < g.gpus[i].nprocs; k++)
				check(g.gpus[i].procs[k].pid > 0, "a process without a pid");
		}
		check(procs <= SW_FLEET_MAX_PROCS, "too many processes");
		char why[256];
		int idx[1] = { g.gpus[0].index };
		uint64_t planned[1] = { 1u << 30 };
		(void)sw_fleet_offload_check(why, sizeof(why), &g, 1, idx, planned, 1);
	}
	sw_fleet_gpus_release(&g);
	free(copy);
	return 0;
}
