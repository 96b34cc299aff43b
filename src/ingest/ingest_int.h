/*
 * ingest_int.h - internals shared by the files of ingest/: one run's state
 * and events (events.c), the importers of each kind, production volumes.
 * The public contract is ingest.h.
 */
#ifndef SW_INGEST_INT_H
#define SW_INGEST_INT_H

#include "extract/extract.h"
#include "ingest/ingest.h"
#include "record/record.h"

/* An event held back until the batch of the documents it reports is
 * committed (events.c); pages > 0 (and no message) for pages counted. */
struct sw__ingest_held {
	enum sw_ingest_event ev;
	char *what, *msg;
	uint64_t pages;
	uint64_t batch; /* the open batch when it was held (sw_record_batch_seq) */
};

/* Pages one transaction of an import holds by default (sworn.conf's
 * [ingest] batch_pages). */
#define SW__INGEST_BATCH_PAGES 1000

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
	struct sw_ocr_budget budget; /* of the whole import: sw__ingest_budget */
	bool budget_ready;
	struct sw_ocr_pool *ocr_pool; /* sw__ingest_ocr_pool; freed by sw_ingest */
	struct sw__ingest_held *held; /* events of documents not yet committed */
	size_t nheld, capheld;
	uint64_t rolled_back;    /* documents reported lost with their batch */
};

/* The import's OCR budget, its limits set from opts on first use: every
 * importer's struct sw_extract_opts points at it. */
struct sw_ocr_budget *sw__ingest_budget(struct sw__ingest *in);
/* The import's tesseract engines, made on first use: every importer's
 * struct sw_extract_opts points at it. */
struct sw_ocr_pool *sw__ingest_ocr_pool(struct sw__ingest *in);

struct sw__ingest_volume;

/* A load-file row whose pages are page images named by the .OPT
 * (ocr_volume.c).  Zeroed before use; sw__ingest_scan_release after. */
struct sw__ingest_scan {
	bool ready;               /* read: text holds its pages */
	char sha[SW_SHA256_HEX_LEN + 1]; /* the document's identity */
	int64_t id;               /* with SW__SCAN_FOUND: the stored document */
	size_t ocr_pages, unread; /* pages read by OCR, left by the budget */
	struct scan_file *files;
	size_t nfiles, capfiles;
	struct scan_page *pages;
	size_t npages;
};

enum { SW__SCAN_NONE = 0, SW__SCAN_READ = 1, SW__SCAN_FOUND = 2 };

/* The row's pages are the .OPT's first..first+count; begs is its
 * BEGBATES.  SW__SCAN_NONE when none of their images can be read (the row
 * is imported as one without text); SW__SCAN_FOUND when the document is
 * already stored (s->id; nothing read by OCR); SW__SCAN_READ with text
 * set to the pages joined by form feeds, every image kept as an original
 * and s->sha the identity to store it under.  A negative code when the
 * matter cannot be written (in->fatal). */
int sw__ingest_scan(struct sw__ingest_scan *s, struct sw__ingest *in,
		    struct sw__ingest_volume *v, const struct sw_opt *opt, size_t first,
		    size_t count, const char *begs, const char *what, struct sw_buf *text);
/* Copy each page's OCR mark and confidence into pages. */
void sw__ingest_scan_pages(const struct sw__ingest_scan *s, struct sw_page_in *pages,
			   size_t n);
/* The first image's SHA-256, the document's original; NULL when none. */
const char *sw__ingest_scan_original(const struct sw__ingest_scan *s);
/* meta (a JSON object, freed) with the page images and OCR counts added. */
char *sw__ingest_scan_meta(const struct sw__ingest_scan *s, char *meta);
void sw__ingest_scan_release(struct sw__ingest_scan *s);

/* Report one event (counted in the summary) to opts->report.  While the
 * matter's batch is open (sw_record_batch_start) the report is held, and
 * given once the batch is committed, so that nothing is reported imported
 * that a crash could still take back; the counts move at once. */
void sw__ingest_event(struct sw__ingest *in, enum sw_ingest_event ev,
		      const char *what, const char *fmt, ...) SW_PRINTF(4, 5);

/* Count npages pages stored (the summary's pages), held like an event. */
void sw__ingest_pages(struct sw__ingest *in, uint64_t npages);

/* Commit the open batch when it is due (sw_record_batch_due), or always
 * with force, and report the events it held.  0, or the fatal error
 * (in->fatal set).  Called between documents, never inside a family. */
int sw__ingest_commit(struct sw__ingest *in, bool force) SW_MUST_USE;

/* Report the held events whose batch is committed.  Those of a batch
 * rolled back (an error the import stopped at) are reported but the
 * imports, whose counts are taken back and added to in->rolled_back (the
 * import's error says so).  With the batch closed, nothing stays held. */
