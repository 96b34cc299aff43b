/*
 * claims_finish.c - what happens after the scan: document order,
 * sentences and the resolution of short forms (references by name are in
 * claims_refs.c, what ties claims to each other in claims_link.c).
 */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

static int cmp_claim(const void *a, const void *b)
{
	const struct sw_claim *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* the enclosing claim first */
	return x->cite_start < y->cite_start ? -1 : x->cite_start > y->cite_start;
}

/* Sort claims, keeping parallel_to and resolves_to pointing at the same
 * claims: each claim carries its old index in `sentence` for the move. */
static void sort_claims(struct sw_claims *c)
{
	for (size_t i = 0; i < c->n; i++)
		c->v[i].sentence = i;
	/* The scan pushes claims nearly in order (a quotation after the
	 * citations inside it): a stable insertion sort does that in about
	 * linear time, and gives what glibc's stable merge sort gives.  Past
	 * a bound of moves (a hostile text) the merge sort finishes it. */
	size_t moves = 0, bound = 16 * c->n + 1024;
	for (size_t i = 1; i < c->n && moves <= bound; i++) {
		if (cmp_claim(&c->v[i - 1], &c->v[i]) <= 0)
			continue;
		struct sw_claim x = c->v[i];
		size_t j = i;
		while (j > 0 && cmp_claim(&c->v[j - 1], &x) > 0) {
			c->v[j] = c->v[j - 1];
			j--;
			moves++;
		}
		c->v[j] = x;
	}
	if (moves > bound)
		qsort(c->v, c->n, sizeof(*c->v), cmp_claim);
	size_t *where = sw_xmalloc((c->n + 1) * sizeof(*where));
	for (size_t i = 0; i < c->n; i++)
		where[c->v[i].sentence] = i;
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].parallel_to >= 0)
			c->v[i].parallel_to = (long)where[c->v[i].parallel_to];
		if (c->v[i].resolves_to >= 0)
			c->v[i].resolves_to = (long)where[c->v[i].resolves_to];
		c->v[i].sentence = 0;
	}
	free(where);
}

static bool is_citation(const struct sw_claim *c)
{
	return c->kind != SW_CLAIM_DATE && c->kind != SW_CLAIM_QUOTE;
}

/* ------------------------------------------------------------- sentences */

static bool abbreviation(const struct sw__claims_scan *sc, size_t dot)
{
	size_t s = dot;
	while (s > 0 && (sw__claims_alpha(sw__claims_at(sc, s - 1)) || sw__claims_at(sc, s - 1) == '\''))
		s--;
	size_t n = dot - s;
	if (n == 0)
		return sw__claims_digit(sw__claims_at(sc, dot - 1)) && sw__claims_digit(sw__claims_at(sc, dot + 1));
	if (n == 1)
		return true; /* initials, v. */
	if (s > 0 && sw__claims_at(sc, s - 1) == '.')
		return true; /* U.S., e.g. */
	/* sorted (strcmp order) for a binary search: this runs at every
	 * capitalised sentence start */
	static const char *const abbr[] = {
		"admin", "aff", "al", "ala", "ann", "app", "approx", "apr", "ariz", "ark",
		"art", "ass'n", "assoc", "aug", "bankr", "br", "bros", "cal", "cert", "cf",
		"ch", "cir", "civ", "cl", "cmt", "cmty", "cnty", "co", "coll", "colo",
		"comm'n", "cong", "conn", "corp", "crim", "ct", "ctr", "dec", "decl",
		"del", "dep", "depo", "dept", "dist", "div", "dkt", "doc", "dr", "ed",
		"eds", "educ", "elec", "est", "etc", "evid", "ex", "exh", "exs", "feb",
		"fed", "fin", "fla", "ga", "gen", "gov't", "haw", "hosp", "hr'g", "ibid",
		"ill", "inc", "ind", "indus", "ins", "int'l", "j", "jan", "jj", "jr",
		"jul", "jun", "kan", "ky", "l", "la", "ll", "ltd", "mar", "mass", "md",
		"mem", "mfg", "mich", "minn", "misc", "miss", "mo", "mont", "mot", "mr",
		"mrs", "ms", "mut", "n", "nat'l", "neb", "nev", "nn", "no", "nos", "nov",
		"oct", "okla", "op", "opp'n", "ord", "p", "pa", "para", "pet", "pl", "pp",
		"prods", "pt", "r", "reg", "regs", "res", "resp", "rev", "rptr", "sav",
		"sec", "secs", "sep", "sept", "seq", "ser", "servs", "sess", "sr", "st",
		"stat", "sup", "super", "supp", "sys", "tech", "tenn", "tex", "tr",
		"transp", "twp", "univ", "v", "va", "viz", "vol", "vs", "vt", "wash",
		"wis", "wyo",
	};
	char w[16];
	if (n >= sizeof(w))
		return false;
	for (size_t i = 0; i < n; i++) {
		int c = sw__claims_at(sc, s + i);
		w[i] = (char)(sw__claims_upper(c) ? c + 32 : c);
	}
	w[n] = 0;
	size_t lo = 0, hi = SW_ARRAY_LEN(abbr);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(w, abbr[mid]);
		if (!d)
			return true;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* Closing marks after a sentence's final stop: ) ] " ' ” ’ */
static size_t closers(const struct sw__claims_scan *sc, size_t i)
{
	for (int n = 0; n < 4; n++) {
		int c = sw__claims_at(sc, i);
		if (c == ')' || c == ']' || c == '"' || c == '\'')
			i++;
		else if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 &&
			 (sw__claims_at(sc, i + 2) == 0x9D || sw__claims_at(sc, i + 2) == 0x99))
			i += 3;
		else
			break;
	}
	return i;
}

