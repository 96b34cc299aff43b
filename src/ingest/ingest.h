/*
 * ingest.h - sworn ingest: the walk over files and folders, each file
 * dispatched by the format registry (extract/) to its importer, load-file
 * volumes and their families, labels, the progress line and every event
 * the user sees.  What is stored, and whether it is quarantined, is
 * record/'s decision; this reports it.
 */
#ifndef SW_INGEST_H
#define SW_INGEST_H

#include "base/base.h"
#include "record/record.h"

/* What happened to one input, as the import goes. */
enum sw_ingest_event {
	SW_INGEST_IMPORTED, /* a document was stored */
	SW_INGEST_SKIPPED,  /* already stored, or not a kind sworn reads */
	SW_INGEST_FAILED,   /* bad input: the reason is in msg */
	SW_INGEST_WARNING,  /* stored, but something is off (Bates gap...) */
	SW_INGEST_QUARANTINED, /* stored quarantined: it matches a model output */
	SW_INGEST_REPLACED, /* with replace: older documents removed for it */
	SW_INGEST_NOTE,     /* a message, not counted (waiting for another import) */
	SW_INGEST_RECLASSIFIED, /* already stored: its origin changed as asked */
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
	bool no_ocr;   /* keep image-only PDF pages without text */
	unsigned ocr_threads; /* OCR pages in parallel; 0 = one per core */
	/* The OCR budget of the import (sworn.conf's [ingest] ocr_pages and
	 * ocr_seconds): pages read by OCR at most, seconds of OCR from the
	 * first page; 0 for no limit.  Pages past it are kept without text,
	 * each document with a warning, and counted in ocr_unread. */
	uint64_t ocr_max_pages;
	double ocr_max_seconds;
	/* A corrected re-production: each document stored replaces the live
	 * ones with its BEGBATES (or, unnumbered, its name), which are removed
	 * with an audit entry (sw_record_replace_older). */
	bool replace;
	/* Another import into the matter is running: fail (SW_EEXIST) instead
	 * of waiting for it to end. */
	bool no_wait;
	/* Pages one transaction holds at most (sworn.conf's [ingest]
	 * batch_pages): documents are stored in batches, each document in a
	 * savepoint of its batch, and a crash loses the open batch whole (the
	 * next import stores it again); a document is reported imported once
	 * its batch is committed.  0: the default (1,000); 1: one transaction
	 * per document.  An e-mail and its attachments are never split. */
	uint64_t batch_pages;
};

struct sw_ingest_summary {
	uint64_t imported;
	uint64_t skipped;
	uint64_t failed;
	uint64_t warnings;
	uint64_t pages;  /* pages stored by this import */
	uint64_t labels; /* labels stored */
	uint64_t quarantined; /* of the imported, stored quarantined */
	uint64_t ocr_pages;   /* pages whose text OCR read */
	uint64_t ocr_unread;  /* pages the OCR budget left without text */
	bool ocr_by_time;     /* the budget ran out of time (else of pages) */
	uint64_t replaced;    /* older documents removed by replace */
	uint64_t reclassified; /* already stored, their origin changed as asked */
	/* Production QC (`sworn matter qc`): findings in the load-file
	 * volumes imported, the volumes with any, the first one's name. */
	uint64_t qc_findings, qc_volumes;
	char qc_volume[128];
	double seconds;
};

/* Import files and folders (recursively) into the matter: text and
 * Markdown (\f separates pages), PDF (a page of text per page, OCR of
 * image-only pages), e-mail (.eml, attachments as child documents), .docx,
 * Concordance .DAT load files with their TEXTPATH texts (or PDF natives)
 * and an .OPT beside them, and the labels file.  Bad inputs
 * are reported through opts->report and counted; the function itself fails
 * only when the matter cannot be written at all. */
int sw_ingest(struct sw_ingest_summary *out, struct sw_matter *m,
	      const char *const *paths, size_t npaths,
	      const struct sw_ingest_opts *opts, struct sw_err *err) SW_MUST_USE;

/* sworn.conf's [ingest] section (ocr_pages, ocr_seconds, ocr_threads,
 * batch_pages). */
struct sw_config;
struct sw_config_schema;
extern const struct sw_config_schema sw_ingest_conf_schema;

/* Set the [ingest] keys of cfg into opts (fields not named are left as
 * they are).  SW_EINPUT, "path:line: ...", for a bad value. */
int sw_ingest_conf_load(struct sw_ingest_opts *opts, const struct sw_config *cfg,
			struct sw_err *err) SW_MUST_USE;

#endif /* SW_INGEST_H */
