/* diff.c - the word-level diff of a model's draft and the lawyer's final.
 *
 * Words are interned to integers so that comparing two is one compare.
 * The diff is patience-anchored Myers: words that occur once in each side
 * of a region and in the same order anchor it (their longest increasing
 * run, found by patience sorting in O(k log k)); the gaps between anchors
 * are diffed again, and a gap without anchors goes to Myers' O(ND)
 * linear-space algorithm (the middle snake, divided and conquered).
 * Anchoring keeps a moved paragraph from matching a stray "the" across the
 * page, and keeps Myers' regions small.  Myers' search is bounded by a
 * work budget per region (the edit distance it looks for, dmax, shrinks as
 * the region grows): past it, the region is split where the search got
 * furthest and each part diffed on, so that time stays about
 * MYERS_WORK per region and memory linear, at the cost of a diff that may
 * be longer than the shortest one. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

#define MYERS_WORK ((size_t)100000000) /* steps of one region's search */
#define MYERS_DMIN 64                  /* ...but at least this distance */
#define MYERS_DCAP ((long)1 << 16)     /* and never more than this */
#define ANCHOR_DEPTH 32                /* nested anchoring at most */

enum { OP_KEEP, OP_DEL, OP_ADD };

struct word {
	const char *p;
	size_t len;
};

struct edit {
	uint8_t op;
	uint32_t idx; /* into the a side (keep, del) or the b side (add) */
};

struct diff {
	uint32_t *a, *b;   /* interned ids */
	size_t na, nb;
	size_t nids;
	uint32_t *cnt_a, *cnt_b, *pos_b; /* per id, for anchoring */
	long *vf, *vb;     /* Myers' frontiers, indexed -vmax..vmax */
	long vmax;
	struct edit *ed;
	size_t ned, caped;
};

/* A blank: ASCII white space, or a Unicode space (no-break, the U+2000
 * series, line and paragraph separators, the ideographic space).  Returns
 * its length in bytes, 0 when p is not at one. */
