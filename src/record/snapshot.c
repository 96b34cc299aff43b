/*
 * snapshot.c - a read transaction around many of the verifier's queries
 * (sw_record_read_begin), and, while it is open, the pages last read by
 * id: nothing changes under a transaction that only reads, so a page read
 * again (a brief cites the same exhibit page paragraph after paragraph,
 * and each claim's rules read it more than once) comes from here, not
 * from SQLite.  query.c asks sw__record_cached() before it reads a page's
 * row, text or transcript lines, and sw__record_cached_bates() before a
 * Bates look-up, and keeps what it read.
 */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

bool sw_record_read_begin(struct sw_matter *m)
{
	if (!sqlite3_get_autocommit(m->db) ||
	    sqlite3_exec(m->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return false;
	m->snapshot = true;
	return true;
}

void sw_record_read_end(struct sw_matter *m)
{
	sw__record_cache_clear(m);
	m->snapshot = false;
	/* a transaction that only read: COMMIT ends it; should it not, the
	 * ROLLBACK does */
	if (!sqlite3_get_autocommit(m->db) &&
	    sqlite3_exec(m->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
}

static void entry_release(struct sw__record_cached_page *c)
{
	/* the page's strings freed here, not by query.c's release: this file
	 * is below query.c, which calls it */
	free(c->page.document);
	free(c->page.bates);
	free(c->text);
	free(c->lines);
	memset(c, 0, sizeof(*c));
}

static void bates_release(struct sw__record_cached_bates *b)
{
	free(b->page.document);
	free(b->page.bates);
	memset(b, 0, sizeof(*b));
}

void sw__record_cache_clear(struct sw_matter *m)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(m->cache); i++)
		entry_release(&m->cache[i]);
	m->cache_next = 0;
	for (size_t i = 0; i < SW_ARRAY_LEN(m->bates_cache); i++)
		bates_release(&m->bates_cache[i]);
	m->bates_next = 0;
}

struct sw__record_cached_bates *sw__record_cached_bates(struct sw_matter *m,
							 const struct sw_bates_ref *ref)
{
	if (!m->snapshot)
		return NULL;
	for (size_t i = 0; i < SW_ARRAY_LEN(m->bates_cache); i++) {
		struct sw__record_cached_bates *b = &m->bates_cache[i];
		if (b->used && b->first == ref->first && b->last == ref->last &&
		    strcmp(b->prefix, ref->prefix) == 0)
			return b;
	}
	struct sw__record_cached_bates *b = &m->bates_cache[m->bates_next];
	m->bates_next = (m->bates_next + 1) % SW_ARRAY_LEN(m->bates_cache);
	bates_release(b);
	return b;
}

struct sw__record_cached_page *sw__record_cached(struct sw_matter *m, int64_t id)
{
	if (!m->snapshot || id <= 0)
		return NULL;
	for (size_t i = 0; i < SW_ARRAY_LEN(m->cache); i++)
		if (m->cache[i].id == id)
			return &m->cache[i];
	/* the oldest entry makes way */
	struct sw__record_cached_page *c = &m->cache[m->cache_next];
	m->cache_next = (m->cache_next + 1) % SW_ARRAY_LEN(m->cache);
	entry_release(c);
	c->id = id;
	return c;
}

void sw__record_page_copy(struct sw_record_page *out, const struct sw_record_page *p)
{
	*out = *p;
	out->document = p->document ? sw_xstrdup(p->document) : NULL;
	out->bates = p->bates ? sw_xstrdup(p->bates) : NULL;
}
