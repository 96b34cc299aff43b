/*
 * calib.c - the speed model's constants: data/fleet/calibration.ini.
 *
 * The file is embedded in the binary at build time, so `sworn plan` works
 * from any folder and an installed binary needs nothing beside it; a user's
 * own file (sworn plan --calibration, or what sworn bench --save writes)
 * replaces it whole.  Both are read by base/'s configuration parser against
 * the schema below, so a misspelt constant is an error, not the default.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define CALIB_MAX_BYTES (1u << 20)
/* Larger than any constant has reason to be: a typo of magnitude. */
#define CALIB_MAX_NUMBER 1e9

/* Every number is NAN until the file gives it: only what a section says
 * overrides what comes before it. */
struct calib_defaults {
	double eta, c_layer_ms, pp_tflops, attn_tflops, reserve_mib, margin_mib, compute_mib;
	char *note;
};

struct calib_gpu {
	char *name;
	char *compute;    /* "7.0" or "8" or a comma list */
	double eta, pp_tflops, attn_tflops, reserve_mib, overhead_scale;
	char *note;
};

enum { MOE_YES, MOE_NO, MOE_ANY };

struct calib_class {
	char *name;
	char *arch;       /* comma list, "*" any; NULL any */
	int moe;          /* MOE_ANY when not given */
	double min_embd, max_embd, c_layer_ms, pp_scale;
	char *note;
};

struct sw_fleet_calib {
	struct calib_defaults defaults;
	struct calib_gpu *gpus;     /* in file order: the first match wins */
	size_t ngpus, gpus_cap;
	struct calib_class *classes;
	size_t nclasses, classes_cap;
};

static const char *const moe_names[] = { "yes", "no", "any", NULL };

static const struct sw_config_section sections[] = {
	{ "defaults", false, "constants for every GPU and model" },
	{ "gpu", true, "a GPU family, matched by compute capability; the first match wins" },
	{ "class", true, "a family of models, matched by architecture; the first match wins" },
};

#define NUM(sec, member, obj, text)                                                  \
	{ .section = sec, .key = #member, .type = SW_CONFIG_DOUBLE, SW_CONFIG_AT(obj, member), \
	  .min = 0, .max = CALIB_MAX_NUMBER, .help = text }
#define NOTE(sec, obj)                                                                     \
	{ .section = sec, .key = "note", .type = SW_CONFIG_STRING, SW_CONFIG_AT(obj, note),   \
	  .help = "free text" }

static const struct sw_config_key keys[] = {
	NUM("defaults", eta, struct calib_defaults, "fraction of peak bandwidth a GEMV reaches"),
	NUM("defaults", c_layer_ms, struct calib_defaults, "per-layer overhead of one token, ms"),
	NUM("defaults", pp_tflops, struct calib_defaults, "effective prefill TFLOPS"),
	NUM("defaults", attn_tflops, struct calib_defaults,
	    "effective TFLOPS of prefill attention (the flash-attention kernel); 0: 0.55 x "
	    "pp_tflops"),
	NUM("defaults", reserve_mib, struct calib_defaults,
	    "CUDA context and driver reserve per GPU"),
	NUM("defaults", margin_mib, struct calib_defaults, "safety margin per GPU"),
	NUM("defaults", compute_mib, struct calib_defaults, "fixed part of the compute buffers per GPU"),
	NOTE("defaults", struct calib_defaults),
	{ .section = "gpu", .key = "compute", .type = SW_CONFIG_STRING,
	  SW_CONFIG_AT(struct calib_gpu, compute),
	  .help = "compute capabilities it matches: 7.0 exactly, 8 any 8.x, or a comma list" },
	NUM("gpu", eta, struct calib_gpu, "replaces [defaults] eta"),
	NUM("gpu", pp_tflops, struct calib_gpu, "replaces [defaults] pp_tflops"),
	NUM("gpu", attn_tflops, struct calib_gpu, "replaces [defaults] attn_tflops"),
	NUM("gpu", reserve_mib, struct calib_gpu, "replaces [defaults] reserve_mib"),
	NUM("gpu", overhead_scale, struct calib_gpu, "factor on the class's c_layer_ms"),
	NOTE("gpu", struct calib_gpu),
	{ .section = "class", .key = "arch", .type = SW_CONFIG_STRING,
	  SW_CONFIG_AT(struct calib_class, arch),
	  .help = "GGUF architectures it matches, a comma list (* any)" },
	{ .section = "class", .key = "moe", .type = SW_CONFIG_ENUM,
	  SW_CONFIG_AT(struct calib_class, moe), .choices = moe_names,
	  .help = "whether it matches mixture-of-experts models (any)" },
	NUM("class", min_embd, struct calib_class, "the smallest embedding it matches"),
	NUM("class", max_embd, struct calib_class, "the largest embedding it matches"),
	NUM("class", c_layer_ms, struct calib_class, "replaces [defaults] c_layer_ms"),
	NUM("class", pp_scale, struct calib_class, "factor on the GPU's pp_tflops"),
	NOTE("class", struct calib_class),
};

