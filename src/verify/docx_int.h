/* docx_int.h - the Word writer behind sw_verify_docx: what docx_notes.c
 * (in the binary) and the module sworn-verify.so (docx_write.c,
 * docx_splice.c) share.
 *
 * libzip and expat are not linked into sworn (CMakeLists.txt: binding
 * them costs every start); the code that needs them is the module, whose
 * only export is the table below.  docx_notes.c turns a report into notes
 * (a byte range of the verified text and the comment's paragraphs), loads
 * the module on first use and calls through the table. */
#ifndef SW_VERIFY_DOCX_INT_H
#define SW_VERIFY_DOCX_INT_H

#include "verify/verify.h"

#define SW__VERIFY_DOCX_ABI 1 /* bump when the table or a struct it passes changes */
#define SW__VERIFY_DOCX_SYMBOL "sw__verify_docx_v1"

/* A part of a .docx bigger than this, uncompressed, is refused (as
 * extract/'s reader refuses one). */
#define SW__DOCX_MAX_PART ((size_t)256 << 20)
/* Comments one document gets at most (a draft has far fewer claims). */
#define SW__DOCX_MAX_NOTES 100000

/* One comment: anchored on [start, end) of the verified text, its text one
 * paragraph per line ('\n' separated), not yet cleaned or escaped. */
struct sw__docx_note {
	size_t start, end;
	char *text;
};

/* What the writer is given: the verified text (a .docx's extracted text, or
 * any draft's plain text), the notes in any order, the comments' author and
 * date (ISO 8601, may be NULL). */
struct sw__docx_job {
	const char *text;
	size_t len;
	const struct sw__docx_note *notes;
	size_t nnotes;
	const char *author;
	const char *date;
};

struct sw__verify_docx {
	unsigned abi;
	const char *version; /* SW_VERSION */
	size_t sizes[4];     /* sizeof sw_buf, sw_err, sw__docx_note, sw__docx_job */
	/* The .docx of len bytes with the job's comments added; *anchored
	 * gets how many notes found their place (the others' text is not in
	 * word/document.xml's runs: a text box's, the notes section's). */
	int (*annotate)(struct sw_buf *out, size_t *anchored, const char *docx, size_t len,
			const struct sw__docx_job *job, struct sw_err *err);
	/* A new .docx of the job's text, a paragraph per line, with its
	 * comments. */
	int (*create)(struct sw_buf *out, const struct sw__docx_job *job, struct sw_err *err);
};

extern const struct sw__verify_docx sw__verify_docx_v1;

/* docx_splice.c: word/document.xml of len bytes with the comment ranges
 * and references of the job's notes appended to out, numbered from
 * first_id (or above the part's own comment ids), and the marks of the
 * ndrop comments drop taken out (a reference's run with it when it holds
 * nothing else); ids[i] gets note i's id, or -1 when its characters are in
 * no run of the part.  The text the part reads as (as extract/'s .docx
 * reader reads it) must be the job's text, else SW_EINPUT (the draft
 * changed, or was not this file). */
int sw__docx_splice(struct sw_buf *out, long *ids, const char *xml, size_t len,
		    const struct sw__docx_job *job, long first_id, const long *drop, size_t ndrop,
		    struct sw_err *err) SW_MUST_USE;

/* docx_splice.c: word/comments.xml (len bytes) without the comments an
 * earlier annotation wrote (author "sworn", initials "sw") appended to out;
 * *ids (caller frees) gets their ids, *nids their count.  SW_EINPUT when
 * the part is not well-formed. */
int sw__docx_drop_comments(struct sw_buf *out, long **ids, size_t *nids, const char *xml,
			   size_t len, struct sw_err *err) SW_MUST_USE;

/* docx_splice.c: the text word/document.xml (len bytes) reads as, as
 * extract/'s .docx reader reads it, appended to out; SW_EINPUT when it is
 * not well-formed or has a DOCTYPE. */
int sw__docx_text(struct sw_buf *out, const char *xml, size_t len,
		  struct sw_err *err) SW_MUST_USE;

/* docx_splice.c: the highest w:id of a comment in xml (comments.xml or
 * document.xml), or -1. */
long sw__docx_max_comment_id(const char *xml, size_t len);

/* docx_splice.c: append s (len bytes), cleaned as for a terminal and
 * escaped for XML text or an attribute value. */
void sw__docx_esc(struct sw_buf *out, const char *s, size_t len);

#endif /* SW_VERIFY_DOCX_INT_H */
