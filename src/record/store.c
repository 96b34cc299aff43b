/* store.c - writing one document, its pages, index entries and transcript
 * lines in one transaction; keeping originals by content hash. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record_int.h"

int sw__record_find_doc(int64_t *out_id, struct sw_matter *m,
			const char *sha256, const char *beg_bates,
			struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	if (sqlite3_prepare_v2(m->db,
			       "SELECT id FROM documents WHERE sha256 = ?1"
			       " AND ifnull(beg_bates, '') = ifnull(?2, '')",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot look up a document");
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, beg_bates, -1, SQLITE_STATIC);
	int step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		*out_id = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (step == SQLITE_DONE) {
		rc = SW_ENOTFOUND;
	} else {
		rc = sw__record_sqlerr(err, m->db, "cannot look up a document");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw__record_keep_original(struct sw_matter *m, const char *sha256,
			     const void *data, size_t len, struct sw_err *err)
{
	char sub[3] = { sha256[0], sha256[1], '\0' };
	char *dir = sw_path_join(m->files_dir, sub);
	char *path = sw_path_join(dir, sha256);
	char *tmp = NULL;
	int rc = 0, fd = -1;

	if (sw_path_is_file(path))
		goto cleanup;
	if ((rc = sw_mkdir_p(dir, 0700, err)) != 0)
		goto cleanup;
	/* Written under a temporary name and renamed, so files/ never holds a
	 * partial original under a real hash. */
	tmp = sw_xasprintf("%s.part.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = sw_err_set(err, SW_EIO, "cannot create '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	for (const char *p = data; len > 0;) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp, strerror(errno));
			goto cleanup;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) != 0) {
		fd = -1;
		rc = sw_err_set(err, SW_EIO, "cannot write '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot keep '%s': %s", path, strerror(errno));
cleanup:
	if (fd >= 0)
		close(fd);
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	free(path);
	free(dir);
	return rc;
}

struct tr_scan {
	struct sw_tr_line *lines;
	size_t n, cap;
	size_t *page_first; /* index of each page's first line in lines */
	uint32_t *page_no;
	size_t tr_pages;
};

/* A document is a transcript when at least half its pages (and at least
 * one) read as numbered deposition pages. */
static void scan_transcript(struct tr_scan *t, const struct sw_doc_in *doc)
{
	t->page_first = sw_xcalloc(doc->npages + 1, sizeof(*t->page_first));
	t->page_no = sw_xcalloc(doc->npages + 1, sizeof(*t->page_no));
	for (size_t i = 0; i < doc->npages; i++) {
		t->page_first[i] = t->n;
		if (sw_transcript_page(&t->page_no[i], &t->lines, &t->n, &t->cap,
				       doc->pages[i].text, doc->pages[i].len) > 0)
			t->tr_pages++;
	}
	t->page_first[doc->npages] = t->n;
}

static void tr_scan_release(struct tr_scan *t)
{
	free(t->lines);
	free(t->page_first);
	free(t->page_no);
}

static int prepare(sqlite3_stmt **st, sqlite3 *db, const char *sql, struct sw_err *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot prepare a statement");
	return 0;
}

static int step_done(sqlite3_stmt *st, sqlite3 *db, const char *what, struct sw_err *err)
{
	if (sw_fault("sql"))
		return sw_err_set(err, SW_EFAULT, "%s: injected fault", what);
	int s = sqlite3_step(st);
	sqlite3_reset(st);
	if (s == SQLITE_DONE)
		return 0;
	if (s == SQLITE_CONSTRAINT_UNIQUE || s == SQLITE_CONSTRAINT_PRIMARYKEY)
		return sw_err_set(err, SW_EEXIST, "%s: %s", what, sqlite3_errmsg(db));
	return sw__record_sqlerr(err, db, what);
}

int sw__record_store_doc(int64_t *out_id, bool *out_transcript,
			 struct sw_matter *m, const struct sw_doc_in *doc,
			 struct sw_err *err)
{
	sqlite3_stmt *ins_doc = NULL, *ins_page = NULL, *ins_fts = NULL, *ins_line = NULL;
	struct tr_scan tr = { 0 };
	char now[21];
	bool in_tx = false;
	int rc;

	sw_utc_now(now);
	scan_transcript(&tr, doc);
	bool transcript = tr.tr_pages > 0 && tr.tr_pages * 2 >= doc->npages;
	const char *kind = transcript ? "transcript" : doc->kind;

