/*
 * claims_int.h - internals shared by the files of claims/: the scan state,
 * the claim under construction, byte-level text helpers and the trigger
 * functions the re2c scanner (claims_scan.re) calls.
 *
 * The scanner is a re2c DFA that runs over the text once and stops only at
 * places where a claim may begin (a number, a capitalised word, §, Id.,
 * supra, a record keyword, a month, a quotation mark...).  There a trigger
 * function in C parses the claim with bounded look-back and look-ahead and
 * returns where it ended, so the DFA resumes after it.  Everything between
 * triggers is skipped at DFA speed.
 */
#ifndef SW_CLAIMS_INT_H
#define SW_CLAIMS_INT_H

#include <string.h>

#include "claims/claims.h"
#include "claims/claims_tables.h"

/* Bounds on look-back and look-ahead, so hostile text stays linear. */
#define SW__CLAIMS_NAME_BACK 320    /* bytes searched back for a case name */
#define SW__CLAIMS_NAME_WORDS 24    /* words in a case name, at most */
#define SW__CLAIMS_PAREN_MAX 600    /* bytes in a parenthetical */
#define SW__CLAIMS_QUOTE_MAX 8192   /* bytes in an inline quotation */
#define SW__CLAIMS_BLOCK_MAX 65536  /* bytes in a block quotation */
#define SW__CLAIMS_KEY_MAX 64       /* bytes in a reporter lookup key */
#define SW__CLAIMS_REP_WORDS 8      /* words in a reporter abbreviation */
#define SW__CLAIMS_MAX_OPINION_PAGES 150 /* id. pins beyond page + this do not resolve */

/* A claim being built: fields point into the arena once pushed. */
struct sw__claims_builder {
	enum sw_claim_kind kind;
	enum sw_claim_form form;
	size_t start, end, cite_start, cite_end;
	long parallel_to;
	size_t nf;
	char scratch[64]; /* values made here (a year), copied at the push */
	size_t nscratch;
	struct {
		const char *name;
		const char *v; /* not yet copied */
		size_t len;
	} f[SW_CLAIM_MAX_FIELDS];
};

/* A place where "at N" follows a word: a reference cite if the word names
 * an earlier case. */
struct sw__claims_at {
	size_t name_end; /* end of the word before "at" (or before ", at") */
	size_t at;       /* start of "at" */
};

struct sw__claims_scan {
	const char *t;  /* the text, with a NUL at t[n] */
	size_t n;
	struct sw_claims *out;
	size_t done;    /* no citation may start before this */
	struct sw__claims_at *ats;
	size_t nats, capats;
	int failed;     /* SW_ELIMIT once the claim count is past the limit */
	int depth;      /* nesting of look-ahead for parallel cites */
};

/* ---- bytes */

static inline bool sw__claims_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool sw__claims_upper(int c) { return c >= 'A' && c <= 'Z'; }
static inline bool sw__claims_lower(int c) { return c >= 'a' && c <= 'z'; }
static inline bool sw__claims_alpha(int c) { return sw__claims_upper(c) || sw__claims_lower(c); }
static inline bool sw__claims_alnum(int c) { return sw__claims_alpha(c) || sw__claims_digit(c); }

/* The byte at i, or 0 past the end (the text has a NUL at n). */
static inline int sw__claims_at(const struct sw__claims_scan *sc, size_t i)
{
	return i < sc->n ? (unsigned char)sc->t[i] : 0;
}

/* Width of a space character at i (ASCII whitespace, NBSP, thin and
 * zero-width spaces), or 0. */
size_t sw__claims_space_len(const struct sw__claims_scan *sc, size_t i);
/* Skip spaces (and newlines) forward from i; backward to just after the
 * last non-space before i. */
size_t sw__claims_ws(const struct sw__claims_scan *sc, size_t i);
size_t sw__claims_ws_back(const struct sw__claims_scan *sc, size_t i, size_t floor);
/* Skip spaces only within the line. */
size_t sw__claims_blanks(const struct sw__claims_scan *sc, size_t i);
size_t sw__claims_digits(const struct sw__claims_scan *sc, size_t i);
/* The literal lit at i (case-sensitive); returns its end or 0. */
size_t sw__claims_lit(const struct sw__claims_scan *sc, size_t i, const char *lit);
/* As sw__claims_lit, but the literal must not be followed by a letter or digit. */
size_t sw__claims_word(const struct sw__claims_scan *sc, size_t i, const char *lit);
/* True when i starts a word: nothing alphanumeric just before it. */
bool sw__claims_boundary_before(const struct sw__claims_scan *sc, size_t i);
/* The end of an en or em dash or hyphen at i, or 0. */
size_t sw__claims_dash(const struct sw__claims_scan *sc, size_t i);
/* The value of the digits [i, e) (at most nine are read). */
long sw__claims_num(const struct sw__claims_scan *sc, size_t i, size_t e);
/* A year 1600-2099 of exactly four digits at i: its value, end in *end. */
int sw__claims_year(const struct sw__claims_scan *sc, size_t i, size_t *end);

