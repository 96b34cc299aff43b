/*
 * config.c - [policy], [endpoint "NAME"] and [role "NAME"] from sworn.conf.
 *
 * Every mistake is reported with the file and line of the entry that made
 * it, because a lawyer editing sworn.conf should not have to guess which of
 * four endpoint sections is wrong.  A key given twice in one section keeps
 * the last value, as git-config does.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "llm/llm_int.h"

#define NAME_MAX_LEN 64
/* Seconds a deadline may be set to: a week is already absurd for one call. */
#define DEADLINE_MAX_S (7.0 * 24 * 3600)
#define MAX_TOKENS_LIMIT 10000000L
#define CONTEXT_LIMIT 100000000L

const struct sw_llm_deadlines sw_llm_default_deadlines = {
	.connect_ms = 5000,
	/* A long prompt on old GPUs takes minutes to process before the first
	 * token; between tokens a live server is never this slow. */
	.first_token_ms = 600000,
	.token_ms = 60000,
	.total_ms = 3600000,
};

const char *sw_llm_mode_name(enum sw_llm_mode mode)
{
	return mode == SW_LLM_ALLOW_REMOTE ? "allow-remote" : "local-only";
}

static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > NAME_MAX_LEN || s[0] == '-' || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
			return false;
	}
	return true;
}

static bool parse_double(const char *s, double *out)
{
	char *end = NULL;
	if (!*s)
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static bool parse_int(const char *s, long long lo, long long hi, long long *out)
{
	char *end = NULL;
	if (!*s)
		return false;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s + ('a' - 'A'));
}

/* http(s)://host[:port][/prefix] or unix:/path.  Userinfo, queries and
 * fragments are refused: none has a use here, and `http://127.0.0.1@evil`
 * is how a URL is made to lie to its reader. */
static int parse_url(struct sw_llm_endpoint *ep, const char *url, const char *where,
		     struct sw_err *err)
{
	if (strlen(url) > SW_LLM_MAX_URL)
		return sw_err_set(err, SW_EINPUT, "%s: url is longer than %d bytes", where,
				  SW_LLM_MAX_URL);
	if (strncmp(url, "unix:", 5) == 0) {
		const char *path = url + 5;
		struct sockaddr_un un;
		if (path[0] != '/')
			return sw_err_set(err, SW_EINPUT,
					  "%s: bad url '%s': a unix socket needs an absolute path (unix:/run/x.sock)",
					  where, url);
		if (strlen(path) >= sizeof(un.sun_path))
			return sw_err_set(err, SW_EINPUT, "%s: unix socket path is longer than %zu bytes",
					  where, sizeof(un.sun_path) - 1);
		free(ep->url);
		free(ep->unix_path);
		free(ep->host);
		ep->unix_path = sw_xstrdup(path);
		ep->url = sw_xstrdup("http://localhost");
		ep->host = sw_xstrdup("localhost");
		return 0;
	}
	const char *rest;
	if (strncmp(url, "http://", 7) == 0)
		rest = url + 7;
	else if (strncmp(url, "https://", 8) == 0)
		rest = url + 8;
	else
		return sw_err_set(err, SW_EINPUT,
				  "%s: bad url '%s': expected http://HOST:PORT, https://... or unix:/PATH",
				  where, url);
	size_t auth_len = strcspn(rest, "/?#");
	if (rest[auth_len] == '?' || rest[auth_len] == '#' || strpbrk(rest, "?#"))
		return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': no query or fragment, please",
				  where, url);
	if (memchr(rest, '@', auth_len))
		return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': no user name in the url "
				  "(put an API key in api_key_file)", where, url);
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '\\')
			return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': spaces or control bytes",
					  where, url);
	const char *host = rest, *host_end;
	const char *port = NULL;
	if (*host == '[') {
		host_end = memchr(rest, ']', auth_len);
		if (!host_end)
			return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': unclosed '['", where, url);
		host++;
		if (host_end + 1 < rest + auth_len) {
			if (host_end[1] != ':')
				return sw_err_set(err, SW_EINPUT, "%s: bad url '%s'", where, url);
			port = host_end + 2;
		}
	} else {
		host_end = memchr(rest, ':', auth_len);
		if (host_end)
			port = host_end + 1;
		else
			host_end = rest + auth_len;
	}
	if (host_end == host)
		return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': no host", where, url);
	if (port) {
		long long v;
		char digits[8];
		size_t pn = (size_t)(rest + auth_len - port);
		if (pn == 0 || pn >= sizeof(digits))
			return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': bad port", where, url);
		memcpy(digits, port, pn);
		digits[pn] = '\0';
		if (!parse_int(digits, 1, 65535, &v))
			return sw_err_set(err, SW_EINPUT, "%s: bad url '%s': port must be 1-65535",
					  where, url);
	}
	free(ep->url);
	free(ep->unix_path);
	free(ep->host);
	ep->unix_path = NULL;
	ep->host = sw_xstrndup(host, (size_t)(host_end - host));
	lower(ep->host);
	size_t n = strlen(url);
	while (n > 0 && url[n - 1] == '/')
		n--;
	ep->url = sw_xstrndup(url, n);
	return 0;
}

