/*
 * fuzz_answers.c - hostile model answers through the readers of the
 * judge's JSON ({supported, span, reason}) and of the reviewer's findings
 * ({"findings": [{kind, passage, why}]} or a bare list): the bytes up to
 * the first NUL are the judge's answer, the rest the reviewer's.  Checks:
 * a refused judge answer says why and sets nothing; a read one has a span;
 * the findings text is never empty and counts what it lists.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_answers: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = sw_xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	size_t jlen = strlen(copy);
	const char *review = jlen < size ? copy + jlen + 1 : copy;

	struct sw_judge_answer a;
	struct sw_err err = { 0 };
	memset(&a, 0, sizeof(a));
	if (sw__pipeline_judge_answer_parse(&a, copy, jlen, &err) != 0)
		check(err.msg[0] != '\0' && !a.span && !a.reason, "a refused answer set something");
	else
		check(a.span != NULL, "a read answer without a span");
	sw_judge_answer_release(&a);

	size_t k = 99;
	char *text = sw__pipeline_findings_text(review, &k);
	check(text && *text, "no findings text");
	check(k == 0 || strstr(text, "1. [") == text, "findings counted but not listed first");
	free(text);
	free(copy);
	return 0;
}
