/*
 * test_probe_data.c - a linear probe's items read from a stream
 * (common/probe_data.c): the nodes of one graph, the graphs pooled, and
 * the class checks, on streams written by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "err.h"
#include "probe.h"
#include "probe_data.h"

static char dir[] = "/tmp/probe_dataXXXXXX";
static char path[64];

/* The text stream s in a file of its own; path names it. */
static char *
stream_file(const char *s)
{
	FILE *f;

	err_setprog("test_probe_data");
	cr_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/in.txt", dir);
	cr_assert((f = fopen(path, "w")) != NULL);
	fputs(s, f);
	cr_assert(fclose(f) == 0);
	return path;
}

static void
remove_file(void)
{
	unlink(path);
	rmdir(dir);
}

Test(probe_data, nodes_of_one_graph_classes_first)
{
	char *files[] = { stream_file(
	    "##gnnstream 1\n"
	    "@graph id=7 nodes=4 edges=2 dataset=toy\n0 1\n2 3\n"
	    "@tensor id=7 name=cluster rows=4 cols=1 type=i32\n1\n0\n-1\n1\n"
	    "@tensor id=7 name=emb rows=4 cols=2 type=f32 scale=x\n"
	    "1 2\n3 4\n5 6\n7 8\n"
	    "@end\n") };
	struct probe_ask a = {
		.task = PROBE_TASK_NODE, .tensor = "emb", .label = "cluster", .folds = 2, .quiet = 1
	};
	struct probe_input in;

	probe_input_read(&in, &a, 1, files);
	cr_expect(in.n == 4 && in.D == 2 && in.C == 2);
	cr_expect_str_eq(in.dataset, "toy");
	for (int i = 0; i < 8; i++)
		cr_expect(in.X[i] == i + 1, "X[%d] = %g", i, in.X[i]);
	cr_expect(in.y[0] == 1 && in.y[1] == 0 && in.y[2] == -1 && in.y[3] == 1);
	cr_expect_str_eq(gs_attr_get(&in.attrs, "scale"), "x");
	probe_input_free(&in);
	remove_file();
}

/* Three graphs of 2, 3 and 1 nodes, one value a node, pooled mean then
 * max; the third has no label record: no class.  (--folds: a class of one
 * item is allowed.) */
Test(probe_data, graphs_pooled_meanmax)
{
	char *files[] = { stream_file("##gnnstream 1\n"
				      "@graph id=0 nodes=2 edges=1\n0 1\n"
				      "@tensor id=0 name=f rows=2 cols=1 type=f64\n1\n3\n"
				      "@label id=0 name=label value=1\n"
				      "@graph id=1 nodes=3 edges=1\n0 1\n"
				      "@label id=1 name=label value=0\n"
				      "@tensor id=1 name=f rows=3 cols=1 type=f64\n-2\n4\n1\n"
				      "@graph id=2 nodes=1 edges=0\n"
				      "@tensor id=2 name=f rows=1 cols=1 type=f64\n5\n"
				      "@end\n") };
	struct probe_ask a = { .task = PROBE_TASK_GRAPH,
			       .tensor = "f",
			       .label = "label",
			       .pool = PROBE_POOL_MEANMAX,
			       .folds = 2,
			       .quiet = 1 };
	double want[] = { 2, 3, 1, 4, 5, 5 };
	struct probe_input in;

	probe_input_read(&in, &a, 1, files);
	cr_expect(in.n == 3 && in.D == 2 && in.C == 2);
	cr_expect_str_eq(in.dataset, path);
	for (int i = 0; i < 6; i++)
		cr_expect(in.X[i] == want[i], "X[%d] = %g, want %g", i, in.X[i], want[i]);
	cr_expect(in.y[0] == 1 && in.y[1] == 0 && in.y[2] == -1);
	probe_input_free(&in);
	remove_file();
}

/* From standard input (a pipe: the process dies before it could remove
 * a file). */
Test(probe_data, one_class_is_refused, .exit_code = 1)
{
	static const char s[] = "##gnnstream 1\n"
				"@graph id=0 nodes=2 edges=1\n0 1\n"
				"@tensor id=0 name=c rows=2 cols=1 type=i64\n0\n0\n"
				"@tensor id=0 name=v rows=2 cols=1 type=f64\n1\n2\n"
				"@end\n";
	struct probe_ask a = { .task = PROBE_TASK_NODE, .tensor = "v", .label = "c", .folds = 2 };
	struct probe_input in;
	int fd[2];

	err_setprog("test_probe_data");
	cr_assert(pipe(fd) == 0);
	cr_assert(write(fd[1], s, sizeof s - 1) == (ssize_t)(sizeof s - 1));
	close(fd[1]);
	cr_assert(dup2(fd[0], 0) == 0);
	probe_input_read(&in, &a, 0, NULL);
}
