/*
 * record_search_test.c - the "sworn" FTS5 tokenizer and sw_search(): ranking,
 * Bates numbers in every spelling, "§", folded accents, snippets, the
 * evidence-only filter, raw FTS5 queries and hostile page text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <utf8proc.h>

#include "record/record_int.h"

struct fixture {
	char *tmp;
	struct sw_matter m;
};

static int setup(void **state)
{
	struct fixture *f = sw_xcalloc(1, sizeof(*f));
	struct sw_err err = { 0 };
	const char *base = getenv("TMPDIR");

	f->tmp = sw_xasprintf("%s/sworn-search-XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(f->tmp));
	f->m.name = sw_xstrdup("test");
	f->m.dir = sw_xstrdup(f->tmp);
	f->m.files_dir = sw_path_join(f->tmp, "files");
	char *path = sw_path_join(f->tmp, "matter.db");
	int rc = sw__record_db_open(&f->m.db, path, true, &err);
	free(path);
	if (rc != 0)
		fail_msg("cannot open the test database: %s", err.msg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = { "matter.db", "matter.db-wal", "matter.db-shm" };

	/* as sw_matter_close: the statements it keeps go first */
	for (size_t i = 0; i < SW_ARRAY_LEN(f->m.queries); i++)
		sqlite3_finalize(f->m.queries[i].st);
	for (size_t i = 0; i < SW_ARRAY_LEN(f->m.stmts); i++)
		sqlite3_finalize(f->m.stmts[i]);
	sqlite3_close(f->m.db);
	for (size_t i = 0; i < SW_ARRAY_LEN(names); i++) {
		char *p = sw_path_join(f->tmp, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(f->tmp);
	free(f->tmp);
	free(f->m.name);
	free(f->m.dir);
	free(f->m.files_dir);
	free(f);
	return 0;
}

static void exec(struct sw_matter *m, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(m->db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

/* The first column of the first row of sql, as a string the caller frees. */
static char *sql_text(struct sw_matter *m, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(m->db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	const char *v = (const char *)sqlite3_column_text(st, 0);
	char *copy = sw_xstrdup(v ? v : "");
	sqlite3_finalize(st);
	return copy;
}

static int64_t add_doc(struct sw_matter *m, const char *name, const char *origin,
		       const char *status)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(m->db,
		"INSERT INTO documents (name, kind, origin, status, sha256, source_path,"
		" imported_at, bytes, page_count)"
		" VALUES (?1, 'text', ?2, ?3, ?1, ?1, '2024-01-01T00:00:00Z', 0, 0)",
		-1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, origin, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, status, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	return sqlite3_last_insert_rowid(m->db);
}

static void add_page_n(struct sw_matter *m, int64_t doc, int page_no,
		       const char *bates, const char *text, size_t len)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(m->db,
		"INSERT INTO pages (doc_id, page_no, bates, text) VALUES (?1, ?2, ?3, ?4)",
		-1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, doc);
	sqlite3_bind_int(st, 2, page_no);
	sqlite3_bind_text(st, 3, bates, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, text, (int)len, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	int64_t id = sqlite3_last_insert_rowid(m->db);

	assert_int_equal(sqlite3_prepare_v2(m->db,
		"INSERT INTO pages_fts (rowid, text) VALUES (?1, ?2)", -1, &st, NULL),
		SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, text, (int)len, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		fail_msg("cannot index page: %s", sqlite3_errmsg(m->db));
	sqlite3_finalize(st);
}

static void add_page(struct sw_matter *m, int64_t doc, int page_no,
		     const char *bates, const char *text)
{
	add_page_n(m, doc, page_no, bates, text, strlen(text));
}

/* Search, expecting success; returns the number of hits. */
static size_t search(struct sw_search_hit **hits, struct sw_matter *m,
		     const char *query, const struct sw_search_opts *opts)
{
	struct sw_err err = { 0 };
	size_t n = 0;
	*hits = NULL;
	if (sw_search(hits, &n, m, query, opts, &err) != 0)
		fail_msg("search '%s': %s", query, err.msg);
	return n;
}

static size_t count(struct sw_matter *m, const char *query,
		    const struct sw_search_opts *opts)
{
	struct sw_search_hit *hits;
	size_t n = search(&hits, m, query, opts);
	sw_search_hits_free(hits, n);
	return n;
}

static void test_rank(void **state)
{
	struct fixture *f = *state;
	int64_t a = add_doc(&f->m, "once.txt", "evidence", "active");
	int64_t b = add_doc(&f->m, "thrice.txt", "evidence", "active");
	add_page(&f->m, a, 1, NULL,
		 "The seller's breach of the warranty was disputed by both parties "
		 "at length during the hearing before the magistrate judge.");
	add_page(&f->m, b, 1, "ACME-0000007",
		 "Breach upon breach: the breach was material.");
	add_page(&f->m, b, 2, NULL, "Nothing relevant on this page.");

	struct sw_search_hit *hits;
	size_t n = search(&hits, &f->m, "breach", NULL);
	assert_int_equal(n, 2);
	assert_string_equal(hits[0].document, "thrice.txt");
	assert_int_equal(hits[0].doc_id, b);
	assert_int_equal(hits[0].page, 1);
	assert_string_equal(hits[0].bates, "ACME-0000007");
	assert_string_equal(hits[0].origin, "evidence");
	assert_string_equal(hits[1].document, "once.txt");
	assert_null(hits[1].bates);
	assert_true(hits[0].score < hits[1].score);

	/* Hits are appended to what the caller already holds. */
	struct sw_err err = { 0 };
	struct sw_search_opts one = { .limit = 1 };
	assert_int_equal(sw_search(&hits, &n, &f->m, "breach", &one, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(hits[2].document, "thrice.txt");
	sw_search_hits_free(hits, n);

	/* Every word must be on the page; quotes and lone punctuation in a
	 * plain query are not syntax. */
	assert_int_equal(count(&f->m, "breach material", NULL), 1);
	assert_int_equal(count(&f->m, "\"breach\" - material &", NULL), 1);
	assert_int_equal(count(&f->m, "breach OR nothing", NULL), 0);
	assert_int_equal(count(&f->m, "breach (", NULL), 2);
}

static void test_bates(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "ACME-0000123", "evidence", "active");
	add_page(&f->m, d, 1, "ACME-0000123", "Letter re supply terms\nACME-0000123");
	add_page(&f->m, d, 2, "ACME_0000124", "Attachment\nACME_0000124");
	add_page(&f->m, d, 3, "ACME0000125", "Schedule\nACME0000125");
	/* U+2011, the non-breaking hyphen of extracted PDF text. */
	add_page(&f->m, d, 4, "ACME-0000200", "Exhibit list ACME\xe2\x80\x91" "0000200");

	static const char *const spellings[] = {
		"ACME-0000123", "ACME_0000123", "ACME0000123", "0000123", "acme-0000123",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(spellings); i++) {
		struct sw_search_hit *hits;
		size_t n = search(&hits, &f->m, spellings[i], NULL);
		assert_int_equal(n, 1);
		assert_int_equal(hits[0].page, 1);
		sw_search_hits_free(hits, n);
	}
	assert_int_equal(count(&f->m, "ACME-0000124", NULL), 1);
	assert_int_equal(count(&f->m, "ACME0000124", NULL), 1);
	assert_int_equal(count(&f->m, "0000124", NULL), 1);
	assert_int_equal(count(&f->m, "ACME-0000125", NULL), 1);
	assert_int_equal(count(&f->m, "ACME_0000125", NULL), 1);
	assert_int_equal(count(&f->m, "0000125", NULL), 1);
	assert_int_equal(count(&f->m, "ACME-0000200", NULL), 1);
	assert_int_equal(count(&f->m, "0000200", NULL), 1);
	assert_int_equal(count(&f->m, "ACME-0000126", NULL), 0);
	assert_int_equal(count(&f->m, "0000126", NULL), 0);
}

/* A page whose Bates number comes only from the load file (stored as the
 * store does: the number as written, the canonical prefix). */
static int64_t add_numbered(struct sw_matter *m, int64_t doc, int page_no, const char *bates,
			    const char *text)
{
	struct sw_bates b;
	char canon[SW_BATES_CANON_MAX];
	sqlite3_stmt *st = NULL;
	assert_int_equal(sw_bates_parse(&b, bates, strlen(bates)), 0);
	sw_bates_canon_prefix(canon, b.prefix, strlen(b.prefix));
	add_page(m, doc, page_no, bates, text);
	int64_t id = sqlite3_last_insert_rowid(m->db);
	assert_int_equal(sqlite3_prepare_v2(m->db,
		"UPDATE pages SET bates_prefix = ?1, bates_num = ?2 WHERE doc_id = ?3 AND page_no = ?4",
		-1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, canon, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)b.number);
	sqlite3_bind_int64(st, 3, doc);
	sqlite3_bind_int(st, 4, page_no);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	return id;
}

static void test_bates_from_loadfile(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "BLT-000006", "evidence", "active");
	add_numbered(&f->m, d, 1, "BLT-000006", "The delivery schedule");
	add_numbered(&f->m, d, 2, "BLT-000007", "the widgets arrived late");
	add_numbered(&f->m, d, 3, "BLT-000008", "credit note");
	add_numbered(&f->m, d, 4, "BLT-000009", "signature page");
	int64_t q = add_doc(&f->m, "quarantined", "evidence", "quarantined");
	add_numbered(&f->m, q, 1, "BLT-000010", "kept out");
	int64_t o = add_doc(&f->m, "other", "evidence", "active");
	add_page(&f->m, o, 1, NULL, "as BLT-000007 shows, the widgets were late");

	/* Every spelling of one number finds its page first. */
	static const char *const seven[] = {
		"BLT-000007", "BLT000007", "BLT 000007", "BLT_000007", "blt-000007", "BLT-0007",
		"BLT-007", "  BLT-000007 ",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(seven); i++) {
		struct sw_search_hit *hits;
		size_t n = search(&hits, &f->m, seven[i], NULL);
		if (n < 1 || !hits[0].bates || strcmp(hits[0].bates, "BLT-000007") != 0)
			fail_msg("'%s': %zu hits, first %s", seven[i], n,
				 n && hits[0].bates ? hits[0].bates : "-");
		assert_int_equal(hits[0].page, 2);
		assert_true(hits[0].score == 0.0);
		for (size_t k = 1; k < n; k++) /* each page once */
			assert_false(hits[k].doc_id == d && hits[k].page == 2);
		sw_search_hits_free(hits, n);
	}
	/* The cite in the other document's text is found too, after. */
	assert_int_equal(count(&f->m, "BLT-000007", NULL), 2);
	/* Ranges, in the forms drafts write them. */
	assert_int_equal(count(&f->m, "BLT-000006\xe2\x80\x93" "BLT-000009", NULL), 4);
	assert_int_equal(count(&f->m, "BLT-000006 - BLT-000008", NULL), 3);
	assert_int_equal(count(&f->m, "BLT-000007-000009", NULL), 3);
	assert_int_equal(count(&f->m, "BLT-000007-09", NULL), 3);
	assert_int_equal(count(&f->m, "BLT-000006 to BLT-000007", NULL), 2);
	/* With other words: pages numbered so that hold them. */
	assert_int_equal(count(&f->m, "BLT-000006-000009 credit", NULL), 1);
	assert_int_equal(count(&f->m, "widgets BLT-000007", NULL), 2);
	assert_int_equal(count(&f->m, "BLT-000007 nosuchword", NULL), 0);
	/* Quarantined pages only with --all. */
	assert_int_equal(count(&f->m, "BLT-000010", NULL), 0);
	struct sw_search_opts all = { .include_all = true };
	assert_int_equal(count(&f->m, "BLT-000010", &all), 1);
	assert_int_equal(count(&f->m, "BLT-000011", NULL), 0);

	/* The verifier's lookup: any spelling, single or range. */
	struct sw_err err = { 0 };
	struct sw_record_page pg;
	struct sw_bates_ref ref;
	uint64_t have = 0;
	assert_int_equal(sw_record_bates_find(&have, &pg, &ref, &f->m, "BLT 7", 5, &err), SW_EINPUT);
	static const char *const forms[] = { "BLT-000007", "BLT000007", "BLT_7", "blt 000007" };
	for (size_t i = 0; i < SW_ARRAY_LEN(forms); i++) {
		if (!strcmp(forms[i], "BLT_7"))
			continue; /* two digits: not a Bates number */
		assert_int_equal(sw_record_bates_find(&have, &pg, &ref, &f->m, forms[i],
						      strlen(forms[i]), &err), 0);
		assert_int_equal(have, 1);
		assert_string_equal(pg.bates, "BLT-000007");
		assert_int_equal(pg.page_no, 2);
		sw_record_page_release(&pg);
	}
	assert_int_equal(sw_record_bates_find(&have, &pg, &ref, &f->m,
					      "BLT-000006\xe2\x80\x93" "BLT-000012",
					      strlen("BLT-000006\xe2\x80\x93" "BLT-000012"), &err), 0);
	assert_int_equal(have, 4); /* 6-9; 10 is quarantined, 11-12 do not exist */
	assert_string_equal(ref.prefix, "BLT");
	assert_int_equal(ref.first, 6);
	assert_int_equal(ref.last, 12);
	assert_string_equal(pg.bates, "BLT-000006");
	sw_record_page_release(&pg);
	/* The older per-number calls take the canonical prefix. */
	assert_int_equal(sw_record_page_by_bates(&pg, &f->m, "BLT", 9, &err), 0);
	assert_string_equal(pg.bates, "BLT-000009");
	sw_record_page_release(&pg);
	assert_int_equal(sw_record_bates_count(&have, &f->m, "BLT", 6, 9, &err), 0);
	assert_int_equal(have, 4);
}

/* A hit on a deposition page is cited as the transcript is. */
static void test_transcript_cite(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "whitaker-dep.txt", "evidence", "active");
	exec(&f->m, "UPDATE documents SET kind = 'transcript'");
	const char *page =
		"Page 12\n"
		" 1  Q.  Where were you on the morning of March 3?\n"
		" 2  A.  At the warehouse.\n"
		" 3  Q.  Who else was there?\n"
		" 4  A.  The driver and two loaders.\n"
		" 5  Q.  What happened then?\n"
		" 6  A.  The truck came in late.\n"
		" 7  Q.  How late?\n"
		" 8  A.  About three hours; the pallets were soaked.\n"
		" 9  Q.  Did you tell anyone?\n";
	add_page(&f->m, d, 1, NULL, page);
	int64_t pid = sqlite3_last_insert_rowid(f->m.db);
	uint32_t pno = 0;
	struct sw_tr_line *lines = NULL;
	size_t n = 0, cap = 0;
	assert_int_equal(sw_transcript_page(&pno, &lines, &n, &cap, page, strlen(page)), 9);
	for (size_t i = 0; i < n; i++) {
		char *sql = sw_xasprintf("INSERT INTO transcript_lines VALUES (%lld, %u, %u, %lld, %zu, %zu)",
					 (long long)d, lines[i].page, lines[i].line, (long long)pid,
					 lines[i].start, lines[i].end);
		exec(&f->m, sql);
		free(sql);
	}
	free(lines);

	struct sw_search_hit *hits;
	size_t k = search(&hits, &f->m, "pallets soaked", NULL);
	assert_int_equal(k, 1);
	assert_string_equal(hits[0].cite, "whitaker-dep.txt 12:8");
	sw_search_hits_free(hits, k);

	/* With a deposition label, the label names it. */
	exec(&f->m, "INSERT INTO labels VALUES ('whitaker dep', 'Whitaker Dep.', 'whitaker-dep.txt', 1,"
		    " '2024-01-01T00:00:00Z')");
	k = search(&hits, &f->m, "pallets", NULL);
	assert_int_equal(k, 1);
	assert_string_equal(hits[0].cite, "Whitaker Dep. 12:8");
	sw_search_hits_free(hits, k);
	k = search(&hits, &f->m, "warehouse", NULL);
	assert_string_equal(hits[0].cite, "Whitaker Dep. 12:2");
	sw_search_hits_free(hits, k);
	/* A match in the page header is cited at the page's first line. */
	k = search(&hits, &f->m, "page 12", NULL);
	assert_int_equal(k, 1);
	assert_string_equal(hits[0].cite, "Whitaker Dep. 12:1");
	sw_search_hits_free(hits, k);
	/* Raw FTS5 queries too. */
	struct sw_search_opts raw = { .raw = true };
	k = search(&hits, &f->m, "NEAR(driver loaders, 3)", &raw);
	assert_int_equal(k, 1);
	assert_string_equal(hits[0].cite, "Whitaker Dep. 12:4");
	sw_search_hits_free(hits, k);
	/* Other documents have no cite. */
	int64_t o = add_doc(&f->m, "memo.txt", "evidence", "active");
	add_page(&f->m, o, 1, NULL, "the pallets memo");
	k = search(&hits, &f->m, "memo", NULL);
	assert_int_equal(k, 1);
	assert_null(hits[0].cite);
	sw_search_hits_free(hits, k);
}

static void test_section_sign(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "complaint.txt", "evidence", "active");
	add_page(&f->m, d, 1, NULL, "Count I arises under 42 U.S.C. \xc2\xa7" "1983.");
	add_page(&f->m, d, 2, NULL, "Count II: \xc2\xb6 12 and 1983 alone.");

	assert_int_equal(count(&f->m, "\xc2\xa7 1983", NULL), 1);
	assert_int_equal(count(&f->m, "\xc2\xa7" "1983", NULL), 1);
	assert_int_equal(count(&f->m, "\xc2\xb6 12", NULL), 1);
	assert_int_equal(count(&f->m, "1983", NULL), 2);
	assert_int_equal(count(&f->m, "\xc2\xa7 1984", NULL), 0);
}

static void test_folding(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "menu.txt", "evidence", "active");
	add_page(&f->m, d, 1, NULL, "Meeting at the Caf\xc3\xa9 Rouge.");
	add_page(&f->m, d, 2, NULL, "The \xef\xac\x81nal NA\xc3\x8fVE draft.");
	add_page(&f->m, d, 3, NULL, "Decomposed: re\xcc\x81sume\xcc\x81 attached.");
	add_page(&f->m, d, 4, NULL, "A justified line breaks the indem\xc2\xad" "nification.");

	assert_int_equal(count(&f->m, "cafe", NULL), 1);
	assert_int_equal(count(&f->m, "CAF\xc3\x89", NULL), 1);
	assert_int_equal(count(&f->m, "final", NULL), 1);
	assert_int_equal(count(&f->m, "naive", NULL), 1);
	assert_int_equal(count(&f->m, "r\xc3\xa9sum\xc3\xa9", NULL), 1);
	assert_int_equal(count(&f->m, "resume", NULL), 1);
	assert_int_equal(count(&f->m, "indemnification", NULL), 1);
	assert_int_equal(count(&f->m, "indem", NULL), 0);
}

static void test_snippet(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "memo.txt", "evidence", "active");
	add_page(&f->m, d, 1, NULL,
		 "Privileged memo. The Breach occurred on March 3 when the "
		 "shipment arrived late.");

	struct sw_search_hit *hits;
	size_t n = search(&hits, &f->m, "breach", NULL);
	assert_int_equal(n, 1);
	assert_non_null(strstr(hits[0].snippet, "\x01" "Breach" "\x02"));
	sw_search_hits_free(hits, n);

	n = search(&hits, &f->m, "0000123", NULL);
	assert_int_equal(n, 0);
	sw_search_hits_free(hits, n);
}

static void test_evidence_only(void **state)
{
	struct fixture *f = *state;
	int64_t ev = add_doc(&f->m, "evidence.txt", "evidence", "active");
	int64_t q = add_doc(&f->m, "quarantined.txt", "evidence", "quarantined");
	int64_t model = add_doc(&f->m, "draft.txt", "model", "active");
	int64_t human = add_doc(&f->m, "notes.txt", "human", "active");
	add_page(&f->m, ev, 1, NULL, "indemnification clause");
	add_page(&f->m, q, 1, NULL, "indemnification clause, suspicious copy");
	add_page(&f->m, model, 1, NULL, "indemnification summary written by a model");
	add_page(&f->m, human, 1, NULL, "indemnification notes");

	struct sw_search_hit *hits;
	size_t n = search(&hits, &f->m, "indemnification", NULL);
	assert_int_equal(n, 1);
	assert_string_equal(hits[0].document, "evidence.txt");
	sw_search_hits_free(hits, n);

	struct sw_search_opts all = { .include_all = true };
	n = search(&hits, &f->m, "indemnification", &all);
	assert_int_equal(n, 4);
	bool seen_model = false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(hits[i].origin, "model") == 0)
			seen_model = true;
	assert_true(seen_model);
	sw_search_hits_free(hits, n);
}

