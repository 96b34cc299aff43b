/*
 * search.c - full-text search over page text: FTS5 with the "sworn"
 * tokenizer, ranked by bm25.
 *
 * A plain query is never handed to FTS5 as syntax: each word becomes a
 * quoted string, so that "ACME-0000123", "§" or a stray "(" is searched for
 * rather than parsed, and the words are ANDed.  Words the tokenizer finds
 * nothing in ("-", "&") are dropped first, because an empty phrase makes an
 * AND match nothing.
 *
 * A Bates number in the query, in any spelling ("BLT-000007", "BLT 7",
 * "BLT-000006–BLT-000009"), also finds the pages numbered so, whether the
 * number is stamped in their text or comes only from a load file: those
 * pages come first.  A hit on a deposition page is cited as the transcript
 * is ("Whitaker Dep. 12:8"), from the numbered line the first match is on.
 */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#define DEFAULT_LIMIT 20
/* The most pages ranked in one pass (24 bytes each); past them, a larger
 * limit's are ranked by ORDER BY sw_rank. */
#define TOP_MAX (256 * 1024)

/* pages_fts is an external-content table over pages, so its rowid is the
 * page id; snippet() reads the text back from pages.  The score (?3) is
 * the ranking's: bm25(pages_fts) here would count each phrase's hits again
 * for every page shown (a pass over a common word's 100,000 rows each). */
#define SEARCH_SELECT \
	"SELECT d.id, d.name, p.page_no, p.bates, d.origin, ?3," \
	"  snippet(pages_fts, 0, char(1), char(2), '\xe2\x80\xa6', 16)," \
	"  p.id, d.kind, sw_first_match(pages_fts)" \
	" FROM pages_fts" \
	" JOIN pages AS p ON p.id = pages_fts.rowid" \
	" JOIN documents AS d ON d.id = p.doc_id" \
	" WHERE pages_fts MATCH ?1"
#define SEARCH_EVIDENCE " AND d.origin = 'evidence' AND d.status = 'active'"
#define SEARCH_ONE " AND pages_fts.rowid = ?2"

/* The ranking: every matching page is scored by sw_rank (bm25 without a
 * query per page: search_rank.c) and only the best LIMIT are kept, by
 * their page id and score alone; the joins, the evidence filter, the
 * snippet and the first match are computed for those pages only
 * (SEARCH_SELECT SEARCH_ONE, one page at a time in rank order).  When the
 * filter drops some, the next ones in rank order are fetched.  A plain
 * query's first batch is ranked without SQLite's sorter, and one of one
 * phrase in one pass (sw__record_rank_top). */
#define RANK_SELECT \
	"SELECT rowid, sw_rank(pages_fts) FROM pages_fts WHERE pages_fts MATCH ?1" \
	" ORDER BY 2, rowid LIMIT ?2 OFFSET ?3"

/* Pages found by their Bates number: every evidence page numbered in one
 * of the ranges (?2, ?3, ?4 and on in threes), optionally also matching the
 * FTS5 expression ?1 of the other words. */
#define BATES_SELECT \
	"SELECT d.id, d.name, p.page_no, p.bates, d.origin, 0.0," \
	"  substr(p.text, 1, 240), p.id, d.kind, -1" \
	" FROM pages AS p JOIN documents AS d ON d.id = p.doc_id WHERE"
#define BATES_MAX_REFS 8

/* The "sworn" tokenizer, looked up on the database to check query words. */
struct tokenizer {
	fts5_tokenizer api;
	Fts5Tokenizer *inst;
};

struct first_match {
	int want;      /* token position of the first match */
	int pos;       /* positions seen */
	int offset;    /* its byte offset, -1 until found */
};

static int first_match_token(void *ctx, int tflags, const char *token, int ntoken,
			     int start, int end)
{
	struct first_match *f = ctx;
	(void)token;
	(void)ntoken;
	(void)end;
	if (tflags & FTS5_TOKEN_COLOCATED)
		return SQLITE_OK;
	if (f->pos++ == f->want) {
		f->offset = start;
		return SQLITE_DONE; /* stop: found */
	}
	return SQLITE_OK;
}

