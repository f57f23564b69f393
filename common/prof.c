/* prof.c - clocks and GNN_PROFILE's phase table; see prof.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "err.h"
#include "prof.h"

void
prof_init(struct prof *p, int nph, const char *const *name)
{
	const char *pe = getenv("GNN_PROFILE");

	memset(p, 0, sizeof *p);
	p->on = pe && strcmp(pe, "1") == 0;
	p->nph = nph < PROF_MAXPH ? nph : PROF_MAXPH;
	p->name = name;
}

double
prof_clock_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void
prof_mark(struct prof *p, int ph)
{
	if (!p->on)
		return;
	double w = prof_clock_s(CLOCK_MONOTONIC), c = prof_clock_s(CLOCK_PROCESS_CPUTIME_ID);
	if (ph >= 0) {
		p->wall[ph] += w - p->w;
		p->cpu[ph] += c - p->c;
	}
	p->w = w;
	p->c = c;
}

void
prof_print(const struct prof *p, const char *what, int64_t epochs)
{
	double tw = 0, tc = 0, la[3] = { -1, -1, -1 };
	if (!p->on)
		return;
	for (int i = 0; i < p->nph; i++) {
		tw += p->wall[i];
		tc += p->cpu[i];
	}
	if (getloadavg(la, 3) < 0)
		la[0] = la[1] = la[2] = -1;
	fflush(stdout);
	fprintf(stderr, "%s: profile: %s; wall %.2f s, CPU %.2f s; load %.2f %.2f %.2f\n",
		err_prog(), what, tw, tc, la[0], la[1], la[2]);
	fprintf(stderr, "%-32s %10s %10s %14s %7s\n", "phase", "wall s", "CPU s", "CPU ms/epoch",
		"CPU %");
	for (int i = 0; i < p->nph; i++)
		fprintf(stderr, "%-32s %10.3f %10.3f %14.2f %7.1f\n", p->name[i], p->wall[i],
			p->cpu[i], epochs ? 1e3 * p->cpu[i] / (double)epochs : 0,
			tc > 0 ? 100 * p->cpu[i] / tc : 0);
}

double
prof_now(void)
{
	return prof_clock_s(CLOCK_MONOTONIC);
}

double
prof_cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	       (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

double
prof_peak_rss_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

double
prof_median(double *x, long long n)
{
	for (long long i = 1; i < n; i++)
		for (long long j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double t = x[j];
			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}
