/* rules_int.h - what the record rules share (rules_record.c, rules_date.c,
 * rules_quote.c, reading.c) and what the driver asks of them before the
 * verdicts: the matter's Bates series and labels, read once per run, the
 * pages a claim's sentence cites, the names of pages for reasons, and a
 * page read as words (transcript line numbers and headers left out, a page
 * joined to the next). */
#ifndef SW_VERIFY_RULES_INT_H
#define SW_VERIFY_RULES_INT_H

#include "verify/verify_int.h"

/* The transcript lines a record cite names: from p0:l0 to p1:l1 of doc. */
struct sw__verify_span {
	bool set;
	int64_t doc;
	uint32_t p0, l0, p1, l1;
};

/* What the record rules read of the matter once per sw_verify() run. */
struct sw__verify_rec {
	struct sw__verify_span *spans; /* one per claim, made when first set */
	size_t nspans;
	bool have_series;
	struct sw_record_series *series;
	size_t nseries;
	char *productions;          /* "ACME0000001-ACME0000012, ..." */
	bool have_labels;
	struct sw_record_label *labels;
	size_t nlabels;
};

/* u->rec, made when first needed. */
struct sw__verify_rec *sw__verify_rec(struct sw__verify_run *u);
void sw__verify_rec_free(struct sw__verify_run *u);

/* Claim i cites transcript lines *sp (its quotations and dates must be
 * there); the span of claim i, or NULL when it names no lines. */
void sw__verify_set_span(struct sw__verify_run *u, size_t i, const struct sw__verify_span *sp);
const struct sw__verify_span *sw__verify_span_of(struct sw__verify_run *u, size_t i);

/* The Bates series with canonical prefix canon, or NULL. */
const struct sw_record_series *sw__verify_series(struct sw__verify_run *u, const char *canon);
/* Every series, for reasons: "ACME0000001-ACME0000012, BLT-000001-BLT-000009",
 * or "no page of the matter is Bates-numbered". */
const char *sw__verify_productions(struct sw__verify_run *u);

/* Whether Bates claim c of u's report is a claim at all: its prefix is one
 * a production of the matter uses, or it stands in a citation position (a
 * citation parenthetical, after a signal, a citation sentence).
 * "Invoice INV-10236" in a sentence is a name, not a Bates claim. */
bool sw__verify_bates_is_claim(struct sw__verify_run *u, const struct sw_claim *c);

/* The citations beside claim i, nearest first: the record and Bates cites
 * of its sentence after it, then those of a citation sentence right after
 * it ("See Ex. 2 at 1."), then those of its sentence before it; and the
 * first case citation in the same places (-1 when none). */
#define SW__VERIFY_NEAR_MAX 16
struct sw__verify_near {
	long cites[SW__VERIFY_NEAR_MAX];
	size_t n;
	long case_claim;
};
void sw__verify_near(struct sw__verify_run *u, size_t i, struct sw__verify_near *out);

/* "ACME0000004", "smith-dep.txt p. 2" or "Smith Dep. 12" for page id, for
 * reasons.  Caller frees. */
char *sw__verify_page_name(struct sw__verify_run *u, int64_t id);
/* Up to four page names joined by ", " and "and N more".  Caller frees. */
char *sw__verify_pages_name(struct sw__verify_run *u, const int64_t *pages, size_t n);
/* The label that names document doc_id ("Smith Dep."), or NULL (borrowed). */
const char *sw__verify_doc_label(struct sw__verify_run *u, int64_t doc_id);

/* ------------------------------------------------- a page read as words */

/* A stretch of the reading text copied from one page. */
struct sw__verify_seg {
	size_t at, len;      /* in the reading text */
	int64_t page;        /* the stored page */
	int64_t doc_id;
	size_t orig;         /* where it starts in the page's text */
	uint32_t tr_page;    /* transcript page and line, or 0 */
	uint32_t line;
};

/* The words of one page, or of a page and the next of its document: a
 * transcript page as its numbered lines' text (line numbers, the page
 * header and the margins left out), one line each; any other page as
 * stored, less the stamp lines (Bates number, legend, "Page x of y") where
 * it meets the next page. */
