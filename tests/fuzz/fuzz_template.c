/*
 * fuzz_template.c - hostile prompt templates through sw_tmpl_render and
 * sw_tmpl_each.  Besides memory errors it checks what the context audit
 * relies on: every span lies inside the rendered text and holds its value,
 * spans come in order without overlap, text without placeholders comes out
 * byte for byte, and each agrees with render on what a template is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_template: %s", what);
}

/* Fills every name that starts with a letter other than 'z' with a value
 * that holds braces, so that a value is never taken for a placeholder. */
static const char *lookup(void *ud, const char *name, size_t len, const char **key_out)
{
	(void)ud;
	(void)len;
	if (name[0] == 'z' || name[0] < 'A')
		return NULL;
	*key_out = "v";
	return "<{{v}}>";
}

static int count(void *ud, const char *name, size_t len, int line)
{
	(void)name;
	check(len > 0 && len <= 64 && line >= 1, "each: bad name or line");
	(*(size_t *)ud)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *tmpl = sw_xstrndup((const char *)data, size);
	struct sw_buf out = SW_BUF_INIT;
	struct sw_tmpl_span *spans = NULL;
	size_t n = 0, seen = 0;
	struct sw_err err = { 0 };
	int rc = sw_tmpl_render(&out, &spans, &n, tmpl, "fuzz.md", lookup, NULL, &err);
	int erc = sw_tmpl_each(tmpl, count, &seen);
	check(rc == 0 || err.msg[0], "error without a message");
	check(rc != SW_EINPUT || out.len == 0, "failed render left text");
	if (rc == 0) {
		check(erc == 0 && seen == n, "each and render disagree");
		size_t pos = 0;
		for (size_t i = 0; i < n; i++) {
			check(spans[i].start >= pos, "spans overlap");
			check(spans[i].start + spans[i].len <= out.len, "span outside the text");
			check(spans[i].len == 7 &&
			      memcmp(out.data + spans[i].start, "<{{v}}>", 7) == 0, "span value");
			pos = spans[i].start + spans[i].len;
		}
		if (n == 0)
			check(out.len == strlen(tmpl) && memcmp(out.data, tmpl, out.len) == 0,
			      "literal text changed");
	} else if (rc == SW_EINPUT && erc == 0) {
		/* each accepts the syntax, so render failed on a name: the lookup */
		check(strstr(err.msg, "is not a placeholder here") != NULL, "each and render "
		      "disagree on syntax");
	}
	free(spans);
	sw_buf_release(&out);
	free(tmpl);
	return 0;
}
