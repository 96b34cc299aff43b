/* import_text.c - plain-text and Markdown documents: decoding, pages split
 * on form feeds, Bates stamps read from the page text. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "record/record_int.h"

/* Whether len bytes end in a UTF-8 sequence cut short, and the rest is
 * valid UTF-8: a lead byte followed by too few continuation bytes.  A lone
 * lead byte after pure ASCII is as likely a Windows-1252 letter ("caf\xe9"),
 * so it counts as cut only when the text before it holds other multi-byte
 * characters. */
static bool utf8_cut_at_end(const unsigned char *s, size_t len, size_t *valid)
{
	for (size_t tail = 1; tail <= 3 && tail <= len; tail++) {
		unsigned char lead = s[len - tail];
		if ((lead & 0xc0) == 0x80)
			continue; /* a continuation byte: look further back */
		size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		if (lead < 0xc2 || lead > 0xf4 || need <= tail)
			return false;
		if (!sw_utf8_valid((const char *)s, len - tail))
			return false;
		bool multibyte_before = false;
		for (size_t i = 0; i < len - tail && !multibyte_before; i++)
			multibyte_before = s[i] >= 0x80;
		if (tail == 1 && !multibyte_before)
			return false;
		*valid = len - tail;
		return true;
	}
	return false;
}

static void put_utf8(struct sw_buf *out, uint32_t c)
{
	char b[4];
	size_t n;
	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	sw_buf_add(out, b, n);
}

bool sw__utf16_to_utf8(struct sw_buf *out, const char *data, size_t len)
{
	const unsigned char *u = (const unsigned char *)data;
	bool le;
	size_t i = 0;
	if (len >= 2 && u[0] == 0xff && u[1] == 0xfe) {
		le = true;
		i = 2;
	} else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff) {
		le = false;
		i = 2;
	} else if (len >= 4 && u[0] && !u[1] && u[2] && !u[3]) {
		le = true; /* "B\0E\0": ASCII in UTF-16 LE without a mark */
	} else if (len >= 4 && !u[0] && u[1] && !u[2] && u[3]) {
		le = false;
	} else {
		return false;
	}
	sw_buf_reset(out);
	sw_buf_grow(out, len + len / 2);
	for (; i + 1 < len; i += 2) {
		uint32_t c = le ? (uint32_t)(u[i] | u[i + 1] << 8) : (uint32_t)(u[i] << 8 | u[i + 1]);
		if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
			uint32_t d = le ? (uint32_t)(u[i + 2] | u[i + 3] << 8)
					: (uint32_t)(u[i + 2] << 8 | u[i + 3]);
			if (d >= 0xdc00 && d < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
				i += 2;
			} else {
				c = 0xfffd;
			}
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		put_utf8(out, c);
	}
	if (i < len) /* an odd last byte: half a character */
		put_utf8(out, 0xfffd);
	return true;
}

int sw__ingest_decode(struct sw_buf *out, bool *latin1, bool *truncated,
		      const char *data, size_t len, struct sw_err *err)
{
	*latin1 = false;
	*truncated = false;
	sw_buf_reset(out);
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		data += 3;
		len -= 3;
	} else {
		/* Review platforms export extracted text as UTF-16 LE as often
		 * as UTF-8; the BOM, or the NULs of ASCII, say which. */
		struct sw_buf u = SW_BUF_INIT;
		if (sw__utf16_to_utf8(&u, data, len)) {
			bool ok = !memchr(u.data, '\0', u.len);
			if (ok)
				sw_buf_add(out, u.data, u.len);
			sw_buf_release(&u);
			if (!ok)
				return sw_err_set(err, SW_EINPUT, "binary data (NUL bytes), not text");
			return 0;
		}
	}
	if (memchr(data, '\0', len))
		return sw_err_set(err, SW_EINPUT, "binary data (NUL bytes), not text");
	size_t valid = 0;
	if (sw_utf8_valid(data, len)) {
		sw_buf_add(out, data, len);
	} else if (utf8_cut_at_end((const unsigned char *)data, len, &valid)) {
		sw_buf_add(out, data, valid);
		*truncated = true;
	} else {
		sw_latin1_to_utf8(out, data, len);
		*latin1 = true;
	}
	return 0;
}

int sw__ingest_split_pages(struct sw_page_in **pages, size_t *n,
			   const char *text, size_t len, struct sw_err *err)
{
	size_t count = 1, cap = 0;
	for (size_t i = 0; i + 1 < len; i++)
		if (text[i] == '\f')
			count++;
	if (count > SW_RECORD_MAX_PAGES)
		return sw_err_set(err, SW_ELIMIT, "%zu pages is over the limit of %d",
				  count, SW_RECORD_MAX_PAGES);
	struct sw_page_in *p = NULL;
	p = sw_xgrow(p, &cap, count, sizeof(*p));
	size_t k = 0, start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\f')
			continue;
		if (i == len && start == len && k > 0)
			break; /* a final form feed adds no empty page */
		memset(&p[k], 0, sizeof(p[k]));
		p[k].text = text + start;
		p[k].len = i - start;
		k++;
		start = i + 1;
	}
	*pages = p;
	*n = k;
	return 0;
}

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' && s[i] != '\f')
			return false;
	return true;
}

