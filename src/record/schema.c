/* schema.c - opening a matter database and migrating its schema.
 *
 * Migrations only ever move forward: migrations[i] takes a database from
 * user_version i to i + 1, each in its own transaction, so an interrupted
 * upgrade leaves the last complete version behind. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

static const char *const migrations[] = {
	/* 0 -> 1: documents, pages, full-text index, transcripts, labels. */
	"CREATE TABLE documents ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  origin TEXT NOT NULL DEFAULT 'evidence'"
	"    CHECK (origin IN ('evidence', 'model', 'human', 'template')),"
	"  status TEXT NOT NULL DEFAULT 'active'"
	"    CHECK (status IN ('active', 'quarantined')),"
	"  sha256 TEXT NOT NULL,"
	"  original TEXT,"
	"  beg_bates TEXT,"
	"  end_bates TEXT,"
	"  source_path TEXT NOT NULL,"
	"  imported_at TEXT NOT NULL,"
	"  bytes INTEGER NOT NULL,"
	"  page_count INTEGER NOT NULL,"
	"  meta TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(meta)),"
	"  parent_id INTEGER REFERENCES documents (id));"
	"CREATE UNIQUE INDEX documents_identity"
	"  ON documents (sha256, ifnull(beg_bates, ''));"
	"CREATE INDEX documents_name ON documents (name);"
	"CREATE TABLE pages ("
	"  id INTEGER PRIMARY KEY,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  page_no INTEGER NOT NULL,"
	"  bates TEXT,"
	"  bates_prefix TEXT,"
	"  bates_num INTEGER,"
	"  bates_source TEXT,"
	"  text TEXT NOT NULL,"
	"  UNIQUE (doc_id, page_no));"
	"CREATE INDEX pages_bates ON pages (bates_prefix, bates_num)"
	"  WHERE bates_num IS NOT NULL;"
	"CREATE VIRTUAL TABLE pages_fts USING fts5 ("
	"  text, content = 'pages', content_rowid = 'id', tokenize = 'sworn');"
	"CREATE TABLE transcript_lines ("
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  tr_page INTEGER NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,"
	"  start INTEGER NOT NULL,"
	"  end INTEGER NOT NULL,"
	"  PRIMARY KEY (doc_id, tr_page, line)) WITHOUT ROWID;"
	"CREATE TABLE labels ("
	"  norm TEXT PRIMARY KEY,"
	"  label TEXT NOT NULL,"
	"  target TEXT NOT NULL,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  created_at TEXT NOT NULL);",
	/* 1 -> 2: OCR text and its confidence per page; quarantine decisions
	 * of the provenance firewall (the match found, or a human's override
	 * with the reason). */
	"ALTER TABLE pages ADD COLUMN text_source TEXT NOT NULL DEFAULT 'text'"
	"  CHECK (text_source IN ('text', 'ocr', 'none'));"
	"ALTER TABLE pages ADD COLUMN ocr_confidence REAL;"
	"CREATE INDEX documents_parent ON documents (parent_id)"
	"  WHERE parent_id IS NOT NULL;"
	"CREATE TABLE quarantine ("
	"  id INTEGER PRIMARY KEY,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  decision TEXT NOT NULL CHECK (decision IN ('quarantined', 'accepted')),"
	"  overlap REAL NOT NULL,"
	"  contained REAL NOT NULL,"
	"  shared INTEGER NOT NULL,"
	"  output_matter TEXT,"
	"  output_name TEXT,"
	"  output_id INTEGER,"
	"  reason TEXT,"
	"  decided_at TEXT NOT NULL);"
	"CREATE INDEX quarantine_doc ON quarantine (doc_id);",
};

_Static_assert(SW_ARRAY_LEN(migrations) == SW_RECORD_SCHEMA_VERSION,
	       "one migration per schema version");

int sw__record_sqlerr(struct sw_err *err, sqlite3 *db, const char *what)
{
	return sw_err_set(err, SW_EDB, "%s: %s", what,
			  db ? sqlite3_errmsg(db) : "cannot allocate a database handle");
}

int sw__record_exec(sqlite3 *db, const char *sql, struct sw_err *err)
{
	char *msg = NULL;
	if (sw_fault("sql"))
		return sw_err_set(err, SW_EFAULT, "database: injected fault");
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int rc = sw_err_set(err, SW_EDB, "database: %s", msg ? msg : "unknown error");
		sqlite3_free(msg);
		return rc;
	}
	return 0;
}

static int user_version(sqlite3 *db, int *out, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		rc = sw__record_sqlerr(err, db, "cannot read the schema version");
	else
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc;
}

static int migrate(sqlite3 *db, const char *path, struct sw_err *err)
{
	int version = 0, rc;
	if ((rc = user_version(db, &version, err)) != 0)
		return rc;
	if (version > SW_RECORD_SCHEMA_VERSION)
		return sw_err_set(err, SW_EINPUT,
				  "'%s' has schema version %d, newer than this sworn (%d): upgrade sworn",
				  path, version, SW_RECORD_SCHEMA_VERSION);
	for (int v = version; v < SW_RECORD_SCHEMA_VERSION; v++) {
		char set[64];
		snprintf(set, sizeof(set), "PRAGMA user_version = %d;", v + 1);
		if ((rc = sw__record_exec(db, "BEGIN IMMEDIATE", err)) != 0)
			return rc;
		if ((rc = sw__record_exec(db, migrations[v], err)) != 0 ||
		    (rc = sw__record_exec(db, set, err)) != 0 ||
		    (rc = sw__record_exec(db, "COMMIT", err)) != 0) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return sw_err_wrap(err, rc, "cannot migrate '%s' to version %d", path, v + 1);
		}
	}
	return 0;
}

int sw__record_db_open(sqlite3 **out, const char *path, bool create,
		       struct sw_err *err)
{
	sqlite3 *db = NULL;
	int rc = 0;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	*out = NULL;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		rc = sw_err_set(err, SW_EDB, "cannot open '%s': %s", path,
				db ? sqlite3_errmsg(db) : "out of memory");
		goto cleanup;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, 10000);
	/* WAL lets searches read while an import writes; synchronous=NORMAL
	 * keeps every commit atomic and consistent after a crash (a power cut
	 * may lose the last commits, never corrupt the file). */
	rc = sw__record_exec(db,
			     "PRAGMA journal_mode = WAL;"
			     "PRAGMA synchronous = NORMAL;"
			     /* Fewer, larger checkpoints: an import writes a lot. */
			     "PRAGMA wal_autocheckpoint = 8192;"
			     "PRAGMA journal_size_limit = 67108864;"
			     "PRAGMA foreign_keys = ON;"
			     "PRAGMA temp_store = MEMORY;",
			     err);
	if (rc) {
		sw_err_wrap(err, rc, "cannot open '%s'", path);
		goto cleanup;
	}
	/* A file that is not a database fails on the first read, here. */
	if ((rc = sw__record_fts_register(db, err)) != 0)
		goto cleanup;
	if ((rc = migrate(db, path, err)) != 0)
		goto cleanup;
	*out = db;
	db = NULL;
cleanup:
	sqlite3_close(db);
	return rc;
}
