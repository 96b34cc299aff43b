/*
 * fts_tokenizer.c - the "sworn" FTS5 tokenizer, used both to index page text
 * and to read queries, so that a query word and the text it should find are
 * cut and folded alike.
 *
 * Words are runs of letters, digits and combining marks.  Each word is
 * folded: ASCII is lower-cased in place; a word with any other character
 * goes through utf8proc (NFKC, case folding, marks stripped), so "Café",
 * "CAFE" and "cafe" with a combining acute are one term.  Marks count as word
 * characters because text from PDFs is often decomposed ("e" + U+0301), and
 * a word must not break inside a letter.  "§" and "¶" are terms of their
 * own, since lawyers search for "§ 1983".
 *
 * A Bates number ("ACME-0000123", "ACME_0000123", "ACME0000123") is one term,
 * its prefix and digits joined without the separator, so that all three
 * spellings are the same term; the digit run is indexed at the same position
 * as a colocated term, so that "0000123" alone finds the page too.  Queries
 * need no colocated term: the joined term already matches the document.
 *
 * This runs over every page of an import, so it allocates nothing per token
 * (one stack buffer per call) and ASCII text never reaches utf8proc.  The
 * input is hostile: every read is bounded by the input length, invalid UTF-8
 * bytes are separators, and a word longer than TOKEN_MAX bytes is cut into
 * several terms.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "record/record_int.h"

/* Bytes of input in one term; longer runs are cut into several terms. */
#define TOKEN_MAX 256
/* Code points a folded term may need: the longest decomposition (U+FDFA,
 * 3 bytes) gives 18 code points, 6 per input byte, plus room for the
 * terminating NUL that utf8proc_reencode() writes. */
#define FOLD_CAP (6 * TOKEN_MAX + 1)
/* Bytes of one folded term; longer ones are cut at a character boundary. */
#define TERM_MAX 1024
/* Digits that make "letters + digits" a Bates number rather than a word. */
#define BATES_MIN_DIGITS 3

#define FOLD_OPTS (UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | \
		   UTF8PROC_CASEFOLD | UTF8PROC_STRIPMARK)

typedef int token_fn(void *ctx, int tflags, const char *token, int ntoken,
		     int start, int end);

/* One word of the text, as the scanner found it. */
struct word {
	size_t start, end; /* byte span in the text */
	size_t nalpha;     /* ASCII letters it begins with */
	size_t ndigit;     /* ASCII digits right after them */
	bool simple;       /* the whole word is [A-Za-z]*[0-9]* */
	bool ascii;        /* every byte is ASCII */
	bool sign;         /* the word is "§" or "¶" */
};

/* The state of one xTokenize call. */
struct emitter {
	const unsigned char *text;
	size_t len;
	void *ctx;
	token_fn *token;
	bool colocate; /* indexing a document: add the Bates digit terms */
	char term[TOKEN_MAX];
	int32_t fold[FOLD_CAP];
};

static inline bool is_digit(unsigned c)
{
	return c - '0' < 10u;
}

static inline bool is_alpha(unsigned c)
{
	return (c | 0x20u) - 'a' < 26u;
}

/* Letters, marks and numbers: the categories Lu..No are contiguous. */
static inline bool is_word_cp(int32_t cp)
{
	utf8proc_category_t cat = utf8proc_category(cp);
	return cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_NO;
}

static inline bool is_sign(int32_t cp)
{
	return cp == 0xA7 || cp == 0xB6;
}