/* ---- claims */

void sw__claims_begin(struct sw__claims_builder *b, enum sw_claim_kind kind,
	      enum sw_claim_form form, size_t start, size_t end);
void sw__claims_field(struct sw__claims_builder *b, const char *name, const char *v, size_t len);
void sw__claims_fieldz(struct sw__claims_builder *b, const char *name, const char *v);
/* A field whose value is an integer, formatted into the builder. */
void sw__claims_fieldi(struct sw__claims_builder *b, const char *name, long v);
/* Copy the claim into the output; returns its index, or -1 past the limit. */
long sw__claims_push(struct sw__claims_scan *sc, const struct sw__claims_builder *b);
/* Record a candidate reference cite. */
void sw__claims_note_at(struct sw__claims_scan *sc, size_t name_end, size_t at);

/* A reporter form: the first table entry with key, and how many share it. */
bool sw__claims_reporter_lookup(const char *key, size_t len, size_t *first, size_t *count);
/* The form at index i of a lookup: the generated table, then the few
 * English reporters claims_reporters.c adds (sw__claims_nreporters and up). */
const struct sw__claims_reporter *sw__claims_rep(size_t i);
/* Make the reporter forms' first-bytes tables (sw__claims_rep_maybe's),
 * once per process; any thread may call it. */
void sw__claims_rep_first(void);
/* Could a reporter form start at i? */
bool sw__claims_rep_maybe(const struct sw__claims_scan *sc, size_t i);

/* ---- citations (claims_cite.c, claims_cite_parts.c, claims_cite_other.c) */

/* The court and year parenthesis after a citation's last pin, then an
 * explanatory parenthetical. */
struct sw__claims_post {
	size_t court_s, court_e;     /* court text, or empty */
	size_t month_s, month_e, day_s, day_e;
	int year;
	size_t paren_s, paren_e;     /* explanatory parenthetical, or empty */
	size_t end;                  /* end of the court/year parenthesis */
	size_t full_end;             /* end including the parenthetical */
	size_t pub_s, pub_e;         /* publisher of a code: (West 2009) */
};

/* The case name before a full citation. */
struct sw__claims_name {
	size_t pl_s, pl_e, df_s, df_e, ante_s, ante_e;
	size_t start;  /* where the name starts, or the cite's start */
	int year;      /* (2007) between the name and the cite */
};

/* Words that end a case name going backwards: signals and connectives. */
extern const char *const sw__claims_stop_words[];

/* The word ending at or before i (after skipping spaces back): [*ws, *we).
 * False at floor. */
bool sw__claims_prev_word(const struct sw__claims_scan *sc, size_t i, size_t floor,
		  size_t *ws, size_t *we);
/* A curly or straight quotation mark ending at e. */
bool sw__claims_ends_with_quote(const struct sw__claims_scan *sc, size_t s, size_t e);
/* Length of an opening mark at s: ( [ " or a curly quote; else 0. */
size_t sw__claims_open_mark(const struct sw__claims_scan *sc, size_t s);
/* The text [s, e) is the word w; is one of the NULL-ended list. */
bool sw__claims_word_is(const struct sw__claims_scan *sc, size_t s, size_t e, const char *w);
bool sw__claims_word_in(const struct sw__claims_scan *sc, size_t s, size_t e,
		const char *const *list);
/* A page at i (digits, roman numerals or a blank, *blank says which);
 * returns the end or 0. */
size_t sw__claims_read_page(const struct sw__claims_scan *sc, size_t i, bool commas, bool *blank);
/* One pin item at i: *12, 12-14, 12 n.3, ¶ 7, 119:12-14; the end or 0. */
size_t sw__claims_read_pin_item(const struct sw__claims_scan *sc, size_t i);
/* A balanced parenthesis or bracket at i: its inside in [*in_s, *in_e),
 * returns the end after the closing mark or 0. */
size_t sw__claims_balanced(const struct sw__claims_scan *sc, size_t i, size_t *in_s, size_t *in_e);
/* The court, year and parenthetical after a citation ending at i. */
void sw__claims_parse_post(struct sw__claims_scan *sc, size_t i, struct sw__claims_post *po);
/* The case name before a full citation at p. */
void sw__claims_find_name(struct sw__claims_scan *sc, size_t p, struct sw__claims_name *nm);
/* The short name before a short cite or supra at p: [*a_s, *a_e). */
bool sw__claims_find_antecedent(struct sw__claims_scan *sc, size_t p, size_t *a_s, size_t *a_e);
/* A digit run at i that starts another citation (a parallel cite)? */
bool sw__claims_starts_cite(struct sw__claims_scan *sc, size_t i);
/* A list of pins from i ("at 62-63, 67-68"); the end or 0. */
size_t sw__claims_read_pins(struct sw__claims_scan *sc, size_t i, bool allow_at);
/* A law section at i (1332, 21-3516, 1981-1983) then subsections:
 * *sec_e ends the section, *pin_e the subsections; returns *pin_e or 0. */
