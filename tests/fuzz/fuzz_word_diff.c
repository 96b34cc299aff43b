/*
 * fuzz_word_diff.c - two hostile texts (split at the first "\n====\n", else
 * in half) through the word diff.  Besides memory errors it checks what the
 * correction's statistics and the export rely on: the counts add up to
 * each side's words, and the kept and removed ops spell the draft, the
 * kept and added ops the final (white space normalised, as a diff against
 * nothing gives them).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The words of text, normalised: the one op of its diff against nothing
 * (a word may hold NUL bytes: lengths, not C strings). */
static void normalised(struct sw_buf *out, const char *text, size_t len, size_t *words,
		       bool removed)
{
	json_t *ops = NULL;
	struct sw_diff_stats st;
	if (sw_word_diff(&ops, &st, removed ? text : "", removed ? len : 0, removed ? "" : text,
			 removed ? 0 : len, NULL) != 0 || json_array_size(ops) > 1)
		abort();
	*words = removed ? st.removed : st.added;
	if (json_array_size(ops)) {
		json_t *t = json_array_get(json_array_get(ops, 0), 1);
		sw_buf_add(out, json_string_value(t), json_string_length(t));
	}
	json_decref(ops);
}

static void spell(struct sw_buf *b, const json_t *ops, char other)
{
	size_t i;
	json_t *op;
	json_array_foreach(ops, i, op) {
		const char *tag = json_string_value(json_array_get(op, 0));
		if (tag[0] != '=' && tag[0] != other)
			continue;
		if (b->len)
			sw_buf_addc(b, ' ');
		json_t *t = json_array_get(op, 1);
		sw_buf_add(b, json_string_value(t), json_string_length(t));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *sep = NULL;
	size_t alen = size / 2, bstart = size / 2;
	for (size_t i = 0; i + 6 <= size; i++)
		if (memcmp(text + i, "\n====\n", 6) == 0) {
			sep = text + i;
			break;
		}
	if (sep) {
		alen = (size_t)(sep - text);
		bstart = alen + 6;
	}
	const char *b = text + bstart;
	size_t blen = size - bstart;

	json_t *ops = NULL;
	struct sw_diff_stats st;
	if (sw_word_diff(&ops, &st, text, alen, b, blen, NULL) != 0)
		abort();
	size_t na, nb;
	struct sw_buf wa = SW_BUF_INIT, wb = SW_BUF_INIT;
	normalised(&wa, text, alen, &na, true);
	normalised(&wb, b, blen, &nb, false);
	if (st.kept + st.changed + st.removed != na || st.kept + st.changed + st.added != nb)
		abort();
	/* Adjacent ops never have the same tag; "-" comes before "+". */
	const char *prev = "";
	size_t i;
	json_t *op;
	json_array_foreach(ops, i, op) {
		const char *tag = json_string_value(json_array_get(op, 0));
		if (!strcmp(tag, prev) || (!strcmp(prev, "+") && !strcmp(tag, "-")) ||
		    json_string_length(json_array_get(op, 1)) == 0)
			abort();
		prev = tag;
	}
	if (sw_utf8_valid(text, alen) && sw_utf8_valid(b, blen)) {
		struct sw_buf sa = SW_BUF_INIT, sb = SW_BUF_INIT;
		spell(&sa, ops, '-');
		spell(&sb, ops, '+');
		if (sa.len != wa.len || memcmp(sa.data, wa.data, wa.len) != 0 ||
		    sb.len != wb.len || memcmp(sb.data, wb.data, wb.len) != 0)
			abort();
		sw_buf_release(&sa);
		sw_buf_release(&sb);
	}
	sw_buf_release(&wa);
	sw_buf_release(&wb);
	json_decref(ops);
	return 0;
}
