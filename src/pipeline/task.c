/* task.c - a task's task.ini: its schema, loading and the checks that make a
 * task runnable (steps in order, inputs that exist, fillable placeholders,
 * valid JSON Schemas). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pipeline/pipeline.h"
#include "pipeline/pipeline_int.h"

#define DEFAULT_PAGES 12
#define DEFAULT_ROUNDS 3

/* ------------------------------------------------------------------ schema */

static void list_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* "a, b ,c" into a list of trimmed names; empty items are refused. */
static int set_list(char ***out, size_t *n, const struct sw_config_entry *e, struct sw_err *err)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	const char *p = e->value;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0 || cnt >= SW_TASK_MAX_STEPS) {
			list_free(v, cnt);
			if (len == 0)
				return sw_err_set(err, SW_EINPUT, "bad %s '%s': expected names "
						  "separated by commas", e->key, e->value);
			return sw_err_set(err, SW_ELIMIT, "%s: more than %d names", e->key,
					  SW_TASK_MAX_STEPS);
		}
		v = sw_xgrow(v, &cap, cnt + 1, sizeof(*v));
		v[cnt++] = sw_xstrndup(p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (*out)
		list_free(*out, *n);
	*out = v;
	*n = cnt;
	return 0;
}

static int set_after(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	(void)user;
	struct sw_task_step *s = obj;
	return set_list(&s->after, &s->n_after, e, err);
}

static int set_evidence(void *obj, const struct sw_config_entry *e, void *user,
			struct sw_err *err)
{
	(void)user;
	struct sw_task_step *s = obj;
	return set_list(&s->evidence, &s->n_evidence, e, err);
}

/* The separator of a join: \n, \t and \\ are escapes (an INI value is
 * trimmed, so a blank line must be written "\n\n"). */
static int set_separator(void *obj, const struct sw_config_entry *e, void *user,
			 struct sw_err *err)
{
	(void)user;
	struct sw_task_step *s = obj;
	struct sw_buf b = SW_BUF_INIT;
	for (const char *p = e->value; *p; p++) {
		if (*p != '\\') {
			sw_buf_addc(&b, *p);
			continue;
		}
		char c = p[1];
		if (c != 'n' && c != 't' && c != '\\') {
			sw_buf_release(&b);
			return sw_err_set(err, SW_EINPUT, "bad separator '%s': the escapes are "
					  "\\n, \\t and \\\\", e->value);
		}
		sw_buf_addc(&b, c == 'n' ? '\n' : c == 't' ? '\t' : '\\');
		p++;
	}
	free(s->separator);
	s->separator = sw_buf_detach(&b, NULL);
	return 0;
}

static const char *const output_names[] = { "text", "json", NULL };

#define STEP(m) SW_CONFIG_AT(struct sw_task_step, m)
#define TASK(m) SW_CONFIG_AT(struct sw_task, m)

static const struct sw_config_section sections[] = {
	{ "task", false, "what the task is and how many verify -> revise rounds it gets" },
	{ "step", true, "one drafting step, [step \"NAME\"], in an order where what a step "
			"reads comes first" },
	{ "review", false, "the adversarial review of the first draft (JSON findings)" },
	{ "revise", false, "the revision with the review's findings and the verifier's reasons" },
	{ "verify", false, "how the gate reads the task's output: uncited facts, record support" },
	{ "element", true, "an element the output must have, [element \"NAME\"]" },
};

static const char *const uncited_names[] = { "warn", "block", "off", NULL };

static int set_match(void *target, const struct sw_config_entry *e, void *user,
		     struct sw_err *err)
{
	(void)user;
	(void)err;
	struct sw_verify_element *el = target;
	free((char *)el->match);
	el->match = sw_xstrdup(e->value);
	return 0;
}

