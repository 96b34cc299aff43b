/* journal_waivers.c - the lawyer's waivers of single claims, in the run
 * journal's table waivers (journal_schema.c): every SQL statement on it is
 * here.  A waiver is the matter's: it names a claim by its fingerprint
 * (verify.h), so it holds in any run's draft or final, and any sworn verify
 * of the matter, that makes the same claim. */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

/* A reason is one line a court may read; longer is a mistake. */
#define REASON_MAX 1000
#define CLAIM_MAX 400

void sw_waivers_release(struct sw_waivers *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++) {
		struct sw_waiver *x = &w->v[i];
		free(x->fingerprint);
		free(x->kind);
		free(x->claim);
		free(x->verdict);
		free(x->reason);
		free(x->by);
		free(x->by_email);
		free(x->by_bar);
		free(x->at);
	}
	free(w->v);
	free(w->vw);
	memset(w, 0, sizeof(*w));
}

int sw_waiver_check_reason(const char *reason, struct sw_err *err)
{
	size_t n = reason ? strlen(reason) : 0;
	const char *p = reason;
	while (p && (*p == ' ' || *p == '\t'))
		p++;
	if (!p || !*p)
		return sw_err_set(err, SW_EUSAGE, "a waiver needs its reason: --reason \"why the "
						  "claim stands\" (one line)");
	if (n > REASON_MAX || strpbrk(reason, "\r\n") || !sw_utf8_valid(reason, n))
		return sw_err_set(err, SW_EUSAGE,
				  "a waiver's reason is one line of at most %d bytes of text",
				  REASON_MAX);
	return 0;
}

int sw_waiver_add(int64_t *id, struct sw_matter *m, const struct sw_verify_report *r,
		  size_t claim, int64_t run_id, const char *reason, const struct sw_person *by,
		  struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*id = 0;
	if (claim >= r->claims.n)
		return sw_err_set(err, SW_EUSAGE, "there is no claim %zu", claim + 1);
	if ((rc = sw_waiver_check_reason(reason, err)) != 0)
		return rc;
	if (!by || !by->name)
		return sw_err_set(err, SW_EUSAGE, "a waiver needs the person who gives it");
	const struct sw_claim *c = &r->claims.v[claim];
	const struct sw_claim_verdict *v = &r->verdicts[claim];
	char fp[SW_SHA256_HEX_LEN + 1], now[21];
	sw_claim_fingerprint(fp, r, claim);
	sw_utc_now(now);
	size_t clen = sw_utf8_cut(r->text + c->start, c->end - c->start, CLAIM_MAX);
	sqlite3 *db = sw__journal_db(m, err);
	if (!db)
		return err ? err->code : SW_EDB;
	if ((rc = sw_db_prepare(&st, db,
				"INSERT INTO waivers (fingerprint, run_id, kind, claim, verdict,"
				" reason, by_name, by_email, by_bar, created_at)"
				" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				"cannot store the waiver", err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, fp, -1, SQLITE_TRANSIENT);
	if (run_id > 0)
		sqlite3_bind_int64(st, 2, run_id);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_text(st, 3, sw_claim_kind_name(c->kind), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->text + c->start, (int)clen, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, sw_verdict_name(v->verdict), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, reason, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, by->name, -1, SQLITE_TRANSIENT);
	sw_db_bind_text_or_null(st, 8, by->email);
	sw_db_bind_text_or_null(st, 9, by->bar_number);
	sqlite3_bind_text(st, 10, now, -1, SQLITE_TRANSIENT);
	if ((rc = sw_db_step_done(st, "cannot store the waiver", err)) == 0)
		*id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return rc;
}

int sw_waivers_load(struct sw_waivers *out, struct sw_matter *m, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, s;

	memset(out, 0, sizeof(*out));
	sqlite3 *db = sw__journal_db(m, err);
	if (!db)
		return err ? err->code : SW_EDB;
	if ((rc = sw_db_prepare(&st, db,
				"SELECT id, COALESCE(run_id, 0), fingerprint, kind, claim, verdict,"
				" reason, by_name, by_email, by_bar, created_at FROM waivers"
				" ORDER BY id",
				"cannot read the waivers", err)) != 0)
		return rc;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		out->v = sw_xgrow(out->v, &cap, out->n + 1, sizeof(*out->v));
		struct sw_waiver *x = &out->v[out->n++];
		x->id = sqlite3_column_int64(st, 0);
		x->run_id = sqlite3_column_int64(st, 1);
		x->fingerprint = sw_db_col_dup(st, 2);
		x->kind = sw_db_col_dup(st, 3);
		x->claim = sw_db_col_dup(st, 4);
		x->verdict = sw_db_col_dup(st, 5);
		x->reason = sw_db_col_dup(st, 6);
		x->by = sw_db_col_dup(st, 7);
		x->by_email = sw_db_col_dup(st, 8);
		x->by_bar = sw_db_col_dup(st, 9);
		x->at = sw_db_col_dup(st, 10);
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the waivers");
	sqlite3_finalize(st);
	if (rc) {
		sw_waivers_release(out);
		return rc;
	}
	/* verify.h's view of them, for sw_verify_waive */
	out->vw = sw_xcalloc(out->n ? out->n : 1, sizeof(*out->vw));
	for (size_t i = 0; i < out->n; i++) {
		const struct sw_waiver *x = &out->v[i];
		out->vw[i] = (struct sw_verify_waiver){ .fingerprint = x->fingerprint,
							.reason = x->reason,
							.by = x->by,
							.at = x->at,
							.id = x->id };
	}
	return 0;
}

size_t sw_waivers_apply(struct sw_verify_report *r, const struct sw_waivers *w)
{
	return sw_verify_waive(r, w->vw, w->n);
}
