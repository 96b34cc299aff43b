/* query.c - the record as the verifier reads it: pages by Bates number,
 * documents by label, transcript lines, page text, and the pages that hold
 * a phrase.
 *
 * Every query joins documents and keeps origin 'evidence' and status
 * 'active' only, so a model's draft or a quarantined file can never be
 * offered as support, however the caller asks. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#define EVIDENCE " d.origin = 'evidence' AND d.status = 'active' "
#define PAGE_COLUMNS "p.id, p.doc_id, p.page_no, d.page_count, d.name, p.bates"

void sw_record_page_release(struct sw_record_page *p)
{
	if (!p)
		return;
	free(p->document);
	free(p->bates);
	memset(p, 0, sizeof(*p));
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? sw_xstrdup((const char *)s) : NULL;
}

static void read_page(struct sw_record_page *out, sqlite3_stmt *st)
{
	out->id = sqlite3_column_int64(st, 0);
	out->doc_id = sqlite3_column_int64(st, 1);
	out->page_no = (uint32_t)sqlite3_column_int64(st, 2);
	out->page_count = (uint32_t)sqlite3_column_int64(st, 3);
	out->document = col_str(st, 4);
	out->bates = col_str(st, 5);
}

/* A read query: prepared once per open matter and kept by its SQL text
 * (every caller passes a literal, whose address names it), so that the
 * verifier's thousands of page look-ups do not parse the same SQL each
 * time.  A query already in use (a nested call) gets a statement of its
 * own.  Give it back with done(). */
static int prepare(sqlite3_stmt **st, struct sw_matter *m, const char *sql,
		   struct sw_err *err)
{
	size_t free_slot = SW_ARRAY_LEN(m->queries);
	for (size_t i = 0; i < SW_ARRAY_LEN(m->queries); i++) {
		if (m->queries[i].sql == sql && !m->queries[i].busy) {
			m->queries[i].busy = true;
			*st = m->queries[i].st;
			return 0;
		}
		if (!m->queries[i].sql && free_slot == SW_ARRAY_LEN(m->queries))
			free_slot = i;
	}
	if (sqlite3_prepare_v2(m->db, sql, -1, st, NULL) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return sw__record_sqlerr(err, m->db, "cannot read the record");
	}
	if (free_slot < SW_ARRAY_LEN(m->queries)) {
		m->queries[free_slot].sql = sql;
		m->queries[free_slot].st = *st;
		m->queries[free_slot].busy = true;
	}
	return 0;
}

/* Give a statement of prepare() back: reset for its next use, or
 * finalized when it was one of its own. */
static void done(struct sw_matter *m, sqlite3_stmt *st)
{
	for (size_t i = 0; st && i < SW_ARRAY_LEN(m->queries); i++)
		if (m->queries[i].st == st) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			m->queries[i].busy = false;
			return;
		}
	sqlite3_finalize(st);
}

/* Step st once into out: 0, SW_ENOTFOUND (message what), or SW_EDB. */
static int one_page(struct sw_record_page *out, struct sw_matter *m, sqlite3_stmt *st,
		    const char *what, struct sw_err *err)
{
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		read_page(out, st);
		return 0;
	}
	if (s == SQLITE_DONE)
		return sw_err_set(err, SW_ENOTFOUND, "%s", what);
	return sw__record_sqlerr(err, m->db, "cannot read the record");
}

int sw_record_page_by_bates(struct sw_record_page *out, struct sw_matter *m,
			    const char *prefix, uint64_t num, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	if (num > INT64_MAX)
		return sw_err_set(err, SW_ENOTFOUND, "no page is numbered %s%llu", prefix,
				  (unsigned long long)num);
	if ((rc = prepare(&st, m,
			  "SELECT " PAGE_COLUMNS " FROM pages AS p JOIN documents AS d ON d.id = p.doc_id"
			  " WHERE p.bates_prefix = ?1 AND p.bates_num = ?2 AND" EVIDENCE
			  " ORDER BY p.id LIMIT 1", err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)num);
	rc = one_page(out, m, st, "no evidence page has that Bates number", err);
	done(m, st);
	return rc;
}

int sw_record_bates_count(uint64_t *out, struct sw_matter *m, const char *prefix,
			  uint64_t first, uint64_t last, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	*out = 0;
	if (first > INT64_MAX || last > INT64_MAX || last < first)
		return 0;
	if ((rc = prepare(&st, m,
			  "SELECT count(DISTINCT p.bates_num) FROM pages AS p"
			  " JOIN documents AS d ON d.id = p.doc_id"
			  " WHERE p.bates_prefix = ?1 AND p.bates_num BETWEEN ?2 AND ?3 AND" EVIDENCE,
			  err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)first);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)last);
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = (uint64_t)sqlite3_column_int64(st, 0);
	else
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
	done(m, st);
	return rc;
}

