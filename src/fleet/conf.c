/* conf.c - the [fleet] section of sworn.conf, model specs, and the check of
 * the GPUs present against the inventory. */
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
	static const char *const keys[] = { "ctx=",   "kv=",   "role=", "np=", "slots=",
					    "group=", "port=", "reasoning=", "reasoning_budget=" };
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
		else if (strcmp(p, "reasoning") == 0 &&
			 (!strcmp(val, "on") || !strcmp(val, "off") || !strcmp(val, "auto")))
			r->reasoning = !strcmp(val, "on") ? 1 : !strcmp(val, "off") ? 2 : 0;
		else if (strcmp(p, "reasoning_budget") == 0 && parse_num(val, 10000000, &v) &&
			 v > 0)
			r->reasoning_budget = (uint32_t)v;
		else
			rc = sw_err_set(
				err, SW_EUSAGE,
				"'%s': bad option '%s=%s' (ctx=N[k], kv=f16|q8_0|q4_0|..., "
				"role=NAME, "
				"np=N, group=NAME, port=N, reasoning=on|off, reasoning_budget=N)",
				spec, p, val);
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

/* Words as a POSIX shell splits them, without a shell: blanks separate
 * words; 'single quotes' keep everything, "double quotes" keep everything
 * but \" and \\; a backslash outside quotes keeps the next byte.  Nothing
 * is expanded ($, `, * are bytes like any other): llama-server gets
 * exactly the words written. */
static int split_words(char ***out, size_t *n, const char *s, struct sw_err *err)
{
	struct sw_buf w = SW_BUF_INIT;
	int rc = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		sw_buf_reset(&w);
		while (*s && *s != ' ' && *s != '\t') {
			char q = *s;
			if (q == '\'' || q == '"') {
				const char *open = s++;
				while (*s && *s != q) {
					if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
						s++;
					sw_buf_addc(&w, *s++);
				}
				if (!*s) {
					rc = sw_err_set(err, SW_EINPUT, "extra_args: the quote at '%.20s' is "
							"never closed", open);
					goto cleanup;
				}
				s++;
			} else if (q == '\\' && s[1]) {
				sw_buf_addc(&w, s[1]);
				s += 2;
			} else {
				sw_buf_addc(&w, *s++);
			}
		}
		if (*n >= SW_FLEET_MAX_EXTRA_ARGS) {
			rc = sw_err_set(err, SW_ELIMIT, "more than %u extra_args", SW_FLEET_MAX_EXTRA_ARGS);
			goto cleanup;
		}
		*out = sw_xrealloc(*out, (*n + 1) * sizeof(char *));
		(*out)[(*n)++] = sw_xstrndup(w.data, w.len);
	}
cleanup:
	sw_buf_release(&w);
	return rc;
}

