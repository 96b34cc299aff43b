/*
 * fuzz_record_text.c - libFuzzer target for the record's small text parsers
 * that read what users and drafts write: a Bates number or range in any
 * spelling (sw_bates_ref_parse), a record-citation label
 * (sw_label_normalize), and UTF-16 text (sw_extract_utf16_to_utf8).  Besides
 * memory errors it checks what callers rely on: a canonical prefix of
 * upper-case letters and digits, an ordered range, a normalised label that
 * normalises to itself, and UTF-8 out of any UTF-16 in.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"
#include "record/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_record_text: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sw_bates_ref r;

	if (sw_bates_ref_parse(&r, text, size) == 0) {
		check(memchr(r.prefix, 0, sizeof(r.prefix)) != NULL, "prefix unterminated");
		check(r.prefix[0] >= 'A' && r.prefix[0] <= 'Z', "prefix does not start with a letter");
		for (const char *c = r.prefix; *c; c++)
			check((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'),
			      "prefix not canonical");
		check(r.first <= r.last, "range out of order");
		check(r.width >= SW_BATES_REF_MIN_DIGITS && r.width <= SW_BATES_MAX_DIGITS,
		      "width out of range");
		char canon[SW_BATES_CANON_MAX];
		sw_bates_canon_prefix(canon, r.prefix, strlen(r.prefix));
		check(strcmp(canon, r.prefix) == 0, "canonical prefix is not canonical");
	} else {
		check(r.prefix[0] == '\0' && r.first == 0 && r.last == 0, "failed parse left data");
	}

	/* Labels are C strings: the text up to its first NUL. */
	char *s = sw_xstrndup(text, size);
	char *norm = sw_label_normalize(s);
	char *again = sw_label_normalize(norm);
	check(strcmp(norm, again) == 0, "label normalisation is not idempotent");
	/* "dx." is "def ex": at most 7 bytes for 3; Windows-1252 bytes may
	 * take 3 bytes of UTF-8 each */
	check(strlen(norm) <= 3 * strlen(s) + 8, "normalised label grew too much");
	free(again);
	free(norm);
	free(s);

	struct sw_buf out = SW_BUF_INIT;
	if (sw_extract_utf16_to_utf8(&out, text, size))
		check(sw_utf8_valid(out.data, out.len), "UTF-16 gave invalid UTF-8");
	sw_buf_release(&out);
	return 0;
}
