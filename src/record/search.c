/*
 * search.c - full-text search over page text: FTS5 with the "sworn"
 * tokenizer, ranked by bm25.
 *
 * A plain query is never handed to FTS5 as syntax: each word becomes a
 * quoted string, so that "ACME-0000123", "§" or a stray "(" is searched for
 * rather than parsed, and the words are ANDed.  Words the tokenizer finds
 * nothing in ("-", "&") are dropped first, because an empty phrase makes an
 * AND match nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#define DEFAULT_LIMIT 20

/* pages_fts is an external-content table over pages, so its rowid is the
 * page id; snippet() reads the text back from pages. */
#define SEARCH_SELECT \
	"SELECT d.id, d.name, p.page_no, p.bates, d.origin, bm25(pages_fts)," \
	"  snippet(pages_fts, 0, char(1), char(2), '\xe2\x80\xa6', 16)" \
	" FROM pages_fts" \
	" JOIN pages AS p ON p.id = pages_fts.rowid" \
	" JOIN documents AS d ON d.id = p.doc_id" \
	" WHERE pages_fts MATCH ?1"
#define SEARCH_EVIDENCE " AND d.origin = 'evidence' AND d.status = 'active'"
#define SEARCH_ORDER " ORDER BY bm25(pages_fts) LIMIT ?2"

/* The "sworn" tokenizer, looked up on the database to check query words. */
struct tokenizer {
	fts5_tokenizer api;
	Fts5Tokenizer *inst;
};

static int open_tokenizer(struct tokenizer *out, sqlite3 *db, struct sw_err *err)
{
	fts5_api *api = NULL;
	sqlite3_stmt *st = NULL;
	void *user = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, db, "cannot search");
		goto cleanup;
	}
	sqlite3_bind_pointer(st, 1, &api, "fts5_api_ptr", NULL);
	if (sqlite3_step(st) != SQLITE_ROW || !api) {
		rc = sw__record_sqlerr(err, db, "cannot search");
		goto cleanup;
	}
	if (api->xFindTokenizer(api, "sworn", &user, &out->api) != SQLITE_OK ||
	    out->api.xCreate(user, NULL, 0, &out->inst) != SQLITE_OK) {
		rc = sw_err_set(err, SW_EDB, "cannot search: no \"sworn\" tokenizer");
		goto cleanup;
	}
cleanup:
	sqlite3_finalize(st);
	return rc;
}

static int count_token(void *ctx, int tflags, const char *token, int ntoken,
		       int start, int end)
{
	(void)tflags;
	(void)token;
	(void)ntoken;
	(void)start;
	(void)end;
	(*(size_t *)ctx)++;
	return SQLITE_OK;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* Turn plain words into an FTS5 expression of ANDed quoted strings.  Double
 * quotes are dropped from the words, so nothing in them is FTS5 syntax.
 * Returns the number of words kept. */
static size_t plain_query(struct sw_buf *out, struct tokenizer *tok,
			  const char *query)
{
	struct sw_buf word = SW_BUF_INIT;
	size_t kept = 0;
	const char *p = query;

	while (*p) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		sw_buf_reset(&word);
		for (; *p && !is_space(*p); p++)
			if (*p != '"')
				sw_buf_addc(&word, *p);
		size_t ntokens = 0;
		tok->api.xTokenize(tok->inst, &ntokens, FTS5_TOKENIZE_QUERY,
				   word.data, (int)word.len, count_token);
		if (ntokens == 0)
			continue;
		if (kept++)
			sw_buf_adds(out, " AND ");
		sw_buf_addc(out, '"');
		sw_buf_add(out, word.data, word.len);
		sw_buf_addc(out, '"');
	}
	sw_buf_release(&word);
	return kept;
}

static char *column_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? sw_xstrndup((const char *)s, (size_t)sqlite3_column_bytes(st, col)) : NULL;
}

void sw_search_hits_free(struct sw_search_hit *hits, size_t n)
{
	if (!hits)
		return;
	for (size_t i = 0; i < n; i++) {
		free(hits[i].document);
		free(hits[i].bates);
		free(hits[i].origin);
		free(hits[i].snippet);
	}
	free(hits);
}

int sw_search(struct sw_search_hit **out, size_t *n, struct sw_matter *m,
	      const char *query, const struct sw_search_opts *opts,
	      struct sw_err *err)
{
	static const struct sw_search_opts defaults = { 0 };
	struct tokenizer tok = { { 0 }, NULL };
	struct sw_buf expr = SW_BUF_INIT;
	struct sw_search_hit *hits = NULL;
	size_t nhits = 0, cap = 0;
	sqlite3_stmt *st = NULL;
	const char *sql;
	int rc = 0, step;

	if (!opts)
		opts = &defaults;
	size_t qlen = strnlen(query, SW_SEARCH_MAX_QUERY + 1);
	if (qlen > SW_SEARCH_MAX_QUERY) {
		rc = sw_err_set(err, SW_ELIMIT, "search query is longer than %d bytes",
				SW_SEARCH_MAX_QUERY);
		goto cleanup;
	}
	const char *q = query;
	while (is_space(*q))
		q++;
	if (!*q) {
		rc = sw_err_set(err, SW_EUSAGE, "empty query");
		goto cleanup;
	}

	if (opts->raw) {
		sw_buf_adds(&expr, query);
	} else {
		if ((rc = open_tokenizer(&tok, m->db, err)) != 0)
			goto cleanup;
		if (plain_query(&expr, &tok, query) == 0) {
			rc = sw_err_set(err, SW_EUSAGE,
					"query '%s' has no words to search for", query);
			goto cleanup;
		}
	}

	sql = opts->include_all ? SEARCH_SELECT SEARCH_ORDER
				: SEARCH_SELECT SEARCH_EVIDENCE SEARCH_ORDER;
	if (sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot search");
		goto cleanup;
	}
	size_t limit = opts->limit ? opts->limit : DEFAULT_LIMIT;
	sqlite3_bind_text(st, 1, expr.data, (int)expr.len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, limit > INT64_MAX ? INT64_MAX : (sqlite3_int64)limit);

	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		hits = sw_xgrow(hits, &cap, nhits + 1, sizeof(*hits));
		struct sw_search_hit *h = &hits[nhits++];
		h->doc_id = sqlite3_column_int64(st, 0);
		h->document = column_dup(st, 1);
		h->page = (uint32_t)sqlite3_column_int64(st, 2);
		h->bates = column_dup(st, 3);
		h->origin = column_dup(st, 4);
		h->score = sqlite3_column_double(st, 5);
		h->snippet = column_dup(st, 6);
		if (!h->snippet)
			h->snippet = sw_xstrdup("");
	}
	if (step != SQLITE_DONE) {
		/* FTS5 reports a malformed expression ("fts5: syntax error
		 * near ...", "no such column: x") as a plain SQLITE_ERROR
		 * while stepping; anything else is the database's fault. */
		if (opts->raw && (step & 0xff) == SQLITE_ERROR)
			rc = sw_err_set(err, SW_EUSAGE, "bad search query: %s",
					sqlite3_errmsg(m->db));
		else
			rc = sw__record_sqlerr(err, m->db, "cannot search");
		goto cleanup;
	}

	if (nhits) {
		*out = sw_xrealloc(*out, (*n + nhits) * sizeof(**out));
		memcpy(*out + *n, hits, nhits * sizeof(*hits));
		*n += nhits;
		nhits = 0;
	}
cleanup:
	sw_search_hits_free(hits, nhits);
	if (tok.inst)
		tok.api.xDelete(tok.inst);
	sqlite3_finalize(st);
	sw_buf_release(&expr);
	return rc;
}
