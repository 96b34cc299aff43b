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

struct sw__prov_index;

struct sw_matter {
	char *name;
	char *dir;       /* matters/<name> */
	char *files_dir; /* matters/<name>/files */
	sqlite3 *db;
	char *ws_root;   /* the workspace folder; NULL turns the firewall off */
	sqlite3 *prov;   /* <ws_root>/provenance.db, opened when first needed */
	struct sw__prov_index *prov_index; /* model-output prints, loaded once */
	sqlite3_stmt *stmts[8];    /* prepared once per open: see sw__record_stmt */
	bool files_made[256];      /* files/<xx>/ folders known to exist */
};

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

/* The schema version this build writes (PRAGMA user_version). */
#define SW_RECORD_SCHEMA_VERSION 3

/* Copy sqlite3_errmsg(db) into err as "what: message"; returns SW_EDB. */
int sw__record_sqlerr(struct sw_err *err, sqlite3 *db, const char *what);

/* Open (create) the database at path with sworn's pragmas (WAL, foreign
 * keys, busy timeout), register the "sworn" FTS5 tokenizer and migrate the
 * schema to SW_RECORD_SCHEMA_VERSION. */
int sw__record_db_open(sqlite3 **out, const char *path, bool create,
		       struct sw_err *err) SW_MUST_USE;

/* Run sql (no results) with sqlite3_exec; SW_EDB with the message. */
int sw__record_exec(sqlite3 *db, const char *sql, struct sw_err *err) SW_MUST_USE;

/* Register the FTS5 tokenizer "sworn" on db: words are runs of letters and
 * digits folded like sw_fold (case, marks, NFKC); "§" and "¶" are tokens of
 * their own; a Bates-like word ("ACME-0000123", "ACME_0000123") is indexed
 * joined ("acme0000123") with its digit run as a colocated token, so any of
 * the three spellings finds it. */
