/*
 * claims_link.c - what ties claims to one another once sentences are known:
 * record id. (the fields of the record cite it repeats), the citation each
 * quotation is attributed to, whether a Bates-shaped token stands in a
 * citation position or in the text, the claims inside a quotation, and
 * the code a bare "Rule 56(c)" means.
 *
 * A "citation sentence" is a sentence made of nothing but citations,
 * signals and punctuation ("ACME0000003.", "See Ex. 2 at 1.",
 * "(Smith Dep. 12:3-5.)"); list bullets, list numbers and footnote markers
 * ([^1]) left over from Markdown count as punctuation.
 */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

static bool is_cite(const struct sw_claim *c)
{
	return c->kind != SW_CLAIM_DATE && c->kind != SW_CLAIM_QUOTE;
}

/* The first claim whose start is at or after s. */
static size_t first_at(const struct sw_claims *c, size_t s)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->v[mid].start < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Words a citation sentence or parenthetical may hold besides citations. */
static bool signal_word(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	static const char *const w[] = { "See", "see", "also", "Cf", "cf", "accord", "Accord",
					 "But", "but", "Compare", "compare", "with", "and",
					 "generally", "Contra", "contra", "citing", "quoting",
					 "e", "g", "i", NULL };
	return sw__claims_word_in(sc, s, e, w);
}

/* What may follow a citation and still belong to it: a pin the scanner
 * did not join to it (ACME0000003 at 2) and an explanatory parenthetical
 * (ACME0000003 (the invoice)).  Returns where it ends, or i. */
static size_t after_cite(const struct sw__claims_scan *sc, size_t i, size_t e)
{
	size_t k = i;
	if (sw__claims_at(sc, k) == ',')
		k++;
	k = sw__claims_ws(sc, k);
	size_t a = sw__claims_word(sc, k, "at");
	if (a && sw__claims_digit(sw__claims_at(sc, sw__claims_ws(sc, a)))) {
		k = sw__claims_digits(sc, sw__claims_ws(sc, a));
		size_t d = sw__claims_dash(sc, k);
		if (d && sw__claims_digit(sw__claims_at(sc, d)))
			k = sw__claims_digits(sc, d);
		i = k;
		k = sw__claims_ws(sc, k);
	}
	size_t in_s, in_e, pe;
	if (sw__claims_at(sc, k) == '(' && (pe = sw__claims_balanced(sc, k, &in_s, &in_e)) && pe <= e)
		i = pe;
	return i > e ? e : i;
}

/* Is [s, e) nothing but citations, signals and punctuation, with at least
 * one citation?  Claims that start in it are found from claim index j. */
