/*
 * fts_tokenizer.c - the "sworn" FTS5 tokenizer, used both to index page text
 * and to read queries, so that a query word and the text it should find are
 * cut and folded alike.
 *
 * Words are runs of letters, digits and combining marks (Unicode L*, M*,
 * N*) and soft hyphens.  Each word is folded with utf8proc (NFKC, case
 * folding, marks and soft hyphens dropped), so "Café", "CAFE" and "cafe" with
 * a combining acute are one term.  Marks count as word characters because
 * text from PDFs is often decomposed ("e" + U+0301), and a word must not
 * break inside a letter.  "§" and "¶" are terms of their own, since lawyers
 * search for "§ 1983".
 *
 * A Bates number ("ACME-0000123", "ACME_0000123", "ACME0000123") is one term,
 * its prefix and digits joined without the separator, so that all three
 * spellings are the same term; the digit run is indexed at the same position
 * as a colocated term, so that "0000123" alone finds the page too.  Queries
 * need no colocated term: the joined term already matches the document.
 *
 * This runs over every page of an import, so it allocates nothing per token
 * (one stack buffer per call), and most words never reach utf8proc: ASCII is
 * lower-cased as it is scanned, and the Latin letters and combining marks
 * below U+0370 are folded one by one from a table that utf8proc filled once.
 * Folding those one by one gives what folding the whole word gives, since
 * their folds hold no marks and so nothing in them composes.  The input is
 * hostile: every read is bounded by the input length, invalid UTF-8 bytes
 * are separators, and a word longer than TOKEN_MAX bytes is cut into several
 * terms.
 */
#include <pthread.h>
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
/* The two-byte characters folded from a table: Latin-1, Latin Extended,
 * IPA, spacing modifiers and the combining diacritical marks. */
#define TABLE_FIRST 0x80
#define TABLE_LAST 0x36F

/* UTF8PROC_IGNORE drops the soft hyphen, which is the one default-ignorable
 * character let inside a word (see table_init). */
#define FOLD_OPTS (UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | \
		   UTF8PROC_CASEFOLD | UTF8PROC_STRIPMARK | UTF8PROC_IGNORE)
#define SOFT_HYPHEN 0xAD

typedef int token_fn(void *ctx, int tflags, const char *token, int ntoken,
		     int start, int end);

/* What a character that is not ASCII is to the scanner. */
enum kind {
	K_SEP,  /* not part of a word (also an invalid byte) */
	K_SIGN, /* "§" or "¶": a word of its own */
	K_WORD, /* part of a word that utf8proc must fold */
	K_FAST, /* part of a word, folded from the table */
};

struct table_entry {
	unsigned char kind;
	unsigned char len;   /* bytes in fold, K_FAST only */
	char fold[6];
};

static struct table_entry table[TABLE_LAST - TABLE_FIRST + 1];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* One word of the text, as the scanner found it. */
struct word {
	size_t start, end;    /* byte span in the text */
	size_t nalpha;        /* ASCII letters it begins with */
	size_t ndigit;        /* ASCII digits right after them */
	size_t tlen;          /* bytes in term, when folded */
	bool simple;          /* the whole word is [A-Za-z]*[0-9]* */
	bool folded;          /* term holds the folded word */
	bool sign;            /* the word is "§" or "¶" */
	char term[TOKEN_MAX];
};

/* The state of one xTokenize call. */
struct emitter {
	const unsigned char *text;
	size_t len;
	void *ctx;
	token_fn *token;
	bool colocate; /* indexing a document: add the Bates digit terms */
	int32_t fold[FOLD_CAP];
};

/* Byte classes: one table lookup per byte on the ASCII path. */
enum { SEP = 0, DIG = 1, ALP = 2, HIGH = 3 };

#define R4(x) x, x, x, x
#define R16(x) R4(x), R4(x), R4(x), R4(x)
static const unsigned char byte_class[256] = {
	R16(SEP), R16(SEP),                                   /* 0x00-0x1F */
	R16(SEP),                                             /* 0x20-0x2F */
	R4(DIG), R4(DIG), DIG, DIG, SEP, SEP, R4(SEP),        /* 0x30-0x3F */
	SEP, ALP, ALP, ALP, R4(ALP), R4(ALP), R4(ALP),        /* 0x40-0x4F */
	R4(ALP), R4(ALP), ALP, ALP, ALP, SEP, R4(SEP),        /* 0x50-0x5F */
	SEP, ALP, ALP, ALP, R4(ALP), R4(ALP), R4(ALP),        /* 0x60-0x6F */
	R4(ALP), R4(ALP), ALP, ALP, ALP, SEP, R4(SEP),        /* 0x70-0x7F */
	R16(HIGH), R16(HIGH), R16(HIGH), R16(HIGH),
	R16(HIGH), R16(HIGH), R16(HIGH), R16(HIGH),
};
#undef R16
#undef R4

