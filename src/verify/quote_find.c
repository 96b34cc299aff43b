/* quote_find.c - the search for a compiled quotation (quote_pattern.c) in a
 * text's words.
 *
 * It tries each place the first item matches and backtracks over the
 * gaps, under a step budget.  Whether the items from a gap on match from a
 * word depends on the gap and the word alone (the path only records which
 * alterations it made), so each failure is remembered: no (gap, word) is
 * tried twice, and an ellipsis tried again from inside the words its last
 * failure looked at looks only past them.  A quotation of many ellipses
 * thus costs time polynomial in its gaps, not exponential, and an ellipsis
 * after a common word on a page of a native document's length looks at
 * each word about once: the budget is only for hostile texts.
 */
#include <stdlib.h>

#include "verify/quote_int.h"

#define FIND_BUDGET 4000000 /* steps one search may take */

struct finder {
	const struct sw__verify_pattern *p;
	const struct sw__words *w;
	size_t budget;
	bool reversals;         /* a gap may add or drop a negation */
	struct sw__verify_alter rev, sub;
	uint64_t *failed;       /* bit gap * (words + 1) + k: the items from
				 * that gap on do not match from word k
				 * (made at the first failure; finder_done frees) */
	struct gap_window *win; /* per gap, the same time */
};

/* The words an ellipsis' last failure looked at: from lo it tried every
 * word up to hi as the next item's place, and none led to a match; open
 * when it stopped at the ellipsis' reach (not at the text's end or a
 * negation), so a later try from inside [lo, hi] need only look past hi. */
struct gap_window {
	size_t lo, hi;
	bool set, open;
};

/* Whether the items from gap it on are known not to match from word k;
 * with mark, record that they do not.  Whether they match depends on the
 * gap and k alone (rev and sub only record the path), so a failure holds
 * for every path that reaches it: without this, a quotation of many
 * ellipses backtracks over the same places again and again. */
static bool gap_failed(struct finder *f, const struct sw__verify_item *it, size_t k, bool mark)
{
	size_t stride = f->w->n + 1;
	if (!f->failed) {
		if (!mark)
			return false;
		f->failed = sw_xcalloc((f->p->ngaps * stride + 63) / 64, sizeof(*f->failed));
		f->win = sw_xcalloc(f->p->ngaps, sizeof(*f->win));
	}
	size_t bit = it->gap * stride + k;
	if (mark)
		f->failed[bit / 64] |= (uint64_t)1 << (bit % 64);
	return f->failed[bit / 64] >> (bit % 64) & 1;
}

static void finder_done(struct finder *f)
{
	free(f->failed);
	free(f->win);
	f->failed = NULL;
	f->win = NULL;
}

/* Where an ellipsis tried from word k starts looking: 0, or past the
 * words its last failure tried (the next item's matching at a word depends
 * on the word alone, and from inside that failure's words no negation lies
 * before them).  Only where a gap may not add or drop a negation: else
 * the path records which words the ellipsis omits.  SIZE_MAX: from k it
 * fails. */
static size_t gap_resume(const struct finder *f, const struct sw__verify_item *it, size_t k)
{
	if (!it->ellipsis || f->reversals || !f->win || !f->win[it->gap].set)
		return 0;
	const struct gap_window *gw = &f->win[it->gap];
	if (k < gw->lo || k > gw->hi)
		return 0;
	return gw->open ? gw->hi + 1 - k : SIZE_MAX;
}

/* Record that the ellipsis it tried from k failed, having looked at the
 * words up to hi (open: it stopped at its reach). */
static void gap_fail(struct finder *f, const struct sw__verify_item *it, size_t k, size_t hi,
		     bool open)
{
	gap_failed(f, it, k, true);
	if (it->ellipsis && !f->reversals)
		f->win[it->gap] = (struct gap_window){ .lo = k, .hi = hi, .set = true, .open = open };
}

/* Whether the items from pi on match from word k; *end gets the word after
 * the match.  Recursion is one level per gap (MAX_GAPS at most). */
