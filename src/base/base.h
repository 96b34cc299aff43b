/*
 * base.h - the helpers every other subsystem borrows: the error object,
 * memory (sw_xmalloc, growable buffers, arenas), files, SHA-256, UTF-8
 * folding for comparison, INI configuration and its schemas, CSV, bounded
 * number parsing, child processes, JSON output helpers, a progress display
 * for long work, and fault seams for tests.
 *
 * Contract
 *   - base/ knows nothing of law, of the record or of models.  It includes no
 *     other subsystem.
 *   - Fallible functions return 0 or a negative SW_E* code; the last
 *     parameter is a `struct sw_err *` (may be NULL) that receives a one-line
 *     message, lower case, no final period: "cannot open 'x': reason".
 *   - Out of memory is not an error to handle: sw_xmalloc() and friends print
 *     a message and abort, so error paths stay about real failures.
 *   - Sizes read from outside bytes are bounded by the caller's named limit
 *     before anything is allocated (SW_ELIMIT).
 *   - Every _release/_free accepts NULL or a zeroed object.
 *   - Nothing here keeps hidden global state except the progress display's
 *     terminal detection and the fault seam counters (tests only).  Objects
 *     are not shared between threads without the caller's locking.
 */
#ifndef SW_BASE_H
#define SW_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/banned.h"

#define SW_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define SW_MUST_USE __attribute__((warn_unused_result))
#define SW_NORETURN __attribute__((noreturn))
#define SW_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ errors */

/* The one error enum.  Exit codes map: SW_EUSAGE and SW_EINPUT give 2. */
enum sw_errcode {
	SW_OK = 0,
	SW_EUSAGE = -1,    /* the caller asked for something malformed */
	SW_EINPUT = -2,    /* outside bytes are malformed or unreadable */
	SW_EIO = -3,       /* the operating system said no */
	SW_ENOTFOUND = -4, /* the named thing does not exist */
	SW_EEXIST = -5,    /* the thing to create already exists */
	SW_ELIMIT = -6,    /* a size or count is past a named limit */
	SW_EDB = -7,       /* SQLite failed; the message is sqlite3_errmsg() */
	SW_EPOLICY = -8,   /* refused by a policy (local-only, quarantine) */
	SW_ECANCEL = -9,   /* cancelled or interrupted */
	SW_ENET = -10,     /* a network peer failed or timed out */
	SW_EFAULT = -11,   /* injected by a test's fault seam */
};

#define SW_ERR_MSG_MAX 512

struct sw_err {
	int code;                 /* 0 or a negative SW_E* value */
	char msg[SW_ERR_MSG_MAX]; /* one line, no final period */
};

/* Fill err (if not NULL) with code and a formatted one-line message; any
 * newline in the result becomes a space.  Returns code. */
int sw_err_set(struct sw_err *err, int code, const char *fmt, ...) SW_PRINTF(3, 4);
#if defined(SW_ANALYZE) && !defined(SW_ERR_C)
/* gcc -fanalyzer sees one file at a time: without this it takes
 * `return sw_err_set(...)` for a possible 0 and follows impossible paths. */
static inline int sw__err_code(int ignored, int code)
{
	(void)ignored;
	return code;
}
#define sw_err_set(err, code, ...) sw__err_code(sw_err_set((err), (code), __VA_ARGS__), (code))
#endif

/* Prefix an existing message: "context: old message".  Returns err->code, or
 * code when err is NULL. */
int sw_err_wrap(struct sw_err *err, int code, const char *fmt, ...) SW_PRINTF(3, 4);

void sw_err_clear(struct sw_err *err);

/* A short name for a code ("input", "io", ...); never NULL. */
const char *sw_err_name(int code);

/* Abort with file and line on a state that cannot happen. */
#define SW_BUG(...) sw_bug(__FILE__, __LINE__, __VA_ARGS__)
SW_NORETURN void sw_bug(const char *file, int line, const char *fmt, ...) SW_PRINTF(3, 4);

/* Print "sworn: fatal: ..." and exit(2).  For the CLI's last resort only. */
SW_NORETURN void sw_die(const char *fmt, ...) SW_PRINTF(1, 2);

/* ------------------------------------------------------------------ memory */

/* Allocation that never returns NULL: on failure it prints and aborts. */
void *sw_xmalloc(size_t size);
void *sw_xcalloc(size_t count, size_t size);
void *sw_xrealloc(void *p, size_t size);
/* Grow an array to hold at least `need` items of `item` bytes, doubling. */
void *sw_xgrow(void *p, size_t *cap, size_t need, size_t item);
char *sw_xstrdup(const char *s);
char *sw_xstrndup(const char *s, size_t n);
char *sw_xasprintf(const char *fmt, ...) SW_PRINTF(1, 2);

