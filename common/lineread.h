/*
 * lineread.h - text files read line by line, as the dataset importers
 * read them (import.h): plain or gzip (detected), FILE or FILE.gz, each
 * line split into fields and its numbers parsed with bounds; every error
 * is one line "FILE: line N: what" in the reader's message buffer.
 *
 * Ownership: lr_open()/lr_try() fill an lreader that lr_close() releases
 * (lr_close() on a closed or zeroed reader is a no-op); a fields list owns
 * its pointer array (lr_fields_free()), not the strings, which point into the
 * line split.  The message buffer is the caller's.  Messages quote input
 * bytes; control bytes among them (tab, \v, ESC...) become '?', so a
 * message stays one line and sends nothing to a terminal.
 *
 * Files are opened through an lr_src: NULL is the file system; another
 * source (a fuzz harness's files in memory) gives a descriptor for a
 * name, so the readers run on any bytes without a path.
 */
#ifndef GNN_LINEREAD_H
#define GNN_LINEREAD_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* Where files come from: open(ctx, path) returns a descriptor to read
 * (the reader takes it over), or -1 with errno ENOENT if there is no such
 * file, or -1 with another errno. */
struct lr_src {
	int (*open)(void *ctx, const char *path);
	void *ctx;
};

/* A message buffer: where a reader's (or an importer's) error goes. */
struct lr_err {
	char *msg;
	size_t len;
};

typedef struct {
	gzFile gz;
	char path[4096]; /* as named in messages: FILE, FILE.gz or <stdin> */
	int64_t line;	 /* lines read */
	char *buf;	 /* the last line, without its line end */
	size_t cap, len;
	struct lr_err err;
} lreader;

/*
 * Open path ("-": standard input), or path.gz when path does not exist,
 * from src (NULL: the file system), its errors to err.  Returns 0; 1 if
 * neither exists; -1 with the message "PATH: strerror" on another error.
 */
int lr_try(lreader *r, const char *path, const struct lr_src *src, struct lr_err err);
/* The same, where a missing file is an error too ("PATH: No such file or
 * directory"); 0 or -1. */
int lr_open(lreader *r, const char *path, const struct lr_src *src, struct lr_err err);
void lr_close(lreader *r);

/*
 * The next line into r->buf (its line end, \n or \r\n, removed).
 * Returns 1, 0 at the end of the file, or -1 with "FILE: line N: what"
 * (a gzip error, a NUL byte).  Time: O(line length).
 */
int lr_next(lreader *r);

/* "FILE: line N: " fmt into r's message buffer; returns -1. */
int lr_bad(const lreader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fmt into err's buffer; returns -1. */
int lr_fail(struct lr_err err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Fields of a line, split in place. */
typedef struct {
	char **f;
	int n, cap;
} fields;

void lr_fields_free(fields *fs);

/*
 * Split s on sep: a single character (tab, comma, '|'), the string "::",
 * or " " for runs of blanks.  Fields of a single-character split other
 * than tab are trimmed of blanks; empty fields are kept.  Returns the
 * field count.
 */
int lr_split(fields *fs, char *s, const char *sep);
/* The separator of a delimited line: tab, else comma, else blanks. */
const char *lr_guess_sep(const char *s);
/* s without its leading and trailing blanks (cut in place). */
char *lr_trim(char *s);
/* Whether s holds blanks only. */
int lr_blank(const char *s);

/* Whole-string decimal integer in [lo, hi]: 0, or -1. */
int lr_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* Whole-string number, finite as a float too: 0, or -1. */
int lr_parse_f32(const char *s, float *out);
/* The same, an error of r ("WHAT 'x' is not an integer in lo..hi", "WHAT
 * x is out of range lo..hi", "WHAT 'x' is not a finite number") when s is
 * not one: 0 or -1. */
int lr_need_i64(const lreader *r, const char *s, int64_t lo, int64_t hi, const char *what,
		int64_t *out);
int lr_need_f32(const lreader *r, const char *s, const char *what, float *out);

#endif
