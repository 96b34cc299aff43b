/*
 * claims_refs.c - references by name ("Twombly at 556"): an "at N" outside
 * any citation whose preceding words are a party of an earlier full case
 * cite becomes a reference cite resolving to it.
 */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

static bool is_citation(const struct sw_claim *c)
{
	return c->kind != SW_CLAIM_DATE && c->kind != SW_CLAIM_QUOTE;
}

/* Party names too common to name one case by. */
static bool generic_name(const char *s)
{
	static const char *const g[] = { "United States", "U.S.", "State", "People",
					 "Commonwealth", "United States of America", NULL };
	for (const char *const *x = g; *x; x++)
		if (!strcmp(s, *x))
			return true;
	return false;
}

/* Is [s, e) inside a citation claim?  Claims are sorted by start. */
static bool inside_citation(const struct sw_claims *c, size_t s)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->v[mid].start <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* look back a few: parallel groups and parentheticals overlap */
	for (size_t k = lo, n = 0; k > 0 && n < 8; k--, n++) {
		const struct sw_claim *x = &c->v[k - 1];
		if (is_citation(x) && x->start <= s && s < x->end)
			return true;
	}
	return false;
}

/* Party names of the full case cites seen so far, by a hash of the name
 * written as in the text: each "at N" hashes the few texts that end just
 * before it and could be a name, instead of comparing every earlier
 * cite's parties (which made "at"-rich drafts quadratic). */
struct party_node {
	uint64_t h;      /* hash of the name */
	const char *name;
	size_t len;
	long claim;      /* the full cite */
	int role;        /* 0 plaintiff, 1 defendant */
	long older;      /* the previous node with the same name, or -1 */
};

struct party_index {
	struct party_node *v;
	size_t n, cap;
	long *slot;      /* open addressing: node index of the newest, -1 */
	size_t mask;
	size_t maxlen;   /* the longest name indexed */
};

#define PARTY_MUL 0x100000001b3ull

/* The hash of a name built from its last byte backwards: h(c + s) =
 * h(s) + c * M^len(s), so a walk back through the text extends it. */
static uint64_t party_hash(const char *s, size_t n)
{
	uint64_t h = 0, m = 1;
	for (size_t i = n; i-- > 0;) {
		h += ((uint64_t)(unsigned char)s[i] + 1) * m;
		m *= PARTY_MUL;
	}
	return h ^ (n * 0x9e3779b97f4a7c15ull);
}

static long *party_slot(struct party_index *x, uint64_t h, const char *s, size_t n)
{
	size_t i = (size_t)(h ^ (h >> 29)) & x->mask;
	for (;; i = (i + 1) & x->mask) {
		long k = x->slot[i];
		if (k < 0)
			return &x->slot[i];
		const struct party_node *p = &x->v[k];
		if (p->h == h && p->len == n && !memcmp(p->name, s, n))
			return &x->slot[i];
	}
}

static void party_add(struct party_index *x, const char *name, long claim, int role)
{
	size_t n = strlen(name);
	if (n == 0 || generic_name(name))
		return;
	if ((x->n + 1) * 2 > x->mask + 1) {
		/* grow and rehash the newest node of each name */
		size_t size = (x->mask + 1) * 2;
		long *old = x->slot;
		size_t oldsize = x->mask + 1;
		x->slot = sw_xmalloc(size * sizeof(*x->slot));
		for (size_t i = 0; i < size; i++)
			x->slot[i] = -1;
		x->mask = size - 1;
		for (size_t i = 0; i < oldsize; i++)
			if (old[i] >= 0) {
				const struct party_node *p = &x->v[old[i]];
				*party_slot(x, p->h, p->name, p->len) = old[i];
			}
		free(old);
	}
	uint64_t h = party_hash(name, n);
	long *slot = party_slot(x, h, name, n);
	x->v = sw_xgrow(x->v, &x->cap, x->n + 1, sizeof(*x->v));
	struct party_node *p = &x->v[x->n];
	p->h = h;
	p->name = name;
	p->len = n;
	p->claim = claim;
	p->role = role;
	p->older = *slot;
	*slot = (long)x->n++;
	if (n > x->maxlen)
		x->maxlen = n;
}

