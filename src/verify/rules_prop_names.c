/*
 * rules_prop_names.c - the names of a cited sentence against its pages
 * (rules_prop.c's proposition check calls it): a party the page puts in
 * the sentence's role instead (a rival), a name another row of the
 * sentence's table holds and its rows do not, a person's full name the
 * cited page lacks where the sentence has the person act, a party named
 * elsewhere only (noted, never blocking), a name no page holds.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"


/* The spans of proposition c's sentence that its other claims cover
 * (citations, quotations, dates): no name is read there. */
size_t sw__verify_claim_spans(const struct sw__verify_run *u, const struct sw_claim *c,
			      struct sw__verify_range *sp, size_t max)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t n = 0, k0, k1;
	sw__verify_claims_near(u, c, &k0, &k1);
	for (size_t k = k0; k < k1 && n < max; k++)
		if (cl->v[k].sentence == c->sentence ||
		    (cl->v[k].start < c->end && c->start < cl->v[k].end))
			sp[n++] = (struct sw__verify_range){ cl->v[k].start, cl->v[k].end };
	return n;
}

/* Whether name nm reads as a person's ("L. Ortiz", "Dana Whitaker"): two
 * or three words, none a word companies and places are named with.  A
 * company is spoken of as "we" and "they" on pages that do not name it; a
 * person is named where they act. */
static bool person_name(const char *t, size_t len, const struct sw__verify_name *nm)
{
	static const char *const firm[] = {
		"inc", "llc", "corp", "co", "ltd", "company", "group", "builders", "steel",
		"erectors", "freight", "logistics", "welding", "range", "services",
		"construction", "industries", "partners", "bank", "holdings", "systems",
		"supply", "solutions", "associates", "widgets", "testing", "labs",
		"county", "city", "state", "court", "district", "street", "avenue", "road",
		"building", "crossing", "center", "office", "medical", "river", "valley",
	};
	if (nm->n < 2 || nm->n > 3)
		return false;
	for (size_t k = 0; k < nm->n; k++) {
		size_t n = nm->te[k] - nm->ts[k];
		for (size_t q = 0; q < SW_ARRAY_LEN(firm); q++)
			if (n == strlen(firm[q]) && strncasecmp(t + nm->ts[k], firm[q], n) == 0)
				return false;
		/* a word the draft also writes in lower case is a common word
		 * ("Two", "Pay Application"), not a name */
		for (size_t i = 0; n >= 2 && i + n <= len; i++)
			if (islower((unsigned char)t[i]) &&
			    strncasecmp(t + i, t + nm->ts[k], n) == 0 &&
			    (i == 0 || !isalpha((unsigned char)t[i - 1])) &&
			    (i + n == len || !isalpha((unsigned char)t[i + n])))
				return false;
	}
	return true;
}

/* Whether name nm stands where a person acts in sentence c: before a
 * verb ("L. Ortiz signed", "Dana Whitaker may have sent") or after "by",
 * "to", "from", "copied" ("signed by Gordon Pruitt"); not in a list of who
 * was there ("with Mr. Okafor, Tomas Reyes and me"). */
