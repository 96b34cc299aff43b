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
 *     extract/ (the pages and Bates numbers it stores) and base/ only;
 *     sworn ingest (ingest/) drives it and reports what it decides.
 *   - Import is per document and atomic: each document (with its pages,
 *     Bates numbers and index entries) is stored in one transaction, so a
 *     crash or a bad file loses nothing already stored, and a re-import of
 *     the same content is a no-op that says so.
 *   - Every stored document has an origin (evidence, model, human,
 *     template).  Only evidence is ever offered as evidence.
 *   - The provenance firewall: every model output is fingerprinted into
 *     the workspace's provenance.db (hashes only, never text, so no client
 *     text crosses matters).  Evidence that matches a model output of any
 *     matter is stored quarantined: it is searchable only with --all and
 *     never offered as evidence until a human accepts it with a reason.
 *   - Input files are hostile: sizes are bounded (SW_RECORD_MAX_FILE_BYTES,
 *     SW_RECORD_MAX_PDF_BYTES for a mapped PDF, SW_RECORD_MAX_PAGES) and
 *     malformed input fails that file or that document with a one-line
 *     reason, never the whole import.
 *   - Errors: 0 or a negative SW_E* code, message in *err.
 *   - Threads: a struct sw_matter is used by one thread at a time.
 */
#ifndef SW_RECORD_H
#define SW_RECORD_H

#include "base/base.h"
#include "extract/extract.h"

#define SW_CONF_NAME "sworn.conf"
#define SW_MATTER_NAME_MAX 64
#define SW_RECORD_MAX_FILE_BYTES ((size_t)512 << 20)
/* A PDF is mapped, not read into memory: its bytes are hashed, scanned and
 * kept a window at a time and dropped behind (the kernel reads them again
 * from the file when poppler wants them), and its pages are read within
 * their bounds, so memory does not grow with its size and it may be far
 * larger than a file read whole.  A limit still, for a disk's sake: the
 * matter keeps a copy of every original. */
#define SW_RECORD_MAX_PDF_BYTES ((uint64_t)64 << 30)
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

/* PRAGMA quick_check of matter name's matter.db, opened read-only: never
 * migrated or written, so a damaged or newer file is reported as it is.
 * Returns 0 with *damage NULL when the database is intact, or 0 with
 * *damage "'path' is damaged (quick_check: the first five problems, joined
 * by "; ")" (caller frees); SW_EDB when the file cannot be opened or
 * checked at all, err "'path' cannot be checked: reason". */
int sw_matter_check(char **damage, const struct sw_workspace *ws, const char *name,
		    struct sw_err *err) SW_MUST_USE;

struct sw_matter; /* opaque: an open matter.db and its files/ folder */

/* Open an existing matter, migrating its schema forward if it is older.
 * A database newer than this build fails with SW_EINPUT. */
int sw_matter_open(struct sw_matter **out, const struct sw_workspace *ws,
		   const char *name, struct sw_err *err) SW_MUST_USE;
void sw_matter_close(struct sw_matter *m);

const char *sw_matter_name(const struct sw_matter *m);

/* The matter's open database, for the subsystems above record/ that
 * keep tables of their own in it: pipeline/'s run journal (the runs,
 * run_steps, run_sections, run_flags and corrections tables) and web/'s
 * saved edits of a run's draft (draft_edits), created by the matter's
 * migrations in record/schema.c.  Borrowed; the same thread rules
 * as m.  Evidence is never read through it: the queries below are the only
 * way to the record's pages. */
struct sqlite3 *sw_matter_db(struct sw_matter *m);

/* The matter's folder (matters/NAME under the workspace).  Borrowed. */
const char *sw_matter_dir(const struct sw_matter *m);

/* A matter's settings ("corrections.export" = "yes"): free-form keys of
 * at most 64 bytes of [a-z0-9._-] and one-line values, kept in matter.db.
 * get: *out is NULL when the key is not set (caller frees). */
int sw_matter_setting_get(char **out, struct sw_matter *m, const char *key,
			  struct sw_err *err) SW_MUST_USE;
int sw_matter_setting_set(struct sw_matter *m, const char *key, const char *value,
			  struct sw_err *err) SW_MUST_USE;
