/*
 * verify.h - the gate: every claim of a draft (claims/) checked against the
 * matter's record (record/) and the table of authorities (authority/), each
 * with a verdict, a reason and the evidence behind it; reports for a
 * terminal, as JSON and as a self-contained HTML page.
 *
 * Contract
 *   - Verdicts follow DESIGN.md ("The gate's verdicts"): supported (with
 *     evidence), unsupported, contradicted, unverifiable.  The gate passes
 *     only when no claim is unsupported or contradicted, and, unless
 *     lenient, none is unverifiable.
 *   - Record claims are checked where they are cited: a date or quotation
 *     on the pages (or transcript lines) of the record citation beside it;
 *     dates as dates with their precision.  A date with no record citation
 *     beside it that the record holds elsewhere is supported with the
 *     reason "found elsewhere in the record, not tied to this sentence"
 *     and the page as evidence (the record does say it; no citation says
 *     where); one the record does not hold is unsupported.
 *   - Not claims, and not in the report: a Bates-shaped token in the text
 *     whose prefix no production of the matter uses ("Invoice INV-10236";
 *     in a citation position it is an unsupported Bates claim), and a word
 *     or two in quotation marks that no citation with a text claims (a
 *     term or a scare quote).
 *   - Only evidence-origin, non-quarantined text supports anything: every
 *     record query verify/ makes is one of record.h's "queries for the
 *     verifier", which see nothing else.
 *   - Deterministic: the same draft, record and table give the same
 *     verdicts, in claim order.
 *   - verify/ writes nothing: not to the matter, not to the authority
 *     table.
 *   - Drafts are hostile input: the claim scanner's limits apply
 *     (SW_CLAIMS_MAX_TEXT, SW_CLAIMS_MAX) and every look-up is bounded
 *     (SW_VERIFY_MAX_PAGES pages per citation, SW_VERIFY_MAX_CANDIDATES
 *     pages searched per claim).
 *   - Ownership: a struct sw_verify_report owns everything it points to
 *     until sw_verify_release().
 *   - Errors: 0 or a negative SW_E* code, message in *err; a claim that
 *     fails its check is a verdict, never an error.
 *   - Threads: one report per thread; the matter and the authority table
 *     are used by one thread at a time (record.h, authority.h).
 */
#ifndef SW_VERIFY_H
#define SW_VERIFY_H

#include "base/base.h"
#include "authority/authority.h"
#include "claims/claims.h"
#include "record/record.h"

struct sw_markup; /* markup/markup.h: a draft's source behind its text */

#define SW_VERIFY_MAX_PAGES 64        /* pages kept per citation (a range) */
#define SW_VERIFY_MAX_CANDIDATES 256  /* pages a search may check per claim */
#define SW_VERIFY_EXCERPT 160         /* bytes of an evidence excerpt */

enum sw_verdict {
	SW_VERDICT_SUPPORTED,
	SW_VERDICT_UNSUPPORTED,
	SW_VERDICT_CONTRADICTED,
	SW_VERDICT_UNVERIFIABLE,
};
#define SW_VERDICT_COUNT 4

/* "supported", "unsupported", "contradicted", "unverifiable"; never NULL. */
const char *sw_verdict_name(enum sw_verdict v);

/* One piece of evidence: a page of the record or an authority.  Unused
 * strings are NULL. */
struct sw_evidence {
	const char *source;  /* "record" or "authority" (static) */
	char *document;      /* record: the document's name */
	char *bates;         /* record: the page's Bates number, or NULL */
	uint32_t page;       /* record: 1-based page within the document */
	char *excerpt;       /* record: the words that support the claim */
	char *cite;          /* authority: "925 F.3d 1291"; record: a
			      * transcript hit's page:line, "Whitaker Dep.
			      * 12:8", else NULL */
	char *name;          /* authority: the case's name */
};

/* A proposition's fact with its own verdict: the claim's facts (claims.h)
 * in their order, then the names the record knows (kind "name"). */
struct sw_fact_verdict {
	const char *kind;    /* sw_fact_kind_name(), or "name"; static */
	int fact;            /* index into the claim's facts, or -1 (a name) */
	size_t start, end;   /* the fact as written, in the report's text */
	enum sw_verdict verdict; /* a date or a cited Bates number: its own claim's */
	bool own_claim;      /* checked as its own claim (dates, cited Bates numbers) */
	char *page;          /* the cited page(s) compared with, or NULL */
	char *found_on;      /* the page that has it (cited or not), or NULL */
	char *page_says;     /* contradicted: the cited page's words, or NULL */
};

struct sw_verify_waiver;

