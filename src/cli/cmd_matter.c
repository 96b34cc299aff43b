/* cmd_matter.c - `sworn matter new NAME | list | audit -m MATTER | set -m MATTER
 * KEY=VALUE | get -m MATTER KEY`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_signoff.h"

/* new, list and use take --json only; audit, set and get a matter too.
 * docs, rm (cmd_matter_docs.c) and qc (cmd_matter_qc.c) have their own. */
struct json_opts {
	bool json;
};
struct one_opts {
	const char *matter;
	bool json;
};

static const struct cli_opt new_opts[] = {
	{ "json", 0, NULL, "print the matter made and its folder as JSON", CLI_FLAG,
	  offsetof(struct json_opts, json) },
};
static const struct cli_opt list_opts[] = {
	{ "json", 0, NULL, "print the list as JSON", CLI_FLAG, offsetof(struct json_opts, json) },
};
static const struct cli_opt use_opts[] = {
	{ "json", 0, NULL, "print the default matter and where it comes from as JSON", CLI_FLAG,
	  offsetof(struct json_opts, json) },
};
static const struct cli_opt audit_opts[] = {
	{ "matter", 'm', "MATTER", "the matter to audit", CLI_STRING,
	  offsetof(struct one_opts, matter) },
	{ "json", 0, NULL, "print the audit as JSON", CLI_FLAG, offsetof(struct one_opts, json) },
};
static const struct cli_opt set_opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose setting to set", CLI_STRING,
	  offsetof(struct one_opts, matter) },
	{ "json", 0, NULL, "print the setting made as JSON", CLI_FLAG,
	  offsetof(struct one_opts, json) },
};
static const struct cli_opt get_opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose setting to get", CLI_STRING,
	  offsetof(struct one_opts, matter) },
	{ "json", 0, NULL, "print the setting as JSON", CLI_FLAG, offsetof(struct one_opts, json) },
};

static void print_created(FILE *f, const void *ud)
{
	fprintf(f, "created matter '%s'\n", (const char *)ud);
	if (!cli_globals.quiet)
		fprintf(f, "next: sworn ingest -m %s PATH... (or 'sworn matter use %s' to drop -m)\n",
			(const char *)ud, (const char *)ud);
}

static int matter_new(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct json_opts *o = a->opts;
	struct sw_err err = { 0 };
	if (sw_matter_create(&ctx->ws, a->pos[0], &err) != 0)
		return cli_fail(&err);
	json_t *doc = NULL;
	if (o->json) {
		char *dir = sw_xasprintf("%s/matters/%s", ctx->ws.root, a->pos[0]);
		doc = json_pack("{s:o, s:o}", "matter", sw_json_str(a->pos[0]), "dir",
				sw_json_str(dir));
		free(dir);
	}
	return cli_emit(o->json, doc, print_created, a->pos[0], CLI_OK);
}

struct used {
	const char *name, *from;
};

static void print_used(FILE *f, const void *ud)
{
	const struct used *u = ud;
	if (!u->name)
		fputs("no default matter: pass -m MATTER, set SWORN_MATTER, or 'sworn matter use NAME'\n", f);
	else
		fprintf(f, "%s (from %s)\n", u->name, u->from);
}

/* use NAME: store the default; use: show it and where it comes from. */
static int matter_use(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct json_opts *o = a->opts;
	const char *name = a->npos ? a->pos[0] : NULL;
	struct sw_err err = { 0 };
	char *cur = NULL;
	struct used u = { name, "sworn matter use" };
	if (name && cli_matter_use(ctx, name, &err) != 0)
		return cli_fail(&err);
	if (!name) {
		if (cli_default_matter(&cur, &u.from, ctx, &err) != 0)
			return cli_fail(&err);
		u.name = cur;
	}
	json_t *doc = o->json ? json_pack("{s:o, s:o}", "matter", u.name ? sw_json_str(u.name) : json_null(),
					  "from", u.from ? sw_json_str(u.from) : json_null())
			      : NULL;
	int rc = cli_emit(o->json, doc, print_used, &u, CLI_OK);
	if (name && !o->json && getenv("SWORN_MATTER") && *getenv("SWORN_MATTER"))
		cli_error("note: SWORN_MATTER=%s is set and comes first", getenv("SWORN_MATTER"));
	free(cur);
	return rc;
}

