/*
 * gpu_nvml.c - the GPUs through NVML, the driver's own library, loaded at
 * run time (dlopen) so that sworn starts on machines without the driver.
 * The few declarations below are NVML's documented C ABI (nvml.h is not
 * needed to build): opaque device handles, int return codes, and the
 * structs of the calls used, laid out as the header lays them out.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define NVML_SONAME "libnvidia-ml.so.1"
#define NVML_SUCCESS 0
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_TEMPERATURE_GPU 0
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
#define NVML_VOLATILE_ECC 0
#define NVML_VALUE_NOT_AVAILABLE ULLONG_MAX
#define MAX_PROCS_PER_GPU 256u

typedef struct nvml_device *nvml_device;

struct nvml_pci {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

struct nvml_memory {
	unsigned long long total, free, used;
};

struct nvml_process {
	unsigned int pid;
	unsigned long long used_gpu_memory;
	unsigned int gpu_instance_id, compute_instance_id;
};

struct nvml {
	void *lib;
	int (*init)(void);
	int (*shutdown)(void);
	const char *(*error_string)(int);
	int (*count)(unsigned int *);
	int (*handle)(unsigned int, nvml_device *);
	int (*name)(nvml_device, char *, unsigned int);
	int (*pci)(nvml_device, struct nvml_pci *);
	int (*memory)(nvml_device, struct nvml_memory *);
	int (*temperature)(nvml_device, int, unsigned int *);
	int (*power)(nvml_device, unsigned int *);
	int (*power_limit)(nvml_device, unsigned int *);
	int (*throttle)(nvml_device, unsigned long long *);
	int (*ecc)(nvml_device, int, int, unsigned long long *);
	int (*procs)(nvml_device, unsigned int *, struct nvml_process *);
};

/* Bind the calls; the optional ones may be NULL (an old driver). */
static bool bind(struct nvml *n)
{
#define SYM(field, name) (*(void **)&n->field = dlsym(n->lib, name))
	SYM(init, "nvmlInit_v2");
	SYM(shutdown, "nvmlShutdown");
	SYM(error_string, "nvmlErrorString");
	SYM(count, "nvmlDeviceGetCount_v2");
	SYM(handle, "nvmlDeviceGetHandleByIndex_v2");
	SYM(name, "nvmlDeviceGetName");
	SYM(pci, "nvmlDeviceGetPciInfo_v3");
	SYM(memory, "nvmlDeviceGetMemoryInfo");
	SYM(temperature, "nvmlDeviceGetTemperature");
	SYM(power, "nvmlDeviceGetPowerUsage");
	SYM(power_limit, "nvmlDeviceGetEnforcedPowerLimit");
	if (!SYM(throttle, "nvmlDeviceGetCurrentClocksEventReasons"))
		SYM(throttle, "nvmlDeviceGetCurrentClocksThrottleReasons");
	SYM(ecc, "nvmlDeviceGetTotalEccErrors");
	if (!SYM(procs, "nvmlDeviceGetComputeRunningProcesses_v3"))
		SYM(procs, "nvmlDeviceGetComputeRunningProcesses_v2");
#undef SYM
	return n->init && n->shutdown && n->count && n->handle;
}

static const char *why(const struct nvml *n, int rc)
{
	const char *s = n->error_string ? n->error_string(rc) : NULL;
	return s ? s : "error";
}

static int read_procs(struct sw_fleet_gpus_now *out, size_t k, const struct nvml *n,
		      nvml_device d, struct sw_err *err)
{
	struct nvml_process p[MAX_PROCS_PER_GPU];
	unsigned int count = MAX_PROCS_PER_GPU;
	int rc = n->procs(d, &count, p);
	if (rc == NVML_ERROR_INSUFFICIENT_SIZE)
		return sw_err_set(err, SW_ELIMIT, "NVML: more than %u processes on GPU %d",
				  MAX_PROCS_PER_GPU, out->gpus[k].index);
	if (rc != NVML_SUCCESS)
		return 0; /* not known: procs_known stays false */
	if (count > MAX_PROCS_PER_GPU)
		count = MAX_PROCS_PER_GPU;
	for (unsigned int i = 0; i < count; i++) {
		uint64_t used = p[i].used_gpu_memory == NVML_VALUE_NOT_AVAILABLE
					? 0 : p[i].used_gpu_memory;
		if (p[i].pid > INT_MAX)
			continue;
		int prc = sw__fleet_gpu_proc_add(out, k, (int)p[i].pid, used, err);
		if (prc != 0)
			return prc;
	}
	out->gpus[k].procs_known = true;
	return 0;
}

