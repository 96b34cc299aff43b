/*
 * claims.h - find the claims a legal text makes: case citations (full,
 * short, id., supra, references by name), statutes and regulations, court
 * rules, record citations (exhibits, docket entries, depositions,
 * transcripts, declarations, the record and appendices), Bates numbers and
 * ranges, dates and quotations, each with exact byte offsets.
 *
 * Contract
 *   - Pure text in, claims out.  claims/ knows nothing of the record, of
 *     authorities or of models; it includes only base/.  It does not decide
 *     whether a claim is true: that is verify/'s work.
 *   - Input is UTF-8 (invalid bytes are tolerated and never matched as
 *     letters).  Every offset is a byte offset into the caller's text, on a
 *     character boundary, with start < end <= len; `text[start..end)` is the
 *     claim as written.  Nothing is normalised in place: the text is never
 *     copied into a different form before offsets are taken.
 *   - Reporters, laws and journals come from reporters-db, compiled into
 *     tables at build time (tools/gen_reporters.c); reporter variations are
 *     normalised to the edition's abbreviation ("U. S." -> "U.S.").
 *   - Claims are in document order (by start, then end).  Quotations may
 *     overlap the citations inside them; no two citations overlap.
 *   - Short forms (short cites, id., supra, references by name) carry the
 *     index of the claim they resolve to, or -1 when the text does not say
 *     which authority they mean.  They lean on the nearest full citation
 *     before them, a repeated one included (a draft that cites a case
 *     wrongly and then rightly means the right one): a short cite on the
 *     nearest of its volume and reporter whose parties its name matches
 *     (two such cites of different pages are one case cited two ways, so
 *     the nearest wins; with no name that matches, the nearest cite of
 *     the one case of that volume), supra on the nearest its name matches
 *     (-1 when the name matches two different cases), id. on the citation
 *     just before it.  A repeated full citation resolves to the first full
 *     citation of the same authority.  A quotation's attributed_to is the
 *     citation of its own sentence: one whose parenthetical holds the
 *     quotation, else the first after it in its sentence, else the first
 *     of a citation sentence right after its sentence (a sentence of
 *     nothing but citations, signals and punctuation: "ACME0000003.",
 *     "See Ex. 2 at 1."), else the nearest citation before it in its
 *     sentence; never a citation inside the next textual sentence; else
 *     -1.
 *   - Every claim knows its sentence (an index into `sentences`), so a
 *     verifier can tie a date or a quotation to the record cite beside it.
 *   - Hostile input is bounded: texts over SW_CLAIMS_MAX_TEXT bytes and
 *     more than SW_CLAIMS_MAX claims fail with SW_ELIMIT; every look-back
 *     and look-ahead is limited, so time is linear in the text.
 *   - Ownership: everything a `struct sw_claims` points to is owned by it
 *     (one arena) and lives until sw_claims_release().  Field names and
 *     values are NUL-terminated strings.
 *   - Thread safety: the tables are read-only; separate sw_claims objects
 *     may be filled from separate threads.
 *
 * Fields of record cites, Bates numbers and dates (what verify/ reads)
 *   - Record cites: form (exhibit, ecf, deposition, transcript,
 *     declaration, record, joint_appendix, appendix), label (the words
 *     before the number as written, a party included: "Ex.", "Def. Ex.",
 *     "Pls.' Ex.", "PX"), party (plaintiff, defendant, joint, government,
 *     petitioner, respondent; absent when the label names none, so
 *     "Def. Ex. 3", "Pl. Ex. 3" and "Ex. 3" differ), number ("3", "A-3"),
 *     witness, attachment, and the pin as page, page_end, line, line_end,
 *     paragraph, paragraph_end.
 *   - Record id.: "Id. at 3", "(Id.)", "Id. at 12:3-5", "Id. ¶ 4" after a
 *     record cite or a Bates number has that claim's kind (RECORD or
 *     BATES), form SW_FORM_ID, resolves_to the cite it repeats, and that
 *     cite's fields (label, number, witness, prefix...) with its own pin
 *     read into page/line/paragraph fields (and kept as written in pin);
 *     with no pin it keeps the cite's pin.  A verifier reads it as a full
 *     cite to the same document.  Id. after a case stays a case claim.
 *   - Bates numbers: prefix (letters, no separator: "BLT"), separator as
 *     written ("-", "_", " "; absent when none), number (the digits as
 *     written), width, start (as written), end (a range's last number,
 *     written in full), rest (more digit groups that make no range:
 *     "-0147" of NCR-2021-0147, a named identifier more likely than a Bates
 *     number), and position: "citation" when the token stands where a
 *     citation stands (after a signal, inside a parenthetical of citations,
 *     in a citation sentence, or an id.), "text" otherwise ("Invoice
 *     INV-10236 was paid").  claims/ cannot know the matter's prefixes: a
 *     verifier treats a text-position token as a Bates claim only when a
 *     production uses its prefix.
 *   - Dates: iso (2021-03-03, 2021-03 or 2021), precision (day, month,
 *     year: "in 2021", "during 2020"), and for a range end_iso (and
 *     end_precision when it differs).  ISO date-times keep their date.
 *     A month and day with no year ("Mar. 24", "March 24", "by 3/24") has
 *     precision monthday and iso "--03-24"; the numeric M/D only after a
 *     date word (on, by, dated, until, before, after, since), so "24/7",
 *     "3/4", "Section 3/24" and "Rule 12/15" are none.  claims/ infers no
 *     year: a verifier compares month and day.
 *
 * Claims inside a quotation
 *   - A citation or date inside a quotation's quoted text (an inline
 *     quotation's marks, a block quotation's lines) has the field
 *     in_quote=true: it is part of the quoted words, not a claim the draft
 *     makes itself; the quotation that holds it is the innermost quote
 *     claim whose [cite_start, cite_end) holds it.  Not marked: a
 *     citation some quotation is attributed to (the "(ACME0000003.)" after
 *     an inline quotation inside a block) and a citation sentence or a
 *     citation that ends a block quotation.
 *
 * Propositions
 *   - One claim of kind proposition per sentence that cites the record (a
 *     record cite or a Bates number of its own, or of a citation sentence
 *     right after it), not inside a quotation.  Propositions come after
 *     every other claim, in sentence order (so the other claims keep their
 *     indices and their document order); start/end span the sentence, and
 *     cite_start/cite_end its first record citation; resolves_to is that
 *     citation.  Its facts (facts, nfacts) are found by pure text rules in
 *     the sentence outside its citations and quotations: money, quantities
 *     with their unit word, percentages, identifiers, and its date claims.
 *     A number with no unit below 100, a year alone and a number after
 *     section, page, paragraph, rule or the like is no fact.  Field
 *     "facts": how many.  A sentence with none still has its claim.
 *
 * Bare rules
 *   - "Rule 56(c)" (form bare, code "Rule") outside a quotation, after a
 *     Federal Rules citation (Fed. R. Civ. P. 56) of the same text,
 *     resolves to the nearest such citation and takes its code (the
 *     written one in code_written); after citations of two federal codes,
 *     only to the one whose nearest citation has the same rule number.
 */