static json_t *stats_json(const struct sw_matter_stats *s)
{
	json_t *ranges = json_array();
	for (size_t i = 0; i < s->nranges; i++) {
		const struct sw_bates_range *r = &s->ranges[i];
		json_array_append_new(ranges, json_pack("{s:o, s:o, s:o, s:I, s:I, s:I}",
			"prefix", sw_json_str(r->prefix), "first", sw_json_str(r->first),
			"last", sw_json_str(r->last), "pages", (json_int_t)r->pages,
			"gaps", (json_int_t)r->gaps, "duplicates", (json_int_t)r->dups));
	}
	return json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
			 "name", sw_json_str(s->name), "documents", (json_int_t)s->documents,
			 "pages", (json_int_t)s->pages, "quarantined", (json_int_t)s->quarantined,
			 "transcripts", (json_int_t)s->transcripts, "labels", (json_int_t)s->labels,
			 "bytes", (json_int_t)s->bytes, "bates", ranges);
}

static void print_stats(FILE *f, const void *ud)
{
	const struct sw_matter_stats *s = ud;
	char size[32];
	cli_human_bytes(size, sizeof(size), s->bytes);
	sw_term_printf(f, "%-20s %7llu docs %9llu pages %10s", s->name,
	        (unsigned long long)s->documents, (unsigned long long)s->pages, size);
	if (s->transcripts)
		sw_term_printf(f, "  %llu transcript(s)", (unsigned long long)s->transcripts);
	if (s->labels)
		sw_term_printf(f, "  %llu label(s)", (unsigned long long)s->labels);
	if (s->quarantined)
		sw_term_printf(f, "  %llu quarantined", (unsigned long long)s->quarantined);
	fputc('\n', f);
	for (size_t i = 0; i < s->nranges; i++) {
		const struct sw_bates_range *r = &s->ranges[i];
		sw_term_printf(f, "    Bates %s\u2013%s  %llu page(s)", r->first, r->last,
		        (unsigned long long)r->pages);
		if (r->gaps)
			sw_term_printf(f, ", %llu missing", (unsigned long long)r->gaps);
		if (r->dups)
			sw_term_printf(f, ", %llu duplicated", (unsigned long long)r->dups);
		fputc('\n', f);
	}
}

static int matter_list(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct json_opts *o = a->opts;
	struct sw_err err = { 0 };
	char **names = NULL;
	size_t n = 0;
	int rc = CLI_OK;
	bool json = o->json;
	json_t *all = json ? json_array() : NULL;

	if (sw_matter_list(&names, &n, &ctx->ws, &err) != 0) {
		json_decref(all);
		return cli_fail(&err);
	}
	if (n == 0 && !json)
		printf("no matters yet: create one with 'sworn matter new NAME'\n");
	for (size_t i = 0; i < n; i++) {
		struct sw_matter *m = NULL;
		struct sw_matter_stats s;
		if (sw_matter_open(&m, &ctx->ws, names[i], &err) != 0 ||
		    sw_matter_stats(&s, m, &err) != 0) {
			rc = cli_fail(&err);
			sw_matter_close(m);
			continue;
		}
		if (json)
			json_array_append_new(all, stats_json(&s));
		else
			print_stats(stdout, &s);
		sw_matter_stats_release(&s);
		sw_matter_close(m);
	}
	rc = cli_emit(json, json ? json_pack("{s:o}", "matters", all) : NULL, NULL, NULL, rc);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static json_t *audit_json(const char *matter, const struct sw_audit *au)
{
	json_t *origins = json_array(), *docs = json_array(), *decisions = json_array();
	for (size_t i = 0; i < au->norigins; i++) {
		const struct sw_audit_origin *o = &au->origins[i];
		json_array_append_new(origins, json_pack("{s:o, s:o, s:I, s:I}",
			"origin", sw_json_str(o->origin), "status", sw_json_str(o->status),
			"documents", (json_int_t)o->documents, "pages", (json_int_t)o->pages));
	}
	for (size_t i = 0; i < au->ndocs; i++) {
		const struct sw_audit_doc *d = &au->docs[i];
		json_array_append_new(docs, json_pack("{s:I, s:o, s:o, s:o, s:o}",
			"id", (json_int_t)d->id, "name", sw_json_str(d->name),
			"kind", sw_json_str(d->kind), "origin", sw_json_str(d->origin),
			"status", sw_json_str(d->status)));
	}
	for (size_t i = 0; i < au->ndecisions; i++) {
		const struct sw_audit_decision *d = &au->decisions[i];
		json_t *j = json_pack("{s:I, s:o, s:o, s:f, s:f, s:o, s:o, s:o}",
			"document_id", (json_int_t)d->doc_id, "document", sw_json_str(d->document),
			"decision", sw_json_str(d->decision), "overlap", d->overlap,
			"contained", d->contained,
			"output_matter", sw_json_str(d->output_matter ? d->output_matter : ""),
			"output", sw_json_str(d->output_name ? d->output_name : ""),
			"decided_at", sw_json_str(d->decided_at));
		json_object_set_new(j, "reason", d->reason ? sw_json_str(d->reason) : json_null());
		json_array_append_new(decisions, j);
	}
	json_t *removals = json_array();
	for (size_t i = 0; i < au->nremovals; i++) {
		const struct sw_audit_removal *r = &au->removals[i];
		json_t *j = json_pack("{s:I, s:o, s:o, s:o, s:o}", "document_id", (json_int_t)r->doc_id,
			"document", sw_json_str(r->document), "prior_status", sw_json_str(r->prior_status),
			"reason", sw_json_str(r->reason), "removed_at", sw_json_str(r->removed_at));
		json_object_set_new(j, "replaced_by", r->replaced_by ?
				    json_integer((json_int_t)r->replaced_by) : json_null());
		json_array_append_new(removals, j);
	}
	json_t *changes = json_array();
	for (size_t i = 0; i < au->nreclasses; i++) {
		const struct sw_audit_reclass *r = &au->reclasses[i];
		json_array_append_new(changes, json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}",
			"document_id", (json_int_t)r->doc_id, "document", sw_json_str(r->document),
			"from", sw_json_str(r->from ? r->from : ""), "to", sw_json_str(r->to ? r->to : ""),
			"at", sw_json_str(r->at ? r->at : ""), "by", sw_json_str(r->by ? r->by : "")));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "matter", sw_json_str(matter),
			 "origins", origins, "documents", docs, "decisions", decisions,
			 "removals", removals, "origin_changes", changes);
}

