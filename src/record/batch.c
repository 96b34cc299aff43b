/* batch.c - an import's documents stored in batches: one transaction holds
 * many documents, each in a savepoint of its own, so that a failing
 * document rolls back alone and a crash loses the open batch whole.  One
 * commit per batch instead of one per document is most of what an import
 * of many small documents costs beyond the floor (docs/PERFORMANCE.md).
 *
 * FTS5 writes its pending terms out as a new index segment at every
 * savepoint as it does at every commit, so the pages of a batch are indexed
 * at its commit, in one statement over the pages it stored. */
#include <string.h>

#include "record/record_int.h"

/* Text one batch holds at most, and the seconds it stays open (a batch of
 * slow pages, read by OCR, is committed long before max_pages). */
#define BATCH_MAX_BYTES ((size_t)16 << 20)
#define BATCH_MAX_SECONDS 2.0

static void batch_reset(struct sw__record_batch *b)
{
	b->open = false;
	b->pages = b->bytes = 0;
	b->first_page = 0;
	b->opened = 0;
}

/* SQLite rolled the transaction back (or it must be): the batch is gone. */
static void batch_lost(struct sw_matter *m)
{
	if (!sqlite3_get_autocommit(m->db))
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	struct sw__record_batch *b = &m->batch;
	batch_reset(b);
	b->lost = sw_xgrow(b->lost, &b->caplost, b->nlost + 1, sizeof(*b->lost));
	b->lost[b->nlost++] = b->seq;
}

void sw_record_batch_start(struct sw_matter *m, size_t max_pages)
{
	if (m->batch.open)
		SW_BUG("a batch is already open");
	m->batch.on = max_pages > 1;
	m->batch.max_pages = max_pages;
}

bool sw_record_batch_open(const struct sw_matter *m)
{
	return m->batch.open;
}

bool sw_record_batch_due(const struct sw_matter *m)
{
	const struct sw__record_batch *b = &m->batch;
	return b->open && (b->pages >= b->max_pages || b->bytes >= BATCH_MAX_BYTES ||
			   sw_now() - b->opened >= BATCH_MAX_SECONDS);
}

uint64_t sw_record_batch_seq(const struct sw_matter *m)
{
	return m->batch.seq;
}

enum sw_record_batch_state sw_record_batch_state(const struct sw_matter *m, uint64_t seq)
{
	const struct sw__record_batch *b = &m->batch;
	if (seq == b->seq && b->open)
		return SW_BATCH_OPEN;
	for (size_t i = 0; i < b->nlost; i++)
		if (b->lost[i] == seq)
			return SW_BATCH_LOST;
	return SW_BATCH_COMMITTED;
}

int sw_record_batch_commit(struct sw_matter *m, struct sw_err *err)
{
	struct sw__record_batch *b = &m->batch;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (!b->open)
		return 0;
	if (b->first_page) {
		/* Every page the batch stored, and none before it: new rowids
		 * are past the largest, so the batch's are the top of pages. */
		if (sqlite3_prepare_v2(m->db,
				       "INSERT INTO pages_fts (rowid, text)"
				       " SELECT id, text FROM pages WHERE id >= ?1",
				       -1, &st, NULL) != SQLITE_OK) {
			rc = sw__record_sqlerr(err, m->db, "cannot index the pages stored");
			goto fail;
		}
		sqlite3_bind_int64(st, 1, b->first_page);
		rc = sw__record_step_done(st, m->db, "cannot index the pages stored", err);
		sqlite3_finalize(st);
		if (rc)
			goto fail;
	}
	if (sw_fault("batch-commit")) {
		rc = sw_err_set(err, SW_EDB, "cannot commit the documents stored: injected fault");
		goto fail;
	}
	if ((rc = sw__record_exec(m->db, "COMMIT", err)) != 0)
		goto fail;
	batch_reset(b);
	return 0;
fail:
	batch_lost(m);
	return rc;
}

void sw_record_batch_stop(struct sw_matter *m)
{
	if (m->batch.open)
		batch_lost(m);
	m->batch.on = false;
}

int sw__record_begin(struct sw_matter *m, struct sw_err *err)
{
	int rc = sw_record_batch_commit(m, err);
	return rc ? rc : sw__record_exec(m->db, "BEGIN IMMEDIATE", err);
}

int sw__record_doc_begin(struct sw_matter *m, struct sw_err *err)
{
	struct sw__record_batch *b = &m->batch;
	int rc;
	if (!b->on)
		return sw__record_exec(m->db, "BEGIN IMMEDIATE", err);
	if (!b->open) {
		if ((rc = sw__record_exec(m->db, "BEGIN IMMEDIATE", err)) != 0)
			return rc;
		batch_reset(b);
		b->open = true;
		b->opened = sw_now();
		b->seq++;
	}
	if ((rc = sw__record_exec(m->db, "SAVEPOINT sw_doc", err)) != 0)
		batch_lost(m);
	return rc;
}

int sw__record_doc_done(struct sw_matter *m, size_t npages, size_t bytes, struct sw_err *err)
{
	struct sw__record_batch *b = &m->batch;
	if (!b->on)
		return sw__record_exec(m->db, "COMMIT", err);
	if (!b->open)
		SW_BUG("a document done outside its batch");
	int rc = sw__record_exec(m->db, "RELEASE sw_doc", err);
	if (rc == 0) {
		b->pages += npages;
		b->bytes += bytes;
	}
	return rc;
}

void sw__record_doc_undo(struct sw_matter *m)
{
	if (!m->batch.on) {
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
		return;
	}
	if (!m->batch.open)
		return;
	/* After some errors (a full disk, out of memory) SQLite has rolled
	 * back the whole transaction already: the batch is lost. */
	if (sqlite3_get_autocommit(m->db) ||
	    sqlite3_exec(m->db, "ROLLBACK TO sw_doc; RELEASE sw_doc", NULL, NULL, NULL) != SQLITE_OK)
		batch_lost(m);
}

int sw__record_index_page(struct sw_matter *m, int64_t page_id, const char *text, size_t len,
			  struct sw_err *err)
{
	if (m->batch.on && m->batch.open) {
		if (!m->batch.first_page || page_id < m->batch.first_page)
			m->batch.first_page = page_id;
		return 0;
	}
	sqlite3_stmt *ins_fts = sw__record_stmt(m, SW_STMT_INS_FTS, err);
	if (!ins_fts)
		return SW_EDB;
	sqlite3_bind_int64(ins_fts, 1, page_id);
	sqlite3_bind_text(ins_fts, 2, text, (int)len, SQLITE_STATIC);
	return sw__record_step_done(ins_fts, m->db, "cannot index a page", err);
}
