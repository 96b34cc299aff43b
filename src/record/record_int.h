/*
 * record_int.h - internals shared by the files of record/.  Nothing outside
 * src/record/ includes this header (the layering test enforces it); the
 * public contract is record.h.
 *
 * The parsers declared here (load files, Bates numbers, transcripts) are pure:
 * bytes in, structures out, no database.  Their input is hostile; every count
 * and length is checked against the SW_*_MAX limits below before anything is
 * allocated, and each has a libFuzzer target in tests/fuzz/.
 */
#ifndef SW_RECORD_INT_H
#define SW_RECORD_INT_H

#include "base/base.h"
#include "record/record.h"

/* ------------------------------------------------ Concordance .DAT files */

#define SW_DAT_MAX_BYTES ((size_t)2 << 30)     /* whole file */
#define SW_DAT_MAX_FIELDS 1000                 /* columns */
#define SW_DAT_MAX_RECORDS 10000000            /* rows */
#define SW_DAT_MAX_FIELD_BYTES ((size_t)16 << 20)

enum sw_dat_encoding { SW_DAT_UTF8, SW_DAT_LATIN1, SW_DAT_UTF16 };

/* One row.  When error is not NULL the row was malformed (wrong field count,
 * unterminated qualifier, over a limit) and values is NULL; the rest of the
 * file is still parsed. */
struct sw_dat_record {
	char **values; /* nfields UTF-8 strings, owned by the sw_dat */
	int line;      /* 1-based line of the file where the row starts */
	char *error;   /* one-line reason, or NULL */
};

/* A parsed load file.  Field names are trimmed and upper-cased; values are
 * converted to UTF-8, with the newline-in-field mark (®) turned into '\n'. */
struct sw_dat {
	enum sw_dat_encoding encoding;
	bool bom;                  /* the file began with a UTF-8 BOM */
	char separator[4];         /* as UTF-8: "\x14", "\xc2\xb6", ",", ... */
	char qualifier[4];         /* as UTF-8: "\xc3\xbe" (þ), "\"" or "" */
	size_t nfields;
	char **names;
	struct sw_dat_record *records;
	size_t nrecords;
	size_t nbad;               /* rows with an error */
	struct sw_arena arena;     /* owns every string */
};

/* Parse a .DAT.  The encoding (UTF-8 with or without BOM, else Latin-1 /
 * Windows-1252) and the separator and qualifier are detected from the header
 * row.  Fails (SW_EINPUT) only when there is no usable header row or a limit
 * is passed; malformed data rows are reported in their record. */
int sw_dat_parse(struct sw_dat *out, const char *data, size_t len,
		 struct sw_err *err) SW_MUST_USE;
void sw_dat_release(struct sw_dat *d);

/* Index of the column named name (case-insensitive), or -1. */
int sw_dat_field(const struct sw_dat *d, const char *name);

/* The arena block size for parsing an input of len bytes: the strings take
 * about as many bytes as the input, and a small input should not pay for a
 * large block. */
size_t sw__record_arena_block(size_t len);

/* ----------------------------------------------- Opticon .OPT image files */

#define SW_OPT_MAX_PAGES 50000000
#define SW_OPT_MAX_LINE 8192

struct sw_opt_page {
	char *key;        /* ImageKey: the page's Bates number */
	char *volume;
	char *image;      /* ImagePath as written */
	bool doc_break;   /* 'Y' in DocBreak: the first page of a document */
	uint32_t page_count; /* PageCount on a first page, else 0 */
	int line;
};

struct sw_opt {
	struct sw_opt_page *pages;
	size_t n, cap;
	size_t nbad;      /* malformed lines skipped */
	char *first_error; /* the first malformed line's reason, or NULL */
	struct sw_arena arena;
};

int sw_opt_parse(struct sw_opt *out, const char *data, size_t len,
		 struct sw_err *err) SW_MUST_USE;
void sw_opt_release(struct sw_opt *o);

/* ---------------------------------------------------------- Bates numbers */

#define SW_BATES_PREFIX_MAX 48
#define SW_BATES_MAX_DIGITS 9  /* longer runs move digits into the prefix */

/* A Bates number split as review platforms do: the prefix is everything
 * before the number (separator included, "ABC-"), the number is the longest
 * digit run of at least three digits (the first of equal ones), width its
 * zero-padded length, and a suffix anything after (attachment "_003" style
 * is kept in suffix).  A run longer than SW_BATES_MAX_DIGITS keeps its last
 * digits as the number and the rest joins the prefix, so "20140904_PROD_
 * PAGE_1" is prefix "", number 20140904, suffix "_PROD_PAGE_1". */
struct sw_bates {
	char prefix[SW_BATES_PREFIX_MAX];
	uint64_t number;
	int width;
	char suffix[16];
};

