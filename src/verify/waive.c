/* waive.c - a claim's fingerprint and the waivers a lawyer gives claims.
 *
 * A waiver is keyed by what the claim says, not by where it is: the claim's
 * kind, its text folded (case, quotes, dashes, runs of blanks) and the
 * citation it rests on (its own, or the one a quotation is attributed to or
 * a short form resolves to), so that it survives an edit elsewhere in the
 * draft and lapses when the claim or its citation changes. */
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"
#include "verify/report_int.h"

static void add_folded(struct sw_sha256 *h, const char *s, size_t n)
{
	struct sw_fold f;
	sw_fold(&f, s, n, SW_FOLD_DEFAULT);
	/* folding keeps a blank at either end; a claim's span may or may not
	 * take it in, so it is not part of what the claim says */
	size_t a = 0, b = f.len;
	while (a < b && f.text[a] == ' ')
		a++;
	while (b > a && f.text[b - 1] == ' ')
		b--;
	sw_sha256_update(h, f.text + a, b - a);
	sw_fold_release(&f);
}

void sw_claim_fingerprint(char out[SW_SHA256_HEX_LEN + 1], const struct sw_verify_report *r,
			  size_t i)
{
	const struct sw_claim *c = &r->claims.v[i];
	const struct sw_claim *target = c;
	if (c->attributed_to >= 0 && (size_t)c->attributed_to < r->claims.n)
		target = &r->claims.v[c->attributed_to];
	else if (c->resolves_to >= 0 && (size_t)c->resolves_to < r->claims.n)
		target = &r->claims.v[c->resolves_to];
	struct sw_sha256 h;
	sw_sha256_init(&h);
	const char *kind = sw_claim_kind_name(c->kind);
	sw_sha256_update(&h, kind, strlen(kind) + 1);
	add_folded(&h, r->text + c->start, c->end - c->start);
	sw_sha256_update(&h, "", 1);
	if (target->cite_end > target->cite_start)
		add_folded(&h, r->text + target->cite_start, target->cite_end - target->cite_start);
	sw_sha256_final_hex(&h, out);
}

bool sw__verify_report_blocks(const struct sw_verify_report *r, enum sw_verdict v)
{
	return v == SW_VERDICT_UNSUPPORTED || v == SW_VERDICT_CONTRADICTED ||
	       (v == SW_VERDICT_UNVERIFIABLE && !r->lenient);
}

bool sw__verify_claim_blocks(const struct sw_verify_report *r, const struct sw_claim_verdict *v)
{
	return !v->waiver && sw__verify_report_blocks(r, v->verdict);
}

const char *sw_claim_verdict_name(const struct sw_claim_verdict *v)
{
	return v->waiver ? "waived" : sw_verdict_name(v->verdict);
}

size_t sw_verify_waive(struct sw_verify_report *r, const struct sw_verify_waiver *w, size_t n)
{
	size_t waived = 0;
	for (size_t i = 0; i < r->claims.n; i++) {
		struct sw_claim_verdict *v = &r->verdicts[i];
		if (v->waiver) {
			r->counts[v->verdict]++;
			r->nwaived--;
			v->waiver = NULL;
		}
		if (!sw__verify_report_blocks(r, v->verdict) || n == 0)
			continue;
		char fp[SW_SHA256_HEX_LEN + 1];
		sw_claim_fingerprint(fp, r, i);
		/* the newest waiver of the claim speaks for it */
		for (size_t k = n; k-- > 0;) {
			if (strcmp(w[k].fingerprint, fp) != 0)
				continue;
			v->waiver = &w[k];
			r->counts[v->verdict]--;
			r->nwaived++;
			waived++;
			break;
		}
	}
	r->pass = r->counts[SW_VERDICT_UNSUPPORTED] == 0 &&
		  r->counts[SW_VERDICT_CONTRADICTED] == 0 &&
		  (r->lenient || r->counts[SW_VERDICT_UNVERIFIABLE] == 0) &&
		  !sw__verify_uncited_blocks(r);
	return waived;
}

long sw_verify_claim_find(const struct sw_verify_report *r, const char *id)
{
	char *end = NULL;
	size_t len = strlen(id);
	long k = strtol(id, &end, 10);
	if (len > 0 && len < 8 && end && *end == '\0')
		return k >= 1 && (size_t)k <= r->claims.n ? k - 1 : -1;
	/* a fingerprint, or its first 8 or more hex digits, naming one claim */
	if (len < 8 || len > SW_SHA256_HEX_LEN || strspn(id, "0123456789abcdef") != len)
		return -1;
	long found = -1;
	char first[SW_SHA256_HEX_LEN + 1] = "";
	for (size_t i = 0; i < r->claims.n; i++) {
		char fp[SW_SHA256_HEX_LEN + 1];
		sw_claim_fingerprint(fp, r, i);
		if (strncmp(fp, id, len) != 0)
			continue;
		if (found < 0) {
			found = (long)i;
			memcpy(first, fp, sizeof(first));
		} else if (strcmp(first, fp) != 0) {
			return -2; /* the prefix names two different claims */
		}
	}
	return found;
}
