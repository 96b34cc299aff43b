/*
 * calib.c - the speed model's constants: data/fleet/calibration.ini.
 *
 * The file is embedded in the binary at build time, so `sworn plan` works
 * from any folder and an installed binary needs nothing beside it; a user's
 * own file (sworn plan --calibration, or what sworn bench --save writes)
 * replaces it whole.  The embedded copy has to be parsed from memory, which
 * base/'s inih-based loader cannot do, so this file has a small INI reader
 * of its own for the same git-config syntax and fills a struct sw_config
 * with it, which keeps lookups (sw_config_get) the same as everywhere else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define CALIB_MAX_BYTES (1u << 20)
#define CALIB_MAX_LINE 1024

struct sw_fleet_calib {
	struct sw_config cfg;
};

static void add_entry(struct sw_config *c, const char *section, const char *sub,
		      const char *key, const char *value, int line)
{
	c->entries = sw_xgrow(c->entries, &c->cap, c->n + 1, sizeof(*c->entries));
	struct sw_config_entry *e = &c->entries[c->n++];
	e->section = sw_xstrdup(section);
	e->subsection = sub ? sw_xstrdup(sub) : NULL;
	e->key = sw_xstrdup(key);
	e->value = sw_xstrdup(value);
	e->line = line;
	for (char *p = e->section; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	for (char *p = e->key; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
}

int sw_fleet_calib_parse(struct sw_fleet_calib **out, const char *text, size_t len,
			 const char *name, struct sw_err *err)
{
	struct sw_fleet_calib *c = sw_xcalloc(1, sizeof(*c));
	char section[CALIB_MAX_LINE] = "", sub[CALIB_MAX_LINE] = "";
	bool have_sub = false;
	int rc = 0, lineno = 0;
	size_t pos = 0;

	c->cfg.path = sw_xstrdup(name);
	if (len > CALIB_MAX_BYTES) {
		rc = sw_err_set(err, SW_ELIMIT, "%s: larger than %u bytes", name, CALIB_MAX_BYTES);
		goto cleanup;
	}
	while (pos < len && rc == 0) {
		char line[CALIB_MAX_LINE];
		size_t n = 0;
		lineno++;
		while (pos < len && text[pos] != '\n') {
			if (n + 1 >= sizeof(line)) {
				rc = sw_err_set(err, SW_ELIMIT, "%s:%d: line longer than %d bytes", name, lineno,
						CALIB_MAX_LINE);
				goto cleanup;
			}
			if (text[pos] == '\0') {
				rc = sw_err_set(err, SW_EINPUT, "%s:%d: NUL byte", name, lineno);
				goto cleanup;
			}
			line[n++] = text[pos++];
		}
		pos++;
		line[n] = '\0';
		char *s = sw_trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strrchr(s, ']');
			if (!end || end[1]) {
				rc = sw_err_set(err, SW_EINPUT, "%s:%d: section header without ']'", name, lineno);
				goto cleanup;
			}
			*end = '\0';
			char *q = strchr(s + 1, '"');
			have_sub = q != NULL;
			if (q) {
				char *q2 = strrchr(q + 1, '"');
				if (!q2 || q2 == q) {
					rc = sw_err_set(err, SW_EINPUT, "%s:%d: unterminated subsection name", name, lineno);
					goto cleanup;
				}
				*q2 = '\0';
				snprintf(sub, sizeof(sub), "%s", q + 1);
				*q = '\0';
			}
			snprintf(section, sizeof(section), "%s", sw_trim(s + 1));
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq || !*section) {
			rc = sw_err_set(err, SW_EINPUT, "%s:%d: expected 'key = value' inside a section", name, lineno);
			goto cleanup;
		}
		*eq = '\0';
		char *value = eq + 1;
		for (char *p = value; *p; p++)
			if ((*p == ';' || *p == '#') && (p == value || p[-1] == ' ' || p[-1] == '\t')) {
				*p = '\0';
				break;
			}
		add_entry(&c->cfg, section, have_sub ? sub : NULL, sw_trim(s), sw_trim(value), lineno);
	}
	/* Every number must be a number: a typo should not silently become 0. */
	for (size_t i = 0; i < c->cfg.n && rc == 0; i++) {
		const struct sw_config_entry *e = &c->cfg.entries[i];
		if (strcmp(e->key, "arch") == 0 || strcmp(e->key, "moe") == 0 ||
		    strcmp(e->key, "compute") == 0 || strcmp(e->key, "note") == 0)
			continue;
		char *end;
		errno = 0;
		double v = strtod(e->value, &end);
		if (errno || end == e->value || *end || !(v >= 0 && v < 1e9))
			rc = sw_err_set(err, SW_EINPUT, "%s:%d: %s must be a non-negative number, not '%s'",
					name, e->line, e->key, e->value);
	}
