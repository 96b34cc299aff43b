/* ingest.c - sw_ingest: walking the inputs, dispatching each file to its
 * importer, and the Bates gap and duplicate report at the end.
 *
 * Load files go first, because they name the text files they use: those
 * are imported as part of their load-file document and must not come in a
 * second time as stand-alone text files. */
#define _GNU_SOURCE /* syncfs */
#include <dirent.h>
#include <fcntl.h>
#include <strings.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/ingest_int.h"

struct input {
	char *path; /* as the user named it (joined with folder entries) */
	char *real; /* resolved, to know what a load file already used */
	const struct sw_format *fmt; /* by its extension; NULL: none sworn reads */
	size_t from; /* the index of the path given that holds it */
};

struct walk {
	struct input *items;
	size_t n, cap;
	const char *root; /* real path of the folder the user named, or NULL */
};

/* Whether it's the format called name. */
static bool is(const struct input *it, const char *name)
{
	return it->fmt && !strcmp(it->fmt->name, name);
}

/* real: the file's real path when the walk knows it (a name that is no
 * link in a folder resolved), else NULL to ask realpath. */
static void add_input(struct walk *w, const char *path, char *real, size_t from)
{
	w->items = sw_xgrow(w->items, &w->cap, w->n + 1, sizeof(*w->items));
	if (!real)
		real = realpath(path, NULL);
	w->items[w->n].path = sw_xstrdup(path);
	w->items[w->n].real = real ? real : sw_xstrdup(path);
	w->items[w->n].fmt = sw_format_by_ext(path);
	w->items[w->n].from = from;
	w->n++;
}

static int cmp_input(const void *a, const void *b)
{
	const struct input *x = a, *y = b;
	return strcmp(x->path, y->path);
}

/* Whether real (a resolved path) is root or inside it. */
static bool inside(const char *real, const char *root)
{
	size_t n = strlen(root);
	return strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == '\0' ||
					       (n == 1 && root[0] == '/'));
}

/* A symbolic link found inside a folder: a file it names inside the
 * folder the user gave is followed; a folder is not (the walk reaches it
 * anyway, and a loop could trap us); a link out of the production is not
 * followed, so that it cannot pull in the rest of the machine.  Each case
 * the walk does not follow is a line of the report.  Returns whether to
 * go on with the link's target. */
static bool follow_link(struct sw__ingest *in, const struct walk *w, const char *path,
			struct stat *st)
{
	if (stat(path, st) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "broken symbolic link");
		return false;
	}
	char *real = realpath(path, NULL);
	bool in_root = real && w->root && inside(real, w->root);
	free(real);
	if (!in_root) {
		sw__ingest_event(in, SW_INGEST_SKIPPED, path,
				 "symbolic link: not followed (it leads out of the folder given)");
		return false;
	}
	if (S_ISDIR(st->st_mode)) {
		sw__ingest_event(in, SW_INGEST_SKIPPED, path,
				 "symbolic link to a folder: not followed (the folder it names is"
				 " walked on its own)");
		return false;
	}
	return true;
}

/* Collect regular files under path; hidden entries are passed over.  A
 * path the user names may be a link; links inside a folder are followed
 * as follow_link says.  Anything else that is not a regular file (a FIFO,
 * a device, a socket) is reported, never dropped in silence.  real_dir is
 * the real path of the folder holding path (NULL at the top): an entry
 * that is no link is real_dir/name, so that a production of a million
 * files is not resolved a readlink per component of each. */
static void walk_path(struct sw__ingest *in, struct walk *w, const char *path,
		      const char *real_dir, size_t from, int depth)
{
	struct stat st;
	char *real = NULL;
	if (lstat(path, &st) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISLNK(st.st_mode) && depth == 0 && stat(path, &st) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "broken symbolic link");
		return;
	}
	bool link = S_ISLNK(st.st_mode);
	if (link && !follow_link(in, w, path, &st))
		return;
	if (real_dir && !link)
		real = sw_path_join(real_dir, sw_path_base(path));
	if (S_ISREG(st.st_mode)) {
		add_input(w, path, real, from);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		sw__ingest_event(in, SW_INGEST_SKIPPED, path, "not a regular file");
		goto cleanup;
	}
	if (depth > 64) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "folders nested too deep");
		goto cleanup;
	}
	DIR *d = opendir(path);
	if (!d) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "cannot open folder: %s",
				 strerror(errno));
		goto cleanup;
	}
	if (!real)
		real = realpath(path, NULL);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *child = sw_path_join(path, e->d_name);
		walk_path(in, w, child, real, from, depth + 1);
		free(child);
	}
	closedir(d);
