/* closest.c - the passage of a page closest to a quotation that is not on
 * it, and the words that differ, for the reason a lawyer reads.
 *
 * Never O(text x quotation): one pass counts how often each of the
 * quotation's words occurs in the text; the rarest become anchors; a second
 * pass lets every anchor occurrence vote for the place the quotation would
 * start there (its diagonal).  The best few diagonals give windows a little
 * wider than the quotation, and each window is aligned word by word with
 * the quotation (an edit distance in which the text may run on before and
 * after, and where the quotation has an ellipsis; a bracketed insertion is
 * a word of the draft that matches none).  The best alignment names the
 * passage and its differences, first the words with a negation that an
 * ellipsis stands for. */
#include <stdlib.h>
#include <string.h>

#include "verify/quote_int.h"

#define MAX_QWORDS 400     /* words of the quotation aligned */
#define MAX_ANCHORS 16
#define MAX_ANCHOR_HITS 20000
#define MAX_WINDOWS 8
#define DIAG_SLACK 16      /* diagonals this close are one place */
#define WINDOW_PAD 12      /* words of the text either side of a window */
#define SHOW_BYTES 60      /* of one side of a difference */
#define PASSAGE_BYTES 160

struct qword {
	const struct sw__verify_item *it; /* a word, or a bracketed insertion */
	bool gap_before; /* an ellipsis comes before it */
};

struct slot {
	uint64_t h;
	size_t count;
	size_t first;    /* the first quotation word with this hash */
	bool used;
};

struct vote {
	long d;          /* text word minus quotation word */
};

static int cmp_vote(const void *a, const void *b)
{
	long x = ((const struct vote *)a)->d, y = ((const struct vote *)b)->d;
	return x < y ? -1 : x > y;
}

static struct slot *probe(struct slot *t, size_t mask, uint64_t h)
{
	size_t i = (size_t)(h ^ (h >> 29)) & mask;
	while (t[i].used && t[i].h != h)
		i = (i + 1) & mask;
	return &t[i];
}

static bool same(const struct qword *q, const struct sw__words *w, size_t k)
{
	size_t used;
	return sw__verify_item_is(q->it, w, k, &used);
}

/* Edit distance of the quotation against words [a, b) of w, the text free
 * before and after; fills d ((m + 1) x (b - a + 1)).  Returns the cost and
 * the column where the best alignment ends. */
static unsigned align(const struct qword *q, size_t m, const struct sw__words *w, size_t a,
		      size_t b, uint16_t *d, size_t *endcol)
{
	size_t cols = b - a + 1;
	for (size_t j = 0; j < cols; j++)
		d[j] = 0;
	for (size_t i = 1; i <= m; i++) {
		uint16_t *row = d + i * cols, *up = d + (i - 1) * cols;
		unsigned ins = i < m && q[i].gap_before ? 0 : 1; /* text words skipped here */
		row[0] = (uint16_t)i;
		for (size_t j = 1; j < cols; j++) {
			unsigned best = up[j - 1] + (same(&q[i - 1], w, a + j - 1) ? 0u : 1u);
			if (up[j] + 1u < best)
				best = up[j] + 1u;
			if (row[j - 1] + ins < best)
				best = row[j - 1] + ins;
			row[j] = (uint16_t)best;
		}
	}
	const uint16_t *last = d + m * cols;
	size_t bj = 0;
	/* The last of equal ends: "full" against "none" rather than "full"
	 * dropped before it. */
	for (size_t j = 1; j < cols; j++)
		if (last[j] <= last[bj])
			bj = j;
	*endcol = bj;
	return last[bj];
}

/* Bytes [s, e) of text, whitespace collapsed, cut to at most max bytes on a
 * character boundary (with "…"). */
static char *show(const char *text, size_t s, size_t e, size_t max)
{
	struct sw_buf b = SW_BUF_INIT;
	bool space = false, cut = false;
	for (size_t i = s; i < e; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			space = b.len > 0;
			continue;
		}
		if (b.len >= max && (c & 0xC0) != 0x80) {
			cut = true;
			break;
		}
		if (space)
			sw_buf_addc(&b, ' ');
		space = false;
		sw_buf_addc(&b, (char)c);
	}
	if (cut)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	return sw_buf_detach(&b, NULL);
}

/* Whether word k of w is a lone number of at most three digits at the
 * start of a line: a line or list number the page's layout left, not a
 * word of it. */
