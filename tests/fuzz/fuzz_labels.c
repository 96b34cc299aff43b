/*
 * fuzz_labels.c - hostile labels CSV (exhibit labels to Bates numbers or
 * file names) through the labels reader, as text already decoded.  Checks:
 * a row has both a label and a target (non-empty) or neither (a bad row),
 * no field is longer than the file, and lines go forward.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_labels: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_labels l;
	sw_labels_parse(&l, (const char *)data, size);
	int line = 0;
	for (size_t i = 0; i < l.n; i++) {
		const struct sw_label_row *r = &l.rows[i];
		check(!r->label == !r->target, "a label without a target or the other way");
		check(r->line >= line && r->line >= 1, "lines go backwards");
		line = r->line;
		if (!r->label)
			continue; /* a bad row, reported by line */
		check(r->label[0] && r->target[0], "an empty label or target");
		check(strlen(r->label) <= size && strlen(r->target) <= size, "a field longer than the file");
	}
	sw_labels_release(&l);
	return 0;
}