/* A growable byte buffer.  `data` is never NULL after init and is always
 * NUL-terminated, so it can be used as a C string when it holds text. */
struct sw_buf {
	char *data;
	size_t len;
	size_t cap;
};

/* The bytes of every empty buffer.  Each program and module has its own
 * (hidden: not one of the sw_ names a program exports to its modules): a
 * buffer is freed by its capacity, never by comparing with this, so a
 * buffer made in one and emptied in another is fine, and AddressSanitizer
 * sees no global defined twice. */
extern char sw_buf_empty[1] __attribute__((visibility("hidden")));
#define SW_BUF_INIT { sw_buf_empty, 0, 0 }

void sw_buf_init(struct sw_buf *b);
void sw_buf_release(struct sw_buf *b);           /* frees; back to init state */
void sw_buf_reset(struct sw_buf *b);             /* len = 0, keeps memory */
void sw_buf_grow(struct sw_buf *b, size_t extra); /* room for extra more bytes */
void sw_buf_add(struct sw_buf *b, const void *p, size_t n);
void sw_buf_addc(struct sw_buf *b, char c);
void sw_buf_adds(struct sw_buf *b, const char *s);
void sw_buf_addf(struct sw_buf *b, const char *fmt, ...) SW_PRINTF(2, 3);
void sw_buf_vaddf(struct sw_buf *b, const char *fmt, va_list ap) SW_PRINTF(2, 0);
void sw_buf_truncate(struct sw_buf *b, size_t len);
/* Hand the bytes to the caller (free() them); b returns to init state. */
char *sw_buf_detach(struct sw_buf *b, size_t *out_len);

/* An arena for work-scoped allocations (one document, one request): many
 * small allocations, one release.  Blocks are never moved, so pointers stay
 * valid until sw_arena_release().  Build with -DSW_DEBUG_ARENA to make every
 * allocation a real malloc for ASan and valgrind. */
struct sw_arena_block;
struct sw_arena {
	struct sw_arena_block *head;
	size_t block_size;
#ifdef SW_DEBUG_ARENA
	void **debug_ptrs;
	size_t debug_n, debug_cap;
#endif
};

void sw_arena_init(struct sw_arena *a, size_t block_size); /* no allocation */
void *sw_arena_alloc(struct sw_arena *a, size_t size);     /* 16-byte aligned, zeroed */
char *sw_arena_strndup(struct sw_arena *a, const char *s, size_t n);
char *sw_arena_strdup(struct sw_arena *a, const char *s);
void sw_arena_release(struct sw_arena *a);

/* ------------------------------------------------------------------- files */

/* Read a whole file into out (replacing its contents).  Files longer than
 * limit bytes fail with SW_ELIMIT; the message names the file.  Fault
 * seams: SWORN_FAULT=read:N fails the Nth call (SW_EFAULT) and
 * file-read:N the Nth read(2) inside it (SW_EIO, as a bad disk would). */
int sw_file_read(struct sw_buf *out, const char *path, size_t limit,
		 struct sw_err *err) SW_MUST_USE;

/* A file mapped read-only, for files too long to read into memory: the
 * kernel pages its bytes in as they are read and sw_file_map_drop lets it
 * take them back, so a process reading it from end to end holds only what
 * it has read since the last drop.  A file cut short while it is mapped
 * raises SIGBUS where the lost part is read (sworn maps only the files it
 * imports).  fd stays open for reads of its own (sw_record_keep_original_fd). */
struct sw_map {
	const char *data;
	size_t len;
	int fd;
};

/* Map a regular file of 1 to limit bytes (SW_ELIMIT over, SW_EINPUT empty
 * or a folder).  Fault seam: SWORN_FAULT=read:N, as sw_file_read. */
int sw_file_map(struct sw_map *out, const char *path, size_t limit,
		struct sw_err *err) SW_MUST_USE;
/* Drop the mapped pages of [off, off + len) from this process's memory
 * (they are read from the file again when next touched). */
void sw_file_map_drop(const struct sw_map *m, size_t off, size_t len);
void sw_file_unmap(struct sw_map *m);

/* Write bytes to path atomically: a temporary file in the same folder,
 * fsync, rename.  A crash leaves either the old file or the new one. */
int sw_file_write_atomic(const char *path, const void *data, size_t len,
			 struct sw_err *err) SW_MUST_USE;

/* mkdir -p with the given mode. */
int sw_mkdir_p(const char *path, unsigned mode, struct sw_err *err) SW_MUST_USE;

bool sw_path_is_dir(const char *path);
bool sw_path_is_file(const char *path);