/* Parse len bytes as one Bates number.  One space is allowed, right before
 * the number ("ABC 0001234"; it stays in the prefix).  A purely numeric text
 * parses with an empty prefix; callers decide whether that will do.  Returns
 * 0, or SW_EINPUT when the text does not look like one (no 3+ digit run,
 * prefix or suffix too long, other spaces, control bytes, invalid UTF-8);
 * out is zeroed then. */
int sw_bates_parse(struct sw_bates *out, const char *s, size_t len);

/* Format b with its number replaced by number (same prefix, width, suffix).
 * Returns the length written (snprintf rules). */
int sw_bates_format(char *out, size_t outsz, const struct sw_bates *b,
		    uint64_t number);

/* Find the Bates stamp of a page: a Bates-looking token on one of the first
 * or last three non-empty lines, possibly beside a confidentiality legend
 * ("CONFIDENTIAL", "HIGHLY CONFIDENTIAL - ATTORNEYS' EYES ONLY").  The
 * prefix must start with a letter and hold two or more, all upper case, the
 * counter five digits or four zero-padded ones, the suffix only "_003"
 * style; lines of prose (over eight words besides the legend) are skipped,
 * and the footer wins over the header.  On success
 * fills out and the byte range of the token and returns 0; SW_ENOTFOUND
 * when there is no stamp. */
int sw_bates_find_stamp(struct sw_bates *out, size_t *start, size_t *end,
			const char *page, size_t len);

/* ------------------------------------------------- deposition transcripts */

#define SW_TR_MAX_LINE_NO 50
#define SW_TR_MAX_PAGE_NO 999999

/* One numbered line of a transcript page. */
struct sw_tr_line {
	uint32_t page;  /* transcript page number ("Page 12" header) */
	uint32_t line;  /* 1..25 typically */
	size_t start;   /* byte range of the line's text (after the number) */
	size_t end;     /* within the page text given */
};

/* Parse one page of text as a transcript page: a "Page N" header ("Page N
 * of M", "- N -", a bare page number alone on the first line, or a running
 * header ending in "Page N") and lines that start with their line number
 * (a video time stamp "10:14:32" after the number is margin, outside the
 * line's range).  Returns the number of numbered lines found (0 when it is
 * not a transcript page) and sets *page_no (0 when it is not); lines are
 * appended to *lines (grown with sw_xgrow, *cap tracked by the caller) only
 * for a transcript page.  It is one when the header is the first non-empty
 * line and at least five numbered lines follow it from 1 upwards (blank
 * lines between them are skipped, one missing number is forgiven); the
 * first other line ends the page's lines.  A text without form feeds may
 * hold more transcript pages: each header within three lines after the
 * lines before (a footer, a margin), with a higher page number and five
 * lines or more, adds its lines (each line carries its page). */
size_t sw_transcript_page(uint32_t *page_no, struct sw_tr_line **lines,
			  size_t *n, size_t *cap, const char *text, size_t len);

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
	struct sw__ingest *ingest; /* the import in progress, for its events */
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

/* Store one document, its pages, their index entries and (when most pages
 * are deposition pages) its transcript lines, in one transaction.  Sets
 * *out_id and *out_transcript.  SW_EEXIST when a document of the same
 * identity is already stored (the caller checked; a race is still safe).
 * The provenance firewall runs here, so every importer passes it: evidence
 * that matches a model output of the workspace is stored quarantined (with
 * its decision, in the same transaction) and reported to m->ingest; a model
 * output is registered in provenance.db before it is stored. */
int sw__record_store_doc(int64_t *out_id, bool *out_transcript,
			 struct sw_matter *m, const struct sw_doc_in *doc,
			 struct sw_err *err) SW_MUST_USE;

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

/* Note that a load file used path, so the folder walk does not import it a
 * second time on its own. */
void sw__ingest_consume(struct sw__ingest *in, const char *path);
/* The same for a path already made canonical with realpath(). */
void sw__ingest_consume_real(struct sw__ingest *in, const char *real);

/* Note a Bates prefix this run wrote, for the gap and duplicate report. */
void sw__ingest_touch_prefix(struct sw__ingest *in, const char *prefix);

/* Advance the progress line by one document. */
void sw__ingest_tick(struct sw__ingest *in);

/* Decode file bytes as text: strip a UTF-8 BOM; invalid UTF-8 is read as
 * Windows-1252 (*latin1 set).  A lone truncated sequence at the very end is
 * dropped (*truncated set).  Returns SW_EINPUT for NUL bytes (binary). */
int sw__ingest_decode(struct sw_buf *out, bool *latin1, bool *truncated,
		      const char *data, size_t len, struct sw_err *err);

/* Split text on form feeds into pages (a final \f adds no empty page).
 * Fills *pages (caller frees the array; texts point into text). */
