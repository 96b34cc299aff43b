/* pdf_pages.c - the text layer of a PDF's pages, read ahead in parallel.
 *
 * Every page's text is read by poppler's C++ classes behind pdf_walk.h,
 * within its bounds (a page's characters and operators).  A long PDF is
 * read by walks: each builds a page, reads its text and drops it, so a
 * walk holds a few pages whatever the length.  Each reading thread has a
 * walk of its own over the same bytes, takes the next chunk of pages not
 * yet taken, reads their text into a slot of a small ring and goes on; the
 * caller takes the chunks back in page order.  With one core (or one
 * reader asked for), one walk reads on the caller's thread.  The text of a
 * page does not depend on which reader read it, so the pages, their order
 * and their text are those of one document read from start to end.  At
 * most RING_PER_THREAD chunks per thread are read ahead.
 *
 * A walk reads only page trees it follows exactly as poppler's catalog
 * does; from the first chunk it cannot give, the chunks are read by a
 * catalog reader (the document's own catalog, as poppler-glib reads) on
 * the caller's thread.  A file no walk reads at all (linearized: the
 * catalog reads its pages through the hint tables) is read by catalog
 * readers: one per thread, each keeping every page it has reached (about
 * 1.7 KB a page), so threads only while the extra readers stay within
 * TREE_BUDGET, else one.  A short PDF (two chunks or less), or any when
 * alone (text_alone), is read by one catalog reader on the caller's
 * thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "extract/extract_int.h"
#include "extract/pdf_walk.h"

#define MAX_THREADS 4
#define RING_PER_THREAD 2
#define TREE_BYTES_PER_PAGE 2048 /* measured 1.7 KB, rounded up */
#define TREE_BUDGET ((size_t)48 << 20)

struct slot {
	char **text;          /* chunk entries, g_malloc'd */
	unsigned char *mark;  /* SW_PDF_CAND, SW_PDF_CUT */
	bool ready;
	bool failed;  /* the walk could not read it: the caller reads it */
};

struct sw__extract_pdf_reader {
	struct sw__extract_pdf_walk *walk;  /* the caller's thread's, when it reads alone */
	struct sw__extract_pdf_walk *spare; /* a catalog reader for chunks a walk could not read */
	bool walking;               /* walks read (not catalog readers) */
	const char *data;
	size_t len;
	struct sw__extract_pdf_bounds bounds;
	int n, chunk, nchunks;
	int next_claim, next_take; /* chunks */
	bool stop;
	size_t nthreads, ring;
	struct sw__extract_pdf_walk **walks; /* one per thread */
	pthread_t *threads;
	struct slot *slots;
	pthread_mutex_t lock;
	pthread_cond_t ready_cv, space_cv;
};

struct worker_arg {
	struct sw__extract_pdf_reader *r;
	struct sw__extract_pdf_walk *walk;
};

static void *worker(void *arg)
{
	struct worker_arg *a = arg;
	struct sw__extract_pdf_reader *r = a->r;
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
		bool failed = sw__extract_pdf_walk_read(a->walk, c0, c1, s->text, s->mark) != 0;
		pthread_mutex_lock(&r->lock);
		s->failed = failed;
		s->ready = true;
		pthread_cond_broadcast(&r->ready_cv);
	}
	pthread_mutex_unlock(&r->lock);
	free(a);
	return NULL;
}

/* How many threads read: one per core (threads when not 0), at most
 * MAX_THREADS; none (the caller reads) when that leaves one.  With
 * catalog readers rather than walks (tree), no more of them than the
 * page-tree budget allows beyond the first. */
static size_t thread_count(int n, unsigned threads, bool tree)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = threads ? threads : (size_t)(cores > 0 ? cores : 1);
	if (t > MAX_THREADS)
		t = MAX_THREADS;
	size_t extra = TREE_BUDGET / ((size_t)n * TREE_BYTES_PER_PAGE);
	if (tree && t > extra + 1)
		t = extra + 1;
	return t < 2 ? 0 : t;
}

/* A reader of the kind r reads with. */
static struct sw__extract_pdf_walk *open_one(const struct sw__extract_pdf_reader *r)
{
	return r->walking ? sw__extract_pdf_walk_new(r->data, r->len, r->n, &r->bounds)
			  : sw__extract_pdf_catalog_new(r->data, r->len, r->n, &r->bounds);
}

/* want readers for the threads, the first the one the caller's thread
 * opened; how many there are. */
static size_t open_readers(struct sw__extract_pdf_reader *r, size_t want)
{
	size_t made = 0;
	r->walks = sw_xcalloc(want, sizeof(*r->walks));
	r->walks[made++] = r->walk;
	r->walk = NULL;
	for (; made < want; made++)
		if (!(r->walks[made] = open_one(r)))
			break;
	return made;
}

