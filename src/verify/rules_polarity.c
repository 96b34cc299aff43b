/*
 * rules_polarity.c - a cited sentence that denies what its page affirms,
 * or affirms what it denies.  The page's passage that says the sentence's
 * content words (a transcript's cited lines; else the page sentence that
 * shares the most of them, and clearly: three or more, or two that are
 * most of the sentence's) is read for a negation ("not", "no", "never",
 * "none", "without", "denied", "n't"); when the sentence and that passage
 * differ, the sentence is contradicted, quoting the passage.  A sentence
 * whose passage is not clear is left alone: the rule only speaks when the
 * page plainly says the same words the other way.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/rules_int.h"

#define POL_STEMS 48  /* content words kept of a sentence */
#define POL_STEM 6    /* bytes of a word compared */

struct stems {
	char w[POL_STEMS][POL_STEM + 1];
	size_t n;
};

/* Words that carry no content of their own: they are not compared. */
static const char *const plain[] = {
	"that", "this", "with", "from", "have", "been", "were", "about", "testified",
	"wrote", "said", "says", "states", "stated", "which", "would", "could", "should",
	"their", "there", "under", "after", "before", "into", "than", "then", "them",
	"they", "what", "when", "where", "while", "will", "shall", "also", "only", "each",
	"such", "does", "did", "doing", "done", "admitted", "conceded", "confirmed",
	"explained", "agreed", "page", "line", "lines", "those", "these", "upon", "over",
	"very", "because", "whether", "his", "her", "its", "has", "had", "the", "and",
	NULL,
};

static bool plain_word(const char *w)
{
	for (const char *const *p = plain; *p; p++)
		if (strcmp(w, *p) == 0)
			return true;
	return false;
}

/* A negating word: "not", "no" (not "No. 8812"), "never", "none",
 * "nothing", "neither", "nor", "without", "cannot", "denied", "n't". */
static bool negation(const char *t, size_t e, size_t end, const char *w)
{
	static const char *const neg[] = { "not", "never", "none", "nothing", "neither", "nor",
					   "without", "cannot", "denied", "denies", "deny",
					   "nobody", NULL };
	for (const char *const *p = neg; *p; p++)
		if (strcmp(w, *p) == 0)
			return true;
	if (strcmp(w, "no") == 0)
		return !(e + 3 < end && t[e] == '.' && t[e + 1] == ' ' &&
			 (isdigit((unsigned char)t[e + 2]) ||
			  (isupper((unsigned char)t[e + 2]) &&
			   (isupper((unsigned char)t[e + 3]) || isdigit((unsigned char)t[e + 3])))));
	size_t n = strlen(w);
	return n > 3 && w[n - 1] == 't' && w[n - 2] == '\'' && w[n - 3] == 'n';
}

/* Cut a word to its stem: lower case, a plural or tense ending off, at
 * most POL_STEM bytes. */
static void stem(char *w)
{
	size_t n = strlen(w);
	if (n > 5 && strcmp(w + n - 3, "ing") == 0)
		n -= 3;
	else if (n > 4 && (strcmp(w + n - 2, "ed") == 0 || strcmp(w + n - 2, "es") == 0))
		n -= 2;
	else if (n > 4 && w[n - 1] == 's')
		n -= 1;
	if (n > POL_STEM)
		n = POL_STEM;
	w[n] = '\0';
}

/* What a passage's words tell: its content stems, the stems each of its
 * negations bears on (the next content word within three words), and
 * whether it is a condition ("no credit until", "unless") or a bound ("no
 * earlier than"), which no negation test reads plainly. */
struct reading {
	struct stems st, targets;
	bool neg, cond, all; /* all: a negation that bears on every word */
};

static void add_stem(struct stems *st, const char *w)
{
	for (size_t k = 0; k < st->n; k++)
		if (strcmp(st->w[k], w) == 0)
			return;
	if (st->n < POL_STEMS)
		memcpy(st->w[st->n++], w, strlen(w) + 1);
}