static void test_raw(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "raw.txt", "evidence", "active");
	add_page(&f->m, d, 1, NULL, "the breach of contract was admitted");
	add_page(&f->m, d, 2, NULL, "a warranty claim only");
	add_page(&f->m, d, 3, NULL,
		 "breach is one word and much later on this page comes contract");

	struct sw_search_opts raw = { .raw = true };
	assert_int_equal(count(&f->m, "breach OR warranty", &raw), 3);
	assert_int_equal(count(&f->m, "NEAR(breach contract, 2)", &raw), 1);
	assert_int_equal(count(&f->m, "breach NOT contract", &raw), 0);
	assert_int_equal(count(&f->m, "warr*", &raw), 1);
	/* The plain form of the same text is words, not syntax. */
	assert_int_equal(count(&f->m, "breach OR warranty", NULL), 0);

	static const char *const bad[] = { "breach AND (", "\"unterminated", "AND", "nosuchcol: x" };
	for (size_t i = 0; i < SW_ARRAY_LEN(bad); i++) {
		struct sw_search_hit *hits = NULL;
		struct sw_err err = { 0 };
		size_t n = 0;
		assert_int_equal(sw_search(&hits, &n, &f->m, bad[i], &raw, &err), SW_EUSAGE);
		assert_int_equal(n, 0);
		assert_null(hits);
		assert_non_null(strstr(err.msg, "bad search query: "));
	}
}

