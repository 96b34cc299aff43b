/*
 * search_rank.c - bm25 (k1 = 1.2, b = 0.75, every column weighted 1) for
 * pages_fts, as FTS5 computes it, without a query per matching page.
 *
 * bm25 needs each matching page's length in tokens; FTS5 reads it from
 * pages_fts_docsize with one SQL lookup per row, which is most of the time
 * of a word found on most pages (254 ms at 100,000 pages).  For a common
 * query every page's length is read once instead, in one sequential scan
 * of pages_fts_docsize, into an array indexed by page id, and each row is
 * scored from that array and the positions FTS5 already holds.  A page id
 * beyond the array, or a length the scan could not read, falls back to
 * xColumnSize.  The figures are bm25's own (same formula, same statistics,
 * same order of operations): only where the length comes from changes.
 *
 * Two ways to rank:
 *   - sw_rank(pages_fts), an auxiliary function for ORDER BY: any query.
 *     bm25's statistics (each phrase's IDF: a pass over its hits) are
 *     computed at the first row.
 *   - sw__record_rank_top: the best k pages kept in a heap as the rows
 *     go by, without SQLite's sorter.  A query of several phrases gets
 *     its IDFs at the first row too, and every row its final score.  A
 *     query of one phrase is ranked in one pass: its IDF scales every
 *     score alike, so the pages are ranked by the rest of the formula
 *     and the IDF (from the number of rows seen) applied at the end.
 *     Rounding may map two different values to one score, so a page
 *     left out might tie one kept; when that can happen the caller is
 *     told to use sw_rank instead.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#define K1 1.2
#define B 0.75
#define PRELOAD_MIN 4096
/* Page ids past this are looked up one by one (the array is 4 bytes a
 * page: 64 MiB at most). */
#define PRELOAD_MAX_ID (16 * 1024 * 1024)
#define NO_LENGTH UINT32_MAX
#define TOP_PTR "sw_rank_top"
#define LEN_PTR "sw_page_lengths"

struct top;

struct rank_query {
	int nphrase;
	double avgdl;
	double *idf;          /* per phrase, unless deferred */
	double *freq;         /* per phrase, scratch for the current row */
	uint32_t *len;        /* tokens by page id, or NULL */
	int64_t nlen;
	int64_t nrow;         /* pages in the index */
	int64_t seen;         /* rows scored */
	bool preload_tried;
	bool deferred;        /* one phrase, its IDF left to the end */
	struct top *top;      /* sw_rank_top's heap, from its first row */
};

static void rank_query_free(void *p)
{
	struct rank_query *q = p;
	if (!q)
		return;
	free(q->idf);
	free(q->freq);
	free(q->len);
	free(q);
}

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ctx)
{
	(void)api;
	(void)fts;
	(*(int64_t *)ctx)++;
	return SQLITE_OK;
}

/* A docsize blob of one column: one FTS5 varint (big-endian groups of 7
 * bits, the high bit set on all but the last; at most 9 bytes). */
static uint32_t blob_length(const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n && i < 9; i++) {
		v = (v << 7) | (b[i] & 0x7f);
		if (!(b[i] & 0x80))
			return v < NO_LENGTH ? (uint32_t)v : NO_LENGTH;
	}
	return NO_LENGTH;
}

/* sw_page_length(PTR, id, sz): store sz's length at id in the array PTR
 * points to (a struct rank_query), inside the scan's one statement rather
 * than a sqlite3_step and three column reads a page.  0. */
static void page_length(sqlite3_context *ctx, int nval, sqlite3_value **val)
{
	(void)nval;
	/* The pointer is a bound parameter, the same for every row: looked
	 * up by its type name once. */
	struct rank_query *q = sqlite3_get_auxdata(ctx, 0);
	if (!q && (q = sqlite3_value_pointer(val[0], LEN_PTR)))
		sqlite3_set_auxdata(ctx, 0, q, NULL);
	int64_t id = sqlite3_value_int64(val[1]);
	if (q && q->len && id >= 0 && id < q->nlen && sqlite3_value_type(val[2]) == SQLITE_BLOB) {
		const unsigned char *b = sqlite3_value_blob(val[2]);
		if (b)
			q->len[id] = blob_length(b, sqlite3_value_bytes(val[2]));
	}
	sqlite3_result_int(ctx, 0);
}

