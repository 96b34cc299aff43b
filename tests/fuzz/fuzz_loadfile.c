/*
 * fuzz_loadfile.c - libFuzzer target for the load-file parsers: the same
 * bytes go through the .DAT and the .OPT parser.  Every string is read to
 * its end so that ASan sees any pointer that escaped the arena, and the
 * invariants callers rely on are checked (an abort is a finding).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static void touch(const char *s)
{
	if (!s)
		abort();
	sink += strlen(s);
}

static void check_dat(const char *data, size_t size)
{
	struct sw_dat d;
	struct sw_err err = { 0 };

	if (sw_dat_parse(&d, data, size, &err) != 0) {
		if (err.code == 0 || err.msg[0] == '\0' || d.records || d.names)
			abort();
		sw_dat_release(&d);
		return;
	}
	if (d.nfields == 0 || d.nfields > SW_DAT_MAX_FIELDS)
		abort();
	touch(d.separator);
	touch(d.qualifier);
	for (size_t i = 0; i < d.nfields; i++)
		touch(d.names[i]);
	size_t bad = 0;
	for (size_t r = 0; r < d.nrecords; r++) {
		const struct sw_dat_record *rec = &d.records[r];
		if ((rec->error == NULL) == (rec->values == NULL) || rec->line < 2)
			abort();
		if (rec->error) {
			touch(rec->error);
			bad++;
			continue;
		}
		for (size_t i = 0; i < d.nfields; i++)
			touch(rec->values[i]);
	}
	if (bad != d.nbad)
		abort();
	if (sw_dat_field(&d, d.names[0]) != 0)
		abort();
	sw_dat_release(&d);
}

static void check_opt(const char *data, size_t size)
{
	struct sw_opt o;
	struct sw_err err = { 0 };

	if (sw_opt_parse(&o, data, size, &err) != 0) {
		if (err.code == 0 || o.n)
			abort();
		sw_opt_release(&o);
		return;
	}
	struct sw_opt_range r = { 0 };
	if (sw_opt_read(&r, &o, 0, o.n, &err) != 0 || r.n != o.n)
		abort();
	for (size_t i = 0; i < r.n; i++) {
		const struct sw_opt_page *p = &r.pages[i];
		touch(p->key);
		touch(p->volume);
		touch(p->image);
		if (p->key[0] == '\0' || (!p->doc_break && p->page_count))
			abort();
	}
	sw_opt_range_release(&r);
	if ((o.nbad == 0) != (o.first_error == NULL))
		abort();
	if (o.first_error)
		touch(o.first_error);
	sw_opt_release(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Copy into an exact-size buffer so that any read past the end is
	 * caught, even in the replay driver. */
	char *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	check_dat(copy, size);
	check_opt(copy, size);
	free(copy);
	return 0;
}
