/*
 * fold.c - UTF-8 folding for comparison, with an offset map back to the
 * original bytes; UTF-8 validation; Latin-1/Windows-1252 to UTF-8.
 *
 * Text is read one code point at a time.  A code point that decomposes
 * (NFKC, case folding, mark stripping) goes into a small "segment": one
 * starter and the combining marks after it.  The segment is reordered and
 * recomposed as a whole, so "e" + U+0301 and a precomposed "é" fold alike,
 * and every output byte of the segment maps to the segment's first original
 * byte.  A segment is bounded (SEG_CAP), so a hostile run of ten thousand
 * combining marks is cut into pieces rather than buffered.
 */
#include <string.h>

#include <utf8proc.h>

#include "base/base.h"

/* Code points held for one segment; the longest single decomposition
 * (U+FDFA) is 18, so a segment always has room for one more character. */
#define SEG_CAP 64
#define DECOMP_MAX 32

/* The Hangul jamo that compose with the syllable before them although they
 * are starters (Unicode's conjoining algorithm, outside utf8proc's tables). */
#define HANGUL_V_FIRST 0x1161
#define HANGUL_V_LAST 0x1175
#define HANGUL_T_FIRST 0x11A8
#define HANGUL_T_LAST 0x11C2

/* utf8proc 2.x marks the second code point of a composition pair with
 * comb_index >= 0x8000 (0xFFFF means "takes part in no composition"). */
#define COMB_SECOND 0x8000
#define COMB_NONE 0xFFFF

struct folder {
	struct sw_fold *out;
	size_t cap;         /* bytes allocated in out->text and entries in out->map */
	unsigned flags;
	utf8proc_option_t opts;
	bool in_space;      /* last output was a collapsed space */
	int32_t seg[SEG_CAP];
	size_t seg_n;
	size_t seg_origin;  /* original offset of the segment's first byte */
};

/* How a code point folds before or after NFKC. */
enum punct {
	P_KEEP = 0,
	P_DROP,    /* invisible: zero widths, soft hyphen, bidi marks */
	P_SPACE,   /* whitespace that becomes ' ' */
	P_NEWLINE, /* line and paragraph separators: '\n' unless collapsing */
	P_SQUOTE,
	P_DQUOTE,
	P_DASH,
};

static enum punct classify(int32_t cp)
{
	switch (cp) {
	case ' ': case '\t': case '\n': case '\v': case '\f': case '\r':
		return P_SPACE;
	case 0x0085: case 0x2028: case 0x2029:
		return P_NEWLINE;
	case 0x00A0: case 0x1680: case 0x202F: case 0x205F: case 0x3000:
		return P_SPACE;
	case 0x00AD: case 0x200B: case 0x200C: case 0x200D: case 0x200E:
	case 0x200F: case 0x2060: case 0x2061: case 0x2062: case 0x2063:
	case 0x2064: case 0xFEFF:
		return P_DROP;
	/* U+00B4 is in the list because PDF text and OCR use the spacing acute
	 * as an apostrophe ("don´t"); NFKC would make it a space and a mark. */
	case 0x2018: case 0x2019: case 0x201A: case 0x201B: case 0x2032:
	case 0x2035: case 0x2039: case 0x203A: case 0x00B4: case 0x02BC:
		return P_SQUOTE;
	/* U+2033 and U+2036 must be caught before NFKC, which would make each
	 * two primes, that is two single quotes. */
	case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x2033:
	case 0x2036: case 0x00AB: case 0x00BB:
		return P_DQUOTE;
	case 0x2212: case 0xFE58: case 0xFE63: case 0xFF0D: case 0x2E3A:
	case 0x2E3B:
		return P_DASH;
	default:
		break;
	}
	if (cp >= 0x2000 && cp <= 0x200A)
		return P_SPACE;
	if (cp >= 0x2010 && cp <= 0x2015)
		return P_DASH;
	if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
		return P_DROP;
	return P_KEEP;
}

static void reserve(struct folder *fo, size_t extra)
{
	size_t need = fo->out->len + extra + 1;
	if (need <= fo->cap)
		return;
	size_t cap = fo->cap * 2;
	if (cap < need)
		cap = need;
	fo->out->text = sw_xrealloc(fo->out->text, cap);
	fo->out->map = sw_xrealloc(fo->out->map, cap * sizeof(size_t));
	fo->cap = cap;
}

