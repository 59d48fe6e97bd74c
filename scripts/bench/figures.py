#!/usr/bin/env python3
"""Usage:
  scripts/bench/figures.py --collect DIR --baseline benchmarks/baseline.json   (gather `make measure`'s outputs)
  scripts/bench/figures.py [--baseline benchmarks/baseline.json]              (write the docs from the baseline)

--collect reads the JSON each evaluation printed into DIR (NAME.json, with NAME.cmd the command that made it and
NAME.seconds its wall-clock time) and writes the baseline: every figure with its corpus, split, metric, value, date
and command. Without --collect it writes, from the baseline alone, docs/accuracy.md and docs/performance.md (current
figures only) and the README's "accuracy at a glance" table between `<!-- figures:begin -->` and
`<!-- figures:end -->` (README.md is left alone when the markers are absent). Standard library only.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# name -> (corpus label, split, [(metric label, path into the JSON, kind)])   kind: accuracy | performance
DEV = "development (looked at while the rules were written)"
# The shipped receipt line model (Sources/LarderReceipts/Resources/RECEIPT-MODEL-CARD.md) trained on the photos' labels:
# its cross-validated figures are in the model card and docs/design/receipt-model.md.
PHOTOS = "development (looked at while the rules were written; the shipped line model trained on these labels)"
# The families of scripts/data/make-layouts.py; `larder eval pdfs --leave-one-source-out` names each fold by its truth
# source, "larder-layouts/<family>".
LAYOUT_FAMILIES = ["list-one-column", "list-side-by-side", "table-qty-unit", "table-step-beside", "table-amount-box",
                   "two-column-page"]
SPECS = {
    "pages": ("recipes-scraped: 302 saved pages", DEV, [
        ("title", "title", "accuracy"), ("ingredient lines F1", "ingredients_f1", "accuracy"),
        ("steps F1", "steps_f1", "accuracy"), ("exact (both F1s 1)", "exact", "accuracy"),
        ("yields", "yields", "accuracy"), ("total time", "total_time", "accuracy"),
        ("pages per CPU second, one core, every stage", "pages_per_second", "performance")]),
    "pdfs": ("recipes-pdf: 72 recipe PDFs", DEV, [
        ("title", "title", "accuracy"), ("ingredient lines F1", "ingredients_f1", "accuracy"),
        ("steps F1", "steps_f1", "accuracy"),
        ("quantity right (of the fields checked: markup truth)", "quantity", "accuracy"),
        ("unit right (of the fields checked)", "unit", "accuracy"),
        ("name right, Larder's name alone (of the fields checked)", "name", "accuracy"),
        ("name right as the truth writes it: name with its preparation (of the fields checked)", "name_as_written", "accuracy"),
        ("seconds for all PDFs, one core", "seconds", "performance")]),
    "pdfs-loso": ("recipes-pdf: leave one source out", "cross-validated (each source held out; mean over sources)", [
        ("title (mean held-out)", "mean.title", "accuracy"), ("ingredient lines F1 (mean held-out)", "mean.ingredients_f1", "accuracy"),
        ("steps F1 (mean held-out)", "mean.steps_f1", "accuracy"), ("title (worst held-out)", "worst.title", "accuracy"),
        ("ingredient lines F1 (worst held-out)", "worst.ingredients_f1", "accuracy"),
        ("steps F1 (worst held-out)", "worst.steps_f1", "accuracy")]),
    "layouts": ("generated layout families: scripts/data/make-layouts.py, 6 families x 12 PDFs, leave one family out",
                "generated, held-out seed 8 (no rule developed on it)",
                [(f"{family}: ingredient lines F1 (held out)", f"folds.{family}.held_out.ingredients_f1", "accuracy")
                 for family in LAYOUT_FAMILIES]
                + [("ingredient lines F1 (mean held-out)", "mean.ingredients_f1", "accuracy"),
                   ("ingredient lines F1 (worst held-out)", "worst.ingredients_f1", "accuracy"),
                   ("title (mean held-out)", "mean.title", "accuracy"), ("steps F1 (mean held-out)", "mean.steps_f1", "accuracy")]),
    "formats": ("recipe-app-exports: app export samples, scored on what `larder export` writes", DEV, [
        ("recipes found (fraction of the README's count)", "recipes_found", "accuracy"),
        ("recipes found", "recipes", "accuracy"),
        ("titles (MealMaster/MasterCook expected parses)", "titles", "accuracy"),
        ("ingredient lines F1 (expected parses)", "ingredient_lines_f1", "accuracy"),
        ("steps F1 (expected parses)", "steps_f1", "accuracy"),
        ("files failed", "failed_files", "accuracy"),
        ("Cooklang canonical tests passed (the reader's spec tests)", "cooklangCanonicalPassed", "accuracy")]),
    "markdown": ("recipes-markdown + scraped recipes rendered as .txt files", DEV, [
        ("title", "overall.title", "accuracy"), ("ingredient lines F1", "overall.ingredients.f1", "accuracy"),
        ("steps F1", "overall.steps.f1", "accuracy"),
        ("Markdown files (349): ingredient lines F1", "markdown.ingredients.f1", "accuracy"),
        ("Markdown files (349): steps F1", "markdown.steps.f1", "accuracy")]),
    "receipts-samples": ("samples/receipts: 3 sample photos", DEV, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy"),
        ("item F1", "item_f1", "accuracy")]),
    "receipts-de": ("receipts-de: 26 German receipts", DEV, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy"),
        ("item count right", "item_count", "accuracy"), ("seconds per image", "seconds_per_image", "performance")]),
    "receipts-sroie": ("receipts-sroie: 55 SROIE scans (strict names)", DEV, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy"),
        ("seconds per image", "seconds_per_image", "performance")]),
    "receipts-cord": ("receipts-cord: CORD annotations (parser only, no OCR)", DEV, [
        ("total", "total", "accuracy"), ("item F1", "item_f1", "accuracy")]),
    "receipts-photos": ("receipts-photos: 150 phone photos", PHOTOS, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy"),
        ("item F1", "item_f1", "accuracy"), ("date, either day/month order", "date_either_order", "accuracy"),
        ("seconds per image", "seconds_per_image", "performance")]),
    # The same sets read with `ocr.profile: fast` (eval/<set>-fast.yml): what the fast profile costs in accuracy.
    "receipts-photos-fast": ("receipts-photos: 150 phone photos, ocr.profile fast", PHOTOS, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy"),
        ("item F1", "item_f1", "accuracy")]),
    "receipts-de-fast": ("receipts-de: 26 German receipts, ocr.profile fast", DEV, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy"),
        ("item count right", "item_count", "accuracy")]),
    "receipts-sroie-fast": ("receipts-sroie: 55 SROIE scans (strict names), ocr.profile fast", DEV, [
        ("store", "store", "accuracy"), ("date", "date", "accuracy"), ("total", "total", "accuracy")]),
    # scripts/bench/measure-speed.sh (`make measure-speed`): Larder against reference tools, same pages, same run.
    "speed-pages": ("recipes-scraped: 302 saved pages, `larder ingest --workers 2` against recipe-scrapers' generic reader", DEV, [
        ("Larder: pages per core-second (pages / (wall s × 2 workers))", "larder_pages_per_core_second", "performance"),
        ("Larder: pages per CPU second (larder and its workers)", "larder_pages_per_cpu_second", "performance"),
        ("recipe-scrapers: pages per CPU second (one core)", "recipe_scrapers_pages_per_cpu_second", "performance"),
        ("Larder / recipe-scrapers, per core (target ≥ 10)", "ratio_per_core", "performance"),
        ("Larder / recipe-scrapers, per CPU second", "ratio_per_cpu", "performance")]),
    "speed-pdfs": ("generated text PDFs (scripts/data/make-corpus.py --seed 1), `larder ingest` against `pdftotext`", "generated", [
        ("PDFs", "pdfs", "performance"),
        ("Larder / pdftotext, wall-clock (target ≤ 1.0)", "ratio_wall", "performance"),
        ("Larder / pdftotext, CPU seconds", "ratio_cpu", "performance"),
        ("Larder: wall s", "larder_wall_seconds", "performance"),
        ("pdftotext: wall s", "pdftotext_wall_seconds", "performance")]),
    "queue": ("PostgreSQL queue (scripts/bench/bench-queue.sh): synthetic documents through `larder-worker bench-queue` "
              "(no-op or 100 ms stages; the claim/commit path of `larder worker`), a throwaway PostgreSQL 15 cluster; "
              "the 500 generated PDFs through `larder ingest`/`larder worker`", "synthetic", [
        ("no-op stage completions per second, 2 processes × 2 threads (target ≥ 1000)", "ceiling.per_second", "performance"),
        ("100 ms stages, 1 worker: documents per second", "scaling.n1.per_second", "performance"),
        ("100 ms stages, 2 workers: throughput / (2 × one worker's) (target ≥ 0.85)", "scaling.n2.efficiency", "performance"),
        ("100 ms stages, 4 workers in 4 namespaces: throughput / (4 × one worker's) (target ≥ 0.85)", "scaling.n4.efficiency", "performance"),
        ("100 ms stages, 8 workers in 4 namespaces: throughput / (8 × one worker's) (target ≥ 0.85)", "scaling.n8.efficiency", "performance"),
        ("100 ms stages, 16 workers in 4 namespaces: throughput / (16 × one worker's) (target ≥ 0.85)", "scaling.n16.efficiency", "performance"),
        ("SIGKILLed worker: its document running again after, s, slowest of 3 (ttl 5 s; target ≤ ttl + 15)", "recovery.worst_seconds", "performance"),
        ("NOTIFY pickup, registration to first stage start, p50 ms", "pickup.p50_ms", "performance"),
        ("NOTIFY pickup, registration to first stage start, p95 ms (target ≤ 50)", "pickup.p95_ms", "performance"),
        ("500 PDFs: PostgreSQL (ingest --no-work + 2 × larder worker) / SQLite (ingest --workers 2), wall (target ≤ 1.3)", "pdfs.ratio", "performance"),
        ("500 PDFs: SQLite wall s", "pdfs.sqlite_seconds", "performance"),
        ("500 PDFs: PostgreSQL wall s", "pdfs.postgres_seconds", "performance"),
        ("500 PDFs on PostgreSQL: registration (ingest --no-work) s", "pdfs.postgres_split.registration_seconds", "performance"),
        ("500 PDFs on PostgreSQL: work (2 × larder worker) s", "pdfs.postgres_split.work_seconds", "performance"),
        ("500 PDFs on PostgreSQL: registration end to the first stage's start s", "pdfs.postgres_split.first_stage_start_seconds", "performance"),
        ("500 PDFs on PostgreSQL: transactions committed", "pdfs.postgres_split.commits", "performance"),
        ("bloat: document + stage_run bytes after 10 runs / after the first (500 documents × 2 stages)", "bloat.queue_tables_growth", "performance"),
        ("bloat: stage_run dead / live tuples after 10 runs", "bloat.stage_run_dead_per_live", "performance"),
        ("bloat: document dead / live tuples after 10 runs", "bloat.document_dead_per_live", "performance"),
        ("bloat: stage_run HOT updates / updates", "bloat.stage_run_hot_fraction", "performance"),
        ("bloat: document HOT updates / updates", "bloat.document_hot_fraction", "performance"),
        ("machine load (1-min load average) at start, 2 cores", "load.start", "performance"),
        ("machine load (1-min load average) at end", "load.end", "performance")]),
}
# scripts/bench/serve-result-latency.sh (JSON=1), from measure.sh: the API's hot route under wrk, per connection count.
SERVE_METRICS = [
    ("requests/s (median of the runs; target ≥ 2,000)", "requests_per_second", "performance"),
    ("p99 latency ms (median of the runs; target ≤ 20)", "p99_ms", "performance"),
    ("p50 latency ms (median of the runs)", "p50_ms", "performance"),
    ("requests/s, slowest run", "lowest_requests_per_second", "performance"),
    ("p99 latency ms, worst run", "highest_p99_ms", "performance"),
    ("load average before the runs (the machine is shared)", "load_average_before", "performance"),
    ("server RSS kB after the runs", "rss_kb_after", "performance")]
for _connections in (10, 50):
    SPECS[f"serve-result-{_connections}"] = (
        f"`GET /v1/documents/{{id}}/result` of a sample recipe: `larder serve --no-work` on SQLite, wrk -t2 "
        f"-c{_connections} over loopback, 3 runs of 10 s", "samples/recipes (ingested by measure.sh)", SERVE_METRICS)
# The README's "accuracy at a glance": one row per corpus, these metrics.
GLANCE = [
    ("pages", ["title", "ingredient lines F1", "steps F1", "exact (both F1s 1)"]),
    ("pdfs", ["title", "ingredient lines F1", "steps F1"]),
    ("pdfs-loso", ["title (mean held-out)", "ingredient lines F1 (mean held-out)", "steps F1 (mean held-out)"]),
    ("formats", ["recipes found (fraction of the README's count)", "titles (MealMaster/MasterCook expected parses)",
                 "ingredient lines F1 (expected parses)"]),
    ("receipts-photos", ["store", "date", "total", "item F1"]),
    ("receipts-sroie", ["store", "date", "total"]),
    ("receipts-de", ["store", "date", "total", "item count right"]),
    ("receipts-cord", ["total", "item F1"]),
]


def lookup(obj, path):
    """The number at a dotted path; a list of folds is entered by the last part of a fold's `source`."""
    for part in path.split("."):
        if isinstance(obj, list):
            obj = next((x for x in obj if isinstance(x, dict) and str(x.get("source", "")).split("/")[-1] == part), None)
            if obj is None:
                return None
            continue
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj if isinstance(obj, (int, float)) and not isinstance(obj, bool) else None