static void test_bad_queries(void **state)
{
	struct fixture *f = *state;
	struct sw_search_hit *hits = NULL;
	struct sw_err err = { 0 };
	size_t n = 0;

	assert_int_equal(sw_search(&hits, &n, &f->m, "", NULL, &err), SW_EUSAGE);
	assert_string_equal(err.msg, "empty query");
	assert_int_equal(sw_search(&hits, &n, &f->m, " \t\n", NULL, &err), SW_EUSAGE);
	struct sw_search_opts raw = { .raw = true };
	assert_int_equal(sw_search(&hits, &n, &f->m, "  ", &raw, &err), SW_EUSAGE);
	assert_int_equal(sw_search(&hits, &n, &f->m, "- & \"\"", NULL, &err), SW_EUSAGE);

	char *longq = sw_xmalloc(SW_SEARCH_MAX_QUERY + 2);
	memset(longq, 'a', SW_SEARCH_MAX_QUERY + 1);
	longq[SW_SEARCH_MAX_QUERY + 1] = '\0';
	assert_int_equal(sw_search(&hits, &n, &f->m, longq, NULL, &err), SW_ELIMIT);
	longq[SW_SEARCH_MAX_QUERY] = '\0';
	assert_int_equal(sw_search(&hits, &n, &f->m, longq, NULL, &err), 0);
	free(longq);
	assert_int_equal(n, 0);
	assert_null(hits);
}

