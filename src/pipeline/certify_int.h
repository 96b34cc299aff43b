/* certify_int.h - the table of the module sworn-pipeline.so, which lays out
 * a certificate as a PDF with cairo (certify_pdf.c), and its loader's
 * stub (certify_pdf_load.c). */
#ifndef SW_PIPELINE_CERTIFY_INT_H
#define SW_PIPELINE_CERTIFY_INT_H

#include "base/base.h"

#define SW__PIPELINE_PDF_ABI 1 /* bump when the table or a struct it passes changes */
#define SW__PIPELINE_PDF_SYMBOL "sw__pipeline_pdf_v1"

struct sw__pipeline_pdf {
	unsigned abi;
	const char *version; /* SW_VERSION */
	size_t sizes[1];     /* sizeof sw_err */
	int (*write)(const char *text, size_t len, const char *path, struct sw_err *err);
};

extern const struct sw__pipeline_pdf sw__pipeline_pdf_v1;

#endif /* SW_PIPELINE_CERTIFY_INT_H */
