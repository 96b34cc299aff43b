/* table.c - authorities.db: opening it, its schema, and lookups by
 * volume, reporter and page. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "authority/authority_int.h"

/* cases.page_num is the page as a number (NULL for "D1" and the like) so
 * that a pin can be placed inside a range; cl_clusters and cl_dockets keep
 * what CourtListener's other files say about a cluster until its citations
 * arrive, whichever file is imported first. */
static const char *const migrations[] = {
	/* 0 -> 1.  IF NOT EXISTS: the tables of a file from before versions
	 * were counted are kept. */
	"CREATE TABLE IF NOT EXISTS cases ("
	"  id INTEGER PRIMARY KEY,"
	"  reporter_key TEXT NOT NULL,"
	"  reporter TEXT NOT NULL,"
	"  volume TEXT NOT NULL,"
	"  page TEXT NOT NULL,"
	"  page_num INTEGER,"
	"  last_page INTEGER,"
	"  name TEXT,"
	"  court TEXT,"
	"  year INTEGER,"
	"  cluster_id INTEGER NOT NULL DEFAULT 0,"
	"  UNIQUE (reporter_key, volume, page, cluster_id));"
	SW__AUTHORITY_INDEXES
	"CREATE TABLE IF NOT EXISTS cl_clusters ("
	"  id INTEGER PRIMARY KEY, name TEXT, year INTEGER, docket_id INTEGER);"
	"CREATE TABLE IF NOT EXISTS cl_dockets (id INTEGER PRIMARY KEY, court TEXT);"
	"CREATE TABLE IF NOT EXISTS codes ("
	"  code_key TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL,"
	"  name TEXT, PRIMARY KEY (code_key, title, section)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS texts ("
	"  case_id INTEGER PRIMARY KEY REFERENCES cases (id) ON DELETE CASCADE,"
	"  text TEXT NOT NULL);",
	/* 1 -> 2: the texts of code sections and rules (code_texts.c). */
	"CREATE TABLE code_texts ("
	"  code_key TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL,"
	"  text TEXT NOT NULL, PRIMARY KEY (code_key, title, section)) WITHOUT ROWID;",
};

static const struct sw_db_schema table_schema = { SW_DB_MIGRATIONS(migrations) };

int sw__authority_sqlerr(struct sw_err *err, sqlite3 *db, const char *what)
{
	return sw_db_error(err, db, what);
}

void sw__authority_reporter_key(char *out, size_t outsz, const char *reporter)
{
	size_t n = 0;
	for (const char *p = reporter; *p && n + 1 < outsz; p++)
		if (!isspace((unsigned char)*p))
			out[n++] = (char)tolower((unsigned char)*p);
	out[n] = '\0';
}

int sw_authority_open(struct sw_authority **out, const char *path, bool create,
		      struct sw_err *err)
{
	sqlite3 *db = NULL;
	*out = NULL;
	if (!create && !sw_path_is_file(path))
		return sw_err_set(err, SW_ENOTFOUND,
				  "no authority table at '%s': run 'sworn authorities import FILE'", path);
	int rc = sw_db_open(&db, path, &table_schema, create ? SW_DB_CREATE : 0, err);
	if (rc)
		return rc;
	/* A large import builds the cases indexes after its rows
	 * (import.c); one killed before that left them missing. */
	if (sqlite3_exec(db, SW__AUTHORITY_INDEXES, NULL, NULL, NULL) != SQLITE_OK) {
		rc = sw__authority_sqlerr(err, db, "cannot index the authority table");
		sqlite3_close(db);
		return rc;
	}
	*out = sw_xcalloc(1, sizeof(**out));
	(*out)->db = db;
	(*out)->path = sw_xstrdup(path);
	return 0;
}

void sw_authority_close(struct sw_authority *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < SW_ARRAY_LEN(a->stmts); i++)
		sqlite3_finalize(a->stmts[i]);
	sqlite3_close(a->db);
	free(a->path);
	free(a);
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? sw_xstrdup((const char *)s) : NULL;
}

#define CASE_COLUMNS \
	"c.id, c.name, c.volume, c.reporter, c.page, c.page_num, c.last_page, c.court, c.year," \
	" EXISTS (SELECT 1 FROM texts AS t WHERE t.case_id = c.id)"

