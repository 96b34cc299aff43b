/*
 * record_int.h - internals shared by the files of record/.  Nothing outside
 * src/record/ includes this header (the layering test enforces it); the
 * public contract is record.h.
 *
 * The pure parsers (load files, Bates numbers, transcripts) and the format
 * extractors are extract/'s (extract/extract.h).
 */
#ifndef SW_RECORD_INT_H
#define SW_RECORD_INT_H

#include "base/base.h"
#include "extract/extract.h"
#include "record/record.h"

_Static_assert(SW_EXTRACT_MAX_PAGES == SW_RECORD_MAX_PAGES &&
	       SW_EXTRACT_MAX_FILE_BYTES == SW_RECORD_MAX_FILE_BYTES,
	       "an extracted document fits the store");

/* ------------------------------------------------------- the open matter */

#include <sqlite3.h>

struct sw__record_prov_index;

/* An import's batch (batch.c): documents stored in one transaction, each
 * in a savepoint of its own, their index entries added at the commit. */
struct sw__record_batch {
	bool on;             /* sw_record_batch_start: documents are batched */
	bool open;           /* the batch's transaction is open */
	size_t max_pages;
	size_t pages, bytes; /* stored in the open batch */
	double opened;       /* sw_now() when it opened */
	int64_t first_page;  /* the smallest page id stored in it; 0: none */
	uint64_t seq;        /* batches opened so far: the open one's number */
	uint64_t *lost;      /* the numbers of batches rolled back (rare) */
	size_t nlost, caplost;
};

/* A page read within a read transaction (snapshot.c): what of it was
 * read, each only when its read succeeded. */
struct sw__record_cached_page {
	int64_t id;                    /* 0: an empty entry */
	bool have_page, have_text, have_lines;
	struct sw_record_page page;
	char *text;
	size_t len;
	struct sw_record_tline *lines;
	size_t nlines;
};

/* A Bates look-up made within a read transaction (snapshot.c): how many
 * of the range the record has, and (first_known) its lowest page. */
struct sw__record_cached_bates {
	bool used, first_known;
	char prefix[SW_BATES_CANON_MAX];
	uint64_t first, last, have;
	struct sw_record_page page;
};

struct sw_matter {
	char *name;
	char *dir;       /* matters/<name> */
	char *files_dir; /* matters/<name>/files */
	sqlite3 *db;
	char *ws_root;   /* the workspace folder; NULL turns the firewall off */
	sqlite3 *prov;   /* <ws_root>/provenance.db, opened when first needed */
	struct sw__record_prov_index *prov_index; /* model-output prints, loaded once */
	sqlite3_stmt *stmts[8];    /* prepared once per open: see sw__record_stmt */
	/* the read queries of query.c, prepared once per open and kept by
	 * their SQL text (a literal's address): see query.c's prepare() */
	struct {
		const char *sql;
		sqlite3_stmt *st;
		bool busy;
	} queries[24];
	/* a read transaction of sw_record_read_begin is open, and the pages
	 * last read by id within it (snapshot.c) */
	bool snapshot;
	struct sw__record_cached_page cache[16];
	size_t cache_next;
	struct sw__record_cached_bates bates_cache[16];
	size_t bates_next;
	bool files_made[256];      /* files/<xx>/ folders known to exist */
	struct sw__record_batch batch;
};

/* snapshot.c: while a read transaction of sw_record_read_begin is open,
 * the cache entry of page id (made when missing, the oldest giving way;
 * fill what was read), else NULL; emptying the cache; a page's copy
 * (release with sw_record_page_release). */
struct sw__record_cached_page *sw__record_cached(struct sw_matter *m, int64_t id);
void sw__record_cache_clear(struct sw_matter *m);
/* The same for the Bates look-up of ref: the entry of the same prefix and
 * range, or a new one (used false) to fill. */
struct sw__record_cached_bates *sw__record_cached_bates(struct sw_matter *m,
							 const struct sw_bates_ref *ref);
void sw__record_page_copy(struct sw_record_page *out, const struct sw_record_page *p);

/* The statements an import runs for every document, prepared once per open
 * matter (preparing them per document cost ~3% of an import). */
enum sw__record_stmt_id {
	SW_STMT_FIND_DOC,
	SW_STMT_INS_DOC,
	SW_STMT_INS_PAGE,
	SW_STMT_INS_FTS,
	SW_STMT_INS_LINE,
	SW_STMT_COUNT_
};

/* The cached statement id, reset and with its bindings cleared; NULL with
 * err set when it cannot be prepared. */
sqlite3_stmt *sw__record_stmt(struct sw_matter *m, enum sw__record_stmt_id id,
			      struct sw_err *err);

/* A matter database's schema (schema.c), and the version this build
 * writes (PRAGMA user_version): its number of migrations. */