static bool layout_number(const struct sw__words *w, size_t k, const char *text)
{
	const struct sw__word *x = &w->w[k];
	if (x->e - x->s > 3)
		return false;
	for (size_t i = x->s; i < x->e; i++)
		if (w->text[i] < '0' || w->text[i] > '9')
			return false;
	for (size_t i = w->map[x->s]; i-- > 0;) {
		if (text[i] == '\n' || text[i] == '\f')
			return true;
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
			return false;
	}
	return true;
}

static void add_diff(struct sw__verify_closest *out, const struct sw__verify_pattern *p,
		     const struct qword *q, size_t qa, size_t qb, const struct sw__words *w,
		     size_t ta, size_t tb, const char *text)
{
	if (qa == qb && ta == tb)
		return;
	if (ta == tb) {
		/* "[and]" added: an alteration, not a difference. */
		bool inserted = true;
		for (size_t k = qa; k < qb; k++)
			inserted &= q[k].it->kind == SW__VERIFY_ITEM_GAP;
		if (inserted)
			return;
	}
	if (qa == qb && tb == ta + 1 && layout_number(w, ta, text))
		return;
	if (out->ndiffs == SW__VERIFY_MAX_DIFFS) {
		out->more++;
		return;
	}
	struct sw__verify_diff *df = &out->diff[out->ndiffs++];
	df->draft = qa < qb ? show(p->quote, q[qa].it->qs, q[qb - 1].it->qe, SHOW_BYTES) : NULL;
	df->page = ta < tb ? show(text, w->map[w->w[ta].s], sw__verify_words_end(w, tb - 1), SHOW_BYTES)
			   : NULL;
}