#ifndef SW_CLAIMS_H
#define SW_CLAIMS_H

#include "base/base.h"

#define SW_CLAIMS_MAX_TEXT ((size_t)1 << 30) /* bytes of text per scan */
#define SW_CLAIMS_MAX ((size_t)4 << 20)      /* claims per scan */
#define SW_CLAIM_MAX_FIELDS 16

enum sw_claim_kind {
	SW_CLAIM_CASE,    /* a court decision */
	SW_CLAIM_JOURNAL, /* a law review or journal article */
	SW_CLAIM_STATUTE, /* a code, a session law, a regulation */
	SW_CLAIM_RULE,    /* a court rule: Fed. R. Civ. P. 56(a), a local rule */
	SW_CLAIM_RECORD,  /* Ex. 12 at 3, ECF No. 45, Smith Dep. 45:3-12, ... */
	SW_CLAIM_BATES,   /* ACME0000123, ranges */
	SW_CLAIM_DATE,    /* a calendar date, month or year, or a range */
	SW_CLAIM_QUOTE,   /* a quotation, inline or block */
	SW_CLAIM_PROPOSITION, /* a sentence that cites the record, with its facts */
};

enum sw_claim_form {
	SW_FORM_FULL,      /* the citation in full */
	SW_FORM_SHORT,     /* Twombly, 550 U.S. at 556 */
	SW_FORM_ID,        /* Id. at 5 / Ibid. */
	SW_FORM_SUPRA,     /* Twombly, supra, at 556 */
	SW_FORM_REFERENCE, /* Twombly at 556 (a name and a pin, nothing else) */
	SW_FORM_BARE,      /* § 1983 with no code named */
};

