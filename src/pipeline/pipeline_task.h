/* pipeline_task.h - tasks (steps and prompt templates), templates and
 * evidence bundles: what a run is made of and what a model is shown.
 * A part of pipeline/pipeline.h, which includes it: include "pipeline/pipeline.h", never this file. */
#ifndef SW_PIPELINE_TASK_H
#define SW_PIPELINE_TASK_H

#ifndef SW_PIPELINE_H
#error "include pipeline/pipeline.h, not pipeline_task.h"
#endif

/* ------------------------------------------------------------------- tasks */

#define SW_TASK_MAX_STEPS 64
#define SW_TASK_MAX_FILE (256u << 10) /* task.ini, a template or a schema */
#define SW_TASK_MAX_FANOUT 64         /* items of one fan-out */

enum sw_step_kind {
	SW_STEP_MODEL, /* a model call */
	SW_STEP_JOIN,  /* no model: the outputs of a fanned-out step joined */
};

enum sw_step_output {
	SW_OUT_TEXT,
	SW_OUT_JSON, /* the answer must follow the step's JSON Schema */
};

struct sw_task_step {
	char *name;
	enum sw_step_kind kind;
	char *role;             /* model steps: a role of sworn.conf */
	char *template_name;    /* the template's file name in the task */
	char *template_text;    /* its text */
	char **after;           /* the steps whose outputs it reads */
	size_t n_after;
	char *fan_out;          /* one instance per item of this step's JSON
				   list, or NULL */
	char *fan_key;          /* the list's key in that step's JSON object
				   ("sections"), or NULL for a top-level array */
	char **evidence;        /* where the bundle's queries come from:
				   "brief", "item", "topic", or an earlier
				   step's name; none: no bundle */
	size_t n_evidence;
	char *topic;            /* query words of the step's own, or NULL */
	unsigned evidence_pages;/* pages at most in the bundle (default 12) */
	enum sw_step_output output;
	char *schema;           /* the JSON Schema text (output json) */
	long max_tokens;        /* 0: the role's */
	char *join;             /* join steps: the fanned-out step joined */
	char *separator;        /* join steps: between outputs ("\n\n") */
	int line;               /* the section's line in task.ini */
};

struct sw_task {
	char *name;
	char *title;            /* one line */
	char *summary;          /* a paragraph */
	char *source;           /* "built-in" or the workspace folder */
	char sha256[SW_SHA256_HEX_LEN + 1]; /* of every file of the task */
	unsigned rounds;        /* verify -> revise rounds at most (default 3) */
	char *draft_step;       /* the step whose output is the first draft */
	char *system_text;      /* system.md: the system message of every call */
	struct sw_task_step *steps; /* in an order where `after` comes first */
	size_t n_steps;
	struct sw_task_step review; /* [review]: role, template, schema */
	struct sw_task_step revise; /* [revise]: role, template */
	/* [verify]: how the gate reads this task's output.  uncited: the
	 * mode's index (SW_UNCITED_*), -1 when the task leaves it to the
	 * workspace; need_record: a draft citing no record is blocked;
	 * [element "NAME"] match = phrase|phrase: what the output must hold. */
	int uncited;
	bool need_record;
	struct sw_verify_element *elements;
	size_t nelements, elements_cap;
	char *headings;         /* "STEP.FIELD": each fanned-out item's FIELD
				   must stand in the draft (the outline's
				   section titles), or NULL */
};

/* The verify options task t sets (t may be NULL) over the workspace's
 * [verify] uncited of cfg (cfg may be NULL); cli_mode (-1: none) wins over
 * both.  The default: warn.  elements borrowed from t. */
int sw_task_verify_opts(struct sw_verify_opts *out, const struct sw_task *t,
			const struct sw_config *cfg, int cli_mode, struct sw_err *err) SW_MUST_USE;

/* Load task `name`: the workspace's own tasks/NAME/ when ws_root has one,
 * else the built-in one embedded in the binary.  Every key is checked (an
 * unknown one is "task.ini:LINE: unknown key ..."), every step's role,
 * template, after, fan_out and join must name what exists, every
 * {{placeholder}} of a template must be one the step can fill.  Free with
 * sw_task_free. */
int sw_task_load(struct sw_task **out, const char *ws_root, const char *name,
		 struct sw_err *err) SW_MUST_USE;
void sw_task_free(struct sw_task *t);

/* A step of t by name, or NULL. */
const struct sw_task_step *sw_task_step_find(const struct sw_task *t, const char *name);

struct sw_task_info {
	char *name, *title;
	bool builtin;    /* shipped in the binary */
	bool workspace;  /* the workspace has its own tasks/NAME/ (it wins) */
};
/* Every task, built-in and the workspace's, by name.  ws_root may be NULL. */
int sw_task_list(struct sw_task_info **out, size_t *n, const char *ws_root,
		 struct sw_err *err) SW_MUST_USE;
void sw_task_info_free(struct sw_task_info *t, size_t n);

/* Copy built-in task name into ws_root/tasks/NAME/ to edit.  SW_EEXIST when
 * the folder exists (unless force); SW_ENOTFOUND for an unknown task.
 * *out_dir (may be NULL) gets the folder (caller frees). */
int sw_task_init(char **out_dir, const char *ws_root, const char *name, bool force,
		 struct sw_err *err) SW_MUST_USE;

/* --------------------------------------------------------------- templates */

