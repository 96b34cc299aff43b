/*
 * cancel.c - the cancel flag every call polls.  A leaf: client.c (between
 * retries) and transfer.c (while a transfer runs) both read it, so it lives
 * in neither.
 */
#include "llm/llm_int.h"

void sw_llm_cancel_request(struct sw_llm_cancel *c)
{
	atomic_store(&c->requested, true);
}

bool sw__llm_cancelled(const struct sw_llm_cancel *c)
{
	return c && atomic_load(&((struct sw_llm_cancel *)c)->requested);
}
