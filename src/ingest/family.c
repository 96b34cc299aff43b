/* family.c - a load file's families: each row's own keys (its Bates
 * number, its DOCID) and its parent's (BEGATTACH, ATTACHRANGE,
 * PARENT_DOCID), linked through documents.parent_id once every row is
 * stored, since rows may come in any order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest_int.h"

/* "B:PREFIX:number" for a Bates number in any spelling, or NULL. */
static char *bates_key(const char *s)
{
	struct sw_bates_ref r;
	if (sw_bates_ref_parse(&r, s, strlen(s)) != 0)
		return NULL;
	return sw_xasprintf("B:%s:%llu", r.prefix, (unsigned long long)r.first);
}

/* Note the row's keys and the keys of its parent, when it names one. */
void sw__ingest_family_note(struct sw__ingest_load *L, const struct sw_dat_record *r,
			    int64_t id, const struct sw_bates *beg)
{
	const char *ba = sw__ingest_load_value(r, L->c_begattach);
	const char *range = sw__ingest_load_value(r, L->c_range);
	const char *parent = sw__ingest_load_value(r, L->c_parent);
	const char *docid = sw__ingest_load_value(r, L->c_docid);
	char canon[SW_BATES_CANON_MAX];
	struct sw__ingest_family f = { .id = id, .line = r->line,
				       .begs = sw__ingest_load_value(r, L->c_beg) };

	sw_bates_canon_prefix(canon, beg->prefix, strlen(beg->prefix));
	f.self[0] = sw_xasprintf("B:%s:%llu", canon, (unsigned long long)beg->number);
	f.named = ba[0] ? ba : range[0] ? range : parent;
	if (docid[0])
		f.self[1] = sw_xasprintf("D:%s", docid);
	if (ba[0]) {
		f.parent[0] = bates_key(ba);
		if (!f.parent[0])
			f.parent[0] = sw_xasprintf("D:%s", ba);
	} else if (range[0]) {
		/* The family's first number: the range up to its separator. */
		struct sw_bates_ref rr;
		if (sw_bates_ref_parse(&rr, range, strlen(range)) == 0)
			f.parent[0] =
				sw_xasprintf("B:%s:%llu", rr.prefix, (unsigned long long)rr.first);
		else
			f.parent[0] = bates_key(range);
	} else if (parent[0]) {
		f.parent[0] = sw_xasprintf("D:%s", parent);
		f.parent[1] = bates_key(parent);
	}
	/* The first document of a family is its parent: nothing to link. */
	for (int i = 0; i < 2; i++)
		if (f.parent[i] && (!strcmp(f.parent[i], f.self[0]) ||
				    (f.self[1] && !strcmp(f.parent[i], f.self[1])))) {
			free(f.parent[0]);
			free(f.parent[1]);
			f.parent[0] = f.parent[1] = NULL;
		}
	L->fam = sw_xgrow(L->fam, &L->capfam, L->nfam + 1, sizeof(*L->fam));
	L->fam[L->nfam++] = f;
}

struct key_id {
	const char *key;
	int64_t id;
};

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct key_id *)a)->key, ((const struct key_id *)b)->key);
}

/* Link every attachment of the load file to its parent, in one transaction
 * (families are found in the file, rows may come in any order). */
int sw__ingest_family_link(struct sw__ingest_load *L, struct sw_err *err)
{
	struct key_id *keys = NULL;
	struct sw_record_link *links = NULL;
	size_t nkeys = 0, nlinks = 0, lost = 0;
	bool any = false;
	int rc = 0;

	for (size_t i = 0; i < L->nfam && !any; i++)
		any = L->fam[i].parent[0] || L->fam[i].parent[1];
	if (!any)
		return 0;
	keys = sw_xcalloc(2 * L->nfam, sizeof(*keys));
	links = sw_xcalloc(L->nfam, sizeof(*links));
	for (size_t i = 0; i < L->nfam; i++)
		for (int k = 0; k < 2; k++)
			if (L->fam[i].self[k])
				keys[nkeys++] = (struct key_id){ L->fam[i].self[k], L->fam[i].id };
	qsort(keys, nkeys, sizeof(*keys), cmp_key);
	for (size_t i = 0; i < L->nfam; i++) {
		const struct sw__ingest_family *f = &L->fam[i];
		const struct key_id *hit = NULL;
		for (int k = 0; k < 2 && !hit; k++) {
			struct key_id want = { f->parent[k], 0 };
			if (f->parent[k])
				hit = bsearch(&want, keys, nkeys, sizeof(*keys), cmp_key);
		}
		if (!f->parent[0] && !f->parent[1])
			continue;
		if (!hit || hit->id == f->id) {
			lost++;
			sw_qc_add(&L->qc.v, SW_QC_FAMILY, f->line, f->begs,
				  "names the parent '%s', which is no document imported from the "
				  "volume",
				  f->named);
			continue;
		}
		links[nlinks++] = (struct sw_record_link){ .child = f->id, .parent = hit->id };
	}
	if ((rc = sw_record_link_parents(L->in->m, links, nlinks, err)) != 0)
		goto cleanup;
	if (lost)
		sw__ingest_event(
			L->in, SW_INGEST_WARNING, L->dat_name,
			"%zu attachment(s) name a parent that is not a row of the load file;"
			" they are kept unlinked",
			lost);
cleanup:
	free(links);
	free(keys);
	return rc;
}
