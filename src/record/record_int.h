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

enum sw_dat_encoding { SW_DAT_UTF8, SW_DAT_LATIN1 };

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
 * before the number (separator included, "ABC-"), the number is the last
 * digit run of at least three digits, width its zero-padded length, and a
 * suffix anything after (attachment "_003" style is kept in suffix). */
struct sw_bates {
	char prefix[SW_BATES_PREFIX_MAX];
	uint64_t number;
	int width;
	char suffix[16];
};

/* Parse len bytes as one Bates number.  Returns 0, or SW_EINPUT when the
 * text does not look like one (no 3+ digit run, prefix too long, spaces). */
int sw_bates_parse(struct sw_bates *out, const char *s, size_t len);

/* Format b with its number replaced by number (same prefix, width, suffix).
 * Returns the length written (snprintf rules). */
int sw_bates_format(char *out, size_t outsz, const struct sw_bates *b,
		    uint64_t number);

/* Find the Bates stamp of a page: a Bates-looking token on one of the first
 * or last three non-empty lines, possibly beside a confidentiality legend
 * ("CONFIDENTIAL", "HIGHLY CONFIDENTIAL - ATTORNEYS' EYES ONLY").  The
 * prefix must contain a letter.  On success fills out and the byte range of
 * the token and returns 0; SW_ENOTFOUND when there is no stamp. */
int sw_bates_find_stamp(struct sw_bates *out, size_t *start, size_t *end,
			const char *page, size_t len);

/* ------------------------------------------------- deposition transcripts */

#define SW_TR_MAX_LINE_NO 50

/* One numbered line of a transcript page. */
struct sw_tr_line {
	uint32_t page;  /* transcript page number ("Page 12" header) */
	uint32_t line;  /* 1..25 typically */
	size_t start;   /* byte range of the line's text (after the number) */
	size_t end;     /* within the page text given */
};

/* Parse one page of text as a transcript page: a "Page N" header (or a bare
 * page number alone on the first line) and lines that start with their line
 * number.  Returns the number of numbered lines found (0 when it is not a
 * transcript page) and sets *page_no; lines are appended to *lines (grown
 * with sw_xgrow, *cap tracked by the caller). */
size_t sw_transcript_page(uint32_t *page_no, struct sw_tr_line **lines,
			  size_t *n, size_t *cap, const char *text, size_t len);

#endif /* SW_RECORD_INT_H */