/* Why a file or folder that can change what sworn does (a workspace's
 * sworn.conf, the workspace folder) is not to be trusted by the user `me`,
 * as git's safe.directory judges a repository: "owned by another user",
 * "writable by its group", "writable by others"; NULL when it may be
 * trusted.  owner and mode are a stat()'s st_uid and st_mode. */
const char *sw_path_distrust(unsigned long owner, unsigned mode, unsigned long me);

/* Join two path parts with one '/'; caller frees.  An absolute `rel` is
 * returned as it is. */
char *sw_path_join(const char *dir, const char *rel);

/* The last component of path (borrowed, points into path). */
const char *sw_path_base(const char *path);

/* The folder part of path; caller frees.  "." when there is none. */
char *sw_path_dir(const char *path);

/* The extension without the dot, lower-cased into out (size outsz); "" if
 * none. */
void sw_path_ext(char *out, size_t outsz, const char *path);

/* ----------------------------------------------------------------- hashing */

#define SW_SHA256_LEN 32
#define SW_SHA256_HEX_LEN 64

struct sw_sha256 {
	void *ctx; /* an OpenSSL EVP_MD_CTX */
};

void sw_sha256_init(struct sw_sha256 *h);
void sw_sha256_update(struct sw_sha256 *h, const void *data, size_t len);
/* Writes 65 bytes (64 hex digits and a NUL) and releases the context. */
void sw_sha256_final_hex(struct sw_sha256 *h, char out[SW_SHA256_HEX_LEN + 1]);
/* One-shot convenience. */
void sw_sha256_hex(char out[SW_SHA256_HEX_LEN + 1], const void *data, size_t len);

/* ------------------------------------------------------------ UTF-8 folding */

/* Folding turns text into a form for comparison: NFKC (utf8proc), case
 * folded, curly quotes to straight ones, every dash to '-', non-breaking and
 * other odd spaces to ' ', and runs of whitespace to one space.  The result
 * keeps, for every output byte, the byte offset in the original it came from,
 * so a match in folded text maps back to exact original offsets. */
enum sw_fold_flags {
	SW_FOLD_CASE = 1 << 0,       /* case-fold */
	SW_FOLD_MARKS = 1 << 1,      /* strip combining marks (café -> cafe) */
	SW_FOLD_SPACE = 1 << 2,      /* collapse whitespace runs to one space */
	SW_FOLD_DEFAULT = SW_FOLD_CASE | SW_FOLD_SPACE,
};

struct sw_fold {
	char *text;   /* folded UTF-8, NUL-terminated */
	size_t len;   /* bytes in text */
	size_t *map;  /* len + 1 entries: map[i] = original offset of text[i];
			 map[len] = original length */
};

/* Fold len bytes of in.  Invalid UTF-8 bytes are kept as U+FFFD and still
 * mapped, so folding never fails on hostile text.  Release with
 * sw_fold_release(). */
void sw_fold(struct sw_fold *out, const char *in, size_t len, unsigned flags);
void sw_fold_release(struct sw_fold *f);

/* True when len bytes of s are valid UTF-8. */
bool sw_utf8_valid(const char *s, size_t len);

/* Where len bytes of s may be cut at byte n or before it without splitting
 * a UTF-8 sequence: n when s[n] starts a character, else the start of the
 * character it continues (len when n >= len). */
size_t sw_utf8_cut(const char *s, size_t len, size_t n);

/* Append Latin-1 (ISO-8859-1 with Windows-1252's 0x80-0x9F) bytes to out as
 * UTF-8. */
void sw_latin1_to_utf8(struct sw_buf *out, const char *in, size_t len);

/* -------------------------------------------------------------- terminal */

/* Text that came from outside (evidence, a model, a GGUF file, a matter
 * name in an error) written for a person to read: every C0 control but
 * newline and tab, DEL, every C1 control (U+0080-U+009F) and every byte
 * that is not valid UTF-8 is replaced by U+FFFD, so that a hostile
 * production cannot clear the screen, retitle the terminal, conceal text or
 * overwrite a verdict line.  Human-readable output is always cleaned, to a
 * terminal or not (a saved report is read on one later); JSON output
 * escapes on its own.  Every writer of such text goes through these. */

/* Append the cleaned form of len bytes of s to out. */
void sw_term_clean(struct sw_buf *out, const char *s, size_t len);

/* Write len bytes of s to f, cleaned. */
void sw_term_write(FILE *f, const char *s, size_t len);

/* Write the NUL-terminated s to f, cleaned (nothing for NULL). */
void sw_term_puts(FILE *f, const char *s);

/* printf to f, the whole formatted text cleaned: for a line that mixes
 * sworn's words with outside text.  A writer's own escape sequences
 * (colour) go out through plain stdio around it. */
void sw_term_printf(FILE *f, const char *fmt, ...) SW_PRINTF(2, 3);
void sw_term_vprintf(FILE *f, const char *fmt, va_list ap) SW_PRINTF(2, 0);

