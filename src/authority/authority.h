/*
 * authority.h - the local table of real authorities: the cases that exist
 * (reporter, volume, first and last page, name, court, year), the code
 * sections that exist, and, where imported, an opinion's text.  It lives once
 * per workspace, in authorities.db, since public law is shared by every
 * matter.
 *
 * Contract
 *   - authority/ knows nothing of claims, of the record or of models; it
 *     includes base/ only.  It answers "what is at 925 F.3d 1339?" and
 *     "does this name match that one?"; verify/ decides what a mismatch
 *     means.
 *   - Import reads, by the header of each file: the simple CSV
 *     `name,volume,reporter,page,last_page,court,year`; a code table
 *     `code,title,section,name`; CourtListener's bulk citations,
 *     opinion-clusters and dockets CSVs (linked by their ids, in any order);
 *     and a folder of opinion texts named by citation ("550 U.S. 544.txt").
 *     Files ending .bz2 are streamed through a `bzip2 -dc` child; nothing
 *     is ever held whole in memory, so memory stays bounded (SQLite's page
 *     cache and one row) whatever the file's size.
 *   - Re-import updates, never duplicates: a case is keyed by reporter,
 *     volume, page and CourtListener cluster (0 for the simple CSV), a code
 *     section by code, title and section.
 *   - Reporters are compared without spaces or case ("F. Supp. 2d" is
 *     "F.Supp.2d"), volumes and pages as written.
 *   - Input is hostile: a field longer than SW_AUTHORITY_MAX_FIELD bytes,
 *     a row of more than SW_AUTHORITY_MAX_COLUMNS columns or a text over
 *     SW_AUTHORITY_MAX_TEXT bytes fails that row (counted as skipped) or that
 *     file with SW_ELIMIT; a malformed row is skipped and counted, never
 *     fatal.
 *   - Errors: 0 or a negative SW_E* code, message in *err.
 *   - Threads: a struct sw_authority is used by one thread at a time.  The
 *     name-matching functions are thread-safe.
 */
#ifndef SW_AUTHORITY_H
#define SW_AUTHORITY_H

#include "base/base.h"

#define SW_AUTHORITY_DB_NAME "authorities.db"
#define SW_AUTHORITY_MAX_FIELD ((size_t)1 << 20)   /* bytes in a kept field */
#define SW_AUTHORITY_MAX_COLUMNS 256
#define SW_AUTHORITY_MAX_TEXT ((size_t)64 << 20)   /* bytes of one opinion */
#define SW_AUTHORITY_MAX_NAME 4096                 /* bytes of a case name */

struct sw_authority; /* opaque: an open authorities.db */

/* Open (create, when create is true) the authority table at path.  A file
 * that is not one fails with SW_EDB; a missing one without create gives
 * SW_ENOTFOUND. */
int sw_authority_open(struct sw_authority **out, const char *path, bool create,
		      struct sw_err *err) SW_MUST_USE;
void sw_authority_close(struct sw_authority *a);

/* ----------------------------------------------------------------- import */

enum sw_authority_format {
	SW_AUTHORITY_SIMPLE,       /* name,volume,reporter,page,last_page,court,year */
	SW_AUTHORITY_CODES,        /* code,title,section,name */
	SW_AUTHORITY_CL_CITATIONS, /* CourtListener citations */
	SW_AUTHORITY_CL_CLUSTERS,  /* CourtListener opinion-clusters */
	SW_AUTHORITY_CL_DOCKETS,   /* CourtListener dockets */
	SW_AUTHORITY_TEXTS,        /* a folder of opinion texts */
	SW_AUTHORITY_CODE_TEXTS,   /* sections' texts: cite,text (CSV or JSON Lines) */
};

/* "simple", "codes", "courtlistener-citations", ...; never NULL. */
const char *sw_authority_format_name(enum sw_authority_format f);

struct sw_authority_import_summary {
	enum sw_authority_format format;
	uint64_t rows;    /* data rows (or text files) read */
	uint64_t stored;  /* inserted or updated */
	uint64_t skipped; /* malformed, over a limit, or naming no known case */
	double seconds;
};

/* Import path (a file, .bz2 or plain, or a folder of texts) into a, in one
 * transaction per file.  progress draws a progress line on a terminal.
 * The format comes from the header; an unknown header fails with SW_EINPUT
 * and a message listing the accepted ones. */
int sw_authority_import(struct sw_authority_import_summary *out,
			struct sw_authority *a, const char *path, bool progress,
			struct sw_err *err) SW_MUST_USE;

/* A code section or rule as the code table keys it: the code as written
 * ("U.S.C.", "Fed. R. Civ. P."), its title ("28", or "" for none) and the
 * section or rule number ("1332", "56"). */
struct sw_authority_section {
	char code[128];
	char title[64];
	char section[64];
};

/* Import the texts of code sections and rules from path: a CSV whose
 * header names the columns cite and text (plain or .bz2), or JSON Lines
 * of {"cite": ..., "text": ...}.  parse reads a cite as written ("28
 * U.S.C. § 1332", "Fed. R. Civ. P. 56") into out, or returns false (the
 * caller's claim scanner, so that a cite is read as a draft's is).  Each
 * text is stored for its section, replacing an earlier one, and the
 * section joins the code table.  A row whose cite cannot be read, whose
 * text is empty or over SW_AUTHORITY_MAX_FIELD bytes is skipped and
 * counted.  One transaction per file. */