static bool opener(const struct sw__claims_scan *sc, size_t i)
{
	int c = sw__claims_at(sc, i);
	return sw__claims_upper(c) || c == '(' || c == '[' || c == '"' || c == '\'' || c == '>' ||
	       (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 && (sw__claims_at(sc, i + 2) == 0x9C ||
							  sw__claims_at(sc, i + 2) == 0x98)) ||
	       (c == 0xC2 && (sw__claims_at(sc, i + 1) == 0xA7 || sw__claims_at(sc, i + 1) == 0xB6));
}

/* A list item starts at n after a line break in [e, n): "- ", "* ", "1. " */
static bool list_item(const struct sw__claims_scan *sc, size_t e, size_t n)
{
	if (!memchr(sc->t + e, '\n', n - e))
		return false;
	int c = sw__claims_at(sc, n);
	if ((c == '-' || c == '*' || c == '+') && sw__claims_at(sc, n + 1) == ' ')
		return true;
	size_t d = sw__claims_digits(sc, n);
	return d > n && d - n <= 4 && (sw__claims_at(sc, d) == '.' || sw__claims_at(sc, d) == ')') &&
	       sw__claims_at(sc, d + 1) == ' ';
}

/* Whether the line at b opens an entry of a line-oriented list: a list
 * marker, or a date claim at its start ("June 6, 2022 - ...", "6/6/2022:"). */
static bool entry_line(const struct sw__claims_scan *sc, size_t b)
{
	int c = sw__claims_at(sc, b);
	if ((c == '-' || c == '*' || c == '+') && sw__claims_at(sc, b + 1) == ' ')
		return true;
	size_t d = sw__claims_digits(sc, b);
	if (d > b && d - b <= 3 && (sw__claims_at(sc, d) == '.' || sw__claims_at(sc, d) == ')') &&
	    sw__claims_at(sc, d + 1) == ' ')
		return true;
	const struct sw_claims *cl = sc->out;
	size_t lo = 0, hi = cl->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cl->v[mid].start < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cl->n && cl->v[lo].start == b && cl->v[lo].kind == SW_CLAIM_DATE;
}

static void add_sentence(struct sw_claims *c, size_t s, size_t e)
{
	if (e <= s)
		return;
	c->sentences = sw_xgrow(c->sentences, &c->sentences_cap, c->nsentences + 1,
				sizeof(*c->sentences));
	c->sentences[c->nsentences].start = s;
	c->sentences[c->nsentences].end = e;
	c->nsentences++;
}

/* Whether the stop at dot ends a paragraph number that opens its line
 * ("100." of "100. The order"): up to four digits after the line's
 * blanks. */
