/*
 * hw.c - the GPU inventory: from an INI file, or from nvidia-smi's CSV and
 * topology matrix.
 *
 * Boards are cliques of NVLink edges, not connected components: DGX-1-style
 * hybrid cube-mesh boxes link every GPU to some GPU of the other quad, and
 * a connected component would fuse two boards into one "group" that a model
 * must never span.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define SMI_MAX_BYTES (1u << 20)
/* nvidia-smi answers in a second or two; one that hangs on a wedged driver
 * must not hang sworn with it. */
#define SMI_TIMEOUT_MS 60000
#define MAX_GPU_INDEX 1023

/* Peak memory bandwidth by GPU name; the more specific names come first. */
static const struct {
	const char *needle;
	double gbs;
} known_bw[] = {
	{ "V100S", 1134 }, { "V100", 900 }, { "3090 Ti", 1008 }, { "3090", 936 },
	{ "3080 Ti", 912 }, { "3080", 760 }, { "4090", 1008 }, { "4080", 716.8 },
	{ "A100-SXM4-80GB", 2039 }, { "A100 80GB PCIe", 1935 }, { "A100-PCIE-80GB", 1935 },
	{ "A100", 1555 }, { "H100 NVL", 3900 }, { "H100 PCIe", 2000 }, { "H100", 3350 },
	{ "H200", 4800 }, { "A6000", 768 }, { "A40", 696 }, { "L40S", 864 },
	{ "P100", 732 }, { "P40", 346 }, { "T4", 320 },
};
#define UNKNOWN_BW 400.0

static double bandwidth_for(const char *name)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(known_bw); i++)
		if (strstr(name, known_bw[i].needle))
			return known_bw[i].gbs;
	return 0;
}

static void note(struct sw_fleet_hw *hw, const char *fmt, ...) SW_PRINTF(2, 3);
static void note(struct sw_fleet_hw *hw, const char *fmt, ...)
{
	struct sw_buf b = SW_BUF_INIT;
	va_list ap;
	if (hw->notes) {
		sw_buf_adds(&b, hw->notes);
		sw_buf_addc(&b, '\n');
		free(hw->notes);
	}
	va_start(ap, fmt);
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	hw->notes = sw_buf_detach(&b, NULL);
}

void sw_fleet_hw_release(struct sw_fleet_hw *hw)
{
	if (!hw)
		return;
	for (size_t i = 0; i < hw->ngpus; i++) {
		free(hw->gpus[i].name);
		free(hw->gpus[i].pci);
	}
	for (size_t i = 0; i < hw->ngroups; i++)
		free(hw->groups[i].name);
	sw__fleet_hosts_release(hw);
	free(hw->gpus);
	free(hw->groups);
	free(hw->source);
	free(hw->notes);
	memset(hw, 0, sizeof(*hw));
}

