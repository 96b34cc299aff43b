/* cmd_ingest.c - `sworn ingest -m MATTER PATH...`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "ingest/ingest.h"

struct ingest_opts {
	const char *matter, *labels, *origin, *accept, *reason;
	bool verbose, json, no_ocr, replace, no_wait;
	long long ocr_pages;
	double ocr_seconds;
};

#define AT(f) offsetof(struct ingest_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the matter to import into", CLI_STRING, AT(matter) },
	{ "labels", 0, "FILE", "a CSV of label,target naming documents (Ex. 12,ACME0000123)",
	  CLI_PATH, AT(labels) },
	{ "origin", 0, "ORIGIN", "evidence (default), model, human or template", CLI_STRING,
	  AT(origin), .values = "evidence model human template" },
	{ "verbose", 'v', NULL, "also list every document imported or skipped", CLI_FLAG,
	  AT(verbose) },
	{ "json", 0, NULL, "print the summary and every event as JSON", CLI_FLAG, AT(json) },
	{ "no-ocr", 0, NULL, "keep image-only PDF pages without text instead of reading them by OCR",
	  CLI_FLAG, AT(no_ocr) },
	{ "ocr-pages", 0, "N",
	  "read at most N pages by OCR in this import (0: no limit; sworn.conf [ingest] ocr_pages)",
	  CLI_INT, AT(ocr_pages), 0, 1e12 },
	{ "ocr-seconds", 0, "S",
	  "spend at most S seconds on OCR in this import (0: no limit; [ingest] ocr_seconds)",
	  CLI_DOUBLE, AT(ocr_seconds), 0, 1e9 },
	{ "replace", 0, NULL,
	  "a corrected re-production: each document replaces the one with its BEGBATES (or name)",
	  CLI_FLAG, AT(replace) },
	{ "no-wait", 0, NULL,
	  "when another import into the matter is running, exit 2 instead of waiting for it",
	  CLI_FLAG, AT(no_wait) },
	{ "accept-quarantined", 0, "DOC",
	  "accept the quarantined document DOC (id, name or BEGBATES) as evidence", CLI_STRING,
	  AT(accept) },
	{ "reason", 0, "TEXT", "why, for --accept-quarantined (required, recorded)", CLI_STRING,
	  AT(reason) },
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
	[SW_INGEST_QUARANTINED] = "quarantined",
	[SW_INGEST_REPLACED] = "replaced",
	[SW_INGEST_NOTE] = "note",
	[SW_INGEST_RECLASSIFIED] = "reclassified",
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
	/* --quiet: failures and quarantines only (errors still print). */
	if (cli_globals.quiet && (ev == SW_INGEST_WARNING || ev == SW_INGEST_NOTE))
		return;
	/* what and msg name a production's files and quote its fields:
	 * cleaned of control sequences (base.h). */
	if (ev == SW_INGEST_FAILED || ev == SW_INGEST_WARNING || ev == SW_INGEST_QUARANTINED ||
	    ev == SW_INGEST_NOTE)
		sw_term_printf(stderr, "%-8s %s: %s\n", event_names[ev], what, msg);
	else if (r->verbose || ev == SW_INGEST_REPLACED || ev == SW_INGEST_RECLASSIFIED) {
		sw_term_printf(stdout, "%-8s %s: %s\n", event_names[ev], what, msg);
		/* A line at a time, as the import commits: a log read after a
		 * crash lists what was kept. */
		fflush(stdout);
	}
}

