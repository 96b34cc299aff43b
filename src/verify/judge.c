/* judge.c - the judge's pass over the propositions (verify.h, "the judge"):
 * which sentences are put to it, with which pages, run on up to
 * j->parallel threads, and what its answers are worth.
 *
 * The pass reads the matter only on the calling thread: it gathers every
 * sentence and the texts of its cited pages first, then the threads call
 * ask() over that gathered work, then the calling thread weighs the answers
 * in claim order, so the verdicts do not depend on which answer came
 * first. */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/verify_int.h"

#define MAX_FACT 48       /* bytes of a number kept by value */
#define MAX_SHOWN 240     /* bytes of a judge's words in a reason */
#define MAX_THREADS 64

const char *sw_judge_mode_name(enum sw_judge_mode m)
{
	switch (m) {
	case SW_JUDGE_OFF: return "off";
	case SW_JUDGE_WARN: return "warn";
	case SW_JUDGE_BLOCK: return "block";
	}
	return "unknown";
}

const char *sw_judge_outcome_name(enum sw_judge_outcome o)
{
	switch (o) {
	case SW_JUDGE_AGREED: return "agreed";
	case SW_JUDGE_DISAGREED: return "disagreed";
	case SW_JUDGE_BAD_SPAN: return "bad span";
	case SW_JUDGE_FAILED: return "failed";
	}
	return "unknown";
}

void sw_judge_answer_release(struct sw_judge_answer *a)
{
	if (!a)
		return;
	free(a->span);
	free(a->reason);
	free(a->raw);
	free(a->model);
	free(a->endpoint);
	memset(a, 0, sizeof(*a));
}

void sw__verify_judged_release(struct sw_verify_report *r)
{
	for (size_t k = 0; k < r->njudged; k++) {
		free(r->judged[k].why);
		free(r->judged[k].pages);
		sw_judge_answer_release(&r->judged[k].answer);
	}
	free(r->judged);
	r->judged = NULL;
	r->njudged = 0;
}

/* ------------------------------------------------------------------ facts */

#define MAX_NUMS 64

/* The numbers of s[0..len) by value: runs of digits with ',' or '.' between
 * digits, separators dropped, leading zeros and a fraction's trailing zeros
 * cut ("12,000" is "12000", "0147" is "147", "52,850.00" is "52850"). */
static size_t numbers_of(char out[][MAX_FACT], size_t max, const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n < max;) {
		if (!isdigit((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t b = i, w = 0;
		char v[MAX_FACT];
		bool frac = false;
		while (i < len && (isdigit((unsigned char)s[i]) ||
				   ((s[i] == ',' || s[i] == '.') && i > b && i + 1 < len &&
				    isdigit((unsigned char)s[i + 1])))) {
			frac = frac || s[i] == '.';
			if (s[i] != ',' && w + 1 < sizeof(v))
				v[w++] = s[i];
			i++;
		}
		v[w] = '\0';
		while (frac && w > 0 && (v[w - 1] == '0' || v[w - 1] == '.')) {
			bool dot = v[w - 1] == '.';
			v[--w] = '\0';
			if (dot)
				break;
		}
		size_t z = 0;
		while (z + 1 < w && v[z] == '0' && v[z + 1] != '.')
			z++;
		snprintf(out[n++], MAX_FACT, "%s", v + z);
	}
	return n;
}

/* Whether every number of s[0..len) is among have[0..nhave). */
static bool numbers_in(const char *s, size_t len, char have[][MAX_FACT], size_t nhave)
{
	char want[MAX_NUMS][MAX_FACT];
	size_t n = numbers_of(want, MAX_NUMS, s, len);
	for (size_t k = 0; k < n; k++) {
		bool in = false;
		for (size_t g = 0; g < nhave && !in; g++)
			in = strcmp(want[k], have[g]) == 0;
		if (!in)
			return false;
	}
	return true;
}

/* Words that start a sentence or a clause in capitals without naming
 * anyone. */
static bool common_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"a", "after", "also", "an", "and", "as", "at", "before", "but", "by", "during",
		"each", "for", "from", "he", "her", "his", "however", "i", "id", "if", "in", "it",
		"its", "no", "not", "of", "on", "or", "our", "she", "so", "that", "the", "their",
		"then", "there", "these", "they", "this", "those", "to", "under", "was", "we",
		"when", "where", "which", "while", "with",
	};
	for (size_t k = 0; k < SW_ARRAY_LEN(words); k++)
		if (strlen(words[k]) == n && strncasecmp(words[k], w, n) == 0)
			return true;
	return false;
}