extern const struct sw_db_schema sw__record_schema;
#define SW_RECORD_SCHEMA_VERSION (sw__record_schema.version)

/* Metadata fields (fields.c).  The rows of doc_fields from documents'
 * meta, and of doc_terms from doc_fields: the statements the 7 -> 8
 * migration runs over every document and sw__record_fields_refresh over
 * one (both need sw__record_fields_register's functions). */
#define SW__RECORD_FIELDS_INSERT \
	"INSERT INTO doc_fields (doc_id, field, value, day)" \
	" SELECT d.id, json_extract(f.value, '$[0]'), json_extract(f.value, '$[1]')," \
	"  json_extract(f.value, '$[2]')" \
	" FROM documents AS d, json_each(sw_meta_fields(d.meta)) AS f WHERE json_valid(d.meta)"
#define SW__RECORD_TERMS_INSERT \
	"INSERT OR IGNORE INTO doc_terms (field, term, doc_id)" \
	" SELECT x.field, t.value, x.doc_id" \
	" FROM doc_fields AS x, json_each(sw_field_terms(x.field, x.value)) AS t"
#define SW__RECORD_TERM_MAX 64 /* bytes of one indexed word */

/* Register sw_meta_fields and sw_field_terms on db. */
int sw__record_fields_register(sqlite3 *db, struct sw_err *err) SW_MUST_USE;
/* Write document doc_id's doc_fields and doc_terms again from its meta, in
 * the caller's transaction. */
int sw__record_fields_refresh(struct sw_matter *m, int64_t doc_id,
			      struct sw_err *err) SW_MUST_USE;
/* The folded words of len bytes of s, as doc_terms keeps them, into out
 * (at most max); returns the count. */
size_t sw__record_field_words(char (*out)[SW__RECORD_TERM_MAX + 1], size_t max,
			      const char *s, size_t len);
/* Set meta's field from a doc_fields row (the first one wins). */
void sw__record_meta_put(struct sw_doc_meta *meta, const char *field, const char *value,
			 const char *day);

/* A search's field terms (fields_query.c): "custodian:whitfield",
 * "from:\"Harlow, Peter\"", "date:2021-03..2021-06".  sql is a SELECT of
 * the ids of the documents that match them all, its values bound by
 * sw__record_field_query_bind. */
struct sw__record_field_query {
	struct sw_buf sql;
	char **binds;
	size_t nbinds;
	size_t nterms;     /* field terms found */
	struct sw_buf rest; /* the query without them */
};
int sw__record_field_query_parse(struct sw__record_field_query *out, const char *query,
				 struct sw_err *err) SW_MUST_USE;
void sw__record_field_query_bind(const struct sw__record_field_query *q, sqlite3_stmt *st,
				 int first);
void sw__record_field_query_release(struct sw__record_field_query *q);

/* The one document doc names (its id, name or BEGBATES), a live one before
 * a removed one; *status (may be NULL) gets its status (caller frees).
 * SW_ENOTFOUND, or SW_EUSAGE when several are called so (docs.c). */
int sw__record_find_named(int64_t *out, char **status, struct sw_matter *m,
			  const char *doc, struct sw_err *err) SW_MUST_USE;

/* sw_matter_audit's removals, appended to a / released (remove.c). */
int sw__record_audit_removals(struct sw_audit *a, struct sw_matter *m,
			      struct sw_err *err) SW_MUST_USE;
void sw__record_audit_removals_release(struct sw_audit *a);
/* The same for the origin changes (reclassify.c). */
int sw__record_audit_reclasses(struct sw_audit *a, struct sw_matter *m,
			       struct sw_err *err) SW_MUST_USE;
void sw__record_audit_reclasses_release(struct sw_audit *a);

/* Step a statement that returns no row and reset it (sql.c): 0, SW_EEXIST
 * for a unique or primary-key conflict, else SW_EDB; SWORN_FAULT=sql:N
 * fails it. */
int sw__record_step_done(sqlite3_stmt *st, sqlite3 *db, const char *what, struct sw_err *err);

/* Store page p as page page_no of doc_id, with its index entry (page.c);
 * *page_id is its row.  The cached statement's bindings are cleared first
 * (sw__record_stmt), so a page without a Bates number binds NULL. */
int sw__record_put_page(int64_t *page_id, struct sw_matter *m, int64_t doc_id, size_t page_no,
			const struct sw_page_in *p, struct sw_err *err) SW_MUST_USE;
/* Store a deposition page's numbered lines (page.c). */
int sw__record_put_lines(struct sw_matter *m, int64_t doc_id, int64_t page_id,
			 const struct sw_tr_line *lines, size_t n, struct sw_err *err) SW_MUST_USE;

