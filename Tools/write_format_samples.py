#!/usr/bin/env python3
"""Writes BMP, Netpbm and TIFF variants that FFmpeg's encoders do not produce (RLE, OS/2 and V5
headers, top-down rows, short palettes, ASCII Netpbm, odd maxvals, TIFF orientations) from raw
8-bit pixels.

Usage: write_format_samples.py RGB_RAW RGBA_RAW WIDTH HEIGHT OUT_DIR

The fidelity test decodes each file and compares it with what Darknet's load_image_color
(OpenCV imread) gives for the same file; this script only has to write valid files.
Standard library only.
"""
import os
import struct
import sys


def rows_of(pixels, width, height, channels):
    stride = width * channels
    return [pixels[y * stride:(y + 1) * stride] for y in range(height)]


def pad4(row):
    return row + b"\0" * (-len(row) % 4)


def bmp_file(info, palette, data):
    offset = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + info + palette + data


def info40(width, height, bpp, compression=0, colors=0, image_size=0):
    return struct.pack("<IiiHHIIiiII", 40, width, height, 1, bpp, compression, image_size, 2835, 2835, colors, 0)


def palette_index(r, g, b):
    """3-3-2 quantisation: the 256-entry palette below."""
    return (r >> 5) << 5 | (g >> 5) << 2 | (b >> 6)


