#!/usr/bin/env python3
"""Summarises a LARDER_TRACE file (see Sources/LarderCore/Pipeline/WorkTrace.swift): where an ingest's wall time
went, phase by phase and, while documents ran, thread by thread.

Usage: trace-summary.py TRACE [--start T0 --end T1 --cpu SECONDS]
  --start/--end: the outer wall-clock times of `larder ingest` (seconds since 1970), as scripts/dev/trace-ingest.sh
  passes them; without them the first and last traced instants are used.
  --cpu: user + system CPU seconds of the run (larder and its worker), for CPU per wall second.
"""
import argparse
import collections
import statistics
import sys


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 9:
                continue
            pid, tid, kind, label, doc, t0, t1, cpu, blocks = parts
            rows.append((int(pid), int(tid), kind, label, None if doc == "-" else int(doc), float(t0), float(t1),
                         float(cpu), int(blocks)))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--start", type=float)
    ap.add_argument("--end", type=float)
    ap.add_argument("--cpu", type=float)
    args = ap.parse_args()
    rows = load(args.trace)
    if not rows:
        sys.exit("trace-summary: no trace lines in %s" % args.trace)
    marks = collections.defaultdict(list)
    for pid, tid, kind, label, doc, t0, t1, cpu, _ in rows:
        if kind == "mark":
            marks[label].append(t0)
    begin = args.start if args.start is not None else min(r[5] for r in rows if r[2] != 'runqueue')
    end = args.end if args.end is not None else max(r[6] for r in rows)
    wall = end - begin
    threads = {}
    for pid, tid, kind, label, doc, t0, t1, cpu, _ in rows:
        if kind == "thread":
            threads[(pid, tid)] = (t0, t1)
    if not threads:
        sys.exit("trace-summary: no work-queue threads in the trace (nothing to process?)")
    first_thread = min(t0 for t0, _ in threads.values())
    last_end = max(t1 for _, t1 in threads.values())
    first_end = min(t1 for _, t1 in threads.values())
    m = lambda name, default: min(marks[name]) if marks.get(name) else default

    spawn = m("spawn", begin)
    main_ = m("main", spawn)
    pipeline = m("pipeline", main_)
    queue = m("queue", pipeline)
    exit_ = max(marks["exit"]) if marks.get("exit") else last_end

    print("wall %.3f s%s" % (wall, "" if args.cpu is None else ", CPU %.3f s = %.2f cores busy on average" % (args.cpu, args.cpu / wall)))
    print()
    print("%-58s %8s  %s" % ("phase", "ms", "cores at work"))
    if marks.get("gate"):  # started early: the worker starts and warms up while larder registers the files
        gate = min(marks["gate"])
        warm = [r for r in rows if r[2] == "warm-up"]
        phases = [
            ("larder start (to the worker's spawn)", spawn - begin, "1 (larder)"),
            ("registration in larder | worker start-up and warm-up", gate - spawn, "2"),
            ("  of which the worker's exec and set-up (spawn to pipeline)", pipeline - spawn, ""),
            ("  of which the warm-up", sum(r[6] - r[5] for r in warm), ""),
            ("queue start: recovery, counting (gate to threads)", first_thread - gate, "1"),
        ]
    else:
        phases = [
            ("larder start and registration (to the worker's spawn)", spawn - begin, "1 (larder)"),
            ("worker exec and dynamic linking (spawn to main)", main_ - spawn, "1"),
            ("worker set-up: lock, database, stages (main to pipeline)", pipeline - main_, "1"),
            ("queue start: recovery, counting (pipeline to threads)", first_thread - pipeline, "1"),
        ]
    phases += [
        ("documents, all threads running (to the first thread's end)", first_end - first_thread, "%d threads" % len(threads)),
        ("tail: the last thread alone", last_end - first_end, "1"),
        ("worker close (last thread to the worker's exit)", exit_ - last_end, "1"),
        ("larder summary and exit", end - exit_, "1"),
    ]
    for name, d, cores in phases:
        print("%-58s %s  %s" % (name, ms(d), cores))

    print()
    print("per work-queue thread: wall ms (CPU ms) by kind; blocked = lifetime - CPU - waiting for a core")
    kinds = ["stage", "check", "read", "feed", "write", "commit", "lock"]
    print("%-6s %17s " % ("thread", "lifetime (CPU)") + " ".join("%17s" % k for k in kinds)
          + " %9s %9s %5s" % ("runqueue", "blocked", "docs"))
    docs = set()
    totals = collections.Counter()
    stage_totals = collections.defaultdict(list)
    runqueue = {}
    for pid, tid, kind, label, doc, t0, t1, cpu, _ in rows:
        if kind == "runqueue":
            runqueue[(pid, tid)] = t1 - t0
    for n, (key, (t0, t1)) in enumerate(sorted(threads.items(), key=lambda kv: kv[1][0])):
        wall_by, cpu_by, blocks_by = collections.Counter(), collections.Counter(), collections.Counter()
        thread_cpu = 0.0
        thread_docs = set()
        for pid, tid, kind, label, doc, a, b, cpu, blocks in rows:
            if (pid, tid) != key or kind in ("mark", "runqueue"):
                continue
            if kind == "thread":
                thread_cpu = cpu
                continue
            wall_by[kind] += b - a
            cpu_by[kind] += cpu
            blocks_by[kind] += blocks
            if doc is not None:
                thread_docs.add(doc)
            if kind == "stage":
                stage_totals[label].append((b - a, cpu))
        life = t1 - t0
        waited = runqueue.get(key, 0.0)
        blocked = max(0.0, life - thread_cpu - waited)
        for k in kinds:
            totals["wall " + k] += wall_by[k]
            totals["cpu " + k] += cpu_by[k]
            totals["blocks " + k] += blocks_by[k]
        totals["life"] += life
        totals["cpu"] += thread_cpu
        totals["runqueue"] += waited
        totals["blocked"] += blocked
        docs |= thread_docs
        print("%-6s %s " % ("#%d" % (n + 1), pair(life, thread_cpu)) + " ".join(pair(wall_by[k], cpu_by[k]) for k in kinds)
              + " %s %s %5d" % (ms(waited), ms(blocked), len(thread_docs)))
    ndocs = len(docs)
    print()
    if ndocs:
        print("per document, CPU ms (all threads): " + "  ".join(
            "%s %.3f" % (k, 1000 * totals["cpu " + k] / ndocs) for k in kinds)
            + "  untraced %.3f" % (1000 * (totals["cpu"] - sum(totals["cpu " + k] for k in kinds)) / ndocs))
        print("per document, blocked ms: %.3f (lock wait %.3f wall)" % (
            1000 * totals["blocked"] / ndocs, 1000 * totals["wall lock"] / ndocs))
        print("per document, times a thread blocked: " + "  ".join(
            "%s %.2f" % (k, totals["blocks " + k] / ndocs) for k in kinds))
        print("per stage, CPU ms mean / median / max: " + "  ".join(
            "%s %.2f/%.2f/%.1f" % (s, 1000 * statistics.mean(c for _, c in v), 1000 * statistics.median(c for _, c in v),
                                   1000 * max(c for _, c in v))
            for s, v in sorted(stage_totals.items(), key=lambda kv: -sum(c for _, c in kv[1]))))
    restarts = [(b - a, blocks) for pid, tid, kind, label, doc, a, b, cpu, blocks in rows if kind == "checkpoint"]
    if restarts:
        print("log restarts (checkpoints under the write lock): %d, %.1f ms in all" % (
            len(restarts), 1000 * sum(d for d, _ in restarts)))
    ncores = len(threads)
    # Without other work on the machine a thread is either on a core or blocked: its share of the documents' phase.
    print("work threads on a core: %.3f s CPU, %.3f s blocked, %.3f s waiting for a core (other work on the machine)"
          % (totals["cpu"], totals["blocked"], totals["runqueue"]))
    print("work threads' utilisation without other load (CPU / (CPU + blocked)): %.1f%%"
          % (100 * totals["cpu"] / (totals["cpu"] + totals["blocked"])))


def pair(wall, cpu):
    return "%8.1f (%6.1f)" % (1000 * wall, 1000 * cpu)


def ms(x):
    return "%9.1f" % (1000 * x)


if __name__ == "__main__":
    main()