static bool match_at(struct finder *f, size_t pi, size_t k, size_t *end)
{
	const struct sw__verify_pattern *p = f->p;
	const struct sw__words *w = f->w;
	size_t used;
	while (pi < p->n) {
		if (f->budget == 0)
			return false;
		f->budget--;
		const struct sw__verify_item *it = &p->it[pi];
		if (it->kind == SW__VERIFY_ITEM_GAP) {
			const struct sw__verify_item *next = &p->it[pi + 1]; /* gaps never end it */
			if (gap_failed(f, it, k, false))
				return false;
			bool bneg = !it->ellipsis && sw__verify_text_negated(it->p, it->plen);
			bool wneg = false; /* the words so far hold a negation */
			size_t g = gap_resume(f, it, k);
			if (g == SIZE_MAX)
				return false;
			for (; g <= it->max && k + g < w->n; g++) {
				if (f->budget == 0)
					return false;
				f->budget--;
				if (g > 0)
					wneg |= sw__verify_words_negated(w, k + g - 1, k + g);
				bool reverses = it->ellipsis ? wneg : wneg != bneg;
				if (reverses && !f->reversals) {
					if (it->ellipsis) { /* longer omits it too */
						gap_fail(f, it, k, k + g - 1, false);
						return false;
					}
					continue;
				}
				if (!it->ellipsis && g > 0 && !reverses && !sw__verify_alter_may_stand_for(it, w, k, k + g))
					continue;
				if (!sw__verify_item_is(next, w, k + g, &used))
					continue;
				struct sw__verify_alter rev = f->rev, sub = f->sub;
				struct sw__verify_alter here = { .found = true, .gi = pi, .ws = k, .we = k + g };
				if (reverses && !f->rev.found)
					f->rev = here;
				if (!it->ellipsis && g > 0 && !f->sub.found)
					f->sub = here;
				if (match_at(f, pi + 1, k + g, end))
					return true;
				f->rev = rev;
				f->sub = sub;
			}
			if (f->budget && g > 0)
				gap_fail(f, it, k, k + g - 1, g > it->max);
			else if (f->budget)
				gap_failed(f, it, k, true);
			return false;
		}
		if (k >= w->n || !sw__verify_item_is(it, w, k, &used))
			return false;
		k += used;
		pi++;
	}
	*end = k;
	return true;
}

static bool find(struct finder *f, size_t from, size_t to, size_t *ws, size_t *we)
{
	const struct sw__verify_pattern *p = f->p;
	if (p->n == 0 || p->nwords == 0)
		return false;
	if (to > f->w->n)
		to = f->w->n;
	size_t used;
	bool found = false;
	for (size_t k = from; k < to && f->budget && !found; k++) {
		if (!sw__verify_item_is(&p->it[0], f->w, k, &used))
			continue;
		size_t end;
		f->rev.found = f->sub.found = false;
		if (match_at(f, 0, k, &end)) {
			*ws = k;
			*we = end;
			found = true;
		}
	}
	finder_done(f);
	return found;
}

bool sw__verify_pattern_find(const struct sw__verify_pattern *p, const struct sw__words *w, size_t from,
		      size_t to, size_t *ws, size_t *we)
{
	struct finder f = { .p = p, .w = w, .budget = FIND_BUDGET };
	return find(&f, from, to, ws, we);
}

bool sw__verify_pattern_find_sub(const struct sw__verify_pattern *p, const struct sw__words *w, size_t from,
			  size_t to, size_t *ws, size_t *we, struct sw__verify_alter *sub)
{
	struct finder f = { .p = p, .w = w, .budget = FIND_BUDGET };
	bool ok = find(&f, from, to, ws, we);
	*sub = ok ? f.sub : (struct sw__verify_alter){ 0 };
	return ok;
}

bool sw__verify_pattern_find_alter(const struct sw__verify_pattern *p, const struct sw__words *w,
			    size_t from, size_t to, size_t *ws, size_t *we, struct sw__verify_alter *rev,
			    struct sw__verify_alter *sub)
{
	struct finder f = { .p = p, .w = w, .budget = FIND_BUDGET, .reversals = true };
	bool ok = find(&f, from, to, ws, we);
	if (rev)
		*rev = ok ? f.rev : (struct sw__verify_alter){ 0 };
	if (sub)
		*sub = ok ? f.sub : (struct sw__verify_alter){ 0 };
	return ok;
}
