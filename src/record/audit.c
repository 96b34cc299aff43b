/* audit.c - what a report's audit stamp says of the record: how many
 * documents it holds and when the last one was imported. */
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