struct sw_claim_verdict {
	enum sw_verdict verdict;
	char *reason;        /* one line; never NULL */
	struct sw_evidence *evidence;
	size_t nevidence;
	struct sw_fact_verdict *facts; /* propositions only */
	size_t nfacts;
	/* The lawyer's waiver of a claim that would block (sw_verify_waive;
	 * borrowed), or NULL.  A waived claim keeps its verdict and reason
	 * but is shown as "waived", never as supported, and does not block. */
	const struct sw_verify_waiver *waiver;
};

/* ------------------------------------------------------------- the judge
 * An optional second check of propositions (the claims "proposition": one
 * per sentence that cites the record) by a local model, behind this
 * interface so that verify/ knows nothing of the llm client (pipeline/
 * judge.c implements it).  After the deterministic verdicts, each
 * proposition still supported (its facts passed) is put to ask(): the
 * sentence as written and the texts of the record pages its citations
 * resolved to, nothing else.  sworn takes the judge's "supported" only when
 * its span is on one of those pages (matched as quotations are,
 * sw_verify_quote_in) and shares the sentence's facts: each of the
 * proposition's facts outside its citations (claims.h: money, quantities
 * and percentages by value, identifiers by their parts, else the numbers
 * they are written with; dates are claims of their own) and, when the
 * sentence has capitalised names outside its citations and quotations, at
 * least one of them.  A proposition whose facts failed is not asked.
 *   - agreed: the verdict stays supported; the reason and an evidence
 *     excerpt give the span.
 *   - "not supported": mode block makes it unsupported; warn keeps the
 *     verdict and adds the judge's reason.
 *   - a span not on the pages or without the facts: a judge error, in the
 *     reason; mode block makes it unverifiable (the judge's word is not
 *     taken), warn keeps the verdict.
 *   - ask() failed (a timeout, a server down, a malformed answer): the
 *     verdict stays as the deterministic rules left it; the reason says the
 *     judge failed and why.
 * Threads: with parallel > 1, ask() is called from up to that many threads
 * at once (one call per thread at a time, each with its own out and err),
 * so ud must be safe for that; the matter is never touched from them.
 * Every answer is kept in the report (judged) for the caller to store. */
struct sw_judge_answer {
	bool supported;
	char *span;      /* the page's words that say it, as the judge wrote them */
	char *reason;    /* the judge's one line */
	char *raw;       /* the answer as it came, for the record; may be NULL */
	char *model;     /* the model that answered, or NULL */
	char *endpoint;  /* the endpoint that answered, or NULL */
};
/* Frees the strings ask() set (malloc'd) and zeroes a. */
void sw_judge_answer_release(struct sw_judge_answer *a);

enum sw_judge_mode {
	SW_JUDGE_OFF,
	SW_JUDGE_WARN,   /* the judge's doubts are reasons, never a block */
	SW_JUDGE_BLOCK,  /* its "not supported" and its bad spans block */
};
/* "off", "warn", "block"; never NULL. */
const char *sw_judge_mode_name(enum sw_judge_mode m);

struct sw_verify_judge {
	/* Put one sentence to the judge: fill out (zeroed on entry) or fail
	 * with a negative SW_E* code and err. */
	int (*ask)(void *ud, const char *sentence, const char *const *pages, size_t npages,
		   struct sw_judge_answer *out, struct sw_err *err);
	void *ud;
	enum sw_judge_mode mode;
	unsigned parallel;   /* threads calling ask(); 0 or 1: the calling one */
	/* The judge's context window in tokens (0: no limit) and what of it
	 * the prompt's fixed text and the answer take.  The pages of a
	 * sentence whose prompt would not fit are cut, each to its share,
	 * around the sentence's facts (the passage holding most of them), and
	 * its verdict says so.  count(), when set, counts text as the judge's
	 * server does (called on the calling thread only; *estimated when it
	 * could only estimate); else a token per 4 bytes, marked estimated. */
	size_t context, reserve;
	int (*count)(void *ud, const char *text, size_t len, size_t *tokens, bool *estimated);
};

enum sw_judge_outcome {
	SW_JUDGE_AGREED,     /* supported, with a span on the page that has the facts */
	SW_JUDGE_DISAGREED,  /* the judge said not supported */
	SW_JUDGE_BAD_SPAN,   /* supported, but its span is not on the pages or lacks
			      * the facts */
	SW_JUDGE_FAILED,     /* ask() failed */
};
/* "agreed", "disagreed", "bad span", "failed"; never NULL. */
const char *sw_judge_outcome_name(enum sw_judge_outcome o);

