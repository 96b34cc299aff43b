/* Unit tests of record/'s import plumbing: decoding, page splitting, label
 * normalisation, workspaces and matters (and their integrity check),
 * storing documents atomically. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "record/record_int.h"

static char *tmpdir_new(void)
{
	char tmpl[] = "/tmp/sworn-rec-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return sw_xstrdup(tmpl);
}

static void rm_rf(char *dir)
{
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

static void test_decode(void **state)
{
	(void)state;
	struct sw_buf out = SW_BUF_INIT;
	struct sw_err err = { 0 };
	bool latin1, truncated;
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "\xef\xbb\xbfhi", 5, &err), 0);
	assert_string_equal(out.data, "hi");
	assert_false(latin1);
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "caf\xe9", 4, &err), 0);
	assert_string_equal(out.data, "caf\xc3\xa9");
	assert_true(latin1);
	/* A cut multi-byte character at the end is dropped, not mis-decoded. */
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "ok \xe2\x80", 5, &err), 0);
	assert_string_equal(out.data, "ok ");
	assert_true(truncated);
	assert_false(latin1);
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "a\0b", 3, &err), SW_EINPUT);
	/* Extracted text exported as UTF-16 LE (with or without a BOM) or BE. */
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "\xff\xfe" "h\0\xe9\0", 6, &err), 0);
	assert_string_equal(out.data, "h\xc3\xa9");
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "h\0i\0", 4, &err), 0);
	assert_string_equal(out.data, "hi");
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "\xfe\xff\0h\0i", 6, &err), 0);
	assert_string_equal(out.data, "hi");
	assert_int_equal(sw_extract_decode(&out, &latin1, &truncated, "\xff\xfe" "a\0\0\0", 6, &err), SW_EINPUT);
	sw_buf_release(&out);
}

static void test_split_pages(void **state)
{
	(void)state;
	struct sw_page_in *p = NULL;
	size_t n = 0;
	struct sw_err err = { 0 };
	const char *t = "one\ftwo\f\fthree\f";
	assert_int_equal(sw_record_split_pages(&p, &n, t, strlen(t), &err), 0);
	assert_int_equal(n, 4); /* the empty third page stays; the final \f adds none */
	assert_int_equal(p[0].len, 3);
	assert_memory_equal(p[1].text, "two", 3);
	assert_int_equal(p[2].len, 0);
	assert_memory_equal(p[3].text, "three", 5);
	free(p);
	assert_int_equal(sw_record_split_pages(&p, &n, "", 0, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].len, 0);
	free(p);
	assert_int_equal(sw_record_split_pages(&p, &n, "x", 1, &err), 0);
	assert_int_equal(n, 1);
	free(p);
	/* Too many pages is a limit, found before allocating them. */
	size_t big = (size_t)SW_RECORD_MAX_PAGES + 1;
	char *ff = sw_xmalloc(big);
	memset(ff, '\f', big);
	assert_int_equal(sw_record_split_pages(&p, &n, ff, big, &err), SW_ELIMIT);
	free(ff);
}

static void test_label_normalize(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "Ex. 12", "ex 12" }, { "Exhibit 12", "ex 12" }, { "EXH. 12", "ex 12" },
		{ "ECF No. 45", "ecf 45" }, { "Dkt. 45", "ecf 45" }, { "Doc. 45", "ecf 45" },
		{ "Smith Dep.", "smith dep" }, { "Smith  Deposition", "smith dep" },
		{ "Jones Decl.", "jones decl" }, { "Tr.", "tr" }, { "  Ex.  B ", "ex b" },
		{ "No. 5", "no 5" }, /* "No." is dropped only after a docket word */
		{ "", "" },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(cases); i++) {
		char *got = sw_label_normalize(cases[i][0]);
		if (strcmp(got, cases[i][1]) != 0)
			fail_msg("'%s' gave '%s', expected '%s'", cases[i][0], got, cases[i][1]);
		free(got);
	}
}

