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
	/* The record pages it cites, at most SW_VERIFY_MAX_PAGES, NULL when
	 * none: added with sw__verify_remember_page or sw__verify_same_pages,
	 * freed with the run.  (A fixed array of them in every claim's entry
	 * was two fifths of the memory of verifying a draft.) */
	int64_t *pages;
	size_t npages, cap;
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
	struct sw__verify_rec *rec;  /* the record rules' state (rules_int.h) */
	struct sw_buf page;          /* scratch: a page's text */
	struct sw_err err;           /* the first hard failure */
	struct sw_err lookup;        /* scratch: a look-up's error, for sw__verify_found */
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
/* Whether a record look-up that returned rc (its error in *e) found what it
 * looked for: 0 is found, SW_ENOTFOUND is not; any other failure (the
 * database interrupted, a statement refused) is the run's hard failure: the
 * first is kept in u->err, the run stops, and sw_verify() fails with it, so a
 * broken record is never reported as a claim it does not support. */
bool sw__verify_found(struct sw__verify_run *u, int rc, const struct sw_err *e);
/* The quotation that holds claim i (claims.h: in_quote), innermost first,
 * or -1 when it is in none of the report's quotations. */
long sw__verify_quote_of(const struct sw__verify_run *u, size_t i);
/* Add page id to what a claim resolved to, once, up to SW_VERIFY_MAX_PAGES. */
void sw__verify_remember_page(struct sw__verify_resolved *res, int64_t id);
/* The pages of from, in their order, as to's (which had none). */
void sw__verify_same_pages(struct sw__verify_resolved *to, const struct sw__verify_resolved *from);

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
/* rules_speaker.c: every supported quotation the sentence gives to a
 * speaker the page does not (after the quotations are checked). */
void sw__verify_speakers(struct sw__verify_run *u);
/* A proposition's facts on its cited pages (rules_prop.c); after the dates
 * and quotations. */
void sw__verify_proposition(struct sw__verify_run *u, size_t i);

/* ------------------------------------------- quotations (quote.c, closest.c,
 * opinion.c).  Matching is by words: folded, punctuation and line breaks
 * ignored, line-end hyphens rejoined, Bluebook alterations honoured (see
 * quote.c); bounded time, linear in the text for any real quotation. */

/* A range of a text that is not words: a transcript's line numbers, a page
 * header or margin, a star page, an HTML tag.  The matcher reads the text as
 * if the range were a space (join: as if it were not there at all, for a
 * range inside a word).  Ranges may come in any order and may overlap. */
struct sw__verify_skip {
	size_t start, end;
	bool join;
};

/* sw_verify_quote_in() over text less the skip ranges (nskip may be 0). */
bool sw__verify_quote_find(const char *quote, size_t qlen, const char *text, size_t len,
			   const struct sw__verify_skip *skip, size_t nskip, size_t *start,
			   size_t *end);

/* When quote is in text (less skip) only through an alteration that adds
 * or drops a negation (an ellipsis over "not", "[denies]" for "does not
 * approve"): why ("the ellipsis omits \"not be able to\" â the omission
 * reverses the sentence"), the passage in *start, *end; else NULL (it is
 * in the text as written, or not at all).  A quotation so matched is
 * contradicted.  Caller frees. */
char *sw__verify_quote_reversed(const char *quote, size_t qlen, const char *text, size_t len,
				const struct sw__verify_skip *skip, size_t nskip, size_t *start,
				size_t *end);
/* For a quotation found in text: its first bracketed substitution of
 * words ("[the carrier] stands for \"it\""), for the reason, or NULL.
 * Caller frees. */
char *sw__verify_quote_note(const char *quote, size_t qlen, const char *text, size_t len,
			    const struct sw__verify_skip *skip, size_t nskip);

#define SW__VERIFY_MAX_DIFFS 8

/* Words that differ between a quotation and its closest passage, as each
 * side writes them (whitespace collapsed); one side is NULL when only the
 * other has words there. */
struct sw__verify_diff {
	char *draft;
	char *page;
	bool omitted;   /* page: words an ellipsis of the draft stands for
			 * that hold a negation (draft NULL) */
};

/* The passage of a text closest to a quotation that is not in it. */
struct sw__verify_closest {
	size_t start, end;   /* the passage: bytes of the text */
	size_t same, words;  /* the quotation's words found there, in order / all */
	struct sw__verify_diff diff[SW__VERIFY_MAX_DIFFS];
	size_t ndiffs;
	size_t more;         /* differences past SW__VERIFY_MAX_DIFFS */
};

/* The passage of text (less skip) closest to quote, by a word alignment over
 * the windows that the quotation's rarest words point to.  False (out
 * zeroed) when no passage shares a third of the quotation's words.  Bounded:
 * two passes over the text and a few alignments of the quotation's first
 * 400 words.  Release out with sw__verify_closest_release. */
bool sw__verify_closest(struct sw__verify_closest *out, const char *quote, size_t qlen,
			const char *text, size_t len, const struct sw__verify_skip *skip,
			size_t nskip);
void sw__verify_closest_release(struct sw__verify_closest *c);
/* For a reason: "\"…the earliest we can ship…\" — \"could\" in the draft,
 * \"can\" on the page".  text is the one c was found in.  Caller frees. */
char *sw__verify_closest_describe(const struct sw__verify_closest *c, const char *text,
				  size_t len);
/* Both at once: the description of the passage of text closest to quote,
 * or NULL when nothing is close.  Caller frees. */
char *sw__verify_closest_text(const char *quote, size_t qlen, const char *text, size_t len,
			      const struct sw__verify_skip *skip, size_t nskip);

/* The verdict of quotation claim i attributed to case citation claim a
 * (full, short or id.; checked in the first pass): found in the stored
 * opinion text, on the pages a's pin names when the text has star pages
 * ("*322", "[*322]"), else contradicted with the page it is on; not found,
 * with the closest passage and the words that differ (opinion.c). */
void sw__verify_quote_opinion(struct sw__verify_run *u, size_t i, size_t a);

/* ------------------------------------------------------- the judge (judge.c) */

/* Put every proposition still supported to j (verify.h, "the judge") and
 * apply its answers; fills u->r->judged.  Called after the deterministic
 * rules, before the citations' resolved pages are freed. */
void sw__verify_judge_pass(struct sw__verify_run *u, const struct sw_verify_judge *j);
/* What answer a is worth for proposition prop of text (its facts), whose
 * sentence less its citations and quotations (blanked) is names[0..nlen),
 * from byte at of text on, and whose
 * cited pages are pages[0..npages): agreed (the span is on page *page at
 * [*start, *end)), disagreed, or bad span with *why (caller frees).  Pure:
 * no matter. */
enum sw_judge_outcome sw__verify_judge_check(const char *text, const struct sw_claim *prop,
					     const char *names, size_t at, size_t nlen,
					     const char *const *pages, size_t npages,
					     const struct sw_judge_answer *a, size_t *page,
					     size_t *start, size_t *end, char **why);
/* Free r->judged. */
void sw__verify_judged_release(struct sw_verify_report *r);

/* uncited.c: the uncited sentences and missing elements of r (opts may be
 * NULL: warn, no elements); whether they block the gate; freeing them. */
void sw__verify_uncited(struct sw_verify_report *r, const struct sw_verify_opts *o);
bool sw__verify_uncited_blocks(const struct sw_verify_report *r);
void sw__verify_uncited_release(struct sw_verify_report *r);

#endif /* SW_VERIFY_INT_H */
