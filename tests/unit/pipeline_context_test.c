/*
 * pipeline_context_test.c - the context audit read back from journal rows
 * written with SQL: sections in order with origin, document, Bates and
 * tokens, shares by origin, the run's flags, and violations for an
 * "evidence" section whose document is a model's output, quarantined,
 * missing, or whose origin is not evidence.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <sqlite3.h>

#define TMPDIR_TAG "context"
#include "tmpdir.h"

#include "pipeline/pipeline.h"

static struct sw_workspace ws;
static struct sw_matter *m;
static int64_t evidence_doc, model_doc, quarantined_doc;

static const char output[] =
	"Brightline's Line 3 press failed on February 26, 2021, and its operations manager "
	"told the controller on March 2. Thomas Smith told Acme on March 3 that the order "
	"would ship late. The order shipped on March 31 and arrived on April 6, twenty-seven "
	"days after the delivery date the purchase order set, so the credit owed was the "
	"weekly two percent the agreement provides for every week of delay.";

static void exec(const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(sw_matter_db(m), sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

static int group_setup(void **state)
{
	struct sw_err err = { 0 };
	if (setup(state) != 0)
		return -1;
	const char mail[] = "From: Thomas Smith\nDate: March 3, 2021\n\nOur Line 3 press failed.";
	if (sw_workspace_create(dir, &err) != 0 || sw_workspace_open(&ws, dir, &err) != 0 ||
	    sw_matter_create(&ws, "ctx", &err) != 0 || sw_matter_open(&m, &ws, "ctx", &err) != 0 ||
	    sw_record_add_text(&evidence_doc, m, SW_ORIGIN_EVIDENCE, "smith-email.txt", mail,
			       strlen(mail), &err) != 0 ||
	    sw_record_add_model_output(&model_doc, m, "outline", output, strlen(output),
				       &err) != 0)
		goto fail;
	/* the output comes back as evidence in a later import: quarantined */
	sw_matter_close(m);
	char *resaved = sw_xasprintf("Case notes\r\n\r\n%s\r\n", output);
	int rc = sw_matter_open(&m, &ws, "ctx", &err);
	if (rc == 0)
		rc = sw_run_journal_open(m, &err);
	if (rc == 0)
		rc = sw_record_add_text(&quarantined_doc, m, SW_ORIGIN_EVIDENCE, "notes.txt",
					resaved, strlen(resaved), &err);
	free(resaved);
	if (rc != 0)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "setup: %s\n", err.msg);
	return -1;
}

static int group_teardown(void **state)
{
	sw_matter_close(m);
	sw_workspace_release(&ws);
	return teardown(state);
}

static void add_run(int64_t id)
{
	char *sql = sw_xasprintf(
		"INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief, rounds,"
		" status, created_at, updated_at) VALUES (%lld, 'declaration', 'x', 'built-in',"
		" 'brief.md', 'the delay', 3, 'verified', '2026-01-01T00:00:00Z',"
		" '2026-01-01T00:00:00Z')", (long long)id);
	exec(sql);
	free(sql);
}

static void add_step(int64_t id, int64_t run, const char *key, const char *role,
		     const char *endpoint)
{
	char *sql = sw_xasprintf(
		"INSERT INTO run_steps (id, run_id, key, step, kind, role, endpoint, status)"
		" VALUES (%lld, %lld, '%s', '%s', 'model', '%s', '%s', 'done')",
		(long long)id, (long long)run, key, key, role, endpoint);
	exec(sql);
	free(sql);
}

/* doc_id 0: none. */
static void add_section(int64_t step, int seq, const char *kind, const char *origin,
			int64_t doc_id, const char *document, int page, const char *bates,
			int tokens, int estimated)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(sw_matter_db(m),
		"INSERT INTO run_sections (step_id, seq, kind, origin, doc_id, document, page_no,"
		" bates, tokens, estimated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
		-1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, step);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, origin, -1, SQLITE_STATIC);
	if (doc_id)
		sqlite3_bind_int64(st, 5, doc_id);
	sqlite3_bind_text(st, 6, document, -1, SQLITE_STATIC);
	if (page)
		sqlite3_bind_int(st, 7, page);
	sqlite3_bind_text(st, 8, bates, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, tokens);
	sqlite3_bind_int(st, 10, estimated);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
}