/* sw_first_match(pages_fts): the byte offset in the page text of the
 * earliest match, or -1.  FTS5 gives matches as token positions; the text
 * is tokenized again up to that one to find its bytes. */
static void first_match(const Fts5ExtensionApi *api, Fts5Context *fts,
			sqlite3_context *ctx, int nval, sqlite3_value **val)
{
	int ninst = 0, best = -1;
	(void)nval;
	(void)val;
	if (api->xInstCount(fts, &ninst) == SQLITE_OK)
		for (int i = 0; i < ninst; i++) {
			int phrase, col, off;
			if (api->xInst(fts, i, &phrase, &col, &off) == SQLITE_OK && col == 0 &&
			    (best < 0 || off < best))
				best = off;
		}
	struct first_match f = { .want = best, .pos = 0, .offset = -1 };
	const char *text = NULL;
	int n = 0;
	if (best >= 0 && api->xColumnText(fts, 0, &text, &n) == SQLITE_OK && text)
		(void)api->xTokenize(fts, text, n, &f, first_match_token);
	sqlite3_result_int(ctx, f.offset);
}

/* Register sw_first_match on db once (a second registration would add a
 * second copy, so the statement that uses it is tried first). */
static int register_first_match(sqlite3 *db, fts5_api *api, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT sw_first_match(pages_fts) FROM pages_fts WHERE 0", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	if (api->xCreateFunction(api, "sw_first_match", NULL, first_match, NULL) != SQLITE_OK)
		return sw_err_set(err, SW_EDB, "cannot search: cannot register sw_first_match");
	return 0;
}

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
	sqlite3_finalize(st);
	st = NULL;
	rc = register_first_match(db, api, err);
	if (rc == 0)
		rc = sw__record_rank_register(db, api, err);
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

/* One term of a plain query: a word, or the words between double quotes
 * (a phrase), quotes dropped; NEAR and NEAR/N between two terms. */
struct term {
	struct sw_buf text;
	bool quoted;
};

/* The next term at *p (advanced past it); false at the end. */
static bool next_term(struct term *t, const char **p)
{
	const char *s = *p;
	while (is_space(*s))
		s++;
	if (!*s)
		return false;
	sw_buf_reset(&t->text);
	t->quoted = *s == '"';
	if (t->quoted) {
		for (s++; *s && *s != '"'; s++)
			sw_buf_addc(&t->text, is_space(*s) ? ' ' : *s);
		if (*s == '"')
			s++;
	} else {
		for (; *s && !is_space(*s); s++)
			if (*s != '"')
				sw_buf_addc(&t->text, *s);
	}
	*p = s;
	return true;
}

/* NEAR (10 tokens) or NEAR/N (1 to 999) as a word between terms. */
static int near_distance(const struct term *t)
{
	const char *s = t->text.data;
	if (t->quoted || t->text.len < 4 || strncmp(s, "NEAR", 4) != 0)
		return 0;
	if (t->text.len == 4)
		return 10;
	uint64_t n = 0;
	if (s[4] != '/' || !sw_parse_u64(s + 5, t->text.len - 5, &n) || n < 1 || n > 999)
		return 0;
	return (int)n;
}

static bool has_tokens(struct tokenizer *tok, const struct sw_buf *b)
{
	size_t ntokens = 0;
	tok->api.xTokenize(tok->inst, &ntokens, FTS5_TOKENIZE_QUERY, b->data ? b->data : "",
			   (int)b->len, count_token);
	return ntokens > 0;
}

/* Turn a plain query into an FTS5 expression: each word or "quoted
 * phrase" becomes a quoted FTS5 string (nothing in it is syntax: its
 * double quotes are dropped), terms are ANDed, and `a NEAR b` or
 * `a NEAR/5 b` (NEAR in capitals, as FTS5 writes it) becomes
 * NEAR("a" "b", N).  Unquoted words that are Bates numbers go to refs
 * instead when refs is not NULL (at most BATES_MAX_REFS; the rest stay
 * words).  Terms the tokenizer finds nothing in ("-", "&") are dropped.
 * Returns the number of terms kept in out. */
