/*
 * pipeline_approve_test.c - approval, corrections and run statistics on a
 * scratch matter: the acme-mini vendor volume imported as evidence, runs
 * and their steps journaled with SQL as the engine writes them (a model
 * draft stored with origin model), then:
 *   - a clean final is accepted: written to its path, stored with origin
 *     human, the run approved, the correction stored with its word diff;
 *   - a final that adds an unsupported Bates cite is refused and nothing
 *     changes; with an override it is accepted and the override and the
 *     verdicts it overrode are recorded;
 *   - runs that are missing, running or already approved are refused;
 *   - corrections export is refused until the matter turns it on; SFT and
 *     DPO lines; a correction whose final or window evidence is
 *     quarantined is left out;
 *   - run statistics by model, role and task over runs with known figures.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline/pipeline.h"

#include "record_fixtures.h"

static struct fx_ws ws;
static struct sw_matter *m;
static char *draft;      /* the model's draft (tests/data/pipeline/draft-fixed.md) */
static int64_t ev_doc;   /* the evidence page the draft step's window held */

#define UNSUPPORTED_LINE "\n4. Acme received the order on April 2, 2021 (ACME0000999).\n"

static void exec(const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(sw_matter_db(m), sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, msg);
		abort();
	}
}

static char *q(const char *fmt, ...) SW_PRINTF(1, 2);
/* One value of a query, as text ("(null)" for none); caller frees. */
static char *q(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	sqlite3_stmt *st = NULL;
	char *out = NULL;
	if (sqlite3_prepare_v2(sw_matter_db(m), b.data, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", b.data, sqlite3_errmsg(sw_matter_db(m)));
		abort();
	}
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = sw_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sw_buf_release(&b);
	return out ? out : sw_xstrdup("(null)");
}

static void assert_q(const char *want, const char *sql)
{
	char *got = q("%s", sql);
	if (strcmp(got, want) != 0)
		print_error("%s\n  want %s\n  got  %s\n", sql, want, got);
	assert_string_equal(got, want);
	free(got);
}

/* A run journaled as the engine leaves it: its draft step (with its
 * window and an evidence section) and a verify step. */
static int64_t add_run(const char *status, const char *text)
{
	struct sw_err err = { 0 };
	int64_t doc = 0;
	char *name = sw_xasprintf("draft-%s-%zu.md", status, strlen(text));
	assert_int_equal(sw_record_add_model_output(&doc, m, name, text, strlen(text), &err), 0);
	free(name);
	sqlite3 *db = sw_matter_db(m);
	exec("INSERT INTO runs (task, task_sha256, task_source, brief_name, brief, rounds, status,"
	     " created_at, updated_at, wall_s) VALUES ('declaration', 'abc', 'built-in', 'brief.md',"
	     " 'the brief', 3, 'running', '2026-12-01T10:00:00Z', '2026-12-01T10:00:00Z', 60)");
	int64_t run = sqlite3_last_insert_rowid(db);
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(db,
		"INSERT INTO run_steps (run_id, key, step, kind, role, endpoint, model, status,"
		" messages, output, output_doc_id, prompt_per_s, predicted_per_s)"
		" VALUES (?1, 'draft', 'draft', 'model', 'drafter', 'gpu0', 'qwen3-35b', 'done',"
		" json_array(json_object('role', 'system', 'content', 'You draft declarations.'),"
		"  json_object('role', 'user', 'content', 'Draft the declaration of Jane Roe.')),"
		" ?2, ?3, 500, 25)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, doc);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	int64_t step = sqlite3_last_insert_rowid(db);
	char *sql = sw_xasprintf(
		"INSERT INTO run_sections VALUES (%lld, 1, 'evidence', 'evidence', %lld,"
		" 'ACME0000004.txt', 1, 'ACME0000004', 120, 0);"
		"INSERT INTO run_steps (run_id, key, step, kind, round, status, detail) VALUES"
		" (%lld, 'verify#1', 'verify', 'verify', 1, 'done', '{\"claims\":6,\"blocked\":0}');"
		"UPDATE runs SET status = '%s', draft_doc_id = %lld WHERE id = %lld",
		(long long)step, (long long)ev_doc, (long long)run, status, (long long)doc,
		(long long)run);
	exec(sql);
	free(sql);
	return run;
}

static int setup(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_buf b = SW_BUF_INIT;
	fx_ws_new(&ws);
	char *vol = sw_xasprintf("%s/acme-mini/VOL001", getenv("SW_TEST_DATA"));
	char *path = sw_xasprintf("%s/pipeline/draft-fixed.md", getenv("SW_TEST_DATA"));
	(void)fx_ingest(&ws, "a", vol, true, SW_ORIGIN_EVIDENCE);
	if (sw_file_read(&b, path, 1 << 20, &err) != 0 ||
	    sw_matter_open(&m, &ws.ws, "a", &err) != 0 || sw_run_journal_open(m, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	draft = sw_buf_detach(&b, NULL);
	char *id = q("SELECT doc_id FROM pages WHERE bates = 'ACME0000004'");
	ev_doc = atoll(id);
	free(id);
	free(vol);
	free(path);
	return ev_doc > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	sw_matter_close(m);
	free(draft);
	fx_ws_free(&ws);
	return 0;
}

static int approve(struct sw_approve_result *r, int64_t run, const char *final,
		   const char *override, const char *out_name, struct sw_err *err)
{
	char *out = fx_path(&ws, out_name);
	struct sw_approve_opts o = { .final_text = final, .final_len = strlen(final),
				     .final_name = "final.md", .override = override,
				     .out_path = out };
	int rc = sw_run_approve(r, m, run, &o, err);
	free(out);
	return rc;
}

static char *file_text(const char *name)
{
	struct sw_buf b = SW_BUF_INIT;
	char *p = fx_path(&ws, name);
	int rc = sw_file_read(&b, p, 1 << 20, NULL);
	free(p);
	if (rc != 0) {
		sw_buf_release(&b);
		return NULL;
	}
	return sw_buf_detach(&b, NULL);
}

static void test_approve_clean(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_approve_result r;
	int64_t run = add_run("verified", draft);
	/* The lawyer changes a word and adds a line of three. */
	struct sw_buf fin = SW_BUF_INIT;
	const char *at = strstr(draft, "declare as follows");
	assert_non_null(at);
	sw_buf_add(&fin, draft, (size_t)(at - draft));
	sw_buf_adds(&fin, "state");
	sw_buf_adds(&fin, at + strlen("declare"));
	sw_buf_adds(&fin, "\nDated at Springfield.\n");
	assert_int_equal(approve(&r, run, fin.data, NULL, "final-1.md", &err), 0);
	assert_true(r.accepted);
	assert_false(r.overridden);
	assert_int_equal(r.blocked, 0);
	assert_true(r.claims >= 6);
	assert_true(r.correction_id > 0);
	assert_int_equal(r.words.changed, 1);
	assert_int_equal(r.words.added, 3);
	assert_int_equal(r.words.removed, 0);
	assert_true(r.words.kept > 50);
	assert_non_null(strstr(r.report_json, "\"gate\""));

	char *written = file_text("final-1.md");
	assert_non_null(written);
	assert_string_equal(written, fin.data);
	free(written);
	char *sql = sw_xasprintf("SELECT r.status || ' ' || d.origin || ' ' || d.name ||"
				 " ' ' || (r.final_path LIKE '%%final-1.md') FROM runs r JOIN"
				 " documents d ON d.id = r.final_doc_id WHERE r.id = %lld",
				 (long long)run);
	char *want = sw_xasprintf("approved human run-%lld-final.md 1", (long long)run);
	assert_q(want, sql);
	free(sql);
	free(want);
	sql = sw_xasprintf("SELECT step_key || ' ' || words_kept || ' ' || words_changed || ' ' ||"
			   " words_added || ' ' || words_removed || ' ' || (override IS NULL) ||"
			   " ' ' || (final = draft) || ' ' || json_array_length(diff) ||"
			   " ' ' || json_extract(messages, '$[1].role')"
			   " FROM corrections WHERE id = %lld", (long long)r.correction_id);
	want = sw_xasprintf("draft %zu 1 3 0 1 0 5 user", r.words.kept);
	assert_q(want, sql);
	free(sql);
	free(want);
	sw_approve_result_release(&r);

	/* Approved once is approved. */
	assert_int_equal(approve(&r, run, fin.data, NULL, "final-1b.md", &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "approved already"));
	assert_null(file_text("final-1b.md"));
	sw_buf_release(&fin);
}

static void test_refused_then_override(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_approve_result r;
	int64_t run = add_run("verified", draft);
	char *fin = sw_xasprintf("%s%s", draft, UNSUPPORTED_LINE);
	char *docs = q("SELECT count(*) FROM documents");

	assert_int_equal(approve(&r, run, fin, NULL, "final-2.md", &err), 0);
	assert_false(r.accepted);
	assert_true(r.blocked >= 2); /* the Bates number, and the date cited to it */
	assert_int_equal(r.correction_id, 0);
	assert_non_null(strstr(r.report_json, "ACME0000999"));
	assert_null(file_text("final-2.md"));
	char *sql = sw_xasprintf("SELECT status || ' ' || ifnull(final_doc_id, 'none') ||"
				 " ' ' || (SELECT count(*) FROM corrections WHERE run_id = %lld)"
				 " FROM runs WHERE id = %lld", (long long)run, (long long)run);
	assert_q("verified none 0", sql);
	free(sql);
	char *docs2 = q("SELECT count(*) FROM documents");
	assert_string_equal(docs, docs2);
	free(docs2);
	sw_approve_result_release(&r);

	/* An override needs a reason on one line. */
	assert_int_equal(approve(&r, run, fin, "  ", "final-2.md", &err), SW_EUSAGE);
	assert_int_equal(approve(&r, run, fin, "two\nlines", "final-2.md", &err), SW_EUSAGE);
	assert_null(file_text("final-2.md"));

	assert_int_equal(approve(&r, run, fin, "receipt confirmed by the carrier's log",
				 "final-2.md", &err), 0);
	assert_true(r.accepted);
	assert_true(r.overridden);
	assert_true(r.blocked >= 2);
	assert_int_equal(r.words.added, 10);
	char *written = file_text("final-2.md");
	assert_string_equal(written, fin);
	free(written);
	/* Every blocked verdict is recorded; among them the Bates number's. */
	sql = sw_xasprintf("SELECT override || ' | ' || (json_array_length(overridden) = %zu) ||"
			   " ' ' || (SELECT count(*) FROM json_each(overridden) WHERE"
			   "  json_extract(value, '$.verdict') = 'unsupported' AND"
			   "  json_extract(value, '$.claim') LIKE '%%ACME0000999%%' AND"
			   "  json_extract(value, '$.reason') LIKE '%%not in the production%%') ||"
			   " ' ' || (SELECT count(*) FROM json_each(overridden) WHERE"
			   "  json_extract(value, '$.claim') = 'April 2, 2021')"
			   " FROM corrections WHERE id = %lld", r.blocked, (long long)r.correction_id);
	assert_q("receipt confirmed by the carrier's log | 1 1 1", sql);
	free(sql);
	sw_approve_result_release(&r);
	free(fin);
	free(docs);
}

static void test_not_approvable(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_approve_result r;
	assert_int_equal(approve(&r, 999, draft, NULL, "x.md", &err), SW_ENOTFOUND);
	assert_string_equal(err.msg, "run 999 does not exist in matter a");
	int64_t run = add_run("paused", draft);
	assert_int_equal(approve(&r, run, draft, NULL, "x.md", &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "sworn run resume"));
	run = add_run("running", draft);
	assert_int_equal(approve(&r, run, draft, "reason", "x.md", &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "still running"));
	assert_null(file_text("x.md"));

	/* The final cannot be written: the run is not approved either. */
	run = add_run("verified", draft);
	char *before = q("SELECT count(*) FROM corrections");
	assert_true(approve(&r, run, draft, NULL, "no/such/folder/final.md", &err) < 0);
	assert_false(r.accepted);
	char *sql = sw_xasprintf("SELECT status || ' ' || ifnull(final_doc_id, 'none') FROM runs"
				 " WHERE id = %lld", (long long)run);
	assert_q("verified none", sql);
	assert_q(before, "SELECT count(*) FROM corrections");
	free(sql);
	free(before);
}

/* Every line the export writes, parsed. */
static json_t *export(enum sw_export_kind kind, enum sw_export_format fmt, size_t *written,
		      size_t *skipped, int *rc, struct sw_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = sw_corrections_export(f, written, skipped, m, kind, fmt, err);
	fclose(f);
	json_t *lines = json_array();
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		json_error_t je;
		json_t *v = json_loadb(line, (size_t)(nl - line), 0, &je);
		assert_non_null(v);
		json_array_append_new(lines, v);
		line = nl + 1;
	}
	free(buf);
	return lines;
}

/* The string at path: keys and indices separated by '/'. */
static const char *str_at(json_t *v, const char *path)
{
	while (v && *path) {
		const char *end = strchr(path, '/');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		char *k = sw_xstrndup(path, n);
		v = json_is_array(v) ? json_array_get(v, strtoul(k, NULL, 10)) : json_object_get(v, k);
		free(k);
		path += n + (end ? 1 : 0);
	}
	return json_string_value(v);
}

static void test_export(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	size_t written, skipped;
	int rc;
	json_t *lines = export(SW_EXPORT_SFT, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, SW_EUSAGE);
	assert_string_equal(err.msg, "corrections export is off for matter a (client "
				     "confidentiality); turn it on with: sworn matter set -m a "
				     "corrections.export=yes");
	assert_int_equal(json_array_size(lines), 0);
	json_decref(lines);
	assert_int_equal(sw_matter_setting_set(m, "corrections.export", "no", &err), 0);
	lines = export(SW_EXPORT_SFT, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, SW_EUSAGE);
	json_decref(lines);

	assert_int_equal(sw_matter_setting_set(m, "corrections.export", "yes", &err), 0);
	lines = export(SW_EXPORT_SFT, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(written, 2);
	assert_int_equal(skipped, 0);
	assert_int_equal(json_array_size(lines), 2);
	json_t *l0 = json_array_get(lines, 0);
	assert_int_equal(json_array_size(json_object_get(l0, "prompt")), 2);
	assert_string_equal(str_at(l0, "prompt/0/role"), "system");
	assert_string_equal(str_at(l0, "prompt/0/content"), "You draft declarations.");
	assert_string_equal(str_at(l0, "prompt/1/role"), "user");
	assert_string_equal(str_at(l0, "prompt/1/content"), "Draft the declaration of Jane Roe.");
	assert_int_equal(json_array_size(json_object_get(l0, "completion")), 1);
	assert_string_equal(str_at(l0, "completion/0/role"), "assistant");
	assert_non_null(strstr(str_at(l0, "completion/0/content"), "state as follows:"));
	assert_null(json_object_get(l0, "messages"));
	assert_string_equal(str_at(l0, "metadata/task"), "declaration");
	assert_string_equal(str_at(l0, "metadata/step"), "draft");
	assert_string_equal(str_at(l0, "metadata/model"), "qwen3-35b");
	assert_string_equal(str_at(l0, "metadata/matter"), "a");
	assert_string_equal(str_at(l0, "metadata/export_consent/corrections.export"), "yes");
	assert_non_null(str_at(l0, "metadata/export_consent/set_at"));
	assert_non_null(str_at(l0, "metadata/created_at"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(l0, "metadata"), "run")), 1);
	json_decref(lines);

	lines = export(SW_EXPORT_DPO, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(written, 2);
	json_t *l1 = json_array_get(lines, 1);
	assert_int_equal(json_array_size(json_object_get(l1, "prompt")), 2);
	assert_string_equal(str_at(l1, "chosen/0/role"), "assistant");
	assert_non_null(strstr(str_at(l1, "chosen/0/content"), "ACME0000999"));
	assert_null(strstr(str_at(l1, "rejected/0/content"), "ACME0000999"));
	assert_string_equal(str_at(l1, "rejected/0/content"), draft);
	json_decref(lines);

	/* The same corrections under Axolotl's and LLaMA-Factory's names. */
	lines = export(SW_EXPORT_SFT, SW_EXPORT_AXOLOTL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, 0);
	l0 = json_array_get(lines, 0);
	assert_int_equal(json_array_size(json_object_get(l0, "messages")), 3);
	assert_string_equal(str_at(l0, "messages/2/role"), "assistant");
	assert_non_null(strstr(str_at(l0, "messages/2/content"), "state as follows:"));
	json_decref(lines);
	lines = export(SW_EXPORT_DPO, SW_EXPORT_AXOLOTL, &written, &skipped, &rc, &err);
	l1 = json_array_get(lines, 1);
	assert_int_equal(json_array_size(json_object_get(l1, "messages")), 2);
	assert_string_equal(str_at(l1, "rejected/content"), draft);
	assert_non_null(strstr(str_at(l1, "chosen/content"), "ACME0000999"));
	json_decref(lines);
	lines = export(SW_EXPORT_SFT, SW_EXPORT_LLAMAFACTORY, &written, &skipped, &rc, &err);
	l0 = json_array_get(lines, 0);
	assert_string_equal(str_at(l0, "system"), "You draft declarations.");
	assert_string_equal(str_at(l0, "conversations/0/from"), "human");
	assert_string_equal(str_at(l0, "conversations/0/value"),
			    "Draft the declaration of Jane Roe.");
	assert_string_equal(str_at(l0, "conversations/1/from"), "gpt");
	json_decref(lines);
	lines = export(SW_EXPORT_DPO, SW_EXPORT_LLAMAFACTORY, &written, &skipped, &rc, &err);
	l1 = json_array_get(lines, 1);
	assert_int_equal(json_array_size(json_object_get(l1, "conversations")), 1);
	assert_string_equal(str_at(l1, "rejected/from"), "gpt");
	assert_string_equal(str_at(l1, "rejected/value"), draft);
	json_decref(lines);

	/* A window of two user turns in a row stays home: the stricter chat
	 * templates refuse it. */
	exec("UPDATE corrections SET messages = json_insert(messages, '$[#]',"
	     " json_object('role', 'user', 'content', 'again')) WHERE run_id = 2");
	lines = export(SW_EXPORT_SFT, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(written, 1);
	assert_int_equal(skipped, 1);
	json_decref(lines);
	exec("UPDATE corrections SET messages = json_remove(messages, '$[#-1]') WHERE run_id = 2");

	/* The first run's final is quarantined: it stays home. */
	exec("UPDATE documents SET status = 'quarantined' WHERE id ="
	     " (SELECT final_doc_id FROM runs WHERE id = 1)");
	lines = export(SW_EXPORT_DPO, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(written, 1);
	assert_int_equal(skipped, 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
				 json_array_get(lines, 0), "metadata"), "run")), 2);
	json_decref(lines);
	/* The evidence page both windows held is quarantined: none leaves. */
	char *sql = sw_xasprintf("UPDATE documents SET status = 'quarantined' WHERE id = %lld",
				 (long long)ev_doc);
	exec(sql);
	free(sql);
	lines = export(SW_EXPORT_SFT, SW_EXPORT_TRL, &written, &skipped, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(written, 0);
	assert_int_equal(skipped, 2);
	assert_int_equal(json_array_size(lines), 0);
	json_decref(lines);
}

/* Runs with known figures in matter b. */
static void test_stats(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	sw_matter_close(m);
	assert_int_equal(sw_matter_open(&m, &ws.ws, "b", &err), 0);
	json_t *empty = sw_run_stats_json(m, SW_STATS_MODEL, &err);
	assert_non_null(empty);
	assert_int_equal(json_array_size(empty), 0);
	json_decref(empty);
	exec("INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds,"
	     " status, created_at, updated_at, wall_s) VALUES"
	     " (1, 'declaration', 'x', 'built-in', 'b', 'b', 3, 'approved', 't', 't', 100),"
	     " (2, 'declaration', 'x', 'built-in', 'b', 'b', 3, 'approved', 't', 't', 50),"
	     " (3, 'chronology', 'x', 'built-in', 'b', 'b', 3, 'blocked', 't', 't', 30);"
	     "INSERT INTO run_steps (run_id, key, step, kind, round, role, model, status,"
	     " prompt_per_s, predicted_per_s, detail) VALUES"
	     " (1, 'draft', 'draft', 'model', 0, 'drafter', 'small', 'done', 400, 20, '{}'),"
	     " (1, 'review', 'review', 'review', 0, 'reviewer', 'big', 'done', 200, 10,"
	     "  '{\"findings\":3}'),"
	     " (1, 'verify#0', 'verify', 'verify', 0, NULL, NULL, 'done', NULL, NULL,"
	     "  '{\"claims\":10,\"blocked\":2}'),"
	     " (1, 'revise#1', 'revise', 'revise', 1, 'reasoner', 'big', 'done', 100, 6, '{}'),"
	     " (1, 'verify#1', 'verify', 'verify', 1, NULL, NULL, 'done', NULL, NULL,"
	     "  '{\"claims\":10,\"blocked\":0}'),"
	     " (2, 'draft', 'draft', 'model', 0, 'drafter', 'big', 'done', 300, 8, '{}'),"
	     " (2, 'verify#0', 'verify', 'verify', 0, NULL, NULL, 'done', NULL, NULL,"
	     "  '{\"claims\":5,\"blocked\":5}'),"
	     " (3, 'draft', 'draft', 'model', 0, 'drafter', 'small', 'done', 600, 30, '{}'),"
	     " (3, 'verify#0', 'verify', 'verify', 0, NULL, NULL, 'done', NULL, NULL,"
	     "  '{\"claims\":0,\"blocked\":0}');"
	     "INSERT INTO corrections (run_id, step_key, messages, draft, final, diff, words_kept,"
	     " words_changed, words_added, words_removed, override, overridden, created_at) VALUES"
	     " (1, 'revise#1', '[]', 'd', 'f', '[]', 90, 5, 3, 5, NULL, NULL, 't'),"
	     " (2, 'draft', '[]', 'd', 'f', '[]', 40, 0, 10, 0, 'why', '[]', 't')");

	json_t *by = sw_run_stats_json(m, SW_STATS_MODEL, &err);
	assert_non_null(by);
	char *s = json_dumps(by, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
	/* big: runs 1 and 2; 7 of 15 first-draft claims blocked; one review
	 * with 3 findings; run 1 verified after 1 revision (verify#0 is the first draft's gate), run 2 overridden;
	 * edits (13 + 10) / (100 + 40); tok/s of big's steps (10, 6, 8).
	 * small: runs 1 and 3; run 3's first draft had no claims. */
	assert_string_equal(s,
		"[{\"blocked_per_100_claims\":46.6667,\"blocked_share\":0.5,\"corrections\":2,"
		"\"decode_tok_s\":8.0,\"edit_ratio\":0.164286,\"findings_per_draft\":3.0,"
		"\"first_draft_claims\":15,\"model\":\"big\",\"prompt_tok_s\":200.0,"
		"\"rounds_to_verified\":1.0,\"runs\":2,\"wall_s\":75.0},"
		"{\"blocked_per_100_claims\":20.0,\"blocked_share\":0.5,\"corrections\":1,"
		"\"decode_tok_s\":25.0,\"edit_ratio\":0.13,\"findings_per_draft\":3.0,"
		"\"first_draft_claims\":10,\"model\":\"small\",\"prompt_tok_s\":500.0,"
		"\"rounds_to_verified\":1.0,\"runs\":2,\"wall_s\":65.0}]");
	free(s);
	json_decref(by);

	by = sw_run_stats_json(m, SW_STATS_TASK, &err);
	s = json_dumps(by, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
	/* chronology: one blocked run, no claims, no review, no correction. */
	assert_string_equal(s,
		"[{\"blocked_per_100_claims\":null,\"blocked_share\":1.0,\"corrections\":0,"
		"\"decode_tok_s\":30.0,\"edit_ratio\":null,\"findings_per_draft\":null,"
		"\"first_draft_claims\":0,\"prompt_tok_s\":600.0,\"rounds_to_verified\":null,"
		"\"runs\":1,\"task\":\"chronology\",\"wall_s\":30.0},"
		"{\"blocked_per_100_claims\":46.6667,\"blocked_share\":0.5,\"corrections\":2,"
		"\"decode_tok_s\":11.0,\"edit_ratio\":0.164286,\"findings_per_draft\":3.0,"
		"\"first_draft_claims\":15,\"prompt_tok_s\":250.0,\"rounds_to_verified\":1.0,"
		"\"runs\":2,\"task\":\"declaration\",\"wall_s\":75.0}]");
	free(s);
	json_decref(by);

	by = sw_run_stats_json(m, SW_STATS_ROLE, &err);
	assert_int_equal(json_array_size(by), 3); /* drafter, reasoner, reviewer */
	assert_string_equal(str_at(by, "2/role"), "reviewer");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(by, 0), "runs")), 3);
	json_decref(by);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_approve_clean),
		cmocka_unit_test(test_refused_then_override),
		cmocka_unit_test(test_not_approvable),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_stats),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
