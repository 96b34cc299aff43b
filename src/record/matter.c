/* matter.c - opening a matter and describing what it holds. */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record/record_int.h"

int sw_matter_open(struct sw_matter **out, const struct sw_workspace *ws,
		   const char *name, struct sw_err *err)
{
	struct sw_matter *m = NULL;
	char *dbpath = NULL;
	int rc;

	*out = NULL;
	if (!sw_matter_name_valid(name))
		return sw_err_set(err, SW_EUSAGE, "bad matter name '%s'", name);
	m = sw_xcalloc(1, sizeof(*m));
	m->name = sw_xstrdup(name);
	m->dir = sw_xasprintf("%s/matters/%s", ws->root, name);
	m->files_dir = sw_path_join(m->dir, "files");
	m->ws_root = sw_xstrdup(ws->root);
	dbpath = sw_path_join(m->dir, "matter.db");
	if (!sw_path_is_file(dbpath)) {
		rc = sw_err_set(err, SW_ENOTFOUND,
				"no matter '%s' in this workspace: create it with 'sworn matter new %s'",
				name, name);
		goto cleanup;
	}
	if ((rc = sw_mkdir_p(m->files_dir, 0700, err)) != 0)
		goto cleanup;
	if ((rc = sw__record_db_open(&m->db, dbpath, false, err)) != 0)
		goto cleanup;
	*out = m;
	m = NULL;
cleanup:
	sw_matter_close(m);
	free(dbpath);
	return rc;
}

void sw_matter_close(struct sw_matter *m)
{
	if (!m)
		return;
	sw__record_prov_close(m);
	sw__record_cache_clear(m);
	for (size_t i = 0; i < SW_ARRAY_LEN(m->stmts); i++)
		sqlite3_finalize(m->stmts[i]);
	for (size_t i = 0; i < SW_ARRAY_LEN(m->queries); i++)
		sqlite3_finalize(m->queries[i].st);
	sqlite3_close(m->db);
	free(m->batch.lost);
	free(m->ws_root);
	free(m->name);
	free(m->dir);
	free(m->files_dir);
	free(m);
}

const char *sw_matter_name(const struct sw_matter *m)
{
	return m->name;
}

/* nftw offers no user pointer; the sum lives here for the one walk in
 * flight (matter stats are computed by one thread). */
static uint64_t walk_bytes;

static int add_size(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F)
		walk_bytes += (uint64_t)st->st_size;
	return 0;
}

static int count(uint64_t *out, sqlite3 *db, const char *sql, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		rc = sw__record_sqlerr(err, db, "cannot count");
	else
		*out = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

static char *column_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return sw_xstrdup(t ? (const char *)t : "");
}

static int bates_ranges(struct sw_matter_stats *s, sqlite3 *db, struct sw_err *err)
{
	static const char sql[] =
		"WITH r AS (SELECT bates_prefix AS prefix, min(bates_num) AS lo,"
		"  max(bates_num) AS hi, count(*) AS n, count(DISTINCT bates_num) AS nd"
		"  FROM pages WHERE bates_num IS NOT NULL GROUP BY bates_prefix)"
		" SELECT prefix,"
		"  (SELECT bates FROM pages WHERE bates_prefix = r.prefix AND bates_num = r.lo LIMIT 1),"
		"  (SELECT bates FROM pages WHERE bates_prefix = r.prefix AND bates_num = r.hi LIMIT 1),"
		"  n, hi - lo + 1 - nd, n - nd FROM r ORDER BY prefix";
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc = 0, step;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot read Bates ranges");
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		s->ranges = sw_xgrow(s->ranges, &cap, s->nranges + 1, sizeof(*s->ranges));
		struct sw_bates_range *r = &s->ranges[s->nranges++];
		r->prefix = column_dup(st, 0);
		r->first = column_dup(st, 1);
		r->last = column_dup(st, 2);
		r->pages = (uint64_t)sqlite3_column_int64(st, 3);
		r->gaps = (uint64_t)sqlite3_column_int64(st, 4);
		r->dups = (uint64_t)sqlite3_column_int64(st, 5);
	}
	if (step != SQLITE_DONE)
		rc = sw__record_sqlerr(err, db, "cannot read Bates ranges");
	sqlite3_finalize(st);
	return rc;
}

int sw_matter_stats(struct sw_matter_stats *out, struct sw_matter *m,
		    struct sw_err *err)
{
	int rc;
	memset(out, 0, sizeof(*out));
	out->name = sw_xstrdup(m->name);
	if ((rc = count(&out->documents, m->db, "SELECT count(*) FROM documents", err)) ||
	    (rc = count(&out->pages, m->db, "SELECT count(*) FROM pages", err)) ||
	    (rc = count(&out->quarantined, m->db,
			"SELECT count(*) FROM documents WHERE status = 'quarantined'", err)) ||
	    (rc = count(&out->transcripts, m->db,
			"SELECT count(*) FROM documents WHERE kind = 'transcript'", err)) ||
	    (rc = count(&out->labels, m->db, "SELECT count(*) FROM labels", err)) ||
	    (rc = bates_ranges(out, m->db, err))) {
		sw_matter_stats_release(out);
		return rc;
	}
	walk_bytes = 0;
	nftw(m->dir, add_size, 16, FTW_PHYS);
	out->bytes = walk_bytes;
	return 0;
}

void sw_matter_stats_release(struct sw_matter_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nranges; i++) {
		free(s->ranges[i].prefix);
		free(s->ranges[i].first);
		free(s->ranges[i].last);
	}
	free(s->ranges);
	free(s->name);
	memset(s, 0, sizeof(*s));
}
