/* cmd_task.c - `sworn task list | show NAME | init NAME`: the drafting tasks,
 * built in and the workspace's own. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "pipeline/pipeline.h"

struct task_list_opts {
	bool json;
};
struct task_show_opts {
	bool json;
};
struct task_init_opts {
	bool json, force;
};

static const struct cli_opt list_opts[] = {
	{ "json", 0, NULL, "print the list as JSON", CLI_FLAG,
	  offsetof(struct task_list_opts, json) },
};
static const struct cli_opt show_opts[] = {
	{ "json", 0, NULL, "print the task as JSON", CLI_FLAG,
	  offsetof(struct task_show_opts, json) },
};
static const struct cli_opt init_opts[] = {
	{ "json", 0, NULL, "print the copy made as JSON", CLI_FLAG,
	  offsetof(struct task_init_opts, json) },
	{ "force", 0, NULL, "overwrite the files of an existing tasks/NAME/", CLI_FLAG,
	  offsetof(struct task_init_opts, force) },
};

/* The workspace when there is one where the command runs: tasks work
 * outside one too (then only the built-in ones).  NULL root and 0 when
 * there is none; an error for a workspace that cannot be read. */
static int open_ws(struct cli_ctx *ctx, struct sw_err *err)
{
	if (ctx->have_ws)
		return 0;
	struct sw_err e = { 0 };
	int rc = sw_workspace_open(&ctx->ws, ctx->dir, &e);
	if (rc == 0) {
		ctx->have_ws = true;
		return 0;
	}
	if (rc == SW_ENOTFOUND)
		return 0;
	*err = e;
	return rc;
}

/* ------------------------------------------------------------------ list */

struct listed {
	const struct sw_task_info *v;
	size_t n;
};

static void print_list(FILE *f, const void *ud)
{
	const struct listed *l = ud;
	for (size_t i = 0; i < l->n; i++) {
		const struct sw_task_info *t = &l->v[i];
		const char *where = t->workspace && t->builtin ? "workspace (overrides built-in)" :
				    t->workspace ? "workspace" : "built-in";
		fprintf(f, "%-16s %s  [%s]\n", t->name, t->title, where);
	}
	if (l->n == 0)
		fprintf(f, "no tasks\n");
}

static int task_list(struct cli_ctx *ctx, const struct cli_command *cmd,
		     const struct cli_args *args)
{
	(void)cmd;
	const struct task_list_opts *o = args->opts;
	struct sw_err err = { 0 };
	struct sw_task_info *v = NULL;
	size_t n = 0;
	if (open_ws(ctx, &err) != 0 ||
	    sw_task_list(&v, &n, ctx->have_ws ? ctx->ws.root : NULL, &err) != 0)
		return cli_fail(&err);
	json_t *doc = NULL;
	if (o->json) {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_pack("{s:o, s:o, s:b, s:b}",
				"name", sw_json_str(v[i].name), "title", sw_json_str(v[i].title),
				"builtin", v[i].builtin, "workspace", v[i].workspace));
		doc = json_pack("{s:o}", "tasks", a);
	}
	struct listed l = { v, n };
	int rc = cli_emit(o->json, doc, print_list, &l, CLI_OK);
	sw_task_info_free(v, n);
	return rc;
}

/* ------------------------------------------------------------------ show */

/* The placeholders a template reads, each once, in order of first use. */
struct reads {
	char names[48][SW_ARRAY_LEN("step.") + 64 + 1];
	size_t n;
};

static int note_read(void *ud, const char *name, size_t len, int line)
{
	(void)line;
	struct reads *r = ud;
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->names[i]) == len && memcmp(r->names[i], name, len) == 0)
			return 0;
	if (r->n < SW_ARRAY_LEN(r->names) && len < sizeof(r->names[0]))
		snprintf(r->names[r->n++], sizeof(r->names[0]), "%.*s", (int)len, name);
	return 0;
}

static void reads_of(struct reads *r, const struct sw_task_step *s)
{
	r->n = 0;
	if (s->template_text && sw_tmpl_each(s->template_text, note_read, r) != 0)
		r->n = 0; /* the loader already refused a malformed template */
}

static json_t *str_list(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, sw_json_str(v[i]));
	return a;
}