static void test_hostile(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "hostile.bin", "evidence", "active");
	struct sw_buf b = SW_BUF_INIT;

	for (int i = 0; i < 3000; i++)
		sw_buf_addc(&b, (char)0xFF);
	sw_buf_adds(&b, " \xc3\x28 \xe2\x82 \xf0\x9f\x98 \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 ");
	for (int i = 0; i < 10000; i++)
		sw_buf_addc(&b, (char)('0' + i % 10));
	sw_buf_adds(&b, " ACME-");
	for (int i = 0; i < 600; i++)
		sw_buf_addc(&b, '7');
	sw_buf_adds(&b, " ");
	for (int i = 0; i < 5000; i++)
		sw_buf_adds(&b, "x\xcc\x81");
	sw_buf_adds(&b, " ");
	for (int i = 0; i < 500; i++)
		sw_buf_adds(&b, "\xef\xb7\xba"); /* U+FDFA: 18 code points each */
	sw_buf_adds(&b, " needle ");
	sw_buf_add(&b, "\0\0 haystack", 11);
	sw_buf_adds(&b, " CAF\xc3");
	add_page_n(&f->m, d, 1, NULL, b.data, b.len);
	sw_buf_release(&b);

	assert_int_equal(count(&f->m, "needle", NULL), 1);
	struct sw_search_opts raw = { .raw = true };
	assert_int_equal(count(&f->m, "needle OR zzz", &raw), 1);
	/* The index matches a fresh tokenization of the text, and the page can
	 * be deleted from it again: the tokenizer is deterministic. */
	exec(&f->m, "INSERT INTO pages_fts (pages_fts) VALUES ('integrity-check')");
	exec(&f->m, "INSERT INTO pages_fts (pages_fts, rowid, text)"
		    " SELECT 'delete', id, text FROM pages");
	assert_int_equal(count(&f->m, "needle", NULL), 0);
}

