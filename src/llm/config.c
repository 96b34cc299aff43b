/*
 * config.c - [policy], [endpoint "NAME"] and [role "NAME"] from sworn.conf.
 *
 * Every mistake is reported with the file and line of the entry that made
 * it, because a lawyer editing sworn.conf should not have to guess which of
 * four endpoint sections is wrong.  A key given twice in one section keeps
 * the last value, as git-config does.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "llm/llm_int.h"

#define NAME_MAX_LEN 64
/* Seconds a deadline may be set to: a week is already absurd for one call. */
#define DEADLINE_MAX_S (7.0 * 24 * 3600)
#define MAX_TOKENS_LIMIT 10000000L
#define CONTEXT_LIMIT 100000000L /* as in the context key's message */

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

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s + ('a' - 'A'));
}

/* The part of u (curl_free()d by the caller), or NULL when it has none. */
static char *url_part(CURLU *u, CURLUPart what)
{
	char *v = NULL;
	if (curl_url_get(u, what, &v, 0) != CURLUE_OK) {
		curl_free(v);
		return NULL;
	}
	return v;
}

/* http(s)://host[:port][/prefix] through libcurl's own URL parser, so that
 * the host the policy and allow_hosts judge, and the URL later handed to
 * CURLOPT_URL, are what curl will connect to (an IPv4 address written in
 * decimal, octal or hex comes back as a.b.c.d).  Userinfo, queries and
 * fragments are refused: none has a use here, and `http://127.0.0.1@evil`
 * is how a URL is made to lie to its reader. */
static int parse_http_url(struct sw_llm_endpoint *ep, const char *url, struct sw_err *err)
{
	CURLU *u = curl_url();
	char *v = NULL, *host = NULL, *full = NULL;
	int rc = 0;

	if (!u)
		SW_BUG("curl_url: out of memory");
	CURLUcode uc = curl_url_set(u, CURLUPART_URL, url, 0);
	if (uc == CURLUE_BAD_PORT_NUMBER) {
		rc = sw_err_set(err, SW_EINPUT, "bad url '%s': port must be 1-65535", url);
		goto cleanup;
	}
	if (uc == CURLUE_NO_HOST) {
		rc = sw_err_set(err, SW_EINPUT, "bad url '%s': no host", url);
		goto cleanup;
	}
	if (uc != CURLUE_OK) {
		rc = sw_err_set(err, SW_EINPUT, "bad url '%s': %s", url, curl_url_strerror(uc));
		goto cleanup;
	}
	static const CURLUPart who[] = { CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_OPTIONS };
	for (size_t i = 0; i < SW_ARRAY_LEN(who); i++)
		if ((v = url_part(u, who[i])) != NULL) {
			rc = sw_err_set(err, SW_EINPUT, "bad url '%s': no user name in the url "
					"(put an API key in api_key_file)", url);
			goto cleanup;
		}
	if ((v = url_part(u, CURLUPART_QUERY)) != NULL ||
	    (v = url_part(u, CURLUPART_FRAGMENT)) != NULL) {
		rc = sw_err_set(err, SW_EINPUT, "bad url '%s': no query or fragment, please", url);
		goto cleanup;
	}
	long long port;
	if ((v = url_part(u, CURLUPART_PORT)) != NULL && !sw_parse_int(v, 1, 65535, &port)) {
		rc = sw_err_set(err, SW_EINPUT, "bad url '%s': port must be 1-65535", url);
		goto cleanup;
	}
	host = url_part(u, CURLUPART_HOST);
	full = url_part(u, CURLUPART_URL);
	if (!host || !*host || !full) {
		rc = sw_err_set(err, SW_EINPUT, "bad url '%s': no host", url);
		goto cleanup;
	}
	size_t hn = strlen(host);
	const char *h = host;
	if (hn >= 2 && host[0] == '[' && host[hn - 1] == ']') {
		h++;
		hn -= 2;
	}
	free(ep->url);
	free(ep->unix_path);
	free(ep->host);
	ep->unix_path = NULL;
	ep->host = sw_xstrndup(h, hn);
	lower(ep->host);
	size_t n = strlen(full);
	while (n > 0 && full[n - 1] == '/')
		n--;
	ep->url = sw_xstrndup(full, n);
cleanup:
	curl_free(v);
	curl_free(host);
	curl_free(full);
	curl_url_cleanup(u);
	return rc;
}

