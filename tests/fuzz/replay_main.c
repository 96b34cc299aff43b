/*
 * Replays a fuzz target's saved corpus as an ordinary test, so every build
 * (gcc, ASan+UBSan) re-runs the inputs that once found bugs or cover the
 * grammar.  Arguments are files or folders; an empty or missing corpus fails,
 * because a replay that runs nothing proves nothing.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open '%s'\n", path);
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			uint8_t *grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				buf = NULL;
			}
			buf = grown;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	/* The input in a block of exactly its size, as libFuzzer hands it
	 * over, so that ASan sees a read one byte past its end. */
	uint8_t *exact = malloc(len);
	if (!exact && len) {
		free(buf);
		return -1;
	}
	if (len)
		memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int run_path(const char *path, int *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: no such corpus '%s'\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (run_file(path) != 0)
			return -1;
		(*count)++;
		return 0;
	}
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		size_t need = strlen(path) + strlen(e->d_name) + 2;
		char *child = malloc(need);
		if (!child) {
			rc = -1;
			break;
		}
		snprintf(child, need, "%s/%s", path, e->d_name);
		if (run_path(child, count) != 0)
			rc = -1;
		free(child);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int count = 0;
	for (int i = 1; i < argc; i++)
		if (run_path(argv[i], &count) != 0)
			return 1;
	if (count == 0) {
		fprintf(stderr, "replay: the corpus is empty\n");
		return 1;
	}
	printf("replayed %d input(s)\n", count);
	return 0;
}
