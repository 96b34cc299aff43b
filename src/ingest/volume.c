/* volume.c - where the paths a load file names are, inside a production
 * volume, and the guard that keeps them there.
 *
 * Vendors ship a volume as VOL001/DATA/VOL001.DAT beside TEXT/, NATIVES/ and
 * IMAGES/, and write paths relative to the volume root ("TEXT\TEXT001\
 * A.txt"), to the DAT's folder, or to the folder above the volume
 * (".\VOL001\TEXT\..."), with Windows separators.  A path is tried against
 * the DAT's folder, then each parent up to the folder given to `sworn
 * ingest` (the ingest root); the first that names a regular file wins, and
 * a name that differs only in case from the file's matches it, as it would
 * on the Windows machine that wrote the load file.
 *
 * A load file is outside input: a path that is absolute ("C:\...", "/etc/
 * passwd", "\\server\share"), that climbs out of the ingest root ("..\..\
 * secret.txt"), or that reaches out of it through a symbolic link is
 * refused, never read.  Containment is checked on the resolved path
 * (realpath), and the file is then opened with O_NOFOLLOW and checked to be
 * the same file, so a link swapped in after the check is not followed
 * either (a swap of a folder above it in between remains possible: the
 * ingest root is the user's own folder, not an adversary's). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/ingest_int.h"

/* Components of a written path; more is not a path a vendor writes. */
#define VOLUME_MAX_COMPONENTS 64
#define VOLUME_MAX_PATH 4096
/* A load file written on Windows may spell a name in another case than the
 * file has ("TEXT\Text001\A.TXT"); a folder is searched for it only this
 * far, so a miss stays cheap in a folder of a million files. */
#define VOLUME_CI_MAX_ENTRIES 4096

static bool inside(const char *real, const char *root)
{
	size_t n = strlen(root);
	if (strcmp(root, "/") == 0)
		return real[0] == '/';
	return strncmp(real, root, n) == 0 && (real[n] == '\0' || real[n] == '/');
}

/* The ingest root for a load file given by itself: its folder, or the
 * folder above when that is a DATA folder (the vendor layout). */
char *sw__ingest_volume_root_for(const char *dat)
{
	char *dir = sw_path_dir(dat);
	if (sw_streq_ci(sw_path_base(dir), "DATA")) {
		char *up = sw_path_dir(dir);
		free(dir);
		return up;
	}
	return dir;
}

int sw__ingest_volume_open(struct sw__ingest_volume *v, const char *dat, const char *root,
		    struct sw_err *err)
{
	char *dir = sw_path_dir(dat);
	char *rdir = realpath(dir, NULL);
	char *rroot = realpath(root, NULL);
	int rc = 0;

	memset(v, 0, sizeof(*v));
	if (!rdir) {
		rc = sw_err_set(err, SW_EIO, "cannot resolve folder '%s': %s", dir, strerror(errno));
		goto cleanup;
	}
	if (!rroot || !inside(rdir, rroot)) {
		/* The root must hold the DAT; when it does not (the DAT was
		 * reached through a link), the DAT's folder is the bound. */
		free(rroot);
		rroot = sw_xstrdup(rdir);
		root = dir;
	}
	v->root = rroot;
	rroot = NULL;
	/* Each folder from the DAT's up to the root, as real paths and as
	 * the user would write them (the root as given, then the rest). */
	size_t cap = 0, rlen = strlen(v->root);
	char *cur = sw_xstrdup(rdir);
	for (;;) {
		v->bases = sw_xgrow(v->bases, &cap, v->nbases + 1, sizeof(*v->bases));
		v->shown = sw_xrealloc(v->shown, cap * sizeof(*v->shown));
		v->bases[v->nbases] = cur;
		const char *tail = cur + (strcmp(v->root, "/") == 0 ? 0 : rlen);
		v->shown[v->nbases] = sw_xasprintf("%s%s", root, tail);
		v->nbases++;
		if (strcmp(cur, v->root) == 0)
			break;
		cur = sw_path_dir(cur);
	}
cleanup:
	free(dir);
	free(rdir);
	free(rroot);
	return rc;
}

void sw__ingest_volume_release(struct sw__ingest_volume *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->ndirs; i++) {
		free(v->dirs[i].dir);
		free(v->dirs[i].real);
	}
	for (size_t i = 0; i < v->nbases; i++) {
		free(v->bases[i]);
		free(v->shown[i]);
	}
	free(v->bases);
	free(v->shown);
	free(v->root);
	memset(v, 0, sizeof(*v));
}

/* Split a written path into its components: separators either way, "."
 * and empty components dropped, ".." kept.  Returns the count, or -1 when
 * the path is absolute (*why says how) or too long. */
