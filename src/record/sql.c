/* sql.c - the statement helpers every file of record/ uses: errors from
 * SQLite into struct sw_err, one statement run to its end, and the
 * statements an import runs for every document, prepared once per open
 * matter.  A leaf: it calls nothing else of record/, so that the files
 * that store, migrate and index can all call it without a circle. */
#include "record/record_int.h"

int sw__record_sqlerr(struct sw_err *err, sqlite3 *db, const char *what)
{
	return sw_db_error(err, db, what);
}

int sw__record_exec(sqlite3 *db, const char *sql, struct sw_err *err)
{
	return sw_db_exec(db, sql, err);
}

static const char *const stmt_sql[SW_STMT_COUNT_] = {
	[SW_STMT_FIND_DOC] =
		"SELECT id FROM documents WHERE sha256 = ?1"
		" AND ifnull(beg_bates, '') = ifnull(?2, '')",
	[SW_STMT_INS_DOC] =
		"INSERT INTO documents (name, kind, origin, sha256, original,"
		" beg_bates, end_bates, source_path, imported_at, bytes, page_count, meta,"
		" status, parent_id)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ifnull(?12, '{}'),"
		" ?13, ?14)",
	[SW_STMT_INS_PAGE] =
		"INSERT INTO pages (doc_id, page_no, bates, bates_prefix, bates_num,"
		" bates_source, text, text_source, ocr_confidence)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[SW_STMT_INS_FTS] = "INSERT INTO pages_fts (rowid, text) VALUES (?1, ?2)",
	[SW_STMT_INS_LINE] =
		"INSERT OR IGNORE INTO transcript_lines"
		" (doc_id, tr_page, line, page_id, start, end)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
};

_Static_assert(SW_STMT_COUNT_ <= SW_ARRAY_LEN(((struct sw_matter *)0)->stmts),
	       "room for every cached statement");

sqlite3_stmt *sw__record_stmt(struct sw_matter *m, enum sw__record_stmt_id id,
			      struct sw_err *err)
{
	sqlite3_stmt *st = m->stmts[id];
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return st;
	}
	if (sqlite3_prepare_v3(m->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &st,
			       NULL) != SQLITE_OK) {
		sw__record_sqlerr(err, m->db, "cannot prepare a statement");
		return NULL;
	}
	m->stmts[id] = st;
	return st;
}

int sw__record_step_done(sqlite3_stmt *st, sqlite3 *db, const char *what, struct sw_err *err)
{
	if (sw_fault("sql"))
		return sw_err_set(err, SW_EFAULT, "%s: injected fault", what);
	int s = sqlite3_step(st);
	sqlite3_reset(st);
	if (s == SQLITE_DONE)
		return 0;
	if (s == SQLITE_CONSTRAINT_UNIQUE || s == SQLITE_CONSTRAINT_PRIMARYKEY)
		return sw_err_set(err, SW_EEXIST, "%s: %s", what, sqlite3_errmsg(db));
	return sw__record_sqlerr(err, db, what);
}