/* The caller has reserved room. */
static void put(struct folder *fo, char c, size_t origin)
{
	fo->out->text[fo->out->len] = c;
	fo->out->map[fo->out->len] = origin;
	fo->out->len++;
	fo->in_space = false;
}

static void put_space(struct folder *fo, char c, size_t origin)
{
	if (!(fo->flags & SW_FOLD_SPACE)) {
		put(fo, c, origin);
		return;
	}
	if (fo->in_space)
		return;
	put(fo, ' ', origin);
	fo->in_space = true;
}

/* Emit one already-normalised code point, folding the punctuation that NFKC
 * produced (U+FE58 becomes U+2014, which is still a dash).  Returns false
 * when the code point is not punctuation we fold. */
static bool put_punct(struct folder *fo, int32_t cp, size_t origin)
{
	switch (classify(cp)) {
	case P_KEEP:
		return false;
	case P_DROP:
		break;
	case P_SPACE:
		put_space(fo, cp < 0x80 ? (char)cp : ' ', origin);
		break;
	case P_NEWLINE:
		put_space(fo, '\n', origin);
		break;
	case P_SQUOTE:
		put(fo, '\'', origin);
		break;
	case P_DQUOTE:
		put(fo, '"', origin);
		break;
	case P_DASH:
		put(fo, '-', origin);
		break;
	}
	return true;
}

/* Canonical ordering: a stable sort of each run of non-starters by
 * combining class.  Runs are short; insertion sort is the right tool. */
static void reorder(int32_t *cp, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int32_t c = cp[i];
		int ccc = utf8proc_get_property(c)->combining_class;
		if (ccc == 0)
			continue;
		size_t j = i;
		while (j > 0) {
			int prev = utf8proc_get_property(cp[j - 1])->combining_class;
			if (prev == 0 || prev <= ccc)
				break;
			cp[j] = cp[j - 1];
			j--;
		}
		cp[j] = c;
	}
}

static void flush(struct folder *fo)
{
	if (fo->seg_n == 0)
		return;
	reorder(fo->seg, fo->seg_n);
	utf8proc_ssize_t n = utf8proc_normalize_utf32(fo->seg, (utf8proc_ssize_t)fo->seg_n,
						      UTF8PROC_COMPOSE);
	if (n < 0)
		SW_BUG("utf8proc_normalize_utf32: %s", utf8proc_errmsg(n));
	reserve(fo, (size_t)n * 4);
	for (utf8proc_ssize_t i = 0; i < n; i++) {
		int32_t cp = fo->seg[i];
		if (put_punct(fo, cp, fo->seg_origin))
			continue;
		utf8proc_uint8_t enc[4];
		utf8proc_ssize_t k = utf8proc_encode_char(cp, enc);
		for (utf8proc_ssize_t b = 0; b < k; b++)
			put(fo, (char)enc[b], fo->seg_origin);
	}
	fo->seg_n = 0;
}

/* True when cp may join the segment before it instead of starting one. */
static bool continues_segment(int32_t cp)
{
	if ((cp >= HANGUL_V_FIRST && cp <= HANGUL_V_LAST) ||
	    (cp >= HANGUL_T_FIRST && cp <= HANGUL_T_LAST))
		return true;
	const utf8proc_property_t *prop = utf8proc_get_property(cp);
	if (prop->combining_class != 0)
		return true;
	return prop->comb_index != COMB_NONE && prop->comb_index >= COMB_SECOND;
}

/* One code point that is neither whitespace nor folded punctuation. */
static void fold_cp(struct folder *fo, int32_t cp, size_t origin)
{
	int32_t dec[DECOMP_MAX];
	int boundclass = 0;
	utf8proc_ssize_t n = utf8proc_decompose_char(cp, dec, DECOMP_MAX, fo->opts,
						     &boundclass);
	if (n < 0 || n > DECOMP_MAX) {
		/* Cannot happen with Unicode's tables; keep the code point. */
		dec[0] = cp;
		n = 1;
	}
	if (n == 0)
		return; /* a stripped mark */
	if (fo->seg_n > 0 &&
	    (!continues_segment(dec[0]) || fo->seg_n + (size_t)n > SEG_CAP))
		flush(fo);
	if (fo->seg_n == 0)
		fo->seg_origin = origin;
	memcpy(fo->seg + fo->seg_n, dec, (size_t)n * sizeof(dec[0]));
	fo->seg_n += (size_t)n;
}

