/*
 * mem.h - the memory that a piece of work will need, checked before it
 * starts against what this process can still get, so that a graph too
 * large for the machine is refused in one line (and one that fits is not)
 * instead of ending in swap or in the kernel's out-of-memory killer.
 *
 * Ownership: nothing here allocates or keeps state; mem_room() reads
 * /proc and /sys on each call.
 *
 * The room of the process is what it holds now (its resident set) plus
 * the least that any of these leaves:
 *   the machine    MemAvailable of /proc/meminfo;
 *   a container    the memory cgroup's limit minus its usage, its
 *                  reclaimable file cache not counted as used (cgroup v2:
 *                  memory.max, memory.current and memory.stat's
 *                  inactive_file, for the process's group and each group
 *                  above it; v1: memory.limit_in_bytes, usage_in_bytes
 *                  and total_inactive_file);
 *   ulimit         RLIMIT_AS minus the address space in use (VmSize),
 *                  RLIMIT_DATA minus the data segment (VmData).
 * Swap is not counted: a run that pages its working set does not end.
 *
 * GNNPIPE_MEMORY in the environment replaces the measurement: "off" turns
 * the check off, and a size (bytes, or a number with K, M, G or T, powers
 * of 1024: "12G", "1.5T") is taken as the room.  Anything else is a usage
 * error (exit 2).
 */
#ifndef GNN_MEM_H
#define GNN_MEM_H

#include <stddef.h>

/*
 * Bytes this process may hold in all (its resident set included), and in
 * src (len bytes) the limit that decides it: "MemAvailable", "cgroup
 * memory.max", "RLIMIT_AS", "RLIMIT_DATA" or "GNNPIPE_MEMORY".  Returns
 * HUGE_VAL with GNNPIPE_MEMORY=off, or where nothing can be read.
 * Time complexity: O(1) (a few small files).
 */
double mem_room(char *src, size_t len);

/*
 * Die with one line (exit 1) when need bytes, the estimated peak of the
 * whole process for the work about to start, exceed mem_room():
 *   "prog: WHAT needs about 7.3 GiB, this process can have 5.1 GiB
 *    (MemAvailable); GNNPIPE_MEMORY=off tries anyway"
 * where WHAT is the printf-style fmt (say "g.el: graph 0 (2^26 nodes, 1
 * edge)").  Returns when it fits.
 */
void mem_require(double need, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same with a hint, said before "GNNPIPE_MEMORY=off tries anyway"
 * (the options that would fit, say); hint NULL: mem_require(). */
void mem_require_or(double need, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "850 MiB", "7.3 GiB": a size for people, into buf (len >= 32). */
char *mem_size(char *buf, size_t len, double bytes);

#endif