static int parse_gpus(struct sw_llm_endpoint *ep, const char *v, const char *where,
		      struct sw_err *err)
{
	int *gpus = NULL;
	size_t n = 0, cap = 0;
	char *copy = sw_xstrdup(v);
	int rc = 0;
	char *p = copy;

	for (;;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		char *item = sw_trim(p);
		long long g;
		if (!parse_int(item, 0, 4095, &g)) {
			rc = sw_err_set(err, SW_EINPUT,
					"%s: bad gpus '%s': expected GPU numbers separated by commas (0,1,2)",
					where, v);
			goto cleanup;
		}
		if (n >= SW_LLM_MAX_GPUS) {
			rc = sw_err_set(err, SW_ELIMIT, "%s: more than %d gpus", where, SW_LLM_MAX_GPUS);
			goto cleanup;
		}
		gpus = sw_xgrow(gpus, &cap, n + 1, sizeof(*gpus));
		gpus[n++] = (int)g;
		if (!comma)
			break;
		p = comma + 1;
	}
	free(ep->gpus);
	ep->gpus = gpus;
	ep->n_gpus = n;
	gpus = NULL;
cleanup:
	free(gpus);
	free(copy);
	return rc;
}

static int parse_allow(struct sw_llm_policy *pol, const char *v, const char *where,
		       struct sw_err *err)
{
	char *copy = sw_xstrdup(v);
	char *p = copy;
	int rc = 0;

	for (size_t i = 0; i < pol->n_allow; i++)
		free(pol->allow_hosts[i]);
	pol->n_allow = 0;
	while (*p) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		char *item = sw_trim(p);
		size_t len = strlen(item);
		if (len >= 2 && item[0] == '[' && item[len - 1] == ']') {
			item[len - 1] = '\0';
			item++;
			len -= 2;
		}
		bool ok = len > 0 && len <= 253;
		for (size_t i = 0; ok && i < len; i++) {
			char c = item[i];
			ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':' || c == '_';
		}
		if (!ok) {
			rc = sw_err_set(err, SW_EINPUT,
					"%s: bad allow_hosts entry '%s': expected host names separated by commas",
					where, item);
			goto cleanup;
		}
		if (pol->n_allow >= SW_LLM_MAX_ALLOW_HOSTS) {
			rc = sw_err_set(err, SW_ELIMIT, "%s: more than %d allow_hosts", where,
					SW_LLM_MAX_ALLOW_HOSTS);
			goto cleanup;
		}
		pol->allow_hosts = sw_xrealloc(pol->allow_hosts,
					       (pol->n_allow + 1) * sizeof(char *));
		pol->allow_hosts[pol->n_allow] = sw_xstrdup(item);
		lower(pol->allow_hosts[pol->n_allow]);
		pol->n_allow++;
		if (!comma)
			break;
		p = comma + 1;
	}
cleanup:
	free(copy);
	return rc;
}

static int parse_seconds(unsigned *out_ms, const char *v, const char *key, const char *where,
			 struct sw_err *err)
{
	double s;
	if (!parse_double(v, &s) || s < 0 || s > DEADLINE_MAX_S)
		return sw_err_set(err, SW_EINPUT,
				  "%s: bad %s '%s': expected seconds from 0 (no limit) to %.0f",
				  where, key, v, DEADLINE_MAX_S);
	*out_ms = (unsigned)(s * 1000.0 + 0.5);
	if (s > 0 && *out_ms == 0)
		*out_ms = 1;
	return 0;
}