/* The human override of the provenance firewall. */
static int accept_quarantined(struct cli_ctx *ctx, const struct cli_args *a, const char *doc)
{
	const struct ingest_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	const char *reason = o->reason;
	int64_t id = 0;

	if (a->npos) {
		cli_error("--accept-quarantined takes no paths: import and accept separately");
		return CLI_USAGE;
	}
	if (!reason || !*reason) {
		cli_error("--accept-quarantined needs --reason \"why this is evidence\"");
		return CLI_USAGE;
	}
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0 ||
	    sw_record_accept_quarantined(&id, m, doc, reason, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	json_t *out = NULL;
	if (o->json)
		out = json_pack("{s:o, s:I, s:s, s:o}", "matter", sw_json_str(sw_matter_name(m)),
				"accepted", (json_int_t)id, "status", "active", "reason",
				sw_json_str(reason));
	else
		printf("accepted document %lld (%s) as evidence; the decision and its reason are recorded\n",
		       (long long)id, doc);
	sw_matter_close(m);
	return cli_emit(o->json, out, NULL, NULL, CLI_OK);
}

/* The OCR budget: sworn.conf's [ingest], then the flags. */
static int ocr_budget(struct sw_ingest_opts *o, const struct cli_ctx *ctx,
		      const struct cli_args *a, struct sw_err *err)
{
	const struct ingest_opts *opt = a->opts;
	if (sw_ingest_conf_load(o, &ctx->ws.config, err) != 0)
		return err->code;
	for (size_t i = 0; i < SW_ARRAY_LEN(opts); i++) {
		if (!a->set[i])
			continue;
		if (!strcmp(opts[i].name, "ocr-pages"))
			o->ocr_max_pages = (uint64_t)opt->ocr_pages;
		else if (!strcmp(opts[i].name, "ocr-seconds"))
			o->ocr_max_seconds = opt->ocr_seconds;
	}
	return 0;
}

/* What the OCR budget left unread and how to go on, on stderr (and in the
 * JSON document). */
static void budget_message(const struct sw_ingest_opts *o, const struct sw_ingest_summary *sum,
			   json_t *doc)
{
	char limit[64];
	if (sum->ocr_by_time)
		snprintf(limit, sizeof(limit), "%g seconds", o->ocr_max_seconds);
	else
		snprintf(limit, sizeof(limit), "%llu pages", (unsigned long long)o->ocr_max_pages);
	char *msg = sw_xasprintf(
		"OCR budget reached (%s): %llu scanned page(s) kept without text (each document's "
		"warning names where it stopped); to read them, run the same sworn ingest again "
		"with --replace and a larger --ocr-pages/--ocr-seconds (or [ingest] ocr_pages, "
		"ocr_seconds in sworn.conf; 0 is no limit): documents read in full are skipped, "
		"the others read again and replaced",
		limit, (unsigned long long)sum->ocr_unread);
	if (doc)
		json_object_set_new(doc, "ocr_budget", sw_json_str(msg));
	else
		fprintf(stderr, "%s\n", msg);
	free(msg);
}

/* The production QC report, named when the volumes imported have
 * findings (on stdout, or in the JSON document). */
static void qc_message(const struct sw_ingest_summary *sum, const char *matter, json_t *doc)
{
	char *cmd = sum->qc_volumes == 1
			    ? sw_xasprintf("sworn matter qc -m %s %s", matter, sum->qc_volume)
			    : sw_xasprintf("sworn matter qc -m %s", matter);
	if (doc) {
		json_object_set_new(doc, "qc_findings", json_integer((json_int_t)sum->qc_findings));
		json_object_set_new(doc, "qc_report", sw_json_str(cmd));
	} else if (sum->qc_volumes == 1) {
		sw_term_printf(stdout,
			       "production QC: %llu problem(s) in %s for the producing party;"
			       " the report: %s\n",
			       (unsigned long long)sum->qc_findings, sum->qc_volume, cmd);
	} else {
		sw_term_printf(stdout, "production QC: %llu problem(s) in %llu volumes for the"
			       " producing party; the report: %s\n",
			       (unsigned long long)sum->qc_findings,
			       (unsigned long long)sum->qc_volumes, cmd);
	}
	free(cmd);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd,
	       const struct cli_args *a)
{
	(void)cmd;
	const struct ingest_opts *opt = a->opts;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_ingest_summary sum;
	struct report rep = { .verbose = opt->verbose };
	struct sw_ingest_opts o = {
		.origin = SW_ORIGIN_EVIDENCE,
		.labels_path = opt->labels,
		.report = on_event,
		.user = &rep,
		.progress = !cli_globals.quiet,
		.no_ocr = opt->no_ocr,
		.replace = opt->replace,
		.no_wait = opt->no_wait,
	};
	bool json = opt->json;
	json_t *doc = NULL;
	int rc;

	if (opt->accept)
		return accept_quarantined(ctx, a, opt->accept);
	if (opt->reason) {
		cli_error("--reason goes with --accept-quarantined");
		return CLI_USAGE;
	}
	if (a->npos == 0 && !o.labels_path) {
		cli_error("nothing to import: usage: sworn ingest -m MATTER PATH... [--labels FILE]");
		return CLI_USAGE;
	}
	if (opt->origin && sw_origin_parse(&o.origin, opt->origin, &err) != 0)
		return cli_fail(&err);
	if (ocr_budget(&o, ctx, a, &err) != 0)
		return cli_fail(&err);
	if (cli_matter_open(&m, ctx, opt->matter, &err) != 0)
		return cli_fail(&err);
	if (json)
		rep.events = json_array();
	rc = sw_ingest(&sum, m, (const char *const *)a->pos, (size_t)a->npos, &o, &err);
	if (json) {
		doc = json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:o}",
			"matter", sw_json_str(sw_matter_name(m)),
			"imported", (json_int_t)sum.imported, "skipped", (json_int_t)sum.skipped,
			"failed", (json_int_t)sum.failed, "warnings", (json_int_t)sum.warnings,
			"quarantined", (json_int_t)sum.quarantined,
			"pages", (json_int_t)sum.pages, "ocr_pages", (json_int_t)sum.ocr_pages,
			"labels", (json_int_t)sum.labels,
			"seconds", sum.seconds, "events", rep.events);
		json_object_set_new(doc, "replaced", json_integer((json_int_t)sum.replaced));
		json_object_set_new(doc, "ocr_unread_pages", json_integer((json_int_t)sum.ocr_unread));
		json_object_set_new(doc, "reclassified", json_integer((json_int_t)sum.reclassified));
		if (rc)
			json_object_set_new(doc, "error", sw_json_str(err.msg));
	} else {
		printf("imported %llu, skipped %llu, failed %llu",
		       (unsigned long long)sum.imported, (unsigned long long)sum.skipped,
		       (unsigned long long)sum.failed);
		if (sum.quarantined)
			printf(", quarantined %llu", (unsigned long long)sum.quarantined);
		if (sum.replaced)
			printf(", replaced %llu", (unsigned long long)sum.replaced);
		if (sum.reclassified)
			printf(", reclassified %llu", (unsigned long long)sum.reclassified);
		printf(" (%llu pages", (unsigned long long)sum.pages);
		if (sum.ocr_pages)
			printf(", %llu by OCR", (unsigned long long)sum.ocr_pages);
		if (sum.labels)
			printf(", %llu labels", (unsigned long long)sum.labels);
		if (sum.warnings && !sum.qc_findings)
			printf(", %llu warnings", (unsigned long long)sum.warnings);
		printf(") in %.1f s\n", sum.seconds);
	}
	if (sum.qc_findings)
		qc_message(&sum, sw_matter_name(m), doc);
	if (sum.ocr_unread)
		budget_message(&o, &sum, json ? doc : NULL);
	sw_matter_close(m);
	int code = cli_emit(json, doc, NULL, NULL, sum.failed ? CLI_USAGE : CLI_OK);
	return rc ? cli_fail(&err) : code;
}

