/*
 * outfile.h - output files that are never left half-written and never
 * clobber what they should not (the -o contract, gnnpipe(7)):
 *
 *   - a path that does not exist yet, or names a regular file, is written
 *     as a temporary file PATH.tmpXXXXXX beside it and renamed over PATH
 *     only when complete; a replaced file keeps its permission bits (and,
 *     when root replaces it, its owner);
 *   - an existing regular file with no write permission bit (0444), or one
 *     the user may not write, is refused in one line, never replaced;
 *   - a symbolic link stays a link: the file it leads to is written as
 *     above (the temporary beside the link's target, renamed over the
 *     target); a link to a file that does not exist yet creates that file;
 *   - a link to the file that is the program's standard output
 *     (/dev/stdout, /proc/self/fd/1 with stdout redirected to a file) is
 *     written through standard output itself;
 *   - a device, a FIFO or a socket (/dev/null, a named pipe, a terminal),
 *     directly or through a link, is written directly: renaming a file
 *     over it would replace it (as root, /dev/null itself);
 *   - if the program dies first (die(), an error exit through err.c, or
 *     SIGINT, SIGTERM or SIGHUP where the program left their default
 *     action), every temporary file still open is removed.
 *
 * Several outputs may be open at once (gcn-train's model and its
 * checkpoints), and may commit together (outfile_hold()).  Not
 * thread-safe: open and commit from one thread.
 *
 * Ownership: outfile_open() allocates *tmp; outfile_commit() takes it.
 */
#ifndef GNN_OUTFILE_H
#define GNN_OUTFILE_H

/*
 * Open path for writing as above; returns the file descriptor, and in *tmp
 * the temporary path to pass to outfile_commit() (NULL when path is
 * written directly).  Dies on failure, with one line naming path.
 * Time complexity: O(links followed), at most 40.
 */
int outfile_open(const char *path, char **tmp);

/*
 * Rename tmp over the file outfile_open() chose for path and free tmp
 * (nothing when tmp is NULL).  Call it after the descriptor is closed
 * without error.  Between outfile_hold() and outfile_release() the rename
 * waits (the temporary stays, and is removed if the program dies).  Dies
 * on failure.
 */
void outfile_commit(const char *path, char *tmp);

/*
 * A group commit, for a program whose outputs belong together (gcn-adapt's
 * predictions and --save-model): after outfile_hold(), outfile_commit()
 * only marks a file complete; outfile_release() then renames every file
 * marked, one after the other.  If the program dies before, no output is
 * replaced.  The renames themselves are not one atomic step: should one
 * fail (its directory made read-only in between), the files renamed
 * before it stay replaced.  Time complexity: O(open outputs).
 */
void outfile_hold(void);
void outfile_release(void);

/*
 * Check up front that path can be written as outfile_open() would write
 * it (the directory exists and is writable, an existing file is not
 * read-only), without changing anything: dies as outfile_open() would.
 * A device or FIFO is not opened (a FIFO would wait for a reader).
 */
void outfile_check(const char *path);

/*
 * Whether paths a and b name the same file: the same device and inode
 * when both exist (links followed); when neither exists, the same name in
 * the same directory (a dangling link counts as the name it leads to).
 * A path that exists and one that does not are different files.
 * Time complexity: O(links followed).
 */
int outfile_same(const char *a, const char *b);

/*
 * Whether an output to a would write over the file b (an input, another
 * output): outfile_same(a, b), unless a is a character device (/dev/null,
 * a terminal), which several outputs may share.
 */
int outfile_clash(const char *a, const char *b);

/*
 * A program's output i (out[i], named opt[i] in messages) is a file of its
 * own: dies (usage, exit 2) when it clashes (outfile_clash()) with an
 * earlier output out[0 .. i) (NULL: not written) or with one of the input
 * files[0 .. nfiles) ("-", or none at all: standard input, compared by
 * fstat(0)), which it would replace.  Called for each output in turn, with the program's own checks
 * (--model, --config ...) after it.  Time complexity: O(i + nfiles).
 */
void outfile_distinct(int i, const char *const *opt, const char *const *out, int nfiles,
		      char *const *files);

/*
 * The output out (named opt) is not the file the option in_opt reads, in
 * (NULL: none): dies (usage, exit 2) when they clash (outfile_clash()),
 * as "-o m.gs: the same file as --model m.gs, which it would replace".
 * Time complexity: O(links followed).
 */
void outfile_not_input(const char *opt, const char *out, const char *in_opt, const char *in);

/*
 * Every file a program reads is registered as it is opened, by the
 * openers of common/ (gs_open_in, lr_open, cfg_load, import_table_read), with
 * its identity (st_dev, st_ino; links and hard links are one file), and
 * standard input with fstat(0).  An output never replaces an input: an
 * output opened (outfile_open(), or a stream's standard output that is a
 * regular file) over a file registered as read, or an input opened that
 * is the file an open output will replace, dies in one line (exit 2)
 * before anything is replaced, whichever came first.  Only regular files
 * count (a device, FIFO or socket is never replaced).  Not thread-safe.
 * Time complexity: O(inputs + outputs) a call.
 */
void outfile_input_fd(int fd, const char *name);
void outfile_input_path(const char *path);

/*
 * The one output that may replace an input by design (gcn-train's
 * --checkpoint over the file --resume read): the file at path, as it is
 * now, is exempt from the check above.
 */
void outfile_may_replace(const char *path);

/*
 * Standard output, when the program writes a stream there: dies as
 * above when it is a regular file that is also an input (prog < f >> f).
 */
void outfile_stdout(void);

#endif
