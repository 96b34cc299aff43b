/* cli_signoff.c - the person who decides and a waiver given on a verified
 * draft, for the commands that record a lawyer's decision (cli_signoff.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli_signoff.h"

int cli_person(struct sw_person *out, const struct cli_ctx *ctx, const char *by,
	       struct sw_err *err)
{
	return sw_person_resolve(out, ctx->have_ws ? &ctx->ws.config : NULL, by, err);
}

/* Store the waiver of the claim claim_id names. */
static int add(long *waived, struct sw_verify_report *rep, struct sw_matter *m,
	       const struct cli_ctx *ctx, const char *claim_id, const char *reason, const char *by,
	       int64_t run_id, struct sw_err *err)
{
	struct sw_person who;
	int64_t id = 0;
	int rc;
	long i = sw_verify_claim_find(rep, claim_id);
	if (i == -2)
		return sw_err_set(err, SW_EUSAGE,
				  "--waive %s: that fingerprint's start names more than one claim; "
				  "give more of it", claim_id);
	if (i < 0)
		return sw_err_set(err, SW_EUSAGE,
				  "--waive %s: no such claim; give a claim's number (1 to %zu) or "
				  "its fingerprint from --json", claim_id, rep->claims.n);
	const struct sw_claim_verdict *v = &rep->verdicts[i];
	if (v->verdict == SW_VERDICT_SUPPORTED ||
	    (v->verdict == SW_VERDICT_UNVERIFIABLE && rep->lenient))
		return sw_err_set(err, SW_EUSAGE, "--waive %s: claim %ld is %s and does not block: "
				  "nothing to waive", claim_id, i + 1, sw_verdict_name(v->verdict));
	if ((rc = sw_waiver_check_reason(reason, err)) != 0)
		return rc;
	if ((rc = cli_person(&who, ctx, by, err)) != 0)
		return rc == SW_ENOTFOUND ? SW_EUSAGE : rc;
	rc = sw_waiver_add(&id, m, rep, (size_t)i, run_id, reason, &who, err);
	sw_person_release(&who);
	if (rc == 0)
		*waived = i;
	return rc;
}

int cli_waive(struct sw_waivers *w, long *waived, struct sw_verify_report *rep,
	      struct sw_matter *m, const struct cli_ctx *ctx, const char *claim_id,
	      const char *reason, const char *by, int64_t run_id, struct sw_err *err)
{
	long k = -1;
	int rc = 0;
	memset(w, 0, sizeof(*w));
	if (waived)
		*waived = -1;
	if (!claim_id && reason)
		return sw_err_set(err, SW_EUSAGE, "--reason goes with --waive CLAIM");
	if (claim_id && (rc = add(&k, rep, m, ctx, claim_id, reason, by, run_id, err)) != 0)
		return rc;
	if ((rc = sw_waivers_load(w, m, err)) != 0)
		return rc;
	sw_waivers_apply(rep, w);
	if (waived)
		*waived = k;
	return 0;
}

int cli_authority_open(struct sw_authority **out, char **updated, const struct cli_ctx *ctx,
		       struct sw_err *err)
{
	struct stat st;
	struct tm tm;
	char t[21];
	*out = NULL;
	*updated = NULL;
	char *path = sw_path_join(ctx->ws.root, SW_AUTHORITY_DB_NAME);
	int rc = 0;
	if (sw_path_is_file(path) && (rc = sw_authority_open(out, path, false, err)) == 0 &&
	    stat(path, &st) == 0 && gmtime_r(&st.st_mtime, &tm) &&
	    strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0)
		*updated = sw_xstrdup(t);
	free(path);
	return rc;
}