struct audit_shown {
	const char *matter;
	const struct sw_audit *au;
	const json_t *signoff;
};

static void print_audit(FILE *f, const void *ud)
{
	const char *matter = ((const struct audit_shown *)ud)->matter;
	const struct sw_audit *au = ((const struct audit_shown *)ud)->au;
	sw_term_printf(f, "matter '%s': documents by origin\n", matter);
	if (au->norigins == 0)
		sw_term_printf(f, "  (no documents)\n");
	for (size_t i = 0; i < au->norigins; i++) {
		const struct sw_audit_origin *o = &au->origins[i];
		sw_term_printf(f, "  %-9s %-12s %7llu docs %9llu pages\n", o->origin, o->status,
		        (unsigned long long)o->documents, (unsigned long long)o->pages);
	}
	if (au->ndocs)
		sw_term_printf(f, "not active evidence (%zu):\n", au->ndocs);
	for (size_t i = 0; i < au->ndocs; i++) {
		const struct sw_audit_doc *d = &au->docs[i];
		sw_term_printf(f, "  %-9s %-12s #%lld %s (%s)\n", d->origin, d->status, (long long)d->id,
		        d->name, d->kind);
	}
	sw_term_printf(f, "quarantine decisions (%zu):\n", au->ndecisions);
	for (size_t i = 0; i < au->ndecisions; i++) {
		const struct sw_audit_decision *d = &au->decisions[i];
		sw_term_printf(f, "  %s  %-11s #%lld %s: matches '%s' of matter '%s', overlap %.0f%%, %.0f%% of the output",
		        d->decided_at, d->decision, (long long)d->doc_id, d->document,
		        d->output_name ? d->output_name : "?", d->output_matter ? d->output_matter : "?",
		        d->overlap * 100.0, d->contained * 100.0);
		if (d->reason)
			sw_term_printf(f, "; reason: %s", d->reason);
		fputc('\n', f);
	}
	sw_term_printf(f, "removals (%zu):\n", au->nremovals);
	for (size_t i = 0; i < au->nremovals; i++) {
		const struct sw_audit_removal *r = &au->removals[i];
		sw_term_printf(f, "  %s  removed     #%lld %s (was %s); reason: %s\n", r->removed_at,
		        (long long)r->doc_id, r->document, r->prior_status, r->reason);
	}
	if (au->nreclasses)
		sw_term_printf(f, "origin changes (%zu):\n", au->nreclasses);
	for (size_t i = 0; i < au->nreclasses; i++) {
		const struct sw_audit_reclass *r = &au->reclasses[i];
		sw_term_printf(f, "  %s  %-11s #%lld %s: %s -> %s\n", r->at ? r->at : "?",
		        r->by ? r->by : "?", (long long)r->doc_id, r->document ? r->document : "?",
		        r->from ? r->from : "?", r->to ? r->to : "?");
	}
	cli_signoff_audit_print(f, ((const struct audit_shown *)ud)->signoff);
}

