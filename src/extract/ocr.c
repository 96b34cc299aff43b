/* ocr.c - reading page images with tesseract.
 *
 * tesseract is loaded with dlopen on first use instead of being linked.
 * Debian's libtesseract uses OpenMP, and libgomp reads OMP_THREAD_LIMIT once,
 * when it is loaded: linked, it would be loaded before main() could set it,
 * and tesseract's own threads inside a page would fight the threads that
 * read pages in parallel (2x slower on two cores).  Loading it here, after
 * setting OMP_THREAD_LIMIT=1 (unless the user set it), keeps one thread per
 * page.  A machine without tesseract still imports everything else.
 *
 * Page images (TIFF, JPEG, PNG) are decoded with leptonica, the image
 * library tesseract itself links: its functions are found through
 * tesseract's handle, so the two always agree.  What either prints on
 * stderr is captured instead: leptonica's messages go to a handler that
 * keeps the last one of the thread (a decoding error's reason), and
 * tesseract's own chatter ("Estimating resolution as ...", "Empty
 * page!!") is sent to its debug_file, /dev/null.
 *
 * One struct sw_ocr (one tesseract instance) per thread. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extract/extract_int.h"

#ifndef SW_TESSERACT_SONAME
#define SW_TESSERACT_SONAME "libtesseract.so.5"
#endif

/* The few entry points of tesseract's C API (tesseract/capi.h) we use. */
struct tess_api {
	void *(*create)(void);
	void (*destroy)(void *api);
	int (*init3)(void *api, const char *datapath, const char *language);
	void (*set_image)(void *api, const unsigned char *data, int width, int height,
			  int bytes_per_pixel, int bytes_per_line);
	void (*set_resolution)(void *api, int ppi);
	char *(*get_utf8)(void *api);
	int (*mean_conf)(void *api);
	void (*delete_text)(const char *text);
	void (*end)(void *api);
	int (*set_variable)(void *api, const char *name, const char *value);
	void (*set_image2)(void *api, void *pix);
};

/* The few leptonica functions used for page images (leptonica/allheaders.h). */
struct lept_api {
	void *(*read_mem)(const unsigned char *data, size_t size);
	void *(*read_mem_tiff)(const unsigned char *data, size_t size, int32_t n);
	int (*read_header_mem)(const unsigned char *data, size_t size, int32_t *format,
			       int32_t *w, int32_t *h, int32_t *bps, int32_t *spp,
			       int32_t *iscmap);
	int (*find_format)(const unsigned char *data, int32_t *format);
	void (*destroy)(void **pix);
	int32_t (*width)(const void *pix);
	int32_t (*height)(const void *pix);
	int32_t (*xres)(const void *pix);
	void (*stderr_handler)(void (*handler)(const char *msg));
};

