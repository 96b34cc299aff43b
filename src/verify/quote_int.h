/* quote_int.h - what the quotation files (quote.c, quote_pattern.c,
 * quote_find.c, alter.c, closest.c, opinion.c)
 * share: a text cut into folded words, and a quotation compiled into a
 * pattern of words and gaps.  The rest of verify/ sees only the functions
 * of verify_int.h. */
#ifndef SW_VERIFY_QUOTE_INT_H
#define SW_VERIFY_QUOTE_INT_H

#include "verify/verify_int.h"

#define SW__VERIFY_QUOTE_MAX_ITEMS 4096  /* words and gaps of one quotation */

/* One word: folded bytes [s, e) of the words' text.  join: this word and
 * the next are the halves of a word hyphenated at a line end ("deliv-" /
 * "ery"), which a quotation may give whole or with its hyphen. */
struct sw__word {
	size_t s, e;
	uint64_t h;     /* hash of the word (apostrophes left out) */
	uint64_t hj;    /* join: hash of the two halves as one word */
	bool join;
};

/* A text as words.  text is the folded text (case, marks, quotes, dashes)
 * of the caller's bytes less the skipped ranges; map takes an offset of
 * text back to the caller's bytes (len + 1 entries). */
struct sw__words {
	char *text;
	size_t len;
	size_t *map;
	struct sw__word *w;
	size_t n;
};

void sw__verify_words_init(struct sw__words *out, const char *text, size_t len,
		    const struct sw__verify_skip *skip, size_t nskip);
void sw__verify_words_release(struct sw__words *w);

/* The first word whose original start is at or after off (n when none). */
size_t sw__verify_words_at(const struct sw__words *w, size_t off);

/* Where word k (< w->n) ends in the caller's bytes: past the whole
 * character its last folded byte came from.  One character may fold into
 * several words ("\u248B" into "4."); a word ending inside it ends after
 * it, so a match is never an empty span. */
size_t sw__verify_words_end(const struct sw__words *w, size_t k);

enum sw__verify_item_kind {
	SW__VERIFY_ITEM_WORD,   /* a word of the original */
	SW__VERIFY_ITEM_PREFIX, /* "judgment[]", "appl[ying]": a word that starts so */
	SW__VERIFY_ITEM_GAP,    /* an ellipsis or an insertion: up to max words */
};

struct sw__verify_item {
	enum sw__verify_item_kind kind;
	uint64_t h;             /* WORD: the word's hash */
	const char *p;          /* PREFIX: folded prefix (into the pattern) */
	size_t plen;
	size_t max;             /* GAP: the most words it stands for */
	size_t qs, qe;          /* WORD, PREFIX, bracket GAP: bytes of the quotation */
	bool ellipsis;          /* GAP: an ellipsis (else a bracketed insertion,
				 * whose folded text p, plen hold; name: it
				 * starts with a capital) */
	bool name;
	uint64_t h2;            /* WORD: another hash it matches ("[un]fair":
				 * "unfair" or "fair"); h when none */
	size_t gap;             /* GAP: its number, from 0 (< the pattern's ngaps) */
};

struct sw__verify_pattern {
	const char *quote;      /* borrowed: the quotation as written */
	struct sw__words q;     /* the quotation's own words */
	struct sw__verify_item *it;
	size_t n;
	size_t nwords;          /* WORD and PREFIX items */
	size_t ngaps;           /* GAP items (at most that many) */
	char *prefixes;         /* the PREFIX items' bytes */
};

/* Compile a quotation: Bluebook alterations, ellipses, "[sic]" and
 * trailing "(emphasis added)"-style parentheticals. */
void sw__verify_pattern_init(struct sw__verify_pattern *out, const char *quote, size_t qlen);
void sw__verify_pattern_release(struct sw__verify_pattern *p);

/* Whether word k of w is item it (WORD or PREFIX); *used gets the
 * number of words of w it took (2 for a rejoined hyphenated word). */
bool sw__verify_item_is(const struct sw__verify_item *it, const struct sw__words *w, size_t k,
		 size_t *used);

/* The first match of p in w starting at a word in [from, to) (word
 * indexes); on a match *ws and *we get its first word and one past its
 * last.  An ellipsis never stands for words that hold a negation (not, no,
 * never, cannot, n't, nor, neither, without); a bracketed insertion
 * replaces at most three words, and only words it may stand for (a
 * pronoun or article, a word of its stem, a description it names) with
 * the same negation. */
bool sw__verify_pattern_find(const struct sw__verify_pattern *p, const struct sw__words *w, size_t from,
		      size_t to, size_t *ws, size_t *we);

/* An alteration of a quotation in a match: gap item gi of the pattern
 * stands for words [ws, we) of the text. */
struct sw__verify_alter {
	bool found;
	size_t gi, ws, we;
};

/* sw__verify_pattern_find(); *sub gets the match's first bracketed substitution
 * of words (found false when none). */
bool sw__verify_pattern_find_sub(const struct sw__verify_pattern *p, const struct sw__words *w, size_t from,
			  size_t to, size_t *ws, size_t *we, struct sw__verify_alter *sub);

/* sw__verify_pattern_find() that also lets an ellipsis or a bracket add or drop a
 * negation; *rev gets the first such alteration of the match (found false
 * when the match needs none), *sub the first bracketed substitution of
 * words (found false when none). */
bool sw__verify_pattern_find_alter(const struct sw__verify_pattern *p, const struct sw__words *w,
			    size_t from, size_t to, size_t *ws, size_t *we, struct sw__verify_alter *rev,
			    struct sw__verify_alter *sub);

/* For a reason: "the ellipsis omits \"not\" - the omission reverses the
 * sentence", "[denies] stands for \"approves\"".  text is w's.  Caller
 * frees. */
char *sw__verify_alter_describe(const struct sw__verify_pattern *p, const struct sw__words *w,
			 const char *text, const struct sw__verify_alter *a);

/* The length of the word character at s (n bytes left; letters and
 * digits of any script), or 0; the end of the word at s[i] (apostrophes
 * inside it). */
size_t sw__verify_quote_word_char(const char *s, size_t n);
size_t sw__verify_quote_word_end(const char *s, size_t n, size_t i);

/* Whether bracket gap it may stand for words [a, b) of w, negation aside
 * (alter.c): it is a name, one of the words shares its stem ("[the Rule]"
 * for "Rule 56(c)", "[approved]" for "approves"), or all are pronouns,
 * articles and auxiliaries ("[the carrier]" for "it"); never "[denies]"
 * for "approves". */
bool sw__verify_alter_may_stand_for(const struct sw__verify_item *it, const struct sw__words *w, size_t a,
			     size_t b);

/* Whether words [a, b) of w hold a negation; bracket text s (n bytes,
 * folded) likewise (alter.c). */
bool sw__verify_words_negated(const struct sw__words *w, size_t a, size_t b);
bool sw__verify_text_negated(const char *s, size_t n);

/* The passage of w between words from and to closest to p (closest.c);
 * false when none shares a third of its words. */
bool sw__verify_closest_in(struct sw__verify_closest *out, const struct sw__verify_pattern *p,
		    const struct sw__words *w, const char *text, size_t from, size_t to);

#endif /* SW_VERIFY_QUOTE_INT_H */
