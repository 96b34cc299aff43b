/*
 * fuzz_tokenizer.c - the "sworn" FTS5 tokenizer on hostile page text.
 *
 * Each input is indexed, checked against a fresh tokenization
 * (integrity-check), searched for as a phrase of itself, and deleted again.
 * A phrase made of a text's own words must find that text, since queries and
 * pages go through the same tokenizer; a miss means the two disagree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *db;

static void check(int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
		fprintf(stderr, "fuzz_tokenizer: %s: %s\n", what, sqlite3_errmsg(db));
		abort();
	}
}

static void open_db(void)
{
	struct sw_err err = { 0 };
	if (sw__record_db_open(&db, ":memory:", true, &err) != 0) {
		fprintf(stderr, "fuzz_tokenizer: %s\n", err.msg);
		abort();
	}
	check(sqlite3_exec(db,
			   "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'sworn');"
			   "CREATE VIRTUAL TABLE temp.tv USING fts5vocab(main, t, 'instance');",
			   NULL, NULL, NULL), "create");
}

static int64_t step_int(sqlite3_stmt *st, const char *what)
{
	check(sqlite3_step(st), what);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sqlite3_stmt *st = NULL;
	struct sw_buf phrase = SW_BUF_INIT;

	if (size > (1 << 20))
		return 0;
	if (!db)
		open_db();

	check(sqlite3_prepare_v2(db, "INSERT INTO t (rowid, x) VALUES (1, ?1)", -1, &st, NULL),
	      "prepare insert");
	sqlite3_bind_text(st, 1, (const char *)data, (int)size, SQLITE_STATIC);
	check(sqlite3_step(st), "insert");
	sqlite3_finalize(st);
	check(sqlite3_exec(db, "INSERT INTO t (t) VALUES ('integrity-check')", NULL, NULL, NULL),
	      "integrity-check");

	/* The query parser stops at a NUL, so only NUL-free inputs can be
	 * searched for whole. */
	if (!memchr(data, 0, size)) {
		check(sqlite3_prepare_v2(db, "SELECT count(*) FROM tv", -1, &st, NULL),
		      "prepare vocab");
		int64_t terms = step_int(st, "vocab");
		sw_buf_addc(&phrase, '"');
		for (size_t i = 0; i < size; i++) {
			if (data[i] == '"')
				sw_buf_addc(&phrase, '"');
			sw_buf_addc(&phrase, (char)data[i]);
		}
		sw_buf_addc(&phrase, '"');
		check(sqlite3_prepare_v2(db, "SELECT count(*) FROM t WHERE t MATCH ?1", -1, &st,
					 NULL), "prepare match");
		sqlite3_bind_text(st, 1, phrase.data, (int)phrase.len, SQLITE_STATIC);
		int64_t found = step_int(st, "match");
		if (terms > 0 && found != 1) {
			fprintf(stderr, "fuzz_tokenizer: the text does not match itself\n");
			abort();
		}
	}

	check(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), "delete");
	sw_buf_release(&phrase);
	return 0;
}