cleanup:
	free(real);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_consumed(const struct sw__ingest *in, const char *path)
{
	return in->nconsumed &&
	       bsearch(&path, in->consumed, in->nconsumed, sizeof(char *), cmp_str) != NULL;
}

/* The .OPT in folder dir for a .DAT of base name base: the one with the
 * same base name, else the only .OPT there; NULL for none (or several). */
static const char *opt_in(const struct walk *w, const char *dir, const char *base)
{
	size_t stem = strlen(base) - 4;
	const char *same = NULL, *only = NULL;
	int in_dir = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (!is(&w->items[i], "opt"))
			continue;
		char *odir = sw_path_dir(w->items[i].path);
		bool here = strcasecmp(odir, dir) == 0;
		free(odir);
		if (!here)
			continue;
		in_dir++;
		only = w->items[i].path;
		const char *ob = sw_path_base(w->items[i].path);
		if (strlen(ob) == stem + 4 && strncasecmp(ob, base, stem) == 0)
			same = w->items[i].path;
	}
	return same ? same : in_dir == 1 ? only : NULL;
}

/* The .OPT for a .DAT where vendors put it: beside it, in the volume's
 * IMAGES folder, or at the volume's root (the folder above DATA). */
static const char *find_opt(const struct walk *w, const char *dat)
{
	char *dir = sw_path_dir(dat);
	char *root = sw__ingest_volume_root_for(dat);
	char *images = sw_path_join(root, "IMAGES");
	const char *base = sw_path_base(dat);
	const char *opt = opt_in(w, dir, base);
	if (!opt)
		opt = opt_in(w, images, base);
	if (!opt && strcmp(root, dir) != 0)
		opt = opt_in(w, root, base);
	free(images);
	free(root);
	free(dir);
	return opt;
}

/* Report missing and repeated numbers of one Bates prefix over the whole
 * matter, as ranges; a handful are named, the rest counted. */
static int report_bates(struct sw__ingest *in, const char *prefix, struct sw_err *err)
{
	struct sw_record_bates_check c;
	int rc = sw_record_bates_check(&c, in->m, prefix, err);
	if (rc != 0)
		return rc;
	const char *label = prefix[0] ? prefix : "(no prefix)";
	if (c.gaps)
		sw__ingest_event(in, SW_INGEST_WARNING, label,
				 "Bates gap: %llu number(s) missing: %s%s", (unsigned long long)c.gaps,
				 c.gap_list.data, c.named > 5 ? ", ..." : "");
	if (c.dups)
		sw__ingest_event(in, SW_INGEST_WARNING, label,
				 "duplicate Bates: %llu page(s) reuse a number: %s%s",
				 (unsigned long long)c.dups, c.dup_list.data, c.dups > 5 ? ", ..." : "");
	sw_record_bates_check_release(&c);
	return 0;
}

static void on_waiting(void *user, long pid)
{
	struct sw__ingest *in = user;
	char who[32] = "";
	if (pid)
		snprintf(who, sizeof(who), " (pid %ld)", pid);
	sw__ingest_event(in, SW_INGEST_NOTE, sw_matter_name(in->m),
			 "another import into this matter is running%s; waiting for it to end"
			 " (--no-wait gives up instead)", who);
}