/* The statements kept in struct sw_authority, by index. */
enum query { Q_STARTS, Q_BEFORE, Q_AFTER, Q_TEXT, Q_CODE };
static const char *const query_sql[] = {
	[Q_STARTS] = "SELECT " CASE_COLUMNS " FROM cases AS c"
		     " WHERE c.reporter_key = ?1 AND c.volume = ?2 AND c.page_num = ?3"
		     " ORDER BY c.cluster_id",
	/* The case starting nearest before the page. */
	[Q_BEFORE] = "SELECT " CASE_COLUMNS " FROM cases AS c"
		     " WHERE c.reporter_key = ?1 AND c.volume = ?2 AND c.page_num < ?3"
		     " ORDER BY c.page_num DESC, c.last_page DESC LIMIT 1",
	[Q_AFTER] = "SELECT " CASE_COLUMNS " FROM cases AS c"
		    " WHERE c.reporter_key = ?1 AND c.volume = ?2 AND c.page_num > ?3"
		    " ORDER BY c.page_num, c.cluster_id LIMIT 1",
	[Q_TEXT] = "SELECT text FROM texts WHERE case_id = ?1",
	[Q_CODE] = "SELECT 1 FROM codes WHERE code_key = ?1 AND title = ?2 AND section = ?3",
};
_Static_assert(SW_ARRAY_LEN(query_sql) == SW__AUTHORITY_STMTS,
	       "one kept statement per query");

/* Query q's statement, prepared once and kept; NULL when it cannot be
 * (sqlite3_errmsg() says why).  Each use ends with done(). */
static sqlite3_stmt *stmt(struct sw_authority *a, enum query q)
{
	if (!a->stmts[q] && sqlite3_prepare_v3(a->db, query_sql[q], -1, SQLITE_PREPARE_PERSISTENT,
					       &a->stmts[q], NULL) != SQLITE_OK) {
		sqlite3_finalize(a->stmts[q]);
		a->stmts[q] = NULL;
	}
	return a->stmts[q];
}

/* The end of a use of a kept statement: reset (so that it holds no read
 * transaction open) and its bindings cleared (they point at the caller's
 * strings). */
static void done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static void read_case(struct sw_authority_case *c, sqlite3_stmt *st)
{
	c->id = sqlite3_column_int64(st, 0);
	c->name = col_str(st, 1);
	c->volume = col_str(st, 2);
	c->reporter = col_str(st, 3);
	c->page = col_str(st, 4);
	c->first_page = (uint64_t)sqlite3_column_int64(st, 5);
	c->last_page = (uint64_t)sqlite3_column_int64(st, 6);
	c->court = col_str(st, 7);
	c->year = sqlite3_column_int(st, 8);
	c->has_text = sqlite3_column_int(st, 9) != 0;
}

static void case_release(struct sw_authority_case *c)
{
	free(c->name);
	free(c->volume);
	free(c->reporter);
	free(c->page);
	free(c->court);
}

void sw_authority_lookup_release(struct sw_authority_lookup *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		case_release(&l->cases[i]);
	free(l->cases);
	memset(l, 0, sizeof(*l));
}

/* Append every row of st as a case to out. */
static int collect(struct sw_authority_lookup *out, sqlite3 *db, sqlite3_stmt *st,
		   struct sw_err *err)
{
	size_t cap = out->n;
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		out->cases = sw_xgrow(out->cases, &cap, out->n + 1, sizeof(*out->cases));
		memset(&out->cases[out->n], 0, sizeof(out->cases[0]));
		read_case(&out->cases[out->n++], st);
	}
	return s == SQLITE_DONE ? 0 : sw__authority_sqlerr(err, db, "cannot look up the authority");
}

/* Run one lookup query (?1 reporter key, ?2 volume, ?3 page) and append
 * its cases to out. */
static int query_cases(struct sw_authority_lookup *out, struct sw_authority *a,
		       const char *key, const char *volume, uint64_t page, enum query q,
		       struct sw_err *err)
{
	sqlite3_stmt *st = stmt(a, q);
	if (!st)
		return sw__authority_sqlerr(err, a->db, "cannot look up the authority");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, volume, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)page);
	int rc = collect(out, a->db, st, err);
	done(st);
	return rc;
}

