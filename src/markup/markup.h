/*
 * markup.h - a marked-up draft (Markdown, HTML or plain text) as the plain
 * text a claim scanner reads, with a map from every plain offset back to
 * the source bytes, the document's structure (blocks and spans at plain
 * offsets, for rendering it again) and its emphasis spans.
 *
 * Contract
 *   - Pure: bytes in, a view out.  markup/ includes only base/; it knows
 *     nothing of claims, the record or verdicts.
 *   - Markdown is read with md4c (CommonMark with tables and
 *     strikethrough; no permissive autolinks, which could swallow text).
 *     Emphasis, strong, strikethrough and link markers are dropped and
 *     their text kept; code spans and code blocks are kept as text;
 *     entities are decoded; images keep their alt text; inline HTML tags
 *     are dropped (<em> and <i> are emphasis) and a block that opens with
 *     a tag is read as text, not skipped.  Footnotes (which
 *     md4c does not know) are read here: a marker `[^1]` becomes one space
 *     so that it never glues onto a word, and a definition `[^1]: text`
 *     is read as an ordinary block of text where it stands.
 *   - HTML: tags are dropped, <em>/<i>/<cite>/<u> are emphasis like
 *     Markdown's, entities are decoded, runs of white space are one space
 *     (not inside <pre>), <script>, <style>, <title>, comments and
 *     declarations are skipped, nesting is bounded (SW_MARKUP_MAX_DEPTH).
 *   - Blocks end with separators the scanner understands: paragraphs,
 *     headings, list items, table rows, footnotes, code blocks and block
 *     quotes are separated by a blank line (so a heading never runs into
 *     the next sentence); the cells of a row are joined by ", " (" " after
 *     , ; or :), so that "| *Name* | 550 U.S. 544 |" reads as one citation;
 *     lines of a block quote or a code block are indented by four spaces,
 *     which claims/ reads as a block quotation.
 *   - Plain text maps 1:1: the view's text is the source, byte for byte.
 *   - The map: every byte of the plain text either is a source byte
 *     (verbatim) or stands for a stretch of source (an entity, a separator,
 *     a footnote marker).  sw_markup_src() and sw_markup_src_end() turn a
 *     plain range into a source range; for a verbatim byte the source byte
 *     is the same byte.  The map is a sorted array of runs, searched in
 *     O(log runs).
 *   - Bounded: sources over SW_MARKUP_MAX_SOURCE bytes fail with
 *     SW_ELIMIT; the plain text is never longer than twice the source plus
 *     the separators of its blocks; hostile input (unbalanced markers,
 *     deep nesting, unterminated tags and comments) takes linear time.
 *   - Ownership: a struct sw_markup owns a copy of the source and
 *     everything else it points to, until sw_markup_release().
 *   - Errors: 0 or a negative SW_E* code with a message in *err.
 *   - Threads: separate views may be built on separate threads.
 */
#ifndef SW_MARKUP_H
#define SW_MARKUP_H

#include "base/base.h"

#define SW_MARKUP_MAX_SOURCE ((size_t)512 << 20) /* bytes of one source */
#define SW_MARKUP_MAX_DEPTH 256                  /* open HTML elements tracked */
#define SW_MARKUP_MAX_LABEL 64                   /* bytes of a footnote label */

enum sw_markup_kind {
	SW_MARKUP_TEXT,     /* plain text: the view is the source */
	SW_MARKUP_MARKDOWN,
	SW_MARKUP_HTML,
};

/* The structure of the document, as events at plain offsets. */
enum sw_markup_tag {
	SW_MARKUP_P,
	SW_MARKUP_HEADING,   /* level 1-6 */
	SW_MARKUP_UL,
	SW_MARKUP_OL,
	SW_MARKUP_LI,
	SW_MARKUP_QUOTE,     /* a block quotation */
	SW_MARKUP_CODEBLOCK,
	SW_MARKUP_HR,        /* an open event only */
	SW_MARKUP_TABLE,
	SW_MARKUP_TR,
	SW_MARKUP_TH,
	SW_MARKUP_TD,
	SW_MARKUP_FOOTNOTE,  /* a footnote's text, with its label */
	SW_MARKUP_EM,
	SW_MARKUP_STRONG,
	SW_MARKUP_DEL,
	SW_MARKUP_CODE,
	SW_MARKUP_LINK,
	SW_MARKUP_BR,        /* an open event only */
	SW_MARKUP_FNREF,     /* a footnote marker: an open event only, with its label */
};