static bool para_number(const struct sw__claims_scan *sc, size_t dot)
{
	size_t d = dot;
	while (d > 0 && sw__claims_digit(sw__claims_at(sc, d - 1)) && dot - d < 5)
		d--;
	if (d == dot || dot - d > 4)
		return false;
	size_t b = d;
	while (b > 0 && (sw__claims_at(sc, b - 1) == ' ' || sw__claims_at(sc, b - 1) == '\t'))
		b--;
	return (b == 0 || sw__claims_at(sc, b - 1) == '\n') && sw__claims_at(sc, dot + 1) == ' ';
}

/* When a parenthesis opens at n and holds a citation claim (from claim k
 * on), closing before the next sentence starts ("(CRV0000009) Hale ..."):
 * the end past its ")", else 0. */
static size_t cite_after(const struct sw__claims_scan *sc, size_t n, size_t k)
{
	const struct sw_claims *c = sc->out;
	if (sw__claims_at(sc, n) != '(')
		return 0;
	size_t close = 0;
	for (size_t i = n + 1; i < sc->n && i < n + 400 && !close; i++) {
		int ch = sw__claims_at(sc, i);
		if (ch == '(' || ch == '\n')
			return 0;
		if (ch == ')')
			close = i + 1;
	}
	/* its own stop ("(ACME0000003.)" or "(CRV0000009).") is a sentence
	 * already */
	if (!close || sw__claims_at(sc, close - 2) == '.' || sw__claims_at(sc, close) == '.')
		return 0;
	for (; k < c->n && c->v[k].start < close; k++)
		if (c->v[k].start > n && is_citation(&c->v[k]) && c->v[k].cite_end <= close)
			return close;
	return 0;
}

static void sentences(struct sw__claims_scan *sc)
{
	struct sw_claims *c = sc->out;
	size_t s = sw__claims_ws(sc, 0), k = 0, cover = 0;
	static const bool stop[256] = { ['.'] = true, ['?'] = true, ['!'] = true, ['\n'] = true };
	for (size_t i = s; i < sc->n; i++) {
		while (i < sc->n && !stop[(unsigned char)sc->t[i]])
			i++;
		if (i >= sc->n)
			break;
		int ch = (unsigned char)sc->t[i];
		/* no boundary inside a citation (its periods are abbreviations) */
		while (k < c->n && c->v[k].start <= i) {
			if (is_citation(&c->v[k]) && c->v[k].cite_end > cover)
				cover = c->v[k].cite_end;
			k++;
		}
		if (ch == '\n') {
			size_t b = sw__claims_blanks(sc, i + 1);
			/* a chronology one entry a line: the line that ends here
			 * and the next each open an entry (a date, a list mark),
			 * so each is a sentence of its own */
			size_t ls = i;
			while (ls > s && sw__claims_at(sc, ls - 1) != '\n')
				ls--;
			ls = sw__claims_blanks(sc, ls);
			bool entries = b < sc->n && i >= cover && entry_line(sc, b) &&
				       entry_line(sc, ls);
			if (sw__claims_at(sc, b) == '\n' || b >= sc->n || entries) {
				size_t e = sw__claims_ws_back(sc, i, s);
				add_sentence(c, s, e);
				s = sw__claims_ws(sc, i);
				i = s > 0 ? s - 1 : 0;
			}
			continue;
		}
		if (i < cover)
			continue;
		size_t e = closers(sc, i + 1), n = sw__claims_ws(sc, e);
		if (n < sc->n && (n == e || (!opener(sc, n) && !list_item(sc, e, n))))
			continue;
		if (ch == '.' && abbreviation(sc, i) && n < sc->n)
			continue;
		/* "100. The order shipped ...": a paragraph's number opens its
		 * line, it ends no sentence */
		if (ch == '.' && para_number(sc, i))
			continue;
		add_sentence(c, s, e);
		s = n;
		/* "... on March 31. (Smith Dep. 3:7-8) The carrier ...": a
		 * citation in parentheses after the stop, with none of its own,
		 * is a citation sentence of the sentence before it, not the
		 * start of the next */
		size_t close = cite_after(sc, n, k);
		if (close) {
			add_sentence(c, n, close);
			s = sw__claims_ws(sc, close);
		}
		i = s > 0 ? s - 1 : 0;
	}
	add_sentence(c, s, sw__claims_ws_back(sc, sc->n, s));
	if (!c->nsentences && sc->n)
		add_sentence(c, 0, sc->n);
	/* each claim to the sentence holding its start (or the next one) */
	size_t j = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct sw_claim *x = &c->v[i];
		/* claims are sorted by start: j only moves forward */
		while (j + 1 < c->nsentences && c->sentences[j].end <= x->start)
			j++;
		x->sentence = j;
	}
}