const struct sw_config_schema sw_fleet_calib_schema = {
	.file = "calibration.ini",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = true,
};

static void *target(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	struct sw_fleet_calib *c = user;
	(void)err;
	if (strcmp(e->section, "defaults") == 0)
		return &c->defaults;
	if (strcmp(e->section, "gpu") == 0) {
		for (size_t i = 0; i < c->ngpus; i++)
			if (strcmp(c->gpus[i].name, e->subsection) == 0)
				return &c->gpus[i];
		c->gpus = sw_xgrow(c->gpus, &c->gpus_cap, c->ngpus + 1, sizeof(*c->gpus));
		struct calib_gpu *g = &c->gpus[c->ngpus++];
		memset(g, 0, sizeof(*g));
		g->name = sw_xstrdup(e->subsection);
		g->eta = g->pp_tflops = g->attn_tflops = g->reserve_mib = g->overhead_scale = NAN;
		return g;
	}
	for (size_t i = 0; i < c->nclasses; i++)
		if (strcmp(c->classes[i].name, e->subsection) == 0)
			return &c->classes[i];
	c->classes = sw_xgrow(c->classes, &c->classes_cap, c->nclasses + 1, sizeof(*c->classes));
	struct calib_class *k = &c->classes[c->nclasses++];
	memset(k, 0, sizeof(*k));
	k->name = sw_xstrdup(e->subsection);
	k->moe = MOE_ANY;
	k->min_embd = k->max_embd = k->c_layer_ms = k->pp_scale = NAN;
	return k;
}

int sw_fleet_calib_parse(struct sw_fleet_calib **out, const char *text, size_t len,
			 const char *name, struct sw_err *err)
{
	struct sw_fleet_calib *c = sw_xcalloc(1, sizeof(*c));
	struct sw_config cfg = { 0 };
	int rc;

	struct calib_defaults *d = &c->defaults;
	d->eta = d->c_layer_ms = d->pp_tflops = d->attn_tflops = d->reserve_mib = d->margin_mib =
		d->compute_mib = NAN;
	if (len > CALIB_MAX_BYTES)
		rc = sw_err_set(err, SW_ELIMIT, "%s: larger than %u bytes", name, CALIB_MAX_BYTES);
	else if ((rc = sw_config_parse(&cfg, text, len, name, err)) == 0)
		rc = sw_config_apply(&sw_fleet_calib_schema, &cfg, target, c, err);
	sw_config_release(&cfg);
	if (rc) {
		sw_fleet_calib_free(c);
		c = NULL;
	}
	*out = c;
	return rc;
}

int sw_fleet_calib_load(struct sw_fleet_calib **out, const char *path, struct sw_err *err)
{
	if (!path)
		return sw_fleet_calib_parse(out, (const char *)sw__fleet_calibration_ini,
					    sw__fleet_calibration_ini_len, "calibration.ini (built in)", err);
	struct sw_buf b = SW_BUF_INIT;
	int rc = sw_file_read(&b, path, CALIB_MAX_BYTES, err);
	if (rc == 0)
		rc = sw_fleet_calib_parse(out, b.data, b.len, path, err);
	else
		*out = NULL;
	sw_buf_release(&b);
	return rc;
}