/* One sentence put to the judge. */
struct sw_verify_judged {
	size_t claim;                /* the proposition's index in the report */
	enum sw_judge_outcome outcome;
	char *why;                   /* bad span, failed: what went wrong; else NULL */
	struct sw_judge_answer answer; /* what ask() set, even when it failed */
	double wall_s;               /* how long ask() took */
	size_t tokens;               /* the sentence and pages put to it, in tokens */
	bool estimated;              /* tokens is an estimate (the server did not count) */
	bool cut;                    /* its pages were cut to fit the context */
	char *pages;                 /* the pages as put to it, joined by form
				      * feeds: the evidence of its window, for
				      * the provenance of its stored answer */
};

/* What a sentence that states a checkable fact (a date, an amount, a
 * quantity, a percentage, an identifier) with no citation of its own or
 * of a citation sentence right after it does to the gate: listed as
 * `uncited` and passing (warn, the default), blocking, or not looked for. */
enum sw_uncited_mode { SW_UNCITED_WARN, SW_UNCITED_BLOCK, SW_UNCITED_OFF };

/* "warn", "block", "off"; never NULL. */
const char *sw_uncited_mode_name(enum sw_uncited_mode m);
/* The mode named s, or -1. */
int sw_uncited_mode_parse(const char *s);

/* An element a task's output must have (the declaration's § 1746 clause, a
 * signature line): present when the text holds one of match's phrases,
 * separated by '|', compared with case and spacing folded. */
struct sw_verify_element {
	const char *name;
	const char *match;
};

struct sw_verify_opts {
	bool lenient;        /* unverifiable claims pass (they stay listed) */
	const struct sw_verify_judge *judge; /* NULL (or mode off): no judge */
	enum sw_uncited_mode uncited;
	const struct sw_verify_element *elements; /* borrowed; may be NULL */
	size_t nelements;
	bool need_record;    /* a draft with no record citation at all is blocked */
};

/* A sentence that states facts and cites nothing (see sw_uncited_mode). */
struct sw_verify_uncited {
	size_t start, end;   /* the sentence, in the report's text */
	char *facts;         /* the facts it states: "June 6, 2022, $41,250.00" */
};

/* The audit stamp of a report: what was checked, against what, by which
 * sworn.  Every string is borrowed; NULL ones are left out. */
struct sw_verify_audit {
	const char *matter;
	const char *time;               /* when the check ran, UTC ISO 8601 */
	const char *version;            /* sworn's version */
	const char *commit;             /* the git commit sworn was built from */
	const char *draft_sha256;       /* of the draft file's bytes */
	const char *format;             /* how the draft was read: "markdown", ... */
	uint64_t record_documents;
	const char *record_last_import; /* the newest document's import time */
	const char *authorities_updated; /* when the authority table was last written */
};

struct sw_verify_report {
	char *text;          /* the draft (a copy), NUL-terminated */
	size_t len;
	struct sw_claims claims;
	struct sw_claim_verdict *verdicts; /* one per claim, same order */
	size_t counts[SW_VERDICT_COUNT]; /* waived claims left out */
	size_t nwaived;      /* claims a waiver lets pass (sw_verify_waive) */
	bool lenient;
	bool pass;           /* the gate's decision */
	enum sw_uncited_mode uncited_mode;
	struct sw_verify_uncited *uncited; /* in text order */
	size_t nuncited;
	char **missing;      /* elements the task requires that the text lacks */
	size_t nmissing;
	bool no_record;      /* need_record and the draft cites no record at all */
	struct sw_verify_judged *judged; /* the judge's answers, in claim order */
	size_t njudged;
	enum sw_judge_mode judge_mode;   /* SW_JUDGE_OFF when none was asked */
	/* Wall seconds of sw_verify()'s passes: the claims before the
	 * propositions (scan included), the propositions' deterministic
	 * layer, the judge (0 when none); and the CPU seconds of the first
	 * two (what they cost on a shared machine, without the waits). */
	double claims_s, propositions_s, judge_s;
	double claims_cpu_s, propositions_cpu_s;
	/* Set by the caller after sw_verify(), for the reports only; borrowed,
	 * never freed by sw_verify_release().  view: the marked-up draft whose
	 * plain text (view->text, view->len) was verified; the reports then
	 * give positions in its source (line:column, source byte offsets) and
	 * the HTML renders its structure.  NULL: the text is the source.
	 * audit: the stamp the JSON and HTML carry; NULL: none. */
	const struct sw_markup *view;
	const struct sw_verify_audit *audit;
};

/* Check every claim of len bytes of text against m and auth (auth may be
 * NULL: case, statute and rule claims are then unverifiable) and decide the
 * gate.  Fills out (release with sw_verify_release).  Fails only when the
 * draft is past the scanner's limits or the record cannot be read. */
int sw_verify(struct sw_verify_report *out, struct sw_matter *m,
	      struct sw_authority *auth, const char *text, size_t len,
	      const struct sw_verify_opts *opts, struct sw_err *err) SW_MUST_USE;