def measured_commit():
    """The commit measured: $LARDER_COMMIT when set, else `git rev-parse` in the tree. Exits with a clear error when
    neither gives one (a git worktree mounted elsewhere, as `wrun` does, hides its repository from git): a baseline
    never names an empty commit."""
    commit = os.environ.get("LARDER_COMMIT", "").strip()
    if not commit:
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                    text=True).stdout.strip()
        except OSError:
            commit = ""
    if not commit:
        sys.exit("figures.py: git cannot name the commit of " + ROOT + " (a worktree mounted elsewhere hides its "
                 "repository): set LARDER_COMMIT=$(git rev-parse --short HEAD), read where git works, and run again")
    return commit


def collect(folder, baseline, only=None):
    """Writes the baseline from the outputs in `folder`. With `only` (names of SPECS), only those entries are
    collected and replace theirs in the existing baseline; every other figure is kept as it was."""
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = measured_commit()
    figures, missing = [], []
    kept = []
    if only:
        unknown = [name for name in only if name not in SPECS]
        if unknown:
            sys.exit(f"figures.py: no such figures: {', '.join(unknown)} (known: {', '.join(SPECS)})")
        with open(baseline) as f:
            old = json.load(f)
        kept = [fig for fig in old["figures"] if fig["key"] not in only]
        missing = [name for name in old.get("missing", []) if name not in only]
    for name, (corpus, split, metrics) in SPECS.items():
        if only and name not in only:
            continue
        path = os.path.join(folder, name + ".json")
        if not os.path.exists(path):
            missing.append(name)
            continue
        with open(path) as f:
            report = json.load(f)
        with open(os.path.join(folder, name + ".cmd")) as f:
            command = f.read().strip()
        for label, key, kind in metrics:
            value = lookup(report, key)
            if value is None:
                continue
            figures.append({"key": name, "corpus": corpus, "split": split, "metric": label, "kind": kind,
                            "value": round(value, 4), "date": date, "command": command})
        seconds = os.path.join(folder, name + ".seconds")
        if os.path.exists(seconds):
            with open(seconds) as f:
                figures.append({"key": name, "corpus": corpus, "split": split, "metric": "wall-clock seconds (release, nice 10)",
                                "kind": "performance", "value": int(f.read().strip() or 0), "date": date, "command": command})
    if only:
        figures = kept + figures
        # A partial measurement names its own commit beside the figures it replaced.
        commit = old["commit"] if old.get("commit") == commit else f"{old.get('commit', '')} ({', '.join(only)}: {commit})"
    data = {"generated": date, "commit": commit, "build": "release",
            "path": "larder ingest --config eval/<corpus>.yml + larder export (the in-memory runner of the same stages)",
            "missing": missing, "figures": figures}
    with open(baseline, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"wrote {baseline}: {len(figures)} figures" + (f"; missing: {', '.join(missing)}" if missing else ""))


