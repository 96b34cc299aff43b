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
 * One struct sw_ocr (one tesseract instance) per thread. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
};

static struct tess_api tess;
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
	    !SYM(lib, "TessDeleteText", delete_text) || !SYM(lib, "TessBaseAPIEnd", end)) {
		memset(&tess, 0, sizeof(tess));
		dlclose(lib);
	}
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

int sw__extract_ocr_page(struct sw_ocr *o, struct sw_buf *text, float *confidence,
		 const unsigned char *gray, int width, int height, int stride,
		 int dpi, struct sw_err *err)
{
	tess.set_image(o->api, gray, width, height, 1, stride);
	tess.set_resolution(o->api, dpi);
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

void sw__extract_ocr_free(struct sw_ocr *o)
{
	if (!o)
		return;
	tess.end(o->api);
	tess.destroy(o->api);
	free(o);
}
