/* import_load.c - Concordance/Relativity productions: a .DAT of document
 * rows, the extracted text each row's TEXTPATH names, and page-level Bates
 * from an .OPT beside it when there is one.
 *
 * Page i of a document carries BEGBATES + i, unless the .OPT names each
 * page's number.  The text file is split on form feeds; when it has fewer
 * pages than the Bates range (many vendors write no form feeds), the rest of
 * the range is kept as empty pages so that every produced number exists. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "record/record_int.h"

/* Column names seen in vendors' load files, most common first. */
static const char *const beg_names[] = { "BEGBATES", "BEGDOC", "BEGNO", "BEG BATES",
	"BATES BEGIN", "BEGINBATES", "PRODBEG", "PRODBEGBATES", "BEGDOCID", "DOCID",
	"CONTROLNUMBER", "CONTROL NUMBER", NULL };
static const char *const end_names[] = { "ENDBATES", "ENDDOC", "ENDNO", "END BATES",
	"BATES END", "PRODEND", "PRODENDBATES", "ENDDOCID", NULL };
static const char *const text_names[] = { "TEXTPATH", "TEXT PATH", "TEXTLINK",
	"TEXT LINK", "EXTRACTEDTEXT", "EXTRACTED TEXT", "OCRPATH", "TEXT", NULL };
static const char *const native_names[] = { "NATIVEPATH", "NATIVE PATH", "NATIVELINK",
	"NATIVE LINK", "NATIVEFILE", "NATIVE", "FILEPATH", NULL };

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

/* Resolve a path written in a load file (often Windows style, relative to
 * the volume, sometimes absolute on the vendor's machine) against the folder
 * of the .DAT: try it as written, then with leading components stripped. */
static char *resolve(const char *dat_dir, const char *written)
{
	char *p = sw_xstrdup(written);
	for (char *c = p; *c; c++)
		if (*c == '\\')
			*c = '/';
	char *rel = p;
	if (isalpha((unsigned char)rel[0]) && rel[1] == ':')
		rel += 2;
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	while (*rel == '/')
		rel++;
	for (char *try = rel; try && *try;) {
		char *full = sw_path_join(dat_dir, try);
		if (sw_path_is_file(full)) {
			/* Canonical once here: the caller records it as used and
			 * as the document's source without resolving again. */
			char *real = realpath(full, NULL);
			free(p);
			if (!real)
				return full;
			free(full);
			return real;
		}
		free(full);
		try = strchr(try, '/');
		if (try)
			try++;
	}
	free(p);
	return NULL;
}

struct doc_pages {
	size_t first; /* index of the document's first page in the .OPT */
	size_t count;
};