/* The exact terms, in order, and that the Bates digits share a position. */
static void test_terms(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "terms.txt", "evidence", "active");
	add_page(&f->m, d, 1, NULL, "ACME-0000123 \xc2\xa7 1983 Caf\xc3\xa9");
	exec(&f->m, "CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, pages_fts, 'row');"
		    "CREATE VIRTUAL TABLE temp.vi USING fts5vocab(main, pages_fts, 'instance');");

	char *terms = sql_text(&f->m, "SELECT group_concat(term, ' ')"
				      " FROM (SELECT term FROM v ORDER BY term)");
	assert_string_equal(terms, "0000123 1983 acme0000123 cafe \xc2\xa7");
	free(terms);
	terms = sql_text(&f->m, "SELECT group_concat(term || '@' || offset, ' ')"
				" FROM (SELECT term, offset FROM vi ORDER BY offset, term)");
	assert_string_equal(terms, "0000123@0 acme0000123@0 \xc2\xa7@1 1983@2 cafe@3");
	free(terms);
}

/* Long words are cut into terms; a Bates number too long to join is not. */
static void test_long_words(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "long.txt", "evidence", "active");
	struct sw_buf b = SW_BUF_INIT;
	for (int i = 0; i < 300; i++)
		sw_buf_addc(&b, 'a');
	sw_buf_adds(&b, " B-");
	for (int i = 0; i < 256; i++)
		sw_buf_addc(&b, '1');
	add_page(&f->m, d, 1, NULL, b.data);
	sw_buf_release(&b);
	exec(&f->m, "CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, pages_fts, 'row');");

	char *lengths = sql_text(&f->m, "SELECT group_concat(length(term), ' ')"
					" FROM (SELECT term FROM v ORDER BY term)");
	assert_string_equal(lengths, "256 44 256 1");
	free(lengths);
}