int sw__record_fts_register(sqlite3 *db, struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------------ storing */

struct sw_page_in {
	const char *text;          /* UTF-8, borrowed */
	size_t len;
	bool has_bates;
	struct sw_bates bates;     /* valid when has_bates */
	const char *bates_source;  /* "loadfile", "opt" or "stamp" */
	bool ocr;                  /* the text was read by OCR from the image */
	float ocr_confidence;      /* tesseract's mean word confidence, 0-100 */
};

struct sw_doc_in {
	const char *name;          /* file name, or BEGBATES for load files */
	const char *kind;          /* "text", "markdown", "loadfile" */
	enum sw_origin origin;
	const char *sha256;        /* content hash: the identity with beg_bates */
	const char *original;      /* sha256 of the original kept in files/, or NULL */
	const char *source_path;
	const char *beg_bates;     /* NULL for unstamped documents */
	const char *end_bates;
	const char *meta_json;     /* a JSON object; NULL for {} */
	uint64_t bytes;
	struct sw_page_in *pages;
	size_t npages;
	int64_t parent_id;         /* the e-mail an attachment came in, or 0 */
};

/* What the store decided for one document. */
struct sw__stored {
	int64_t id;
	bool transcript;  /* most pages are deposition pages: lines stored */
	/* quarantine.quarantine: evidence that matches a model output of the
	 * workspace (which one, and how far), stored quarantined */
	struct sw_provenance_match quarantine;
};

/* Store one document, its pages, their index entries and (when most pages
 * are deposition pages) its transcript lines, in one transaction, and fill
 * *out (release it with sw__record_stored_release).  SW_EEXIST when a
 * document of the same identity is already stored (the caller checked; a
 * race is still safe).  The provenance firewall runs here, so every
 * importer passes it: evidence that matches a model output of the
 * workspace is stored quarantined (with its decision, in the same
 * transaction) and *out says so; reporting it is the caller's.  A model
 * output is registered in provenance.db before it is stored. */
int sw__record_store_doc(struct sw__stored *out, struct sw_matter *m,
			 const struct sw_doc_in *doc, struct sw_err *err) SW_MUST_USE;
void sw__record_stored_release(struct sw__stored *s);

/* Split text on form feeds into pages (a final \f adds no empty page).
 * Fills *pages (caller frees the array; texts point into text). */
int sw__record_split_pages(struct sw_page_in **pages, size_t *n,
			   const char *text, size_t len, struct sw_err *err);

/* The id of the stored document with this identity, or SW_ENOTFOUND. */
int sw__record_find_doc(int64_t *out_id, struct sw_matter *m,
			const char *sha256, const char *beg_bates,
			struct sw_err *err);

/* Keep an original file's bytes in files/<first two hex>/<sha256>.  Already
 * kept files are left alone.  Not fsynced one by one: sw_ingest syncs the
 * filesystem once at the end. */
int sw__record_keep_original(struct sw_matter *m, const char *sha256,
			     const void *data, size_t len,
			     struct sw_err *err) SW_MUST_USE;

/* An import's bracket: Bates prefixes an older build wrote made canonical
 * and FTS5's merging at every commit turned off (begin); the index merged
 * in one pass and the default merging back (end).  A crash in between
 * leaves more segments than usual, which only slows searches until the
 * next import ends. */
int sw__record_import_begin(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
int sw__record_import_end(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;

/* Sync the filesystem of the kept originals once (they are written without
 * an fsync each); best effort. */
void sw__record_sync_originals(struct sw_matter *m);

/* The missing and repeated numbers of one (canonical) Bates prefix over the
 * whole matter: counts, and the first five of each as text ("ACME0000005-
 * ACME0000006"; a list empty when none). */
struct sw__bates_check {
	uint64_t gaps, dups;
	int named;                   /* gap ranges seen (five are listed) */
	struct sw_buf gap_list, dup_list;
};
int sw__record_bates_check(struct sw__bates_check *out, struct sw_matter *m,
			   const char *prefix, struct sw_err *err) SW_MUST_USE;
void sw__record_bates_check_release(struct sw__bates_check *c);

/* Set the parent of each child document, in one transaction. */
struct sw__record_link {
	int64_t child, parent;
};
int sw__record_link_parents(struct sw_matter *m, const struct sw__record_link *links,
			    size_t n, struct sw_err *err) SW_MUST_USE;

/* The document a label's target names: the one that starts at that Bates
 * number (as written, or in another spelling) or has that name;
 * SW_ENOTFOUND when none does. */
int sw__record_label_target(int64_t *out, struct sw_matter *m, const char *target,
			    struct sw_err *err);

/* Labels stored (a label again replaces its target), stamped now. */
struct sw__label_writer {
	struct sw_matter *m;
	sqlite3_stmt *ins;
	char now[21];
};
int sw__record_labels_open(struct sw__label_writer *w, struct sw_matter *m,
			   struct sw_err *err) SW_MUST_USE;
int sw__record_label_put(struct sw__label_writer *w, const char *label, const char *target,
			 int64_t doc, struct sw_err *err) SW_MUST_USE;
void sw__record_labels_close(struct sw__label_writer *w);

/* ------------------------------------------------------------- importing */

/* One run of sw_ingest: its options, counters and what it has seen. */
struct sw__ingest {
	struct sw_matter *m;
	const struct sw_ingest_opts *opts;
	struct sw_ingest_summary *sum;
	struct sw_progress progress;
	uint64_t done;           /* documents handled, for the progress line */
	char **consumed;         /* real paths a load file has used */
	size_t nconsumed, capconsumed;
	char **prefixes;         /* Bates prefixes written by this run */
	size_t nprefixes, capprefixes;
	struct sw_err fatal;     /* why the import had to stop, if it did */
};

/* Report one event (counted in the summary) to opts->report. */
void sw__ingest_event(struct sw__ingest *in, enum sw_ingest_event ev,
		      const char *what, const char *fmt, ...) SW_PRINTF(4, 5);

/* Report what the store decided for the document called name (a
 * quarantine), then release *s. */
void sw__ingest_stored(struct sw__ingest *in, const char *name, struct sw__stored *s);

/* Note that a load file used path, so the folder walk does not import it a
 * second time on its own. */
void sw__ingest_consume(struct sw__ingest *in, const char *path);
/* The same for a path already made canonical with realpath(). */
void sw__ingest_consume_real(struct sw__ingest *in, const char *real);

/* Note a Bates prefix this run wrote, for the gap and duplicate report. */
void sw__ingest_touch_prefix(struct sw__ingest *in, const char *prefix);

/* Advance the progress line by one document. */
void sw__ingest_tick(struct sw__ingest *in);

/* Import one plain-text or Markdown file.  Returns a negative code only
 * when the matter itself cannot be written (the reason in in->fatal); bad
 * input is reported as an event and gives 0. */
int sw__ingest_text(struct sw__ingest *in, const char *path, const char *kind);

/* Import a Concordance .DAT with the .OPT beside it (opt may be NULL);
 * root is the folder given to sworn ingest that holds it (volume.c). */
int sw__ingest_loadfile(struct sw__ingest *in, const char *dat, const char *opt,
			const char *root);

/* A production volume: the folders a load file's paths are tried against,
 * the DAT's own first, then each parent up to the ingest root, which bounds
 * them (see volume.c). */
struct sw__volume {
	char *root;    /* real path of the ingest root */
	char **bases;  /* real paths, the DAT's folder first, the root last */
	char **shown;  /* the same as the user named them, for messages */
	size_t nbases;
	bool exact;    /* match names as written only (no search of a folder
			* for another case): for files only marked as used */
};

/* The ingest root for a .DAT named by itself: its folder, or the one above
 * when that folder is called DATA.  Caller frees. */
char *sw__volume_root_for(const char *dat);
int sw__volume_open(struct sw__volume *v, const char *dat, const char *root,
		    struct sw_err *err) SW_MUST_USE;
void sw__volume_release(struct sw__volume *v);

/* Resolve a path as a load file writes it ("TEXT\TEXT001\A.txt") to the
 * real path of a regular file inside the root (*out, caller frees).
 * SW_EINPUT when it is refused (absolute, network, '..' out of the root, a
 * symbolic link out of it), SW_ENOTFOUND when no base holds it; err says
 * which and, for a missing file, every folder looked in. */
int sw__volume_resolve(char **out, const struct sw__volume *v, const char *written,
		       struct sw_err *err) SW_MUST_USE;

/* Read a file sw__volume_resolve gave, opened with O_NOFOLLOW and checked to
 * be the file resolved (a link swapped in meanwhile fails). */
int sw__volume_read(struct sw_buf *out, const char *real, size_t limit,
		    struct sw_err *err) SW_MUST_USE;

/* Import a labels CSV (label,target). */
int sw__ingest_labels(struct sw__ingest *in, const char *path);

/* True when err describes a failure of the matter itself (database or
 * disk), after which importing more documents is pointless. */
bool sw__ingest_fatal(const struct sw_err *err);

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

void sw__fp_compute(struct sw_fp *out, const char *text, size_t len);
void sw__fp_release(struct sw_fp *fp);

/* The number of prints a and b share. */
size_t sw__fp_shared(const struct sw_fp *a, const struct sw_fp *b);

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
void sw__fp_score(struct sw_fp_score *out, size_t shared, const struct sw_fp *doc,
		  size_t output_prints, uint64_t output_text_hash);

/* How many model outputs the workspace has registered (0 when the firewall
 * is off).  Cheap after the first call: the index is cached and reloaded
 * only when provenance.db changes. */
int sw__prov_outputs(size_t *out, struct sw_matter *m, struct sw_err *err);

/* The best-matching model output of the workspace for prints doc, over
 * every matter.  Fills *out (names owned by the caller, freed with
 * sw_provenance_match_release) and returns 0; out->quarantine says whether
 * it matches.  A matter without a workspace root checks nothing. */
int sw__prov_check(struct sw_provenance_match *out, struct sw_matter *m,
		   const struct sw_fp *doc, struct sw_err *err) SW_MUST_USE;

/* Register prints as a model output of matter m (document identity sha256
 * and beg_bates, name): idempotent. */
int sw__prov_register(struct sw_matter *m, const char *sha256,
		      const char *beg_bates, const char *name,
		      const struct sw_fp *fp, struct sw_err *err) SW_MUST_USE;

/* Note the stored document's id beside its registration (best effort). */
void sw__prov_set_doc(struct sw_matter *m, const char *sha256,
		      const char *beg_bates, int64_t doc_id);

/* Close provenance.db and drop the loaded prints. */
void sw__prov_close(struct sw_matter *m);

/* Import one PDF, e-mail or .docx file (kind "pdf", "email", "docx"),
 * with an e-mail's attachments as child documents.  Same rules as
 * sw__ingest_text. */
int sw__ingest_native(struct sw__ingest *in, const char *path, const char *kind);

#endif /* SW_RECORD_INT_H */