int sw_authority_import_code_texts(struct sw_authority_import_summary *out,
				   struct sw_authority *a, const char *path,
				   bool (*parse)(void *ud, const char *cite,
						 struct sw_authority_section *out),
				   void *ud, struct sw_err *err) SW_MUST_USE;

/* The stored text of code (as written) title (may be NULL or "") section
 * into out; SW_ENOTFOUND when none is stored. */
int sw_authority_code_text(struct sw_buf *out, struct sw_authority *a, const char *code,
			   const char *title, const char *section,
			   struct sw_err *err) SW_MUST_USE;

/* ----------------------------------------------------------------- lookup */

struct sw_authority_case {
	int64_t id;
	char *name;       /* NULL when only the citation is known */
	char *volume;
	char *reporter;   /* as imported */
	char *page;
	uint64_t first_page; /* 0 when the page is not a number */
	uint64_t last_page;  /* 0 when unknown */
	char *court;      /* as imported: "D.C. Cir." or CourtListener's "cadc" */
	int year;         /* 0 when unknown */
	bool has_text;    /* an opinion text is stored */
};

enum sw_authority_hit {
	SW_AUTHORITY_NONE,   /* nothing starts there or contains that page */
	SW_AUTHORITY_STARTS, /* cases start at that page */
	SW_AUTHORITY_INSIDE, /* the page lies inside one case's page range */
};

struct sw_authority_lookup {
	enum sw_authority_hit hit;
	struct sw_authority_case *cases; /* STARTS: every case there; INSIDE: one */
	size_t n;
	/* NONE: the nearest case starting before the page in that volume, to
	 * name in a reason (0 cases when there is none). */
};

/* What is at volume reporter page.  Fills out (release with
 * sw_authority_lookup_release); a miss is not an error. */
int sw_authority_lookup(struct sw_authority_lookup *out, struct sw_authority *a,
			const char *volume, const char *reporter, uint64_t page,
			struct sw_err *err) SW_MUST_USE;

/* The same for a cite written "925 F.3d 1339"; SW_EUSAGE when it is not
 * volume, reporter, page. */
int sw_authority_lookup_cite(struct sw_authority_lookup *out,
			     struct sw_authority *a, const char *cite,
			     struct sw_err *err) SW_MUST_USE;
void sw_authority_lookup_release(struct sw_authority_lookup *l);

/* The case that bounds c when the table has no last page for it: the first
 * to start after c's first page in the same volume of the same reporter.
 * Fills out with that one case (n is 1), or none (n is 0); hit is NONE.
 * Release with sw_authority_lookup_release. */
int sw_authority_next_case(struct sw_authority_lookup *out, struct sw_authority *a,
			   const struct sw_authority_case *c, struct sw_err *err) SW_MUST_USE;

/* "J.D. v. Azar, 925 F.3d 1291 (D.C. Cir. 2019)" for c; caller frees. */
char *sw_authority_case_format(const struct sw_authority_case *c);

/* The stored opinion text of case id into out; SW_ENOTFOUND when none. */
int sw_authority_text(struct sw_buf *out, struct sw_authority *a, int64_t id,
		      struct sw_err *err) SW_MUST_USE;

/* Whether code (as written: "U.S.C.", "Fed. R. Civ. P.") title (may be
 * NULL or "") section is in the code table: 1 yes, 0 no. */
int sw_authority_code_exists(struct sw_authority *a, const char *code,
			     const char *title, const char *section,
			     struct sw_err *err) SW_MUST_USE;

/* --------------------------------------------------------- name matching */

/* A case name reduced for comparison: lower case, reporters-db's case-name
 * abbreviations and their expansions made one word ("Atl." and "Atlantic"
 * both give "atl"), punctuation, articles and corporate suffixes ("Inc.",
 * "Corp.", "Co.", "LLC") dropped, the parties split at "v."/"vs."/"versus",
 * "In re" and "Ex parte" kept as a marker.  Parties are separated by " | ".
 * Caller frees. */
char *sw_authority_name_key(const char *name);

/* A cited name without what a sentence put before it: signals ("See
 * also", "Cf.", "But see", "e.g.,"), a leading "In" that is not "In re",
 * an opening such as "As the Supreme Court held in".  Caller frees. */
char *sw_authority_name_clean(const char *name);

/* Whether a cited name can be compared at all: no markup left in it
 * ("Corp. v. Catrett*"), and once cleaned a first party that is more than
 * a corporate suffix, and a second party when it has "v.".  A name that is
 * not readable says nothing about the case, for or against. */
bool sw_authority_name_readable(const char *name);

/* Whether a cited case name names the stored case (the cited one cleaned
 * first, as sw_authority_name_clean() does): the first parties match
 * (the words of one are all in the other), and, when both give a second
 * party, the second parties share a word.  A generic first party ("United
 * States", "State", "People", "Commonwealth") needs the second party to
 * match as well.  A one-party cited name (a short form's "Twombly") matches
 * when it is all in either party. */
bool sw_authority_names_match(const char *cited, const char *stored);

/* Whether a cited court ("11th Cir.", "D.C. Cir.", "scotus") and a stored
 * one ("ca11", "D.C. Cir.") can be the same court: true when they are the
 * same after normalising, or when either cannot be read. */
bool sw_authority_courts_match(const char *cited, const char *stored);

#endif /* SW_AUTHORITY_H */
