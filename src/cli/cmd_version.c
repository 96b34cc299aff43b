/* cmd_version.c - `sworn version [--json]` (also `sworn --version`): what
 * this sworn is and what it runs on, for a bug report or an audit.  The
 * library versions are those loaded at run time, not those built against:
 * a Debian update changes them without a rebuild. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>
#include <sqlite3.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "extract/extract.h"

/* Set by CMakeLists.txt; the fallbacks keep a hand-built file compiling. */
#ifndef SW_BUILD_TYPE
#define SW_BUILD_TYPE "unknown"
#endif
#ifndef SW_TESSERACT_SONAME
#define SW_TESSERACT_SONAME "libtesseract.so.5"
#endif
#ifndef SW_REPORTERS_DB_VERSION
#define SW_REPORTERS_DB_VERSION "unknown"
#endif
#ifndef SW_REPORTERS_DB_COMMIT
#define SW_REPORTERS_DB_COMMIT "unknown"
#endif

struct version_opts {
	bool json;
};

static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the versions as JSON", CLI_FLAG,
	  offsetof(struct version_opts, json) },
};

struct versions {
	const char *sqlite, *curl;
	struct sw_extract_libs native; /* empty: not loadable, why in native_error */
	char native_error[SW_ERR_MSG_MAX];
	const char *tesseract; /* NULL: not loadable, why in tess_error */
	char tess_error[200];
};

/* tesseract is loaded with dlopen by extract/ocr.c, never linked, so its
 * version is known only by loading it the same way: a machine without it
 * still runs everything but OCR, and says "not found" here.  As ocr.c does,
 * OMP_THREAD_LIMIT is set first (libgomp reads it once, when loaded), and
 * the library stays loaded. */
static void tesseract_version(struct versions *v)
{
	setenv("OMP_THREAD_LIMIT", "1", 0);
	void *lib = dlopen(SW_TESSERACT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(v->tess_error, sizeof(v->tess_error), "%s", e ? e : SW_TESSERACT_SONAME);
		return;
	}
	/* POSIX guarantees the conversion; the union keeps -Wpedantic quiet. */
	union {
		void *p;
		const char *(*fn)(void);
	} sym = { .p = dlsym(lib, "TessVersion") };
	if (!sym.p) {
		snprintf(v->tess_error, sizeof(v->tess_error), "%s lacks TessVersion",
			 SW_TESSERACT_SONAME);
		return;
	}
	v->tesseract = sym.fn();
}

static void versions_get(struct versions *v)
{
	memset(v, 0, sizeof(*v));
	v->sqlite = sqlite3_libversion();
	v->curl = curl_version_info(CURLVERSION_NOW)->version;
	/* poppler and GMime are linked by the module sworn-extract.so only. */
	struct sw_err err = { 0 };
	if (sw_extract_libs(&v->native, &err) != 0)
		snprintf(v->native_error, sizeof(v->native_error), "%s", err.msg);
	tesseract_version(v);
}

static json_t *lib_json(const char *version)
{
	return version[0] ? sw_json_str(version) : json_null();
}

static json_t *versions_json(const struct versions *v)
{
	return json_pack("{s:s, s:s, s:s, s:{s:s, s:o, s:o, s:o, s:s}, s:{s:s, s:s}}",
		"version", SW_VERSION, "commit", cli_build_commit, "build_type", SW_BUILD_TYPE,
		"libraries", "sqlite", v->sqlite, "poppler", lib_json(v->native.poppler),
		"tesseract", v->tesseract ? sw_json_str(v->tesseract) : json_null(),
		"gmime", lib_json(v->native.gmime), "libcurl", v->curl,
		"reporters_db", "version", SW_REPORTERS_DB_VERSION, "commit", SW_REPORTERS_DB_COMMIT);
}

static void versions_text(FILE *f, const void *ud)
{
	const struct versions *v = ud;
	/* The first line stays "sworn VERSION": scripts read it alone. */
	fprintf(f, "sworn %s\n", SW_VERSION);
	fprintf(f, "  %-13s %s\n", "commit", cli_build_commit);
	fprintf(f, "  %-13s %s\n", "build", SW_BUILD_TYPE);
	fprintf(f, "  %-13s %s\n", "SQLite", v->sqlite);
	if (v->native.poppler[0])
		fprintf(f, "  %-13s %s\n", "poppler", v->native.poppler);
	else
		fprintf(f, "  %-13s not found (%s)\n", "poppler", v->native_error);
	if (v->tesseract)
		fprintf(f, "  %-13s %s\n", "tesseract", v->tesseract);
	else
		fprintf(f, "  %-13s not found (%s; OCR is off)\n", "tesseract", v->tess_error);
	if (v->native.gmime[0])
		fprintf(f, "  %-13s %s\n", "GMime", v->native.gmime);
	else
		fprintf(f, "  %-13s not found (%s)\n", "GMime", v->native_error);
	fprintf(f, "  %-13s %s\n", "libcurl", v->curl);
	fprintf(f, "  %-13s %s (commit %.12s)\n", "reporters-db", SW_REPORTERS_DB_VERSION,
		SW_REPORTERS_DB_COMMIT);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd,
	       const struct cli_args *a)
{
	(void)ctx;
	(void)cmd;
	const struct version_opts *o = a->opts;
	struct versions v;
	versions_get(&v);
	return cli_emit(o->json, o->json ? versions_json(&v) : NULL, versions_text, &v, CLI_OK);
}

const struct cli_command cli_cmd_version = {
	.name = "version",
	.usage = "[--json]",
	.summary = "print the version, build and the libraries sworn runs on",
	.description = "Prints sworn's version, the git commit and build type it was built\n"
		       "with, and the versions of SQLite, poppler, tesseract (loaded only for\n"
		       "OCR: \"not found\" when it cannot be loaded), GMime, libcurl and the\n"
		       "reporters-db data compiled in.  The libraries' versions are those\n"
		       "loaded now (poppler and GMime by sworn's module sworn-extract.so:\n"
		       "\"not found\" when it cannot be loaded).  'sworn --version' is the\n"
		       "same command.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct version_opts),
	.min_pos = 0,
	.max_pos = 0,
	.run = run,
};