void sw_fleet_calib_free(struct sw_fleet_calib *c)
{
	if (!c)
		return;
	free(c->defaults.note);
	for (size_t i = 0; i < c->ngpus; i++) {
		free(c->gpus[i].name);
		free(c->gpus[i].compute);
		free(c->gpus[i].note);
	}
	free(c->gpus);
	for (size_t i = 0; i < c->nclasses; i++) {
		free(c->classes[i].name);
		free(c->classes[i].arch);
		free(c->classes[i].note);
	}
	free(c->classes);
	free(c);
}

/* Override *v with a value the file gave. */
static void take(double *v, double given)
{
	if (!isnan(given))
		*v = given;
}

/* Does a comma list contain word (or "*")? */
static bool list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *e = p;
		while (*e && *e != ',')
			e++;
		const char *t = e;
		while (t > p && t[-1] == ' ')
			t--;
		if ((size_t)(t - p) == 1 && *p == '*')
			return true;
		if ((size_t)(t - p) == wl && strncmp(p, word, wl) == 0)
			return true;
		p = e;
	}
	return false;
}

static bool class_matches(const struct calib_class *k, const struct sw_fleet_model *m)
{
	double lo = 0, hi = 1e9;
	take(&lo, k->min_embd);
	take(&hi, k->max_embd);
	if (k->arch && !list_has(k->arch, m->arch))
		return false;
	if (k->moe != MOE_ANY && (k->moe == MOE_YES) != (m->n_expert > 0))
		return false;
	return (double)m->n_embd >= lo && (double)m->n_embd <= hi;
}

static bool gpu_matches(const struct calib_gpu *cg, const struct sw_fleet_gpu *g)
{
	char mine[16], major[8];
	if (!cg->compute)
		return false;
	snprintf(mine, sizeof(mine), "%d.%d", g->cc_major, g->cc_minor);
	snprintf(major, sizeof(major), "%d", g->cc_major);
	return list_has(cg->compute, mine) || list_has(cg->compute, major);
}

void sw__fleet_consts(struct sw__fleet_consts *out, const struct sw_fleet_calib *cal,
		      const struct sw_fleet_model *m, const struct sw_fleet_gpu *gpu)
{
	const struct calib_defaults *d = &cal->defaults;
	double overhead_scale = 1.0;
	struct sw__fleet_consts c = {
		.eta = 0.8, .c_layer_ms = 0.02, .pp_tflops = 40, .attn_tflops = 0, .pp_scale = 1.0,
		.reserve_mib = 400, .margin_mib = 128, .compute_mib = 256,
		.class_name = "default", .gpu_name = "default",
	};
	take(&c.eta, d->eta);
	take(&c.c_layer_ms, d->c_layer_ms);
	take(&c.pp_tflops, d->pp_tflops);
	take(&c.attn_tflops, d->attn_tflops);
	take(&c.reserve_mib, d->reserve_mib);
	take(&c.margin_mib, d->margin_mib);
	take(&c.compute_mib, d->compute_mib);
	/* The first matching section in file order wins: specific before
	 * general. */
	for (size_t i = 0; gpu && i < cal->ngpus; i++) {
		const struct calib_gpu *g = &cal->gpus[i];
		if (!gpu_matches(g, gpu))
			continue;
		take(&c.eta, g->eta);
		take(&c.pp_tflops, g->pp_tflops);
		take(&c.attn_tflops, g->attn_tflops);
		take(&c.reserve_mib, g->reserve_mib);
		take(&overhead_scale, g->overhead_scale);
		c.gpu_name = g->name;
		break;
	}
	for (size_t i = 0; m && i < cal->nclasses; i++) {
		const struct calib_class *k = &cal->classes[i];
		if (!class_matches(k, m))
			continue;
		take(&c.c_layer_ms, k->c_layer_ms);
		take(&c.pp_scale, k->pp_scale);
		c.class_name = k->name;
		break;
	}
	c.c_layer_ms *= overhead_scale;
	/* Unset: Ampere's measured ratio of attention to weights' prefill
	 * (docs/PERFORMANCE.md, prefill at depth). */
	if (!(c.attn_tflops > 0))
		c.attn_tflops = 0.55 * c.pp_tflops;
	*out = c;
}
