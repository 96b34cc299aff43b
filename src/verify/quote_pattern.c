/* quote_pattern.c - the words and patterns of finding a quotation in a text
 * as lawyers alter quotations and as PDFs, e-mails and transcripts break
 * lines.  A leaf below quote.c, quote_find.c and alter.c: it calls nothing
 * else in verify/.
 *
 * Both sides become words: folded (case, marks, curly quotes, dashes), cut
 * at anything that is not a letter or a digit, apostrophes inside a word
 * left out ("court's" is "courts").  Punctuation, quote marks, line breaks,
 * page breaks and the ranges a caller says are not words (a transcript's
 * line numbers, page headers, star pages) therefore never stop a match, and
 * a word hyphenated at a line end matches whole ("deliv-\nery" is
 * "delivery") or with its hyphen ("late-\ndelivery" is "late-delivery").
 *
 * The quotation becomes a pattern: its words, with gaps where it was
 * altered.  An ellipsis (". . .", "...", "…", "[...]") may stand for many
 * words, never a negation ("We will . . . make" for "We will not be able
 * to make"); a bracketed insertion ("[Brightline]") for at most three
 * words that it may stand for (a pronoun, a description it names, a word
 * of its stem), with the same negation; a bracketed letter ("[t]he") is
 * only a change of case and stays in its word; "[]" or a bracketed ending
 * ("appl[ying]", "expect[s]") leaves a word that need only start so;
 * letters added before a word ("[un]reasonable") leave either word;
 * "[sic]" and "(emphasis added)"-style parentheticals are not the
 * original's words.  The search for a pattern is quote_find.c's. */
#include <stdlib.h>
#include <string.h>

#include "verify/quote_int.h"

#define GAP_ELLIPSIS 4000   /* words an ellipsis may stand for */
#define GAP_BRACKET 3       /* words an insertion may replace */
#define MAX_GAPS 64         /* past that a quotation is not a quotation */
#define BRACKET_MAX 80      /* bytes inside [ ] or ( ) we look at */

static const uint64_t fnv_basis = 1469598103934665603ULL;

static uint64_t fnv(uint64_t h, unsigned char c)
{
	return (h ^ c) * 1099511628211ULL;
}

/* The code point at s (n bytes left), and its length in *len. */
static uint32_t cp_at(const unsigned char *s, size_t n, size_t *len)
{
	unsigned char c = s[0];
	size_t l = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (c < 0xC0 || l > n) {
		*len = 1;
		return 0xFFFD;
	}
	uint32_t cp = c & (0x7F >> l);
	for (size_t i = 1; i < l; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*len = i;
			return 0xFFFD;
		}
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	*len = l;
	return cp;
}

/* The length of the word character at s (letters and digits of any
 * script), or 0.  Symbols (§, ¶, ©, bullets, arrows) are not words. */
static size_t word_char(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	if (c < 0x80)
		return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			       ? 1 : 0;
	size_t l;
	uint32_t cp = cp_at((const unsigned char *)s, n, &l);
	if (cp == 0xD7 || cp == 0xF7 || cp == 0xFFFD)
		return 0;
	if ((cp >= 0xC0 && cp < 0x2000) || (cp >= 0x3040 && cp < 0xFE00) || cp >= 0x10000)
		return l;
	return 0;
}

/* Inside a word, at s[i]: the length of a run of apostrophes and
 * replacement characters (bytes that were not UTF-8) that the word goes on
 * after ("court's", "deliv\xffery"), or 0 when the word ends here. */
static size_t inner_gap(const char *s, size_t n, size_t i)
{
	size_t j = i;
	while (j < n) {
		if (s[j] == '\'')
			j++;
		else if (j + 2 < n && (unsigned char)s[j] == 0xEF &&
			 (unsigned char)s[j + 1] == 0xBF && (unsigned char)s[j + 2] == 0xBD)
			j += 3;
		else
			break;
	}
	return j > i && j < n && word_char(s + j, n - j) ? j - i : 0;
}

/* The end of the word at s[i] (a word character), apostrophes between
 * word characters inside it; *h gets its hash. */
