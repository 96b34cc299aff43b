/* pipeline_int.h - what the files of pipeline/ share and nobody else sees. */
#ifndef SW_PIPELINE_INT_H
#define SW_PIPELINE_INT_H

#include <sqlite3.h>

#include "pipeline/pipeline.h"

/* ------------------------------------------------ the journal (journal*.c)
 *
 * The run journal's tables (runs, run_steps, run_sections, run_flags,
 * corrections, draft_edits) belong to pipeline/: journal_schema.c migrates
 * them, and only the journal*.c files hold SQL on them.  They join record/'s
 * documents only through its view record_docs. */

/* The matter's database with the journal's tables migrated (once per
 * process and file; a cheap read after that); NULL with err set. */
sqlite3 *sw__journal_db(struct sw_matter *m, struct sw_err *err);

/* "model", "role" or "task": the key of a stats group (journal_stats.c). */
const char *sw__run_stats_by_name(enum sw_stats_by by);

/* One correction as stored (journal_corrections.c); every string borrowed
 * for the call only.  clean: its draft and final are active and every
 * evidence page of its window is still active evidence. */
struct sw__journal_correction {
	int64_t id, run_id, draft_doc_id, final_doc_id;
	const char *step_key, *messages, *draft, *final, *created_at, *task;
	const char *model;     /* NULL when the step names none */
	const char *override;  /* the reason of an override, or NULL */
	const char *by;        /* who approved, or NULL */
	const char *waivers;   /* ids of the waivers applied (JSON), or NULL */
	bool clean;
};
/* Call fn with each correction, oldest first; a non-zero return from fn
 * stops the walk and is returned. */
int sw__journal_corrections_each(struct sw_matter *m,
				 int (*fn)(const struct sw__journal_correction *c, void *ctx),
				 void *ctx, struct sw_err *err);
/* Log that the corrections ids (n) left in an export of kind and format
 * to dest, now, in one transaction. */
int sw__journal_export_log(struct sw_matter *m, const int64_t *ids, size_t n, const char *kind,
			   const char *format, const char *dest, struct sw_err *err);

/* Approval (journal_approve.c).  The run's status (never NULL), final path
 * and draft document; the step whose output is that draft. */
int sw__journal_approval_state(char **status, char **final_path, int64_t *draft_doc,
			       struct sw_matter *m, int64_t id, struct sw_err *err);
int sw__journal_draft_step(char **key, char **messages, char **output, struct sw_matter *m,
			   int64_t run_id, int64_t doc_id, struct sw_err *err);
/* One write transaction on the matter's database, around approve and the
 * final's file. */
int sw__journal_begin(struct sw_matter *m, struct sw_err *err);
int sw__journal_commit(struct sw_matter *m, struct sw_err *err);
void sw__journal_rollback(struct sw_matter *m);
struct sw_diff_stats;
struct sw__journal_approval {
	int64_t run_id, draft_doc_id, final_doc_id;
	const char *step_key, *messages, *draft, *final, *final_path, *diff, *at;
	size_t final_len;
	const struct sw_diff_stats *words;
	const char *override, *overridden; /* NULL for a clean approval */
	const struct sw_person *by;        /* who approved, or NULL */
	const char *waivers;               /* ids of the waivers applied (JSON), or NULL */
};
/* In the transaction: the run approved (SW_EUSAGE when it changed since it
 * was read), the correction stored (*corr_id). */
int sw__journal_approve(int64_t *corr_id, struct sw_matter *m,
			const struct sw__journal_approval *a, struct sw_err *err);


enum sw__pipeline_step_status {
	SW__PIPELINE_ST_PENDING,
	SW__PIPELINE_ST_RUNNING,
	SW__PIPELINE_ST_DONE,
	SW__PIPELINE_ST_FAILED,
	SW__PIPELINE_ST_CANCELLED,
};
const char *sw__pipeline_step_status_name(enum sw__pipeline_step_status s);

/* One row of run_steps as the engine keeps it. */
struct sw__pipeline_row {
	int64_t id;
	char *key, *step, *kind;
	int item, round;
	enum sw__pipeline_step_status status;
	char *output;          /* NULL until done */
	int64_t output_doc_id;
	char *detail;          /* JSON text */
};
void sw__pipeline_rows_free(struct sw__pipeline_row *r, size_t n);

/* The run's row. */
struct sw__pipeline_run {
	int64_t id;
	char *task, *task_sha256, *task_source, *brief_name, *brief, *status, *reason;
	unsigned rounds;
	int64_t pid, draft_doc_id;
	double wall_s;
};
void sw__pipeline_run_release(struct sw__pipeline_run *r);

int sw__pipeline_run_insert(int64_t *id, struct sw_matter *m, const struct sw_task *t,
			const char *brief_name, const char *brief, struct sw_err *err);
int sw__pipeline_run_load(struct sw__pipeline_run *out, struct sw_matter *m, int64_t id,
		      struct sw_err *err);
/* Set status (and reason, may be NULL; pid 0 clears it) and add wall
 * seconds. */
int sw__pipeline_run_set(struct sw_matter *m, int64_t id, enum sw_run_status st,
		     const char *reason, long pid, double add_wall_s, struct sw_err *err);
/* Take the run for this process (status running, pid): only if it is still
 * seen_status with seen_pid (0: none), as this process read it; *won says
 * whether it was.  One run, one runner. */
int sw__pipeline_run_claim(bool *won, struct sw_matter *m, int64_t id, const char *seen_status,
			   int64_t seen_pid, long pid, struct sw_err *err);