static void preload_lengths(struct rank_query *q, sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int64_t max = 0;
	q->preload_tried = true;
	if (sqlite3_prepare_v2(db, "SELECT max(id) FROM pages_fts_docsize", -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		max = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (max <= 0)
		return;
	q->nlen = (max < PRELOAD_MAX_ID ? max : PRELOAD_MAX_ID) + 1;
	q->len = sw_xmalloc((size_t)q->nlen * sizeof(*q->len));
	memset(q->len, 0xff, (size_t)q->nlen * sizeof(*q->len));
	int step = SQLITE_ERROR;
	/* sw_page_length is 0: no row comes back, the scan is one step. */
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pages_fts_docsize WHERE sw_page_length(?1, id, sz)",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_pointer(st, 1, q, LEN_PTR, NULL);
		step = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		/* Not read: every page is looked up on its own. */
		free(q->len);
		q->len = NULL;
	}
}

/* The query's statistics, computed at its first row as bm25 does: the
 * average length, each phrase's IDF (log((N - n + 0.5) / (n + 0.5)), at
 * least 1e-6) and the lengths array when the phrases are common; the IDF
 * of a query of one phrase is left to the end when defer_one. */
static struct rank_query *rank_query_new(const Fts5ExtensionApi *api, Fts5Context *fts,
					 bool defer_one)
{
	sqlite3_int64 nrow = 0, ntok = 0;
	int64_t most = 0;
	if (api->xRowCount(fts, &nrow) != SQLITE_OK || api->xColumnTotalSize(fts, -1, &ntok) != SQLITE_OK)
		return NULL;
	struct rank_query *q = sw_xcalloc(1, sizeof(*q));
	q->nphrase = api->xPhraseCount(fts);
	q->nrow = nrow;
	q->avgdl = nrow > 0 ? (double)ntok / (double)nrow : 1.0;
	q->idf = sw_xcalloc((size_t)(q->nphrase > 0 ? q->nphrase : 1), sizeof(*q->idf));
	q->freq = sw_xcalloc((size_t)(q->nphrase > 0 ? q->nphrase : 1), sizeof(*q->freq));
	q->deferred = defer_one && q->nphrase == 1;
	bool idf = !q->deferred;
	for (int i = 0; idf && i < q->nphrase; i++) {
		int64_t nhit = 0;
		if (api->xQueryPhrase(fts, i, &nhit, count_row) != SQLITE_OK) {
			rank_query_free(q);
			return NULL;
		}
		double v = log(((double)nrow - (double)nhit + 0.5) / ((double)nhit + 0.5));
		q->idf[i] = v > 0.0 ? v : 1e-6;
		if (nhit > most)
			most = nhit;
	}
	if (idf && most >= PRELOAD_MIN && most > nrow / 16)
		preload_lengths(q, api->xUserData(fts));
	q->preload_tried = idf; /* decided; else as the rows go by */
	return q;
}

/* The query's statistics, made at the first row; NULL with ctx's error
 * set. */
static struct rank_query *rank_query_get(const Fts5ExtensionApi *api, Fts5Context *fts,
					 sqlite3_context *ctx, bool defer_one)
{
	struct rank_query *q = api->xGetAuxdata(fts, 0);
	if (q)
		return q;
	if (!(q = rank_query_new(api, fts, defer_one))) {
		sqlite3_result_error(ctx, "sw_rank: cannot read the index statistics", -1);
		return NULL;
	}
	if (api->xSetAuxdata(fts, q, rank_query_free) != SQLITE_OK) {
		sqlite3_result_error_nomem(ctx);
		return NULL; /* xSetAuxdata freed q */
	}
	return q;
}

/* The current row's matches of each phrase (q->freq) and its length in
 * tokens (*d); false with ctx's error set. */
static bool row_terms(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
		      struct rank_query *q, double *d)
{
	q->seen++;
	/* Each phrase's matches, as bm25 counts them with xInst, but walked
	 * phrase by phrase (xInstCount builds a sorted array of them all). */
	for (int i = 0; i < q->nphrase; i++) {
		Fts5PhraseIter it;
		int col = -1, off = 0;
		double n = 0.0;
		if (api->xPhraseFirst(fts, i, &it, &col, &off) != SQLITE_OK) {
			sqlite3_result_error(ctx, "sw_rank: cannot read the matches", -1);
			return false;
		}
		for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off))
			n += 1.0;
		q->freq[i] = n;
	}
	sqlite3_int64 rowid = api->xRowid(fts);
	uint32_t len = q->len && rowid >= 0 && rowid < q->nlen ? q->len[rowid] : NO_LENGTH;
	if (len != NO_LENGTH) {
		*d = (double)len;
		return true;
	}
	int ntok = 0;
	if (api->xColumnSize(fts, -1, &ntok) != SQLITE_OK) {
		sqlite3_result_error(ctx, "sw_rank: cannot read a page's length", -1);
		return false;
	}
	*d = (double)ntok;
	return true;
}

