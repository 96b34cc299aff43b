/*
 * pipeline.h - `sworn draft`: from a matter's record and a lawyer's brief to
 * a verified draft the lawyer approves.  Tasks (steps and prompt templates),
 * evidence bundles, the run journal, the step scheduler (parallel across
 * endpoints), adversarial review, the verify -> revise loop, approval,
 * corrections and their export, run statistics and the context audit.
 *
 * Contract
 *   - pipeline/ sees verify/, llm/, record/, claims/, authority/ and base/
 *     (tests/layering.sh).  The CLI only drives it.
 *   - Evidence enters a model's window only through the bundle builder,
 *     which reads pages with record/'s queries: evidence origin, never
 *     quarantined.  A model's output enters a later step only as a
 *     delimited "prior draft" section, never as evidence.  Every output is
 *     stored with origin model (sw_record_add_model_output) so the
 *     provenance firewall fingerprints it before any later import.
 *   - Every window is journaled section by section (origin, document,
 *     Bates, tokens) before its call is made; `sworn run context` reads it
 *     back.  A section of kind "evidence" whose document is not active
 *     evidence is impossible by construction and flagged if ever found.
 *   - Nothing falls back to another model unless a role names a local
 *     fallback (llm/'s rule); a step whose endpoint is down or refused
 *     fails with the client's reason and pauses the run.
 *   - Threads: the journal (the matter's database) is written by the
 *     thread that called sw_run_start/sw_run_resume only; model calls run
 *     in worker threads, one llm client each.
 *   - Errors: 0 or a negative SW_E* code with one line in err.
 */
#ifndef SW_PIPELINE_H
#define SW_PIPELINE_H

#include "base/base.h"
#include "llm/llm.h"
#include "record/record.h"
#include "authority/authority.h"
#include "verify/verify.h"

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

/* -------------------------------------------------------------------- runs */

enum sw_run_status {
	SW_RUN_RUNNING,
	SW_RUN_PAUSED,    /* a step failed or the run was interrupted: resumable */
	SW_RUN_CANCELLED, /* by sworn run cancel: not resumed */
	SW_RUN_VERIFIED,  /* the gate passed; awaits approval */
	SW_RUN_BLOCKED,   /* rounds spent with claims still blocked */
	SW_RUN_APPROVED,
};
const char *sw_run_status_name(enum sw_run_status s);

/* What the run reports while it works (on the caller's thread). */
enum sw_run_event_kind {
	SW_EV_STEP_START,
	SW_EV_STEP_TOKENS, /* text arrived: tokens so far */
	SW_EV_STEP_DONE,
	SW_EV_STEP_FAILED,
	SW_EV_VERIFY,      /* a verify round ended: claims, blocked */
	SW_EV_FLAG,        /* an injection attempt was found in evidence */
};

struct sw_run_event {
	enum sw_run_event_kind kind;
	const char *key;       /* the step instance ("section#2", "revise#1") */
	const char *role, *endpoint;
	const char *host;      /* the endpoint's fleet host (several boxes), or NULL */
	size_t tokens;         /* completion tokens so far / at the end */
	double tok_s;          /* decode tokens per second */
	double elapsed_s;
	const char *message;   /* a failure's reason, a flag's excerpt */
	size_t claims, blocked;/* SW_EV_VERIFY */
};

struct sw_run_opts {
	const struct sw_llm_config *llm;
	struct sw_authority *auth;   /* may be NULL */
	struct sw_llm_cancel *cancel;/* set from a signal handler to stop */
	void (*on_event)(void *ud, const struct sw_run_event *ev);
	void *ud;
	unsigned token_timeout_ms;   /* /tokenize per call; 0: 5000 */
	enum sw_judge_mode judge;    /* verify rounds ask [role "judge"] in this
				      * mode (sw_judge_conf_load); 0 is off */
};

/* The outcome of sw_run_start/sw_run_resume. */
struct sw_run_result {
	int64_t run_id;
	enum sw_run_status status;
	char *reason;        /* why paused/blocked, or NULL */
	unsigned rounds;     /* verify rounds done */
	size_t claims, blocked; /* of the last verify */
	double wall_s;
};
void sw_run_result_release(struct sw_run_result *r);