/* A template's text is literal except {{name}} (letters, digits, '_', '.';
 * blanks inside the braces allowed).  The names a step can use: brief,
 * evidence, matter, task, date, item (the fan-out item as JSON), item.KEY
 * (a field of it), step.NAME (an earlier step's output), draft, findings,
 * verifier, round.  Where the rendered prompt holds each placeholder's
 * value is reported, so the context audit can tell the sections apart. */
struct sw_tmpl_span {
	const char *name; /* the placeholder's name (borrowed from the caller's
			     lookup table) */
	size_t start, len; /* in the rendered text */
};

/* lookup: the value of placeholder name[0..len), or NULL when the step
 * cannot fill it (then rendering fails with "TEMPLATE:LINE: {{name}} is
 * not a placeholder here").  *key_out gets a stable name for the span. */
typedef const char *(*sw_tmpl_lookup)(void *ud, const char *name, size_t len,
				      const char **key_out);

int sw_tmpl_render(struct sw_buf *out, struct sw_tmpl_span **spans, size_t *n_spans,
		   const char *tmpl, const char *tmpl_name, sw_tmpl_lookup lookup,
		   void *ud, struct sw_err *err) SW_MUST_USE;

/* Call fn for each placeholder of tmpl (for checks at load time); stops at
 * the first nonzero return, which it returns. */
int sw_tmpl_each(const char *tmpl, int (*fn)(void *ud, const char *name, size_t len, int line),
		 void *ud);

/* ------------------------------------------------------- evidence bundles */

#define SW_BUNDLE_MAX_PAGES 200

/* Counts the tokens of text for the role's server (/tokenize); sets
 * *estimated when it could only estimate.  Returns 0 or SW_E*. */
typedef int (*sw_token_count_fn)(size_t *out, bool *estimated, const char *text, size_t len,
				 void *ud);

/* About a token per 4 bytes of English text, rounded up: the estimate used
 * where no server can count (marked as estimated wherever shown). */
size_t sw_tokens_estimate(const char *text, size_t len);

/* Text in evidence that reads as instructions to a model. */
struct sw_inject_flag {
	int64_t doc_id;
	char *document;
	char *bates;    /* or NULL */
	uint32_t page_no;
	char *kind;     /* "override" (ignore previous instructions...),
			   "role-tag" (<|im_start|>, [INST], "system:"),
			   "fake-system" (a system or developer message),
			   "exfiltrate" (reveal the prompt), "cite" (cite
			   this as...), "verdict" (say the claim is
			   supported), "frame" ("<<<" that would close or
			   open a frame) */
	char *excerpt;  /* the words found, one line, at most 160 bytes */
};

struct sw_bundle_page {
	int64_t page_id, doc_id;
	uint32_t page_no;
	char *document;
	char *bates;        /* or NULL */
	size_t start, len;  /* the framed page's bytes in sw_bundle.text */
	size_t tokens;
	bool estimated;
	double score;       /* bm25 (lower is better) */
};

struct sw_bundle {
	char *text;         /* every page framed, as data, in rank order */
	size_t len;
	struct sw_bundle_page *pages;
	size_t n_pages;
	size_t tokens;      /* of text */
	bool estimated;
	size_t candidates;  /* pages the queries found */
	size_t left_out;    /* found but over the budget or the page limit */
	char **queries;     /* the queries run, as sent to the search */
	size_t n_queries;
	struct sw_inject_flag *flags;
	size_t n_flags;
};

struct sw_bundle_opts {
	const char *const *sources; /* texts to build queries from (the brief,
				       the item, the topic, an outline) */
	size_t n_sources;
	size_t budget_tokens;       /* the most the bundle may take */
	unsigned max_pages;         /* 0: 12 */
	sw_token_count_fn count;    /* NULL: sw_tokens_estimate, estimated */
	void *count_ud;
};

/* Pick record pages for the sources with FTS5/bm25 (record/'s search:
 * evidence only, never quarantined), frame each with its document, Bates
 * number and page, and pack them in rank order within the budget.  Scans
 * each page for injection attempts (flags).  Release with
 * sw_bundle_release.
 *   - Pages a source names by Bates number come first, in the order named;
 *     then the search's, by bm25.
 *   - A page that does not fit what is left of the budget is passed over
 *     (counted in left_out) and smaller ones after it may still enter;
 *     left_out == candidates - n_pages.
 *   - A frame is <<<EVIDENCE document="NAME" bates="B" page="N">>> (bates
 *     left out when the page has none; title="T" date="YYYY-MM-DD"
 *     custodian="C" after page when the document's load file gave them)
 *     ... <<<END EVIDENCE>>>, one after the other; no "<<<" is left inside
 *     a page's text.
 *   - No sources, or no words in them: an empty bundle (text ""), 0. */
int sw_bundle_build(struct sw_bundle *out, struct sw_matter *m,
		    const struct sw_bundle_opts *o, struct sw_err *err) SW_MUST_USE;
void sw_bundle_release(struct sw_bundle *b);

/* Scan one page's text for injection attempts; appends to *flags. */
void sw_inject_scan(struct sw_inject_flag **flags, size_t *n, const char *text, size_t len,
		    int64_t doc_id, const char *document, const char *bates, uint32_t page_no);
void sw_inject_flags_free(struct sw_inject_flag *f, size_t n);

#endif /* SW_PIPELINE_TASK_H */