/* Where each document starts in the .OPT, by its first page's key. */
static bool opt_lookup(struct doc_pages *out, const struct sw_opt *o, const char *beg)
{
	for (size_t i = 0; i < o->n; i++) {
		if (strcmp(o->pages[i].key, beg) != 0)
			continue;
		size_t k = i + 1;
		while (k < o->n && !o->pages[k].doc_break)
			k++;
		out->first = i;
		out->count = k - i;
		return true;
	}
	return false;
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

struct load {
	struct sw__ingest *in;
	const char *dat_path;
	char *dat_dir;
	const char *dat_name;
	struct sw_dat dat;
	struct sw_opt opt;
	bool have_opt;
	int c_beg, c_end, c_text, c_native;
	uint64_t imported, skipped;
};

/* Import one row.  Returns nonzero only for a fatal error. */
static int load_row(struct load *L, const struct sw_dat_record *r)
{
	struct sw__ingest *in = L->in;
	struct sw_buf raw = SW_BUF_INIT, text = SW_BUF_INIT;
	struct sw_page_in *tpages = NULL, *pages = NULL;
	size_t ntp = 0, npages = 0;
	struct sw_err err = { 0 };
	char sha[SW_SHA256_HEX_LEN + 1];
	char *meta = NULL, *text_path = NULL, *real = NULL;
	char what[160];
	struct sw_bates beg, end;
	bool have_end = false, latin1 = false, truncated = false, transcript = false;
	int64_t id;
	int rc = 0;

	sw__ingest_tick(in);
	const char *begs = value(r, L->c_beg), *ends = value(r, L->c_end);
	snprintf(what, sizeof(what), "%s:%d %s", L->dat_name, r->line, begs);
	if (!begs[0]) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "no BEGBATES value");
		goto cleanup;
	}
	if (sw_bates_parse(&beg, begs, strlen(begs)) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "BEGBATES '%s' is not a Bates number", begs);
		goto cleanup;
	}
	if (ends[0]) {
		have_end = sw_bates_parse(&end, ends, strlen(ends)) == 0 &&
			   strcmp(end.prefix, beg.prefix) == 0 && end.number >= beg.number &&
			   end.number - beg.number < SW_RECORD_MAX_PAGES;
		if (!have_end)
			sw__ingest_event(in, SW_INGEST_WARNING, what,
					 "ENDBATES '%s' does not close the range that BEGBATES '%s' opens",
					 ends, begs);
	}

	/* The text: TEXTPATH, else a native that is itself text. */
	const char *tp = value(r, L->c_text);
	const char *np = value(r, L->c_native);
	char ext[16] = "";
	sw_path_ext(ext, sizeof(ext), np);
	const char *written = tp[0] ? tp : (!strcmp(ext, "txt") || !strcmp(ext, "pdf")) ? np : "";
	bool pdf = !tp[0] && !strcmp(ext, "pdf");
	if (pdf) {
		/* A PDF native stands in for the missing text: its pages,
		 * joined by form feeds, are the text split below. */
		struct sw_extract x;
		struct sw_pdf_opts po = { .ocr = !in->opts->no_ocr, .progress = in->opts->progress,
					  .threads = in->opts->ocr_threads };
		text_path = resolve(L->dat_dir, written);
		if (!text_path) {
			sw__ingest_event(in, SW_INGEST_FAILED, what,
					 "native file '%s' not found (from NATIVEPATH)", written);
			goto cleanup;
		}
		sw__ingest_consume_real(in, text_path);
		sw__extract_init(&x);
		if (sw_file_read(&raw, text_path, SW_RECORD_MAX_FILE_BYTES, &err) != 0 ||
		    sw__pdf_extract(&x, raw.data, raw.len, &po, &err) != 0) {
			sw__extract_release(&x);
			sw__ingest_event(in, SW_INGEST_FAILED, what, "%s: %s", written, err.msg);
			goto cleanup;
		}
		for (size_t i = 0; i < x.npages; i++) {
			if (i)
				sw_buf_addc(&text, '\f');
			sw_buf_add(&text, x.text.data + x.pages[i].start, x.pages[i].len);
		}
		in->sum->ocr_pages += x.ocr_pages;
		for (size_t i = 0; i < x.nwarnings; i++)
			sw__ingest_event(in, SW_INGEST_WARNING, what, "%s", x.warnings[i]);
		sw__extract_release(&x);
	} else if (written[0]) {
		text_path = resolve(L->dat_dir, written);
		if (!text_path) {
			sw__ingest_event(in, SW_INGEST_FAILED, what,
					 "text file '%s' not found (from %s)", written,
					 tp[0] ? "TEXTPATH" : "NATIVEPATH");
			goto cleanup;
		}
		sw__ingest_consume_real(in, text_path);
		if (sw_file_read(&raw, text_path, SW_RECORD_MAX_FILE_BYTES, &err) != 0 ||
		    sw__ingest_decode(&text, &latin1, &truncated, raw.data, raw.len, &err) != 0) {
			sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
			goto cleanup;
		}
	}
	if (sw__ingest_split_pages(&tpages, &ntp, text.data, text.len, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
		goto cleanup;
	}

	sw_sha256_hex(sha, text.data, text.len);
	if (sw__record_find_doc(&id, in->m, sha, begs, &err) == 0) {
		L->skipped++;
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
	pages = sw_xcalloc(npages, sizeof(*pages));
	for (size_t i = 0; i < npages; i++) {
		pages[i].text = i < ntp ? tpages[i].text : "";
		pages[i].len = i < ntp ? tpages[i].len : 0;
		if (from_opt) {
			const char *key = L->opt.pages[dp.first + i].key;
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
	if (ntp > npages) {
		/* Keep every word: the surplus text joins the last page. */
		const char *last = tpages[npages - 1].text;
		pages[npages - 1].len = (size_t)(text.data + text.len - last);
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "text has %zu pages but the Bates range has %zu; the rest is kept on the last page",
				 ntp, npages);
	} else if (ntp > 1 && ntp < npages) {
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "text has %zu pages but the Bates range has %zu", ntp, npages);
	} else if (!written[0]) {
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "no extracted text (TEXTPATH empty); its %zu Bates page(s) are kept", npages);
	}

	char osha[SW_SHA256_HEX_LEN + 1];
	if (pdf)
		sw_sha256_hex(osha, raw.data, raw.len); /* the original is the PDF, not its text */
	else
		memcpy(osha, sha, sizeof(osha));
	if (raw.len && sw__record_keep_original(in->m, osha, raw.data, raw.len, &err) != 0)
		goto fatal;
	real = text_path ? sw_xstrdup(text_path) : realpath(L->dat_path, NULL);
	meta = meta_json(&L->dat, r, L->dat_name);
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
	if (sw__record_store_doc(&id, &transcript, in->m, &doc, &err) != 0) {
		if (sw__ingest_fatal(&err))
			goto fatal;
		sw__ingest_event(in, SW_INGEST_FAILED, what, "%s", err.msg);
		goto cleanup;
	}
	L->imported++;
	in->sum->pages += npages;
	if (latin1)
		sw__ingest_event(in, SW_INGEST_WARNING, what, "text is not UTF-8: read as Windows-1252");
	if (truncated)
		sw__ingest_event(in, SW_INGEST_WARNING, what,
				 "text ends in the middle of a UTF-8 character (truncated?)");
	sw__ingest_event(in, SW_INGEST_IMPORTED, what, "%s%zu page(s), Bates %s-%s",
			 transcript ? "transcript, " : "", npages, begs, endbuf);
	goto cleanup;
fatal:
	in->fatal = err;
	rc = err.code ? err.code : SW_EIO;
cleanup:
	free(meta);
	free(real);
	free(text_path);
	free(tpages);
	free(pages);
	sw_buf_release(&raw);
	sw_buf_release(&text);
	return rc;
}

