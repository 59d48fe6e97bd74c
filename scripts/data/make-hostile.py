#!/usr/bin/python3
"""Hostile inputs for Larder's hardening tests and the mutation probe (issue 11).

Usage:
  scripts/data/make-hostile.py slow-pdf OUT [N]        a small PDF (about 60 bytes per 1,000 operators, compressed)
                                                  whose one page holds N text-show operators (default 1,500,000):
                                                  seconds of work for poppler from ~90 KB
  scripts/data/make-hostile.py mutate SRC... --out DIR [--count N] [--seed S]
                                                  N mutated copies of the given PDFs and images (bit flips, byte
                                                  runs overwritten, truncation, chunk duplication, number
                                                  inflation in PDF operators), deterministic for a seed

Only the Python standard library is used. Nothing it writes is committed.
"""
import os
import random
import re
import sys
import zlib


def slow_pdf(out, n):
    content = b"BT /F1 1 Tf " + b"1 0 0 1 10 10 Tm (ab) Tj " * n + b"ET"
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    data = b"%PDF-1.4\n"
    offsets = []
    for index, body in enumerate(objects):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % (index + 1) + body + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    data += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    data += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    with open(out, "wb") as handle:
        handle.write(data)


def mutate(data, rng):
    data = bytearray(data)
    kind = rng.choice(["flip", "overwrite", "truncate", "duplicate", "numbers", "flip", "overwrite"])
    if kind == "flip":
        for _ in range(rng.randint(1, 40)):
            position = rng.randrange(len(data))
            data[position] ^= 1 << rng.randrange(8)
    elif kind == "overwrite":
        start = rng.randrange(len(data))
        length = rng.randint(1, 512)
        filler = rng.choice([b"\x00", b"\xff", b"9", b"(", b"<<", b"]"])
        data[start:start + length] = (filler * length)[:length]
    elif kind == "truncate":
        data = data[: rng.randint(1, max(1, len(data) - 1))]
    elif kind == "duplicate":
        start = rng.randrange(len(data))
        chunk = data[start:start + rng.randint(1, 4096)]
        at = rng.randrange(len(data))
        data[at:at] = chunk * rng.randint(1, 20)
    else:  # inflate numbers (sizes, counts, coordinates) where the file has them in plain text
        text = bytes(data)
        numbers = list(re.finditer(rb"(?<![\w.])\d{1,6}(?![\w.])", text[:200_000]))
        for match in rng.sample(numbers, min(len(numbers), rng.randint(1, 8))):
            big = rng.choice([b"99999999999", b"-1", b"1e25", b"4294967296", b"0", b"2147483648"])
            text = text[: match.start()] + big + text[match.end():]
        data = bytearray(text)
    return kind, bytes(data)


def main(argv):
    if len(argv) >= 2 and argv[0] == "slow-pdf":
        slow_pdf(argv[1], int(argv[2]) if len(argv) > 2 else 1_500_000)
        return 0
    if argv and argv[0] == "mutate":
        args = argv[1:]
        out, count, seed, sources = None, 100, 1, []
        while args:
            arg = args.pop(0)
            if arg == "--out":
                out = args.pop(0)
            elif arg == "--count":
                count = int(args.pop(0))
            elif arg == "--seed":
                seed = int(args.pop(0))
            else:
                sources.append(arg)
        if not out or not sources:
            print(__doc__, file=sys.stderr)
            return 2
        os.makedirs(out, exist_ok=True)
        rng = random.Random(seed)
        originals = [(path, open(path, "rb").read()) for path in sources]
        for index in range(count):
            path, data = originals[index % len(originals)]
            kind, mutated = mutate(data, rng)
            stem, ext = os.path.splitext(os.path.basename(path))
            with open(os.path.join(out, "m%05d-%s-%s%s" % (index, kind, stem, ext)), "wb") as handle:
                handle.write(mutated)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
