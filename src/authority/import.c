/* import.c - filling authorities.db from the simple CSV, a code table,
 * CourtListener's bulk CSVs and a folder of opinion texts.
 *
 * CourtListener splits a case across three files: citations (volume,
 * reporter, page, cluster_id), opinion-clusters (the name and date of a
 * cluster, its docket_id) and dockets (the court).  Each file is imported on
 * its own and the cases are completed by a join whichever order the files
 * come in, so that no file has to be held in memory to wait for another. */
#include <ctype.h>
#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "authority/authority_int.h"

/* Rows per transaction: big enough that commits cost nothing, small enough
 * that the WAL stays a few megabytes. */
#define BATCH_ROWS 50000

const char *sw_authority_format_name(enum sw_authority_format f)
{
	switch (f) {
	case SW_AUTHORITY_SIMPLE: return "simple";
	case SW_AUTHORITY_CODES: return "codes";
	case SW_AUTHORITY_CL_CITATIONS: return "courtlistener-citations";
	case SW_AUTHORITY_CL_CLUSTERS: return "courtlistener-clusters";
	case SW_AUTHORITY_CL_DOCKETS: return "courtlistener-dockets";
	case SW_AUTHORITY_TEXTS: return "texts";
	case SW_AUTHORITY_CODE_TEXTS: return "code-texts";
	}
	return "unknown";
}

/* The columns a format reads, by name; -1 when the header lacks one. */
enum { C_NAME, C_VOLUME, C_REPORTER, C_PAGE, C_LAST, C_COURT, C_YEAR, C_ID,
       C_CLUSTER, C_CASE_NAME, C_CASE_SHORT, C_CASE_FULL, C_DATE, C_DOCKET,
       C_COURT_ID, C_CODE, C_TITLE, C_SECTION, C_NCOLS };
static const char *const col_names[C_NCOLS] = {
	"name", "volume", "reporter", "page", "last_page", "court", "year", "id",
	"cluster_id", "case_name", "case_name_short", "case_name_full", "date_filed",
	"docket_id", "court_id", "code", "title", "section",
};

struct import {
	struct sw_authority *a;
	struct sw__authority_csv csv;
	int col[C_NCOLS];
	sqlite3_stmt *ins;
	struct sw_authority_import_summary *sum;
	struct sw_progress progress;
	uint64_t in_batch;
};

static bool has(const struct import *im, int c)
{
	return im->col[c] >= 0;
}

static const char *get(const struct import *im, int c)
{
	return im->col[c] >= 0 ? sw__authority_csv_field(&im->csv, (size_t)im->col[c]) : "";
}