bool sw__verify_closest_in(struct sw__verify_closest *out, const struct sw__verify_pattern *p,
		    const struct sw__words *w, const char *text, size_t from, size_t to)
{
	memset(out, 0, sizeof(*out));
	if (to > w->n)
		to = w->n;
	if (from >= to || p->nwords == 0)
		return false;
	struct qword *q = sw_xcalloc(p->n, sizeof(*q));
	size_t m = 0;
	bool gap = false;
	for (size_t k = 0; k < p->n && m < MAX_QWORDS; k++) {
		if (p->it[k].kind == SW__VERIFY_ITEM_GAP && p->it[k].ellipsis) {
			gap = true;
			continue;
		}
		q[m].it = &p->it[k];
		q[m].gap_before = gap;
		gap = false;
		m++;
	}
	size_t tsize = 1024;
	while (tsize < 4 * m)
		tsize *= 2;
	struct slot *t = sw_xcalloc(tsize, sizeof(*t));
	size_t mask = tsize - 1;
	for (size_t i = 0; i < m; i++) {
		if (q[i].it->kind != SW__VERIFY_ITEM_WORD)
			continue;
		struct slot *s = probe(t, mask, q[i].it->h);
		if (!s->used) {
			s->used = true;
			s->h = q[i].it->h;
			s->first = i;
		}
	}
	for (size_t k = from; k < to; k++) {
		struct slot *s = probe(t, mask, w->w[k].h);
		if (s->used)
			s->count++;
	}
	/* Anchors: the rarest words that occur, as long as their occurrences
	 * stay few. */
	uint64_t anchors[MAX_ANCHORS];
	size_t nanch = 0, hits = 0;
	for (;;) {
		struct slot *best = NULL;
		for (size_t k = 0; k < tsize; k++) {
			struct slot *s = &t[k];
			if (!s->used || s->count == 0 || s->count == (size_t)-1)
				continue;
			if (!best || s->count < best->count)
				best = s;
		}
		if (!best || nanch == MAX_ANCHORS ||
		    (nanch > 0 && hits + best->count > MAX_ANCHOR_HITS))
			break;
		anchors[nanch++] = best->h;
		hits += best->count;
		best->count = (size_t)-1; /* taken */
	}
	struct vote *v = NULL;
	size_t nv = 0, vcap = 0;
	for (size_t k = from; k < to && nanch; k++) {
		bool anchor = false;
		for (size_t a = 0; a < nanch && !anchor; a++)
			anchor = anchors[a] == w->w[k].h;
		if (!anchor)
			continue;
		/* Every quotation word with this hash votes. */
		for (size_t i = 0; i < m; i++) {
			if (q[i].it->kind != SW__VERIFY_ITEM_WORD || q[i].it->h != w->w[k].h)
				continue;
			if (nv >= 4 * MAX_ANCHOR_HITS)
				break;
			v = sw_xgrow(v, &vcap, nv + 1, sizeof(*v));
			v[nv++].d = (long)k - (long)i;
		}
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_vote);

	/* The best windows: the densest runs of diagonals, apart. */
	long picked[MAX_WINDOWS][2];
	size_t npick = 0;
	bool *taken = sw_xcalloc(nv ? nv : 1, sizeof(*taken));
	while (npick < MAX_WINDOWS) {
		size_t bi = nv, bn = 0;
		for (size_t i = 0, j = 0; i < nv; i++) {
			if (j < i)
				j = i;
			while (j < nv && v[j].d - v[i].d <= DIAG_SLACK && !taken[j])
				j++;
			if (!taken[i] && j - i > bn) {
				bn = j - i;
				bi = i;
			}
		}
		if (bi == nv)
			break;
		picked[npick][0] = v[bi].d;
		picked[npick][1] = v[bi + bn - 1].d;
		npick++;
		for (size_t k = bi; k < bi + bn; k++)
			taken[k] = true;
	}

	size_t wmax = m + 2 * WINDOW_PAD + DIAG_SLACK + 2;
	uint16_t *d = sw_xmalloc((m + 1) * (wmax + 1) * sizeof(*d));
	unsigned best_cost = (unsigned)-1;
	size_t best_a = 0, best_b = 0;
	for (size_t k = 0; k < npick; k++) {
		long lo = picked[k][0] - WINDOW_PAD, hi = picked[k][1] + (long)m + WINDOW_PAD;
		size_t a = lo < (long)from ? from : (size_t)lo;
		size_t b = hi > (long)to ? to : (size_t)hi;
		if (b <= a)
			continue;
		if (b - a > wmax)
			b = a + wmax;
		size_t endcol;
		unsigned cost = align(q, m, w, a, b, d, &endcol);
		if (cost < best_cost) {
			best_cost = cost;
			best_a = a;
			best_b = b;
		}
	}
	bool ok = false;
	if (best_cost != (unsigned)-1) {
		/* Align the best window again and walk back through it. */
		size_t a = best_a, b = best_b, cols = b - a + 1, j;
		align(q, m, w, a, b, d, &j);
		size_t i = m, tend = a + j, nsame = 0;
		/* The walk gives the differences last first: keep them as
		 * ranges [q0, q1) x [t0, t1), then add them in order. */
		size_t (*runs)[4] = sw_xmalloc((m + cols + 1) * sizeof(*runs));
		size_t nruns = 0, qhi = 0, thi = 0;
		bool in_run = false;
		/* Words an ellipsis stands for, [olo, ohi) of the text, at
		 * quotation word oi; the first such run with a negation. */
		size_t oi = (size_t)-1, olo = 0, ohi = 0, nlo = 0, nhi = 0, negi = 0;
		bool oneg = false, neg = false;
#define CLOSE_RUN()                                                        \
	do {                                                               \
		if (in_run) {                                              \
			runs[nruns][0] = i;                                \
			runs[nruns][1] = qhi;                              \
			runs[nruns][2] = a + j;                            \
			runs[nruns][3] = a + thi;                          \
			nruns++;                                           \
		}                                                          \
		in_run = false;                                            \
	} while (0)
#define OPEN_RUN()                      \
	do {                            \
		if (!in_run) {          \
			in_run = true;  \
			qhi = i;        \
			thi = j;        \
		}                       \
	} while (0)
		while (i > 0) {
			unsigned cur = d[i * cols + j];
			unsigned ins = i < m && q[i].gap_before ? 0 : 1;
			if (j > 0 && same(&q[i - 1], w, a + j - 1) &&
			    cur == d[(i - 1) * cols + j - 1]) {
				CLOSE_RUN();
				nsame++;
				i--;
				j--;
			} else if (j > 0 && cur == d[i * cols + j - 1] + ins) {
				/* Words of the page first: "cannot" added, not "we"
				 * changed, when both cost the same. */
				if (ins == 0) {
					CLOSE_RUN(); /* words an ellipsis stands for */
					if (oi != i) {
						oi = i;
						ohi = a + j;
						oneg = false;
					}
					olo = a + j - 1;
					oneg |= sw__verify_words_negated(w, olo, olo + 1);
					if (oneg && (!neg || negi == i)) {
						neg = true;
						negi = i;
						nlo = olo;
						nhi = ohi;
					}
				} else {
					OPEN_RUN();
				}
				j--;
			} else if (j > 0 && cur == d[(i - 1) * cols + j - 1] + 1u) {
				OPEN_RUN();
				i--;
				j--;
			} else if (cur == d[(i - 1) * cols + j] + 1u) {
				OPEN_RUN();
				i--;
			} else {
				SW_BUG("closest: the alignment cannot be walked back");
			}
		}
		CLOSE_RUN();
#undef CLOSE_RUN
#undef OPEN_RUN
		size_t tstart = a + j;
		out->words = m;
		out->same = nsame;
		if (nsame >= 2 && nsame * 3 >= m && tend > tstart) {
			ok = true;
			out->start = w->map[w->w[tstart].s];
			out->end = sw__verify_words_end(w, tend - 1);
			if (nhi > nlo) {
				struct sw__verify_diff *df = &out->diff[out->ndiffs++];
				df->page = show(text, w->map[w->w[nlo].s], sw__verify_words_end(w, nhi - 1),
						SHOW_BYTES);
				df->omitted = true;
			}
			for (size_t r = nruns; r-- > 0;)
				add_diff(out, p, q, runs[r][0], runs[r][1], w, runs[r][2], runs[r][3],
					 text);
		}
		free(runs);
	}
	free(d);
	free(taken);
	free(v);
	free(t);
	free(q);
	if (!ok)
		sw__verify_closest_release(out);
	return ok;
}