PALETTE_332 = [((i >> 5) * 255 // 7, ((i >> 2) & 7) * 255 // 7, (i & 3) * 255 // 3) for i in range(256)]
PALETTE_16 = [(r, g, b) for r in (0, 255) for g in (0, 128, 255) for b in (0, 255)][:12] + \
             [(64, 64, 64), (192, 192, 192), (128, 0, 128), (0, 128, 128)]


def nearest16(r, g, b):
    return min(range(16), key=lambda i: (PALETTE_16[i][0] - r) ** 2 + (PALETTE_16[i][1] - g) ** 2 + (PALETTE_16[i][2] - b) ** 2)


def quad_palette(colors):
    return b"".join(bytes((b, g, r, 0)) for r, g, b in colors)


def indices(rgb, width, height, to_index):
    return [[to_index(*row[3 * x:3 * x + 3]) for x in range(width)] for row in rows_of(rgb, width, height, 3)]


def rle8_row(row, y):
    """Runs, absolute runs, and on some rows a delta escape or an early end of line."""
    out = bytearray()
    x, n = 0, len(row)
    if y % 7 == 3:
        out += bytes((0, 2, 5, 0))  # delta: skip 5 pixels right
        x = 5
    end = n - 9 if y % 5 == 1 else n  # leave the last pixels undefined
    while x < end:
        run = 1
        while x + run < end and run < 255 and row[x + run] == row[x]:
            run += 1
        if run >= 2 or end - x < 3:
            out += bytes((run, row[x]))
            x += run
        else:
            count = min(end - x, 60)
            out += bytes((0, count)) + bytes(row[x:x + count])
            if count % 2:
                out += b"\0"
            x += count
    return bytes(out)


def rle4_row(row, y):
    out = bytearray()
    x, n = 0, len(row)
    if y % 6 == 2:
        out += bytes((0, 2, 3, 0))
        x = 3
    end = n - 4 if y % 4 == 1 else n
    while x < end:
        count = min(end - x, 40)
        if y % 2 == 0:  # encoded: pairs of alternating indices
            run = 1
            while x + run < end and run < 255 and row[x + run] == row[x]:
                run += 1
            out += bytes((run, row[x] << 4 | row[x]))
            x += run
            continue
        nibbles = row[x:x + count] + [0] * (count % 2)
        packed = bytes(nibbles[i] << 4 | nibbles[i + 1] for i in range(0, len(nibbles), 2))
        if count < 3:
            out += bytes((count, packed[0]))
        else:
            out += bytes((0, count)) + packed + (b"\0" if len(packed) % 2 else b"")
        x += count
    return bytes(out)


def rle_bitmap(index_rows, width, bpp, encode_row):
    data = bytearray()
    height = len(index_rows)
    for y, row in enumerate(reversed(index_rows)):
        data += encode_row(row, y)
        if y == height - 1:
            data += bytes((0, 1))  # end of bitmap
        else:
            data += bytes((0, 0))
    return bytes(data)


def packed_rows(index_rows, bpp):
    data = bytearray()
    per_byte = 8 // bpp
    for row in reversed(index_rows):
        packed = bytearray()
        for i in range(0, len(row), per_byte):
            byte = 0
            for k in range(per_byte):
                value = row[i + k] if i + k < len(row) else 0
                byte |= value << (8 - bpp * (k + 1))
            packed.append(byte)
        data += pad4(bytes(packed))
    return bytes(data)


def bgr_rows(rgb, width, height, top_down=False):
    rows = rows_of(rgb, width, height, 3)
    if not top_down:
        rows = list(reversed(rows))
    return b"".join(pad4(bytes(c for x in range(width) for c in (r[3 * x + 2], r[3 * x + 1], r[3 * x]))) for r in rows)


def write_bmps(rgb, rgba, w, h, out):
    files = {}
    i332 = indices(rgb, w, h, palette_index)
    i16 = indices(rgb, w, h, nearest16)
    # Rotated palettes, so that entry 0 (what an undefined pixel might take) is not black.
    r332 = [[(v + 1) % 256 for v in row] for row in i332]
    r16 = [[(v + 1) % 16 for v in row] for row in i16]
    files["bmp-rle8.bmp"] = bmp_file(info40(w, h, 8, 1, 256), quad_palette(PALETTE_332[-1:] + PALETTE_332[:-1]), rle_bitmap(r332, w, 8, rle8_row))
    files["bmp-rle4.bmp"] = bmp_file(info40(w, h, 4, 2, 16), quad_palette(PALETTE_16[-1:] + PALETTE_16[:-1]), rle_bitmap(r16, w, 4, rle4_row))
    files["bmp-4bit.bmp"] = bmp_file(info40(w, h, 4, 0, 16), quad_palette(PALETTE_16), packed_rows(i16, 4))
    two = [(200, 30, 40), (20, 220, 90)]
    i2 = [[1 if sum(row[3 * x:3 * x + 3]) > 380 else 0 for x in range(w)] for row in rows_of(rgb, w, h, 3)]
    files["bmp-1bit-colour.bmp"] = bmp_file(info40(w, h, 1, 0, 2), quad_palette(two), packed_rows(i2, 1))
    short = [PALETTE_16[k] for k in range(12)]
    i12 = [[min(v, 11) for v in row] for row in i16]
    files["bmp-8bit-12colours.bmp"] = bmp_file(info40(w, h, 8, 0, 12), quad_palette(short), packed_rows(i12, 8))
    files["bmp-topdown.bmp"] = bmp_file(info40(w, -h, 24), b"", bgr_rows(rgb, w, h, top_down=True))
    core = struct.pack("<IHHHH", 12, w, h, 1, 24)
    files["bmp-os2.bmp"] = bmp_file(core, b"", bgr_rows(rgb, w, h))
    core8 = struct.pack("<IHHHH", 12, w, h, 1, 8)
    files["bmp-os2-palette.bmp"] = bmp_file(core8, b"".join(bytes((b, g, r)) for r, g, b in PALETTE_332), packed_rows(i332, 8))
    # BITMAPV5HEADER, 32-bit BI_BITFIELDS with the usual masks and a varying alpha
    masks = struct.pack("<IIII", 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000)
    v5 = struct.pack("<IiiHHIIiiII", 124, w, h, 1, 32, 3, w * h * 4, 2835, 2835, 0, 0) + masks + b"sRGB" + b"\0" * 36 + struct.pack("<III", 0, 0, 0) + struct.pack("<I", 4) + b"\0" * 12
    assert len(v5) == 124
    px = b"".join(bytes((r[4 * x + 2], r[4 * x + 1], r[4 * x], r[4 * x + 3])) for r in reversed(rows_of(rgba, w, h, 4)) for x in range(w))
    files["bmp-v5-32.bmp"] = bmp_file(v5, b"", px)
    for name, content in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)


def write_netpbm(rgb, w, h, out):
    rows = rows_of(rgb, w, h, 3)
    grey = [[(r[3 * x] * 299 + r[3 * x + 1] * 587 + r[3 * x + 2] * 114) // 1000 for x in range(w)] for r in rows]

    def ascii_body(values, per_line=17):
        return "\n".join(" ".join(str(v) for v in values[i:i + per_line]) for i in range(0, len(values), per_line)) + "\n"

    bits = [1 if v < 128 else 0 for row in grey for v in row]
    files = {
        "pnm-p1.pbm": ("P1\n# a comment\n%d %d\n" % (w, h) + ascii_body(bits, 35)).encode(),
        "pnm-p2.pgm": ("P2\n%d %d\n255\n" % (w, h) + ascii_body([v for row in grey for v in row])).encode(),
        "pnm-p3.ppm": ("P3 # comment after the magic\n%d\n%d # width, then height\n255\n" % (w, h) + ascii_body(list(rgb))).encode(),
        "pnm-p5-maxval100.pgm": b"P5\n%d %d\n100\n" % (w, h) + bytes(v * 100 // 255 for row in grey for v in row),
        "pnm-p6-maxval1000.ppm": b"P6 %d %d 1000\n" % (w, h) + b"".join(struct.pack(">H", v * 1000 // 255) for v in rgb),
        "pnm-p2-maxval65535.pgm": ("P2\n%d %d\n65535\n" % (w, h) + ascii_body([v * 257 + 3 for row in grey for v in row])).encode(),
        "pnm-p2-maxval100.pgm": ("P2\n%d %d\n100\n" % (w, h) + ascii_body([v * 110 // 255 for row in grey for v in row])).encode(),
    }
    for name, content in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)


def write_tiffs(rgb, w, h, out):
    """Uncompressed RGB TIFFs with each of the eight Orientation tag values."""
    for orientation in range(1, 9):
        entries = [(256, 4, w), (257, 4, h), (258, 3, None), (259, 3, 1), (262, 3, 2), (273, 4, None),
                   (274, 3, orientation), (277, 3, 3), (278, 4, h), (279, 4, w * h * 3), (284, 3, 1)]
        ifd_size = 2 + 12 * len(entries) + 4
        bits_at = 8 + ifd_size
        data_at = bits_at + 6
        ifd = struct.pack("<H", len(entries))
        for tag, kind, value in entries:
            if tag == 258:
                ifd += struct.pack("<HHII", tag, 3, 3, bits_at)
            elif tag == 273:
                ifd += struct.pack("<HHII", tag, 4, 1, data_at)
            elif kind == 3:
                ifd += struct.pack("<HHIHH", tag, 3, 1, value, 0)
            else:
                ifd += struct.pack("<HHII", tag, 4, 1, value)
        content = b"II*\0" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + struct.pack("<HHH", 8, 8, 8) + rgb
        with open(os.path.join(out, "tiff-orientation-%d.tiff" % orientation), "wb") as f:
            f.write(content)


def write_refused(out):
    """Well-formed files of variants OpenCV's imread does not read (nor does this library)."""
    os.makedirs(out, exist_ok=True)
    w, h = 4, 3
    # a TIFF of 32-bit floating-point grey samples (SampleFormat 3)
    entries = [(256, 4, w), (257, 4, h), (258, 3, 32), (259, 3, 1), (262, 3, 1), (273, 4, 8 + 2 + 12 * 9 + 4),
               (277, 3, 1), (278, 4, h), (279, 4, w * h * 4), (339, 3, 3)]
    entries = [e for e in entries if e[0] != 339] + [(339, 3, 3)]
    entries[5] = (273, 4, 8 + 2 + 12 * len(entries) + 4)
    ifd = struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        ifd += struct.pack("<HHIHH", tag, 3, 1, value, 0) if kind == 3 else struct.pack("<HHII", tag, 4, 1, value)
    floats = struct.pack("<%df" % (w * h), *[k / (w * h) for k in range(w * h)])
    with open(os.path.join(out, "tiff-float.tiff"), "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + floats)
    # a BMP whose pixels are a JPEG (compression 4): the header alone says so
    with open(os.path.join(out, "bmp-jpeg.bmp"), "wb") as f:
        f.write(bmp_file(info40(w, h, 0, 4, 0, 4), b"", b"\xff\xd8\xff\xd9"))


def write_png(path, pixels, w, h, channels):
    """A plain 8-bit RGB or RGBA PNG (no colour chunks), the input of heif-enc."""
    import zlib
    rows = b"".join(b"\0" + pixels[y * w * channels:(y + 1) * w * channels] for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", w, h, 8, {3: 2, 4: 6}[channels], 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    rgb_path, rgba_path, w, h, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    rgb = open(rgb_path, "rb").read()
    rgba = open(rgba_path, "rb").read()
    assert len(rgb) == w * h * 3 and len(rgba) == w * h * 4
    write_bmps(rgb, rgba, w, h, out)
    write_netpbm(rgb, w, h, out)
    write_tiffs(rgb, w, h, out)
    write_refused(os.path.join(out, "refused"))
    write_png(os.path.join(out, "logs", "source.png"), rgb, w, h, 3)
    write_png(os.path.join(out, "logs", "source-alpha.png"), rgba, w, h, 4)


if __name__ == "__main__":
    main()