/* Text that arrives in pieces (a model's streamed answer), cleaned as it
 * comes: a UTF-8 sequence cut between two pieces waits for the rest
 * instead of becoming U+FFFD.  Zero the struct to start; _end writes what
 * still waits (cleaned: an unfinished sequence is U+FFFD). */
struct sw_term_stream {
	char held[4];
	size_t n;
};
void sw_term_stream_write(struct sw_term_stream *s, FILE *f, const char *p, size_t len);
void sw_term_stream_end(struct sw_term_stream *s, FILE *f);

/* ------------------------------------------------------------------ config */

/* A parsed INI file with git-config sections: [name] or [name "sub"].  Every
 * entry keeps its line so that errors can say "file:line: ...". */
struct sw_config_entry {
	char *section;    /* lower-cased */
	char *subsection; /* as written; NULL for [name] */
	char *key;        /* lower-cased */
	char *value;      /* trimmed, inline ; and # comments removed */
	int line;
};

struct sw_config {
	char *path;
	struct sw_config_entry *entries;
	size_t n, cap;
};

/* Parse path (inih).  A syntax error fails with "path:line: reason". */
int sw_config_load(struct sw_config *out, const char *path,
		   struct sw_err *err) SW_MUST_USE;
void sw_config_release(struct sw_config *c);

/* The value of the last matching entry (borrowed) or NULL; subsection NULL
 * matches [section] without a subsection. */
const char *sw_config_get(const struct sw_config *c, const char *section,
			  const char *subsection, const char *key);

/* The matching entry itself, to report its line; NULL when absent. */
const struct sw_config_entry *sw_config_find(const struct sw_config *c,
					     const char *section,
					     const char *subsection,
					     const char *key);

/* Parse len bytes of text held in memory (an embedded file) the same way;
 * name stands for the path in messages. */
int sw_config_parse(struct sw_config *out, const char *text, size_t len,
		    const char *name, struct sw_err *err) SW_MUST_USE;

/* A schema says which sections and keys a configuration file has, what type
 * and range each value takes, where it goes and what it means.  One table
 * per file (sworn.conf's [policy]/[endpoint]/[role] in llm/, [fleet] in
 * fleet/, the hardware inventory, the calibration) checks every entry, gives
 * unknown keys a "did you mean", and prints the reference
 * (sw_config_schema_doc). */
enum sw_config_type {
	SW_CONFIG_STRING, /* char * at offset; a later entry replaces (frees) it */
	SW_CONFIG_INT,    /* a decimal in [min, max], stored in size bytes (1, 2,
			     4 or 8), unsigned when min >= 0 */
	SW_CONFIG_DOUBLE, /* a finite number in [min, max] (min excluded with
			     SW_CONFIG_ABOVE_MIN), stored as double */
	SW_CONFIG_MS,     /* seconds in [min, max], stored as unsigned
			     milliseconds (a positive value never rounds to 0) */
	SW_CONFIG_BOOL,   /* yes, no, true or false, stored as bool */
	SW_CONFIG_ENUM,   /* one of choices, stored as int: its index */
	SW_CONFIG_CUSTOM, /* set() parses and stores */
};

#define SW_CONFIG_ABOVE_MIN 1u /* the lower bound itself is refused */

struct sw_config_entry;

struct sw_config_key {
	const char *section; /* lower case, as in struct sw_config_entry */
	const char *key;     /* lower case */
	enum sw_config_type type;
	size_t offset, size; /* where the value goes in the section's object
				(SW_CONFIG_AT); unused by SW_CONFIG_CUSTOM */
	double min, max;     /* bounds of INT, DOUBLE and MS */
	unsigned flags;
	const char *const *choices; /* ENUM: NULL-terminated */
	/* CUSTOM: parse e->value into obj; the message needs no file:line
	 * (the caller adds it).  user is sw_config_apply()'s. */
	int (*set)(void *obj, const struct sw_config_entry *e, void *user,
		   struct sw_err *err);
	const char *expect;  /* what a good value is, after "expected" in
				messages; NULL: said from type and bounds */
	const char *help;    /* one line for the reference */
};

/* offsetof and sizeof of a member, for struct sw_config_key's offset and
 * size. */
#define SW_CONFIG_AT(type, member) \
	offsetof(type, member), sizeof(((type *)0)->member)

struct sw_config_section {
	const char *name;  /* lower case */
	bool named;        /* [name "SUB"] only; otherwise [name] only */
	const char *help;  /* what the section is, for the reference */
};

struct sw_config_schema {
	const char *file;  /* what the file is, for the reference: "sworn.conf" */
	const struct sw_config_section *sections;
	size_t nsections;
	const struct sw_config_key *keys;
	size_t nkeys;
	bool closed;       /* the file is the schema's alone: a section it does
			      not know is an error; otherwise others' sections
			      are left to them */
};

