/* loadfile.c - Concordance/Relativity productions: a .DAT of document
 * rows, the extracted text each row's TEXTPATH names (or its native, when
 * that is a PDF, e-mail, .docx or text file), page-level Bates from an .OPT
 * beside it when there is one, and families (BEGATTACH, ATTACHRANGE,
 * PARENT_DOCID) linked through documents.parent_id.  Paths are resolved
 * inside the volume by volume.c; every file a row or the .OPT names is
 * marked as used, so the folder walk does not import it again loose.
 *
 * Page i of a document carries BEGBATES + i, unless the .OPT names each
 * page's number.  The text file is split on form feeds; when it has fewer
 * pages than the Bates range (many vendors write no form feeds), the rest of
 * the range is kept as empty pages so that every produced number exists. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "ingest/ingest_int.h"

/* Column names seen in vendors' load files, most common first. */
static const char *const beg_names[] = { "BEGBATES", "BEGDOC", "BEGNO", "BEG BATES",
	"BEGIN BATES", "BATES BEGIN", "BEGINBATES", "PRODBEG", "PRODBEGBATES", "BEGDOCID", "DOCID",
	"CONTROLNUMBER", "CONTROL NUMBER", NULL };
static const char *const end_names[] = { "ENDBATES", "ENDDOC", "ENDNO", "END BATES",
	"BATES END", "PRODEND", "PRODENDBATES", "ENDDOCID", NULL };
static const char *const text_names[] = { "TEXTPATH", "TEXT PATH", "TEXTLINK",
	"TEXT LINK", "EXTRACTEDTEXT", "EXTRACTED TEXT", "OCRPATH", "TEXT", NULL };
static const char *const native_names[] = { "NATIVEPATH", "NATIVE PATH", "NATIVELINK",
	"NATIVE LINK", "NATIVEFILE", "NATIVE FILE", "NATIVE", "FILEPATH", "FILE PATH", NULL };
/* The first document of the row's family (its parent for an attachment). */
static const char *const begattach_names[] = { "BEGATTACH", "BEG ATTACH", "BEGINATTACH",
	"BEGATTACHMENT", "BEG ATTACHMENT", "ATTACHBEG", "BEGFAMILY", "BEG FAMILY", "FAMILYBEG",
	"PRODBEGATTACH", "BEGATTACHBATES", NULL };
/* The whole family as one range: "ABC0000010-ABC0000015". */
static const char *const attachrange_names[] = { "ATTACHRANGE", "ATTACH RANGE",
	"ATTACHMENT RANGE", "ATTACHMENTRANGE", "FAMILYRANGE", "FAMILY RANGE", NULL };
/* The parent named by its DOCID or Bates number. */
static const char *const parent_names[] = { "PARENT_DOCID", "PARENTDOCID", "PARENT DOCID",
	"PARENTID", "PARENT_ID", "PARENT ID", "PARENTBATES", "PARENT BATES", "PARENT_BATES",
	"PARENT BEGBATES", NULL };
/* A document identifier other than the Bates number, as PARENT_DOCID names it. */
static const char *const docid_names[] = { "DOCID", "DOC ID", "DOCUMENTID", "DOCUMENT ID",
	"CONTROLNUMBER", "CONTROL NUMBER", NULL };

static int column(const struct sw_dat *d, const char *const *names)
{
	for (size_t i = 0; names[i]; i++) {
		int c = sw_dat_field(d, names[i]);
		if (c >= 0)
			return c;
	}
	return -1;
}

static const char *value(const struct sw_dat_record *r, int col)
{
	return col >= 0 && r->values[col] ? r->values[col] : "";
}

struct doc_pages {
	size_t first; /* index of the document's first page in the .OPT */
	size_t count;
};

/* Where each document starts in the .OPT, by its first page's key (the
 * .OPT's index), and its pages up to the next DocBreak, which
 * bound_documents has set wherever a document must end. */