static const struct sw_config_key keys[] = {
	{ "task", "title", SW_CONFIG_STRING, TASK(title), .help = "one line" },
	{ "task", "summary", SW_CONFIG_STRING, TASK(summary), .help = "a paragraph" },
	{ "task", "rounds", SW_CONFIG_INT, TASK(rounds), 1, 10,
	  .help = "verify -> revise rounds at most (default 3)" },
	{ "task", "draft", SW_CONFIG_STRING, TASK(draft_step),
	  .help = "the step whose output is the first draft (default: the last)" },
	{ "step", "role", SW_CONFIG_STRING, STEP(role), .help = "a role of sworn.conf" },
	{ "step", "template", SW_CONFIG_STRING, STEP(template_name),
	  .help = "the prompt template, a file of the task" },
	{ "step", "after", SW_CONFIG_CUSTOM, .set = set_after, .expect = "step names",
	  .help = "earlier steps whose outputs it reads ({{step.NAME}}), by commas" },
	{ "step", "fan_out", SW_CONFIG_STRING, STEP(fan_out),
	  .help = "an earlier json step: one instance per item of its list" },
	{ "step", "fan_key", SW_CONFIG_STRING, STEP(fan_key),
	  .help = "the list's key in that step's object (none: a top-level array)" },
	{ "step", "evidence", SW_CONFIG_CUSTOM, .set = set_evidence,
	  .expect = "brief, item, topic or step names",
	  .help = "what the evidence queries are built from, by commas (none: no bundle)" },
	{ "step", "topic", SW_CONFIG_STRING, STEP(topic), .help = "query words of the step's own" },
	{ "step", "evidence_pages", SW_CONFIG_INT, STEP(evidence_pages), 1, SW_BUNDLE_MAX_PAGES,
	  .help = "pages at most in the bundle (default 12)" },
	{ "step", "output", SW_CONFIG_ENUM, STEP(output), .choices = output_names,
	  .help = "text, or json under the step's schema" },
	{ "step", "schema", SW_CONFIG_STRING, STEP(schema),
	  .help = "the JSON Schema of a json step, a file of the task" },
	{ "step", "max_tokens", SW_CONFIG_INT, STEP(max_tokens), 1, 1 << 20,
	  .help = "tokens at most in the answer (default: the role's)" },
	{ "step", "join", SW_CONFIG_STRING, STEP(join),
	  .help = "no model: join the outputs of this fanned-out step" },
	{ "step", "separator", SW_CONFIG_CUSTOM, .set = set_separator, .expect = "text",
	  .help = "between joined outputs (default \\n\\n)" },
	{ "review", "role", SW_CONFIG_STRING, STEP(role), .help = "default reviewer" },
	{ "review", "template", SW_CONFIG_STRING, STEP(template_name),
	  .help = "default review.md" },
	{ "review", "schema", SW_CONFIG_STRING, STEP(schema),
	  .help = "the findings' JSON Schema (default review.schema.json)" },
	{ "review", "max_tokens", SW_CONFIG_INT, STEP(max_tokens), 1, 1 << 20,
	  .help = "tokens at most in the answer" },
	{ "verify", "uncited", SW_CONFIG_ENUM, TASK(uncited), .choices = uncited_names,
	  .help = "whether a fact with no citation blocks: warn, block or off" },
	{ "verify", "record", SW_CONFIG_BOOL, TASK(need_record),
	  .help = "whether a draft citing no record at all is blocked" },
	{ "verify", "headings", SW_CONFIG_STRING, TASK(headings),
	  .help = "STEP.FIELD: each item of a fanned-out step must have its FIELD in the draft" },
	{ "element", "match", SW_CONFIG_CUSTOM, .set = set_match, .expect = "phrases",
	  .help = "phrases by '|', one of which the output must hold" },
	{ "revise", "role", SW_CONFIG_STRING, STEP(role), .help = "default reasoner" },
	{ "revise", "template", SW_CONFIG_STRING, STEP(template_name),
	  .help = "default revise.md" },
	{ "revise", "max_tokens", SW_CONFIG_INT, STEP(max_tokens), 1, 1 << 20,
	  .help = "tokens at most in the answer" },
};

static const struct sw_config_schema task_schema = {
	.file = "task.ini",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = true,
};

/* ------------------------------------------------------------ free, find */

static void step_release(struct sw_task_step *s)
{
	free(s->name);
	free(s->role);
	free(s->template_name);
	free(s->template_text);
	list_free(s->after, s->n_after);
	free(s->fan_out);
	free(s->fan_key);
	list_free(s->evidence, s->n_evidence);
	free(s->topic);
	free(s->schema);
	free(s->join);
	free(s->separator);
}