static bool cite_only(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	const struct sw_claims *c = sc->out;
	size_t j = first_at(c, s), i = s;
	bool any = false, line_start = true;
	/* a claim that starts before s and covers it (a parenthetical) */
	if (j > 0 && is_cite(&c->v[j - 1]) && c->v[j - 1].end > s)
		return false;
	while (i < e) {
		if (j < c->n && c->v[j].start <= i) {
			const struct sw_claim *x = &c->v[j++];
			if (x->end <= i)
				continue;
			if (!is_cite(x))
				return false;
			any = true;
			i = after_cite(sc, x->end, e);
			line_start = false;
			continue;
		}
		int ch = sw__claims_at(sc, i);
		if (ch == '\n') {
			line_start = true;
			i++;
			continue;
		}
		if (ch == '[' && sw__claims_at(sc, i + 1) == '^') {
			/* a footnote marker [^1] or [^note] */
			size_t k = i + 2;
			while (k < e && k < i + 34 && sw__claims_at(sc, k) != ']' && !sw__claims_space_len(sc, k))
				k++;
			if (sw__claims_at(sc, k) != ']')
				return false;
			i = k + 1;
			continue;
		}
		if (sw__claims_digit(ch)) {
			/* a list number at a line start: "1." "2)" */
			size_t k = sw__claims_digits(sc, i);
			if (!line_start || (sw__claims_at(sc, k) != '.' && sw__claims_at(sc, k) != ')'))
				return false;
			i = k + 1;
			continue;
		}
		if (sw__claims_alpha(ch)) {
			size_t k = i;
			while (k < e && sw__claims_alpha(sw__claims_at(sc, k)))
				k++;
			if (!signal_word(sc, i, k))
				return false;
			i = k;
			line_start = false;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r')
			; /* blanks keep a line start */
		else
			line_start = line_start && (ch == '-' || ch == '*' || ch == '+' || ch == '>');
		i++;
	}
	return any;
}

/* Cached per sentence: -1 not known, 0 text, 1 a citation sentence. */
struct cite_memo {
	signed char *v;
};

static bool citation_sentence(const struct sw__claims_scan *sc, struct cite_memo *m, size_t s)
{
	const struct sw_claims *c = sc->out;
	if (s >= c->nsentences)
		return false;
	if (m->v[s] < 0)
		m->v[s] = cite_only(sc, c->sentences[s].start, c->sentences[s].end);
	return m->v[s] == 1;
}

bool sw__claims_citation_sentence(const struct sw__claims_scan *sc, signed char *memo, size_t s)
{
	struct cite_memo m = { memo };
	return citation_sentence(sc, &m, s);
}

/* ------------------------------------------------------------ quotations */

/* Each quotation to the citation of its own sentence: one whose
 * parenthetical holds it, else the first after it, else the first of a
 * citation sentence right after its sentence, else the nearest before it
 * in its sentence (which may support another part of the sentence, so it
 * comes last). */
static void attribute_quotes(const struct sw__claims_scan *sc, struct cite_memo *m)
{
	struct sw_claims *c = sc->out;
	for (size_t i = 0; i < c->n; i++) {
		struct sw_claim *q = &c->v[i];
		if (q->kind != SW_CLAIM_QUOTE)
			continue;
		size_t qs = q->sentence;
		while (qs + 1 < c->nsentences && c->sentences[qs].end < q->end)
			qs++;
		long found = -1;
		/* bounded, so a hostile sentence of quotations stays linear */
		for (size_t k = i + 1; k < c->n && k < i + 256; k++) {
			const struct sw_claim *x = &c->v[k];
			if (x->sentence > qs)
				break;
			if (is_cite(x) && x->start >= q->end) {
				found = (long)k;
				break;
			}
		}
		/* a cite whose parenthetical holds the quotation is its source */
		long before = -1;
		for (size_t k = i, n = 0; k > 0 && n < 64; k--, n++) {
			const struct sw_claim *x = &c->v[k - 1];
			if (x->sentence < q->sentence)
				break;
			if (!is_cite(x) || x->cite_end > q->start)
				continue;
			if (x->end >= q->end) {
				before = (long)(k - 1);
				break;
			}
			if (before < 0)
				before = (long)(k - 1);
		}
		/* one whose parenthetical holds it comes first */
		if (before >= 0 && c->v[before].end >= q->end)
			found = before;
		/* a citation standing right after the quotation, in parentheses or
		 * not ("..." (Id.) The next sentence...), even where the sentence
		 * splitter did not end a sentence at its closing ".)" */
		for (size_t k = i + 1; found < 0 && k < c->n && k < i + 8; k++) {
			const struct sw_claim *x = &c->v[k];
			if (x->start < q->end)
				continue;
			if (!is_cite(x) || x->start - q->end > 4)
				break;
			size_t g = q->end;
			while (g < x->start && (sw__claims_at(sc, g) == ' ' || sw__claims_at(sc, g) == '('))
				g++;
			if (g == x->start)
				found = (long)k;
			break;
		}
		if (found < 0 && citation_sentence(sc, m, qs + 1)) {
			size_t k = first_at(c, c->sentences[qs + 1].start);
			while (k < c->n && !is_cite(&c->v[k]))
				k++;
			if (k < c->n)
				found = (long)k;
		}
		if (found < 0)
			found = before;
		q->attributed_to = found;
	}
}

/* ------------------------------------------------------ fields, appended */

/* Replace claim x's fields by n fields: keep[] of the old ones (or of
 * from's), then the extra name/value pairs. */
static void set_fields(struct sw_claims *c, struct sw_claim *x, const struct sw_claim_field *f,
		       size_t nf, const char *const *names, const char *const *values, size_t nextra)
{
	size_t n = nf + nextra;
	if (n > SW_CLAIM_MAX_FIELDS)
		n = SW_CLAIM_MAX_FIELDS;
	struct sw_claim_field *v = sw_arena_alloc(&c->arena, (n ? n : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < nf && k < n; i++)
		v[k++] = f[i];
	for (size_t i = 0; i < nextra && k < n; i++) {
		v[k].name = names[i];
		v[k].value = sw_arena_strndup(&c->arena, values[i], strlen(values[i]));
		k++;
	}
	x->fields = v;
	x->nfields = k;
}

/* ------------------------------------------------------------ record id. */

static bool pin_field(const char *name)
{
	static const char *const pins[] = { "page", "page_end", "line", "line_end", "paragraph",
					    "paragraph_end", "pin", NULL };
	for (const char *const *p = pins; *p; p++)
		if (!strcmp(name, *p))
			return true;
	return false;
}

/* The length of a dash at s (-, en or em dash), or 0. */
static size_t dash_len(const char *s)
{
	if (*s == '-')
		return 1;
	if ((unsigned char)s[0] == 0xE2 && (unsigned char)s[1] == 0x80 &&
	    ((unsigned char)s[2] == 0x93 || (unsigned char)s[2] == 0x94))
		return 3;
	return 0;
}

/* Digits at *s into out (at most 15); advances *s.  False when none. */
static bool take_num(const char **s, char *out)
{
	size_t n = 0;
	while (sw__claims_digit((unsigned char)**s) && n < 15)
		out[n++] = *(*s)++;
	out[n] = 0;
	return n > 0;
}

/* An id. pin read as a record pin: "at 3", "at 3-4", "at 12:3-5",
 * "12:25-13:2", "¶ 4", "¶¶ 3-5".  Names and values into the arrays; returns
 * how many. */
static size_t record_pin(const char *pin, const char **names, char vals[][16])
{
	const char *p = pin;
	size_t n = 0;
	if (!strncmp(p, "at", 2) && !sw__claims_alpha((unsigned char)p[2]))
		p += 2;
	while (*p == ' ')
		p++;
	if (!strncmp(p, "pp. ", 4))
		p += 4;
	else if (!strncmp(p, "p. ", 3))
		p += 3;
	if (!strncmp(p, "\xC2\xB6", 2)) {
		p += 2;
		if (!strncmp(p, "\xC2\xB6", 2))
			p += 2;
		while (*p == ' ')
			p++;
		if (!take_num(&p, vals[n]))
			return 0;
		names[n++] = "paragraph";
		size_t d = dash_len(p);
		if (d && sw__claims_digit((unsigned char)p[d])) {
			p += d;
			take_num(&p, vals[n]);
			names[n++] = "paragraph_end";
		}
		return n;
	}
	if (*p == '*')
		p++;
	if (!take_num(&p, vals[n]))
		return 0;
	names[n++] = "page";
	if (*p == ':' && sw__claims_digit((unsigned char)p[1])) {
		p++;
		take_num(&p, vals[n]);
		names[n++] = "line";
	}
	size_t d = dash_len(p);
	if (d && sw__claims_digit((unsigned char)p[d])) {
		p += d;
		char v[16];
		take_num(&p, v);
		if (n == 2 && *p == ':' && sw__claims_digit((unsigned char)p[1])) {
			/* 12:25-13:2 */
			memcpy(vals[n], v, sizeof(v));
			names[n++] = "page_end";
			p++;
			take_num(&p, vals[n]);
			names[n++] = "line_end";
		} else {
			memcpy(vals[n], v, sizeof(v));
			names[n] = n == 1 ? "page_end" : "line_end";
			n++;
		}
	}
	return n;
}

/* Id. after a record cite or a Bates number repeats that document: it gets
 * the document's fields (label, number, witness, prefix...), with its own
 * pin read as pages, lines or paragraphs, or the cite's pin when it has
 * none. */
static void record_ids(struct sw_claims *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct sw_claim *x = &c->v[i];
		if (x->form != SW_FORM_ID || x->resolves_to < 0 ||
		    (x->kind != SW_CLAIM_RECORD && x->kind != SW_CLAIM_BATES))
			continue;
		const struct sw_claim *y = &c->v[x->resolves_to];
		const char *pin = sw_claim_get(x, "pin");
		const char *names[8];
		const char *values[8];
		char vals[6][16];
		struct sw_claim_field f[SW_CLAIM_MAX_FIELDS];
		size_t nf = 0, ne = 0;
		for (size_t k = 0; k < y->nfields && nf < SW_CLAIM_MAX_FIELDS; k++)
			if (!pin || !pin_field(y->fields[k].name))
				f[nf++] = y->fields[k];
		if (pin) {
			size_t np = record_pin(pin, names, vals);
			for (size_t k = 0; k < np; k++)
				values[k] = vals[k];
			ne = np;
			names[ne] = "pin";
			values[ne++] = pin;
		}
		set_fields(c, x, f, nf, names, values, ne);
	}
}

/* ------------------------------------------------------- Bates positions */

/* A signal just before i: See, see also, Cf., e.g., accord... */
static bool after_signal(const struct sw__claims_scan *sc, size_t i, size_t floor)
{
	size_t e = sw__claims_ws_back(sc, i, floor);
	while (e > floor && (sw__claims_at(sc, e - 1) == ',' || sw__claims_at(sc, e - 1) == '.'))
		e--;
	size_t s = e;
	while (s > floor && sw__claims_alpha(sw__claims_at(sc, s - 1)))
		s--;
	static const char *const w[] = { "See", "see", "also", "Cf", "cf", "g", "accord",
					 "Accord", "generally", "Compare", "compare", "Contra",
					 "contra", "citing", "quoting", NULL };
	return s < e && sw__claims_word_in(sc, s, e, w);
}

/* The parenthesis around i (within the sentence from floor): the content's
 * bounds, or false. */
static bool enclosing_paren(const struct sw__claims_scan *sc, size_t i, size_t floor, size_t ceil,
			    size_t *in_s, size_t *in_e)
{
	int depth = 0;
	size_t o = 0;
	bool found = false;
	for (size_t k = i, n = 0; k > floor && n < SW__CLAIMS_PAREN_MAX; k--, n++) {
		int ch = sw__claims_at(sc, k - 1);
		if (ch == ')')
			depth++;
		else if (ch == '(' && depth-- == 0) {
			o = k;
			found = true;
			break;
		}
	}
	if (!found)
		return false;
	depth = 0;
	for (size_t k = i, n = 0; k < ceil && n < SW__CLAIMS_PAREN_MAX; k++, n++) {
		int ch = sw__claims_at(sc, k);
		if (ch == '(')
			depth++;
		else if (ch == ')' && depth-- == 0) {
			*in_s = o;
			*in_e = k;
			return true;
		}
	}
	return false;
}

static void bates_positions(const struct sw__claims_scan *sc, struct cite_memo *m)
{
	struct sw_claims *c = sc->out;
	for (size_t i = 0; i < c->n; i++) {
		struct sw_claim *x = &c->v[i];
		if (x->kind != SW_CLAIM_BATES)
			continue;
		size_t floor = x->sentence < c->nsentences ? c->sentences[x->sentence].start : 0;
		size_t ceil = x->sentence < c->nsentences ? c->sentences[x->sentence].end : sc->n;
		if (floor > x->start)
			floor = x->start;
		if (ceil < x->end)
			ceil = x->end;
		size_t ps, pe;
		bool cite = x->form == SW_FORM_ID || after_signal(sc, x->start, floor) ||
			    citation_sentence(sc, m, x->sentence) ||
			    (enclosing_paren(sc, x->start, floor, ceil, &ps, &pe) &&
			     cite_only(sc, ps, pe));
		const char *names[] = { "position" };
		const char *values[] = { cite ? "citation" : "text" };
		set_fields(c, x, x->fields, x->nfields, names, values, 1);
	}
}

/* ------------------------------------------------ claims inside quotations */

/* Claims a quotation looks at for its contents, at most. */
#define SW__CLAIMS_QUOTE_MEMBERS 1024

/* Whether claim x carries field name. */
static bool has_field(const struct sw_claim *x, const char *name)
{
	return sw_claim_get(x, name) != NULL;
}

/* Every claim inside a quotation's quoted text gets in_quote=true: a
 * citation or a date there is part of the quoted words ("[T]he plain
 * language of Rule 56(c) mandates..."), not the draft's own claim.  Not
 * marked: quotations themselves, a citation some quotation is attributed
 * to (the "(ACME0000003.)" after an inline quotation inside a block), and
 * a citation sentence or a citation that ends a block quotation (its
 * source). */
static void quote_members(const struct sw__claims_scan *sc, struct cite_memo *m)
{
	struct sw_claims *c = sc->out;
	bool *source = sw_xcalloc(c->n + 1, sizeof(*source));
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].kind == SW_CLAIM_QUOTE && c->v[i].attributed_to >= 0)
			source[c->v[i].attributed_to] = true;
	for (size_t i = 0; i < c->n; i++) {
		const struct sw_claim *q = &c->v[i];
		if (q->kind != SW_CLAIM_QUOTE)
			continue;
		bool block = has_field(q, "block");
		size_t s = q->cite_start, e = q->cite_end;
		for (size_t k = i + 1; k < c->n && k < i + SW__CLAIMS_QUOTE_MEMBERS && c->v[k].start < e;
		     k++) {
			struct sw_claim *x = &c->v[k];
			if (x->kind == SW_CLAIM_QUOTE || x->start < s || x->end > e || source[k] ||
			    has_field(x, "in_quote"))
				continue;
			/* a block's source: its last citation sentence, or a cite
			 * that ends it ("... PO 4471 (ACME0000003).") */
			if (block && is_cite(x) &&
			    (x->end + 3 >= e || (x->sentence < c->nsentences &&
						 citation_sentence(sc, m, x->sentence) &&
						 c->sentences[x->sentence].end + 4 >= e)))
				continue;
			const char *names[] = { "in_quote" };
			const char *values[] = { "true" };
			set_fields(c, x, x->fields, x->nfields, names, values, 1);
		}
	}
	free(source);
}

