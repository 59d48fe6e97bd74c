#!/usr/bin/env python3
"""Scores recipe-scrapers' generic schema.org reader on the saved pages `larder eval pages` reads, with Larder's
own scorer, and prints both side by side (same pages, same run, same metrics).

Usage: scripts/bench/compare-pages.sh [DATA]   (DATA: the recipes-scraped folder; default ../shared/data/recipes-scraped)

This file is run by scripts/bench/compare-pages.sh inside a throwaway virtualenv holding PyPI `recipe-scrapers`; it
writes that reader's predictions as JSON {"host/name": {title, ingredients, instructions_list, yields,
total_time, recipes}} for `larder eval pages --predictions`. recipe-scrapers is never a dependency of Larder.
"""
import json
import os
import sys
import time

from recipe_scrapers import scrape_html


def field(scraper, name):
    try:
        value = getattr(scraper, name)()
        return value
    except Exception:  # the generic reader raises when a page lacks a field
        return None


def main():
    data, out = sys.argv[1], sys.argv[2]
    predictions = {}
    start = time.process_time()
    html_dir = os.path.join(data, "html")
    for host in sorted(os.listdir(html_dir)):
        for name in sorted(os.listdir(os.path.join(html_dir, host))):
            if not name.endswith((".testhtml", ".html")):
                continue
            stem = os.path.splitext(name)[0]
            with open(os.path.join(html_dir, host, name), encoding="utf-8", errors="replace") as f:
                html = f.read()
            try:
                s = scrape_html(html, org_url="https://example.invalid/", supported_only=False)
            except Exception:
                predictions[f"{host}/{stem}"] = {"recipes": 0}
                continue
            predictions[f"{host}/{stem}"] = {
                "title": field(s, "title") or "",
                "ingredients": field(s, "ingredients") or [],
                "instructions_list": field(s, "instructions_list") or [],
                "yields": field(s, "yields"),
                "total_time": field(s, "total_time"),
                "recipes": 1,
            }
    seconds = time.process_time() - start
    with open(out, "w", encoding="utf-8") as f:
        json.dump(predictions, f, ensure_ascii=False)
    print(f"recipe-scrapers: {len(predictions)} pages in {seconds:.1f} s = {len(predictions) / seconds:.1f} pages per CPU second (one core)")


if __name__ == "__main__":
    main()
