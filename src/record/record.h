/*
 * record.h - the workspace, its matters, and each matter's evidence record:
 * documents, pages, Bates numbers, labels (Ex. 12, ECF No. 45), deposition
 * transcripts, provenance, and full-text search.
 *
 * Contract
 *   - A workspace is a folder holding sworn.conf and matters/.  A matter is
 *     matters/<name>/ holding matter.db (SQLite: WAL, foreign keys on, schema
 *     versioned by PRAGMA user_version with forward migrations) and files/,
 *     where every imported original is kept under its SHA-256.  No query ever
 *     spans two matters: each matter is its own database.
 *   - record/ knows nothing of claims, models or pipelines.  It includes
 *     base/ only.
 *   - Import is per document and atomic: each document (with its pages,
 *     Bates numbers and index entries) is stored in one transaction, so a
 *     crash or a bad file loses nothing already stored, and a re-import of
 *     the same content is a no-op that says so.
 *   - Every stored document has an origin (evidence, model, human,
 *     template).  Only evidence is ever offered as evidence.
 *   - Input files are hostile: sizes are bounded (SW_RECORD_MAX_FILE_BYTES,
 *     SW_RECORD_MAX_PAGES) and malformed input fails that file or that
 *     document with a one-line reason, never the whole import.
 *   - Errors: 0 or a negative SW_E* code, message in *err.
 *   - Threads: a struct sw_matter is used by one thread at a time.
 */
#ifndef SW_RECORD_H
#define SW_RECORD_H

#include "base/base.h"

#define SW_CONF_NAME "sworn.conf"
#define SW_MATTER_NAME_MAX 64
#define SW_RECORD_MAX_FILE_BYTES ((size_t)512 << 20)
#define SW_RECORD_MAX_PAGES 200000      /* pages in one document */
#define SW_RECORD_MAX_LABEL_BYTES ((size_t)16 << 20)

/* ---------------------------------------------------------------- workspace */

struct sw_workspace {
	char *root;              /* absolute path of the workspace folder */
	struct sw_config config; /* sworn.conf, parsed */
};

/* Create a workspace in dir (created if needed): sworn.conf with commented
 * defaults and matters/.  An existing workspace is left as it is and gives
 * SW_EEXIST. */
int sw_workspace_create(const char *dir, struct sw_err *err) SW_MUST_USE;

/* Find the workspace that holds start (walking up to /) and load its
 * sworn.conf.  SW_ENOTFOUND says to run `sworn init`. */
int sw_workspace_open(struct sw_workspace *out, const char *start,
		      struct sw_err *err) SW_MUST_USE;
void sw_workspace_release(struct sw_workspace *ws);

/* ------------------------------------------------------------------ matters */

/* A name is 1..SW_MATTER_NAME_MAX bytes of [A-Za-z0-9._-], not starting with
 * '.' or '-'. */
bool sw_matter_name_valid(const char *name);

/* Create matters/<name>/ with an empty, migrated matter.db. */
int sw_matter_create(const struct sw_workspace *ws, const char *name,
		     struct sw_err *err) SW_MUST_USE;

/* The matter names of the workspace, sorted; caller frees each and the
 * array. */
int sw_matter_list(char ***out, size_t *n, const struct sw_workspace *ws,
		   struct sw_err *err) SW_MUST_USE;

struct sw_matter; /* opaque: an open matter.db and its files/ folder */

/* Open an existing matter, migrating its schema forward if it is older.
 * A database newer than this build fails with SW_EINPUT. */
int sw_matter_open(struct sw_matter **out, const struct sw_workspace *ws,
		   const char *name, struct sw_err *err) SW_MUST_USE;
void sw_matter_close(struct sw_matter *m);

const char *sw_matter_name(const struct sw_matter *m);

/* One Bates series of a matter: the pages numbered with one prefix. */
struct sw_bates_range {
	char *prefix;
	char *first;    /* formatted first and last numbers */
	char *last;
	uint64_t pages; /* pages numbered with this prefix */
	uint64_t gaps;  /* numbers missing between first and last */
	uint64_t dups;  /* numbers used on more than one page */
};

