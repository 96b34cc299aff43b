/* record_store.h - storing documents and pages (sworn ingest).
 * A part of record/record.h, which includes it: include "record/record.h", never this file. */
#ifndef SW_RECORD_STORE_H
#define SW_RECORD_STORE_H

#ifndef SW_RECORD_H
#error "include record/record.h, not record_store.h"
#endif

/* -------------------------------------------- storing (for sworn ingest) */

/* What the ingest driver (ingest/) hands the store, and what the store
 * decides.  Nothing else calls these. */

struct sw_page_in {
	const char *text;          /* UTF-8, borrowed */
	size_t len;
	bool has_bates;
	struct sw_bates bates;     /* valid when has_bates */
	const char *bates_source;  /* "loadfile", "opt" or "stamp" */
	bool ocr;                  /* the text was read by OCR from the image */
	float ocr_confidence;      /* tesseract's mean word confidence, 0-100 */
};

/* Whether a document may be a deposition transcript (struct sw_doc_in):
 * MAYBE, the store reads each page's header and numbered lines and calls
 * it one when most pages are deposition pages; NO when the caller knows
 * it is not (a model's output, a draft, a template), and no page is read
 * for it. */
enum sw_doc_transcript { SW_DOC_TRANSCRIPT_MAYBE = 0, SW_DOC_TRANSCRIPT_NO };

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
	enum sw_doc_transcript transcript; /* 0: the store decides */
	/* origin model: the evidence the model was shown, or NULL; what the
	 * output copied from it is left out of its fingerprints */
	const char *given;
	size_t given_len;
};

/* What the store decided for one document. */
struct sw_record_stored {
	int64_t id;
	bool transcript;  /* most pages are deposition pages: lines stored */
	/* quarantine.quarantine: evidence that matches a model output of the
	 * workspace (which one, and how far), stored quarantined */
	struct sw_provenance_match quarantine;
};

/* Store one document, its pages, their index entries and (when most pages
 * are deposition pages, unless doc->transcript says it is none) its
 * transcript lines, in one transaction, and fill
 * *out (release it with sw_record_stored_release).  SW_EEXIST when a
 * document of the same identity is already stored (the caller checked; a
 * race is still safe).  The provenance firewall runs here, so every
 * importer passes it: evidence that matches a model output of the
 * workspace is stored quarantined (with its decision, in the same
 * transaction) and *out says so; reporting it is the caller's.  A model
 * output is registered in provenance.db before it is stored. */
int sw_record_store_doc(struct sw_record_stored *out, struct sw_matter *m,
			 const struct sw_doc_in *doc, struct sw_err *err) SW_MUST_USE;
void sw_record_stored_release(struct sw_record_stored *s);

/* The same, page by page, for a document too long to hold (a PDF of any
 * length): begin opens the transaction and writes the document's row
 * (doc->pages and npages are ignored), add_page stores one page (its text
 * may be freed when it returns), commit decides what sw_record_store_doc
 * decides (transcript, firewall, page count; meta_json, when not NULL,
 * replaces the document's) and commits.  commit and abort free the writer;
 * after a failed add_page call abort.  Nothing is visible before the
 * commit: an error or a crash in between leaves no half-stored document. */
struct sw_record_doc_writer;
int sw_record_doc_begin(struct sw_record_doc_writer **out, struct sw_matter *m,
			const struct sw_doc_in *doc, struct sw_err *err) SW_MUST_USE;
int sw_record_doc_add_page(struct sw_record_doc_writer *w, const struct sw_page_in *page,
			   struct sw_err *err) SW_MUST_USE;
int sw_record_doc_commit(struct sw_record_doc_writer *w, struct sw_record_stored *out,
			 const char *meta_json, struct sw_err *err) SW_MUST_USE;
void sw_record_doc_abort(struct sw_record_doc_writer *w);

/* Split text on form feeds into pages (a final \f adds no empty page).
 * Fills *pages (caller frees the array; texts point into text). */
int sw_record_split_pages(struct sw_page_in **pages, size_t *n,
			   const char *text, size_t len, struct sw_err *err);

/* The id of the stored document with this identity, or SW_ENOTFOUND. */
int sw_record_find_doc(int64_t *out_id, struct sw_matter *m,
			const char *sha256, const char *beg_bates,
			struct sw_err *err);

/* An e-mail's family is stored one document at a time, the message first:
 * the importer stores a message that has attachments with this key set to
 * true in its meta, and clears it (sw_record_family_complete) once every
 * attachment is stored, so that a crash or a failed attachment leaves a
 * mark the next import finds (sw_record_family_partial) and completes. */
#define SW_RECORD_FAMILY_PARTIAL "family_partial"
int sw_record_family_partial(bool *out, struct sw_matter *m, int64_t id,
			     struct sw_err *err) SW_MUST_USE;
int sw_record_family_complete(struct sw_matter *m, int64_t id,
			      struct sw_err *err) SW_MUST_USE;

/* Keep an original file's bytes in files/<first two hex>/<sha256>.  Already
 * kept files are left alone.  Not fsynced one by one: sw_ingest syncs the
 * filesystem once at the end. */
int sw_record_keep_original(struct sw_matter *m, const char *sha256,
			     const void *data, size_t len,
			     struct sw_err *err) SW_MUST_USE;
/* The same for the first len bytes of the open file fd (from offset 0,
 * whatever fd's position), copied by the kernel where it can: a long
 * original never passes through this process's memory. */
int sw_record_keep_original_fd(struct sw_matter *m, const char *sha256, int fd, size_t len,
			       struct sw_err *err) SW_MUST_USE;