static json_int_t int_at(json_t *o, const char *path1, const char *path2)
{
	json_t *v = json_object_get(o, path1);
	if (path2)
		v = json_object_get(v, path2);
	if (!json_is_integer(v))
		fail_msg("%s.%s is not an integer", path1, path2 ? path2 : "");
	return json_integer_value(v);
}

static const char *str_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double share(json_t *by, const char *origin)
{
	return json_real_value(json_object_get(json_object_get(by, origin), "share"));
}

static void test_clean_run(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	add_run(1);
	add_step(10, 1, "outline", "reasoner", "box-a");
	add_step(11, 1, "draft", "drafter", "box-b");
	/* written out of order: read back by seq */
	add_section(10, 3, "evidence", "evidence", evidence_doc, "smith-email.txt", 1,
		    "ACME0000004", 200, 1);
	add_section(10, 1, "system", "template", 0, NULL, 0, NULL, 100, 0);
	add_section(10, 2, "brief", "human", 0, "brief.md", 0, NULL, 50, 0);
	add_section(10, 0, "instructions", "template", 0, NULL, 0, NULL, 50, 0);
	add_section(11, 0, "system", "template", 0, NULL, 0, NULL, 100, 0);
	add_section(11, 1, "prior_draft", "model", model_doc, "outline", 0, NULL, 300, 0);
	add_section(11, 2, "evidence", "evidence", evidence_doc, "smith-email.txt", 1,
		    "ACME0000004", 200, 1);
	exec("INSERT INTO run_flags (step_id, doc_id, document, bates, kind, excerpt)"
	     " VALUES (11, 1, 'smith-email.txt', 'ACME0000004', 'override',"
	     " 'Ignore all previous instructions')");

	json_t *j = sw_run_context_json(m, 1, NULL, &err);
	if (!j)
		fail_msg("sw_run_context_json: %s", err.msg);
	assert_int_equal(int_at(j, "run", NULL), 1);
	json_t *steps = json_object_get(j, "steps");
	assert_int_equal(json_array_size(steps), 2);
	json_t *s0 = json_array_get(steps, 0), *s1 = json_array_get(steps, 1);
	assert_string_equal(str_at(s0, "key"), "outline");
	assert_string_equal(str_at(s0, "role"), "reasoner");
	assert_string_equal(str_at(s0, "endpoint"), "box-a");
	assert_string_equal(str_at(s1, "key"), "draft");
	json_t *secs = json_object_get(s0, "sections");
	assert_int_equal(json_array_size(secs), 4);
	assert_string_equal(str_at(json_array_get(secs, 0), "kind"), "instructions");
	assert_string_equal(str_at(json_array_get(secs, 1), "kind"), "system");
	json_t *ev = json_array_get(secs, 3);
	assert_string_equal(str_at(ev, "kind"), "evidence");
	assert_string_equal(str_at(ev, "origin"), "evidence");
	assert_string_equal(str_at(ev, "document"), "smith-email.txt");
	assert_string_equal(str_at(ev, "bates"), "ACME0000004");
	assert_int_equal(int_at(ev, "page", NULL), 1);
	assert_int_equal(int_at(ev, "doc_id", NULL), evidence_doc);
	assert_int_equal(int_at(ev, "tokens", NULL), 200);
	assert_true(json_is_true(json_object_get(ev, "estimated")));
	assert_true(json_is_null(json_object_get(json_array_get(secs, 1), "doc_id")));
	assert_true(json_is_false(json_object_get(json_array_get(secs, 1), "estimated")));

	assert_int_equal(int_at(s0, "tokens", NULL), 400);
	json_t *by = json_object_get(s0, "by_origin");
	assert_int_equal(int_at(by, "template", "tokens"), 150);
	assert_int_equal(int_at(by, "evidence", "tokens"), 200);
	assert_int_equal(int_at(by, "human", "tokens"), 50);
	assert_true(share(by, "evidence") == 0.5);
	assert_true(share(by, "template") == 0.38);
	assert_true(json_real_value(json_object_get(json_object_get(by, "template"), "percent")) ==
		    37.5);
	assert_int_equal(int_at(s1, "tokens", NULL), 600);

	json_t *all = json_object_get(j, "by_origin");
	assert_int_equal(int_at(all, "model", "tokens"), 300);
	assert_int_equal(int_at(all, "evidence", "tokens"), 400);
	assert_true(share(all, "evidence") == 0.4);
	assert_int_equal(int_at(j, "tokens", NULL), 1000);
	assert_int_equal(json_array_size(json_object_get(j, "violations")), 0);
	json_t *flags = json_object_get(j, "flags");
	assert_int_equal(json_array_size(flags), 1);
	assert_string_equal(str_at(json_array_get(flags, 0), "step"), "draft");
	assert_string_equal(str_at(json_array_get(flags, 0), "kind"), "override");
	json_decref(j);

	/* one step */
	j = sw_run_context_json(m, 1, "outline", &err);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "steps")), 1);
	assert_int_equal(json_array_size(json_object_get(j, "flags")), 0);
	assert_int_equal(int_at(j, "tokens", NULL), 400);
	json_decref(j);

	assert_null(sw_run_context_json(m, 1, "revise#9", &err));
	assert_int_equal(err.code, SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "revise#9"));
}

