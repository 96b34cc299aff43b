/*
 * uncited.c - what a draft asserts without a citation, and what it lacks.
 * A sentence that states a checkable fact (a date, an amount, a quantity, a
 * percentage, an identifier: claims.h's fact rules) and has no citation of
 * its own (a record cite, a Bates number, a case, a statute or rule) nor a
 * citation sentence right after it is `uncited`, with its facts named.
 * Not facts to cite: headings and captions (a line with no sentence's end),
 * signature blocks and the perjury clause ("under penalty of perjury",
 * "Executed on", "Dated:", "/s/"), and the draft's own definitions
 * (`("Redhawk")`, "hereinafter").  A task's required elements are looked
 * for in the whole text, case and spacing folded.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/verify_int.h"

#define UNCITED_FACTS 6 /* facts named per sentence */

const char *sw_uncited_mode_name(enum sw_uncited_mode m)
{
	return m == SW_UNCITED_BLOCK ? "block" : m == SW_UNCITED_OFF ? "off" : "warn";
}

int sw_uncited_mode_parse(const char *s)
{
	if (!s)
		return -1;
	if (strcmp(s, "warn") == 0)
		return SW_UNCITED_WARN;
	if (strcmp(s, "block") == 0)
		return SW_UNCITED_BLOCK;
	if (strcmp(s, "off") == 0)
		return SW_UNCITED_OFF;
	return -1;
}

static bool cites(enum sw_claim_kind k)
{
	return k == SW_CLAIM_RECORD || k == SW_CLAIM_BATES || k == SW_CLAIM_CASE ||
	       k == SW_CLAIM_STATUTE || k == SW_CLAIM_RULE || k == SW_CLAIM_JOURNAL;
}

/* Whether [s, e) of t holds phrase ph (n bytes), case and runs of blanks
 * folded. */
static bool holds(const char *t, size_t s, size_t e, const char *ph, size_t n)
{
	for (size_t i = s; i < e; i++) {
		size_t a = i, b = 0;
		while (a < e && b < n) {
			if (isspace((unsigned char)ph[b])) {
				if (!isspace((unsigned char)t[a]))
					break;
				while (a < e && isspace((unsigned char)t[a]))
					a++;
				while (b < n && isspace((unsigned char)ph[b]))
					b++;
				continue;
			}
			if (tolower((unsigned char)t[a]) != tolower((unsigned char)ph[b]))
				break;
			a++;
			b++;
		}
		if (b == n)
			return true;
	}
	return false;
}

/* Whether sentence [s, e) is no assertion to cite: a heading or caption, a
 * signature block, the perjury clause, a definition. */
static bool exempt(const char *t, size_t s, size_t e)
{
	static const char *const marks[] = {
		"penalty of perjury", "executed on", "dated:", "/s/", "respectfully submitted",
		"hereinafter", "(\"", "(\xe2\x80\x9c", "(the \"", "(the \xe2\x80\x9c",
		"certificate of service", "civil action no", "case no.",
	};
	for (size_t k = 0; k < SW_ARRAY_LEN(marks); k++)
		if (holds(t, s, e, marks[k], strlen(marks[k])))
			return true;
	size_t up = 0, letters = 0, words = 0;
	for (size_t i = s; i < e; i++) {
		if (isalpha((unsigned char)t[i])) {
			letters++;
			up += isupper((unsigned char)t[i]) != 0;
			words += i == s || !isalpha((unsigned char)t[i - 1]);
		}
	}
	if (letters >= 8 && up * 10 >= letters * 6)
		return true; /* a caption or a heading in capitals */
	size_t z = e;
	while (z > s && (isspace((unsigned char)t[z - 1]) || t[z - 1] == '"' || t[z - 1] == ')' ||
			 (unsigned char)t[z - 1] >= 0x80))
		z--;
	/* a line that does not end as a sentence does: a heading, a caption,
	 * a table's header, a signature line */
	if (z > s && t[z - 1] == ':')
		return true; /* it introduces what follows: a block quotation, a list */
	return z == s || (words < 6 && !(t[z - 1] == '.' || t[z - 1] == '!' ||
					 t[z - 1] == '?' || t[z - 1] == ';'));
}