static size_t plain_query(struct sw_buf *out, struct tokenizer *tok,
			  const char *query, struct sw_bates_ref *refs, size_t *nrefs)
{
	struct term t = { SW_BUF_INIT, false };
	struct sw_buf group = SW_BUF_INIT; /* the open NEAR group's terms */
	size_t kept = 0, in_group = 0;
	int near = 0, pending = 0;
	const char *p = query;

	for (;;) {
		bool more = next_term(&t, &p);
		int d = more ? near_distance(&t) : 0;
		if (d && in_group) {
			pending = d; /* joins the last term to the next */
			continue;
		}
		bool usable = more && !d;
		if (usable && !t.quoted && refs && *nrefs < BATES_MAX_REFS &&
		    sw_bates_ref_parse(&refs[*nrefs], t.text.data, t.text.len) == 0) {
			(*nrefs)++;
			usable = false;
		}
		if (usable && !has_tokens(tok, &t.text))
			usable = false;
		if (usable && pending && in_group) {
			/* a NEAR b: b joins a's group */
			sw_buf_addf(&group, " \"%.*s\"", (int)t.text.len, t.text.data);
			in_group++;
			near = pending > near ? pending : near;
			pending = 0;
			continue;
		}
		/* Close the open group. */
		if (in_group) {
			if (kept++)
				sw_buf_adds(out, " AND ");
			if (in_group > 1)
				sw_buf_addf(out, "NEAR(%s, %d)", group.data, near);
			else
				sw_buf_add(out, group.data, group.len);
			sw_buf_reset(&group);
			in_group = 0;
			near = 0;
		}
		pending = 0;
		if (!more)
			break;
		if (usable) {
			sw_buf_addf(&group, "\"%.*s\"", (int)t.text.len, t.text.data);
			in_group = 1;
		}
	}
	sw_buf_release(&t.text);
	sw_buf_release(&group);
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
		free(hits[i].cite);
	}
	free(hits);
}

/* How a transcript is cited: its deposition label ("Whitaker Dep."), else
 * its document name.  Caller frees. */
static char *transcript_name(struct sw_matter *m, int64_t doc_id, const char *name)
{
	sqlite3_stmt *st = NULL;
	char *out = NULL;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT label FROM labels WHERE doc_id = ?1"
			       " AND (norm LIKE '% dep' OR norm LIKE '% tr' OR norm = 'dep')"
			       " ORDER BY length(label), label LIMIT 1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, doc_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			out = column_dup(st, 0);
	}
	sqlite3_finalize(st);
	return out ? out : sw_xstrdup(name);
}

/* "Whitaker Dep. 12:8" for a hit at byte offset off of transcript page
 * page_id: the numbered line that holds it, or the page's first line when
 * the match is in the header.  NULL when the page has no numbered lines. */
