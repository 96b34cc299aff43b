/* verify_int.h - what verify/'s files share. */
#ifndef SW_VERIFY_INT_H
#define SW_VERIFY_INT_H

#include "verify/verify.h"

/* A one-line excerpt of text[start..end) with some context, whitespace
 * collapsed, at most SW_VERIFY_EXCERPT bytes, cut on character boundaries.
 * Caller frees. */
char *sw__verify_excerpt(const char *text, size_t len, size_t start, size_t end);

#endif /* SW_VERIFY_INT_H */