/* Start a run of task t on m with the brief (its text and a name for it):
 * journal it, then run it to its end (verified, blocked) or until a step
 * fails or opts->cancel is set (paused).  Returns 0 whenever the run was
 * journaled, whatever its outcome (in *out); SW_E* only when it could not
 * be. */
int sw_run_start(struct sw_run_result *out, struct sw_matter *m, const struct sw_task *t,
		 const char *brief_name, const char *brief, size_t brief_len,
		 const struct sw_run_opts *opts, struct sw_err *err) SW_MUST_USE;

/* Continue a paused (or crashed: still "running" with its pid gone) run
 * without redoing finished steps.  The task is loaded again by name; a task
 * whose definition changed since the run began is refused (SW_EUSAGE). */
int sw_run_resume(struct sw_run_result *out, struct sw_matter *m, int64_t run_id,
		  const char *ws_root, const struct sw_run_opts *opts,
		  struct sw_err *err) SW_MUST_USE;

/* Mark a run cancelled (and signal its process when it still runs). */
/* Bring the matter's run journal (pipeline/'s tables in matter.db) up to
 * this sworn's schema: every journal call does so itself; a command or a
 * server that opens a matter calls this once, so that the tables are
 * there for whatever reads them next. */
int sw_run_journal_open(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;

int sw_run_cancel(struct sw_matter *m, int64_t run_id, struct sw_err *err) SW_MUST_USE;

/* The lawyer's saved edit of a run's draft (sworn serve saves it; a saved
 * edit is a version of the run's draft): *text (caller frees) and
 * *version (>= 1), or *text NULL and *version 0 when there is none. */
int sw_run_edit_get(char **text, int64_t *version, struct sw_matter *m, int64_t run_id,
		    struct sw_err *err) SW_MUST_USE;

/* Save text as run_id's edit when base is the current version (0: none
 * saved yet): *version gets the new one.  SW_EEXIST when base is not the
 * current version: *version and *current (caller frees; NULL when none is
 * saved) get what is.  SW_EUSAGE for an approved run: its draft is frozen
 * as approved.  The compare and the write are one transaction. */
int sw_run_edit_save(int64_t *version, char **current, struct sw_matter *m, int64_t run_id,
		     int64_t base, const char *text, size_t len, struct sw_err *err) SW_MUST_USE;

/* A run as the journal keeps it, typed: what `sworn run show` prints and
 * what its --json and the web API carry (sw_run_view_json, the one place
 * that names the keys).  Strings are owned by the view; a text the
 * journal does not have is NULL, a count -1, a rate or a time < 0, an id
 * or an item 0. */
struct sw_run_reason {
	char *verdict, *claim, *reason; /* a claim the step's verify blocked */
};

struct sw_run_step_view {
	char *key, *step, *kind, *role, *endpoint, *host, *model, *status, *error;
	char *started_at, *finished_at, *prompt_sha256;
	int item, round, attempts;
	int64_t output_doc_id;
	int64_t prompt_tokens, completion_tokens;
	double prompt_per_s, predicted_per_s, wall_s;
	char *detail;                   /* the step's detail, JSON text */
	/* read from the detail: a verify's claims and blocked, a review's
	 * findings (-1: none), the claims it blocked, a reasoning model's
	 * thinking (reasoning) or why none was kept (reasoning_note) */
	int64_t claims, blocked, findings;
	struct sw_run_reason *reasons;
	size_t nreasons;
	char *reasoning, *reasoning_note;
};

struct sw_run_flag_view {
	char *step, *document, *bates, *kind, *excerpt;
	int64_t doc_id;  /* 0: none */
};

struct sw_run_view {
	int64_t id;
	char *matter, *task, *task_sha256, *task_source, *status, *reason, *brief;
	char *created_at, *updated_at, *final_path;
	unsigned rounds;
	double wall_s;
	int64_t draft_doc_id, final_doc_id;
	struct sw_run_step_view *steps; /* in the order they began */
	size_t nsteps;
	struct sw_run_flag_view *flags;
	size_t nflags;
};

/* The run run_id of m into *out (release with sw_run_view_release);
 * SW_ENOTFOUND, saying how to list the runs, when there is none. */
int sw_run_get(struct sw_run_view *out, struct sw_matter *m, int64_t run_id,
	       struct sw_err *err) SW_MUST_USE;
void sw_run_view_release(struct sw_run_view *v);
/* The view as JSON: {id, task, ..., matter, steps: [...], flags: [...]}. */
struct json_t *sw_run_view_json(const struct sw_run_view *v);

/* One line of `sworn run list`. */
struct sw_run_summary {
	int64_t id;
	char *task, *status, *reason, *brief, *created_at, *updated_at, *final_path;
	double wall_s;
	int64_t steps, steps_done;
};
struct sw_run_list {
	struct sw_run_summary *v; /* newest first */
	size_t n;
};
int sw_run_list(struct sw_run_list *out, struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
void sw_run_list_release(struct sw_run_list *l);
/* The list as a JSON array of summaries. */
struct json_t *sw_run_list_json(const struct sw_run_list *l);

/* The text of the run's current draft (the last revision, or the first
 * draft); caller frees.  SW_ENOTFOUND before there is one. */
int sw_run_draft(char **out, struct sw_matter *m, int64_t run_id,
		 struct sw_err *err) SW_MUST_USE;

/* ---------------------------------------------------- approval, corrections */

struct sw_person;

struct sw_approve_opts {
	const char *final_text;  /* the lawyer's edited version, read as
				    Markdown as drafts are (HTML when
				    final_name ends .html or .htm) */
	size_t final_len;
	const char *final_name;
	const char *override;    /* a reason to accept despite blocked claims */
	struct sw_authority *auth;
	const char *out_path;    /* where the final document is written */
	const struct sw_verify_judge *judge; /* as sworn verify: the judge as
				    configured (sw_judge_init), or NULL */
	const struct sw_person *by; /* who approves (recorded with the
				    correction), or NULL */
	const struct sw_workspace *ws; /* the run's task and [verify] are read
				    from it: the final is held to the task's
				    elements and uncited facts as the run's
				    drafts were; NULL: the built-in task */
};

struct sw_approve_result {
	bool accepted;
	bool overridden;
	size_t claims, blocked;
	size_t waived;           /* claims the matter's waivers let pass */
	char *report_json;       /* the verify report of the final (JSON) */
	int64_t correction_id;
	struct { size_t kept, changed, added, removed; } words;
};
void sw_approve_result_release(struct sw_approve_result *r);

/* Verify the final again (with o->judge: its answers are in the report's
 * "judge" and, once accepted, stored as the run's model output
 * "run-N-approve-judge.json"); accept it when the gate passes or an override
 * reason is given (recorded with the verdicts it overrode), write it to
 * out_path, store it with origin human, store the correction.  Refusal is
 * not an error: *out says accepted = false, and nothing changed.  The run
 * must be verified or blocked (SW_ENOTFOUND for no such run, SW_EUSAGE
 * saying what to do otherwise); an override must be one non-empty line.
 * Approval is strict: an unverifiable claim blocks as in sworn verify; a
 * claim one of the matter's waivers names does not (sw_waivers_apply).
 * Release *out with sw_approve_result_release. */
int sw_run_approve(struct sw_approve_result *out, struct sw_matter *m, int64_t run_id,
		   const struct sw_approve_opts *o, struct sw_err *err) SW_MUST_USE;

/* Word-level diff of two texts: ops as a JSON array of ["=", text],
 * ["-", text], ["+", text]; a removal next to an addition counts as
 * changed words (the smaller of the two), the rest as removed or added.
 * Words are runs of non-blank bytes (ASCII and Unicode spaces are blanks);
 * an op's words are joined by one space.  Texts over SW_DIFF_MAX_BYTES
 * fail with SW_ELIMIT; a stretch too unlike to align within the diff's
 * work budget is reported removed and added whole.  *ops: caller
 * json_decref()s. */
#define SW_DIFF_MAX_BYTES ((size_t)16 << 20)
struct sw_diff_stats {
	size_t kept, changed, added, removed;
};
int sw_word_diff(struct json_t **ops, struct sw_diff_stats *st, const char *a, size_t alen,
		 const char *b, size_t blen, struct sw_err *err) SW_MUST_USE;

/* What a line teaches: sft, the window answered with the lawyer's final
 * (the loss on the final alone); dpo, the final preferred to the model's
 * draft for the same window. */
enum sw_export_kind { SW_EXPORT_SFT, SW_EXPORT_DPO };
/* Whose field names the lines use, each as its trainer documents it:
 *   trl          {"prompt": [messages], "completion": [assistant]} and
 *                {"prompt", "chosen": [assistant], "rejected": [assistant]}
 *                (conversational prompt-completion and preference)
 *   axolotl      {"messages": [..., assistant]} (type chat_template) and
 *                {"messages", "chosen": {assistant}, "rejected": {assistant}}
 *                (type chat_template.default)
 *   llamafactory sharegpt: {"conversations": [{"from": "human", "value"},
 *                {"from": "gpt", ...}], "system"} and, ranking,
 *                {"conversations", "chosen": {"from": "gpt"}, "rejected",
 *                "system"}
 * Every line also has "metadata" (run, task, step, model, matter,
 * export_consent, created_at, approved_by, override, waivers: the ids of
 * the waivers that let claims of the final pass), a field none of them
 * reads. */
enum sw_export_format { SW_EXPORT_TRL, SW_EXPORT_AXOLOTL, SW_EXPORT_LLAMAFACTORY };

/* What left in past exports and is no longer clean (a page its run was
 * given removed or quarantined since, or its draft or final): for each such
 * export of a correction, when, in what kind and format, to where, and the
 * documents concerned as "name (status)" joined by "; ". */
struct sw_export_audit_row {
	int64_t export_id, correction_id, run_id;
	char *exported_at, *kind, *format, *dest, *documents;
};
struct sw_export_audit {
	struct sw_export_audit_row *v;
	size_t n;
	size_t exports;  /* every export logged, clean or not */
};
int sw_corrections_audit(struct sw_export_audit *out, struct sw_matter *m,
			 struct sw_err *err) SW_MUST_USE;
void sw_export_audit_release(struct sw_export_audit *a);
/* Log an export that was written: the corrections it held (what
 * sw_corrections_export_ids gave), where it went (a file name, or
 * "stdout"). */
int sw_corrections_log_export(struct sw_matter *m, const int64_t *ids, size_t n,
			      enum sw_export_kind kind, enum sw_export_format fmt, const char *dest,
			      struct sw_err *err) SW_MUST_USE;

/* Write m's corrections as JSON Lines to f.  Refused (SW_EUSAGE, saying how
 * to turn it on) unless the matter's setting corrections.export is "yes".
 * A correction whose draft, final or any evidence in its window is no
 * longer active evidence, or whose window is not a system message (or
 * none) followed by one user message, is left out (counted in *skipped). */
int sw_corrections_export(FILE *f, size_t *written, size_t *skipped, struct sw_matter *m,
			  enum sw_export_kind kind, enum sw_export_format fmt,
			  struct sw_err *err) SW_MUST_USE;
/* The same, with the ids of the corrections written into *ids (*nids of
 * them; caller frees) for sw_corrections_log_export. */
int sw_corrections_export_ids(FILE *f, size_t *written, size_t *skipped, int64_t **ids,
			      size_t *nids, struct sw_matter *m, enum sw_export_kind kind,
			      enum sw_export_format fmt, struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------- stats and audit */

enum sw_stats_by { SW_STATS_MODEL, SW_STATS_ROLE, SW_STATS_TASK };
/* One group of run stats (a model, a role or a task).  A figure with no
 * data behind it is < 0 (null in JSON), never 0. */
struct sw_run_stats_row {
	char *group;
	int64_t runs, corrections;
	int64_t first_draft_claims;   /* -1: none */
	double blocked_per_100_claims, findings_per_draft, rounds_to_verified, blocked_share;
	double edit_ratio, decode_tok_s, prompt_tok_s, wall_s;
};
struct sw_run_stats {
	enum sw_stats_by by;
	struct sw_run_stats_row *v;
	size_t n;
};
int sw_run_stats(struct sw_run_stats *out, struct sw_matter *m, enum sw_stats_by by,
		 struct sw_err *err) SW_MUST_USE;
void sw_run_stats_release(struct sw_run_stats *s);
/* The groups as a JSON array of objects (the group under its kind's
 * name); sw_run_stats_json reads them first (NULL with err set). */
struct json_t *sw_run_stats_to_json(const struct sw_run_stats *s);
struct json_t *sw_run_stats_json(struct sw_matter *m, enum sw_stats_by by, struct sw_err *err);

/* The context audit of a run (or one step when step is not NULL): every
 * section of every window with origin, document, Bates, tokens, the shares
 * by origin, and violations (must be none).  Ids, pages 0 and texts NULL
 * where the journal has none. */
struct sw_context_share {
	char *origin;
	int64_t tokens;
	double share, percent;  /* share rounded to 0.01, percent to 0.1 */
};
struct sw_context_section {
	int64_t seq, doc_id, page, tokens;
	char *kind, *origin, *document, *bates;
	bool estimated;
};
struct sw_context_step {
	char *key, *step, *kind, *role, *endpoint;
	struct sw_context_section *sections;
	size_t nsections;
	int64_t tokens;
	bool estimated;
	struct sw_context_share *by_origin;
	size_t norigins;
};
struct sw_context_violation {
	char *step, *document, *bates, *reason;
	int64_t seq, doc_id;
};
struct sw_run_context {
	int64_t run;
	char *step;             /* the step asked for, or NULL for all */
	struct sw_context_step *steps;
	size_t nsteps;
	int64_t tokens;
	struct sw_context_share *by_origin;
	size_t norigins;
	struct sw_context_violation *violations;
	size_t nviolations;
	struct sw_run_flag_view *flags;
	size_t nflags;
};
int sw_run_context(struct sw_run_context *out, struct sw_matter *m, int64_t run_id,
		   const char *step, struct sw_err *err) SW_MUST_USE;
void sw_run_context_release(struct sw_run_context *c);
/* The audit as JSON; sw_run_context_json reads it first (NULL with err
 * set). */
struct json_t *sw_run_context_to_json(const struct sw_run_context *c);
struct json_t *sw_run_context_json(struct sw_matter *m, int64_t run_id, const char *step,
				   struct sw_err *err);

/* -------------------------------------------------------------- the person
 * Who approves, overrides and waives, recorded with each decision: --by NAME
 * on the command, else [user] of the workspace's sworn.conf, else [user] of
 * the user's own $XDG_CONFIG_HOME/sworn/user.conf (~/.config when unset):
 * name, and optionally email and bar_number. */
struct sw_person {
	char *name;
	char *email;      /* or NULL */
	char *bar_number; /* or NULL */
	char *source;     /* where the name came from: "--by" or a file's path */
};

/* [user] of sworn.conf: name, email, bar_number. */
extern const struct sw_config_schema sw_person_conf_schema;

/* The person who acts (see above): ws_cfg is the workspace's sworn.conf (may
 * be NULL), by the --by value (may be NULL; the address and bar number are
 * then those of the configuration that names the same person).  SW_ENOTFOUND
 * when nobody is named, saying how to name one; SW_EINPUT for a bad value
 * ("file:line: ...").  Release with sw_person_release. */
int sw_person_resolve(struct sw_person *out, const struct sw_config *ws_cfg, const char *by,
		      struct sw_err *err) SW_MUST_USE;
void sw_person_release(struct sw_person *p);

/* "Name <email>, bar no. N" (what is known of it); caller frees. */
char *sw_person_label(const struct sw_person *p);

/* Where the user's own user.conf is ($XDG_CONFIG_HOME/sworn/user.conf, else
 * $HOME/.config/sworn/user.conf), or NULL without either; caller frees. */
char *sw_person_user_conf_path(void);

/* ----------------------------------------------------------------- waivers
 * A lawyer's waiver of one claim that blocks, with a reason, by a person,
 * kept in the run journal.  It is the matter's and names the claim by its
 * fingerprint (verify.h), so it holds in every draft of the matter that
 * makes the same claim (sworn verify, a run's verify rounds, approval) and
 * lapses when the claim changes. */
struct sw_waiver {
	int64_t id;
	int64_t run_id;      /* the run it was given in, 0 for none */
	char *fingerprint, *kind;
	char *claim;         /* the claim's text when it was waived */
	char *verdict;       /* the verdict it set aside */
	char *reason;
	char *by, *by_email, *by_bar; /* the person (email and bar may be NULL) */
	char *at;            /* when, UTC ISO 8601 */
};

struct sw_waivers {
	struct sw_waiver *v;          /* oldest first */
	size_t n;
	struct sw_verify_waiver *vw;  /* the same for sw_verify_waive (n) */
};

/* SW_EUSAGE, saying what a reason must be, unless reason is one non-blank
 * line of at most 1000 bytes. */
int sw_waiver_check_reason(const char *reason, struct sw_err *err) SW_MUST_USE;

/* Store a waiver of claim (an index of r) given by person by (its name set)
 * in run run_id (0: none); *id gets its row. */
int sw_waiver_add(int64_t *id, struct sw_matter *m, const struct sw_verify_report *r,
		  size_t claim, int64_t run_id, const char *reason, const struct sw_person *by,
		  struct sw_err *err) SW_MUST_USE;

/* Every waiver of m, oldest first.  Release with sw_waivers_release. */
int sw_waivers_load(struct sw_waivers *out, struct sw_matter *m,
		    struct sw_err *err) SW_MUST_USE;
void sw_waivers_release(struct sw_waivers *w);

/* Waive the claim of r that claim_id names (its number or fingerprint,
 * sw_verify_claim_find) with reason, by person by, in run run_id (0:
 * none): *id gets the waiver's row, *index the claim's.  SW_EUSAGE, saying
 * what to do, for no such claim, a claim that does not block, a bad reason
 * or no person; nothing is stored then. */
int sw_waiver_give(int64_t *id, long *index, struct sw_matter *m,
		   const struct sw_verify_report *r, const char *claim_id, int64_t run_id,
		   const char *reason, const struct sw_person *by, struct sw_err *err) SW_MUST_USE;

/* sw_verify_waive(r, ...) with w's waivers (w must outlive r's use);
 * returns the claims waived. */
size_t sw_waivers_apply(struct sw_verify_report *r, const struct sw_waivers *w);

/* --------------------------------------------------------------- sign-off
 * What the journal says of a run's sign-off: the run, its approval (the
 * latest correction: time, person, override and the verdicts it overrode,
 * the final as approved) and the model and endpoint of each step. */
struct sw_signoff_step {
	char *key, *role, *endpoint, *model, *host, *status; /* NULL when none */
};

struct sw_signoff {
	int64_t run_id;
	char *task, *status, *created_at;
	int64_t parent_run_id; /* the approved run this is a new version of, or 0 */
	char *final_path;     /* where approval wrote the final, or NULL */
	int64_t final_doc_id;
	char *final;          /* the final as approved, or NULL before approval */
	size_t final_len;
	char *approved_at;    /* NULL before approval */
	char *by, *by_email, *by_bar; /* who approved; NULL when not recorded */
	char *override;       /* the override's reason, or NULL */
	char *overridden;     /* the verdicts it overrode (JSON), or NULL */
	char *waivers;        /* ids of the waivers that let claims of the final
				 pass on approval (JSON array), or NULL */
	struct sw_signoff_step *steps;
	size_t nsteps;
};

/* Read run_id's sign-off (SW_ENOTFOUND for no such run).  Release with
 * sw_signoff_release. */
int sw_signoff_get(struct sw_signoff *out, struct sw_matter *m, int64_t run_id,
		   struct sw_err *err) SW_MUST_USE;
void sw_signoff_release(struct sw_signoff *s);

/* An approved run is frozen; editing it again is a new run that refers to
 * it: verified, its draft the approved final (one step "version"), its
 * task and brief the approved run's, ready to edit and approve.  *out gets
 * its id.  SW_EUSAGE for a run that is not approved (its draft is edited
 * as it is); SW_ENOTFOUND for no such run. */
int sw_run_new_version(int64_t *out, struct sw_matter *m, int64_t run_id,
		       struct sw_err *err) SW_MUST_USE;

/* A run's decisions as sworn run show and sworn serve give them: its
 * sign-off and the waivers that are its own (given in it, or applied to
 * its final on approval). */
struct sw_decisions {
	struct sw_signoff s;
	struct sw_waivers all;          /* the matter's */
	const struct sw_waiver **mine;  /* the run's, n of them, into all */
	size_t n;
};
int sw_decisions_get(struct sw_decisions *out, struct sw_matter *m, int64_t run_id,
		     struct sw_err *err) SW_MUST_USE;
void sw_decisions_release(struct sw_decisions *d);
/* {"approval": {at, by, email, bar_number, override, overridden} or null,
 * "waivers": [{id, kind, claim, verdict, reason, by, email, at}],
 * "version_of": the approved run it is a new version of, or null}: a new
 * reference. */
struct json_t *sw_decisions_json(const struct sw_decisions *d);

/* ---------------------------------------------------------- the certificate
 * The verification certificate of an approved run, for courts that require
 * a disclosure or certification of AI use: matter and run; the final's
 * SHA-256 and size; the final verified again now (sworn's version and
 * commit, the authority table's date, the record's document count, claims
 * by kind and verdict, the gate); every waiver and the override with reason,
 * person and time; the model and endpoint of every step with the local-only
 * policy's verdict on it as sworn.conf says now; the context audit's
 * result; and a stamp: the final's SHA-256 and the SHA-256 of the journal's
 * facts certified (the run, its approval, its steps, the waivers listed by
 * id), which sw_certify_check compares with the journal again. */
struct sw_certify_opts {
	struct sw_authority *auth;        /* may be NULL */
	const char *authorities_updated;  /* the table's last write, or NULL */
	const char *version, *commit;     /* sworn's; NULL: SW_VERSION, "unknown" */
	const struct sw_llm_config *llm;  /* endpoints and policy, or NULL */
};

/* The certificate as JSON: {matter, run, task, final_path, final {sha256,
 * size}, approval {at, by, email, bar_number, override, overridden},
 * verification {at, version, commit, authorities_updated, authorities (a
 * table was read), record_documents, record_last_import, gate, claims, waived, by_kind
 * {KIND: {VERDICT: n}}}, waivers [{id, fingerprint, kind, claim, verdict,
 * reason, by, by_email, at}], steps [{key, role, model, host, endpoint,
 * url, verdict: local|allowed|refused|unknown, why}], context_audit
 * {violations, steps, sections, details}, stamp {final_sha256,
 * journal_sha256}}.  The run
 * must be approved (SW_EUSAGE saying so). */
int sw_certify(struct json_t **out, struct sw_matter *m, int64_t run_id,
	       const struct sw_certify_opts *o, struct sw_err *err) SW_MUST_USE;

/* The certificate in Markdown or as a self-contained HTML page, appended
 * to out; both end with the stamp line (SW_CERTIFY_STAMP ...) and hold an
 * editable disclosure paragraph. */
void sw_certify_markdown(struct sw_buf *out, const struct json_t *cert);
void sw_certify_html(struct sw_buf *out, const struct json_t *cert);

/* Lay out the certificate's Markdown (sw_certify_markdown) as a PDF at
 * path, A4 or Letter width, one or two pages for a run of ordinary size
 * (cairo, in the module sworn-pipeline.so: a missing module is an error
 * naming it). */
int sw_certify_pdf(const char *text, size_t len, const char *path,
		   struct sw_err *err) SW_MUST_USE;

/* The certificate's stamp as written in it (any format: its text). */
#define SW_CERTIFY_STAMP "sworn-certificate:"
#define SW_CERTIFY_MAX_WAIVERS 256
struct sw_certify_stamp {
	char matter[128];
	int64_t run;
	char final_sha256[SW_SHA256_HEX_LEN + 1];
	char journal_sha256[SW_SHA256_HEX_LEN + 1];
	int64_t waivers[SW_CERTIFY_MAX_WAIVERS];
	size_t nwaivers;
};
/* Find and read the stamp in a certificate's text (SW_EINPUT: none, or
 * damaged). */
int sw_certify_stamp_parse(struct sw_certify_stamp *out, const char *text,
			   struct sw_err *err) SW_MUST_USE;

struct sw_certify_check {
	char file_sha256[SW_SHA256_HEX_LEN + 1]; /* of the final given */
	bool file_matches;          /* it is the final the certificate names */
	bool approved;              /* the run is approved in the journal */
	bool journal_final_matches; /* the journal's final is that final */
	bool waivers_found;         /* every waiver listed is still there */
	bool journal_matches;       /* the journal's facts are as certified */
	bool ok;                    /* all of them */
};
/* Compare a certificate's stamp with the final's bytes and m's journal.
 * Errors only when the journal cannot be read (SW_ENOTFOUND: no such
 * run); a mismatch is out->ok false. */
int sw_certify_check(struct sw_certify_check *out, struct sw_matter *m,
		     const struct sw_certify_stamp *st, const void *final, size_t final_len,
		     struct sw_err *err) SW_MUST_USE;

/* --------------------------------------------------------------- the judge
 * verify.h's judge ("the judge") over the llm client: sworn.conf's
 * [role "judge"], asked under the JSON Schema {supported: bool, span:
 * string, reason: string} with the sentence and only its cited pages,
 * framed as data, and told to quote the exact words of the page that say
 * it.  One call per sentence through sw_llm_chat_role (a client per call,
 * so calls from verify's threads never share one); parallel is the slots of
 * the role's endpoint (1 when not given).  The window is the role's
 * context (8192 when not given), the pages' tokens counted with the
 * server's /tokenize where the prompt may come near it (an estimate,
 * marked, where the server cannot count).  A malformed answer fails the
 * call (SW_EINPUT) with the answer kept in out->raw. */

/* [verify] in sworn.conf: judge = block|warn|off. */
extern const struct sw_config_schema sw_judge_conf_schema;

/* The mode sworn.conf asks for: [verify] judge, warn by default; off when
 * llm has no [role "judge"] (whatever [verify] says).  SW_EINPUT for a bad
 * value or an unknown key of [verify], "file:line: ...". */
int sw_judge_conf_load(enum sw_judge_mode *out, const struct sw_config *cfg,
		       const struct sw_llm_config *llm, struct sw_err *err) SW_MUST_USE;

struct sw_judge {
	struct sw_verify_judge vj;     /* for sw_verify_opts.judge */
	const struct sw_llm_config *llm; /* borrowed */
	struct sw_llm_cancel *cancel;  /* borrowed; NULL: not cancellable */
	const char *endpoint;          /* the role's endpoint (borrowed from llm) */
	bool no_tokenize;              /* its /tokenize failed: estimates from now */
};

/* Set j up to ask llm's role "judge" in mode (SW_ENOTFOUND when there is no
 * such role).  llm and cancel must outlive j's use; nothing to release. */
int sw_judge_init(struct sw_judge *j, const struct sw_llm_config *llm, enum sw_judge_mode mode,
		  struct sw_llm_cancel *cancel, struct sw_err *err) SW_MUST_USE;

/* The judge's answers in r as a JSON array, for the record: one object per
 * sentence {"claim" (1-based), "sentence", "outcome", "why", "supported",
 * "span", "reason", "model", "endpoint", "wall_s", "tokens",
 * "tokens_estimated", "cut", "raw"}.  Returns a new
 * reference. */
struct json_t *sw_judge_answers_json(const struct sw_verify_report *r);

#endif /* SW_PIPELINE_H */
