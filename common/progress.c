/* progress.c - progress lines on stderr; see progress.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "progress.h"

#define TTY_EVERY 0.2  /* seconds between redraws on a terminal */
#define LOG_EVERY 10.0 /* between lines elsewhere */

double
progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void
progress_init(struct progress *p, const struct copt *c)
{
	memset(p, 0, sizeof *p);
	p->on = copt_show_progress(c);
	p->tty = p->on && isatty(STDERR_FILENO);
	p->unit = "";
	p->every = p->tty ? TTY_EVERY : LOG_EVERY;
	p->t0 = p->last = progress_now();
	const char *e = getenv("GNNPIPE_PROGRESS_EVERY");
	if (p->on && e != NULL && *e != '\0') {
		char *end;
		double x = strtod(e, &end);
		if (*end != '\0' || !isfinite(x) || x < 0)
			die_usage("GNNPIPE_PROGRESS_EVERY=%s: expected seconds >= 0", e);
		p->every = x;
		p->last = -INFINITY;
	}
}

void
progress_start(struct progress *p, const char *unit, int64_t total, const char *label, ...)
{
	va_list ap;

	if (!p->on)
		return;
	p->unit = unit ? unit : "";
	p->total = total > 0 ? total : 0;
	p->done = 0;
	p->label[0] = '\0';
	p->note[0] = '\0';
	if (label != NULL) {
		va_start(ap, label);
		vsnprintf(p->label, sizeof p->label, label, ap);
		va_end(ap);
	}
	p->t0 = progress_now();
	p->drawn = 0;
}

void
progress_note(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->on)
		return;
	va_start(ap, fmt);
	vsnprintf(p->note, sizeof p->note, fmt, ap);
	va_end(ap);
}

char *
progress_duration(char *buf, size_t len, double s)
{
	long long t;

	if (!(s >= 0) || s > 1e9) /* NaN, or a rate of 0 */
		snprintf(buf, len, "?");
	else if (s < 10)
		snprintf(buf, len, "%.1f s", s);
	else if ((t = (long long)(s + 0.5)) < 60)
		snprintf(buf, len, "%lld s", t);
	else if (t < 3600)
		snprintf(buf, len, "%lld min %02lld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%lld h %02lld min", t / 3600, t / 60 % 60);
	return buf;
}

/* 1234567 -> "1,234,567" */
static char *
group(char *buf, size_t len, int64_t x)
{
	char d[32];
	size_t n, i, o = 0;

	snprintf(d, sizeof d, "%" PRId64, x);
	n = strlen(d);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && d[i - 1] != '-' && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
	return buf;
}

/* The line without its end: "prog: label: done/total unit (p%), rate, left; note" */
static void
draw(struct progress *p, double t, int final)
{
	char a[32], b[32], r[48], left[40];
	double el = t - p->t0, rate = el > 0 ? (double)p->done / el : 0;

	if (p->tty)
		fputs("\r", stderr);
	fprintf(stderr, "%s: %s%s", err_prog(), p->label, p->label[0] ? ": " : "");
	if (p->total > 0)
		fprintf(stderr, "%s/%s %s (%d%%)", group(a, sizeof a, p->done),
			group(b, sizeof b, p->total), p->unit,
			(int)(100.0 * (double)p->done / (double)p->total));
	else
		fprintf(stderr, "%s %s", group(a, sizeof a, p->done), p->unit);
	if (final) {
		fprintf(stderr, " in %s", progress_duration(left, sizeof left, el));
	} else if (p->done > 0 && el > 0) {
		if (rate >= 100)
			snprintf(r, sizeof r, "%.0f/s", rate);
		else if (rate >= 1)
			snprintf(r, sizeof r, "%.3g/s", rate);
		else
			snprintf(r, sizeof r, "%s each",
				 progress_duration(left, sizeof left, 1 / rate));
		fprintf(stderr, ", %s", r);
		if (p->total > 0)
			fprintf(stderr, ", %s%s left", p->at_most ? "at most " : "",
				progress_duration(left, sizeof left,
						  (double)(p->total - p->done) / rate));
	}
	if (p->note[0])
		fprintf(stderr, "; %s", p->note);
	if (p->tty) {
		fputs("\033[K", stderr);
		err_tty_line(1);
	} else {
		fputc('\n', stderr);
	}
	fflush(stderr);
	p->last = t;
	p->drawn = 1;
}

void
progress_update(struct progress *p, int64_t done)
{
	double t;

	if (!p->on)
		return;
	p->done = done;
	t = progress_now();
	if (t - p->last < p->every)
		return;
	fflush(stdout);
	draw(p, t, 0);
}

void
progress_done(struct progress *p)
{
	if (!p->on)
		return;
	if (p->tty) {
		if (p->drawn) {
			fputs("\r\033[K", stderr);
			fflush(stderr);
			err_tty_line(0);
		}
	} else {
		draw(p, progress_now(), 1); /* --progress asked for it */
	}
	p->drawn = 0;
}
