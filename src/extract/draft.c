/* draft.c - a draft file as text for the claim scanner: the registry's
 * extractors, without a matter, without OCR, and with the pages joined by
 * form feeds as the text importer splits them. */
#include <string.h>

#include "extract/extract.h"

/* The extension decides; a file whose extension names no native format (a
 * PDF saved as "brief", a .docx renamed .bin) is recognised by its first
 * bytes, so that it is read rather than refused as not UTF-8.  NULL: text. */
static const struct sw_format *classify(const char *path, const char *data, size_t len)
{
	const struct sw_format *f = sw_format_by_ext(path);
	if (f && f->native)
		return f;
	return sw_format_sniff(data, len);
}

int sw_extract_draft_data(struct sw_buf *out, bool *extracted, const char *path,
			  const char *data, size_t len, struct sw_err *err)
{
	struct sw_extract x;
	int rc;

	sw_buf_reset(out);
	*extracted = false;
	const struct sw_format *f = classify(path, data, len);
	if (!f) {
		if (!sw_utf8_valid(data, len))
			return sw_err_set(err, SW_EINPUT,
					  "cannot read '%s': it is not UTF-8 text "
					  "(give the draft as Markdown, text, .docx or PDF)", path);
		return 0;
	}
	sw_extract_init(&x);
	struct sw_extract_opts xo = { .ocr = false };
	rc = f->extract(&x, data, len, &xo, err);
	if (rc != 0) {
		sw_err_wrap(err, rc, "cannot read '%s'", path);
		goto cleanup;
	}
	/* Text after the last page, should an extractor leave any, is kept. */
	sw_extract_join(out, &x);
	if (out->len > SW_EXTRACT_MAX_FILE_BYTES)
		rc = sw_err_set(err, SW_ELIMIT, "cannot read '%s': its text is over the %zu-byte limit",
				path, SW_EXTRACT_MAX_FILE_BYTES);
	*extracted = rc == 0;
cleanup:
	if (rc != 0)
		sw_buf_reset(out);
	sw_extract_release(&x);
	return rc;
}

int sw_extract_draft_text(struct sw_buf *out, const char *path, struct sw_err *err)
{
	struct sw_buf raw = SW_BUF_INIT;
	bool extracted = false;
	int rc;

	sw_buf_reset(out);
	if ((rc = sw_file_read(&raw, path, SW_EXTRACT_MAX_FILE_BYTES, err)) != 0 ||
	    (rc = sw_extract_draft_data(out, &extracted, path, raw.data ? raw.data : "", raw.len,
					err)) != 0)
		goto cleanup;
	if (!extracted)
		sw_buf_add(out, raw.data, raw.len);
cleanup:
	sw_buf_release(&raw);
	return rc;
}