/* http(s)://host[:port][/prefix] or unix:/path. */
static int parse_url(struct sw_llm_endpoint *ep, const char *url, struct sw_err *err)
{
	if (strlen(url) > SW_LLM_MAX_URL)
		return sw_err_set(err, SW_EINPUT, "url is longer than %d bytes", SW_LLM_MAX_URL);
	if (strncmp(url, "unix:", 5) == 0) {
		const char *path = url + 5;
		struct sockaddr_un un;
		if (path[0] != '/')
			return sw_err_set(err, SW_EINPUT,
					  "bad url '%s': a unix socket needs an absolute path (unix:/run/x.sock)", url);
		if (strlen(path) >= sizeof(un.sun_path))
			return sw_err_set(err, SW_EINPUT, "unix socket path is longer than %zu bytes",
					  sizeof(un.sun_path) - 1);
		free(ep->url);
		free(ep->unix_path);
		free(ep->host);
		ep->unix_path = sw_xstrdup(path);
		ep->url = sw_xstrdup("http://localhost");
		ep->host = sw_xstrdup("localhost");
		return 0;
	}
	/* Said here rather than left to curl: only these two schemes, and none
	 * of the leniencies (spaces, backslashes for slashes) some parsers
	 * grant. */
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return sw_err_set(err, SW_EINPUT,
				  "bad url '%s': expected http://HOST:PORT, https://... or unix:/PATH", url);
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '\\')
			return sw_err_set(err, SW_EINPUT, "bad url '%s': spaces or control bytes", url);
	return parse_http_url(ep, url, err);
}

