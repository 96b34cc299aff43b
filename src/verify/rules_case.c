/* rules_case.c - the verdict rules for authorities: case citations (full
 * and short forms), codes and court rules; sw_verify() in verify.c calls
 * them in its first pass. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/verify_int.h"

/* ------------------------------------------------------------------ cases */

static void check_pin(struct sw__verify_run *u, size_t i, const struct sw_authority_case *c,
		      const char *pin_field, const char *cite)
{
	uint64_t pin;
	if (!sw__verify_num(pin_field, &pin) || c->first_page == 0)
		return;
	if (pin < c->first_page)
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
			       "pin %llu comes before %s starts (page %llu)",
			       (unsigned long long)pin, cite, (unsigned long long)c->first_page);
	else if (c->last_page && pin > c->last_page)
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
			       "pin %llu is past the last page (%llu) of %s",
			       (unsigned long long)pin, (unsigned long long)c->last_page, cite);
}

void sw__verify_case_full(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	struct sw__verify_resolved *res = &u->res[i];
	const char *volume = sw_claim_get(c, "volume");
	const char *reporter = sw_claim_get(c, "canonical");
	const char *name = sw_claim_get(c, "name");
	const char *court = sw_claim_get(c, "court");
	const char *year_s = sw_claim_get(c, "year");
	uint64_t page, year = 0;
	if (!reporter)
		reporter = sw_claim_get(c, "reporter");
	if (!u->auth) {
		sw__verify_set(
			u, i, SW_VERDICT_UNVERIFIABLE,
			"no authority table: import one with 'sworn authorities import FILE'");
		return;
	}
	if (!volume || !reporter || !sw__verify_num(sw_claim_get(c, "page"), &page)) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "the citation gives no volume, reporter and page");
		return;
	}
	if (!court)
		court = sw_claim_get(c, "court_implied");
	sw__verify_num(year_s, &year);
	char cite[160];
	snprintf(cite, sizeof(cite), "%s %s %llu", volume, reporter, (unsigned long long)page);
	struct sw_err e = { 0 };
	if (sw_authority_lookup(&res->lookup, u->auth, volume, reporter, page, &e) != 0) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE, "cannot read the authority table: %s",
			       e.msg);
		return;
	}
	struct sw_authority_lookup *l = &res->lookup;
	if (l->hit == SW_AUTHORITY_NONE) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED, "no case at %s in the authority table",
			       cite);
		return;
	}
	if (l->hit == SW_AUTHORITY_INSIDE) {
		char *real = sw_authority_case_format(&l->cases[0]);
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s falls inside %s", cite, real);
		sw__verify_add_case_evidence(u, i, &l->cases[0]);
		free(real);
		return;
	}
	/* Cases that start at the page: the one whose name matches. */
	const struct sw_authority_case *hit = NULL;
	for (size_t k = 0; k < l->n && !hit; k++)
		if (l->cases[k].name && name && sw_authority_names_match(name, l->cases[k].name))
			hit = &l->cases[k];
	if (!hit && !name) {
		for (size_t k = 0; k < l->n && !hit; k++)
			if (l->cases[k].name)
				hit = &l->cases[k];
	}
	if (!hit) {
		bool any_name = false;
		for (size_t k = 0; k < l->n; k++)
			any_name |= l->cases[k].name != NULL;
		if (!any_name) {
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "the table knows %s but not its case name (import the "
				       "opinion-clusters file)",
				       cite);
			return;
		}
		char *real = sw_authority_case_format(&l->cases[0]);
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s is %s, not %s", cite, real,
			       name ? name : "?");
		sw__verify_add_case_evidence(u, i, &l->cases[0]);
		free(real);
		return;
	}
	res->have_case = true;
	res->kase = *hit;
	char *real = sw_authority_case_format(hit);
	sw__verify_add_case_evidence(u, i, hit);
	sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s", real);
	if (court && hit->court && !sw_authority_courts_match(court, hit->court))
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s was decided by %s, not %s", real,
			       hit->court, court);
	else if (year && hit->year && (int)year != hit->year)
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s was decided in %d, not %llu",
			       real, hit->year, (unsigned long long)year);
	else
		check_pin(u, i, hit, sw_claim_get(c, "pin"), real);
	free(real);
}

/* A short form, id. or supra takes the verdict of what it resolves to,
 * then its own pin is checked against that case's pages. */
void sw__verify_case_short(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	long t = c->resolves_to;
	if (t < 0 || (size_t)t >= i) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "the short form does not say which authority it means");
		return;
	}
	const struct sw_claim_verdict *tv = &u->r->verdicts[t];
	const struct sw__verify_resolved *tr = &u->res[t];
	char *ttext = sw__verify_claim_text(u, &u->r->claims.v[t]);
	u->res[i].have_case = tr->have_case;
	u->res[i].kase = tr->kase;
	memcpy(u->res[i].pages, tr->pages, sizeof(tr->pages));
	u->res[i].npages = tr->npages;
	if (tv->verdict != SW_VERDICT_SUPPORTED) {
		sw__verify_set(u, i, tv->verdict, "refers to %s (claim %ld), which is %s: %s",
			       ttext, t + 1, sw_verdict_name(tv->verdict), tv->reason);
	} else if (tr->have_case) {
		char *real = sw_authority_case_format(&tr->kase);
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "refers to %s", real);
		sw__verify_add_case_evidence(u, i, &tr->kase);
		const char *pin = sw_claim_get(c, "pin");
		if (!pin && c->form == SW_FORM_SHORT)
			pin = sw_claim_get(c, "page");
		check_pin(u, i, &tr->kase, pin, real);
		free(real);
	} else {
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "refers to %s (claim %ld)", ttext,
			       t + 1);
	}
	free(ttext);
}

/* ------------------------------------------------------- codes and rules */

void sw__verify_code(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *code = sw_claim_get(c, "code");
	const char *title = sw_claim_get(c, "title");
	const char *section = sw_claim_get(c, c->kind == SW_CLAIM_RULE ? "rule" : "section");
	char *text = sw__verify_claim_text(u, c);
	if (!code)
		code = sw_claim_get(c, "reporter");
	if (!u->auth || !code || !section) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "%s: no code table to check it against", text);
	} else {
		struct sw_err e = { 0 };
		int rc = sw_authority_code_exists(u->auth, code, title, section, &e);
		if (rc == 1) {
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s is in the code table", text);
			struct sw_evidence *ev = sw__verify_add_evidence(u, i);
			ev->source = "authority";
			ev->cite = sw_xstrdup(text);
		} else {
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "%s is not in the imported code table", text);
		}
	}
	free(text);
}

