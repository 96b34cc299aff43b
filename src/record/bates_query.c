/* bates_query.c - finding evidence pages by a Bates number or range in any
 * spelling: the token is brought to the canonical form (bates.c) and looked
 * up on pages.bates_prefix, which the store writes in that form. */
#include <string.h>

#include "record/record_int.h"

#define EVIDENCE " d.origin = 'evidence' AND d.status = 'active' "

int sw_record_bates_lookup(uint64_t *have, struct sw_record_page *first,
			   struct sw_matter *m, const struct sw_bates_ref *ref,
			   struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	*have = 0;
	if (first)
		memset(first, 0, sizeof(*first));
	if (ref->first > INT64_MAX || ref->last > INT64_MAX || ref->last < ref->first)
		return 0;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT count(DISTINCT p.bates_num), min(p.bates_num) FROM pages AS p"
			       " JOIN documents AS d ON d.id = p.doc_id"
			       " WHERE p.bates_prefix = ?1 AND p.bates_num BETWEEN ?2 AND ?3 AND"
			       EVIDENCE, -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot read the record");
	sqlite3_bind_text(st, 1, ref->prefix, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)ref->first);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)ref->last);
	int64_t lowest = -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*have = (uint64_t)sqlite3_column_int64(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			lowest = sqlite3_column_int64(st, 1);
	} else {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
	}
	sqlite3_finalize(st);
	if (rc == 0 && first && lowest >= 0) {
		rc = sw_record_page_by_bates(first, m, ref->prefix, (uint64_t)lowest, err);
		if (rc == SW_ENOTFOUND) /* gone between the two reads */
			rc = 0;
	}
	return rc;
}

int sw_record_bates_find(uint64_t *have, struct sw_record_page *first,
			 struct sw_bates_ref *ref, struct sw_matter *m,
			 const char *text, size_t len, struct sw_err *err)
{
	struct sw_bates_ref r;
	*have = 0;
	if (first)
		memset(first, 0, sizeof(*first));
	if (ref)
		memset(ref, 0, sizeof(*ref));
	if (sw_bates_ref_parse(&r, text, len) != 0)
		return sw_err_set(err, SW_EINPUT, "'%.*s' is not a Bates number or range",
				  (int)(len > 80 ? 80 : len), text);
	if (ref)
		*ref = r;
	return sw_record_bates_lookup(have, first, m, &r, err);
}