static bool opt_lookup(struct doc_pages *out, const struct sw_opt *o, const char *beg)
{
	size_t i = sw_opt_find(o, beg);
	if (i == SIZE_MAX)
		return false;
	out->first = i;
	out->count = sw_opt_next_break(o, i + 1) - i;
	return true;
}

static char *meta_json(const struct sw_dat *d, const struct sw_dat_record *r,
		       const char *dat_name)
{
	json_t *o = json_object();
	json_object_set_new(o, "load_file", sw_json_str(dat_name));
	json_object_set_new(o, "load_file_line", json_integer(r->line));
	for (size_t c = 0; c < d->nfields; c++)
		if (r->values[c] && r->values[c][0])
			json_object_set_new(o, d->names[c], sw_json_str(r->values[c]));
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s ? s : sw_xstrdup("{}");
}

/* A family link to make once every row is stored: keys are "B:" with a
 * canonical Bates number or "D:" with a DOCID. */
struct family {
	int64_t id;
	char *self[2];    /* the row's own keys */
	char *parent[2];  /* the keys its parent may have; NULL for none */
};

struct load {
	struct sw__ingest *in;
	const char *dat_path;
	const char *dat_name;
	struct sw__ingest_volume vol;
	struct sw_dat dat;
	struct sw_opt opt;
	bool have_opt;
	int c_beg, c_end, c_text, c_native, c_begattach, c_range, c_parent, c_docid;
	uint64_t imported, skipped;
	bool *too_long;  /* by row: the .OPT gives it more than SW_RECORD_MAX_PAGES */
	struct family *fam;
	size_t nfam, capfam;
};

/* "B:PREFIX:number" for a Bates number in any spelling, or NULL. */
static char *bates_key(const char *s)
{
	struct sw_bates_ref r;
	if (sw_bates_ref_parse(&r, s, strlen(s)) != 0)
		return NULL;
	return sw_xasprintf("B:%s:%llu", r.prefix, (unsigned long long)r.first);
}

/* Note the row's keys and the keys of its parent, when it names one. */
static void note_family(struct load *L, const struct sw_dat_record *r, int64_t id,
			const struct sw_bates *beg)
{
	const char *ba = value(r, L->c_begattach), *range = value(r, L->c_range);
	const char *parent = value(r, L->c_parent), *docid = value(r, L->c_docid);
	char canon[SW_BATES_CANON_MAX];
	struct family f = { .id = id };

	sw_bates_canon_prefix(canon, beg->prefix, strlen(beg->prefix));
	f.self[0] = sw_xasprintf("B:%s:%llu", canon, (unsigned long long)beg->number);
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
			f.parent[0] = sw_xasprintf("B:%s:%llu", rr.prefix, (unsigned long long)rr.first);
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
static int link_families(struct load *L, struct sw_err *err)
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
		const struct family *f = &L->fam[i];
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
			continue;
		}
		links[nlinks++] = (struct sw_record_link){ .child = f->id, .parent = hit->id };
	}
	if ((rc = sw_record_link_parents(L->in->m, links, nlinks, err)) != 0)
		goto cleanup;
	if (lost)
		sw__ingest_event(L->in, SW_INGEST_WARNING, L->dat_name,
				 "%zu attachment(s) name a parent that is not a row of the load file;"
				 " they are kept unlinked", lost);
cleanup:
	free(links);
	free(keys);
	return rc;
}

/* Mark the image files the .OPT names as used (sworn does not read page
 * images; the walk must not report each as a file it cannot read).  A
 * missing or refused image costs nothing: its page comes from the text. */
static void consume_images(struct load *L)
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
			if (img && img[0] && sw__ingest_volume_resolve(&real, &L->vol, img, &e) == 0)
				sw__ingest_consume_real(L->in, real);
			free(real);
		}
	}
	sw_opt_range_release(&rg);
	L->vol.exact = false;
}

/* ENDBATES as a Bates number closing the range BEGBATES opens, or false. */
static bool parse_end(struct sw_bates *end, const struct sw_bates *beg, const char *ends)
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
 * as a DocBreak of L->opt, so every lookup (opt_lookup) sees the same
 * range; a disagreement of the .OPT and ENDBATES is reported.  Memory by
 * rows, not pages: the rows sorted by first page give each its next start,
 * and each first page's natural end is found once (the rows' ranges do not
 * overlap, and no end marked falls inside another row's walk). */