/* The key of schema s for entry e, after checking e's section header (named
 * or not, as the section says).  NULL for a section s does not have in an
 * open schema.  Errors (SW_EINPUT): "[policy] takes no name", "[endpoint]
 * needs a name: [endpoint \"NAME\"]", "unknown key 'k' in [sec]: did you
 * mean key?" (or "(known: a, b)" when nothing is close), and in a closed
 * schema "unknown section [x]"; each prefixed "path:line: " (the path is
 * cfg->path). */
int sw_config_check(const struct sw_config_key **out, const struct sw_config_schema *s,
		    const struct sw_config *cfg, const struct sw_config_entry *e,
		    struct sw_err *err) SW_MUST_USE;

/* Parse e's value as k says and store it into obj (the object of e's
 * section).  Errors, prefixed "path:line: ": "bad KEY 'VALUE': expected
 * ..." (SW_EINPUT), or what k->set said. */
int sw_config_store(void *obj, const struct sw_config_key *k, const struct sw_config *cfg,
		    const struct sw_config_entry *e, void *user,
		    struct sw_err *err) SW_MUST_USE;

/* Check and store every entry of cfg in file order.  target() gives the
 * object an entry's values go into (the section's: a struct it finds or
 * creates for e->subsection), or NULL after setting err (its message then
 * gets the "path:line: " prefix).  Returns 0 or the first error. */
int sw_config_apply(const struct sw_config_schema *s, const struct sw_config *cfg,
		    void *(*target)(void *user, const struct sw_config_entry *e,
				    struct sw_err *err),
		    void *user, struct sw_err *err) SW_MUST_USE;
/* The target of a schema whose sections are all one struct: user. */
void *sw_config_target_user(void *user, const struct sw_config_entry *e, struct sw_err *err);

/* For a file several schemas share (sworn.conf: llm's and fleet's): the
 * first entry whose section none of the n schemas has fails with SW_EINPUT,
 * "path:line: unknown section [x]: did you mean [y]?" (or the known ones). */
int sw_config_check_sections(const struct sw_config *cfg,
			     const struct sw_config_schema *const *schemas, size_t n,
			     struct sw_err *err) SW_MUST_USE;

/* The keys of a section, "a, b, c", into out (appended). */
void sw_config_known(struct sw_buf *out, const struct sw_config_schema *s,
		     const char *section);

/* The reference of a schema, appended to out: each section with its help,
 * and under it each key with its type, range and help, one per line. */
void sw_config_schema_doc(struct sw_buf *out, const struct sw_config_schema *s);

/* The edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours) between a and b, or max + 1 when it is more than max. */
size_t sw_edit_distance(const char *a, const char *b, size_t max);

/* --------------------------------------------------------------------- CSV */

/* RFC 4180 rows, one at a time, from a descriptor (a file, a pipe) or from
 * memory: quoted fields that hold delimiters, newlines and doubled quotes,
 * CRLF or LF line ends, a UTF-8 byte order mark at the start dropped,
 * blank lines between rows skipped.  With backslash set, a backslash
 * inside quotes escapes the next byte (PostgreSQL's COPY).  Hostile input
 * is bounded: past max_field bytes in a field, max_fields fields or
 * max_row bytes in a row, the row is still read to its end but the rest is
 * dropped and `over` is set, for the caller to refuse or skip the row.
 * The reader holds one buffer and one row, never the file. */
#define SW_CSV_MAX_FIELD ((size_t)1 << 20)
#define SW_CSV_MAX_FIELDS 256
#define SW_CSV_MAX_ROW ((size_t)16 << 20)

struct sw_csv {
	/* Options: the defaults after init; change them before the rows they
	 * apply to. */
	char delim;          /* ',' */
	bool backslash;
	size_t max_field, max_fields, max_row;
	/* The current row. */
	size_t nfields;
	bool over;           /* something of the row was past a limit */
	uint64_t line;       /* the line the row starts on, from 1 */
	uint64_t rows;       /* rows read so far, this one included */
	uint64_t bytes;      /* bytes read so far */
	/* Private. */
	const char *name;
	int fd;
	bool mem, eof, started, dropping;
	char *buf;
	size_t pos, len;
	int back[3], nback;
	int read_errno;
	uint64_t next_line;
	struct sw_buf row;   /* the fields, each NUL-terminated */
	size_t *off, off_cap;
};

/* Read from fd (not closed by the reader), or from len bytes of text
 * (borrowed until sw_csv_release()).  name is for messages (borrowed). */
