/* bates_query.c - finding evidence pages by a Bates number or range in any
 * spelling: the token is brought to the canonical form (bates.c) and looked
 * up on pages.bates_prefix, which the store writes in that form. */
#include <string.h>

#include "record/record_int.h"

int sw_record_bates_find(uint64_t *have, struct sw_record_page *first,
			 struct sw_bates_ref *ref, struct sw_matter *m,
			 const char *text, size_t len, struct sw_err *err)
{
	struct sw_bates_ref r;
	*have = 0;
	if (first)
		memset(first, 0, sizeof(*first));
	if (ref)
		memset(ref, 0, sizeof(*ref));
	if (sw_bates_ref_parse(&r, text, len) != 0)
		return sw_err_set(err, SW_EINPUT, "'%.*s' is not a Bates number or range",
				  (int)(len > 80 ? 80 : len), text);
	if (ref)
		*ref = r;
	return sw_record_bates_lookup(have, first, m, &r, err);
}