static bool acts(const char *t, const struct sw_claim *c, const struct sw__verify_name *nm)
{
	static const char *const after[] = { "by", "to", "from", "copied", "cc", "told", "asked",
					     "emailed", "called", "wrote" };
	static const char *const verbs[] = {
		"may", "might", "would", "could", "will", "did", "had", "has", "was", "is",
		"signed", "sent", "wrote", "approved", "said", "told", "asked", "made",
		"decided", "reported", "testified", "agreed", "refused", "issued", "received",
		"directed", "ordered", "confirmed", "stated", "called", "emailed", "reminded",
		"rejected", "accepted", "authorized", "countersigned", "executed", "prepared",
		"inspected", "certified", "demanded", "promised", "admitted", "denied",
	};
	size_t e = nm->e, k = e;
	/* "Peter Vale's memo": the person's own */
	if (k + 1 < c->end && (t[k] == '\'' || (unsigned char)t[k] == 0xE2) &&
	    (t[k + 1] == 's' || (k + 3 < c->end && t[k + 3] == 's')))
		return true;
	/* past ", Esq." and emphasis: "*Maria Ellis, Esq.* appeared" */
	if (k + 6 <= c->end &&
	    (strncmp(t + k, ", Esq.", 6) == 0 || strncmp(t + k, ", Jr.", 5) == 0))
		k += t[k + 2] == 'E' ? 6 : 5;
	while (k < c->end && (t[k] == ' ' || t[k] == '*' || t[k] == '_'))
		k++;
	size_t we = k;
	while (we < c->end && isalpha((unsigned char)t[we]))
		we++;
	for (size_t q = 0; q < SW_ARRAY_LEN(verbs) && we > k; q++)
		if (we - k == strlen(verbs[q]) && strncasecmp(t + k, verbs[q], we - k) == 0)
			return true;
	/* a verb: "appeared", "reminds", or a role: "as consignee" */
	if (we - k > 3 && islower((unsigned char)t[k]) &&
	    (strncmp(t + we - 2, "ed", 2) == 0 || t[we - 1] == 's'))
		return true;
	if (we - k == 2 && strncmp(t + k, "as", 2) == 0)
		return true;
	size_t b = nm->s;
	while (b > c->start && t[b - 1] == ' ')
		b--;
	size_t a = b;
	while (a > c->start && isalpha((unsigned char)t[a - 1]))
		a--;
	for (size_t q = 0; q < SW_ARRAY_LEN(after) && b > a; q++)
		if (b - a == strlen(after[q]) && strncasecmp(t + a, after[q], b - a) == 0)
			return true;
	return false;
}

/* The page's labels for who did what a verb says: "Nina Park signed"
 * against "By: /s/ Alan Brandt", "Keel Transport carried" against
 * "Carrier: Northway Freight". */
static const struct {
	const char *verb;
	const char *labels[4];
} roles[] = {
	{ "signed", { "by:", "signed:", "signature:", "signed by:" } },
	{ "countersigned", { "by:", "signed:", "signature:", NULL } },
	{ "executed", { "by:", "signed:", NULL, NULL } },
	{ "wrote", { "from:", NULL, NULL, NULL } },
	{ "sent", { "from:", NULL, NULL, NULL } },
	{ "emailed", { "from:", NULL, NULL, NULL } },
	{ "told", { "from:", NULL, NULL, NULL } },
	{ "informed", { "from:", NULL, NULL, NULL } },
	{ "notified", { "from:", NULL, NULL, NULL } },
	{ "carried", { "carrier:", "hauler:", "carried by:", NULL } },
	{ "hauled", { "carrier:", "hauler:", NULL, NULL } },
	{ "kept", { "minutes by", "recorded by", "prepared by", "minutes taken by" } },
	{ "recorded", { "minutes by", "recorded by", NULL, NULL } },
	{ "prepared", { "prepared by", NULL, NULL, NULL } },
	{ "examined", { "examination by", NULL, NULL, NULL } },
	{ "inspected", { "inspector:", "inspected by:", NULL, NULL } },
	{ "approved", { "approved:", "approved by:", "approval:", NULL } },
	{ "accepted", { "accepted:", "accepted by:", NULL, NULL } },
};

/* Whether a word of name nm (two letters or more) stands in [0, len) of
 * p, case folded. */
static bool any_word(const char *p, size_t len, const char *t, const struct sw__verify_name *nm)
{
	size_t at;
	for (size_t k = 0; k < nm->n; k++)
		if (nm->te[k] - nm->ts[k] >= 2 &&
		    sw__verify_word_on(p, len, t + nm->ts[k], nm->te[k] - nm->ts[k], 0, &at))
			return true;
	return false;
}

/* A signature block of p ("IN WITNESS WHEREOF the parties sign below." and
 * lines of "Name, Title, Company"): when it does not hold name nm, its
 * signer for the party the sentence signs for ("for Delmar"), or its
 * first (caller frees); NULL when there is no block or nm signs there. */