static inline bool is_digit(unsigned c)
{
	return byte_class[c & 0xFF] == DIG;
}

/* Letters, marks and numbers: the categories Lu..No are contiguous. */
static bool is_word_cp(int32_t cp)
{
	utf8proc_category_t cat = utf8proc_category(cp);
	return cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_NO;
}

static void table_init(void)
{
	for (int32_t cp = TABLE_FIRST; cp <= TABLE_LAST; cp++) {
		struct table_entry *t = &table[cp - TABLE_FIRST];
		utf8proc_uint8_t in[4], *out = NULL;

		if (cp == 0xA7 || cp == 0xB6) {
			t->kind = K_SIGN;
			continue;
		}
		/* Justified text from PDFs keeps its soft hyphens
		 * ("exam\u00ADple"); they join, as sw_fold() drops them. */
		if (cp == SOFT_HYPHEN) {
			t->kind = K_FAST;
			continue;
		}
		if (!is_word_cp(cp)) {
			t->kind = K_SEP;
			continue;
		}
		utf8proc_ssize_t n = utf8proc_encode_char(cp, in);
		utf8proc_ssize_t m = utf8proc_map(in, n, &out, FOLD_OPTS);
		t->kind = K_WORD;
		if (m >= 0 && (size_t)m <= sizeof(t->fold)) {
			t->kind = K_FAST;
			t->len = (unsigned char)m;
			memcpy(t->fold, out, (size_t)m);
		}
		free(out);
	}
}

/* Classify the character at t[i], which is not ASCII: sets *n to its length
 * (1 for an invalid byte) and *entry to its table entry, if it has one. */
static enum kind high_char(size_t *n, const struct table_entry **entry,
			   const unsigned char *t, size_t len, size_t i)
{
	unsigned c = t[i];
	int32_t cp;

	if (c >= 0xC2 && c <= 0xCD && i + 1 < len && (t[i + 1] & 0xC0) == 0x80) {
		cp = (int32_t)(((c & 0x1Fu) << 6) | (t[i + 1] & 0x3Fu));
		if (cp <= TABLE_LAST) {
			*n = 2;
			*entry = &table[cp - TABLE_FIRST];
			return (enum kind)(*entry)->kind;
		}
	}
	utf8proc_ssize_t r = utf8proc_iterate(t + i, (utf8proc_ssize_t)(len - i), &cp);
	*entry = NULL;
	if (r < 0) {
		*n = 1;
		return K_SEP;
	}
	*n = (size_t)r;
	return is_word_cp(cp) ? K_WORD : K_SEP;
}

/* Find the next word at or after *pos; false when the text has no more. */
static bool next_word(struct word *w, const unsigned char *t, size_t len,
		      size_t *pos)
{
	const struct table_entry *entry;
	size_t i = *pos, n;
	enum kind kind;

	for (;;) {
		if (i >= len) {
			*pos = len;
			return false;
		}
		unsigned k = byte_class[t[i]];
		if (k == DIG || k == ALP)
			break;
		if (k == SEP) {
			i++;
			continue;
		}
		kind = high_char(&n, &entry, t, len, i);
		if (kind == K_SIGN) {
			w->start = i;
			w->end = i + n;
			w->sign = true;
			w->simple = w->folded = false;
			w->nalpha = w->ndigit = w->tlen = 0;
			*pos = w->end;
			return true;
		}
		if (kind != K_SEP)
			break;
		i += n;
	}

	/* Locals, not w's fields, in the loops: a store through a char
	 * pointer may alias anything, and would force reloads. */
	const size_t start = i;
	const size_t limit = len - i > TOKEN_MAX ? i + TOKEN_MAX : len;
	char *term = w->term;
	bool simple = true, folded = true;

	/* The common shapes, letters then digits, with nothing per byte but
	 * the class lookup and the copy. */
	for (; i < limit && byte_class[t[i]] == ALP; i++)
		term[i - start] = (char)(t[i] | 0x20);
	const size_t nalpha = i - start;
	for (; i < limit && byte_class[t[i]] == DIG; i++)
		term[i - start] = (char)t[i];
	size_t tlen = i - start;

	while (i < limit) {
		unsigned k = byte_class[t[i]];
		if (k == SEP)
			break;
		if (k != HIGH) {
			simple = false;
			if (folded && tlen < TOKEN_MAX)
				term[tlen++] = (char)(k == ALP ? t[i] | 0x20 : t[i]);
			else
				folded = false;
			i++;
			continue;
		}
		kind = high_char(&n, &entry, t, len, i);
		if (kind == K_SEP || kind == K_SIGN || i + n > limit)
			break;
		simple = false;
		if (kind == K_WORD || tlen + entry->len > TOKEN_MAX) {
			folded = false;
		} else if (folded) {
			memcpy(term + tlen, entry->fold, entry->len);
			tlen += entry->len;
		}
		i += n;
	}
	w->start = start;
	w->end = i;
	w->nalpha = nalpha;
	w->ndigit = simple ? tlen - nalpha : 0;
	w->tlen = tlen;
	w->sign = false;
	w->simple = simple;
	w->folded = folded;
	*pos = i;
	return true;
}

