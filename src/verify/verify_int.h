/* verify_int.h - what verify/'s files share. */
#ifndef SW_VERIFY_INT_H
#define SW_VERIFY_INT_H

#include "verify/verify.h"

/* A one-line excerpt of text[start..end) with some context, whitespace
 * collapsed, at most SW_VERIFY_EXCERPT bytes, cut on character boundaries.
 * Caller frees. */
char *sw__verify_excerpt(const char *text, size_t len, size_t start, size_t end);

/* What a citation claim resolved to, for the claims that lean on it. */
struct sw__verify_resolved {
	int64_t pages[SW_VERIFY_MAX_PAGES]; /* record pages it cites */
	size_t npages;
	bool have_case;
	struct sw_authority_case kase;      /* the case, borrowed from lookup */
	struct sw_authority_lookup lookup;
};

/* The state of one sw_verify() call, shared by the driver and the rules. */
struct sw__verify_run {
	struct sw_verify_report *r;
	struct sw_matter *m;
	struct sw_authority *auth;
	struct sw__verify_resolved *res;
	char *bates_summary;         /* computed when first needed */
	struct sw_buf page;          /* scratch: a page's text */
	struct sw_err err;           /* the first hard failure */
};

/* Set claim i's verdict and reason (replacing any earlier reason). */
void sw__verify_set(struct sw__verify_run *u, size_t i, enum sw_verdict v, const char *fmt,
		    ...) SW_PRINTF(4, 5);
/* A new, zeroed evidence entry of claim i, owned by its verdict. */
struct sw_evidence *sw__verify_add_evidence(struct sw__verify_run *u, size_t i);
/* Evidence for claim i: case c of the authority table. */
void sw__verify_add_case_evidence(struct sw__verify_run *u, size_t i,
				  const struct sw_authority_case *c);
/* Evidence for claim i: record page p, with an optional excerpt (copied). */
void sw__verify_add_page_evidence(struct sw__verify_run *u, size_t i,
				  const struct sw_record_page *p, const char *excerpt);
/* The claim as written, for reasons.  Caller frees. */
char *sw__verify_claim_text(const struct sw__verify_run *u, const struct sw_claim *c);
/* The first run of digits in s (at most 18), or false. */
bool sw__verify_num(const char *s, uint64_t *out);
/* Add page id to what a claim resolved to, once, up to SW_VERIFY_MAX_PAGES. */
void sw__verify_remember_page(struct sw__verify_resolved *res, int64_t id);

/* The verdict rules (rules.c), each for claim i of u's report.  The
 * citations are checked first; the dates and quotations after, against what
 * the citations beside them resolved to. */
void sw__verify_case_full(struct sw__verify_run *u, size_t i);
void sw__verify_case_short(struct sw__verify_run *u, size_t i);
void sw__verify_code(struct sw__verify_run *u, size_t i);
void sw__verify_bates(struct sw__verify_run *u, size_t i);
void sw__verify_record(struct sw__verify_run *u, size_t i);
void sw__verify_date(struct sw__verify_run *u, size_t i);
void sw__verify_quote(struct sw__verify_run *u, size_t i);

#endif /* SW_VERIFY_INT_H */