/* Bind a document's row (pages, status) to the cached SW_STMT_INS_DOC
 * statement (store.c). */
void sw__record_bind_doc(sqlite3_stmt *ins_doc, const struct sw_doc_in *doc, const char *kind,
			 const char *now, uint64_t pages, const char *status);

/* Record the firewall's quarantine decision for doc_id (store.c), in the
 * caller's transaction. */
int sw__record_store_decision(struct sw_matter *m, int64_t doc_id,
			      const struct sw_provenance_match *pm, const char *now,
			      struct sw_err *err);

/* Copy sqlite3_errmsg(db) into err as "what: message"; returns SW_EDB. */
int sw__record_sqlerr(struct sw_err *err, sqlite3 *db, const char *what);

/* Register sw_rank(pages_fts) on db through api, once (search_rank.c):
 * bm25 with the page lengths read in one scan for common words; and the
 * functions sw__record_rank_top runs. */
int sw__record_rank_register(sqlite3 *db, fts5_api *api, struct sw_err *err);

/* A page as sw_rank ranks it: its id and its score (bm25's). */
struct sw__record_ranked {
	int64_t id;
	double score;
};

/* The best k pages (at most) of expr, an FTS5 expression of plain_query's
 * (a lone phrase's hits are the query's), kept in a heap as the rows go by,
 * a query of one phrase in one pass over its hits (search_rank.c): in the
 * order of ORDER BY sw_rank(pages_fts), rowid, with sw_rank's scores;
 * *all is true when they are every matching page.  *exact is false, and
 * *out empty, when that order cannot be known so (one phrase, and a score
 * rounding to a tie at the last page kept): rank with sw_rank then.
 * Caller frees *out.  0, or SW_EDB (after sw__record_rank_register). */
int sw__record_rank_top(struct sw__record_ranked **out, size_t *n, bool *exact, bool *all,
			sqlite3 *db, const char *expr, size_t len, size_t k,
			struct sw_err *err) SW_MUST_USE;

/* Open (create) the database at path with sworn's pragmas (WAL, foreign
 * keys, busy timeout), register the "sworn" FTS5 tokenizer and migrate the
 * schema to SW_RECORD_SCHEMA_VERSION. */
int sw__record_db_open(sqlite3 **out, const char *path, bool create,
		       struct sw_err *err) SW_MUST_USE;

/* Run sql (no results) with sqlite3_exec; SW_EDB with the message. */
int sw__record_exec(sqlite3 *db, const char *sql, struct sw_err *err) SW_MUST_USE;

/* Transactions on m->db (batch.c).  sw__record_begin is BEGIN IMMEDIATE
 * for any write but a document's: an open batch is committed first, so
 * that no other write joins it.  A document's store goes through
 * doc_begin (a savepoint in the batch, or BEGIN IMMEDIATE when documents
 * are not batched), then doc_done (npages and bytes count toward the
 * batch's limits) or doc_undo (the document alone rolled back; when
 * SQLite had to roll back the whole transaction, the batch is lost).
 * sw__record_index_page adds a stored page to pages_fts, or, in a batch,
 * leaves it to the batch's commit: FTS5 writes its pending terms out as a
 * new segment at every savepoint, which would cost what a commit per
 * document costs. */