static void read_words(const char *t, size_t s, size_t e, const struct sw__verify_range *sp,
		       size_t nsp, struct reading *rd)
{
	size_t i = s;
	int pending = 0; /* words left for a negation's target */
	bool bound_next = false;
	memset(rd, 0, sizeof(*rd));
	while (i < e) {
		if (!isalpha((unsigned char)t[i])) {
			i++;
			continue;
		}
		size_t b = i;
		while (i < e && (isalpha((unsigned char)t[i]) ||
				 (t[i] == '\'' && i + 1 < e && t[i + 1] == 't')))
			i++;
		bool skip = false;
		for (size_t k = 0; k < nsp && !skip; k++)
			skip = sp[k].s <= b && b < sp[k].e;
		if (skip)
			continue;
		char w[24];
		size_t n = i - b < sizeof(w) - 1 ? i - b : sizeof(w) - 1;
		for (size_t k = 0; k < n; k++)
			w[k] = (char)tolower((unsigned char)t[b + k]);
		w[n] = '\0';
		if (rd->neg && (!strcmp(w, "until") || !strcmp(w, "unless") || !strcmp(w, "except")))
			rd->cond = true; /* "no credit until they pay" */
		if (bound_next && (!strcmp(w, "earlier") || !strcmp(w, "later") ||
				   !strcmp(w, "more") || !strcmp(w, "less") || !strcmp(w, "fewer") ||
				   !strcmp(w, "longer")))
			rd->cond = true;
		bound_next = false;
		if (negation(t, i, e, w)) {
			/* "Credit applied: none" and a witness's "A.  No." bear on
			 * all the passage says */
			size_t k = b;
			while (k > s && t[k - 1] == ' ')
				k--;
			if ((!strcmp(w, "none") && k > s && t[k - 1] == ':') ||
			    (k >= s + 2 && t[k - 1] == '.' && t[k - 2] == 'A' &&
			     (k == s + 2 || !isalpha((unsigned char)t[k - 3]))))
				rd->all = true;
			rd->neg = true;
			pending = 3;
			bound_next = true;
			continue;
		}
		if (pending)
			pending--;
		if (n < 4 || plain_word(w))
			continue;
		stem(w);
		add_stem(&rd->st, w);
		if (pending) {
			add_stem(&rd->targets, w);
			pending = 0;
		}
	}
}

/* Whether stems a and b are one word: equal, or one the other's start of
 * four bytes or more ("writ" and "write"). */
static bool same_stem(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), n = na < nb ? na : nb;
	return n >= 4 && strncmp(a, b, n) == 0;
}

static size_t shared_stems(const struct stems *x, const struct stems *y)
{
	size_t n = 0;
	for (size_t a = 0; a < x->n; a++)
		for (size_t b = 0; b < y->n; b++)
			if (same_stem(x->w[a], y->w[b])) {
				n++;
				break;
			}
	return n;
}

/* How many of the sentence's stems the passage p[s, e) holds; its reading in *rd. */
static size_t shared(const struct stems *sent, const char *p, size_t s, size_t e,
		     struct reading *rd)
{
	read_words(p, s, e, NULL, 0, rd);
	return shared_stems(sent, &rd->st);
}

/* The transcript lines [l0, l1] of page text p: their bytes [*s, *e).
 * false when the page has no such numbered lines. */
static bool lines_of(const char *p, size_t len, long l0, long l1, size_t *s, size_t *e)
{
	bool any = false;
	long cur = -1;
	for (size_t i = 0; i < len;) {
		size_t le = i;
		while (le < len && p[le] != '\n')
			le++;
		size_t k = i;
		while (k < le && p[k] == ' ')
			k++;
		if (k < le && isdigit((unsigned char)p[k])) {
			long v = 0;
			size_t d = k;
			while (d < le && isdigit((unsigned char)p[d]) && v < 100000)
				v = v * 10 + (p[d++] - '0');
			if (d < le && p[d] == ' ')
				cur = v;
		}
		if (cur >= l0 && cur <= l1) {
			if (!any)
				*s = i;
			*e = le;
			any = true;
		}
		i = le + 1;
	}
	return any;
}

/* The line pin of the sentence's transcript citation that resolved to
 * page `page`: lines [*l0, *l1] of it; false when none. */
