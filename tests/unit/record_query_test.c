/*
 * record_query_test.c - the production summary (sw_record_bates_summary)
 * and a matter database whose Bates prefixes an older build stored as
 * written ("BLT-"), opened by this one: the schema's version-3 migration
 * makes them canonical, so lookups by canonical prefix find the pages
 * without a re-import; the verifier's look-ups kept and indexed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define TMPDIR_TAG "record-query"
#include "tmpdir.h"

#include "record/record_int.h"

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

static long long query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	long long v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A matter over a fresh database file name in the scratch folder. */
static void matter_open(struct sw_matter *m, const char *name, bool create)
{
	struct sw_err err = { 0 };
	memset(m, 0, sizeof(*m));
	m->name = sw_xstrdup("test");
	m->dir = sw_xstrdup(dir);
	m->files_dir = sw_path_join(dir, "files");
	char *path = sw_path_join(dir, name);
	int rc = sw__record_db_open(&m->db, path, create, &err);
	free(path);
	if (rc != 0)
		fail_msg("cannot open the test database: %s", err.msg);
}

static void matter_close(struct sw_matter *m)
{
	sw__record_cache_clear(m);
	/* as sw_matter_close: the statements it keeps go first */
	for (size_t i = 0; i < SW_ARRAY_LEN(m->queries); i++)
		sqlite3_finalize(m->queries[i].st);
	for (size_t i = 0; i < SW_ARRAY_LEN(m->stmts); i++)
		sqlite3_finalize(m->stmts[i]);
	sqlite3_close(m->db);
	free(m->name);
	free(m->dir);
	free(m->files_dir);
}

/* One evidence document (id doc) whose pages carry the Bates numbers
 * given: bates as written, prefix as stored, number. */
struct page_row {
	const char *bates, *prefix;
	int num;
};

static void add_document(sqlite3 *db, int doc, const struct page_row *rows, size_t n)
{
	char *sql = sw_xasprintf(
		"INSERT INTO documents (id, name, kind, sha256, source_path, imported_at, bytes,"
		" page_count, beg_bates) VALUES (%d, 'doc%d.txt', 'text', 'sha%d', 'doc%d.txt',"
		" '2025-01-02T03:04:05Z', 100, %zu, '%s')",
		doc, doc, doc, doc, n, rows[0].bates);
	exec(db, sql);
	free(sql);
	for (size_t k = 0; k < n; k++) {
		sql = sw_xasprintf("INSERT INTO pages (doc_id, page_no, bates, bates_prefix, bates_num,"
				   " bates_source, text) VALUES (%d, %zu, '%s', '%s', %d, 'stamp',"
				   " 'page %zu of document %d')",
				   doc, k + 1, rows[k].bates, rows[k].prefix, rows[k].num, k + 1, doc);
		exec(db, sql);
		free(sql);
	}
}

static void test_summary(void **state)
{
	(void)state;
	struct sw_matter m;
	struct sw_err err = { 0 };
	char *s = NULL;
	matter_open(&m, "summary.db", true);
	assert_int_equal(sw_record_bates_summary(&s, &m, &err), 0);
	assert_string_equal(s, "");
	free(s);
	const struct page_row blt[] = {
		{ "BLT-000001", "BLT", 1 }, { "BLT-000002", "BLT", 2 }, { "BLT-000012", "BLT", 12 },
	};
	const struct page_row acme[] = { { "ACME0000001", "ACME", 1 } };
	const struct page_row zed[] = { { "ZED 0007", "ZED", 7 }, { "ZED 0009", "ZED", 9 } };
	add_document(m.db, 1, blt, SW_ARRAY_LEN(blt));
	add_document(m.db, 2, acme, SW_ARRAY_LEN(acme));
	add_document(m.db, 3, zed, SW_ARRAY_LEN(zed));
	assert_int_equal(sw_record_bates_summary(&s, &m, &err), 0);
	/* An en dash between the ends of a series, each number as written;
	 * a series of one number alone. */
	assert_string_equal(s, "ACME0000001, BLT-000001\xe2\x80\x93" "BLT-000012, "
			       "ZED 0007\xe2\x80\x93ZED 0009");
	assert_null(strstr(s, "BLT-000001-BLT"));
	free(s);
	matter_close(&m);
}