/* Prepared once per open matter (prepare()): the verifier asks this for
 * every Bates citation of a draft. */
int sw_record_bates_lookup(uint64_t *have, struct sw_record_page *first, struct sw_matter *m,
			   const struct sw_bates_ref *ref, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	*have = 0;
	if (first)
		memset(first, 0, sizeof(*first));
	if (ref->first > INT64_MAX || ref->last > INT64_MAX || ref->last < ref->first)
		return 0;
	struct sw__record_cached_bates *cb = sw__record_cached_bates(m, ref);
	if (cb && cb->used && (cb->first_known || !first)) {
		*have = cb->have;
		if (first && cb->page.id)
			sw__record_page_copy(first, &cb->page);
		return 0;
	}
	if ((rc = prepare(&st, m,
			  "SELECT count(DISTINCT p.bates_num), min(p.bates_num) FROM pages AS p"
			  " JOIN documents AS d ON d.id = p.doc_id WHERE p.bates_prefix = ?1"
			  " AND p.bates_num BETWEEN ?2 AND ?3 AND" EVIDENCE,
			  err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, ref->prefix, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)ref->first);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)ref->last);
	int64_t lowest = -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*have = (uint64_t)sqlite3_column_int64(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			lowest = sqlite3_column_int64(st, 1);
	} else {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
	}
	done(m, st);
	if (rc == 0 && first && lowest >= 0) {
		rc = sw_record_page_by_bates(first, m, ref->prefix, (uint64_t)lowest, err);
		if (rc == SW_ENOTFOUND) /* gone between the two reads */
			rc = 0;
	}
	if (rc == 0 && cb) {
		free(cb->page.document);
		free(cb->page.bates);
		memset(&cb->page, 0, sizeof(cb->page));
		cb->used = true;
		memcpy(cb->prefix, ref->prefix, sizeof(cb->prefix));
		cb->first = ref->first;
		cb->last = ref->last;
		cb->have = *have;
		cb->first_known = first != NULL;
		if (first && first->id)
			sw__record_page_copy(&cb->page, first);
	}
	return rc;
}

int sw_record_doc_by_label(struct sw_record_page *out, struct sw_matter *m,
			   const char *label, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	char *norm = sw_label_normalize(label);
	if ((rc = prepare(&st, m,
			  "SELECT " PAGE_COLUMNS " FROM labels AS l"
			  " JOIN documents AS d ON d.id = l.doc_id"
			  " JOIN pages AS p ON p.doc_id = d.id AND p.page_no = 1"
			  " WHERE l.norm = ?1 AND" EVIDENCE, err)) == 0) {
		sqlite3_bind_text(st, 1, norm, -1, SQLITE_STATIC);
		rc = one_page(out, m, st, "no label names an evidence document so", err);
	}
	done(m, st);
	free(norm);
	return rc;
}

