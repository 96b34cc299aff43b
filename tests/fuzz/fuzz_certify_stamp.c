/*
 * fuzz_certify_stamp.c - hostile certificates through the reader of their
 * stamp (sworn certify --check reads it from any file it is given): the
 * bytes up to the first NUL are the certificate's text.  Checks: a refused
 * text says why; a read stamp has two digests of 64 hex digits, a run, a
 * matter name of the workspace's characters and at most the waivers the
 * stamp may list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_certify_stamp: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = sw_xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct sw_certify_stamp st;
	struct sw_err err = { 0 };
	if (sw_certify_stamp_parse(&st, text, &err) != 0) {
		check(err.msg[0] != '\0', "a refused stamp without a reason");
	} else {
		check(strlen(st.final_sha256) == SW_SHA256_HEX_LEN, "a short final digest");
		check(strlen(st.journal_sha256) == SW_SHA256_HEX_LEN, "a short journal digest");
		check(st.matter[0] != '\0' && strlen(st.matter) < sizeof(st.matter),
		      "a bad matter");
		check(st.nwaivers <= SW_CERTIFY_MAX_WAIVERS, "too many waivers");
	}
	free(text);
	return 0;
}
