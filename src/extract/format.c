/* format.c - the one registry of the formats sworn reads, and what an
 * extraction owns.  The folder walk of sworn ingest, the attachments of an
 * e-mail, a load file's natives and a draft given to sworn verify all pick
 * their format here. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "extract/extract_int.h"

void sw_extract_init(struct sw_extract *x)
{
	memset(x, 0, sizeof(*x));
	x->meta = json_object();
}

void sw_extract_release(struct sw_extract *x)
{
	if (!x)
		return;
	sw_buf_release(&x->text);
	free(x->pages);
	for (size_t i = 0; i < x->nattach; i++) {
		free(x->attach[i].name);
		free(x->attach[i].mime);
		sw_buf_release(&x->attach[i].data);
	}
	free(x->attach);
	for (size_t i = 0; i < x->nwarnings; i++)
		free(x->warnings[i]);
	json_decref(x->meta);
	memset(x, 0, sizeof(*x));
}

void sw_extract_page(struct sw_extract *x)
{
	size_t start = 0;
	if (x->npages)
		start = x->pages[x->npages - 1].start + x->pages[x->npages - 1].len;
	x->pages = sw_xgrow(x->pages, &x->cappages, x->npages + 1, sizeof(*x->pages));
	memset(&x->pages[x->npages], 0, sizeof(x->pages[0]));
	x->pages[x->npages].start = start;
	x->pages[x->npages].len = x->text.len - start;
	x->npages++;
}

void sw__extract_warn(struct sw_extract *x, const char *fmt, ...)
{
	if (x->nwarnings == SW_EXTRACT_MAX_WARNINGS)
		return;
	struct sw_buf b = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	x->warnings[x->nwarnings++] = sw_buf_detach(&b, NULL);
}

void sw_extract_join(struct sw_buf *out, const struct sw_extract *x)
{
	size_t end = 0;
	for (size_t i = 0; i < x->npages; i++) {
		if (i)
			sw_buf_addc(out, '\f');
		sw_buf_add(out, x->text.data + x->pages[i].start, x->pages[i].len);
		end = x->pages[i].start + x->pages[i].len;
	}
	if (end < x->text.len)
		sw_buf_add(out, x->text.data + end, x->text.len - end);
}

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
static const char *const ext_text[] = { "txt", "text", NULL };
static const char *const ext_md[] = { "md", "markdown", NULL };
static const char *const ext_dat[] = { "dat", NULL };
static const char *const ext_opt[] = { "opt", NULL };

/* The document formats first, in the order an attachment is matched. */
static const struct sw_format formats[] = {
	{ "pdf", ext_pdf, "application/pdf", true, sniff_pdf, sw__extract_pdf },
	{ "docx", ext_docx, NULL, true, sniff_zip, sw__extract_docx },
	{ "email", ext_eml, "message/rfc822", true, NULL, sw__extract_eml },
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
