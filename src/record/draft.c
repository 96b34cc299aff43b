/* draft.c - a draft file as text for the claim scanner: the import's
 * extractors, without a matter, without OCR, and with the pages joined by
 * form feeds as the text importer splits them. */
#include <string.h>

#include "record/record_int.h"

enum draft_kind { DRAFT_TEXT, DRAFT_PDF, DRAFT_DOCX, DRAFT_EML };

/* The extension decides; a file whose extension names no format (a PDF
 * saved as "brief", a .docx renamed .bin) is recognised by its first bytes,
 * so that it is read rather than refused as not UTF-8. */
static enum draft_kind classify(const char *path, const char *data, size_t len)
{
	char ext[16];
	sw_path_ext(ext, sizeof(ext), path);
	if (!strcmp(ext, "pdf"))
		return DRAFT_PDF;
	if (!strcmp(ext, "docx"))
		return DRAFT_DOCX;
	if (!strcmp(ext, "eml"))
		return DRAFT_EML;
	if (len >= 5 && !memcmp(data, "%PDF-", 5))
		return DRAFT_PDF;
	if (len >= 4 && !memcmp(data, "PK\x03\x04", 4))
		return DRAFT_DOCX;
	return DRAFT_TEXT;
}

int sw_record_draft_text(struct sw_buf *out, const char *path, struct sw_err *err)
{
	struct sw_buf raw = SW_BUF_INIT;
	struct sw_extract x;
	int rc;

	sw__extract_init(&x);
	sw_buf_reset(out);
	if ((rc = sw_file_read(&raw, path, SW_RECORD_MAX_FILE_BYTES, err)) != 0)
		goto cleanup;
	const char *data = raw.data ? raw.data : "";
	switch (classify(path, data, raw.len)) {
	case DRAFT_TEXT:
		if (!sw_utf8_valid(data, raw.len)) {
			rc = sw_err_set(err, SW_EINPUT,
					"cannot read '%s': it is not UTF-8 text "
					"(give the draft as Markdown, text, .docx or PDF)", path);
			goto cleanup;
		}
		sw_buf_add(out, data, raw.len);
		goto cleanup;
	case DRAFT_PDF: {
		struct sw_pdf_opts po = { .ocr = false };
		rc = sw__pdf_extract(&x, data, raw.len, &po, err);
		break;
	}
	case DRAFT_DOCX:
		rc = sw__docx_extract(&x, data, raw.len, err);
		break;
	case DRAFT_EML:
		rc = sw__eml_extract(&x, data, raw.len, err);
		break;
	}
	if (rc != 0) {
		sw_err_wrap(err, rc, "cannot read '%s'", path);
		goto cleanup;
	}
	/* Text after the last page, should an extractor leave any, is kept. */
	size_t end = 0;
	for (size_t i = 0; i < x.npages; i++) {
		if (i)
			sw_buf_addc(out, '\f');
		sw_buf_add(out, x.text.data + x.pages[i].start, x.pages[i].len);
		end = x.pages[i].start + x.pages[i].len;
	}
	if (end < x.text.len)
		sw_buf_add(out, x.text.data + end, x.text.len - end);
	if (out->len > SW_RECORD_MAX_FILE_BYTES)
		rc = sw_err_set(err, SW_ELIMIT, "cannot read '%s': its text is over the %zu-byte limit",
				path, SW_RECORD_MAX_FILE_BYTES);
cleanup:
	if (rc != 0)
		sw_buf_reset(out);
	sw__extract_release(&x);
	sw_buf_release(&raw);
	return rc;
}