/* get, and when it was set ("YYYY-MM-DDTHH:MM:SSZ"; *set_at NULL when the
 * key is not set; set_at may be NULL). */
int sw_matter_setting_get_at(char **out, char **set_at, struct sw_matter *m, const char *key,
			     struct sw_err *err) SW_MUST_USE;

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

/* ------------------------------------------------- the provenance firewall */

#define SW_PROVENANCE_K 5          /* words in a fingerprinted k-gram */
#define SW_PROVENANCE_WINDOW 4     /* k-grams in a winnowing window */
/* A document matches a model output when at least this share of the
 * document's fingerprints are the output's: it is mostly that output,
 * re-saved, reformatted or lightly edited.  An edited word breaks the K
 * k-grams over it, so one word changed in twelve still leaves about half
 * the prints; a genuine document quoting a sentence of an output measures
 * a few per cent. */
#define SW_PROVENANCE_THRESHOLD 0.4
/* ...or when this share of the output's fingerprints, and at least
 * SW_PROVENANCE_MIN_SHARED of them, lie in the document: the whole output
 * was pasted into a longer one.  A quoted sentence or two stays far below
 * both. */
#define SW_PROVENANCE_CONTAINED 0.8
#define SW_PROVENANCE_MIN_SHARED 20

/* The model output a text matches best. */
struct sw_provenance_match {
	bool quarantine;  /* it matches by the rules above */
	double overlap;   /* share of the document's prints in the output */
	double contained; /* share of the output's prints in the document */
	uint64_t shared;  /* prints in common */
	int64_t output_id;   /* in provenance.db; 0 when none shares a print */
	char *matter;     /* the output's matter and document name */
	char *name;
};
void sw_provenance_match_release(struct sw_provenance_match *p);

/* Store text written by a model as a document of origin model in m and
 * register its fingerprints in the workspace, so that it can never come
 * back as evidence in any matter.  Storing the same text again is a no-op
 * (*out_id is the stored document).  The pipeline calls this for every
 * output it keeps. */
int sw_record_add_model_output(int64_t *out_id, struct sw_matter *m,
			       const char *name, const char *text, size_t len,
			       struct sw_err *err) SW_MUST_USE;
/* The same for an output written from evidence: given (given_len bytes,
 * borrowed for the call; NULL for none) is the evidence of the model's
 * window.  Spans of SW_PROVENANCE_K words the output copied from it are
 * not registered, so a genuine letter the draft block-quotes is never
 * quarantined as the model's when it is imported later; what the model
 * wrote around it still is. */
int sw_record_add_model_output_given(int64_t *out_id, struct sw_matter *m,
				     const char *name, const char *text, size_t len,
				     const char *given, size_t given_len,
				     struct sw_err *err) SW_MUST_USE;

/* Store text of any origin as one document of m (pages split on form
 * feeds), as sw_record_add_model_output does for origin model; the same
 * text again is a no-op.  The pipeline stores a lawyer's final document
 * with origin human.  Evidence stored this way passes the firewall as an
 * import does. */
int sw_record_add_text(int64_t *out_id, struct sw_matter *m, enum sw_origin origin,
		       const char *name, const char *text, size_t len,
		       struct sw_err *err) SW_MUST_USE;

/* Compare text with every model output of the workspace (what import does
 * to each document).  Caller releases *out. */
int sw_record_check_provenance(struct sw_provenance_match *out,
			       struct sw_matter *m, const char *text, size_t len,
			       struct sw_err *err) SW_MUST_USE;

/* A human's override: make the quarantined document doc (its id, name or
 * BEGBATES) active, recording the reason (required, one line).  SW_ENOTFOUND
 * when no document is called that, SW_EUSAGE when it is not quarantined or
 * the name is ambiguous. */
int sw_record_accept_quarantined(int64_t *out_id, struct sw_matter *m,
				 const char *doc, const char *reason,
				 struct sw_err *err) SW_MUST_USE;

struct sw_audit_origin {
	char *origin;
	char *status;     /* active or quarantined */
	uint64_t documents;
	uint64_t pages;
};

struct sw_audit_decision {
	int64_t doc_id;
	char *document;
	char *decision;   /* quarantined or accepted */
	double overlap;
	double contained;
	char *output_matter;
	char *output_name;
	char *reason;     /* the human's reason for an acceptance, else NULL */
	char *decided_at;
};

