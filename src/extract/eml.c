/* eml.c - e-mail messages (.eml, RFC 5322 + MIME) with GMime.
 *
 * The document's text starts with the From/To/Cc/Date/Subject headers (so
 * a search for a sender or a subject finds the message), then the body: the
 * text/plain parts, or the text/html ones reduced to text when there is no
 * plain one.  Attachments, and messages forwarded as attachments, are
 * handed back to the importer, which stores them as child documents.
 * Broken MIME (a multipart whose boundary never comes) keeps its raw body as
 * text and says so, rather than losing it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>
#include <jansson.h>

#include "extract/extract_int.h"

#define MAX_NAME_BYTES 200

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;

static void gmime_init(void)
{
	g_mime_init();
}

struct eml {
	struct sw_extract *x;
	struct sw_buf plain, html;
	size_t parts;
	bool too_many, too_deep, broken;
};

/* Header values GMime could not decode may hold raw 8-bit bytes. */
static void add_text(struct sw_buf *b, const char *s, size_t len)
{
	if (sw_utf8_valid(s, len))
		sw_buf_add(b, s, len);
	else
		sw_latin1_to_utf8(b, s, len);
}

static void add_header(struct sw_extract *x, const char *label, const char *key,
		       const char *value)
{
	if (!value || !*value)
		return;
	struct sw_buf v = SW_BUF_INIT;
	add_text(&v, value, strlen(value));
	sw_buf_addf(&x->text, "%s: %s\n", label, v.data);
	json_object_set_new(x->meta, key, sw_json_str(v.data));
	sw_buf_release(&v);
}

static char *addresses(InternetAddressList *list)
{
	if (!list || internet_address_list_length(list) == 0)
		return NULL;
	return internet_address_list_to_string(list, NULL, FALSE);
}

char *sw__extract_attachment_name(const char *name, size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	if (name) {
		const char *slash = strrchr(name, '/'), *bslash = strrchr(name, '\\');
		if (slash && (!bslash || slash > bslash))
			name = slash + 1;
		else if (bslash)
			name = bslash + 1;
		add_text(&b, name, strlen(name));
		for (size_t i = 0; i < b.len; i++)
			if ((unsigned char)b.data[i] < 0x20 || b.data[i] == 0x7f)
				b.data[i] = '_';
		b.len = sw_utf8_cut(b.data, b.len, MAX_NAME_BYTES);
		if (b.data)
			b.data[b.len] = '\0';
		if (b.len && (strcmp(b.data, ".") == 0 || strcmp(b.data, "..") == 0))
			b.len = 0;
	}
	if (b.len == 0) {
		sw_buf_release(&b);
		return sw_xasprintf("attachment-%zu", n);
	}
	return sw_buf_detach(&b, NULL);
}

static void add_attachment(struct eml *e, const char *name, const char *mime,
			   GMimeStream *stream)
{
	struct sw_extract *x = e->x;
	GByteArray *arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(stream));
	x->attach = sw_xgrow(x->attach, &x->capattach, x->nattach + 1, sizeof(*x->attach));
	struct sw_xattach *a = &x->attach[x->nattach++];
	memset(a, 0, sizeof(*a));
	a->name = sw__extract_attachment_name(name, x->nattach);
	a->mime = sw_xstrdup(mime ? mime : "application/octet-stream");
	for (char *c = a->mime; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	if (arr && arr->len)
		sw_buf_add(&a->data, arr->data, arr->len);
}