int sw_ingest(struct sw_ingest_summary *out, struct sw_matter *m,
	      const char *const *paths, size_t npaths,
	      const struct sw_ingest_opts *opts, struct sw_err *err)
{
	struct sw__ingest in = { .m = m, .opts = opts, .sum = out };
	struct walk w = { 0 };
	double start = sw_now();
	int rc = 0, lock = -1;

	memset(out, 0, sizeof(*out));
	/* Before anything is looked up: what another import is storing now
	 * must be found stored, not stored twice. */
	if ((rc = sw_record_import_lock(&lock, m, !opts->no_wait, on_waiting, &in, err)) != 0)
		return rc;
	if (opts->labels_path)
		sw__ingest_consume(&in, opts->labels_path);
	for (size_t i = 0; i < npaths; i++) {
		char *root = sw_path_is_dir(paths[i]) ? realpath(paths[i], NULL) : NULL;
		w.root = root;
		walk_path(&in, &w, paths[i], NULL, i, 0);
		w.root = NULL;
		free(root);
	}
	if (w.n)
		qsort(w.items, w.n, sizeof(*w.items), cmp_input);

	uint64_t total = 0;
	for (size_t i = 0; i < w.n; i++)
		total += !is(&w.items[i], "opt");
	if (opts->progress)
		sw_progress_start(&in.progress, "importing", total);
	if ((rc = sw_record_import_begin(m, &in.fatal)) != 0)
		goto done;
	sw_record_batch_start(m, opts->batch_pages ? opts->batch_pages : SW__INGEST_BATCH_PAGES);

	for (size_t i = 0; i < w.n && rc == 0; i++) {
		if (!is(&w.items[i], "loadfile"))
			continue;
		const char *opt = find_opt(&w, w.items[i].path);
		if (opt)
			sw__ingest_consume(&in, opt);
		/* One found away from the .DAT is named (`matter qc` names
		 * every volume's). */
		char *dat_dir = sw_path_dir(w.items[i].path),
		     *opt_dir = opt ? sw_path_dir(opt) : NULL;
		if (opt && strcmp(dat_dir, opt_dir) != 0)
			sw__ingest_event(&in, SW_INGEST_NOTE, w.items[i].path,
					 "page images and their Bates numbers from %s", opt);
		free(dat_dir);
		free(opt_dir);
		/* Paths in the load file are resolved up to the folder the
		 * user named (a DAT named by itself: its volume). */
		const char *given = paths[w.items[i].from];
		char *root = sw_path_is_dir(given) ? sw_xstrdup(given)
						   : sw__ingest_volume_root_for(w.items[i].path);
		rc = sw__ingest_loadfile(&in, w.items[i].path, opt, root);
		free(root);
	}
	if (in.nconsumed)
		qsort(in.consumed, in.nconsumed, sizeof(char *), cmp_str);
	for (size_t i = 0; i < w.n && rc == 0; i++) {
		const struct input *it = &w.items[i];
		if (is(it, "loadfile") || is_consumed(&in, it->real))
			continue;
		/* Between documents (an e-mail and its attachments are one). */
		if ((rc = sw__ingest_commit(&in, false)) != 0)
			break;
		if (is(it, "text") || is(it, "markdown")) {
			rc = sw__ingest_text(&in, it->path, it->fmt->name);
		} else if (it->fmt && it->fmt->native) {
			rc = sw__ingest_native(&in, it->path, it->fmt->name);
		} else if (is(it, "opt")) {
			sw__ingest_event(&in, SW_INGEST_SKIPPED, it->path,
					 "an .OPT without a .DAT beside it has no text to import");
		} else {
			sw__ingest_event(&in, SW_INGEST_SKIPPED, it->path,
					 "not a kind of file sworn reads yet (text, Markdown, PDF, .eml, .docx, .DAT)");
			sw__ingest_tick(&in);
		}
	}
	if (rc == 0)
		rc = sw__ingest_commit(&in, true);
	if (rc == 0 && opts->labels_path)
		rc = sw__ingest_labels(&in, opts->labels_path);
	sw_progress_finish(&in.progress);
	if (rc == 0)
		rc = sw_record_import_end(m, &in.fatal);
done:
	if (sw_record_batch_open(m)) {
		/* Stopped by an error: the documents stored before it are kept
		 * (the failing one was rolled back alone). */
		struct sw_err berr = { 0 };
		if (sw_record_batch_commit(m, &berr) != 0) {
			if (!in.fatal.code)
				in.fatal = berr;
			if (rc == 0)
				rc = berr.code ? berr.code : SW_EDB;
		}
	}
	sw_record_batch_stop(m);
	sw__ingest_settle(&in);
	/* Documents stored in a batch the error rolled back: said on the
	 * error's one line (a batch is lost only by an error that stops). */
	char lost[160] = "";
	if (in.rolled_back)
		snprintf(lost, sizeof(lost),
			 "%llu document(s) stored before it in the same batch were rolled back"
			 " with it; the next import stores them", (unsigned long long)in.rolled_back);
	for (size_t i = 0; i < in.nprefixes && rc == 0; i++)
		rc = report_bates(&in, in.prefixes[i], err);
	if (rc < 0 && in.fatal.code)
		sw_err_set(err, in.fatal.code, "import stopped: %s%s%s%s", in.fatal.msg,
			   lost[0] ? " (" : "", lost, lost[0] ? ")" : "");
	else if (lost[0])
		sw__ingest_event(&in, SW_INGEST_WARNING, sw_matter_name(m), "%s", lost);

	sw_record_sync_originals(m);
	sw_record_import_unlock(lock);
	out->seconds = sw_now() - start;
	out->ocr_unread = in.budget.refused;
	out->ocr_by_time = in.budget.by_time;
	sw_ocr_pool_free(in.ocr_pool);
	for (size_t i = 0; i < w.n; i++) {
		free(w.items[i].path);
		free(w.items[i].real);
	}
	free(w.items);
	for (size_t i = 0; i < in.nconsumed; i++)
		free(in.consumed[i]);
	free(in.consumed);
	for (size_t i = 0; i < in.nprefixes; i++)
		free(in.prefixes[i]);
	free(in.prefixes);
	free(in.held); /* settled: empty */
	return rc;
}