int sw__ingest_split_pages(struct sw_page_in **pages, size_t *n,
			   const char *text, size_t len, struct sw_err *err);

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

/* When data is UTF-16 (a byte-order mark, or without one the NUL bytes of
 * ASCII text in UTF-16 LE or BE), convert it to UTF-8 into out (replacing
 * its contents; the mark dropped, bad surrogates as U+FFFD) and return
 * true; else leave out alone and return false. */
bool sw__utf16_to_utf8(struct sw_buf *out, const char *data, size_t len);

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

/* ------------------------------------------------------- native formats */

#define SW_PDF_OCR_DPI 300              /* page images rendered for OCR */
#define SW_OCR_MAX_THREADS 64
#define SW_DOCX_MAX_XML_BYTES ((size_t)256 << 20) /* one part, uncompressed */
#define SW_EML_MAX_PARTS 10000          /* MIME parts in one message */
#define SW_EML_MAX_DEPTH 32             /* nesting of multiparts */
#define SW_EXTRACT_MAX_WARNINGS 16

/* One page of extracted text: a byte range of sw_extract.text. */
struct sw_xpage {
	size_t start, len;
	bool ocr;             /* read by OCR */
	float confidence;     /* OCR mean confidence, 0-100 */
	bool image_only;      /* no text layer and OCR was not run */
};

/* A file attached to an e-mail: imported as a child document. */
struct sw_xattach {
	char *name;           /* file name (sanitised), never NULL */
	char *mime;           /* content type, lower case */
	struct sw_buf data;   /* decoded bytes */
};

/* What an extractor found in a native file.  Owns everything. */
struct sw_extract {
	struct sw_buf text;
	struct sw_xpage *pages;
	size_t npages, cappages;
	struct json_t *meta;  /* a JSON object of the file's metadata */
	struct sw_xattach *attach;
	size_t nattach, capattach;
	char *warnings[SW_EXTRACT_MAX_WARNINGS];
	size_t nwarnings;
	size_t ocr_pages;     /* pages read by OCR */
};

void sw__extract_init(struct sw_extract *x);
void sw__extract_release(struct sw_extract *x);
/* End the current page at the end of x->text and start a new one. */
void sw__extract_page(struct sw_extract *x);
void sw__extract_warn(struct sw_extract *x, const char *fmt, ...) SW_PRINTF(2, 3);

struct sw_pdf_opts {
	bool ocr;             /* OCR pages that have no text layer */
	bool progress;        /* an OCR progress line on a terminal */
	unsigned threads;     /* OCR threads; 0 = one per core */
};

/* Extract a PDF: one page of text per PDF page, metadata (title, author,
 * dates, producer...).  An encrypted, damaged or empty PDF fails with
 * SW_EINPUT and a one-line reason. */
int sw__pdf_extract(struct sw_extract *out, const char *data, size_t len,
		    const struct sw_pdf_opts *opts, struct sw_err *err) SW_MUST_USE;

/* Extract a .docx: the paragraphs and tables of word/document.xml in
 * reading order, one page per explicit page break; tracked changes and
 * comments are listed in a marked section at the end and in the metadata. */
int sw__docx_extract(struct sw_extract *out, const char *data, size_t len,
		     struct sw_err *err) SW_MUST_USE;

/* Extract an e-mail: From/To/Cc/Date/Subject as metadata and as the head of
 * the text, the text body (HTML reduced to text), the attachments. */
int sw__eml_extract(struct sw_extract *out, const char *data, size_t len,
		    struct sw_err *err) SW_MUST_USE;

/* Reduce HTML to text: tags dropped, block elements to line breaks,
 * script and style skipped, character references decoded. */
void sw__html_to_text(struct sw_buf *out, const char *html, size_t len);

/* OCR of gray page images (one byte a pixel) with tesseract, loaded on
 * first use with OMP_THREAD_LIMIT=1 (parallel pages instead of parallel
 * threads in one page).  SW_ENOTFOUND when tesseract cannot be loaded. */
struct sw_ocr;
int sw__ocr_new(struct sw_ocr **out, struct sw_err *err) SW_MUST_USE;
int sw__ocr_page(struct sw_ocr *o, struct sw_buf *text, float *confidence,
		 const unsigned char *gray, int width, int height, int stride,
		 int dpi, struct sw_err *err) SW_MUST_USE;
void sw__ocr_free(struct sw_ocr *o);

/* Import one PDF, e-mail or .docx file (kind "pdf", "email", "docx"),
 * with an e-mail's attachments as child documents.  Same rules as
 * sw__ingest_text. */
int sw__ingest_native(struct sw__ingest *in, const char *path, const char *kind);

#endif /* SW_RECORD_INT_H */