static int read_header(struct import *im, enum sw_authority_format *fmt, struct sw_err *err)
{
	int rc = sw__authority_csv_next(&im->csv, err);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return sw_err_set(err, SW_EINPUT, "'%s' is empty", im->csv.path);
	for (int i = 0; i < C_NCOLS; i++)
		im->col[i] = -1;
	for (size_t f = 0; f < im->csv.nfields; f++) {
		char name[64];
		const char *s = sw__authority_csv_field(&im->csv, f);
		if (f == 0 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
			s += 3;
		snprintf(name, sizeof(name), "%s", s);
		sw_trim(name);
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		for (int i = 0; i < C_NCOLS; i++)
			if (im->col[i] < 0 && strcmp(name, col_names[i]) == 0)
				im->col[i] = (int)f;
	}
	if (has(im, C_CLUSTER) && has(im, C_VOLUME) && has(im, C_REPORTER) && has(im, C_PAGE))
		*fmt = SW_AUTHORITY_CL_CITATIONS;
	else if (has(im, C_ID) && has(im, C_DOCKET) && has(im, C_DATE) &&
		 (has(im, C_CASE_NAME) || has(im, C_CASE_SHORT) || has(im, C_CASE_FULL)))
		*fmt = SW_AUTHORITY_CL_CLUSTERS;
	else if (has(im, C_ID) && has(im, C_COURT_ID))
		*fmt = SW_AUTHORITY_CL_DOCKETS;
	else if (has(im, C_NAME) && has(im, C_VOLUME) && has(im, C_REPORTER) && has(im, C_PAGE))
		*fmt = SW_AUTHORITY_SIMPLE;
	else if (has(im, C_CODE) && has(im, C_SECTION))
		*fmt = SW_AUTHORITY_CODES;
	else
		return sw_err_set(err, SW_EINPUT,
				  "'%s' has an unknown header: expected name,volume,reporter,page,last_page,court,year; "
				  "code,title,section,name; or a CourtListener citations, opinion-clusters or dockets file",
				  im->csv.path);
	/* PostgreSQL's COPY escapes quotes in CourtListener's files with a
	 * backslash; the simple CSV is plain RFC 4180. */
	im->csv.backslash = *fmt == SW_AUTHORITY_CL_CITATIONS || *fmt == SW_AUTHORITY_CL_CLUSTERS ||
			    *fmt == SW_AUTHORITY_CL_DOCKETS;
	return 0;
}

static bool parse_num(const char *s, uint64_t *out)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n > 0 && n <= 18 && sw_parse_u64(s, n, out);
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* A trimmed copy of s, at most max bytes (cut at a character boundary). */
static char *trimmed(const char *s, size_t max)
{
	char *t = sw_xstrdup(s);
	sw_trim(t);
	size_t n = strlen(t);
	t[sw_utf8_cut(t, n, max)] = '\0';
	for (char *p = t; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	return t;
}

static int exec(struct sw_authority *a, const char *sql, struct sw_err *err)
{
	if (sqlite3_exec(a->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sw__authority_sqlerr(err, a->db, "cannot write the authority table");
	return 0;
}

static const char *const insert_sql[] = {
	[SW_AUTHORITY_SIMPLE] =
	"INSERT INTO cases (reporter_key, reporter, volume, page, page_num, last_page, name,"
	"  court, year, cluster_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)"
	" ON CONFLICT (reporter_key, volume, page, cluster_id) DO UPDATE SET"
	"  reporter = excluded.reporter, page_num = excluded.page_num,"
	"  last_page = excluded.last_page, name = excluded.name, court = excluded.court,"
	"  year = excluded.year",
	[SW_AUTHORITY_CODES] =
	"INSERT INTO codes (code_key, title, section, name) VALUES (?1, ?2, ?3, ?4)"
	" ON CONFLICT DO UPDATE SET name = excluded.name",
	/* A citation takes its cluster's name, year and court when those files
	 * came first. */
	[SW_AUTHORITY_CL_CITATIONS] =
	"INSERT INTO cases (reporter_key, reporter, volume, page, page_num, cluster_id,"
	"  name, year, court)"
	" SELECT ?1, ?2, ?3, ?4, ?5, ?6, k.name, k.year, d.court"
	" FROM (SELECT 1) LEFT JOIN cl_clusters AS k ON k.id = ?6"
	" LEFT JOIN cl_dockets AS d ON d.id = k.docket_id"
	" WHERE true"
	" ON CONFLICT (reporter_key, volume, page, cluster_id) DO UPDATE SET"
	"  reporter = excluded.reporter, page_num = excluded.page_num,"
	"  name = coalesce(excluded.name, name), year = coalesce(excluded.year, year),"
	"  court = coalesce(excluded.court, court)",
	[SW_AUTHORITY_CL_CLUSTERS] =
	"INSERT INTO cl_clusters (id, name, year, docket_id) VALUES (?1, ?2, ?3, ?4)"
	" ON CONFLICT (id) DO UPDATE SET name = excluded.name, year = excluded.year,"
	"  docket_id = excluded.docket_id",
	[SW_AUTHORITY_CL_DOCKETS] =
	"INSERT INTO cl_dockets (id, court) VALUES (?1, ?2)"
	" ON CONFLICT (id) DO UPDATE SET court = excluded.court",
};

/* Bind one row for the format; false when the row is malformed. */
static bool bind_row(struct import *im, enum sw_authority_format fmt)
{
	sqlite3_stmt *st = im->ins;
	uint64_t n, id, last, year;
	char key[128];
	char *s;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	switch (fmt) {
	case SW_AUTHORITY_SIMPLE:
	case SW_AUTHORITY_CL_CITATIONS: {
		char *vol = trimmed(get(im, C_VOLUME), 32);
		char *rep = trimmed(get(im, C_REPORTER), 64);
		char *page = trimmed(get(im, C_PAGE), 32);
		bool ok = *vol && *rep && *page;
		sw__authority_reporter_key(key, sizeof(key), rep);
		sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, rep, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, vol, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 4, page, -1, SQLITE_TRANSIENT);
		if (parse_num(page, &n) && n <= INT64_MAX)
			sqlite3_bind_int64(st, 5, (sqlite3_int64)n);
		free(vol);
		free(rep);
		free(page);
		if (fmt == SW_AUTHORITY_CL_CITATIONS) {
			if (!parse_num(get(im, C_CLUSTER), &id) || id == 0 || id > INT64_MAX)
				return false;
			sqlite3_bind_int64(st, 6, (sqlite3_int64)id);
			return ok;
		}
		if (*get(im, C_LAST)) {
			if (!parse_num(get(im, C_LAST), &last) || last > INT64_MAX)
				return false;
			sqlite3_bind_int64(st, 6, (sqlite3_int64)last);
		}
		s = trimmed(get(im, C_NAME), SW_AUTHORITY_MAX_NAME);
		ok = ok && *s;
		bind_text_or_null(st, 7, s);
		free(s);
		s = trimmed(get(im, C_COURT), 64);
		bind_text_or_null(st, 8, s);
		free(s);
		if (*get(im, C_YEAR)) {
			if (!parse_num(get(im, C_YEAR), &year) || year > 9999)
				return false;
			sqlite3_bind_int(st, 9, (int)year);
		}
		return ok;
	}
	case SW_AUTHORITY_CODES: {
		char *code = trimmed(get(im, C_CODE), 64);
		char *title = trimmed(get(im, C_TITLE), 32);
		char *sec = trimmed(get(im, C_SECTION), 64);
		char *name = trimmed(get(im, C_NAME), SW_AUTHORITY_MAX_NAME);
		bool ok = *code && *sec;
		sw__authority_reporter_key(key, sizeof(key), code);
		sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, title, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, sec, -1, SQLITE_TRANSIENT);
		bind_text_or_null(st, 4, name);
		free(code);
		free(title);
		free(sec);
		free(name);
		return ok;
	}
	case SW_AUTHORITY_CL_CLUSTERS: {
		if (!parse_num(get(im, C_ID), &id) || id == 0 || id > INT64_MAX)
			return false;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
		const char *name = get(im, C_CASE_NAME);
		if (!*name)
			name = get(im, C_CASE_SHORT);
		if (!*name)
			name = get(im, C_CASE_FULL);
		s = trimmed(name, SW_AUTHORITY_MAX_NAME);
		bind_text_or_null(st, 2, s);
		free(s);
		const char *date = get(im, C_DATE);
		if (strlen(date) >= 4 && parse_num((char[5]){ date[0], date[1], date[2], date[3], 0 }, &year))
			sqlite3_bind_int(st, 3, (int)year);
		if (parse_num(get(im, C_DOCKET), &n) && n <= INT64_MAX)
			sqlite3_bind_int64(st, 4, (sqlite3_int64)n);
		return true;
	}
	case SW_AUTHORITY_CL_DOCKETS: {
		if (!parse_num(get(im, C_ID), &id) || id == 0 || id > INT64_MAX)
			return false;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
		s = trimmed(get(im, C_COURT_ID), 64);
		bind_text_or_null(st, 2, s);
		free(s);
		return true;
	}
	case SW_AUTHORITY_TEXTS:
	case SW_AUTHORITY_CODE_TEXTS:
		break;
	}
	return false;
}

/* After clusters or dockets arrive, complete the cases that cite them. */
static int complete_cases(struct import *im, enum sw_authority_format fmt, struct sw_err *err)
{
	if (fmt == SW_AUTHORITY_CL_CLUSTERS)
		return exec(im->a,
			    "UPDATE cases SET name = k.name, year = k.year,"
			    "  court = coalesce((SELECT d.court FROM cl_dockets AS d WHERE d.id = k.docket_id), cases.court)"
			    " FROM cl_clusters AS k WHERE cases.cluster_id = k.id AND cases.cluster_id <> 0",
			    err);
	if (fmt == SW_AUTHORITY_CL_DOCKETS)
		return exec(im->a,
			    "UPDATE cases SET court = d.court FROM cl_clusters AS k, cl_dockets AS d"
			    " WHERE cases.cluster_id = k.id AND cases.cluster_id <> 0 AND d.id = k.docket_id",
			    err);
	return 0;
}

/* Whether the file holds more rows than the table already has, by its
 * size (about 40 bytes a row; a bzip2 file about 5 times its size): then
 * building the secondary indexes once after the load beats updating them
 * on every row. */
static bool large_load(const struct import *im)
{
	struct stat st;
	sqlite3_stmt *q = NULL;
	int64_t have = 0;
	if (stat(im->csv.path, &st) != 0 || st.st_size <= 0)
		return false;
	uint64_t est = (uint64_t)st.st_size / 40 * (im->csv.child > 0 ? 5 : 1);
	if (sqlite3_prepare_v2(im->a->db, "SELECT max(id) FROM cases", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		have = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return est >= 100000 && (uint64_t)have < est;
}

/* Building an index sorts in memory up to the page cache's size, on top
 * of the cache: shrink the cache first (what it holds is no use to a sort
 * that reads the table once) and hand its pages back, so that the peak
 * stays that of the load. */
static int build_indexes(struct import *im, struct sw_err *err)
{
	int rc = exec(im->a, "PRAGMA cache_size = -32768", err);
	if (rc)
		return rc;
	(void)sqlite3_db_release_memory(im->a->db);
#ifdef __GLIBC__
	(void)malloc_trim(0);
#endif
	return exec(im->a, SW__AUTHORITY_INDEXES, err);
}

static int import_csv(struct import *im, struct sw_err *err)
{
	enum sw_authority_format fmt = SW_AUTHORITY_SIMPLE;
	int rc = read_header(im, &fmt, err);
	if (rc)
		return rc;
	im->sum->format = fmt;
	if (sqlite3_prepare_v2(im->a->db, insert_sql[fmt], -1, &im->ins, NULL) != SQLITE_OK)
		return sw__authority_sqlerr(err, im->a->db, "cannot write the authority table");
	/* A page cache of up to 128 MiB keeps the indexes' hot pages in
	 * memory between commits (SQLite's default is 2 MiB). */
	if ((rc = exec(im->a, "PRAGMA cache_size = -131072; BEGIN", err)) != 0)
		return rc;
	bool reindex = (fmt == SW_AUTHORITY_SIMPLE || fmt == SW_AUTHORITY_CL_CITATIONS) &&
		       large_load(im);
	if (reindex && (rc = exec(im->a, "DROP INDEX IF EXISTS cases_at;"
				  "DROP INDEX IF EXISTS cases_cluster", err)) != 0)
		goto done;
	while ((rc = sw__authority_csv_next(&im->csv, err)) == 1) {
		im->sum->rows++;
		if (im->csv.over || !bind_row(im, fmt)) {
			im->sum->skipped++;
			continue;
		}
		if (sqlite3_step(im->ins) != SQLITE_DONE) {
			rc = sw__authority_sqlerr(err, im->a->db, "cannot write the authority table");
			break;
		}
		im->sum->stored++;
		if (++im->in_batch >= BATCH_ROWS) {
			im->in_batch = 0;
			if ((rc = exec(im->a, "COMMIT; BEGIN", err)) != 0)
				break;
			sw_progress_update(&im->progress, im->sum->rows);
		}
	}
	if (rc == 0 && reindex)
		rc = build_indexes(im, err);
	if (rc == 0)
		rc = complete_cases(im, fmt, err);
done:
	if (rc == 0)
		return exec(im->a, "COMMIT", err);
	sqlite3_exec(im->a->db, "ROLLBACK", NULL, NULL, NULL);
	/* The batches committed before the failure stay; so must the
	 * indexes (sw_authority_open builds them too, should this fail). */
	if (reindex)
		sqlite3_exec(im->a->db, SW__AUTHORITY_INDEXES, NULL, NULL, NULL);
	return rc;
}

/* One text file named by its citation: "550 U.S. 544.txt". */
static int import_text(struct import *im, const char *dir, const char *name,
		       struct sw_err *err)
{
	struct sw_authority_lookup l = { 0 };
	struct sw_buf text = SW_BUF_INIT;
	sqlite3_stmt *st = NULL;
	struct sw_err local = { 0 };
	char *path = sw_path_join(dir, name);
	char *cite = sw_xstrdup(name);
	char *dot = strrchr(cite, '.');
	int rc = 0;
	if (dot)
		*dot = '\0';
	im->sum->rows++;
	if (sw_authority_lookup_cite(&l, im->a, cite, &local) != 0 ||
	    l.hit != SW_AUTHORITY_STARTS ||
	    sw_file_read(&text, path, SW_AUTHORITY_MAX_TEXT, &local) != 0) {
		im->sum->skipped++;
		goto cleanup;
	}
	if (sqlite3_prepare_v2(im->a->db,
			       "INSERT INTO texts (case_id, text) VALUES (?1, ?2)"
			       " ON CONFLICT (case_id) DO UPDATE SET text = excluded.text",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw__authority_sqlerr(err, im->a->db, "cannot store an opinion text");
		goto cleanup;
	}
	for (size_t i = 0; i < l.n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, l.cases[i].id);
		sqlite3_bind_text(st, 2, text.data, (int)text.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = sw__authority_sqlerr(err, im->a->db, "cannot store an opinion text");
			goto cleanup;
		}
	}
	im->sum->stored++;
cleanup:
	sqlite3_finalize(st);
	sw_buf_release(&text);
	sw_authority_lookup_release(&l);
	free(path);
	free(cite);
	return rc;
}

static int import_texts(struct import *im, const char *dir, struct sw_err *err)
{
	DIR *d = opendir(dir);
	int rc = 0;
	im->sum->format = SW_AUTHORITY_TEXTS;
	if (!d)
		return sw_err_set(err, SW_EIO, "cannot read the folder '%s'", dir);
	if ((rc = exec(im->a, "BEGIN", err)) != 0)
		goto cleanup;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if ((rc = import_text(im, dir, e->d_name, err)) != 0)
			break;
	}
	if (rc == 0)
		rc = exec(im->a, "COMMIT", err);
	else
		sqlite3_exec(im->a->db, "ROLLBACK", NULL, NULL, NULL);
cleanup:
	closedir(d);
	return rc;
}

int sw_authority_import(struct sw_authority_import_summary *out,
			struct sw_authority *a, const char *path, bool progress,
			struct sw_err *err)
{
	struct import im = { 0 };
	int rc;
	memset(&im, 0, sizeof(im));
	memset(out, 0, sizeof(*out));
	im.a = a;
	im.sum = out;
	im.csv.fd = -1;
	double t0 = sw_now();
	if (progress)
		sw_progress_start(&im.progress, "authorities", 0);
	if (sw_path_is_dir(path)) {
		rc = import_texts(&im, path, err);
	} else if ((rc = sw__authority_csv_open(&im.csv, path, err)) == 0) {
		rc = import_csv(&im, err);
		int crc = sw__authority_csv_close(&im.csv, rc ? NULL : err);
		if (rc == 0)
			rc = crc;
	}
	sqlite3_finalize(im.ins);
	if (progress)
		sw_progress_finish(&im.progress);
	out->seconds = sw_now() - t0;
	return rc;
}