/* Fold a word that is not all ASCII into a term; sets *out (pointing into
 * e->fold or, for pathological input, into *heap, which the caller frees)
 * and returns its length, 0 when nothing is left of the word. */
static size_t fold(const char **out, unsigned char **heap, struct emitter *e,
		   const struct word *w)
{
	const unsigned char *s = e->text + w->start;
	size_t n = w->end - w->start;
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
	len = sw_utf8_cut(term, len, TERM_MAX);
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

	if (w->folded) {
		term = w->term;
		n = w->tlen;
	} else {
		n = fold(&term, &heap, e, w);
	}
	if (n == 0) {
		free(heap);
		return SQLITE_OK;
	}
	rc = e->token(e->ctx, 0, term, (int)n, (int)w->start, (int)w->end);
	if (heap)
		free(heap);
	/* ndigit is 0 unless the word is simple; tested first, as it is
	 * rarely true. */
	if (w->ndigit >= BATES_MIN_DIGITS && w->nalpha > 0 && e->colocate &&
	    rc == SQLITE_OK)
		rc = e->token(e->ctx, FTS5_TOKEN_COLOCATED,
			      (const char *)e->text + w->start + w->nalpha,
			      (int)w->ndigit, (int)w->start, (int)w->end);
	return rc;
}

/* Bytes of the Bates separator at offset i ('-', '_' or one of the Unicode
 * hyphens U+2010..U+2013 that PDF text extraction produces), or 0. */
static inline size_t bates_separator(const unsigned char *t, size_t len, size_t i)
{
	if (i >= len)
		return 0;
	if (t[i] == '-' || t[i] == '_')
		return 1;
	if (t[i] == 0xE2 && len - i >= 3 && t[i + 1] == 0x80 &&
	    t[i + 2] >= 0x90 && t[i + 2] <= 0x93)
		return 3;
	return 0;
}

/* Emit prefix word a and digit word b as one Bates term spanning both; the
 * caller checked that the joined term fits in a->term. */
static int emit_bates(struct emitter *e, struct word *a, const struct word *b)
{
	size_t na = a->end - a->start, nb = b->end - b->start;
	int rc;

	memcpy(a->term + na, b->term, nb);
	rc = e->token(e->ctx, 0, a->term, (int)(na + nb), (int)a->start, (int)b->end);
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
	struct word words[2];
	struct word *cur = &words[0], *prefix = NULL;
	size_t pos = 0;
	int rc = SQLITE_OK;

	(void)tok;
	e.text = (const unsigned char *)text;
	e.len = ntext > 0 ? (size_t)ntext : 0;
	e.ctx = ctx;
	e.token = token;
	/* Only the index needs the digit terms; AUX (snippets) and queries
	 * must see the same positions, which colocated terms do not change. */
	e.colocate = (flags & FTS5_TOKENIZE_DOCUMENT) != 0;

	/* One word at a time; a word of letters followed by a separator and
	 * a digit waits as the prefix until the next word says whether the
	 * two are a Bates number. */
	while (rc == SQLITE_OK) {
		bool have = next_word(cur, e.text, e.len, &pos);
		if (prefix) {
			/* cur starts at the digit after the separator; it
			 * must be digits only, and the joined term must fit. */
			if (have && cur->simple && cur->nalpha == 0 &&
			    cur->ndigit >= BATES_MIN_DIGITS &&
			    prefix->nalpha + cur->ndigit <= TOKEN_MAX) {
				rc = emit_bates(&e, prefix, cur);
				prefix = NULL;
				continue;
			}
			rc = emit_word(&e, prefix);
			prefix = NULL;
			if (rc != SQLITE_OK)
				break;
		}
		if (!have)
			break;
		size_t sep = bates_separator(e.text, e.len, cur->end);
		if (sep && cur->simple && cur->ndigit == 0 && cur->nalpha > 0 &&
		    cur->end + sep < e.len && is_digit(e.text[cur->end + sep])) {
			prefix = cur;
			cur = cur == &words[0] ? &words[1] : &words[0];
			continue;
		}
		rc = emit_word(&e, cur);
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

	pthread_once(&table_once, table_init);
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