struct terms {
	size_t n;
	char last[2048];
	int last_len;
};

static int collect(void *ctx, int tflags, const char *token, int ntoken,
		   int start, int end)
{
	struct terms *t = ctx;
	(void)tflags;
	(void)start;
	(void)end;
	t->n++;
	assert_true(ntoken >= 0 && (size_t)ntoken <= sizeof(t->last));
	memcpy(t->last, token, (size_t)ntoken);
	t->last_len = ntoken;
	return SQLITE_OK;
}

/* The tokenizer folds Latin letters and marks one by one from a table; that
 * must give exactly what utf8proc gives for the whole word, for every
 * character of the table beside every other kind of character. */
static void test_fold_table(void **state)
{
	struct fixture *f = *state;
	fts5_api *api = NULL;
	sqlite3_stmt *st = NULL;
	void *user = NULL;
	fts5_tokenizer tok;
	Fts5Tokenizer *inst = NULL;

	assert_int_equal(sqlite3_prepare_v2(f->m.db, "SELECT fts5(?1)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_pointer(st, 1, &api, "fts5_api_ptr", NULL);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	sqlite3_finalize(st);
	assert_non_null(api);
	assert_int_equal(api->xFindTokenizer(api, "sworn", &user, &tok), SQLITE_OK);
	assert_int_equal(tok.xCreate(user, NULL, 0, &inst), SQLITE_OK);

	static const int32_t partners[] = {
		'a', 'Z', '7', 0xAD, 0xC0, 0xDF, 0xE9, 0x130, 0x149, 0x1C4, 0x2B0, 0x300,
		0x301, 0x345, 0x36F, 0x370, 0x3A3, 0x3C2, 0x1100, 0x1161, 0x11A8,
		0x1E9E, 0x2160, 0xFB01, 0xFDFA,
	};
	size_t checked = 0;
	for (int32_t cp = 0x80; cp <= 0x36F; cp++) {
		utf8proc_category_t cat = utf8proc_category(cp);
		if ((cat < UTF8PROC_CATEGORY_LU || cat > UTF8PROC_CATEGORY_NO) &&
		    cp != 0xAD)
			continue;
		for (size_t j = 0; j < SW_ARRAY_LEN(partners); j++) {
			for (int order = 0; order < 2; order++) {
				utf8proc_uint8_t word[16], *want = NULL;
				utf8proc_ssize_t n = 0;
				int32_t first = order ? partners[j] : cp;
				int32_t second = order ? cp : partners[j];
				n += utf8proc_encode_char(first, word + n);
				n += utf8proc_encode_char(second, word + n);
				utf8proc_ssize_t nwant = utf8proc_map(word, n, &want,
					UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT |
					UTF8PROC_CASEFOLD | UTF8PROC_STRIPMARK | UTF8PROC_IGNORE);
				assert_true(nwant >= 0);

				struct terms got = { 0 };
				assert_int_equal(tok.xTokenize(inst, &got, FTS5_TOKENIZE_QUERY,
							       (const char *)word, (int)n,
							       collect), SQLITE_OK);
				if (nwant == 0) {
					assert_int_equal(got.n, 0);
				} else {
					if (got.n != 1 || got.last_len != nwant ||
					    memcmp(got.last, want, (size_t)nwant) != 0)
						fail_msg("U+%04X U+%04X: %zu terms, want '%s'",
							 (unsigned)first, (unsigned)second,
							 got.n, (const char *)want);
				}
				free(want);
				checked++;
			}
		}
	}
	assert_true(checked > 10000);
	tok.xDelete(inst);
}

/* The hits of query (plain) are SQLite's own bm25 best of expr (its FTS5
 * form) over the evidence pages, in bm25's order, with bm25's scores, to
 * the last bit. */
static void assert_bm25(struct sw_matter *m, const char *query, const char *expr, size_t limit)
{
	struct sw_search_opts opts = { .limit = limit };
	struct sw_search_hit *hits;
	size_t n = search(&hits, m, query, &opts);
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(m->db,
		"SELECT p.id, bm25(pages_fts) FROM pages_fts JOIN pages AS p ON p.id = pages_fts.rowid"
		" JOIN documents AS d ON d.id = p.doc_id WHERE pages_fts MATCH ?1"
		" AND d.origin = 'evidence' AND d.status = 'active'"
		" ORDER BY bm25(pages_fts), pages_fts.rowid LIMIT ?2", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, expr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)limit);
	size_t want = 0;
	for (; sqlite3_step(st) == SQLITE_ROW; want++) {
		if (want >= n)
			fail_msg("'%s': %zu hits, bm25 has more", query, n);
		int64_t page_id = 0;
		sqlite3_stmt *id = NULL;
		assert_int_equal(sqlite3_prepare_v2(m->db, "SELECT p.id FROM pages AS p JOIN documents"
			" AS d ON d.id = p.doc_id WHERE d.name = ?1 AND p.page_no = ?2", -1, &id, NULL),
			SQLITE_OK);
		sqlite3_bind_text(id, 1, hits[want].document, -1, SQLITE_STATIC);
		sqlite3_bind_int64(id, 2, hits[want].page);
		assert_int_equal(sqlite3_step(id), SQLITE_ROW);
		page_id = sqlite3_column_int64(id, 0);
		sqlite3_finalize(id);
		if (page_id != sqlite3_column_int64(st, 0) ||
		    hits[want].score != sqlite3_column_double(st, 1))
			fail_msg("'%s' hit %zu: page %lld score %.17g, bm25: page %lld score %.17g",
				 query, want, (long long)page_id, hits[want].score,
				 (long long)sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1));
	}
	assert_int_equal(n, want);
	sqlite3_finalize(st);
	sw_search_hits_free(hits, n);
}

