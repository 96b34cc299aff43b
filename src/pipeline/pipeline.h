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
 *
 * This header holds the contract, the runs and the judge; its parts, which
 * it includes and which refuse to be included alone: pipeline_task.h
 * (tasks, templates, evidence bundles), pipeline_journal.h (edits, run
 * views, approval, corrections, stats, the context audit) and
 * pipeline_signoff.h (the person, waivers, sign-off, the certificate).
 */
#ifndef SW_PIPELINE_H
#define SW_PIPELINE_H

#include "base/base.h"
#include "llm/llm.h"
#include "record/record.h"
#include "authority/authority.h"
#include "verify/verify.h"

#include "pipeline/pipeline_task.h"

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

/* Bring the matter's run journal (pipeline/'s tables in matter.db) up to
 * this sworn's schema: every journal call does so itself; a command or a
 * server that opens a matter calls this once, so that the tables are
 * there for whatever reads them next. */
int sw_run_journal_open(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;

/* Mark a run cancelled (and signal its process when it still runs). */
int sw_run_cancel(struct sw_matter *m, int64_t run_id, struct sw_err *err) SW_MUST_USE;

#include "pipeline/pipeline_journal.h"
#include "pipeline/pipeline_signoff.h"

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