static int split(char **comp, char *p, const char **why)
{
	int n = 0;
	if ((p[0] == '/' && p[1] == '/'))
		return *why = "a network path (\\\\server\\share)", -1;
	if (p[0] == '/')
		return *why = "an absolute path", -1;
	if (((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') && p[1] == ':')
		return *why = "an absolute Windows path (drive letter)", -1;
	for (char *s = p; *s;) {
		char *e = s;
		while (*e && *e != '/')
			e++;
		bool last = *e == '\0';
		*e = '\0';
		if (*s && strcmp(s, ".") != 0) {
			if (n >= VOLUME_MAX_COMPONENTS)
				return *why = "a path of too many parts", -1;
			comp[n++] = s;
		}
		if (last)
			break;
		s = e + 1;
	}
	return n;
}

/* path (absolute, under root) with each component that does not exist
 * replaced by the one entry of its folder that matches it without regard
 * to case; NULL when a component has no such match.  Caller frees. */
static char *case_fold_path(const char *path, const char *root)
{
	size_t rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
	struct sw_buf cur = SW_BUF_INIT;
	char *rest = sw_xstrdup(path + rlen);
	char *out = NULL;

	sw_buf_add(&cur, path, rlen);
	for (char *c = rest; *c;) {
		while (*c == '/')
			c++;
		if (!*c)
			break;
		char *e = strchr(c, '/');
		if (e)
			*e = '\0';
		size_t keep = cur.len;
		sw_buf_addf(&cur, "/%s", c);
		struct stat st;
		if (lstat(cur.data, &st) != 0) {
			sw_buf_truncate(&cur, keep);
			DIR *d = opendir(cur.len ? cur.data : "/");
			struct dirent *de;
			size_t seen = 0;
			bool found = false;
			while (d && !found && seen++ < VOLUME_CI_MAX_ENTRIES && (de = readdir(d)) != NULL)
				if (strcasecmp(de->d_name, c) == 0) {
					sw_buf_addf(&cur, "/%s", de->d_name);
					found = true;
				}
			if (d)
				closedir(d);
			if (!found)
				goto cleanup;
		}
		if (!e)
			break;
		c = e + 1;
	}
	out = sw_buf_detach(&cur, NULL);
cleanup:
	sw_buf_release(&cur);
	free(rest);
	return out;
}

/* The real path of folder dir (NULL when it does not resolve), from the
 * volume's memory of folders or realpath, remembered (borrowed). */
static const char *real_dir(struct sw__ingest_volume *v, const char *dir)
{
	for (size_t i = 0; i < v->ndirs; i++)
		if (strcmp(v->dirs[i].dir, dir) == 0)
			return v->dirs[i].real;
	struct sw__ingest_dir *d = &v->dirs[v->next_dir];
	if (v->ndirs < SW__INGEST_DIRS)
		v->ndirs++;
	else {
		free(d->dir);
		free(d->real);
	}
	v->next_dir = (v->next_dir + 1) % SW__INGEST_DIRS;
	d->dir = sw_xstrdup(dir);
	d->real = realpath(dir, NULL);
	return d->real;
}

/* The real path of cand, as realpath gives it, but with its folder's from
 * real_dir: a name that is no symbolic link costs one lstat.  NULL, errno
 * set, when it does not resolve. */
static char *real_file(struct sw__ingest_volume *v, char *cand)
{
	char *slash = strrchr(cand, '/');
	if (!slash || slash == cand || !slash[1])
		return realpath(cand, NULL);
	*slash = '\0';
	const char *dir = real_dir(v, cand);
	*slash = '/';
	if (!dir) {
		errno = ENOENT;
		return NULL;
	}
	char *path = sw_xasprintf("%s%s", strcmp(dir, "/") == 0 ? "" : dir, slash);
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode))
		return path;
	free(path);
	return realpath(cand, NULL);
}

int sw__ingest_volume_resolve(char **out, struct sw__ingest_volume *v, const char *written,
			      struct sw_err *err)
{
	char *comp[VOLUME_MAX_COMPONENTS];
	const char *why = NULL;
	struct sw_buf tried = SW_BUF_INIT;
	char *p = NULL;
	bool escaped = false, outside = false;
	int rc = 0;

	*out = NULL;
	size_t wlen = strnlen(written, VOLUME_MAX_PATH + 1);
	if (wlen > VOLUME_MAX_PATH)
		return sw_err_set(err, SW_EINPUT, "refused: the path is over %d bytes",
				  VOLUME_MAX_PATH);
	p = sw_xstrdup(written);
	sw_trim(p);
	for (char *c = p; *c; c++)
		if (*c == '\\')
			*c = '/';
	if (!p[0]) {
		rc = sw_err_set(err, SW_EINPUT, "empty path");
		goto cleanup;
	}
	int n = split(comp, p, &why);
	if (n < 0) {
		rc = sw_err_set(err, SW_EINPUT, "refused: %s, not a path inside the volume", why);
		goto cleanup;
	}
	if (n == 0) {
		rc = sw_err_set(err, SW_EINPUT, "empty path");
		goto cleanup;
	}
	for (size_t b = 0; b < v->nbases; b++) {
		/* Apply the components to the base lexically, so that ".."
		 * is checked against the root before anything is opened. */
		struct sw_buf cand = SW_BUF_INIT;
		sw_buf_adds(&cand, v->bases[b]);
		size_t floor = strlen(v->root);
		bool esc = false;
		for (int i = 0; i < n && !esc; i++) {
			if (strcmp(comp[i], "..") == 0) {
				char *slash = strrchr(cand.data, '/');
				if (cand.len <= floor || !slash || (size_t)(slash - cand.data) < floor) {
					esc = true;
					break;
				}
				cand.len = (size_t)(slash - cand.data);
				cand.data[cand.len] = '\0';
				if (cand.len == 0)
					sw_buf_addc(&cand, '/');
			} else {
				if (cand.len && cand.data[cand.len - 1] != '/')
					sw_buf_addc(&cand, '/');
				sw_buf_adds(&cand, comp[i]);
			}
		}
		if (esc) {
			escaped = true;
			sw_buf_release(&cand);
			continue;
		}
		if (tried.len)
			sw_buf_adds(&tried, ", ");
		sw_buf_adds(&tried, v->shown[b]);
		char *real = real_file(v, cand.data);
		if (!real && errno == ENOENT && !v->exact) {
			char *folded = case_fold_path(cand.data, v->root);
			real = folded ? realpath(folded, NULL) : NULL;
			free(folded);
		}
		sw_buf_release(&cand);
		if (!real)
			continue;
		struct stat st;
		if (!inside(real, v->root)) {
			outside = true;
			free(real);
			continue;
		}
		if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(real);
			continue;
		}
		*out = real;
		goto cleanup;
	}
	if (outside)
		rc = sw_err_set(err, SW_EINPUT,
				"refused: it leads out of the ingest folder '%s' through a symbolic link",
				v->shown[v->nbases - 1]);
	else if (escaped && !tried.len)
		rc = sw_err_set(err, SW_EINPUT, "refused: '..' climbs out of the ingest folder '%s'",
				v->shown[v->nbases - 1]);
	else
		rc = sw_err_set(err, SW_ENOTFOUND, "not found; looked in %s%s", tried.data,
				escaped ? " ('..' climbs out of the ingest folder from the others)" : "");
cleanup:
	sw_buf_release(&tried);
	free(p);
	return rc;
}