/* A word on every page of 6,000 (so sw_rank reads the page lengths in one
 * scan): the hits are bm25's own best, in bm25's order, with its scores,
 * whatever the lengths and counts, for one word or phrase (ranked in one
 * pass) and for several or NEAR (ranked by ORDER BY sw_rank); quarantined
 * pages among the best are passed over and the next ones fetched. */
static void test_rank_common(void **state)
{
	struct fixture *f = *state;
	int64_t ev = add_doc(&f->m, "big.txt", "evidence", "active");
	int64_t q = add_doc(&f->m, "held.txt", "evidence", "quarantined");
	struct sw_buf text = SW_BUF_INIT;
	exec(&f->m, "BEGIN");
	for (int i = 0; i < 6000; i++) {
		sw_buf_reset(&text);
		/* 1 to 4 "shipment"s among 3 to 40 other words. */
		for (int w = 0; w < 1 + (i * 7) % 4; w++)
			sw_buf_adds(&text, "shipment ");
		for (int w = 0; w < 3 + (i * 13) % 38; w++)
			sw_buf_addf(&text, "word%d ", (i + w) % 97);
		/* "held" on every quarantined page, four times, and once on
		 * every 30th other page: the best pages are all held. */
		if (i % 10 == 3)
			sw_buf_adds(&text, "held held held held");
		else if (i % 30 == 0)
			sw_buf_adds(&text, "held");
		add_page_n(&f->m, i % 10 == 3 ? q : ev, i + 1, NULL, text.data, text.len);
	}
	exec(&f->m, "COMMIT");
	sw_buf_release(&text);

	assert_bm25(&f->m, "shipment", "\"shipment\"", 40);
	assert_bm25(&f->m, "shipment", "\"shipment\"", 1);
	assert_bm25(&f->m, "word5", "\"word5\"", 300);
	assert_bm25(&f->m, "\"shipment shipment\"", "\"shipment shipment\"", 40);
	assert_bm25(&f->m, "\"shipment word5\"", "\"shipment word5\"", 40);
	assert_bm25(&f->m, "shipment word5", "\"shipment\" AND \"word5\"", 40);
	assert_bm25(&f->m, "shipment NEAR/2 word5", "NEAR(\"shipment\" \"word5\", 2)", 40);
	/* 600 held pages rank first: the first batch, and the next ones,
	 * are all passed over. */
	assert_bm25(&f->m, "held", "\"held\"", 5);
	assert_bm25(&f->m, "held", "\"held\"", 1000);
	assert_bm25(&f->m, "\"held held\"", "\"held held\"", 5);
	assert_bm25(&f->m, "held shipment", "\"held\" AND \"shipment\"", 5);

	/* --all takes the quarantined pages too: here the best. */
	struct sw_search_opts opts = { .limit = 40, .include_all = true };
	struct sw_search_hit *hits;
	size_t n = search(&hits, &f->m, "held", &opts);
	assert_int_equal(n, 40);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(hits[i].document, "held.txt");
	sw_search_hits_free(hits, n);
}