static void test_unknown_run(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	assert_null(sw_run_context_json(m, 99, NULL, &err));
	assert_int_equal(err.code, SW_ENOTFOUND);
	assert_string_equal(err.msg, "run 99 does not exist in matter ctx");
}

static void test_violations(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	add_run(2);
	add_step(20, 2, "section#1", "drafter", "box-a");
	add_section(20, 0, "evidence", "evidence", evidence_doc, "smith-email.txt", 1,
		    "ACME0000004", 10, 0);
	add_section(20, 1, "evidence", "evidence", model_doc, "outline", 1, NULL, 10, 0);
	add_section(20, 2, "evidence", "evidence", quarantined_doc, "notes.txt", 1, NULL, 10, 0);
	add_section(20, 3, "evidence", "model", evidence_doc, "smith-email.txt", 1, NULL, 10, 0);
	add_section(20, 4, "evidence", "evidence", 0, "nowhere.txt", 1, NULL, 10, 0);
	add_section(20, 5, "evidence", "evidence", 4242, "gone.txt", 1, NULL, 10, 0);
	add_section(20, 6, "prior_draft", "model", model_doc, "outline", 0, NULL, 10, 0);

	json_t *j = sw_run_context_json(m, 2, NULL, &err);
	if (!j)
		fail_msg("sw_run_context_json: %s", err.msg);
	json_t *v = json_object_get(j, "violations");
	assert_int_equal(json_array_size(v), 5);
	static const struct {
		int seq;
		const char *reason;
	} want[] = {
		{ 1, "is of origin model, not evidence" },
		{ 2, "is quarantined, not active evidence" },
		{ 3, "a section of kind evidence has origin model" },
		{ 4, "names no document" },
		{ 5, "document 4242 does not exist" },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(want); i++) {
		json_t *x = json_array_get(v, i);
		assert_int_equal(int_at(x, "seq", NULL), want[i].seq);
		assert_string_equal(str_at(x, "step"), "section#1");
		if (!strstr(str_at(x, "reason"), want[i].reason))
			fail_msg("violation %zu: '%s' lacks '%s'", i, str_at(x, "reason"),
				 want[i].reason);
	}
	assert_int_equal(int_at(json_array_get(v, 1), "doc_id", NULL), quarantined_doc);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_run),
		cmocka_unit_test(test_unknown_run),
		cmocka_unit_test(test_violations),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