/* A document that is not plain active evidence. */
struct sw_audit_doc {
	int64_t id;
	char *name;
	char *kind;
	char *origin;
	char *status;
};

/* A document taken out of the record (sw_record_remove). */
struct sw_audit_removal {
	int64_t doc_id;
	char *document;
	char *prior_status; /* what it was before: active or quarantined */
	char *reason;
	int64_t replaced_by; /* the corrected document, or 0 */
	char *removed_at;
};

/* An origin changed by an import that found the document stored
 * (sw_record_reclassify). */
struct sw_audit_reclass {
	int64_t doc_id;
	char *document;
	char *from, *to;  /* origins */
	char *at;         /* when */
	char *by;         /* what changed it: "import" */
};

struct sw_audit {
	struct sw_audit_origin *origins;
	size_t norigins;
	struct sw_audit_doc *docs; /* every non-evidence, quarantined or removed one */
	size_t ndocs;
	struct sw_audit_decision *decisions;
	size_t ndecisions;
	struct sw_audit_removal *removals; /* in the order made */
	size_t nremovals;
	struct sw_audit_reclass *reclasses; /* in the order made */
	size_t nreclasses;
};

/* What a matter holds by origin and status, each document that is not
 * active evidence, and every quarantine decision in the order made.  Release with sw_audit_release. */
int sw_matter_audit(struct sw_audit *out, struct sw_matter *m,
		    struct sw_err *err) SW_MUST_USE;
void sw_audit_release(struct sw_audit *a);

/* ------------------------------------------------------ document metadata */

/* What a load file (or an e-mail's headers) says of a document, read from
 * the columns vendors name (CUSTODIAN, "Email From", DATESENT, ...) when
 * it is stored into doc_fields (the value as written; a date's day as
 * YYYY-MM-DD when it reads as one) and doc_terms (the folded words of the
 * text fields), so that a search by field is an index look-up.
 * documents.meta keeps every column as written. */
enum sw_doc_field {
	SW_FIELD_CUSTODIAN, SW_FIELD_DOCTYPE,
	SW_FIELD_TITLE,      /* the title, else an e-mail's subject */
	SW_FIELD_FROM, SW_FIELD_TO, SW_FIELD_CC,
	SW_FIELD_SENT, SW_FIELD_RECEIVED,
	SW_FIELD_DOCDATE,    /* the document's own date (DOCDATE, DATECREATED) */
	SW_FIELD_CONFIDENTIALITY,
	SW_DOC_FIELDS
};
#define SW_DATE_LEN 10          /* YYYY-MM-DD */
#define SW_FIELD_MAX_BYTES 4096 /* of one value kept; longer ones are cut */

/* The field's name in commands and JSON ("custodian", "sent") and its
 * label for people ("Custodian"); the field named so (any case) or -1. */
const char *sw_doc_field_name(enum sw_doc_field f);
const char *sw_doc_field_label(enum sw_doc_field f);
int sw_doc_field_find(const char *name, size_t len);
bool sw_doc_field_is_date(enum sw_doc_field f);
/* The field a load file's column holds ("Date Sent": sent), or -1. */
int sw_doc_field_of_column(const char *column);

/* A date as load files and e-mail write it ("03/15/2021 10:42 AM",
 * "2021-03-15T10:42:00Z", "20210315", "15-Mar-2021", "March 15, 2021",
 * "Mon, 15 Mar 2021 ..."; numbers month first unless the first cannot be a
 * month) into out as YYYY-MM-DD; false, out "", when it is not one. */
bool sw_date_normalize(char out[SW_DATE_LEN + 1], const char *s, size_t len);

/* One document's metadata: value[f] as written or NULL; day[f] a date
 * field's day, "" when it did not read as one. */
struct sw_doc_meta {
	char *value[SW_DOC_FIELDS];
	char day[SW_DOC_FIELDS][SW_DATE_LEN + 1];
};
void sw_doc_meta_release(struct sw_doc_meta *meta);
bool sw_doc_meta_any(const struct sw_doc_meta *meta);
/* Its date: sent, else received, else its own; "" for none. */
const char *sw_doc_meta_date(const struct sw_doc_meta *meta);

/* Document doc_id's metadata (all NULL for none), any document's: the
 * caller decides what it may show.  Release with sw_doc_meta_release. */