static char *signer(const char *p, size_t len, const char *t, const struct sw_claim *c,
		    const struct sw__verify_name *nm)
{
	static const char *const marks[] = { "in witness whereof", "sign below", "signatures:",
					     "signed:" };
	size_t i = 0, start = len;
	for (size_t k = 0; k < SW_ARRAY_LEN(marks) && start == len; k++) {
		size_t n = strlen(marks[k]);
		for (i = 0; i + n <= len; i++)
			if (strncasecmp(p + i, marks[k], n) == 0) {
				start = i;
				break;
			}
	}
	if (start == len)
		return NULL;
	/* "for Delmar": the party the sentence has the person sign for */
	const char *forp = NULL;
	size_t fl = 0;
	for (size_t x = nm->e; x + 4 < c->end && !forp; x++)
		if (strncmp(t + x, " for ", 5) == 0 && isupper((unsigned char)t[x + 5])) {
			forp = t + x + 5;
			while (isalpha((unsigned char)forp[fl]))
				fl++;
		}
	while (start < len && p[start] != '\n')
		start++;
	char *first = NULL, *mine = NULL;
	int lines = 0;
	for (i = start + 1; i < len && lines < 8 && !mine;) {
		size_t le = i;
		while (le < len && p[le] != '\n')
			le++;
		size_t a = i;
		while (a < le && p[a] == ' ')
			a++;
		const char *comma = memchr(p + a, ',', le - a);
		if (a < le) {
			lines++;
			if (isupper((unsigned char)p[a]) && comma && comma - (p + a) <= 40) {
				if (any_word(p + a, le - a, t, nm)) {
					free(first);
					return NULL; /* the sentence's person signs here */
				}
				bool theirs = forp && fl >= 3;
				if (theirs) {
					theirs = false;
					for (size_t x = a; x + fl <= le && !theirs; x++)
						theirs = strncasecmp(p + x, forp, fl) == 0;
				}
				char *who = sw_xstrndup(p + a, (size_t)(comma - (p + a)));
				if (theirs)
					mine = who;
				else if (!first)
					first = who;
				else
					free(who);
			}
		}
		i = le < len ? le + 1 : len;
	}
	if (mine) {
		free(first);
		return mine;
	}
	return first;
}

/* Whether the first word of name nm (four letters or more) stands inside
 * an e-mail address of [0, len) of p ("delmar" in npark@delmarprecast). */
static bool in_address(const char *p, size_t len, const char *t, const struct sw__verify_name *nm)
{
	size_t n = nm->te[0] - nm->ts[0];
	const char *at = memchr(p, '@', len);
	if (n < 4 || !at)
		return false;
	size_t s = (size_t)(at - p);
	while (s > 0 && !isspace((unsigned char)p[s - 1]) && p[s - 1] != '<')
		s--;
	size_t e = (size_t)(at - p);
	while (e < len && !isspace((unsigned char)p[e]) && p[e] != '>')
		e++;
	for (size_t i = s; i + n <= e; i++)
		if (strncasecmp(p + i, t + nm->ts[0], n) == 0)
			return true;
	return false;
}

/* The party page text p names under the label for the verb after name nm
 * in sentence c, when it is not nm: "Alan Brandt" (caller frees), or NULL. */