static char *transcript_cite(struct sw_matter *m, int64_t doc_id, const char *name,
			     int64_t page_id, int64_t off)
{
	sqlite3_stmt *st = NULL;
	char *cite = NULL;
	/* The last line starting at or before the match, else the first. */
	if (sqlite3_prepare_v2(m->db,
			       "SELECT tr_page, line FROM transcript_lines WHERE doc_id = ?3 AND page_id = ?1"
			       " ORDER BY (start <= ?2) DESC, CASE WHEN start <= ?2 THEN -start"
			       " ELSE start END LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, page_id);
	sqlite3_bind_int64(st, 2, off);
	sqlite3_bind_int64(st, 3, doc_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		char *who = transcript_name(m, doc_id, name);
		cite = sw_xasprintf("%s %lld:%lld", who, (long long)sqlite3_column_int64(st, 0),
				    (long long)sqlite3_column_int64(st, 1));
		free(who);
	}
	sqlite3_finalize(st);
	return cite;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Step st, appending its rows to *hits (at most limit in all), skipping
 * the pages of seen (nseen ids, sorted: an earlier statement's hits; each
 * statement gives a page once). */
/* The documents a query's field terms allow (sorted ids), when it has any. */
struct doc_set {
	int64_t *ids;
	size_t n;
	bool on;
};

static int collect(struct sw_search_hit **hits, size_t *nhits, size_t *cap,
		   int64_t **ids, struct sw_matter *m, sqlite3_stmt *st, size_t limit,
		   const int64_t *seen, size_t nseen, const struct doc_set *only)
{
	int step = SQLITE_DONE;
	while (*nhits < limit && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t page_id = sqlite3_column_int64(st, 7);
		if (nseen && bsearch(&page_id, seen, nseen, sizeof(*seen), cmp_id))
			continue;
		int64_t doc_id = sqlite3_column_int64(st, 0);
		if (only->on && !(only->n && bsearch(&doc_id, only->ids, only->n,
						     sizeof(*only->ids), cmp_id)))
			continue;
		*hits = sw_xgrow(*hits, cap, *nhits + 1, sizeof(**hits));
		*ids = sw_xrealloc(*ids, *cap * sizeof(**ids));
		struct sw_search_hit *h = &(*hits)[*nhits];
		memset(h, 0, sizeof(*h));
		(*ids)[(*nhits)++] = page_id;
		h->doc_id = sqlite3_column_int64(st, 0);
		h->document = column_dup(st, 1);
		h->page = (uint32_t)sqlite3_column_int64(st, 2);
		h->bates = column_dup(st, 3);
		h->origin = column_dup(st, 4);
		h->score = sqlite3_column_double(st, 5);
		h->snippet = column_dup(st, 6);
		if (!h->snippet)
			h->snippet = sw_xstrdup("");
		const unsigned char *kind = sqlite3_column_text(st, 8);
		if (kind && !strcmp((const char *)kind, "transcript"))
			h->cite = transcript_cite(m, h->doc_id, h->document ? h->document : "",
						  page_id, sqlite3_column_int64(st, 9));
	}
	return *nhits < limit ? step : SQLITE_DONE;
}

/* The pages numbered as refs say (and matching expr, when it is not empty),
 * first in the hits. */
static int bates_hits(struct sw_search_hit **hits, size_t *nhits, size_t *cap,
		      int64_t **ids, struct sw_matter *m, const struct sw_bates_ref *refs,
		      size_t nrefs, const struct sw_buf *expr, bool include_all,
		      size_t limit, const struct doc_set *only, struct sw_err *err)
{
	struct sw_buf sql = SW_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	sw_buf_adds(&sql, BATES_SELECT " (");
	for (size_t i = 0; i < nrefs; i++)
		sw_buf_addf(&sql, "%s(p.bates_prefix = ?%zu AND p.bates_num BETWEEN ?%zu AND ?%zu)",
			    i ? " OR " : "", 3 * i + 2, 3 * i + 3, 3 * i + 4);
	sw_buf_adds(&sql, ")");
	if (expr->len)
		sw_buf_adds(&sql, " AND p.id IN (SELECT rowid FROM pages_fts WHERE pages_fts MATCH ?1)");
	/* Removed pages are out of the index; found by number, they are
	 * dropped here, --all or not. */
	sw_buf_adds(&sql, include_all ? " AND d.status <> 'removed'" : SEARCH_EVIDENCE);
	sw_buf_adds(&sql, " ORDER BY p.bates_prefix, p.bates_num, p.id");
	if (sqlite3_prepare_v2(m->db, sql.data, (int)sql.len, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot search");
		goto cleanup;
	}
	if (expr->len)
		sqlite3_bind_text(st, 1, expr->data, (int)expr->len, SQLITE_STATIC);
	for (size_t i = 0; i < nrefs; i++) {
		uint64_t lo = refs[i].first, hi = refs[i].last;
		sqlite3_bind_text(st, (int)(3 * i + 2), refs[i].prefix, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, (int)(3 * i + 3), lo > INT64_MAX ? INT64_MAX : (sqlite3_int64)lo);
		sqlite3_bind_int64(st, (int)(3 * i + 4), hi > INT64_MAX ? INT64_MAX : (sqlite3_int64)hi);
	}
	if (collect(hits, nhits, cap, ids, m, st, limit, NULL, 0, only) != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, "cannot search");
cleanup:
	sqlite3_finalize(st);
	sw_buf_release(&sql);
	return rc;
}

/* The documents the field terms of fq allow, sorted, into *out. */
static int field_docs(struct doc_set *out, struct sw_matter *m,
		      const struct sw__record_field_query *fq, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step;
	out->on = true;
	if (sqlite3_prepare_v2(m->db, fq->sql.data, (int)fq->sql.len, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot search");
	sw__record_field_query_bind(fq, st, 1);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		out->ids = sw_xgrow(out->ids, &cap, out->n + 1, sizeof(*out->ids));
		out->ids[out->n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return sw__record_sqlerr(err, m->db, "cannot search");
	if (out->n)
		qsort(out->ids, out->n, sizeof(*out->ids), cmp_id);
	return 0;
}

/* A query of field terms alone: the first page of each document they
 * allow, earliest date first (undated last), then by id. */
static int field_hits(struct sw_search_hit **hits, size_t *nhits, size_t *cap,
		      int64_t **ids, struct sw_matter *m, const struct sw__record_field_query *fq,
		      bool include_all, size_t limit, const struct doc_set *only,
		      struct sw_err *err)
{
	struct sw_buf sql = SW_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = 0;
	sw_buf_adds(&sql, BATES_SELECT " p.page_no = 1 AND d.id IN (");
	sw_buf_add(&sql, fq->sql.data, fq->sql.len);
	sw_buf_adds(&sql, ")");
	sw_buf_adds(&sql, include_all ? " AND d.status <> 'removed'" : SEARCH_EVIDENCE);
	sw_buf_adds(&sql, " ORDER BY ifnull((SELECT min(day) FROM doc_fields AS f"
		    " WHERE f.doc_id = d.id AND f.day IS NOT NULL), '9999'), d.id");
	if (sqlite3_prepare_v2(m->db, sql.data, (int)sql.len, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot search");
		goto cleanup;
	}
	sw__record_field_query_bind(fq, st, 1);
	if (collect(hits, nhits, cap, ids, m, st, limit, NULL, 0, only) != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, "cannot search");
cleanup:
	sqlite3_finalize(st);
	sw_buf_release(&sql);
	return rc;
}

int sw_search(struct sw_search_hit **out, size_t *n, struct sw_matter *m,
	      const char *query, const struct sw_search_opts *opts,
	      struct sw_err *err)
{
	struct sw__record_field_query fq = { 0 };
	struct doc_set only = { NULL, 0, false };
	static const struct sw_search_opts defaults = { 0 };
	struct tokenizer tok = { { 0 }, NULL };
	struct sw_buf expr = SW_BUF_INIT;
	struct sw_search_hit *hits = NULL;
	struct sw_bates_ref refs[BATES_MAX_REFS];
	size_t nhits = 0, cap = 0, nrefs = 0, kept = 0;
	int64_t *ids = NULL, *seen = NULL;
	sqlite3_stmt *st = NULL, *rank = NULL;
	const char *sql;
	int rc = 0, step = SQLITE_DONE;

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

	if ((rc = open_tokenizer(&tok, m->db, err)) != 0)
		goto cleanup;
	size_t limit = opts->limit ? opts->limit : DEFAULT_LIMIT;
	if (!opts->raw) {
		/* Field terms (custodian:whitfield) choose the documents; the
		 * rest of the query is searched in their pages. */
		if ((rc = sw__record_field_query_parse(&fq, query, err)) != 0)
			goto cleanup;
		if (fq.nterms) {
			if ((rc = field_docs(&only, m, &fq, err)) != 0)
				goto cleanup;
			query = fq.rest.data ? fq.rest.data : "";
			for (q = query; is_space(*q); q++)
				;
			if (!*q) {
				if ((rc = field_hits(&hits, &nhits, &cap, &ids, m, &fq,
						     opts->include_all, limit, &only, err)) != 0)
					goto cleanup;
				goto done;
			}
		}
	}
	if (opts->raw) {
		sw_buf_adds(&expr, query);
	} else {
		/* The whole query may be one Bates number or range with
		 * blanks in it ("BLT 000007", "BLT-000006 - BLT-000009");
		 * else each word may be one. */
		if (sw_bates_ref_parse(&refs[0], q, strlen(q)) == 0)
			nrefs = 1;
		else
			kept = plain_query(&expr, &tok, query, refs, &nrefs);
		if (kept == 0 && nrefs == 0) {
			rc = sw_err_set(err, SW_EUSAGE,
					"query '%s' has no words to search for", query);
			goto cleanup;
		}
	}
	if (nrefs && (rc = bates_hits(&hits, &nhits, &cap, &ids, m, refs, nrefs, &expr,
				      opts->include_all, limit, &only, err)) != 0)
		goto cleanup;
	if (nrefs) {
		/* The same numbers where they are written in the text (a
		 * stamp, or a cite to them), with the other words. */
		sw_buf_reset(&expr);
		plain_query(&expr, &tok, query, NULL, NULL);
		if (expr.len == 0)
			goto done;
	}

	sql = opts->include_all ? SEARCH_SELECT SEARCH_ONE
				: SEARCH_SELECT SEARCH_EVIDENCE SEARCH_ONE;
	if (sqlite3_prepare_v2(m->db, RANK_SELECT, -1, &rank, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, m->db, "cannot search");
		goto cleanup;
	}
	sqlite3_bind_text(rank, 1, expr.data, (int)expr.len, SQLITE_STATIC);
	sqlite3_bind_text(st, 1, expr.data, (int)expr.len, SQLITE_STATIC);
	/* The pages found by their Bates numbers, once, sorted. */
	size_t nseen = nhits, offset = 0, batch = limit + nseen + 16;
	if (nseen) {
		seen = sw_xmalloc(nseen * sizeof(*seen));
		memcpy(seen, ids, nseen * sizeof(*seen));
		qsort(seen, nseen, sizeof(*seen), cmp_id);
	}
	/* A plain query's first batch is ranked in a heap as the rows go by
	 * (search_rank.c; one of one phrase in one pass); the pages after
	 * it, or all of them when their order cannot be known so, and a raw
	 * query's (its syntax errors are the user's), by ORDER BY sw_rank. */
	bool more = true;
	if (!opts->raw) {
		struct sw__record_ranked *top = NULL;
		size_t ntop = 0;
		bool exact = false, all = false;
		if ((rc = sw__record_rank_top(&top, &ntop, &exact, &all, m->db, expr.data, expr.len,
					      batch < TOP_MAX ? batch : TOP_MAX, err)) != 0)
			goto cleanup;
		for (size_t i = 0; exact && i < ntop && nhits < limit && step == SQLITE_DONE; i++) {
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 2, top[i].id);
			sqlite3_bind_double(st, 3, top[i].score);
			step = collect(&hits, &nhits, &cap, &ids, m, st, nhits + 1, seen, nseen,
				       &only);
		}
		free(top);
		if (exact) {
			more = step == SQLITE_DONE && nhits < limit && !all;
			offset = ntop;
			batch = batch > SIZE_MAX / 4 ? SIZE_MAX : batch * 4;
		}
	}
	while (more) {
		size_t got = 0;
		sqlite3_reset(rank);
		sqlite3_bind_int64(rank, 2, batch > INT64_MAX ? INT64_MAX : (sqlite3_int64)batch);
		sqlite3_bind_int64(rank, 3, offset > INT64_MAX ? INT64_MAX : (sqlite3_int64)offset);
		while (nhits < limit && (step = sqlite3_step(rank)) == SQLITE_ROW) {
			got++;
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 2, sqlite3_column_int64(rank, 0));
			sqlite3_bind_double(st, 3, sqlite3_column_double(rank, 1));
			if ((step = collect(&hits, &nhits, &cap, &ids, m, st, nhits + 1, seen,
					    nseen, &only)) != SQLITE_DONE)
				break;
		}
		if (step != SQLITE_DONE || nhits >= limit || got < batch)
			break;
		/* All of this batch taken or filtered out: the next, larger. */
		offset += got;
		batch = batch > SIZE_MAX / 4 ? SIZE_MAX : batch * 4;
	}
	if (step == SQLITE_ROW)
		step = SQLITE_DONE; /* the limit was reached */
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
done:
	if (nhits) {
		*out = sw_xrealloc(*out, (*n + nhits) * sizeof(**out));
		memcpy(*out + *n, hits, nhits * sizeof(*hits));
		*n += nhits;
		nhits = 0;
	}
cleanup:
	sw_search_hits_free(hits, nhits);
	free(ids);
	free(seen);
	free(only.ids);
	sw__record_field_query_release(&fq);
	if (tok.inst)
		tok.api.xDelete(tok.inst);
	sqlite3_finalize(rank);
	sqlite3_finalize(st);
	sw_buf_release(&expr);
	return rc;
}
