/* cmd_ingest.c - `sworn ingest -m MATTER PATH...`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"

static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter to import into" },
	{ "labels", 0, "FILE", "a CSV of label,target naming documents (Ex. 12,ACME0000123)" },
	{ "origin", 0, "ORIGIN", "evidence (default), model, human or template" },
	{ "verbose", 'v', NULL, "also list every document imported or skipped" },
	{ "json", 0, NULL, "print the summary and every event as JSON" },
};

struct report {
	bool verbose;
	json_t *events; /* with --json */
};

static const char *const event_names[] = {
	[SW_INGEST_IMPORTED] = "imported",
	[SW_INGEST_SKIPPED] = "skipped",
	[SW_INGEST_FAILED] = "failed",
	[SW_INGEST_WARNING] = "warning",
};

static void on_event(void *user, enum sw_ingest_event ev, const char *what,
		     const char *msg)
{
	struct report *r = user;
	if (r->events) {
		json_array_append_new(r->events, json_pack("{s:s, s:o, s:o}",
			"event", event_names[ev], "what", sw_json_str(what),
			"message", sw_json_str(msg)));
		return;
	}
	if (ev == SW_INGEST_FAILED || ev == SW_INGEST_WARNING)
		fprintf(stderr, "%-8s %s: %s\n", event_names[ev], what, msg);
	else if (r->verbose)
		printf("%-8s %s: %s\n", event_names[ev], what, msg);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd,
	       const struct cli_args *a)
{
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_ingest_summary sum;
	struct report rep = { .verbose = cli_flag(cmd, a, "verbose") };
	struct sw_ingest_opts o = {
		.origin = SW_ORIGIN_EVIDENCE,
		.labels_path = cli_value(cmd, a, "labels"),
		.report = on_event,
		.user = &rep,
		.progress = true,
	};
	bool json = cli_flag(cmd, a, "json");
	int rc;

	if (a->npos == 0 && !o.labels_path) {
		cli_error("nothing to import: usage: sworn ingest -m MATTER PATH... [--labels FILE]");
		return CLI_USAGE;
	}
	const char *origin = cli_value(cmd, a, "origin");
	if (origin && sw_origin_parse(&o.origin, origin, &err) != 0)
		return cli_fail(&err);
	if (cli_open_matter(&m, ctx, cmd, a, &err) != 0)
		return cli_fail(&err);
	if (json)
		rep.events = json_array();
	rc = sw_ingest(&sum, m, (const char *const *)a->pos, (size_t)a->npos, &o, &err);
	if (json) {
		json_t *doc = json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:o}",
			"matter", sw_json_str(sw_matter_name(m)),
			"imported", (json_int_t)sum.imported, "skipped", (json_int_t)sum.skipped,
			"failed", (json_int_t)sum.failed, "warnings", (json_int_t)sum.warnings,
			"pages", (json_int_t)sum.pages, "labels", (json_int_t)sum.labels,
			"seconds", sum.seconds, "events", rep.events);
		if (rc)
			json_object_set_new(doc, "error", sw_json_str(err.msg));
		(void)sw_json_print(stdout, doc, NULL);
		json_decref(doc);
	} else {
		printf("imported %llu, skipped %llu, failed %llu (%llu pages",
		       (unsigned long long)sum.imported, (unsigned long long)sum.skipped,
		       (unsigned long long)sum.failed, (unsigned long long)sum.pages);
		if (sum.labels)
			printf(", %llu labels", (unsigned long long)sum.labels);
		if (sum.warnings)
			printf(", %llu warnings", (unsigned long long)sum.warnings);
		printf(") in %.1f s\n", sum.seconds);
	}
	sw_matter_close(m);
	if (rc)
		return cli_fail(&err);
	return sum.failed ? CLI_USAGE : CLI_OK;
}

const struct cli_command cli_cmd_ingest = {
	.name = "ingest",
	.usage = "-m MATTER [--labels FILE] [--origin ORIGIN] PATH...",
	.summary = "import files and folders (text, Markdown, .DAT/.OPT load files) into a matter",
	.description =
		"Folders are read recursively.  A .DAT load file brings in each row's\n"
		"TEXTPATH text, split into pages on form feeds, page i numbered BEGBATES+i\n"
		"(or as the .OPT beside it says).  Text files carry Bates numbers stamped at\n"
		"the head or foot of each page.  Each document is stored in one transaction\n"
		"with its original kept by SHA-256; importing the same content again is a\n"
		"no-op.  A bad file is reported on one line and the import goes on.\n\n"
		"Exit status: 0 when every input was imported or already there, 2 when some\n"
		"input failed (the rest is stored).",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.min_pos = 0,
	.max_pos = -1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
