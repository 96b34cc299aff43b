/* conf.c - the [fleet] section of sworn.conf, model specs, and the check of
 * the GPUs present against the inventory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

static bool parse_num(const char *s, uint64_t max, uint64_t *out)
{
	size_t len = strlen(s);
	uint64_t mult = 1;
	if (len && (s[len - 1] == 'k' || s[len - 1] == 'K')) {
		mult = 1024;
		len--;
	}
	uint64_t v;
	if (!sw_parse_u64(s, len, &v) || v > max / mult)
		return false;
	*out = v * mult;
	return true;
}

int sw_fleet_spec_parse(char **path, struct sw_fleet_request *r, const char *spec,
			struct sw_err *err)
{
	static const char *const keys[] = { "ctx=", "kv=", "role=", "np=", "slots=", "group=", "port=" };
	const char *opt = NULL;
	memset(r, 0, sizeof(*r));
	r->kv = SW_KV_Q8_0;
	r->slots = 1;
	for (const char *c = strchr(spec, ':'); c && !opt; c = strchr(c + 1, ':'))
		for (size_t k = 0; k < SW_ARRAY_LEN(keys); k++)
			if (strncmp(c + 1, keys[k], strlen(keys[k])) == 0)
				opt = c;
	*path = opt ? sw_xstrndup(spec, (size_t)(opt - spec)) : sw_xstrdup(spec);
	if (!opt)
		return 0;
	char *list = sw_xstrdup(opt + 1), *p = list;
	const char *role = NULL, *group = NULL;
	int rc = 0;
	while (p && rc == 0) {
		char *next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		char *eq = strchr(p, '=');
		uint64_t v;
		if (!eq) {
			rc = sw_err_set(err, SW_EUSAGE, "'%s': expected key=value in '%s'", spec, p);
			break;
		}
		*eq = '\0';
		const char *val = eq + 1;
		if (strcmp(p, "ctx") == 0 && parse_num(val, SW_FLEET_MAX_CTX, &v) && v > 0)
			r->ctx = (uint32_t)v;
		else if (strcmp(p, "kv") == 0 && sw_fleet_kv_parse(&r->kv, val))
			;
		else if (strcmp(p, "role") == 0 && *val)
			role = val;
		else if ((strcmp(p, "np") == 0 || strcmp(p, "slots") == 0) &&
			 parse_num(val, SW_FLEET_MAX_SLOTS, &v) && v > 0)
			r->slots = (uint32_t)v;
		else if (strcmp(p, "group") == 0 && *val)
			group = val;
		else if (strcmp(p, "port") == 0 && parse_num(val, 65535, &v) && v >= 1024)
			r->port = (uint16_t)v;
		else
			rc = sw_err_set(err, SW_EUSAGE,
					"'%s': bad option '%s=%s' (ctx=N[k], kv=f16|q8_0|q4_0|..., role=NAME, "
					"np=N, group=NAME, port=N)", spec, p, val);
		p = next;
	}
	if (rc == 0) {
		r->role = role ? sw_xstrdup(role) : NULL;
		r->group = group ? sw_xstrdup(group) : NULL;
	} else {
		free(*path);
		*path = NULL;
	}
	free(list);
	return rc;
}

static int bad(struct sw_err *err, const struct sw_config *cfg, const struct sw_config_entry *e,
	       const char *want)
{
	return sw_err_set(err, SW_EINPUT, "%s:%d: [fleet] %s = '%s': %s", cfg->path, e->line, e->key,
			  e->value, want);
}

static int seconds(double *out, const struct sw_config *cfg, const struct sw_config_entry *e,
		   double max, struct sw_err *err)
{
	char *end;
	errno = 0;
	double v = strtod(e->value, &end);
	if (errno || end == e->value || *end || !(v > 0 && v <= max))
		return bad(err, cfg, e, "give seconds, e.g. 30 or 0.5");
	*out = v;
	return 0;
}

static void split_words(char ***out, size_t *n, const char *s)
{
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		size_t len = strcspn(s, " \t");
		if (len == 0)
			break;
		*out = sw_xrealloc(*out, (*n + 1) * sizeof(char *));
		(*out)[(*n)++] = sw_xstrndup(s, len);
		s += len;
	}
}

int sw_fleet_conf_load(struct sw_fleet_conf *out, const struct sw_config *cfg,
		       const char *workspace, struct sw_err *err)
{
	bool any = false;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	out->floor_tps = 40;
	out->base_port = 8081;
	out->ready_timeout_s = 600;
	out->probe_interval_s = 30;
	out->probe_timeout_s = 60;
	out->backoff_s = 2;
	out->backoff_max_s = 60;
	out->restart_max = 5;
	out->check_gpus = true;
	out->dir = sw_path_join(workspace, "fleet");
	for (size_t i = 0; i < cfg->n && rc == 0; i++) {
		const struct sw_config_entry *e = &cfg->entries[i];
		if (strcmp(e->section, "fleet") != 0 || e->subsection)
			continue;
		any = true;
		const char *k = e->key, *v = e->value;
		uint64_t u;
		if (strcmp(k, "llama_server") == 0 && *v) {
			free(out->server);
			out->server = strchr(v, '/') ? sw_path_join(workspace, v) : sw_xstrdup(v);
		} else if (strcmp(k, "hardware") == 0 && *v) {
			free(out->hardware);
			out->hardware = sw_path_join(workspace, v);
		} else if (strcmp(k, "calibration") == 0 && *v) {
			free(out->calibration);
			out->calibration = sw_path_join(workspace, v);
		} else if (strcmp(k, "model") == 0 && *v) {
			if (out->nmodels >= SW_FLEET_MAX_MODELS)
				rc = bad(err, cfg, e, "too many models");
			else {
				out->models = sw_xrealloc(out->models, (out->nmodels + 1) * sizeof(char *));
				out->models[out->nmodels++] = sw_path_join(workspace, v);
			}
		} else if (strcmp(k, "extra_args") == 0) {
			split_words(&out->extra_args, &out->nextra, v);
			if (out->nextra > SW_FLEET_MAX_EXTRA_ARGS)
				rc = bad(err, cfg, e, "too many arguments");
		} else if (strcmp(k, "floor") == 0) {
			rc = seconds(&out->floor_tps, cfg, e, 100000, err);
		} else if (strcmp(k, "port") == 0) {
			if (!sw_parse_u64(v, strlen(v), &u) || u < 1024 || u > 65000)
				rc = bad(err, cfg, e, "give a port from 1024 to 65000");
			else
				out->base_port = (uint16_t)u;
		} else if (strcmp(k, "ready_timeout") == 0) {
			rc = seconds(&out->ready_timeout_s, cfg, e, 86400, err);
		} else if (strcmp(k, "probe_interval") == 0) {
			rc = seconds(&out->probe_interval_s, cfg, e, 86400, err);
		} else if (strcmp(k, "probe_timeout") == 0) {
			rc = seconds(&out->probe_timeout_s, cfg, e, 3600, err);
		} else if (strcmp(k, "restart_backoff") == 0) {
			rc = seconds(&out->backoff_s, cfg, e, 3600, err);
		} else if (strcmp(k, "restart_backoff_max") == 0) {
			rc = seconds(&out->backoff_max_s, cfg, e, 86400, err);
		} else if (strcmp(k, "restart_max") == 0) {
			if (!sw_parse_u64(v, strlen(v), &u) || u > 1000)
				rc = bad(err, cfg, e, "give a count from 0 to 1000");
			else
				out->restart_max = (unsigned)u;
		} else if (strcmp(k, "check_gpus") == 0) {
			if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0)
				out->check_gpus = true;
			else if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0)
				out->check_gpus = false;
			else
				rc = bad(err, cfg, e, "give yes or no");
		} else {
			rc = sw_err_set(err, SW_EINPUT,
					"%s:%d: [fleet] unknown key '%s' (llama_server, hardware, model, "
					"calibration, extra_args, floor, port, ready_timeout, probe_interval, "
					"probe_timeout, restart_backoff, restart_backoff_max, restart_max, "
					"check_gpus)", cfg->path, e->line, k);
		}
	}
	if (rc == 0 && !any)
		rc = sw_err_set(err, SW_ENOTFOUND,
				"%s has no [fleet] section (llama_server = PATH, hardware = FILE, "
				"model = FILE.gguf[:ctx=..])", cfg->path);
	else if (rc == 0 && !out->server)
		rc = sw_err_set(err, SW_EINPUT, "%s: [fleet] needs llama_server = PATH", cfg->path);
	else if (rc == 0 && !out->hardware)
		rc = sw_err_set(err, SW_EINPUT,
				"%s: [fleet] needs hardware = FILE (an inventory; `sworn plan --detect` "
				"shows what nvidia-smi sees)", cfg->path);
	else if (rc == 0 && out->nmodels == 0)
		rc = sw_err_set(err, SW_EINPUT, "%s: [fleet] needs at least one model = FILE.gguf",
				cfg->path);
	if (rc != 0)
		sw_fleet_conf_release(out);
	return rc;
}

void sw_fleet_conf_release(struct sw_fleet_conf *c)
{
	if (!c)
		return;
	free(c->server);
	free(c->hardware);
	free(c->calibration);
	for (size_t i = 0; i < c->nmodels; i++)
		free(c->models[i]);
	free(c->models);
	for (size_t i = 0; i < c->nextra; i++)
		free(c->extra_args[i]);
	free(c->extra_args);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}

/* "00000000:1A:00.0" and "0000:1a:00.0" name the same bus: compare the
 * part after the domain, case-insensitively. */