int sw_record_doc_meta(struct sw_doc_meta *out, struct sw_matter *m, int64_t doc_id,
		       struct sw_err *err) SW_MUST_USE;

/* As a new JSON object: text fields by name as strings, dates as
 * {"date": "YYYY-MM-DD" or null, "as_written"}. */
struct json_t *sw_doc_meta_json(const struct sw_doc_meta *meta);

/* ------------------------------------ seeing and fixing the documents */

/* One stored document, as sworn matter docs lists it. */
struct sw_doc_row {
	int64_t id;
	char *name;
	char *kind;
	char *origin;
	char *status;     /* active, quarantined or removed */
	char *beg_bates;  /* the first and last page's numbers; NULL unnumbered */
	char *end_bates;
	uint32_t pages;
	char *source;     /* the path it was imported from */
	char *imported_at;
	int64_t parent_id; /* the e-mail or family it came in, or 0 */
	struct sw_doc_meta meta; /* its load-file metadata */
};
void sw_doc_rows_free(struct sw_doc_row *rows, size_t n);

/* Every document of m in id order, removed ones included (their status
 * says so).  Caller frees with sw_doc_rows_free. */
int sw_matter_docs(struct sw_doc_row **out, size_t *n, struct sw_matter *m,
		   struct sw_err *err) SW_MUST_USE;

/* The documents as sworn matter docs --json and the web API give them:
 * {"matter": matter, "documents": [{id, name, kind, origin, status,
 * beg_bates, end_bates, pages, source, imported_at, parent_id, metadata}]},
 * absent values null.  Returns a new JSON object. */
struct json_t *sw_doc_rows_json(const char *matter, const struct sw_doc_row *rows, size_t n);

/* One page of any document, as sworn show prints it. */
struct sw_shown_page {
	int64_t doc_id;
	char *document;
	char *origin;
	char *status;
	uint32_t page_no, page_count;
	char *bates;        /* or NULL */
	char *text_source;  /* text, ocr or none */
	struct sw_buf text;
	struct sw_doc_meta meta; /* the document's load-file metadata */
};
void sw_shown_page_release(struct sw_shown_page *p);
/* The page as sworn show --json and the web's page route give it:
 * {document_id, document, bates, page, pages, origin, status, text_source,
 * text, metadata}, bates and text_source null when absent (each caller
 * adds its own: the matter, whether there is an image).  Returns a new
 * JSON object. */
struct json_t *sw_shown_page_json(const struct sw_shown_page *p);

/* The page what names: a Bates number in any spelling ("BLT 000007"), or a
 * document (id, name or BEGBATES) with an optional ":PAGE" (page 1 when
 * none).  A number on more than one page gives the live one (active, then
 * quarantined, then removed; the lowest id among equals).  A name that
 * several documents share gives the one that is not removed, SW_EUSAGE when
 * that is still more than one.  SW_ENOTFOUND when nothing is called so or
 * the document has no such page. */
int sw_record_show(struct sw_shown_page *out, struct sw_matter *m, const char *what,
		   struct sw_err *err) SW_MUST_USE;

/* The original file of document doc_id as it was imported, kept in the
 * matter's files/ under its SHA-256: its path into *path (caller frees).
 * SW_ENOTFOUND when there is no such document, it kept no original (a
 * text stored by sworn itself), or the file is no longer there.  Any
 * document: the caller decides what it may show. */
int sw_record_doc_original(char **path, struct sw_matter *m, int64_t doc_id,
			   struct sw_err *err) SW_MUST_USE;

/* Take document doc (id, name or BEGBATES; as sw_record_show finds one)
 * and every document that came in it (its attachments, at any depth) out
 * of the record: status removed, their pages out of the full-text index,
 * so no search, no verifier query and no bundle sees them again.  The
 * rows, the page text and the original in files/ stay; each removal is
 * recorded with its reason (required, one line) and listed by
 * sw_matter_audit.  *out_id gets doc's id, *count (may be NULL) the
 * documents removed.  SW_ENOTFOUND, SW_EUSAGE when doc is ambiguous or
 * already removed.  One transaction. */
int sw_record_remove(int64_t *out_id, uint64_t *count, struct sw_matter *m,
		     const char *doc, const char *reason,
		     struct sw_err *err) SW_MUST_USE;