struct sw_claim_field {
	const char *name;
	const char *value;
};

/* A checkable fact of a proposition (see "Propositions" above). */
enum sw_fact_kind {
	SW_FACT_MONEY,      /* $52,850.00, 52,850 USD, fifty-two thousand dollars */
	SW_FACT_QUANTITY,   /* 12,000 housings, 30 days, six shipments */
	SW_FACT_PERCENT,    /* 45%, six percent */
	SW_FACT_IDENTIFIER, /* PO 4471, INV-10236, NCR-2021-0147, lot 7 */
	SW_FACT_DATE,       /* a date claim of the sentence */
};

struct sw_claim_fact {
	enum sw_fact_kind kind;
	size_t start, end;  /* the fact as written, in the scanned text */
	int64_t value;      /* money, quantity, percent: the value in hundredths */
	const char *unit;   /* quantity: its unit word folded and singular
			     * ("housing", "day"), "" when none */
	const char *id;     /* identifier: its parts folded, leading zeros
			     * dropped, joined by '-' ("po-4471", "inv-10236",
			     * "ncr-2021-147"); "" otherwise */
};

/* One fact as sw_claims_next_fact() finds it in any text (a page). */
#define SW_FACT_UNIT_MAX 24
#define SW_FACT_ID_MAX 48
struct sw_fact_token {
	enum sw_fact_kind kind;
	size_t start, end;
	int64_t value;
	char unit[SW_FACT_UNIT_MAX];
	char id[SW_FACT_ID_MAX];
};

struct sw_claim {
	enum sw_claim_kind kind;
	enum sw_claim_form form;
	size_t start, end;           /* the whole claim: case name to parenthetical */
	size_t cite_start, cite_end; /* the citation proper: "550 U.S. 544", "Id. at 2" */
	size_t sentence;             /* index into sw_claims.sentences */
	long resolves_to;            /* short forms: claim index, or -1 */
	long parallel_to;            /* a parallel cite: the first of its group, or -1 */
	long attributed_to;          /* quotes: their sentence's citation, or -1 */
	const struct sw_claim_field *fields;
	size_t nfields;
	const struct sw_claim_fact *facts; /* propositions only */
	size_t nfacts;
};

struct sw_sentence {
	size_t start, end;
};

struct sw_claims {
	struct sw_claim *v;
	size_t n, cap;
	struct sw_sentence *sentences;
	size_t nsentences, sentences_cap;
	struct sw_arena arena;
};

/* Scan len bytes of text and fill out (which must be zeroed or released).
 * Returns 0, or SW_ELIMIT for a text or a claim count past the limits (out
 * is then empty).  text need not be NUL-terminated. */
int sw_claims_scan(struct sw_claims *out, const char *text, size_t len,
		   struct sw_err *err) SW_MUST_USE;

/* The same for a text with a NUL at text[len] (a sw_markup's text): it is
 * read in place instead of copied. */
int sw_claims_scan_terminated(struct sw_claims *out, const char *text, size_t len,
			      struct sw_err *err) SW_MUST_USE;

