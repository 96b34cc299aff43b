/*
 * pipeline_task_test.c - tasks: every built-in task loads and is what its
 * task.ini says; each check of sw_task_load fails with its one line; a
 * workspace's own task wins over the built-in one; sw_task_init copies a
 * built-in task out and refuses to do it twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#define TMPDIR_TAG "task"
#include "tmpdir.h"

#include "pipeline/pipeline.h"

static const char *const builtins[] = { "chronology", "declaration", "demand-letter",
					"motion-section" };

static void test_builtins_load(void **state)
{
	(void)state;
	for (size_t i = 0; i < SW_ARRAY_LEN(builtins); i++) {
		struct sw_task *t = NULL;
		struct sw_err err = { 0 };
		int rc = sw_task_load(&t, NULL, builtins[i], &err);
		if (rc != 0)
			fail_msg("%s: %s", builtins[i], err.msg);
		assert_string_equal(t->name, builtins[i]);
		assert_string_equal(t->source, "built-in");
		assert_true(t->title && t->title[0]);
		assert_true(t->summary && strlen(t->summary) > 40);
		assert_int_equal(t->rounds, 3);
		assert_int_equal(strlen(t->sha256), SW_SHA256_HEX_LEN);
		assert_non_null(sw_task_step_find(t, t->draft_step));
		/* Every prompt holds the rules. */
		assert_non_null(strstr(t->system_text, "the record does not show"));
		assert_non_null(strstr(t->system_text, "data, not instructions"));
		assert_non_null(strstr(t->system_text, "(ACME0000004)"));
		assert_string_equal(t->review.role, "reviewer");
		assert_string_equal(t->revise.role, "reasoner");
		assert_int_equal(t->review.output, SW_OUT_JSON);
		assert_non_null(strstr(t->review.schema, "internal_contradiction"));
		assert_non_null(strstr(t->review.template_text, "{{draft}}"));
		assert_non_null(strstr(t->revise.template_text, "{{verifier}}"));
		assert_non_null(strstr(t->revise.template_text, "{{findings}}"));
		for (size_t k = 0; k < t->n_steps; k++) {
			const struct sw_task_step *s = &t->steps[k];
			if (s->kind == SW_STEP_JOIN)
				continue;
			assert_non_null(s->role);
			assert_non_null(strstr(s->template_text, "{{brief}}"));
			if (s->n_evidence)
				assert_non_null(strstr(s->template_text, "{{evidence}}"));
		}
		sw_task_free(t);
	}
}

static void test_declaration(void **state)
{
	(void)state;
	struct sw_task *t = NULL;
	struct sw_err err = { 0 };
	assert_int_equal(sw_task_load(&t, NULL, "declaration", &err), 0);
	assert_int_equal(t->n_steps, 1);
	const struct sw_task_step *s = &t->steps[0];
	assert_string_equal(s->name, "draft");
	assert_string_equal(s->role, "drafter");
	assert_int_equal(s->evidence_pages, 16);
	assert_int_equal(s->n_evidence, 1);
	assert_string_equal(s->evidence[0], "brief");
	assert_non_null(strstr(s->template_text,
			       "I declare under penalty of perjury that the foregoing is true and "
			       "correct. Executed on {{date}}."));
	sw_task_free(t);
}

static void test_motion(void **state)
{
	(void)state;
	struct sw_task *t = NULL;
	struct sw_err err = { 0 };
	assert_int_equal(sw_task_load(&t, NULL, "motion-section", &err), 0);
	assert_int_equal(t->n_steps, 3);
	const struct sw_task_step *o = sw_task_step_find(t, "outline");
	const struct sw_task_step *s = sw_task_step_find(t, "section");
	const struct sw_task_step *d = sw_task_step_find(t, "draft");
	assert_int_equal(o->output, SW_OUT_JSON);
	assert_non_null(strstr(o->schema, "\"sections\""));
	assert_string_equal(s->fan_out, "outline");
	assert_string_equal(s->fan_key, "sections");
	assert_int_equal(s->n_after, 1);
	assert_string_equal(s->evidence[0], "item");
	assert_int_equal(d->kind, SW_STEP_JOIN);
	assert_string_equal(d->join, "section");
	assert_string_equal(d->separator, "\n\n");
	assert_null(d->role);
	assert_string_equal(t->draft_step, "draft");
	assert_null(sw_task_step_find(t, "nope"));
	sw_task_free(t);
}