int sw_record_doc_page(struct sw_record_page *out, struct sw_matter *m,
		       int64_t doc_id, uint32_t page_no, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	if ((rc = prepare(&st, m,
			  "SELECT " PAGE_COLUMNS " FROM pages AS p JOIN documents AS d ON d.id = p.doc_id"
			  " WHERE p.doc_id = ?1 AND p.page_no = ?2 AND" EVIDENCE, err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, doc_id);
	sqlite3_bind_int64(st, 2, page_no);
	rc = one_page(out, m, st, "the document has no such page", err);
	done(m, st);
	return rc;
}

int sw_record_transcript_lines(uint32_t *found, struct sw_record_page *page,
			       struct sw_matter *m, int64_t doc_id,
			       uint32_t tr_page, uint32_t first, uint32_t last,
			       struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	*found = 0;
	if (page)
		memset(page, 0, sizeof(*page));
	if ((rc = prepare(&st, m,
			  "SELECT " PAGE_COLUMNS ", t.line FROM transcript_lines AS t"
			  " JOIN pages AS p ON p.id = t.page_id"
			  " JOIN documents AS d ON d.id = t.doc_id"
			  " WHERE t.doc_id = ?1 AND t.tr_page = ?2 AND t.line BETWEEN ?3 AND ?4 AND"
			  EVIDENCE " ORDER BY t.line", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, doc_id);
	sqlite3_bind_int64(st, 2, tr_page);
	sqlite3_bind_int64(st, 3, first);
	sqlite3_bind_int64(st, 4, last);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		if (*found == 0 && page)
			read_page(page, st);
		(*found)++;
	}
	if (s != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
	done(m, st);
	return rc;
}

int sw_record_page_text(struct sw_buf *out, struct sw_matter *m, int64_t id,
			struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	sw_buf_reset(out);
	struct sw__record_cached_page *c = sw__record_cached(m, id);
	if (c && c->have_text) {
		sw_buf_add(out, c->text, c->len);
		return 0;
	}
	if ((rc = prepare(&st, m,
			  "SELECT p.text FROM pages AS p JOIN documents AS d ON d.id = p.doc_id"
			  " WHERE p.id = ?1 AND" EVIDENCE, err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW)
		sw_buf_add(out, sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
	else if (s == SQLITE_DONE)
		rc = sw_err_set(err, SW_ENOTFOUND, "no evidence page %lld", (long long)id);
	else
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
	done(m, st);
	if (rc == 0 && c) {
		c->text = sw_xmalloc(out->len + 1);
		memcpy(c->text, out->data ? out->data : "", out->len);
		c->text[out->len] = '\0';
		c->len = out->len;
		c->have_text = true;
	}
	return rc;
}

int sw_record_find_pages(int64_t **out, size_t *n, struct sw_matter *m,
			 const char *const *phrases, size_t nphrases,
			 size_t limit, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	struct sw_buf q = SW_BUF_INIT;
	size_t cap = 0;
	int rc = 0;
	*out = NULL;
	*n = 0;
	/* Each phrase becomes one FTS5 string: only letters, digits and bytes
	 * of multibyte characters survive, so nothing in it is FTS5 syntax. */
	for (size_t i = 0; i < nphrases; i++) {
		struct sw_buf ph = SW_BUF_INIT;
		for (const char *p = phrases[i]; *p; p++) {
			unsigned char c = (unsigned char)*p;
			bool word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
				    (c >= 'A' && c <= 'Z') || c >= 0x80;
			if (word)
				sw_buf_addc(&ph, (char)c);
			else if (ph.len && ph.data[ph.len - 1] != ' ')
				sw_buf_addc(&ph, ' ');
		}
		while (ph.len && ph.data[ph.len - 1] == ' ')
			ph.data[--ph.len] = '\0';
		if (ph.len) {
			size_t pl = strlen(phrases[i]);
			bool prefix = pl && phrases[i][pl - 1] == '*';
			if (q.len)
				sw_buf_adds(&q, " OR ");
			sw_buf_addf(&q, "\"%s\"%s", ph.data, prefix ? " *" : "");
		}
		sw_buf_release(&ph);
	}
	if (q.len == 0 || limit == 0)
		goto cleanup;
	if ((rc = prepare(&st, m,
			  "SELECT p.id FROM pages_fts JOIN pages AS p ON p.id = pages_fts.rowid"
			  " JOIN documents AS d ON d.id = p.doc_id"
			  " WHERE pages_fts MATCH ?1 AND" EVIDENCE " ORDER BY p.id LIMIT ?2", err)) != 0)
		goto cleanup;
	sqlite3_bind_text(st, 1, q.data, (int)q.len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, limit > INT64_MAX ? INT64_MAX : (sqlite3_int64)limit);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sw_xgrow(*out, &cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (s != SQLITE_DONE)
		rc = sw__record_sqlerr(err, m->db, "cannot search the record");
cleanup:
	done(m, st);
	sw_buf_release(&q);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int sw_record_bates_summary(char **out, struct sw_matter *m, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	struct sw_buf b = SW_BUF_INIT;
	int rc;
	*out = NULL;
	/* The first and last numbered pages of each prefix, by number. */
	if ((rc = prepare(&st, m,
			  "SELECT (SELECT p2.bates FROM pages AS p2 WHERE p2.bates_prefix = x.prefix"
			  "          AND p2.bates_num = x.lo LIMIT 1),"
			  "       (SELECT p3.bates FROM pages AS p3 WHERE p3.bates_prefix = x.prefix"
			  "          AND p3.bates_num = x.hi LIMIT 1)"
			  " FROM (SELECT p.bates_prefix AS prefix, min(p.bates_num) AS lo,"
			  "         max(p.bates_num) AS hi FROM pages AS p"
			  "       JOIN documents AS d ON d.id = p.doc_id"
			  "       WHERE p.bates_num IS NOT NULL AND" EVIDENCE
			  "       GROUP BY p.bates_prefix) AS x ORDER BY x.prefix", err)) != 0)
		return rc;
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *lo = (const char *)sqlite3_column_text(st, 0);
		const char *hi = (const char *)sqlite3_column_text(st, 1);
		if (b.len)
			sw_buf_adds(&b, ", ");
		/* An en dash between the ends: a hyphen would read as part of a
		 * Bates number ("BLT-000001-BLT-000012"). */
		if (lo && hi && strcmp(lo, hi) != 0)
			sw_buf_addf(&b, "%s\xe2\x80\x93%s", lo, hi);
		else
			sw_buf_adds(&b, lo ? lo : hi ? hi : "?");
	}
	if (s != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
		sw_buf_release(&b);
	} else {
		*out = sw_buf_detach(&b, NULL);
	}
	done(m, st);
	return rc;
}

int sw_record_page_by_id(struct sw_record_page *out, struct sw_matter *m,
			 int64_t id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	struct sw__record_cached_page *c = sw__record_cached(m, id);
	if (c && c->have_page) {
		sw__record_page_copy(out, &c->page);
		return 0;
	}
	if ((rc = prepare(&st, m,
			  "SELECT " PAGE_COLUMNS " FROM pages AS p JOIN documents AS d ON d.id = p.doc_id"
			  " WHERE p.id = ?1 AND" EVIDENCE, err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = one_page(out, m, st, "no such evidence page", err);
	done(m, st);
	if (rc == 0 && c) {
		sw__record_page_copy(&c->page, out);
		c->have_page = true;
	}
	return rc;
}

/* ------------------------------------------------ series, labels, lines */

void sw_record_series_free(struct sw_record_series *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		free(s[i].prefix);
		free(s[i].first);
		free(s[i].last);
	}
	free(s);
}

int sw_record_bates_series(struct sw_record_series **out, size_t *n, struct sw_matter *m,
			   struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if ((rc = prepare(&st, m,
			  "SELECT x.prefix, x.lo, x.hi, x.numbers,"
			  " (SELECT p2.bates FROM pages AS p2 WHERE p2.bates_prefix = x.prefix"
			  "    AND p2.bates_num = x.lo LIMIT 1),"
			  " (SELECT p3.bates FROM pages AS p3 WHERE p3.bates_prefix = x.prefix"
			  "    AND p3.bates_num = x.hi LIMIT 1)"
			  " FROM (SELECT p.bates_prefix AS prefix, min(p.bates_num) AS lo,"
			  "        max(p.bates_num) AS hi, count(DISTINCT p.bates_num) AS numbers"
			  "       FROM pages AS p JOIN documents AS d ON d.id = p.doc_id"
			  "       WHERE p.bates_num IS NOT NULL AND" EVIDENCE
			  "       GROUP BY p.bates_prefix) AS x ORDER BY x.prefix", err)) != 0)
		return rc;
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sw_xgrow(*out, &cap, *n + 1, sizeof(**out));
		struct sw_record_series *r = &(*out)[(*n)++];
		r->prefix = col_str(st, 0);
		if (!r->prefix)
			r->prefix = sw_xstrdup("");
		r->lo = (uint64_t)sqlite3_column_int64(st, 1);
		r->hi = (uint64_t)sqlite3_column_int64(st, 2);
		r->numbers = (uint64_t)sqlite3_column_int64(st, 3);
		r->first = col_str(st, 4);
		r->last = col_str(st, 5);
	}
	if (s != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
		sw_record_series_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	done(m, st);
	return rc;
}

int sw_record_bates_first_missing(uint64_t *out, struct sw_matter *m, const char *prefix,
				  uint64_t first, uint64_t last, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;
	*out = 0;
	if (first > INT64_MAX - 1 || last > INT64_MAX - 1 || last < first)
		return 0;
	/* first itself, else the number after the lowest present one whose
	 * successor is absent. */
	if ((rc = prepare(&st, m,
			  "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pages AS p"
			  "   JOIN documents AS d ON d.id = p.doc_id"
			  "   WHERE p.bates_prefix = ?1 AND p.bates_num = ?2 AND" EVIDENCE ") THEN ?2"
			  " ELSE (SELECT min(p.bates_num) + 1 FROM pages AS p"
			  "   JOIN documents AS d ON d.id = p.doc_id"
			  "   WHERE p.bates_prefix = ?1 AND p.bates_num BETWEEN ?2 AND ?3 - 1 AND" EVIDENCE
			  "   AND NOT EXISTS (SELECT 1 FROM pages AS q JOIN documents AS e ON e.id = q.doc_id"
			  "     WHERE q.bates_prefix = ?1 AND q.bates_num = p.bates_num + 1"
			  "     AND e.origin = 'evidence' AND e.status = 'active')) END", err)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)first);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)last);
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = (uint64_t)sqlite3_column_int64(st, 0);
	else
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
	done(m, st);
	return rc;
}

void sw_record_labels_free(struct sw_record_label *l, size_t n)
{
	for (size_t i = 0; l && i < n; i++) {
		free(l[i].label);
		free(l[i].norm);
	}
	free(l);
}

int sw_record_labels(struct sw_record_label **out, size_t *n, struct sw_matter *m,
		     size_t limit, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if ((rc = prepare(&st, m,
			  "SELECT l.label, l.norm, l.doc_id FROM labels AS l"
			  " JOIN documents AS d ON d.id = l.doc_id WHERE" EVIDENCE
			  " ORDER BY l.norm LIMIT ?1", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, limit > INT64_MAX ? INT64_MAX : (sqlite3_int64)limit);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sw_xgrow(*out, &cap, *n + 1, sizeof(**out));
		struct sw_record_label *l = &(*out)[(*n)++];
		l->label = col_str(st, 0);
		l->norm = col_str(st, 1);
		if (!l->label)
			l->label = sw_xstrdup("");
		if (!l->norm)
			l->norm = sw_xstrdup("");
		l->doc_id = sqlite3_column_int64(st, 2);
	}
	if (s != SQLITE_DONE) {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
		sw_record_labels_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	done(m, st);
	return rc;
}

int sw_record_page_lines(struct sw_record_tline **out, size_t *n, struct sw_matter *m,
			 int64_t page_id, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	struct sw__record_cached_page *c = sw__record_cached(m, page_id);
	if (c && c->have_lines) {
		if (c->nlines) {
			*out = sw_xmalloc(c->nlines * sizeof(**out));
			memcpy(*out, c->lines, c->nlines * sizeof(**out));
		}
		*n = c->nlines;
		return 0;
	}
	if ((rc = prepare(&st, m,
			  "SELECT t.tr_page, t.line, t.start, t.end FROM transcript_lines AS t"
			  " JOIN documents AS d ON d.id = t.doc_id"
			  " WHERE t.page_id = ?1 AND" EVIDENCE " ORDER BY t.tr_page, t.line", err)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, page_id);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW && *n < 4096) {
		sqlite3_int64 a = sqlite3_column_int64(st, 2), b = sqlite3_column_int64(st, 3);
		if (a < 0 || b < a)
			continue;
		*out = sw_xgrow(*out, &cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = (struct sw_record_tline){
			.tr_page = (uint32_t)sqlite3_column_int64(st, 0),
			.line = (uint32_t)sqlite3_column_int64(st, 1),
			.start = (size_t)a,
			.end = (size_t)b,
		};
	}
	if (s != SQLITE_DONE && s != SQLITE_ROW) {
		rc = sw__record_sqlerr(err, m->db, "cannot read the record");
		free(*out);
		*out = NULL;
		*n = 0;
	}
	done(m, st);
	if (rc == 0 && c) {
		if (*n) {
			c->lines = sw_xmalloc(*n * sizeof(**out));
			memcpy(c->lines, *out, *n * sizeof(**out));
		}
		c->nlines = *n;
		c->have_lines = true;
	}
	return rc;
}