/* A corrected re-production: the documents that new_id replaces -- every
 * other live document of the same origin with the same BEGBATES, or, when
 * new_id has none, with the same name and no BEGBATES and no parent -- are
 * removed as sw_record_remove does, the reason naming new_id.  *count gets
 * how many were (0 when none), *names (may be NULL) their names joined by
 * ", " (caller frees; NULL when none).  One transaction. */
int sw_record_replace_older(uint64_t *count, char **names, struct sw_matter *m,
			    int64_t new_id, struct sw_err *err) SW_MUST_USE;

/* For a report's audit stamp: the number of documents in the matter and
 * the import time of the newest (as stored, "YYYY-MM-DDTHH:MM:SSZ"; NULL
 * when there is none; caller frees). */
int sw_record_import_stamp(uint64_t *documents, char **last_import, struct sw_matter *m,
			   struct sw_err *err) SW_MUST_USE;

/* Normalise a record-citation label for matching; the labels CSV and the
 * verifier (for the label a draft cites) both go through this, so they
 * agree.  The label is cut into words (runs of letters) and numbers (runs
 * of digits, leading zeros dropped); everything between them -- blanks,
 * periods, commas, hyphens, dashes, '#', parentheses, a possessive "'s" --
 * is a separator, and a letter-digit boundary is one too.  Words are lower
 * case and folded to one spelling: exhibit/exh/ex "ex", docket/dkt/doc/ecf
 * "ecf", deposition/depo "dep", declaration "decl", affidavit "aff",
 * transcript "tr"; party words keep the party, one spelling each:
 * plaintiff(s)/pl/pls/pltf "pl", defendant(s)/def/defs/deft/dft "def",
 * respondent/resp "resp", petitioner/pet "pet", government/gov't/govt
 * "gov", joint/jt "joint"; the trial-list forms PX/DX/JX/GX are "pl ex",
 * "def ex", "joint ex", "gov ex".  "No." after ex or ecf is dropped.  So
 * "DX-3", "DX 3", "dx3", "Def. Ex. 3", "Defendant's Exhibit No. 03" all
 * give "def ex 3"; "Pl. Ex. 3" gives "pl ex 3" and "Ex. 3" gives "ex 3":
 * three different labels.  "ECF No. 45" gives "ecf 45", "Smith Dep."
 * "smith dep", "Ex. 12-A" and "Ex. 12A" "ex 12 a".  Caller frees. */
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
	char *cite;     /* a transcript hit as cited: "Whitaker Dep. 12:8"
			 * (its deposition label, else its document name, and
			 * the page:line of the first match); else NULL */
};

struct sw_search_opts {
	size_t limit;         /* hits to return; 0 means 20 */
	bool raw;             /* the query is FTS5 syntax, not plain words */
	bool include_all;     /* also quarantined and non-evidence texts */
};

/* Full-text search over page text, ranked by bm25.  A plain query matches
 * pages holding every word (each word may be a Bates number, "§ 1983",
 * "ACME-0000123").  A Bates number or range in any spelling (one word, or
 * the whole query: "BLT 000007", "BLT-000006–BLT-000009") also matches the
 * pages numbered so, from a stamp or only from a load file; those come
 * first (score 0), each page once.  Field terms (custodian:whitfield,
 * date:2021-03..2021-06; not in raw queries) keep the documents that
 * match them, or alone list each one's first page, earliest first.  Hits
 * are appended to *out (caller releases with sw_search_hits_free).  A
 * malformed raw query or field term fails with SW_EUSAGE. */
int sw_search(struct sw_search_hit **out, size_t *n, struct sw_matter *m,
	      const char *query, const struct sw_search_opts *opts,
	      struct sw_err *err) SW_MUST_USE;
void sw_search_hits_free(struct sw_search_hit *hits, size_t n);

/* ------------------------------------------------ queries for the verifier */

/* What verify/ asks of a matter's record.  Every query here sees only
 * documents of origin evidence that are not quarantined: nothing else may
 * support a claim, so nothing else is ever returned. */

/* A read transaction around many queries: they then share one snapshot of
 * the record and the cost of starting one (a verifier's thousands of
 * look-ups spent a sixth of their time on it).  Returns whether it began
 * one, to end with sw_record_read_end(); false when the caller's
 * transaction is open already (its snapshot serves) or none could begin
 * (each query then runs on its own, as without).  Write nothing between. */