	if ((rc = prepare(&ins_doc, m->db,
			  "INSERT INTO documents (name, kind, origin, sha256, original,"
			  " beg_bates, end_bates, source_path, imported_at, bytes, page_count, meta)"
			  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ifnull(?12, '{}'))",
			  err)) ||
	    (rc = prepare(&ins_page, m->db,
			  "INSERT INTO pages (doc_id, page_no, bates, bates_prefix, bates_num,"
			  " bates_source, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			  err)) ||
	    (rc = prepare(&ins_fts, m->db,
			  "INSERT INTO pages_fts (rowid, text) VALUES (?1, ?2)", err)) ||
	    (rc = prepare(&ins_line, m->db,
			  "INSERT OR IGNORE INTO transcript_lines"
			  " (doc_id, tr_page, line, page_id, start, end)"
			  " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			  err)))
		goto cleanup;
	if ((rc = sw__record_exec(m->db, "BEGIN IMMEDIATE", err)) != 0)
		goto cleanup;
	in_tx = true;

	sqlite3_bind_text(ins_doc, 1, doc->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 3, sw_origin_name(doc->origin), -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 4, doc->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 5, doc->original, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 6, doc->beg_bates, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 7, doc->end_bates, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 8, doc->source_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_doc, 9, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins_doc, 10, (sqlite3_int64)doc->bytes);
	sqlite3_bind_int64(ins_doc, 11, (sqlite3_int64)doc->npages);
	sqlite3_bind_text(ins_doc, 12, doc->meta_json, -1, SQLITE_STATIC);
	if ((rc = step_done(ins_doc, m->db, "cannot store the document", err)) != 0)
		goto cleanup;
	int64_t doc_id = sqlite3_last_insert_rowid(m->db);

	for (size_t i = 0; i < doc->npages; i++) {
		const struct sw_page_in *p = &doc->pages[i];
		char bates[SW_BATES_PREFIX_MAX + 48];
		sqlite3_bind_int64(ins_page, 1, doc_id);
		sqlite3_bind_int64(ins_page, 2, (sqlite3_int64)(i + 1));
		if (p->has_bates) {
			sw_bates_format(bates, sizeof(bates), &p->bates, p->bates.number);
			sqlite3_bind_text(ins_page, 3, bates, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(ins_page, 4, p->bates.prefix, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int64(ins_page, 5, (sqlite3_int64)p->bates.number);
			sqlite3_bind_text(ins_page, 6, p->bates_source, -1, SQLITE_STATIC);
		} else {
			sqlite3_bind_null(ins_page, 3);
			sqlite3_bind_null(ins_page, 4);
			sqlite3_bind_null(ins_page, 5);
			sqlite3_bind_null(ins_page, 6);
		}
		sqlite3_bind_text(ins_page, 7, p->text, (int)p->len, SQLITE_STATIC);
		if ((rc = step_done(ins_page, m->db, "cannot store a page", err)) != 0)
			goto cleanup;
		int64_t page_id = sqlite3_last_insert_rowid(m->db);
		sqlite3_bind_int64(ins_fts, 1, page_id);
		sqlite3_bind_text(ins_fts, 2, p->text, (int)p->len, SQLITE_STATIC);
		if ((rc = step_done(ins_fts, m->db, "cannot index a page", err)) != 0)
			goto cleanup;
		if (!transcript)
			continue;
		for (size_t k = tr.page_first[i]; k < tr.page_first[i + 1]; k++) {
			sqlite3_bind_int64(ins_line, 1, doc_id);
			sqlite3_bind_int64(ins_line, 2, tr.lines[k].page);
			sqlite3_bind_int64(ins_line, 3, tr.lines[k].line);
			sqlite3_bind_int64(ins_line, 4, page_id);
			sqlite3_bind_int64(ins_line, 5, (sqlite3_int64)tr.lines[k].start);
			sqlite3_bind_int64(ins_line, 6, (sqlite3_int64)tr.lines[k].end);
			if ((rc = step_done(ins_line, m->db, "cannot store a transcript line", err)) != 0)
				goto cleanup;
		}
	}
	if (sw_fault("store-doc")) {
		rc = sw_err_set(err, SW_EFAULT, "cannot store the document: injected fault");
		goto cleanup;
	}
	if ((rc = sw__record_exec(m->db, "COMMIT", err)) != 0)
		goto cleanup;
	in_tx = false;
	*out_id = doc_id;
	*out_transcript = transcript;
cleanup:
	if (in_tx)
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(ins_doc);
	sqlite3_finalize(ins_page);
	sqlite3_finalize(ins_fts);
	sqlite3_finalize(ins_line);
	tr_scan_release(&tr);
	return rc;
}

static const char *const origin_names[] = {
	[SW_ORIGIN_EVIDENCE] = "evidence",
	[SW_ORIGIN_MODEL] = "model",
	[SW_ORIGIN_HUMAN] = "human",
	[SW_ORIGIN_TEMPLATE] = "template",
};

const char *sw_origin_name(enum sw_origin o)
{
	if ((size_t)o >= SW_ARRAY_LEN(origin_names))
		SW_BUG("bad origin %d", (int)o);
	return origin_names[o];
}

int sw_origin_parse(enum sw_origin *out, const char *s, struct sw_err *err)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(origin_names); i++)
		if (strcmp(s, origin_names[i]) == 0) {
			*out = (enum sw_origin)i;
			return 0;
		}
	return sw_err_set(err, SW_EUSAGE,
			  "bad origin '%s': use evidence, model, human or template", s);
}