/* "Quoted words" are a phrase; NEAR and NEAR/N join two terms. */
static void test_phrase_near(void **state)
{
	struct fixture *f = *state;
	int64_t d = add_doc(&f->m, "a.txt", "evidence", "active");
	add_page(&f->m, d, 1, NULL, "The carrier wrote that the order was delayed by weather.");
	add_page(&f->m, d, 2, NULL, "Weather delayed nothing; the carrier was early.");
	add_page(&f->m, d, 3, NULL, "By weather delayed, said the carrier.");
	struct sw_search_hit *hits;
	size_t n = search(&hits, &f->m, "\"delayed by weather\"", NULL);
	assert_int_equal(n, 1);
	assert_int_equal(hits[0].page, 1);
	sw_search_hits_free(hits, n);
	assert_int_equal(count(&f->m, "delayed by weather", NULL), 2); /* words: 1 and 3 */
	assert_int_equal(count(&f->m, "carrier NEAR/3 weather", NULL), 2);   /* pages 2, 3 */
	assert_int_equal(count(&f->m, "carrier NEAR/2 weather", NULL), 0);
	assert_int_equal(count(&f->m, "carrier NEAR weather", NULL), 3);
	assert_int_equal(count(&f->m, "\"the carrier\" NEAR/3 early", NULL), 1);
	/* Quotes inside a phrase, FTS5 words and an unclosed quote are text. */
	assert_int_equal(count(&f->m, "\"carrier wrote", NULL), 1);
	assert_int_equal(count(&f->m, "NEAR carrier", NULL), 3);
	assert_int_equal(count(&f->m, "carrier NEAR", NULL), 3);
	assert_int_equal(count(&f->m, "\"AND\" carrier", NULL), 0);
	assert_int_equal(count(&f->m, "carrier NEAR/0 weather", NULL), 0); /* "NEAR/0" a word */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rank, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bates_from_loadfile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transcript_cite, setup, teardown),
		cmocka_unit_test_setup_teardown(test_section_sign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_folding, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snippet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evidence_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raw, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_queries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_terms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_words, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fold_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_common, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phrase_near, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