/* Find the next word at or after *pos; false when the text has no more. */
static bool next_word(struct word *w, const unsigned char *t, size_t len,
		      size_t *pos)
{
	size_t i = *pos;
	int32_t cp;

	while (i < len) {
		unsigned c = t[i];
		if (c < 0x80) {
			if (is_alpha(c) || is_digit(c))
				break;
			i++;
			continue;
		}
		utf8proc_ssize_t n = utf8proc_iterate(t + i, (utf8proc_ssize_t)(len - i), &cp);
		if (n < 0) {
			i++;
			continue;
		}
		if (is_sign(cp)) {
			*w = (struct word){ .start = i, .end = i + (size_t)n, .sign = true };
			*pos = w->end;
			return true;
		}
		if (is_word_cp(cp))
			break;
		i += (size_t)n;
	}
	if (i >= len) {
		*pos = len;
		return false;
	}

	*w = (struct word){ .start = i, .simple = true, .ascii = true };
	while (i < len) {
		unsigned c = t[i];
		size_t n = 1;
		if (is_digit(c)) {
			if (w->simple)
				w->ndigit++;
		} else if (is_alpha(c)) {
			if (w->ndigit)
				w->simple = false;
			else if (w->simple)
				w->nalpha++;
		} else if (c < 0x80) {
			break;
		} else {
			utf8proc_ssize_t r = utf8proc_iterate(t + i, (utf8proc_ssize_t)(len - i), &cp);
			if (r < 0 || is_sign(cp) || !is_word_cp(cp))
				break;
			n = (size_t)r;
			w->simple = false;
			w->ascii = false;
		}
		if (i + n - w->start > TOKEN_MAX)
			break;
		i += n;
	}
	w->end = i;
	*pos = i;
	return true;
}

/* Fold bytes [start, end) of the text into a term; sets *out (pointing into
 * e's buffers or, for pathological input, into *heap, which the caller
 * frees) and returns its length, 0 when nothing is left of the word. */
static size_t fold(struct emitter *e, size_t start, size_t end, bool ascii,
		   const char **out, unsigned char **heap)
{
	const unsigned char *s = e->text + start;
	size_t n = end - start;

	if (ascii) {
		for (size_t i = 0; i < n; i++)
			e->term[i] = (char)(is_alpha(s[i]) ? (s[i] | 0x20) : s[i]);
		*out = e->term;
		return n;
	}

	utf8proc_ssize_t ncp = utf8proc_decompose(s, (utf8proc_ssize_t)n, e->fold,
						  FOLD_CAP - 1, FOLD_OPTS);
	utf8proc_ssize_t nbytes;
	const char *term;
	if (ncp < 0)
		return 0; /* cannot happen: the scanner passes valid UTF-8 only */
	if (ncp <= FOLD_CAP - 1) {
		nbytes = utf8proc_reencode(e->fold, ncp, FOLD_OPTS);
		term = (const char *)e->fold;
	} else {
		/* More expansion than any Unicode version has had; stay correct
		 * with one allocation rather than trust the bound. */
		nbytes = utf8proc_map(s, (utf8proc_ssize_t)n, heap, FOLD_OPTS);
		term = (const char *)*heap;
	}
	if (nbytes <= 0 || !term)
		return 0;
	size_t len = (size_t)nbytes;
	if (len > TERM_MAX) {
		len = TERM_MAX;
		while (len > 0 && ((unsigned char)term[len] & 0xC0) == 0x80)
			len--;
	}
	*out = term;
	return len;
}

/* Emit one word (and, for "ACME0000123", its digits as a colocated term). */
static int emit_word(struct emitter *e, const struct word *w)
{
	const char *term = NULL;
	unsigned char *heap = NULL;
	size_t n;
	int rc;

	if (w->sign)
		return e->token(e->ctx, 0, (const char *)e->text + w->start,
				(int)(w->end - w->start), (int)w->start, (int)w->end);

	n = fold(e, w->start, w->end, w->ascii, &term, &heap);
	if (n == 0) {
		free(heap);
		return SQLITE_OK;
	}
	rc = e->token(e->ctx, 0, term, (int)n, (int)w->start, (int)w->end);
	free(heap);
	if (rc == SQLITE_OK && e->colocate && w->simple && w->nalpha > 0 &&
	    w->ndigit >= BATES_MIN_DIGITS)
		rc = e->token(e->ctx, FTS5_TOKEN_COLOCATED,
			      (const char *)e->text + w->start + w->nalpha,
			      (int)w->ndigit, (int)w->start, (int)w->end);
	return rc;
}

/* Bytes of the Bates separator at offset i ('-', '_' or one of the Unicode
 * hyphens U+2010..U+2013 that PDF text extraction produces), or 0. */
static size_t bates_separator(const unsigned char *t, size_t len, size_t i)
{
	if (i < len && (t[i] == '-' || t[i] == '_'))
		return 1;
	if (len - i >= 3 && t[i] == 0xE2 && t[i + 1] == 0x80 &&
	    t[i + 2] >= 0x90 && t[i + 2] <= 0x93)
		return 3;
	return 0;
}

