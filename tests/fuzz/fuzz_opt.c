/*
 * fuzz_opt.c - hostile Opticon .OPT image lists through the OPT reader.
 * Checks: a failure has a message; every page has a key, and sw_opt_find
 * finds a page with that key (the first of them, by the sorted index).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_opt: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_opt o;
	struct sw_err err = { 0 };
	memset(&o, 0, sizeof(o));
	if (sw_opt_parse(&o, (const char *)data, size, &err) != 0) {
		check(err.code != 0 && err.msg[0] != '\0', "failure without a message");
		sw_opt_release(&o);
		return 0;
	}
	for (size_t i = 0; i < o.n && i < 64; i++) {
		check(o.pages[i].key != NULL, "a page without a key");
		size_t at = sw_opt_find(&o, o.pages[i].key);
		check(at < o.n && strcmp(o.pages[at].key, o.pages[i].key) == 0,
		      "a page's key is not found");
		check(at <= i, "not the first page with the key");
	}
	/* No line of the file can hold a newline, so no key is this one. */
	check(sw_opt_find(&o, "no\nsuch key") == SIZE_MAX, "a key that is no page's found");
	sw_opt_release(&o);
	return 0;
}