size_t sw__claims_read_section(const struct sw__claims_scan *sc, size_t i, size_t *sec_e, size_t *pin_e);

/* ---- triggers: each returns the end of what it consumed, or 0 */

/* Digits at [p, q): volume of a case, journal or law cite, a title of a
 * code, a year (2024 WL 1, 2006-Ohio-1), a day (3 March 2021). */
size_t sw__claims_try_number(struct sw__claims_scan *sc, size_t p, size_t q);
/* A capitalised word at [p, q): a law or reporter named first, a rule. */
size_t sw__claims_try_lead(struct sw__claims_scan *sc, size_t p, size_t q);
/* Fed. R. Civ. P. and friends, local rules, "Rule 56" at [p, q). */
size_t sw__claims_try_rule(struct sw__claims_scan *sc, size_t p, size_t q, bool local);
/* § or §§ at p with no code before it. */
size_t sw__claims_try_section(struct sw__claims_scan *sc, size_t p, size_t q);
/* Id. / Ibid. at [p, q). */
size_t sw__claims_try_id(struct sw__claims_scan *sc, size_t p, size_t q);
/* supra at [p, q). */
size_t sw__claims_try_supra(struct sw__claims_scan *sc, size_t p, size_t q);

enum sw__claims_record_kw {
	SW__CLAIMS_KW_EXHIBIT, SW__CLAIMS_KW_ECF, SW__CLAIMS_KW_DKT, SW__CLAIMS_KW_DEP,
	SW__CLAIMS_KW_TR, SW__CLAIMS_KW_DECL, SW__CLAIMS_KW_R, SW__CLAIMS_KW_JA, SW__CLAIMS_KW_APP,
};
size_t sw__claims_try_record(struct sw__claims_scan *sc, size_t p, size_t q,
			 enum sw__claims_record_kw kw);
/* A Bates-like token at [p, q): prefix letters then digits. */
size_t sw__claims_try_bates(struct sw__claims_scan *sc, size_t p, size_t q);

/* A month name at [p, q) (month is 1-12). */
size_t sw__claims_try_month(struct sw__claims_scan *sc, size_t p, size_t q, int month);
/* 3/3/2021 or 2021-03-03 at [p, q); iso says which. */
size_t sw__claims_try_numeric_date(struct sw__claims_scan *sc, size_t p, size_t q, bool iso);
/* "03-Jun-2022" at p, the scanner's match ending at q. */
size_t sw__claims_try_dmy_dash(struct sw__claims_scan *sc, size_t p, size_t q);
/* A month and day "3/24" at [p, q) after a date word ("by 3/24"). */
size_t sw__claims_try_monthday(struct sw__claims_scan *sc, size_t p, size_t q);
/* A year standing as a date ("in 2021") at [p, q), digits only. */
size_t sw__claims_try_year(struct sw__claims_scan *sc, size_t p, size_t q);
/* "the third of" / "the 3rd day of" at [p, q); day is 1-31. */
size_t sw__claims_try_ordinal_date(struct sw__claims_scan *sc, size_t p, size_t q, int day);

/* A quotation mark at [p, q); quotes do not move the scan past them. */
void sw__claims_try_quote(struct sw__claims_scan *sc, size_t p, size_t q);
/* A line start at p that may open a block quotation ("> " or indent). */
size_t sw__claims_try_block(struct sw__claims_scan *sc, size_t p);

/* The scanner proper (claims_scan.re). */
void sw__claims_run(struct sw__claims_scan *sc);

/* After the scan: references, order, sentences, resolution, quotes. */
void sw__claims_finish(struct sw__claims_scan *sc);
void sw__claims_find_references(struct sw__claims_scan *sc);
void sw__claims_resolve(struct sw_claims *c);
/* Record id. fields, quotation attribution, Bates positions
 * (claims_link.c); after claims_resolve.  memo holds -1 per sentence (and
 * one more), the citation-sentence cache sw__claims_propositions reuses. */
void sw__claims_link(struct sw__claims_scan *sc, signed char *memo);
/* Whether sentence s is a citation sentence (claims_link.c); memo holds -1
 * per sentence not yet known. */
bool sw__claims_citation_sentence(const struct sw__claims_scan *sc, signed char *memo, size_t s);
/* A proposition claim per sentence that cites the record, appended after
 * every other claim (claims_prop.c); after sw__claims_link, with its memo. */
void sw__claims_propositions(struct sw__claims_scan *sc, signed char *memo);

#endif /* SW_CLAIMS_INT_H */
