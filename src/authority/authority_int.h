/* authority_int.h - what authority/'s files share: the open table, the
 * streaming CSV reader and the prepared statements. */
#ifndef SW_AUTHORITY_INT_H
#define SW_AUTHORITY_INT_H

#include <sqlite3.h>
#include <sys/types.h>

#include "authority/authority.h"

/* The lookups' statements, prepared on first use and kept (table.c): the
 * gate looks up every citation of a draft, and preparing a statement cost
 * more than running it. */
#define SW__AUTHORITY_STMTS 5

struct sw_authority {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *stmts[SW__AUTHORITY_STMTS];
};

/* The secondary indexes of cases: lookups by page range and by
 * CourtListener cluster.  Created by the schema, dropped by a large import
 * while it loads and built again before its last commit (and on every
 * open, should an import have been killed between the two). */
#define SW__AUTHORITY_INDEXES \
	"CREATE INDEX IF NOT EXISTS cases_at ON cases (reporter_key, volume, page_num);" \
	"CREATE INDEX IF NOT EXISTS cases_cluster ON cases (cluster_id) WHERE cluster_id <> 0;"

/* Copy sqlite3_errmsg() into err as "what: message"; returns SW_EDB. */
int sw__authority_sqlerr(struct sw_err *err, sqlite3 *db, const char *what);

/* A reporter as compared: lower case, spaces dropped, into out (size
 * outsz, truncated); "F. Supp. 2d" -> "f.supp.2d". */
void sw__authority_reporter_key(char *out, size_t outsz, const char *reporter);

/* ------------------------------------------------------ streaming CSV */

/* Reads CSV one row at a time (base's RFC 4180 reader) from a file or from
 * a `bzip2 -dc` child.  With backslash set, a backslash inside quotes
 * escapes the next byte, as PostgreSQL's COPY writes CourtListener's
 * files.  A field is kept up to SW_AUTHORITY_MAX_FIELD bytes and a row up
 * to SW_AUTHORITY_MAX_COLUMNS columns; past either the row is still read
 * to its end but marked over. */
struct sw__authority_csv {
	int fd;
	pid_t child;          /* the bzip2 process, or -1 */
	const char *path;     /* borrowed, for messages */
	bool backslash;       /* applies from the next row on */
	struct sw_csv r;
	/* Of the current row, copied from r after each sw__authority_csv_next(). */
	size_t nfields;
	bool over;            /* a field or the column count was past a limit */
	uint64_t bytes;       /* bytes read (decompressed) */
	uint64_t rows;        /* rows returned, the header included */
};

/* Open path, starting `bzip2 -dc` for a file that begins "BZh". */
int sw__authority_csv_open(struct sw__authority_csv *c, const char *path, struct sw_err *err) SW_MUST_USE;
/* The next row: 1, or 0 at the end, or a negative code (a read failed or
 * the file ends inside quotes). */
int sw__authority_csv_next(struct sw__authority_csv *c, struct sw_err *err) SW_MUST_USE;
/* Field i of the current row ("" past its end). */
const char *sw__authority_csv_field(const struct sw__authority_csv *c, size_t i);
/* Close the file, wait for the child; a child that failed (not bzip2
 * data) gives SW_EINPUT when err is not already set. */
int sw__authority_csv_close(struct sw__authority_csv *c, struct sw_err *err);

/* --------------------------------------------------------------- names */

/* The canonical word for w (lower case, no final period) when reporters-db
 * lists it as a case-name abbreviation or expansion; NULL otherwise. */
const char *sw__authority_abbrev(const char *w);

/* reporters-db's case_name_abbreviations.json, embedded at build time by
 * CMakeLists.txt (the generated source lives in the build folder). */
extern const unsigned char sw__authority_abbrev_json[];
extern const size_t sw__authority_abbrev_json_len;

#endif /* SW_AUTHORITY_INT_H */
