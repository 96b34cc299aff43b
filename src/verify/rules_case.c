/* rules_case.c - the verdict rules for authorities: case citations (full
 * and short forms), codes and court rules; sw_verify() in verify.c calls
 * them in its first pass. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/verify_int.h"

/* ------------------------------------------------------------------ cases */

/* How far past its first page a pin may go when nothing in the table
 * bounds the case.  The longest opinions in the U.S. Reports, separate
 * opinions included, run to a few hundred pages (Dred Scott v. Sandford,
 * 60 U.S. 393, ends at page 633), and a district court's findings can fill
 * most of a volume of the Federal Supplement (United States v. Philip
 * Morris USA, 449 F. Supp. 2d 1 (D.D.C. 2006)), so a bound of 300 or 500
 * would block real pins.  1000 pages is about the length of a whole
 * reporter volume: a pin that far past the start is not in the case,
 * and the invented pin ("at 9999") is caught.  A table that holds the
 * volume's other cases bounds a case far more tightly anyway. */
#define PIN_MAX_PAGES 1000

/* Append what the check of a pin could not settle to claim i's reason,
 * when its verdict is supported. */
static void pin_note(struct sw__verify_run *u, size_t i, const char *note)
{
	const struct sw_claim_verdict *cv = &u->r->verdicts[i];
	if (cv->verdict != SW_VERDICT_SUPPORTED || !cv->reason)
		return;
	char *was = sw_xstrdup(cv->reason);
	sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s; %s", was, note);
	free(was);
}

/* A pin past the first page of case c, whose last page the table does not
 * know: the next case in the volume bounds it, else only a length no
 * opinion has.  Returns whether claim i was contradicted; otherwise a
 * supported verdict says how far the pin was checked. */
static bool check_pin_unbounded(struct sw__verify_run *u, size_t i,
				const struct sw_authority_case *c, uint64_t pin, const char *cite)
{
	struct sw_authority_lookup next = { 0 };
	struct sw_err e = { 0 };
	bool bad = false;
	if (u->auth && sw_authority_next_case(&next, u->auth, c, &e) != 0) {
		sw__verify_found(u, e.code ? e.code : SW_EDB, &e); /* the run fails */
		return false;
	}
	if (!u->auth) {
		pin_note(u, i, "the table has no last page, so the pin is not checked");
		return false;
	}
	if (next.n == 1) {
		const struct sw_authority_case *n = &next.cases[0];
		/* Cases in a reporter often share a page, one ending where the
		 * next starts: only a pin past that page is out of this case. */
		if (pin > n->first_page) {
			char *nx = sw_authority_case_format(n);
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "pin %llu is past %s, which ends before the next case in "
				       "the volume, %s",
				       (unsigned long long)pin, cite, nx);
			sw__verify_add_case_evidence(u, i, n);
			free(nx);
			bad = true;
		} else {
			char *note = sw_xasprintf("the table has no last page, so the pin is "
						  "checked only against the next case in the "
						  "volume (page %llu)",
						  (unsigned long long)n->first_page);
			pin_note(u, i, note);
			free(note);
		}
	} else if (pin - c->first_page > PIN_MAX_PAGES) {
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
			       "pin %llu is %llu pages past the start of %s, and no reported "
			       "opinion runs %llu pages (the table has no last page for it and "
			       "no later case in its volume)",
			       (unsigned long long)pin, (unsigned long long)(pin - c->first_page),
			       cite, (unsigned long long)(pin - c->first_page + 1));
		bad = true;
	} else {
		pin_note(u, i, "the table has no last page, so the pin is not checked");
	}
	sw_authority_lookup_release(&next);
	return bad;
}

/* Whether pin_field's page lies outside case c; when it does, claim i is
 * contradicted.  Call it after claim i's verdict is set: a supported one
 * notes a pin that the table could not bound. */