int sw__record_begin(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
int sw__record_doc_begin(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
int sw__record_doc_done(struct sw_matter *m, size_t npages, size_t bytes,
			struct sw_err *err) SW_MUST_USE;
void sw__record_doc_undo(struct sw_matter *m);
int sw__record_index_page(struct sw_matter *m, int64_t page_id, const char *text, size_t len,
			  struct sw_err *err) SW_MUST_USE;

/* Register the FTS5 tokenizer "sworn" on db: words are runs of letters and
 * digits folded like sw_fold (case, marks, NFKC); "§" and "¶" are tokens of
 * their own; a Bates-like word ("ACME-0000123", "ACME_0000123") is indexed
 * joined ("acme0000123") with its digit run as a colocated token, so any of
 * the three spellings finds it. */
int sw__record_fts_register(sqlite3 *db, struct sw_err *err) SW_MUST_USE;

/* ----------------------------------------------- provenance fingerprints */

/* The fingerprints of a text: the text is folded (NFKC, case, marks) and
 * cut into words (runs of letters and digits); every SW_PROVENANCE_K
 * consecutive words are hashed, and winnowing keeps the smallest hash of
 * every SW_PROVENANCE_WINDOW consecutive ones.  Any run of K + WINDOW - 1
 * words two texts share therefore gives them at least one shared print,
 * while the prints stay a fraction of the words. */
struct sw_fp {
	uint64_t *hashes;   /* sorted, unique; NULL when n is 0 */
	size_t n;
	uint64_t text_hash; /* hash of the whole folded word sequence */
	size_t words;
};

void sw__record_fp_compute(struct sw_fp *out, const char *text, size_t len);
/* The prints of a model's output less those of spans it copied from
 * given, the evidence it was shown: a print whose K words stand in given
 * is dropped, and an output copied whole from given (or, shorter than K
 * words, found in it) gets no prints and no text hash, so a genuine
 * document the model quoted never matches the output.  given may be NULL. */
void sw__record_fp_compute_given(struct sw_fp *out, const char *text, size_t len,
				 const char *given, size_t given_len);
void sw__record_fp_release(struct sw_fp *fp);

/* The prints of a text given piece by piece (sw_record_doc_add_page's
 * pages): the same as sw__record_fp_compute over the pieces each followed
 * by '\n'.  finish moves the prints into *out (release it, not s). */
struct sw_fp_stream {
	uint64_t words[SW_PROVENANCE_K];     /* the last K word hashes */
	uint64_t grams[SW_PROVENANCE_WINDOW]; /* the last WINDOW k-grams */
	size_t nwords, ngrams, last;
	uint64_t text_hash;
	uint64_t *hashes;
	size_t n, cap;
	/* With spill set (an evidence document: its prints are only counted
	 * against the model outputs', sw__record_fp_stream_each), prints past
	 * SW_FP_SPILL_PRINTS go, sorted, to a temporary file a run at a time,
	 * so that memory stays bounded at any length. */
	bool spill;
	FILE *runs;
	size_t nruns, capruns;
	size_t *run_len;           /* prints in each run, in file order */
};
#define SW_FP_SPILL_PRINTS ((size_t)1 << 19) /* 4 MiB of prints */
void sw__record_fp_stream_init(struct sw_fp_stream *s);
void sw__record_fp_stream_add(struct sw_fp_stream *s, const char *text, size_t len);
void sw__record_fp_stream_finish(struct sw_fp_stream *s, struct sw_fp *out);
void sw__record_fp_stream_release(struct sw_fp_stream *s);
/* Instead of finish: call fn for each of the stream's prints once, in
 * ascending order (the hashes finish would give), and fill *info as
 * finish would but without the hashes (info->hashes NULL, info->n their
 * number).  SW_EIO when a spilled run cannot be read back.  The stream is
 * used up. */
int sw__record_fp_stream_each(struct sw_fp_stream *s, void (*fn)(void *ctx, uint64_t hash),
			      void *ctx, struct sw_fp *info, struct sw_err *err) SW_MUST_USE;

/* The number of prints a and b share. */
size_t sw__record_fp_shared(const struct sw_fp *a, const struct sw_fp *b);

/* Compare a document's prints with one output's: shared prints, the share
 * of the document they make (overlap), the share of the output (contained),
 * and whether that is a match by the SW_PROVENANCE_* rules (equal word
 * sequences always are). */
struct sw_fp_score {
	size_t shared;
	double overlap;
	double contained;
	bool match;
};
void sw__record_fp_score(struct sw_fp_score *out, size_t shared, const struct sw_fp *doc,
		  size_t output_prints, uint64_t output_text_hash);

/* How many model outputs the workspace has registered (0 when the firewall
 * is off).  Cheap after the first call: the index is cached and reloaded
 * only when provenance.db changes. */
int sw__record_prov_outputs(size_t *out, struct sw_matter *m, struct sw_err *err);

/* The best-matching model output of the workspace for prints doc, over
 * every matter.  Fills *out (names owned by the caller, freed with
 * sw_provenance_match_release) and returns 0; out->quarantine says whether
 * it matches.  A matter without a workspace root checks nothing. */
int sw__record_prov_check(struct sw_provenance_match *out, struct sw_matter *m,
		   const struct sw_fp *doc, struct sw_err *err) SW_MUST_USE;
/* The same for a document whose prints are still in s (used up): spilled
 * runs are merged, never all held at once. */
int sw__record_prov_check_stream(struct sw_provenance_match *out, struct sw_matter *m,
				 struct sw_fp_stream *s, struct sw_err *err) SW_MUST_USE;

/* Register prints as a model output of matter m (document identity sha256
 * and beg_bates, name): idempotent. */
int sw__record_prov_register(struct sw_matter *m, const char *sha256,
		      const char *beg_bates, const char *name,
		      const struct sw_fp *fp, struct sw_err *err) SW_MUST_USE;

/* Note the stored document's id beside its registration (best effort). */
void sw__record_prov_set_doc(struct sw_matter *m, const char *sha256,
		      const char *beg_bates, int64_t doc_id);

/* Close provenance.db and drop the loaded prints. */
void sw__record_prov_close(struct sw_matter *m);

#endif /* SW_RECORD_INT_H */