struct sw__extract_pdf_reader *
sw__extract_pdf_reader_new(const char *data, size_t len, int npages, int chunk, unsigned threads,
			   bool alone, const struct sw__extract_pdf_bounds *bounds)
{
	struct sw__extract_pdf_reader *r = sw_xcalloc(1, sizeof(*r));
	r->data = data;
	r->len = len;
	if (bounds)
		r->bounds = *bounds; /* zeros: the defaults */
	r->n = npages;
	r->chunk = chunk;
	r->nchunks = (npages + chunk - 1) / chunk;
	/* Readers are opened here, one after another, before any thread
	 * runs. */
	sw__extract_pdf_poppler_hold();
	r->walking = !alone && npages > 2 * chunk &&
		     (r->walk = sw__extract_pdf_walk_new(data, len, npages, &r->bounds)) != NULL;
	if (!r->walking)
		r->walk = sw__extract_pdf_catalog_new(data, len, npages, &r->bounds);
	if (!r->walk || alone || npages <= 2 * chunk)
		return r; /* one reader on the caller's thread (none: no text) */
	size_t want = thread_count(npages, threads, !r->walking);
	if (want == 0)
		return r;
	r->nthreads = open_readers(r, want);
	r->ring = r->nthreads * RING_PER_THREAD;
	r->slots = sw_xcalloc(r->ring, sizeof(*r->slots));
	for (size_t i = 0; i < r->ring; i++) {
		r->slots[i].text = sw_xcalloc((size_t)chunk, sizeof(char *));
		r->slots[i].mark = sw_xcalloc((size_t)chunk, 1);
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->ready_cv, NULL);
	pthread_cond_init(&r->space_cv, NULL);
	r->threads = sw_xcalloc(r->nthreads, sizeof(*r->threads));
	size_t started = 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		struct worker_arg *a = sw_xmalloc(sizeof(*a));
		a->r = r;
		a->walk = r->walks[i];
		if (pthread_create(&r->threads[started], NULL, worker, a) != 0) {
			free(a);
			break;
		}
		started++;
	}
	/* Readers whose threads did not start are closed; with no thread at
	 * all, the first reads alone on the caller's thread. */
	for (size_t i = started ? started : 1; i < r->nthreads; i++) {
		sw__extract_pdf_walk_free(r->walks[i]);
		r->walks[i] = NULL;
	}
	if (started == 0) {
		r->walk = r->walks[0];
		r->walks[0] = NULL;
	}
	r->nthreads = started;
	return r;
}

/* Chunk [c0, c1) for a walk that could not read it: a catalog reader's. */
static void read_spare(struct sw__extract_pdf_reader *r, int c0, int c1, char **text,
		       unsigned char *mark)
{
	if (!r->spare)
		r->spare = sw__extract_pdf_catalog_new(r->data, r->len, r->n, &r->bounds);
	if (!r->spare || sw__extract_pdf_walk_read(r->spare, c0, c1, text, mark) != 0)
		for (int i = c0; i < c1; i++) {
			text[i - c0] = NULL;
			mark[i - c0] = 0;
		}
}

void sw__extract_pdf_reader_next(struct sw__extract_pdf_reader *r, char **text, unsigned char *mark)
{
	int c = r->next_take;
	int c0 = c * r->chunk, c1 = c0 + r->chunk < r->n ? c0 + r->chunk : r->n;
	if (c >= r->nchunks)
		return;
	if (r->nthreads == 0) {
		if (!r->walk || sw__extract_pdf_walk_read(r->walk, c0, c1, text, mark) != 0)
			read_spare(r, c0, c1, text, mark);
		r->next_take++;
		return;
	}
	struct slot *s = &r->slots[(size_t)c % r->ring];
	pthread_mutex_lock(&r->lock);
	while (!s->ready)
		pthread_cond_wait(&r->ready_cv, &r->lock);
	pthread_mutex_unlock(&r->lock);
	if (s->failed) {
		read_spare(r, c0, c1, text, mark);
	} else {
		memcpy(text, s->text, (size_t)(c1 - c0) * sizeof(*text));
		memcpy(mark, s->mark, (size_t)(c1 - c0));
	}
	memset(s->text, 0, (size_t)r->chunk * sizeof(*s->text));
	pthread_mutex_lock(&r->lock);
	s->ready = false;
	r->next_take++;
	pthread_cond_broadcast(&r->space_cv);
	pthread_mutex_unlock(&r->lock);
}

void sw__extract_pdf_reader_free(struct sw__extract_pdf_reader *r)
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
			free(r->slots[i].mark);
		}
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->ready_cv);
		pthread_cond_destroy(&r->space_cv);
	}
	for (size_t i = 0; i < r->nthreads; i++)
		sw__extract_pdf_walk_free(r->walks[i]);
	sw__extract_pdf_walk_free(r->walk);
	sw__extract_pdf_walk_free(r->spare);
	free(r->walks);
	free(r->threads);
	free(r->slots);
	free(r);
}