static size_t blank_at(const unsigned char *p, size_t left)
{
	if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		return 1;
	if (left >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
		return 2;
	if (left >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x80 && p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf))
		return 3;
	if (left >= 3 && p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3;
	if (left >= 3 && p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3;
	return 0;
}

static void split_words(struct word **out, size_t *n, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, cap = 0;
	*out = NULL;
	*n = 0;
	while (i < len) {
		size_t bl = blank_at(p + i, len - i);
		if (bl) {
			i += bl;
			continue;
		}
		size_t start = i;
		while (i < len && !blank_at(p + i, len - i))
			i++;
		*out = sw_xgrow(*out, &cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = (struct word){ s + start, i - start };
	}
}

static uint64_t word_hash(const struct word *w)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (size_t i = 0; i < w->len; i++) {
		h ^= (unsigned char)w->p[i];
		h *= 1099511628211u;
	}
	return h;
}

/* Give every distinct word of both sides an id (open addressing). */
static void intern(struct diff *d, const struct word *wa, const struct word *wb)
{
	size_t total = d->na + d->nb, size = 16;
	while (size < total * 2)
		size <<= 1;
	uint32_t *slot = sw_xmalloc(size * sizeof(*slot)); /* id + 1, 0 empty */
	memset(slot, 0, size * sizeof(*slot));
	const struct word **byid = sw_xmalloc((total ? total : 1) * sizeof(*byid));
	d->a = sw_xmalloc((d->na ? d->na : 1) * sizeof(*d->a));
	d->b = sw_xmalloc((d->nb ? d->nb : 1) * sizeof(*d->b));
	for (size_t i = 0; i < total; i++) {
		const struct word *w = i < d->na ? &wa[i] : &wb[i - d->na];
		size_t h = (size_t)word_hash(w) & (size - 1);
		while (slot[h]) {
			const struct word *o = byid[slot[h] - 1];
			if (o->len == w->len && memcmp(o->p, w->p, w->len) == 0)
				break;
			h = (h + 1) & (size - 1);
		}
		if (!slot[h]) {
			byid[d->nids] = w;
			slot[h] = (uint32_t)++d->nids;
		}
		if (i < d->na)
			d->a[i] = slot[h] - 1;
		else
			d->b[i - d->na] = slot[h] - 1;
	}
	free(slot);
	free(byid);
}

static void emit(struct diff *d, int op, size_t idx, size_t n)
{
	d->ed = sw_xgrow(d->ed, &d->caped, d->ned + n, sizeof(*d->ed));
	for (size_t i = 0; i < n; i++)
		d->ed[d->ned++] = (struct edit){ (uint8_t)op, (uint32_t)(idx + i) };
}

/* Myers' middle snake of a[0..n) and b[0..m) (offsets into d->a, d->b at
 * ao, bo), searching edit distances up to dmax.  1: the snake runs from
 * (*x0, *y0) to (*x1, *y1).  0: the distance is past dmax; (*x0, *y0) is
 * the point the forward search got furthest to within dmax edits (GNU
 * diff's heuristic: splitting there costs optimality, not correctness). */
static int middle_snake(struct diff *d, size_t ao, long n, size_t bo, long m, long dmax,
			long *x0, long *y0, long *x1, long *y1)
{
	const uint32_t *a = d->a + ao, *b = d->b + bo;
	long *vf = d->vf + d->vmax, *vb = d->vb + d->vmax;
	long delta = n - m, bestx = 0, besty = 0;
	bool odd = delta & 1;
	vf[1] = 0;
	vb[1] = 0;
	for (long D = 0; D <= (n + m + 1) / 2; D++) {
		if (D > dmax)
			break;
		for (long k = -D; k <= D; k += 2) {
			long x = (k == -D || (k != D && vf[k - 1] < vf[k + 1])) ? vf[k + 1]
										: vf[k - 1] + 1;
			long y = x - k, xs = x, ys = y;
			while (x < n && y < m && a[x] == b[y])
				x++, y++;
			vf[k] = x;
			if (x <= n && y >= 0 && y <= m && x + y > bestx + besty)
				bestx = x, besty = y;
			long kb = delta - k;
			if (odd && kb >= -(D - 1) && kb <= D - 1 && vf[k] + vb[kb] >= n) {
				*x0 = xs, *y0 = ys, *x1 = x, *y1 = y;
				return 1;
			}
		}
		for (long k = -D; k <= D; k += 2) {
			long x = (k == -D || (k != D && vb[k - 1] < vb[k + 1])) ? vb[k + 1]
										: vb[k - 1] + 1;
			long y = x - k, xs = x, ys = y;
			while (x < n && y < m && a[n - x - 1] == b[m - y - 1])
				x++, y++;
			vb[k] = x;
			long kf = delta - k;
			if (!odd && kf >= -D && kf <= D && vb[k] + vf[kf] >= n) {
				*x0 = n - x, *y0 = m - y, *x1 = n - xs, *y1 = m - ys;
				return 1;
			}
		}
	}
	*x0 = *x1 = bestx;
	*y0 = *y1 = besty;
	return 0;
}

/* The right part of each split is taken in the loop, not by recursion:
 * past the budget there is a split per dmax edits or so, too many to
 * nest.  The left part is within the budget, so its recursion is about
 * log(dmax) deep. */
static void myers(struct diff *d, size_t ao, size_t n, size_t bo, size_t m, long dmax)
{
	size_t tail = 0;
	while (tail < n && tail < m && d->a[ao + n - 1 - tail] == d->b[bo + m - 1 - tail])
		tail++;
	n -= tail, m -= tail;
	size_t end_a = ao + n;
	for (;;) {
		while (n && m && d->a[ao] == d->b[bo]) {
			emit(d, OP_KEEP, ao, 1);
			ao++, bo++, n--, m--;
		}
		long x0 = 0, y0 = 0, x1 = 0, y1 = 0;
		int found = n && m ? middle_snake(d, ao, (long)n, bo, (long)m, dmax, &x0, &y0,
						  &x1, &y1)
				   : 0;
		if (!n || !m || ((size_t)x0 == n && (size_t)y0 == m) || (x1 == 0 && y1 == 0)) {
			/* One side empty, or a split that would not shrink the
			 * problem: what is left is removed and added. */
			emit(d, OP_DEL, ao, n);
			emit(d, OP_ADD, bo, m);
			break;
		}
		/* The snake, or (past the budget) the furthest point reached. */
		myers(d, ao, (size_t)x0, bo, (size_t)y0, dmax);
		if (found)
			emit(d, OP_KEEP, ao + (size_t)x0, (size_t)(x1 - x0));
		ao += (size_t)x1, n -= (size_t)x1;
		bo += (size_t)y1, m -= (size_t)y1;
	}
	emit(d, OP_KEEP, end_a, tail);
}

/* Anchor a[ao..ao+n) and b[bo..bo+m) on the words unique to each, in
 * order; diff the gaps. */
static void region(struct diff *d, size_t ao, size_t n, size_t bo, size_t m, int depth)
{
	size_t head = 0;
	while (head < n && head < m && d->a[ao + head] == d->b[bo + head])
		head++;
	emit(d, OP_KEEP, ao, head);
	ao += head, bo += head, n -= head, m -= head;
	size_t tail = 0;
	while (tail < n && tail < m && d->a[ao + n - 1 - tail] == d->b[bo + m - 1 - tail])
		tail++;
	n -= tail, m -= tail;

	/* Candidate anchors: (i in a, j in b) of words once in each. */
	size_t k = 0;
	uint32_t *ai = NULL, *bj = NULL;
	if (n && m && depth < ANCHOR_DEPTH) {
		for (size_t i = 0; i < n; i++)
			d->cnt_a[d->a[ao + i]]++;
		for (size_t j = 0; j < m; j++) {
			d->cnt_b[d->b[bo + j]]++;
			d->pos_b[d->b[bo + j]] = (uint32_t)j;
		}
		ai = sw_xmalloc(n * sizeof(*ai));
		bj = sw_xmalloc(n * sizeof(*bj));
		for (size_t i = 0; i < n; i++) {
			uint32_t id = d->a[ao + i];
			if (d->cnt_a[id] == 1 && d->cnt_b[id] == 1) {
				ai[k] = (uint32_t)i;
				bj[k++] = d->pos_b[id];
			}
		}
		for (size_t i = 0; i < n; i++)
			d->cnt_a[d->a[ao + i]] = 0;
		for (size_t j = 0; j < m; j++)
			d->cnt_b[d->b[bo + j]] = 0;
	}
	if (k == 0) {
		long dmax = (long)(MYERS_WORK / (n + m + 1));
		dmax = dmax < MYERS_DMIN ? MYERS_DMIN : dmax > MYERS_DCAP ? MYERS_DCAP : dmax;
		if (dmax > d->vmax - 2)
			dmax = d->vmax - 2;
		myers(d, ao, n, bo, m, dmax);
	} else {
		/* Patience sorting: the longest run of anchors increasing in b. */
		size_t *top = sw_xmalloc(k * sizeof(*top)), *prev = sw_xmalloc(k * sizeof(*prev));
		size_t piles = 0;
		for (size_t c = 0; c < k; c++) {
			size_t lo = 0, hi = piles;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (bj[top[mid]] < bj[c])
					lo = mid + 1;
				else
					hi = mid;
			}
			prev[c] = lo ? top[lo - 1] : SIZE_MAX;
			top[lo] = c;
			if (lo == piles)
				piles++;
		}
		size_t *chain = sw_xmalloc(piles * sizeof(*chain));
		size_t c = top[piles - 1];
		for (size_t p = piles; p-- > 0; c = prev[c])
			chain[p] = c;
		size_t pa = 0, pb = 0;
		for (size_t p = 0; p < piles; p++) {
			size_t i = ai[chain[p]], j = bj[chain[p]];
			region(d, ao + pa, i - pa, bo + pb, j - pb, depth + 1);
			emit(d, OP_KEEP, ao + i, 1);
			pa = i + 1, pb = j + 1;
		}
		region(d, ao + pa, n - pa, bo + pb, m - pb, depth + 1);
		free(chain);
		free(top);
		free(prev);
	}
	free(ai);
	free(bj);
	emit(d, OP_KEEP, ao + n, tail);
}

static void add_op(json_t *ops, const char *tag, const struct word *w, const struct edit *e,
		   size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (i)
			sw_buf_addc(&b, ' ');
		sw_buf_add(&b, w[e[i].idx].p, w[e[i].idx].len);
	}
	json_t *op = json_array();
	json_array_append_new(op, json_string(tag));
	json_array_append_new(op, sw_json_strn(b.data, b.len));
	json_array_append_new(ops, op);
	sw_buf_release(&b);
}

