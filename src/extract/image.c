/* image.c - scanned pages: page images (TIFF, JPEG, PNG) read by OCR, one
 * tesseract per thread, the pages of a document in parallel as pdf.c does
 * for image-only PDF pages.  A production that has no text gives sworn its
 * page images and the .OPT that numbers them (ingest/ocr_volume.c). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

enum page_state { PAGE_TODO, PAGE_READ, PAGE_FAILED, PAGE_OVER_BUDGET };

struct page_out {
	enum page_state state;
	char *text;
	float confidence;
	struct sw_err err;
};

struct image_run {
	const struct sw_image_page *pages;
	size_t n, next, done;
	struct page_out *out;
	struct sw_ocr_budget *budget;
	struct sw_ocr_pool *pool;
	pthread_mutex_t lock;
	struct sw_progress progress;
	struct sw_err err; /* tesseract cannot run at all */
};

static void *image_worker(void *arg)
{
	struct image_run *r = arg;
	struct sw_ocr *o = NULL;
	struct sw_buf text = SW_BUF_INIT;
	struct sw_err err = { 0 };

	if (sw__extract_ocr_take(&o, r->pool, &err) != 0) {
		pthread_mutex_lock(&r->lock);
		if (!r->err.code)
			r->err = err;
		pthread_mutex_unlock(&r->lock);
		return NULL;
	}
	for (;;) {
		pthread_mutex_lock(&r->lock);
		if (r->next == r->n) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		size_t i = r->next++;
		/* Taken in page order, so that the budget ends at a page and
		 * every page before it is read. */
		bool allowed = sw_ocr_budget_take(r->budget);
		pthread_mutex_unlock(&r->lock);

		struct page_out *p = &r->out[i];
		const struct sw_image_page *in = &r->pages[i];
		if (!allowed) {
			p->state = PAGE_OVER_BUDGET;
		} else {
			float conf = 0;
			struct sw_err perr = { 0 };
			if (sw__extract_ocr_image(o, &text, &conf, in->data, in->len, in->index,
						  &perr) == 0) {
				p->text = sw_xstrndup(text.data ? text.data : "", text.len);
				p->confidence = conf;
				p->state = PAGE_READ;
			} else {
				p->err = perr;
				p->state = PAGE_FAILED;
			}
		}
		pthread_mutex_lock(&r->lock);
		r->done++;
		sw_progress_update(&r->progress, r->done);
		pthread_mutex_unlock(&r->lock);
	}
	sw_buf_release(&text);
	sw__extract_ocr_give(r->pool, o);
	return NULL;
}

/* Append one page: its text without form feeds (they separate pages in
 * the joined text the importers split again). */
static void add_page(struct sw_extract *x, const char *text)
{
	for (const char *s = text; s && *s; s++)
		sw_buf_addc(&x->text, *s == '\f' ? '\n' : *s);
	sw_extract_page(x);
}

int sw_extract_image_pages(struct sw_extract *x, const struct sw_image_page *pages,
			   size_t n, const struct sw_extract_opts *opts, struct sw_err *err)
{
	(void)err;
	if (n == 0)
		return 0;
	struct page_out *out = sw_xcalloc(n, sizeof(*out));
	struct image_run r = { .pages = pages, .n = n, .out = out, .budget = opts->budget,
			       .pool = opts->pool };

	if (opts->ocr) {
		pthread_mutex_init(&r.lock, NULL);
		/* One page needs no line of its own: the import's covers it. */
		if (opts->progress && n > 1)
			sw_progress_start(&r.progress, "OCR pages", n);
		sw__extract_ocr_run(opts->threads, n, image_worker, &r);
		sw_progress_finish(&r.progress);
		pthread_mutex_destroy(&r.lock);
	}

	size_t unread = 0, over = 0;
	for (size_t i = 0; i < n; i++) {
		struct page_out *p = &out[i];
		add_page(x, p->state == PAGE_READ ? p->text : "");
		struct sw_xpage *xp = &x->pages[x->npages - 1];
		if (p->state == PAGE_READ) {
			xp->ocr = true;
			xp->confidence = p->confidence;
			x->ocr_pages++;
			continue;
		}
		/* A page that does not decode was tried: it is not image_only
		 * (OCR not run), only empty. */
		xp->image_only = p->state != PAGE_FAILED;
		if (p->state == PAGE_OVER_BUDGET) {
			xp->over_budget = true;
			over++;
		} else if (p->state == PAGE_FAILED) {
			sw__extract_warn(x, "page %zu of image '%s': %s; kept without text",
					 pages[i].index + 1, pages[i].name ? pages[i].name : "?",
					 p->err.msg);
		} else {
			unread++;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(out[i].text);
	if (unread && opts->ocr && r.err.code)
		sw__extract_warn(x, "%s; %zu scanned page(s) kept without text", r.err.msg, unread);
	if (over)
		sw__extract_warn(x, "OCR budget reached: %zu scanned page(s) kept without text", over);
	free(out);
	return 0;
}
