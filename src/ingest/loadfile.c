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

/* Resolve a path of the row, marking it used.  On failure reports why
 * (with where it looked) and returns NULL. */
static char *row_file(struct sw__ingest_load *L, const struct sw_dat_record *r,
		      const char *what, const char *written, const char *label,
		      const char *column)
{
	char *real = NULL;
	struct sw_err e = { 0 };
	if (sw__ingest_volume_resolve(&real, &L->vol, written, &e) == 0) {
		sw__ingest_consume_real(L->in, real);
		return real;
	}
	sw__ingest_event(L->in, SW_INGEST_FAILED, what, "%s '%s' (from %s): %s", label, written,
			 column, e.msg);
	sw_qc_add(&L->qc.v, strcmp(column, "TEXTPATH") ? SW_QC_NO_NATIVE : SW_QC_NO_TEXT, r->line,
		  sw__ingest_load_value(r, L->c_beg), "%s '%s': %s", column, written, e.msg);
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
static int load_row(struct sw__ingest_load *L, const struct sw_dat_record *r)
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
	const size_t ri = (size_t)(r - L->dat.records);
	const char *begs = sw__ingest_load_value(r, L->c_beg);
	const char *ends = sw__ingest_load_value(r, L->c_end);
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
	if (L->too_long && L->too_long[ri]) {
		sw__ingest_event(in, SW_INGEST_FAILED, what,
				 "the .OPT gives it more than %d pages (limit SW_RECORD_MAX_PAGES)",
				 SW_RECORD_MAX_PAGES);
		goto cleanup;
	}
	if (ends[0]) {
		have_end = sw__ingest_load_end(&end, &beg, ends);
		if (!have_end)
			sw__ingest_event(in, SW_INGEST_WARNING, what,
					 "ENDBATES '%s' does not close the range that BEGBATES '%s' opens",
					 ends, begs);
	}

	/* The text: TEXTPATH, else a native sworn can read (its pages joined
	 * by form feeds are the text split below).  A native beside a text
	 * is only marked as used. */
	const char *tp = sw__ingest_load_value(r, L->c_text);
	const char *np = sw__ingest_load_value(r, L->c_native);
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
		if (sw__ingest_volume_resolve(&native, &L->vol, np, &e) == 0) {
			sw__ingest_consume_real(in, native);
			L->qc.v.natives++;
		} else {
			sw__ingest_event(in, SW_INGEST_WARNING, what,
					 "native file '%s' (from NATIVEPATH): %s", np, e.msg);
			sw_qc_add(&L->qc.v, SW_QC_NO_NATIVE, r->line, begs, "NATIVEPATH '%s': %s",
				  np, e.msg);
		}
		free(native);
	}
	extracted = !tp[0] && nkind && strcmp(nkind, "text") != 0;
	if (written[0]) {
		text_path = row_file(L, r, what, written, extracted ? "native file" : "text file",
				     tp[0] ? "TEXTPATH" : "NATIVEPATH");
		if (!text_path)
			goto cleanup;
		L->qc.v.natives += written == np;
		/* A long native PDF is mapped, as one given directly is. */
		struct stat st;
		bool mapped = extracted && strcmp(nkind, "pdf") == 0 && stat(text_path, &st) == 0 &&
			      S_ISREG(st.st_mode) && (uint64_t)st.st_size >= SW__INGEST_MAP_MIN;
		if (mapped ? sw__ingest_volume_map(&map, text_path, SW_RECORD_MAX_FILE_BYTES, &err) != 0
			   : sw__ingest_volume_read(&raw, text_path, SW_RECORD_MAX_FILE_BYTES,
						    &err) != 0) {
			sw__ingest_event(in, SW_INGEST_FAILED, what, "%s: %s", written, err.msg);
			sw_qc_add(&L->qc.v, SW_QC_NO_TEXT, r->line, begs, "%s: %s", written,
				  err.msg);
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
			sw_qc_add(&L->qc.v, SW_QC_NO_TEXT, r->line, begs, "%s: %s", written,
				  err.msg);
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
		sw_qc_add(&L->qc.v, SW_QC_NO_TEXT, r->line, begs, "%s: %s", written, err.msg);
		goto cleanup;
	}
	if (dec.cp1252_lines) {
		char note[128];
		sw_extract_decoded_note(note, sizeof(note), &dec);
		sw_qc_add(&L->qc.v, SW_QC_ENCODING, r->line, begs, "%s: %s", written, note);
	}
	if (dec.truncated)
		sw_qc_add(&L->qc.v, SW_QC_ENCODING, r->line, begs,
			  "%s ends in the middle of a UTF-8 character", written);
	/* No text at all: the page images the .OPT lists, read by OCR. */
	struct sw__ingest_opt_pages sp = { 0 };
	int sc = !written[0] && L->have_opt && sw__ingest_load_opt_pages(&sp, &L->opt, begs)
			 ? sw__ingest_scan(&scan, in, &L->vol, &L->opt, sp.first, sp.count, begs,
					   what, &text)
			 : SW__SCAN_NONE;
	if (sc < 0) {
		rc = sc;
		goto cleanup;
	}
	if (text.len || sc != SW__SCAN_NONE)
		L->qc.v.texts++;
	else if (!written[0])
		sw_qc_add(&L->qc.v, SW_QC_NO_TEXT, r->line, begs,
			  "no TEXTPATH, no native sworn reads and no page image read");
	if (sc == SW__SCAN_FOUND) {
		sw__ingest_family_note(L, r, scan.id, &beg);
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

	/* How many pages, and their numbers: checked before a document found
	 * already stored is skipped, so that its QC report is the same. */
	struct sw__ingest_opt_pages dp = { 0 };
	bool from_opt = L->have_opt && sw__ingest_load_opt_pages(&dp, &L->opt, begs);
	if (from_opt)
		npages = dp.count;
	else if (have_end)
		npages = (size_t)(end.number - beg.number + 1);
	else
		npages = ntp;
	if (npages == 0)
		npages = 1;
	sw__ingest_qc_pages(L, ri, npages);
	if (ntp > npages || (ntp > 1 && ntp < npages && !scan.ready))
		sw_qc_add(&L->qc.v, SW_QC_PAGE_COUNT, r->line, begs,
			  "the text has %zu page(s), the Bates range %zu", ntp, npages);

	if (scan.ready)
		memcpy(sha, scan.sha, sizeof(sha));
	else
		sw_sha256_hex(sha, text.data, text.len);
	if (text.len || scan.ready)
		sw__ingest_qc_hash(L, ri, sha);
	if (sw_record_find_doc(&id, in->m, sha, begs, &err) == 0) {
		sw__ingest_family_note(L, r, id, &beg);
		if ((rc = sw__ingest_found(in, id, what)) < 0)
			goto cleanup;
		L->skipped += rc == 0;
		rc = 0;
		goto cleanup;
	} else if (err.code) {
		goto fatal;
	}

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
	sw__ingest_family_note(L, r, id, &beg);
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
	struct sw__ingest_load L = { .in = in, .dat_path = dat, .dat_name = sw_path_base(dat) };
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
	sw__ingest_qc_start(&L, NULL);
	if (opt) {
		/* Only the rows' own keys are indexed: memory grows with the
		 * .DAT, not with the .OPT. */
		const char **keys = sw_xcalloc(2 * L.dat.nrecords + 1, sizeof(*keys));
		size_t nkeys = 0;
		for (size_t i = 0; i < L.dat.nrecords; i++) {
			const struct sw_dat_record *r = &L.dat.records[i];
			if (r->error)
				continue;
			keys[nkeys++] = sw__ingest_load_value(r, L.c_beg);
			keys[nkeys++] = sw__ingest_load_value(r, L.c_end);
		}
		int orc = sw_opt_parse_file(&L.opt, opt, SW_RECORD_MAX_FILE_BYTES, keys, nkeys, &err);
		free(keys);
		if (orc != 0) {
			sw__ingest_event(in, SW_INGEST_WARNING, opt,
					 "%s; page numbers come from BEGBATES instead", err.msg);
			sw_qc_add(&L.qc.v, SW_QC_DAT_OPT, 0, NULL, "the .OPT %s cannot be read: %s",
				  sw_path_base(opt), err.msg);
			sw_err_clear(&err);
		} else {
			L.have_opt = true;
			L.qc.v.opt = sw_xstrdup(opt);
			sw__ingest_load_images(&L);
			sw__ingest_load_bound(&L);
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
	sw__ingest_qc_rows(&L);
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
	if ((rc = sw__ingest_family_link(&L, &err)) != 0) {
		in->fatal = err;
		goto cleanup;
	}

	sw_sha256_hex(sha, raw.data, raw.len);
	if ((rc = sw__ingest_qc_finish(&L, sha, &err)) != 0) {
		in->fatal = err;
		goto cleanup;
	}
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
	sw__ingest_qc_release(&L.qc);
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
