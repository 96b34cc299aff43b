/* native_mod.c - the table that the module sworn-extract.so exports (see
 * extract_int.h): the native extractors and the versions of the libraries
 * they run on.  Built into the module only, never into the binary. */
#include <gmime/gmime.h>
#include <poppler.h>

#include "extract/extract_int.h"

static void libs(struct sw_extract_libs *out)
{
	snprintf(out->poppler, sizeof(out->poppler), "%s", poppler_get_version());
	/* The variables, not the macros: the GMime loaded, not the headers'. */
	snprintf(out->gmime, sizeof(out->gmime), "%u.%u.%u", gmime_major_version,
		 gmime_minor_version, gmime_micro_version);
}

__attribute__((visibility("default")))
const struct sw__extract_native sw__extract_native_v1 = {
	.abi = SW__EXTRACT_NATIVE_ABI,
	.version = SW_VERSION,
	.sizes = { sizeof(struct sw_extract), sizeof(struct sw_extract_opts),
		   sizeof(struct sw_err), sizeof(struct sw_buf) },
	.pdf = sw__extract_pdf,
	.docx = sw__extract_docx,
	.eml = sw__extract_eml,
	.msg = sw__extract_msg,
	.libs = libs,
};
