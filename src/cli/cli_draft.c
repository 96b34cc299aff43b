/* cli_draft.c - reading a draft for `sworn claims` and `sworn verify`. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "extract/extract.h"

int cli_draft_read(struct cli_draft *out, const char *path, const char *format,
		   struct sw_err *err)
{
	struct sw_buf raw = SW_BUF_INIT, text = SW_BUF_INIT;
	enum sw_markup_kind kind = SW_MARKUP_TEXT;
	bool given = format && strcmp(format, "auto") != 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (given && !sw_markup_kind_parse(&kind, format))
		return sw_err_set(err, SW_EUSAGE,
				  "unknown --format '%s': give auto, markdown, html or text", format);
	bool in = !strcmp(path, "-");
	if (in) {
		if ((rc = cli_read_stdin(&text, CLI_DRAFT_STDIN_MAX, "the draft", err)) != 0)
			goto cleanup;
		sw_sha256_hex(out->sha256, text.data, text.len);
	} else {
		/* Read once: the hash is of the file's bytes; extract/ decides
		 * what the file is and extracts its text, and a text file is
		 * read as it is (raw becomes the text, with no copy). */
		bool extracted = false;
		if ((rc = sw_file_read(&raw, path, SW_EXTRACT_MAX_FILE_BYTES, err)) != 0)
			goto cleanup;
		sw_sha256_hex(out->sha256, raw.data, raw.len);
		if ((rc = sw_extract_draft_data(&text, &extracted, path, raw.data, raw.len, err)) != 0)
			goto cleanup;
		if (extracted) {
			out->extracted = raw.len != text.len || memcmp(raw.data, text.data, raw.len) != 0;
		} else {
			sw_buf_release(&text);
			text = raw;
			sw_buf_init(&raw);
		}
	}
	if (!given && !out->extracted)
		kind = sw_markup_kind_for(in ? NULL : path, text.data, text.len);
	if ((rc = sw_markup_parse(&out->view, kind, text.data, text.len, err)) != 0)
		sw_err_wrap(err, rc, "cannot read '%s'", in ? "standard input" : path);
cleanup:
	sw_buf_release(&raw);
	sw_buf_release(&text);
	return rc;
}

void cli_draft_release(struct cli_draft *d)
{
	if (d)
		sw_markup_release(&d->view);
}