/* The verifier's look-ups, asked for every citation of a draft: a Bates
 * look-up is prepared once per open matter, and a page's transcript lines
 * are read through their index, not by a scan of every transcript line
 * of the matter. */
static void test_lookups_kept_and_indexed(void **state)
{
	(void)state;
	struct sw_matter m;
	struct sw_err err = { 0 };
	matter_open(&m, "lookups.db", true);
	const struct page_row blt[] = { { "BLT-000001", "BLT", 1 }, { "BLT-000002", "BLT", 2 } };
	add_document(m.db, 1, blt, SW_ARRAY_LEN(blt));
	for (int k = 0; k < 400; k++) {
		char *sql = sw_xasprintf("INSERT INTO transcript_lines (doc_id, tr_page, line,"
					 " page_id, start, end) VALUES (1, %d, %d, %d, %d, %d)",
					 k / 25 + 1, k % 25 + 1, k < 200 ? 1 : 2, k, k + 1);
		exec(m.db, sql);
		free(sql);
	}
	struct sw_bates_ref ref;
	assert_int_equal(sw_bates_ref_parse(&ref, "BLT-000001", 10), 0);
	for (int k = 0; k < 3; k++) {
		uint64_t have = 0;
		struct sw_record_page first;
		assert_int_equal(sw_record_bates_lookup(&have, &first, &m, &ref, &err), 0);
		assert_int_equal(have, 1);
		assert_string_equal(first.bates, "BLT-000001");
		sw_record_page_release(&first);
	}
	struct sw_record_tline *l = NULL;
	size_t n = 0;
	assert_int_equal(sw_record_page_lines(&l, &n, &m, 2, &err), 0);
	assert_int_equal(n, 200);
	assert_int_equal(l[0].tr_page, 9);
	assert_int_equal(l[0].line, 1);
	free(l);
	size_t bates = 0, lines = 0;
	for (size_t i = 0; i < SW_ARRAY_LEN(m.queries); i++) {
		if (!m.queries[i].sql)
			continue;
		bates += strstr(m.queries[i].sql, "min(p.bates_num)") != NULL;
		if (strstr(m.queries[i].sql, "FROM transcript_lines")) {
			lines++;
			sqlite3_stmt *st = m.queries[i].st;
			assert_int_equal(
				sqlite3_stmt_status(st, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0), 0);
			assert_int_equal(sqlite3_stmt_status(st, SQLITE_STMTSTATUS_SORT, 0), 0);
		}
	}
	assert_int_equal(bates, 1);
	assert_int_equal(lines, 1);

	/* A read transaction around the look-ups: begun, the queries run in
	 * it (and leave it open); ended, none is open.  Inside a transaction
	 * of the caller's, none begins and the caller's stays open. */
	assert_true(sw_record_read_begin(&m));
	assert_int_equal(sqlite3_get_autocommit(m.db), 0);
	uint64_t have = 0;
	assert_int_equal(sw_record_bates_lookup(&have, NULL, &m, &ref, &err), 0);
	assert_int_equal(have, 1);
	assert_int_equal(sqlite3_get_autocommit(m.db), 0);
	/* within it a page read again comes from the matter's cache: its
	 * text's query runs once for three reads, the same bytes each time */
	struct sw_buf text = SW_BUF_INIT;
	for (int k = 0; k < 3; k++) {
		assert_int_equal(sw_record_page_text(&text, &m, 2, &err), 0);
		assert_string_equal(text.data, "page 2 of document 1");
		assert_int_equal(sw_record_page_lines(&l, &n, &m, 2, &err), 0);
		assert_int_equal(n, 200);
		free(l);
		struct sw_record_page p;
		assert_int_equal(sw_record_page_by_id(&p, &m, 2, &err), 0);
		assert_string_equal(p.bates, "BLT-000002");
		sw_record_page_release(&p);
	}
	assert_int_equal(sw_record_page_text(&text, &m, 99, &err), SW_ENOTFOUND);
	/* and a Bates look-up asked again: its query does not run again */
	sqlite3_stmt *bst = NULL;
	for (size_t i = 0; i < SW_ARRAY_LEN(m.queries); i++)
		if (m.queries[i].sql && strstr(m.queries[i].sql, "min(p.bates_num)"))
			bst = m.queries[i].st;
	assert_non_null(bst);
	int runs = sqlite3_stmt_status(bst, SQLITE_STMTSTATUS_RUN, 0);
	for (int k = 0; k < 3; k++) {
		struct sw_record_page p;
		assert_int_equal(sw_record_bates_lookup(&have, &p, &m, &ref, &err), 0);
		assert_int_equal(have, 1);
		assert_string_equal(p.bates, "BLT-000001");
		sw_record_page_release(&p);
	}
	assert_int_equal(sqlite3_stmt_status(bst, SQLITE_STMTSTATUS_RUN, 0), runs + 1);
	for (size_t i = 0; i < SW_ARRAY_LEN(m.queries); i++)
		if (m.queries[i].sql && strncmp(m.queries[i].sql, "SELECT p.text ", 14) == 0)
			assert_int_equal(sqlite3_stmt_status(m.queries[i].st,
							     SQLITE_STMTSTATUS_RUN, 0), 2);
	sw_record_read_end(&m);
	assert_int_equal(sqlite3_get_autocommit(m.db), 1);
	for (size_t i = 0; i < SW_ARRAY_LEN(m.cache); i++)
		assert_int_equal(m.cache[i].id, 0);
	/* outside it, every read asks SQLite */
	assert_int_equal(sw_record_page_text(&text, &m, 2, &err), 0);
	assert_int_equal(m.cache[0].id, 0);
	sw_buf_release(&text);
	exec(m.db, "BEGIN");
	assert_false(sw_record_read_begin(&m));
	assert_int_equal(sqlite3_get_autocommit(m.db), 0);
	exec(m.db, "COMMIT");
	matter_close(&m);
}

