/*
 * fuzz_opt.c - hostile Opticon .OPT image lists through the OPT reader.
 * Checks: a failure has a message; the pages read again, and every page
 * has a key that sw_opt_find finds (its first page, by the index).
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
	struct sw_opt_range r = { 0 };
	check(sw_opt_read(&r, &o, 0, 64, &err) == 0 && r.n == (o.n < 64 ? o.n : 64),
	      "the pages are not read again");
	for (size_t i = 0; i < r.n; i++) {
		check(r.pages[i].key != NULL, "a page without a key");
		size_t at = sw_opt_find(&o, r.pages[i].key);
		check(at <= i, "a page's key is not found, or not its first page");
		struct sw_opt_range one = { 0 };
		check(sw_opt_read(&one, &o, at, 1, &err) == 0 && one.n == 1 &&
			      strcmp(one.pages[0].key, r.pages[i].key) == 0,
		      "the page found has another key");
		sw_opt_range_release(&one);
	}
	sw_opt_range_release(&r);
	/* No line of the file can hold a newline, so no key is this one. */
	check(sw_opt_find(&o, "no\nsuch key") == SIZE_MAX, "a key that is no page's found");
	sw_opt_release(&o);
	return 0;
}