bool sw_record_read_begin(struct sw_matter *m);
void sw_record_read_end(struct sw_matter *m);

/* One page of an evidence document. */
struct sw_record_page {
	int64_t id;          /* the page's id (for sw_record_page_text) */
	int64_t doc_id;
	uint32_t page_no;    /* 1-based within the document */
	uint32_t page_count; /* pages in the document */
	char *document;      /* the document's name */
	char *bates;         /* the page's Bates number, or NULL */
};
void sw_record_page_release(struct sw_record_page *p);

/* ------------------------------------------------------------ Bates numbers */

/* A Bates number, or a range of them, in the one canonical form storage,
 * lookup, search and the verifier share.  The prefix is the letters and
 * digits before the counter, upper case, without separators: "BLT-000006",
 * "BLT 000006", "BLT_6", "blt000006" are all prefix "BLT", number 6.  Pages
 * keep their number as written (pages.bates) for display; pages.bates_prefix
 * holds this canonical prefix. */
#define SW_BATES_CANON_MAX 48   /* canonical prefix, with its NUL */
#define SW_BATES_REF_MIN_DIGITS 3
struct sw_bates_ref {
	char prefix[SW_BATES_CANON_MAX];
	uint64_t first;
	uint64_t last;  /* == first for a single number */
	int width;      /* digits of first as written (its zero padding) */
};

/* Parse a Bates number or range as people write one: "BLT-000006",
 * "BLT 000006", "BLT_000006", "BLT000006", "BLT-6" (any padding, a counter
 * of SW_BATES_REF_MIN_DIGITS digits or more, the prefix starting with a
 * letter), and ranges "BLT-000006–BLT-000009", "BLT-000006 - BLT-000009",
 * "BLT-000006 to BLT-000009" (through, thru, en or em dash), "BLT-000007-000012"
 * and "BLT-000007-12" (an end's last digits).  An attachment suffix
 * ("_003") is passed over.  Both ends must have the same canonical prefix.
 * Returns 0, or SW_EINPUT (out zeroed) when s is not one. */
int sw_bates_ref_parse(struct sw_bates_ref *out, const char *s, size_t len);

/* The canonical form of a prefix as written ("BLT-" gives "BLT") into out,
 * which has room for SW_BATES_CANON_MAX bytes. */
void sw_bates_canon_prefix(char *out, const char *prefix, size_t len);

/* Look a Bates number or range up among the evidence pages: *have gets how
 * many distinct numbers from ref->first to ref->last (canonical prefix) are
 * evidence pages, *first (may be NULL) the lowest-numbered of them (zeroed
 * when none; release with sw_record_page_release).  0 or SW_EDB; "not
 * there" is *have == 0, not an error.  This is the one call the verifier
 * needs for a Bates claim: parse the token with sw_bates_ref_parse, look it
 * up here. */
int sw_record_bates_lookup(uint64_t *have, struct sw_record_page *first,
			   struct sw_matter *m, const struct sw_bates_ref *ref,
			   struct sw_err *err) SW_MUST_USE;

/* The same for a token as written: parses text (sw_bates_ref_parse) and
 * looks it up.  SW_EINPUT when text is not a Bates number or range; *ref
 * (may be NULL) gets the parsed form. */
int sw_record_bates_find(uint64_t *have, struct sw_record_page *first,
			 struct sw_bates_ref *ref, struct sw_matter *m,
			 const char *text, size_t len,
			 struct sw_err *err) SW_MUST_USE;

/* The evidence page numbered prefix + num ("ACME", 3); prefix is canonical
 * (see struct sw_bates_ref).  SW_ENOTFOUND when there is none. */
int sw_record_page_by_bates(struct sw_record_page *out, struct sw_matter *m,
			    const char *prefix, uint64_t num,
			    struct sw_err *err) SW_MUST_USE;

/* How many distinct numbers from first to last (inclusive) with the
 * canonical prefix are evidence pages, into *out. */
int sw_record_bates_count(uint64_t *out, struct sw_matter *m, const char *prefix,
			  uint64_t first, uint64_t last,
			  struct sw_err *err) SW_MUST_USE;