/* Whether word w[0..n) is a word of s[0..len), ignoring case. */
static bool has_word(const char *s, size_t len, const char *w, size_t n)
{
	for (size_t i = 0; i + n <= len; i++) {
		if ((i > 0 && isalnum((unsigned char)s[i - 1])) || strncasecmp(s + i, w, n) != 0)
			continue;
		if (i + n == len || !isalnum((unsigned char)s[i + n]))
			return true;
	}
	return false;
}

/* At most MAX_SHOWN bytes of s on one line, cut on a character boundary,
 * with "..." when cut.  Caller frees. */
static char *clip(const char *s)
{
	struct sw_buf b = SW_BUF_INIT;
	bool space = false;
	for (const char *p = s ? s : ""; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (b.len >= MAX_SHOWN && (c & 0xC0) != 0x80) {
			sw_buf_adds(&b, "...");
			break;
		}
		if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
			space = b.len > 0;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			continue;
		if (space)
			sw_buf_addc(&b, ' ');
		space = false;
		sw_buf_addc(&b, (char)c);
	}
	return sw_buf_detach(&b, NULL);
}

/* Whether fact f (of text) is in span: a money amount, quantity or
 * percentage of the same value, an identifier with the same parts, or (a
 * date, or as a last resort) every number it is written with. */
static bool fact_in(const struct sw_claim_fact *f, const char *text, const char *span,
		    size_t slen, char nums[][MAX_FACT], size_t nnums)
{
	if (f->kind != SW_FACT_DATE) {
		struct sw_fact_token t;
		for (size_t pos = 0; sw_claims_next_fact(&t, span, slen, &pos);) {
			if (f->kind == SW_FACT_IDENTIFIER) {
				if (t.kind == SW_FACT_IDENTIFIER && f->id && strcmp(f->id, t.id) == 0)
					return true;
			} else if (t.kind != SW_FACT_IDENTIFIER && t.kind != SW_FACT_DATE &&
				   t.value == f->value) {
				return true;
			}
		}
	}
	char digits[MAX_NUMS][MAX_FACT];
	if (numbers_of(digits, MAX_NUMS, text + f->start, f->end - f->start) == 0)
		return f->kind == SW_FACT_DATE; /* "in March": nothing to compare */
	return numbers_in(text + f->start, f->end - f->start, nums, nnums);
}

