/*
 * verify_waive_test.c - a claim's fingerprint and waivers: a waiver holds
 * while its claim is unchanged (an edit elsewhere moves it), lapses when
 * the claim's words or citation change, shows as "waived", never as
 * supported, and lets the gate pass only for what it names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "record_fixtures.h"
#include "verify/verify.h"

static struct fx_ws w;
static struct sw_matter *m;

static int setup(void **state)
{
	(void)state;
	fx_ws_new(&w);
	char *p = fx_path(&w, "acme.txt");
	fx_write(p, "NOTICE\nThe notice of breach is dated April 7, 2021.\n\nACME0000001\n");
	struct sw_ingest_summary sum = fx_ingest(&w, "a", p, true, SW_ORIGIN_EVIDENCE);
	free(p);
	struct sw_err err = { 0 };
	if (sum.failed || sw_matter_open(&m, &w.ws, "a", &err) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sw_matter_close(m);
	fx_ws_free(&w);
	return 0;
}

static void verify(struct sw_verify_report *r, const char *draft)
{
	struct sw_err err = { 0 };
	memset(r, 0, sizeof(*r));
	if (sw_verify(r, m, NULL, draft, strlen(draft), NULL, &err) != 0)
		fail_msg("verify: %s", err.msg);
}

/* The index of the first claim whose text holds needle. */
static size_t claim_with(const struct sw_verify_report *r, const char *needle)
{
	for (size_t i = 0; i < r->claims.n; i++) {
		const struct sw_claim *c = &r->claims.v[i];
		char *t = sw_xstrndup(r->text + c->start, c->end - c->start);
		bool has = strstr(t, needle) != NULL;
		free(t);
		if (has)
			return i;
	}
	fail_msg("no claim holds '%s'", needle);
	return 0;
}

static const char d1[] = "Acme wrote first.\n\nThe notice followed (ACME0000009).\n";
static const char d2[] = "Acme wrote first, and then it wrote again at length.\n\n"
			 "The notice   followed (ACME0000009).\n";
static const char d3[] = "Acme wrote first.\n\nThe notice followed (ACME0000008).\n";

static void test_fingerprint(void **state)
{
	(void)state;
	struct sw_verify_report a, b, c;
	verify(&a, d1);
	verify(&b, d2);
	verify(&c, d3);
	char fa[65], fb[65], fc[65];
	sw_claim_fingerprint(fa, &a, claim_with(&a, "ACME0000009"));
	sw_claim_fingerprint(fb, &b, claim_with(&b, "ACME0000009"));
	sw_claim_fingerprint(fc, &c, claim_with(&c, "ACME0000008"));
	assert_int_equal(strlen(fa), 64);
	assert_string_equal(fa, fb); /* moved by an edit elsewhere: the same claim */
	assert_string_not_equal(fa, fc); /* another Bates number: another claim */
	/* found by number and by a prefix of the fingerprint */
	long i = (long)claim_with(&a, "ACME0000009");
	char num[24];
	snprintf(num, sizeof(num), "%ld", i + 1);
	assert_int_equal(sw_verify_claim_find(&a, num), i);
	char prefix[13];
	memcpy(prefix, fa, 12);
	prefix[12] = '\0';
	assert_int_equal(sw_verify_claim_find(&a, prefix), i);
	assert_int_equal(sw_verify_claim_find(&a, "999"), -1);
	assert_int_equal(sw_verify_claim_find(&a, "0"), -1);
	assert_int_equal(sw_verify_claim_find(&a, "abc"), -1);
	assert_int_equal(sw_verify_claim_find(&a, "zzzzzzzzzz"), -1);
	sw_verify_release(&a);
	sw_verify_release(&b);
	sw_verify_release(&c);
}