/* The evidence document a label names ("Ex. 2", "Smith Dep.": compared
 * through sw_label_normalize), as its first page in *out.  SW_ENOTFOUND when
 * no label is defined so or its document is not active evidence. */
int sw_record_doc_by_label(struct sw_record_page *out, struct sw_matter *m,
			   const char *label, struct sw_err *err) SW_MUST_USE;

/* Page page_no of evidence document doc_id.  SW_ENOTFOUND when there is no
 * such page. */
int sw_record_doc_page(struct sw_record_page *out, struct sw_matter *m,
		       int64_t doc_id, uint32_t page_no,
		       struct sw_err *err) SW_MUST_USE;

/* Transcript lines first..last of transcript page tr_page of doc_id: *found
 * gets how many of them the transcript has, *page (may be NULL) the stored
 * page that holds the first of them (zeroed when none). */
int sw_record_transcript_lines(uint32_t *found, struct sw_record_page *page,
			       struct sw_matter *m, int64_t doc_id,
			       uint32_t tr_page, uint32_t first, uint32_t last,
			       struct sw_err *err) SW_MUST_USE;

/* The evidence page with this id.  SW_ENOTFOUND when there is none. */
int sw_record_page_by_id(struct sw_record_page *out, struct sw_matter *m,
			 int64_t id, struct sw_err *err) SW_MUST_USE;

/* The text of page id into out (replacing its contents); SW_ENOTFOUND when
 * it is not an evidence page. */
int sw_record_page_text(struct sw_buf *out, struct sw_matter *m, int64_t id,
			struct sw_err *err) SW_MUST_USE;

/* The ids of at most limit evidence pages that hold any of the phrases
 * (each a run of plain words, matched in order as the search tokenizer cuts
 * and folds them: "march 31 2021"; a phrase that ends in '*' matches its
 * last word as a prefix: "2021 03 03t*" finds "2021-03-03T16:02:11"), in
 * page order.  Caller frees *out. */
int sw_record_find_pages(int64_t **out, size_t *n, struct sw_matter *m,
			 const char *const *phrases, size_t nphrases,
			 size_t limit, struct sw_err *err) SW_MUST_USE;

/* The Bates series of the evidence pages, each its first and last number
 * as written joined by an en dash, "BLT-000001–BLT-000012" (one number
 * alone when the series has one), the series joined by ", " in order of
 * canonical prefix (empty when no page is numbered).  Caller frees. */
int sw_record_bates_summary(char **out, struct sw_matter *m,
			    struct sw_err *err) SW_MUST_USE;

/* One Bates series of the evidence pages: the numbers with one canonical
 * prefix. */
struct sw_record_series {
	char *prefix;       /* canonical (struct sw_bates_ref) */
	uint64_t lo, hi;    /* the lowest and highest number */
	uint64_t numbers;   /* distinct numbers from lo to hi that exist */
	char *first, *last; /* the lo and hi pages' numbers as stamped */
};
void sw_record_series_free(struct sw_record_series *s, size_t n);

/* Every Bates series of the evidence pages, by prefix.  Caller frees with
 * sw_record_series_free. */
int sw_record_bates_series(struct sw_record_series **out, size_t *n,
			   struct sw_matter *m, struct sw_err *err) SW_MUST_USE;

/* The lowest number from first to last (canonical prefix) that is no
 * evidence page, into *out (0 when every one is). */
int sw_record_bates_first_missing(uint64_t *out, struct sw_matter *m,
				  const char *prefix, uint64_t first,
				  uint64_t last, struct sw_err *err) SW_MUST_USE;

/* A label of an evidence document. */
struct sw_record_label {
	char *label;    /* as defined ("Def. Ex. 3") */
	char *norm;     /* as sw_label_normalize gives it */
	int64_t doc_id;
};
void sw_record_labels_free(struct sw_record_label *l, size_t n);

/* At most limit labels of evidence documents, by normalised label. */
int sw_record_labels(struct sw_record_label **out, size_t *n,
		     struct sw_matter *m, size_t limit,
		     struct sw_err *err) SW_MUST_USE;

/* One numbered transcript line stored on a page: its transcript page and
 * line number and the byte range of its words in the page's text (the line
 * number and the page header are outside it). */