static int policy_key(struct sw_llm_config *c, const struct sw_config_entry *e,
		      const char *where, struct sw_err *err)
{
	if (strcmp(e->key, "mode") == 0) {
		if (strcmp(e->value, "local-only") == 0)
			c->policy.mode = SW_LLM_LOCAL_ONLY;
		else if (strcmp(e->value, "allow-remote") == 0)
			c->policy.mode = SW_LLM_ALLOW_REMOTE;
		else
			return sw_err_set(err, SW_EINPUT,
					  "%s: bad mode '%s': expected local-only or allow-remote",
					  where, e->value);
		return 0;
	}
	if (strcmp(e->key, "allow_hosts") == 0)
		return parse_allow(&c->policy, e->value, where, err);
	return sw_err_set(err, SW_EINPUT, "%s: unknown key '%s' in [policy] (known: mode, allow_hosts)",
			  where, e->key);
}

static struct sw_llm_endpoint *endpoint_get(struct sw_llm_config *c, const char *name,
					    int line, const char *where, struct sw_err *err)
{
	for (size_t i = 0; i < c->n_endpoints; i++)
		if (strcmp(c->endpoints[i].name, name) == 0)
			return &c->endpoints[i];
	if (c->n_endpoints >= SW_LLM_MAX_ENDPOINTS) {
		sw_err_set(err, SW_ELIMIT, "%s: more than %d endpoints", where, SW_LLM_MAX_ENDPOINTS);
		return NULL;
	}
	c->endpoints = sw_xrealloc(c->endpoints, (c->n_endpoints + 1) * sizeof(*c->endpoints));
	struct sw_llm_endpoint *ep = &c->endpoints[c->n_endpoints++];
	memset(ep, 0, sizeof(*ep));
	ep->name = sw_xstrdup(name);
	ep->line = line;
	return ep;
}

static int endpoint_key(struct sw_llm_config *c, const struct sw_config_entry *e,
			const char *where, struct sw_err *err)
{
	struct sw_llm_endpoint *ep = endpoint_get(c, e->subsection, e->line, where, err);
	long long v;

	if (!ep)
		return err ? err->code : SW_ELIMIT;
	if (strcmp(e->key, "url") == 0)
		return parse_url(ep, e->value, where, err);
	if (strcmp(e->key, "api_key_file") == 0) {
		if (!*e->value)
			return sw_err_set(err, SW_EINPUT, "%s: api_key_file is empty", where);
		char *dir = sw_path_dir(c->path);
		free(ep->api_key_file);
		ep->api_key_file = sw_path_join(dir, e->value);
		free(dir);
		return 0;
	}
	if (strcmp(e->key, "gpus") == 0)
		return parse_gpus(ep, e->value, where, err);
	if (strcmp(e->key, "slots") == 0) {
		if (!parse_int(e->value, 1, SW_LLM_MAX_SLOTS, &v))
			return sw_err_set(err, SW_EINPUT, "%s: bad slots '%s': expected 1 to %d",
					  where, e->value, SW_LLM_MAX_SLOTS);
		ep->slots = (unsigned)v;
		return 0;
	}
	return sw_err_set(err, SW_EINPUT,
			  "%s: unknown key '%s' in [endpoint \"%s\"] (known: url, api_key_file, gpus, slots)",
			  where, e->key, e->subsection);
}

static void role_defaults(struct sw_llm_role *r)
{
	r->temperature = -1;
	r->top_p = -1;
	r->retries = 10;
	r->deadlines = sw_llm_default_deadlines;
}

static struct sw_llm_role *role_get(struct sw_llm_config *c, const char *name, int line,
				    const char *where, struct sw_err *err)
{
	for (size_t i = 0; i < c->n_roles; i++)
		if (strcmp(c->roles[i].name, name) == 0)
			return &c->roles[i];
	if (c->n_roles >= SW_LLM_MAX_ROLES) {
		sw_err_set(err, SW_ELIMIT, "%s: more than %d roles", where, SW_LLM_MAX_ROLES);
		return NULL;
	}
	c->roles = sw_xrealloc(c->roles, (c->n_roles + 1) * sizeof(*c->roles));
	struct sw_llm_role *r = &c->roles[c->n_roles++];
	memset(r, 0, sizeof(*r));
	role_defaults(r);
	r->name = sw_xstrdup(name);
	r->line = line;
	return r;
}