static void test_waive(void **state)
{
	(void)state;
	struct sw_verify_report a, b, c;
	verify(&a, d1);
	assert_false(a.pass);
	size_t i = claim_with(&a, "ACME0000009");
	enum sw_verdict was = a.verdicts[i].verdict;
	assert_int_not_equal(was, SW_VERDICT_SUPPORTED);
	char fp[65];
	sw_claim_fingerprint(fp, &a, i);
	struct sw_verify_waiver wv = { .fingerprint = fp, .reason = "checked the page by hand",
				       .by = "Ann Lee", .at = "2026-12-07T09:00:00Z", .id = 4 };
	size_t before = a.counts[was];

	assert_int_equal(sw_verify_waive(&a, &wv, 1), 1);
	assert_true(a.pass);
	assert_int_equal(a.nwaived, 1);
	assert_int_equal(a.counts[was], before - 1);
	assert_ptr_equal(a.verdicts[i].waiver, &wv);
	assert_string_equal(sw_claim_verdict_name(&a.verdicts[i]), "waived");
	assert_int_equal(a.verdicts[i].verdict, was); /* never supported */
	json_t *j = sw_verify_json(&a, "d1.md");
	json_t *jc = json_array_get(json_object_get(j, "claims"), i);
	assert_string_equal(json_string_value(json_object_get(jc, "verdict")), "waived");
	assert_string_equal(json_string_value(json_object_get(jc, "fingerprint")), fp);
	json_t *jw = json_object_get(jc, "waiver");
	assert_string_equal(json_string_value(json_object_get(jw, "reason")),
			    "checked the page by hand");
	assert_string_equal(json_string_value(json_object_get(jw, "by")), "Ann Lee");
	assert_string_equal(json_string_value(json_object_get(jw, "verdict")),
			    sw_verdict_name(was));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "summary"),
							    "waived")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "gate")), "pass");
	json_decref(j);

	/* applying again replaces: with no waivers the claim blocks again */
	assert_int_equal(sw_verify_waive(&a, NULL, 0), 0);
	assert_false(a.pass);
	assert_int_equal(a.nwaived, 0);
	assert_int_equal(a.counts[was], before);
	assert_null(a.verdicts[i].waiver);

	/* survives an unrelated edit; lapses when the claim changes */
	verify(&b, d2);
	assert_int_equal(sw_verify_waive(&b, &wv, 1), 1);
	assert_true(b.pass);
	verify(&c, d3);
	assert_int_equal(sw_verify_waive(&c, &wv, 1), 0);
	assert_false(c.pass);
	assert_string_not_equal(sw_claim_verdict_name(&c.verdicts[claim_with(&c, "ACME0000008")]),
				"waived");
	sw_verify_release(&a);
	sw_verify_release(&b);
	sw_verify_release(&c);
}

/* A waiver names one claim: a supported claim is never marked, and a
 * second blocked claim still blocks. */
static void test_only_what_it_names(void **state)
{
	(void)state;
	static const char d[] = "The notice is dated April 7, 2021 (ACME0000001).\n\n"
				"It was late (ACME0000009). It was later still (ACME0000007).\n";
	struct sw_verify_report r;
	verify(&r, d);
	size_t good = claim_with(&r, "ACME0000001"), nine = claim_with(&r, "ACME0000009");
	assert_int_equal(r.verdicts[good].verdict, SW_VERDICT_SUPPORTED);
	char fps[2][65];
	sw_claim_fingerprint(fps[0], &r, good);
	sw_claim_fingerprint(fps[1], &r, nine);
	struct sw_verify_waiver wv[2] = {
		{ .fingerprint = fps[0], .reason = "r", .by = "b", .at = "t" },
		{ .fingerprint = fps[1], .reason = "r", .by = "b", .at = "t" },
	};
	assert_int_equal(sw_verify_waive(&r, wv, 2), 1);
	assert_null(r.verdicts[good].waiver);
	assert_string_equal(sw_claim_verdict_name(&r.verdicts[good]), "supported");
	assert_false(r.pass); /* ACME0000007 still blocks */
	sw_verify_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_waive),
		cmocka_unit_test(test_only_what_it_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