static void walk(struct eml *e, GMimeObject *obj, int depth)
{
	if (!obj)
		return;
	if (++e->parts > SW_EML_MAX_PARTS) {
		e->too_many = true;
		return;
	}
	if (depth > SW_EML_MAX_DEPTH) {
		e->too_deep = true;
		return;
	}
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);
		if (n == 0) {
			const char *raw = g_mime_multipart_get_prologue(mp);
			if (raw && *raw)
				add_text(&e->plain, raw, strlen(raw));
			e->broken = true;
		}
		for (int i = 0; i < n; i++)
			walk(e, g_mime_multipart_get_part(mp, i), depth + 1);
		return;
	}
	char *mime = g_mime_content_type_get_mime_type(g_mime_object_get_content_type(obj));
	if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		if (inner) {
			GMimeStream *s = g_mime_stream_mem_new();
			g_mime_object_write_to_stream(GMIME_OBJECT(inner), NULL, s);
			const char *subj = g_mime_message_get_subject(inner);
			char *name = sw_xasprintf("%s.eml", subj && *subj ? subj : "message");
			add_attachment(e, name, "message/rfc822", s);
			free(name);
			g_object_unref(s);
		}
		g_free(mime);
		return;
	}
	if (!GMIME_IS_PART(obj)) {
		g_free(mime);
		return;
	}
	GMimePart *part = GMIME_PART(obj);
	bool text = GMIME_IS_TEXT_PART(obj) && mime &&
		    (!g_ascii_strcasecmp(mime, "text/plain") || !g_ascii_strcasecmp(mime, "text/html"));
	if (text && !g_mime_part_is_attachment(part)) {
		char *t = g_mime_text_part_get_text(GMIME_TEXT_PART(obj));
		if (t) {
			struct sw_buf *dst = !g_ascii_strcasecmp(mime, "text/plain") ? &e->plain : &e->html;
			if (dst->len)
				sw_buf_adds(dst, "\n");
			add_text(dst, t, strlen(t));
			g_free(t);
		}
		g_free(mime);
		return;
	}
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *s = g_mime_stream_mem_new();
	if (w)
		g_mime_data_wrapper_write_to_stream(w, s);
	add_attachment(e, g_mime_part_get_filename(part), mime, s);
	g_object_unref(s);
	g_free(mime);
}

