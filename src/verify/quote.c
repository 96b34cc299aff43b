/* quote.c - finding a quotation in a text as lawyers alter quotations.
 *
 * Both sides are folded (case, quote marks, dashes, whitespace) and double
 * quotes are made single, since a quotation inside a quotation changes its
 * marks.  The quotation is then cut into literal fragments at its
 * alterations: an ellipsis (". . .", "...", "…") may stand for any words
 * that follow within the same text; a bracketed insertion ("[Brightline]")
 * stands for a few words of the original; a bracketed letter ("[t]he") is
 * only a change of case, so its letter stays in the fragment.  The
 * fragments must appear in order, each within its gap of the one before. */
#include <string.h>

#include "verify/verify_int.h"

#define MAX_FRAGMENTS 32
#define MAX_FIRST_TRIES 64
#define GAP_BRACKET 80      /* bytes an insertion may replace */
#define GAP_ELLIPSIS 20000  /* bytes an ellipsis may skip */

struct fragment {
	const char *s;
	size_t len;
	size_t gap;          /* the most bytes allowed before it */
};

static bool is_trim(char c)
{
	return c == ' ' || c == ',' || c == '.' || c == ';' || c == ':' || c == '\'' ||
	       c == '!' || c == '?';
}

/* Make " into ' in place (a folded text is ours to change). */
static void single_quotes(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '"')
			s[i] = '\'';
}

static void push(struct fragment *f, size_t *n, struct sw_buf *lit, size_t *lit_start,
		 size_t gap_next, size_t *gap)
{
	const char *s = lit->data + *lit_start;
	size_t len = lit->len - *lit_start;
	while (len && is_trim(*s)) {
		s++;
		len--;
	}
	while (len && is_trim(s[len - 1]))
		len--;
	if (len && *n < MAX_FRAGMENTS) {
		f[*n].s = s;
		f[*n].len = len;
		f[*n].gap = *gap;
		(*n)++;
		*gap = gap_next;
	} else if (*gap < gap_next) {
		*gap = gap_next;
	}
	/* Fragments point into lit: separate them with a NUL and never let
	 * lit move again (its room was reserved before). */
	sw_buf_addc(lit, '\0');
	*lit_start = lit->len;
}

static const char *find(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
	if (nlen == 0 || nlen > hlen)
		return NULL;
	const char *end = hay + hlen - nlen;
	for (const char *p = hay; p <= end; p++) {
		p = memchr(p, needle[0], (size_t)(end - p) + 1);
		if (!p)
			return NULL;
		if (memcmp(p, needle, nlen) == 0)
			return p;
	}
	return NULL;
}

bool sw_verify_quote_in(const char *quote, size_t qlen, const char *text,
			size_t len, size_t *start, size_t *end)
{
	struct sw_fold fq, ft;
	struct sw_buf lit = SW_BUF_INIT;
	struct fragment frag[MAX_FRAGMENTS];
	size_t nfrag = 0, lit_start = 0, gap = 0;
	bool found = false;

	sw_fold(&fq, quote, qlen, SW_FOLD_DEFAULT);
	sw_fold(&ft, text, len, SW_FOLD_DEFAULT);
	single_quotes(fq.text, fq.len);
	single_quotes(ft.text, ft.len);
	sw_buf_grow(&lit, fq.len + 2 * MAX_FRAGMENTS + 2);

	const char *q = fq.text, *qe = fq.text + fq.len;
	while (q < qe) {
		if (*q == '[') {
			const char *close = memchr(q, ']', (size_t)(qe - q));
			if (close) {
				size_t inner = (size_t)(close - q - 1);
				if (inner == 1) {
					sw_buf_addc(&lit, q[1]); /* "[t]he": a case change */
				} else {
					push(frag, &nfrag, &lit, &lit_start, inner == 0 ? 4 : GAP_BRACKET, &gap);
				}
				q = close + 1;
				continue;
			}
		}
		if (q + 2 < qe && q[0] == '.' && q[1] == '.' && q[2] == '.') {
			push(frag, &nfrag, &lit, &lit_start, GAP_ELLIPSIS, &gap);
			while (q < qe && (*q == '.' || *q == ' '))
				q++;
			continue;
		}
		if (q + 4 < qe && q[0] == '.' && q[1] == ' ' && q[2] == '.' && q[3] == ' ' && q[4] == '.') {
			push(frag, &nfrag, &lit, &lit_start, GAP_ELLIPSIS, &gap);
			while (q < qe && (*q == '.' || *q == ' '))
				q++;
			continue;
		}
		if (lit.len + 1 < lit.cap)
			sw_buf_addc(&lit, *q);
		q++;
	}
	push(frag, &nfrag, &lit, &lit_start, 0, &gap);
	if (nfrag == 0)
		goto cleanup;

	const char *t = ft.text, *te = ft.text + ft.len;
	const char *p = t;
	for (int tries = 0; tries < MAX_FIRST_TRIES && p < te; tries++) {
		const char *first = find(p, (size_t)(te - p), frag[0].s, frag[0].len);
		if (!first)
			break;
		const char *at = first + frag[0].len;
		bool ok = true;
		for (size_t i = 1; i < nfrag && ok; i++) {
			size_t window = (size_t)(te - at);
			if (window > frag[i].gap + frag[i].len + 2)
				window = frag[i].gap + frag[i].len + 2;
			const char *next = find(at, window, frag[i].s, frag[i].len);
			if (!next)
				ok = false;
			else
				at = next + frag[i].len;
		}
		if (ok) {
			found = true;
			if (start)
				*start = ft.map[first - t];
			if (end)
				*end = ft.map[at - t];
			break;
		}
		p = first + 1;
	}
cleanup:
	sw_buf_release(&lit);
	sw_fold_release(&fq);
	sw_fold_release(&ft);
	return found;
}

char *sw__verify_excerpt(const char *text, size_t len, size_t start, size_t end)
{
	const size_t ctx = 40;
	if (start > len)
		start = len;
	if (end > len)
		end = len;
	if (end < start)
		end = start;
	size_t s = start > ctx ? start - ctx : 0;
	size_t e = end + ctx < len ? end + ctx : len;
	if (e - s > SW_VERIFY_EXCERPT) {
		s = start;
		e = s + SW_VERIFY_EXCERPT < len ? s + SW_VERIFY_EXCERPT : len;
	}
	while (s > 0 && ((unsigned char)text[s] & 0xC0) == 0x80)
		s--;
	while (e < len && ((unsigned char)text[e] & 0xC0) == 0x80)
		e++;
	struct sw_buf b = SW_BUF_INIT;
	if (s > 0)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	bool space = false;
	for (size_t i = s; i < e; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			space = b.len > 0;
			continue;
		}
		if (space)
			sw_buf_addc(&b, ' ');
		space = false;
		sw_buf_addc(&b, (char)c);
	}
	if (e < len)
		sw_buf_adds(&b, "\xe2\x80\xa6");
	return sw_buf_detach(&b, NULL);
}