void sw__verify_closest_release(struct sw__verify_closest *c)
{
	if (!c)
		return;
	for (size_t k = 0; k < c->ndiffs; k++) {
		free(c->diff[k].draft);
		free(c->diff[k].page);
	}
	memset(c, 0, sizeof(*c));
}

bool sw__verify_closest(struct sw__verify_closest *out, const char *quote, size_t qlen,
			const char *text, size_t len, const struct sw__verify_skip *skip,
			size_t nskip)
{
	struct sw__verify_pattern p;
	struct sw__words w;
	sw__verify_pattern_init(&p, quote, qlen);
	sw__verify_words_init(&w, text, len, skip, nskip);
	bool ok = sw__verify_closest_in(out, &p, &w, text, 0, w.n);
	sw__verify_words_release(&w);
	sw__verify_pattern_release(&p);
	return ok;
}

char *sw__verify_closest_describe(const struct sw__verify_closest *c, const char *text,
				  size_t len)
{
	struct sw_buf b = SW_BUF_INIT;
	size_t s = c->start < len ? c->start : len, e = c->end < len ? c->end : len;
	char *passage = show(text, s, e, 2 * PASSAGE_BYTES);
	size_t plen = strlen(passage);
	sw_buf_adds(&b, "\"");
	if (s > 0)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	if (plen > PASSAGE_BYTES) {
		/* The start and the end of a long passage. */
		size_t h = sw_utf8_cut(passage, plen, PASSAGE_BYTES / 2), t = plen - PASSAGE_BYTES / 2;
		while (t < plen && ((unsigned char)passage[t] & 0xC0) == 0x80)
			t++;
		sw_buf_add(&b, passage, h);
		sw_buf_adds(&b, " \xe2\x80\xa6 ");
		sw_buf_adds(&b, passage + t);
	} else {
		sw_buf_adds(&b, passage);
	}
	if (e < len)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	sw_buf_adds(&b, "\"");
	free(passage);
	size_t shown = c->ndiffs < 3 ? c->ndiffs : 3;
	for (size_t k = 0; k < shown; k++) {
		const struct sw__verify_diff *d = &c->diff[k];
		sw_buf_adds(&b, k ? "; " : " \xe2\x80\x94 ");
		if (d->omitted)
			sw_buf_addf(&b,
				    "the ellipsis omits \"%s\" \xe2\x80\x94 the omission reverses the "
				    "sentence",
				    d->page);
		else if (d->draft && d->page)
			sw_buf_addf(&b, "\"%s\" in the draft, \"%s\" on the page", d->draft, d->page);
		else if (d->draft)
			sw_buf_addf(&b, "\"%s\" in the draft is not on the page", d->draft);
		else
			sw_buf_addf(&b, "\"%s\" on the page is not in the draft", d->page);
	}
	size_t rest = c->ndiffs - shown + c->more;
	if (rest)
		sw_buf_addf(&b, "; and %zu more difference%s", rest, rest == 1 ? "" : "s");
	return sw_buf_detach(&b, NULL);
}

char *sw__verify_closest_text(const char *quote, size_t qlen, const char *text, size_t len,
			      const struct sw__verify_skip *skip, size_t nskip)
{
	struct sw__verify_closest c;
	if (!sw__verify_closest(&c, quote, qlen, text, len, skip, nskip))
		return NULL;
	char *d = sw__verify_closest_describe(&c, text, len);
	sw__verify_closest_release(&c);
	return d;
}
