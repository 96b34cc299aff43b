/* pdf_pages.c - the text layer of a PDF's pages, read ahead in parallel.
 *
 * A PopplerDocument is not thread-safe, but separate documents over the
 * same bytes are independent: each reading thread opens its own, takes the
 * next chunk of pages not yet taken, reads their text into a slot of a
 * small ring and goes on; the caller takes the chunks back in page order.
 * The text of a page does not depend on which document read it, so the
 * pages, their order and their text are those of one document read from
 * start to end.  At most RING_PER_THREAD chunks per thread are read ahead.
 *
 * Each document keeps every page it has walked to (poppler's page tree,
 * about 1.7 KB a page), so a second document costs that much again: the
 * threads are as many as the cores, and fewer when the extra documents
 * would pass TREE_BUDGET.  When that leaves one, none is started: one
 * reading thread (its tree no larger than the caller's document's) was
 * measured at 50,000 pages to cost 11% more CPU (malloc's locking once
 * there are threads) and no wall time (docs/PERFORMANCE.md).  Reopening
 * a document for each range of pages would not bound the tree either:
 * poppler-glib reaches page N of a fresh document only by walking (and
 * keeping) pages 0..N-1. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <poppler.h>

#include "extract/extract_int.h"

#define MAX_THREADS 4
#define RING_PER_THREAD 2
#define TREE_BYTES_PER_PAGE 2048 /* measured 1.7 KB, rounded up */
#define TREE_BUDGET ((size_t)48 << 20)

struct slot {
	char **text;  /* chunk entries, g_malloc'd */
	bool *cand;   /* blank text and images: a page for OCR */
	bool ready;
};

struct sw__pdf_reader {
	PopplerDocument *main; /* the caller's: read from when there are no threads */
	GBytes *bytes;
	int n, chunk, nchunks;
	int next_claim, next_take; /* chunks */
	bool stop;
	size_t nthreads, ring;
	PopplerDocument **docs;    /* one per thread */
	pthread_t *threads;
	struct slot *slots;
	pthread_mutex_t lock;
	pthread_cond_t ready_cv, space_cv;
};

static bool blank(const char *s)
{
	for (; s && *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r' && *s != '\f')
			return false;
	return true;
}

/* Pages [c0, c1) of doc into text[] and cand[] (indexed from c0). */
static void read_pages(PopplerDocument *doc, int c0, int c1, char **text, bool *cand)
{
	for (int i = c0; i < c1; i++) {
		text[i - c0] = NULL;
		cand[i - c0] = false;
		PopplerPage *page = poppler_document_get_page(doc, i);
		if (!page)
			continue;
		text[i - c0] = poppler_page_get_text(page);
		if (blank(text[i - c0])) {
			GList *images = poppler_page_get_image_mapping(page);
			cand[i - c0] = images != NULL;
			poppler_page_free_image_mapping(images);
		}
		g_object_unref(page);
	}
}

struct worker_arg {
	struct sw__pdf_reader *r;
	PopplerDocument *doc;
};

static void *worker(void *arg)
{
	struct worker_arg *a = arg;
	struct sw__pdf_reader *r = a->r;
	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->stop && r->next_claim < r->nchunks &&
		       (size_t)(r->next_claim - r->next_take) >= r->ring)
			pthread_cond_wait(&r->space_cv, &r->lock);
		if (r->stop || r->next_claim >= r->nchunks)
			break;
		int c = r->next_claim++;
		struct slot *s = &r->slots[(size_t)c % r->ring];
		pthread_mutex_unlock(&r->lock);
		int c0 = c * r->chunk, c1 = c0 + r->chunk < r->n ? c0 + r->chunk : r->n;
		read_pages(a->doc, c0, c1, s->text, s->cand);
		pthread_mutex_lock(&r->lock);
		s->ready = true;
		pthread_cond_broadcast(&r->ready_cv);
	}
	pthread_mutex_unlock(&r->lock);
	free(a);
	return NULL;
}

/* How many threads read: one per core (threads when not 0), at most
 * MAX_THREADS and no more documents than the page-tree budget allows
 * beyond the first; none when alone, for a document of two chunks or less,
 * or, unless threads asks for it, when that leaves one. */
static size_t thread_count(int n, int chunk, unsigned threads, bool alone)
{
	if (alone || n <= 2 * chunk)
		return 0;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = threads ? threads : (size_t)(cores > 0 ? cores : 1);
	if (t > MAX_THREADS)
		t = MAX_THREADS;
	size_t extra = TREE_BUDGET / ((size_t)n * TREE_BYTES_PER_PAGE);
	if (t > extra + 1)
		t = extra + 1;
	return !threads && t < 2 ? 0 : t;
}

