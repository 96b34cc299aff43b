/* qc.c - production QC of a load-file volume as it is imported: what a
 * litigation-support team checks in every incoming volume before writing
 * to the producing party (Bates gaps and overlaps, duplicates, the DAT and
 * the OPT that disagree, missing text, images and natives, page counts,
 * dates that are not dates, text that needed a fallback encoding, broken
 * families), each finding naming the DAT line and Bates number concerned.
 *
 * Findings that need no file come from one pass over the rows once the
 * .OPT is bounded (sw__ingest_qc_rows); loadfile.c, loadfile_opt.c and
 * family.c add the rest as they meet it, whether a document is stored or
 * found already stored, so that importing a volume again gives the same
 * report.  record/ keeps it (sw_record_qc_save). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest_int.h"

void sw__ingest_qc_start(struct sw__ingest_load *L, const char *opt)
{
	struct sw__ingest_qc *q = &L->qc;
	char *root = sw__ingest_volume_root_for(L->dat_path);
	q->v.name = sw_xstrdup(sw_path_base(root));
	free(root);
	q->v.dat = sw_xstrdup(L->dat_path);
	q->v.opt = opt ? sw_xstrdup(opt) : NULL;
	q->nrows = L->dat.nrecords;
	q->rows = sw_xcalloc(q->nrows ? q->nrows : 1, sizeof(*q->rows));
}

void sw__ingest_qc_release(struct sw__ingest_qc *q)
{
	sw_qc_volume_release(&q->v);
	free(q->rows);
	memset(q, 0, sizeof(*q));
}

/* The row's dates that are not dates: every column that holds a date field
 * (date_col) with a value sw_date_normalize cannot read. */
static void check_dates(struct sw__ingest_load *L, const struct sw_dat_record *r,
			const bool *date_col, const char *begs)
{
	for (size_t c = 0; c < L->dat.nfields; c++) {
		const char *v = date_col[c] ? r->values[c] : NULL;
		char day[SW_DATE_LEN + 1];
		if (v && v[0] && !sw_date_normalize(day, v, strlen(v)))
			sw_qc_add(&L->qc.v, SW_QC_BAD_DATE, r->line, begs,
				  "%s '%.80s' is not a date", L->dat.names[c], v);
	}
}

/* One row's checks that need no file; its Bates range as far as the .DAT
 * and the .OPT give it (load_row sets it again when it knows the pages). */
static void check_row(struct sw__ingest_load *L, size_t i, const bool *date_col)
{
	const struct sw_dat_record *r = &L->dat.records[i];
	struct sw__ingest_qc_row *row = &L->qc.rows[i];
	struct sw_qc_volume *v = &L->qc.v;

	if (r->error) {
		sw_qc_add(v, SW_QC_BAD_ROW, r->line, NULL, "%s", r->error);
		return;
	}
	v->documents++;
	const char *begs = sw__ingest_load_value(r, L->c_beg);
	const char *ends = sw__ingest_load_value(r, L->c_end);
	if (r->warning)
		sw_qc_add(v, SW_QC_ENCODING, r->line, begs, "%s", r->warning);
	check_dates(L, r, date_col, begs);
	if (!begs[0]) {
		sw_qc_add(v, SW_QC_BAD_ROW, r->line, NULL, "no BEGBATES value");
		return;
	}
	if (sw_bates_parse(&row->beg, begs, strlen(begs)) != 0) {
		sw_qc_add(v, SW_QC_BAD_ROW, r->line, begs, "BEGBATES '%s' is not a Bates number",
			  begs);
		return;
	}
	row->numbered = true;
	sw_bates_canon_prefix(row->canon, row->beg.prefix, strlen(row->beg.prefix));
	row->last = row->beg.number;
	struct sw_bates end;
	bool have_end = sw__ingest_load_end(&end, &row->beg, ends);
	if (ends[0] && !have_end)
		sw_qc_add(v, SW_QC_BAD_ROW, r->line, begs,
			  "ENDBATES '%s' does not close the range BEGBATES '%s' opens", ends, begs);
	struct sw__ingest_opt_pages op;
	if (L->have_opt && sw__ingest_load_opt_pages(&op, &L->opt, begs)) {
		row->last = row->beg.number + (op.count ? op.count - 1 : 0);
		if (L->too_long && L->too_long[i])
			sw_qc_add(v, SW_QC_BAD_ROW, r->line, begs,
				  "the .OPT gives it more than %d pages", SW_RECORD_MAX_PAGES);
	} else {
		if (L->have_opt)
			sw_qc_add(v, SW_QC_DAT_OPT, r->line, begs,
				  "BEGBATES %s is no image key of the .OPT", begs);
		if (have_end)
			row->last = end.number;
	}
}