int sw__ingest_text(struct sw__ingest *in, const char *path, const char *kind)
{
	struct sw_buf raw = SW_BUF_INIT, text = SW_BUF_INIT;
	char *meta = NULL, *real = NULL;
	struct sw_page_in *pages = NULL;
	size_t npages = 0;
	struct sw_err err = { 0 };
	char sha[SW_SHA256_HEX_LEN + 1];
	bool latin1, truncated;
	int64_t id;
	int rc = 0;
	const char *name = sw_path_base(path);

	sw__ingest_tick(in);
	if (sw_file_read(&raw, path, SW_RECORD_MAX_FILE_BYTES, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "%s", err.msg);
		goto cleanup;
	}
	if (blank(raw.data, raw.len)) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "the file is empty");
		goto cleanup;
	}
	sw_sha256_hex(sha, raw.data, raw.len);
	if (sw__record_find_doc(&id, in->m, sha, NULL, &err) == 0) {
		/* Repair a lost original while we hold the bytes anyway. */
		if (sw__record_keep_original(in->m, sha, raw.data, raw.len, &err) != 0)
			goto fatal;
		sw__ingest_event(in, SW_INGEST_SKIPPED, path,
				 "already imported as document %lld", (long long)id);
		goto cleanup;
	} else if (err.code) {
		goto fatal;
	}
	if (sw__ingest_decode(&text, &latin1, &truncated, raw.data, raw.len, &err) != 0 ||
	    sw__ingest_split_pages(&pages, &npages, text.data, text.len, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "%s", err.msg);
		goto cleanup;
	}
	size_t stamped = 0;
	for (size_t i = 0; i < npages; i++) {
		size_t s, e;
		if (sw_bates_find_stamp(&pages[i].bates, &s, &e, pages[i].text, pages[i].len) == 0) {
			pages[i].has_bates = true;
			pages[i].bates_source = "stamp";
			sw__ingest_touch_prefix(in, pages[i].bates.prefix);
			stamped++;
		}
	}
	json_t *mj = json_object();
	json_object_set_new(mj, "file_name", sw_json_str(name));
	json_object_set_new(mj, "encoding", json_string(latin1 ? "windows-1252" : "utf-8"));
	meta = json_dumps(mj, JSON_COMPACT);
	json_decref(mj);

	if (sw__record_keep_original(in->m, sha, raw.data, raw.len, &err) != 0)
		goto fatal;
	char beg[96] = "", end[96] = "";
	for (size_t i = 0; i < npages; i++)
		if (pages[i].has_bates) {
			if (!beg[0])
				sw_bates_format(beg, sizeof(beg), &pages[i].bates, pages[i].bates.number);
			sw_bates_format(end, sizeof(end), &pages[i].bates, pages[i].bates.number);
		}
	real = realpath(path, NULL);
	struct sw_doc_in doc = {
		.name = name,
		.kind = kind,
		.origin = in->opts->origin,
		.sha256 = sha,
		.original = sha,
		.source_path = real ? real : path,
		.beg_bates = NULL, /* identity is the content for text files */
		.end_bates = NULL,
		.meta_json = meta,
		.bytes = raw.len,
		.pages = pages,
		.npages = npages,
	};
	bool transcript = false;
	if (sw__record_store_doc(&id, &transcript, in->m, &doc, &err) != 0) {
		if (sw__ingest_fatal(&err))
			goto fatal;
		sw__ingest_event(in, SW_INGEST_FAILED, path, "%s", err.msg);
		goto cleanup;
	}
	in->sum->pages += npages;
	if (latin1)
		sw__ingest_event(in, SW_INGEST_WARNING, path,
				 "not valid UTF-8: read as Windows-1252");
	if (truncated)
		sw__ingest_event(in, SW_INGEST_WARNING, path,
				 "ends in the middle of a UTF-8 character (truncated?); the partial character was dropped");
	if (stamped && stamped < npages)
		sw__ingest_event(in, SW_INGEST_WARNING, path,
				 "%zu of %zu pages carry no Bates stamp", npages - stamped, npages);
	if (beg[0])
		sw__ingest_event(in, SW_INGEST_IMPORTED, path, "%s%zu page(s), Bates %s-%s",
				 transcript ? "transcript, " : "", npages, beg, end);
	else
		sw__ingest_event(in, SW_INGEST_IMPORTED, path, "%s%zu page(s)",
				 transcript ? "transcript, " : "", npages);
	goto cleanup;
fatal:
	in->fatal = err;
	rc = err.code ? err.code : SW_EIO;
cleanup:
	free(pages);
	sw_buf_release(&raw);
	sw_buf_release(&text);
	free(meta);
	free(real);
	return rc;
}