enum sw_judge_outcome sw__verify_judge_check(const char *text, const struct sw_claim *prop,
					     const char *names, size_t at, size_t nlen,
					     const char *const *pages, size_t npages,
					     const struct sw_judge_answer *a, size_t *page,
					     size_t *start, size_t *end, char **why)
{
	*why = NULL;
	if (!a->supported)
		return SW_JUDGE_DISAGREED;
	const char *span = a->span ? a->span : "";
	size_t slen = strlen(span);
	bool words = false;
	for (size_t k = 0; k < slen && !words; k++)
		words = isalnum((unsigned char)span[k]);
	if (!words) {
		*why = sw_xstrdup("it says supported but quotes no words of the page");
		return SW_JUDGE_BAD_SPAN;
	}
	bool found = false;
	for (size_t p = 0; p < npages && !found; p++)
		if (pages[p] && sw__verify_quote_find(span, slen, pages[p], strlen(pages[p]), NULL, 0,
						      start, end)) {
			*page = p;
			found = true;
		}
	if (!found) {
		char *s = clip(span);
		*why = sw_xasprintf("its span \"%s\" is not on the cited page%s", s,
				    npages == 1 ? "" : "s");
		free(s);
		return SW_JUDGE_BAD_SPAN;
	}
	char (*nums)[MAX_FACT] = sw_xmalloc(MAX_NUMS * sizeof(*nums));
	size_t nnums = numbers_of(nums, MAX_NUMS, span, slen);
	struct sw_buf miss = SW_BUF_INIT;
	for (size_t k = 0; k < prop->nfacts; k++) {
		const struct sw_claim_fact *f = &prop->facts[k];
		if (f->kind == SW_FACT_DATE)
			continue; /* a date claim of its own, checked on the same pages */
		if (f->start >= at && f->start < at + nlen && names[f->start - at] == ' ' &&
		    text[f->start] != ' ')
			continue; /* part of a citation: the span need not repeat it */
		if (!fact_in(f, text, span, slen, nums, nnums))
			sw_buf_addf(&miss, "%s%s %.*s", miss.len ? ", " : "",
				    sw_fact_kind_name(f->kind), (int)(f->end - f->start),
				    text + f->start);
	}
	/* Names: capitalised words outside citations and quotations; the span
	 * must name at least one of them. */
	size_t nnames = 0;
	bool named = false;
	struct sw_buf list = SW_BUF_INIT;
	for (size_t i = 0; i < nlen;) {
		if (!isalpha((unsigned char)names[i])) {
			i++;
			continue;
		}
		size_t b = i;
		bool digit = false;
		while (i < nlen && (isalnum((unsigned char)names[i]) || names[i] == '\'')) {
			digit = digit || isdigit((unsigned char)names[i]);
			i++;
		}
		size_t n = i - b;
		if (n > 2 && names[i - 2] == '\'' && (names[i - 1] == 's' || names[i - 1] == 'S'))
			n -= 2; /* Acme's */
		if (digit || n < 2 || !isupper((unsigned char)names[b]) || common_word(names + b, n))
			continue;
		nnames++;
		named = named || has_word(span, slen, names + b, n);
		if (nnames <= 4)
			sw_buf_addf(&list, "%s%.*s", list.len ? ", " : "", (int)n, names + b);
	}
	if (nnames > 0 && !named)
		sw_buf_addf(&miss, "%sname%s %s", miss.len ? ", " : "", nnames > 1 ? "s" : "",
			    list.data);
	enum sw_judge_outcome o = SW_JUDGE_AGREED;
	if (miss.len) {
		char *s = clip(span);
		*why = sw_xasprintf("its span \"%s\" does not have the sentence's %s", s, miss.data);
		free(s);
		o = SW_JUDGE_BAD_SPAN;
	}
	sw_buf_release(&miss);
	sw_buf_release(&list);
	free(nums);
	return o;
}

/* ------------------------------------------------------------------- work */

struct job {
	size_t claim;
	char *sentence;          /* as written */
	char *names;             /* the sentence, its citations and quotations blanked */
	size_t at;               /* where the sentence starts in the draft's text */
	int64_t ids[SW_VERIFY_MAX_PAGES];
	char *pages[SW_VERIFY_MAX_PAGES];
	size_t npages;
	int rc;
	struct sw_err err;
	struct sw_judge_answer answer;
	double wall_s;
	size_t tokens;           /* sentence and pages, as put to the judge */
	bool estimated, cut;
};

struct pool {
	struct job *jobs;
	size_t n;
	atomic_size_t next;
	const struct sw_verify_judge *j;
};

static void ask_one(const struct sw_verify_judge *j, struct job *b)
{
	double t0 = sw_now();
	memset(&b->answer, 0, sizeof(b->answer));
	b->rc = j->ask(j->ud, b->sentence, (const char *const *)b->pages, b->npages, &b->answer,
		       &b->err);
	if (b->rc != 0 && !b->err.code)
		sw_err_set(&b->err, b->rc, "the judge gave no reason");
	b->wall_s = sw_now() - t0;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		size_t k = atomic_fetch_add(&p->next, 1);
		if (k >= p->n)
			break;
		ask_one(p->j, &p->jobs[k]);
	}
	return NULL;
}