void sw_csv_init_fd(struct sw_csv *c, int fd, const char *name);
void sw_csv_init_mem(struct sw_csv *c, const char *text, size_t len, const char *name);

/* The next row: 1, 0 at the end, or SW_EIO (a read failed: "cannot read
 * 'name': reason") or SW_EINPUT ("name:LINE: the file ends inside a quoted
 * field"). */
int sw_csv_next(struct sw_csv *c, struct sw_err *err) SW_MUST_USE;

/* Field i of the current row, NUL-terminated ("" past its end); borrowed
 * until the next sw_csv_next(). */
const char *sw_csv_field(const struct sw_csv *c, size_t i);

void sw_csv_release(struct sw_csv *c);

/* -------------------------------------------------------------------- JSON */

struct json_t;

/* Write a JSON value to f, indented, with a final newline.  Returns 0 or
 * SW_EIO. */
int sw_json_print(FILE *f, const struct json_t *value, struct sw_err *err);

/* json_string() that never fails on invalid UTF-8: bad bytes become U+FFFD.
 * Returns a new reference. */
struct json_t *sw_json_str(const char *s);
struct json_t *sw_json_strn(const char *s, size_t len);

/* A JSON number read into *out only when it is a whole number (an integer,
 * or a real with no fraction) inside [lo, hi]: a number from a server or a
 * file is never converted without this range check (casting 1e300 to long
 * is undefined).  Returns false, *out untouched, for anything else,
 * including a missing value. */
bool sw_json_int(const struct json_t *v, long long lo, long long hi, long long *out);

/* ---------------------------------------------------------------- progress */

/* A progress line for long work, drawn on stderr only when stderr is a
 * terminal: "label  done/total  rate/s  ETA".  Silent when piped.  NO_COLOR
 * turns off the colour.  Redraws at most ten times a second. */
struct sw_progress {
	const char *label; /* borrowed */
	uint64_t total;    /* 0 when unknown */
	uint64_t done;
	double start;      /* monotonic seconds */
	double last_draw;
	bool enabled;
	bool colour;
};

void sw_progress_start(struct sw_progress *p, const char *label, uint64_t total);
void sw_progress_update(struct sw_progress *p, uint64_t done);
/* Erase the line (the caller prints its own summary). */
void sw_progress_finish(struct sw_progress *p);
/* Format "label  done/total  rate  ETA" into out, for tests and logs. */
void sw_progress_format(const struct sw_progress *p, double now, char *out,
			size_t outsz);

/* Monotonic seconds. */
double sw_now(void);

/* Wall-clock time as "YYYY-MM-DDTHH:MM:SSZ" (UTC) in out[21]. */
void sw_utc_now(char out[21]);

/* -------------------------------------------------------------- databases */

/* Every SQLite database sworn keeps (a matter's matter.db, the workspace's
 * provenance.db and authorities.db) is opened here: the same pragmas (WAL,
 * synchronous=NORMAL, foreign keys), a 10 s busy timeout, extended result
 * codes, one error text, and forward migrations by PRAGMA user_version.
 * The connection belongs to one thread at a time (SQLite's default
 * serialized mode makes that safe anyway). */
struct sqlite3;

struct sw_db_schema {
	/* migrations[i] takes the database from user_version i to i + 1, in a
	 * transaction of its own; version is how many there are, the version
	 * this sworn writes.  A file with a higher version fails with
	 * SW_EINPUT ("newer than this sworn"). */
	const char *const *migrations;
	int version;
	const char *pragmas; /* run after the common ones; may be NULL */
	/* Run after the pragmas, before the migrations (registering an FTS5
	 * tokenizer the schema names); may be NULL. */
	int (*setup)(struct sqlite3 *db, struct sw_err *err);
};

/* The migrations and version of a schema (or of an owner's, below) from
 * its list alone, so that the two cannot disagree and adding a migration
 * raises the version:
 *     static const struct sw_db_schema s = { SW_DB_MIGRATIONS(list) }; */
#define SW_DB_MIGRATIONS(list) .migrations = (list), .version = (int)SW_ARRAY_LEN(list)

enum { SW_DB_CREATE = 1 << 0 }; /* create the file when it does not exist */

/* Open the database at path, set it up and migrate it to s->version.
 * SW_EDB ("cannot open 'path': ...") when SQLite fails (a file that is not
 * a database fails here), SW_EINPUT for a file newer than this sworn.  The
 * caller closes *out with sqlite3_close.  Fault seams, for tests:
 * SWORN_FAULT=db-step:N interrupts the Nth statement run on connections
 * opened here, db-prepare:N refuses the Nth statement compiled, and sql:N
 * fails the Nth sw_db_exec; with SWORN_FAULT_MARK=FILE set, the firing of
 * db-step or db-prepare creates FILE, so a loop over N can tell when N went
 * past an operation's last statement. */
