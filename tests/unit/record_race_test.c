/* record_race_test.c - two writers of the same text at once (two `sworn
 * draft` whose models answered alike, issue 41): the second to insert finds
 * the first's document and shares it, instead of failing on the documents'
 * UNIQUE identity.  The race is made to happen: the fault seam holds writer
 * A right after its look-up found nothing (SWORN_FAULT=text-lookup:1:pause)
 * while writer B, on its own connection, stores the text; then A goes on. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "record_fixtures.h"

static const char text[] = "# Declaration\n\nThe order shipped on March 31, 2021 (ACME0000004).\n";

struct writer {
	struct fx_ws *w;
	int rc;
	int64_t id;
	char msg[512];
};

static void *write_a(void *arg)
{
	struct writer *x = arg;
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	x->rc = sw_matter_open(&m, &x->w->ws, "a", &err);
	if (x->rc == 0)
		x->rc = sw_record_add_text(&x->id, m, SW_ORIGIN_HUMAN, "run-1-final.md", text,
					   strlen(text), &err);
	snprintf(x->msg, sizeof(x->msg), "%s", err.msg);
	sw_matter_close(m);
	return NULL;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void test_same_text_at_once(void **state)
{
	(void)state;
	struct fx_ws w;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	pthread_t a;
	fx_ws_new(&w);
	char *mark = fx_path(&w, "mark"), *release = fx_path(&w, "release");
	setenv("SWORN_FAULT_MARK", mark, 1);
	setenv("SWORN_FAULT_RELEASE", release, 1);

	struct writer x = { .w = &w };
	assert_int_equal(pthread_create(&a, NULL, write_a, &x), 0);
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	for (int i = 0; i < 3000 && !exists(mark); i++)
		nanosleep(&tick, NULL);
	assert_true(exists(mark)); /* A found nothing and is held */

	int64_t id_b = 0;
	assert_int_equal(sw_matter_open(&m, &w.ws, "a", &err), 0);
	assert_int_equal(sw_record_add_text(&id_b, m, SW_ORIGIN_HUMAN, "run-2-final.md", text,
					    strlen(text), &err), 0);
	sw_matter_close(m);
	fx_write(release, "");
	assert_int_equal(pthread_join(a, NULL), 0);

	if (x.rc != 0)
		fail_msg("writer A: %s", x.msg);
	assert_int_equal(x.id, id_b);
	char *n = fx_sql(&w, "a", "SELECT count(*) FROM documents");
	assert_string_equal(n, "1");
	free(n);
	free(mark);
	free(release);
	fx_ws_free(&w);
}

int main(void)
{
	/* before anything reads it: the seam parses the variable once */
	setenv("SWORN_FAULT", "text-lookup:1:pause", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_text_at_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
