/* Unit tests of the provenance firewall: fingerprints, and the import-time
 * quarantine across matters of a model output re-saved as .txt, as .docx and
 * as a lightly edited PDF, while a genuine document quoting one sentence of
 * it stays evidence; the human override and the audit; the 1 -> 2 schema
 * migration.  Set SW_TEST_VERBOSE=1 to print the measured overlaps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "record_fixtures.h"

static const char *const vocab[] = {
	"the", "plaintiff", "defendant", "agreed", "shipment", "contract", "payment",
	"invoice", "delivered", "warehouse", "notice", "breach", "damages", "March",
	"April", "court", "witness", "stated", "that", "was", "late", "and", "never",
	"signed", "terms", "of", "to", "in", "on", "a", "by", "letter", "counsel",
	"records", "show", "goods", "accepted", "rejected", "inspection", "freight",
	"carrier", "seller", "buyer", "price", "credit", "refund", "meeting", "email",
};

/* Deterministic pseudo-prose: n sentences of 12 to 20 words, one a line. */
static char *prose(uint32_t seed, size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	uint32_t x = seed;
	for (size_t s = 0; s < n; s++) {
		x = x * 1103515245u + 12345u;
		size_t words = 12 + (x >> 16) % 9;
		for (size_t w = 0; w < words; w++) {
			x = x * 1103515245u + 12345u;
			const char *word = vocab[(x >> 16) % SW_ARRAY_LEN(vocab)];
			if (w == 0)
				sw_buf_addf(&b, "%c%s", word[0] >= 'a' ? word[0] - 32 : word[0], word + 1);
			else
				sw_buf_addf(&b, " %s", word);
		}
		sw_buf_adds(&b, ".\n");
	}
	return sw_buf_detach(&b, NULL);
}

/* The same text re-wrapped at width columns and with straight quotes and
 * spaces changed, as a re-save in another program does. */
static char *rewrap(const char *text, size_t width)
{
	struct sw_buf b = SW_BUF_INIT;
	size_t col = 0;
	for (const char *p = text; *p; p++) {
		char c = *p == '\n' ? ' ' : *p;
		if (c == ' ' && col >= width) {
			sw_buf_addc(&b, '\n');
			col = 0;
			continue;
		}
		sw_buf_addc(&b, c);
		col++;
	}
	return sw_buf_detach(&b, NULL);
}

/* Replace every nth word with "amended": light edits. */
static char *edit(const char *text, size_t nth)
{
	struct sw_buf b = SW_BUF_INIT;
	size_t word = 0;
	const char *p = text;
	while (*p) {
		if (*p == ' ' || *p == '\n') {
			sw_buf_addc(&b, *p++);
			continue;
		}
		const char *s = p;
		while (*p && *p != ' ' && *p != '\n' && *p != '.')
			p++;
		if (++word % nth == 0)
			sw_buf_adds(&b, "amended");
		else
			sw_buf_add(&b, s, (size_t)(p - s));
		if (*p == '.')
			sw_buf_addc(&b, *p++);
	}
	return sw_buf_detach(&b, NULL);
}

/* The lines of text as PDF pages of 40 lines. */
static void text_pdf(const char *path, const char *text)
{
	char *pages[16] = { 0 };
	size_t n = 0, lines = 0;
	struct sw_buf cur = SW_BUF_INIT;
	for (const char *p = text; *p; p++) {
		sw_buf_addc(&cur, *p);
		if (*p == '\n' && ++lines % 40 == 0 && n < 15)
			pages[n++] = sw_buf_detach(&cur, NULL);
	}
	if (cur.len)
		pages[n++] = sw_buf_detach(&cur, NULL);
	fx_pdf(path, (const char *const *)pages, n, NULL);
	for (size_t i = 0; i < n; i++)
		free(pages[i]);
	sw_buf_release(&cur);
}

static bool verbose(void)
{
	const char *v = getenv("SW_TEST_VERBOSE");
	return v && *v && strcmp(v, "0") != 0;
}