static json_t *opt_str(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

static json_t *step_json(const struct sw_task_step *s)
{
	struct reads r;
	reads_of(&r, s);
	json_t *reads = json_array();
	for (size_t i = 0; i < r.n; i++)
		json_array_append_new(reads, sw_json_str(r.names[i]));
	json_t *j = json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:s}",
		"name", sw_json_str(s->name), "kind", s->kind == SW_STEP_JOIN ? "join" : "model",
		"role", opt_str(s->role), "template", opt_str(s->template_name),
		"after", str_list(s->after, s->n_after), "reads", reads,
		"evidence", str_list(s->evidence, s->n_evidence),
		"output", s->output == SW_OUT_JSON ? "json" : "text");
	json_object_set_new(j, "topic", opt_str(s->topic));
	json_object_set_new(j, "evidence_pages",
			    s->n_evidence ? json_integer(s->evidence_pages) : json_null());
	json_t *schema = s->schema ? json_loads(s->schema, 0, NULL) : NULL;
	json_object_set_new(j, "schema", schema ? schema : json_null());
	json_object_set_new(j, "max_tokens", s->max_tokens ? json_integer(s->max_tokens) :
			    json_null());
	json_object_set_new(j, "fan_out", opt_str(s->fan_out));
	json_object_set_new(j, "fan_key", opt_str(s->fan_key));
	json_object_set_new(j, "join", opt_str(s->join));
	json_object_set_new(j, "separator", opt_str(s->separator));
	json_object_set_new(j, "line", json_integer(s->line));
	return j;
}

static json_t *task_json(const struct sw_task *t)
{
	json_t *steps = json_array();
	for (size_t i = 0; i < t->n_steps; i++)
		json_array_append_new(steps, step_json(&t->steps[i]));
	return json_pack("{s:o, s:o, s:o, s:o, s:s, s:i, s:o, s:o, s:o, s:o}",
		"name", sw_json_str(t->name), "title", sw_json_str(t->title),
		"summary", opt_str(t->summary), "source", sw_json_str(t->source),
		"sha256", t->sha256, "rounds", (int)t->rounds, "draft", sw_json_str(t->draft_step),
		"steps", steps, "review", step_json(&t->review), "revise", step_json(&t->revise));
}

static void print_list_line(FILE *f, const char *label, char *const *v, size_t n)
{
	fprintf(f, "       %-10s ", label);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", v[i]);
	fputc('\n', f);
}

static void print_step(FILE *f, const char *head, const struct sw_task_step *s)
{
	if (s->kind == SW_STEP_JOIN) {
		fprintf(f, "%s%s  join of '%s' (no model), separated by ", head, s->name, s->join);
		for (const char *p = s->separator; *p; p++)
			if (*p == '\n' || *p == '\t')
				fputs(*p == '\n' ? "\\n" : "\\t", f);
			else
				fputc(*p, f);
		fputc('\n', f);
		return;
	}
	fprintf(f, "%s%s  role %s, template %s\n", head, s->name, s->role, s->template_name);
	struct reads r;
	reads_of(&r, s);
	fprintf(f, "       %-10s ", "reads");
	for (size_t i = 0; i < r.n; i++)
		fprintf(f, "%s%s", i ? ", " : "", r.names[i]);
	fputc('\n', f);
	if (s->n_after)
		print_list_line(f, "after", s->after, s->n_after);
	if (s->fan_out)
		fprintf(f, "       %-10s one instance per item of %s%s%s\n", "fan-out", s->fan_out,
			s->fan_key ? "." : "", s->fan_key ? s->fan_key : "");
	if (s->n_evidence) {
		fprintf(f, "       %-10s queries from ", "evidence");
		for (size_t i = 0; i < s->n_evidence; i++)
			fprintf(f, "%s%s", i ? ", " : "", s->evidence[i]);
		if (s->topic)
			fprintf(f, " (topic: %s)", s->topic);
		fprintf(f, "; %u pages at most\n", s->evidence_pages);
	} else if (s->name && strcmp(s->name, "revise") != 0 && strcmp(s->name, "review") != 0) {
		fprintf(f, "       %-10s none\n", "evidence");
	}
	fprintf(f, "       %-10s %s", "output",
		s->output == SW_OUT_JSON ? "json (schema)" : "text");
	if (s->max_tokens)
		fprintf(f, ", %ld tokens at most", s->max_tokens);
	fputc('\n', f);
}