/* An import's bracket: Bates prefixes an older build wrote made canonical
 * and FTS5's merging at every commit turned off (begin); the index merged
 * in one pass and the default merging back (end).  A crash in between
 * leaves more segments than usual, which only slows searches until the
 * next import ends. */
int sw_record_import_begin(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
int sw_record_import_end(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;

/* An import's documents in batches: after sw_record_batch_start (max_pages
 * > 1; 0 or 1 leaves one transaction per document), sw_record_store_doc
 * and the page-by-page writer store each document in a savepoint of one
 * transaction, the batch, which the first of them opens.  A failing
 * document still rolls back alone; a crash loses the open batch whole (a
 * document is never half stored) and the next import stores it again.
 * The batch is committed by sw_record_batch_commit, by any other write to
 * the matter (a removal, a link, a reclassification: committed first, so
 * that it never joins a batch) and after a model output (whose
 * registration in provenance.db names the committed document).
 * sw_record_batch_due says the open batch holds max_pages pages, 16 MiB of
 * text or two seconds of work, and should be committed.  Batches are
 * numbered from 1 as they open: sw_record_batch_seq is the open one's
 * number (the last one's when none is open), sw_record_batch_state what
 * became of batch seq.  sw_record_batch_stop rolls back a batch still open
 * and ends batching.  The index entries (pages_fts) of a batch's pages are
 * written at its commit, in one statement. */
enum sw_record_batch_state { SW_BATCH_OPEN, SW_BATCH_COMMITTED, SW_BATCH_LOST };
void sw_record_batch_start(struct sw_matter *m, size_t max_pages);
bool sw_record_batch_open(const struct sw_matter *m);
bool sw_record_batch_due(const struct sw_matter *m);
uint64_t sw_record_batch_seq(const struct sw_matter *m);
enum sw_record_batch_state sw_record_batch_state(const struct sw_matter *m, uint64_t seq);
int sw_record_batch_commit(struct sw_matter *m, struct sw_err *err) SW_MUST_USE;
void sw_record_batch_stop(struct sw_matter *m);

/* An import found document id stored and was asked for origin to: change
 * the stored origin rather than skip it.  Becoming model registers its
 * fingerprints in provenance.db first (so its copies anywhere in the
 * workspace are quarantined); the change is kept in the document's meta
 * (origin_changes) and listed by sw_matter_audit.  out->from is the stored
 * origin, out->changed whether it changed (false: it was already to); the
 * documents that came in it (an e-mail's attachments) change with it, in
 * one transaction (a savepoint when one is open): on any error nothing of
 * the family has changed.  SWORN_FAULT=reclassify:N fails the Nth
 * document's change (SW_EFAULT).  SW_EPOLICY, saying why, for a model
 * output (it never becomes anything else), for to evidence (an import
 * never raises the trust) and for a removed document. */
struct sw_record_reclass {
	bool changed;
	enum sw_origin from;
	size_t children; /* documents that came in it (attachments), changed too */
};
int sw_record_reclassify(struct sw_record_reclass *out, struct sw_matter *m, int64_t id,
			 enum sw_origin to, struct sw_err *err) SW_MUST_USE;

/* One import at a time per matter: an exclusive flock on
 * matters/<name>/import.lock (*fd, given back with sw_record_import_unlock;
 * the kernel drops it when the process dies).  When another import holds
 * it: with wait, waiting(user, pid) is called once (pid 0 when unknown)
 * and the call blocks until the other ends; without, SW_EEXIST saying
 * another import is running. */
int sw_record_import_lock(int *fd, struct sw_matter *m, bool wait,
			  void (*waiting)(void *user, long pid), void *user,
			  struct sw_err *err) SW_MUST_USE;
void sw_record_import_unlock(int fd);

/* Sync the filesystem of the kept originals once (they are written without
 * an fsync each); best effort. */
void sw_record_sync_originals(struct sw_matter *m);

/* The missing and repeated numbers of one (canonical) Bates prefix over the
 * whole matter: counts, and the first five of each as text ("ACME0000005-
 * ACME0000006"; a list empty when none). */
struct sw_record_bates_check {
	uint64_t gaps, dups;
	int named;                   /* gap ranges seen (five are listed) */
	struct sw_buf gap_list, dup_list;
};
int sw_record_bates_check(struct sw_record_bates_check *out, struct sw_matter *m,
			   const char *prefix, struct sw_err *err) SW_MUST_USE;
void sw_record_bates_check_release(struct sw_record_bates_check *c);

/* Set the parent of each child document, in one transaction. */
struct sw_record_link {
	int64_t child, parent;
};
int sw_record_link_parents(struct sw_matter *m, const struct sw_record_link *links,
			    size_t n, struct sw_err *err) SW_MUST_USE;

/* The document a label's target names: the one that starts at that Bates
 * number (as written, or in another spelling) or has that name;
 * SW_ENOTFOUND when none does. */
int sw_record_label_target(int64_t *out, struct sw_matter *m, const char *target,
			    struct sw_err *err);

/* Labels stored (a label again replaces its target), stamped now. */
struct sw_record_label_writer {
	struct sw_matter *m;
	struct sqlite3_stmt *ins;
	char now[21];
};
int sw_record_labels_open(struct sw_record_label_writer *w, struct sw_matter *m,
			   struct sw_err *err) SW_MUST_USE;
int sw_record_label_put(struct sw_record_label_writer *w, const char *label, const char *target,
			 int64_t doc, struct sw_err *err) SW_MUST_USE;
void sw_record_labels_close(struct sw_record_label_writer *w);

#endif /* SW_RECORD_STORE_H */
