/* server_caps.c - what a llama-server build accepts, read from its own
 * --version and --help, so that the commands sworn prints and runs use only
 * flags that build knows. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define CAPS_TIMEOUT_MS 15000      /* --help initialises the GPU backends */
#define CAPS_MAX_BYTES (1u << 20)

const char sw_fleet_server_min_build[] =
	"llama.cpp b6327 (August 2025) or newer for '-fa on', and a build whose --help "
	"lists --fit (December 2025 or newer) for '--fit off'";

/* The line of text holding the option name opt as a whole word (not a
 * prefix of a longer option), or NULL. */
static const char *option_line(const char *text, const char *opt, size_t *len)
{
	size_t n = strlen(opt);
	for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
		bool start = p == text || p[-1] == ' ' || p[-1] == ',' || p[-1] == '\t' ||
			     p[-1] == '\n';
		char after = p[n];
		if (!start || after == '-' || isalnum((unsigned char)after))
			continue;
		const char *b = p;
		while (b > text && b[-1] != '\n')
			b--;
		*len = strcspn(b, "\n");
		return b;
	}
	return NULL;
}

static bool line_has(const char *line, size_t len, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(line + i, what, n) == 0)
			return true;
	return false;
}

void sw_fleet_server_caps_parse(struct sw_fleet_server_caps *out, const char *version,
				const char *help)
{
	memset(out, 0, sizeof(*out));
	out->build = -1;
	const char *v = version ? strstr(version, "version: ") : NULL;
	if (v) {
		size_t len = strcspn(v, "\r\n");
		snprintf(out->version, sizeof(out->version), "%.*s",
			 (int)(len < sizeof(out->version) ? len : sizeof(out->version) - 1), v);
		const char *d = v + strlen("version: ");
		if (isdigit((unsigned char)*d)) {
			size_t dn = strspn(d, "0123456789");
			if (dn > 9)
				dn = 9;
			out->build = 0;
			for (size_t i = 0; i < dn; i++)
				out->build = out->build * 10 + (d[i] - '0');
		}
	}
	if (!help || !*help)
		return;
	size_t len = 0;
	const char *fa = option_line(help, "--flash-attn", &len);
	if (!fa)
		return; /* not a llama-server --help */
	out->known = true;
	out->fa_value = line_has(fa, len, "auto") || line_has(fa, len, "on|off");
	out->fit = option_line(help, "--fit", &len) != NULL;
	out->api_key_file = option_line(help, "--api-key-file", &len) != NULL;
	out->cors_origins = option_line(help, "--cors-origins", &len) != NULL;
	out->no_cors_credentials = option_line(help, "--no-cors-credentials", &len) != NULL;
	if (option_line(help, "--no-webui", &len))
		snprintf(out->no_webui, sizeof(out->no_webui), "--no-webui");
	else if (option_line(help, "--no-ui", &len))
		snprintf(out->no_webui, sizeof(out->no_webui), "--no-ui");
	out->reasoning = option_line(help, "--reasoning", &len) != NULL;
	/* Older builds took only -1 or 0 ("currently only one of: ..."). */
	const char *rb = option_line(help, "--reasoning-budget", &len);
	out->reasoning_budget = rb && !line_has(rb, len, "only one of");
}

/* One clause of the access line, after a "; " when one came before. */
static void clause(struct sw_buf *out, const char *text)
{
	sw_buf_addf(out, "%s%s", out->len ? "; " : "", text);
}

void sw_fleet_server_caps_access(struct sw_buf *out, const struct sw_fleet_server_caps *caps)
{
	sw_buf_reset(out);
	if (!caps->known) {
		clause(out, "unknown (the server's --help was not read): no API key, CORS or "
			    "web UI flag passed");
		return;
	}
	clause(out, caps->api_key_file ? "API key (fleet/" SW_FLEET_KEY_FILE ")"
				       : "this build has no --api-key-file: anything that reaches "
					 "its port may use it");
	if (!caps->cors_origins)
		clause(out, "this build has no --cors-origins: a web page in a browser here may "
			    "read its answers");
	else if (caps->no_cors_credentials)
		clause(out, "browsers refused (--cors-origins " SW_FLEET_CORS_NONE
			    ", --no-cors-credentials)");
	else
		clause(out, "browsers refused (--cors-origins " SW_FLEET_CORS_NONE ")");
	if (caps->no_webui[0])
		sw_buf_addf(out, "; web UI off (%s)", caps->no_webui);
	else
		clause(out, "this build has no --no-webui: its web chat is on");
}

int sw_fleet_server_caps_read(struct sw_fleet_server_caps *out, const char *server,
			      struct sw_err *err)
{
	struct sw_buf ver = SW_BUF_INIT, help = SW_BUF_INIT;
	/* llama-server prints both on stderr. */
	const char *va[] = { "/bin/sh", "-c", "exec \"$0\" --version 2>&1", server, NULL };
	const char *ha[] = { "/bin/sh", "-c", "exec \"$0\" --help 2>&1", server, NULL };
	struct sw_proc_spec vs = { .argv = va }, hs = { .argv = ha };
	int code = 0, rc;
	memset(out, 0, sizeof(*out));
	out->build = -1;
	rc = sw_proc_capture(&ver, &code, &vs, CAPS_MAX_BYTES, CAPS_TIMEOUT_MS, err);
	if (rc == 0 && code == 127)
		rc = sw_err_set(err, SW_ENOTFOUND, "cannot run %s", server);
	if (rc == 0)
		rc = sw_proc_capture(&help, &code, &hs, CAPS_MAX_BYTES, CAPS_TIMEOUT_MS, err);
	if (rc == 0) {
		sw_fleet_server_caps_parse(out, ver.data, help.data);
		if (!out->known)
			rc = sw_err_set(err, SW_EINPUT, "%s --help does not list --flash-attn: not a "
					"llama-server?", server);
	}
	sw_buf_release(&ver);
	sw_buf_release(&help);
	return rc;
}

void sw_fleet_server_caps_note(struct sw_buf *out, const struct sw_fleet_server_caps *caps,
			       const char *server)
{
	if (!caps || !caps->known) {
		sw_buf_addf(out, "server   %s was not read (give --server PATH to fit the commands "
			    "to your build); the commands below need %s\n", server,
			    sw_fleet_server_min_build);
		return;
	}
	sw_buf_addf(out, "server   %s %s: %s, %s\n", server,
		    caps->version[0] ? caps->version : "(no version line)",
		    caps->fa_value ? "-fa on" : "a bare -fa (this build takes no on|off)",
		    caps->fit ? "--fit off" : "no --fit (this build has none)");
}