/* The newest full cite before `at` with a party written as [s, e): its
 * node, or -1. */
static long party_find(struct party_index *x, const struct sw__claims_scan *sc, uint64_t h,
		       size_t s, size_t e, size_t at)
{
	long k = *party_slot(x, h, sc->t + s, e - s);
	/* a cite that ends after this "at" holds it: try older ones */
	for (int n = 0; k >= 0 && n < 8; n++, k = x->v[k].older)
		if (sc->out->v[x->v[k].claim].cite_end <= at)
			return k;
	return -1;
}

void sw__claims_find_references(struct sw__claims_scan *sc)
{
	struct sw_claims *c = sc->out;
	size_t nfull = c->n, next = 0;
	struct party_index idx = { 0 };
	idx.mask = 63;
	idx.slot = sw_xmalloc(64 * sizeof(*idx.slot));
	for (size_t i = 0; i < 64; i++)
		idx.slot[i] = -1;
	for (size_t a = 0; a < sc->nats; a++) {
		size_t at = sc->ats[a].at;
		/* index the full case cites that start before this "at" */
		for (; next < nfull && c->v[next].start < at; next++) {
			const struct sw_claim *x = &c->v[next];
			if (x->kind != SW_CLAIM_CASE || x->form != SW_FORM_FULL)
				continue;
			const char *pl = sw_claim_get(x, "plaintiff"), *df = sw_claim_get(x, "defendant");
			if (pl)
				party_add(&idx, pl, (long)next, 0);
			if (df)
				party_add(&idx, df, (long)next, 1);
		}
		if (!idx.n || inside_citation(c, at))
			continue;
		size_t e = sw__claims_ws_back(sc, at, 0);
		if (e > 0 && sw__claims_at(sc, e - 1) == ',')
			e--;
		/* every start of a name that ends at e, nearest first: the
		 * newest cite wins, and within one cite the plaintiff */
		long best = -1;
		uint64_t h = 0, m = 1;
		size_t floor = e > idx.maxlen ? e - idx.maxlen : 0;
		for (size_t s = e; s > floor; s--) {
			h += ((uint64_t)(unsigned char)sc->t[s - 1] + 1) * m;
			m *= PARTY_MUL;
			if (!sw__claims_boundary_before(sc, s - 1) || !sw__claims_alnum(sw__claims_at(sc, s - 1)))
				continue;
			long k = party_find(&idx, sc, h ^ ((e - s + 1) * 0x9e3779b97f4a7c15ull),
					    s - 1, e, at);
			if (k < 0)
				continue;
			if (best < 0 || idx.v[k].claim > idx.v[best].claim ||
			    (idx.v[k].claim == idx.v[best].claim && idx.v[k].role < idx.v[best].role))
				best = k;
		}
		if (best < 0)
			continue;
		size_t name_s = e - idx.v[best].len;
		const char *which = idx.v[best].role ? "defendant" : "plaintiff";
		long target = idx.v[best].claim;
		size_t pin_s = at, pe = sw__claims_ws(sc, at + 2);
		size_t pin_e = 0;
		if (sw__claims_at(sc, pe) == '*')
			pe++;
		pin_e = sw__claims_digits(sc, pe);
		if (pin_e == pe)
			continue;
		size_t d = sw__claims_dash(sc, pin_e);
		if (d && sw__claims_digit(sw__claims_at(sc, d)))
			pin_e = sw__claims_digits(sc, d);
		struct sw__claims_builder b;
		sw__claims_begin(&b, SW_CLAIM_CASE, SW_FORM_REFERENCE, name_s, pin_e);
		sw__claims_fieldz(&b, which, idx.v[best].name);
		sw__claims_field(&b, "pin", sc->t + pin_s, pin_e - pin_s);
		long id = sw__claims_push(sc, &b);
		if (id < 0)
			break;
		c->v[id].resolves_to = target;
	}
	free(idx.v);
	free(idx.slot);
}
