/* task_files.c - where a task's files come from: the built-in tasks
 * embedded in the binary, or a workspace's own tasks/NAME/ folder; listing
 * them and copying a built-in one out to edit.
 *
 * A workspace task's file is read only when it is a regular file in the
 * task's folder: a symbolic link is refused (it would make another
 * matter's final, or any file the user can read, a template sent to a
 * model), and so is a FIFO or a device (a FIFO would hang the draft
 * waiting for a writer). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline/pipeline.h"
#include "pipeline/pipeline_int.h"

/* The embedded file "name/file", or NULL. */
static const struct sw__pipeline_task_file *builtin_file(const char *name, const char *file)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < sw__pipeline_task_nfiles; i++) {
		const char *p = sw__pipeline_task_files[i].path;
		if (strncmp(p, name, nl) == 0 && p[nl] == '/' && strcmp(p + nl + 1, file) == 0)
			return &sw__pipeline_task_files[i];
	}
	return NULL;
}

static bool builtin_exists(const char *name)
{
	return builtin_file(name, "task.ini") != NULL;
}

/* Read path, the task's file named file, into out: a regular file of at
 * most SW_TASK_MAX_FILE bytes, opened without following a symbolic link and
 * without waiting on a FIFO. */
static int read_task_file(struct sw_buf *out, const char *path, const char *file,
			  struct sw_err *err)
{
	struct stat st;
	int rc = 0;
	sw_buf_reset(out);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return sw_err_set(err, SW_EINPUT, "the task has no %s", file);
		if (errno == ELOOP)
			return sw_err_set(
				err, SW_EINPUT,
				"the task's %s is a symbolic link: sworn "
				"reads only files in the task's folder (copy the file there)",
				file);
		return sw_err_set(err, SW_EIO, "cannot open '%s': %s", path, strerror(errno));
	}
	if (fstat(fd, &st) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot stat '%s': %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		rc = sw_err_set(err, SW_EINPUT, "the task's %s is not a regular file (%s): make it "
				"a plain file in the task's folder", file,
				S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO"
				: "a device or socket");
	} else if ((uint64_t)st.st_size > SW_TASK_MAX_FILE) {
		rc = sw_err_set(err, SW_ELIMIT, "the task's %s is over %zu bytes", file,
				(size_t)SW_TASK_MAX_FILE);
	}
	char buf[8192];
	while (rc == 0) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", path, strerror(errno));
		else if (n == 0)
			break;
		else if (out->len + (size_t)n > SW_TASK_MAX_FILE)
			rc = sw_err_set(err, SW_ELIMIT, "the task's %s is over %zu bytes", file,
					(size_t)SW_TASK_MAX_FILE);
		else
			sw_buf_add(out, buf, (size_t)n);
	}
	close(fd);
	if (rc)
		sw_buf_reset(out);
	return rc;
}

int sw__pipeline_task_read(struct sw_buf *out, const char *dir, const char *name, const char *file,
		  struct sw_err *err)
{
	if (dir) {
		char *path = sw_path_join(dir, file);
		int rc = read_task_file(out, path, file, err);
		free(path);
		return rc;
	}
	const struct sw__pipeline_task_file *f = builtin_file(name, file);
	if (!f)
		return sw_err_set(err, SW_EINPUT, "the built-in task has no %s", file);
	sw_buf_reset(out);
	sw_buf_add(out, f->data, f->len);
	return 0;
}

static char *ws_task_dir(const char *ws_root, const char *name)
{
	char *tasks = sw_path_join(ws_root, "tasks");
	char *dir = sw_path_join(tasks, name);
	free(tasks);
	return dir;
}

int sw__pipeline_task_locate(char **dir, const char *ws_root, const char *name, struct sw_err *err)
{
	*dir = NULL;
	if (ws_root) {
		char *d = ws_task_dir(ws_root, name);
		struct stat st;
		/* a task's files are read from a folder of the workspace, never
		 * through a link to somewhere else (another matter's folder) */
		if (lstat(d, &st) == 0 && S_ISLNK(st.st_mode)) {
			int rc = sw_err_set(err, SW_EINPUT, "task folder %s is a symbolic link: a "
					    "task is read only from a real folder (replace the link "
					    "with a copy of what it points at)", d);
			free(d);
			return rc;
		}
		if (sw_path_is_dir(d)) {
			*dir = d;
			return 0;
		}
		free(d);
	}
	if (builtin_exists(name))
		return 0;
	return sw_err_set(err, SW_ENOTFOUND, "no task '%s' (sworn task list shows them)", name);
}

/* --------------------------------------------------------------- listing */

struct list {
	struct sw_task_info *v;
	size_t n, cap;
};

static struct sw_task_info *list_get(struct list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	l->v = sw_xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	struct sw_task_info *t = &l->v[l->n++];
	memset(t, 0, sizeof(*t));
	t->name = sw_xstrdup(name);
	return t;
}