/* Emit prefix word a and digit word b as one Bates term spanning both. */
static int emit_bates(struct emitter *e, const struct word *a,
		      const struct word *b)
{
	size_t na = a->end - a->start, nb = b->end - b->start;
	int rc;

	for (size_t i = 0; i < na; i++)
		e->term[i] = (char)(e->text[a->start + i] | 0x20);
	memcpy(e->term + na, e->text + b->start, nb);
	rc = e->token(e->ctx, 0, e->term, (int)(na + nb), (int)a->start, (int)b->end);
	if (rc == SQLITE_OK && e->colocate)
		rc = e->token(e->ctx, FTS5_TOKEN_COLOCATED,
			      (const char *)e->text + b->start, (int)nb,
			      (int)a->start, (int)b->end);
	return rc;
}

static int tok_tokenize(Fts5Tokenizer *tok, void *ctx, int flags,
			const char *text, int ntext, token_fn *token)
{
	struct emitter e;
	struct word a, b;
	size_t pos = 0;
	int rc = SQLITE_OK;
	bool have;

	(void)tok;
	e.text = (const unsigned char *)text;
	e.len = ntext > 0 ? (size_t)ntext : 0;
	e.ctx = ctx;
	e.token = token;
	/* Only the index needs the digit terms; AUX (snippets) and queries
	 * must see the same positions, which colocated terms do not change. */
	e.colocate = (flags & FTS5_TOKENIZE_DOCUMENT) != 0;

	have = next_word(&a, e.text, e.len, &pos);
	while (have && rc == SQLITE_OK) {
		size_t sep = 0;
		if (a.simple && a.ndigit == 0 && a.nalpha > 0)
			sep = bates_separator(e.text, e.len, a.end);
		if (sep && a.end + sep < e.len && is_digit(e.text[a.end + sep])) {
			bool have_b = next_word(&b, e.text, e.len, &pos);
			/* b starts at the digit after the separator, by the test
			 * above; it must be digits only, and the joined term
			 * must fit, else the two words go out as they are. */
			if (have_b && b.simple && b.nalpha == 0 &&
			    b.ndigit >= BATES_MIN_DIGITS &&
			    a.nalpha + b.ndigit <= TOKEN_MAX) {
				rc = emit_bates(&e, &a, &b);
				have = next_word(&a, e.text, e.len, &pos);
				continue;
			}
			rc = emit_word(&e, &a);
			a = b;
			have = have_b;
			continue;
		}
		rc = emit_word(&e, &a);
		have = next_word(&a, e.text, e.len, &pos);
	}
	return rc;
}

/* The tokenizer has no state; every instance is this one object. */
static int tokenizer_instance;

static int tok_create(void *user, const char **argv, int argc,
		      Fts5Tokenizer **out)
{
	(void)user;
	(void)argv;
	*out = NULL;
	if (argc > 0)
		return SQLITE_ERROR; /* "sworn" takes no options */
	*out = (Fts5Tokenizer *)&tokenizer_instance;
	return SQLITE_OK;
}

static void tok_delete(Fts5Tokenizer *tok)
{
	(void)tok;
}

int sw__record_fts_register(sqlite3 *db, struct sw_err *err)
{
	fts5_tokenizer tokenizer = { tok_create, tok_delete, tok_tokenize };
	fts5_api *api = NULL;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, db, "cannot register the search tokenizer");
		goto cleanup;
	}
	sqlite3_bind_pointer(st, 1, &api, "fts5_api_ptr", NULL);
	if (sqlite3_step(st) != SQLITE_ROW) {
		rc = sw__record_sqlerr(err, db, "cannot register the search tokenizer");
		goto cleanup;
	}
	if (!api || api->iVersion < 2) {
		rc = sw_err_set(err, SW_EDB,
				"cannot register the search tokenizer: SQLite was built without FTS5");
		goto cleanup;
	}
	if (api->xCreateTokenizer(api, "sworn", NULL, &tokenizer, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(err, db, "cannot register the search tokenizer");
		goto cleanup;
	}
cleanup:
	sqlite3_finalize(st);
	return rc;
}