static void test_fingerprints(void **state)
{
	(void)state;
	char *a = prose(1, 40), *b = prose(2, 40);
	char *a2 = rewrap(a, 50), *a3 = edit(a, 12);
	struct sw_fp fa, fb, fa2, fa3, fe;
	sw__record_fp_compute(&fa, a, strlen(a));
	sw__record_fp_compute(&fb, b, strlen(b));
	sw__record_fp_compute(&fa2, a2, strlen(a2));
	sw__record_fp_compute(&fa3, a3, strlen(a3));
	sw__record_fp_compute(&fe, "", 0);
	assert_true(fa.n > 50);
	/* About 2 / (window + 1) of the k-grams are kept. */
	assert_true(fa.n < fa.words * 3 / (SW_PROVENANCE_WINDOW + 1));
	assert_int_equal(sw__record_fp_shared(&fa, &fa2), fa.n);
	assert_true(fa.text_hash == fa2.text_hash);
	assert_true(sw__record_fp_shared(&fa, &fb) < fa.n / 20);
	struct sw_fp_score sc;
	sw__record_fp_score(&sc, sw__record_fp_shared(&fa3, &fa), &fa3, fa.n, fa.text_hash);
	assert_true(sc.match);
	assert_true(sc.overlap >= SW_PROVENANCE_THRESHOLD && sc.overlap < 1.0);
	assert_int_equal(fe.n, 0);
	assert_int_equal(fe.words, 0);
	/* Case, accents, quotes and hyphenated line ends do not matter. */
	struct sw_fp x, y;
	const char *s1 = "The \xe2\x80\x9c" "Caf\xc3\xa9\xe2\x80\x9d contract was signed on March 3 by both parties";
	const char *s2 = "the \"CAFE\" contract   was\nsigned on march 3 by both parties";
	sw__record_fp_compute(&x, s1, strlen(s1));
	sw__record_fp_compute(&y, s2, strlen(s2));
	assert_true(x.n > 0);
	assert_int_equal(sw__record_fp_shared(&x, &y), x.n);
	sw__record_fp_release(&x);
	sw__record_fp_release(&y);
	sw__record_fp_release(&fa);
	sw__record_fp_release(&fb);
	sw__record_fp_release(&fa2);
	sw__record_fp_release(&fa3);
	sw__record_fp_release(&fe);
	free(a);
	free(b);
	free(a2);
	free(a3);
}

struct seen {
	const struct sw_fp *want;
	size_t n;
	bool same;
};

static void seen_print(void *ctx, uint64_t hash)
{
	struct seen *s = ctx;
	s->same = s->same && s->n < s->want->n && s->want->hashes[s->n] == hash;
	s->n++;
}

/* An evidence document's prints spilled to runs on disk (past
 * SW_FP_SPILL_PRINTS) read back as the same sorted, unique prints as the
 * ones held in memory: repeats inside a run, across runs and between the
 * runs and what is still held are dropped. */
static void test_fingerprints_spilled(void **state)
{
	(void)state;
	char *a = prose(7, 60000);
	size_t len = strlen(a);
	struct sw_fp_stream held, spilled;
	sw__record_fp_stream_init(&held);
	sw__record_fp_stream_init(&spilled);
	spilled.spill = true;
	for (int copy = 0; copy < 3; copy++)
		for (size_t off = 0; off < len; off += 4096) {
			size_t l = len - off < 4096 ? len - off : 4096;
			sw__record_fp_stream_add(&held, a + off, l);
			sw__record_fp_stream_add(&spilled, a + off, l);
		}
	assert_true(spilled.nruns >= 2);
	struct sw_fp want, info;
	sw__record_fp_stream_finish(&held, &want);
	assert_true(want.n > SW_FP_SPILL_PRINTS / 4);
	struct seen seen = { .want = &want, .same = true };
	struct sw_err err = { 0 };
	assert_int_equal(sw__record_fp_stream_each(&spilled, seen_print, &seen, &info, &err), 0);
	assert_true(seen.same);
	assert_int_equal(seen.n, want.n);
	assert_int_equal(info.n, want.n);
	assert_int_equal(info.words, want.words);
	assert_true(info.text_hash == want.text_hash);
	assert_null(info.hashes);
	sw__record_fp_release(&want);
	sw__record_fp_stream_release(&held);
	free(a);
}

static double overlap_of(struct fx_ws *w, const char *matter, const char *name)
{
	char *sql = sw_xasprintf("SELECT ifnull((SELECT overlap FROM quarantine q JOIN documents d"
				 " ON d.id = q.doc_id WHERE d.name = '%s' ORDER BY q.id LIMIT 1), -1)",
				 name);
	char *v = fx_sql(w, matter, sql);
	double d = strtod(v, NULL);
	free(sql);
	free(v);
	return d;
}

/* One open matter: the index the firewall loaded before an output was
 * registered must not hide that output from the next check (a long-lived
 * process stores outputs and imports on one connection). */
