/* mem.c - the memory a process can still get; see mem.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "err.h"
#include "mem.h"

/* A cgroup limit at or above this is "no limit" (v1 writes 2^63 - 4096). */
#define NO_LIMIT 0x1p60

/* The value of "key" in a "key value [kB]" file (/proc/meminfo,
 * /proc/self/status, memory.stat), in bytes (kB times 1024); -1 if absent. */
static double
file_key(const char *path, const char *key)
{
	char line[256];
	size_t k = strlen(key);
	double v = -1;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, k) == 0 && (line[k] == ':' || line[k] == ' ')) {
			char *end;
			v = strtod(line + k + 1 + strspn(line + k + 1, " \t"), &end);
			if (strstr(end, "kB"))
				v *= 1024;
			break;
		}
	fclose(f);
	return v;
}

/* A file holding one number ("max" or absent: -1). */
static double
file_number(const char *path)
{
	char buf[64], *end;
	double v;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	if (!fgets(buf, sizeof buf, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	v = strtod(buf, &end);
	return end == buf ? -1 : v;
}

/* What the cgroup directory dir leaves (limit - usage + inactive file
 * cache), or HUGE_VAL when it sets no limit. */
static double
cgroup_left(const char *dir, int v2)
{
	char p[4096 + 32]; /* dir and a file name */
	double lim, use, cache;

	snprintf(p, sizeof p, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
	lim = file_number(p);
	if (lim < 0 || lim >= NO_LIMIT)
		return HUGE_VAL;
	snprintf(p, sizeof p, "%s/%s", dir, v2 ? "memory.current" : "memory.usage_in_bytes");
	if ((use = file_number(p)) < 0)
		return HUGE_VAL;
	snprintf(p, sizeof p, "%s/memory.stat", dir);
	cache = file_key(p, v2 ? "inactive_file" : "total_inactive_file");
	return fmax(0, lim - use + fmax(0, cache));
}

/* The least that the process's memory cgroup, or any above it, leaves.
 * Inside a cgroup namespace the group's own path may not exist under
 * /sys/fs/cgroup: its mount root is then the group. */
static double
cgroup_room(void)
{
	char line[4096], dir[4096];
	double best = HUGE_VAL;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (f == NULL)
		return HUGE_VAL;
	while (fgets(line, sizeof line, f)) {
		char *path = strrchr(line, ':'), *ctl = strchr(line, ':');
		const char *root;
		int v2;
		if (path == NULL || ctl == path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		ctl++;
		v2 = *ctl == '\0';
		if (!v2 && !strstr(ctl, "memory"))
			continue;
		root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
		snprintf(dir, sizeof dir, "%s%s", root, path);
		for (;;) {
			char *slash;
			best = fmin(best, cgroup_left(dir, v2));
			if (strcmp(dir, root) == 0)
				break;
			if ((slash = strrchr(dir, '/')) == NULL || slash < dir + strlen(root))
				break;
			*slash = '\0';
		}
	}
	fclose(f);
	return best;
}

/* A size: bytes or a number with K, M, G or T; -1 if it is not one. */
static double
parse_size(const char *s)
{
	char *end;
	double v = strtod(s, &end), k = 1;

	if (end == s || !isfinite(v) || v < 0)
		return -1;
	switch (*end) {
	case 'T':
	case 't':
		k *= 1024; /* FALLTHROUGH */
	case 'G':
	case 'g':
		k *= 1024; /* FALLTHROUGH */
	case 'M':
	case 'm':
		k *= 1024; /* FALLTHROUGH */
	case 'K':
	case 'k':
		k *= 1024;
		end++;
		break;
	default:
		break;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	return *end == '\0' ? v * k : -1;
}

/* Keep the smaller of room and x, naming its source. */
static void
least(double *room, char *src, size_t len, double x, const char *name)
{
	if (x >= 0 && x < *room) {
		*room = x;
		snprintf(src, len, "%s", name);
	}
}

double
mem_room(char *src, size_t len)
{
	const char *e = getenv("GNNPIPE_MEMORY");
	double rss, room = HUGE_VAL, x;
	struct rlimit rl;

	snprintf(src, len, "no limit found");
	if (e != NULL && *e != '\0') {
		if (strcmp(e, "off") == 0)
			return HUGE_VAL;
		if ((x = parse_size(e)) < 0)
			die_usage("GNNPIPE_MEMORY=%s: expected off or a size (bytes, or with "
				  "K, M, G, T)",
				  e);
		snprintf(src, len, "GNNPIPE_MEMORY");
		return x;
	}
	rss = fmax(0, file_key("/proc/self/status", "VmRSS"));
	least(&room, src, len, file_key("/proc/meminfo", "MemAvailable"), "MemAvailable");
	least(&room, src, len, cgroup_room(), "cgroup memory limit");
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		least(&room, src, len,
		      fmax(0, (double)rl.rlim_cur - file_key("/proc/self/status", "VmSize")),
		      "RLIMIT_AS");
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		least(&room, src, len,
		      fmax(0, (double)rl.rlim_cur - file_key("/proc/self/status", "VmData")),
		      "RLIMIT_DATA");
	return room + rss;
}

char *
mem_size(char *buf, size_t len, double b)
{
	if (b >= 0x1p30)
		snprintf(buf, len, "%.1f GiB", b / 0x1p30);
	else
		snprintf(buf, len, "%.0f MiB", ceil(b / 0x1p20));
	return buf;
}

/* Die with the line of mem_require(), hint (or nothing) before its
 * last clause, when need does not fit. */
static void
require(double need, const char *hint, const char *fmt, va_list ap)
{
	char what[400], src[64], a[32], b[32];
	double room = mem_room(src, sizeof src);

	if (need <= room)
		return;
	vsnprintf(what, sizeof what, fmt, ap);
	die("%s needs about %s, this process can have %s (%s); %s%sGNNPIPE_MEMORY=off "
	    "tries anyway",
	    what, mem_size(a, sizeof a, need), mem_size(b, sizeof b, room), src, hint ? hint : "",
	    hint ? "; " : "");
}

void
mem_require(double need, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	require(need, NULL, fmt, ap);
	va_end(ap);
}

void
mem_require_or(double need, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	require(need, hint, fmt, ap);
	va_end(ap);
}
