/* pdf_pages.c - the text layer of a PDF's pages, read ahead in parallel.
 *
 * A long PDF is read by walks (pdf_walk.cc): each builds a page, reads its
 * text and drops it, so a walk holds a few pages whatever the length.  Each
 * reading thread has a walk of its own over the same bytes, takes the next
 * chunk of pages not yet taken, reads their text into a slot of a small
 * ring and goes on; the caller takes the chunks back in page order.  With
 * one core (or one reader asked for), one walk reads on the caller's
 * thread.  The text of a page does not depend on
 * which walk or document read it, so the pages, their order and their text
 * are those of one document read from start to end.  At most
 * RING_PER_THREAD chunks per thread are read ahead.  Alone (text_alone),
 * the caller's poppler-glib document reads: the reference.
 *
 * A walk reads only page trees it follows exactly as poppler's catalog
 * does; from the first chunk it cannot give, the chunks are read with
 * poppler-glib on the caller's thread (a document opened for that).  A
 * file no walk reads at all (linearized: poppler-glib reads its pages
 * through the hint tables) is read with poppler-glib documents as before
 * walks: one per thread, each keeping every page it has walked to (about
 * 1.7 KB a page), so threads only while the extra documents stay within
 * TREE_BUDGET, else the caller's document alone.  A short PDF (two chunks
 * or less) is read by the caller's document. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <poppler.h>

#include "extract/extract_int.h"
#include "extract/pdf_walk.h"

#define MAX_THREADS 4
#define RING_PER_THREAD 2
#define TREE_BYTES_PER_PAGE 2048 /* measured 1.7 KB, rounded up */
#define TREE_BUDGET ((size_t)48 << 20)

struct slot {
	char **text;  /* chunk entries, g_malloc'd */
	bool *cand;   /* blank text and images: a page for OCR */
	bool ready;
	bool failed;  /* the walk could not read it: the caller reads it */
};

struct sw__pdf_reader {
	PopplerDocument *main; /* the caller's: read from when there are no threads */
	PopplerDocument *spare; /* opened for chunks a walk could not read */
	struct sw__pdf_walk *walk; /* the caller's thread's, when it reads alone */
	bool walking;           /* walks read (not documents) */
	GBytes *bytes;
	int n, chunk, nchunks;
	int next_claim, next_take; /* chunks */
	bool stop;
	size_t nthreads, ring;
	PopplerDocument **docs;    /* one per thread, or */
	struct sw__pdf_walk **walks; /* one per thread */
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
	struct sw__pdf_walk *walk;
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
		bool failed = false;
		if (a->walk)
			failed = sw__pdf_walk_read(a->walk, c0, c1, s->text, s->cand) != 0;
		else
			read_pages(a->doc, c0, c1, s->text, s->cand);
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
 * documents rather than walks (tree), no more documents than the page-tree
 * budget allows beyond the first. */
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

/* want walks (or documents) for the threads, the first walk the one that
 * was opened to see whether the file walks; how many there are. */
static size_t open_readers(struct sw__pdf_reader *r, const char *data, size_t len, size_t want)
{
	size_t made = 0;
	if (r->walking) {
		r->walks = sw_xcalloc(want, sizeof(*r->walks));
		r->walks[made++] = r->walk;
		r->walk = NULL;
	} else {
		r->docs = sw_xcalloc(want, sizeof(*r->docs));
	}
	for (; made < want; made++) {
		if (r->walking) {
			if (!(r->walks[made] = sw__pdf_walk_new(data, len, r->n)))
				break;
			continue;
		}
		r->docs[made] = poppler_document_new_from_bytes(r->bytes, NULL, NULL);
		if (!r->docs[made] || poppler_document_get_n_pages(r->docs[made]) != r->n) {
			if (r->docs[made])
				g_object_unref(r->docs[made]);
			r->docs[made] = NULL;
			break;
		}
	}
	return made;
}

static void close_reader(struct sw__pdf_reader *r, size_t i)
{
	if (r->walks) {
		sw__pdf_walk_free(r->walks[i]);
		r->walks[i] = NULL;
	} else if (r->docs) {
		if (r->docs[i])
			g_object_unref(r->docs[i]);
		r->docs[i] = NULL;
	}
}

struct sw__pdf_reader *sw__pdf_reader_new(PopplerDocument *doc, const char *data, size_t len,
					  int npages, int chunk, unsigned threads, bool alone)
{
	struct sw__pdf_reader *r = sw_xcalloc(1, sizeof(*r));
	r->main = doc;
	r->n = npages;
	r->chunk = chunk;
	r->nchunks = (npages + chunk - 1) / chunk;
	if (alone || npages <= 2 * chunk)
		return r; /* the caller's document reads */
	/* Walks and documents are opened here, one after another, before any
	 * thread runs: poppler's global state is set up by the first (the
	 * caller's document). */
	r->bytes = g_bytes_new_static(data, len);
	r->walk = sw__pdf_walk_new(data, len, npages);
	r->walking = r->walk != NULL;
	if (r->walking)
		r->main = NULL; /* the caller may close it: needs_doc */
	size_t want = thread_count(npages, threads, !r->walking);
	if (want == 0)
		return r; /* the walk, or the caller's document, reads alone */
	r->nthreads = open_readers(r, data, len, want);
	if (r->nthreads == 0)
		return r;
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
		a->doc = r->docs ? r->docs[i] : NULL;
		a->walk = r->walks ? r->walks[i] : NULL;
		if (pthread_create(&r->threads[started], NULL, worker, a) != 0) {
			free(a);
			break;
		}
		started++;
	}
	/* Readers whose threads did not start are closed; with no thread at
	 * all, the first walk (or the caller's document) reads alone. */
	for (size_t i = started ? started : 1; i < r->nthreads; i++)
		close_reader(r, i);
	if (started == 0 && r->walking) {
		r->walk = r->walks[0];
		r->walks[0] = NULL;
	} else if (started == 0) {
		close_reader(r, 0);
	}
	r->nthreads = started;
	if (started)
		r->main = NULL;
	return r;
}