static void print_task(FILE *f, const void *ud)
{
	const struct sw_task *t = ud;
	fprintf(f, "%s: %s\n", t->name, t->title);
	if (t->summary)
		fprintf(f, "%s\n", t->summary);
	fprintf(f, "source: %s\nsha256: %s\nfirst draft: step '%s'; verify -> revise rounds: %u\n",
		t->source, t->sha256, t->draft_step, t->rounds);
	fprintf(f, "steps, in order:\n");
	for (size_t i = 0; i < t->n_steps; i++) {
		char head[32];
		snprintf(head, sizeof(head), "  %2zu. ", i + 1);
		print_step(f, head, &t->steps[i]);
	}
	fprintf(f, "then:\n");
	print_step(f, "      ", &t->review);
	print_step(f, "      ", &t->revise);
	fprintf(f, "      verify: every claim of the draft against the record; blocked claims go "
		"back to revise\n");
}

static int task_show(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct task_show_opts *o = a->opts;
	const char *name = a->pos[0];
	struct sw_err err = { 0 };
	struct sw_task *t = NULL;
	if (open_ws(ctx, &err) != 0 ||
	    sw_task_load(&t, ctx->have_ws ? ctx->ws.root : NULL, name, &err) != 0)
		return cli_fail(&err);
	int rc = cli_emit(o->json, o->json ? task_json(t) : NULL, print_task, t, CLI_OK);
	sw_task_free(t);
	return rc;
}

/* ------------------------------------------------------------------ init */

static int task_init(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct task_init_opts *o = a->opts;
	const char *name = a->pos[0];
	struct sw_err err = { 0 };
	if (open_ws(ctx, &err) != 0)
		return cli_fail(&err);
	if (!ctx->have_ws) {
		cli_error("task init needs a workspace: run it inside one (or give -C DIR), "
			  "or create one with 'sworn init DIR'");
		return CLI_USAGE;
	}
	char *dir = NULL;
	if (sw_task_init(&dir, ctx->ws.root, name, o->force, &err) != 0)
		return cli_fail(&err);
	int rc = CLI_OK;
	if (o->json)
		rc = cli_emit(true, json_pack("{s:o, s:o}", "task", sw_json_str(name), "dir",
					      sw_json_str(dir)), NULL, NULL, CLI_OK);
	else
		printf("copied task '%s' to %s\nnext: edit its task.ini and templates there; "
		       "sworn task show %s checks them\n", name, dir, name);
	free(dir);
	return rc;
}

static const struct cli_subcommand sub_list = {
	.name = "list",
	.usage = "[--json]",
	.summary = "the tasks, built in and the workspace's own",
	.opts = list_opts,
	.nopts = SW_ARRAY_LEN(list_opts),
	.opts_size = sizeof(struct task_list_opts),
	.max_pos = 0,
	.run = task_list,
};

static const struct cli_subcommand sub_show = {
	.name = "show",
	.usage = "NAME [--json]",
	.summary = "load and check a task, and print its steps in order",
	.opts = show_opts,
	.nopts = SW_ARRAY_LEN(show_opts),
	.opts_size = sizeof(struct task_show_opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = task_show,
};

static const struct cli_subcommand sub_init = {
	.name = "init",
	.usage = "NAME [--force] [--json]",
	.summary = "copy a built-in task into the workspace's tasks/NAME/ to edit",
	.opts = init_opts,
	.nopts = SW_ARRAY_LEN(init_opts),
	.opts_size = sizeof(struct task_init_opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = task_init,
};

static const struct cli_subcommand *const subs[] = { &sub_list, &sub_show, &sub_init };

const struct cli_command cli_cmd_task = {
	.name = "task",
	.summary = "list the drafting tasks, show one's steps, or copy a built-in one to edit",
	.description = "A task is a folder: task.ini (its steps), system.md and prompt templates.\n"
		       "The built-in tasks (declaration, motion-section, demand-letter,\n"
		       "chronology) are part of the binary; a workspace's own tasks/NAME/\n"
		       "folder, next to sworn.conf, overrides the built-in task of that name.\n\n"
		       "show loads and checks the task (every key, step order, placeholders,\n"
		       "schemas) and prints its steps in order: role, template, what each\n"
		       "reads, evidence queries, output form, fan-out and join, then the\n"
		       "review and the revision.  init copies a built-in task into the\n"
		       "workspace's tasks/NAME/ to edit; it needs a workspace.",
	.flags = 0,
	.subs = subs,
	.nsubs = SW_ARRAY_LEN(subs),
};