struct sw__verify_text {
	struct sw_buf text;
	struct sw__verify_seg *segs;
	size_t nsegs, cap;
	size_t first_len;    /* bytes of text that come from the first page */
};

void sw__verify_text_init(struct sw__verify_text *t);
void sw__verify_text_release(struct sw__verify_text *t);
/* Read page id (and, when next, the page after it in its document) into t,
 * replacing what it held.  false when the page is no evidence page. */
bool sw__verify_text_read(struct sw__verify_run *u, struct sw__verify_text *t, int64_t id,
			  bool next);
/* Read the lines of span sp from the stored pages (in transcript order)
 * into t, replacing what it held, and then up to extra lines after it (onto
 * the next transcript page); first_len ends with the span's last line.
 * false when none of the span's lines is there. */
bool sw__verify_text_read_span(struct sw__verify_run *u, struct sw__verify_text *t,
			       const int64_t *pages, size_t npages,
			       const struct sw__verify_span *sp, size_t extra);
/* The segment that holds offset off of t's text (the last one for the
 * end), or NULL when t is empty. */
const struct sw__verify_seg *sw__verify_text_seg(const struct sw__verify_text *t, size_t off);
/* Evidence for claim i: t's text [s, e), as the page of its first byte,
 * with a transcript's page:line ("Smith Dep. 12:8-13:2") as its cite. */
void sw__verify_text_evidence(struct sw__verify_run *u, size_t i, const struct sw__verify_text *t,
			      size_t s, size_t e);
/* Where t's text [s, e) is, for reasons: "Smith Dep. 12:8" for transcript
 * lines, else the page's name.  Caller frees. */
char *sw__verify_text_where(struct sw__verify_run *u, const struct sw__verify_text *t, size_t s,
			    size_t e);

/* ------------------------------------------- names in a sentence (rules_names.c) */

struct sw__verify_range {
	size_t s, e;
};
struct sw__verify_sentence;
#define SW_VERIFY_NAME_TOKENS 5
/* A run of capitalised words that may name a party: its words [ts, te). */
struct sw__verify_name {
	size_t s, e;
	size_t n, ts[SW_VERIFY_NAME_TOKENS], te[SW_VERIFY_NAME_TOKENS];
	bool sentence_first; /* starts at the sentence's first word */
};
/* The names in t[s, e) outside the skip spans, at most max. */
size_t sw__verify_names(const char *t, size_t s, size_t e, const struct sw__verify_range *skip,
			size_t nskip, struct sw__verify_name *out, size_t max);
/* Whether name nm (words in t) is on page text p; where in *at. */
bool sw__verify_name_on(const char *p, size_t len, const char *t,
			const struct sw__verify_name *nm, size_t *at);
/* An evidence page, none of pages, that holds nm: its name (caller frees),
 * or NULL: the record does not know the name there; *same_doc when that
 * page is of a cited page's document.  Reads into u->page. */
char *sw__verify_name_elsewhere(struct sw__verify_run *u, const char *t,
				const struct sw__verify_name *nm, const int64_t *pages,
				size_t npages, bool *same_doc);
/* A party page p names in the role the sentence gives name nm: the same
 * two words before it ("contract to Tallgrass" for "under contract to
 * Redhawk") or the same noun after its possessive ("Tallgrass's laborers"
 * for "Redhawk's laborers"), where the page never has nm there.  Its
 * bytes in [*rs, *re).  cs: the sentence's start. */
bool sw__verify_name_role_rival(const char *p, size_t len, const char *t, size_t cs,
				const struct sw__verify_name *nm, size_t *rs, size_t *re);
/* Whether word w (n bytes) stands in p as a whole word, case folded: its
 * first byte from `from` in *at (rules_names.c). */
bool sw__verify_word_on(const char *p, size_t len, const char *w, size_t n, size_t from,
			size_t *at);
/* Whether text [0, len) holds word or phrase w, case folded, as whole words. */
bool sw__verify_has_word(const char *t, size_t len, const char *w);
/* Whether it holds one of words[0..n). */
bool sw__verify_has_any(const char *t, size_t len, const char *const *words, size_t n);

