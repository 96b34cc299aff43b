/* page.c - the one page writer of record/: a page's row (its Bates number
 * as written and by canonical prefix, its text and how it was read), its
 * index entry, and a deposition page's numbered lines.  sw_record_store_doc
 * (store.c) and the page-by-page writer (store_stream.c) both store pages
 * through here, so that a page is the same row whichever way it came. */
#include <string.h>

#include "record/record_int.h"

int sw__record_put_page(int64_t *page_id, struct sw_matter *m, int64_t doc_id, size_t page_no,
			const struct sw_page_in *p, struct sw_err *err)
{
	sqlite3_stmt *ins = sw__record_stmt(m, SW_STMT_INS_PAGE, err);
	char bates[SW_BATES_PREFIX_MAX + 48], canon[SW_BATES_CANON_MAX];
	int rc;

	if (!ins)
		return SW_EDB;
	sqlite3_bind_int64(ins, 1, doc_id);
	sqlite3_bind_int64(ins, 2, (sqlite3_int64)page_no);
	if (p->has_bates) {
		/* The number as written for display, the canonical prefix for
		 * every lookup ("BLT-" and "BLT" are one series). */
		sw_bates_format(bates, sizeof(bates), &p->bates, p->bates.number);
		sw_bates_canon_prefix(canon, p->bates.prefix, strlen(p->bates.prefix));
		sqlite3_bind_text(ins, 3, bates, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 4, canon, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(ins, 5, (sqlite3_int64)p->bates.number);
		sqlite3_bind_text(ins, 6, p->bates_source, -1, SQLITE_STATIC);
	}
	sqlite3_bind_text(ins, 7, p->text, (int)p->len, SQLITE_STATIC);
	sqlite3_bind_text(ins, 8, p->ocr ? "ocr" : "text", -1, SQLITE_STATIC);
	if (p->ocr)
		sqlite3_bind_double(ins, 9, p->ocr_confidence);
	if ((rc = sw__record_step_done(ins, m->db, "cannot store a page", err)) != 0)
		return rc;
	*page_id = sqlite3_last_insert_rowid(m->db);
	return sw__record_index_page(m, *page_id, p->text, p->len, err);
}

int sw__record_put_lines(struct sw_matter *m, int64_t doc_id, int64_t page_id,
			 const struct sw_tr_line *lines, size_t n, struct sw_err *err)
{
	sqlite3_stmt *ins = n ? sw__record_stmt(m, SW_STMT_INS_LINE, err) : NULL;
	int rc;

	if (n && !ins)
		return SW_EDB;
	for (size_t k = 0; k < n; k++) {
		sqlite3_bind_int64(ins, 1, doc_id);
		sqlite3_bind_int64(ins, 2, lines[k].page);
		sqlite3_bind_int64(ins, 3, lines[k].line);
		sqlite3_bind_int64(ins, 4, page_id);
		sqlite3_bind_int64(ins, 5, (sqlite3_int64)lines[k].start);
		sqlite3_bind_int64(ins, 6, (sqlite3_int64)lines[k].end);
		if ((rc = sw__record_step_done(ins, m->db, "cannot store a transcript line",
					       err)) != 0)
			return rc;
	}
	return 0;
}