int sw_db_open(struct sqlite3 **out, const char *path, const struct sw_db_schema *s,
	       unsigned flags, struct sw_err *err) SW_MUST_USE;

/* Run sql (statements without results) with sqlite3_exec: 0, or SW_EDB with
 * "database: message" (SW_EFAULT when the "sql" seam fires). */
int sw_db_exec(struct sqlite3 *db, const char *sql, struct sw_err *err) SW_MUST_USE;

/* Set err to "what: sqlite3_errmsg(db)"; returns SW_EDB. */
int sw_db_error(struct sw_err *err, struct sqlite3 *db, const char *what);

/* A database with several owners (a matter's: record/'s documents and
 * pipeline/'s run journal) keeps each owner's schema version in the table
 * schema_versions(owner, version), beside user_version (which stays the
 * first owner's, the one sw_db_open migrates).  migrations[i] takes the
 * owner from version i to i + 1, each in its own transaction that re-reads
 * the version first, so two processes migrate once.  adopt, when not NULL,
 * runs once, in the first such transaction, for a database that has no row
 * for the owner yet: it sets *version to what an older build already
 * created of the owner's tables (0 for nothing).  A current database costs
 * one read and no write lock.  SW_EINPUT when the owner's version is newer
 * than this sworn. */
struct sw_db_owner {
	const char *owner;
	const char *const *migrations;
	int version;
	int (*adopt)(struct sqlite3 *db, int *version, struct sw_err *err);
};

int sw_db_migrate_owner(struct sqlite3 *db, const struct sw_db_owner *o,
			struct sw_err *err) SW_MUST_USE;

/* Statement helpers, the same error text everywhere ("what: message").
 * sw_db_prepare compiles sql into *st (NULL on failure); sw_db_step_done
 * steps a statement that returns no row and resets it: 0 or SW_EDB.
 * sw_db_col_dup: column i as a new string, NULL for SQL NULL;
 * sw_db_bind_text_or_null binds s (copied) or NULL. */
struct sqlite3_stmt;
int sw_db_prepare(struct sqlite3_stmt **st, struct sqlite3 *db, const char *sql,
		  const char *what, struct sw_err *err) SW_MUST_USE;
int sw_db_step_done(struct sqlite3_stmt *st, const char *what, struct sw_err *err) SW_MUST_USE;
char *sw_db_col_dup(struct sqlite3_stmt *st, int i);
void sw_db_bind_text_or_null(struct sqlite3_stmt *st, int i, const char *s);

/* ------------------------------------------------------------ fault seams */

/* Tests make the Nth call at a named site fail by setting, before the
 * program starts, SWORN_FAULT="site:N" (the Nth hit returns true) or
 * SWORN_FAULT="site:N:crash" (the Nth hit kills the process with SIGKILL,
 * as a power cut would), or SWORN_FAULT="site:N:pause" (the Nth hit waits,
 * up to a minute, until the file SWORN_FAULT_RELEASE names exists, then
 * returns false: a test holds the process there to make a race happen).
 * Returns false when no fault is set for site.  With SWORN_FAULT_MARK=FILE
 * set, the firing creates FILE. */
bool sw_fault(const char *site);

/* ------------------------------------------------------------------- text */

/* Trim ASCII whitespace at both ends in place; returns s. */
char *sw_trim(char *s);

/* Parse a non-negative decimal that fits in uint64_t; false on anything
 * else (signs, spaces, overflow, empty). */
bool sw_parse_u64(const char *s, size_t len, uint64_t *out);

/* Parse a whole string as a decimal integer (an optional sign, digits) in
 * [lo, hi]; false on anything else (spaces, trailing bytes, overflow). */
bool sw_parse_int(const char *s, long long lo, long long hi, long long *out);

/* Parse a whole string as a finite number in [lo, hi]; false on anything
 * else (spaces, trailing bytes, inf, nan). */
bool sw_parse_double(const char *s, double lo, double hi, double *out);

/* Case-insensitive ASCII comparison. */
bool sw_streq_ci(const char *a, const char *b);

/* --------------------------------------------------------------- processes */

/* A program to start.  Its stdin is stdin_path or /dev/null; stdout and
 * stderr are both appended to log_path (created 0600), or go to /dev/null
 * (a reader's stdout is its pipe).  It inherits no descriptor but 0, 1 and
 * 2.  Signal mask and dispositions are reset to the defaults. */
struct sw_proc_spec {
	const char *const *argv; /* argv[0]: a path, or a name looked up in PATH */
	const char *const *env;  /* "NAME=VALUE" entries set on top of the current
			       environment (replacing those names); NULL-terminated,
			       or NULL */
	const char *log_path;
	bool own_group;     /* start a new process group */
	const char *stdin_path; /* the child's stdin: this file, or /dev/null
				   when NULL */
};

