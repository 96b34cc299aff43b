/* cli.c - what every command calls down into: errors, output, the matter
 * to use, the global options.  Option parsing and help by table are
 * cli_parse.c; the command table that calls the commands is cli_table.c:
 * no file here both dispatches and hosts helpers its callees call. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "fleet/fleet.h"
#include "ingest/ingest.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"

int cli_exit_code(int code)
{
	switch (code) {
	case 0: return CLI_OK;
	/* A refusal by the local-only policy is the command's "no".  A thing
	 * that is not there (a file, the workspace, a matter, a run, a role)
	 * is an input error like any other: a command whose answer is "none"
	 * (no hits, no such case) returns CLI_NO itself. */
	case SW_EPOLICY: return CLI_NO;
	default: return CLI_USAGE;
	}
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("sworn: ", stderr);
	/* A message may quote a matter's name, a file's or a document's: never
	 * a terminal's control sequence. */
	va_start(ap, fmt);
	sw_term_vprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_fail(const struct sw_err *err)
{
	cli_error("%s", err->msg[0] ? err->msg : sw_err_name(err->code));
	return cli_exit_code(err->code ? err->code : SW_EIO);
}

json_t *cli_json_stamp(void)
{
	return json_pack("{s:{s:s, s:s}, s:i}", "sworn", "version", SW_VERSION, "commit",
			 cli_build_commit, "schema", CLI_JSON_SCHEMA);
}

static int emit(bool json, json_t *doc, void (*text)(FILE *f, const void *ud),
		const void *ud, int code, bool clean)
{
	struct sw_err err = { 0 };
	int rc = code;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = NULL;
	if (!json && text && clean && (mem = open_memstream(&buf, &len)) != NULL) {
		text(mem, ud);
		if (fclose(mem) == 0)
			sw_term_write(stdout, buf, len);
		free(buf);
	} else if (json) {
		if (!doc)
			SW_BUG("cli_emit: --json without a document");
		/* A new object, stamp first, so that the stamp leads the
		 * document and the caller's tree is not touched (cli.h). */
		json_t *out = json_is_object(doc) ? cli_json_stamp() : json_incref(doc);
		if (out != doc && json_object_update_missing(out, doc) != 0)
			SW_BUG("cli_emit: cannot stamp the document");
		if (sw_json_print(stdout, out, &err) != 0)
			rc = cli_fail(&err);
		json_decref(out);
	} else if (text) {
		text(stdout, ud);
	}
	json_decref(doc);
	return rc;
}

int cli_emit(bool json, json_t *doc, void (*text)(FILE *f, const void *ud),
	     const void *ud, int code)
{
	return emit(json, doc, text, ud, code, true);
}

int cli_emit_styled(bool json, json_t *doc, void (*text)(FILE *f, const void *ud),
		    const void *ud, int code)
{
	return emit(json, doc, text, ud, code, false);
}

/* matters/.default: not a matter's name (sw_matter_name_valid refuses the
 * dot), so no matter's folder can take its place. */
static char *default_path(const struct cli_ctx *ctx)
{
	return sw_xasprintf("%s/matters/.default", ctx->ws.root);
}

int cli_default_matter(char **out, const char **from, struct cli_ctx *ctx, struct sw_err *err)
{
	*out = NULL;
	*from = NULL;
	const char *env = getenv("SWORN_MATTER");
	if (env && *env) {
		*out = sw_xstrdup(env);
		*from = "SWORN_MATTER";
		return 0;
	}
	if (!ctx->have_ws)
		return 0;
	char *path = default_path(ctx);
	struct sw_buf b = SW_BUF_INIT;
	int rc = 0;
	if (sw_path_is_file(path)) {
		/* A name is short: anything longer is no name of ours. */
		if ((rc = sw_file_read(&b, path, 4096, err)) == 0) {
			while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == '\r'))
				b.data[--b.len] = '\0';
			if (!sw_matter_name_valid(b.data))
				rc = sw_err_set(err, SW_EINPUT, "%s holds no matter name: set one with "
						"'sworn matter use NAME'", path);
			else {
				*out = sw_buf_detach(&b, NULL);
				*from = "sworn matter use";
			}
		}
	}
	sw_buf_release(&b);
	free(path);
	return rc;
}

int cli_matter_use(struct cli_ctx *ctx, const char *name, struct sw_err *err)
{
	struct sw_matter *m = NULL;
	int rc = sw_matter_open(&m, &ctx->ws, name, err);
	sw_matter_close(m);
	if (rc != 0)
		return rc;
	char *path = default_path(ctx);
	char *line = sw_xasprintf("%s\n", name);
	rc = sw_file_write_atomic(path, line, strlen(line), err);
	free(line);
	free(path);
	return rc;
}

