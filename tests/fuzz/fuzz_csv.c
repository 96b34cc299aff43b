/* fuzz_csv.c - base's CSV reader on any bytes, from memory, with small
 * limits so that the over-limit paths run too, with and without backslash
 * escapes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int pass = 0; pass < 2; pass++) {
		struct sw_csv c;
		size_t total = 0;
		sw_csv_init_mem(&c, (const char *)data, size, "fuzz");
		c.backslash = pass == 1;
		c.max_field = 64;
		c.max_fields = 8;
		c.max_row = 256;
		while (sw_csv_next(&c, NULL) == 1) {
			if (c.nfields > c.max_fields)
				abort();
			for (size_t i = 0; i < c.nfields; i++) {
				size_t n = strlen(sw_csv_field(&c, i));
				if (n > c.max_field)
					abort();
				total += n;
			}
		}
		(void)total;
		sw_csv_release(&c);
	}
	return 0;
}
