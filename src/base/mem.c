/* mem.c - allocation that aborts on failure, growable buffers, arenas. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

char sw_buf_empty[1];

SW_NORETURN static void out_of_memory(size_t size)
{
	fprintf(stderr, "sworn: fatal: out of memory allocating %zu bytes\n", size);
	abort();
}

void *sw_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *sw_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *sw_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		out_of_memory(size);
	return q;
}

void *sw_xgrow(void *p, size_t *cap, size_t need, size_t item)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			out_of_memory(SIZE_MAX);
		ncap *= 2;
	}
	if (item && ncap > SIZE_MAX / item)
		out_of_memory(SIZE_MAX);
	p = sw_xrealloc(p, ncap * item);
	*cap = ncap;
	return p;
}

char *sw_xstrdup(const char *s)
{
	return sw_xstrndup(s, strlen(s));
}

char *sw_xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = sw_xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *sw_xasprintf(const char *fmt, ...)
{
	struct sw_buf b = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return sw_buf_detach(&b, NULL);
}

/* ------------------------------------------------------------------ buffers */

void sw_buf_init(struct sw_buf *b)
{
	b->data = sw_buf_empty;
	b->len = 0;
	b->cap = 0;
}

void sw_buf_release(struct sw_buf *b)
{
	if (!b)
		return;
	if (b->cap)
		free(b->data);
	sw_buf_init(b);
}

void sw_buf_reset(struct sw_buf *b)
{
	sw_buf_truncate(b, 0);
}

void sw_buf_grow(struct sw_buf *b, size_t extra)
{
	if (extra >= SIZE_MAX - b->len - 1)
		out_of_memory(SIZE_MAX);
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t ncap = b->cap ? b->cap : 64;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	if (b->cap) {
		b->data = sw_xrealloc(b->data, ncap);
	} else {
		b->data = sw_xmalloc(ncap);
		b->data[0] = '\0';
	}
	b->cap = ncap;
}

void sw_buf_add(struct sw_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	sw_buf_grow(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void sw_buf_addc(struct sw_buf *b, char c)
{
	sw_buf_grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void sw_buf_adds(struct sw_buf *b, const char *s)
{
	sw_buf_add(b, s, strlen(s));
}

void sw_buf_vaddf(struct sw_buf *b, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	char small[256];
	int n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	if (n < 0)
		SW_BUG("bad format string '%s'", fmt);
	if ((size_t)n < sizeof(small)) {
		sw_buf_add(b, small, (size_t)n);
		return;
	}
	sw_buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void sw_buf_addf(struct sw_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void sw_buf_truncate(struct sw_buf *b, size_t len)
{
	if (len > b->len)
		SW_BUG("truncate to %zu beyond length %zu", len, b->len);
	b->len = len;
	if (b->cap)
		b->data[len] = '\0';
}

char *sw_buf_detach(struct sw_buf *b, size_t *out_len)
{
	char *p = b->cap ? b->data : sw_xstrdup("");
	if (out_len)
		*out_len = b->len;
	sw_buf_init(b);
	return p;
}

/* ------------------------------------------------------------------- arenas */

struct sw_arena_block {
	struct sw_arena_block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

void sw_arena_init(struct sw_arena *a, size_t block_size)
{
	memset(a, 0, sizeof(*a));
	a->block_size = block_size ? block_size : 64 * 1024;
}

void *sw_arena_alloc(struct sw_arena *a, size_t size)
{
#ifdef SW_DEBUG_ARENA
	void *p = sw_xcalloc(1, size);
	a->debug_ptrs = sw_xgrow(a->debug_ptrs, &a->debug_cap, a->debug_n + 1,
				 sizeof(void *));
	a->debug_ptrs[a->debug_n++] = p;
	return p;
#else
	if (size > SIZE_MAX - 32)
		out_of_memory(size);
	size_t rounded = (size + 15) & ~(size_t)15;
	struct sw_arena_block *blk = a->head;
	if (!blk || blk->size - blk->used < rounded) {
		size_t bsize = a->block_size ? a->block_size : 64 * 1024;
		if (rounded > bsize / 4)
			bsize = rounded; /* big items get a block of their own */
		blk = sw_xmalloc(sizeof(*blk) + bsize);
		blk->used = 0;
		blk->size = bsize;
		if (a->head && rounded == bsize) {
			/* Keep the current block in front: it may still have room. */
			blk->next = a->head->next;
			a->head->next = blk;
		} else {
			blk->next = a->head;
			a->head = blk;
		}
	}
	void *p = blk->data + blk->used;
	blk->used += rounded;
	memset(p, 0, size);
	return p;
#endif
}

char *sw_arena_strndup(struct sw_arena *a, const char *s, size_t n)
{
	char *p = sw_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sw_arena_strdup(struct sw_arena *a, const char *s)
{
	return sw_arena_strndup(a, s, strlen(s));
}

void sw_arena_release(struct sw_arena *a)
{
	if (!a)
		return;
#ifdef SW_DEBUG_ARENA
	for (size_t i = 0; i < a->debug_n; i++)
		free(a->debug_ptrs[i]);
	free(a->debug_ptrs);
	a->debug_ptrs = NULL;
	a->debug_n = a->debug_cap = 0;
#endif
	struct sw_arena_block *b = a->head;
	while (b) {
		struct sw_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
}