/* Per sentence, where its first citing claim starts (SIZE_MAX: none), in
 * one pass over the claims, so that "is it cited" costs nothing per
 * sentence (a scan of every claim per sentence made a 100,000-claim draft
 * quadratic). */
static size_t *first_cites(const struct sw_claims *cl)
{
	size_t *first = sw_xcalloc(cl->nsentences + 1, sizeof(*first));
	for (size_t s = 0; s <= cl->nsentences; s++)
		first[s] = SIZE_MAX;
	for (size_t k = 0; k < cl->n; k++) {
		const struct sw_claim *c = &cl->v[k];
		if (cites(c->kind) && c->sentence < cl->nsentences && c->start < first[c->sentence])
			first[c->sentence] = c->start;
	}
	return first;
}

/* Whether sentence s or the citation sentence right after it cites
 * anything: "... steel. (Pl. Ex. 4.)" */
static bool cited(const struct sw_claims *cl, const size_t *first, size_t s)
{
	if (s < cl->nsentences && first[s] != SIZE_MAX)
		return true;
	return s + 1 < cl->nsentences && first[s + 1] != SIZE_MAX &&
	       first[s + 1] <= cl->sentences[s + 1].start + 16;
}

/* What the identifier questions below may cost: the identifiers of the
 * text found once (folded: case, runs of blanks), sorted, to answer from
 * when another of them is the same; else a search of the text, exact,
 * while the budget of bytes to search lasts.  Without it a draft of
 * thousands of uncited identifiers (each searched for in the whole text)
 * cost time quadratic in its size: 5,000 sentences, 0.2 MB, 2.9 s. */
#define UNCITED_SCAN_BUDGET ((size_t)128 << 20)
#define UNCITED_SCAN_PER_BYTE 16

struct id_seen {
	char *key;
	size_t start, end;
	bool cited;  /* one of the same key lies in a proposition */
};

struct ids {
	struct id_seen *v;
	size_t n;
	size_t budget;       /* bytes the exact searches may still read */
	size_t p0;           /* the first proposition (they come last) */
	size_t prop_bytes;   /* the propositions' text, what one search reads */
};

static char *fold_key(const char *t, size_t s, size_t e)
{
	char *k = sw_xmalloc(e - s + 1);
	size_t n = 0;
	for (size_t i = s; i < e; i++) {
		if (isspace((unsigned char)t[i])) {
			if (n && k[n - 1] != ' ')
				k[n++] = ' ';
			continue;
		}
		k[n++] = (char)tolower((unsigned char)t[i]);
	}
	while (n && k[n - 1] == ' ')
		n--;
	k[n] = '\0';
	return k;
}

static int id_cmp(const void *a, const void *b)
{
	const struct id_seen *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->start < y->start ? -1 : x->start > y->start;
}

/* Whether [a, b) lies within a proposition of r: they are sentences, in
 * order of start, from d->p0 on. */