static void bound_documents(struct load *L)
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
		const char *begs = r->error ? "" : value(r, L->c_beg);
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
		const char *begs = value(r, L->c_beg), *ends = value(r, L->c_end);
		size_t b = sw_opt_find(o, begs), k = natural[i], e = k;
		struct sw_bates beg, end;
		if (sw_bates_parse(&beg, begs, strlen(begs)) == 0 && parse_end(&end, &beg, ends)) {
			size_t ek = sw_opt_find(o, ends);
			size_t want = ek != SIZE_MAX && ek >= b ? ek + 1 - b
				    : (size_t)(end.number - beg.number + 1);
			if (want != k - b) {
				char what[160];
				struct sw_opt_range last = { 0 };
				struct sw_err e2 = { 0 };
				snprintf(what, sizeof(what), "%s:%d %s", L->dat_name, r->line, begs);
				bool ok = sw_opt_read(&last, o, k - 1, 1, &e2) == 0 && last.n == 1;
				sw__ingest_event(L->in, SW_INGEST_WARNING, what,
						 "the .OPT gives %zu page(s) from %s to %s, ENDBATES %s"
						 " %zu; the document ends at the first",
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

/* Resolve a path of the row, marking it used.  On failure reports why
 * (with where it looked) and returns NULL. */
static char *row_file(struct load *L, const char *what, const char *written,
		      const char *label, const char *column)
{
	char *real = NULL;
	struct sw_err e = { 0 };
	if (sw__ingest_volume_resolve(&real, &L->vol, written, &e) == 0) {
		sw__ingest_consume_real(L->in, real);
		return real;
	}
	sw__ingest_event(L->in, SW_INGEST_FAILED, what, "%s '%s' (from %s): %s", label, written,
			 column, e.msg);
	return NULL;
}

/* A native's pages as extracted, joined by form feeds into text; a mapped
 * file's pages read so far are dropped from memory every DROP_EVERY. */
#define DROP_EVERY 64
struct native_text {
	struct sw_buf *text;
	const struct sw_map *map; /* or NULL */
	size_t pages;
};

static void native_text_add(struct native_text *k, const char *text, size_t len)
{
	if (k->pages++)
		sw_buf_addc(k->text, '\f');
	sw_buf_add(k->text, text, len);
	if (k->map && k->pages % DROP_EVERY == 0)
		sw_file_map_drop(k->map, 0, k->map->len);
}

static int native_page(void *ctx, const struct sw_xpage *xp, const char *text, size_t len,
		       struct sw_err *err)
{
	(void)xp;
	(void)err;
	native_text_add(ctx, text, len);
	return 0;
}

/* Import one row.  Returns nonzero only for a fatal error. */
static int load_row(struct load *L, const struct sw_dat_record *r)
{
	struct sw__ingest *in = L->in;
	struct sw_buf raw = SW_BUF_INIT, text = SW_BUF_INIT;
	struct sw_map map = { .fd = -1 }; /* a long native PDF's bytes, raw borrowing them */
	struct sw_page_in *tpages = NULL, *pages = NULL;
	size_t ntp = 0, npages = 0;
	struct sw_err err = { 0 };
	char sha[SW_SHA256_HEX_LEN + 1];
	char *meta = NULL, *text_path = NULL, *real = NULL;
	char what[160];
	struct sw_bates beg, end;
	bool have_end = false, transcript = false;
	struct sw_decoded dec = { 0 };
	bool extracted = false;
	struct sw__ingest_scan scan = { 0 };
	struct sw_opt_range keys = { 0 }; /* the .OPT's pages of the document */
	int64_t id;
	int rc = 0;

	sw__ingest_tick(in);
	const char *begs = value(r, L->c_beg), *ends = value(r, L->c_end);
	snprintf(what, sizeof(what), "%s:%d %s", L->dat_name, r->line, begs);
	if (r->warning)
		sw__ingest_event(in, SW_INGEST_WARNING, what, "%s", r->warning);
	if (!begs[0]) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "no BEGBATES value");
		goto cleanup;
	}
	if (sw_bates_parse(&beg, begs, strlen(begs)) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "BEGBATES '%s' is not a Bates number", begs);
		goto cleanup;
	}
	if (L->too_long && L->too_long[r - L->dat.records]) {
		sw__ingest_event(in, SW_INGEST_FAILED, what,
				 "the .OPT gives it more than %d pages (limit SW_RECORD_MAX_PAGES)",
				 SW_RECORD_MAX_PAGES);
		goto cleanup;
	}
	if (ends[0]) {
		have_end = parse_end(&end, &beg, ends);
		if (!have_end)
			sw__ingest_event(in, SW_INGEST_WARNING, what,
					 "ENDBATES '%s' does not close the range that BEGBATES '%s' opens",
					 ends, begs);
	}

	/* The text: TEXTPATH, else a native sworn can read (its pages joined
	 * by form feeds are the text split below).  A native beside a text
	 * is only marked as used. */
	const char *tp = value(r, L->c_text);
	const char *np = value(r, L->c_native);
	char ext[16] = "";
	sw_path_ext(ext, sizeof(ext), np);
	/* A native sworn extracts, or a .txt read as the text itself. */
	const struct sw_format *nf = sw_format_by_ext(np);
	if (nf && !nf->native && strcmp(ext, "txt") != 0)
		nf = NULL;
	const char *nkind = nf ? nf->name : NULL;
	const char *written = tp[0] ? tp : nkind ? np : "";
	if (np[0] && written != np) {
		char *native = NULL;
		struct sw_err e = { 0 };
		if (sw__ingest_volume_resolve(&native, &L->vol, np, &e) == 0)
			sw__ingest_consume_real(in, native);
		else
			sw__ingest_event(in, SW_INGEST_WARNING, what,
					 "native file '%s' (from NATIVEPATH): %s", np, e.msg);
		free(native);
	}
	extracted = !tp[0] && nkind && strcmp(nkind, "text") != 0;
	if (written[0]) {
		text_path = row_file(L, what, written, extracted ? "native file" : "text file",
				     tp[0] ? "TEXTPATH" : "NATIVEPATH");
		if (!text_path)
			goto cleanup;
		/* A long native PDF is mapped, as one given directly is. */
		struct stat st;
		bool mapped = extracted && strcmp(nkind, "pdf") == 0 && stat(text_path, &st) == 0 &&
			      S_ISREG(st.st_mode) && (uint64_t)st.st_size >= SW__INGEST_MAP_MIN;
		if (mapped ? sw__ingest_volume_map(&map, text_path, SW_RECORD_MAX_FILE_BYTES, &err) != 0
			   : sw__ingest_volume_read(&raw, text_path, SW_RECORD_MAX_FILE_BYTES,
						    &err) != 0) {
			sw__ingest_event(in, SW_INGEST_FAILED, what, "%s: %s", written, err.msg);
			goto cleanup;
		}
		if (map.data) {
			raw.data = (char *)(uintptr_t)map.data; /* borrowed: not released */
			raw.len = map.len;
		}
	}
	if (extracted) {
		struct sw_extract x;
		struct sw_extract_opts xo = { .ocr = !in->opts->no_ocr, .progress = in->opts->progress,
					      .threads = in->opts->ocr_threads,
					      .budget = sw__ingest_budget(in),
					      .pool = sw__ingest_ocr_pool(in) };
		/* A PDF's pages are joined as they are read (the sink), not
		 * held twice; another format's after. */
		struct native_text nt = { .text = &text, .map = map.data ? &map : NULL };
		sw_extract_init(&x);
		x.sink = native_page;
		x.sink_ctx = &nt;
		int xrc = nf->extract(&x, raw.data, raw.len, &xo, &err);
		if (xrc != 0) {
			sw_extract_release(&x);
			sw__ingest_event(in, SW_INGEST_FAILED, what, "%s: %s", written, err.msg);
			goto cleanup;
		}
		for (size_t i = 0; i < x.npages; i++)
			native_text_add(&nt, x.text.data + x.pages[i].start, x.pages[i].len);
		in->sum->ocr_pages += x.ocr_pages;
		for (size_t i = 0; i < x.nwarnings; i++)
			sw__ingest_event(in, SW_INGEST_WARNING, what, "%s", x.warnings[i]);
		sw_extract_release(&x);
	} else if (written[0] &&
		   sw_extract_decode_text(&text, &dec, raw.data, raw.len, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s: %s", written, err.msg);
		goto cleanup;
	}
	/* No text at all: the page images the .OPT lists, read by OCR. */
	struct doc_pages sp = { 0 };
	int sc = !written[0] && L->have_opt && opt_lookup(&sp, &L->opt, begs)
			 ? sw__ingest_scan(&scan, in, &L->vol, &L->opt, sp.first, sp.count, begs,
					   what, &text)
			 : SW__SCAN_NONE;
	if (sc < 0) {
		rc = sc;
		goto cleanup;
	} else if (sc == SW__SCAN_FOUND) {
		note_family(L, r, scan.id, &beg);
		if ((rc = sw__ingest_found(in, scan.id, what)) < 0)
			goto cleanup;
		L->skipped += rc == 0;
		rc = 0;
		goto cleanup;
	}
	if (sw_record_split_pages(&tpages, &ntp, text.data, text.len, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
		goto cleanup;
	}

	if (scan.ready)
		memcpy(sha, scan.sha, sizeof(sha));
	else
		sw_sha256_hex(sha, text.data, text.len);
	if (sw_record_find_doc(&id, in->m, sha, begs, &err) == 0) {
		note_family(L, r, id, &beg);
		if ((rc = sw__ingest_found(in, id, what)) < 0)
			goto cleanup;
		L->skipped += rc == 0;
		rc = 0;
		goto cleanup;
	} else if (err.code) {
		goto fatal;
	}

	/* How many pages, and their numbers. */
	struct doc_pages dp = { 0 };
	bool from_opt = L->have_opt && opt_lookup(&dp, &L->opt, begs);
	if (from_opt)
		npages = dp.count;
	else if (have_end)
		npages = (size_t)(end.number - beg.number + 1);
	else
		npages = ntp;
	if (npages == 0)
		npages = 1;
	if (from_opt && (sw_opt_read(&keys, &L->opt, dp.first, npages, &err) != 0 ||
			 keys.n != npages)) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
		goto cleanup;
	}
	pages = sw_xcalloc(npages, sizeof(*pages));
	for (size_t i = 0; i < npages; i++) {
		pages[i].text = i < ntp ? tpages[i].text : "";
		pages[i].len = i < ntp ? tpages[i].len : 0;
		if (from_opt) {
			const char *key = keys.pages[i].key;
			pages[i].has_bates = sw_bates_parse(&pages[i].bates, key, strlen(key)) == 0;
			pages[i].bates_source = "opt";
		} else {
			pages[i].bates = beg;
			pages[i].bates.number = beg.number + i;
			pages[i].has_bates = true;
			pages[i].bates_source = "loadfile";
		}
		if (pages[i].has_bates)
			sw__ingest_touch_prefix(in, pages[i].bates.prefix);
	}
	sw__ingest_scan_pages(&scan, pages, npages);
	if (ntp > npages) {
		/* Keep every word: the surplus text joins the last page. */
		const char *last = tpages[npages - 1].text;
		pages[npages - 1].len = (size_t)(text.data + text.len - last);
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "text has %zu pages but the Bates range has %zu; the rest is kept on the last page",
				 ntp, npages);
	} else if (ntp > 1 && ntp < npages && !scan.ready) {
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "text has %zu pages but the Bates range has %zu", ntp, npages);
	} else if (!written[0] && !scan.ready) {
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "no extracted text (TEXTPATH empty); its %zu Bates page(s) are kept", npages);
	}

	char osha[SW_SHA256_HEX_LEN + 1];
	if (map.data)
		sw__ingest_map_sha256(osha, &map); /* the original is the native, not its text */
	else if (extracted)
		sw_sha256_hex(osha, raw.data, raw.len);
	else
		memcpy(osha, sha, sizeof(osha));
	if (raw.len && (map.data ? sw_record_keep_original_fd(in->m, osha, map.fd, map.len, &err)
				 : sw_record_keep_original(in->m, osha, raw.data, raw.len, &err)) != 0)
		goto fatal;
	real = text_path ? sw_xstrdup(text_path) : realpath(L->dat_path, NULL);
	meta = sw__ingest_scan_meta(&scan, meta_json(&L->dat, r, L->dat_name));
	char endbuf[96];
	sw_bates_format(endbuf, sizeof(endbuf), &pages[npages - 1].bates,
			pages[npages - 1].bates.number);
	struct sw_doc_in doc = {
		.name = begs,
		.kind = "loadfile",
		.origin = in->opts->origin,
		.sha256 = sha,
		.original = raw.len ? osha : NULL,
		.source_path = real ? real : L->dat_path,
		.beg_bates = begs,
		.end_bates = pages[npages - 1].has_bates ? endbuf : (ends[0] ? ends : NULL),
		.meta_json = meta,
		.bytes = raw.len,
		.pages = pages,
		.npages = npages,
	};
	if (scan.ready)
		doc.original = sw__ingest_scan_original(&scan);
	int stored = sw__ingest_store(in, &doc, what, &id, &transcript);
	if (stored != 0) {
		rc = stored < 0 ? stored : 0;
		goto cleanup;
	}
	L->imported++;
	note_family(L, r, id, &beg);
	sw__ingest_pages(in, npages);
	if (dec.cp1252_lines) {
		char note[128];
		sw_extract_decoded_note(note, sizeof(note), &dec);
		sw__ingest_event(in, SW_INGEST_WARNING, what, "text: %s", note);
	}
	if (dec.truncated)
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "text ends in the middle of a UTF-8 character (truncated?)");
	sw__ingest_event(in, SW_INGEST_IMPORTED, what, "%s%zu page(s)%s, Bates %s-%s",
			 transcript ? "transcript, " : "", npages,
			 scan.ocr_pages ? " from page images by OCR" : "", begs, endbuf);
	goto cleanup;