static size_t word_end(const char *s, size_t n, size_t i, uint64_t *h)
{
	uint64_t x = fnv_basis;
	for (;;) {
		size_t l = i < n ? word_char(s + i, n - i) : 0;
		size_t g = l ? 0 : inner_gap(s, n, i);
		if (g) {
			i += g;
			continue;
		}
		if (!l)
			break;
		for (size_t k = 0; k < l; k++)
			x = fnv(x, (unsigned char)s[i + k]);
		i += l;
	}
	*h = x;
	return i;
}

size_t sw__verify_quote_word_char(const char *s, size_t n)
{
	return word_char(s, n);
}

size_t sw__verify_quote_word_end(const char *s, size_t n, size_t i)
{
	uint64_t h;
	return word_end(s, n, i, &h);
}

static int cmp_skip(const void *a, const void *b)
{
	const struct sw__verify_skip *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

void sw__verify_words_init(struct sw__words *out, const char *text, size_t len,
		    const struct sw__verify_skip *skip, size_t nskip)
{
	memset(out, 0, sizeof(*out));
	const char *src = text;
	size_t slen = len;
	size_t *cmap = NULL;
	char *clean = NULL;
	if (nskip) {
		/* The text less its skipped ranges, each a space unless it joins. */
		struct sw__verify_skip *sk = sw_xmalloc(nskip * sizeof(*sk));
		memcpy(sk, skip, nskip * sizeof(*sk));
		qsort(sk, nskip, sizeof(*sk), cmp_skip);
		clean = sw_xmalloc(len + 1);
		cmap = sw_xmalloc((len + 1) * sizeof(*cmap));
		size_t o = 0, k = 0;
		for (size_t i = 0; i < len;) {
			while (k < nskip && sk[k].end <= i)
				k++;
			if (k < nskip && sk[k].start <= i && sk[k].end > i) {
				/* A space, or a line break when it spans one, so that
				 * a word hyphenated before it still rejoins. */
				size_t e = sk[k].end < len ? sk[k].end : len;
				if (!sk[k].join) {
					bool nl = memchr(text + i, '\n', e - i) ||
						  memchr(text + i, '\f', e - i);
					clean[o] = nl ? '\n' : ' ';
					cmap[o++] = i;
				}
				i = e;
				continue;
			}
			clean[o] = text[i];
			cmap[o++] = i++;
		}
		cmap[o] = len;
		src = clean;
		slen = o;
		free(sk);
	}
	struct sw_fold f;
	sw_fold(&f, src, slen, SW_FOLD_CASE | SW_FOLD_MARKS);
	if (cmap)
		for (size_t i = 0; i <= f.len; i++)
			f.map[i] = cmap[f.map[i] <= slen ? f.map[i] : slen];
	free(cmap);
	free(clean);
	out->text = f.text;
	out->len = f.len;
	out->map = f.map;

	size_t cap = 0;
	const char *s = out->text;
	size_t n = out->len;
	for (size_t i = 0; i < n;) {
		size_t l = word_char(s + i, n - i);
		if (!l) {
			i++;
			continue;
		}
		uint64_t h;
		size_t e = word_end(s, n, i, &h);
		out->w = sw_xgrow(out->w, &cap, out->n + 1, sizeof(*out->w));
		out->w[out->n++] = (struct sw__word){ .s = i, .e = e, .h = h };
		i = e;
	}
	/* Line-end hyphens: "deliv-", spaces, a line break, "ery". */
	for (size_t k = 0; k + 1 < out->n; k++) {
		size_t a = out->w[k].e, b = out->w[k + 1].s;
		if (a >= b || s[a] != '-')
			continue;
		bool nl = false, ws = true;
		for (size_t j = a + 1; j < b && ws; j++) {
			nl |= s[j] == '\n' || s[j] == '\r' || s[j] == '\f';
			ws = s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' ||
			     s[j] == '\f' || s[j] == '\v';
		}
		if (!nl || !ws)
			continue;
		uint64_t h = out->w[k].h;
		for (size_t j = out->w[k + 1].s; j < out->w[k + 1].e;) {
			size_t g = inner_gap(s, out->w[k + 1].e, j);
			if (g && j > out->w[k + 1].s) {
				j += g;
				continue;
			}
			h = fnv(h, (unsigned char)s[j++]);
		}
		out->w[k].join = true;
		out->w[k].hj = h;
	}
}

void sw__verify_words_release(struct sw__words *w)
{
	if (!w)
		return;
	free(w->text);
	free(w->map);
	free(w->w);
	memset(w, 0, sizeof(*w));
}

size_t sw__verify_words_at(const struct sw__words *w, size_t off)
{
	size_t lo = 0, hi = w->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->map[w->w[mid].s] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t sw__verify_words_end(const struct sw__words *w, size_t k)
{
	size_t j = w->w[k].e, last = w->map[j - 1];
	while (j < w->len && w->map[j] <= last)
		j++;
	return w->map[j];
}

/* ---------------------------------------------------------------- pattern */

struct compiler {
	struct sw__verify_pattern *p;
	size_t cap;
	struct sw_buf prefixes; /* PREFIX items' bytes, NUL-separated */
	size_t ngaps;
	bool too_many;
};

static void add_item(struct compiler *c, struct sw__verify_item it)
{
	struct sw__verify_pattern *p = c->p;
	if (it.kind == SW__VERIFY_ITEM_GAP) {
		if (p->n == 0)
			return; /* a leading ellipsis says nothing */
		if (p->it[p->n - 1].kind == SW__VERIFY_ITEM_GAP) {
			struct sw__verify_item *g = &p->it[p->n - 1];
			if (g->max < it.max)
				g->max = it.max;
			g->ellipsis |= it.ellipsis;
			return;
		}
		if (++c->ngaps > MAX_GAPS)
			c->too_many = true;
		it.gap = c->ngaps - 1;
	}
	if (p->n >= SW__VERIFY_QUOTE_MAX_ITEMS) {
		c->too_many = true;
		return;
	}
	p->it = sw_xgrow(p->it, &c->cap, p->n + 1, sizeof(*p->it));
	p->it[p->n++] = it;
	if (it.kind != SW__VERIFY_ITEM_GAP)
		p->nwords++;
}

static bool has(const char *s, size_t n, const char *word)
{
	size_t wl = strlen(word);
	for (size_t i = 0; i + wl <= n; i++)
		if (memcmp(s + i, word, wl) == 0)
			return true;
	return false;
}

/* "(emphasis added)", "(citations omitted)", "(alteration in original)",
 * "(cleaned up)": notes about the quotation, not its words. */
static bool note_paren(const char *s, size_t n)
{
	return has(s, n, "omitted") || has(s, n, "added") || has(s, n, "in original") ||
	       has(s, n, "cleaned up") || has(s, n, "supplied");
}

/* An ellipsis at s: its length, or 0.  ". . .", "...", ". . . ." */
static size_t ellipsis(const char *s, size_t n)
{
	size_t i = 0, dots = 0;
	while (i < n &&
	       (s[i] == '.' || (s[i] == ' ' && dots > 0 && i + 1 < n && s[i + 1] == '.'))) {
		dots += s[i] == '.';
		i++;
	}
	return dots >= 3 ? i : 0;
}

/* At s[i], the start of the quotation: the length of a speaker or list
 * marker ("Q.", "A.", "1.", "b)", "(c)", "12)") and the space after it, or
 * 0.  A block quote of a transcript or a list starts with them; they are
 * layout, not the original's words (inside it, they are the page's too). */
static size_t marker(const char *s, size_t n, size_t i)
{
	size_t j = i;
	bool paren = j < n && s[j] == '(';
	j += paren;
	size_t d = 0;
	while (j + d < n && d < 4 && s[j + d] >= '0' && s[j + d] <= '9')
		d++;
	if (d == 0 && j < n && s[j] >= 'a' && s[j] <= 'z')
		d = 1;
	if (d == 0 || d > 3)
		return 0;
	j += d;
	if (j >= n || (paren ? s[j] != ')' : s[j] != '.' && s[j] != ')'))
		return 0;
	j++;
	if (j >= n || (s[j] != ' ' && s[j] != '\t'))
		return 0;
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	return j - i;
}

void sw__verify_pattern_init(struct sw__verify_pattern *out, const char *quote, size_t qlen)
{
	memset(out, 0, sizeof(*out));
	struct compiler c = { .p = out };
	out->quote = quote;
	sw__verify_words_init(&out->q, quote, qlen, NULL, 0);
	const char *s = out->q.text;
	size_t n = out->q.len;
	/* The word being built: its hash, its first byte, whether it is cut
	 * to a prefix. */
	uint64_t h = fnv_basis, h2 = fnv_basis;
	size_t ws = 0, last = 0;
	bool in_word = false, prefix = false, alt = false;
	size_t pstart = 0;
	sw_buf_grow(&c.prefixes, n + 1);

#define END_WORD()                                                                          \
	do {                                                                                \
		if (in_word) {                                                              \
			struct sw__verify_item it = { .kind = prefix ? SW__VERIFY_ITEM_PREFIX \
								      : SW__VERIFY_ITEM_WORD, \
					       .h = h, .h2 = alt ? h2 : h,                    \
					       .qs = out->q.map[ws],                          \
					       .qe = out->q.map[last] };                      \
			if (prefix) {                                                       \
				it.plen = c.prefixes.len - pstart;                          \
				it.p = (const char *)(uintptr_t)pstart;                     \
				sw_buf_addc(&c.prefixes, '\0');                              \
			}                                                                   \
			add_item(&c, it);                                                   \
		}                                                                           \
		in_word = prefix = alt = false;                                             \
		h = h2 = fnv_basis;                                                         \
	} while (0)

	bool line_start = true;
	for (size_t i = 0; i < n;) {
		if (line_start) {
			size_t mk = marker(s, n, i);
			if (s[i] == '\n' || s[i] == ' ' || s[i] == '\t' || s[i] == '>' ||
			    s[i] == '\r') {
				i++;
				continue;
			}
			line_start = false;
			if (mk) {
				i += mk;
				continue;
			}
		}
		size_t l = word_char(s + i, n - i);
		if (l) {
			if (!in_word) {
				in_word = true;
				ws = i;
				pstart = c.prefixes.len;
			}
			for (size_t k = 0; k < l; k++) {
				if (!prefix) {
					h = fnv(h, (unsigned char)s[i + k]);
					h2 = fnv(h2, (unsigned char)s[i + k]);
					sw_buf_addc(&c.prefixes, s[i + k]);
				}
			}
			i += l;
			last = i;
			continue;
		}
		size_t g = in_word ? inner_gap(s, n, i) : 0;
		if (g) {
			i += g;
			continue;
		}
		if (s[i] == '(') {
			const char *close =
				memchr(s + i, ')', n - i < BRACKET_MAX ? n - i : BRACKET_MAX);
			if (close && note_paren(s + i, (size_t)(close - (s + i)))) {
				END_WORD();
				i = (size_t)(close - s) + 1;
				continue;
			}
		}
		if (s[i] == '[') {
			const char *close =
				memchr(s + i, ']', n - i < BRACKET_MAX ? n - i : BRACKET_MAX);
			if (close) {
				size_t in_s = i + 1, in_e = (size_t)(close - s), after = in_e + 1;
				size_t inner = in_e - in_s;
				bool left = in_word && last == i;
				bool right = after < n && word_char(s + after, n - after);
				if (inner == 3 && memcmp(s + in_s, "sic", 3) == 0) {
					i = after;
					continue;
				}
				if (ellipsis(s + in_s, inner) ||
				    (inner && s[in_s] == '.' && inner <= 3)) {
					END_WORD();
					add_item(&c, (struct sw__verify_item){
							     .kind = SW__VERIFY_ITEM_GAP,
							     .max = GAP_ELLIPSIS,
							     .ellipsis = true });
					i = after;
					continue;
				}
				bool letters = false;
				for (size_t k = in_s; k < in_e; k++)
					letters |= word_char(s + k, in_e - k) != 0;
				if (inner == 0 || (left && letters && (inner > 1 || !right))) {
					/* "judgment[]", "appl[ying]": the word so far is a
					 * prefix; the rest of it is ours. */
					if (in_word)
						prefix = true;
					i = after;
					while (i < n && (l = word_char(s + i, n - i)))
						i += l;
					last = i > last ? i : last;
					if (!in_word)
						continue;
					END_WORD();
					continue;
				}
				if (!letters) {
					i = after; /* "[,]": punctuation changed */
					continue;
				}
				if ((inner == 1 && (left || right)) || (right && !left)) {
					/* "[t]he", "[re]view": the letters are the word's. */
					if (!in_word) {
						in_word = true;
						ws = i;
						pstart = c.prefixes.len;
						/* "[un]reasonable": added letters, the
						 * original either word; "[t]he" a case. */
						alt = inner > 1;
					}
					for (size_t k = in_s; k < in_e; k++) {
						if (word_char(s + k, in_e - k) && !prefix) {
							h = fnv(h, (unsigned char)s[k]);
							sw_buf_addc(&c.prefixes, s[k]);
						}
					}
					i = after;
					last = i;
					continue;
				}
				/* "[Brightline]": an insertion standing for a few
				 * words; its folded text kept to judge them by. */
				END_WORD();
				size_t qs0 = out->q.map[i], qs1 = out->q.map[in_s];
				size_t boff = c.prefixes.len;
				sw_buf_add(&c.prefixes, s + in_s, inner);
				sw_buf_addc(&c.prefixes, '\0');
				add_item(&c,
					 (struct sw__verify_item){
						 .kind = SW__VERIFY_ITEM_GAP,
						 .max = GAP_BRACKET,
						 .p = (const char *)(uintptr_t)boff,
						 .plen = inner,
						 .qs = qs0,
						 .qe = out->q.map[after],
						 .name = quote[qs1] >= 'A' && quote[qs1] <= 'Z' });
				i = after;
				continue;
			}
		}
		size_t el = ellipsis(s + i, n - i);
		END_WORD();
		if (el) {
			add_item(&c, (struct sw__verify_item){ .kind = SW__VERIFY_ITEM_GAP,
							       .max = GAP_ELLIPSIS,
							       .ellipsis = true });
			i += el;
			continue;
		}
		i++;
	}
	END_WORD();
#undef END_WORD
	while (out->n && out->it[out->n - 1].kind == SW__VERIFY_ITEM_GAP)
		out->n--;
	/* The prefixes' buffer no longer moves: make offsets pointers. */
	for (size_t k = 0; k < out->n; k++)
		if (out->it[k].kind == SW__VERIFY_ITEM_PREFIX ||
		    (out->it[k].kind == SW__VERIFY_ITEM_GAP && !out->it[k].ellipsis &&
		     out->it[k].plen))
			out->it[k].p = c.prefixes.data + (uintptr_t)out->it[k].p;
		else if (out->it[k].kind == SW__VERIFY_ITEM_GAP)
			out->it[k].p = NULL, out->it[k].plen = 0;
	out->prefixes = sw_buf_detach(&c.prefixes, NULL);
	out->ngaps = c.ngaps;
	if (c.too_many)
		out->n = 0;
}

void sw__verify_pattern_release(struct sw__verify_pattern *p)
{
	if (!p)
		return;
	sw__verify_words_release(&p->q);
	free(p->it);
	free(p->prefixes);
	memset(p, 0, sizeof(*p));
}

bool sw__verify_item_is(const struct sw__verify_item *it, const struct sw__words *w, size_t k,
		 size_t *used)
{
	const struct sw__word *x = &w->w[k];
	*used = 1;
	if (it->kind == SW__VERIFY_ITEM_WORD) {
		if (x->h == it->h || x->h == it->h2)
			return true;
		if (x->join && (x->hj == it->h || x->hj == it->h2)) {
			*used = 2;
			return true;
		}
		return false;
	}
	if (it->kind == SW__VERIFY_ITEM_PREFIX) {
		size_t j = x->s, q = 0;
		while (q < it->plen && j < x->e) {
			if (w->text[j] == '\'') {
				j++;
				continue;
			}
			if (w->text[j] != it->p[q])
				return false;
			j++;
			q++;
		}
		return q == it->plen;
	}
	return false;
}