struct sw_record_tline {
	uint32_t tr_page, line;
	size_t start, end;
};

/* The transcript lines of evidence page page_id in order (none when it is
 * not a transcript page).  Caller frees *out. */
int sw_record_page_lines(struct sw_record_tline **out, size_t *n,
			 struct sw_matter *m, int64_t page_id,
			 struct sw_err *err) SW_MUST_USE;

#include "record/record_store.h"

/* -------------------------------------------------- production QC (qc.c) */

/* What an import found wrong with a load-file volume, kept per volume (by
 * its .DAT's SHA-256: importing the same .DAT again replaces its report)
 * so that `sworn matter qc` reports it without reading the volume again. */
enum sw_qc_kind {
	SW_QC_GAP, SW_QC_OVERLAP, SW_QC_DUPLICATE, SW_QC_DAT_OPT, SW_QC_NO_TEXT,
	SW_QC_NO_IMAGE, SW_QC_NO_NATIVE, SW_QC_PAGE_COUNT, SW_QC_BAD_DATE,
	SW_QC_ENCODING, SW_QC_FAMILY, SW_QC_BAD_ROW, SW_QC_KINDS
};
/* Findings kept per volume; past it they are counted (unlisted). */
#define SW_QC_MAX_FINDINGS 100000
struct sw_qc_finding {
	enum sw_qc_kind kind;
	int line;    /* of the .DAT (the .OPT for images and OPT lines); 0: none */
	char *bates; /* the number or range concerned, or NULL */
	char *detail;
};
struct sw_qc_volume {
	char *name, *dat, *opt; /* the volume's folder, the .DAT's path; opt NULL */
	char sha256[SW_SHA256_HEX_LEN + 1]; /* of the .DAT */
	char *imported_at;      /* set by sw_record_qc_load */
	uint64_t documents, pages, natives, images, texts, unlisted;
	struct sw_qc_finding *findings;
	size_t nfindings, cap;
};
/* A kind's name in CSV and JSON ("gap"), its heading ("Bates gaps") and
 * what the producing party should do about it. */
const char *sw_qc_kind_name(enum sw_qc_kind k);
const char *sw_qc_kind_title(enum sw_qc_kind k);
const char *sw_qc_kind_fix(enum sw_qc_kind k);
/* Add a finding (bates may be NULL); past SW_QC_MAX_FINDINGS only counted. */
void sw_qc_add(struct sw_qc_volume *v, enum sw_qc_kind k, int line, const char *bates,
	       const char *fmt, ...) SW_PRINTF(5, 6);
void sw_qc_volume_release(struct sw_qc_volume *v);
void sw_qc_volumes_free(struct sw_qc_volume *v, size_t n);
/* Keep v's report, replacing the one of the same .DAT, in one transaction
 * (an open import batch is committed first). */
int sw_record_qc_save(struct sw_matter *m, const struct sw_qc_volume *v,
		      struct sw_err *err) SW_MUST_USE;
/* The reports of the volumes named (a volume's folder or its .DAT's file
 * name, any case), or all when nnames is 0, oldest import first (*out,
 * free with sw_qc_volumes_free).  SW_ENOTFOUND naming the first name that
 * matches no volume, with the volumes there are. */
int sw_record_qc_load(struct sw_qc_volume **out, size_t *n, struct sw_matter *m,
		      const char *const *names, size_t nnames, struct sw_err *err) SW_MUST_USE;
/* The share of v's documents with text, in whole percent (0 for none). */
unsigned sw_qc_text_coverage(const struct sw_qc_volume *v);
/* The report of v[0..n) as `sworn matter qc --json` prints it: {"matter",
 * "volumes": [{"name", "dat", "opt", "imported_at", "totals", "findings":
 * [{"kind", "title", "line", "bates", "detail", "fix"}], "unlisted"}]}.
 * Returns a new reference (qc_report.c). */
struct json_t *sw_qc_report_json(const char *matter, const struct sw_qc_volume *v, size_t n);
/* The findings of v[0..n) as CSV, a header line first (volume, kind, line,
 * bates, detail, fix), appended to out; cells that a spreadsheet would run
 * as a formula are prefixed with an apostrophe. */
void sw_qc_report_csv(struct sw_buf *out, const struct sw_qc_volume *v, size_t n);

#endif /* SW_RECORD_H */