bool sw__pdf_reader_needs_doc(const struct sw__pdf_reader *r)
{
	return !r->walking && r->nthreads == 0;
}

/* Chunk [c0, c1) with poppler-glib, for a walk that could not read it:
 * the caller's document, or one opened for this. */
static void read_spare(struct sw__pdf_reader *r, int c0, int c1, char **text, bool *cand)
{
	PopplerDocument *doc = r->main;
	if (!doc && !r->spare)
		r->spare = poppler_document_new_from_bytes(r->bytes, NULL, NULL);
	if (!doc)
		doc = r->spare;
	if (doc) {
		read_pages(doc, c0, c1, text, cand);
		return;
	}
	for (int i = c0; i < c1; i++) {
		text[i - c0] = NULL;
		cand[i - c0] = false;
	}
}

void sw__pdf_reader_next(struct sw__pdf_reader *r, char **text, bool *cand)
{
	int c = r->next_take;
	int c0 = c * r->chunk, c1 = c0 + r->chunk < r->n ? c0 + r->chunk : r->n;
	if (c >= r->nchunks)
		return;
	if (r->nthreads == 0) {
		if (!r->walk)
			read_pages(r->main, c0, c1, text, cand);
		else if (sw__pdf_walk_read(r->walk, c0, c1, text, cand) != 0)
			read_spare(r, c0, c1, text, cand);
		r->next_take++;
		return;
	}
	struct slot *s = &r->slots[(size_t)c % r->ring];
	pthread_mutex_lock(&r->lock);
	while (!s->ready)
		pthread_cond_wait(&r->ready_cv, &r->lock);
	pthread_mutex_unlock(&r->lock);
	if (s->failed) {
		read_spare(r, c0, c1, text, cand);
	} else {
		memcpy(text, s->text, (size_t)(c1 - c0) * sizeof(*text));
		memcpy(cand, s->cand, (size_t)(c1 - c0) * sizeof(*cand));
	}
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
	for (size_t i = 0; i < r->nthreads; i++)
		close_reader(r, i);
	sw__pdf_walk_free(r->walk);
	if (r->spare)
		g_object_unref(r->spare);
	free(r->docs);
	free(r->walks);
	free(r->threads);
	free(r->slots);
	if (r->bytes)
		g_bytes_unref(r->bytes);
	free(r);
}
