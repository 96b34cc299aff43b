/* cli_signoff.h - what the commands that record a lawyer's decision share
 * (sworn verify --waive, sworn run waive, sworn run approve, sworn certify):
 * the person who decides, and a waiver given on a verified draft. */
#ifndef SW_CLI_SIGNOFF_H
#define SW_CLI_SIGNOFF_H

#include "authority/authority.h"
#include "cli/cli.h"
#include "pipeline/pipeline.h"
#include "verify/verify.h"

/* The person who decides (pipeline.h's sw_person_resolve over the
 * workspace's sworn.conf and --by).  Its error says how to name one. */
int cli_person(struct sw_person *out, const struct cli_ctx *ctx, const char *by,
	       struct sw_err *err) SW_MUST_USE;

/* Load m's waivers into *w and apply them to rep; with claim_id (--waive
 * ID: a claim's number or fingerprint), first store a waiver of that claim
 * with reason, by the person --by or the configuration names, given in run
 * run_id (0: none).  A claim that does not block, an unknown claim, no
 * reason or no person are SW_EUSAGE errors saying what to do; nothing is
 * stored then.  *waived (may be NULL) gets the claim's index, or -1.
 * Release *w after rep. */
int cli_waive(struct sw_waivers *w, long *waived, struct sw_verify_report *rep,
	      struct sw_matter *m, const struct cli_ctx *ctx, const char *claim_id,
	      const char *reason, const char *by, int64_t run_id, struct sw_err *err) SW_MUST_USE;

/* The workspace's authority table, or *out NULL when it has none (no
 * error: case claims are then unverifiable); *updated gets when it was
 * last written ("YYYY-MM-DDTHH:MM:SSZ", caller frees) or NULL. */
int cli_authority_open(struct sw_authority **out, char **updated, const struct cli_ctx *ctx,
		       struct sw_err *err) SW_MUST_USE;

/* "approved by NAME on TIME ...", the override, each waiver; nothing for a
 * run with no decision. */
void cli_signoff_print(FILE *f, const struct sw_decisions *c);
/* The status as run list shows it: "approved (override, 2 waivers)". */
void cli_signoff_status(char *out, size_t outsz, const struct sw_decisions *c,
			const char *status);
/* Each claim of a verify report (JSON text) that blocks: line:column,
 * verdict, kind, the claim, the reason. */
void cli_blocked_print(FILE *f, const char *report_json);

/* The matter's sign-off decisions for sworn matter audit: {"approvals":
 * [{run, at, by, override}], "waivers": [{id, run, kind, claim, verdict,
 * reason, by, at}]} (*out: a new reference); and as text. */
int cli_signoff_audit(struct json_t **out, struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
void cli_signoff_audit_print(FILE *f, const struct json_t *a);

#endif /* SW_CLI_SIGNOFF_H */
