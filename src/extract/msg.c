/* msg.c - Outlook messages (.msg: MAPI properties in an OLE2 compound file)
 * with libgsf, read as eml.c reads an .eml: From/To/Cc/Date/Subject at the
 * head of the text and in the metadata, then the body (the plain one, or
 * the HTML one reduced to text), the attachments handed back to the
 * importer as child documents.
 *
 * A message is a tree of streams named __substg1.0_TTTTYYYY: TTTT the
 * property (0037 subject, 0C1A sender name, 1000 body...), YYYY its type
 * (001F UTF-16LE, 001E 8-bit, 0102 binary).  Fixed-size properties (the
 * dates) are 16-byte entries of __properties_version1.0.  Each attachment
 * is a storage __attach_version1.0_#NNNNNNNN with its name and bytes.
 * An attachment that is itself a message (an embedded .msg) is named in the
 * text and a warning, not read. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsf/gsf.h>
#include <jansson.h>

#include "extract/extract_int.h"


static pthread_once_t gsf_once = PTHREAD_ONCE_INIT;

static void gsf_start(void)
{
	gsf_init();
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The compound file's root directory entry (the first of the first
 * directory sector) has no siblings, as the format requires.  libgsf reads
 * a root's siblings as further roots and loses them (a leak per hostile
 * file: tests/fuzz/corpus/msg/regress-libgsf-dirent-leak), so such a file
 * is refused before libgsf sees it.  A header too short or odd to tell is
 * left to libgsf, which refuses it. */
static bool root_has_siblings(const char *data, size_t len)
{
	const unsigned char *d = (const unsigned char *)data;
	if (len < 512)
		return false;
	unsigned shift = (unsigned)d[0x1E] | (unsigned)d[0x1F] << 8;
	if (shift != 9 && shift != 12)
		return false;
	uint64_t at = ((uint64_t)le32(d + 0x30) + 1) << shift;
	if (at > len || len - at < 128)
		return false;
	return le32(d + at + 0x44) != 0xFFFFFFFFu || le32(d + at + 0x48) != 0xFFFFFFFFu;
}

/* The bytes of stream name of dir into out (replacing its contents);
 * false when there is no such stream or it cannot be read. */
static bool read_stream(struct sw_buf *out, GsfInfile *dir, const char *name)
{
	GsfInput *in = gsf_infile_child_by_name(dir, name);
	bool ok = false;
	sw_buf_reset(out);
	if (!in)
		return false;
	gsf_off_t size = gsf_input_size(in);
	if (size >= 0 && (uint64_t)size <= SW_EXTRACT_MAX_FILE_BYTES) {
		ok = true;
		for (gsf_off_t left = size; left > 0 && ok;) {
			size_t n = left > 65536 ? 65536 : (size_t)left;
			const guint8 *p = gsf_input_read(in, n, NULL);
			if (!p)
				ok = false;
			else
				sw_buf_add(out, p, n);
			left -= (gsf_off_t)n;
		}
	}
	g_object_unref(in);
	return ok;
}

/* A string property as UTF-8 into out: the UTF-16LE form (001F), else the
 * 8-bit one (001E, UTF-8 or else Windows-1252); trailing NULs dropped.
 * False when the message has neither. */
static bool read_string(struct sw_buf *out, GsfInfile *dir, const char *tag)
{
	struct sw_buf raw = SW_BUF_INIT;
	char name[40];
	bool ok = false;
	sw_buf_reset(out);
	snprintf(name, sizeof(name), "__substg1.0_%s001F", tag);
	if (read_stream(&raw, dir, name)) {
		glong n = (glong)(raw.len / 2);
		while (n > 0 && raw.data[2 * n - 2] == 0 && raw.data[2 * n - 1] == 0)
			n--;
		/* UTF-16LE by hand: the stream's bytes need not be aligned. */
		for (glong i = 0; i < n; i++) {
			unsigned c = (unsigned char)raw.data[2 * i] |
				     (unsigned)(unsigned char)raw.data[2 * i + 1] << 8;
			if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
				unsigned d = (unsigned char)raw.data[2 * i + 2] |
					     (unsigned)(unsigned char)raw.data[2 * i + 3] << 8;
				if (d >= 0xdc00 && d < 0xe000) {
					c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
					i++;
				} else {
					c = 0xfffd;
				}
			} else if (c >= 0xd800 && c < 0xe000) {
				c = 0xfffd;
			}
			char u[8];
			int k = g_unichar_to_utf8((gunichar)c, u);
			sw_buf_add(out, u, (size_t)k);
		}
		ok = true;
	} else {
		snprintf(name, sizeof(name), "__substg1.0_%s001E", tag);
		if (read_stream(&raw, dir, name)) {
			size_t n = raw.len;
			while (n > 0 && raw.data[n - 1] == 0)
				n--;
			if (sw_utf8_valid(raw.data, n))
				sw_buf_add(out, raw.data, n);
			else
				sw_latin1_to_utf8(out, raw.data, n);
			ok = true;
		}
	}
	sw_buf_release(&raw);
	if (ok && memchr(out->data, '\0', out->len))
		out->len = strlen(out->data);
	return ok && out->len > 0;
}

