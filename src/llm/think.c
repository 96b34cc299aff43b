/*
 * think.c - a reasoning model's thinking, split out of the text of its
 * answer.  A server that parses the model's output hands thinking over in
 * `reasoning_content` (llama.cpp) or `reasoning` (others); one that does not
 * (or a template it cannot parse) leaves `<think>...</think>` in the
 * content, or only the closing `</think>` when the chat template opened the
 * block in the prompt.  Pieces arrive in any split, so a tag cut between
 * two stream events is held back until the next piece says what it is.  A
 * leaf: sse.c feeds it and says where each piece goes.
 */
#include <stdlib.h>
#include <string.h>

#include "llm/llm_int.h"

static const char OPEN[] = "<think>";
static const char CLOSE[] = "</think>";

static bool at(const char *p, size_t n, const char *tag)
{
	size_t k = strlen(tag);
	return n >= k && memcmp(p, tag, k) == 0;
}

/* p[0..n) is a proper beginning of tag: more bytes may complete it. */
static bool starts(const char *p, size_t n, const char *tag)
{
	return n < strlen(tag) && memcmp(p, tag, n) == 0;
}

static int put(struct sw__llm_think *t, enum sw__llm_think_part part, const char *p, size_t n,
	       sw__llm_think_emit emit, void *user)
{
	if (part == SW__LLM_THINK_CONTENT && t->trim) {
		/* The blank line a model writes after its thinking is not
		 * the answer's. */
		while (n > 0 && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		if (n == 0)
			return 0;
		t->trim = false;
	}
	if (n == 0 && part != SW__LLM_THINK_STRAY)
		return 0;
	return emit(user, part, p, n);
}

static int scan(struct sw__llm_think *t, const char *p, size_t n, bool final,
		sw__llm_think_emit emit, void *user)
{
	size_t start = 0, i = 0;
	int rc;

	while (i < n) {
		if (p[i] != '<') {
			i++;
			continue;
		}
		enum sw__llm_think_part here = t->in_think ? SW__LLM_THINK_REASONING
							   : SW__LLM_THINK_CONTENT;
		if (!t->in_think && at(p + i, n - i, OPEN)) {
			if ((rc = put(t, here, p + start, i - start, emit, user)) != 0)
				return rc;
			t->in_think = true;
			i += strlen(OPEN);
			start = i;
			continue;
		}
		if (at(p + i, n - i, CLOSE)) {
			if ((rc = put(t, here, p + start, i - start, emit, user)) != 0)
				return rc;
			/* A closing tag with no opening one: the template opened
			 * the block, so everything before it was thinking. */
			if (!t->in_think &&
			    (rc = put(t, SW__LLM_THINK_STRAY, NULL, 0, emit, user)) != 0)
				return rc;
			t->in_think = false;
			t->trim = true;
			i += strlen(CLOSE);
			start = i;
			continue;
		}
		if (!final && (starts(p + i, n - i, CLOSE) ||
			       (!t->in_think && starts(p + i, n - i, OPEN)))) {
			if ((rc = put(t, here, p + start, i - start, emit, user)) != 0)
				return rc;
			memcpy(t->pend, p + i, n - i);
			t->npend = n - i;
			return 0;
		}
		i++;
	}
	return put(t, t->in_think ? SW__LLM_THINK_REASONING : SW__LLM_THINK_CONTENT, p + start,
		   n - start, emit, user);
}

int sw__llm_think_feed(struct sw__llm_think *t, const char *p, size_t n, sw__llm_think_emit emit,
		       void *user)
{
	if (t->npend == 0)
		return scan(t, p, n, false, emit, user);
	/* A held tag beginning joined with what follows it.  Only stream
	 * events get here, and each is small. */
	size_t k = t->npend;
	char *buf = sw_xmalloc(k + n);
	memcpy(buf, t->pend, k);
	memcpy(buf + k, p, n);
	t->npend = 0;
	int rc = scan(t, buf, k + n, false, emit, user);
	free(buf);
	return rc;
}

int sw__llm_think_flush(struct sw__llm_think *t, sw__llm_think_emit emit, void *user)
{
	size_t k = t->npend;
	t->npend = 0;
	return k ? scan(t, t->pend, k, true, emit, user) : 0;
}