/* Phrase i's share of the score before its IDF, as bm25 writes it. */
static double tf_part(const struct rank_query *q, int i, double d)
{
	return (q->freq[i] * (K1 + 1.0)) / (q->freq[i] + K1 * (1 - B + B * d / q->avgdl));
}

/* The sum of each phrase's IDF times its tf_part, in bm25's order: the
 * row's bm25 score is -1.0 times it. */
static double idf_score(const struct rank_query *q, double d)
{
	double score = 0.0;
	for (int i = 0; i < q->nphrase; i++)
		score += q->idf[i] * tf_part(q, i, d);
	return score;
}

/* sw_rank(pages_fts): bm25(pages_fts). */
static void rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
		 int nval, sqlite3_value **val)
{
	(void)nval;
	(void)val;
	struct rank_query *q = rank_query_get(api, fts, ctx, false);
	double d = 0.0;
	if (!q || !row_terms(api, fts, ctx, q, &d))
		return;
	sqlite3_result_double(ctx, -1.0 * idf_score(q, d));
}

/* ------------------------------------------------------------- the heap */

struct top_row {
	int64_t id;
	/* Higher ranks first: idf_score, or when the IDF is deferred,
	 * tf_part (the score is then -1.0 * (0.0 + idf * tf)). */
	double tf;
	double score; /* at the end */
};

struct top {
	size_t k;
	struct top_row *rows; /* a heap, its worst row first */
	size_t n;
	int nout;             /* distinct tf values among the rows left out: 0-2 */
	double out1, out2;    /* the best two of them, out1 > out2 */
	int64_t nrow;         /* pages in the index, at its first row */
	bool deferred;        /* at its first row: rank_query's */
};

/* a ranks after b: a lower tf, or the same and a higher page id. */
static bool worse(const struct top_row *a, const struct top_row *b)
{
	return a->tf < b->tf || (a->tf == b->tf && a->id > b->id);
}

static void left_out(struct top *t, double tf)
{
	if (t->nout == 0 || tf > t->out1) {
		if (t->nout > 0) {
			t->out2 = t->out1;
			t->nout = 2;
		} else {
			t->nout = 1;
		}
		t->out1 = tf;
	} else if (tf < t->out1 && (t->nout == 1 || tf > t->out2)) {
		t->out2 = tf;
		t->nout = 2;
	}
}

static void swap_rows(struct top_row *a, struct top_row *b)
{
	struct top_row x = *a;
	*a = *b;
	*b = x;
}

static void top_add(struct top *t, int64_t id, double tf)
{
	struct top_row row = { id, tf, 0.0 };
	if (t->n < t->k) {
		size_t i = t->n++;
		t->rows[i] = row;
		for (; i > 0 && worse(&t->rows[i], &t->rows[(i - 1) / 2]); i = (i - 1) / 2)
			swap_rows(&t->rows[i], &t->rows[(i - 1) / 2]);
		return;
	}
	if (t->k == 0 || !worse(&t->rows[0], &row)) {
		left_out(t, tf);
		return;
	}
	left_out(t, t->rows[0].tf);
	t->rows[0] = row;
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, w = i;
		if (l < t->n && worse(&t->rows[l], &t->rows[w]))
			w = l;
		if (r < t->n && worse(&t->rows[r], &t->rows[w]))
			w = r;
		if (w == i)
			break;
		swap_rows(&t->rows[i], &t->rows[w]);
		i = w;
	}
}

/* sw_rank_top(pages_fts, PTR): score the row into the struct top PTR
 * points to.  NULL. */
