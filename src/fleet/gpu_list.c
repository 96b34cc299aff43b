/*
 * gpu_list.c - the list of GPUs as the driver shows them now: growing it
 * (NVML's reader and nvidia-smi's both fill it) and freeing it.  A leaf.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

struct sw_fleet_gpu_now *sw__fleet_gpus_add(struct sw_fleet_gpus_now *g, struct sw_err *err)
{
	if (g->n >= SW_FLEET_MAX_GPUS) {
		sw_err_set(err, SW_ELIMIT, "the driver lists more than %u GPUs", SW_FLEET_MAX_GPUS);
		return NULL;
	}
	g->gpus = sw_xrealloc(g->gpus, (g->n + 1) * sizeof(*g->gpus));
	struct sw_fleet_gpu_now *u = &g->gpus[g->n++];
	memset(u, 0, sizeof(*u));
	u->temp_c = -1;
	u->power_w = u->power_limit_w = -1;
	u->throttle = -1;
	u->ecc_uncorrected = -1;
	return u;
}

int sw__fleet_gpu_proc_add(struct sw_fleet_gpus_now *g, size_t gpu, int pid, uint64_t used,
			   struct sw_err *err)
{
	size_t total = 0;
	for (size_t i = 0; i < g->n; i++)
		total += g->gpus[i].nprocs;
	if (total >= SW_FLEET_MAX_PROCS)
		return sw_err_set(err, SW_ELIMIT, "the driver lists more than %u GPU processes",
				  SW_FLEET_MAX_PROCS);
	struct sw_fleet_gpu_now *u = &g->gpus[gpu];
	u->procs = sw_xrealloc(u->procs, (u->nprocs + 1) * sizeof(*u->procs));
	u->procs[u->nprocs].pid = pid;
	u->procs[u->nprocs].used = used;
	u->nprocs++;
	return 0;
}

void sw_fleet_gpus_release(struct sw_fleet_gpus_now *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->gpus[i].procs);
	free(g->gpus);
	memset(g, 0, sizeof(*g));
}