static int read_gpu(struct sw_fleet_gpus_now *out, const struct nvml *n, unsigned int i,
		    struct sw_err *err)
{
	nvml_device d = NULL;
	int rc = n->handle(i, &d);
	if (rc != NVML_SUCCESS)
		return sw_err_set(err, SW_EIO, "NVML: GPU %u: %s", i, why(n, rc));
	struct sw_fleet_gpu_now *u = sw__fleet_gpus_add(out, err);
	if (!u)
		return SW_ELIMIT;
	u->index = (int)i;
	struct nvml_pci pci;
	memset(&pci, 0, sizeof(pci));
	if (n->pci && n->pci(d, &pci) == NVML_SUCCESS) {
		pci.bus_id[sizeof(pci.bus_id) - 1] = '\0';
		snprintf(u->pci, sizeof(u->pci), "%s", pci.bus_id);
	}
	if (n->name && n->name(d, u->name, sizeof(u->name)) != NVML_SUCCESS)
		u->name[0] = '\0';
	u->name[sizeof(u->name) - 1] = '\0';
	struct nvml_memory mem;
	if (n->memory && n->memory(d, &mem) == NVML_SUCCESS) {
		u->mem_total = mem.total;
		u->mem_used = mem.used;
	}
	unsigned int v;
	if (n->temperature && n->temperature(d, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS &&
	    v < 1000)
		u->temp_c = (int)v;
	if (n->power && n->power(d, &v) == NVML_SUCCESS)
		u->power_w = v / 1000.0;
	if (n->power_limit && n->power_limit(d, &v) == NVML_SUCCESS)
		u->power_limit_w = v / 1000.0;
	unsigned long long bits;
	if (n->throttle && n->throttle(d, &bits) == NVML_SUCCESS && bits <= LLONG_MAX)
		u->throttle = (long long)bits;
	if (n->ecc && n->ecc(d, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC, &bits) ==
			      NVML_SUCCESS && bits <= LLONG_MAX)
		u->ecc_uncorrected = (long long)bits;
	return n->procs ? read_procs(out, out->n - 1, n, d, err) : 0;
}

int sw__fleet_gpus_nvml(struct sw_fleet_gpus_now *out, struct sw_err *err)
{
	const char *want = getenv("SWORN_NVML");
	struct nvml n;
	unsigned int count = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&n, 0, sizeof(n));
	if (want && strcmp(want, "off") == 0)
		return sw_err_set(err, SW_ENOTFOUND, "NVML is off (SWORN_NVML=off)");
	n.lib = dlopen(want && *want ? want : NVML_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!n.lib)
		return sw_err_set(err, SW_ENOTFOUND, "no NVML (%s): no NVIDIA driver here",
				  want && *want ? want : NVML_SONAME);
	if (!bind(&n)) {
		rc = sw_err_set(err, SW_EIO,
				"NVML: the library lacks nvmlInit_v2 (driver too old)");
		goto close;
	}
	if ((rc = n.init()) != NVML_SUCCESS) {
		rc = sw_err_set(err, SW_EIO, "NVML: cannot initialise: %s", why(&n, rc));
		goto close;
	}
	out->source = "NVML";
	if ((rc = n.count(&count)) != NVML_SUCCESS) {
		rc = sw_err_set(err, SW_EIO, "NVML: cannot count the GPUs: %s", why(&n, rc));
		goto shutdown;
	}
	for (unsigned int i = 0; i < count && rc == 0; i++)
		rc = read_gpu(out, &n, i, err);
shutdown:
	n.shutdown();
close:
	dlclose(n.lib);
	if (rc != 0)
		sw_fleet_gpus_release(out);
	return rc;
}
