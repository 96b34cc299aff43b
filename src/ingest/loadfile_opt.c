/* loadfile_opt.c - a load file's .OPT against its .DAT: where each row's
 * pages are, where each document must end (the DocBreaks set once, in one
 * linear pass), and the page images marked as used.  Helpers of
 * loadfile.c and qc.c, which call here and never back. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest_int.h"

const char *sw__ingest_load_value(const struct sw_dat_record *r, int col)
{
	return col >= 0 && r->values[col] ? r->values[col] : "";
}

/* Where each document starts in the .OPT, by its first page's key (the
 * .OPT's index), and its pages up to the next DocBreak, which
 * sw__ingest_load_bound has set wherever a document must end. */
bool sw__ingest_load_opt_pages(struct sw__ingest_opt_pages *out, const struct sw_opt *o,
			       const char *beg)
{
	size_t i = sw_opt_find(o, beg);
	if (i == SIZE_MAX)
		return false;
	out->first = i;
	out->count = sw_opt_next_break(o, i + 1) - i;
	return true;
}

/* Mark the image files the .OPT names as used (sworn does not read page
 * images; the walk must not report each as a file it cannot read), and
 * note in the QC report each document the .OPT starts that no row begins.  A
 * missing or refused image costs nothing but a line of the QC report: its
 * page comes from the text. */
void sw__ingest_load_images(struct sw__ingest_load *L)
{
	struct sw_opt_range rg = { 0 };
	struct sw_err err = { 0 };
	/* A million page images named in another case would cost a folder
	 * search each; images are not read, so exact names will do.  The
	 * pages are read again a block at a time (memory stays bounded). */
	L->vol.exact = true;
	for (size_t at = 0; at < L->opt.n; at += rg.n) {
		if (sw_opt_read(&rg, &L->opt, at, 4096, &err) != 0) {
			sw__ingest_event(L->in, SW_INGEST_WARNING, L->dat_name, "%s", err.msg);
			break;
		}
		for (size_t i = 0; i < rg.n; i++) {
			const char *img = rg.pages[i].image;
			char *real = NULL;
			struct sw_err e = { 0 };
			const struct sw_opt_page *pg = &rg.pages[i];
			if (pg->doc_break && pg->key && sw_opt_find(&L->opt, pg->key) == SIZE_MAX)
				sw_qc_add(&L->qc.v, SW_QC_DAT_OPT, 0, pg->key,
					  "the .OPT's line %d starts a document that no row of the"
					  " .DAT begins", pg->line);
			if (!img || !img[0])
				sw_qc_add(&L->qc.v, SW_QC_NO_IMAGE, 0, pg->key,
					  "the .OPT's line %d names no image", pg->line);
			else if (sw__ingest_volume_resolve(&real, &L->vol, img, &e) == 0) {
				sw__ingest_consume_real(L->in, real);
				L->qc.v.images++;
			} else
				sw_qc_add(&L->qc.v, SW_QC_NO_IMAGE, 0, pg->key,
					  "the .OPT's line %d names '%s': %s", pg->line, img,
					  e.msg);
			free(real);
		}
	}
	sw_opt_range_release(&rg);
	L->vol.exact = false;
}

/* ENDBATES as a Bates number closing the range BEGBATES opens, or false. */
bool sw__ingest_load_end(struct sw_bates *end, const struct sw_bates *beg, const char *ends)
{
	return ends[0] && sw_bates_parse(end, ends, strlen(ends)) == 0 &&
	       strcmp(end->prefix, beg->prefix) == 0 && end->number >= beg->number &&
	       end->number - beg->number < SW_RECORD_MAX_PAGES;
}

/* Rows by the index of their first page in the .OPT. */
struct row_first {
	size_t first, row;
};

