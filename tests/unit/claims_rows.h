/*
 * claims_rows.h - the table rows of the claims/ unit tests and their check.
 * Each row is a text, the kind and exact text of one claim, and checks
 * separated by '|':
 *   name=value   the field holds value
 *   !name        the claim has no such field
 *   ->TEXT       it resolves to the claim whose text is TEXT ("->-": to none)
 *   =>TEXT       a quotation attributed to the claim whose text is TEXT
 *                ("=>-": to none)
 *   F=form       the claim's form (full, id, short...)
 * A row with no kind asserts that no claim has its text (no claim at all
 * when it has no text either).  Every claim's offsets and sentence are
 * checked on the way.  Included once by each test file, after cmocka.h.
 */
#ifndef SW_TEST_CLAIMS_ROWS_H
#define SW_TEST_CLAIMS_ROWS_H

#include <stdio.h>
#include <string.h>

#include "claims/claims.h"

struct row {
	const char *text;
	const char *kind;
	const char *match;
	const char *checks;
};

static const struct sw_claim *find(const struct sw_claims *c, const char *text,
				   const char *kind, const char *match)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *x = &c->v[i];
		if (kind && strcmp(sw_claim_kind_name(x->kind), kind) != 0)
			continue;
		if (x->end - x->start == strlen(match) && !memcmp(text + x->start, match, strlen(match)))
			return x;
	}
	return NULL;
}

static void dump(const struct sw_claims *c, const char *text)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *x = &c->v[i];
		fprintf(stderr, "   #%zu %s/%s '%.*s'", i, sw_claim_kind_name(x->kind),
			sw_claim_form_name(x->form), (int)(x->end - x->start), text + x->start);
		for (size_t k = 0; k < x->nfields; k++)
			if (strcmp(x->fields[k].name, "quoted"))
				fprintf(stderr, " %s=%s", x->fields[k].name, x->fields[k].value);
		fprintf(stderr, " ->%ld =>%ld\n", x->resolves_to, x->attributed_to);
	}
}

/* The text of claim k, or "-". */
static void claim_text(const struct sw_claims *c, const char *text, long k, char *out, size_t n)
{
	if (k < 0)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.*s", (int)(c->v[k].end - c->v[k].start), text + c->v[k].start);
}

static int check_one(const struct row *r)
{
	struct sw_claims c;
	const char *t = r->text;
	int bad = 0;
	assert_int_equal(sw_claims_scan(&c, t, strlen(t), NULL), 0);
	for (size_t i = 0; i < c.n; i++) {
		assert_true(c.v[i].start < c.v[i].end && c.v[i].end <= strlen(t));
		assert_true(c.v[i].sentence < c.nsentences || c.nsentences == 0);
	}
	if (!r->kind) {
		/* no claim of any kind may have this text (no claim at all when
		 * match is NULL) */
		if (r->match ? find(&c, t, NULL, r->match) != NULL : c.n != 0) {
			fprintf(stderr, "FAIL: '%s' should have no claim '%s'\n", t,
				r->match ? r->match : "(any)");
			dump(&c, t);
			bad++;
		}
		sw_claims_release(&c);
		return bad;
	}
	const struct sw_claim *x = find(&c, t, r->kind, r->match);
	if (!x) {
		fprintf(stderr, "FAIL: '%s' lacks %s '%s'\n", t, r->kind, r->match);
		dump(&c, t);
		sw_claims_release(&c);
		return 1;
	}
	char buf[1024], got[512];
	snprintf(buf, sizeof(buf), "%s", r->checks ? r->checks : "");
	for (char *f = buf, *next; f && *f; f = next) {
		next = strchr(f, '|');
		if (next)
			*next++ = 0;
		if (f[0] == '!') {
			if (sw_claim_get(x, f + 1)) {
				fprintf(stderr, "FAIL: '%s': '%s' has %s\n", t, r->match, f + 1);
				bad++;
			}
		} else if (!strncmp(f, "->", 2) || !strncmp(f, "=>", 2)) {
			claim_text(&c, t, f[0] == '-' ? x->resolves_to : x->attributed_to, got, sizeof(got));
			if (strcmp(got, f + 2) != 0) {
				fprintf(stderr, "FAIL: '%s': '%s' %s '%s', want '%s'\n", t, r->match,
					f[0] == '-' ? "resolves to" : "is attributed to", got, f + 2);
				bad++;
			}
		} else {
			char *eq = strchr(f, '=');
			assert_non_null(eq);
			*eq = 0;
			const char *v = !strcmp(f, "F") ? sw_claim_form_name(x->form) : sw_claim_get(x, f);
			if (!v || strcmp(v, eq + 1) != 0) {
				fprintf(stderr, "FAIL: '%s': '%s' %s is '%s', want '%s'\n", t, r->match, f,
					v ? v : "(none)", eq + 1);
				bad++;
			}
		}
	}
	if (bad)
		dump(&c, t);
	sw_claims_release(&c);
	return bad;
}

static void check_rows(const struct row *rows, size_t n)
{
	int bad = 0;
	for (size_t r = 0; r < n; r++)
		bad += check_one(&rows[r]);
	assert_int_equal(bad, 0);
}

#define CHECK(rows) check_rows(rows, sizeof(rows) / sizeof(rows[0]))

#endif /* SW_TEST_CLAIMS_ROWS_H */