struct sw_markup_event {
	size_t at;           /* plain offset */
	size_t label;        /* FOOTNOTE, FNREF: the label's source offset */
	uint8_t tag;         /* enum sw_markup_tag */
	uint8_t open;        /* 1 opens, 0 closes */
	uint8_t level;       /* SW_MARKUP_HEADING (open and close): 1-6 */
	uint8_t label_len;   /* bytes of the label (at most SW_MARKUP_MAX_LABEL) */
};

/* plain[plain, plain + len) comes from src[src, src + src_len); when
 * verbatim, len == src_len and the bytes are the same. */
struct sw_markup_run {
	size_t plain, len;
	size_t src, src_len;
	bool verbatim;
};

struct sw_markup_span {
	size_t start, end;   /* plain offsets */
};

struct sw_markup {
	enum sw_markup_kind kind;
	char *src;           /* the source (a copy), NUL-terminated */
	size_t src_len;
	char *text;          /* the plain text, NUL-terminated (== src for text) */
	size_t len;
	struct sw_markup_run *runs;   /* sorted by plain and by src; cover text */
	size_t nruns;
	struct sw_markup_event *events; /* in document order, properly nested */
	size_t nevents;
	struct sw_markup_span *emphasis; /* emphasised text (EM only), in order */
	size_t nemphasis;
	size_t *lines;       /* source offset where each line starts; lines[0] = 0 */
	size_t nlines;
};

/* Build the view of len bytes of src read as kind.  Fills out (release
 * with sw_markup_release, also after a failure).  SW_ELIMIT past
 * SW_MARKUP_MAX_SOURCE; SW_EINPUT when the parser fails. */
int sw_markup_parse(struct sw_markup *out, enum sw_markup_kind kind, const char *src,
		    size_t len, struct sw_err *err) SW_MUST_USE;
void sw_markup_release(struct sw_markup *m);

/* The source offset where the plain byte at plain starts (plain == len
 * gives src_len). */
size_t sw_markup_src(const struct sw_markup *m, size_t plain);
/* The source offset just past the plain range that ends at end (an
 * exclusive end; 0 gives the source offset of plain byte 0). */
size_t sw_markup_src_end(const struct sw_markup *m, size_t end);

/* The same with a hint: *hint (zeroed before the first call, one per
 * sequence of calls) keeps the run the last call found, so that offsets
 * asked for in about increasing order are found in constant time; any
 * order gives the same answers. */
size_t sw_markup_src_at(const struct sw_markup *m, size_t *hint, size_t plain);
size_t sw_markup_src_end_at(const struct sw_markup *m, size_t *hint, size_t end);

/* Where sw_markup_line_col() last counted to; zeroed before the first
 * call.  Offsets asked for in increasing order are then counted in time
 * linear in the source, however long its lines. */
struct sw_markup_cursor {
	size_t src, line, col;
};

/* The 1-based line and column (in characters, a tab counting one) of a
 * source offset.  cur may be NULL. */
void sw_markup_line_col(const struct sw_markup *m, struct sw_markup_cursor *cur, size_t src,
			size_t *line, size_t *col);

/* The kind a file's name says (.md .markdown .mdown .mkd: Markdown; .html
 * .htm: HTML; .txt .text: text); for any other name (or NULL, standard
 * input) the kind its first bytes show, conservatively: HTML only when it
 * opens with a doctype or <html>, Markdown only on an ATX heading, a
 * footnote, a fenced code block, a table rule or emphasis around a word;
 * else text. */
enum sw_markup_kind sw_markup_kind_for(const char *path, const char *data, size_t len);

/* "text", "markdown", "html"; never NULL. */
const char *sw_markup_kind_name(enum sw_markup_kind kind);

/* Parse a --format value: "text", "markdown" (or "md"), "html"; true when
 * known. */
bool sw_markup_kind_parse(enum sw_markup_kind *out, const char *name);

#endif /* SW_MARKUP_H */