static bool in_proposition(const struct sw_claims *cl, size_t p0, size_t a, size_t b)
{
	size_t lo = p0, hi = cl->n;
	while (lo < hi) { /* the first that starts after a */
		size_t mid = lo + (hi - lo) / 2;
		if (cl->v[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k-- > p0 && cl->v[k].end > a;)
		if (b <= cl->v[k].end)
			return true;
	return false;
}

static struct ids ids_find(const struct sw_verify_report *r)
{
	const struct sw_claims *cl = &r->claims;
	struct ids d = { .budget = UNCITED_SCAN_BUDGET + UNCITED_SCAN_PER_BYTE * r->len,
			 .p0 = cl->n };
	size_t cap = 0, pos = 0;
	struct sw_fact_token tok;
	while (sw_claims_next_fact(&tok, r->text, r->len, &pos)) {
		if (tok.kind != SW_FACT_IDENTIFIER)
			continue;
		d.v = sw_xgrow(d.v, &cap, d.n + 1, sizeof(*d.v));
		d.v[d.n++] = (struct id_seen){ .key = fold_key(r->text, tok.start, tok.end),
					       .start = tok.start, .end = tok.end };
	}
	if (d.n)
		qsort(d.v, d.n, sizeof(*d.v), id_cmp);
	while (d.p0 > 0 && cl->v[d.p0 - 1].kind == SW_CLAIM_PROPOSITION)
		d.p0--;
	for (size_t k = d.p0; k < cl->n; k++)
		d.prop_bytes += cl->v[k].end - cl->v[k].start;
	/* per key: whether any of its places is in a proposition */
	for (size_t g = 0, k; g < d.n; g = k) {
		bool cited = false;
		for (k = g; k < d.n && strcmp(d.v[k].key, d.v[g].key) == 0; k++)
			cited = cited || in_proposition(cl, d.p0, d.v[k].start, d.v[k].end);
		for (size_t j = g; j < k; j++)
			d.v[j].cited = cited;
	}
	return d;
}

static void ids_release(struct ids *d)
{
	for (size_t k = 0; k < d->n; k++)
		free(d->v[k].key);
	free(d->v);
}

/* The first identifier of d whose key is key's, or d->n. */
static size_t ids_first(const struct ids *d, const char *key)
{
	size_t lo = 0, hi = d->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(d->v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether the budget allows an exact search of cost bytes (and takes them). */
static bool may_search(struct ids *d, size_t cost)
{
	if (cost > d->budget)
		return false;
	d->budget -= cost;
	return true;
}

/* Whether the identifier [s, e) of the text is also in a sentence that
 * cites the record (a proposition): "BC-04 illustrates the problem" names
 * what the draft establishes elsewhere with its citation. */
static bool cited_elsewhere(const struct sw_verify_report *r, struct ids *d, size_t s, size_t e)
{
	const struct sw_claims *cl = &r->claims;
	char *key = fold_key(r->text, s, e);
	size_t first = ids_first(d, key);
	bool found = first < d->n && strcmp(d->v[first].key, key) == 0 && d->v[first].cited;
	free(key);
	if (found || !may_search(d, d->prop_bytes))
		return found;
	for (size_t k = d->p0; k < cl->n; k++) {
		const struct sw_claim *c = &cl->v[k];
		if (c->end - c->start >= e - s &&
		    holds(r->text, c->start, c->end, r->text + s, e - s))
			return true;
	}
	return false;
}

/* Whether the identifier [s, e) is named elsewhere in the text too: a
 * thing the draft discusses (a topic sentence, a conclusion), not a fact
 * it asserts once. */
static bool named_twice(const struct sw_verify_report *r, struct ids *d, size_t s, size_t e)
{
	char *key = fold_key(r->text, s, e);
	bool found = false;
	/* identifiers do not overlap: of the first two with its key, one that
	 * is not this one is elsewhere */
	size_t k = ids_first(d, key);
	for (size_t j = k; j < k + 2 && j < d->n && !found && strcmp(d->v[j].key, key) == 0; j++)
		found = d->v[j].end <= s || d->v[j].start >= e;
	free(key);
	if (found || !may_search(d, r->len))
		return found;
	return holds(r->text, 0, s, r->text + s, e - s) ||
	       holds(r->text, e, r->len, r->text + s, e - s);
}

static void add_fact(struct sw_buf *b, size_t *n, const char *t, size_t s, size_t e)
{
	if (*n >= UNCITED_FACTS)
		return;
	sw_buf_addf(b, "%s%.*s", b->len ? ", " : "", (int)(e - s), t + s);
	(*n)++;
}

/* The date claims of each sentence, in claim order: those of sentence s
 * are v[at[s]] to v[at[s + 1] - 1] (a scan of every claim for each
 * uncited sentence made a draft of them quadratic). */
struct by_sentence {
	size_t *at, *v;
};

static struct by_sentence dates_by_sentence(const struct sw_claims *cl)
{
	struct by_sentence d = { sw_xcalloc(cl->nsentences + 2, sizeof(size_t)),
				 sw_xcalloc(cl->n + 1, sizeof(size_t)) };
	for (size_t k = 0; k < cl->n; k++)
		if (cl->v[k].kind == SW_CLAIM_DATE && cl->v[k].sentence < cl->nsentences)
			d.at[cl->v[k].sentence + 2]++;
	for (size_t s = 2; s < cl->nsentences + 2; s++)
		d.at[s] += d.at[s - 1];
	/* at[s + 1] counts up through sentence s's dates as they are placed */
	for (size_t k = 0; k < cl->n; k++)
		if (cl->v[k].kind == SW_CLAIM_DATE && cl->v[k].sentence < cl->nsentences)
			d.v[d.at[cl->v[k].sentence + 1]++] = k;
	return d;
}

static void uncited_pass(struct sw_verify_report *r)
{
	const struct sw_claims *cl = &r->claims;
	const char *t = r->text;
	size_t *first = first_cites(cl);
	struct by_sentence dates = dates_by_sentence(cl);
	struct ids ids = ids_find(r);
	for (size_t s = 0; s < cl->nsentences; s++) {
		const struct sw_sentence *se = &cl->sentences[s];
		/* cited first: it is one look-up, exempt() a dozen searches */
		if (se->end <= se->start || se->end > r->len || cited(cl, first, s) ||
		    exempt(t, se->start, se->end))
			continue;
		struct sw_buf facts = SW_BUF_INIT;
		size_t n = 0;
		for (size_t k = dates.at[s]; k < dates.at[s + 1]; k++)
			add_fact(&facts, &n, t, cl->v[dates.v[k]].start, cl->v[dates.v[k]].end);
		struct sw_fact_token tok;
		size_t pos = 0;
		while (sw_claims_next_fact(&tok, t + se->start, se->end - se->start, &pos))
			if (!(tok.kind == SW_FACT_IDENTIFIER &&
			      (cited_elsewhere(r, &ids, se->start + tok.start,
					       se->start + tok.end) ||
			       cited(cl, first, s + 1) ||
			       named_twice(r, &ids, se->start + tok.start, se->start + tok.end))))
				add_fact(&facts, &n, t, se->start + tok.start, se->start + tok.end);
		if (!n) {
			sw_buf_release(&facts);
			continue;
		}
		r->uncited = sw_xrealloc(r->uncited, (r->nuncited + 1) * sizeof(*r->uncited));
		r->uncited[r->nuncited++] = (struct sw_verify_uncited){
			se->start, se->end, sw_buf_detach(&facts, NULL)
		};
	}
	free(first);
	free(dates.at);
	free(dates.v);
	ids_release(&ids);
}

static void elements_pass(struct sw_verify_report *r, const struct sw_verify_opts *o)
{
	for (size_t k = 0; k < o->nelements; k++) {
		const char *m = o->elements[k].match;
		bool found = false;
		while (m && *m && !found) {
			const char *bar = strchr(m, '|');
			size_t n = bar ? (size_t)(bar - m) : strlen(m);
			while (n && isspace((unsigned char)*m)) {
				m++;
				n--;
			}
			while (n && isspace((unsigned char)m[n - 1]))
				n--;
			found = n && holds(r->text, 0, r->len, m, n);
			m = bar ? bar + 1 : NULL;
		}
		if (!found) {
			r->missing =
				sw_xrealloc(r->missing, (r->nmissing + 1) * sizeof(*r->missing));
			r->missing[r->nmissing++] = sw_xstrdup(o->elements[k].name);
		}
	}
}

void sw__verify_uncited(struct sw_verify_report *r, const struct sw_verify_opts *o)
{
	r->uncited_mode = o ? o->uncited : SW_UNCITED_WARN;
	if (r->uncited_mode != SW_UNCITED_OFF)
		uncited_pass(r);
	if (o && o->nelements)
		elements_pass(r, o);
	if (o && o->need_record) {
		bool any = false;
		for (size_t k = 0; k < r->claims.n && !any; k++)
			any = r->claims.v[k].kind == SW_CLAIM_RECORD ||
			      r->claims.v[k].kind == SW_CLAIM_BATES;
		r->no_record = !any;
	}
}

bool sw__verify_uncited_blocks(const struct sw_verify_report *r)
{
	return (r->uncited_mode == SW_UNCITED_BLOCK && r->nuncited) || r->nmissing || r->no_record;
}

void sw__verify_uncited_release(struct sw_verify_report *r)
{
	for (size_t k = 0; k < r->nuncited; k++)
		free(r->uncited[k].facts);
	free(r->uncited);
	for (size_t k = 0; k < r->nmissing; k++)
		free(r->missing[k]);
	free(r->missing);
}