void sw_verify_release(struct sw_verify_report *r);

/* DESIGN.md's JSON: {"draft", "claims": [... with verdict, reason,
 * evidence, line, column], "summary", "gate", "audit"}.  With a view,
 * each claim's start/end/cite_start/cite_end are offsets into the source
 * and its text is the claim as read.  Returns a new reference. */
struct json_t *sw_verify_json(const struct sw_verify_report *r, const char *draft);

/* The document sw_verify_json() makes, with before's members first and
 * after's last (when not NULL), written to f as sw_json_print() writes it,
 * byte for byte, but a claim at a time: memory for one claim's JSON, not
 * the whole tree.  Returns 0, or SW_EIO when f cannot be written. */
int sw_verify_json_write(FILE *f, const struct sw_verify_report *r, const char *draft,
			 const struct json_t *before, const struct json_t *after,
			 struct sw_err *err) SW_MUST_USE;

/* The compact table for a terminal: blocked claims first, each with its
 * line:column and reason, then the rest, then the summary and the gate.
 * colour adds ANSI colours. */
void sw_verify_print(FILE *f, const struct sw_verify_report *r, bool colour);

/* A self-contained HTML page: the draft (rendered from its view's
 * structure: headings, lists, emphasis, quotes, tables, footnotes) with
 * each claim coloured by its verdict, beside it the evidence or the
 * reason, the audit stamp, and a print stylesheet.  Returns 0 or
 * SW_EIO. */
int sw_verify_html(FILE *f, const struct sw_verify_report *r, const char *draft,
		   struct sw_err *err) SW_MUST_USE;

/* ----------------------------------------------------------------- waivers
 * A lawyer may waive one claim that blocks (a page the rules misread,
 * checked by hand) with a reason, on the record; pipeline/ stores waivers
 * in the run journal.  A waiver names a claim by its fingerprint: the
 * SHA-256 of its kind, its text folded as quotations are compared (case,
 * quotes, dashes, blanks) and the citation it rests on (its own, the one a
 * quotation is attributed to or a short form resolves to).  So it holds
 * while the claim is unchanged, wherever the draft moves it, and lapses
 * when the claim's words or its citation change. */
struct sw_verify_waiver {
	const char *fingerprint; /* 64 lower-case hex digits */
	const char *reason;      /* one line */
	const char *by;          /* the person who waived it */
	const char *at;          /* when, UTC ISO 8601 */
	int64_t id;              /* its row in the journal, 0 when none */
};

/* The fingerprint of claim i of r, as 64 hex digits and a NUL. */
void sw_claim_fingerprint(char out[SW_SHA256_HEX_LEN + 1], const struct sw_verify_report *r,
			  size_t i);

/* Apply the n waivers w (borrowed: they must outlive r's use) to r: each
 * claim that would block and whose fingerprint one of them names (the last
 * such) is waived, out of counts and into nwaived, and the gate is decided
 * again.  Applying again replaces what an earlier call did.  Returns the
 * claims waived. */
size_t sw_verify_waive(struct sw_verify_report *r, const struct sw_verify_waiver *w, size_t n);

/* "waived" for a waived claim, else its verdict's name; never NULL. */
const char *sw_claim_verdict_name(const struct sw_claim_verdict *v);

/* The claim of r that id names: its number as the reports give it (1 for
 * the first) or its fingerprint (8 or more of its first hex digits).
 * Returns its index, -1 when none matches, -2 when a short fingerprint
 * matches two different claims. */
long sw_verify_claim_find(const struct sw_verify_report *r, const char *id);

/* A Word document with a comment on each claim that did not pass (its
 * verdict, reason and the pages behind it) and on each uncited sentence
 * that blocks, appended to out.  docx (len bytes): the .docx the report's
 * text was read from, written back with only the comments added (its text
 * must read as r->text, else SW_EINPUT: verify it again); NULL: a new
 * document of r->text, a paragraph per line.  *comments gets the comments
 * made, *anchored those placed (a claim in a text box or in the reader's
 * list of tracked changes has no place).  The writer is the module
 * sworn-verify.so (SW_EIO when it cannot be loaded). */
int sw_verify_docx(struct sw_buf *out, size_t *comments, size_t *anchored,
		   const struct sw_verify_report *r, const char *docx, size_t len,
		   struct sw_err *err) SW_MUST_USE;

/* Whether a quotation (with Bluebook brackets and ellipses) appears in
 * text after folding quotes, dashes, case and whitespace.  On a match
 * *start and *end (may be NULL) get its byte range in text. */
bool sw_verify_quote_in(const char *quote, size_t qlen, const char *text,
			size_t len, size_t *start, size_t *end);

#endif /* SW_VERIFY_H */