static void add_header(struct sw_extract *x, const char *label, const char *key,
		       const char *value)
{
	if (!value || !*value)
		return;
	struct sw_buf one = SW_BUF_INIT;
	for (const char *c = value; *c; c++) /* one line, as a header is */
		sw_buf_addc(&one, (*c == '\r' || *c == '\n') ? ' ' : *c);
	sw_buf_addf(&x->text, "%s: %s\n", label, one.data);
	json_object_set_new(x->meta, key, sw_json_str(one.data));
	sw_buf_release(&one);
}

/* The message's submit (else delivery) time from the fixed-size property
 * entries, as "YYYY-MM-DDTHH:MM:SSZ" into out; false when it has neither. */
static bool read_date(char out[32], GsfInfile *msg)
{
	struct sw_buf p = SW_BUF_INIT;
	uint64_t best = 0;
	if (read_stream(&p, msg, "__properties_version1.0")) {
		/* A top-level message's entries start after a 32-byte header. */
		for (size_t off = 32; off + 16 <= p.len; off += 16) {
			const unsigned char *e = (const unsigned char *)p.data + off;
			uint32_t tag = (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 |
				       (uint32_t)e[3] << 24;
			uint64_t v = 0;
			for (int i = 7; i >= 0; i--)
				v = v << 8 | e[8 + i];
			if (tag == 0x00390040u || (tag == 0x0e060040u && !best))
				best = v;
		}
	}
	sw_buf_release(&p);
	/* FILETIME: 100 ns ticks since 1601-01-01. */
	const uint64_t unix_1970 = 116444736000000000ull;
	if (best <= unix_1970)
		return false;
	time_t t = (time_t)((best - unix_1970) / 10000000ull);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return false;
	return true;
}

/* Each attachment storage of msg, in order. */
static void read_attachments(struct sw_extract *x, GsfInfile *msg, struct sw_buf *embedded)
{
	struct sw_buf name = SW_BUF_INIT, mime = SW_BUF_INIT;
	int nkids = gsf_infile_num_children(msg);
	for (int i = 0; i < nkids; i++) {
		const char *kid = gsf_infile_name_by_index(msg, i);
		if (!kid || strncmp(kid, "__attach_version1.0_#", 21) != 0)
			continue;
		GsfInput *in = gsf_infile_child_by_index(msg, i);
		if (!in)
			continue;
		GsfInfile *att = GSF_IS_INFILE(in) ? GSF_INFILE(in) : NULL;
		if (!att) {
			g_object_unref(in);
			continue;
		}
		if (x->nattach >= SW_MSG_MAX_ATTACH) {
			sw__extract_warn(x, "over %d attachments: the rest were not read",
					 SW_MSG_MAX_ATTACH);
			g_object_unref(in);
			break;
		}
		/* The long file name, else the 8.3 one, else the display name. */
		if (!read_string(&name, att, "3707") && !read_string(&name, att, "3704"))
			read_string(&name, att, "3001");
		{
			const char *shown = name.len ? name.data : "";
			GsfInput *obj = gsf_infile_child_by_name(att, "__substg1.0_3701000D");
			if (obj) { /* an embedded message */
				g_object_unref(obj);
				sw_buf_addf(embedded, "%s%s", embedded->len ? ", " : "",
					    *shown ? shown : "(unnamed)");
			} else {
				x->attach = sw_xgrow(x->attach, &x->capattach, x->nattach + 1,
						     sizeof(*x->attach));
				struct sw_xattach *a = &x->attach[x->nattach++];
				memset(a, 0, sizeof(*a));
				a->name = sw__extract_attachment_name(shown, x->nattach);
				a->mime = sw_xstrdup(read_string(&mime, att, "370E") ? mime.data
							: "application/octet-stream");
				for (char *c = a->mime; *c; c++)
					if (*c >= 'A' && *c <= 'Z')
						*c = (char)(*c - 'A' + 'a');
				a->data = (struct sw_buf)SW_BUF_INIT;
				read_stream(&a->data, att, "__substg1.0_37010102");
			}
		}
		g_object_unref(in);
	}
	sw_buf_release(&name);
	sw_buf_release(&mime);
}

int sw__extract_msg(struct sw_extract *x, const char *data, size_t len,
		    const struct sw_extract_opts *opts, struct sw_err *err)
{
	(void)opts;
	GsfInput *in = NULL;
	GsfInfile *msg = NULL;
	GError *gerr = NULL;
	struct sw_buf v = SW_BUF_INIT, embedded = SW_BUF_INIT;
	char date[32];
	int rc = 0;

	if (root_has_siblings(data, len)) {
		rc = sw_err_set(err, SW_EINPUT,
				"not an Outlook message: its root directory entry has siblings"
				" (a malformed compound file)");
		goto cleanup;
	}
	pthread_once(&gsf_once, gsf_start);
	in = gsf_input_memory_new((const guint8 *)data, (gsf_off_t)len, FALSE);
	if (in)
		msg = gsf_infile_msole_new(in, &gerr);
	if (!msg) {
		rc = sw_err_set(err, SW_EINPUT, "not an Outlook message: %s",
				gerr && gerr->message ? gerr->message : "not an OLE2 compound file");
		goto cleanup;
	}
	bool any = false;
	struct sw_buf from = SW_BUF_INIT, addr = SW_BUF_INIT;
	if (read_string(&from, msg, "0C1A")) {
		any = true;
		if (read_string(&addr, msg, "5D01") || read_string(&addr, msg, "0C1F")) {
			if (strchr(addr.data, '@') && !strstr(from.data, addr.data))
				sw_buf_addf(&from, " <%s>", addr.data);
		}
	} else if (read_string(&from, msg, "0C1F") || read_string(&from, msg, "5D01")) {
		any = true;
	}
	add_header(x, "From", "from", from.data);
	sw_buf_release(&from);
	sw_buf_release(&addr);
	if (read_string(&v, msg, "0E04")) {
		any = true;
		add_header(x, "To", "to", v.data);
	}
	if (read_string(&v, msg, "0E03"))
		add_header(x, "Cc", "cc", v.data);
	if (read_date(date, msg)) {
		any = true;
		add_header(x, "Date", "date", date);
	}
	if (read_string(&v, msg, "0037")) {
		any = true;
		add_header(x, "Subject", "subject", v.data);
	}
	if (!any) {
		rc = sw_err_set(err, SW_EINPUT,
				"not an Outlook message: no sender, recipients, date or subject");
		goto cleanup;
	}
	sw_buf_addc(&x->text, '\n');
	if (read_string(&v, msg, "1000")) {
		sw_buf_add(&x->text, v.data, v.len);
	} else if (read_stream(&v, msg, "__substg1.0_10130102") ||
		   read_string(&v, msg, "1013")) {
		sw__extract_html_to_text(&x->text, v.data, v.len);
		json_object_set_new(x->meta, "body", json_string("html"));
	}
	read_attachments(x, msg, &embedded);
	if (x->nattach || embedded.len) {
		json_t *names = json_array();
		sw_buf_adds(&x->text, "\n\nAttachments:");
		for (size_t i = 0; i < x->nattach; i++) {
			sw_buf_addf(&x->text, "%s %s", i ? "," : "", x->attach[i].name);
			json_array_append_new(names, sw_json_str(x->attach[i].name));
		}
		if (embedded.len)
			sw_buf_addf(&x->text, "%s %s", x->nattach ? "," : "", embedded.data);
		sw_buf_addc(&x->text, '\n');
		json_object_set_new(x->meta, "attachments", names);
	}
	sw_extract_page(x);
	if (embedded.len)
		sw__extract_warn(x, "attached messages not read: %s", embedded.data);
cleanup:
	if (gerr)
		g_error_free(gerr);
	if (msg)
		g_object_unref(msg);
	if (in)
		g_object_unref(in);
	sw_buf_release(&v);
	sw_buf_release(&embedded);
	return rc;
}