static int cmp_row_first(const void *a, const void *b)
{
	const struct row_first *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* Where each row's pages end in the .OPT: at the first of the next page
 * with DocBreak, the next page that is a row's BEGBATES and the page after
 * its ENDBATES (when ENDBATES is no key of the .OPT: as many pages as its
 * range holds), at most SW_RECORD_MAX_PAGES.  Without this an .OPT with no
 * DocBreak flags gave each document every later page.  Each end is marked
 * as a DocBreak of L->opt, so every lookup (sw__ingest_load_opt_pages) sees the same
 * range; a disagreement of the .OPT and ENDBATES is reported.  Memory by
 * rows, not pages: the rows sorted by first page give each its next start,
 * and each first page's natural end is found once (the rows' ranges do not
 * overlap, and no end marked falls inside another row's walk). */
void sw__ingest_load_bound(struct sw__ingest_load *L)
{
	struct sw_opt *o = &L->opt;
	size_t n = o->n, nr = L->dat.nrecords, m = 0;
	if (!n || !nr)
		return;
	struct row_first *rf = sw_xmalloc(nr * sizeof(*rf));
	size_t *natural = sw_xmalloc(nr * sizeof(*natural)); /* by row; SIZE_MAX: not in it */
	L->too_long = sw_xcalloc(nr, sizeof(*L->too_long));
	for (size_t i = 0; i < nr; i++) {
		const struct sw_dat_record *r = &L->dat.records[i];
		const char *begs = r->error ? "" : sw__ingest_load_value(r, L->c_beg);
		size_t f = begs[0] ? sw_opt_find(o, begs) : SIZE_MAX;
		natural[i] = SIZE_MAX;
		if (f != SIZE_MAX)
			rf[m++] = (struct row_first){ f, i };
	}
	qsort(rf, m, sizeof(*rf), cmp_row_first);
	for (size_t j = 0; j < m;) {
		size_t g = j; /* rows j..g-1 share a first page */
		while (g < m && rf[g].first == rf[j].first)
			g++;
		size_t k = sw_opt_next_break(o, rf[j].first + 1);
		if (g < m && rf[g].first < k)
			k = rf[g].first;
		for (; j < g; j++)
			natural[rf[j].row] = k;
	}
	free(rf);
	for (size_t i = 0; i < nr; i++) {
		if (natural[i] == SIZE_MAX)
			continue;
		const struct sw_dat_record *r = &L->dat.records[i];
		const char *begs = sw__ingest_load_value(r, L->c_beg);
		const char *ends = sw__ingest_load_value(r, L->c_end);
		size_t b = sw_opt_find(o, begs), k = natural[i], e = k;
		struct sw_bates beg, end;
		if (sw_bates_parse(&beg, begs, strlen(begs)) == 0 &&
		    sw__ingest_load_end(&end, &beg, ends)) {
			size_t ek = sw_opt_find(o, ends);
			size_t want = ek != SIZE_MAX && ek >= b ? ek + 1 - b
				    : (size_t)(end.number - beg.number + 1);
			if (want != k - b) {
				char what[160];
				struct sw_opt_range last = { 0 };
				struct sw_err e2 = { 0 };
				snprintf(what, sizeof(what), "%s:%d %s", L->dat_name, r->line,
					 begs);
				bool ok = sw_opt_read(&last, o, k - 1, 1, &e2) == 0 && last.n == 1;
				sw__ingest_event(
					L->in, SW_INGEST_WARNING, what,
					"the .OPT gives %zu page(s) from %s to %s, ENDBATES %s"
					" %zu; the document ends at the first",
					k - b, begs, ok ? last.pages[0].key : "?", ends, want);
				sw_qc_add(&L->qc.v, SW_QC_DAT_OPT, r->line, begs,
					  "the .OPT gives %zu page(s) (%s to %s), ENDBATES %s %zu",
					  k - b, begs, ok ? last.pages[0].key : "?", ends, want);
				sw_opt_range_release(&last);
			}
			if (want < k - b)
				e = b + want;
		}
		if (e - b > SW_RECORD_MAX_PAGES) {
			L->too_long[i] = true;
			e = b + SW_RECORD_MAX_PAGES;
		}
		sw_opt_set_doc_break(o, b);
		if (e < n)
			sw_opt_set_doc_break(o, e);
	}
	if (!o->nbreaks && n > 1)
		sw__ingest_event(L->in, SW_INGEST_WARNING, L->dat_name,
				 "the .OPT marks no document breaks (DocBreak): each document ends"
				 " at its ENDBATES or the next row's BEGBATES");
	free(natural);
}