/* A file written by a build that kept the prefix as written: the same
 * tables at version 2, "BLT-" and "blt_" where this build keeps "BLT". */
static void test_old_prefixes_migrated(void **state)
{
	(void)state;
	struct sw_matter m;
	struct sw_err err = { 0 };
	matter_open(&m, "old.db", true);
	const struct page_row old[] = {
		{ "BLT-000001", "BLT-", 1 }, { "BLT-000002", "BLT-", 2 }, { "BLT-000003", "BLT-", 3 },
	};
	const struct page_row other[] = { { "blt_000004", "blt_", 4 } };
	const struct page_row acme[] = { { "ACME0000001", "ACME", 1 } };
	add_document(m.db, 1, old, SW_ARRAY_LEN(old));
	add_document(m.db, 2, other, SW_ARRAY_LEN(other));
	add_document(m.db, 3, acme, SW_ARRAY_LEN(acme));
	/* a version-2 file has none of the later migrations' tables */
	exec(m.db, "DROP TABLE settings; DROP TABLE removals; DROP TABLE doc_terms;"
		   " DROP TABLE doc_fields; DROP VIEW record_docs; DROP TABLE qc_findings;"
		   " DROP TABLE qc_volumes; DROP INDEX transcript_lines_page;"
		   " PRAGMA user_version = 2");
	matter_close(&m);

	matter_open(&m, "old.db", false);
	assert_int_equal(query_int(m.db, "PRAGMA user_version"), SW_RECORD_SCHEMA_VERSION);
	assert_true(SW_RECORD_SCHEMA_VERSION >= 3);
	assert_int_equal(query_int(m.db, "SELECT count(*) FROM pages WHERE bates_prefix = 'BLT'"), 4);
	assert_int_equal(query_int(m.db, "SELECT count(*) FROM pages WHERE bates_prefix = 'ACME'"), 1);
	/* The numbers stay as written. */
	assert_int_equal(query_int(m.db, "SELECT count(*) FROM pages WHERE bates = 'BLT-000003'"), 1);
	struct sw_record_page p;
	assert_int_equal(sw_record_page_by_bates(&p, &m, "BLT", 3, &err), 0);
	assert_string_equal(p.bates, "BLT-000003");
	sw_record_page_release(&p);
	uint64_t n = 0;
	assert_int_equal(sw_record_bates_count(&n, &m, "BLT", 1, 4, &err), 0);
	assert_int_equal(n, 4);
	matter_close(&m);
	/* Opened again, it is current: nothing runs twice. */
	matter_open(&m, "old.db", false);
	assert_int_equal(query_int(m.db, "PRAGMA user_version"), SW_RECORD_SCHEMA_VERSION);
	matter_close(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_old_prefixes_migrated),
		cmocka_unit_test(test_lookups_kept_and_indexed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