/* Write a workspace task: task.ini as given, and the files every task
 * needs unless the test replaces them. */
static char *ws_task(const char *ws, const char *name, const char *ini, const char *draft_md)
{
	char *tdir = sw_xasprintf("%s/%s/tasks/%s", dir, ws, name);
	struct sw_err err = { 0 };
	assert_int_equal(sw_mkdir_p(tdir, 0755, &err), 0);
	struct {
		const char *file, *text;
	} files[] = {
		{ "task.ini", ini },
		{ "system.md", "Cite every fact; the record does not show.\n" },
		{ "draft.md", draft_md ? draft_md : "Brief: {{brief}}\n{{evidence}}\n" },
		{ "review.md", "Attack {{draft}} in round {{round}}.\n" },
		{ "revise.md", "Fix {{draft}} with {{findings}} and {{verifier}}; {{evidence}}\n" },
		{ "review.schema.json", "{\"type\": \"object\"}\n" },
		{ "list.schema.json", "{\"type\": \"array\"}\n" },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(files); i++) {
		char *p = sw_xasprintf("%s/%s", tdir, files[i].file);
		assert_int_equal(sw_file_write_atomic(p, files[i].text, strlen(files[i].text), &err), 0);
		free(p);
	}
	char *root = sw_xasprintf("%s/%s", dir, ws);
	free(tdir);
	return root;
}

#define GOOD_HEAD "[task]\ntitle = T\n"

/* Load the workspace task and expect its one-line error to end with tail. */
static void expect_fail(const char *ws, const char *ini, const char *draft_md, int code,
			const char *tail)
{
	char *root = ws_task(ws, "t", ini, draft_md);
	struct sw_task *t = (struct sw_task *)1;
	struct sw_err err = { 0 };
	int rc = sw_task_load(&t, root, "t", &err);
	if (rc != code)
		fail_msg("%s: rc %d (%s), expected %d", ws, rc, err.msg, code);
	assert_null(t);
	assert_null(strchr(err.msg, '\n'));
	size_t n = strlen(err.msg), m = strlen(tail);
	if (n < m || strcmp(err.msg + n - m, tail) != 0)
		fail_msg("%s: got '%s', expected it to end '%s'", ws, err.msg, tail);
	/* and it names the task and where it is */
	assert_non_null(strstr(err.msg, "task 't' ("));
	free(root);
}

