/* native_load.c - the native formats' entries of the registry: each loads
 * the module sworn-extract.so the first time it is called and calls the
 * module's extractor (extract_int.h says why the code is not linked in). */
#include <pthread.h>
#include <string.h>

#include "extract/extract_int.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct sw__extract_native *native; /* NULL: load_err says why */
static struct sw_err load_err;

static void load(void)
{
	void *p = NULL;
	if (sw_module_load(&p, "extract", SW__EXTRACT_NATIVE_SYMBOL, &load_err) != 0)
		return;
	const struct sw__extract_native *n = p;
	const size_t sizes[] = { sizeof(struct sw_extract), sizeof(struct sw_extract_opts),
				 sizeof(struct sw_err), sizeof(struct sw_buf) };
	if (sw_module_check("extract", n->abi, SW__EXTRACT_NATIVE_ABI, n->version, n->sizes, sizes,
			    SW_ARRAY_LEN(sizes), &load_err) != 0)
		return;
	native = n;
}

static const struct sw__extract_native *get(struct sw_err *err)
{
	pthread_once(&once, load);
	if (!native)
		sw_err_set(err, load_err.code, "%s", load_err.msg);
	return native;
}

int sw__extract_lazy_pdf(struct sw_extract *out, const char *data, size_t len,
			 const struct sw_extract_opts *opts, struct sw_err *err)
{
	const struct sw__extract_native *n = get(err);
	return n ? n->pdf(out, data, len, opts, err) : load_err.code;
}

int sw__extract_lazy_docx(struct sw_extract *out, const char *data, size_t len,
			  const struct sw_extract_opts *opts, struct sw_err *err)
{
	const struct sw__extract_native *n = get(err);
	return n ? n->docx(out, data, len, opts, err) : load_err.code;
}

int sw__extract_lazy_eml(struct sw_extract *out, const char *data, size_t len,
			 const struct sw_extract_opts *opts, struct sw_err *err)
{
	const struct sw__extract_native *n = get(err);
	return n ? n->eml(out, data, len, opts, err) : load_err.code;
}

int sw__extract_lazy_msg(struct sw_extract *out, const char *data, size_t len,
			 const struct sw_extract_opts *opts, struct sw_err *err)
{
	const struct sw__extract_native *n = get(err);
	return n ? n->msg(out, data, len, opts, err) : load_err.code;
}

int sw_extract_libs(struct sw_extract_libs *out, struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	const struct sw__extract_native *n = get(err);
	if (!n)
		return load_err.code;
	n->libs(out);
	return 0;
}
