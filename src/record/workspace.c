/* workspace.c - finding and creating a workspace; creating, listing and
 * checking its matters. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record_int.h"

static const char default_conf[] =
	"# sworn workspace configuration (git-config style INI).\n"
	"# Each matter lives in matters/<name>/; nothing here is client data.\n"
	"\n"
	"[policy]\n"
	"mode = local-only           ; the default; models run on this network only\n"
	"; allow_hosts = gpu2.lan     ; extra hosts you trust, comma-separated\n"
	"\n"
	"; [endpoint \"board-a\"]\n"
	"; url = http://127.0.0.1:8081\n"
	"; gpus = 0,1,2,3\n"
	"; slots = 4\n"
	"\n"
	"; [role \"drafter\"]\n"
	"; endpoint = board-a\n"
	"; temperature = 0.3\n"
	"; max_tokens = 4096\n"
	"; context = 32768\n"
	"\n"
	"; [ingest]\n"
	"; ocr_pages = 0              ; pages one import reads by OCR at most (0: no limit)\n"
	"; ocr_seconds = 0            ; seconds of OCR one import may spend (0: no limit)\n"
	"; batch_pages = 0            ; pages stored in one transaction (0: 1000; 1: one per document)\n";

static char *absolute(const char *path, struct sw_err *err)
{
	char *abs = realpath(path, NULL);
	if (!abs)
		sw_err_set(err, errno == ENOENT ? SW_ENOTFOUND : SW_EIO,
			   "cannot resolve '%s': %s", path, strerror(errno));
	return abs;
}

int sw_workspace_create(const char *dir, struct sw_err *err)
{
	char *conf = NULL, *matters = NULL;
	int rc;

	if ((rc = sw_mkdir_p(dir, 0755, err)) != 0)
		return rc;
	conf = sw_path_join(dir, SW_CONF_NAME);
	matters = sw_path_join(dir, "matters");
	if (sw_path_is_file(conf)) {
		rc = sw_err_set(err, SW_EEXIST, "'%s' is already a sworn workspace", dir);
		goto cleanup;
	}
	if ((rc = sw_mkdir_p(matters, 0700, err)) != 0)
		goto cleanup;
	rc = sw_file_write_atomic(conf, default_conf, sizeof(default_conf) - 1, err);
	/* Whatever the umask, a new workspace is one sw_workspace_open
	 * trusts: its folder and sworn.conf writable by the user alone. */
	struct stat st;
	if (rc == 0 && stat(dir, &st) == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    chmod(dir, st.st_mode & 07755) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot chmod '%s': %s", dir, strerror(errno));
	if (rc == 0 && chmod(conf, 0644) != 0)
		rc = sw_err_set(err, SW_EIO, "cannot chmod '%s': %s", conf, strerror(errno));
cleanup:
	free(conf);
	free(matters);
	return rc;
}

/* SWORN_SAFE_DIRECTORY: folders (absolute, separated by ':') the user
 * trusts although another user owns them or others may write to them, or
 * '*' for any; git's safe.directory, set where only the user can set it. */
static bool trusted_anyway(const char *dir)
{
	const char *v = getenv("SWORN_SAFE_DIRECTORY");
	if (!v || !*v)
		return false;
	size_t dn = strlen(dir);
	for (const char *p = v; *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		while (n > 1 && p[n - 1] == '/')
			n--;
		if ((n == 1 && p[0] == '*') || (n == dn && strncmp(p, dir, n) == 0))
			return true;
		p += n;
		while (*p && *p != ':')
			p++;
		if (*p == ':')
			p++;
	}
	return false;
}

/* A sworn.conf sets the policy (mode = allow-remote) and the programs the
 * fleet runs: one that another user planted above the current folder, or
 * that others may rewrite, is refused as git refuses a repository it does
 * not own, with the way to trust it. */
static int check_trust(const char *dir, const char *conf, struct sw_err *err)
{
	const char *paths[2] = { conf, dir };
	if (trusted_anyway(dir))
		return 0;
	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		if (stat(paths[i], &st) != 0)
			return sw_err_set(err, SW_EIO, "cannot read '%s': %s", paths[i],
					  strerror(errno));
		const char *why = sw_path_distrust((unsigned long)st.st_uid, (unsigned)st.st_mode,
						   (unsigned long)geteuid());
		if (why)
			return sw_err_set(err, SW_EPOLICY,
					  "not using the workspace '%s': %s is %s, so it may not be "
					  "yours to trust; %s, or if you trust it, "
					  "set SWORN_SAFE_DIRECTORY=%s",
					  dir, i == 0 ? "its sworn.conf" : "the folder", why,
					  why[0] == 'o' ? "work in a workspace of your own" :
						          "take that write access away (chmod go-w)",
					  dir);
	}
	return 0;
}