int sw__pipeline_run_set_draft(struct sw_matter *m, int64_t id, int64_t doc_id,
			   struct sw_err *err);
int sw__pipeline_rows_load(struct sw__pipeline_row **out, size_t *n, struct sw_matter *m,
		       int64_t run_id, struct sw_err *err);

/* Insert (or reset to running, for a resumed step) the row of a step
 * instance about to run, with its window (messages JSON) and prompt hash;
 * *id gets the row. */
struct sw__pipeline_begin {
	int64_t run_id;
	const char *key, *step, *kind, *role, *endpoint, *messages;
	const char *host;  /* the fleet host of the endpoint's server, or NULL */
	int item, round;
};
int sw__pipeline_step_begin(int64_t *id, struct sw_matter *m, const struct sw__pipeline_begin *b,
			struct sw_err *err);

struct sw__pipeline_end {
	enum sw__pipeline_step_status status;
	const char *output;      /* done */
	int64_t output_doc_id;
	const char *error;       /* failed, cancelled */
	const char *model;
	long prompt_tokens, completion_tokens;
	double prompt_per_s, predicted_per_s, wall_s;
	unsigned attempts;
	const char *detail;      /* JSON, or NULL for {} */
};
int sw__pipeline_step_end(struct sw_matter *m, int64_t id, const struct sw__pipeline_end *e,
		      struct sw_err *err);

/* One section of a window, for the context audit. */
struct sw__pipeline_section {
	const char *kind, *origin;
	int64_t doc_id;        /* 0: none */
	const char *document, *bates;
	uint32_t page_no;
	size_t tokens;
	bool estimated;
};
/* Replace the step's sections and flags (a resumed step is journaled anew). */
int sw__pipeline_sections_put(struct sw_matter *m, int64_t step_id,
			  const struct sw__pipeline_section *s, size_t n,
			  const struct sw_inject_flag *flags, size_t nflags, struct sw_err *err);

/* Reset steps a crash or an interruption left running, failed or cancelled
 * to pending (they run again on resume). */
int sw__pipeline_rows_reset(struct sw_matter *m, int64_t run_id, struct sw_err *err);

/* --------------------------------------------------- prompts (prompt.c) */

/* What a step instance's prompt is made from. */
struct sw__pipeline_fill {
	const char *brief, *matter, *task, *date;
	const char *item;              /* the fan-out item as JSON, or NULL */
	const char *evidence;          /* the framed bundle, or NULL */
	const char *draft, *findings, *verifier, *round;
	const char *const *step_names; /* earlier steps' outputs by name */
	const char *const *step_outputs;
	size_t n_steps;
};

/* Render tmpl with fill into the user message; append one section per
 * stretch of it to *secs (literal text: instructions/template, the brief:
 * human, evidence pages: from the bundle, prior outputs: model). */
int sw__pipeline_prompt(struct sw_buf *out, struct sw__pipeline_section **secs, size_t *nsecs,
		    const char *tmpl, const char *tmpl_name, const struct sw__pipeline_fill *fill,
		    const struct sw_bundle *bundle, sw_token_count_fn count, void *count_ud,
		    struct sw_err *err);

/* The findings of a review answer as a numbered list for the reviser, and
 * their number (0 when the answer holds none or is not the expected
 * JSON). */
char *sw__pipeline_findings_text(const char *review_json, size_t *count);

/* The judge's answer (len bytes of the model's content): {supported, span,
 * reason} into out's supported, span and reason (malloc'd; out's other
 * fields untouched).  SW_EINPUT, with what was wrong, for anything else. */
int sw__pipeline_judge_answer_parse(struct sw_judge_answer *out, const char *content, size_t len,
				    struct sw_err *err) SW_MUST_USE;

/* Store the judge's answers in rep (sw_judge_answers_json, indented) as
 * model output named name in m, *out_id the document.  The pages put to
 * the judge are the evidence of its window: a span it quoted from them is
 * left out of the output's fingerprints, so the genuine page is never
 * quarantined as the judge's words when it is imported again. */
int sw__pipeline_judge_store(int64_t *out_id, struct sw_matter *m, const char *name,
			     const struct sw_verify_report *rep, struct sw_err *err) SW_MUST_USE;

/* ------------------------------------- tasks (task.c, task_files.c) */

#define SW_TMPL_MAX_NAME 64 /* bytes of a placeholder's name at most */

/* The built-in tasks, embedded from the repository's tasks/ at build time
 * (generated into the build folder): "NAME/FILE" paths, sorted. */
struct sw__pipeline_task_file {
	const char *path;
	const unsigned char *data;
	size_t len;
};
extern const struct sw__pipeline_task_file sw__pipeline_task_files[];
extern const size_t sw__pipeline_task_nfiles;

/* Whether step s of t (or t->review / t->revise) can fill placeholder
 * name[0..len): the rule sw_task_load checks and a run's prompts follow. */
bool sw__pipeline_task_can_fill(const struct sw_task *t, const struct sw_task_step *s,
		       const char *name, size_t len);

/* Where task name lives: *dir gets ws_root/tasks/NAME when the workspace
 * has one (it wins), else NULL for the built-in one; SW_ENOTFOUND when
 * neither exists. */
int sw__pipeline_task_locate(char **dir, const char *ws_root, const char *name, struct sw_err *err);

/* Read file (a plain name) of the task at dir (NULL: the built-in task
 * name) into out, bounded by SW_TASK_MAX_FILE. */
int sw__pipeline_task_read(struct sw_buf *out, const char *dir, const char *name, const char *file,
		  struct sw_err *err);

#endif /* SW_PIPELINE_INT_H */
