#!/usr/bin/python3
"""mpi_bench.py OUTDIR RUNS - the tables of bench/mpi.sh.

Reads OUTDIR/{batch,graph,ranks2}.R.tsv (gcn-train --bench-steps output plus
load_before/load_after) and OUTDIR/allreduce.R.tsv (mpi_allreduce) for R = 1..RUNS and OUTDIR/sizes (the node counts of
1,024 DCBM graphs), and prints markdown: the measured step of each set-up
(medians over the rounds of each run's median), then a projection of the step
across machines.

The projection (a model, not a measurement): each machine is this one, idle,
running 2 processes of 1 thread (the set-up that used the CPU best here), so
N machines run 2N processes.  The machine is shared, so its wall times carry
the other jobs' load; the projection takes a step's time on the idle machine
as its CPU seconds over the 2 cores (T2 for the 2-process step; T0 for the
default step by batch), and the share of each part from the wall times.  A
step of N machines takes
    compute(N) = T2 (p imbalance(2N) / (N imbalance(2)) + 1 - p),
      p = (build + passes + adds) / (step - allreduce) of the 2-process run,
      the slowest process's: the share that is split
    + allreduce(N) = 2 (N - 1) / N x V / bandwidth   (a ring allreduce across
      the machines; inside a machine it is shared memory)
    + validation a step = ceil(124 / 32) forward passes / 28 steps an epoch
      (the paper's 1,024 graphs: 900 train, 124 validate), the forward pass
      scaled as T0 is, split between the 2N processes as the steps are (the
      124 graphs' imbalance)
with V the bytes of the exact sums.  imbalance(N) is the slowest process's
nodes over the mean when the step's 32 graphs are split as gcn-train splits
them (largest first, each to the process with the fewest nodes), averaged over
2,000 batches drawn from the 1,024 sizes; a graph's pass is taken as
proportional to its nodes.  The bandwidths are assumptions, named in the table.
"""
import math
import random
import statistics
import sys