void sw_task_free(struct sw_task *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->title);
	free(t->summary);
	free(t->source);
	free(t->draft_step);
	free(t->system_text);
	for (size_t i = 0; i < t->n_steps; i++)
		step_release(&t->steps[i]);
	free(t->steps);
	step_release(&t->review);
	step_release(&t->revise);
	for (size_t i = 0; i < t->nelements; i++) {
		free((char *)t->elements[i].name);
		free((char *)t->elements[i].match);
	}
	free(t->elements);
	free(t->headings);
	free(t);
}

int sw_task_verify_opts(struct sw_verify_opts *out, const struct sw_task *t,
			const struct sw_config *cfg, int cli_mode, struct sw_err *err)
{
	int mode = SW_UNCITED_WARN;
	if (t && t->uncited >= 0)
		mode = t->uncited;
	const char *ws = cfg ? sw_config_get(cfg, "verify", NULL, "uncited") : NULL;
	if (ws) {
		int m = sw_uncited_mode_parse(ws);
		if (m < 0)
			return sw_err_set(err, SW_EINPUT, "sworn.conf: [verify] uncited = %s: "
					  "warn, block or off", ws);
		mode = m;
	}
	if (cli_mode >= 0)
		mode = cli_mode;
	out->uncited = (enum sw_uncited_mode)mode;
	out->elements = t ? t->elements : NULL;
	out->nelements = t ? t->nelements : 0;
	out->need_record = t && t->need_record;
	return 0;
}

const struct sw_task_step *sw_task_step_find(const struct sw_task *t, const char *name)
{
	for (size_t i = 0; t && name && i < t->n_steps; i++)
		if (strcmp(t->steps[i].name, name) == 0)
			return &t->steps[i];
	return NULL;
}

