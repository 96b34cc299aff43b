/* pages.c - what an extraction owns: its text, its pages as byte ranges
 * of the text, its metadata, attachments and warnings. */
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