/* The resolved file real opened with O_NOFOLLOW, checked to be the file
 * stat saw and at most limit bytes long (its size in *size); -1 on error. */
static int open_resolved(const char *real, size_t limit, size_t *size, struct sw_err *err)
{
	struct stat before, st;
	if (stat(real, &before) != 0) {
		(void)sw_err_set(err, SW_EIO, "cannot read '%s': %s", real, strerror(errno));
		return -1;
	}
	int fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		(void)sw_err_set(err, errno == ELOOP ? SW_EINPUT : SW_EIO, "cannot read '%s': %s",
				 real, errno == ELOOP ? "it became a symbolic link" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != before.st_dev ||
	    st.st_ino != before.st_ino) {
		(void)sw_err_set(err, SW_EINPUT, "cannot read '%s': it changed while being opened",
				 real);
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > limit) {
		(void)sw_err_set(err, SW_ELIMIT, "'%s' is larger than %zu bytes", real, limit);
		close(fd);
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

int sw__ingest_volume_map(struct sw_map *out, const char *real, size_t limit,
			  struct sw_err *err)
{
	size_t size = 0;
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	int fd = open_resolved(real, limit, &size, err);
	if (fd < 0)
		return err->code ? err->code : SW_EIO;
	if (size == 0) {
		close(fd);
		return sw_err_set(err, SW_EINPUT, "cannot map '%s': the file is empty", real);
	}
	void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;
		close(fd);
		return sw_err_set(err, SW_EIO, "cannot map '%s': %s", real, strerror(e));
	}
	out->data = p;
	out->len = size;
	out->fd = fd;
	return 0;
}

int sw__ingest_volume_read(struct sw_buf *out, const char *real, size_t limit,
		    struct sw_err *err)
{
	size_t size = 0;
	int fd, rc = 0;

	sw_buf_reset(out);
	fd = open_resolved(real, limit, &size, err);
	if (fd < 0)
		return err->code ? err->code : SW_EIO;
	for (;;) {
		sw_buf_grow(out, 65536);
		ssize_t r = read(fd, out->data + out->len, out->cap - out->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", real, strerror(errno));
			goto cleanup;
		}
		if (r == 0)
			break;
		out->len += (size_t)r;
		out->data[out->len] = '\0';
		if (out->len > limit) {
			rc = sw_err_set(err, SW_ELIMIT, "'%s' is larger than %zu bytes", real, limit);
			goto cleanup;
		}
	}
cleanup:
	if (fd >= 0)
		close(fd);
	return rc;
}