const struct cli_command cli_cmd_ingest = {
	.name = "ingest",
	.usage = "-m MATTER [--labels FILE] [--origin ORIGIN] [--no-ocr] [--ocr-pages N] [--ocr-seconds S]"
		 " [--replace] [--no-wait] PATH... |"
		 " -m MATTER --accept-quarantined DOC --reason TEXT",
	.summary = "import files and folders (text, Markdown, PDF, .eml, .msg, .docx, .DAT/.OPT load files) into a matter",
	.description =
		"Folders are read recursively.  A .DAT load file brings in each row's\n"
		"TEXTPATH text, split into pages on form feeds, page i numbered BEGBATES+i\n"
		"(or as the .OPT beside it says).  Text files carry Bates numbers stamped at\n"
		"the head or foot of each page.  Each document is stored in one transaction\n"
		"with its original kept by SHA-256; importing the same content again is a\n"
		"no-op.  A bad file is reported on one line and the import goes on.\n\n"
		"PDFs give one page per page; pages without a text layer (scans) are read\n"
		"by OCR (tesseract, one page per core), unless --no-ocr.  So are the page\n"
		"images (TIFF, JPEG, PNG, PDF) an .OPT lists for a row with no text: an\n"
		"image-only production keeps each page's Bates number from the .OPT.\n"
		"--ocr-pages and --ocr-seconds (or [ingest] ocr_pages, ocr_seconds in\n"
		"sworn.conf) bound the OCR of one import; pages past the budget are kept\n"
		"without text and the summary says how to read them later.  An e-mail's\n"
		"(.eml, or Outlook's .msg) attachments become documents of their own,\n"
		"linked to the message.\n\n"
		"The provenance firewall: every document imported with --origin model is\n"
		"fingerprinted for the whole workspace.  Evidence that matches a model\n"
		"output of any matter is stored quarantined, named in the output with the\n"
		"output it matches, and kept out of search and evidence until accepted\n"
		"with --accept-quarantined DOC --reason TEXT.\n\n"
		"--replace takes a corrected re-production: a document whose content is\n"
		"new replaces the live one with its BEGBATES (unnumbered: its file name),\n"
		"which is removed as `sworn matter rm` does, with an audit entry.\n\n"
		"One import runs at a time in a matter: a second one says so and waits\n"
		"for the first to end (--no-wait: exits 2 instead).\n\n"
		"Exit status: 0 when every input was imported or already there, 2 when some\n"
		"input failed (the rest is stored).",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct ingest_opts),
	.min_pos = 0,
	.max_pos = -1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
