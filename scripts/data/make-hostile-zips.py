#!/usr/bin/env python3
"""Usage: make-hostile-zips.py KIND OUT.zip

Writes one hostile ZIP for the hostile-tier tests (issue 36), built byte by byte so no large file is ever in the
repository or on disk:
  lying    2,000 entries that all share one deflate stream (each declares 1,000 bytes; the stream inflates to
           64 MiB), then a good Cooklang recipe, good.cook
  liar     one entry declaring 1,000 bytes whose stream inflates to 64 MiB (no overlap), then good.cook
  nested   good.cook, then a ZIP of 4 ZIPs of 4 ZIPs of 256 leaves of 1 MiB of zeros each (4 GiB of leaves in a
           few KB; every leaf under the 1 MiB ratio floor)
"""
import struct
import sys
import zlib

GOOD = b"---\ntitle: Good Probe Soup\n---\nSimmer the @stock{1%l} with the @leeks{2} for ~{20%minutes}.\n"


def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zeros_stream(size):
    """A raw deflate stream of `size` zero bytes, made a MiB at a time, and its CRC."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(1 << 20)
    out, crc, left = [], 0, size
    while left:
        piece = chunk[: min(left, len(chunk))]
        out.append(c.compress(piece))
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    out.append(c.flush())
    return b"".join(out), crc


class Zip:
    def __init__(self):
        self.body = bytearray()
        self.central = []

    def local(self, name, stream, crc, size, method=8):
        offset = len(self.body)
        raw = name.encode()
        self.body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, len(stream), size, len(raw), 0)
        self.body += raw + stream
        return offset

    def entry(self, name, offset, stream_length, crc, size, method=8):
        raw = name.encode()
        self.central.append(
            struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc, stream_length, size,
                        len(raw), 0, 0, 0, 0, 0, offset) + raw)

    def add(self, name, data, stream=None, crc=None):
        stream = deflate(data) if stream is None else stream
        crc = zlib.crc32(data) if crc is None else crc
        offset = self.local(name, stream, crc, len(data) if data is not None else 0)
        self.entry(name, offset, len(stream), crc, len(data))

    def add_deflated(self, name, stream, crc, size):
        offset = self.local(name, stream, crc, size)
        self.entry(name, offset, len(stream), crc, size)

    def bytes(self):
        directory = b"".join(self.central)
        end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(self.central), len(self.central), len(directory),
                          len(self.body), 0)
        return bytes(self.body) + directory + end


def lying():
    stream, crc = zeros_stream(64 << 20)
    z = Zip()
    offset = z.local("b0.txt", stream, crc, 1000)
    for i in range(2000):
        z.entry(f"b{i}.txt", offset, len(stream), crc, 1000)
    z.add("good.cook", GOOD)
    return z.bytes()


def liar():
    stream, crc = zeros_stream(64 << 20)
    z = Zip()
    z.add_deflated("liar.txt", stream, crc, 1000)
    z.add("good.cook", GOOD)
    return z.bytes()


def nested():
    leaf, leaf_crc = zeros_stream(1 << 20)
    inner = Zip()
    for i in range(256):
        inner.add_deflated(f"leaf{i}.bin", leaf, leaf_crc, 1 << 20)
    level = inner.bytes()
    for width in (4, 4):
        z = Zip()
        for i in range(width):
            z.add(f"part{i}.zip", level)
        level = z.bytes()
    outer = Zip()
    outer.add("good.cook", GOOD)
    outer.add("bomb.zip", level)
    return outer.bytes()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("lying", "liar", "nested"):
        sys.exit(__doc__)
    with open(sys.argv[2], "wb") as f:
        f.write({"lying": lying, "liar": liar, "nested": nested}[sys.argv[1]]())
