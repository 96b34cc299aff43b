/*
 * fuzz_tokenizer.c - the "sworn" FTS5 tokenizer on hostile page text.
 *
 * Each input is indexed, checked against a fresh tokenization
 * (integrity-check) and searched for as a phrase of itself, all in one
 * transaction that is then rolled back: a commit after every statement and
 * a DELETE were three quarters of the time (837 inputs a second, 3,092 so;
 * the queries read the transaction's own rows, so the tokenizer is run on
 * each input as before, and a rollback that left the row would fail the
 * next input's insert).
 * A phrase made of a text's own words must find that text, since queries and
 * pages go through the same tokenizer; a miss means the two disagree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *db;
/* Prepared once, not per input (7% of the target's time).  Most of what is
 * left is SQLite's: FTS5 prepares its own statements and allocates under
 * ASan. */
static sqlite3_stmt *st_begin, *st_insert, *st_check, *st_vocab, *st_match, *st_rollback;

static void check(int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
		fprintf(stderr, "fuzz_tokenizer: %s: %s\n", what, sqlite3_errmsg(db));
		abort();
	}
}

static void prepare(sqlite3_stmt **st, const char *sql)
{
	check(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL), sql);
}

static void close_db(void)
{
	sqlite3_finalize(st_begin);
	sqlite3_finalize(st_insert);
	sqlite3_finalize(st_check);
	sqlite3_finalize(st_vocab);
	sqlite3_finalize(st_match);
	sqlite3_finalize(st_rollback);
	sqlite3_close(db);
}

static void open_db(void)
{
	struct sw_err err = { 0 };
	/* SQLite's memory statistics take a mutex on every allocation; the
	 * target never reads them. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sw__record_db_open(&db, ":memory:", true, &err) != 0) {
		fprintf(stderr, "fuzz_tokenizer: %s\n", err.msg);
		abort();
	}
	check(sqlite3_exec(db,
			   "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'sworn');"
			   "CREATE VIRTUAL TABLE temp.tv USING fts5vocab(main, t, 'instance');",
			   NULL, NULL, NULL), "create");
	prepare(&st_begin, "BEGIN");
	prepare(&st_insert, "INSERT INTO t (rowid, x) VALUES (1, ?1)");
	prepare(&st_check, "INSERT INTO t (t) VALUES ('integrity-check')");
	prepare(&st_vocab, "SELECT count(*) FROM tv");
	prepare(&st_match, "SELECT count(*) FROM t WHERE t MATCH ?1");
	prepare(&st_rollback, "ROLLBACK");
	atexit(close_db);
}

/* Steps ST once, resets it (clearing its bindings) and gives its first
 * column: a count, or 0 for a statement that returns no row. */
static int64_t step(sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	check(rc, what);
	int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	check(sqlite3_reset(st), what);
	sqlite3_clear_bindings(st);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_buf phrase = SW_BUF_INIT;

	if (size > (1 << 20))
		return 0;
	if (!db)
		open_db();

	step(st_begin, "begin");
	sqlite3_bind_text(st_insert, 1, (const char *)data, (int)size, SQLITE_STATIC);
	step(st_insert, "insert");
	step(st_check, "integrity-check");

	/* The query parser stops at a NUL, so only NUL-free inputs can be
	 * searched for whole. */
	if (!memchr(data, 0, size)) {
		int64_t terms = step(st_vocab, "vocab");
		sw_buf_addc(&phrase, '"');
		for (size_t i = 0; i < size; i++) {
			if (data[i] == '"')
				sw_buf_addc(&phrase, '"');
			sw_buf_addc(&phrase, (char)data[i]);
		}
		sw_buf_addc(&phrase, '"');
		sqlite3_bind_text(st_match, 1, phrase.data, (int)phrase.len, SQLITE_STATIC);
		int64_t found = step(st_match, "match");
		if (terms > 0 && found != 1) {
			fprintf(stderr, "fuzz_tokenizer: the text does not match itself\n");
			abort();
		}
	}

	step(st_rollback, "rollback");
	sw_buf_release(&phrase);
	return 0;
}
