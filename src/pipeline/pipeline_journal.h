/* pipeline_journal.h - the run journal read back: the lawyer's edits, a
 * run's view and the list of runs, approval, corrections and their
 * export, run statistics and the context audit.
 * A part of pipeline/pipeline.h, which includes it: include "pipeline/pipeline.h", never this file. */
#ifndef SW_PIPELINE_JOURNAL_H
#define SW_PIPELINE_JOURNAL_H

#ifndef SW_PIPELINE_H
#error "include pipeline/pipeline.h, not pipeline_journal.h"
#endif

/* --------------------------------------------------- edits and run views */

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

#endif /* SW_PIPELINE_JOURNAL_H */