fatal:
	in->fatal = err;
	rc = err.code ? err.code : SW_EIO;
cleanup:
	sw__ingest_scan_release(&scan);
	sw_opt_range_release(&keys);
	free(meta);
	free(real);
	free(text_path);
	free(tpages);
	free(pages);
	if (map.data)
		sw_file_unmap(&map);
	else
		sw_buf_release(&raw);
	sw_buf_release(&text);
	return rc;
}

int sw__ingest_loadfile(struct sw__ingest *in, const char *dat, const char *opt,
			const char *root)
{
	struct load L = { .in = in, .dat_path = dat, .dat_name = sw_path_base(dat) };
	struct sw_buf raw = SW_BUF_INIT;
	struct sw_err err = { 0 };
	char sha[SW_SHA256_HEX_LEN + 1];
	int rc = 0;

	sw_arena_init(&L.dat.arena, 0);
	if (sw__ingest_volume_open(&L.vol, dat, root, &err) != 0 ||
	    sw_file_read(&raw, dat, SW_RECORD_MAX_FILE_BYTES, &err) != 0 ||
	    sw_dat_parse(&L.dat, raw.data, raw.len, &err) != 0) {
		sw__ingest_tick(in);
		sw__ingest_event(in, SW_INGEST_FAILED, dat, "%s", err.msg);
		goto cleanup;
	}
	L.c_beg = column(&L.dat, beg_names);
	L.c_end = column(&L.dat, end_names);
	L.c_text = column(&L.dat, text_names);
	L.c_native = column(&L.dat, native_names);
	L.c_begattach = column(&L.dat, begattach_names);
	L.c_range = column(&L.dat, attachrange_names);
	L.c_parent = column(&L.dat, parent_names);
	L.c_docid = column(&L.dat, docid_names);
	if (L.c_docid == L.c_beg)
		L.c_docid = -1;
	if (L.c_beg < 0) {
		sw__ingest_tick(in);
		sw__ingest_event(in, SW_INGEST_FAILED, dat,
				 "no BEGBATES (or BEGDOC, DOCID) column in the header row");
		goto cleanup;
	}
	if (!L.dat.nrecords) {
		/* Dropped in silence, its texts would come in loose, unnumbered. */
		sw__ingest_tick(in);
		sw__ingest_event(in, SW_INGEST_FAILED, dat,
				 "the load file has a header row and no document rows; check that"
				 " each row ends a line (CR, LF or CRLF) and re-export it");
		goto cleanup;
	}
	if (opt) {
		/* Only the rows' own keys are indexed: memory grows with the
		 * .DAT, not with the .OPT. */
		const char **keys = sw_xcalloc(2 * L.dat.nrecords + 1, sizeof(*keys));
		size_t nkeys = 0;
		for (size_t i = 0; i < L.dat.nrecords; i++) {
			const struct sw_dat_record *r = &L.dat.records[i];
			if (r->error)
				continue;
			keys[nkeys++] = value(r, L.c_beg);
			keys[nkeys++] = value(r, L.c_end);
		}
		int orc = sw_opt_parse_file(&L.opt, opt, SW_RECORD_MAX_FILE_BYTES, keys, nkeys, &err);
		free(keys);
		if (orc != 0) {
			sw__ingest_event(in, SW_INGEST_WARNING, opt,
					 "%s; page numbers come from BEGBATES instead", err.msg);
			sw_err_clear(&err);
		} else {
			L.have_opt = true;
			consume_images(&L);
			bound_documents(&L);
			if (L.opt.ncp1252)
				sw__ingest_event(in, SW_INGEST_WARNING, opt,
						 "%zu line(s) not valid UTF-8, the first line %d: their"
						 " other bytes read as Windows-1252",
						 L.opt.ncp1252, L.opt.first_cp1252_line);
			if (L.opt.nbad)
				sw__ingest_event(in, SW_INGEST_WARNING, opt,
						 "%zu malformed line(s) skipped, the first: %s",
						 L.opt.nbad, L.opt.first_error);
		}
	}
	/* The progress total counted the .DAT as one item; it is many. */
	if (in->progress.total && L.dat.nrecords)
		in->progress.total += L.dat.nrecords - 1;

	for (size_t i = 0; i < L.dat.nrecords && rc == 0; i++) {
		const struct sw_dat_record *r = &L.dat.records[i];
		if ((rc = sw__ingest_commit(in, false)) != 0)
			break;
		if (r->error) {
			sw__ingest_tick(in);
			sw__ingest_event(in, SW_INGEST_FAILED, L.dat_name, "%s", r->error);
			continue;
		}
		rc = load_row(&L, r);
	}
	if (rc)
		goto cleanup;
	if ((rc = link_families(&L, &err)) != 0) {
		in->fatal = err;
		goto cleanup;
	}

	sw_sha256_hex(sha, raw.data, raw.len);
	if ((rc = sw_record_keep_original(in->m, sha, raw.data, raw.len, &err)) != 0) {
		in->fatal = err;
		goto cleanup;
	}
	if (L.skipped) {
		sw__ingest_event(in, SW_INGEST_SKIPPED, dat,
				 "%llu document(s) already imported", (unsigned long long)L.skipped);
		in->sum->skipped += L.skipped - 1; /* one event stands for them all */
	}
cleanup:
	sw_dat_release(&L.dat);
	sw_opt_release(&L.opt);
	free(L.too_long);
	sw_buf_release(&raw);
	sw__ingest_volume_release(&L.vol);
	for (size_t i = 0; i < L.nfam; i++)
		for (int k = 0; k < 2; k++) {
			free(L.fam[i].self[k]);
			free(L.fam[i].parent[k]);
		}
	free(L.fam);
	return rc;
}
