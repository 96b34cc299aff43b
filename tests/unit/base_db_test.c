/* Unit tests of base's SQLite opening (sw_db_open): pragmas, forward
 * migrations by user_version, errors, and a matter database written by the
 * code before sw_db_open existed opening with the new. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#define TMPDIR_TAG "db"
#include "tmpdir.h"
#include "record/record_int.h"

static int64_t query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *path_of(const char *name)
{
	char *p = sw_path_join(dir, name);
	remove(p);
	return p;
}

static const char *const two_steps[] = {
	"CREATE TABLE a (x INTEGER);",
	"CREATE TABLE b (y INTEGER REFERENCES a (x));",
};
/* The version is the list's length (SW_DB_MIGRATIONS): 2. */
static const struct sw_db_schema schema2 = { SW_DB_MIGRATIONS(two_steps) };

static void test_fresh_file_migrates(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	char *path = path_of("fresh.db");
	assert_int_equal(schema2.version, 2);
	assert_ptr_equal(schema2.migrations, two_steps);
	assert_int_equal(sw_db_open(&db, path, &schema2, 0, &err), SW_EDB);
	assert_null(db);
	assert_non_null(strstr(err.msg, path));
	assert_int_equal(sw_db_open(&db, path, &schema2, SW_DB_CREATE, &err), 0);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 2);
	assert_int_equal(query_int(db, "PRAGMA foreign_keys"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('a', 'b')"), 2);
	sqlite3_close(db);
	/* Reopening a current file runs no migration again. */
	assert_int_equal(sw_db_open(&db, path, &schema2, 0, &err), 0);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 2);
	sqlite3_close(db);
	free(path);
}

static void test_newer_file_refused(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	char *path = path_of("newer.db");
	assert_int_equal(sw_db_open(&db, path, &schema2, SW_DB_CREATE, &err), 0);
	assert_int_equal(sw_db_exec(db, "PRAGMA user_version = 7", &err), 0);
	sqlite3_close(db);
	assert_int_equal(sw_db_open(&db, path, &schema2, 0, &err), SW_EINPUT);
	assert_null(db);
	assert_non_null(strstr(err.msg, "schema version 7, newer than this sworn (2)"));
	free(path);
}

/* A migration that fails leaves the file at the last complete version, and
 * the next open with a fixed migration goes on from there. */
static void test_failed_step_keeps_last_version(void **state)
{
	(void)state;
	static const char *const broken[] = {
		"CREATE TABLE a (x INTEGER);",
		"CREATE TABLE c (z INTEGER); CREATE TABLE a (x INTEGER);",
	};
	const struct sw_db_schema bad = { broken, 2, NULL, NULL };
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	char *path = path_of("broken.db");
	assert_int_equal(sw_db_open(&db, path, &bad, SW_DB_CREATE, &err), SW_EDB);
	assert_null(db);
	assert_non_null(strstr(err.msg, "cannot migrate"));
	assert_non_null(strstr(err.msg, "to version 2"));
	assert_non_null(strstr(err.msg, "already exists"));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'c'"), 0);
	sqlite3_close(db);
	assert_int_equal(sw_db_open(&db, path, &schema2, 0, &err), 0);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 2);
	sqlite3_close(db);
	free(path);
}

static void test_not_a_database(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	char *path = path_of("junk.db");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not a database, only a file with its name\n", f);
	for (int i = 0; i < 200; i++)
		fputs("padding padding padding padding padding\n", f);
	fclose(f);
	assert_int_equal(sw_db_open(&db, path, &schema2, 0, &err), SW_EDB);
	assert_null(db);
	assert_non_null(strstr(err.msg, "not a database"));
	assert_null(strchr(err.msg, '\n'));
	free(path);
}

/* The matter schema as the code before sw_db_open wrote it at version 1
 * (record/schema.c's first migration, the last statement of each step
 * setting user_version itself). */