int sw__ingest_loadfile(struct sw__ingest *in, const char *dat, const char *opt)
{
	struct load L = { .in = in, .dat_path = dat, .dat_name = sw_path_base(dat) };
	struct sw_buf raw = SW_BUF_INIT, oraw = SW_BUF_INIT;
	struct sw_err err = { 0 };
	char sha[SW_SHA256_HEX_LEN + 1];
	int rc = 0;

	L.dat_dir = sw_path_dir(dat);
	sw_arena_init(&L.dat.arena, 0);
	sw_arena_init(&L.opt.arena, 0);
	if (sw_file_read(&raw, dat, SW_RECORD_MAX_FILE_BYTES, &err) != 0 ||
	    sw_dat_parse(&L.dat, raw.data, raw.len, &err) != 0) {
		sw__ingest_tick(in);
		sw__ingest_event(in, SW_INGEST_FAILED, dat, "%s", err.msg);
		goto cleanup;
	}
	L.c_beg = column(&L.dat, beg_names);
	L.c_end = column(&L.dat, end_names);
	L.c_text = column(&L.dat, text_names);
	L.c_native = column(&L.dat, native_names);
	if (L.c_beg < 0) {
		sw__ingest_tick(in);
		sw__ingest_event(in, SW_INGEST_FAILED, dat,
				 "no BEGBATES (or BEGDOC, DOCID) column in the header row");
		goto cleanup;
	}
	if (opt) {
		if (sw_file_read(&oraw, opt, SW_RECORD_MAX_FILE_BYTES, &err) != 0 ||
		    sw_opt_parse(&L.opt, oraw.data, oraw.len, &err) != 0) {
			sw__ingest_event(in, SW_INGEST_WARNING, opt,
					 "%s; page numbers come from BEGBATES instead", err.msg);
			sw_err_clear(&err);
		} else {
			L.have_opt = true;
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
		if (r->error) {
			sw__ingest_tick(in);
			sw__ingest_event(in, SW_INGEST_FAILED, L.dat_name, "%s", r->error);
			continue;
		}
		rc = load_row(&L, r);
	}
	if (rc)
		goto cleanup;

	sw_sha256_hex(sha, raw.data, raw.len);
	if ((rc = sw__record_keep_original(in->m, sha, raw.data, raw.len, &err)) != 0) {
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
	sw_buf_release(&raw);
	sw_buf_release(&oraw);
	free(L.dat_dir);
	return rc;
}