/* ASCII bytes [i, end) that are known not to be followed by a combining
 * mark: no utf8proc call, no segment.  The loop works on local copies so
 * the compiler need not reload the output pointers after every char store. */
static void fold_ascii(struct folder *fo, const unsigned char *in, size_t i, size_t end)
{
	bool fold_case = fo->flags & SW_FOLD_CASE;
	bool collapse = fo->flags & SW_FOLD_SPACE;
	bool in_space = fo->in_space;

	reserve(fo, end - i);
	char *text = fo->out->text;
	size_t *map = fo->out->map;
	size_t n = fo->out->len;
	for (; i < end; i++) {
		unsigned char c = in[i];
		if (c == ' ' || (c >= '\t' && c <= '\r')) {
			if (collapse) {
				if (in_space)
					continue;
				c = ' ';
				in_space = true;
			}
		} else {
			if (fold_case && c >= 'A' && c <= 'Z')
				c = (unsigned char)(c + ('a' - 'A'));
			in_space = false;
		}
		text[n] = (char)c;
		map[n++] = i;
	}
	fo->out->len = n;
	fo->in_space = in_space;
}

void sw_fold(struct sw_fold *out, const char *in, size_t len, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)in;
	struct folder fo;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	memset(&fo, 0, sizeof(fo));
	fo.out = out;
	fo.flags = flags;
	fo.opts = UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
	if (flags & SW_FOLD_CASE)
		fo.opts |= UTF8PROC_CASEFOLD;
	if (flags & SW_FOLD_MARKS)
		fo.opts |= UTF8PROC_STRIPMARK;
	fo.cap = len + len / 8 + 16;
	out->text = sw_xmalloc(fo.cap);
	out->map = sw_xmalloc(fo.cap * sizeof(size_t));

	while (i < len) {
		if (s[i] < 0x80) {
			size_t end = i + 1;
			while (end < len && s[end] < 0x80)
				end++;
			flush(&fo);
			/* The last ASCII byte before a non-ASCII one may be the
			 * base of a combining mark, so it takes the slow path. */
			size_t fast_end = end < len ? end - 1 : end;
			fold_ascii(&fo, s, i, fast_end);
			i = fast_end;
			if (i == end)
				continue;
		}

		int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
		if (k <= 0) {
			cp = 0xFFFD;
			k = 1;
		}
		enum punct kind = classify(cp);
		if (kind != P_KEEP) {
			flush(&fo);
			reserve(&fo, 1);
			put_punct(&fo, cp, i);
		} else {
			fold_cp(&fo, cp, i);
		}
		i += (size_t)k;
	}
	flush(&fo);
	reserve(&fo, 0);
	out->text[out->len] = '\0';
	out->map[out->len] = len;
}

void sw_fold_release(struct sw_fold *f)
{
	if (!f)
		return;
	free(f->text);
	free(f->map);
	memset(f, 0, sizeof(*f));
}

bool sw_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(p + i, (utf8proc_ssize_t)(len - i), &cp);
		if (k <= 0)
			return false;
		i += (size_t)k;
	}
	return true;
}

size_t sw_utf8_cut(const char *s, size_t len, size_t n)
{
	if (n >= len)
		return len;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

/* Windows-1252's use of the C1 range, which real "Latin-1" files mean; the
 * five holes become U+FFFD. */
static const uint16_t cp1252_c1[32] = {
	0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
	0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
};

void sw_latin1_to_utf8(struct sw_buf *out, const char *in, size_t len)
{
	const unsigned char *s = (const unsigned char *)in;
	char chunk[1024];
	size_t n = 0;

	sw_buf_grow(out, len);
	for (size_t i = 0; i < len; i++) {
		if (n + 3 > sizeof(chunk)) {
			sw_buf_add(out, chunk, n);
			n = 0;
		}
		unsigned c = s[i];
		if (c < 0x80) {
			chunk[n++] = (char)c;
			continue;
		}
		if (c < 0xA0)
			c = cp1252_c1[c - 0x80];
		if (c < 0x800) {
			chunk[n++] = (char)(0xC0 | (c >> 6));
			chunk[n++] = (char)(0x80 | (c & 0x3F));
		} else {
			chunk[n++] = (char)(0xE0 | (c >> 12));
			chunk[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
			chunk[n++] = (char)(0x80 | (c & 0x3F));
		}
	}
	sw_buf_add(out, chunk, n);
}
