/* import_store.c - what an import asks of the matter besides storing
 * documents (store.c): FTS merging off during the run and one merge after
 * it, old Bates prefixes made canonical, the Bates numbers of a prefix
 * checked for gaps and repeats, attachments linked to their parents, label
 * targets looked up and labels stored, the originals synced.  The driver
 * (ingest/) reports what these find. */
#define _GNU_SOURCE /* syncfs */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record_int.h"

int sw_record_bates_check(struct sw_record_bates_check *out, struct sw_matter *m,
			   const char *prefix, struct sw_err *err)
{
	sqlite3 *db = m->db;
	sqlite3_stmt *st = NULL;
	uint64_t prev = 0;
	bool first = true;
	int step;
	struct sw_bates fmt = { 0 };

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db,
			       "SELECT bates_num, bates FROM pages WHERE bates_prefix = ?1"
			       " AND bates_num IS NOT NULL ORDER BY bates_num",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot check Bates numbers");
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t num = (uint64_t)sqlite3_column_int64(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		if (first) {
			if (text)
				(void)sw_bates_parse(&fmt, text, strlen(text));
			first = false;
		} else if (num == prev) {
			if (out->dups++ < 5)
				sw_buf_addf(&out->dup_list, "%s%s", out->dup_list.len ? ", " : "",
					    text ? text : "?");
		} else if (num > prev + 1) {
			out->gaps += num - prev - 1;
			if (out->named++ < 5) {
				char a[96], b[96];
				sw_bates_format(a, sizeof(a), &fmt, prev + 1);
				sw_bates_format(b, sizeof(b), &fmt, num - 1);
				if (num - 1 == prev + 1)
					sw_buf_addf(&out->gap_list, "%s%s",
						    out->gap_list.len ? ", " : "", a);
				else
					sw_buf_addf(&out->gap_list, "%s%s-%s",
						    out->gap_list.len ? ", " : "", a, b);
			}
		}
		prev = num;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		sw_record_bates_check_release(out);
		return sw__record_sqlerr(err, db, "cannot check Bates numbers");
	}
	return 0;
}

void sw_record_bates_check_release(struct sw_record_bates_check *c)
{
	sw_buf_release(&c->gap_list);
	sw_buf_release(&c->dup_list);
}

/* FTS5 writes a new index segment at every commit, and by default merges
 * segments a little at every commit too: with one commit per document that
 * merging was half of an import's work.  During an import, automatic
 * merging is off; at the end the segments are merged in one pass and the
 * default comes back.  A crash in between leaves more segments than usual,
 * which only slows searches until the next import finishes. */
static int fts_automerge(sqlite3 *db, int level, struct sw_err *err)
{
	char sql[96];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO pages_fts (pages_fts, rank) VALUES ('automerge', %d)", level);
	return sw__record_exec(db, sql, err);
}

static int fts_merge(sqlite3 *db, struct sw_err *err)
{
	for (;;) {
		int before = sqlite3_total_changes(db);
		int rc = sw__record_exec(db,
					 "INSERT INTO pages_fts (pages_fts, rank) VALUES ('merge', 1000)",
					 err);
		if (rc)
			return rc;
		/* FTS5 reports work done through the change count. */
		if (sqlite3_total_changes(db) - before < 2)
			return 0;
	}
}

/* Matters written before Bates prefixes were stored canonical hold "BLT-"
 * where lookups now ask for "BLT".  The same rule as sw_bates_canon_prefix
 * (ASCII upper case, '-', '_', ' ' and '.' dropped), in SQL; the check reads
 * only the Bates index, so a matter already canonical pays next to nothing. */
#define CANON_SQL(col) \
	"upper(replace(replace(replace(replace(" col ", '-', ''), '_', ''), ' ', ''), '.', ''))"

static int canon_old_prefixes(sqlite3 *db, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT 1 FROM pages INDEXED BY pages_bates WHERE bates_num IS NOT NULL"
			       " AND bates_prefix <> " CANON_SQL("bates_prefix") " LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot check Bates prefixes");
	int s = sqlite3_step(st);
	sqlite3_finalize(st);
	if (s == SQLITE_DONE)
		return 0;
	if (s != SQLITE_ROW)
		return sw__record_sqlerr(err, db, "cannot check Bates prefixes");
	return sw__record_exec(db,
			       "UPDATE pages SET bates_prefix = " CANON_SQL("bates_prefix")
			       " WHERE bates_num IS NOT NULL AND bates_prefix <> "
			       CANON_SQL("bates_prefix"), err);
}

/* Remove the temporaries (files/xx/<sha>.part.PID) an import killed while
 * it kept an original left behind; one of a process still running is its
 * own and stays. */
static void remove_stale_parts(struct sw_matter *m)
{
	DIR *top = opendir(m->files_dir);
	if (!top)
		return;
	struct dirent *e;
	while ((e = readdir(top)) != NULL) {
		if (strlen(e->d_name) != 2 || e->d_name[0] == '.')
			continue;
		char *dir = sw_path_join(m->files_dir, e->d_name);
		DIR *d = opendir(dir);
		struct dirent *f;
		while (d && (f = readdir(d)) != NULL) {
			const char *part = strstr(f->d_name, ".part.");
			if (!part || part != f->d_name + SW_SHA256_HEX_LEN)
				continue;
			char *end;
			errno = 0;
			long pid = strtol(part + 6, &end, 10);
			if (*end || pid <= 0 || (pid != getpid() && kill((pid_t)pid, 0) == 0) ||
			    errno == EPERM)
				continue;
			char *path = sw_path_join(dir, f->d_name);
			(void)unlink(path);
			free(path);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	closedir(top);
}

int sw_record_import_begin(struct sw_matter *m, struct sw_err *err)
{
	remove_stale_parts(m);
	int rc = canon_old_prefixes(m->db, err);
	return rc ? rc : fts_automerge(m->db, 0, err);
}

int sw_record_import_end(struct sw_matter *m, struct sw_err *err)
{
	int rc = sw_record_batch_commit(m, err);
	if (rc == 0)
		rc = fts_merge(m->db, err);
	return rc ? rc : fts_automerge(m->db, 4, err);
}

int sw_record_link_parents(struct sw_matter *m, const struct sw_record_link *links,
			    size_t n, struct sw_err *err)
{
	sqlite3 *db = m->db;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "UPDATE documents SET parent_id = ?1 WHERE id = ?2"
				   " AND parent_id IS NOT ?1", -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot link attachments");
	if ((rc = sw__record_begin(m, err)) != 0)
		goto cleanup;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, links[i].parent);
		sqlite3_bind_int64(st, 2, links[i].child);
		int s = sqlite3_step(st);
		sqlite3_reset(st);
		if (s != SQLITE_DONE) {
			rc = sw__record_sqlerr(err, db, "cannot link attachments");
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			goto cleanup;
		}
	}
	if ((rc = sw__record_exec(db, "COMMIT", err)) != 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
cleanup:
	sqlite3_finalize(st);
	return rc;
}

void sw_record_sync_originals(struct sw_matter *m)
{
	/* Originals were written without one fsync each; one sync of their
	 * filesystem makes the whole import durable at a fraction of the cost. */
	int fd = open(m->files_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}
