/* audit.c - what a report's audit stamp says of the record (how many
 * documents it holds and when the last one was imported), and the lists
 * sw_matter_audit gathers from the removals and the origin changes.  A
 * leaf: the files that remove and reclassify never call back here. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

int sw_record_import_stamp(uint64_t *documents, char **last_import, struct sw_matter *m,
			   struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	*documents = 0;
	*last_import = NULL;
	if (sqlite3_prepare_v2(m->db, "SELECT count(*), max(imported_at) FROM documents", -1,
			       &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record's import times");
	} else {
		*documents = (uint64_t)sqlite3_column_int64(st, 0);
		const unsigned char *t = sqlite3_column_text(st, 1);
		if (t)
			*last_import = sw_xstrdup((const char *)t);
	}
	sqlite3_finalize(st);
	return rc;
}

int sw__record_audit_removals(struct sw_audit *a, struct sw_matter *m, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step, rc = 0;
	if (sqlite3_prepare_v2(
		    m->db,
		    "SELECT r.doc_id, d.name, r.prior_status, r.reason,"
		    " ifnull(r.replaced_by, 0), r.removed_at"
		    " FROM removals AS r JOIN documents AS d ON d.id = r.doc_id ORDER BY r.id",
		    -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot audit the removals");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		a->removals = sw_xgrow(a->removals, &cap, a->nremovals + 1, sizeof(*a->removals));
		struct sw_audit_removal *r = &a->removals[a->nremovals++];
		r->doc_id = sqlite3_column_int64(st, 0);
		r->document = sw_xstrdup((const char *)sqlite3_column_text(st, 1));
		r->prior_status = sw_xstrdup((const char *)sqlite3_column_text(st, 2));
		r->reason = sw_xstrdup((const char *)sqlite3_column_text(st, 3));
		r->replaced_by = sqlite3_column_int64(st, 4);
		r->removed_at = sw_xstrdup((const char *)sqlite3_column_text(st, 5));
	}
	if (step != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, "cannot audit the removals");
	sqlite3_finalize(st);
	return rc;
}

void sw__record_audit_removals_release(struct sw_audit *a)
{
	for (size_t i = 0; i < a->nremovals; i++) {
		struct sw_audit_removal *r = &a->removals[i];
		free(r->document);
		free(r->prior_status);
		free(r->reason);
		free(r->removed_at);
	}
	free(a->removals);
	a->removals = NULL;
	a->nremovals = 0;
}

int sw__record_audit_reclasses(struct sw_audit *a, struct sw_matter *m, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT d.id, d.name, json_extract(c.value, '$.from'),"
			       " json_extract(c.value, '$.to'), json_extract(c.value, '$.at'),"
			       " json_extract(c.value, '$.by')"
			       " FROM documents AS d, json_each(d.meta, '$.origin_changes') AS c"
			       " WHERE json_valid(d.meta) AND d.meta LIKE '%origin_changes%'"
			       " ORDER BY json_extract(c.value, '$.at'), d.id",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot audit the origin changes");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		a->reclasses =
			sw_xgrow(a->reclasses, &cap, a->nreclasses + 1, sizeof(*a->reclasses));
		struct sw_audit_reclass *r = &a->reclasses[a->nreclasses++];
		r->doc_id = sqlite3_column_int64(st, 0);
		r->document = sw_db_col_dup(st, 1);
		r->from = sw_db_col_dup(st, 2);
		r->to = sw_db_col_dup(st, 3);
		r->at = sw_db_col_dup(st, 4);
		r->by = sw_db_col_dup(st, 5);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE
		       ? 0
		       : sw__record_sqlerr(err, m->db, "cannot audit the origin changes");
}

void sw__record_audit_reclasses_release(struct sw_audit *a)
{
	for (size_t i = 0; i < a->nreclasses; i++) {
		struct sw_audit_reclass *r = &a->reclasses[i];
		free(r->document);
		free(r->from);
		free(r->to);
		free(r->at);
		free(r->by);
	}
	free(a->reclasses);
	a->reclasses = NULL;
	a->nreclasses = 0;
}