int sw_fleet_split_words(char ***out, size_t *n, const char *s, struct sw_err *err)
{
	*out = NULL;
	*n = 0;
	int rc = split_words(out, n, s, err);
	if (rc != 0) {
		for (size_t i = 0; i < *n; i++)
			free((*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* What sw_config_apply() hands the setters. */
struct load {
	struct sw_fleet_conf *conf;
	const char *workspace;
};

static const char *workspace_of(const void *user)
{
	return ((const struct load *)user)->workspace;
}

static int set_server(void *obj, const struct sw_config_entry *e, void *user,
		      struct sw_err *err)
{
	struct sw_fleet_conf *c = obj;
	const char *v = e->value;
	if (!*v)
		return sw_err_set(err, SW_EINPUT, "llama_server is empty: give a path or a program name");
	free(c->server);
	c->server = strchr(v, '/') ? sw_path_join(workspace_of(user), v) : sw_xstrdup(v);
	return 0;
}

/* hardware and calibration: a file, relative to the workspace; hardware may
 * list several (one inventory per host), separated by blanks or commas. */
static int set_file(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	struct sw_fleet_conf *c = obj;
	if (!*e->value)
		return sw_err_set(err, SW_EINPUT, "%s is empty: give a file", e->key);
	if (strcmp(e->key, "hardware") != 0) {
		free(c->calibration);
		c->calibration = sw_path_join(workspace_of(user), e->value);
		return 0;
	}
	for (size_t i = 0; i < c->nhardware; i++)
		free(c->hardware_files[i]);
	c->nhardware = 0;
	for (const char *p = e->value; *p;) {
		size_t len = strcspn(p, " \t,");
		if (len) {
			if (c->nhardware >= SW_FLEET_MAX_HOSTS)
				return sw_err_set(err, SW_ELIMIT, "hardware: more than %u inventories",
						  SW_FLEET_MAX_HOSTS);
			char *file = sw_xstrndup(p, len);
			c->hardware_files[c->nhardware++] = sw_path_join(workspace_of(user), file);
			free(file);
		}
		p += len;
		p += strspn(p, " \t,");
	}
	if (c->nhardware == 0)
		return sw_err_set(err, SW_EINPUT, "hardware lists no file");
	free(c->hardware);
	c->hardware = sw_xstrdup(c->hardware_files[0]);
	return 0;
}

static int set_model(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	struct sw_fleet_conf *c = obj;
	if (!*e->value)
		return sw_err_set(err, SW_EINPUT, "model is empty: give FILE.gguf[:ctx=..]");
	if (c->nmodels >= SW_FLEET_MAX_MODELS)
		return sw_err_set(err, SW_ELIMIT, "more than %u models", SW_FLEET_MAX_MODELS);
	c->models = sw_xrealloc(c->models, (c->nmodels + 1) * sizeof(char *));
	c->models[c->nmodels++] = sw_path_join(workspace_of(user), e->value);
	return 0;
}

static int set_extra(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	struct sw_fleet_conf *c = obj;
	(void)user;
	return split_words(&c->extra_args, &c->nextra, e->value, err);
}

static const struct sw_config_section sections[] = {
	{ "fleet", false, "the llama-servers sworn fleet starts and supervises" },
};

#define CONF(m) SW_CONFIG_AT(struct sw_fleet_conf, m)
#define SECONDS(name, member, limit, what)                                            \
	{ .section = "fleet", .key = name, .type = SW_CONFIG_DOUBLE, CONF(member),     \
	  .min = 0, .max = limit, .flags = SW_CONFIG_ABOVE_MIN, .help = what }

static const struct sw_config_key keys[] = {
	{ .section = "fleet", .key = "llama_server", .type = SW_CONFIG_CUSTOM, .set = set_server,
	  .expect = "a path (from the workspace) or a name in PATH",
	  .help = "the llama-server program" },
	{ .section = "fleet", .key = "hardware", .type = SW_CONFIG_CUSTOM, .set = set_file,
	  .expect = "a file, or several separated by blanks or commas (one per host)",
	  .help = "the GPU inventory (sworn plan --detect shows one); several: one per host, "
		  "this box's first" },
	{ .section = "fleet", .key = "model", .type = SW_CONFIG_CUSTOM, .set = set_model,
	  .expect = "FILE.gguf[:ctx=N,kv=T,np=N,role=R,group=G,port=N]",
	  .help = "a model to serve; repeat the line for more" },
	{ .section = "fleet", .key = "calibration", .type = SW_CONFIG_CUSTOM, .set = set_file,
	  .expect = "a file", .help = "the speed model's constants (the built-in when unset)" },
	{ .section = "fleet", .key = "extra_args", .type = SW_CONFIG_CUSTOM, .set = set_extra,
	  .expect = "words separated by spaces, quoted as in a shell ('a b', \"a b\", a\\ b)",
	  .help = "more llama-server flags (no shell runs them)" },
	{ .section = "fleet", .key = "floor", .type = SW_CONFIG_DOUBLE, CONF(floor_tps), .min = 0,
	  .max = 100000, .flags = SW_CONFIG_ABOVE_MIN,
	  .help = "the slowest decode, in tokens/s, a placement may give (40)" },
	{ .section = "fleet", .key = "port", .type = SW_CONFIG_INT, CONF(base_port), .min = 1024,
	  .max = 65000, .help = "the first port servers listen on (8081)" },
	SECONDS("ready_timeout", ready_timeout_s, 86400,
		"seconds from start to the first answer (600)"),
	SECONDS("probe_interval", probe_interval_s, 86400, "seconds between health checks (30)"),
	SECONDS("probe_timeout", probe_timeout_s, 3600,
		"seconds a one-token health check may take (60)"),
	SECONDS("restart_backoff", backoff_s, 3600,
		"seconds before the first restart, doubling (2)"),
	SECONDS("restart_backoff_max", backoff_max_s, 86400, "the longest wait between restarts (60)"),
	{ .section = "fleet", .key = "restart_max", .type = SW_CONFIG_INT, CONF(restart_max),
	  .min = 0, .max = 1000, .help = "restarts of a server before giving up (5)" },
	{ .section = "fleet", .key = "check_gpus", .type = SW_CONFIG_BOOL, CONF(check_gpus),
	  .help = "compare the GPUs nvidia-smi sees with the inventory (yes)" },
};

const struct sw_config_schema sw_fleet_conf_schema = {
	.file = "sworn.conf",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = false,
};

static void *target(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	struct load *l = user;
	(void)e;
	(void)err;
	return l->conf;
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
	for (size_t i = 0; i < cfg->n; i++)
		any = any || strcmp(cfg->entries[i].section, "fleet") == 0;
	struct load l = { out, workspace };
	rc = sw_config_apply(&sw_fleet_conf_schema, cfg, target, &l, err);
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
	for (size_t i = 0; i < c->nhardware; i++)
		free(c->hardware_files[i]);
	free(c->host);
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
	sw__fleet_presence_check_host(out, inv, now, -1);
}

void sw__fleet_presence_check_host(struct sw_fleet_presence *out, const struct sw_fleet_hw *inv,
				   const struct sw_fleet_hw *now, int host)
{
	struct sw_buf r = SW_BUF_INIT;
	memset(out, 0, sizeof(*out));
	for (size_t g = 0; g < inv->ngroups && g < SW_FLEET_MAX_GROUPS; g++)
		out->group_ok[g] = true;
	for (size_t i = 0; i < inv->ngpus && i < SW_FLEET_MAX_GPUS; i++) {
		const struct sw_fleet_gpu *want = &inv->gpus[i];
		out->now_index[i] = -1;
		if (host >= 0 && want->host != host) {
			out->now_index[i] = want->index; /* another box's: not checked here */
			continue;
		}
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