static bool pin_of(const struct sw__verify_run *u, const struct sw_claim *c, int64_t page,
		   long *l0, long *l1)
{
	const struct sw_claims *cl = &u->r->claims;
	if (c->resolves_to < 0 || (size_t)c->resolves_to >= cl->n)
		return false;
	/* the citations it leans on: its own sentence's or the citation
	 * sentence after it */
	size_t cs = cl->v[c->resolves_to].sentence;
	for (size_t k = 0; k < cl->n && cl->v[k].kind != SW_CLAIM_PROPOSITION; k++) {
		const struct sw_claim *x = &cl->v[k];
		const char *line = sw_claim_get(x, "line");
		if (x->sentence != cs || x->kind != SW_CLAIM_RECORD || !line)
			continue;
		const struct sw__verify_resolved *r = &u->res[k];
		const char *le = sw_claim_get(x, "line_end"), *pe = sw_claim_get(x, "page_end");
		for (size_t q = 0; q < r->npages; q++) {
			if (r->pages[q] != page)
				continue;
			long a = atol(line), b = le ? atol(le) : a;
			if (pe && r->npages > 1) {
				if (q == 0)
					b = 100000;
				else if (q == r->npages - 1)
					a = 0;
				else
					a = 0, b = 100000;
			}
			*l0 = a;
			*l1 = b;
			return true;
		}
	}
	return false;
}

/* Whether the sentence has a quotation: its words are checked as written. */
static bool quotes(const struct sw__verify_run *u, const struct sw_claim *c)
{
	const struct sw_claims *cl = &u->r->claims;
	for (size_t k = 0; k < cl->n && cl->v[k].kind != SW_CLAIM_PROPOSITION; k++)
		if (cl->v[k].kind == SW_CLAIM_QUOTE && cl->v[k].start < c->end &&
		    c->start < cl->v[k].end)
			return true;
	return false;
}

char *sw__verify_polarity(struct sw__verify_run *u, const struct sw_claim *c,
			  const int64_t *pages, size_t np, const struct sw__verify_range *sp,
			  size_t nsp)
{
	const char *t = u->r->text;
	struct reading *sent = sw_xcalloc(3, sizeof(*sent)), *best_rd = sent + 1, *rd = sent + 2;
	size_t best = 0;
	int64_t bpage = -1;
	char *said = NULL, *why = NULL;
	read_words(t, c->start, c->end, sp, nsp, sent);
	if (sent->st.n < 2 || sent->cond || quotes(u, c))
		goto done;
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len, s, en;
		long l0, l1;
		bool pinned = pin_of(u, c, pages[q], &l0, &l1);
		for (size_t i = 0; i < len;) {
			size_t j = i;
			if (pinned) {
				/* a transcript's pin: its lines are the passage */
				if (!lines_of(p, len, l0, l1, &s, &en))
					break;
				i = s;
				j = en;
			} else {
				while (j < len && p[j] != '\n' &&
				       !((p[j] == '.' || p[j] == '?' || p[j] == '!' || p[j] == ';') &&
					 (j + 1 == len || p[j + 1] == ' ' || p[j + 1] == '\n')))
					j++;
			}
			size_t n = shared(&sent->st, p, i, j, rd);
			if (n > best) {
				best = n;
				bpage = pages[q];
				*best_rd = *rd;
				free(said);
				said = sw_xstrndup(p + i, j - i);
			}
			if (pinned)
				break;
			i = j + 1;
		}
	}
	bool clear = best >= 3 || (best >= 2 && best * 2 >= sent->st.n);
	if (!said || !clear || best_rd->cond)
		goto done;
	/* a negation counts when the other side says the word it bears on */
	bool sneg = sent->neg && shared_stems(&sent->targets, &best_rd->st) > 0;
	bool pneg = best_rd->neg &&
		    (best_rd->all || shared_stems(&best_rd->targets, &sent->st) > 0);
	if ((sneg && !best_rd->neg) || (pneg && !sent->neg)) {
		char *pn = sw__verify_page_name(u, bpage);
		char *ex = sw__verify_excerpt(said, strlen(said), 0, strlen(said));
		why = sw_xasprintf("the sentence %s what %s %s: \"%s\"",
				   sneg ? "denies" : "affirms", pn, sneg ? "says" : "denies", ex);
		free(ex);
		free(pn);
	}
done:
	free(said);
	free(sent);
	return why;
}