void sw__ingest_qc_rows(struct sw__ingest_load *L)
{
	struct sw_qc_volume *v = &L->qc.v;
	bool *date_col = sw_xcalloc(L->dat.nfields + 1, sizeof(*date_col));
	for (size_t c = 0; c < L->dat.nfields; c++) {
		int f = sw_doc_field_of_column(L->dat.names[c]);
		date_col[c] = f >= 0 && sw_doc_field_is_date((enum sw_doc_field)f);
	}
	if (L->dat.encoding == SW_DAT_LATIN1)
		sw_qc_add(v, SW_QC_ENCODING, 0, NULL,
			  "the .DAT is not UTF-8: the whole file read as Windows-1252");
	if (L->have_opt && L->opt.ncp1252)
		sw_qc_add(v, SW_QC_ENCODING, 0, NULL,
			  "the .OPT has %zu line(s) not valid UTF-8 (the first: line %d), read as"
			  " Windows-1252", L->opt.ncp1252, L->opt.first_cp1252_line);
	if (L->have_opt && L->opt.nbad)
		sw_qc_add(v, SW_QC_DAT_OPT, 0, NULL,
			  "the .OPT has %zu malformed line(s), the first: %s", L->opt.nbad,
			  L->opt.first_error ? L->opt.first_error : "?");
	for (size_t i = 0; i < L->qc.nrows; i++)
		check_row(L, i, date_col);
	free(date_col);
}

void sw__ingest_qc_pages(struct sw__ingest_load *L, size_t row, size_t pages)
{
	struct sw__ingest_qc_row *r = row < L->qc.nrows ? &L->qc.rows[row] : NULL;
	if (r && r->numbered && pages)
		r->last = r->beg.number + pages - 1;
}

void sw__ingest_qc_hash(struct sw__ingest_load *L, size_t row, const char *sha)
{
	if (row >= L->qc.nrows)
		return;
	snprintf(L->qc.rows[row].sha, sizeof(L->qc.rows[row].sha), "%s", sha);
	L->qc.rows[row].hashed = true;
}

/* A row by what a volume-wide check sorts it on: key (its canonical
 * prefix, or its identity) and number, then the row itself. */