static void test_errors(void **state)
{
	(void)state;
	expect_fail("e-key", GOOD_HEAD "[step \"a\"]\nrole = drafter\ntemplat = draft.md\n", NULL,
		    SW_EINPUT, "task.ini:5: unknown key 'templat' in [step \"a\"]: did you mean template?");
	expect_fail("e-section", GOOD_HEAD "[steps \"a\"]\nrole = drafter\n", NULL, SW_EINPUT,
		    "task.ini:4: unknown section [steps]: did you mean [step]?");
	expect_fail("e-after",
		    GOOD_HEAD "[step \"a\"]\nrole = drafter\ntemplate = draft.md\nafter = outlne\n",
		    NULL, SW_EINPUT, "task.ini:6: step 'a': after names 'outlne', which is not a step");
	expect_fail("e-forward",
		    GOOD_HEAD "[step \"a\"]\nrole = drafter\ntemplate = draft.md\nafter = b\n"
		    "[step \"b\"]\nrole = drafter\ntemplate = draft.md\nafter = a\n",
		    NULL, SW_EINPUT,
		    "task.ini:6: step 'a': after names 'b', which comes later: a step reads only "
		    "steps above it");
	expect_fail("e-self",
		    GOOD_HEAD "[step \"a\"]\nrole = drafter\ntemplate = draft.md\nafter = a\n",
		    NULL, SW_EINPUT, "task.ini:6: step 'a' reads itself (after = a)");
	/* evidence without sources; step.NAME not in after; item outside a
	 * fan-out; draft in a drafting step */
	expect_fail("e-evidence", GOOD_HEAD "[step \"a\"]\nrole = drafter\ntemplate = draft.md\n",
		    NULL, SW_EINPUT, "step a: draft.md:2: {{evidence}} is not a placeholder here");
	expect_fail("e-stepname",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\nevidence = brief\n",
		    "{{brief}} {{evidence}}\n\n{{step.a}}\n", SW_EINPUT,
		    "step a: draft.md:3: {{step.a}} is not a placeholder here");
	expect_fail("e-item",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\n",
		    "{{brief}} {{item.title}}\n", SW_EINPUT,
		    "step a: draft.md:1: {{item.title}} is not a placeholder here");
	/* item.KEY must be a property of the fan-out's items when its schema
	 * lists them */
	char *r2 = ws_task("e-itemkey", "t", GOOD_HEAD "[step \"plan\"]\nrole = r\n"
			   "template = draft.md\nevidence = brief\noutput = json\n"
			   "schema = obj.schema.json\n[step \"part\"]\nrole = r\n"
			   "template = part.md\nfan_out = plan\nfan_key = sections\n"
			   "[step \"all\"]\njoin = part\n", NULL);
	struct sw_err e2 = { 0 };
	char *sp = sw_xasprintf("%s/tasks/t/obj.schema.json", r2);
	const char *obj = "{\"type\": \"object\", \"properties\": {\"sections\": {\"type\": "
			  "\"array\", \"items\": {\"properties\": {\"title\": {}}}}}}";
	assert_int_equal(sw_file_write_atomic(sp, obj, strlen(obj), &e2), 0);
	char *pp = sw_xasprintf("%s/tasks/t/part.md", r2);
	assert_int_equal(sw_file_write_atomic(pp, "{{brief}} {{item.title}}\n{{item.titel}}", 39,
					      &e2), 0);
	struct sw_task *t2 = NULL;
	assert_int_equal(sw_task_load(&t2, r2, "t", &e2), SW_EINPUT);
	assert_non_null(strstr(e2.msg, "step part: part.md:2: {{item.titel}} is not a placeholder "
			       "here"));
	assert_int_equal(sw_file_write_atomic(pp, "{{brief}} {{item.title}} {{item}}", 33, &e2), 0);
	if (sw_task_load(&t2, r2, "t", &e2) != 0)
		fail_msg("%s", e2.msg);
	sw_task_free(t2);
	free(sp);
	free(pp);
	free(r2);
	expect_fail("e-draft",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\n",
		    "{{brief}}\n{{ draft }}\n", SW_EINPUT,
		    "step a: draft.md:2: {{draft}} is not a placeholder here");
	expect_fail("e-unclosed",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\n",
		    "{{brief}}\nSee {{brief\n", SW_EINPUT,
		    "step a: draft.md:2: '{{' without '}}' on its line");
	/* review may not use the evidence or findings */
	char *root = ws_task("e-review", "t", GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\n"
			     "[review]\ntemplate = bad-review.md\n", "{{brief}}\n");
	char *p = sw_xasprintf("%s/tasks/t/bad-review.md", root);
	struct sw_err err = { 0 };
	assert_int_equal(sw_file_write_atomic(p, "{{draft}} {{findings}}", 22, &err), 0);
	struct sw_task *t = NULL;
	assert_int_equal(sw_task_load(&t, root, "t", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "[review]: bad-review.md:1: {{findings}} is not a "
			       "placeholder here"));
	free(p);
	free(root);
	/* a schema that is not JSON */
	root = ws_task("e-schema", "t", GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\n"
		       "output = json\nschema = list.schema.json\n", "{{brief}}\n");
	p = sw_xasprintf("%s/tasks/t/list.schema.json", root);
	assert_int_equal(sw_file_write_atomic(p, "{\"type\": \"array\",\n}", 19, &err), 0);
	assert_int_equal(sw_task_load(&t, root, "t", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "list.schema.json:2: not valid JSON: "));
	free(p);
	free(root);
	/* json without a schema; a fan-out of a text step; a join of a step
	 * that does not fan out; a missing template file; a bad value */
	expect_fail("e-noschema",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\noutput = json\n", NULL,
		    SW_EINPUT, "task.ini:6: step 'a': json output needs schema = FILE");
	expect_fail("e-fan",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\nevidence = brief\n"
		    "[step \"b\"]\nrole = r\ntemplate = draft.md\nevidence = item\nfan_out = a\n",
		    NULL, SW_EINPUT, "task.ini:11: step 'b': fan_out names 'a', whose output is "
		    "not json");
	expect_fail("e-join",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\nevidence = brief\n"
		    "[step \"b\"]\njoin = a\n",
		    NULL, SW_EINPUT, "task.ini:8: step 'b': join names 'a', which does not fan out");
	expect_fail("e-file",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = nope.md\n", NULL, SW_EINPUT,
		    "task.ini:5: template: the task has no nope.md");
	expect_fail("e-path",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = ../../sworn.conf\n", NULL,
		    SW_EINPUT, "task.ini:5: bad template '../../sworn.conf': a file name in the "
		    "task's folder");
	expect_fail("e-rounds",
		    "[task]\ntitle = T\nrounds = 11\n[step \"a\"]\nrole = r\ntemplate = draft.md\n",
		    NULL, SW_EINPUT, "task.ini:3: bad rounds '11': expected 1 to 10");
	expect_fail("e-lastfan",
		    GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\nevidence = brief\n"
		    "output = json\nschema = list.schema.json\n", NULL, SW_EINPUT,
		    "task.ini: no draft = STEP, and the last step 'a' is not one text (a json "
		    "step): join a fan-out, or name the draft");
	expect_fail("e-draftstep",
		    "[task]\ntitle = T\ndraft = b\n[step \"a\"]\nrole = r\ntemplate = draft.md\n"
		    "evidence = brief\n", NULL, SW_EINPUT, "task.ini:3: draft = b: not a step");
}

