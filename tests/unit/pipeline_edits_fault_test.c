/* pipeline_edits_fault_test.c - the fault loop over `sworn serve`'s saved
 * edits (issue 38): the Nth SQLite statement of sw_run_edit_save fails
 * (SWORN_FAULT=db-step:N, and db-prepare:N), for N = 1, 2, ... until N is
 * past the save's last statement.  Each try runs in a child process (the
 * seams are read when a database is opened); after each, the saved edit
 * is either the one before or the new one, whole (text and version agree),
 * never half, the failure is an error code and not a crash, and the next
 * save without a fault succeeds from what is there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pipeline/pipeline.h"
#include "record_fixtures.h"

#define MAX_N 500

static struct fx_ws ws;

static void make_run(void)
{
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	if (sw_matter_open(&m, &ws.ws, "a", &err) != 0 || sw_run_journal_open(m, &err) != 0 ||
	    sqlite3_exec(sw_matter_db(m),
			 "INSERT INTO runs (id, task, task_sha256, task_source, brief_name, brief,"
			 " rounds, status, created_at, updated_at) VALUES (1, 'declaration', 'x',"
			 " 'built-in', 'brief.md', 'b', 3, 'verified', 't', 't')",
			 NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("cannot make the run: %s", err.msg);
	sw_matter_close(m);
}

/* The saved edit now: its text (caller frees; NULL: none) and version. */
static char *current(int64_t *version)
{
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	char *text = NULL;
	if (sw_matter_open(&m, &ws.ws, "a", &err) != 0 ||
	    sw_run_edit_get(&text, version, m, 1, &err) != 0)
		fail_msg("cannot read the edit: %s", err.msg);
	sw_matter_close(m);
	return text;
}

/* One save of text from base on the workspace at dir, in a process of its
 * own (the seams are read once per process): the child's side. */
static int child_save(const char *dir, const char *base, const char *text)
{
	struct sw_workspace w;
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	int64_t v = 0;
	char *cur = NULL;
	int rc = sw_workspace_open(&w, dir, &err);
	if (rc != 0)
		return 1;
	rc = sw_matter_open(&m, &w, "a", &err);
	if (rc == 0)
		rc = sw_run_edit_save(&v, &cur, m, 1, atoll(base), text, strlen(text), &err);
	free(cur);
	sw_matter_close(m);
	sw_workspace_release(&w);
	return rc == 0 ? 0 : 1;
}

/* In a child with the seam at site:n: one save of text from base.
 * Returns the child's exit: 0 saved, 1 an error, other: it crashed. */
static int save_with_fault(const char *site, int n, const char *mark, int64_t base,
			   const char *text)
{
	pid_t pid = fork();
	if (pid == 0) {
		char f[64], b[32];
		snprintf(f, sizeof(f), "%s:%d", site, n);
		snprintf(b, sizeof(b), "%lld", (long long)base);
		setenv("SWORN_FAULT", f, 1);
		setenv("SWORN_FAULT_MARK", mark, 1);
		execl("/proc/self/exe", "pipeline_edits_fault_test", "--save", ws.dir, b, text,
		      (char *)NULL);
		_exit(127);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		fail_msg("cannot run the child");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void loop(const char *site)
{
	char *mark = fx_path(&ws, "mark");
	int fired = 0, n;
	for (n = 1; n <= MAX_N; n++) {
		int64_t before = 0;
		char *old = current(&before);
		char next[64];
		snprintf(next, sizeof(next), "%s edit %d", site, n);
		unlink(mark);
		int rc = save_with_fault(site, n, mark, before, next);
		bool fired_now = access(mark, F_OK) == 0;
		int64_t after = 0;
		char *now = current(&after);
		if (rc != 0 && rc != 1)
			fail_msg("%s:%d: the save crashed (%d)", site, n, rc);
		/* whole: the old edit, or the new one with the next version */
		if (rc == 0) {
			assert_int_equal(after, before + 1);
			assert_string_equal(now, next);
		} else {
			assert_int_equal(after, before);
			if (old)
				assert_string_equal(now, old);
			else
				assert_null(now);
			/* and the next save, without a fault, goes through */
			struct sw_matter *m = NULL;
			struct sw_err err = { 0 };
			int64_t v = 0;
			char *cur = NULL;
			assert_int_equal(sw_matter_open(&m, &ws.ws, "a", &err), 0);
			assert_int_equal(sw_run_edit_save(&v, &cur, m, 1, before, next,
							  strlen(next), &err), 0);
			assert_int_equal(v, before + 1);
			free(cur);
			sw_matter_close(m);
		}
		free(old);
		free(now);
		if (!fired_now) {
			assert_int_equal(rc, 0); /* past the last statement: a plain save */
			break;
		}
		fired++;
	}
	assert_true(n <= MAX_N);
	assert_true(fired >= 2);
	print_message("%s over the saved edit: %d statements failed in turn\n", site, fired);
	free(mark);
}

static void test_edits_db_step(void **state)
{
	(void)state;
	loop("db-step");
}

static void test_edits_db_prepare(void **state)
{
	(void)state;
	loop("db-prepare");
}

static int setup(void **state)
{
	(void)state;
	fx_ws_new(&ws);
	make_run();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fx_ws_free(&ws);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--save") == 0)
		return child_save(argv[2], argv[3], argv[4]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edits_db_step),
		cmocka_unit_test(test_edits_db_prepare),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