struct sort_key {
	const char *key;
	uint64_t number;
	size_t row;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Gaps and overlaps between the rows' ranges, prefix by prefix. */
static void check_ranges(struct sw__ingest_load *L, struct sort_key *ix)
{
	const struct sw__ingest_qc_row *rows = L->qc.rows;
	size_t n = 0;
	for (size_t i = 0; i < L->qc.nrows; i++)
		if (rows[i].numbered)
			ix[n++] = (struct sort_key){ rows[i].canon, rows[i].beg.number, i };
	qsort(ix, n, sizeof(*ix), cmp_key);
	size_t far = SIZE_MAX; /* the row reaching furthest so far in this prefix */
	for (size_t j = 0; j < n; j++) {
		const struct sw__ingest_qc_row *cur = &rows[ix[j].row];
		const struct sw__ingest_qc_row *prev = far == SIZE_MAX ? NULL : &rows[far];
		int line = L->dat.records[ix[j].row].line;
		char a[96], b[96], pb[96];
		if (prev && strcmp(prev->canon, cur->canon) != 0)
			prev = NULL;
		if (prev)
			sw_bates_format(pb, sizeof(pb), &prev->beg, prev->beg.number);
		if (prev && cur->beg.number > prev->last + 1) {
			sw_bates_format(a, sizeof(a), &cur->beg, prev->last + 1);
			sw_bates_format(b, sizeof(b), &cur->beg, cur->beg.number - 1);
			char range[200];
			snprintf(range, sizeof(range), "%s-%s", a, b);
			sw_qc_add(&L->qc.v, SW_QC_GAP, line, range,
				  "%llu number(s) missing between %s (line %d) and the row at line "
				  "%d",
				  (unsigned long long)(cur->beg.number - prev->last - 1), pb,
				  L->dat.records[far].line, line);
		} else if (prev && cur->beg.number <= prev->last) {
			uint64_t last = cur->last < prev->last ? cur->last : prev->last;
			sw_bates_format(a, sizeof(a), &cur->beg, cur->beg.number);
			sw_bates_format(b, sizeof(b), &cur->beg, last);
			char range[200];
			snprintf(range, sizeof(range), "%s-%s", a, b);
			sw_qc_add(
				&L->qc.v, SW_QC_OVERLAP, line, strcmp(a, b) ? range : a,
				"%llu page(s) claimed by both %s (line %d) and the row at line %d",
				(unsigned long long)(last - cur->beg.number + 1), pb,
				L->dat.records[far].line, line);
		}
		if (!prev || cur->last > prev->last)
			far = ix[j].row;
		L->qc.v.pages += cur->last - cur->beg.number + 1;
	}
}

/* Rows whose documents have the same identity (text, or page images). */
static void check_duplicates(struct sw__ingest_load *L, struct sort_key *ix)
{
	const struct sw__ingest_qc_row *rows = L->qc.rows;
	size_t n = 0;
	for (size_t i = 0; i < L->qc.nrows; i++)
		if (rows[i].hashed)
			ix[n++] = (struct sort_key){ rows[i].sha, 0, i };
	qsort(ix, n, sizeof(*ix), cmp_key);
	for (size_t j = 1, first = 0; j < n; j++) {
		if (strcmp(ix[j].key, ix[first].key) != 0) {
			first = j;
			continue;
		}
		const struct sw_dat_record *r = &L->dat.records[ix[j].row];
		const struct sw_dat_record *o = &L->dat.records[ix[first].row];
		sw_qc_add(&L->qc.v, SW_QC_DUPLICATE, r->line, sw__ingest_load_value(r, L->c_beg),
			  "the same content as %s (line %d)", sw__ingest_load_value(o, L->c_beg),
			  o->line);
	}
}

static int cmp_finding(const void *a, const void *b)
{
	const struct sw_qc_finding *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->bates ? x->bates : "", y->bates ? y->bates : "");
}

int sw__ingest_qc_finish(struct sw__ingest_load *L, const char *sha, struct sw_err *err)
{
	struct sw_qc_volume *v = &L->qc.v;
	struct sort_key *ix = sw_xcalloc(L->qc.nrows + 1, sizeof(*ix));
	check_ranges(L, ix);
	check_duplicates(L, ix);
	free(ix);
	/* By kind, then line: the report's order. */
	if (v->nfindings)
		qsort(v->findings, v->nfindings, sizeof(*v->findings), cmp_finding);
	snprintf(v->sha256, sizeof(v->sha256), "%s", sha);
	int rc = sw_record_qc_save(L->in->m, v, err);
	if (rc == 0 && (v->nfindings || v->unlisted)) {
		struct sw_ingest_summary *s = L->in->sum;
		s->qc_findings += v->nfindings + v->unlisted;
		if (!s->qc_volumes++)
			snprintf(s->qc_volume, sizeof(s->qc_volume), "%s", v->name);
	}
	return rc;
}
