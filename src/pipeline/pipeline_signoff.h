/* pipeline_signoff.h - who decides and what is certified: the person,
 * waivers, a run's sign-off and decisions, the verification certificate.
 * A part of pipeline/pipeline.h, which includes it: include "pipeline/pipeline.h", never this file. */
#ifndef SW_PIPELINE_SIGNOFF_H
#define SW_PIPELINE_SIGNOFF_H

#ifndef SW_PIPELINE_H
#error "include pipeline/pipeline.h, not pipeline_signoff.h"
#endif

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

#endif /* SW_PIPELINE_SIGNOFF_H */