static bool check_pin(struct sw__verify_run *u, size_t i, const struct sw_authority_case *c,
		      const char *pin_field, const char *cite)
{
	uint64_t pin;
	if (!sw__verify_num(pin_field, &pin) || c->first_page == 0)
		return false;
	if (pin < c->first_page) {
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
			       "pin %llu comes before %s starts (page %llu)",
			       (unsigned long long)pin, cite, (unsigned long long)c->first_page);
		return true;
	}
	if (c->last_page && pin > c->last_page) {
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
			       "pin %llu is past the last page (%llu) of %s",
			       (unsigned long long)pin, (unsigned long long)c->last_page, cite);
		return true;
	}
	if (!c->last_page && pin > c->first_page)
		return check_pin_unbounded(u, i, c, pin, cite);
	return false;
}

/* The name a full citation gives: its "name" field, else the one party of
 * "Twombly, 550 U.S. 544" or "v. Bar, 1 U.S. 1"; NULL when none. */
static const char *cited_name(const struct sw_claim *c)
{
	const char *name = sw_claim_get(c, "name");
	return name ? name : sw_claim_get(c, "antecedent");
}

/* Court, year and pin of a case the citation resolved to: the first that
 * disagrees makes the claim contradicted.  Returns whether one did. */
static bool check_details(struct sw__verify_run *u, size_t i, const struct sw_authority_case *hit,
			  const char *real)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	const char *court = sw_claim_get(c, "court");
	uint64_t year = 0;
	if (!court)
		court = sw_claim_get(c, "court_implied");
	sw__verify_num(sw_claim_get(c, "year"), &year);
	if (court && hit->court && !sw_authority_courts_match(court, hit->court)) {
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s was decided by %s, not %s", real,
			       hit->court, court);
		return true;
	}
	if (year && hit->year && (int)year != hit->year) {
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s was decided in %d, not %llu",
			       real, hit->year, (unsigned long long)year);
		return true;
	}
	return check_pin(u, i, hit, sw_claim_get(c, "pin"), real);
}

void sw__verify_case_full(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	struct sw__verify_resolved *res = &u->res[i];
	const char *volume = sw_claim_get(c, "volume");
	const char *reporter = sw_claim_get(c, "canonical");
	const char *name = cited_name(c);
	uint64_t page;
	if (!reporter)
		reporter = sw_claim_get(c, "reporter");
	if (!u->auth) {
		sw__verify_set(
			u, i, SW_VERDICT_UNVERIFIABLE,
			"no authority table: import one with 'sworn authorities import FILE'");
		return;
	}
	if (volume && reporter && !sw_claim_get(c, "page")) {
		/* "550 U.S. ___": a real form for a case not yet paginated. */
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "the citation gives no page of %s %s, so the table cannot be "
			       "searched for it",
			       volume, reporter);
		return;
	}
	if (!volume || !reporter || !sw__verify_num(sw_claim_get(c, "page"), &page)) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "the citation gives no volume, reporter and page");
		return;
	}
	char cite[160];
	snprintf(cite, sizeof(cite), "%s %s %llu", volume, reporter, (unsigned long long)page);
	struct sw_err e = { 0 };
	if (sw_authority_lookup(&res->lookup, u->auth, volume, reporter, page, &e) != 0) {
		/* a table that cannot be read fails the run, never a verdict */
		sw__verify_found(u, e.code ? e.code : SW_EDB, &e);
		return;
	}
	struct sw_authority_lookup *l = &res->lookup;
	bool readable = name && sw_authority_name_readable(name);
	char *shown = name ? sw_authority_name_clean(name) : NULL;
	if (l->hit == SW_AUTHORITY_NONE) {
		const struct sw_authority_case *near = l->n ? &l->cases[0] : NULL;
		if (near && near->name && readable && sw_authority_names_match(name, near->name)) {
			/* "Hadley v. Baxendale, 9 Ex. 345": a page of a case whose
			 * length the table does not know, cited as its start. */
			char *real = sw_authority_case_format(near);
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "%s starts at page %s, not at %s", real, near->page, cite);
			sw__verify_add_case_evidence(u, i, near);
			free(real);
		} else if (near) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "no case at %s in the authority table (the nearest before it "
				       "starts at page %s)",
				       cite, near->page);
		} else {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "no case at %s in the authority table, which has no case in "
				       "volume %s of %s",
				       cite, volume, reporter);
		}
		goto done;
	}
	if (l->hit == SW_AUTHORITY_INSIDE) {
		const struct sw_authority_case *in = &l->cases[0];
		char *real = sw_authority_case_format(in);
		if (readable && in->name && sw_authority_names_match(name, in->name))
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "%s falls inside %s: the citation gives a page of it as the "
				       "page where it starts",
				       cite, real);
		else if (readable && in->name)
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "%s falls inside %s; no case named %s starts there", cite,
				       real, shown);
		else
			sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
				       "%s falls inside %s, and no case starts there", cite, real);
		sw__verify_add_case_evidence(u, i, in);
		free(real);
		goto done;
	}
	/* Cases that start at the page: the one whose name matches. */
	const struct sw_authority_case *hit = NULL, *named = NULL;
	size_t nnamed = 0;
	for (size_t k = 0; k < l->n; k++) {
		if (!l->cases[k].name)
			continue;
		nnamed++;
		if (!named)
			named = &l->cases[k];
		if (!hit && readable && sw_authority_names_match(name, l->cases[k].name))
			hit = &l->cases[k];
	}
	if (!hit && nnamed == 0) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "the table knows %s but not its case name (import the "
			       "opinion-clusters file)",
			       cite);
		goto done;
	}
	if (!hit && readable) {
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED, "%s is %s, not %s", cite, named->name,
			       shown);
		sw__verify_add_case_evidence(u, i, named);
		goto done;
	}
	if (!hit) {
		/* No name to compare: the volume and page alone prove nothing, but a
		 * wrong court, year or pin of the one case there still counts. */
		char *real = sw_authority_case_format(named);
		if (nnamed == 1) {
			res->have_case = true;
			res->kase = *named;
		}
		if (name)
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "the case name before %s could not be read (\"%s\"); the "
				       "table has %s there",
				       cite, name, nnamed == 1 ? named->name : "more than one case");
		else
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "no case name was found before %s; the table has %s there",
				       cite, nnamed == 1 ? named->name : "more than one case");
		sw__verify_add_case_evidence(u, i, named);
		if (nnamed == 1 && check_details(u, i, named, real))
			res->have_case = false;
		free(real);
		goto done;
	}
	res->have_case = true;
	res->kase = *hit;
	char *real = sw_authority_case_format(hit);
	sw__verify_add_case_evidence(u, i, hit);
	sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "%s", real);
	check_details(u, i, hit, real);
	free(real);