int sw_fleet_hw_find_group(const struct sw_fleet_hw *hw, const char *name)
{
	for (size_t i = 0; i < hw->ngroups; i++)
		if (strcmp(hw->groups[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int gpu_by_index(const struct sw_fleet_hw *hw, int index)
{
	for (size_t i = 0; i < hw->ngpus; i++)
		if (hw->gpus[i].index == index)
			return (int)i;
	return -1;
}

static struct sw_fleet_group *add_group(struct sw_fleet_hw *hw, const char *name, bool nvlink)
{
	hw->groups = sw_xrealloc(hw->groups, (hw->ngroups + 1) * sizeof(*hw->groups));
	struct sw_fleet_group *g = &hw->groups[hw->ngroups++];
	memset(g, 0, sizeof(*g));
	g->name = sw_xstrdup(name);
	g->nvlink = nvlink;
	return g;
}

/* Every GPU in no group becomes a group of its own, so that placement sees
 * every GPU. */
static void group_singles(struct sw_fleet_hw *hw)
{
	for (size_t i = 0; i < hw->ngpus; i++) {
		if (hw->gpus[i].group >= 0 || hw->ngroups >= SW_FLEET_MAX_GROUPS)
			continue;
		char name[32];
		snprintf(name, sizeof(name), "gpu-%d", hw->gpus[i].index);
		struct sw_fleet_group *g = add_group(hw, name, false);
		g->gpu[g->n++] = (int)i;
		hw->gpus[i].group = (int)hw->ngroups - 1;
	}
}

/* "7.0": the compute capability. */
static bool parse_cc(const char *s, int *major, int *minor)
{
	char buf[16];
	const char *dot = strchr(s, '.');
	long long a, b;
	if (!dot || (size_t)(dot - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(dot - s));
	buf[dot - s] = '\0';
	if (!sw_parse_int(buf, 1, 99, &a) || !sw_parse_int(dot + 1, 0, 9, &b) ||
	    buf[0] == '+' || dot[1] == '+' || dot[1] == '-')
		return false;
	*major = (int)a;
	*minor = (int)b;
	return true;
}

/* ---------------------------------------------------------- inventory file */

/* One [gpu "N"] or [group "NAME"] as the file gives it; checked against
 * each other once the whole file is read (a group names GPUs that may come
 * later). */
struct gpu_in {
	int index;
	int line;           /* the section's first entry */
	char *name, *pci;
	double memory_gib;  /* NAN until given */
	double bandwidth_gbs;
	int cc_major, cc_minor; /* 0 until given */
};

struct group_in {
	char *name;
	int line;
	char *gpus;
	int gpus_line;
	int link;           /* -1, or the index into link_names */
};

/* [host] (one per file) and [link "A-B"]. */
struct host_in {
	char *name, *address, *exec;
};

struct link_in {
	char *name;
	double bandwidth_gbs, latency_us; /* NAN until given */
	int line;
};

#define MAX_LINKS 16

struct inventory {
	struct host_in host;
	struct link_in links[MAX_LINKS];
	size_t nlinks;
	struct gpu_in gpus[SW_FLEET_MAX_GPUS];
	size_t ngpus;
	struct group_in groups[SW_FLEET_MAX_GROUPS];
	size_t ngroups;
};

static const char *const link_names[] = { "nvlink", "pcie", NULL };

static int set_compute(void *obj, const struct sw_config_entry *e, void *user,
		       struct sw_err *err)
{
	struct gpu_in *g = obj;
	(void)user;
	if (!parse_cc(e->value, &g->cc_major, &g->cc_minor))
		return sw_err_set(err, SW_EINPUT,
				  "bad compute '%s': expected the compute capability, e.g. 7.0",
				  e->value);
	return 0;
}

static int set_group_gpus(void *obj, const struct sw_config_entry *e, void *user,
			  struct sw_err *err)
{
	struct group_in *g = obj;
	(void)user;
	(void)err;
	free(g->gpus);
	g->gpus = sw_xstrdup(e->value);
	g->gpus_line = e->line;
	return 0;
}

static const struct sw_config_section inventory_sections[] = {
	{ "host", false, "the machine these GPUs are in, when the fleet has several" },
	{ "link", true, "the network between two hosts: [link \"box1-box2\"]" },
	{ "gpu", true, "one GPU, named by its nvidia-smi index: [gpu \"4\"]" },
	{ "group", true, "GPUs a model may be split over (one NVLink board, or a PCIe set)" },
};

#define GPU(m) SW_CONFIG_AT(struct gpu_in, m)

#define HOST(m) SW_CONFIG_AT(struct host_in, m)
#define LINK(m) SW_CONFIG_AT(struct link_in, m)

static const struct sw_config_key inventory_keys[] = {
	{ .section = "host", .key = "name", .type = SW_CONFIG_STRING, HOST(name),
	  .help = "its name in plans and fleet status (default: the file's name)" },
	{ .section = "host", .key = "address", .type = SW_CONFIG_STRING, HOST(address),
	  .help = "the address the other hosts reach it at (default: this machine)" },
	{ .section = "host", .key = "exec", .type = SW_CONFIG_STRING, HOST(exec),
	  .help = "the command prefix that runs a command there "
		  "(default with address: ssh -o BatchMode=yes sworn@ADDRESS)" },
	{ .section = "link", .key = "bandwidth_gbs", .type = SW_CONFIG_DOUBLE, LINK(bandwidth_gbs),
	  .min = 0.001, .max = 10000, .help = "usable bandwidth in GB/s (10 GbE: 1.25)" },
	{ .section = "link", .key = "latency_us", .type = SW_CONFIG_DOUBLE, LINK(latency_us),
	  .min = 0, .max = 1e6, .help = "one-way latency in microseconds" },
	{ .section = "gpu", .key = "name", .type = SW_CONFIG_STRING, GPU(name),
	  .help = "as nvidia-smi names it; picks the built-in bandwidth" },
	{ .section = "gpu", .key = "memory_gib", .type = SW_CONFIG_DOUBLE, GPU(memory_gib),
	  .min = 0.5, .max = 4096, .help = "memory in GiB (required)" },
	{ .section = "gpu", .key = "bandwidth_gbs", .type = SW_CONFIG_DOUBLE, GPU(bandwidth_gbs),
	  .min = 1, .max = 100000,
	  .help = "peak memory bandwidth in GB/s (required for a GPU sworn does not know)" },
	{ .section = "gpu", .key = "compute", .type = SW_CONFIG_CUSTOM, .set = set_compute,
	  .expect = "MAJOR.MINOR, e.g. 7.0", .help = "the compute capability (required)" },
	{ .section = "gpu", .key = "pci", .type = SW_CONFIG_STRING, GPU(pci),
	  .help = "the PCI bus id, to find the GPU when indexes move" },
	{ .section = "group", .key = "gpus", .type = SW_CONFIG_CUSTOM, .set = set_group_gpus,
	  .expect = "GPU indexes separated by commas", .help = "its GPUs (required)" },
	{ .section = "group", .key = "link", .type = SW_CONFIG_ENUM,
	  SW_CONFIG_AT(struct group_in, link), .choices = link_names,
	  .help = "how they are linked (nvlink)" },
};

const struct sw_config_schema sw_fleet_hw_schema = {
	.file = "hardware inventory",
	.sections = inventory_sections,
	.nsections = SW_ARRAY_LEN(inventory_sections),
	.keys = inventory_keys,
	.nkeys = SW_ARRAY_LEN(inventory_keys),
	.closed = true,
};

static void *inventory_target(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	struct inventory *inv = user;
	if (strcmp(e->section, "host") == 0)
		return &inv->host;
	if (strcmp(e->section, "link") == 0) {
		for (size_t i = 0; i < inv->nlinks; i++)
			if (strcmp(inv->links[i].name, e->subsection) == 0)
				return &inv->links[i];
		if (inv->nlinks >= MAX_LINKS) {
			sw_err_set(err, SW_ELIMIT, "more than %d links", MAX_LINKS);
			return NULL;
		}
		struct link_in *l = &inv->links[inv->nlinks++];
		l->name = sw_xstrdup(e->subsection);
		l->line = e->line;
		l->bandwidth_gbs = NAN;
		l->latency_us = NAN;
		return l;
	}
	if (strcmp(e->section, "group") == 0) {
		for (size_t i = 0; i < inv->ngroups; i++)
			if (strcmp(inv->groups[i].name, e->subsection) == 0)
				return &inv->groups[i];
		if (inv->ngroups >= SW_FLEET_MAX_GROUPS) {
			sw_err_set(err, SW_ELIMIT, "more than %u groups", SW_FLEET_MAX_GROUPS);
			return NULL;
		}
		struct group_in *g = &inv->groups[inv->ngroups++];
		g->name = sw_xstrdup(e->subsection);
		g->line = e->line;
		g->link = -1;
		return g;
	}
	long long idx;
	if (!sw_parse_int(e->subsection, 0, MAX_GPU_INDEX, &idx)) {
		sw_err_set(err, SW_EINPUT, "[gpu \"%s\"]: the GPU is named by its nvidia-smi index (0-%d)",
			   e->subsection, MAX_GPU_INDEX);
		return NULL;
	}
	for (size_t i = 0; i < inv->ngpus; i++)
		if (inv->gpus[i].index == (int)idx)
			return &inv->gpus[i]; /* a later [gpu "N"] adds keys to the same GPU */
	if (inv->ngpus >= SW_FLEET_MAX_GPUS) {
		sw_err_set(err, SW_ELIMIT, "more than %u GPUs", SW_FLEET_MAX_GPUS);
		return NULL;
	}
	struct gpu_in *g = &inv->gpus[inv->ngpus++];
	g->index = (int)idx;
	g->line = e->line;
	g->memory_gib = NAN;
	g->bandwidth_gbs = NAN;
	return g;
}

static void inventory_release(struct inventory *inv)
{
	free(inv->host.name);
	free(inv->host.address);
	free(inv->host.exec);
	for (size_t i = 0; i < inv->nlinks; i++)
		free(inv->links[i].name);
	for (size_t i = 0; i < inv->ngpus; i++) {
		free(inv->gpus[i].name);
		free(inv->gpus[i].pci);
	}
	for (size_t i = 0; i < inv->ngroups; i++) {
		free(inv->groups[i].name);
		free(inv->groups[i].gpus);
	}
}

static int add_gpus(struct sw_fleet_hw *hw, const struct inventory *inv, const char *path,
		    struct sw_err *err)
{
	for (size_t i = 0; i < inv->ngpus; i++) {
		const struct gpu_in *in = &inv->gpus[i];
		hw->gpus = sw_xrealloc(hw->gpus, (hw->ngpus + 1) * sizeof(*hw->gpus));
		struct sw_fleet_gpu *gpu = &hw->gpus[hw->ngpus++];
		memset(gpu, 0, sizeof(*gpu));
		gpu->index = in->index;
		gpu->group = -1;
		gpu->name = sw_xstrdup(in->name ? in->name : "unknown GPU");
		gpu->pci = in->pci ? sw_xstrdup(in->pci) : NULL;
		if (isnan(in->memory_gib))
			return sw_err_set(err, SW_EINPUT, "%s:%d: [gpu \"%d\"] needs memory_gib (a number of GiB)",
					  path, in->line, in->index);
		gpu->memory_mib = (uint64_t)(in->memory_gib * 1024 + 0.5);
		gpu->bandwidth_gbs = isnan(in->bandwidth_gbs) ? bandwidth_for(gpu->name) : in->bandwidth_gbs;
		if (gpu->bandwidth_gbs == 0)
			return sw_err_set(err, SW_EINPUT, "%s:%d: [gpu \"%d\"] needs bandwidth_gbs ('%s' is not a GPU sworn knows)",
					  path, in->line, in->index, gpu->name);
		if (in->cc_major == 0)
			return sw_err_set(err, SW_EINPUT, "%s:%d: [gpu \"%d\"] needs compute (the compute capability, e.g. 7.0)",
					  path, in->line, in->index);
		gpu->cc_major = in->cc_major;
		gpu->cc_minor = in->cc_minor;
	}
	if (hw->ngpus == 0)
		return sw_err_set(err, SW_EINPUT, "%s: no [gpu \"N\"] sections", path);
	return 0;
}

static int add_group_list(struct sw_fleet_hw *hw, const struct group_in *in, const char *path,
			  struct sw_err *err)
{
	const char *sub = in->name;
	if (!in->gpus || !*in->gpus)
		return sw_err_set(err, SW_EINPUT, "%s:%d: [group \"%s\"] needs gpus (a list such as 4,5,8,9)",
				  path, in->line, sub);
	struct sw_fleet_group *g = add_group(hw, sub, in->link != 1);
	char *list = sw_xstrdup(in->gpus), *save = list, *tok;
	int rc = 0;
	while (rc == 0 && (tok = save) != NULL) {
		char *comma = strchr(tok, ',');
		save = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		long long idx;
		int gi = -1;
		if (!sw_parse_int(sw_trim(tok), 0, MAX_GPU_INDEX, &idx) ||
		    (gi = gpu_by_index(hw, (int)idx)) < 0)
			rc = sw_err_set(err, SW_EINPUT, "%s:%d: [group \"%s\"]: '%s' is not a GPU of this inventory",
					path, in->gpus_line, sub, tok);
		else if (hw->gpus[gi].group >= 0)
			rc = sw_err_set(err, SW_EINPUT, "%s:%d: GPU %lld is in two groups ('%s' and '%s')",
					path, in->gpus_line, idx, hw->groups[hw->gpus[gi].group].name, sub);
		else {
			hw->gpus[gi].group = (int)hw->ngroups - 1;
			g->gpu[g->n++] = gi;
		}
	}
	free(list);
	return rc;
}

/* The file's [host] (or this machine, named after the file) and links. */
static int add_host(struct sw_fleet_hw *hw, const struct inventory *inv, const char *path,
		    struct sw_err *err)
{
	const struct host_in *in = &inv->host;
	char *name = NULL;
	if (in->name && *in->name) {
		name = sw_xstrdup(in->name);
	} else {
		name = sw_xstrdup(sw_path_base(path));
		char *dot = strrchr(name, '.');
		if (dot && dot != name)
			*dot = '\0';
	}
	/* The name goes into file names and, through an exec, into a command
	 * line on that host: a host name, nothing a shell would act on. */
	if (!sw_fleet_host_name_ok(name)) {
		int rc = sw_err_set(err, SW_EINPUT,
				    "%s: %s '%s' is not a host name (letters, digits,"
				    " '-' and dots: box2, gpu2.lan)%s",
				    path,
				    in->name && *in->name ? "[host] name"
							  : "the host named after the file",
				    name, in->name && *in->name ? "" : "; give [host] name");
		free(name);
		return rc;
	}
	if (in->address && *in->address && !sw_fleet_host_address_ok(in->address)) {
		free(name);
		return sw_err_set(err, SW_EINPUT,
				  "%s: [host] address '%s' is neither a host name nor"
				  " a numeric address",
				  path, in->address);
	}
	char *exec = NULL;
	if (in->exec && *in->exec)
		exec = sw_xstrdup(in->exec);
	else if (in->address && *in->address)
		exec = sw_xasprintf("ssh -o BatchMode=yes sworn@%s", in->address);
	int rc = sw__fleet_host_add(hw, name, in->address && *in->address ? in->address : NULL,
				    exec, path, err);
	free(name);
	free(exec);
	for (size_t i = 0; rc == 0 && i < inv->nlinks; i++) {
		const struct link_in *l = &inv->links[i];
		if (isnan(l->bandwidth_gbs) || isnan(l->latency_us))
			return sw_err_set(err, SW_EINPUT, "%s:%d: [link \"%s\"] needs bandwidth_gbs and latency_us",
					  path, l->line, l->name);
		rc = sw__fleet_link_add(hw, l->name, l->bandwidth_gbs, l->latency_us, err);
	}
	return rc;
}

int sw_fleet_hw_load(struct sw_fleet_hw *out, const char *path, struct sw_err *err)
{
	struct sw_config cfg = { 0 };
	struct inventory *inv = sw_xcalloc(1, sizeof(*inv));
	struct sw_fleet_hw *hw = out;
	int rc;

	memset(hw, 0, sizeof(*hw));
	hw->source = sw_xstrdup(path);
	if ((rc = sw_config_load(&cfg, path, err)) ||
	    (rc = sw_config_apply(&sw_fleet_hw_schema, &cfg, inventory_target, inv, err)) ||
	    (rc = add_gpus(hw, inv, path, err)))
		goto cleanup;
	for (size_t i = 0; i < inv->ngroups && rc == 0; i++)
		rc = add_group_list(hw, &inv->groups[i], path, err);
	if (rc == 0)
		group_singles(hw);
	if (rc == 0)
		rc = add_host(hw, inv, path, err);
cleanup:
	inventory_release(inv);
	free(inv);
	sw_config_release(&cfg);
	if (rc)
		sw_fleet_hw_release(hw);
	return rc;
}

/* --------------------------------------------------------------- nvidia-smi */

/* Copy s without ANSI escape sequences (newer nvidia-smi underlines the
 * topology header). */
static char *strip_ansi(const char *s)
{
	struct sw_buf b = SW_BUF_INIT;
	while (*s) {
		if (*s == '\x1b') {
			s++;
			if (*s == '[') {
				s++;
				while (*s && !(*s >= '@' && *s <= '~'))
					s++;
				if (*s)
					s++;
			}
			continue;
		}
		sw_buf_addc(&b, *s++);
	}
	return sw_buf_detach(&b, NULL);
}

/* nvidia-smi's CSV puts a blank after each comma: rows are read by base's
 * CSV reader, and their fields copied into f trimmed.  Returns the count;
 * the caller frees the fields. */
#define SMI_MAX_FIELDS 16
static size_t row_fields(const struct sw_csv *r, char **f)
{
	size_t n = r->nfields < SMI_MAX_FIELDS ? r->nfields : SMI_MAX_FIELDS;
	for (size_t i = 0; i < n; i++)
		f[i] = sw_trim(sw_xstrdup(sw_csv_field(r, i)));
	return n;
}

static void free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i]);
}

enum { COL_INDEX, COL_NAME, COL_MEM, COL_PCI, COL_CC, NCOL };

static int parse_query(struct sw_fleet_hw *hw, const char *csv, struct sw_err *err)
{
	char *text = strip_ansi(csv);
	char *f[SMI_MAX_FIELDS];
	size_t n = 0;
	struct sw_csv r;
	int col[NCOL] = { 0, 1, 2, 3, 4 }; /* the order sworn asks for */
	bool header_seen = false;
	int rc = 0;

	sw_csv_init_mem(&r, text, strlen(text), "nvidia-smi");
	r.max_field = 4096;
	r.max_fields = SMI_MAX_FIELDS;
	while (rc == 0 && (rc = sw_csv_next(&r, err)) == 1) {
		rc = 0;
		free_fields(f, n);
		n = row_fields(&r, f);
		int lineno = (int)r.line;
		if (r.over) {
			rc = sw_err_set(err, SW_ELIMIT, "nvidia-smi line %d: too long", lineno);
			goto cleanup;
		}
		if (n == 1 && !*f[0])
			continue;
		if (!header_seen && strncmp(f[0], "index", 5) == 0) {
			for (int c = 0; c < NCOL; c++)
				col[c] = -1;
			for (size_t i = 0; i < n; i++) {
				if (strcmp(f[i], "index") == 0) col[COL_INDEX] = (int)i;
				else if (strcmp(f[i], "name") == 0) col[COL_NAME] = (int)i;
				else if (strncmp(f[i], "memory.total", 12) == 0) col[COL_MEM] = (int)i;
				else if (strcmp(f[i], "pci.bus_id") == 0) col[COL_PCI] = (int)i;
				else if (strcmp(f[i], "compute_cap") == 0) col[COL_CC] = (int)i;
			}
			header_seen = true;
			if (col[COL_INDEX] < 0 || col[COL_NAME] < 0 || col[COL_MEM] < 0 || col[COL_CC] < 0)
				rc = sw_err_set(err, SW_EINPUT,
						"nvidia-smi output lacks index, name, memory.total or compute_cap");
			continue;
		}
		for (int c = 0; c < NCOL; c++)
			if (col[c] >= (int)n) {
				rc = sw_err_set(err, SW_EINPUT, "nvidia-smi line %d: %zu fields, expected more", lineno, n);
				goto cleanup;
			}
		long long idx;
		double mem;
		int ma, mi;
		char *unit = strstr(f[col[COL_MEM]], "MiB");
		if (unit)
			*unit = '\0';
		if (!sw_parse_int(f[col[COL_INDEX]], 0, MAX_GPU_INDEX, &idx) ||
		    !sw_parse_double(sw_trim(f[col[COL_MEM]]), 1, 1 << 24, &mem) ||
		    !parse_cc(f[col[COL_CC]], &ma, &mi)) {
			rc = sw_err_set(err, SW_EINPUT, "nvidia-smi line %d: cannot read '%s'", lineno,
					f[col[COL_INDEX]]);
			goto cleanup;
		}
		if (gpu_by_index(hw, (int)idx) >= 0 || hw->ngpus >= SW_FLEET_MAX_GPUS) {
			rc = sw_err_set(err, SW_EINPUT, "nvidia-smi line %d: GPU %lld repeated or too many GPUs", lineno, idx);
			goto cleanup;
		}
		hw->gpus = sw_xrealloc(hw->gpus, (hw->ngpus + 1) * sizeof(*hw->gpus));
		struct sw_fleet_gpu *g = &hw->gpus[hw->ngpus++];
		memset(g, 0, sizeof(*g));
		g->index = (int)idx;
		g->name = sw_xstrdup(f[col[COL_NAME]]);
		g->pci = col[COL_PCI] >= 0 ? sw_xstrdup(f[col[COL_PCI]]) : NULL;
		g->memory_mib = (uint64_t)mem;
		g->cc_major = ma;
		g->cc_minor = mi;
		g->group = -1;
		g->bandwidth_gbs = bandwidth_for(g->name);
		if (g->bandwidth_gbs == 0) {
			g->bandwidth_gbs = UNKNOWN_BW;
			note(hw, "GPU %lld '%s' is not in sworn's table: assuming %.0f GB/s (write an inventory file with bandwidth_gbs)",
			     idx, g->name, UNKNOWN_BW);
		}
	}
	if (rc == 0 && hw->ngpus == 0)
		rc = sw_err_set(err, SW_EINPUT, "nvidia-smi lists no GPUs");
cleanup:
	free_fields(f, n);
	sw_csv_release(&r);
	free(text);
	return rc;
}

/* Bron-Kerbosch with pivoting over bitmasks: every maximal clique. */
static void cliques(const uint64_t *adj, uint64_t r, uint64_t p, uint64_t x, uint64_t *found,
		    size_t *nfound, size_t max)
{
	if (!p && !x) {
		if (*nfound < max && __builtin_popcountll(r) >= 2)
			found[(*nfound)++] = r;
		return;
	}
	int u = __builtin_ctzll(p | x);
	uint64_t cand = p & ~adj[u];
	while (cand) {
		int v = __builtin_ctzll(cand);
		uint64_t bit = UINT64_C(1) << v;
		cliques(adj, r | bit, p & adj[v], x & adj[v], found, nfound, max);
		p &= ~bit;
		x |= bit;
		cand &= ~bit;
	}
}

static int parse_topo(struct sw_fleet_hw *hw, const char *topo, struct sw_err *err)
{
	char *text = strip_ansi(topo), *line = text, *next;
	int cols[SW_FLEET_MAX_GPUS]; /* header column -> position in hw->gpus */
	size_t ncols = 0;
	uint64_t adj[SW_FLEET_MAX_GPUS] = { 0 };
	int rc = 0;

	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *tok[SW_FLEET_MAX_GPUS + 8];
		size_t n = 0;
		for (char *p = line; *p && n < SW_ARRAY_LEN(tok);) {
			while (*p == ' ' || *p == '\t' || *p == '\r')
				*p++ = '\0';
			if (!*p)
				break;
			tok[n++] = p;
			while (*p && *p != ' ' && *p != '\t' && *p != '\r')
				p++;
		}
		if (n == 0)
			continue;
		/* The header starts with GPU0 GPU1 ...; a row with GPUn X ... */
		if (ncols == 0 && strncmp(tok[0], "GPU", 3) == 0 && (n < 2 || strcmp(tok[1], "X") != 0)) {
			for (size_t i = 0; i < n && ncols < SW_FLEET_MAX_GPUS; i++) {
				long long idx;
				if (strncmp(tok[i], "GPU", 3) != 0 || !sw_parse_int(tok[i] + 3, 0, MAX_GPU_INDEX, &idx))
					break;
				cols[ncols++] = gpu_by_index(hw, (int)idx);
			}
			continue;
		}
		long long row;
		if (ncols == 0 || strncmp(tok[0], "GPU", 3) != 0 || !sw_parse_int(tok[0] + 3, 0, MAX_GPU_INDEX, &row))
			continue;
		int ri = gpu_by_index(hw, (int)row);
		if (ri < 0) {
			rc = sw_err_set(err, SW_EINPUT, "nvidia-smi topo lists GPU%lld, which the GPU list lacks", row);
			goto cleanup;
		}
		for (size_t c = 0; c < ncols && c + 1 < n; c++) {
			const char *cell = tok[c + 1];
			if (cols[c] < 0 || cols[c] == ri)
				continue;
			long long links;
			if (strncmp(cell, "NV", 2) == 0 && sw_parse_int(cell + 2, 1, 64, &links))
				adj[ri] |= UINT64_C(1) << cols[c];
		}
	}
	/* An edge counts only when both rows agree. */
	for (size_t i = 0; i < hw->ngpus; i++)
		for (size_t j = 0; j < hw->ngpus; j++)
			if (!(adj[j] >> i & 1))
				adj[i] &= ~(UINT64_C(1) << j);

	uint64_t found[256];
	size_t nfound = 0;
	uint64_t all = hw->ngpus == 64 ? ~UINT64_C(0) : (UINT64_C(1) << hw->ngpus) - 1;
	cliques(adj, 0, all, 0, found, &nfound, SW_ARRAY_LEN(found));
	/* Take the largest cliques first, disjoint; ties by lowest GPU. */
	uint64_t used = 0;
	char name[32];
	for (;;) {
		int best = -1;
		for (size_t i = 0; i < nfound; i++) {
			if (found[i] & used)
				continue;
			if (best < 0 || __builtin_popcountll(found[i]) > __builtin_popcountll(found[best]) ||
			    (__builtin_popcountll(found[i]) == __builtin_popcountll(found[best]) &&
			     __builtin_ctzll(found[i]) < __builtin_ctzll(found[best])))
				best = (int)i;
		}
		if (best < 0 || hw->ngroups >= SW_FLEET_MAX_GROUPS)
			break;
		used |= found[best];
		snprintf(name, sizeof(name), "board-%c", (char)('a' + (hw->ngroups % 26)));
		struct sw_fleet_group *g = add_group(hw, name, true);
		for (uint64_t m = found[best]; m; m &= m - 1) {
			int gi = __builtin_ctzll(m);
			g->gpu[g->n++] = gi;
			hw->gpus[gi].group = (int)hw->ngroups - 1;
		}
	}
cleanup:
	free(text);
	return rc;
}

static int cmp_gpu(const void *a, const void *b)
{
	const struct sw_fleet_gpu *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

int sw_fleet_hw_from_smi(struct sw_fleet_hw *out, const char *query_csv, const char *topo,
			 struct sw_err *err)
{
	struct sw_fleet_hw *hw = out;
	int rc;
	memset(hw, 0, sizeof(*hw));
	hw->source = sw_xstrdup("nvidia-smi");
	if ((rc = parse_query(hw, query_csv, err)))
		goto cleanup;
	qsort(hw->gpus, hw->ngpus, sizeof(*hw->gpus), cmp_gpu);
	if (topo && (rc = parse_topo(hw, topo, err)))
		goto cleanup;
	/* Boards are named in order of their lowest GPU. */
	group_singles(hw);
	rc = sw__fleet_host_add(hw, "local", NULL, NULL, "nvidia-smi", err);
cleanup:
	if (rc)
		sw_fleet_hw_release(hw);
	return rc;
}

int sw__fleet_capture(struct sw_buf *out, char *const argv[], size_t limit, struct sw_err *err)
{
	struct sw_proc_spec spec = { .argv = (const char *const *)argv };
	int code = 0;
	int rc = sw_proc_capture(out, &code, &spec, limit, SMI_TIMEOUT_MS, err);
	if (rc == SW_ENOTFOUND)
		rc = SW_EIO; /* as before: the caller tells "no nvidia-smi" by SW_EIO */
	if (rc == 0 && code != 0)
		rc = sw_err_set(err, SW_EIO, "%s failed (exit status %d)", argv[0], code);
	return rc;
}

int sw_fleet_hw_detect(struct sw_fleet_hw *out, struct sw_err *err)
{
	struct sw_buf q = SW_BUF_INIT, t = SW_BUF_INIT;
	char *qargv[] = { (char *)"nvidia-smi",
			  (char *)"--query-gpu=index,name,memory.total,pci.bus_id,compute_cap",
			  (char *)"--format=csv", NULL };
	char *targv[] = { (char *)"nvidia-smi", (char *)"topo", (char *)"-m", NULL };
	int rc = sw__fleet_capture(&q, qargv, SMI_MAX_BYTES, err);
	if (rc == 0)
		rc = sw__fleet_capture(&t, targv, SMI_MAX_BYTES, err);
	if (rc == 0)
		rc = sw_fleet_hw_from_smi(out, q.data, t.data, err);
	else
		memset(out, 0, sizeof(*out));
	sw_buf_release(&q);
	sw_buf_release(&t);
	return rc;
}

void sw__fleet_slug(char *out, size_t outsz, const char *s)
{
	size_t n = 0;
	bool dash = false;
	for (; *s && n + 1 < outsz; s++) {
		char c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.') {
			if (dash && n > 0 && n + 2 < outsz)
				out[n++] = '-';
			dash = false;
			out[n++] = c == '.' ? '-' : c;
		} else {
			dash = true;
		}
	}
	out[n] = '\0';
}
