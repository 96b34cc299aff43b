/* cmd_doctor.c - `sworn doctor`: check the workspace's model set-up and
 * say, line by line, what is fine and what is not. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "authority/authority.h"
#include "cli/cli.h"
#include "fleet/fleet.h"
#include "ingest/ingest.h"
#include "llm/llm.h"

#ifndef SW_TESSERACT_SONAME
#define SW_TESSERACT_SONAME "libtesseract.so.5"
#endif

#define DOCTOR_TIMEOUT_MS 3000
/* An authority table older than this may lack recent decisions. */
#define AUTHORITY_STALE_DAYS 180
/* Free space under the workspace: below WARN an import of a production
 * may not fit; below FAIL a matter's database may not. */
#define DISK_WARN_BYTES (5ull << 30)
#define DISK_FAIL_BYTES (500ull << 20)

struct doctor_opts {
	bool json, keys;
};

#define AT(f) offsetof(struct doctor_opts, f)
static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the checks as JSON", CLI_FLAG, AT(json) },
	{ "keys", 0, NULL, "print every key of sworn.conf, inventories and calibration files",
	  CLI_FLAG, AT(keys) },
};

/* The reference of every configuration file sworn reads, from the same
 * tables that check them. */
static int print_keys(void)
{
	static const struct {
		const char *title;
		const struct sw_config_schema *schema;
	} files[] = {
		{ "sworn.conf", &sw_llm_config_schema },
		{ NULL, &sw_fleet_conf_schema },
		{ NULL, &sw_ingest_conf_schema },
		{ "hardware inventory (sworn plan --hardware, [fleet] hardware)", &sw_fleet_hw_schema },
		{ "calibration (sworn plan --calibration, [fleet] calibration)", &sw_fleet_calib_schema },
	};
	struct sw_buf b = SW_BUF_INIT;
	for (size_t i = 0; i < SW_ARRAY_LEN(files); i++) {
		if (files[i].title)
			sw_buf_addf(&b, "%s# %s\n", i ? "\n" : "", files[i].title);
		sw_config_schema_doc(&b, files[i].schema);
	}
	fputs(b.data, stdout);
	sw_buf_release(&b);
	return CLI_OK;
}

struct report {
	json_t *checks; /* when --json */
	unsigned failed;
};

SW_PRINTF(4, 5)
static void check(struct report *r, const char *verdict, const char *what, const char *fmt, ...)
{
	struct sw_buf b = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (strcmp(verdict, "FAIL") == 0)
		r->failed++;
	if (r->checks)
		json_array_append_new(r->checks, json_pack("{s:s, s:o, s:o}", "verdict", verdict,
							   "what", sw_json_str(what),
							   "detail", sw_json_str(b.data)));
	else
		sw_term_printf(stdout, "%-5s %s: %s\n", verdict, what, b.data); /* a server's words */
	sw_buf_release(&b);
}

/* ------------------------------------------------------- the record side */

/* tesseract is loaded as extract/ocr.c loads it (dlopen, never linked),
 * and started with English as OCR starts it, so that missing language
 * data shows here and not halfway through an image-only production. */
static void check_tesseract(struct report *r)
{
	typedef const char *(*version_fn)(void);
	typedef void *(*create_fn)(void);
	typedef int (*init3_fn)(void *, const char *, const char *);
	typedef void (*delete_fn)(void *);
	void *lib = dlopen(SW_TESSERACT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		check(r, "warn", "tesseract",
		      "cannot load %s (%s): scanned pages will not be read; install libtesseract "
		      "and tesseract-ocr-eng", SW_TESSERACT_SONAME, e ? e : "not found");
		return;
	}
	version_fn version;
	create_fn create;
	init3_fn init3;
	delete_fn destroy;
	void *p[4] = { dlsym(lib, "TessVersion"), dlsym(lib, "TessBaseAPICreate"),
		       dlsym(lib, "TessBaseAPIInit3"), dlsym(lib, "TessBaseAPIDelete") };
	if (!p[0] || !p[1] || !p[2] || !p[3]) {
		check(r, "FAIL", "tesseract", "%s lacks the C API OCR uses", SW_TESSERACT_SONAME);
		return;
	}
	memcpy(&version, &p[0], sizeof(version));
	memcpy(&create, &p[1], sizeof(create));
	memcpy(&init3, &p[2], sizeof(init3));
	memcpy(&destroy, &p[3], sizeof(destroy));
	void *api = create();
	/* tesseract prints its own complaint on stderr: the line below says it
	 * in sworn's words. */
	fflush(stderr);
	int saved = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved >= 0 && devnull >= 0)
		dup2(devnull, STDERR_FILENO);
	int irc = api ? init3(api, NULL, "eng") : -1;
	if (saved >= 0 && devnull >= 0)
		dup2(saved, STDERR_FILENO);
	if (saved >= 0)
		close(saved);
	if (devnull >= 0)
		close(devnull);
	if (api)
		destroy(api);
	const char *prefix = getenv("TESSDATA_PREFIX");
	if (irc != 0)
		check(r, "FAIL", "tesseract",
		      "%s loads but has no English language data (eng.traineddata%s%s): install "
		      "tesseract-ocr-eng%s", version(), prefix ? " under TESSDATA_PREFIX=" : "",
		      prefix ? prefix : "", prefix ? ", or unset TESSDATA_PREFIX" : "");
	else
		check(r, "ok", "tesseract", "%s with English language data", version());
	/* The library stays loaded: its threads do not survive an unload. */
}