/* ------------------------------------------------------------ resolution */

static bool same_field(const struct sw_claim *a, const struct sw_claim *b, const char *f)
{
	const char *x = sw_claim_get(a, f), *y = sw_claim_get(b, f);
	if (!x || !y)
		return !x && !y;
	return !strcmp(x, y);
}

/* The same authority: volume, reporter and page; code, title and section. */
static bool same_resource(const struct sw_claim *a, const struct sw_claim *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SW_CLAIM_CASE:
	case SW_CLAIM_JOURNAL:
		return sw_claim_get(a, "page") && same_field(a, b, "volume") &&
		       same_field(a, b, "canonical") && same_field(a, b, "page");
	case SW_CLAIM_STATUTE:
		return sw_claim_get(a, "code") && same_field(a, b, "code") &&
		       same_field(a, b, "title") && same_field(a, b, "section") &&
		       same_field(a, b, "chapter") && same_field(a, b, "page");
	case SW_CLAIM_RULE:
		return same_field(a, b, "code") && same_field(a, b, "rule");
	default:
		return false;
	}
}

/* Does the short name appear as a word in the party's name? */
static bool names_match(const char *ante, const char *party)
{
	if (!ante || !party)
		return false;
	size_t n = strlen(ante);
	for (const char *p = strstr(party, ante); p; p = strstr(p + 1, ante)) {
		bool start = p == party || !sw__claims_alnum((unsigned char)p[-1]);
		bool end = !sw__claims_alnum((unsigned char)p[n]);
		if (start && end)
			return true;
	}
	return false;
}

static bool claim_named(const struct sw_claim *x, const char *ante)
{
	return names_match(ante, sw_claim_get(x, "plaintiff")) ||
	       names_match(ante, sw_claim_get(x, "defendant")) ||
	       names_match(ante, sw_claim_get(x, "antecedent"));
}

/* A pin "at 12", "12-14", "*4": its first page, or -1. */
static long pin_page(const char *pin)
{
	if (!pin)
		return -1;
	if (!strncmp(pin, "at ", 3))
		pin += 3;
	while (*pin == ' ')
		pin++;
	if (!strncmp(pin, "p. ", 3) || !strncmp(pin, "pp. ", 4))
		pin += pin[1] == '.' ? 3 : 4;
	if (*pin == '*')
		return -2; /* a star page: no print page to compare */
	if (!sw__claims_digit((unsigned char)*pin))
		return -1;
	long v = 0;
	for (int i = 0; i < 9 && sw__claims_digit((unsigned char)pin[i]); i++)
		v = v * 10 + (pin[i] - '0');
	return v;
}

/* Hash of the fields that name an authority's volume and reporter (cases,
 * journals) or code and section (statutes, rules): short cites and
 * repeated full cites look up their candidates here instead of walking
 * every earlier claim, which made long opinions quadratic. */
static uint32_t identity_hash(const struct sw_claim *x)
{
	static const char *const keys[][3] = {
		{ "volume", "canonical", NULL }, /* case, journal */
		{ "code", "title", "section" },  /* statute */
		{ "code", "rule", NULL },        /* rule */
	};
	int k = x->kind == SW_CLAIM_STATUTE ? 1 : x->kind == SW_CLAIM_RULE ? 2 : 0;
	uint32_t h = 2166136261u ^ (uint32_t)x->kind;
	for (int f = 0; f < 3 && keys[k][f]; f++) {
		const char *v = sw_claim_get(x, keys[k][f]);
		for (; v && *v; v++) {
			h ^= (unsigned char)*v;
			h *= 16777619u;
		}
		h ^= 0x1f;
		h *= 16777619u;
	}
	return h;
}

/* Full case and journal cites by each word of their party names and
 * antecedent: a supra cite walks only the cites that share its first word,
 * newest first, instead of every earlier full cite. */
struct word_node {
	long claim;
	long next; /* older node of the same word, or -1 */
};

struct word_slot {
	uint64_t h;
	const char *w;
	size_t len;
	long head; /* newest node, -1 when the slot is empty */
};