static void run_jobs(struct job *jobs, size_t n, const struct sw_verify_judge *j)
{
	struct pool p = { .jobs = jobs, .n = n, .j = j };
	atomic_init(&p.next, 0);
	size_t nt = j->parallel > 1 ? j->parallel : 1;
	if (nt > n)
		nt = n;
	if (nt > MAX_THREADS)
		nt = MAX_THREADS;
	pthread_t th[MAX_THREADS];
	size_t started = 0;
	for (size_t t = 1; t < nt; t++) {
		if (pthread_create(&th[started], NULL, worker, &p) != 0)
			break; /* fewer threads: the work still gets done */
		started++;
	}
	worker(&p);
	for (size_t t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

static void add_pages(struct job *b, const struct sw__verify_resolved *res)
{
	for (size_t p = 0; p < res->npages && b->npages < SW_VERIFY_MAX_PAGES; p++) {
		bool dup = false;
		for (size_t d = 0; d < b->npages && !dup; d++)
			dup = b->ids[d] == res->pages[p];
		if (!dup)
			b->ids[b->npages++] = res->pages[p];
	}
}

static bool cites_record(enum sw_claim_kind k)
{
	return k == SW_CLAIM_BATES || k == SW_CLAIM_RECORD;
}

/* Gather proposition i's sentence, names and cited pages into b (zeroed
 * first); false when it cites no page (nothing to put to the judge) or the
 * record failed.  The other claims come before the propositions, in
 * document order (claims.h): the sentence's are found by bisection, and
 * with them the citation sentence right after it that its first citation
 * (resolves_to) may be in. */
static bool gather(struct sw__verify_run *u, size_t i, size_t nother, struct job *b)
{
	const struct sw_claims *cl = &u->r->claims;
	const struct sw_claim *c = &cl->v[i];
	size_t s = c->start, e = c->end;
	memset(b, 0, sizeof(*b));
	if (e > u->r->len || s >= e)
		return false;
	b->claim = i;
	b->at = s;
	b->sentence = sw_xstrndup(u->r->text + s, e - s);
	b->names = sw_xstrndup(u->r->text + s, e - s);
	size_t lo = 0, hi = nother;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cl->v[mid].end <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < nother && cl->v[k].start < e; k++) {
		const struct sw_claim *q = &cl->v[k];
		if (q->kind != SW_CLAIM_DATE) /* citations and quotations: no names */
			for (size_t x = q->start; x < q->end; x++)
				if (x >= s && x < e)
					b->names[x - s] = ' ';
		if (cites_record(q->kind) && q->start >= s)
			add_pages(b, &u->res[k]);
	}
	long r = c->resolves_to;
	if (r >= 0 && (size_t)r < nother && cl->v[r].start >= e)
		for (size_t k = (size_t)r; k < nother && k < (size_t)r + 64 &&
					   cl->v[k].sentence == cl->v[r].sentence;
		     k++)
			if (cites_record(cl->v[k].kind))
				add_pages(b, &u->res[k]);
	for (size_t p = 0; p < b->npages; p++) {
		struct sw_err e2 = { 0 };
		int rc = sw_record_page_text(&u->page, u->m, b->ids[p], &e2);
		if (!sw__verify_found(u, rc, &e2) && u->err.code)
			return false;
		b->pages[p] = sw_xstrndup(u->page.data, rc == 0 ? u->page.len : 0);
	}
	return b->npages > 0;
}

/* ------------------------------------------------------------ the window */

static size_t tokens_of(const struct sw_verify_judge *j, const char *s, size_t len, bool *est)
{
	size_t n = 0;
	bool e = false;
	if (j && j->count && j->count(j->ud, s, len, &n, &e) == 0) {
		*est |= e;
		return n;
	}
	*est = true;
	return (len + 3) / 4;
}

/* Whether page token t is one of proposition c's facts (by value or parts). */
static bool is_fact(const struct sw_claim *c, const struct sw_fact_token *t)
{
	for (size_t k = 0; k < c->nfacts; k++) {
		const struct sw_claim_fact *f = &c->facts[k];
		if (f->kind == SW_FACT_IDENTIFIER ? t->kind == SW_FACT_IDENTIFIER && f->id &&
							    strcmp(f->id, t->id) == 0
						  : f->kind != SW_FACT_DATE && t->kind != SW_FACT_DATE &&
							    t->kind != SW_FACT_IDENTIFIER &&
							    t->value == f->value)
			return true;
	}
	return false;
}

/* Where in page p[0, len) a window of keep bytes holds the most of the
 * sentence's facts and names (its capitalised words of names[0, nlen)):
 * its start. */
static size_t window_at(const struct sw_claim *c, const char *names, size_t nlen, const char *p,
			size_t len, size_t keep)
{
	size_t *at = NULL, n = 0, cap = 0;
	struct sw_fact_token t;
	for (size_t pos = 0; sw_claims_next_fact(&t, p, len, &pos);)
		if (is_fact(c, &t)) {
			at = sw_xgrow(at, &cap, n + 1, sizeof(*at));
			at[n++] = t.start;
		}
	for (size_t i = 0; i < nlen;) {
		if (!isupper((unsigned char)names[i]) || (i > 0 && isalnum((unsigned char)names[i - 1]))) {
			i++;
			continue;
		}
		size_t b = i;
		while (i < nlen && isalpha((unsigned char)names[i]))
			i++;
		if (i - b < 3 || common_word(names + b, i - b))
			continue;
		for (size_t k = 0; k + (i - b) <= len && n < 4096; k++)
			if (strncasecmp(p + k, names + b, i - b) == 0) {
				at = sw_xgrow(at, &cap, n + 1, sizeof(*at));
				at[n++] = k;
			}
	}
	size_t best = 0, most = 0;
	for (size_t a = 0; a < n; a++) {
		size_t s = at[a] > keep / 4 ? at[a] - keep / 4 : 0, hits = 0;
		for (size_t b = 0; b < n; b++)
			hits += at[b] >= s && at[b] < s + keep;
		if (hits > most) {
			most = hits;
			best = s;
		}
	}
	free(at);
	if (best + keep > len)
		best = len > keep ? len - keep : 0;
	while (best > 0 && !isspace((unsigned char)p[best - 1]))
		best--; /* a whole word first */
	return best;
}

/* Cut b's pages to fit the judge's window: each page over its share of
 * what is left after the fixed prompt, the answer and the sentence, to
 * the passage of that many tokens holding most of the sentence's facts. */
static void fit(const struct sw_verify_judge *j, const struct sw_claim *c, struct job *b)
{
	size_t ptok[SW_VERIFY_MAX_PAGES], total = 0, bytes = strlen(b->sentence);
	bool est = false;
	for (size_t p = 0; p < b->npages; p++)
		bytes += strlen(b->pages[p]);
	/* the server counts only a prompt that may come near the window: the
	 * others are estimates, and marked so */
	const struct sw_verify_judge *by = j->context && (j->reserve + bytes / 4) * 2 > j->context
						   ? j : NULL;
	size_t stok = tokens_of(by, b->sentence, strlen(b->sentence), &est);
	for (size_t p = 0; p < b->npages; p++)
		total += ptok[p] = tokens_of(by, b->pages[p], strlen(b->pages[p]), &est);
	b->tokens = stok + total;
	b->estimated = est;
	if (!j->context || j->reserve + b->tokens <= j->context)
		return;
	size_t room = j->context > j->reserve + stok + 64 ? j->context - j->reserve - stok : 64;
	/* pages under an even share keep theirs; the rest share what is left */
	size_t big = 0, left = room;
	for (size_t p = 0; p < b->npages; p++)
		if (ptok[p] * b->npages > room)
			big++;
		else
			left -= ptok[p] < left ? ptok[p] : left;
	size_t share = big ? left / big : room;
	b->tokens = stok;
	for (size_t p = 0; p < b->npages; p++) {
		size_t len = strlen(b->pages[p]);
		if (ptok[p] <= share || !ptok[p]) {
			b->tokens += ptok[p];
			continue;
		}
		/* bytes per token as this page counted */
		size_t keep = (size_t)((double)len * (double)share / (double)ptok[p]);
		size_t at = window_at(c, b->names, strlen(b->names), b->pages[p], len, keep);
		size_t e = at + keep < len ? at + keep : len;
		while (e < len && e > at && !isspace((unsigned char)b->pages[p][e]))
			e--; /* and a whole word last */
		char *cut = sw_xstrndup(b->pages[p] + at, e - at);
		free(b->pages[p]);
		b->pages[p] = cut;
		b->tokens += tokens_of(by, cut, strlen(cut), &b->estimated);
		b->cut = true;
	}
}

static void job_release(struct job *b)
{
	free(b->sentence);
	free(b->names);
	for (size_t p = 0; p < b->npages; p++)
		free(b->pages[p]);
	sw_judge_answer_release(&b->answer);
}

/* Weigh job b's answer: claim b->claim's verdict and reason, and the
 * report's record of it (which takes the answer). */
static void weigh(struct sw__verify_run *u, const struct sw_verify_judge *j, struct job *b,
		  struct sw_verify_judged *out)
{
	size_t i = b->claim;
	char *own = sw_xstrdup(u->r->verdicts[i].reason);
	enum sw_verdict v = u->r->verdicts[i].verdict;
	bool block = j->mode == SW_JUDGE_BLOCK;
	size_t page = 0, start = 0, end = 0;
	memset(out, 0, sizeof(*out));
	out->claim = i;
	out->wall_s = b->wall_s;
	out->tokens = b->tokens;
	out->estimated = b->estimated;
	out->cut = b->cut;
	struct sw_buf seen = SW_BUF_INIT;
	for (size_t p = 0; p < b->npages; p++) {
		if (p)
			sw_buf_addc(&seen, '\f');
		sw_buf_adds(&seen, b->pages[p]);
	}
	out->pages = sw_buf_detach(&seen, NULL);
	if (b->rc != 0) {
		out->outcome = SW_JUDGE_FAILED;
		out->why = clip(b->err.msg);
		sw__verify_set(u, i, v, "%s; the judge failed (%s), so its word is not in this "
			       "verdict", own, out->why);
	} else {
		out->outcome = sw__verify_judge_check(u->r->text, &u->r->claims.v[i], b->names,
						      b->at, strlen(b->names),
						      (const char *const *)b->pages, b->npages,
						      &b->answer, &page, &start, &end, &out->why);
		char *said = clip(b->answer.reason);
		if (out->outcome == SW_JUDGE_AGREED) {
			char *span = clip(b->answer.span);
			sw__verify_set(u, i, v, "%s; the judge agrees, quoting \"%s\"", own, span);
			struct sw_record_page rp = { 0 };
			struct sw_err e2 = { 0 };
			int rc = sw_record_page_by_id(&rp, u->m, b->ids[page], &e2);
			if (sw__verify_found(u, rc, &e2)) {
				const char *t = b->pages[page];
				char *ex = sw__verify_excerpt(t, strlen(t), start, end);
				sw__verify_add_page_evidence(u, i, &rp, ex);
				free(ex);
			}
			sw_record_page_release(&rp);
			free(span);
		} else if (out->outcome == SW_JUDGE_DISAGREED && block) {
			sw__verify_set(u, i, SW_VERDICT_UNSUPPORTED,
				       "the judge finds the cited %s not say it: %s (its facts "
				       "passed: %s)", b->npages == 1 ? "page does" : "pages do", said,
				       own);
		} else if (out->outcome == SW_JUDGE_DISAGREED) {
			sw__verify_set(u, i, v, "%s; the judge doubts it (judge = warn, not blocking): %s",
				       own, said);
		} else if (block) {
			sw__verify_set(u, i, SW_VERDICT_UNVERIFIABLE,
				       "judge error: %s, so its \"supported\" is not taken (its facts "
				       "passed: %s)", out->why, own);
		} else {
			sw__verify_set(u, i, v, "%s; judge error (judge = warn, not blocking): %s",
				       own, out->why);
		}
		free(said);
	}
	if (b->cut) {
		/* what the judge saw is in the verdict */
		char *said = sw_xstrdup(u->r->verdicts[i].reason);
		sw__verify_set(u, i, u->r->verdicts[i].verdict,
			       "%s (the judge saw the cited %s cut to fit its context: %zu tokens%s, "
			       "around the sentence's facts)", said, b->npages == 1 ? "page" : "pages",
			       b->tokens, b->estimated ? " by estimate" : "");
		free(said);
	}
	out->answer = b->answer;
	memset(&b->answer, 0, sizeof(b->answer));
	free(own);
}

void sw__verify_judge_pass(struct sw__verify_run *u, const struct sw_verify_judge *j)
{
	if (!j || !j->ask || j->mode == SW_JUDGE_OFF)
		return;
	struct sw_verify_report *r = u->r;
	const struct sw_claims *cl = &r->claims;
	struct job *jobs = NULL;
	size_t n = 0, cap = 0;
	r->judge_mode = j->mode;
	size_t nother = 0;
	while (nother < cl->n && cl->v[nother].kind != SW_CLAIM_PROPOSITION)
		nother++;
	for (size_t i = nother; i < cl->n && !u->err.code; i++) {
		const struct sw_claim_verdict *cv = &r->verdicts[i];
		if (cl->v[i].kind != SW_CLAIM_PROPOSITION || !cv->reason ||
		    cv->verdict != SW_VERDICT_SUPPORTED)
			continue;
		jobs = sw_xgrow(jobs, &cap, n + 1, sizeof(*jobs));
		if (gather(u, i, nother, &jobs[n])) {
			fit(j, &cl->v[i], &jobs[n]);
			n++;
		} else {
			job_release(&jobs[n]);
		}
	}
	if (!u->err.code && n > 0) {
		run_jobs(jobs, n, j);
		r->judged = sw_xcalloc(n, sizeof(*r->judged));
		for (size_t k = 0; k < n; k++)
			weigh(u, j, &jobs[k], &r->judged[r->njudged++]);
	}
	for (size_t k = 0; k < n; k++)
		job_release(&jobs[k]);
	free(jobs);
}