struct sw__pdf_reader *sw__pdf_reader_new(PopplerDocument *doc, const char *data, size_t len,
					  int npages, int chunk, unsigned threads, bool alone)
{
	struct sw__pdf_reader *r = sw_xcalloc(1, sizeof(*r));
	r->main = doc;
	r->n = npages;
	r->chunk = chunk;
	r->nchunks = (npages + chunk - 1) / chunk;
	size_t want = thread_count(npages, chunk, threads, alone);
	if (want == 0)
		return r;
	/* The documents are opened here, one after another, before any
	 * thread runs: poppler's global state is set up by the first. */
	r->bytes = g_bytes_new_static(data, len);
	r->docs = sw_xcalloc(want, sizeof(*r->docs));
	for (size_t i = 0; i < want; i++) {
		r->docs[i] = poppler_document_new_from_bytes(r->bytes, NULL, NULL);
		if (!r->docs[i] || poppler_document_get_n_pages(r->docs[i]) != npages) {
			if (r->docs[i])
				g_object_unref(r->docs[i]);
			r->docs[i] = NULL;
			break;
		}
		r->nthreads++;
	}
	if (r->nthreads == 0)
		return r; /* no document of its own: the caller's reads alone */
	r->ring = r->nthreads * RING_PER_THREAD;
	r->slots = sw_xcalloc(r->ring, sizeof(*r->slots));
	for (size_t i = 0; i < r->ring; i++) {
		r->slots[i].text = sw_xcalloc((size_t)chunk, sizeof(char *));
		r->slots[i].cand = sw_xcalloc((size_t)chunk, sizeof(bool));
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->ready_cv, NULL);
	pthread_cond_init(&r->space_cv, NULL);
	r->threads = sw_xcalloc(r->nthreads, sizeof(*r->threads));
	size_t started = 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		struct worker_arg *a = sw_xmalloc(sizeof(*a));
		a->r = r;
		a->doc = r->docs[i];
		if (pthread_create(&r->threads[started], NULL, worker, a) != 0) {
			free(a);
			break;
		}
		started++;
	}
	/* Threads that did not start leave their documents unused; with
	 * none at all the caller's document reads, as without threads. */
	if (started == 0) {
		for (size_t i = 0; i < r->nthreads; i++)
			g_object_unref(r->docs[i]);
		free(r->docs);
		r->docs = NULL;
	}
	for (size_t i = started; i < r->nthreads && r->docs; i++) {
		g_object_unref(r->docs[i]);
		r->docs[i] = NULL;
	}
	r->nthreads = started;
	return r;
}

size_t sw__pdf_reader_threads(const struct sw__pdf_reader *r)
{
	return r->nthreads;
}

void sw__pdf_reader_next(struct sw__pdf_reader *r, char **text, bool *cand)
{
	int c = r->next_take;
	int c0 = c * r->chunk, c1 = c0 + r->chunk < r->n ? c0 + r->chunk : r->n;
	if (c >= r->nchunks)
		return;
	if (r->nthreads == 0) {
		read_pages(r->main, c0, c1, text, cand);
		r->next_take++;
		return;
	}
	struct slot *s = &r->slots[(size_t)c % r->ring];
	pthread_mutex_lock(&r->lock);
	while (!s->ready)
		pthread_cond_wait(&r->ready_cv, &r->lock);
	pthread_mutex_unlock(&r->lock);
	memcpy(text, s->text, (size_t)(c1 - c0) * sizeof(*text));
	memcpy(cand, s->cand, (size_t)(c1 - c0) * sizeof(*cand));
	memset(s->text, 0, (size_t)r->chunk * sizeof(*s->text));
	pthread_mutex_lock(&r->lock);
	s->ready = false;
	r->next_take++;
	pthread_cond_broadcast(&r->space_cv);
	pthread_mutex_unlock(&r->lock);
}

void sw__pdf_reader_free(struct sw__pdf_reader *r)
{
	if (!r)
		return;
	if (r->nthreads) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_cond_broadcast(&r->space_cv);
		pthread_mutex_unlock(&r->lock);
		for (size_t i = 0; i < r->nthreads; i++)
			pthread_join(r->threads[i], NULL);
	}
	if (r->slots) {
		for (size_t i = 0; i < r->ring; i++) {
			for (int k = 0; k < r->chunk; k++)
				g_free(r->slots[i].text[k]);
			free(r->slots[i].text);
			free(r->slots[i].cand);
		}
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->ready_cv);
		pthread_cond_destroy(&r->space_cv);
	}
	for (size_t i = 0; r->docs && i < r->nthreads; i++)
		g_object_unref(r->docs[i]);
	free(r->docs);
	free(r->threads);
	free(r->slots);
	if (r->bytes)
		g_bytes_unref(r->bytes);
	free(r);
}