static struct tess_api tess;
static struct lept_api lept;
static bool have_lept;
/* The last message leptonica printed on this thread. */
static _Thread_local char lept_msg[200];
static char load_error[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* A data pointer from dlsym turned into a function pointer: POSIX
 * guarantees the conversion works; memcpy keeps -Wpedantic quiet. */
static bool sym(void *lib, const char *name, void *fn, size_t size)
{
	void *p = dlsym(lib, name);
	if (!p) {
		snprintf(load_error, sizeof(load_error), "%s lacks %s", SW_TESSERACT_SONAME, name);
		return false;
	}
	memcpy(fn, &p, size);
	return true;
}

#define SYM(lib, name, field) sym(lib, name, &tess.field, sizeof(tess.field))
#define LSYM(lib, name, field) sym(lib, name, &lept.field, sizeof(lept.field))

/* Leptonica's messages end in a newline and name the function; the last
 * line is kept, without its newline, for the page's warning. */
static void lept_capture(const char *msg)
{
	if (!msg)
		return;
	size_t n = strcspn(msg, "\n");
	if (n >= sizeof(lept_msg))
		n = sizeof(lept_msg) - 1;
	memcpy(lept_msg, msg, n);
	lept_msg[n] = '\0';
}

static void load_lept(void *lib)
{
	char keep[sizeof(load_error)];
	memcpy(keep, load_error, sizeof(keep));
	have_lept = LSYM(lib, "pixReadMem", read_mem) &&
		    LSYM(lib, "pixReadMemTiff", read_mem_tiff) &&
		    LSYM(lib, "pixReadHeaderMem", read_header_mem) &&
		    LSYM(lib, "findFileFormatBuffer", find_format) &&
		    LSYM(lib, "pixDestroy", destroy) && LSYM(lib, "pixGetWidth", width) &&
		    LSYM(lib, "pixGetHeight", height) && LSYM(lib, "pixGetXRes", xres) &&
		    LSYM(lib, "leptSetStderrHandler", stderr_handler);
	/* Without leptonica, PDF pages are still read: keep tesseract's
	 * state as it was. */
	memcpy(load_error, keep, sizeof(keep));
	if (have_lept)
		lept.stderr_handler(lept_capture);
	else
		memset(&lept, 0, sizeof(lept));
}

static void load(void)
{
	setenv("OMP_THREAD_LIMIT", "1", 0);
	void *lib = dlopen(SW_TESSERACT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(load_error, sizeof(load_error), "cannot load tesseract: %s",
			 e ? e : "unknown error");
		return;
	}
	if (!SYM(lib, "TessBaseAPICreate", create) || !SYM(lib, "TessBaseAPIDelete", destroy) ||
	    !SYM(lib, "TessBaseAPIInit3", init3) || !SYM(lib, "TessBaseAPISetImage", set_image) ||
	    !SYM(lib, "TessBaseAPISetSourceResolution", set_resolution) ||
	    !SYM(lib, "TessBaseAPIGetUTF8Text", get_utf8) ||
	    !SYM(lib, "TessBaseAPIMeanTextConf", mean_conf) ||
	    !SYM(lib, "TessDeleteText", delete_text) || !SYM(lib, "TessBaseAPIEnd", end) ||
	    !SYM(lib, "TessBaseAPISetVariable", set_variable) ||
	    !SYM(lib, "TessBaseAPISetImage2", set_image2)) {
		memset(&tess, 0, sizeof(tess));
		dlclose(lib);
		return;
	}
	/* dlsym on tesseract's handle also searches the libraries it
	 * needs, leptonica among them. */
	load_lept(lib);
	/* The library stays loaded for the life of the process: its threads
	 * and caches do not survive an unload. */
}

struct sw_ocr {
	void *api;
};

int sw__extract_ocr_new(struct sw_ocr **out, struct sw_err *err)
{
	*out = NULL;
	pthread_once(&load_once, load);
	if (!tess.create)
		return sw_err_set(err, SW_ENOTFOUND, "OCR unavailable: %s", load_error);
	struct sw_ocr *o = sw_xcalloc(1, sizeof(*o));
	o->api = tess.create();
	/* debug_file is global to tesseract; "/dev/null" turns its printing
	 * off (set before Init, whose own messages it also covers). */
	if (o->api)
		tess.set_variable(o->api, "debug_file", "/dev/null");
	if (!o->api || tess.init3(o->api, NULL, "eng") != 0) {
		if (o->api)
			tess.destroy(o->api);
		free(o);
		return sw_err_set(err, SW_ENOTFOUND,
				  "OCR unavailable: tesseract has no English data (tesseract-ocr-eng)");
	}
	*out = o;
	return 0;
}

/* Recognize the image set on o: its words into text, their mean
 * confidence (0-100) into *confidence. */
static int recognize(struct sw_ocr *o, struct sw_buf *text, float *confidence,
		     struct sw_err *err)
{
	char *t = tess.get_utf8(o->api);
	if (!t)
		return sw_err_set(err, SW_EINPUT, "OCR failed on the page image");
	sw_buf_reset(text);
	sw_buf_adds(text, t);
	tess.delete_text(t);
	int c = tess.mean_conf(o->api);
	*confidence = (float)(c < 0 ? 0 : c > 100 ? 100 : c);
	return 0;
}

int sw__extract_ocr_page(struct sw_ocr *o, struct sw_buf *text, float *confidence,
		 const unsigned char *gray, int width, int height, int stride,
		 int dpi, struct sw_err *err)
{
	tess.set_image(o->api, gray, width, height, 1, stride);
	tess.set_resolution(o->api, dpi);
	return recognize(o, text, confidence, err);
}

/* The image libraries under leptonica print on stderr themselves (libjpeg's
 * "Premature end of JPEG file" goes to its own error manager, which
 * leptonica leaves as it is), so decoding runs with file descriptor 2
 * pointed at a scratch file, one page at a time (decoding takes
 * milliseconds, OCR seconds), and what was said is kept for the page's
 * warning.  The OCR threads write nothing on stderr meanwhile; the
 * progress line, drawn by the thread that finished a page, may miss one
 * redraw. */
static pthread_mutex_t decode_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *scratch;

/* Check the header (a page claiming a billion pixels is refused before it
 * is decoded; later pages of a TIFF are checked after) and decode page
 * index.  Called with stderr swapped; NULL with err set on failure. */
static void *decode(const unsigned char *data, size_t len, size_t index, struct sw_err *err)
{
	int32_t format = 0, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
	if (lept.find_format(data, &format) != 0 || format == 0 ||
	    lept.read_header_mem(data, len, &format, &w, &h, &bps, &spp, &cmap) != 0) {
		sw_err_set(err, SW_EINPUT, "not an image leptonica reads");
		return NULL;
	}
	if ((uint64_t)w * (uint64_t)h > SW_IMAGE_MAX_PIXELS) {
		sw_err_set(err, SW_ELIMIT, "the image is %dx%d pixels, over the limit of %llu",
			   (int)w, (int)h, (unsigned long long)SW_IMAGE_MAX_PIXELS);
		return NULL;
	}
	/* Leptonica's TIFF formats (imageio.h's L_FORMAT_IS_TIFF): IFF_TIFF
	 * to IFF_TIFF_ZIP, and IFF_TIFF_JPEG. */
	bool tiff = (format >= 4 && format <= 10) || format == 17;
	if ((!tiff && index > 0) || index > (size_t)INT32_MAX) {
		sw_err_set(err, SW_ENOTFOUND, "the image has no page %zu", index + 1);
		return NULL;
	}
	void *pix = tiff ? lept.read_mem_tiff(data, len, (int32_t)index) : lept.read_mem(data, len);
	if (!pix)
		sw_err_set(err, index ? SW_ENOTFOUND : SW_EINPUT, "%s",
			   index ? "no such page in the TIFF" : "the image cannot be decoded");
	return pix;
}

static void *decode_quiet(const unsigned char *data, size_t len, size_t index,
			  struct sw_err *err)
{
	char said[200] = "";
	pthread_mutex_lock(&decode_lock);
	if (!scratch)
		scratch = tmpfile();
	int saved = scratch ? dup(STDERR_FILENO) : -1;
	bool swapped = false;
	if (saved >= 0) {
		fflush(stderr);
		swapped = ftruncate(fileno(scratch), 0) == 0 &&
			  dup2(fileno(scratch), STDERR_FILENO) >= 0;
	}
	lept_msg[0] = '\0';
	void *pix = decode(data, len, index, err);
	if (swapped) {
		fflush(stderr);
		(void)dup2(saved, STDERR_FILENO);
		/* The first line said: the cause, before the consequences. */
		ssize_t n = pread(fileno(scratch), said, sizeof(said) - 1, 0);
		said[n > 0 ? n : 0] = '\0';
		said[strcspn(said, "\n")] = '\0';
	}
	if (saved >= 0)
		close(saved);
	pthread_mutex_unlock(&decode_lock);
	if (!pix && (said[0] || lept_msg[0])) {
		struct sw_err first = *err;
		sw_err_set(err, first.code, "%s: %s", first.msg, said[0] ? said : lept_msg);
	}
	return pix;
}

/* Resolutions a scan states that are believed; else 300 dpi, the usual
 * scanning resolution of productions, is assumed. */
#define MIN_DPI 70
#define MAX_DPI 2400
#define DEFAULT_DPI 300

int sw__extract_ocr_image(struct sw_ocr *o, struct sw_buf *text, float *confidence,
			  const unsigned char *data, size_t len, size_t index,
			  struct sw_err *err)
{
	if (!have_lept)
		return sw_err_set(err, SW_ENOTFOUND,
				  "OCR of page images unavailable: leptonica lacks a function");
	if (len < 12 || len > (size_t)INT32_MAX)
		return sw_err_set(err, SW_EINPUT, "not an image file (%zu bytes)", len);
	struct sw_err derr = { 0 };
	void *pix = decode_quiet(data, len, index, &derr);
	if (!pix) {
		if (err)
			*err = derr;
		return derr.code;
	}
	int32_t w, h;
	w = lept.width(pix);
	h = lept.height(pix);
	if (w <= 0 || h <= 0 || (uint64_t)w * (uint64_t)h > SW_IMAGE_MAX_PIXELS) {
		lept.destroy(&pix);
		return sw_err_set(err, SW_ELIMIT, "page %zu is %dx%d pixels, over the limit of %llu",
				  index + 1, (int)w, (int)h, (unsigned long long)SW_IMAGE_MAX_PIXELS);
	}
	int32_t dpi = lept.xres(pix);
	tess.set_image2(o->api, pix);
	tess.set_resolution(o->api, dpi >= MIN_DPI && dpi <= MAX_DPI ? dpi : DEFAULT_DPI);
	int rc = recognize(o, text, confidence, err);
	lept.destroy(&pix);
	return rc;
}

static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;

bool sw_ocr_budget_take(struct sw_ocr_budget *b)
{
	if (!b)
		return true;
	pthread_mutex_lock(&budget_lock);
	double now = sw_now();
	if (!b->reached && b->max_pages && b->used >= b->max_pages)
		b->reached = true;
	if (!b->reached && b->max_seconds > 0 && b->started > 0 &&
	    now - b->started >= b->max_seconds) {
		b->reached = true;
		b->by_time = true;
	}
	bool ok = !b->reached;
	if (ok) {
		if (b->started <= 0)
			b->started = now;
		b->used++;
	} else {
		b->refused++;
	}
	pthread_mutex_unlock(&budget_lock);
	return ok;
}

struct sw_ocr_pool {
	pthread_mutex_t lock;
	struct sw_ocr **idle;
	size_t n, cap;
};

struct sw_ocr_pool *sw_ocr_pool_new(void)
{
	struct sw_ocr_pool *p = sw_xcalloc(1, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	return p;
}

void sw_ocr_pool_free(struct sw_ocr_pool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		sw__extract_ocr_free(p->idle[i]);
	free(p->idle);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

void sw__extract_ocr_run(unsigned threads, size_t n, void *(*worker)(void *), void *arg)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = threads ? threads : (size_t)(cores > 0 ? cores : 1);
	if (t > n)
		t = n;
	if (t > SW_OCR_MAX_THREADS)
		t = SW_OCR_MAX_THREADS;
	pthread_t *tid = sw_xcalloc(t ? t : 1, sizeof(*tid));
	size_t started = 0;
	for (size_t i = 0; i < t; i++) {
		if (pthread_create(&tid[i], NULL, worker, arg) != 0)
			break;
		started++;
	}
	if (started == 0)
		worker(arg);
	for (size_t i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
}

int sw__extract_ocr_take(struct sw_ocr **out, struct sw_ocr_pool *pool, struct sw_err *err)
{
	*out = NULL;
	if (pool) {
		pthread_mutex_lock(&pool->lock);
		if (pool->n)
			*out = pool->idle[--pool->n];
		pthread_mutex_unlock(&pool->lock);
		if (*out)
			return 0;
	}
	return sw__extract_ocr_new(out, err);
}

void sw__extract_ocr_give(struct sw_ocr_pool *pool, struct sw_ocr *o)
{
	if (!o)
		return;
	if (!pool) {
		sw__extract_ocr_free(o);
		return;
	}
	pthread_mutex_lock(&pool->lock);
	pool->idle = sw_xgrow(pool->idle, &pool->cap, pool->n + 1, sizeof(*pool->idle));
	pool->idle[pool->n++] = o;
	pthread_mutex_unlock(&pool->lock);
}

void sw__extract_ocr_free(struct sw_ocr *o)
{
	if (!o)
		return;
	tess.end(o->api);
	tess.destroy(o->api);
	free(o);
}