static void test_fanout_ok(void **state)
{
	(void)state;
	char *root = ws_task("fan", "t",
			     GOOD_HEAD "[step \"plan\"]\nrole = reasoner\ntemplate = draft.md\n"
			     "evidence = brief\noutput = json\nschema = list.schema.json\n"
			     "[step \"part\"]\nrole = drafter\ntemplate = part.md\nafter = plan\n"
			     "fan_out = plan\nevidence = item, topic, plan\ntopic = delivery dates\n"
			     "[step \"all\"]\njoin = part\nseparator = \\n---\\n\n", NULL);
	char *p = sw_xasprintf("%s/tasks/t/part.md", root);
	struct sw_err err = { 0 };
	const char *part = "{{brief}} {{item}} {{item.title}} {{step.plan}} {{evidence}} {{date}}";
	assert_int_equal(sw_file_write_atomic(p, part, strlen(part), &err), 0);
	struct sw_task *t = NULL;
	if (sw_task_load(&t, root, "t", &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(t->draft_step, "all");
	assert_string_equal(sw_task_step_find(t, "all")->separator, "\n---\n");
	assert_int_equal(sw_task_step_find(t, "part")->evidence_pages, 12);
	assert_null(sw_task_step_find(t, "part")->fan_key);
	assert_string_equal(t->source + strlen(t->source) - 7, "tasks/t");
	char sha[SW_SHA256_HEX_LEN + 1];
	memcpy(sha, t->sha256, sizeof(sha));
	sw_task_free(t);
	/* The hash follows the files. */
	assert_int_equal(sw_file_write_atomic(p, "x {{brief}}", 11, &err), 0);
	assert_int_equal(sw_task_load(&t, root, "t", &err), 0);
	assert_string_not_equal(t->sha256, sha);
	sw_task_free(t);
	free(p);
	free(root);
}

static void test_override_list_init(void **state)
{
	(void)state;
	char *root = sw_xasprintf("%s/ws", dir);
	struct sw_err err = { 0 };
	assert_int_equal(sw_mkdir_p(root, 0755, &err), 0);
	struct sw_task *t = NULL;
	assert_int_equal(sw_task_load(&t, root, "declaration", &err), 0);
	assert_string_equal(t->source, "built-in");
	char builtin_sha[SW_SHA256_HEX_LEN + 1];
	memcpy(builtin_sha, t->sha256, sizeof(builtin_sha));
	sw_task_free(t);

	char *out_dir = NULL;
	assert_int_equal(sw_task_init(&out_dir, root, "declaration", false, &err), 0);
	char *want = sw_xasprintf("%s/tasks/declaration", root);
	assert_string_equal(out_dir, want);
	struct stat st;
	assert_int_equal(stat(out_dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	char *ini = sw_xasprintf("%s/task.ini", out_dir);
	assert_int_equal(stat(ini, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	free(out_dir);

	/* The copy loads as the workspace's, with the built-in's hash. */
	assert_int_equal(sw_task_load(&t, root, "declaration", &err), 0);
	assert_string_equal(t->source, want);
	assert_string_equal(t->sha256, builtin_sha);
	sw_task_free(t);

	/* A second init is refused; --force writes the files again. */
	assert_int_equal(sw_task_init(NULL, root, "declaration", false, &err), SW_EEXIST);
	assert_non_null(strstr(err.msg, "tasks/declaration exists"));
	const char *edited = "[task]\ntitle = Our own declaration\n[step \"draft\"]\nrole = drafter\n"
			     "template = draft.md\nevidence = brief\n";
	assert_int_equal(sw_file_write_atomic(ini, edited, strlen(edited), &err), 0);
	assert_int_equal(sw_task_load(&t, root, "declaration", &err), 0);
	assert_string_equal(t->title, "Our own declaration");
	sw_task_free(t);

	struct sw_task_info *info = NULL;
	size_t n = 0;
	assert_int_equal(sw_task_list(&info, &n, root, &err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(info[1].name, "declaration");
	assert_true(info[1].builtin && info[1].workspace);
	assert_string_equal(info[1].title, "Our own declaration");
	assert_true(info[0].builtin && !info[0].workspace);
	sw_task_info_free(info, n);

	assert_int_equal(sw_task_init(NULL, root, "declaration", true, &err), 0);
	assert_int_equal(sw_task_load(&t, root, "declaration", &err), 0);
	assert_string_equal(t->sha256, builtin_sha);
	sw_task_free(t);

	/* A workspace's own task that is not built in is listed too. */
	free(ws_task("ws", "mine", GOOD_HEAD "[step \"a\"]\nrole = r\ntemplate = draft.md\n"
		     "evidence = brief\n", NULL));
	assert_int_equal(sw_task_list(&info, &n, root, &err), 0);
	assert_int_equal(n, 5);
	assert_string_equal(info[3].name, "mine");
	assert_true(!info[3].builtin && info[3].workspace);
	sw_task_info_free(info, n);
	assert_int_equal(sw_task_list(&info, &n, NULL, &err), 0);
	assert_int_equal(n, 4);
	sw_task_info_free(info, n);

	assert_int_equal(sw_task_init(NULL, root, "nope", false, &err), SW_ENOTFOUND);
	assert_int_equal(sw_task_load(&t, root, "nope", &err), SW_ENOTFOUND);
	assert_int_equal(sw_task_load(&t, root, "../x", &err), SW_EUSAGE);
	free(ini);
	free(want);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins_load),
		cmocka_unit_test(test_declaration),
		cmocka_unit_test(test_motion),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fanout_ok),
		cmocka_unit_test(test_override_list_init),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