static void check_authorities(struct report *r, const struct cli_ctx *ctx)
{
	char *path = sw_path_join(ctx->ws.root, SW_AUTHORITY_DB_NAME);
	struct stat sb;
	if (stat(path, &sb) != 0) {
		check(r, "warn", "authorities",
		      "no authority table: case citations cannot be checked; import one with "
		      "'sworn authorities import'");
	} else {
		double days = difftime(time(NULL), sb.st_mtime) / 86400.0;
		char when[32];
		struct tm tm;
		gmtime_r(&sb.st_mtime, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d", &tm);
		if (days > AUTHORITY_STALE_DAYS)
			check(r, "warn", "authorities",
			      "the table was last imported %s, %.0f days ago: decisions since then are "
			      "missing and their citations would be reported as not found; import a "
			      "newer one with 'sworn authorities import'", when, days);
		else
			check(r, "ok", "authorities", "last imported %s (%.0f days ago)", when,
			      days < 0 ? 0 : days);
	}
	free(path);
}

/* Each matter's database checked by record/, read-only: doctor never
 * migrates or writes a matter. */
static void check_matters(struct report *r, const struct cli_ctx *ctx)
{
	char **names = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	if (sw_matter_list(&names, &n, &ctx->ws, &err) != 0) {
		check(r, "FAIL", "matters", "%s", err.msg);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char *what = sw_xasprintf("matter %s", names[i]);
		char *damage = NULL;
		if (sw_matter_check(&damage, &ctx->ws, names[i], &err) != 0)
			check(r, "FAIL", what, "%s; restore it from a backup, or re-import the "
			      "matter's productions into a new matter", err.msg);
		else if (!damage)
			check(r, "ok", what, "database intact (quick_check)");
		else
			check(r, "FAIL", what, "%s; restore it from a backup, or re-import the "
			      "matter's productions into a new matter", damage);
		free(damage);
		free(what);
		free(names[i]);
	}
	free(names);
	if (n == 0)
		check(r, "ok", "matters", "none yet ('sworn matter new NAME')");
}

static void check_disk(struct report *r, const struct cli_ctx *ctx)
{
	struct statvfs vfs;
	if (statvfs(ctx->ws.root, &vfs) != 0) {
		check(r, "warn", "disk", "cannot read the free space under %s", ctx->ws.root);
		return;
	}
	unsigned long long free_b = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
	char human[32];
	cli_human_bytes(human, sizeof(human), free_b);
	if (free_b < DISK_FAIL_BYTES)
		check(r, "FAIL", "disk", "%s free under %s: an import or a run may fail part-way; "
		      "free some space first", human, ctx->ws.root);
	else if (free_b < DISK_WARN_BYTES)
		check(r, "warn", "disk", "%s free under %s: a large production may not fit",
		      human, ctx->ws.root);
	else
		check(r, "ok", "disk", "%s free under %s", human, ctx->ws.root);
}

/* ------------------------------------------------------------- endpoints */

/* The fleet's GPUs as the driver sees them now, against its inventory
 * ([fleet] hardware, the first file: this box's): a GPU it names that the
 * driver does not list is a FAIL with the fix; heat, power throttling and
 * ECC errors are warnings.  Only where sworn.conf has a [fleet]
 * (check_gpus = no skips it, as fleet up does). */
static void check_gpus(struct report *r, const struct cli_ctx *ctx, const struct sw_fleet_state *st)
{
	struct sw_fleet_conf conf;
	struct sw_fleet_gpu_report g;
	struct sw_err err = { 0 };

	if (sw_fleet_conf_load(&conf, &ctx->ws.config, ctx->ws.root, &err) != 0)
		return; /* no [fleet], or the fleet's own check says what is wrong */
	if (!conf.check_gpus) {
		sw_fleet_conf_release(&conf);
		return;
	}
	sw_fleet_gpu_report(&g, conf.nhardware > 1 ? conf.hardware_files[0] : conf.hardware, st);
	if (g.error[0])
		check(r, "warn", "gpus", "%s; the fleet's GPUs cannot be checked", g.error);
	for (size_t i = 0; i < g.n; i++) {
		char what[32], line[1024];
		snprintf(what, sizeof(what), "gpu %d", g.rows[i].index);
		const char *verdict = sw_fleet_gpu_health_line(line, sizeof(line), &g.rows[i]);
		check(r, verdict, what, "%s", line);
	}
	sw_fleet_gpu_report_release(&g);
	sw_fleet_conf_release(&conf);
}

/* What to do about an endpoint that did not answer: a fleet server's state
 * and log, or how to start a server on its port. */
static void next_step(struct sw_buf *b, const struct sw_llm_endpoint *ep,
		      const struct sw_fleet_state *st)
{
	const struct sw_fleet_state_server *fs = st ? sw_fleet_state_find(st, NULL, ep->url) : NULL;
	if (fs && st->supervisor_running) {
		sw_buf_addf(b, "; the fleet's server %s is %s: see 'sworn fleet status' and its log %s",
			    fs->name, fs->state, fs->log);
		return;
	}
	if (ep->unix_path) {
		sw_buf_addf(b, "; start llama-server on %s (--host %s), or run 'sworn fleet up'",
			    ep->unix_path, ep->unix_path);
		return;
	}
	const char *colon = strrchr(ep->url, ':');
	const char *port = colon && colon[1] >= '0' && colon[1] <= '9' ? colon + 1 : NULL;
	size_t plen = port ? strspn(port, "0123456789") : 0;
	if (port)
		sw_buf_addf(b, "; start llama-server on port %.*s, or run 'sworn fleet up'",
			    (int)plen, port);
	else
		sw_buf_adds(b, "; start llama-server at that address, or run 'sworn fleet up'");
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct doctor_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_llm_config cfg = { 0 };
	struct report rep = { 0 };
	enum sw_llm_health *health = NULL;
	long *n_ctx = NULL;
	bool *refused = NULL;
	struct sw_fleet_state st;
	char *fleet_dir = NULL;
	bool have_st = false;
	int rc;

	if (o->keys)
		return print_keys();
	if (o->json)
		rep.checks = json_array();
	/* A section no subsystem reads (a misspelt [endpont]) is a FAIL line
	 * here; main refuses it for every other command (CLI_OWN_CONF_CHECK). */
	if (sw_config_check_sections(&ctx->ws.config, cli_conf_schemas, cli_nconf_schemas,
				     &err) != 0 ||
	    cli_llm_config_load(ctx, &cfg, &err) != 0) {
		check(&rep, "FAIL", "sworn.conf", "%s", err.msg);
		goto report;
	}
	check(&rep, "ok", "sworn.conf", "policy %s%s%s, %zu endpoint%s, %zu role%s",
	      sw_llm_mode_name(cfg.policy.mode), cfg.policy.n_allow ? ", allow_hosts " : "",
	      cfg.policy.n_allow ? cfg.policy.allow_hosts[0] : "", cfg.n_endpoints,
	      cfg.n_endpoints == 1 ? "" : "s", cfg.n_roles, cfg.n_roles == 1 ? "" : "s");
	if (cfg.policy.mode == SW_LLM_ALLOW_REMOTE)
		check(&rep, "warn", "policy",
		      "allow-remote: endpoints may be outside this network; set mode = local-only in [policy] to forbid that");
	fleet_dir = sw_path_join(ctx->ws.root, "fleet");
	have_st = sw_fleet_state_here(&st, &ctx->ws.config, ctx->ws.root) == 0;
	if (have_st && st.supervisor_running)
		check(&rep, "ok", "fleet", "supervisor running, %zu server%s; its servers and roles "
		      "are used where sworn.conf names none", st.nservers, st.nservers == 1 ? "" : "s");
	else if (sw_config_find(&ctx->ws.config, "fleet", NULL, "model"))
		check(&rep, "warn", "fleet", "[fleet] has models but the fleet is not running: "
		      "'sworn fleet up' starts them and makes their roles usable");
	check_gpus(&rep, ctx, have_st ? &st : NULL);
	health = sw_xcalloc(cfg.n_endpoints + 1, sizeof(*health));
	n_ctx = sw_xcalloc(cfg.n_endpoints + 1, sizeof(*n_ctx));
	refused = sw_xcalloc(cfg.n_endpoints + 1, sizeof(*refused));
	for (size_t i = 0; i < cfg.n_endpoints; i++) {
		const struct sw_llm_endpoint *ep = &cfg.endpoints[i];
		struct sw_llm_probe p;
		char *what = sw_xasprintf("endpoint %s", ep->name);
		sw_llm_probe(&p, &cfg, ep->name, DOCTOR_TIMEOUT_MS);
		health[i] = p.health;
		n_ctx[i] = p.have_info ? p.info.n_ctx : 0;
		refused[i] = p.refused;
		if (p.refused)
			check(&rep, "FAIL", what, "%s", p.policy);
		else if (p.health == SW_LLM_READY)
			check(&rep, "ok", what, "%s; ready%s%s", p.policy ? p.policy : "allowed",
			      p.have_info && p.info.model ? ", model " : "",
			      p.have_info && p.info.model ? p.info.model : "");
		else if (p.health == SW_LLM_LOADING || p.health == SW_LLM_NO_SLOT)
			check(&rep, "warn", what, "%s; %s", p.policy ? p.policy : "allowed",
			      sw_llm_health_name(p.health));
		else {
			struct sw_buf b = SW_BUF_INIT;
			sw_buf_addf(&b, "%s%s%s", p.policy ? p.policy : "", p.policy ? "; " : "",
				    p.error ? p.error : sw_llm_health_name(p.health));
			if (p.health == SW_LLM_DOWN)
				next_step(&b, ep, have_st ? &st : NULL);
			check(&rep, "FAIL", what, "%s", b.data);
			sw_buf_release(&b);
		}
		sw_llm_probe_release(&p);
		free(what);
	}
	for (size_t i = 0; i < cfg.n_roles; i++) {
		const struct sw_llm_role *r = &cfg.roles[i];
		char *what = sw_xasprintf("role %s", r->name);
		size_t e = (size_t)(sw_llm_endpoint_find(&cfg, r->endpoint) - cfg.endpoints);
		/* llama-server cuts a prompt longer than a slot's context and
		 * still answers 200: a budget past it would lose text silently. */
		if (health[e] == SW_LLM_READY && n_ctx[e] > 0 && r->context > n_ctx[e])
			check(&rep, "warn", what,
			      "context %ld is more than endpoint %s's %ld tokens per slot: longer"
			      " prompts would be cut by the server; lower context or start the server"
			      " with a larger -c (or fewer -np)",
			      r->context, r->endpoint, n_ctx[e]);
		else if (refused[e])
			check(&rep, r->fallback ? "warn" : "FAIL", what,
			      "endpoint %s is refused by the local-only policy (its line above says how "
			      "to run it locally)%s%s", r->endpoint,
			      r->fallback ? "; it would fall back to " : "", r->fallback ? r->fallback : "");
		else if (health[e] == SW_LLM_READY)
			check(&rep, "ok", what, "endpoint %s is ready%s%s", r->endpoint,
			      r->fallback ? ", local fallback " : "", r->fallback ? r->fallback : "");
		else
			check(&rep, r->fallback ? "warn" : "FAIL", what, "endpoint %s is not ready%s%s",
			      r->endpoint, r->fallback ? "; it would fall back to " : "",
			      r->fallback ? r->fallback : "");
		free(what);
	}
	if (cfg.n_roles == 0)
		check(&rep, "warn", "roles", "no role: 'sworn ask' has nothing to use; give a [fleet] "
		      "model line role=drafter and run 'sworn fleet up', or add a [role] section");
report:
	check_tesseract(&rep);
	check_authorities(&rep, ctx);
	check_matters(&rep, ctx);
	check_disk(&rep, ctx);
	rc = cli_emit(o->json,
		      o->json ? json_pack("{s:b, s:o}", "ok", rep.failed == 0, "checks", rep.checks) : NULL,
		      NULL, NULL, rep.failed ? CLI_NO : CLI_OK);
	free(health);
	free(n_ctx);
	free(refused);
	free(fleet_dir);
	if (have_st)
		sw_fleet_state_release(&st);
	sw_llm_config_release(&cfg);
	return rc;
}

const struct cli_command cli_cmd_doctor = {
	.name = "doctor",
	.usage = "[--json] [--keys]",
	.summary = "check sworn.conf, the endpoints, the roles, OCR, the authority table, each matter's database and free disk",
	.description =
		"Each line is ok, warn or FAIL.  Endpoints are checked on the address actually\n"
		"connected to, as every call is: an endpoint the local-only policy refuses is\n"
		"a FAIL that names the address and how to change the policy.  --keys prints\n"
		"the reference of every configuration key instead, from the tables that\n"
		"check them.  A running fleet's servers and roles are checked with\n"
		"sworn.conf's.  The record side: tesseract and its English language data,\n"
		"the authority table's age, each matter database's integrity (PRAGMA\n"
		"quick_check, read-only) and the free disk under the workspace.\n\n"
		"Exit status: 0 when nothing failed, 1 when something did.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct doctor_opts),
	.min_pos = 0,
	.max_pos = 0,
	.flags = CLI_NEEDS_WORKSPACE | CLI_OWN_CONF_CHECK,
	.run = run,
};