static void test_firewall_same_connection(void **state)
{
	(void)state;
	struct fx_ws w;
	struct sw_err err = { 0 };
	struct sw_matter *ma = NULL;
	struct sw_provenance_match pm;
	fx_ws_new(&w);
	char *draft = prose(11, 30);
	char *genuine = prose(12, 30);
	int64_t out_id = 0;
	assert_int_equal(sw_matter_open(&ma, &w.ws, "a", &err), 0);
	/* the index is loaded here, before the output exists */
	assert_int_equal(sw_record_check_provenance(&pm, ma, genuine, strlen(genuine), &err), 0);
	assert_false(pm.quarantine);
	sw_provenance_match_release(&pm);
	assert_int_equal(sw_record_add_model_output(&out_id, ma, "draft.md", draft, strlen(draft),
						    &err), 0);
	char *wrapped = rewrap(draft, 64);
	assert_int_equal(sw_record_check_provenance(&pm, ma, wrapped, strlen(wrapped), &err), 0);
	assert_true(pm.quarantine);
	sw_provenance_match_release(&pm);
	sw_matter_close(ma);
	free(wrapped);
	free(draft);
	free(genuine);
	fx_ws_free(&w);
}

static void test_firewall(void **state)
{
	(void)state;
	struct fx_ws w;
	struct sw_err err = { 0 };
	struct sw_matter *ma = NULL, *mb = NULL;
	fx_ws_new(&w);

	/* The pipeline stores a model output in matter a. */
	char *draft = prose(7, 30);
	int64_t out_id = 0, again = 0;
	assert_int_equal(sw_matter_open(&ma, &w.ws, "a", &err), 0);
	assert_int_equal(sw_record_add_model_output(&out_id, ma, "draft-motion.md", draft,
						    strlen(draft), &err), 0);
	assert_int_equal(sw_record_add_model_output(&again, ma, "draft-motion.md", draft,
						    strlen(draft), &err), 0);
	assert_int_equal(again, out_id);
	sw_matter_close(ma);

	/* Matter b receives it back in several disguises, and a genuine letter
	 * that quotes one of its sentences. */
	char *dir = fx_path(&w, "incoming");
	assert_int_equal(mkdir(dir, 0700), 0);
	char *txt = sw_path_join(dir, "resaved.txt");
	char *docx = sw_path_join(dir, "resaved.docx");
	char *pdf = sw_path_join(dir, "edited.pdf");
	char *letter = sw_path_join(dir, "letter.txt");
	char *wrapped = rewrap(draft, 64);
	fx_write(txt, wrapped);
	char *body = fx_docx_body(draft);
	fx_docx(docx, body, NULL);
	char *edited = edit(draft, 12);
	text_pdf(pdf, edited);
	char *genuine = prose(99, 30);
	const char *nl = strchr(draft, '\n');
	char *quoted = sw_xasprintf("%.*s\nAs the draft put it: \"%.*s\"\n%s", 400, genuine,
				    (int)(nl - draft), draft, genuine + 400);
	fx_write(letter, quoted);

	struct sw_ingest_summary s = fx_ingest(&w, "b", dir, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.imported, 4);
	assert_int_equal(s.quarantined, 3);
	assert_int_equal(s.failed, 0);
	double o_txt = overlap_of(&w, "b", "resaved.txt");
	double o_docx = overlap_of(&w, "b", "resaved.docx");
	double o_pdf = overlap_of(&w, "b", "edited.pdf");
	assert_true(o_txt >= SW_PROVENANCE_THRESHOLD);
	assert_true(o_docx >= SW_PROVENANCE_THRESHOLD);
	assert_true(o_pdf >= SW_PROVENANCE_THRESHOLD);
	assert_true(o_pdf < 1.0);
	char *st = fx_sql(&w, "b", "SELECT status FROM documents WHERE name = 'letter.txt'");
	assert_string_equal(st, "active");
	free(st);
	char *q = fx_sql(&w, "b", "SELECT group_concat(name, ',') FROM (SELECT name FROM documents"
				  " WHERE status = 'quarantined' ORDER BY name)");
	assert_string_equal(q, "edited.pdf,resaved.docx,resaved.txt");
	free(q);
	if (!strstr(w.events.data, "quarantined resaved.txt: matches model output 'draft-motion.md' of matter 'a'"))
		fail_msg("events: %s", w.events.data);

	/* What the letter measures against the output, for the record. */
	struct sw_provenance_match pm;
	assert_int_equal(sw_matter_open(&mb, &w.ws, "b", &err), 0);
	assert_int_equal(sw_record_check_provenance(&pm, mb, quoted, strlen(quoted), &err), 0);
	assert_false(pm.quarantine);
	assert_true(pm.shared > 0);
	assert_true(pm.overlap < SW_PROVENANCE_THRESHOLD / 4);
	if (verbose())
		printf("overlap: resaved.txt %.3f, resaved.docx %.3f, edited.pdf %.3f,"
		       " letter quoting one sentence %.3f (%llu shared, %.3f of the output)\n",
		       o_txt, o_docx, o_pdf, pm.overlap, (unsigned long long)pm.shared,
		       pm.contained);
	sw_provenance_match_release(&pm);

	/* Quarantined documents are not evidence to search. */
	struct sw_search_hit *hits = NULL;
	size_t n = 0;
	struct sw_search_opts so = { .limit = 50 };
	char first[64];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(draft + 20, " "), draft + 20);
	assert_int_equal(sw_search(&hits, &n, mb, "amended", &so, &err), 0);
	assert_int_equal(n, 0);
	sw_search_hits_free(hits, n);
	so.include_all = true;
	assert_int_equal(sw_search(&hits, &n, mb, "amended", &so, &err), 0);
	assert_true(n > 0);
	sw_search_hits_free(hits, n);

	/* The human override needs a reason, and is recorded. */
	int64_t id = 0;
	assert_int_equal(sw_record_accept_quarantined(&id, mb, "resaved.txt", "", &err), SW_EUSAGE);
	assert_int_equal(sw_record_accept_quarantined(&id, mb, "letter.txt", "x", &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "not quarantined"));
	assert_int_equal(sw_record_accept_quarantined(&id, mb, "nosuch", "x", &err), SW_ENOTFOUND);
	assert_int_equal(sw_record_accept_quarantined(&id, mb, "resaved.txt",
						      "the client sent this draft back; it is an exhibit",
						      &err), 0);
	struct sw_audit au;
	assert_int_equal(sw_matter_audit(&au, mb, &err), 0);
	assert_int_equal(au.ndecisions, 4);
	assert_string_equal(au.decisions[3].decision, "accepted");
	assert_string_equal(au.decisions[3].document, "resaved.txt");
	assert_string_equal(au.decisions[3].output_name, "draft-motion.md");
	assert_string_equal(au.decisions[3].reason, "the client sent this draft back; it is an exhibit");
	assert_int_equal(au.ndocs, 2); /* the docx and the PDF */
	size_t quarantined = 0;
	for (size_t i = 0; i < au.norigins; i++)
		if (!strcmp(au.origins[i].status, "quarantined"))
			quarantined += au.origins[i].documents;
	assert_int_equal(quarantined, 2);
	sw_audit_release(&au);
	sw_matter_close(mb);

	/* Within matter a itself, --origin model imports register too. */
	char *model2 = fx_path(&w, "model2.txt");
	char *m2 = prose(11, 20);
	fx_write(model2, m2);
	s = fx_ingest(&w, "a", model2, true, SW_ORIGIN_MODEL);
	assert_int_equal(s.imported, 1);
	char *copy = fx_path(&w, "copy-of-model2.txt");
	char *m2w = rewrap(m2, 70);
	fx_write(copy, m2w);
	s = fx_ingest(&w, "a", copy, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.quarantined, 1);

	free(m2);
	free(m2w);
	free(model2);
	free(copy);
	free(draft);
	free(dir);
	free(txt);
	free(docx);
	free(pdf);
	free(letter);
	free(wrapped);
	free(body);
	free(edited);
	free(genuine);
	free(quoted);
	fx_ws_free(&w);
}

