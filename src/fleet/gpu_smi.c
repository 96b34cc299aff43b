/*
 * gpu_smi.c - the GPUs from nvidia-smi, where NVML cannot be loaded:
 *   nvidia-smi --query-gpu=index,pci.bus_id,name,memory.total,memory.used,
 *       temperature.gpu,power.draw,power.limit,clocks_throttle_reasons.active,
 *       ecc.errors.uncorrected.volatile.total --format=csv,noheader,nounits
 *   nvidia-smi --query-compute-apps=pid,used_memory,gpu_bus_id
 *       --format=csv,noheader,nounits
 * Fields it cannot read say "[N/A]" or "[Not Supported]": unknown, not an
 * error.  Memory is in MiB, power in W.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fleet/fleet_int.h"

#define SMI_MAX_BYTES (1u << 20)
#define MIB (1024.0 * 1024.0)

static const char GPU_FIELDS[] =
	"--query-gpu=index,pci.bus_id,name,memory.total,memory.used,temperature.gpu,"
	"power.draw,power.limit,clocks_throttle_reasons.active,"
	"ecc.errors.uncorrected.volatile.total";
static const char APP_FIELDS[] = "--query-compute-apps=pid,used_memory,gpu_bus_id";

enum { G_INDEX, G_PCI, G_NAME, G_TOTAL, G_USED, G_TEMP, G_POWER, G_LIMIT, G_THROTTLE, G_ECC, G_N };

/* One CSV line split at commas, each field trimmed; at most max fields. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;
	while (n < max) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		f[n++] = sw_trim(p);
		if (!comma)
			break;
		p = comma + 1;
	}
	return n;
}

static bool known(const char *s)
{
	return *s && s[0] != '[' && strcasecmp(s, "N/A") != 0;
}

static bool number(const char *s, double lo, double hi, double *out)
{
	char *end;
	if (!known(s))
		return false;
	double v = strtod(s, &end);
	if (end == s || *sw_trim(end) || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static int parse_gpus(struct sw_fleet_gpus_now *out, char *text, struct sw_err *err)
{
	char *save = NULL;
	int lineno = 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[G_N + 1];
		double v;
		lineno++;
		if (!*sw_trim(line))
			continue;
		if (split(line, f, G_N + 1) != G_N)
			return sw_err_set(err, SW_EINPUT, "nvidia-smi line %d: expected %d fields",
					  lineno, G_N);
		if (!number(f[G_INDEX], 0, SW_FLEET_MAX_GPUS - 1, &v) || v != floor(v))
			return sw_err_set(err, SW_EINPUT, "nvidia-smi line %d: bad GPU index",
					  lineno);
		struct sw_fleet_gpu_now *u = sw__fleet_gpus_add(out, err);
		if (!u)
			return SW_ELIMIT;
		u->index = (int)v;
		snprintf(u->pci, sizeof(u->pci), "%s", known(f[G_PCI]) ? f[G_PCI] : "");
		snprintf(u->name, sizeof(u->name), "%s", f[G_NAME]);
		if (number(f[G_TOTAL], 0, 1e9, &v))
			u->mem_total = (uint64_t)(v * MIB);
		if (number(f[G_USED], 0, 1e9, &v))
			u->mem_used = (uint64_t)(v * MIB);
		if (number(f[G_TEMP], 0, 999, &v))
			u->temp_c = (int)v;
		if (number(f[G_POWER], 0, 1e6, &v))
			u->power_w = v;
		if (number(f[G_LIMIT], 0, 1e6, &v))
			u->power_limit_w = v;
		if (known(f[G_THROTTLE])) {
			char *end;
			unsigned long long bits = strtoull(f[G_THROTTLE], &end, 16);
			if (end != f[G_THROTTLE] && !*end && bits <= LLONG_MAX)
				u->throttle = (long long)bits;
		}
		if (number(f[G_ECC], 0, 1e18, &v))
			u->ecc_uncorrected = (long long)v;
	}
	return 0;
}

/* "00000000:1A:00.0" and "0000:1a:00.0" name the same bus. */
static bool same_bus(const char *a, const char *b)
{
	const char *ca = strchr(a, ':'), *cb = strchr(b, ':');
	return *a && *b && strcasecmp(ca ? ca : a, cb ? cb : b) == 0;
}

static int parse_apps(struct sw_fleet_gpus_now *out, char *text, struct sw_err *err)
{
	char *save = NULL;
	int lineno = 0;
	for (size_t k = 0; k < out->n; k++)
		out->gpus[k].procs_known = true;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4];
		double pid, used = 0;
		lineno++;
		if (!*sw_trim(line))
			continue;
		if (split(line, f, 4) != 3 || !number(f[0], 1, INT_MAX, &pid))
			return sw_err_set(err, SW_EINPUT,
					  "nvidia-smi compute apps line %d: expected"
					  " pid, used_memory, gpu_bus_id",
					  lineno);
		if (!number(f[1], 0, 1e9, &used))
			used = 0; /* "[N/A]": held, amount unknown */
		for (size_t k = 0; k < out->n; k++)
			if (same_bus(out->gpus[k].pci, f[2])) {
				int rc = sw__fleet_gpu_proc_add(out, k, (int)pid,
								(uint64_t)(used * MIB), err);
				if (rc != 0)
					return rc;
				break;
			}
	}
	return 0;
}

int sw__fleet_gpus_smi_parse(struct sw_fleet_gpus_now *out, const char *gpus_csv,
			     const char *apps_csv, struct sw_err *err)
{
	char *g = sw_xstrdup(gpus_csv), *a = apps_csv ? sw_xstrdup(apps_csv) : NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->source = "nvidia-smi";
	rc = parse_gpus(out, g, err);
	if (rc == 0 && a)
		rc = parse_apps(out, a, err);
	if (rc == 0 && out->n == 0)
		rc = sw_err_set(err, SW_EINPUT, "nvidia-smi lists no GPUs");
	if (rc != 0)
		sw_fleet_gpus_release(out);
	free(g);
	free(a);
	return rc;
}

int sw__fleet_gpus_smi(struct sw_fleet_gpus_now *out, struct sw_err *err)
{
	struct sw_buf g = SW_BUF_INIT, a = SW_BUF_INIT;
	struct sw_err aerr = { 0 };
	char *gargv[] = { (char *)"nvidia-smi", (char *)GPU_FIELDS,
			  (char *)"--format=csv,noheader,nounits", NULL };
	char *aargv[] = { (char *)"nvidia-smi", (char *)APP_FIELDS,
			  (char *)"--format=csv,noheader,nounits", NULL };
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = sw__fleet_capture(&g, gargv, SMI_MAX_BYTES, err)) != 0)
		goto cleanup;
	/* An nvidia-smi without the per-process query still gives health. */
	bool apps = sw__fleet_capture(&a, aargv, SMI_MAX_BYTES, &aerr) == 0;
	rc = sw__fleet_gpus_smi_parse(out, g.data ? g.data : "", apps ? (a.data ? a.data : "")
								 : NULL, err);
cleanup:
	sw_buf_release(&g);
	sw_buf_release(&a);
	return rc;
}