static const char old_matter_v1[] =
	"CREATE TABLE documents ("
	"  id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,"
	"  origin TEXT NOT NULL DEFAULT 'evidence'"
	"    CHECK (origin IN ('evidence', 'model', 'human', 'template')),"
	"  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'quarantined')),"
	"  sha256 TEXT NOT NULL, original TEXT, beg_bates TEXT, end_bates TEXT,"
	"  source_path TEXT NOT NULL, imported_at TEXT NOT NULL, bytes INTEGER NOT NULL,"
	"  page_count INTEGER NOT NULL,"
	"  meta TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(meta)),"
	"  parent_id INTEGER REFERENCES documents (id));"
	"CREATE UNIQUE INDEX documents_identity ON documents (sha256, ifnull(beg_bates, ''));"
	"CREATE INDEX documents_name ON documents (name);"
	"CREATE TABLE pages ("
	"  id INTEGER PRIMARY KEY,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  page_no INTEGER NOT NULL, bates TEXT, bates_prefix TEXT, bates_num INTEGER,"
	"  bates_source TEXT, text TEXT NOT NULL, UNIQUE (doc_id, page_no));"
	"CREATE INDEX pages_bates ON pages (bates_prefix, bates_num) WHERE bates_num IS NOT NULL;"
	"CREATE VIRTUAL TABLE pages_fts USING fts5 ("
	"  text, content = 'pages', content_rowid = 'id', tokenize = 'sworn');"
	"CREATE TABLE transcript_lines ("
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  tr_page INTEGER NOT NULL, line INTEGER NOT NULL,"
	"  page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,"
	"  start INTEGER NOT NULL, end INTEGER NOT NULL,"
	"  PRIMARY KEY (doc_id, tr_page, line)) WITHOUT ROWID;"
	"CREATE TABLE labels ("
	"  norm TEXT PRIMARY KEY, label TEXT NOT NULL, target TEXT NOT NULL,"
	"  doc_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
	"  created_at TEXT NOT NULL);"
	"INSERT INTO documents (id, name, kind, sha256, source_path, imported_at, bytes,"
	"  page_count, beg_bates) VALUES (1, 'memo.txt', 'text', 'ab12', 'memo.txt',"
	"  '2025-01-02T03:04:05Z', 40, 1, 'ACME0000001');"
	"INSERT INTO pages (id, doc_id, page_no, bates, text)"
	"  VALUES (1, 1, 1, 'ACME0000001', 'the shipment arrived late');"
	"INSERT INTO pages_fts (rowid, text) VALUES (1, 'the shipment arrived late');"
	"PRAGMA user_version = 1;";

static void test_old_matter_database_opens(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	char *path = path_of("old-matter.db");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sw__record_fts_register(db, &err), 0);
	assert_int_equal(sqlite3_exec(db, old_matter_v1, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	/* A matter's version is its count of migrations: 10 when this test
	 * was written, only ever more. */
	assert_true(SW_RECORD_SCHEMA_VERSION >= 10);
	assert_int_equal(sw__record_db_open(&db, path, false, &err), 0);
	assert_int_equal(query_int(db, "PRAGMA user_version"), SW_RECORD_SCHEMA_VERSION);
	/* The document is kept, the version-2 columns have their defaults,
	 * and the full-text index still finds the page. */
	assert_int_equal(query_int(db, "SELECT count(*) FROM documents WHERE beg_bates = 'ACME0000001'"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM pages WHERE text_source = 'text'"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM pages_fts WHERE pages_fts MATCH 'shipment'"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM quarantine"), 0);
	sqlite3_close(db);
	/* Opened again, it is current: nothing runs twice. */
	assert_int_equal(sw__record_db_open(&db, path, false, &err), 0);
	assert_int_equal(query_int(db, "PRAGMA user_version"), SW_RECORD_SCHEMA_VERSION);
	sqlite3_close(db);
	free(path);
}

/* SWORN_FAULT=db-step:N fails the Nth statement run: the first is the
 * open's own pragma, so N = 1 fails the open cleanly. */
static void test_step_fault_fails_cleanly(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	char *path = path_of("fault.db");
	assert_int_equal(sw_db_open(&db, path, &schema2, SW_DB_CREATE, &err), SW_EDB);
	assert_null(db);
	assert_non_null(strstr(err.msg, "interrupted"));
	/* The fault fired once; the next open succeeds. */
	assert_int_equal(sw_db_open(&db, path, &schema2, SW_DB_CREATE, &err), 0);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 2);
	sqlite3_close(db);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_file_migrates),
		cmocka_unit_test(test_newer_file_refused),
		cmocka_unit_test(test_failed_step_keeps_last_version),
		cmocka_unit_test(test_not_a_database),
		cmocka_unit_test(test_old_matter_database_opens),
	};
	const struct CMUnitTest fault_tests[] = {
		cmocka_unit_test(test_step_fault_fails_cleanly),
	};
	/* The fault seam reads SWORN_FAULT once, at its first use in this
	 * process: the fault group runs in a child with it set. */
	if (getenv("SW_DB_TEST_FAULT"))
		return cmocka_run_group_tests(fault_tests, setup, teardown);
	int failed = cmocka_run_group_tests(tests, setup, teardown);
	if (failed)
		return failed;
	char *self = realpath("/proc/self/exe", NULL);
	assert_non_null(self);
	char *cmd = sw_xasprintf("SW_DB_TEST_FAULT=1 SWORN_FAULT=db-step:1 '%s'", self);
	int rc = system(cmd);
	free(cmd);
	free(self);
	return rc == 0 ? 0 : 1;
}
