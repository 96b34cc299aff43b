/* format.c - the one registry of the formats sworn reads.  The folder walk
 * of sworn ingest, the attachments of an e-mail, a load file's natives and
 * a draft given to sworn verify all pick their format here. */
#include <stdlib.h>
#include <string.h>

#include "extract/extract_int.h"

/* ------------------------------------------------------------ registry */

static bool sniff_pdf(const char *data, size_t len)
{
	return len >= 5 && !memcmp(data, "%PDF-", 5);
}

/* A ZIP archive: of the formats sworn reads, only a .docx is one. */
static bool sniff_zip(const char *data, size_t len)
{
	return len >= 4 && !memcmp(data, "PK\x03\x04", 4);
}

static const char *const ext_pdf[] = { "pdf", NULL };
static const char *const ext_docx[] = { "docx", NULL };
static const char *const ext_eml[] = { "eml", NULL };
static const char *const ext_msg[] = { "msg", NULL };
static const char *const ext_text[] = { "txt", "text", NULL };
static const char *const ext_md[] = { "md", "markdown", NULL };
static const char *const ext_dat[] = { "dat", NULL };
static const char *const ext_opt[] = { "opt", NULL };

/* The document formats first, in the order an attachment is matched. */
static const struct sw_format formats[] = {
	{ "pdf", ext_pdf, "application/pdf", true, sniff_pdf, sw__extract_lazy_pdf },
	{ "docx", ext_docx, NULL, true, sniff_zip, sw__extract_lazy_docx },
	{ "email", ext_eml, "message/rfc822", true, NULL, sw__extract_lazy_eml },
	/* No magic: .doc and .xls are OLE2 compound files too. */
	{ "outlook", ext_msg, "application/vnd.ms-outlook", true, NULL, sw__extract_lazy_msg },
	{ "text", ext_text, "text/plain", false, NULL, sw__extract_text },
	{ "markdown", ext_md, NULL, false, NULL, sw__extract_text },
	{ "loadfile", ext_dat, NULL, false, NULL, NULL },
	{ "opt", ext_opt, NULL, false, NULL, NULL },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static bool has_ext(const struct sw_format *f, const char *ext)
{
	for (const char *const *e = f->extensions; *e; e++)
		if (!strcmp(*e, ext))
			return true;
	return false;
}

const struct sw_format *sw_format_by_ext(const char *path)
{
	char ext[16];
	sw_path_ext(ext, sizeof(ext), path);
	for (size_t i = 0; i < NFORMATS; i++)
		if (has_ext(&formats[i], ext))
			return &formats[i];
	return NULL;
}

const struct sw_format *sw_format_of_attachment(const char *name, const char *mime)
{
	char ext[16];
	sw_path_ext(ext, sizeof(ext), name);
	for (size_t i = 0; i < NFORMATS && formats[i].extract; i++)
		if (has_ext(&formats[i], ext) ||
		    (mime && formats[i].mime && !strcmp(mime, formats[i].mime)))
			return &formats[i];
	return NULL;
}

const struct sw_format *sw_format_sniff(const char *data, size_t len)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].sniff && formats[i].sniff(data, len))
			return &formats[i];
	return NULL;
}

const struct sw_format *sw_format_by_name(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}