cleanup:
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
	sw_config_release(&c->cfg);
	free(c);
}

static void num(const struct sw_config *cfg, const char *section, const char *sub,
		const char *key, double *v)
{
	const char *s = sw_config_get(cfg, section, sub, key);
	if (s)
		*v = strtod(s, NULL);
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

static bool class_matches(const struct sw_config *cfg, const char *sub,
			  const struct sw_fleet_model *m)
{
	const char *arch = sw_config_get(cfg, "class", sub, "arch");
	const char *moe = sw_config_get(cfg, "class", sub, "moe");
	double lo = 0, hi = 1e9;
	num(cfg, "class", sub, "min_embd", &lo);
	num(cfg, "class", sub, "max_embd", &hi);
	if (arch && !list_has(arch, m->arch))
		return false;
	if (moe && strcmp(moe, "any") != 0 && (strcmp(moe, "yes") == 0) != (m->n_expert > 0))
		return false;
	return (double)m->n_embd >= lo && (double)m->n_embd <= hi;
}

static bool gpu_matches(const struct sw_config *cfg, const char *sub, const struct sw_fleet_gpu *g)
{
	const char *cc = sw_config_get(cfg, "gpu", sub, "compute");
	char mine[16], major[8];
	if (!cc)
		return false;
	snprintf(mine, sizeof(mine), "%d.%d", g->cc_major, g->cc_minor);
	snprintf(major, sizeof(major), "%d", g->cc_major);
	return list_has(cc, mine) || list_has(cc, major);
}

void sw__fleet_consts(struct sw__fleet_consts *out, const struct sw_fleet_calib *cal,
		      const struct sw_fleet_model *m, const struct sw_fleet_gpu *gpu)
{
	const struct sw_config *cfg = &cal->cfg;
	double overhead_scale = 1.0;
	struct sw__fleet_consts c = {
		.eta = 0.8, .c_layer_ms = 0.02, .pp_tflops = 40, .pp_scale = 1.0,
		.reserve_mib = 400, .margin_mib = 128, .compute_mib = 256,
		.class_name = "default", .gpu_name = "default",
	};
	num(cfg, "defaults", NULL, "eta", &c.eta);
	num(cfg, "defaults", NULL, "c_layer_ms", &c.c_layer_ms);
	num(cfg, "defaults", NULL, "pp_tflops", &c.pp_tflops);
	num(cfg, "defaults", NULL, "reserve_mib", &c.reserve_mib);
	num(cfg, "defaults", NULL, "margin_mib", &c.margin_mib);
	num(cfg, "defaults", NULL, "compute_mib", &c.compute_mib);
	/* First matching section in file order wins: specific before general. */
	const char *seen_gpu = NULL, *seen_class = NULL;
	for (size_t i = 0; i < cfg->n; i++) {
		const struct sw_config_entry *e = &cfg->entries[i];
		if (!e->subsection)
			continue;
		if (!seen_gpu && gpu && strcmp(e->section, "gpu") == 0 && gpu_matches(cfg, e->subsection, gpu)) {
			seen_gpu = e->subsection;
			num(cfg, "gpu", seen_gpu, "eta", &c.eta);
			num(cfg, "gpu", seen_gpu, "pp_tflops", &c.pp_tflops);
			num(cfg, "gpu", seen_gpu, "reserve_mib", &c.reserve_mib);
			num(cfg, "gpu", seen_gpu, "overhead_scale", &overhead_scale);
			c.gpu_name = seen_gpu;
		}
		if (!seen_class && m && strcmp(e->section, "class") == 0 && class_matches(cfg, e->subsection, m)) {
			seen_class = e->subsection;
			num(cfg, "class", seen_class, "c_layer_ms", &c.c_layer_ms);
			num(cfg, "class", seen_class, "pp_scale", &c.pp_scale);
			c.class_name = seen_class;
		}
	}
	c.c_layer_ms *= overhead_scale;
	*out = c;
}
