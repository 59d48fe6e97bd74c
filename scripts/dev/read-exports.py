#!/usr/bin/env python3
# Reads Larder's exports with the formats' own tools, for ExportReferenceToolTests (the slow tier).
# Usage: read-exports.py COOK_DIR PAPRIKA_ARCHIVE OUT_JSON
# Needs PyPI `cooklang-bindings` (cooklang-rs, the official Cooklang parser) and `paprika-to-sqlite` in the
# Python that runs it: the test installs them into a throwaway virtualenv, never as Larder dependencies.
# Writes {"cooklang": {file: {"error": str} | {"ingredients": [[name, quantity, unit]], "steps": [text]}},
#         "paprika": {"returncode": int, "rows": int, "uids": int, "photos": int or null (no photo_data column),
#                     "output": str}}.
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

import cooklang


def quantity(q):
    if q is None:
        return None
    try:
        return float(q.value)
    except (TypeError, ValueError):
        return str(q.value)


def read_cook(path):
    try:
        recipe = cooklang.parse(open(path, encoding="utf-8").read())
    except Exception as error:  # any refusal is a failure to report, not to hide
        return {"error": f"{type(error).__name__}: {error}"}
    steps = []
    for section in recipe.sections:
        # Larder writes the ingredient list as "= Ingredients =" sections: not steps of the method.
        if (section.name or "").lower().startswith("ingredients"):
            continue
        steps += [step.text for step in section.steps]
    ingredients = [[i.name, quantity(i.quantity), i.quantity.unit if i.quantity else None] for i in recipe.ingredients]
    return {"ingredients": ingredients, "steps": steps}


def read_paprika(archive):
    db = os.path.join(tempfile.mkdtemp(), "recipes.db")
    # The console script beside this Python (the virtualenv is not activated).
    tool = os.path.join(os.path.dirname(sys.executable), "paprika-to-sqlite")
    run = subprocess.run([tool, archive, db], capture_output=True, text=True)
    rows = uids = 0
    photos = None
    if run.returncode == 0:
        with sqlite3.connect(db) as conn:
            rows = conn.execute("select count(*) from recipes").fetchone()[0]
            uids = conn.execute("select count(distinct uid) from recipes").fetchone()[0]
            columns = [c[1] for c in conn.execute("pragma table_info(recipes)")]
            if "photo_data" in columns:  # entries whose photo the tool kept
                photos = conn.execute("select count(*) from recipes where coalesce(photo_data, '') != ''").fetchone()[0]
    return {"returncode": run.returncode, "rows": rows, "uids": uids, "photos": photos,
            "output": (run.stdout + run.stderr)[-2000:]}


def main():
    cook_dir, archive, out = sys.argv[1:4]
    result = {"cooklang": {}, "paprika": read_paprika(archive)}
    for name in sorted(os.listdir(cook_dir)):
        if name.endswith(".cook"):
            result["cooklang"][name] = read_cook(os.path.join(cook_dir, name))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