static bool same_pci(const char *a, const char *b)
{
	const char *ca = strchr(a, ':'), *cb = strchr(b, ':');
	return sw_streq_ci(ca ? ca : a, cb ? cb : b);
}

void sw_fleet_presence_check(struct sw_fleet_presence *out, const struct sw_fleet_hw *inv,
			     const struct sw_fleet_hw *now)
{
	struct sw_buf r = SW_BUF_INIT;
	memset(out, 0, sizeof(*out));
	for (size_t g = 0; g < inv->ngroups && g < SW_FLEET_MAX_GROUPS; g++)
		out->group_ok[g] = true;
	for (size_t i = 0; i < inv->ngpus && i < SW_FLEET_MAX_GPUS; i++) {
		const struct sw_fleet_gpu *want = &inv->gpus[i];
		out->now_index[i] = -1;
		for (size_t j = 0; j < now->ngpus; j++) {
			const struct sw_fleet_gpu *have = &now->gpus[j];
			bool match = want->pci && have->pci
				? same_pci(want->pci, have->pci)
				: want->index == have->index &&
					  (!want->name || !have->name || sw_streq_ci(want->name, have->name));
			if (match) {
				out->now_index[i] = have->index;
				break;
			}
		}
		if (out->now_index[i] >= 0)
			continue;
		out->missing++;
		if (want->group >= 0 && (size_t)want->group < SW_FLEET_MAX_GROUPS)
			out->group_ok[want->group] = false;
		sw_buf_addf(&r, "GPU %d (%s%s%s) of group %s is missing from nvidia-smi\n", want->index,
			    want->name ? want->name : "unnamed", want->pci ? ", " : "",
			    want->pci ? want->pci : "",
			    want->group >= 0 ? inv->groups[want->group].name : "-");
	}
	out->report = r.len ? sw_buf_detach(&r, NULL) : NULL;
	sw_buf_release(&r);
}

void sw_fleet_presence_release(struct sw_fleet_presence *p)
{
	if (!p)
		return;
	free(p->report);
	p->report = NULL;
}