static int parse_gpus(struct sw_llm_endpoint *ep, const char *v, struct sw_err *err)
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
		if (!sw_parse_int(item, 0, 4095, &g)) {
			rc = sw_err_set(err, SW_EINPUT,
					"bad gpus '%s': expected GPU numbers separated by commas (0,1,2)", v);
			goto cleanup;
		}
		if (n >= SW_LLM_MAX_GPUS) {
			rc = sw_err_set(err, SW_ELIMIT, "more than %d gpus", SW_LLM_MAX_GPUS);
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

static int parse_allow(struct sw_llm_policy *pol, const char *v, struct sw_err *err)
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
					"bad allow_hosts entry '%s': expected host names separated by commas", item);
			goto cleanup;
		}
		if (pol->n_allow >= SW_LLM_MAX_ALLOW_HOSTS) {
			rc = sw_err_set(err, SW_ELIMIT, "more than %d allow_hosts",
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

/* ------------------------------------------------------------ the schema */

static int set_allow(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	(void)user;
	return parse_allow(obj, e->value, err);
}

static int set_url(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	(void)user;
	return parse_url(obj, e->value, err);
}

static int set_gpus(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	(void)user;
	return parse_gpus(obj, e->value, err);
}

static int set_key_file(void *obj, const struct sw_config_entry *e, void *user,
			struct sw_err *err)
{
	struct sw_llm_endpoint *ep = obj;
	const struct sw_llm_config *c = user;
	if (!*e->value)
		return sw_err_set(err, SW_EINPUT, "api_key_file is empty");
	char *dir = sw_path_dir(c->path);
	free(ep->api_key_file);
	ep->api_key_file = sw_path_join(dir, e->value);
	free(dir);
	return 0;
}

static int set_endpoint_name(void *obj, const struct sw_config_entry *e, void *user,
			     struct sw_err *err)
{
	struct sw_llm_role *r = obj;
	(void)user;
	if (!name_ok(e->value))
		return sw_err_set(err, SW_EINPUT, "bad %s '%s': expected an endpoint name", e->key,
				  e->value);
	char **dst = strcmp(e->key, "endpoint") == 0 ? &r->endpoint : &r->fallback;
	free(*dst);
	*dst = sw_xstrdup(e->value);
	return 0;
}

static int set_seed(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	struct sw_llm_role *r = obj;
	long long n;
	(void)user;
	if (!sw_parse_int(e->value, 0, INT64_MAX, &n))
		return sw_err_set(err, SW_EINPUT, "bad seed '%s': expected a number 0 or more",
				  e->value);
	r->has_seed = true;
	r->seed = (int64_t)n;
	return 0;
}

static const char *const mode_names[] = { "local-only", "allow-remote", NULL };
/* Indexed by enum sw_llm_reasoning. */
static const char *const reasoning_names[] = { "auto", "on", "off", NULL };

static const struct sw_config_section sections[] = {
	{ "policy", false, "where sworn may send text: the local-only rule and its exceptions" },
	{ "endpoint", true, "one model server sworn can call" },
	{ "role", true, "one job of the pipeline, the endpoint it runs on and its settings" },
};

#define EP(m) SW_CONFIG_AT(struct sw_llm_endpoint, m)
#define ROLE(m) SW_CONFIG_AT(struct sw_llm_role, m)
#define DEADLINE(m) SW_CONFIG_AT(struct sw_llm_role, deadlines.m)

static const struct sw_config_key keys[] = {
	{ .section = "policy", .key = "mode", .type = SW_CONFIG_ENUM,
	  SW_CONFIG_AT(struct sw_llm_policy, mode), .choices = mode_names,
	  .help = "local-only (the default) refuses every endpoint off this machine" },
	{ .section = "policy", .key = "allow_hosts", .type = SW_CONFIG_CUSTOM, .set = set_allow,
	  .expect = "host names separated by commas",
	  .help = "hosts a local-only policy still lets sworn reach" },
	{ .section = "endpoint", .key = "url", .type = SW_CONFIG_CUSTOM, .set = set_url,
	  .expect = "http://HOST:PORT[/PREFIX], https://... or unix:/PATH",
	  .help = "where the server listens" },
	{ .section = "endpoint", .key = "api_key_file", .type = SW_CONFIG_CUSTOM,
	  .set = set_key_file, .expect = "a file, relative to sworn.conf's folder",
	  .help = "the file holding the server's API key" },
	{ .section = "endpoint", .key = "gpus", .type = SW_CONFIG_CUSTOM, .set = set_gpus,
	  .expect = "GPU numbers separated by commas", .help = "the GPUs it runs on, for reports" },
	{ .section = "endpoint", .key = "slots", .type = SW_CONFIG_INT, EP(slots), .min = 1,
	  .max = SW_LLM_MAX_SLOTS, .help = "requests the server runs at once" },
	{ .section = "role", .key = "endpoint", .type = SW_CONFIG_CUSTOM,
	  .set = set_endpoint_name, .expect = "an endpoint name",
	  .help = "the [endpoint] the role calls" },
	{ .section = "role", .key = "fallback", .type = SW_CONFIG_CUSTOM,
	  .set = set_endpoint_name, .expect = "an endpoint name",
	  .help = "a local [endpoint] to try when the first fails" },
	{ .section = "role", .key = "temperature", .type = SW_CONFIG_DOUBLE, ROLE(temperature),
	  .min = 0, .max = 5, .help = "sampling temperature (the server's default when unset)" },
	{ .section = "role", .key = "top_p", .type = SW_CONFIG_DOUBLE, ROLE(top_p), .min = 0,
	  .max = 1, .flags = SW_CONFIG_ABOVE_MIN, .help = "nucleus sampling" },
	{ .section = "role", .key = "max_tokens", .type = SW_CONFIG_INT, ROLE(max_tokens),
	  .min = 1, .max = MAX_TOKENS_LIMIT, .help = "the longest answer" },
	{ .section = "role", .key = "seed", .type = SW_CONFIG_CUSTOM, .set = set_seed,
	  .expect = "a number 0 or more", .help = "the sampling seed, for repeatable answers" },
	{ .section = "role", .key = "context", .type = SW_CONFIG_INT, ROLE(context), .min = 1,
	  .max = CONTEXT_LIMIT, .expect = "1 to 100000000 tokens",
	  .help = "the role's context budget in tokens" },
	{ .section = "role", .key = "reasoning", .type = SW_CONFIG_ENUM, ROLE(reasoning),
	  .choices = reasoning_names,
	  .help = "a reasoning model thinks first (on) or not (off); auto: its template's way" },
	{ .section = "role", .key = "reasoning_budget", .type = SW_CONFIG_INT,
	  ROLE(reasoning_budget), .min = 1, .max = MAX_TOKENS_LIMIT,
	  .expect = "a number of tokens, 1 or more (reasoning = off for none)",
	  .help = "the most tokens a reasoning model may think" },
	{ .section = "role", .key = "retries", .type = SW_CONFIG_INT, ROLE(retries), .min = 0,
	  .max = SW_LLM_MAX_RETRIES, .help = "retries of a busy (503) server" },
	{ .section = "role", .key = "connect_timeout", .type = SW_CONFIG_MS,
	  DEADLINE(connect_ms), .min = 0, .max = DEADLINE_MAX_S,
	  .help = "TCP and TLS set-up of one attempt" },
	{ .section = "role", .key = "first_token_timeout", .type = SW_CONFIG_MS,
	  DEADLINE(first_token_ms), .min = 0, .max = DEADLINE_MAX_S,
	  .help = "from the start of an attempt to the first text (prompt processing included)" },
	{ .section = "role", .key = "token_timeout", .type = SW_CONFIG_MS, DEADLINE(token_ms),
	  .min = 0, .max = DEADLINE_MAX_S, .help = "between two streamed texts" },
	{ .section = "role", .key = "timeout", .type = SW_CONFIG_MS, DEADLINE(total_ms),
	  .min = 0, .max = DEADLINE_MAX_S, .help = "the whole call, retries included" },
};

const struct sw_config_schema sw_llm_config_schema = {
	.file = "sworn.conf",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = false,
};

static struct sw_llm_endpoint *endpoint_get(struct sw_llm_config *c, const char *name,
					    int line, struct sw_err *err)
{
	for (size_t i = 0; i < c->n_endpoints; i++)
		if (strcmp(c->endpoints[i].name, name) == 0)
			return &c->endpoints[i];
	if (c->n_endpoints >= SW_LLM_MAX_ENDPOINTS) {
		sw_err_set(err, SW_ELIMIT, "more than %d endpoints", SW_LLM_MAX_ENDPOINTS);
		return NULL;
	}
	c->endpoints = sw_xrealloc(c->endpoints, (c->n_endpoints + 1) * sizeof(*c->endpoints));
	struct sw_llm_endpoint *ep = &c->endpoints[c->n_endpoints++];
	memset(ep, 0, sizeof(*ep));
	ep->name = sw_xstrdup(name);
	ep->line = line;
	return ep;
}

static void role_defaults(struct sw_llm_role *r)
{
	r->temperature = -1;
	r->top_p = -1;
	r->retries = 10;
	r->deadlines = sw_llm_default_deadlines;
}

static struct sw_llm_role *role_get(struct sw_llm_config *c, const char *name, int line,
				    struct sw_err *err)
{
	for (size_t i = 0; i < c->n_roles; i++)
		if (strcmp(c->roles[i].name, name) == 0)
			return &c->roles[i];
	if (c->n_roles >= SW_LLM_MAX_ROLES) {
		sw_err_set(err, SW_ELIMIT, "more than %d roles", SW_LLM_MAX_ROLES);
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

/* The object an entry's value goes into: the policy, or the endpoint or role
 * its section names (created on first sight). */
static void *target(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	struct sw_llm_config *c = user;
	if (strcmp(e->section, "policy") == 0)
		return &c->policy;
	if (!name_ok(e->subsection)) {
		sw_err_set(err, SW_EINPUT,
			   "bad %s name '%s': use up to %d letters, digits, '-', '_' and '.'",
			   e->section, e->subsection, NAME_MAX_LEN);
		return NULL;
	}
	if (strcmp(e->section, "endpoint") == 0)
		return endpoint_get(c, e->subsection, e->line, err);
	return role_get(c, e->subsection, e->line, err);
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
	memset(out, 0, sizeof(*out));
	out->path = sw_xstrdup(cfg->path ? cfg->path : "sworn.conf");
	int rc = sw_config_apply(&sw_llm_config_schema, cfg, target, out, err);
	if (rc == 0)
		rc = check_links(out, cfg, err);
	if (rc != 0)
		sw_llm_config_release(out);
	return rc;
}

void sw_llm_config_role_unavailable(struct sw_llm_config *cfg, const char *role, const char *why)
{
	if (sw_llm_role_find(cfg, role) || sw_llm_role_unavailable(cfg, role))
		return;
	cfg->unavailable = sw_xrealloc(cfg->unavailable,
				       (cfg->n_unavailable + 1) * sizeof(*cfg->unavailable));
	cfg->unavailable[cfg->n_unavailable].role = sw_xstrdup(role);
	cfg->unavailable[cfg->n_unavailable++].why = sw_xstrdup(why);
}

const char *sw_llm_role_unavailable(const struct sw_llm_config *cfg, const char *role)
{
	for (size_t i = 0; i < cfg->n_unavailable; i++)
		if (strcmp(cfg->unavailable[i].role, role) == 0)
			return cfg->unavailable[i].why;
	return NULL;
}

void sw_llm_config_release(struct sw_llm_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_unavailable; i++) {
		free(c->unavailable[i].role);
		free(c->unavailable[i].why);
	}
	free(c->unavailable);
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
		free(ep->fleet_host);
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

int sw_llm_config_add_url(struct sw_llm_config *c, const char *name, const char *url,
			  struct sw_err *err)
{
	struct sw_llm_endpoint ep = { 0 };
	int rc = parse_url(&ep, url, err);
	if (rc == 0 && c->n_endpoints >= SW_LLM_MAX_ENDPOINTS)
		rc = sw_err_set(err, SW_ELIMIT, "more than %d endpoints", SW_LLM_MAX_ENDPOINTS);
	if (rc != 0) {
		free(ep.url);
		free(ep.host);
		free(ep.unix_path);
		return rc;
	}
	ep.name = sw_xstrdup(name);
	c->endpoints = sw_xrealloc(c->endpoints, (c->n_endpoints + 1) * sizeof(*c->endpoints));
	c->endpoints[c->n_endpoints++] = ep;
	return 0;
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
