/* msg_gen.c - writes an Outlook .msg for the tests, as Outlook lays one out:
 * an OLE2 compound file (libgsf's writer) holding the MAPI property
 * streams __substg1.0_TTTTYYYY (strings as UTF-16LE, type 001F), the
 * fixed-size properties (the submit time) in __properties_version1.0, and
 * one storage __attach_version1.0_#0000000N per attachment with its file
 * name (3707001F), MIME type (370E001F) and bytes (37010102).  No Debian
 * tool writes a .msg; test code only.
 *
 *   msg_gen OUT.msg SUBJECT SENDER_NAME SENDER_ADDR TO BODY [NAME=FILE]...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsf/gsf.h>

static void put(GsfOutfile *dir, const char *name, const void *data, size_t len)
{
	GsfOutput *o = gsf_outfile_new_child(dir, name, FALSE);
	if (!o || !gsf_output_write(o, len, data) || !gsf_output_close(o)) {
		fprintf(stderr, "msg_gen: cannot write %s\n", name);
		exit(1);
	}
	g_object_unref(o);
}

/* A string property as UTF-16LE, type 001F. */
static void put_string(GsfOutfile *dir, const char *tag, const char *utf8)
{
	glong n = 0;
	gunichar2 *u = g_utf8_to_utf16(utf8, -1, NULL, &n, NULL);
	if (!u)
		exit(1);
	unsigned char *le = malloc((size_t)n * 2 + 1);
	for (glong i = 0; i < n; i++) {
		le[2 * i] = (unsigned char)(u[i] & 0xff);
		le[2 * i + 1] = (unsigned char)(u[i] >> 8);
	}
	char name[40];
	snprintf(name, sizeof(name), "__substg1.0_%s001F", tag);
	put(dir, name, le, (size_t)n * 2);
	free(le);
	g_free(u);
}

static char *slurp(const char *path, size_t *len)
{
	gchar *data = NULL;
	gsize n = 0;
	if (!g_file_get_contents(path, &data, &n, NULL)) {
		fprintf(stderr, "msg_gen: cannot read %s\n", path);
		exit(1);
	}
	*len = n;
	return data;
}

int main(int argc, char **argv)
{
	if (argc < 7) {
		fprintf(stderr, "usage: msg_gen OUT SUBJECT SENDER_NAME SENDER_ADDR TO BODY [NAME=FILE]...\n");
		return 2;
	}
	gsf_init();
	GError *gerr = NULL;
	GsfOutput *file = gsf_output_stdio_new(argv[1], &gerr);
	if (!file) {
		fprintf(stderr, "msg_gen: %s\n", gerr->message);
		return 1;
	}
	GsfOutfile *msg = gsf_outfile_msole_new(file);
	put_string(msg, "001A", "IPM.Note");
	put_string(msg, "0037", argv[2]);
	put_string(msg, "0C1A", argv[3]);
	put_string(msg, "5D01", argv[4]);
	put_string(msg, "0E04", argv[5]);
	put_string(msg, "1000", argv[6]);
	/* The header (32 bytes for a message) and PR_CLIENT_SUBMIT_TIME,
	 * 2021-03-03T21:02:11Z as a FILETIME. */
	unsigned char props[48] = { 0 };
	unsigned long long ft = (1614805331ull * 10000000ull) + 116444736000000000ull;
	const unsigned char tag[4] = { 0x40, 0x00, 0x39, 0x00 };
	memcpy(props + 32, tag, 4);
	props[36] = 0x06; /* readable, writable */
	for (int i = 0; i < 8; i++)
		props[40 + i] = (unsigned char)(ft >> (8 * i));
	put(msg, "__properties_version1.0", props, sizeof(props));
	for (int i = 7; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			return 2;
		*eq = '\0';
		char name[40];
		snprintf(name, sizeof(name), "__attach_version1.0_#%08X", (unsigned)(i - 7));
		GsfOutfile *att = GSF_OUTFILE(gsf_outfile_new_child(msg, name, TRUE));
		size_t len = 0;
		char *data = slurp(eq + 1, &len);
		put_string(att, "3707", argv[i]);
		put_string(att, "370E", "text/plain");
		put(att, "__substg1.0_37010102", data, len);
		g_free(data);
		gsf_output_close(GSF_OUTPUT(att));
		g_object_unref(att);
	}
	if (!gsf_output_close(GSF_OUTPUT(msg)))
		return 1;
	g_object_unref(msg);
	g_object_unref(file);
	return 0;
}
