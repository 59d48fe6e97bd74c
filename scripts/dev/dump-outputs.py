#!/usr/bin/env python3
"""Writes everything a Larder run stored about its documents, minus times, as sorted text lines, so two runs of the
same corpus can be compared byte for byte with `diff` (a speed change must not change any stored output).

Usage:  scripts/dev/dump-outputs.py DB OUT

Lines: every stage_run row (document file name, stage, status, version, output, violations), every result_version
(number, origin, JSON, violations) and every row of the other tables (search index, recipe entries, pantry,
review…), with columns whose names say they hold a time (`*_at`, `time`, `duration`) left out.
"""
import sqlite3
import sys

SKIP = {"stage_run", "result_version", "document", "batch", "batch_document", "event"}


def main(db_path: str, out_path: str) -> None:
    db = sqlite3.connect(db_path)
    names = {i: p.rsplit("/", 1)[-1] for i, p in db.execute("SELECT id, path FROM document")}
    rows = []
    for doc, stage, status, version, output, validation in db.execute(
            "SELECT document_id, stage, status, version, output, validation FROM stage_run"):
        rows.append((names[doc], "stage", stage, status, version, output, validation))
    for doc, number, origin, text, violations in db.execute(
            "SELECT document_id, number, origin, json, violations FROM result_version"):
        rows.append((names[doc], "version", number, origin, "", text, violations))
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        if table in SKIP:
            continue
        columns = [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
        kept = [c for c in columns if not any(k in c for k in ("_at", "time", "duration"))]
        for row in db.execute(f"SELECT {', '.join(kept)} FROM {table}"):
            rows.append((table, "table", "", "", "", repr(row), ""))
    with open(out_path, "w") as out:
        for row in sorted(rows, key=lambda r: tuple(str(x) for x in r)):
            out.write("\t".join(str(x) for x in row) + "\n")
    print(f"dump-outputs: {len(rows)} rows from {db_path}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
