/* claims.c - the public API: the scan, which dispatches to the generated
 * scanner and claims_finish.c, its release, and JSON. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "claims/claims_int.h"

/* ------------------------------------------------------------------- scan */

static int scan(struct sw_claims *out, const char *text, size_t len, bool terminated,
		struct sw_err *err)
{
	struct sw__claims_scan sc = { 0 };
	char *copy = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	sw_arena_init(&out->arena, 256 * 1024);
	if (len > SW_CLAIMS_MAX_TEXT) {
		rc = sw_err_set(err, SW_ELIMIT, "text of %zu bytes is over the %zu-byte limit of a scan",
				len, SW_CLAIMS_MAX_TEXT);
		goto cleanup;
	}
	/* The DFA needs a sentinel after the last byte (the scan never
	 * writes to the text) */
	if (!terminated) {
		copy = sw_xmalloc(len + 1);
		if (len)
			memcpy(copy, text, len);
		copy[len] = 0;
		text = copy;
	}
	/* about one claim per 120 bytes in court opinions: growing the array
	 * from nothing cost more than the scan itself */
	out->cap = len / 120 + 16;
	out->v = sw_xmalloc(out->cap * sizeof(*out->v));
	sw__claims_rep_first();
	sc.t = text;
	sc.n = len;
	sc.out = out;
	sw__claims_run(&sc);
	if (!sc.failed)
		sw__claims_finish(&sc);
	if (sc.failed) {
		rc = sw_err_set(err, SW_ELIMIT, "text has more than %zu claims", SW_CLAIMS_MAX);
		goto cleanup;
	}
cleanup:
	if (rc != 0)
		sw_claims_release(out);
	free(sc.ats);
	free(copy);
	return rc;
}

int sw_claims_scan(struct sw_claims *out, const char *text, size_t len,
		   struct sw_err *err)
{
	return scan(out, text, len, false, err);
}

int sw_claims_scan_terminated(struct sw_claims *out, const char *text, size_t len,
			      struct sw_err *err)
{
	if (text[len] != '\0')
		SW_BUG("sw_claims_scan_terminated: no NUL after the %zu bytes of text", len);
	return scan(out, text, len, true, err);
}

void sw_claims_release(struct sw_claims *c)
{
	if (!c)
		return;
	free(c->v);
	free(c->sentences);
	sw_arena_release(&c->arena);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------------------- JSON */

json_t *sw_claims_claim_json(const struct sw_claims *c, size_t i, const char *text)
{
	const struct sw_claim *cl = &c->v[i];
	json_t *fields = json_object();
	for (size_t k = 0; k < cl->nfields; k++)
		json_object_set_new(fields, cl->fields[k].name, sw_json_str(cl->fields[k].value));
	json_t *o = json_pack("{s:I, s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:o}",
		"id", (json_int_t)i + 1,
		"kind", sw_claim_kind_name(cl->kind),
		"form", sw_claim_form_name(cl->form),
		"text", sw_json_strn(text + cl->start, cl->end - cl->start),
		"start", (json_int_t)cl->start, "end", (json_int_t)cl->end,
		"cite_start", (json_int_t)cl->cite_start,
		"cite_end", (json_int_t)cl->cite_end,
		"sentence", (json_int_t)cl->sentence,
		"fields", fields);
	if (cl->kind == SW_CLAIM_PROPOSITION)
		json_object_set_new(o, "facts", sw_claims_facts_json(cl, text));
	if (cl->resolves_to >= 0)
		json_object_set_new(o, "resolves_to", json_integer(cl->resolves_to + 1));
	if (cl->parallel_to >= 0)
		json_object_set_new(o, "parallel_to", json_integer(cl->parallel_to + 1));
	if (cl->attributed_to >= 0)
		json_object_set_new(o, "attributed_to", json_integer(cl->attributed_to + 1));
	return o;
}

json_t *sw_claims_json(const struct sw_claims *c, const char *text, const char *draft)
{
	json_t *arr = json_array();
	size_t counts[SW_CLAIM_PROPOSITION + 1] = { 0 };
	for (size_t i = 0; i < c->n; i++) {
		json_array_append_new(arr, sw_claims_claim_json(c, i, text));
		if ((size_t)c->v[i].kind < SW_ARRAY_LEN(counts))
			counts[c->v[i].kind]++;
	}
	json_t *summary = json_pack("{s:I}", "claims", (json_int_t)c->n);
	for (size_t k = 0; k < SW_ARRAY_LEN(counts); k++)
		json_object_set_new(summary, sw_claim_kind_name(k), json_integer((json_int_t)counts[k]));
	json_object_set_new(summary, "sentences", json_integer((json_int_t)c->nsentences));
	return json_pack("{s:o, s:o, s:o}", "draft", sw_json_str(draft), "claims", arr,
			 "summary", summary);
}

void sw_claims_fact_value(char out[32], int64_t v)
{
	if (v % 100)
		snprintf(out, 32, "%lld.%02lld", (long long)(v / 100), (long long)(v % 100));
	else
		snprintf(out, 32, "%lld", (long long)(v / 100));
}

json_t *sw_claims_facts_json(const struct sw_claim *cl, const char *text)
{
	json_t *arr = json_array();
	for (size_t n = 0; n < cl->nfacts; n++) {
		const struct sw_claim_fact *f = &cl->facts[n];
		json_t *o = json_pack("{s:s, s:o}", "kind", sw_fact_kind_name(f->kind), "text",
				      sw_json_strn(text + f->start, f->end - f->start));
		char v[32];
		if (f->kind != SW_FACT_DATE && f->kind != SW_FACT_IDENTIFIER) {
			sw_claims_fact_value(v, f->value);
			json_object_set_new(o, "value", json_string(v));
		}
		if (f->unit && f->unit[0])
			json_object_set_new(o, "unit", json_string(f->unit));
		if (f->id && f->id[0])
			json_object_set_new(o, "id", json_string(f->id));
		json_array_append_new(arr, o);
	}
	return arr;
}
