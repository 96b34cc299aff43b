/*
 * fake_nvml.c - a stand-in for NVML (libnvidia-ml.so.1), for tests only:
 * the calls sworn's fleet/gpu_nvml.c makes, answered from a text file that
 * the environment variable SW_FAKE_NVML names (read again at each
 * nvmlInit_v2, so a test may add processes while a fleet runs).  Without
 * it, nvmlInit_v2 fails as on a machine whose driver is not loaded.  Lines:
 *   gpu INDEX PCI TOTAL_MIB TEMP_C POWER_W LIMIT_W THROTTLE_HEX ECC NAME...
 *   proc INDEX PID USED_MIB
 * ECC "-" is a GPU without ECC (NVML_ERROR_NOT_SUPPORTED).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK 0
#define NOT_SUPPORTED 3
#define INSUFFICIENT_SIZE 7
#define DRIVER_NOT_LOADED 9
#define MAX_GPUS 64
#define MAX_PROCS 64

struct proc {
	unsigned int pid;
	unsigned long long used;
	unsigned int gi, ci;
};

struct pci {
	char legacy[16];
	unsigned int domain, bus, device, id, sub;
	char bus_id[32];
};

struct memory {
	unsigned long long total, free, used;
};

struct gpu {
	char pci[32], name[96];
	unsigned long long total_mib;
	unsigned int temp, power_mw, limit_mw;
	unsigned long long throttle;
	long long ecc;
	struct proc procs[MAX_PROCS];
	unsigned int nprocs;
};

static struct gpu gpus[MAX_GPUS];
static unsigned int ngpus;

int nvmlInit_v2(void);
int nvmlShutdown(void);
const char *nvmlErrorString(int rc);
int nvmlDeviceGetCount_v2(unsigned int *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned int i, struct gpu **d);
int nvmlDeviceGetName(struct gpu *d, char *out, unsigned int n);
int nvmlDeviceGetPciInfo_v3(struct gpu *d, struct pci *out);
int nvmlDeviceGetMemoryInfo(struct gpu *d, struct memory *out);
int nvmlDeviceGetTemperature(struct gpu *d, int sensor, unsigned int *out);
int nvmlDeviceGetPowerUsage(struct gpu *d, unsigned int *out);
int nvmlDeviceGetEnforcedPowerLimit(struct gpu *d, unsigned int *out);
int nvmlDeviceGetCurrentClocksEventReasons(struct gpu *d, unsigned long long *out);
int nvmlDeviceGetTotalEccErrors(struct gpu *d, int type, int counter, unsigned long long *out);
int nvmlDeviceGetComputeRunningProcesses_v3(struct gpu *d, unsigned int *n, struct proc *out);

int nvmlInit_v2(void)
{
	const char *path = getenv("SW_FAKE_NVML");
	char line[512];
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f)
		return DRIVER_NOT_LOADED;
	memset(gpus, 0, sizeof(gpus));
	ngpus = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned int idx, pid;
		unsigned long long mib;
		char ecc[32];
		int name_at = 0;
		if (sscanf(line, "proc %u %u %llu", &idx, &pid, &mib) == 3 && idx < ngpus &&
		    gpus[idx].nprocs < MAX_PROCS) {
			struct proc *p = &gpus[idx].procs[gpus[idx].nprocs++];
			p->pid = pid;
			p->used = mib << 20;
			continue;
		}
		if (ngpus >= MAX_GPUS)
			continue;
		struct gpu *g = &gpus[ngpus];
		double w, lim;
		if (sscanf(line, "gpu %u %31s %llu %u %lf %lf %llx %31s %n", &idx, g->pci,
			   &g->total_mib, &g->temp, &w, &lim, &g->throttle, ecc, &name_at) >= 8 &&
		    idx == ngpus) {
			g->power_mw = (unsigned int)(w * 1000);
			g->limit_mw = (unsigned int)(lim * 1000);
			g->ecc = strcmp(ecc, "-") == 0 ? -1 : atoll(ecc);
			snprintf(g->name, sizeof(g->name), "%s", name_at ? line + name_at : "GPU");
			g->name[strcspn(g->name, "\n")] = '\0';
			ngpus++;
		}
	}
	fclose(f);
	return OK;
}

int nvmlShutdown(void)
{
	return OK;
}

const char *nvmlErrorString(int rc)
{
	return rc == DRIVER_NOT_LOADED ? "Driver Not Loaded" : "Unknown Error";
}

int nvmlDeviceGetCount_v2(unsigned int *n)
{
	*n = ngpus;
	return OK;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int i, struct gpu **d)
{
	if (i >= ngpus)
		return 2; /* invalid argument */
	*d = &gpus[i];
	return OK;
}

int nvmlDeviceGetName(struct gpu *d, char *out, unsigned int n)
{
	snprintf(out, n, "%s", d->name);
	return OK;
}

int nvmlDeviceGetPciInfo_v3(struct gpu *d, struct pci *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->bus_id, sizeof(out->bus_id), "%s", d->pci);
	return OK;
}

int nvmlDeviceGetMemoryInfo(struct gpu *d, struct memory *out)
{
	out->total = d->total_mib << 20;
	out->used = 0;
	for (unsigned int i = 0; i < d->nprocs; i++)
		out->used += d->procs[i].used;
	out->free = out->total > out->used ? out->total - out->used : 0;
	return OK;
}

int nvmlDeviceGetTemperature(struct gpu *d, int sensor, unsigned int *out)
{
	(void)sensor;
	*out = d->temp;
	return OK;
}

int nvmlDeviceGetPowerUsage(struct gpu *d, unsigned int *out)
{
	*out = d->power_mw;
	return OK;
}

int nvmlDeviceGetEnforcedPowerLimit(struct gpu *d, unsigned int *out)
{
	*out = d->limit_mw;
	return OK;
}

int nvmlDeviceGetCurrentClocksEventReasons(struct gpu *d, unsigned long long *out)
{
	*out = d->throttle;
	return OK;
}

int nvmlDeviceGetTotalEccErrors(struct gpu *d, int type, int counter, unsigned long long *out)
{
	(void)type;
	(void)counter;
	if (d->ecc < 0)
		return NOT_SUPPORTED;
	*out = (unsigned long long)d->ecc;
	return OK;
}

int nvmlDeviceGetComputeRunningProcesses_v3(struct gpu *d, unsigned int *n, struct proc *out)
{
	if (*n < d->nprocs) {
		*n = d->nprocs;
		return INSUFFICIENT_SIZE;
	}
	memcpy(out, d->procs, d->nprocs * sizeof(*out));
	*n = d->nprocs;
	return OK;
}