static char *role_label_rival(const char *p, size_t len, const char *t, size_t tlen,
			      const struct sw_claim *c, const struct sw__verify_name *nm)
{
	size_t k = nm->e;
	while (k < c->end && t[k] == ' ')
		k++;
	size_t we = k;
	while (we < c->end && isalpha((unsigned char)t[we]))
		we++;
	if (we - k == 6 && strncasecmp(t + k, "signed", 6) == 0) {
		char *who = signer(p, len, t, c, nm);
		if (who)
			return who;
	}
	/* "ships PO 4471 with Keel Transport", "sent via Northway": the
	 * carrier, named after its preposition */
	size_t pb = nm->s, pa;
	while (pb > c->start && t[pb - 1] == ' ')
		pb--;
	for (pa = pb; pa > c->start && isalpha((unsigned char)t[pa - 1]);)
		pa--;
	static const char *const ships[] = { "ships", "shipped", "ship", "shipping", "sent",
					     "sends", "delivered", "delivers", "moved" };
	bool carrier = ((pb - pa == 4 && strncasecmp(t + pa, "with", 4) == 0) ||
			(pb - pa == 3 && strncasecmp(t + pa, "via", 3) == 0)) &&
		       sw__verify_has_any(t + c->start, nm->s - c->start, ships,
					  SW_ARRAY_LEN(ships));
	/* "was approved by Nina Park": the verb before "by" */
	size_t vb = 0, vend = 0;
	if (pb - pa == 2 && strncasecmp(t + pa, "by", 2) == 0) {
		vend = pa;
		while (vend > c->start && t[vend - 1] == ' ')
			vend--;
		for (vb = vend; vb > c->start && isalpha((unsigned char)t[vb - 1]);)
			vb--;
	}
	for (size_t r = 0; r < SW_ARRAY_LEN(roles); r++) {
		bool passive = vend > vb && vend - vb == strlen(roles[r].verb) &&
			       strncasecmp(t + vb, roles[r].verb, vend - vb) == 0;
		if (!passive && (carrier ? strcmp(roles[r].verb, "carried") != 0 :
					   (we - k != strlen(roles[r].verb) ||
					    strncasecmp(t + k, roles[r].verb, we - k) != 0)))
			continue;
		/* a company writes through its people: a From: line names one,
		 * and the company is in its address ("npark@delmarprecast") */
		bool company = !strcmp(roles[r].labels[0], "from:") && !person_name(t, tlen, nm);
		for (size_t i = 0; i < len;) {
			size_t le = i;
			while (le < len && p[le] != '\n')
				le++;
			size_t a = i;
			while (a < le && p[a] == ' ')
				a++;
			for (size_t l = 0; l < 4 && roles[r].labels[l]; l++) {
				size_t ll = strlen(roles[r].labels[l]);
				/* a label anywhere on the line: "... Building   By: Alan Brandt" */
				for (size_t x = a; x + ll <= le; x++) {
					if (strncasecmp(p + x, roles[r].labels[l], ll) != 0 ||
					    (x > a && isalpha((unsigned char)p[x - 1])))
						continue;
					size_t v = x + ll;
					if (v < le && p[v] == ':')
						v++;
					while (v < le && p[v] == ' ')
						v++;
					if (v + 3 <= le && strncmp(p + v, "/s/", 3) == 0)
						v += 3; /* "By: /s/ Kevin Lindahl" */
					while (v < le && p[v] == ' ')
						v++;
					size_t ve = v;
					while (ve < le && p[ve] != ',' && p[ve] != '<' &&
					       p[ve] != '(' &&
					       !(p[ve] == ' ' && ve + 1 < le && p[ve + 1] == ' '))
						ve++;
					if (ve == v || !isupper((unsigned char)p[v]))
						continue;
					/* the sentence's party on the label's line, a word
					 * of its name, its e-mail address too ("Marisol
					 * Ortega <mortega@redhawk.example>" is Redhawk's;
					 * "MS. PRYOR" is Lena Pryor) */
					if (any_word(p + v, le - v, t, nm) ||
					    (company && in_address(p + v, le - v, t, nm)))
						return NULL;
					if (company && !strchr(p + v, '@'))
						continue; /* no address to say whose it is */
					while (ve > v && (p[ve - 1] == ' ' || p[ve - 1] == '\r'))
						ve--;
					return sw_xstrndup(p + v, ve - v);
				}
			}
			i = le < len ? le + 1 : len;
		}
	}
	return NULL;
}

/* When sentence c gives a thing to name nm by a possessive ("Keel
 * Transport's crew") and the cited transcript lines have the witness call
 * it theirs ("Our crew loads every truck"), the witness speaking for
 * another party: that party (caller frees), else NULL. */
static char *ours(struct sw__verify_run *u, const struct sw_claim *c,
		  const struct sw__verify_name *nm, int64_t page)
{
	const char *t = u->r->text;
	if (!(t[nm->e] == '\'' && t[nm->e + 1] == 's' && t[nm->e + 2] == ' '))
		return NULL;
	size_t w0 = nm->e + 3, w1 = w0;
	while (w1 < c->end && isalpha((unsigned char)t[w1]))
		w1++;
	if (w1 - w0 < 3 || !islower((unsigned char)t[w0]))
		return NULL;
	struct sw_err e = { 0 };
	size_t ps, pe;
	if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, page, &e), &e) ||
	    !sw__verify_pin(u, c, page, u->page.data, u->page.len, &ps, &pe, NULL, NULL))
		return NULL;
	struct sw__verify_lines ln = { 0 };
	sw__verify_lines_read(&ln, u->page.data, ps, pe);
	size_t wl = w1 - w0;
	bool our = false;
	for (size_t i = 0; i + 4 + wl <= ln.len && !our; i++)
		our = (i == 0 || !isalpha((unsigned char)ln.text[i - 1])) &&
		      strncasecmp(ln.text + i, "our ", 4) == 0 &&
		      strncasecmp(ln.text + i + 4, t + w0, wl) == 0 &&
		      (i + 4 + wl == ln.len || !isalpha((unsigned char)ln.text[i + 4 + wl]));
	bool named = our && any_word(ln.text, ln.len, t, nm);
	sw__verify_lines_release(&ln);
	if (!our || named)
		return NULL;
	char party[64];
	if (!sw__verify_witness_party(u, page, party, sizeof(party)))
		return NULL;
	if (any_word(party, strlen(party), t, nm))
		return NULL; /* the witness speaks for the sentence's party */
	return sw_xasprintf("%s (the witness's \"our %.*s\")", party, (int)wl, t + w0);
}