/* ----------------------------- where a fact stands (rules_prop_find.c) */

enum sw__fact_state { SW__FACT_ON, SW__FACT_MISSING, SW__FACT_DIFFERS, SW__FACT_SKIP };

struct sw__fact_check {
	enum sw__fact_state st;
	int64_t page;        /* where it is (SW__FACT_ON), or the page that differs */
	char *page_says;     /* SW__FACT_DIFFERS: the page's words */
	char *elsewhere;     /* a page not cited that has it, or NULL */
	size_t at, end;      /* SW__FACT_ON: where on the page */
	bool weak;           /* SW__FACT_ON by a figure of another unit ("5 extended") */
	bool labelled;       /* SW__FACT_DIFFERS from the page's labelled line for it */
};

/* Look for fact f of proposition c on page id: SW__FACT_ON,
 * SW__FACT_DIFFERS or SW__FACT_MISSING in *fc; a cited transcript page only
 * on the lines its citation pins when pins.  false on a hard failure. */
bool sw__verify_fact_on_page(struct sw__verify_run *u, const struct sw_claim *c,
			     const struct sw_claim_fact *f, int64_t id, struct sw__fact_check *fc,
			     bool cited, bool pins);
/* A page no citation of c names that holds fact f (a miscite): its name
 * (caller frees), *same_doc when it is in a cited page's document; or
 * NULL. */
char *sw__verify_fact_elsewhere(struct sw__verify_run *u, const struct sw_claim *c,
				const struct sw_claim_fact *f, const int64_t *pages, size_t np,
				bool *same_doc);
/* Another line of a cited transcript page that holds fact f, off the
 * pin: "Smith Dep. 4:3" (caller frees); or NULL. */
char *sw__verify_fact_off_pin(struct sw__verify_run *u, const struct sw_claim *c,
			      const struct sw_claim_fact *f, const int64_t *pages, size_t np);

/* A name the record does not know whose last word the page gives another
 * party ("Swift Freight", the page's "Northway Freight"): that party's
 * bytes [*rs, *re) of p; false when none. */
bool sw__verify_name_rival(const char *p, size_t len, const char *t,
			   const struct sw__verify_name *nm, size_t *rs, size_t *re);
/* The transcript lines proposition c's citation pins on page `page`
 * (text p[0, len)): their bytes [*s, *e) and numbers [*l0, *l1] (either
 * may be NULL); false when its citation names no lines of that page. */
bool sw__verify_pin(const struct sw__verify_run *u, const struct sw_claim *c, int64_t page,
		    const char *p, size_t len, size_t *s, size_t *e, long *l0, long *l1);
/* Whether claim x is a citation right after proposition c, in a citation
 * sentence of its own ("... 3:7-8) and that .... (Id. at 3:9-10.)"): it
 * cites for c too. */
bool sw__verify_cite_after(const struct sw_claim *c, const struct sw_claim *x);
/* The transcript line number that byte off of page text p is on, 0 when
 * the page has no numbered line there. */
long sw__verify_line_of(const char *p, size_t len, size_t off);
/* The line pin [*l0, *l1] of proposition c's transcript citation that
 * resolved to page `page`; false when none (rules_lines.c, as the two
 * above). */
bool sw__verify_pin_of(const struct sw__verify_run *u, const struct sw_claim *c, int64_t page,
		       long *l0, long *l1);
/* The bytes [*s, *e) of transcript lines [l0, l1] of page text p; false
 * when the page has no such numbered lines. */
bool sw__verify_lines_of(const char *p, size_t len, long l0, long l1, size_t *s, size_t *e);
/* When proposition c denies what its cited pages affirm (or the other way,
 * rules_polarity.c): the reason, quoting the page (caller frees); else
 * NULL.  Like every meaning rule it reads the sentence once read, sn. */
char *sw__verify_polarity(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);
/* When proposition c [cs, ce) says the other way from a witness's "Yes" or
 * "No" to a question on its cited transcript lines (rules_qa.c): the
 * reason, quoting both (caller frees); else NULL. */