/* Start spec; *pid gets the child's pid.  SW_ENOTFOUND when the program
 * does not exist, SW_EIO when it cannot be started. */
int sw_proc_spawn(int *pid, const struct sw_proc_spec *spec,
		  struct sw_err *err) SW_MUST_USE;

/* A child whose stdout the caller reads: sw_proc_reader_open() starts
 * spec with stdout on a pipe (stderr goes to spec->log_path, or
 * /dev/null), sw_proc_reader_close() ends it. */
struct sw_proc_reader {
	int fd;  /* the read end of the child's stdout (close-on-exec), or -1 */
	int pid; /* the child, or -1 */
};

/* Start spec with its stdout on r->fd.  Errors as sw_proc_spawn(), and
 * SW_ENOTFOUND when spec->stdin_path cannot be opened. */
int sw_proc_reader_open(struct sw_proc_reader *r, const struct sw_proc_spec *spec,
			struct sw_err *err) SW_MUST_USE;

/* Close r->fd and wait for the child to end (a child still writing gets
 * SIGPIPE); *code (may be NULL) gets its exit status, or 128 + the signal
 * that killed it.  0, or SW_ENOTFOUND when there was no child to wait
 * for.  Accepts a reader that failed to open. */
int sw_proc_reader_close(struct sw_proc_reader *r, int *code);

/* Run spec to its end with its stdout captured into out (replaced).  More
 * than limit bytes (SW_ELIMIT) or, when timeout_ms is not 0, a run longer
 * than that (SW_EIO) kills the child.  0 when it ran to its end, whatever
 * its exit status: *code (may be NULL) gets it as sw_proc_reader_close()
 * says.  Start errors as sw_proc_spawn(). */
int sw_proc_capture(struct sw_buf *out, int *code, const struct sw_proc_spec *spec,
		    size_t limit, unsigned timeout_ms, struct sw_err *err) SW_MUST_USE;

/* Wait up to timeout_ms for a child to end.  1: it ended and *code (may be
 * NULL) got its exit status, or 128 + the signal that killed it; 0: still
 * running; SW_ENOTFOUND: not a child of this process. */
int sw_proc_wait(int *code, int pid, unsigned timeout_ms);

/* The start time of a running process (clock ticks since boot, from
 * /proc/PID/stat), or 0 when there is none or it is a zombie.  With the pid
 * it names a process across a pid being recycled. */
unsigned long long sw_proc_start_ticks(int pid);

/* Whether pid runs and, when start_ticks is not 0, is the process that
 * started then. */
bool sw_proc_running(int pid, unsigned long long start_ticks);

/* SIGTERM, then SIGKILL after grace_ms; reaps it when it is a child.
 * 0 when it ended on SIGTERM (or was gone), 1 when it needed SIGKILL. */
int sw_proc_stop(int pid, unsigned grace_ms, struct sw_err *err);

/* fork() a background process in a new session with stdin /dev/null and
 * stdout/stderr appended to log_path.  Returns the child's pid in the
 * caller, 0 in the child, or a negative SW_E* code. */
int sw_proc_daemonize(const char *log_path, struct sw_err *err);

/* ----------------------------------------------------------------- modules */

/* sworn's own shared modules: the code that links a large native library
 * (poppler, GMime...) is built as sworn-NAME.so and loaded the first time
 * a command needs it, so that the commands that do not start fast.  A
 * subsystem with a module keeps its public functions in the binary as thin
 * stubs that call through a table the module exports (extract/'s is the
 * model); what goes through the table are the subsystem's own types.
 *
 * Load sworn-NAME.so from the folder of the running executable
 * (/proc/self/exe): PREFIX/lib/sworn beside an installed PREFIX/bin/sworn,
 * BUILD/lib/sworn in a build folder; *out gets the address of its symbol
 * SYMBOL.  The module stays loaded.  SW_ENOTFOUND when there is no such
 * file, SW_EIO when it cannot be loaded (a library it needs is missing: the
 * message names it) or lacks SYMBOL.  Thread-safe; keeps no state (callers
 * keep what it gave them). */
int sw_module_load(void **out, const char *name, const char *symbol,
		   struct sw_err *err) SW_MUST_USE;

/* Whether a loaded module is one of this build: its ABI, version and the
 * sizes of the structs it shares with the executable must equal ours.
 * SW_EIO, saying to reinstall, otherwise.  name: "extract" for
 * sworn-extract.so. */
int sw_module_check(const char *name, unsigned abi, unsigned want_abi, const char *version,
		    const size_t *sizes, const size_t *want_sizes, size_t nsizes,
		    struct sw_err *err) SW_MUST_USE;

#endif /* SW_BASE_H */
