/*
 * fuzz_msg.c - hostile bytes through the Outlook .msg extractor (libgsf's
 * OLE2 reader underneath).  Besides memory errors it checks what the
 * importer relies on: a failure has a message and no pages, a success has
 * one page inside the text, valid UTF-8 text, and every attachment a name
 * without a path.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_msg: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_extract x;
	struct sw_err err = { 0 };

	sw_extract_init(&x);
	if (sw__extract_msg(&x, (const char *)data, size, NULL, &err) != 0) {
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
		check(x.npages == 0, "pages after a failure");
	} else {
		check(x.npages == 1, "one page");
		check(x.pages[0].start + x.pages[0].len == x.text.len, "page outside the text");
		check(sw_utf8_valid(x.text.data ? x.text.data : "", x.text.len), "text not UTF-8");
		for (size_t i = 0; i < x.nattach; i++) {
			check(x.attach[i].name && x.attach[i].name[0], "attachment without a name");
			check(!strchr(x.attach[i].name, '/'), "attachment name with a path");
		}
	}
	sw_extract_release(&x);
	return 0;
}