static void test_workspace_and_matters(void **state)
{
	(void)state;
	char *dir = tmpdir_new();
	char *sub = sw_path_join(dir, "a/b");
	struct sw_workspace ws;
	struct sw_err err = { 0 };
	assert_int_equal(sw_workspace_open(&ws, dir, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "sworn init"));
	assert_int_equal(sw_workspace_create(dir, &err), 0);
	assert_int_equal(sw_workspace_create(dir, &err), SW_EEXIST);
	assert_int_equal(sw_mkdir_p(sub, 0700, &err), 0);
	assert_int_equal(sw_workspace_open(&ws, sub, &err), 0);
	assert_non_null(strstr(ws.root, "sworn-rec-"));
	assert_string_equal(sw_config_get(&ws.config, "policy", NULL, "mode"), "local-only");

	assert_false(sw_matter_name_valid(""));
	assert_false(sw_matter_name_valid(".."));
	assert_false(sw_matter_name_valid("a/b"));
	assert_false(sw_matter_name_valid("-x"));
	assert_true(sw_matter_name_valid("Acme_v._Brightline-2021"));
	assert_int_equal(sw_matter_create(&ws, "b", &err), 0);
	assert_int_equal(sw_matter_create(&ws, "a", &err), 0);
	assert_int_equal(sw_matter_create(&ws, "a", &err), SW_EEXIST);
	assert_int_equal(sw_matter_create(&ws, "a/../../x", &err), SW_EUSAGE);
	char **names;
	size_t n;
	assert_int_equal(sw_matter_list(&names, &n, &ws, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "a");
	assert_string_equal(names[1], "b");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);

	struct sw_matter *m = NULL;
	assert_int_equal(sw_matter_open(&m, &ws, "zzz", &err), SW_ENOTFOUND);
	assert_int_equal(sw_matter_open(&m, &ws, "a", &err), 0);
	assert_string_equal(sw_matter_name(m), "a");

	/* Store a document with Bates pages; find it by identity. */
	struct sw_page_in pages[2] = {
		{ .text = "first page", .len = 10, .has_bates = true, .bates_source = "loadfile" },
		{ .text = "second", .len = 6, .has_bates = true, .bates_source = "loadfile" },
	};
	assert_int_equal(sw_bates_parse(&pages[0].bates, "DOC-000009", 10), 0);
	pages[1].bates = pages[0].bates;
	pages[1].bates.number = 10;
	struct sw_doc_in doc = {
		.name = "DOC-000009", .kind = "loadfile", .origin = SW_ORIGIN_EVIDENCE,
		.sha256 = "00ff", .source_path = "/x", .beg_bates = "DOC-000009",
		.end_bates = "DOC-000010", .bytes = 16, .pages = pages, .npages = 2,
	};
	int64_t id = 0, found = 0;
	struct sw_record_stored stored;
	assert_int_equal(sw_record_store_doc(&stored, m, &doc, &err), 0);
	id = stored.id;
	assert_true(id > 0);
	assert_false(stored.transcript);
	assert_false(stored.quarantine.quarantine); /* no workspace: no firewall */
	sw_record_stored_release(&stored);
	assert_int_equal(sw_record_find_doc(&found, m, "00ff", "DOC-000009", &err), 0);
	assert_int_equal(found, id);
	assert_int_equal(sw_record_find_doc(&found, m, "00ff", NULL, &err), SW_ENOTFOUND);
	/* The same identity again is refused by the database too. */
	assert_int_equal(sw_record_store_doc(&stored, m, &doc, &err), SW_EEXIST);

	/* A failure mid-document leaves nothing of it behind. */
	doc.beg_bates = "DOC-000011";
	pages[1].text = NULL; /* makes no difference to SQLite; use a bad origin instead */
	pages[1].text = "second";
	doc.origin = (enum sw_origin)SW_ORIGIN_EVIDENCE;
	doc.meta_json = "{not json";
	assert_int_equal(sw_record_store_doc(&stored, m, &doc, &err), SW_EDB);
	struct sw_matter_stats st;
	assert_int_equal(sw_matter_stats(&st, m, &err), 0);
	assert_int_equal(st.documents, 1);
	assert_int_equal(st.pages, 2);
	assert_int_equal(st.nranges, 1);
	assert_string_equal(st.ranges[0].prefix, "DOC"); /* canonical; the numbers as written */
	assert_string_equal(st.ranges[0].first, "DOC-000009");
	assert_string_equal(st.ranges[0].last, "DOC-000010");
	assert_int_equal(st.ranges[0].gaps, 0);
	assert_true(st.bytes > 0);
	sw_matter_stats_release(&st);

	/* Originals land under their hash, once. */
	assert_int_equal(sw_record_keep_original(m, "abcdef", "bytes", 5, &err), 0);
	assert_int_equal(sw_record_keep_original(m, "abcdef", "bytes", 5, &err), 0);
	char *kept = sw_xasprintf("%s/matters/a/files/ab/abcdef", ws.root);
	struct sw_buf b = SW_BUF_INIT;
	assert_int_equal(sw_file_read(&b, kept, 100, &err), 0);
	assert_string_equal(b.data, "bytes");
	sw_buf_release(&b);
	free(kept);

	sw_matter_close(m);
	sw_workspace_release(&ws);
	free(sub);
	rm_rf(dir);
}

/* The count of a matter's transcript lines. */
static int transcript_lines(struct sw_matter *m)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(m->db, "SELECT count(*) FROM transcript_lines", -1,
					    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* A deposition page is a transcript when the store may look; not when
 * the caller says it is none, nor as a model's output (a draft that quotes
 * a deposition is still a draft), by either writer. */