int sw_workspace_open(struct sw_workspace *out, const char *start,
		      struct sw_err *err)
{
	char *dir = absolute(start, err);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!dir)
		return err ? err->code : SW_EIO;
	char *from = sw_xstrdup(dir);
	for (;;) {
		char *conf = sw_path_join(dir, SW_CONF_NAME);
		bool found = sw_path_is_file(conf);
		if (found) {
			rc = check_trust(dir, conf, err);
			if (rc == 0)
				rc = sw_config_load(&out->config, conf, err);
			free(conf);
			if (rc)
				goto cleanup;
			out->root = dir;
			free(from);
			return 0;
		}
		free(conf);
		if (strcmp(dir, "/") == 0)
			break;
		char *parent = sw_path_dir(dir);
		free(dir);
		dir = parent;
	}
	rc = sw_err_set(err, SW_ENOTFOUND,
			"no sworn workspace in '%s' or any folder above it: run 'sworn init' "
			"there or pass -C DIR",
			from);
cleanup:
	free(from);
	free(dir);
	return rc;
}

void sw_workspace_release(struct sw_workspace *ws)
{
	if (!ws)
		return;
	free(ws->root);
	sw_config_release(&ws->config);
	memset(ws, 0, sizeof(*ws));
}

bool sw_matter_name_valid(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > SW_MATTER_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		if (!ok)
			return false;
	}
	return true;
}

static char *matter_dir(const struct sw_workspace *ws, const char *name)
{
	return sw_xasprintf("%s/matters/%s", ws->root, name);
}

int sw_matter_create(const struct sw_workspace *ws, const char *name,
		     struct sw_err *err)
{
	char *dir = NULL, *files = NULL, *dbpath = NULL;
	sqlite3 *db = NULL;
	int rc;

	if (!sw_matter_name_valid(name))
		return sw_err_set(err, SW_EUSAGE,
				  "bad matter name '%s': use 1-%d letters, digits, '.', '_' or '-'",
				  name, SW_MATTER_NAME_MAX);
	dir = matter_dir(ws, name);
	files = sw_path_join(dir, "files");
	dbpath = sw_path_join(dir, "matter.db");
	if (sw_path_is_file(dbpath)) {
		rc = sw_err_set(err, SW_EEXIST, "matter '%s' already exists", name);
		goto cleanup;
	}
	if ((rc = sw_mkdir_p(files, 0700, err)) != 0)
		goto cleanup;
	rc = sw__record_db_open(&db, dbpath, true, err);
cleanup:
	sqlite3_close(db);
	free(dir);
	free(files);
	free(dbpath);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sw_matter_list(char ***out, size_t *n, const struct sw_workspace *ws,
		   struct sw_err *err)
{
	char *dir = sw_path_join(ws->root, "matters");
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct dirent *e;

	*out = NULL;
	*n = 0;
	if (!d) {
		int rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", dir, strerror(errno));
		free(dir);
		return rc;
	}
	while ((e = readdir(d)) != NULL) {
		if (!sw_matter_name_valid(e->d_name))
			continue;
		char *db = sw_xasprintf("%s/%s/matter.db", dir, e->d_name);
		bool ok = sw_path_is_file(db);
		free(db);
		if (!ok)
			continue;
		names = sw_xgrow(names, &cap, count + 1, sizeof(*names));
		names[count++] = sw_xstrdup(e->d_name);
	}
	closedir(d);
	free(dir);
	if (count)
		qsort(names, count, sizeof(*names), cmp_str);
	*out = names;
	*n = count;
	return 0;
}

int sw_matter_check(char **damage, const struct sw_workspace *ws, const char *name,
		    struct sw_err *err)
{
	char *db = sw_xasprintf("%s/matters/%s/matter.db", ws->root, name);
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	struct sw_buf msg = SW_BUF_INIT;
	size_t lines = 0;

	*damage = NULL;
	int rc = sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(h, 2000);
		rc = sqlite3_prepare_v2(h, "PRAGMA quick_check(5)", -1, &st, NULL);
	}
	while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		sw_buf_addf(&msg, "%s%s", lines++ ? "; " : "", t ? t : "?");
	}
	/* A check that stopped early (the file is no database) names no line. */
	if (rc == SQLITE_OK && sqlite3_finalize(st) != SQLITE_OK && lines == 0)
		rc = SQLITE_CORRUPT;
	if (rc != SQLITE_OK || lines == 0)
		rc = sw_err_set(err, SW_EDB, "'%s' cannot be checked: %s", db,
				h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
	else if (lines != 1 || strcmp(msg.data, "ok") != 0)
		*damage = sw_xasprintf("'%s' is damaged (quick_check: %s)", db, msg.data);
	sqlite3_close(h);
	sw_buf_release(&msg);
	free(db);
	return rc;
}