int cli_matter_open(struct sw_matter **out, struct cli_ctx *ctx, const char *name,
		    struct sw_err *err)
{
	char *dflt = NULL;
	const char *from = NULL;
	int rc;
	*out = NULL;
	if (!name) {
		if ((rc = cli_default_matter(&dflt, &from, ctx, err)) != 0)
			return rc;
		name = dflt;
	}
	if (!name)
		return sw_err_set(err, SW_EUSAGE, "which matter? pass -m MATTER, set SWORN_MATTER, or "
				  "pick one with 'sworn matter use NAME' ('sworn matter list' shows them)");
	rc = sw_matter_open(out, &ctx->ws, name, err);
	if (rc == 0 && (rc = sw_run_journal_open(*out, err)) != 0) {
		sw_matter_close(*out);
		*out = NULL;
	}
	if (rc != 0 && from) {
		/* Say where a name the user did not type came from. */
		char msg[sizeof(err->msg)];
		snprintf(msg, sizeof(msg), "%s", err->msg);
		sw_err_set(err, rc, "%s (the matter named by %s)", msg, from);
	}
	free(dflt);
	return rc;
}

struct cli_globals cli_globals = { .colour = CLI_COLOUR_AUTO };

bool cli_colour(void)
{
	switch (cli_globals.colour) {
	case CLI_COLOUR_ALWAYS: return true;
	case CLI_COLOUR_NEVER: return false;
	case CLI_COLOUR_AUTO: break;
	}
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

int cli_parse_colour(enum cli_colour_mode *out, const char *v, struct sw_err *err)
{
	static const char *const names[] = { "auto", "always", "never" };
	for (size_t i = 0; i < SW_ARRAY_LEN(names); i++)
		if (strcmp(v, names[i]) == 0) {
			*out = (enum cli_colour_mode)i;
			return 0;
		}
	return sw_err_set(err, SW_EUSAGE, "bad --color '%s': give auto, always or never", v);
}

int cli_parse_global(int argc, char **argv, struct sw_err *err)
{
	const char *a = argv[0];
	if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
		cli_globals.quiet = true;
		return 1;
	}
	if (strncmp(a, "--color=", 8) == 0 || strncmp(a, "--colour=", 9) == 0) {
		int e = cli_parse_colour(&cli_globals.colour, strchr(a, '=') + 1, err);
		return e != 0 ? e : 1;
	}
	if (strcmp(a, "--color") == 0 || strcmp(a, "--colour") == 0) {
		if (argc < 2)
			return sw_err_set(err, SW_EUSAGE, "option --color needs a value (auto, always or never)");
		int e = cli_parse_colour(&cli_globals.colour, argv[1], err);
		return e != 0 ? e : 2;
	}
	return 0;
}

void cli_human_bytes(char *out, size_t outsz, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;
	while (v >= 1024 && u + 1 < SW_ARRAY_LEN(units)) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(out, outsz, "%llu B", (unsigned long long)bytes);
	else
		snprintf(out, outsz, "%.1f %s", v, units[u]);
}

const char cli_tagline[] = "sworn checks legal drafts against the record, locally.";

/* main.c parses these by hand (they come before the command); the table is
 * what usage, the man page and the completion script show. */
const struct cli_opt cli_global_opts[] = {
	{ NULL, 'C', "DIR", "run as if started in DIR (the workspace is found from there)", CLI_PATH },
	{ "version", 0, NULL, "print the version, build and libraries (sworn version)", CLI_FLAG },
	{ "help", 'h', NULL, "list the commands", CLI_FLAG },
	{ "color", 0, "WHEN", "colour the output: auto (a terminal, NO_COLOR unset), always or never",
	  CLI_STRING, .values = "auto always never" },
	{ "quiet", 'q', NULL, "no progress, hints or summaries on stderr (errors still print)",
	  CLI_FLAG },
};
const size_t cli_nglobal_opts = SW_ARRAY_LEN(cli_global_opts);

/* Each subsystem reads only its own sections of sworn.conf. */
const struct sw_config_schema *const cli_conf_schemas[] = {
	&sw_llm_config_schema,
	&sw_fleet_conf_schema,
	&sw_judge_conf_schema,
	&sw_ingest_conf_schema,
	&sw_person_conf_schema,
};
const size_t cli_nconf_schemas = SW_ARRAY_LEN(cli_conf_schemas);

int cli_read_stdin(struct sw_buf *out, size_t max, const char *what, struct sw_err *err)
{
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
		if (out->len + n > max)
			return sw_err_set(err, SW_ELIMIT,
					  "%s on standard input is over the %zu-byte "
					  "limit",
					  what, max);
		sw_buf_add(out, chunk, n);
	}
	if (ferror(stdin))
		return sw_err_set(err, SW_EIO, "cannot read %s from standard input", what);
	return 0;
}