done:
	free(shown);
}

/* An id. the scanner could not tie to the citation before it, which it
 * declines when the pin cannot be a page of that case ("Id. at 999"): the
 * pin is checked against that case here, so a pin past its pages is
 * contradicted rather than left unresolved. */
static void id_unresolved(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	long prev = -1;
	for (size_t k = i; k-- > 0 && prev < 0;) {
		enum sw_claim_kind kk = u->r->claims.v[k].kind;
		if (kk != SW_CLAIM_DATE && kk != SW_CLAIM_QUOTE)
			prev = (long)k;
	}
	if (prev < 0) {
		sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
			       "id. has no citation before it to refer to");
		return;
	}
	const struct sw__verify_resolved *pr = &u->res[prev];
	uint64_t pin;
	if (u->r->claims.v[prev].kind == SW_CLAIM_CASE && pr->have_case &&
	    sw__verify_num(sw_claim_get(c, "pin"), &pin)) {
		char *real = sw_authority_case_format(&pr->kase);
		const struct sw_claim_verdict *pv = &u->r->verdicts[prev];
		u->res[i].have_case = true;
		u->res[i].kase = pr->kase;
		if (pv->verdict == SW_VERDICT_SUPPORTED)
			sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "refers to %s", real);
		else
			sw__verify_set(u, i, pv->verdict,
				       "refers to %s (claim %ld), which is %s: %s", real,
				       prev + 1, sw_verdict_name(pv->verdict), pv->reason);
		sw__verify_add_case_evidence(u, i, &pr->kase);
		if (check_pin(u, i, &pr->kase, sw_claim_get(c, "pin"), real))
			u->res[i].have_case = false;
		free(real);
		return;
	}
	char *ptext = sw__verify_claim_text(u, &u->r->claims.v[prev]);
	sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
		       "id. could not be tied to the citation before it, %s (claim %ld)", ptext,
		       prev + 1);
	free(ptext);
}