static int role_key(struct sw_llm_config *c, const struct sw_config_entry *e,
		    const char *where, struct sw_err *err)
{
	struct sw_llm_role *r = role_get(c, e->subsection, e->line, where, err);
	const char *k = e->key, *v = e->value;
	long long n;
	double d;

	if (!r)
		return err ? err->code : SW_ELIMIT;
	if (strcmp(k, "endpoint") == 0 || strcmp(k, "fallback") == 0) {
		if (!name_ok(v))
			return sw_err_set(err, SW_EINPUT, "%s: bad %s '%s': expected an endpoint name",
					  where, k, v);
		char **dst = k[0] == 'e' ? &r->endpoint : &r->fallback;
		free(*dst);
		*dst = sw_xstrdup(v);
		return 0;
	}
	if (strcmp(k, "temperature") == 0) {
		if (!parse_double(v, &d) || d < 0 || d > 5)
			return sw_err_set(err, SW_EINPUT, "%s: bad temperature '%s': expected 0 to 5",
					  where, v);
		r->temperature = d;
		return 0;
	}
	if (strcmp(k, "top_p") == 0) {
		if (!parse_double(v, &d) || d <= 0 || d > 1)
			return sw_err_set(err, SW_EINPUT, "%s: bad top_p '%s': expected more than 0, at most 1",
					  where, v);
		r->top_p = d;
		return 0;
	}
	if (strcmp(k, "max_tokens") == 0) {
		if (!parse_int(v, 1, MAX_TOKENS_LIMIT, &n))
			return sw_err_set(err, SW_EINPUT, "%s: bad max_tokens '%s': expected 1 to %ld",
					  where, v, MAX_TOKENS_LIMIT);
		r->max_tokens = (long)n;
		return 0;
	}
	if (strcmp(k, "context") == 0) {
		if (!parse_int(v, 1, CONTEXT_LIMIT, &n))
			return sw_err_set(err, SW_EINPUT, "%s: bad context '%s': expected 1 to %ld tokens",
					  where, v, CONTEXT_LIMIT);
		r->context = (long)n;
		return 0;
	}
	if (strcmp(k, "seed") == 0) {
		if (!parse_int(v, 0, INT64_MAX, &n))
			return sw_err_set(err, SW_EINPUT, "%s: bad seed '%s': expected a number 0 or more",
					  where, v);
		r->has_seed = true;
		r->seed = (int64_t)n;
		return 0;
	}
	if (strcmp(k, "retries") == 0) {
		if (!parse_int(v, 0, SW_LLM_MAX_RETRIES, &n))
			return sw_err_set(err, SW_EINPUT, "%s: bad retries '%s': expected 0 to %d",
					  where, v, SW_LLM_MAX_RETRIES);
		r->retries = (unsigned)n;
		return 0;
	}
	if (strcmp(k, "connect_timeout") == 0)
		return parse_seconds(&r->deadlines.connect_ms, v, k, where, err);
	if (strcmp(k, "first_token_timeout") == 0)
		return parse_seconds(&r->deadlines.first_token_ms, v, k, where, err);
	if (strcmp(k, "token_timeout") == 0)
		return parse_seconds(&r->deadlines.token_ms, v, k, where, err);
	if (strcmp(k, "timeout") == 0)
		return parse_seconds(&r->deadlines.total_ms, v, k, where, err);
	return sw_err_set(err, SW_EINPUT,
			  "%s: unknown key '%s' in [role \"%s\"] (known: endpoint, fallback, temperature, "
			  "top_p, max_tokens, seed, context, retries, connect_timeout, "
			  "first_token_timeout, token_timeout, timeout)",
			  where, k, e->subsection);
}

/* The line of the first entry of a section, for "missing key" messages. */
static int first_line(const struct sw_config *cfg, const char *section, const char *sub)
{
	for (size_t i = 0; i < cfg->n; i++)
		if (strcmp(cfg->entries[i].section, section) == 0 && cfg->entries[i].subsection &&
		    strcmp(cfg->entries[i].subsection, sub) == 0)
			return cfg->entries[i].line;
	return 0;
}

static const struct sw_config_entry *role_entry(const struct sw_config *cfg, const char *role,
						const char *key)
{
	return sw_config_find(cfg, "role", role, key);
}