def fmt(value):
    return f"{value:.3f}" if isinstance(value, float) and abs(value) <= 1 else (f"{value:g}" if isinstance(value, float) else str(value))


def table(figures):
    rows = ["| Corpus | Split | Metric | Figure | Measured | Reproduce |", "|---|---|---|---|---|---|"]
    for f in figures:
        rows.append(f"| {f['corpus']} | {f['split']} | {f['metric']} | {fmt(f['value'])} | {f['date']} | `{f['command']}` |")
    return "\n".join(rows)


HEADER = """<!-- Generated by scripts/bench/figures.py from benchmarks/baseline.json (`make measure`): do not edit by hand. -->
# {title}

Every figure here comes from the user's path: each corpus is read through Larder's standard stages with the
configuration in `eval/<corpus>.yml`, and the result scored is the one `larder ingest --config eval/<corpus>.yml` +
`larder export` write (the ingest-equals-eval tests, `IngestEqualsEvalTests`, check that they are the same).
Measured {generated} on commit `{commit}` ({build} build). {missing}

"""


def write_docs(baseline):
    with open(baseline) as f:
        data = json.load(f)
    figures = data["figures"]
    missing = ("Not measured (corpus absent): " + ", ".join(data["missing"]) + ".") if data.get("missing") else ""
    common = dict(generated=data["generated"], commit=data.get("commit", ""), build=data.get("build", "release"), missing=missing)
    accuracy = [f for f in figures if f["kind"] == "accuracy"]
    performance = [f for f in figures if f["kind"] == "performance"]
    os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
    with open(os.path.join(ROOT, "docs", "accuracy.md"), "w") as f:
        f.write(HEADER.format(title="Accuracy", **common))
        f.write("Fractions 0–1. *development*: the rules were written while reading these documents' misses, so the\n"
                "figure is not one on unseen documents; *cross-validated*: each source's figure with that source held out.\n\n")
        f.write("recipes-pdf's quantity, unit and name are checked on matched lines whose truth comes from markup (teresi,\n"
                "zhao, Bronte). Its truth files define `name` as everything after the quantity and unit, preparation\n"
                "included (shared/data/recipes-pdf/README.md: `\"name\": \"flour, all-purpose\"`), while Larder keeps the\n"
                "preparation in `preparation`: so both are given, *name alone* (Larder's `name`) and *as the truth writes it*\n"
                "(Larder's name with its size, preparation, comment and purpose in the line's order).\n\n")
        f.write(table(accuracy) + "\n")
    with open(os.path.join(ROOT, "docs", "performance.md"), "w") as f:
        f.write(HEADER.format(title="Performance", **common))
        f.write("On a shared 2-core machine under `nice -n 10`: compare figures from the same run only.\n\n")
        f.write(table(performance) + "\n")
    readme = os.path.join(ROOT, "README.md")
    begin, end = "<!-- figures:begin -->", "<!-- figures:end -->"
    text = open(readme).read() if os.path.exists(readme) else ""
    if begin not in text or end not in text:
        print("README.md has no figures markers: left alone")
        return
    by = {}
    for fig in accuracy:
        by.setdefault(fig["key"], {})[fig["metric"]] = fig
    rows = ["| Corpus | Split | Figures | Reproduce |", "|---|---|---|---|"]
    for key, metrics in GLANCE:
        found = by.get(key, {})
        if not found:
            continue
        any_fig = next(iter(found.values()))
        shown = ", ".join(f"{m} {fmt(found[m]['value'])}" for m in metrics if m in found)
        rows.append(f"| {any_fig['corpus']} | {any_fig['split'].split(' (')[0]} | {shown} | `{any_fig['command']}` |")
    block = (f"{begin}\n<!-- Generated by scripts/bench/figures.py from benchmarks/baseline.json ({data['generated']}); "
             f"all figures from `larder ingest` + `larder export`. -->\n" + "\n".join(rows) + f"\n{end}")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(readme, "w") as f:
        f.write(head + block + tail)
    print("README.md: figures table updated")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", help="the folder of `make measure`'s outputs")
    parser.add_argument("--baseline", default=os.path.join(ROOT, "benchmarks", "baseline.json"))
    parser.add_argument("--only", help="with --collect: these figures (comma-separated names, e.g. speed-pages,"
                        "speed-pdfs) replace theirs in the existing baseline; the others are kept")
    args = parser.parse_args()
    if args.collect:
        collect(args.collect, args.baseline, args.only.split(",") if args.only else None)
    else:
        write_docs(args.baseline)


if __name__ == "__main__":
    sys.exit(main())