static int matter_audit(struct cli_ctx *ctx, const struct cli_command *cmd,
			const struct cli_args *a)
{
	(void)cmd;
	const struct one_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_audit au;
	json_t *so = NULL;

	if (cli_matter_open(&m, ctx, o->matter, &err) != 0 || sw_matter_audit(&au, m, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	if (cli_signoff_audit(&so, m, &err) != 0) {
		sw_audit_release(&au);
		sw_matter_close(m);
		return cli_fail(&err);
	}
	struct audit_shown shown = { sw_matter_name(m), &au, so };
	json_t *doc = o->json ? audit_json(sw_matter_name(m), &au) : NULL;
	if (doc)
		json_object_set(doc, "signoff", so);
	int rc = cli_emit(o->json, doc, print_audit, &shown, CLI_OK);
	json_decref(so);
	sw_audit_release(&au);
	sw_matter_close(m);
	return rc;
}

/* The settings a matter knows, with the values each takes (the first is
 * the default). */
static const struct setting {
	const char *key;
	const char *const values[3];
} settings[] = {
	{ "corrections.export", { "no", "yes" } },
};

static const struct setting *setting_find(const char *key, size_t len)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(settings); i++)
		if (strlen(settings[i].key) == len && strncmp(settings[i].key, key, len) == 0)
			return &settings[i];
	struct sw_buf known = SW_BUF_INIT;
	for (size_t i = 0; i < SW_ARRAY_LEN(settings); i++)
		sw_buf_addf(&known, "%s%s", i ? ", " : "", settings[i].key);
	cli_error("unknown setting '%.*s': the known ones are %s", (int)len, key, known.data);
	sw_buf_release(&known);
	return NULL;
}