int sw_word_diff(struct json_t **ops, struct sw_diff_stats *st, const char *a, size_t alen,
		 const char *b, size_t blen, struct sw_err *err)
{
	struct word *wa = NULL, *wb = NULL;
	struct diff d;

	*ops = NULL;
	memset(st, 0, sizeof(*st));
	if (alen > SW_DIFF_MAX_BYTES || blen > SW_DIFF_MAX_BYTES)
		return sw_err_set(err, SW_ELIMIT,
				  "cannot compare texts of %zu and %zu bytes: the word diff "
				  "takes at most %zu bytes a side",
				  alen, blen, (size_t)SW_DIFF_MAX_BYTES);
	memset(&d, 0, sizeof(d));
	split_words(&wa, &d.na, a, alen);
	split_words(&wb, &d.nb, b, blen);
	intern(&d, wa, wb);
	size_t nid = d.nids ? d.nids : 1;
	d.cnt_a = sw_xcalloc(nid, sizeof(*d.cnt_a));
	d.cnt_b = sw_xcalloc(nid, sizeof(*d.cnt_b));
	d.pos_b = sw_xcalloc(nid, sizeof(*d.pos_b));
	d.vmax = (long)(d.na + d.nb) + 2;
	if (d.vmax > MYERS_DCAP + 2)
		d.vmax = MYERS_DCAP + 2;
	d.vf = sw_xcalloc((size_t)(2 * d.vmax + 1), sizeof(*d.vf));
	d.vb = sw_xcalloc((size_t)(2 * d.vmax + 1), sizeof(*d.vb));

	region(&d, 0, d.na, 0, d.nb, 0);

	/* Merge: a run of keeps is one "=" op; between two such runs, every
	 * removal is one "-" op and every addition one "+" op. */
	json_t *out = json_array();
	struct edit *del = sw_xmalloc((d.ned ? d.ned : 1) * sizeof(*del));
	struct edit *add = sw_xmalloc((d.ned ? d.ned : 1) * sizeof(*add));
	size_t i = 0;
	while (i < d.ned) {
		if (d.ed[i].op == OP_KEEP) {
			size_t j = i;
			while (j < d.ned && d.ed[j].op == OP_KEEP)
				j++;
			add_op(out, "=", wa, d.ed + i, j - i);
			st->kept += j - i;
			i = j;
			continue;
		}
		size_t nd = 0, na = 0;
		while (i < d.ned && d.ed[i].op != OP_KEEP) {
			if (d.ed[i].op == OP_DEL)
				del[nd++] = d.ed[i];
			else
				add[na++] = d.ed[i];
			i++;
		}
		if (nd)
			add_op(out, "-", wa, del, nd);
		if (na)
			add_op(out, "+", wb, add, na);
		size_t changed = nd < na ? nd : na;
		st->changed += changed;
		st->removed += nd - changed;
		st->added += na - changed;
	}
	free(del);
	free(add);
	*ops = out;

	free(d.a);
	free(d.b);
	free(d.cnt_a);
	free(d.cnt_b);
	free(d.pos_b);
	free(d.vf);
	free(d.vb);
	free(d.ed);
	free(wa);
	free(wb);
	return 0;
}