def read(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("\t")
            try:
                d[k] = float(v)
            except ValueError:
                d[k] = v
    return d


def med(runs, key):
    return statistics.median(r[key] for r in runs)


def imbalance(sizes, n, B=32, batches=2000, seed=1):
    rnd = random.Random(seed)
    tot = 0.0
    for _ in range(batches):
        g = sorted(rnd.sample(sizes, B), reverse=True)
        load = [0] * n
        for x in g:
            load[load.index(min(load))] += x
        tot += max(load) / (sum(g) / n)
    return tot / batches


def main():
    out, runs = sys.argv[1], int(sys.argv[2])
    rs = {c: [read(f"{out}/{c}.{r}.tsv") for r in range(1, runs + 1)]
          for c in ("batch", "graph", "ranks2", "allreduce")}
    loads = [r[k] for c in rs for r in rs[c] for k in ("load_before", "load_after")]
    b, g, r2 = rs["batch"], rs["graph"], rs["ranks2"]
    params = int(b[0]["params"])
    V = g[0]["allreduce_bytes"]

    print(f"The paper's batch: {int(b[0]['graphs'])} DCBM graphs, {int(b[0]['nodes'])} nodes, "
          f"d = 512, {params:,} parameters; {runs} rounds of the three runs, alternated, "
          f"{int(b[0]['timed_steps'])} timed steps each; medians over the rounds of each run's "
          f"median; load average {min(loads):g} to {max(loads):g} during the runs (2 cores).")
    print()
    print("| set-up | step, wall (s) | step, CPU (s) | passes (s) | adding to the exact sums (s) "
          "| allreduce in the step (s) | allreduce alone (s) | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| 1 process x 2 threads, by batch (default) | {med(b, 'wall_s_median'):.2f} | "
          f"{med(b, 'cpu_s_median'):.2f} | | | | | {med(b, 'peak_rss_mib'):.0f} |")
    print(f"| 1 process x 2 threads, by graph | {med(g, 'wall_slowest_s_median'):.2f} | "
          f"{med(g, 'cpu_s_median'):.2f} | {med(g, 'pass_s_median'):.2f} | "
          f"{med(g, 'add_s_median'):.2f} | | | {med(g, 'peak_rss_mib'):.0f} |")
    print(f"| 2 processes x 1 thread (mpirun) | {med(r2, 'wall_slowest_s_median'):.2f} | "
          f"{med(r2, 'cpu_s_median'):.2f} | {med(r2, 'pass_s_median'):.2f} | "
          f"{med(r2, 'add_s_median'):.2f} | {med(r2, 'allreduce_in_step_s_median'):.2f} | "
          f"{med(r2, 'allreduce_s_median'):.3f} | {med(r2, 'peak_rss_mib'):.0f} (rank 0) |")
    print()
    print("Wall times are the slowest process's; CPU seconds are every thread's of every "
          "process; the parts are wall seconds, the slowest process's.")
    print()
    a = rs["allreduce"]
    print(f"The allreduce moves the exact sums: {V / 1e6:.1f} MB a step (16 bytes a parameter). "
          "Its time alone is taken after the processes met; in the step it includes waiting for "
          "the slower process. Alone, between 2 processes on this machine (shared memory), "
          f"medians of 10: {med(a, 'exact_s'):.3f} s exact, {med(a, 'float_s'):.3f} s for the "
          f"same {params:,} values as a plain float MPI_SUM ({4 * params / 1e6:.1f} MB, not exact).")
    print()

    sizes = [int(x) for x in open(f"{out}/sizes").read().split()]
    split = sum(med(r2, k) for k in ("build_s_median", "pass_s_median", "add_s_median"))
    p = min(1.0, split / (med(r2, "wall_slowest_s_median") - med(r2, "allreduce_in_step_s_median")))
    t2 = med(r2, "cpu_s_median") / 2
    t0 = med(b, "cpu_s_median") / 2
    val = math.ceil(124 / 32) * med(b, "forward_s") * t0 / med(b, "wall_s_median") / 28
    one = t0 + val
    bws = (1, 10, 100)
    print("**Projection, not a measurement** (bench/mpi_bench.py says how): N machines like "
          "this one, idle, 2 processes of 1 thread each, a ring allreduce across the machines "
          "at the bandwidth named; speed-up against one machine's default step (by batch, "
          f"{t0:.2f} s, {one:.2f} s with validation). Inputs from the runs above: the "
          f"2-process step {t2:.2f} s (CPU seconds / 2 cores), {100 * p:.0f}% of it split "
          f"between the processes; validation {val:.2f} s a step on one machine, split "
          "between the processes as the steps are.")
    print()
    print("| machines | imbalance of 2N processes | compute (s) | validation (s) | " +
          " | ".join(f"allreduce {x} Gb/s (s)" for x in bws) + " | " +
          " | ".join(f"step {x} Gb/s (s)" for x in bws) + " | " +
          " | ".join(f"speed-up {x} Gb/s" for x in bws) + " |")
    print("|---" * (4 + 3 * len(bws)) + "|")
    imb2, vimb2 = imbalance(sizes, 2), imbalance(sizes, 2, 124, 200)
    for n in (1, 2, 4, 8, 16):
        imb = imbalance(sizes, 2 * n)
        comp = t2 * (p * imb / (n * imb2) + 1 - p)
        v = val * imbalance(sizes, 2 * n, 124, 200) / (n * vimb2)
        ar = [2 * (n - 1) / n * V / (x * 1e9 / 8) for x in bws]
        st = [comp + a + v for a in ar]
        print(f"| {n} | {imb:.2f} | {comp:.2f} | {v:.3f} | " + " | ".join(f"{a:.3f}" for a in ar) + " | " +
              " | ".join(f"{s:.2f}" for s in st) + " | " +
              " | ".join(f"{one / s:.1f}x" for s in st) + " |")


if __name__ == "__main__":
    main()