void sw__ingest_settle(struct sw__ingest *in);

/* Store doc and report what the store decided (a quarantine); *id and
 * *transcript are the stored document's.  Returns 0 when it is stored, 1
 * when it failed (reported as an event against what), or a negative code
 * when the matter itself cannot be written (the reason in in->fatal). */
int sw__ingest_store(struct sw__ingest *in, const struct sw_doc_in *doc, const char *what,
		     int64_t *id, bool *transcript);

/* An importer found document id already stored (what names it for the
 * report).  When the origin asked for is not the stored one, change it
 * (sw_record_reclassify; reported as reclassified) or report why it is not
 * changed (failed).  1 when so reported (the caller reports no skip), 0
 * when the origin is the one asked for (the caller reports its skip), or
 * the fatal error (in->fatal set). */
int sw__ingest_found(struct sw__ingest *in, int64_t id, const char *what) SW_MUST_USE;

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

/* Folders of a volume whose real path is remembered (volume.c). */
#define SW__INGEST_DIRS 64

/* A production volume: the folders a load file's paths are tried against,
 * the DAT's own first, then each parent up to the ingest root, which bounds
 * them (see volume.c). */
struct sw__ingest_volume {
	char *root;    /* real path of the ingest root */
	char **bases;  /* real paths, the DAT's folder first, the root last */
	char **shown;  /* the same as the user named them, for messages */
	size_t nbases;
	bool exact;    /* match names as written only (no search of a folder
			* for another case): for files only marked as used */
	/* Folders resolved (realpath) so far, most recent first: a volume's
	 * files share a handful, and a file that is no link is then found
	 * with one lstat instead of a readlink per component of its path. */
	struct sw__ingest_dir {
		char *dir;  /* the folder as built from a base */
		char *real; /* its real path; NULL: it does not resolve */
	} dirs[SW__INGEST_DIRS];
	size_t ndirs, next_dir;
};

/* The ingest root for a .DAT named by itself: its folder, or the one above
 * when that folder is called DATA.  Caller frees. */
char *sw__ingest_volume_root_for(const char *dat);
int sw__ingest_volume_open(struct sw__ingest_volume *v, const char *dat, const char *root,
		    struct sw_err *err) SW_MUST_USE;
void sw__ingest_volume_release(struct sw__ingest_volume *v);

/* Resolve a path as a load file writes it ("TEXT\TEXT001\A.txt") to the
 * real path of a regular file inside the root (*out, caller frees).
 * SW_EINPUT when it is refused (absolute, network, '..' out of the root, a
 * symbolic link out of it), SW_ENOTFOUND when no base holds it; err says
 * which and, for a missing file, every folder looked in. */
int sw__ingest_volume_resolve(char **out, struct sw__ingest_volume *v, const char *written,
			      struct sw_err *err) SW_MUST_USE;

/* Read a file sw__ingest_volume_resolve gave, opened with O_NOFOLLOW and checked to
 * be the file resolved (a link swapped in meanwhile fails). */
int sw__ingest_volume_read(struct sw_buf *out, const char *real, size_t limit,
		    struct sw_err *err) SW_MUST_USE;
/* The same file mapped instead (sw_file_map's contract; released with
 * sw_file_unmap), for a native PDF read as one given directly is. */
int sw__ingest_volume_map(struct sw_map *out, const char *real, size_t limit,
			  struct sw_err *err) SW_MUST_USE;

/* A PDF this long or longer is mapped, not read into memory. */
#define SW__INGEST_MAP_MIN ((size_t)1 << 20)
/* The SHA-256 (hex) of a mapped file, read a slice at a time and each
 * slice dropped from memory after (native.c). */
void sw__ingest_map_sha256(char hex[SW_SHA256_HEX_LEN + 1], const struct sw_map *m);

/* ------------------------------------------------ load files (loadfile.c) */

/* A family link to make once every row is stored (family.c): keys are "B:"
 * with a canonical Bates number or "D:" with a DOCID. */
struct sw__ingest_family {
	int64_t id;
	char *self[2];    /* the row's own keys */
	char *parent[2];  /* the keys its parent may have; NULL for none */
	int line;         /* the row's line of the .DAT */
	const char *begs, *named; /* its BEGBATES, its parent as written (the .DAT's) */
};

/* Production QC of one load-file volume (qc.c): its report as the import
 * goes, and per row what the checks over the whole volume need. */
struct sw__ingest_qc_row {
	struct sw_bates beg;  /* prefix as written; numbered false: none */
	char canon[SW_BATES_CANON_MAX];
	uint64_t last;        /* the last page's number */
	bool numbered, hashed;
	char sha[SW_SHA256_HEX_LEN + 1]; /* the document's identity, when hashed */
};
struct sw__ingest_qc {
	struct sw_qc_volume v;
	struct sw__ingest_qc_row *rows; /* by the .DAT's row */
	size_t nrows;
};