int sw__extract_eml(struct sw_extract *x, const char *data, size_t len,
		    const struct sw_extract_opts *opts, struct sw_err *err)
{
	(void)opts;
	struct eml e = { .x = x };
	GMimeStream *stream = NULL;
	GMimeParser *parser = NULL;
	GMimeMessage *msg = NULL;
	char *from = NULL, *to = NULL, *cc = NULL, *date = NULL;
	int rc = 0;

	pthread_once(&gmime_once, gmime_init);
	if (memchr(data, '\0', len))
		return sw_err_set(err, SW_EINPUT, "not an e-mail message: binary data (NUL bytes)");
	stream = g_mime_stream_mem_new_with_buffer(data, len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	if (!msg) {
		rc = sw_err_set(err, SW_EINPUT, "not an e-mail message: its headers cannot be parsed");
		goto cleanup;
	}
	from = addresses(g_mime_message_get_from(msg));
	to = addresses(g_mime_message_get_to(msg));
	cc = addresses(g_mime_message_get_cc(msg));
	GDateTime *dt = g_mime_message_get_date(msg);
	if (dt)
		date = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%S%:z");
	/* The page shows the Date header as the message wrote it ("Wed, 3 Mar
	 * 2021 16:02:11 -0500"), which is what a draft quotes and a reader
	 * recognises; the metadata keeps the ISO form for sorting. */
	const char *raw_date = g_mime_object_get_header(GMIME_OBJECT(msg), "Date");
	const char *subject = g_mime_message_get_subject(msg);
	if (!from && !to && !date && !raw_date && !subject) {
		rc = sw_err_set(err, SW_EINPUT,
				"not an e-mail message: no From, To, Date or Subject header");
		goto cleanup;
	}
	add_header(x, "From", "from", from);
	add_header(x, "To", "to", to);
	add_header(x, "Cc", "cc", cc);
	if (raw_date && *raw_date) {
		struct sw_buf v = SW_BUF_INIT, one = SW_BUF_INIT;
		add_text(&v, raw_date, strlen(raw_date));
		/* Unfolded: a header folded over lines is one line of text. */
		for (const char *c = v.data; *c; c++) {
			bool blank = *c == ' ' || *c == '\t' || *c == '\r' || *c == '\n';
			if (!blank)
				sw_buf_addc(&one, *c);
			else if (one.len && one.data[one.len - 1] != ' ')
				sw_buf_addc(&one, ' ');
		}
		sw_trim(one.data);
		sw_buf_addf(&x->text, "Date: %s\n", one.data);
		json_object_set_new(x->meta, "date_header", sw_json_str(one.data));
		sw_buf_release(&v);
		sw_buf_release(&one);
		if (date)
			json_object_set_new(x->meta, "date", sw_json_str(date));
	} else {
		add_header(x, "Date", "date", date);
	}
	add_header(x, "Subject", "subject", subject);
	const char *mid = g_mime_message_get_message_id(msg);
	if (mid && *mid) {
		struct sw_buf v = SW_BUF_INIT;
		add_text(&v, mid, strlen(mid));
		json_object_set_new(x->meta, "message_id", sw_json_str(v.data));
		sw_buf_release(&v);
	}
	sw_buf_addc(&x->text, '\n');

	walk(&e, g_mime_message_get_mime_part(msg), 0);
	if (e.plain.len) {
		sw_buf_add(&x->text, e.plain.data, e.plain.len);
	} else if (e.html.len) {
		sw__extract_html_to_text(&x->text, e.html.data, e.html.len);
		json_object_set_new(x->meta, "body", json_string("html"));
	}
	if (x->nattach) {
		json_t *names = json_array();
		sw_buf_adds(&x->text, "\n\nAttachments:");
		for (size_t i = 0; i < x->nattach; i++) {
			sw_buf_addf(&x->text, "%s %s", i ? "," : "", x->attach[i].name);
			json_array_append_new(names, sw_json_str(x->attach[i].name));
		}
		sw_buf_addc(&x->text, '\n');
		json_object_set_new(x->meta, "attachments", names);
	}
	sw_extract_page(x);
	if (e.broken)
		sw__extract_warn(x, "malformed MIME: a multipart without its parts (boundary missing"
				 " or never closed); the raw body is kept as text");
	if (e.too_many)
		sw__extract_warn(x, "over %d MIME parts: the rest were not read", SW_EML_MAX_PARTS);
	if (e.too_deep)
		sw__extract_warn(x, "MIME parts nested over %d deep were not read", SW_EML_MAX_DEPTH);
cleanup:
	g_free(from);
	g_free(to);
	g_free(cc);
	g_free(date);
	if (msg)
		g_object_unref(msg);
	if (parser)
		g_object_unref(parser);
	if (stream)
		g_object_unref(stream);
	sw_buf_release(&e.plain);
	sw_buf_release(&e.html);
	return rc;
}

/* ------------------------------------------------------------ HTML to text */

static bool tag_is(const char *tag, size_t n, const char *name)
{
	size_t k = strlen(name);
	return n >= k && g_ascii_strncasecmp(tag, name, k) == 0 &&
	       (n == k || tag[k] == ' ' || tag[k] == '/' || tag[k] == '>' || tag[k] == '\t' ||
		tag[k] == '\n' || tag[k] == '\r');
}

static const char *const block_tags[] = { "p", "br", "div", "tr", "li", "h1", "h2", "h3",
	"h4", "h5", "h6", "blockquote", "table", "ul", "ol", "hr", "pre", NULL };

static void add_codepoint(struct sw_buf *out, unsigned long c)
{
	char u[4];
	if (c == 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		c = 0xfffd;
	if (c < 0x80) {
		sw_buf_addc(out, (char)c);
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		sw_buf_add(out, u, 2);
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		sw_buf_add(out, u, 3);
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		sw_buf_add(out, u, 4);
	}
}

static const struct {
	const char *name;
	unsigned long cp;
} entities[] = {
	{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' },
	{ "nbsp", 0xa0 }, { "sect", 0xa7 }, { "para", 0xb6 }, { "mdash", 0x2014 },
	{ "ndash", 0x2013 }, { "ldquo", 0x201c }, { "rdquo", 0x201d }, { "lsquo", 0x2018 },
	{ "rsquo", 0x2019 }, { "hellip", 0x2026 }, { "copy", 0xa9 },
};

/* Decode the character reference at s (after '&'); returns bytes used, or
 * 0 when it is not one (the '&' is kept as it is). */
static size_t entity(struct sw_buf *out, const char *s, size_t n)
{
	size_t end = 0;
	while (end < n && end < 12 && s[end] != ';')
		end++;
	if (end >= n || s[end] != ';' || end == 0)
		return 0;
	if (s[0] == '#') {
		unsigned long c = 0;
		bool hex = end > 1 && (s[1] == 'x' || s[1] == 'X');
		size_t i = hex ? 2 : 1;
		if (i >= end)
			return 0;
		for (; i < end; i++) {
			int d = g_ascii_xdigit_value(s[i]);
			if (d < 0 || (!hex && d > 9))
				return 0;
			c = c * (hex ? 16 : 10) + (unsigned long)d;
			if (c > 0x10ffff)
				c = 0x110000;
		}
		add_codepoint(out, c);
		return end + 1;
	}
	for (size_t k = 0; k < SW_ARRAY_LEN(entities); k++)
		if (strlen(entities[k].name) == end && !strncmp(s, entities[k].name, end)) {
			add_codepoint(out, entities[k].cp);
			return end + 1;
		}
	return 0;
}

void sw__extract_html_to_text(struct sw_buf *out, const char *html, size_t len)
{
	const char *skip_until = NULL; /* "</script" or "</style" */
	bool space = false;
	for (size_t i = 0; i < len;) {
		char c = html[i];
		if (skip_until) {
			size_t k = strlen(skip_until);
			if (c == '<' && i + k <= len && !g_ascii_strncasecmp(html + i, skip_until, k))
				skip_until = NULL;
			else {
				i++;
				continue;
			}
		}
		if (c == '<') {
			const char *close = memchr(html + i, '>', len - i);
			size_t tlen = close ? (size_t)(close - html) - i - 1 : len - i - 1;
			const char *tag = html + i + 1;
			bool closing = tlen && tag[0] == '/';
			const char *name = closing ? tag + 1 : tag;
			size_t nlen = closing ? tlen - 1 : tlen;
			if (!closing && tag_is(name, nlen, "script"))
				skip_until = "</script";
			else if (!closing && tag_is(name, nlen, "style"))
				skip_until = "</style";
			if (tlen >= 3 && !strncmp(tag, "!--", 3)) {
				const char *endc = g_strstr_len(tag, (gssize)(len - i - 1), "-->");
				close = endc ? endc + 2 : NULL;
			}
			for (size_t b = 0; block_tags[b]; b++)
				if (tag_is(name, nlen, block_tags[b])) {
					while (out->len && out->data[out->len - 1] == ' ')
						out->len--;
					if (!out->len || out->data[out->len - 1] != '\n')
						sw_buf_addc(out, '\n');
					space = false;
					break;
				}
			if (tag_is(name, nlen, "td") || tag_is(name, nlen, "th"))
				space = true;
			i = close ? (size_t)(close - html) + 1 : len;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = true;
			i++;
			continue;
		}
		if (space && out->len && out->data[out->len - 1] != '\n')
			sw_buf_addc(out, ' ');
		space = false;
		if (c == '&') {
			size_t used = entity(out, html + i + 1, len - i - 1);
			if (used) {
				i += used + 1;
				continue;
			}
		}
		sw_buf_addc(out, c);
		i++;
	}
	if (out->data)
		out->data[out->len] = '\0';
}