static void rank_top(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
		     int nval, sqlite3_value **val)
{
	struct rank_query *q = rank_query_get(api, fts, ctx, true);
	double d = 0.0;
	if (!q)
		return;
	struct top *t = q->top;
	if (!t) {
		if (!(t = nval == 1 ? sqlite3_value_pointer(val[0], TOP_PTR) : NULL)) {
			sqlite3_result_error(ctx, "sw_rank_top: no heap", -1);
			return;
		}
		q->top = t;
		t->deferred = q->deferred;
		t->nrow = q->nrow;
	}
	/* Common (at least one page in sixteen among the ids seen so far,
	 * checked at 256 rows, 512, ...): read every length at once. */
	if (!q->len && !q->preload_tried && q->nrow >= PRELOAD_MIN && q->seen >= 256 &&
	    !(q->seen & (q->seen - 1)) && q->seen * 16 > api->xRowid(fts))
		preload_lengths(q, api->xUserData(fts));
	if (!row_terms(api, fts, ctx, q, &d))
		return;
	top_add(t, api->xRowid(fts), q->deferred ? tf_part(q, 0, d) : idf_score(q, d));
	sqlite3_result_null(ctx);
}

static int cmp_score(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* -1.0 * (0.0 + idf * tf): bm25's score of one phrase, its operations in
 * bm25's order. */
static double phrase_score(double idf, double tf)
{
	double score = 0.0;
	score += idf * tf;
	return -1.0 * score;
}

int sw__record_rank_top(struct sw__record_ranked **out, size_t *n, bool *exact, bool *all,
			sqlite3 *db, const char *expr, size_t len, size_t k, struct sw_err *err)
{
	struct top t = { .k = k };
	sqlite3_stmt *st = NULL;
	int rc = 0;

	*out = NULL;
	*n = 0;
	*exact = false;
	*all = false;
	t.rows = sw_xmalloc((k ? k : 1) * sizeof(*t.rows));
	/* In the WHERE clause, as an aggregate's argument would not be an
	 * auxiliary function's context; it returns NULL. */
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ?1"
			       " AND sw_rank_top(pages_fts, ?2) IS NULL", -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, db, "cannot search");
		goto cleanup;
	}
	sqlite3_bind_text(st, 1, expr, (int)len, SQLITE_STATIC);
	sqlite3_bind_pointer(st, 2, &t, TOP_PTR, NULL);
	if (sqlite3_step(st) != SQLITE_ROW) {
		rc = sw__record_sqlerr(err, db, "cannot search");
		goto cleanup;
	}
	int64_t nhit = sqlite3_column_int64(st, 0);
	double idf = log(((double)t.nrow - (double)nhit + 0.5) / ((double)nhit + 0.5));
	idf = idf > 0.0 ? idf : 1e-6;
	for (size_t i = 0; i < t.n; i++)
		t.rows[i].score = t.deferred ? phrase_score(idf, t.rows[i].tf) : -1.0 * t.rows[i].tf;
	qsort(t.rows, t.n, sizeof(*t.rows), cmp_score);
	/* A row left out has a tf no higher than any kept.  With the last
	 * kept row's tf it ranks after it (the heap, as the order, breaks
	 * the tie by page id); with a lower one it does too unless its
	 * score, rounded, is the same: then the order is not known here. */
	/* Fault seam: SWORN_FAULT=rank-tie:N makes the Nth such query's
	 * order unknown here, as a tie would (tests/cli/search.sh). */
	if (t.deferred && sw_fault("rank-tie"))
		goto cleanup;
	if (t.deferred && t.n > 0 && t.nout > 0) {
		double last = t.rows[t.n - 1].tf;
		bool below = t.out1 < last || t.nout == 2;
		double tf = t.out1 < last ? t.out1 : t.out2;
		if (below && !(phrase_score(idf, tf) > t.rows[t.n - 1].score))
			goto cleanup;
	}
	*out = sw_xmalloc((t.n ? t.n : 1) * sizeof(**out));
	for (size_t i = 0; i < t.n; i++) {
		(*out)[i].id = t.rows[i].id;
		(*out)[i].score = t.rows[i].score;
	}
	*n = t.n;
	*exact = true;
	*all = t.nout == 0;
cleanup:
	sqlite3_finalize(st);
	free(t.rows);
	return rc;
}

int sw__record_rank_register(sqlite3 *db, fts5_api *api, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	/* Registered once per connection: a second registration would add a
	 * second copy. */
	if (sqlite3_prepare_v2(db, "SELECT sw_rank(pages_fts) FROM pages_fts WHERE 0", -1, &st,
			       NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	if (api->xCreateFunction(api, "sw_rank", db, rank, NULL) != SQLITE_OK ||
	    api->xCreateFunction(api, "sw_rank_top", db, rank_top, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(db, "sw_page_length", 3, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL,
				       page_length, NULL, NULL, NULL) != SQLITE_OK)
		return sw_err_set(err, SW_EDB, "cannot search: cannot register sw_rank");
	return 0;
}
