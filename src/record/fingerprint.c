/* fingerprint.c - winnowed fingerprints of normalised word k-grams, the
 * measure behind the provenance firewall (Schleimer, Wilkerson and Aiken's
 * winnowing, over words instead of characters).
 *
 * Words rather than characters: a re-saved draft changes line breaks,
 * hyphenation, quotes and spacing, which folding and word splitting erase,
 * and a light edit costs only the k-grams that cover the edited word. */
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

_Static_assert(SW_PROVENANCE_K >= 1 && SW_PROVENANCE_WINDOW >= 1,
	       "fingerprint parameters");

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t word_hash(const unsigned char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, then mixed */
	for (size_t i = 0; i < len; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return mix(h ^ len);
}

static bool word_byte(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The folded text's word hashes (*out, caller frees) and its text hash. */
static size_t text_words(uint64_t **out, uint64_t *text_hash, const char *text, size_t len)
{
	struct sw_fold f;
	uint64_t *words = NULL;
	size_t nwords = 0, capwords = 0;

	sw_fold(&f, text, len, SW_FOLD_CASE | SW_FOLD_MARKS | SW_FOLD_SPACE);
	const unsigned char *t = (const unsigned char *)f.text;
	uint64_t th = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < f.len;) {
		if (!word_byte(t[i])) {
			i++;
			continue;
		}
		size_t s = i;
		while (i < f.len && word_byte(t[i]))
			i++;
		words = sw_xgrow(words, &capwords, nwords + 1, sizeof(*words));
		words[nwords] = word_hash(t + s, i - s);
		th = mix(th + words[nwords]);
		nwords++;
	}
	sw_fold_release(&f);
	*out = words;
	*text_hash = th;
	return nwords;
}

/* Every k-gram hash of n words, in order (caller frees; NULL when n < K). */
static uint64_t *word_grams(const uint64_t *words, size_t n)
{
	if (n < SW_PROVENANCE_K)
		return NULL;
	size_t ngrams = n - SW_PROVENANCE_K + 1;
	uint64_t *grams = sw_xmalloc(ngrams * sizeof(*grams));
	for (size_t i = 0; i < ngrams; i++) {
		uint64_t g = 0;
		for (size_t j = 0; j < SW_PROVENANCE_K; j++)
			g = mix(g * 0x9e3779b97f4a7c15ULL + words[i + j]);
		grams[i] = g;
	}
	return grams;
}

/* Winnowing: the smallest hash of each window, the rightmost on a tie,
 * recorded once however many windows pick it.  A text shorter than a
 * window still gives its one smallest hash.  Sorted, unique. */
static void winnow(struct sw_fp *out, const uint64_t *grams, size_t ngrams)
{
	size_t w = ngrams < SW_PROVENANCE_WINDOW ? ngrams : SW_PROVENANCE_WINDOW;
	size_t cap = ngrams - w + 1, last = SIZE_MAX;
	out->hashes = sw_xmalloc(cap * sizeof(*out->hashes));
	for (size_t i = 0; i + w <= ngrams; i++) {
		size_t best = i;
		for (size_t j = i + 1; j < i + w; j++)
			if (grams[j] <= grams[best])
				best = j;
		if (best != last) {
			out->hashes[out->n++] = grams[best];
			last = best;
		}
	}
	qsort(out->hashes, out->n, sizeof(*out->hashes), cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < out->n; i++)
		if (u == 0 || out->hashes[u - 1] != out->hashes[i])
			out->hashes[u++] = out->hashes[i];
	out->n = u;
}

void sw__record_fp_compute(struct sw_fp *out, const char *text, size_t len)
{
	uint64_t *words = NULL;
	memset(out, 0, sizeof(*out));
	out->words = text_words(&words, &out->text_hash, text, len);
	uint64_t *grams = word_grams(words, out->words);
	if (grams)
		winnow(out, grams, out->words - SW_PROVENANCE_K + 1);
	free(words);
	free(grams);
}

static bool in_sorted(const uint64_t *h, size_t n, uint64_t x)
{
	return n > 0 && bsearch(&x, h, n, sizeof(*h), cmp_u64) != NULL;
}

/* Whether the n words occur, in order and together, among the m words. */
static bool words_inside(const uint64_t *w, size_t n, const uint64_t *in, size_t m)
{
	for (size_t i = 0; n > 0 && i + n <= m; i++)
		if (memcmp(in + i, w, n * sizeof(*w)) == 0)
			return true;
	return false;
}

void sw__record_fp_compute_given(struct sw_fp *out, const char *text, size_t len,
				 const char *given, size_t given_len)
{
	uint64_t *words = NULL, *gwords = NULL, gth;
	sw__record_fp_compute(out, text, len);
	if (!given || given_len == 0 || out->words == 0)
		return;
	size_t ng = text_words(&gwords, &gth, given, given_len);
	uint64_t *seen = word_grams(gwords, ng);
	size_t nseen = ng >= SW_PROVENANCE_K ? ng - SW_PROVENANCE_K + 1 : 0;
	bool copied_whole;
	if (out->words < SW_PROVENANCE_K) {
		/* Too short for k-grams: copied when its words stand in given. */
		uint64_t th;
		size_t nw = text_words(&words, &th, text, len);
		copied_whole = words_inside(words, nw, gwords, ng);
	} else {
		/* Prints are k-gram hashes: the selection stays the one a later
		 * copy of the output makes, less the k-grams given holds. */
		qsort(seen, nseen, sizeof(*seen), cmp_u64);
		size_t u = 0;
		for (size_t i = 0; i < out->n; i++)
			if (!in_sorted(seen, nseen, out->hashes[i]))
				out->hashes[u++] = out->hashes[i];
		copied_whole = u == 0;
		out->n = u;
	}
	if (copied_whole) {
		/* All of it came from the evidence: nothing of it is the
		 * model's, not even the whole-text match. */
		free(out->hashes);
		memset(out, 0, sizeof(*out));
	}
	free(words);
	free(gwords);
	free(seen);
}

void sw__record_fp_release(struct sw_fp *fp)
{
	if (!fp)
		return;
	free(fp->hashes);
	memset(fp, 0, sizeof(*fp));
}

size_t sw__record_fp_shared(const struct sw_fp *a, const struct sw_fp *b)
{
	size_t i = 0, j = 0, n = 0;
	while (i < a->n && j < b->n) {
		if (a->hashes[i] < b->hashes[j]) {
			i++;
		} else if (a->hashes[i] > b->hashes[j]) {
			j++;
		} else {
			n++;
			i++;
			j++;
		}
	}
	return n;
}

void sw__record_fp_score(struct sw_fp_score *out, size_t shared, const struct sw_fp *doc,
		  size_t output_prints, uint64_t output_text_hash)
{
	memset(out, 0, sizeof(*out));
	out->shared = shared;
	if (doc->words > 0 && doc->text_hash == output_text_hash) {
		/* The same words in the same order: too short for k-grams, or
		 * the very text. */
		out->overlap = out->contained = 1.0;
		out->match = true;
		return;
	}
	if (doc->n)
		out->overlap = (double)shared / (double)doc->n;
	if (output_prints)
		out->contained = (double)shared / (double)output_prints;
	if (out->overlap > 1.0)
		out->overlap = 1.0;
	if (out->contained > 1.0)
		out->contained = 1.0;
	out->match = (shared > 0 && out->overlap >= SW_PROVENANCE_THRESHOLD) ||
		     (shared >= SW_PROVENANCE_MIN_SHARED &&
		      out->contained >= SW_PROVENANCE_CONTAINED);
}

/* The same prints, text given piece by piece (a page at a time): a word
 * ends at the end of each piece, as at the '\n' the firewall puts after
 * each page.  Only the last K word hashes and the last WINDOW k-grams are
 * kept besides the prints. */
void sw__record_fp_stream_init(struct sw_fp_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->text_hash = 0x9e3779b97f4a7c15ULL;
	s->last = SIZE_MAX;
}

/* Sort the held prints, drop repeats, in place; returns how many remain. */
static size_t sort_unique(uint64_t *h, size_t n)
{
	size_t u = 0;
	qsort(h, n, sizeof(*h), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (u == 0 || h[u - 1] != h[i])
			h[u++] = h[i];
	return u;
}

/* The held prints, sorted, appended to the runs file as one more run.  A
 * file that cannot be made or written stops the spilling: the prints are
 * then held, as without spill. */
static void spill_run(struct sw_fp_stream *s)
{
	if (!s->runs && !(s->runs = tmpfile())) {
		s->spill = false;
		return;
	}
	size_t u = s->n = sort_unique(s->hashes, s->n);
	if (fwrite(s->hashes, sizeof(*s->hashes), u, s->runs) != u) {
		s->spill = false;
		return; /* the prints are kept in memory; the runs so far stay */
	}
	s->run_len = sw_xgrow(s->run_len, &s->capruns, s->nruns + 1, sizeof(*s->run_len));
	s->run_len[s->nruns++] = u;
	s->n = 0;
}

static void stream_word(struct sw_fp_stream *s, uint64_t wh)
{
	s->text_hash = mix(s->text_hash + wh);
	s->words[s->nwords % SW_PROVENANCE_K] = wh;
	s->nwords++;
	if (s->nwords < SW_PROVENANCE_K)
		return;
	uint64_t g = 0;
	for (size_t j = 0; j < SW_PROVENANCE_K; j++)
		g = mix(g * 0x9e3779b97f4a7c15ULL +
			s->words[(s->nwords - SW_PROVENANCE_K + j) % SW_PROVENANCE_K]);
	size_t gi = s->ngrams++;
	s->grams[gi % SW_PROVENANCE_WINDOW] = g;
	if (s->ngrams < SW_PROVENANCE_WINDOW)
		return;
	size_t first = gi + 1 - SW_PROVENANCE_WINDOW, best = first;
	for (size_t j = first + 1; j <= gi; j++)
		if (s->grams[j % SW_PROVENANCE_WINDOW] <= s->grams[best % SW_PROVENANCE_WINDOW])
			best = j;
	if (best != s->last) {
		if (s->spill && s->n == SW_FP_SPILL_PRINTS)
			spill_run(s);
		s->hashes = sw_xgrow(s->hashes, &s->cap, s->n + 1, sizeof(*s->hashes));
		s->hashes[s->n++] = s->grams[best % SW_PROVENANCE_WINDOW];
		s->last = best;
	}
}

void sw__record_fp_stream_add(struct sw_fp_stream *s, const char *text, size_t len)
{
	struct sw_fold f;
	sw_fold(&f, text, len, SW_FOLD_CASE | SW_FOLD_MARKS | SW_FOLD_SPACE);
	const unsigned char *t = (const unsigned char *)f.text;
	for (size_t i = 0; i < f.len;) {
		if (!word_byte(t[i])) {
			i++;
			continue;
		}
		size_t st = i;
		while (i < f.len && word_byte(t[i]))
			i++;
		stream_word(s, word_hash(t + st, i - st));
	}
	sw_fold_release(&f);
}

void sw__record_fp_stream_finish(struct sw_fp_stream *s, struct sw_fp *out)
{
	memset(out, 0, sizeof(*out));
	out->words = s->nwords;
	out->text_hash = s->text_hash;
	if (s->ngrams > 0 && s->ngrams < SW_PROVENANCE_WINDOW) {
		/* A text shorter than a window: its one smallest hash. */
		size_t best = 0;
		for (size_t j = 1; j < s->ngrams; j++)
			if (s->grams[j] <= s->grams[best])
				best = j;
		s->hashes = sw_xgrow(s->hashes, &s->cap, 1, sizeof(*s->hashes));
		s->hashes[s->n++] = s->grams[best];
	}
	if (s->n) {
		qsort(s->hashes, s->n, sizeof(*s->hashes), cmp_u64);
		size_t u = 0;
		for (size_t i = 0; i < s->n; i++)
			if (u == 0 || s->hashes[u - 1] != s->hashes[i])
				s->hashes[u++] = s->hashes[i];
		out->hashes = s->hashes;
		out->n = u;
	} else {
		free(s->hashes);
	}
	s->hashes = NULL;
	s->n = s->cap = 0;
}

void sw__record_fp_stream_release(struct sw_fp_stream *s)
{
	free(s->hashes);
	free(s->run_len);
	if (s->runs)
		fclose(s->runs);
	memset(s, 0, sizeof(*s));
}

/* One spilled run being merged: a window of it read from the file. */
struct run_reader {
	uint64_t buf[512];
	size_t pos, have;  /* in buf */
	size_t left;       /* not yet read from the file */
	long off;          /* where the rest starts */
};

static int run_next(struct run_reader *r, FILE *f, uint64_t *out)
{
	if (r->pos == r->have) {
		if (r->left == 0)
			return 0;
		size_t want = r->left < 512 ? r->left : 512;
		if (fseek(f, r->off, SEEK_SET) != 0 || fread(r->buf, sizeof(*r->buf), want, f) != want)
			return -1;
		r->off += (long)(want * sizeof(*r->buf));
		r->left -= want;
		r->pos = 0;
		r->have = want;
	}
	*out = r->buf[r->pos++];
	return 1;
}

int sw__record_fp_stream_each(struct sw_fp_stream *s, void (*fn)(void *ctx, uint64_t hash),
			      void *ctx, struct sw_fp *info, struct sw_err *err)
{
	struct run_reader *rd = NULL;
	uint64_t *head = NULL;
	int rc = 0;

	if (s->nruns == 0) {
		/* Never spilled: finish's prints, read out and released. */
		sw__record_fp_stream_finish(s, info);
		for (size_t i = 0; i < info->n; i++)
			fn(ctx, info->hashes[i]);
		free(info->hashes);
		info->hashes = NULL;
		sw__record_fp_stream_release(s);
		return 0;
	}
	/* What is held is merged as one more run, from memory. */
	size_t held = sort_unique(s->hashes, s->n);
	memset(info, 0, sizeof(*info));
	info->words = s->nwords;
	info->text_hash = s->text_hash;
	rd = sw_xcalloc(s->nruns, sizeof(*rd));
	head = sw_xcalloc(s->nruns + 1, sizeof(*head));
	bool *live = sw_xcalloc(s->nruns + 1, sizeof(*live));
	long off = 0;
	for (size_t r = 0; r < s->nruns; r++) {
		rd[r].left = s->run_len[r];
		rd[r].off = off;
		off += (long)(s->run_len[r] * sizeof(uint64_t));
	}
	if (fflush(s->runs) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot read the document's fingerprints back");
	size_t hpos = 0;
	for (size_t r = 0; r <= s->nruns && rc == 0; r++) {
		int got = r < s->nruns ? run_next(&rd[r], s->runs, &head[r])
				       : (hpos < held ? (head[r] = s->hashes[hpos++], 1) : 0);
		if (got < 0)
			rc = sw_err_set(err, SW_EIO, "cannot read the document's fingerprints back");
		live[r] = got > 0;
	}
	bool have_last = false;
	uint64_t last = 0;
	while (rc == 0) {
		size_t best = SIZE_MAX;
		for (size_t r = 0; r <= s->nruns; r++)
			if (live[r] && (best == SIZE_MAX || head[r] < head[best]))
				best = r;
		if (best == SIZE_MAX)
			break;
		uint64_t h = head[best];
		if (!have_last || h != last) {
			fn(ctx, h);
			info->n++;
			last = h;
			have_last = true;
		}
		int got = best < s->nruns ? run_next(&rd[best], s->runs, &head[best])
					  : (hpos < held ? (head[best] = s->hashes[hpos++], 1) : 0);
		if (got < 0)
			rc = sw_err_set(err, SW_EIO, "cannot read the document's fingerprints back");
		live[best] = got > 0;
	}
	free(live);
	free(head);
	free(rd);
	sw__record_fp_stream_release(s);
	return rc;
}