/* The title of a task.ini's text, or "" (a broken file shows in show). */
static char *title_of(const char *text, size_t len)
{
	struct sw_config cfg = { 0 };
	struct sw_err err = { 0 };
	char *title = NULL;
	if (sw_config_parse(&cfg, text, len, "task.ini", &err) == 0) {
		const char *v = sw_config_get(&cfg, "task", NULL, "title");
		title = v ? sw_xstrdup(v) : NULL;
	}
	sw_config_release(&cfg);
	return title ? title : sw_xstrdup("");
}

static int cmp_info(const void *a, const void *b)
{
	const struct sw_task_info *x = a, *y = b;
	return strcmp(x->name, y->name);
}

int sw_task_list(struct sw_task_info **out, size_t *n, const char *ws_root, struct sw_err *err)
{
	struct list l = { 0 };
	for (size_t i = 0; i < sw__pipeline_task_nfiles; i++) {
		const char *p = sw__pipeline_task_files[i].path, *slash = strchr(p, '/');
		if (!slash || strcmp(slash + 1, "task.ini") != 0)
			continue;
		char *name = sw_xstrndup(p, (size_t)(slash - p));
		struct sw_task_info *t = list_get(&l, name);
		t->builtin = true;
		t->title = title_of((const char *)sw__pipeline_task_files[i].data, sw__pipeline_task_files[i].len);
		free(name);
	}
	char *tasks = ws_root ? sw_path_join(ws_root, "tasks") : NULL;
	DIR *d = tasks ? opendir(tasks) : NULL;
	if (tasks && !d && errno != ENOENT) {
		int e = errno;
		sw_task_info_free(l.v, l.n);
		*out = NULL;
		*n = 0;
		int rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", tasks, strerror(e));
		free(tasks);
		return rc;
	}
	for (struct dirent *de; d && (de = readdir(d)) != NULL;) {
		if (de->d_name[0] == '.')
			continue;
		char *dir = sw_path_join(tasks, de->d_name);
		char *ini = sw_path_join(dir, "task.ini");
		struct sw_buf b = SW_BUF_INIT;
		struct sw_err e2 = { 0 };
		if (sw_path_is_file(ini) && l.n < 4096) {
			struct sw_task_info *t = list_get(&l, de->d_name);
			t->workspace = true;
			free(t->title);
			t->title = read_task_file(&b, ini, "task.ini", &e2) == 0 ?
					   title_of(b.data, b.len) : sw_xstrdup("");
		}
		sw_buf_release(&b);
		free(ini);
		free(dir);
	}
	if (d)
		closedir(d);
	free(tasks);
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_info);
	*out = l.v;
	*n = l.n;
	return 0;
}

void sw_task_info_free(struct sw_task_info *t, size_t n)
{
	for (size_t i = 0; t && i < n; i++) {
		free(t[i].name);
		free(t[i].title);
	}
	free(t);
}

/* ----------------------------------------------------------------- init */

int sw_task_init(char **out_dir, const char *ws_root, const char *name, bool force,
		 struct sw_err *err)
{
	if (out_dir)
		*out_dir = NULL;
	if (!ws_root)
		return sw_err_set(err, SW_EUSAGE, "task init needs a workspace");
	if (strchr(name, '/') || name[0] == '.' || !builtin_exists(name))
		return sw_err_set(err, SW_ENOTFOUND, "no built-in task '%s' (sworn task list "
				  "shows them)", name);
	char *dir = ws_task_dir(ws_root, name);
	int rc = 0;
	if (!force && (sw_path_is_dir(dir) || sw_path_is_file(dir))) {
		rc = sw_err_set(err, SW_EEXIST, "tasks/%s exists: edit it, or give --force to "
				"overwrite its files with the built-in ones", name);
		free(dir);
		return rc;
	}
	if ((rc = sw_mkdir_p(dir, 0755, err)) != 0) {
		free(dir);
		return rc;
	}
	chmod(dir, 0755);
	size_t nl = strlen(name);
	for (size_t i = 0; i < sw__pipeline_task_nfiles && rc == 0; i++) {
		const struct sw__pipeline_task_file *f = &sw__pipeline_task_files[i];
		if (strncmp(f->path, name, nl) != 0 || f->path[nl] != '/')
			continue;
		char *path = sw_path_join(dir, f->path + nl + 1);
		rc = sw_file_write_atomic(path, f->data, f->len, err);
		if (rc == 0 && chmod(path, 0644) != 0)
			rc = sw_err_set(err, SW_EIO, "cannot chmod '%s': %s", path,
					strerror(errno));
		free(path);
	}
	if (rc == 0 && out_dir)
		*out_dir = dir;
	else
		free(dir);
	return rc;
}
