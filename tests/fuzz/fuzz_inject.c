/*
 * fuzz_inject.c - hostile page text through the injection scan.  Besides
 * memory errors it checks what the journal and the screen rely on: at
 * most 32 flags a page, each with a known kind and an excerpt of at most
 * 160 bytes on one line that is valid UTF-8 whenever the page is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kinds[] = { "override", "role-tag", "fake-system", "exfiltrate",
				     "cite", "verdict", "frame" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_inject_flag *f = NULL;
	size_t n = 0;
	const char *text = (const char *)data;
	bool valid = sw_utf8_valid(text, size);

	sw_inject_scan(&f, &n, text, size, 1, "page.txt", NULL, 1);
	if (n > 32)
		abort();
	for (size_t i = 0; i < n; i++) {
		bool known = false;
		for (size_t k = 0; k < SW_ARRAY_LEN(kinds); k++)
			known |= !strcmp(f[i].kind, kinds[k]);
		size_t len = strlen(f[i].excerpt);
		if (!known || len > 160 || strchr(f[i].excerpt, '\n') || strchr(f[i].excerpt, '\r'))
			abort();
		if (valid && !memchr(text, '\0', size) && !sw_utf8_valid(f[i].excerpt, len))
			abort();
	}
	sw_inject_flags_free(f, n);
	return 0;
}