/* Whether sentence c quotes (who said a quotation is rules_speaker.c's). */
static bool quoting(const struct sw__verify_run *u, const struct sw_claim *c)
{
	const struct sw_claims *cl = &u->r->claims;
	for (size_t k = 0; k < cl->n; k++)
		if (cl->v[k].kind == SW_CLAIM_QUOTE && cl->v[k].sentence == c->sentence)
			return true;
	return false;
}

/* Whether sentence c says someone was copied ("copied", "cc", "a copy"). */
static bool says_copied(const char *t, const struct sw_claim *c)
{
	static const char *const w[] = { "copied", "copy", "cc", "cc'd", "copies" };
	return sw__verify_has_any(t + c->start, c->end - c->start, w, SW_ARRAY_LEN(w));
}

/* The cited page that names nm only on its cc: and bcc: lines (caller
 * frees), or NULL. */
static char *copied_only(struct sw__verify_run *u, const char *t, const struct sw__verify_name *nm,
			 const int64_t *pages, size_t np)
{
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len, cc = 0, other = 0;
		for (size_t i = 0; i < len;) {
			size_t le = i, at;
			while (le < len && p[le] != '\n')
				le++;
			if (sw__verify_name_on(p + i, le - i, t, nm, &at)) {
				size_t a = i;
				while (a < le && p[a] == ' ')
					a++;
				if ((le - a > 3 && strncasecmp(p + a, "cc:", 3) == 0) ||
				    (le - a > 4 && strncasecmp(p + a, "bcc:", 4) == 0))
					cc++;
				else
					other++;
			}
			i = le < len ? le + 1 : len;
		}
		if (cc && !other)
			return sw__verify_page_name(u, pages[q]);
	}
	return NULL;
}

/* The names of c the record knows, each checked on the cited pages: those
 * not there (but on another page) are added to why. */