/* The index of step name among the first `before` steps, or -1. */
static long step_index(const struct sw_task *t, const char *name, size_t before)
{
	for (size_t i = 0; i < before && i < t->n_steps; i++)
		if (strcmp(t->steps[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* ---------------------------------------------------------------- loading */

struct loader {
	struct sw_task *t;
	size_t cap;
};

static void *target(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	struct loader *l = user;
	struct sw_task *t = l->t;
	if (strcmp(e->section, "task") == 0)
		return t;
	if (strcmp(e->section, "review") == 0)
		return &t->review;
	if (strcmp(e->section, "revise") == 0)
		return &t->revise;
	if (strcmp(e->section, "verify") == 0)
		return t;
	if (strcmp(e->section, "element") == 0) {
		for (size_t i = 0; i < t->nelements; i++)
			if (strcmp(t->elements[i].name, e->subsection) == 0)
				return &t->elements[i];
		t->elements = sw_xgrow(t->elements, &t->elements_cap, t->nelements + 1,
				       sizeof(*t->elements));
		t->elements[t->nelements] = (struct sw_verify_element){ sw_xstrdup(e->subsection),
									NULL };
		return &t->elements[t->nelements++];
	}
	for (size_t i = 0; i < t->n_steps; i++)
		if (strcmp(t->steps[i].name, e->subsection) == 0)
			return &t->steps[i];
	if (t->n_steps >= SW_TASK_MAX_STEPS) {
		sw_err_set(err, SW_ELIMIT, "more than %d steps", SW_TASK_MAX_STEPS);
		return NULL;
	}
	const char *n = e->subsection;
	size_t len = strlen(n);
	bool ok = len > 0 && len <= SW_TMPL_MAX_NAME;
	for (size_t i = 0; ok && i < len; i++)
		ok = (n[i] >= 'a' && n[i] <= 'z') || (n[i] >= '0' && n[i] <= '9') || n[i] == '_' ||
		     n[i] == '-';
	if (!ok || strcmp(n, "review") == 0 || strcmp(n, "revise") == 0) {
		sw_err_set(err, SW_EINPUT, "bad step name '%s': lower-case letters, digits, "
			   "'_' and '-' (not review or revise)", n);
		return NULL;
	}
	t->steps = sw_xgrow(t->steps, &l->cap, t->n_steps + 1, sizeof(*t->steps));
	struct sw_task_step *s = &t->steps[t->n_steps++];
	memset(s, 0, sizeof(*s));
	s->name = sw_xstrdup(n);
	s->line = e->line;
	return s;
}

/* The line of a key of a step (or of the step) for messages. */
static int key_line(const struct sw_config *cfg, const char *section, const char *sub,
		    const char *key, int fallback)
{
	const struct sw_config_entry *e = sw_config_find(cfg, section, sub, key);
	return e ? e->line : fallback;
}

struct fill_check {
	const struct sw_task *t;
	const struct sw_task_step *s;
};

static const char *fill_lookup(void *ud, const char *name, size_t len, const char **key_out)
{
	const struct fill_check *c = ud;
	*key_out = "";
	return sw__pipeline_task_can_fill(c->t, c->s, name, len) ? "" : NULL;
}

static bool is_name(const char *name, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(name, word, len) == 0;
}

/* Whether the items of fan-out step f's list can have field key: its schema
 * lists the items' properties and key is one, or it does not list them. */
static bool item_has_key(const struct sw_task_step *f, const char *fan_key, const char *key,
			 size_t len)
{
	json_t *root = f && f->schema ? json_loads(f->schema, 0, NULL) : NULL;
	json_t *list = root;
	if (fan_key)
		list = json_object_get(json_object_get(root, "properties"), fan_key);
	json_t *props = json_object_get(json_object_get(list, "items"), "properties");
	bool ok = true;
	if (json_is_object(props)) {
		char k[SW_TMPL_MAX_NAME + 1];
		snprintf(k, sizeof(k), "%.*s", (int)len, key);
		ok = json_object_get(props, k) != NULL;
	}
	json_decref(root);
	return ok;
}

bool sw__pipeline_task_can_fill(const struct sw_task *t, const struct sw_task_step *s, const char *name,
		       size_t len)
{
	bool review = s == &t->review, revise = s == &t->revise;
	if (is_name(name, len, "matter") || is_name(name, len, "task") ||
	    is_name(name, len, "date"))
		return true;
	if (review || revise) {
		if (is_name(name, len, "draft") || is_name(name, len, "round"))
			return true;
		if (revise && (is_name(name, len, "findings") || is_name(name, len, "verifier") ||
			       is_name(name, len, "brief") || is_name(name, len, "evidence")))
			return true;
		return false;
	}
	if (is_name(name, len, "brief"))
		return true;
	if (is_name(name, len, "evidence"))
		return s->n_evidence > 0;
	if (is_name(name, len, "item"))
		return s->fan_out != NULL;
	if (len > 5 && memcmp(name, "item.", 5) == 0) {
		if (!s->fan_out || memchr(name + 5, '.', len - 5))
			return false;
		return item_has_key(sw_task_step_find(t, s->fan_out), s->fan_key, name + 5,
				    len - 5);
	}
	if (len > 5 && memcmp(name, "step.", 5) == 0) {
		for (size_t i = 0; i < s->n_after; i++)
			if (is_name(name + 5, len - 5, s->after[i]))
				return true;
		return false;
	}
	return false;
}

/* A file name of a task: one plain component. */
static bool plain_file(const char *f)
{
	return f[0] && f[0] != '.' && !strchr(f, '/') && !strchr(f, '\\') && strlen(f) <= 128;
}

struct files_hash {
	char *names[2 * SW_TASK_MAX_STEPS + 8];
	size_t n;
};

static void hash_note(struct files_hash *h, const char *f)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->names[i], f) == 0)
			return;
	if (h->n < SW_ARRAY_LEN(h->names))
		h->names[h->n++] = sw_xstrdup(f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read a template or schema of the task for step s, checked. */
static int read_part(char **out, const char *dir, const struct sw_task *t, const char *file,
		     const char *what, int line, struct files_hash *h, struct sw_err *err)
{
	if (!plain_file(file))
		return sw_err_set(err, SW_EINPUT, "task.ini:%d: bad %s '%s': a file name in the "
				  "task's folder", line, what, file);
	struct sw_buf b = SW_BUF_INIT;
	int rc = sw__pipeline_task_read(&b, dir, t->name, file, err);
	if (rc != 0) {
		sw_buf_release(&b);
		return sw_err_wrap(err, rc, "task.ini:%d: %s", line, what);
	}
	if (memchr(b.data, '\0', b.len) || !sw_utf8_valid(b.data, b.len)) {
		sw_buf_release(&b);
		return sw_err_set(err, SW_EINPUT, "%s: not UTF-8 text", file);
	}
	hash_note(h, file);
	*out = sw_buf_detach(&b, NULL);
	return 0;
}

static int check_schema(const char *text, const char *file, struct sw_err *err)
{
	json_error_t je;
	json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		return sw_err_set(err, SW_EINPUT, "%s:%d: not valid JSON: %s", file, je.line,
				  je.text);
	bool ok = json_is_object(j);
	json_decref(j);
	if (!ok)
		return sw_err_set(err, SW_EINPUT, "%s: a JSON Schema is an object", file);
	return 0;
}

/* Read and check one model step's (or review's/revise's) template. */
static int load_template(struct sw_task_step *s, const struct sw_task *t, const char *dir,
			 int line, struct files_hash *h, struct sw_err *err)
{
	int rc = read_part(&s->template_text, dir, t, s->template_name, "template", line, h, err);
	if (rc != 0)
		return rc;
	struct sw_buf scratch = SW_BUF_INIT;
	struct fill_check c = { t, s };
	rc = sw_tmpl_render(&scratch, NULL, NULL, s->template_text, s->template_name, fill_lookup,
			    &c, err);
	sw_buf_release(&scratch);
	if (rc != 0)
		return sw_err_wrap(err, rc, s == &t->review || s == &t->revise ? "[%s]" : "step %s",
				   s->name);
	return 0;
}

static int load_schema(struct sw_task_step *s, const struct sw_task *t, const char *dir,
		       int line, struct files_hash *h, struct sw_err *err)
{
	char *file = s->schema, *text = NULL;
	s->schema = NULL;
	int rc = read_part(&text, dir, t, file, "schema", line, h, err);
	if (rc == 0 && (rc = check_schema(text, file, err)) == 0)
		s->schema = text;
	else
		free(text);
	free(file);
	return rc;
}

#define FAIL(line, fmt, ...) sw_err_set(err, SW_EINPUT, "task.ini:%d: " fmt, (line), __VA_ARGS__)

static int check_step(struct sw_task *t, size_t i, const struct sw_config *cfg, const char *dir,
		      struct files_hash *h, struct sw_err *err)
{
	struct sw_task_step *s = &t->steps[i];
	int ln;
	for (size_t k = 0; k < s->n_after; k++) {
		ln = key_line(cfg, "step", s->name, "after", s->line);
		if (strcmp(s->after[k], s->name) == 0)
			return FAIL(ln, "step '%s' reads itself (after = %s)", s->name, s->name);
		if (step_index(t, s->after[k], i) < 0) {
			if (sw_task_step_find(t, s->after[k]))
				return FAIL(ln, "step '%s': after names '%s', which comes later: "
					    "a step reads only steps above it", s->name,
					    s->after[k]);
			return FAIL(ln, "step '%s': after names '%s', which is not a step",
				    s->name, s->after[k]);
		}
	}
	if (s->join) {
		ln = key_line(cfg, "step", s->name, "join", s->line);
		s->kind = SW_STEP_JOIN;
		if (s->role || s->template_name || s->fan_out || s->n_evidence ||
		    s->output == SW_OUT_JSON || s->schema)
			return FAIL(ln, "step '%s' joins '%s': a join step has no role, template, "
				    "fan_out, evidence, schema or json output", s->name, s->join);
		long j = step_index(t, s->join, i);
		if (j < 0)
			return FAIL(ln, "step '%s': join names '%s', which is not a step above it",
				    s->name, s->join);
		if (!t->steps[j].fan_out)
			return FAIL(ln, "step '%s': join names '%s', which does not fan out",
				    s->name, s->join);
		if (!s->separator)
			s->separator = sw_xstrdup("\n\n");
		return 0;
	}
	s->kind = SW_STEP_MODEL;
	if (s->separator)
		return FAIL(key_line(cfg, "step", s->name, "separator", s->line),
			    "step '%s': separator is for join steps", s->name);
	if (!s->role)
		return FAIL(s->line, "step '%s' needs a role (or join = STEP)", s->name);
	if (!s->template_name)
		return FAIL(s->line, "step '%s' needs a template", s->name);
	if (s->fan_key && !s->fan_out)
		return FAIL(key_line(cfg, "step", s->name, "fan_key", s->line),
			    "step '%s': fan_key without fan_out", s->name);
	if (s->fan_out) {
		ln = key_line(cfg, "step", s->name, "fan_out", s->line);
		long j = step_index(t, s->fan_out, i);
		if (j < 0)
			return FAIL(ln, "step '%s': fan_out names '%s', which is not a step above "
				    "it", s->name, s->fan_out);
		if (t->steps[j].output != SW_OUT_JSON)
			return FAIL(ln, "step '%s': fan_out names '%s', whose output is not json",
				    s->name, s->fan_out);
	}
	ln = key_line(cfg, "step", s->name, "evidence", s->line);
	for (size_t k = 0; k < s->n_evidence; k++) {
		const char *e = s->evidence[k];
		if (strcmp(e, "brief") == 0)
			continue;
		if (strcmp(e, "item") == 0) {
			if (!s->fan_out)
				return FAIL(ln, "step '%s': evidence 'item' needs fan_out",
					    s->name);
			continue;
		}
		if (strcmp(e, "topic") == 0) {
			if (!s->topic)
				return FAIL(ln, "step '%s': evidence 'topic' needs topic = WORDS",
					    s->name);
			continue;
		}
		if (step_index(t, e, i) < 0)
			return FAIL(ln, "step '%s': evidence '%s' is not brief, item, topic or a "
				    "step above it", s->name, e);
	}
	if (!s->evidence_pages)
		s->evidence_pages = DEFAULT_PAGES;
	if (s->output == SW_OUT_JSON && !s->schema)
		return FAIL(key_line(cfg, "step", s->name, "output", s->line),
			    "step '%s': json output needs schema = FILE", s->name);
	if (s->output != SW_OUT_JSON && s->schema)
		return FAIL(key_line(cfg, "step", s->name, "schema", s->line),
			    "step '%s': a schema needs output = json", s->name);
	int rc = load_template(s, t, dir, key_line(cfg, "step", s->name, "template", s->line), h,
			       err);
	if (rc == 0 && s->schema)
		rc = load_schema(s, t, dir, key_line(cfg, "step", s->name, "schema", s->line), h,
				 err);
	return rc;
}

static int check_task(struct sw_task *t, const struct sw_config *cfg, const char *dir,
		      struct files_hash *h, struct sw_err *err)
{
	if (t->n_steps == 0)
		return sw_err_set(err, SW_EINPUT, "task.ini: no [step \"NAME\"] section");
	if (!t->title)
		return sw_err_set(err, SW_EINPUT, "task.ini: [task] needs a title");
	if (!t->rounds)
		t->rounds = DEFAULT_ROUNDS;
	int rc;
	for (size_t i = 0; i < t->n_steps; i++)
		if ((rc = check_step(t, i, cfg, dir, h, err)) != 0)
			return rc;
	int ln = key_line(cfg, "task", NULL, "draft", 1);
	if (!t->draft_step) {
		const struct sw_task_step *last = &t->steps[t->n_steps - 1];
		if (last->fan_out || last->output == SW_OUT_JSON)
			return sw_err_set(err, SW_EINPUT, "task.ini: no draft = STEP, and the last "
					  "step '%s' is not one text (a %s step): join a fan-out, "
					  "or name the draft", last->name,
					  last->fan_out ? "fanned-out" : "json");
		t->draft_step = sw_xstrdup(last->name);
	}
	const struct sw_task_step *d = sw_task_step_find(t, t->draft_step);
	if (!d)
		return FAIL(ln, "draft = %s: not a step", t->draft_step);
	if (d->fan_out || d->output == SW_OUT_JSON)
		return FAIL(ln, "draft = %s: the draft is one text (not a fanned-out or json step; "
			    "join a fan-out first)", t->draft_step);

	t->review.name = sw_xstrdup("review");
	t->review.kind = SW_STEP_MODEL;
	t->review.output = SW_OUT_JSON;
	if (!t->review.role)
		t->review.role = sw_xstrdup("reviewer");
	if (!t->review.template_name)
		t->review.template_name = sw_xstrdup("review.md");
	if (!t->review.schema)
		t->review.schema = sw_xstrdup("review.schema.json");
	t->review.line = key_line(cfg, "review", NULL, "template", 1);
	t->revise.name = sw_xstrdup("revise");
	t->revise.kind = SW_STEP_MODEL;
	if (!t->revise.role)
		t->revise.role = sw_xstrdup("reasoner");
	if (!t->revise.template_name)
		t->revise.template_name = sw_xstrdup("revise.md");
	t->revise.line = key_line(cfg, "revise", NULL, "template", 1);
	if ((rc = load_template(&t->review, t, dir, t->review.line, h, err)) != 0 ||
	    (rc = load_schema(&t->review, t, dir, key_line(cfg, "review", NULL, "schema", 1), h,
			      err)) != 0 ||
	    (rc = load_template(&t->revise, t, dir, t->revise.line, h, err)) != 0)
		return rc;
	struct sw_buf b = SW_BUF_INIT;
	if ((rc = sw__pipeline_task_read(&b, dir, t->name, "system.md", err)) != 0) {
		sw_buf_release(&b);
		return rc;
	}
	hash_note(h, "system.md");
	t->system_text = sw_buf_detach(&b, NULL);
	return 0;
}

/* The hash of every file the task reads: name, length and bytes of each, in
 * name order. */
static int hash_files(struct sw_task *t, const char *dir, struct files_hash *h,
		      struct sw_err *err)
{
	qsort(h->names, h->n, sizeof(h->names[0]), cmp_str);
	struct sw_sha256 sh;
	sw_sha256_init(&sh);
	struct sw_buf b = SW_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < h->n && rc == 0; i++) {
		if ((rc = sw__pipeline_task_read(&b, dir, t->name, h->names[i], err)) != 0)
			break;
		char head[160];
		int n = snprintf(head, sizeof(head), "%s\n%zu\n", h->names[i], b.len);
		sw_sha256_update(&sh, head, (size_t)n);
		sw_sha256_update(&sh, b.data, b.len);
	}
	sw_sha256_final_hex(&sh, t->sha256);
	sw_buf_release(&b);
	return rc;
}

static bool task_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (len == 0 || len > SW_TMPL_MAX_NAME || n[0] == '-' || n[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= '0' && n[i] <= '9') ||
		      n[i] == '-' || n[i] == '_'))
			return false;
	return true;
}

