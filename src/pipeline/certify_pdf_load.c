/* certify_pdf_load.c - sw_certify_pdf, which loads the module
 * sworn-pipeline.so the first time a certificate is laid out as a PDF and
 * calls certify_pdf.c's code in it (cairo is not linked into sworn: see
 * DESIGN.md, "Modules"). */
#include <pthread.h>
#include <string.h>

#include "pipeline/certify_int.h"
#include "pipeline/pipeline.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct sw__pipeline_pdf *pdf; /* NULL: load_err says why */
static struct sw_err load_err;

static void load(void)
{
	void *p = NULL;
	if (sw_module_load(&p, "pipeline", SW__PIPELINE_PDF_SYMBOL, &load_err) != 0)
		return;
	const struct sw__pipeline_pdf *d = p;
	const size_t sizes[] = { sizeof(struct sw_err) };
	if (sw_module_check("pipeline", d->abi, SW__PIPELINE_PDF_ABI, d->version, d->sizes, sizes,
			    SW_ARRAY_LEN(sizes), &load_err) != 0)
		return;
	pdf = d;
}

int sw_certify_pdf(const char *text, size_t len, const char *path, struct sw_err *err)
{
	pthread_once(&once, load);
	if (!pdf)
		return sw_err_set(err, load_err.code, "%s", load_err.msg);
	return pdf->write(text, len, path, err);
}
