/* text.c - plain-text and Markdown documents: decoded by extract/,
 * pages split on form feeds, Bates stamps read from the page text. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ingest/ingest_int.h"

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
	struct sw_decoded dec;
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
	if (sw_record_find_doc(&id, in->m, sha, NULL, &err) == 0) {
		/* Repair a lost original while we hold the bytes anyway. */
		if (sw_record_keep_original(in->m, sha, raw.data, raw.len, &err) != 0)
			goto fatal;
		int found = sw__ingest_found(in, id, path);
		if (found < 0)
			rc = found;
		else if (!found)
			sw__ingest_event(in, SW_INGEST_SKIPPED, path,
					 "already imported as document %lld", (long long)id);
		goto cleanup;
	} else if (err.code) {
		goto fatal;
	}
	if (sw_extract_decode_text(&text, &dec, raw.data, raw.len, &err) != 0 ||
	    sw_record_split_pages(&pages, &npages, text.data, text.len, &err) != 0) {
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
	json_object_set_new(mj, "encoding", json_string(dec.cp1252_lines ? "windows-1252" : "utf-8"));
	meta = json_dumps(mj, JSON_COMPACT);
	json_decref(mj);

	if (sw_record_keep_original(in->m, sha, raw.data, raw.len, &err) != 0)
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
	int stored = sw__ingest_store(in, &doc, path, &id, &transcript);
	if (stored != 0) {
		rc = stored < 0 ? stored : 0;
		goto cleanup;
	}
	sw__ingest_pages(in, npages);
	if (dec.cp1252_lines) {
		char note[128];
		sw_extract_decoded_note(note, sizeof(note), &dec);
		sw__ingest_event(in, SW_INGEST_WARNING, path, "%s", note);
	}
	if (dec.truncated)
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