static int matter_set(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct one_opts *o = a->opts;
	const char *kv = a->pos[0];
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	const char *eq = strchr(kv, '=');
	if (!eq) {
		cli_error("usage: sworn matter set -m MATTER KEY=VALUE");
		return CLI_USAGE;
	}
	const struct setting *s = setting_find(kv, (size_t)(eq - kv));
	if (!s)
		return CLI_USAGE;
	const char *value = eq + 1;
	bool ok = false;
	for (size_t i = 0; i < SW_ARRAY_LEN(s->values) && s->values[i]; i++)
		ok = ok || strcmp(s->values[i], value) == 0;
	if (!ok) {
		cli_error("bad value '%s' for %s: give %s or %s", value, s->key, s->values[1],
			  s->values[0]);
		return CLI_USAGE;
	}
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0 ||
	    sw_matter_setting_set(m, s->key, value, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	int rc = CLI_OK;
	if (o->json)
		rc = cli_emit(true, json_pack("{s:o, s:o, s:o}", "matter", sw_json_str(sw_matter_name(m)),
					      "key", sw_json_str(s->key), "value", sw_json_str(value)),
			      NULL, NULL, CLI_OK);
	else
		printf("%s = %s for matter '%s'\n", s->key, value, sw_matter_name(m));
	sw_matter_close(m);
	return rc;
}

struct setting_shown {
	const char *key, *value;
};

static void print_setting(FILE *f, const void *ud)
{
	fprintf(f, "%s\n", ((const struct setting_shown *)ud)->value);
}

static int matter_get(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct one_opts *o = a->opts;
	const char *key = a->pos[0];
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	char *value = NULL;
	const struct setting *s = setting_find(key, strlen(key));
	if (!s)
		return CLI_USAGE;
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0 ||
	    sw_matter_setting_get(&value, m, s->key, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	/* Not set: the default, said as such under --json. */
	struct setting_shown shown = { s->key, value ? value : s->values[0] };
	int rc = cli_emit(o->json, o->json ? json_pack("{s:s, s:o, s:b}", "key", s->key, "value",
						       sw_json_str(shown.value), "default",
						       value == NULL) : NULL,
			  print_setting, &shown, CLI_OK);
	free(value);
	sw_matter_close(m);
	return rc;
}

static const struct cli_subcommand sub_new = {
	.name = "new",
	.usage = "NAME [--json]",
	.summary = "create a matter: its database and folder of originals",
	.opts = new_opts,
	.nopts = SW_ARRAY_LEN(new_opts),
	.opts_size = sizeof(struct json_opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = matter_new,
};

static const struct cli_subcommand sub_list = {
	.name = "list",
	.usage = "[--json]",
	.summary = "every matter with its documents, pages, size and Bates ranges",
	.opts = list_opts,
	.nopts = SW_ARRAY_LEN(list_opts),
	.opts_size = sizeof(struct json_opts),
	.max_pos = 0,
	.run = matter_list,
};

static const struct cli_subcommand sub_audit = {
	.name = "audit",
	.usage = "-m MATTER [--json]",
	.summary = "documents by origin, quarantine decisions, removals and sign-off",
	.opts = audit_opts,
	.nopts = SW_ARRAY_LEN(audit_opts),
	.opts_size = sizeof(struct one_opts),
	.max_pos = 0,
	.run = matter_audit,
};

static const struct cli_subcommand sub_set = {
	.name = "set",
	.usage = "-m MATTER KEY=VALUE [--json]",
	.summary = "set one of the matter's settings (corrections.export=yes|no)",
	.opts = set_opts,
	.nopts = SW_ARRAY_LEN(set_opts),
	.opts_size = sizeof(struct one_opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = matter_set,
};

static const struct cli_subcommand sub_get = {
	.name = "get",
	.usage = "-m MATTER KEY [--json]",
	.summary = "print one of the matter's settings, or its default",
	.opts = get_opts,
	.nopts = SW_ARRAY_LEN(get_opts),
	.opts_size = sizeof(struct one_opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = matter_get,
};

static const struct cli_subcommand sub_use = {
	.name = "use",
	.usage = "[NAME] [--json]",
	.summary = "make NAME the workspace's default matter, or show the default",
	.opts = use_opts,
	.nopts = SW_ARRAY_LEN(use_opts),
	.opts_size = sizeof(struct json_opts),
	.max_pos = 1,
	.run = matter_use,
};

static const struct cli_subcommand *const subs[] = {
	&sub_new,	    &sub_list, &sub_audit,	   &sub_set, &sub_get, &cli_sub_matter_docs,
	&cli_sub_matter_rm, &sub_use,  &cli_sub_matter_qc,
};

const struct cli_command cli_cmd_matter = {
	.name = "matter",
	.summary = "create a matter, list the matters, audit a matter's origins and quarantine,"
		   " or set and get its settings",
	.description =
		"Each matter is its own database (matters/NAME/matter.db) and folder of\n"
		"originals (matters/NAME/files/): no command ever reads two matters at once.\n\n"
		"audit lists a matter's documents by origin (evidence, model, human,\n"
		"template) and status, every document that is not active evidence, and\n"
		"every quarantine decision of the provenance firewall, with the model\n"
		"output matched, the overlap, and the reason of each human acceptance.\n\n"
		"docs lists every document: id, origin, status (active, quarantined,\n"
		"removed), kind, pages, Bates range, name and source, and, when a load\n"
		"file gave them, its date, custodian and title on a line under it\n"
		"(--fields picks columns instead: --fields id,bates,sent,from,to,title;\n"
		"--json gives every field as \"metadata\").  rm DOC (an id,\n"
		"name or BEGBATES) takes a document and its attachments out of search\n"
		"and evidence; the original stays in files/ and audit lists the removal\n"
		"with its reason.\n\n"
		"qc reports the load-file volumes imported (all, or those named by\n"
		"folder or .DAT name): Bates gaps and overlaps, duplicates, DAT and OPT\n"
		"that disagree, missing text, images and natives, page counts that do\n"
		"not match, dates that are not dates, text that needed a fallback\n"
		"encoding, broken families and rows that could not be read, each with\n"
		"its DAT line and Bates numbers and what the producing party should\n"
		"fix, and the totals (documents, pages, natives, images, text\n"
		"coverage).  The import keeps what it found; nothing is read again.\n"
		"--format csv or html for the deficiency letter.\n\n"
		"use NAME makes NAME the workspace's default matter (matters/.default):\n"
		"every command that takes -m uses it when -m is not given, unless\n"
		"SWORN_MATTER names another.  use alone shows the default and its source.\n\n"
		"set and get a matter's settings.  The one there is:\n"
		"corrections.export=yes|no (default no): whether sworn corrections\n"
		"export may write the matter's corrections out for fine-tuning.",
	.flags = CLI_NEEDS_WORKSPACE,
	.subs = subs,
	.nsubs = SW_ARRAY_LEN(subs),
};