int sw_authority_lookup(struct sw_authority_lookup *out, struct sw_authority *a,
			const char *volume, const char *reporter, uint64_t page,
			struct sw_err *err)
{
	char key[128];
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (page > INT64_MAX)
		return 0;
	sw__authority_reporter_key(key, sizeof(key), reporter);
	rc = query_cases(out, a, key, volume, page,
Q_STARTS, err);
	if (rc != 0)
		goto cleanup;
	if (out->n > 0) {
		out->hit = SW_AUTHORITY_STARTS;
		goto cleanup;
	}
	/* The case starting nearest before the page: the page lies inside it
	 * when its last page is known and reaches that far. */
	rc = query_cases(out, a, key, volume, page, Q_BEFORE, err);
	if (rc != 0)
		goto cleanup;
	if (out->n == 1 && out->cases[0].last_page >= page)
		out->hit = SW_AUTHORITY_INSIDE;
cleanup:
	if (rc)
		sw_authority_lookup_release(out);
	return rc;
}

int sw_authority_next_case(struct sw_authority_lookup *out, struct sw_authority *a,
			   const struct sw_authority_case *c, struct sw_err *err)
{
	char key[128];
	memset(out, 0, sizeof(*out));
	if (!c->reporter || !c->volume || c->first_page == 0 || c->first_page > INT64_MAX)
		return 0;
	sw__authority_reporter_key(key, sizeof(key), c->reporter);
	int rc = query_cases(out, a, key, c->volume, c->first_page, Q_AFTER, err);
	if (rc)
		sw_authority_lookup_release(out);
	return rc;
}

int sw_authority_lookup_cite(struct sw_authority_lookup *out,
			     struct sw_authority *a, const char *cite,
			     struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	const char *s = cite;
	while (isspace((unsigned char)*s))
		s++;
	const char *vol_end = s;
	while (*vol_end && !isspace((unsigned char)*vol_end))
		vol_end++;
	const char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	const char *page = e;
	while (page > s && isdigit((unsigned char)page[-1]))
		page--;
	uint64_t pg;
	if (vol_end == s || page == e || page <= vol_end ||
	    !sw_parse_u64(page, (size_t)(e - page), &pg))
		return sw_err_set(err, SW_EUSAGE,
				  "'%s' is not a citation: write volume, reporter, page (\"925 F.3d 1339\")",
				  cite);
	char *volume = sw_xstrndup(s, (size_t)(vol_end - s));
	char *reporter = sw_xstrndup(vol_end, (size_t)(page - vol_end));
	sw_trim(reporter);
	int rc = 0;
	if (!*reporter)
		rc = sw_err_set(err, SW_EUSAGE, "'%s' names no reporter", cite);
	else
		rc = sw_authority_lookup(out, a, volume, reporter, pg, err);
	free(volume);
	free(reporter);
	return rc;
}

char *sw_authority_case_format(const struct sw_authority_case *c)
{
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_addf(&b, "%s, %s %s %s", c->name ? c->name : "(unnamed case)",
		    c->volume ? c->volume : "?", c->reporter ? c->reporter : "?",
		    c->page ? c->page : "?");
	if (c->court && *c->court && c->year)
		sw_buf_addf(&b, " (%s %d)", c->court, c->year);
	else if (c->year)
		sw_buf_addf(&b, " (%d)", c->year);
	else if (c->court && *c->court)
		sw_buf_addf(&b, " (%s)", c->court);
	return sw_buf_detach(&b, NULL);
}

int sw_authority_text(struct sw_buf *out, struct sw_authority *a, int64_t id,
		      struct sw_err *err)
{
	int rc = 0;
	sw_buf_reset(out);
	sqlite3_stmt *st = stmt(a, Q_TEXT);
	if (!st)
		return sw__authority_sqlerr(err, a->db, "cannot read an opinion text");
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW)
		sw_buf_add(out, sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
	else if (s == SQLITE_DONE)
		rc = sw_err_set(err, SW_ENOTFOUND, "no opinion text is stored for that case");
	else
		rc = sw__authority_sqlerr(err, a->db, "cannot read an opinion text");
	done(st);
	return rc;
}

int sw_authority_code_exists(struct sw_authority *a, const char *code,
			     const char *title, const char *section,
			     struct sw_err *err)
{
	char key[128];
	sw__authority_reporter_key(key, sizeof(key), code);
	sqlite3_stmt *st = stmt(a, Q_CODE);
	if (!st)
		return sw__authority_sqlerr(err, a->db, "cannot look up a code section");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, title ? title : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, section, -1, SQLITE_STATIC);
	int s = sqlite3_step(st);
	int rc = s == SQLITE_ROW ? 1 : s == SQLITE_DONE ? 0
		 : sw__authority_sqlerr(err, a->db, "cannot look up a code section");
	done(st);
	return rc;
}
