/*
 * fuzz_docx.c - hostile bytes through the .docx extractor (libzip, then
 * expat).  The input is used as the archive itself; the corpus holds small
 * generated archives so that the fuzzer reaches the XML.  Checks: a failure
 * has a message, pages tile the text in order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_docx: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_extract x;
	struct sw_err err = { 0 };

	sw_extract_init(&x);
	if (sw__extract_docx(&x, (const char *)data, size, NULL, &err) != 0) {
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
	} else {
		size_t at = 0;
		check(x.npages >= 1, "no page");
		for (size_t i = 0; i < x.npages; i++) {
			check(x.pages[i].start == at, "pages do not tile the text");
			at += x.pages[i].len;
		}
		check(at == x.text.len, "pages do not end with the text");
	}
	sw_extract_release(&x);
	return 0;
}