static int check_links(struct sw_llm_config *c, const struct sw_config *cfg, struct sw_err *err)
{
	for (size_t i = 0; i < c->n_endpoints; i++) {
		const struct sw_llm_endpoint *ep = &c->endpoints[i];
		if (!ep->url)
			return sw_err_set(err, SW_EINPUT, "%s:%d: [endpoint \"%s\"] has no url",
					  c->path, first_line(cfg, "endpoint", ep->name), ep->name);
	}
	for (size_t i = 0; i < c->n_roles; i++) {
		const struct sw_llm_role *r = &c->roles[i];
		if (!r->endpoint)
			return sw_err_set(err, SW_EINPUT, "%s:%d: [role \"%s\"] has no endpoint",
					  c->path, first_line(cfg, "role", r->name), r->name);
		if (!sw_llm_endpoint_find(c, r->endpoint))
			return sw_err_set(err, SW_EINPUT,
					  "%s:%d: role '%s' names endpoint '%s', which no [endpoint] section defines",
					  c->path, role_entry(cfg, r->name, "endpoint")->line, r->name,
					  r->endpoint);
		if (r->fallback && !sw_llm_endpoint_find(c, r->fallback))
			return sw_err_set(err, SW_EINPUT,
					  "%s:%d: role '%s' names fallback '%s', which no [endpoint] section defines",
					  c->path, role_entry(cfg, r->name, "fallback")->line, r->name,
					  r->fallback);
		if (r->fallback && strcmp(r->fallback, r->endpoint) == 0)
			return sw_err_set(err, SW_EINPUT,
					  "%s:%d: role '%s' falls back to its own endpoint '%s'",
					  c->path, role_entry(cfg, r->name, "fallback")->line, r->name,
					  r->fallback);
	}
	return 0;
}

int sw_llm_config_load(struct sw_llm_config *out, const struct sw_config *cfg,
		       struct sw_err *err)
{
	char where[SW_ERR_MSG_MAX / 2];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->path = sw_xstrdup(cfg->path ? cfg->path : "sworn.conf");
	for (size_t i = 0; i < cfg->n; i++) {
		const struct sw_config_entry *e = &cfg->entries[i];
		bool is_policy = strcmp(e->section, "policy") == 0;
		bool is_endpoint = strcmp(e->section, "endpoint") == 0;
		bool is_role = strcmp(e->section, "role") == 0;

		if (!is_policy && !is_endpoint && !is_role)
			continue;
		snprintf(where, sizeof(where), "%s:%d", out->path, e->line);
		if (is_policy && e->subsection) {
			rc = sw_err_set(err, SW_EINPUT, "%s: [policy] takes no name", where);
			goto cleanup;
		}
		if (!is_policy && !e->subsection) {
			rc = sw_err_set(err, SW_EINPUT, "%s: [%s] needs a name: [%s \"NAME\"]", where,
					e->section, e->section);
			goto cleanup;
		}
		if (!is_policy && !name_ok(e->subsection)) {
			rc = sw_err_set(err, SW_EINPUT,
					"%s: bad %s name '%s': use up to %d letters, digits, '-', '_' and '.'",
					where, e->section, e->subsection, NAME_MAX_LEN);
			goto cleanup;
		}
		if (is_policy)
			rc = policy_key(out, e, where, err);
		else if (is_endpoint)
			rc = endpoint_key(out, e, where, err);
		else
			rc = role_key(out, e, where, err);
		if (rc != 0)
			goto cleanup;
	}
	rc = check_links(out, cfg, err);
cleanup:
	if (rc != 0)
		sw_llm_config_release(out);
	return rc;
}

void sw_llm_config_release(struct sw_llm_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->policy.n_allow; i++)
		free(c->policy.allow_hosts[i]);
	free(c->policy.allow_hosts);
	for (size_t i = 0; i < c->n_endpoints; i++) {
		struct sw_llm_endpoint *ep = &c->endpoints[i];
		free(ep->name);
		free(ep->url);
		free(ep->host);
		free(ep->unix_path);
		free(ep->api_key_file);
		free(ep->gpus);
	}
	free(c->endpoints);
	for (size_t i = 0; i < c->n_roles; i++) {
		free(c->roles[i].name);
		free(c->roles[i].endpoint);
		free(c->roles[i].fallback);
	}
	free(c->roles);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const struct sw_llm_endpoint *sw_llm_endpoint_find(const struct sw_llm_config *c,
						   const char *name)
{
	for (size_t i = 0; name && i < c->n_endpoints; i++)
		if (strcmp(c->endpoints[i].name, name) == 0)
			return &c->endpoints[i];
	return NULL;
}

const struct sw_llm_role *sw_llm_role_find(const struct sw_llm_config *c, const char *name)
{
	for (size_t i = 0; name && i < c->n_roles; i++)
		if (strcmp(c->roles[i].name, name) == 0)
			return &c->roles[i];
	return NULL;
}