struct word_index {
	struct word_slot *slot;
	size_t mask, used;
	struct word_node *v;
	size_t n, cap;
};

static uint64_t word_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static struct word_slot *word_slot(struct word_index *x, uint64_t h, const char *w, size_t n)
{
	for (size_t i = (size_t)h & x->mask;; i = (i + 1) & x->mask) {
		struct word_slot *s = &x->slot[i];
		if (s->head < 0 || (s->h == h && s->len == n && !memcmp(s->w, w, n)))
			return s;
	}
}

static void word_grow(struct word_index *x)
{
	size_t old = x->slot ? x->mask + 1 : 0, size = old ? old * 2 : 256;
	struct word_slot *was = x->slot;
	x->slot = sw_xmalloc(size * sizeof(*x->slot));
	for (size_t i = 0; i < size; i++)
		x->slot[i].head = -1;
	x->mask = size - 1;
	for (size_t i = 0; i < old; i++)
		if (was[i].head >= 0)
			*word_slot(x, was[i].h, was[i].w, was[i].len) = was[i];
	free(was);
}

static void word_add_name(struct word_index *x, const char *name, long claim)
{
	for (const char *p = name; p && *p;) {
		if (!sw__claims_alnum((unsigned char)*p)) {
			p++;
			continue;
		}
		const char *w = p;
		while (sw__claims_alnum((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - w);
		if ((x->used + 1) * 2 > x->mask + 1)
			word_grow(x);
		uint64_t h = word_hash(w, n);
		struct word_slot *s = word_slot(x, h, w, n);
		if (s->head >= 0 && x->v[s->head].claim == claim)
			continue; /* the word twice in one cite */
		if (s->head < 0) {
			s->h = h;
			s->w = w;
			s->len = n;
			x->used++;
		}
		x->v = sw_xgrow(x->v, &x->cap, x->n + 1, sizeof(*x->v));
		x->v[x->n].claim = claim;
		x->v[x->n].next = s->head;
		s->head = (long)x->n++;
	}
}

/* The identity hash with the page (cases, journals, session laws) and
 * chapter folded in: a repeated full cite finds its first one here. */
static uint32_t full_hash(const struct sw_claim *x, uint32_t h)
{
	const char *f[] = { sw_claim_get(x, "page"), sw_claim_get(x, "chapter") };
	for (int k = 0; k < 2; k++) {
		for (const char *v = f[k]; v && *v; v++) {
			h ^= (unsigned char)*v;
			h *= 16777619u;
		}
		h ^= 0x1e;
		h *= 16777619u;
	}
	return h;
}

struct authorities {
	long *head;   /* bucket -> newest resource of that identity hash, -1 */
	long *next;   /* claim index -> next in bucket */
	uint32_t *hash;
	long *head3;  /* the same by full_hash */
	long *next3;
	uint32_t *hash3;
	long *count;  /* resource -> resources of its volume and reporter, itself included */
	long *latest; /* resource -> its newest full cite (itself or a repeat) */
	size_t mask;
	long *fulls;  /* full case and journal cites, in order (for supra) */
	size_t nfulls;
	struct word_index words;
};

/* The newest resource with claim i's volume and reporter (code and
 * section), or -1: buckets hold other identities only on a collision. */
static long same_volume(const struct authorities *a, const struct sw_claims *c, size_t i)
{
	const struct sw_claim *x = &c->v[i];
	for (long k = a->head[a->hash[i] & a->mask]; k >= 0; k = a->next[k]) {
		const struct sw_claim *y = &c->v[k];
		if (a->hash[k] != a->hash[i] || y->kind != x->kind)
			continue;
		if (x->kind == SW_CLAIM_CASE || x->kind == SW_CLAIM_JOURNAL ?
		    same_field(x, y, "volume") && same_field(x, y, "canonical") :
		    same_field(x, y, "code") && same_field(x, y, "title") &&
		    same_field(x, y, "section") && same_field(x, y, "rule"))
			return k;
	}
	return -1;
}

static void auth_add(struct authorities *a, const struct sw_claims *c, size_t i)
{
	long same = same_volume(a, c, i);
	a->count[i] = same >= 0 ? a->count[same] + 1 : 1;
	a->latest[i] = (long)i;
	size_t b = a->hash[i] & a->mask;
	a->next[i] = a->head[b];
	a->head[b] = (long)i;
	b = a->hash3[i] & a->mask;
	a->next3[i] = a->head3[b];
	a->head3[b] = (long)i;
}

/* Full cite i, a resource or a repeat of one, as a target of the names of
 * later short forms and supra cites. */
static void names_add(struct authorities *a, const struct sw_claims *c, size_t i)
{
	const struct sw_claim *x = &c->v[i];
	if (x->kind == SW_CLAIM_CASE || x->kind == SW_CLAIM_JOURNAL) {
		a->fulls[a->nfulls++] = (long)i;
		word_add_name(&a->words, sw_claim_get(x, "plaintiff"), (long)i);
		word_add_name(&a->words, sw_claim_get(x, "defendant"), (long)i);
		word_add_name(&a->words, sw_claim_get(x, "antecedent"), (long)i);
	}
}

/* Full cites of one name word a short form or supra looks at, newest first. */
#define SW__CLAIMS_NAME_TARGETS 1024

/* The resource full cite y repeats, or y. */
static long resource_of(const struct sw_claims *c, long y)
{
	return c->v[y].resolves_to >= 0 ? c->v[y].resolves_to : y;
}

/* The nearest full cite before it that a short form's name matches,
 * repeated full cites included: when a draft cites a case wrongly and then
 * rightly, the short form after both leans on the right one.  A short cite
 * (i >= 0) looks only at full cites of its volume and reporter, where two
 * cites of one name are one case cited two ways: the nearest wins.  A
 * supra cite (i < 0) names no volume: when its name matches full cites of
 * two different resources it is ambiguous (-1), as eyecite has it.  -1
 * when none matches. */
static long named_target(struct authorities *a, const struct sw_claims *c, const char *ante,
			 long i)
{
	long found = -1;
	if (!ante)
		return -1;
	if (!sw__claims_alnum((unsigned char)*ante)) {
		/* no first word to look up: every full cite, newest first */
		for (size_t k = a->nfulls, n = 0; k-- > 0 && n < SW__CLAIMS_NAME_TARGETS && i < 0; n++) {
			long y = a->fulls[k];
			if (!claim_named(&c->v[y], ante))
				continue;
			if (found < 0)
				found = y;
			else if (resource_of(c, y) != resource_of(c, found))
				return -1;
		}
		return found;
	}
	size_t len = 0;
	while (sw__claims_alnum((unsigned char)ante[len]))
		len++;
	if (!a->words.slot)
		return -1;
	const struct word_slot *s = word_slot(&a->words, word_hash(ante, len), ante, len);
	/* bounded: a hostile draft that cites one name in many volumes
	 * stays linear */
	for (long k = s->head, steps = 0; k >= 0 && steps < SW__CLAIMS_NAME_TARGETS;
	     k = a->words.v[k].next, steps++) {
		long y = a->words.v[k].claim;
		if (i >= 0 && (a->hash[y] != a->hash[i] || c->v[y].kind != c->v[i].kind ||
			       !same_field(&c->v[y], &c->v[i], "volume") ||
			       !same_field(&c->v[y], &c->v[i], "canonical")))
			continue;
		if (!claim_named(&c->v[y], ante))
			continue;
		if (i >= 0)
			return y;
		if (found < 0)
			found = y;
		else if (resource_of(c, y) != resource_of(c, found))
			return -1;
	}
	return found;
}

void sw__claims_resolve(struct sw_claims *c)
{
	struct authorities a = { 0 };
	size_t size = 16;
	while (size < c->n * 2)
		size *= 2;
	a.mask = size - 1;
	a.head = sw_xmalloc(size * sizeof(*a.head));
	for (size_t i = 0; i < size; i++)
		a.head[i] = -1;
	a.head3 = sw_xmalloc(size * sizeof(*a.head3));
	for (size_t i = 0; i < size; i++)
		a.head3[i] = -1;
	a.next = sw_xmalloc((c->n + 1) * sizeof(*a.next));
	a.hash = sw_xmalloc((c->n + 1) * sizeof(*a.hash));
	a.next3 = sw_xmalloc((c->n + 1) * sizeof(*a.next3));
	a.hash3 = sw_xmalloc((c->n + 1) * sizeof(*a.hash3));
	a.count = sw_xmalloc((c->n + 1) * sizeof(*a.count));
	a.latest = sw_xmalloc((c->n + 1) * sizeof(*a.latest));
	a.fulls = sw_xmalloc((c->n + 1) * sizeof(*a.fulls));

	long last = -1; /* the authority the previous citation named */
	for (size_t i = 0; i < c->n; i++) {
		struct sw_claim *x = &c->v[i];
		if (!is_citation(x))
			continue;
		a.hash[i] = identity_hash(x);
		if (x->form == SW_FORM_FULL)
			a.hash3[i] = full_hash(x, a.hash[i]);
		switch (x->form) {
		case SW_FORM_FULL:
			if (x->parallel_to >= 0) {
				/* id. after a parallel group: its first cite */
				last = x->parallel_to;
				break;
			}
			/* one resource per authority: the first full cite of it */
			for (long k = a.head3[a.hash3[i] & a.mask]; k >= 0; k = a.next3[k])
				if (a.hash3[k] == a.hash3[i] && same_resource(&c->v[k], x)) {
					x->resolves_to = k;
					break;
				}
			if (x->resolves_to < 0 && x->kind != SW_CLAIM_RECORD && x->kind != SW_CLAIM_BATES)
				auth_add(&a, c, i);
			else if (x->resolves_to >= 0)
				a.latest[x->resolves_to] = (long)i;
			if (x->kind != SW_CLAIM_RECORD && x->kind != SW_CLAIM_BATES)
				names_add(&a, c, i);
			/* id. leans on this cite as written, not on an earlier
			 * (perhaps wrong) full cite of the same authority */
			last = (long)i;
			break;
		case SW_FORM_SHORT: {
			/* the nearest full cite of this volume and reporter that
			 * the short name names (repeats included); with no name
			 * that matches, the nearest full cite of the one resource
			 * of this volume, if there is one */
			long vol = x->kind == SW_CLAIM_CASE || x->kind == SW_CLAIM_JOURNAL ?
				   same_volume(&a, c, i) : -1, found = -1;
			if (vol >= 0)
				found = named_target(&a, c, sw_claim_get(x, "antecedent"), (long)i);
			if (found < 0 && vol >= 0 && a.count[vol] == 1)
				found = a.latest[vol];
			x->resolves_to = found;
			last = x->resolves_to;
			break;
		}
		case SW_FORM_SUPRA: {
			x->resolves_to = named_target(&a, c, sw_claim_get(x, "antecedent"), -1);
			last = x->resolves_to;
			break;
		}
		case SW_FORM_ID: {
			if (last < 0)
				break;
			const struct sw_claim *y = &c->v[last];
			const char *pin = sw_claim_get(x, "pin");
			if (pin && (y->kind == SW_CLAIM_CASE || y->kind == SW_CLAIM_JOURNAL)) {
				const char *page = sw_claim_get(y, "page");
				long pp = pin_page(pin), base = -1;
				if (page && sw__claims_digit((unsigned char)*page))
					base = pin_page(page);
				if (pp == -1 || base < 0 ||
				    (pp >= 0 && (pp < base || pp > base + SW__CLAIMS_MAX_OPINION_PAGES)))
					break;
			}
			x->resolves_to = last;
			x->kind = y->kind; /* "Id. at 4" after a record cite is a record cite */
			break;
		}
		case SW_FORM_REFERENCE:
			last = x->resolves_to;
			break;
		case SW_FORM_BARE:
			last = -1; /* "§ 2" names no code: id. after it is unclear */
			break;
		}
	}
	free(a.head);
	free(a.next);
	free(a.hash);
	free(a.fulls);
	free(a.head3);
	free(a.next3);
	free(a.hash3);
	free(a.count);
	free(a.latest);
	free(a.words.slot);
	free(a.words.v);
}

void sw__claims_finish(struct sw__claims_scan *sc)
{
	struct sw_claims *c = sc->out;
	sort_claims(c);
	sw__claims_find_references(sc);
	if (sc->failed)
		return;
	sort_claims(c);
	sentences(sc);
	sw__claims_resolve(c);
	/* One memo of citation sentences for the links and the propositions
	 * after them: claims_prop.c asks claims_link.c, never the reverse. */
	signed char *memo = sw_xmalloc(c->nsentences + 1);
	memset(memo, -1, c->nsentences + 1);
	sw__claims_link(sc, memo);
	sw__claims_propositions(sc, memo);
	free(memo);
}