/* A short form, id. or supra takes the verdict of what it resolves to,
 * then its own pin is checked against that case's pages. */
void sw__verify_case_short(struct sw__verify_run *u, size_t i)
{
	const struct sw_claim *c = &u->r->claims.v[i];
	long t = c->resolves_to;
	const char *ante = sw_claim_get(c, c->form == SW_FORM_REFERENCE ? "defendant" : "antecedent");
	if (!ante && c->form == SW_FORM_REFERENCE)
		ante = sw_claim_get(c, "antecedent");
	if (t < 0 || (size_t)t >= i) {
		const char *vol = sw_claim_get(c, "volume"), *rep = sw_claim_get(c, "canonical");
		if (c->form == SW_FORM_ID) {
			id_unresolved(u, i);
			return;
		}
		if (c->form == SW_FORM_SHORT && vol && rep)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "no full citation of a case in %s %s comes before this short "
				       "form",
				       vol, rep);
		else if (ante)
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "no full citation of a case named %s comes before this %s",
				       ante, c->form == SW_FORM_SUPRA ? "supra" : "reference");
		else
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "the short form does not say which authority it means");
		return;
	}
	const struct sw_claim_verdict *tv = &u->r->verdicts[t];
	const struct sw__verify_resolved *tr = &u->res[t];
	char *ttext = sw__verify_claim_text(u, &u->r->claims.v[t]);
	u->res[i].have_case = tr->have_case;
	u->res[i].kase = tr->kase;
	sw__verify_same_pages(&u->res[i], tr);
	const char *pin = sw_claim_get(c, "pin");
	if (!pin && c->form == SW_FORM_SHORT)
		pin = sw_claim_get(c, "page");
	/* With a pin of its own, after a full cite that names the case rightly
	 * but gives a wrong pin, year or court, it is checked on its own pin:
	 * that error is the full cite's ("*Id.* at 323" after "..., 341"). */
	bool own = tr->have_case && tv->verdict == SW_VERDICT_CONTRADICTED &&
		   (sw_claim_get(c, "pin") || c->form == SW_FORM_SHORT);
	if (tv->verdict != SW_VERDICT_SUPPORTED && !own) {
		sw__verify_set(u, i, tv->verdict, "refers to %s (claim %ld), which is %s: %s",
			       ttext, t + 1, sw_verdict_name(tv->verdict), tv->reason);
		/* The case is known even when its name was not read: a pin
		 * past its pages is still wrong ("*Id.* at 999"). */
		if (tr->have_case && tv->verdict == SW_VERDICT_UNVERIFIABLE) {
			char *real = sw_authority_case_format(&tr->kase);
			if (check_pin(u, i, &tr->kase, pin, real))
				u->res[i].have_case = false;
			free(real);
		}
	} else if (tr->have_case && tr->kase.name && ante && sw_authority_name_readable(ante) &&
		   !sw_authority_names_match(ante, tr->kase.name)) {
		/* "Hollis, 550 U.S. at 560" after a full cite of Twombly. */
		sw__verify_set(u, i, SW_VERDICT_CONTRADICTED,
			       "names %s, but the citation it shortens (claim %ld) is %s", ante,
			       t + 1, tr->kase.name);
		sw__verify_add_case_evidence(u, i, &tr->kase);
		u->res[i].have_case = false;
	} else if (tr->have_case) {
		char *real = sw_authority_case_format(&tr->kase);
		sw__verify_set(u, i, SW_VERDICT_SUPPORTED, "refers to %s", real);
		sw__verify_add_case_evidence(u, i, &tr->kase);
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
	if (!u->auth) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "%s: no authority table to check it against", text);
	} else if (!code || !section) {
		sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
			       "%s: the code and section could not be read", text);
	} else {
		struct sw_err e = { 0 };
		int rc = sw_authority_code_exists(u->auth, code, title, section, &e);
		if (rc < 0) {
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "%s: cannot read the code table: %s", text, e.msg);
		} else if (rc == 1) {
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