static void test_transcript_said(void **state)
{
	(void)state;
	char *dir = tmpdir_new();
	struct sw_workspace ws;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	char page[4096];
	size_t off = (size_t)snprintf(page, sizeof(page), "%54sPage 12\n\n", "");
	for (int i = 1; i <= 25; i++)
		off += (size_t)snprintf(page + off, sizeof(page) - off,
					"%2d   Q.  Question number %d?\n", i, i);
	assert_int_equal(sw_workspace_create(dir, &err), 0);
	assert_int_equal(sw_workspace_open(&ws, dir, &err), 0);
	assert_int_equal(sw_matter_create(&ws, "t", &err), 0);
	assert_int_equal(sw_matter_open(&m, &ws, "t", &err), 0);

	struct sw_page_in pages[1] = { { .text = page, .len = off } };
	struct sw_doc_in doc = { .name = "depo.txt", .kind = "text", .origin = SW_ORIGIN_EVIDENCE,
				 .sha256 = "aa01", .source_path = "/depo.txt", .bytes = off,
				 .pages = pages, .npages = 1 };
	struct sw_record_stored stored;
	assert_int_equal(sw_record_store_doc(&stored, m, &doc, &err), 0);
	assert_true(stored.transcript);
	sw_record_stored_release(&stored);
	assert_int_equal(transcript_lines(m), 25);

	doc.sha256 = "aa02";
	doc.transcript = SW_DOC_TRANSCRIPT_NO;
	assert_int_equal(sw_record_store_doc(&stored, m, &doc, &err), 0);
	assert_false(stored.transcript);
	sw_record_stored_release(&stored);
	assert_int_equal(transcript_lines(m), 25);

	struct sw_record_doc_writer *w = NULL;
	doc.sha256 = "aa03";
	assert_int_equal(sw_record_doc_begin(&w, m, &doc, &err), 0);
	assert_int_equal(sw_record_doc_add_page(w, &pages[0], &err), 0);
	assert_int_equal(sw_record_doc_commit(w, &stored, NULL, &err), 0);
	assert_false(stored.transcript);
	sw_record_stored_release(&stored);
	assert_int_equal(transcript_lines(m), 25);

	int64_t id = 0;
	assert_int_equal(sw_record_add_model_output(&id, m, "draft", page, off, &err), 0);
	assert_int_equal(transcript_lines(m), 25);

	sw_matter_close(m);
	sw_workspace_release(&ws);
	rm_rf(dir);
}

static void test_origin(void **state)
{
	(void)state;
	enum sw_origin o;
	struct sw_err err = { 0 };
	assert_int_equal(sw_origin_parse(&o, "model", &err), 0);
	assert_int_equal(o, SW_ORIGIN_MODEL);
	assert_string_equal(sw_origin_name(SW_ORIGIN_TEMPLATE), "template");
	assert_int_equal(sw_origin_parse(&o, "Model", &err), SW_EUSAGE);
}

/* Overwrite len bytes of path at off with junk, the size kept. */
static void scribble(const char *path, long off, size_t len)
{
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	for (size_t i = 0; i < len; i++)
		assert_int_equal(fputc('Z', f), 'Z');
	assert_int_equal(fclose(f), 0);
}

/* sworn doctor's check of each matter: intact, damaged (what quick_check
 * names), or not a database at all; the file is never changed by it. */
static void test_matter_check(void **state)
{
	(void)state;
	char *dir = tmpdir_new();
	struct sw_workspace ws;
	struct sw_err err = { 0 };
	char *damage = NULL;
	assert_int_equal(sw_workspace_create(dir, &err), 0);
	assert_int_equal(sw_workspace_open(&ws, dir, &err), 0);
	assert_int_equal(sw_matter_create(&ws, "good", &err), 0);
	assert_int_equal(sw_matter_create(&ws, "bad", &err), 0);
	assert_int_equal(sw_matter_create(&ws, "junk", &err), 0);
	assert_int_equal(sw_matter_check(&damage, &ws, "good", &err), 0);
	assert_null(damage);

	char *bad = sw_xasprintf("%s/matters/bad/matter.db", ws.root);
	struct stat sb;
	assert_int_equal(stat(bad, &sb), 0);
	/* The last page, the root of the newest (empty) table: the schema
	 * still reads, the tree does not. */
	assert_true(sb.st_size >= 3 * 4096);
	scribble(bad, (long)sb.st_size - 4096, 4096);
	assert_int_equal(sw_matter_check(&damage, &ws, "bad", &err), 0);
	assert_non_null(damage);
	assert_non_null(strstr(damage, "/matters/bad/matter.db' is damaged (quick_check: "));
	free(damage);
	free(bad);

	char *junk = sw_xasprintf("%s/matters/junk/matter.db", ws.root);
	scribble(junk, 0, 100);
	assert_int_equal(sw_matter_check(&damage, &ws, "junk", &err), SW_EDB);
	assert_null(damage);
	assert_non_null(strstr(err.msg, "/matters/junk/matter.db' cannot be checked: "));
	assert_int_equal(stat(junk, &sb), 0);
	free(junk);
	assert_int_equal(sw_matter_check(&damage, &ws, "none", &err), SW_EDB);
	assert_non_null(strstr(err.msg, "cannot be checked"));
	sw_workspace_release(&ws);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_split_pages),
		cmocka_unit_test(test_label_normalize),
		cmocka_unit_test(test_workspace_and_matters),
		cmocka_unit_test(test_matter_check),
		cmocka_unit_test(test_transcript_said),
		cmocka_unit_test(test_origin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