struct sw_matter_stats {
	char *name;
	uint64_t documents;
	uint64_t pages;
	uint64_t quarantined;
	uint64_t transcripts;
	uint64_t labels;
	uint64_t bytes; /* matter.db (with WAL) and files/ on disk */
	struct sw_bates_range *ranges;
	size_t nranges;
};

int sw_matter_stats(struct sw_matter_stats *out, struct sw_matter *m,
		    struct sw_err *err) SW_MUST_USE;
void sw_matter_stats_release(struct sw_matter_stats *s);

/* ------------------------------------------------------------------- import */

enum sw_origin {
	SW_ORIGIN_EVIDENCE,
	SW_ORIGIN_MODEL,
	SW_ORIGIN_HUMAN,
	SW_ORIGIN_TEMPLATE,
};

const char *sw_origin_name(enum sw_origin o);
/* Parse "evidence", "model", "human" or "template"; SW_EUSAGE otherwise. */
int sw_origin_parse(enum sw_origin *out, const char *s, struct sw_err *err);

/* What happened to one input, as the import goes. */
enum sw_ingest_event {
	SW_INGEST_IMPORTED, /* a document was stored */
	SW_INGEST_SKIPPED,  /* already stored, or not a kind sworn reads */
	SW_INGEST_FAILED,   /* bad input: the reason is in msg */
	SW_INGEST_WARNING,  /* stored, but something is off (Bates gap...) */
};

struct sw_ingest_opts {
	enum sw_origin origin;
	const char *labels_path; /* CSV label,target, or NULL */
	/* Called for each event; may be NULL.  what names the file or the
	 * document (Bates); msg is one line.  Both borrowed for the call. */
	void (*report)(void *user, enum sw_ingest_event ev, const char *what,
		       const char *msg);
	void *user;
	bool progress; /* draw a progress line on a terminal */
};

struct sw_ingest_summary {
	uint64_t imported;
	uint64_t skipped;
	uint64_t failed;
	uint64_t warnings;
	uint64_t pages;  /* pages stored by this import */
	uint64_t labels; /* labels stored */
	double seconds;
};

/* Import files and folders (recursively) into the matter: text and
 * Markdown (\f separates pages), Concordance .DAT load files with their
 * TEXTPATH texts and an .OPT beside them, and the labels file.  Bad inputs
 * are reported through opts->report and counted; the function itself fails
 * only when the matter cannot be written at all. */
int sw_ingest(struct sw_ingest_summary *out, struct sw_matter *m,
	      const char *const *paths, size_t npaths,
	      const struct sw_ingest_opts *opts, struct sw_err *err) SW_MUST_USE;

/* Normalise a record-citation label for matching: lower case, periods and
 * "No." dropped, "exhibit" to "ex", spaces collapsed ("Exhibit 12" and
 * "Ex. 12" give "ex 12"; "ECF No. 45" gives "ecf 45").  Caller frees. */
char *sw_label_normalize(const char *label);

/* ------------------------------------------------------------------- search */

#define SW_SEARCH_MAX_QUERY 4096

struct sw_search_hit {
	int64_t doc_id;
	char *document; /* the document's name (file name or BEGBATES) */
	uint32_t page;  /* 1-based page within the document */
	char *bates;    /* the page's Bates number, or NULL */
	char *origin;
	double score;   /* bm25: lower is better */
	char *snippet;  /* with the matches between \x01 and \x02 */
};

struct sw_search_opts {
	size_t limit;         /* hits to return; 0 means 20 */
	bool raw;             /* the query is FTS5 syntax, not plain words */
	bool include_all;     /* also quarantined and non-evidence texts */
};

/* Full-text search over page text, ranked by bm25.  A plain query matches
 * pages holding every word (each word may be a Bates number, "§ 1983",
 * "ACME-0000123").  Hits are appended to *out (caller releases with
 * sw_search_hits_free).  A malformed raw query fails with SW_EUSAGE. */
int sw_search(struct sw_search_hit **out, size_t *n, struct sw_matter *m,
	      const char *query, const struct sw_search_opts *opts,
	      struct sw_err *err) SW_MUST_USE;
void sw_search_hits_free(struct sw_search_hit *hits, size_t n);

#endif /* SW_RECORD_H */
