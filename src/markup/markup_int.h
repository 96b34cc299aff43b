/* markup_int.h - the builder the Markdown and HTML readers share. */
#ifndef SW_MARKUP_INT_H
#define SW_MARKUP_INT_H

#include "markup/markup.h"

struct sw__markup_builder {
	struct sw_markup *m;
	const char *src;        /* m->src */
	size_t src_len;
	struct sw_buf text;
	size_t runs_cap, events_cap, emph_cap;
	size_t src_pos;         /* the source end of the last verbatim byte */
	size_t pending;         /* first synthetic run whose source end is open */
	size_t quote;           /* block quotes (or code blocks) open: lines indented */
	size_t em_open[16];     /* plain starts of open EM spans */
	size_t nem;
};

void sw__markup_init(struct sw__markup_builder *b, struct sw_markup *m);
/* Move the text into m (runs, events and emphasis are already there). */
void sw__markup_finish(struct sw__markup_builder *b);

/* Source bytes src[off, off + n) as they are. */
void sw__markup_verbatim(struct sw__markup_builder *b, size_t off, size_t n);
/* Bytes that stand for src[off, off + src_n). */
void sw__markup_synth(struct sw__markup_builder *b, const char *s, size_t n, size_t off, size_t src_n);
/* Bytes that stand for the source between the last and the next verbatim
 * byte (separators, line breaks). */
void sw__markup_gap(struct sw__markup_builder *b, const char *s, size_t n);
/* End the current block: a blank line unless the text is empty or already
 * ends with one. */
void sw__markup_blank(struct sw__markup_builder *b);
/* Before a table cell's text: nothing at a row's start, else what joins
 * it to the cell before (", ", or " " after , ; :), so that a row
 * "| *Name* | 550 U.S. 544 |" reads as the citation it is. */
void sw__markup_cell(struct sw__markup_builder *b);
/* A line break inside a block (indented inside block quotes). */
void sw__markup_newline(struct sw__markup_builder *b);
/* Indentation at the start of a line inside a block quote. */
void sw__markup_indent(struct sw__markup_builder *b);

void sw__markup_event(struct sw__markup_builder *b, enum sw_markup_tag tag, bool open, unsigned level);
void sw__markup_label_event(struct sw__markup_builder *b, enum sw_markup_tag tag, bool open, size_t label,
			size_t label_len);
void sw__markup_em(struct sw__markup_builder *b, bool open);

/* Decode the entity at s[0, n) ("&amp;", "&#167;", "&#xA7;") into out
 * (UTF-8, at most 4 bytes; &nbsp; as a space).  Returns its length, or 0
 * when it is not one this knows. */
size_t sw__markup_entity(char out[4], const char *s, size_t n);

int sw__markup_markdown(struct sw__markup_builder *b, struct sw_err *err);
int sw__markup_html(struct sw__markup_builder *b, struct sw_err *err);

#endif /* SW_MARKUP_INT_H */