char *sw__verify_qa(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* The deponent ("Ortega" of "Ortega Dep.") when page is a transcript's
 * (rules_speaker.c), into out; false when it is not. */
bool sw__verify_witness(struct sw__verify_run *u, int64_t page, char *out, size_t cap);

/* When proposition c gives words to a speaker ("Okafor says the cracks
 * happened in transit") that its cited page plainly gives to another
 * (rules_speaker.c): the reason (caller frees); else NULL. */
char *sw__verify_said_by(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* When proposition c names a numbered thing ("Pay Application No. 5")
 * that its cited page numbers otherwise ("PAY APPLICATION NO. 4") and
 * never with its number (rules_numbered.c): the reason (caller frees);
 * else NULL. */
char *sw__verify_numbered(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* When proposition c gives the one listed thing it names ("panel
 * P-20-11") a word its row on the cited page lacks and a sibling's row
 * has (rules_rowstate.c): the reason, quoting both rows (caller frees);
 * else NULL. */
char *sw__verify_row_state(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* When proposition c has a party ask for something ("Carver asked Delmar
 * for ...") cited to a document addressed to that party (rules_addressee.c):
 * the reason (caller frees); else NULL. */
char *sw__verify_addressee(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* When proposition c gives its one date to an act that a label of its
 * cited page dates otherwise, the page giving that date another label
 * ("Shipped: March 31, 2021" and "Invoice date: April 2, 2021" for "we
 * shipped on April 2, 2021"), rules_datelabel.c: the reason (caller
 * frees); else NULL. */
char *sw__verify_date_label(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* When proposition c pins transcript lines that share none of its words
 * while other lines of the transcript plainly say them (rules_pinmiss.c):
 * the reason, naming where (caller frees); else NULL. */
char *sw__verify_pin_elsewhere(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* When proposition c puts something in a city of a state ("Newark,
 * Delaware") that its cited page names otherwise ("Wilmington, Delaware")
 * and never its own (rules_place.c): the reason (caller frees); else NULL. */
char *sw__verify_place(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		  size_t np, const struct sw__verify_sentence *sn);

/* -------------------------------------- a passage as words (words.c) */

#define SW__VERIFY_STEMS 48 /* content words kept of a passage */
#define SW__VERIFY_STEM 6   /* bytes of a word compared */

struct sw__verify_stems {
	char w[SW__VERIFY_STEMS][SW__VERIFY_STEM + 1];
	size_t n;
};

/* What a passage's words tell: its content stems, the stems each of its
 * negations bears on (the next content words), and whether it is a
 * condition ("no credit until", "unless") or a bound ("no earlier than"),
 * which no negation test reads plainly. */
struct sw__verify_reading {
	struct sw__verify_stems st, targets;
	struct sw__verify_stems named; /* a sentence's: the stems of st that are names */
	bool neg, cond, all;           /* all: a negation that bears on every word */
	bool until;                    /* "no credit until they pay" */
	bool before;                   /* "before", not negated */
	bool already;                  /* "already": a thing said to be done */
};

/* Whether word w (folded), ending at t[e] of t[.., end), negates: "not",
 * "never", "none", "n't", "no" (not "No. 8812"), "denied", ... */
bool sw__verify_negation(const char *t, size_t e, size_t end, const char *w);
/* Cut folded word w to its stem, in place: irregular pasts to their
 * present ("told": "tell"), an ending off, at most SW__VERIFY_STEM bytes. */
void sw__verify_stem(char *w);
/* The words of t[s, e) outside spans sp, into *rd; the words inside names
 * nm also go to rd->named. */
void sw__verify_read_words(const char *t, size_t s, size_t e, const struct sw__verify_range *sp,
			   size_t nsp, struct sw__verify_reading *rd,
			   const struct sw__verify_name *nm, size_t nnm);
/* Whether two stems are one word (equal, or one the other's start of four
 * bytes or more); how many of x's stems y holds; how many of x's have
 * their opposite in y ("accept", "reject"); whether st holds w. */
bool sw__verify_same_stem(const char *a, const char *b);
size_t sw__verify_shared_stems(const struct sw__verify_stems *x, const struct sw__verify_stems *y);
size_t sw__verify_opposed(const struct sw__verify_stems *x, const struct sw__verify_stems *y);
bool sw__verify_has_stem(const struct sw__verify_stems *st, const char *w);
/* How many of sent's stems passage p[s, e) holds (or opposes); its
 * reading in *rd. */
size_t sw__verify_shared(const struct sw__verify_stems *sent, const char *p, size_t s, size_t e,
			 struct sw__verify_reading *rd);
/* The stems of every word of t[s, e) of four letters or more (no word
 * left out as plain), appended to st up to max: a label's, a question's.
 * The new count. */
size_t sw__verify_stems_of(const char *t, size_t s, size_t e, size_t max,
			   struct sw__verify_stems *st);

/* ------------------------------------------------ days (rules_date.c) */

/* A calendar day; y = 0 for a month and day written without a year. */
struct sw__verify_day {
	int y, m, d;
};

/* Whether ISO date iso ("2022-06-06", "--06-06") names a day: into *out. */
bool sw__verify_iso_day(const char *iso, struct sw__verify_day *out);
/* The days text [0, len) names (its date claims; their range ends too
 * unless full_only, which also keeps only days with a year), appended to
 * out[n..max); the new count. */
size_t sw__verify_text_days(const char *t, size_t len, struct sw__verify_day *out, size_t n,
			    size_t max, bool full_only);

/* ------------------------------------- derived figures (rules_derived.c) */

/* Whether the numeral value (hundredths) stands on its own in p ("6" in a
 * table's Men column, "10.0"): its bytes in [*at, *end). */
bool sw__verify_numeral_on(const char *p, size_t len, int64_t value, size_t *at, size_t *end);

/* Whether f's number stands in p in words ("Forty-eight, on four trucks",
 * "two hundred and twelve"): its bytes in [*at, *end). */
bool sw__verify_words_on(const char *p, size_t len, const struct sw_claim_fact *f, size_t *at,
			 size_t *end);
/* Whether quantity f counts days, weeks, months, years or hours. */
bool sw__verify_is_duration(const struct sw_claim_fact *f);
/* A duration f that two dates (or clock times) of c's sentence and pages
 * give: how ("two days from 2022-03-12 to 2022-03-14"), or NULL.  only:
 * when not NULL, the text whose dates count instead of the pages' (a
 * table's selected rows).  Caller frees. */
char *sw__verify_duration(struct sw__verify_run *u, const struct sw_claim *c,
			  const struct sw_claim_fact *f, const int64_t *pages, size_t np,
			  const char *only);
/* A product sentence c states of its own facts ("three weeks of delay at
 * two percent a week is a six percent credit": Q weeks x R% a week = P%),
 * rules_derived.c: the indexes of Q, R and P in its facts; false when
 * none.  Q is the sentence's premise and P its arithmetic: both stand when
 * the page gives the rate R. */
bool sw__verify_stated_product(const char *t, const struct sw_claim *c, size_t *qi, size_t *ri,
			       size_t *pi);
/* An amount f that the pages' amounts give by one step (a sum, a
 * difference, a percentage of the sentence or the page): how, or NULL. */
char *sw__verify_arithmetic(struct sw__verify_run *u, const struct sw_claim *c,
			    const struct sw_claim_fact *f, const int64_t *pages, size_t np);

/* ------------------------------------------- table rows (rules_table.c) */

/* A cell of a selected row and its column's header, in the page's text. */
struct sw__verify_cell {
	size_t hs, he, cs, ce;
};

/* The rows of a cited page's table that a sentence's dates select. */
struct sw__verify_rows {
	bool set;
	int64_t page;
	char *what;      /* the rows' lines, for reasons */
	char *label_bad; /* "crew 3": the date's rows are another label's */
	struct sw__verify_cell *cells;
	size_t ncells;
	char *rows_text;  /* the selected rows' lines */
	char *table_text; /* every row of their table */
};

/* Whether a table of a cited page has rows of c's sentence: those of its
 * dates when the table has rows of them, and of its labels ("Crew 3", "Lot
 * 17" against a Lot column) when the table names such labels; into *rs.
 * label_bad when the date's rows are all another label's. */
bool sw__verify_rows(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		     size_t np, struct sw__verify_rows *rs);
void sw__verify_rows_release(struct sw__verify_rows *rs);
/* Whether a table of page text p has value (hundredths) in a cell of a
 * column whose header names word ("Lot" for lot, "Days" or "Delay (days)"
 * for day): its bytes in [*at, *end). */
bool sw__verify_table_cell(const char *p, size_t len, const char *word, int64_t value,
			   size_t *at, size_t *end);
/* Quantity or money fact f against the selected rows: 1 in them (under the
 * column its unit names, when one does), -1 not (*says: the column's
 * header and cell, caller frees), 0 not judged by rows. */
int sw__verify_row_fact(struct sw__verify_run *u, const struct sw__verify_rows *rs,
			const struct sw_claim_fact *f, char **says);

/* Whether a table of p has a column whose header names word ("Lot"): the
 * rows with a cell there in *all, those of them holding must (a party's
 * name; may be NULL) in *named, its distinct values in *distinct_n. */
bool sw__verify_table_count(const char *p, size_t len, const char *word, const char *must,
			    size_t *all, size_t *named, size_t *distinct_n);

/* Whether a table of p has dated rows: their distinct dates in *all, and
 * those of the rows holding a label of t's [s, e) ("Crew B") in
 * *labelled (0 when t names no label). */
bool sw__verify_table_days(const char *p, size_t len, const char *t, size_t s, size_t e,
			   size_t *all, size_t *labelled);

/* The rows of the first table of p, or 0 when it has none. */
size_t sw__verify_table_rows(const char *p, size_t len);

/* ----------------------------- counts and labelled lines (rules_count.c) */

/* Whether fact f counts without a number word ("a single charge", "both
 * panels", rules_count.c): only what the page lists checks it; a page that
 * lists none of its noun leaves it alone. */
bool sw__verify_soft_count(const char *t, const struct sw_claim_fact *f);
/* A count f that a cited page gives by listing (a list line's items, the
 * distinct "Lot 17" labels it names, a register's rows, a party's rows, a
 * column's distinct values): how (caller frees) with the page in *page;
 * or NULL, with *listed set to what a table's column counts instead when
 * it counts f's noun otherwise ("Three foremen" and a Foreman column of
 * two names: 2), else 0. */
char *sw__verify_count(struct sw__verify_run *u, const struct sw_claim *c,
		       const struct sw_claim_fact *f, const int64_t *pages, size_t np,
		       int64_t *page, size_t *listed);

/* A count of page text p in a labelled line ("Welds tested ...... 52",
 * "Weather, 07/28   WX   1"): the line whose label holds the most of the
 * words that say what quantity f counts (the word before its number, its
 * unit), when one line alone does.  1 when its number is f's, -1 when it
 * is another (*says: the label and its number, caller frees), 0 when no
 * line answers.  cs: the start of f's sentence in t. */
int sw__verify_labelled(const char *p, size_t len, const char *t, size_t cs,
			const struct sw_claim_fact *f, char **says);

/* The party a transcript's witness speaks for ("we"), from the employer
 * question of its first pages ("Q. Who is your employer? A. Tallgrass
 * Builders."), into out; false when the transcript of page does not say
 * (rules_speaker.c). */
bool sw__verify_witness_party(struct sw__verify_run *u, int64_t page, char *out, size_t cap);

/* ---------------------------------- a proposition's names (rules_prop_names.c) */

#define SW__VERIFY_PROP_NAMES 8  /* names checked per sentence */
#define SW__VERIFY_PROP_SPANS 32 /* other claims of a sentence kept out of its names */

/* The spans of proposition c's sentence that its other claims cover
 * (citations, quotations, dates), at most max. */
size_t sw__verify_claim_spans(const struct sw__verify_run *u, const struct sw_claim *c,
			      struct sw__verify_range *sp, size_t max);

/* A proposition's sentence as the meaning rules read it, once
 * (rules_prop.c): the spans its other claims cover (citations, dates,
 * quotations), its names and its words outside those spans. */
struct sw__verify_sentence {
	struct sw__verify_range sp[SW__VERIFY_PROP_SPANS];
	size_t nsp;
	struct sw__verify_name nm[8];
	size_t nnm;
	struct sw__verify_reading rd;
};
/* The names of c checked on its cited pages (where: their names, for
 * reasons; rows: the sentence's table rows, or NULL): a verdict per name
 * into fv (room for SW__VERIFY_PROP_NAMES), what fails into why, what
 * holds into ok, *contra when one is contradicted.  How many it wrote. */
size_t sw__verify_check_names(struct sw__verify_run *u, const struct sw_claim *c,
			      const int64_t *pages, size_t np, const char *where,
			      struct sw_fact_verdict *fv, struct sw_buf *why, struct sw_buf *ok,
			      bool *contra, const struct sw__verify_rows *rows);

/* ------------------------------------ proposition words (rules_prop_text.c) */

/* The words of page text p's lines [s, e) as one run (a transcript's
 * line numbers, margins and line ends gone, a space between lines), with
 * each byte's offset in p: map[k] for text[k]. */
struct sw__verify_lines {
	char *text;
	size_t *map;
	size_t len;
};

void sw__verify_lines_read(struct sw__verify_lines *l, const char *p, size_t s, size_t e);
/* Where the words of transcript line p[i, le) start: past its margin, its
 * line number and the spaces after it (le when the line has none). */
size_t sw__verify_line_words(const char *p, size_t i, size_t le);
/* Transcript text p[0, n) with each line's number blanked, its offsets
 * kept ("12   A.  Two" reads "     A.  Two"): no line number is a figure
 * of the testimony.  Caller frees. */
char *sw__verify_unnumbered(const char *p, size_t n);
/* The line of p at *i, walked one per call: its first byte past blanks in
 * *a, its end (its '\n' or len) in *le; *i moves past it.  false at the
 * end: "for (size_t i = 0, a, le; sw__verify_line_next(p, len, &i, &a,
 * &le);)". */
bool sw__verify_line_next(const char *p, size_t len, size_t *i, size_t *a, size_t *le);
void sw__verify_lines_release(struct sw__verify_lines *l);
/* Fact f's whole number as the words a page may write it with, as the
 * search tokenizer cuts them ("fifty two thousand"), into b; nothing for
 * an identifier, a date, cents or a number under two. */
void sw__verify_fact_words(struct sw_buf *b, const struct sw_claim_fact *f);
/* Whether offset at of page text p is in a heading of its document (one
 * of the first three lines of its first page, or a "Label: value" line). */
bool sw__verify_heading(const char *p, size_t len, size_t at, bool first_page);
/* Whether name nm (two words or more of two letters or more) has no word
 * that any evidence page holds. */
bool sw__verify_unknown_name(struct sw__verify_run *u, const char *t,
			     const struct sw__verify_name *nm);
/* The cited pages' names for reasons, a transcript page with the lines
 * proposition c's citation pins ("Smith Dep. 4:14-15").  Caller frees. */
char *sw__verify_where(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		       size_t np);
/* Whether the sentence (from s) denies that its page mentions fact f:
 * "does not reference PO 4471", "never mentions". */
bool sw__verify_denied_mention(const char *t, size_t s, const struct sw_claim_fact *f);

/* The other claims (not propositions) that proposition c may lean on:
 * those overlapping [c->start, c->end + SW__VERIFY_AFTER) and the whole
 * sentence of its citation, as indexes [*k0, *k1) of the report's claims
 * (found by bisection: they come first, in document order). */
#define SW__VERIFY_AFTER 16
void sw__verify_claims_near(const struct sw__verify_run *u, const struct sw_claim *c, size_t *k0,
			    size_t *k1);

#endif /* SW_VERIFY_RULES_INT_H */