static void test_migration_from_v1(void **state)
{
	(void)state;
	struct fx_ws w;
	struct sw_err err = { 0 };
	sqlite3 *db = NULL;
	fx_ws_new(&w);
	char *path = fx_path(&w, "old.db");
	/* The version 1 tables the migrations change. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"CREATE TABLE documents (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
		" status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'quarantined')),"
		" meta TEXT NOT NULL DEFAULT '{}', parent_id INTEGER REFERENCES documents (id));"
		"CREATE TABLE pages (id INTEGER PRIMARY KEY, doc_id INTEGER NOT NULL, bates_prefix TEXT,"
		" text TEXT NOT NULL);"
		"CREATE TABLE transcript_lines (doc_id INTEGER NOT NULL, tr_page INTEGER NOT NULL,"
		" line INTEGER NOT NULL, page_id INTEGER NOT NULL, start INTEGER NOT NULL,"
		" end INTEGER NOT NULL, PRIMARY KEY (doc_id, tr_page, line)) WITHOUT ROWID;"
		"INSERT INTO documents (name) VALUES ('old.txt');"
		"INSERT INTO pages (doc_id, text) VALUES (1, 'old text');"
		"PRAGMA user_version = 1;", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	db = NULL;
	assert_int_equal(sw__record_db_open(&db, path, false, &err), 0);
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT (SELECT user_version FROM pragma_user_version),"
					    " text_source, ocr_confidence IS NULL,"
					    " (SELECT count(*) FROM quarantine) FROM pages", -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), SW_RECORD_SCHEMA_VERSION);
	assert_string_equal((const char *)sqlite3_column_text(st, 1), "text");
	assert_int_equal(sqlite3_column_int(st, 2), 1);
	assert_int_equal(sqlite3_column_int(st, 3), 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
	fx_ws_free(&w);
}

/* A draft that block-quotes a genuine letter of the record: the letter's
 * words are evidence the model was shown, not its output, so a later copy
 * of the letter in any matter stays evidence; the draft re-saved is still
 * quarantined by what the model wrote around the quote; and an output that
 * is nothing but the letter registers nothing that could match it. */
static void test_firewall_quoted_evidence(void **state)
{
	(void)state;
	struct fx_ws w;
	struct sw_err err = { 0 };
	struct sw_matter *ma = NULL, *mb = NULL;
	struct sw_provenance_match pm;
	fx_ws_new(&w);

	char *letter = prose(1234, 12);
	char *own = prose(4321, 14);
	char *tail = prose(777, 4);
	char *draft = sw_xasprintf("%s\nThe letter reads in full:\n\n> %s\n%s", own, letter, tail);
	char *window = sw_xasprintf("[ACME0000040] letter.txt page 1\n%s\n", letter);
	int64_t id = 0, echo = 0;
	assert_int_equal(sw_matter_open(&ma, &w.ws, "a", &err), 0);
	assert_int_equal(sw_record_add_model_output_given(&id, ma, "run-1-draft.md", draft,
							  strlen(draft), window, strlen(window),
							  &err), 0);
	assert_int_equal(sw_record_add_model_output_given(&echo, ma, "run-2-draft.md", letter,
							  strlen(letter), window, strlen(window),
							  &err), 0);
	sw_matter_close(ma);

	assert_int_equal(sw_matter_open(&mb, &w.ws, "b", &err), 0);
	assert_int_equal(sw_record_check_provenance(&pm, mb, letter, strlen(letter), &err), 0);
	if (pm.quarantine)
		fail_msg("the genuine letter matches '%s' (overlap %.3f, contained %.3f)", pm.name,
			 pm.overlap, pm.contained);
	assert_true(pm.overlap < SW_PROVENANCE_THRESHOLD / 4);
	sw_provenance_match_release(&pm);
	int64_t doc = 0;
	assert_int_equal(sw_record_add_text(&doc, mb, SW_ORIGIN_EVIDENCE, "letter-copy.txt", letter,
					    strlen(letter), &err), 0);
	char *st = fx_sql(&w, "b", "SELECT status FROM documents WHERE name = 'letter-copy.txt'");
	assert_string_equal(st, "active");
	free(st);

	char *resaved = rewrap(draft, 70);
	assert_int_equal(sw_record_check_provenance(&pm, mb, resaved, strlen(resaved), &err), 0);
	assert_true(pm.quarantine);
	assert_non_null(pm.name);
	assert_string_equal(pm.name, "run-1-draft.md");
	sw_provenance_match_release(&pm);
	sw_matter_close(mb);

	/* Without the window, as before: the letter is taken for the draft. */
	struct fx_ws w2;
	fx_ws_new(&w2);
	assert_int_equal(sw_matter_open(&ma, &w2.ws, "a", &err), 0);
	assert_int_equal(sw_record_add_model_output(&id, ma, "run-1-draft.md", draft, strlen(draft),
						    &err), 0);
	assert_int_equal(sw_record_check_provenance(&pm, ma, letter, strlen(letter), &err), 0);
	assert_true(pm.quarantine);
	sw_provenance_match_release(&pm);
	sw_matter_close(ma);

	free(resaved);
	free(window);
	free(draft);
	free(tail);
	free(own);
	free(letter);
	fx_ws_free(&w2);
	fx_ws_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fingerprints),
		cmocka_unit_test(test_fingerprints_spilled),
		cmocka_unit_test(test_firewall),
		cmocka_unit_test(test_firewall_same_connection),
		cmocka_unit_test(test_firewall_quoted_evidence),
		cmocka_unit_test(test_migration_from_v1),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