int sw_task_load(struct sw_task **out, const char *ws_root, const char *name,
		 struct sw_err *err)
{
	*out = NULL;
	if (!task_name_ok(name))
		return sw_err_set(err, SW_EUSAGE, "bad task name '%s': lower-case letters, digits, "
				  "'-' and '_'", name);
	char *dir = NULL;
	int rc = sw__pipeline_task_locate(&dir, ws_root, name, err);
	if (rc != 0)
		return rc;
	struct sw_task *t = sw_xcalloc(1, sizeof(*t));
	t->uncited = -1;
	struct loader l = { t, 0 };
	struct sw_config cfg = { 0 };
	struct files_hash h = { .n = 0 };
	struct sw_buf ini = SW_BUF_INIT;
	t->name = sw_xstrdup(name);
	t->source = sw_xstrdup(dir ? dir : "built-in");
	hash_note(&h, "task.ini");
	if ((rc = sw__pipeline_task_read(&ini, dir, name, "task.ini", err)) == 0 &&
	    (rc = sw_config_parse(&cfg, ini.data, ini.len, "task.ini", err)) == 0 &&
	    (rc = sw_config_apply(&task_schema, &cfg, target, &l, err)) == 0 &&
	    (rc = check_task(t, &cfg, dir, &h, err)) == 0)
		rc = hash_files(t, dir, &h, err);
	if (rc != 0) {
		sw_err_wrap(err, rc, "task '%s' (%s)", name, dir ? dir : "built-in");
		sw_task_free(t);
		t = NULL;
	}
	for (size_t i = 0; i < h.n; i++)
		free(h.names[i]);
	sw_config_release(&cfg);
	sw_buf_release(&ini);
	free(dir);
	*out = t;
	return rc;
}