size_t sw__verify_check_names(struct sw__verify_run *u, const struct sw_claim *c,
			  const int64_t *pages, size_t np, const char *where,
			  struct sw_fact_verdict *fv, struct sw_buf *why, struct sw_buf *ok,
			  bool *contra, const struct sw__verify_rows *rows)
{
	const char *t = u->r->text;
	struct sw__verify_range sp[SW__VERIFY_PROP_SPANS];
	struct sw__verify_name nm[SW__VERIFY_PROP_NAMES];
	size_t nsp = sw__verify_claim_spans(u, c, sp, SW__VERIFY_PROP_SPANS), bad = 0, nv = 0;
	size_t nn = sw__verify_names(t, c->start, c->end, sp, nsp, nm, SW__VERIFY_PROP_NAMES);
	for (size_t k = 0; k < nn && !u->err.code; k++) {
		int w = (int)(nm[k].e - nm[k].s);
		char *on = NULL, *off = NULL;
		size_t row_at;
		/* a name the sentence repeats is checked, and named, once */
		bool again = false;
		for (size_t j = 0; j < k && !again; j++)
			again = nm[j].e - nm[j].s == (size_t)w &&
				strncmp(t + nm[j].s, t + nm[k].s, (size_t)w) == 0;
		if (again)
			continue;
		/* a table's rows of the sentence: a name another row holds and
		 * these do not ("Lot 17 ships with Keel Transport") */
		if (rows && rows->set && rows->rows_text && rows->table_text &&
		    sw__verify_name_on(rows->table_text, strlen(rows->table_text), t, &nm[k],
				       &row_at) &&
		    !sw__verify_name_on(rows->rows_text, strlen(rows->rows_text), t, &nm[k],
					&row_at)) {
			char *pn = sw__verify_page_name(u, rows->page);
			struct sw_fact_verdict *f = &fv[nv++];
			*f = (struct sw_fact_verdict){ .kind = "name", .fact = -1, .start = nm[k].s,
						       .end = nm[k].e, .page = sw_xstrdup(where),
						       .verdict = SW_VERDICT_CONTRADICTED };
			sw_buf_addf(why,
				    "%sthe rows of the sentence on %s do not name %.*s; another "
				    "row does",
				    why->len ? "; " : "", pn, w, t + nm[k].s);
			free(pn);
			*contra = true;
			continue;
		}
		for (size_t q = 0; q < np && !on && !u->err.code; q++) {
			struct sw_err e = { 0 };
			size_t at, ps = 0, pe;
			if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					      &e))
				continue;
			const char *p = u->page.data;
			pe = u->page.len;
			/* a transcript's pinned lines: the name must be there */
			bool pin = sw__verify_pin(u, c, pages[q], p, pe, &ps, &pe, NULL, NULL);
			struct sw__verify_lines ln = { 0 };
			if (pin)
				sw__verify_lines_read(&ln, p, ps, pe);
			if (pin ? sw__verify_name_on(ln.text, ln.len, t, &nm[k], &at)
				: sw__verify_name_on(p, pe, t, &nm[k], &at))
				on = sw__verify_page_name(u, pages[q]);
			sw__verify_lines_release(&ln);
			if (on)
				break;
			if (pin && !off && sw__verify_name_on(p, u->page.len, t, &nm[k], &at)) {
				char *pn = sw__verify_page_name(u, pages[q]);
				long line = sw__verify_line_of(p, u->page.len, at);
				off = line > 0 ? sw_xasprintf("%s:%ld", pn, line) : sw_xstrdup(pn);
				free(pn);
			}
		}
		/* a deponent is the transcript's own ("Smith Dep."), an e-mail's
		 * file its writers' */
		for (size_t q = 0; q < np && !on && !u->err.code; q++) {
			struct sw_record_page p = { 0 };
			struct sw_err e = { 0 };
			size_t at;
			if (sw__verify_found(u, sw_record_page_by_id(&p, u->m, pages[q], &e), &e)) {
				const char *label = sw__verify_doc_label(u, p.doc_id);
				char *own = sw_xasprintf("%s %s", label ? label : "", p.document);
				if (sw__verify_name_on(own, strlen(own), t, &nm[k], &at))
					on = sw__verify_page_name(u, pages[q]);
				free(own);
			}
			sw_record_page_release(&p);
		}
		bool same_doc = false;
		char *other =
			on || off ? NULL
				  : sw__verify_name_elsewhere(u, t, &nm[k], pages, np, &same_doc);
		if (on) {
			free(off);
			off = NULL;
		} else if (off) {
			other = off; /* on the cited transcript page, not its lines */
			off = NULL;
		}
		if (other && same_doc) {
			on = other; /* the document's own: its writer, its addressee */
			other = NULL;
		}
		/* a person the sentence has act whom the page names only as
		 * copied ("cc: Gordon Pruitt"): not the one who acted */
		/* the cheap tests first: person_name reads the whole draft */
		char *copied = on && acts(t, c, &nm[k]) && !says_copied(t, c) &&
					       person_name(t, u->r->len, &nm[k]) ?
				       copied_only(u, t, &nm[k], pages, np) :
				       NULL;
		if (copied) {
			struct sw_fact_verdict *f = &fv[nv++];
			*f = (struct sw_fact_verdict){ .kind = "name", .fact = -1, .start = nm[k].s,
						       .end = nm[k].e, .page = sw_xstrdup(where),
						       .verdict = SW_VERDICT_CONTRADICTED };
			sw_buf_addf(why, "%s%s names %.*s only as copied, not as the one who acted",
				    why->len ? "; " : "", copied, w, t + nm[k].s);
			free(copied);
			free(on);
			*contra = true;
			continue;
		}
		char *rival = NULL, *rival_page = NULL;
		/* the witness's "our crew" for the sentence's "Keel Transport's
		 * crew": the witness's own party's, not the one the sentence names */
		for (size_t q = 0; q < np && !u->err.code && !rival; q++)
			if ((rival = ours(u, c, &nm[k], pages[q])))
				rival_page = sw__verify_page_name(u, pages[q]);
		/* the page's label for the act names another: "By: Alan Brandt"
		 * for "Nina Park signed", "Carrier: Northway Freight" */
		for (size_t q = 0; q < np && !rival && !quoting(u, c) && !u->err.code; q++) {
			struct sw_err e = { 0 };
			if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					     &e) &&
			    (rival = role_label_rival(u->page.data, u->page.len, t, u->r->len, c,
						       &nm[k])))
				rival_page = sw__verify_page_name(u, pages[q]);
		}
		/* the page gives the sentence's role to another party: "under
		 * contract to Tallgrass" for "under contract to Redhawk" */
		for (size_t q = 0; q < np && !rival && !u->err.code; q++) {
			struct sw_err e = { 0 };
			size_t rs, re;
			if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					     &e) &&
			    sw__verify_name_role_rival(u->page.data, u->page.len, t, c->start,
						       &nm[k], &rs, &re)) {
				rival = sw_xstrndup(u->page.data + rs, re - rs);
				rival_page = sw__verify_page_name(u, pages[q]);
			}
		}
		if (rival) {
			free(on);
			free(other);
			on = other = NULL;
		}
		for (size_t q = 0; q < np && !on && !other && !rival && !u->err.code; q++) {
			struct sw_err e = { 0 };
			size_t rs, re;
			if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					     &e) &&
			    sw__verify_name_rival(u->page.data, u->page.len, t, &nm[k], &rs, &re)) {
				rival = sw_xstrndup(u->page.data + rs, re - rs);
				rival_page = sw__verify_page_name(u, pages[q]);
			}
		}
		if (rival) {
			/* a party the record does not know where the page names
			 * another of the same kind: clearly not it */
			struct sw_fact_verdict *f = &fv[nv++];
			*f = (struct sw_fact_verdict){ .kind = "name", .fact = -1, .start = nm[k].s,
						       .end = nm[k].e, .page = sw_xstrdup(where),
						       .verdict = SW_VERDICT_CONTRADICTED,
						       .page_says = rival };
			sw_buf_addf(why, "%s%s names %s, not %.*s", why->len ? "; " : "",
				    rival_page, rival, w, t + nm[k].s);
			free(rival_page);
			*contra = true;
			continue;
		}
		if (!on && !other && !u->err.code && sw__verify_unknown_name(u, t, &nm[k])) {
			/* a person or company of two words or more none of which
			 * the record holds: the sentence made it up */
			struct sw_fact_verdict *f = &fv[nv++];
			*f = (struct sw_fact_verdict){ .kind = "name", .fact = -1, .start = nm[k].s,
						       .end = nm[k].e, .page = sw_xstrdup(where),
						       .verdict = SW_VERDICT_UNSUPPORTED };
			sw_buf_addf(why,
				    "%s%.*s is not named on %s nor anywhere else in the record",
				    why->len ? "; " : "", w, t + nm[k].s, where);
			bad++;
			continue;
		}
		if (!on && !other)
			continue; /* a name the record does not know is no fact */
		struct sw_fact_verdict *f = &fv[nv++];
		*f = (struct sw_fact_verdict){ .kind = "name", .fact = -1, .start = nm[k].s,
					       .end = nm[k].e, .page = sw_xstrdup(where) };
		if (on) {
			f->verdict = SW_VERDICT_SUPPORTED;
			f->found_on = on;
			sw_buf_addf(ok, "%s%.*s", ok->len ? ", " : "", w, t + nm[k].s);
			continue;
		}
		/* a person's full name that another page holds and the cited
		 * one lacks: a miscite or the wrong person */
		if (acts(t, c, &nm[k]) && person_name(t, u->r->len, &nm[k])) {
			f->verdict = SW_VERDICT_UNSUPPORTED;
			f->found_on = other;
			sw_buf_addf(why, "%s%.*s is not named on %s; it is on %s",
				    why->len ? "; " : "", w, t + nm[k].s, where, other);
			bad++;
			continue;
		}
		/* a party named elsewhere, not on the cited lines: a witness
		 * says "we", the party is in the question, the caption, the
		 * letterhead.  Absence is no evidence against the sentence; it
		 * is noted, never blocking (a rival named in its place blocks,
		 * above). */
		f->verdict = SW_VERDICT_UNVERIFIABLE;
		f->found_on = other;
		sw_buf_addf(ok, "%s%.*s (named on %s)", ok->len ? ", " : "", w, t + nm[k].s, other);
	}
	(void)bad;
	return nv;
}