/* One .DAT being imported, with its .OPT (loadfile.c and its helpers). */
struct sw__ingest_load {
	struct sw__ingest *in;
	const char *dat_path;
	const char *dat_name;
	struct sw__ingest_volume vol;
	struct sw_dat dat;
	struct sw_opt opt;
	bool have_opt;
	int c_beg, c_end, c_text, c_native, c_begattach, c_range, c_parent, c_docid;
	uint64_t imported, skipped;
	bool *too_long;  /* by row: the .OPT gives it more than SW_RECORD_MAX_PAGES */
	struct sw__ingest_family *fam;
	size_t nfam, capfam;
	struct sw__ingest_qc qc;
};

/* The row's value in column col, "" when none (loadfile_opt.c). */
const char *sw__ingest_load_value(const struct sw_dat_record *r, int col);
/* A document's pages in the .OPT: the index of the first, and how many. */
struct sw__ingest_opt_pages {
	size_t first, count;
};
/* Where the document whose first page's key is beg lies in the .OPT (up
 * to the next DocBreak, set by sw__ingest_load_bound); false when the .OPT
 * has no such key. */
bool sw__ingest_load_opt_pages(struct sw__ingest_opt_pages *out, const struct sw_opt *o,
			       const char *beg);
/* ENDBATES as a Bates number closing the range BEGBATES opens, or false. */
bool sw__ingest_load_end(struct sw_bates *end, const struct sw_bates *beg, const char *ends);
/* Mark the page images the .OPT names as used; count those found and note
 * those missing in the QC report. */
void sw__ingest_load_images(struct sw__ingest_load *L);
/* Set a DocBreak wherever a row's document must end (see loadfile_opt.c). */
void sw__ingest_load_bound(struct sw__ingest_load *L);

/* Note the row's family keys once it is stored as id (family.c). */
void sw__ingest_family_note(struct sw__ingest_load *L, const struct sw_dat_record *r,
			    int64_t id, const struct sw_bates *beg);
/* Link every attachment to its parent, in one transaction; those whose
 * parent is no row go into the QC report.  0, or the matter's error. */
int sw__ingest_family_link(struct sw__ingest_load *L, struct sw_err *err) SW_MUST_USE;

/* QC (qc.c).  Start the report of L's volume, opt the .OPT used or NULL. */
void sw__ingest_qc_start(struct sw__ingest_load *L, const char *opt);
/* Once the .OPT is bounded: every row's checks that need no file (Bates,
 * dates, the .DAT's and the .OPT's encoding and shape) and its range. */
void sw__ingest_qc_rows(struct sw__ingest_load *L);
/* The row (index into L->dat.records) turned out to have pages pages. */
void sw__ingest_qc_pages(struct sw__ingest_load *L, size_t row, size_t pages);
/* The row's document identity, for duplicates. */
void sw__ingest_qc_hash(struct sw__ingest_load *L, size_t row, const char *sha);
/* Gaps, overlaps and duplicates over the volume; keep the report (the
 * .DAT's SHA-256 sha names it) and count it in the summary.  0, or the
 * matter's error. */
int sw__ingest_qc_finish(struct sw__ingest_load *L, const char *sha,
			 struct sw_err *err) SW_MUST_USE;
void sw__ingest_qc_release(struct sw__ingest_qc *q);

/* Import a labels CSV (label,target). */
int sw__ingest_labels(struct sw__ingest *in, const char *path);

/* True when err describes a failure of the matter itself (database or
 * disk), after which importing more documents is pointless. */
bool sw__ingest_fatal(const struct sw_err *err);

/* Import one PDF, e-mail or .docx file (kind "pdf", "email", "docx"),
 * with an e-mail's attachments as child documents.  Same rules as
 * sw__ingest_text. */
int sw__ingest_native(struct sw__ingest *in, const char *path, const char *kind);

/* After a document is stored (sw__ingest_store or a page-by-page store):
 * --replace and the quarantine event; takes *stored (released).  0, or
 * the fatal error. */
int sw__ingest_stored(struct sw__ingest *in, const struct sw_doc_in *doc,
		      struct sw_record_stored *stored);

/* Import one PDF page by page (the pages stored as they are read, so any
 * length takes bounded memory): the original kept, stamps read, events
 * sent.  doc holds everything but pages and meta.  map, when not NULL, is
 * the file data and len are mapped from (sw_file_map): the original is
 * copied from its fd and its pages dropped from memory as pages are
 * stored.  Returns 0, or the fatal error (in->fatal set). */
int sw__ingest_pdf(struct sw__ingest *in, const char *what, struct sw_doc_in *doc,
		   const char *data, size_t len, const struct sw_map *map);

#endif /* SW_INGEST_INT_H */