/* ----------------------------------------------------------- bare rules */

/* A bare "Rule 56(c)" outside a quotation, after a citation of the
 * Federal Rules in the same text, is a rule of that code, as id. is for
 * a case: it resolves to the nearest such citation and takes its code.
 * After citations of two codes (Fed. R. Civ. P. 56, Fed. R. Evid. 702) it
 * takes the one whose nearest citation has its rule number, else stays
 * bare. */
static void bare_rules(struct sw_claims *c)
{
	long last[8]; /* the newest full citation of each federal code seen */
	size_t ncodes = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct sw_claim *x = &c->v[i];
		if (x->kind != SW_CLAIM_RULE || has_field(x, "in_quote"))
			continue;
		const char *code = sw_claim_get(x, "code");
		if (!code)
			continue;
		if (x->form == SW_FORM_FULL && !strncmp(code, "Fed. R. ", 8)) {
			size_t k = 0;
			while (k < ncodes && strcmp(sw_claim_get(&c->v[last[k]], "code"), code))
				k++;
			if (k == ncodes && ncodes < SW_ARRAY_LEN(last))
				ncodes++;
			if (k < ncodes)
				last[k] = (long)i;
			continue;
		}
		if (x->form != SW_FORM_BARE || strcmp(code, "Rule") || !ncodes)
			continue;
		long to = ncodes == 1 ? last[0] : -1;
		const char *rule = sw_claim_get(x, "rule");
		for (size_t k = 0; k < ncodes && ncodes > 1 && rule; k++) {
			const char *r = sw_claim_get(&c->v[last[k]], "rule");
			if (r && !strcmp(r, rule)) {
				if (to >= 0) {
					to = -1;
					break;
				}
				to = last[k];
			}
		}
		if (to < 0)
			continue;
		/* the fields, the code replaced */
		struct sw_claim_field f[SW_CLAIM_MAX_FIELDS];
		size_t nf = 0;
		for (size_t k = 0; k < x->nfields && nf < SW_CLAIM_MAX_FIELDS; k++)
			if (strcmp(x->fields[k].name, "code"))
				f[nf++] = x->fields[k];
		const char *names[] = { "code", "code_written" };
		const char *values[] = { sw_claim_get(&c->v[to], "code"), code };
		set_fields(c, x, f, nf, names, values, 2);
		x->resolves_to = to;
	}
}

void sw__claims_link(struct sw__claims_scan *sc, signed char *memo)
{
	struct sw_claims *c = sc->out;
	struct cite_memo m = { memo };
	record_ids(c);
	attribute_quotes(sc, &m);
	bates_positions(sc, &m);
	quote_members(sc, &m);
	bare_rules(c);
}