/* Free everything a scan allocated; out is zeroed.  Accepts a zeroed
 * object. */
void sw_claims_release(struct sw_claims *c);

/* The value of the field called name (borrowed from the claims' arena), or
 * NULL when the claim has none. */
const char *sw_claim_get(const struct sw_claim *c, const char *name);

/* The next money amount, quantity, percentage or identifier of
 * text[*pos, len) into out (dates are not found here: they are date
 * claims), *pos moved past it; false when there is none.  The rules
 * propositions use, for a verifier to read a page with: time linear in
 * the text. */
bool sw_claims_next_fact(struct sw_fact_token *out, const char *text, size_t len,
			 size_t *pos);

/* A fact's value (hundredths) as JSON writes it: "12000", "52850.50". */
void sw_claims_fact_value(char out[32], int64_t value);

/* A proposition's facts as DESIGN.md's JSON array: [{"kind", "text",
 * "value", "unit", "id"}] (value, unit and id only where the kind has
 * them).  Returns a new reference. */
struct json_t *sw_claims_facts_json(const struct sw_claim *c, const char *text);

/* "money", "quantity", "percent", "identifier", "date"; never NULL. */
const char *sw_fact_kind_name(enum sw_fact_kind kind);

/* "case", "statute", ... as in DESIGN.md's JSON; never NULL. */
const char *sw_claim_kind_name(enum sw_claim_kind kind);
/* "full", "short", "id", "supra", "reference", "bare"; never NULL. */
const char *sw_claim_form_name(enum sw_claim_form form);

/* The claims as DESIGN.md's JSON document: {"draft", "claims": [...],
 * "summary"}.  text is the scanned text (for each claim's "text"); draft
 * names it (a file name, or "-").  Returns a new reference. */
struct json_t *sw_claims_json(const struct sw_claims *c, const char *text,
			      const char *draft);

/* Claim i of c as one element of sw_claims_json()'s "claims" (text is the
 * scanned text), for a caller that writes claims one at a time.  Returns
 * a new reference. */
struct json_t *sw_claims_claim_json(const struct sw_claims *c, size_t i, const char *text);

/* How sw_claims_json_write() writes the document; a NULL pointer to it is
 * the document sw_claims_json() makes. */
struct sw_claims_json_opts {
	const char *kind; /* only claims of this kind in "claims" ("case"...), or NULL:
			   * ids and "summary" still count them all */
	/* Where a claim is in the draft: at[] holds its start, end, cite_start
	 * and cite_end in the scanned text, to be rewritten as offsets of the
	 * draft's own bytes; *line and *column (1-based) are written after
	 * the claim's other members.  Called in claim order.  NULL: the text
	 * offsets, and no "line" or "column". */
	void (*place)(void *ctx, const struct sw_claim *c, size_t at[4], size_t *line,
		      size_t *column);
	void *ctx;
	/* An object whose members follow "summary" ("audit"), or NULL. */
	const struct json_t *after;
};

/* The JSON document written straight to f, byte for byte what
 * sw_json_print() writes for the same tree (two-space indent, keys in
 * order, a newline after it, then a flush), in time and memory linear in
 * the claims and without building a tree.  Returns 0, or SW_EIO when f
 * cannot be written. */
int sw_claims_json_write(FILE *f, const struct sw_claims *c, const char *text,
			 const char *draft, const struct sw_claims_json_opts *opts,
			 struct sw_err *err) SW_MUST_USE;

/* v laid out as sw_json_print() lays it out where it sits depth levels
 * deep in a document (0: the document itself), without a newline after
 * it, written to f: the writer of sw_claims_json_write() for a caller
 * that writes a document of its own a piece at a time.  Returns 0, or
 * SW_EIO when f cannot be written. */
int sw_claims_json_value_write(FILE *f, const struct json_t *v, int depth,
			       struct sw_err *err) SW_MUST_USE;

#endif /* SW_CLAIMS_H */
