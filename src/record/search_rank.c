/*
 * search_rank.c - sw_rank(pages_fts): FTS5's bm25 (k1 = 1.2, b = 0.75,
 * every column weighted 1) without a query per matching page.
 *
 * bm25 needs each matching page's length in tokens; FTS5 reads it from
 * pages_fts_docsize with one SQL lookup per row, which is most of the time
 * of a word found on most pages (254 ms at 100,000 pages).  When a query's
 * phrases match more than a sixteenth of the pages (and at least
 * PRELOAD_MIN), sw_rank reads every page's length once, in one sequential
 * scan of pages_fts_docsize, into an array indexed by page id, and scores
 * each row from that array and the positions FTS5 already holds.  The
 * figures are bm25's own (same formula, same statistics): only where the
 * length comes from changes.  A page id beyond the array, or a length the
 * scan could not read, falls back to xColumnSize.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#define PRELOAD_MIN 4096
/* Page ids past this are looked up one by one (the array is 4 bytes a
 * page: 64 MiB at most). */
#define PRELOAD_MAX_ID (16 * 1024 * 1024)
#define NO_LENGTH UINT32_MAX

struct rank_query {
	int nphrase;
	double avgdl;
	double *idf;          /* per phrase */
	double *freq;         /* per phrase, scratch for the current row */
	uint32_t *len;        /* tokens by page id, or NULL */
	int64_t nlen;
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

static void preload_lengths(struct rank_query *q, sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int64_t max = 0;
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
	if (sqlite3_prepare_v2(db, "SELECT id, sz FROM pages_fts_docsize WHERE id < ?1", -1, &st,
			       NULL) != SQLITE_OK) {
		free(q->len);
		q->len = NULL;
		return;
	}
	sqlite3_bind_int64(st, 1, q->nlen);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const unsigned char *b = sqlite3_column_blob(st, 1);
		if (id >= 0 && id < q->nlen && b)
			q->len[id] = blob_length(b, sqlite3_column_bytes(st, 1));
	}
	sqlite3_finalize(st);
}

/* The query's statistics, computed at its first row as bm25 does: the
 * average length, each phrase's IDF (log((N - n + 0.5) / (n + 0.5)), at
 * least 1e-6), and the lengths array when the phrases are common. */
static struct rank_query *rank_query_new(const Fts5ExtensionApi *api, Fts5Context *fts)
{
	sqlite3_int64 nrow = 0, ntok = 0;
	int64_t most = 0;
	if (api->xRowCount(fts, &nrow) != SQLITE_OK || api->xColumnTotalSize(fts, -1, &ntok) != SQLITE_OK)
		return NULL;
	struct rank_query *q = sw_xcalloc(1, sizeof(*q));
	q->nphrase = api->xPhraseCount(fts);
	q->avgdl = nrow > 0 ? (double)ntok / (double)nrow : 1.0;
	q->idf = sw_xcalloc((size_t)(q->nphrase > 0 ? q->nphrase : 1), sizeof(*q->idf));
	q->freq = sw_xcalloc((size_t)(q->nphrase > 0 ? q->nphrase : 1), sizeof(*q->freq));
	for (int i = 0; i < q->nphrase; i++) {
		int64_t nhit = 0;
		if (api->xQueryPhrase(fts, i, &nhit, count_row) != SQLITE_OK) {
			rank_query_free(q);
			return NULL;
		}
		double idf = log(((double)nrow - (double)nhit + 0.5) / ((double)nhit + 0.5));
		q->idf[i] = idf > 0.0 ? idf : 1e-6;
		if (nhit > most)
			most = nhit;
	}
	if (most >= PRELOAD_MIN && most > nrow / 16)
		preload_lengths(q, api->xUserData(fts));
	return q;
}

static void rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
		 int nval, sqlite3_value **val)
{
	const double k1 = 1.2, b = 0.75;
	(void)nval;
	(void)val;
	struct rank_query *q = api->xGetAuxdata(fts, 0);
	if (!q) {
		if (!(q = rank_query_new(api, fts))) {
			sqlite3_result_error(ctx, "sw_rank: cannot read the index statistics", -1);
			return;
		}
		if (api->xSetAuxdata(fts, q, rank_query_free) != SQLITE_OK) {
			sqlite3_result_error_nomem(ctx);
			return; /* xSetAuxdata freed q */
		}
	}
	int ninst = 0;
	if (api->xInstCount(fts, &ninst) != SQLITE_OK) {
		sqlite3_result_error(ctx, "sw_rank: cannot read the matches", -1);
		return;
	}
	memset(q->freq, 0, (size_t)(q->nphrase > 0 ? q->nphrase : 1) * sizeof(*q->freq));
	for (int i = 0; i < ninst; i++) {
		int phrase, col, off;
		if (api->xInst(fts, i, &phrase, &col, &off) == SQLITE_OK && phrase >= 0 &&
		    phrase < q->nphrase)
			q->freq[phrase] += 1.0;
	}
	sqlite3_int64 rowid = api->xRowid(fts);
	uint32_t len = q->len && rowid >= 0 && rowid < q->nlen ? q->len[rowid] : NO_LENGTH;
	double d;
	if (len != NO_LENGTH) {
		d = (double)len;
	} else {
		int ntok = 0;
		if (api->xColumnSize(fts, -1, &ntok) != SQLITE_OK) {
			sqlite3_result_error(ctx, "sw_rank: cannot read a page's length", -1);
			return;
		}
		d = (double)ntok;
	}
	double score = 0.0;
	for (int i = 0; i < q->nphrase; i++)
		score += q->idf[i] * ((q->freq[i] * (k1 + 1.0)) /
				      (q->freq[i] + k1 * (1 - b + b * d / q->avgdl)));
	sqlite3_result_double(ctx, -1.0 * score);
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
	if (api->xCreateFunction(api, "sw_rank", db, rank, NULL) != SQLITE_OK)
		return sw_err_set(err, SW_EDB, "cannot search: cannot register sw_rank");
	return 0;
}
