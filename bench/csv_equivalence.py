#!/usr/bin/env python3
"""Byte-for-byte comparison of two ferry binaries on CSV inputs, clean and broken.

Usage: csv_equivalence.py BASE NEW [--records N] [--work DIR] [--gen PATH] [--quick]

Generates wine notes with ../shared/bench/gen_notes.py (V2 and V1), writes variants of them
(ragged rows, unterminated and stray quotes, bad UTF-8, CRLF and bare CR line ends, blank lines,
a BOM, more quoted newlines, duplicate ids adjacent and far apart, out-of-range values, rows over
1 MiB, a column order that puts the id after a multi-line cell, other delimiters, latin1), runs
both binaries on each with convert (jsonl, json, csv; --lenient; stdout), validate and migrate,
with --jobs 1, 2 and 3 and --no-typed-path, and compares stdout, stderr, the exit status and the
output file. Prints one line per difference and a summary; exits 1 when anything differs.
"""
import argparse, csv, io, os, random, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def write_rows(rows, delimiter=",", newline="\n"):
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=newline).writerows(rows)
    return out.getvalue().encode("utf-8")


def variants(v2, v1, rnd):
    """(name, bytes, file name, domain version) of each input."""
    header, rows = v2[0], v2[1:]
    n = len(rows)
    clean = write_rows(v2)
    yield "clean", clean, "wineTastingNotes.csv", 2
    yield "v1", write_rows(v1), "wineNotes.csv", 1

    ragged = [r[:] for r in v2]
    for k in (3, 200, n // 2, n - 2):
        ragged[k] = ragged[k][:-3]
    for k in (5, 700, n - 5):
        ragged[k] = ragged[k] + ["extra"]
    yield "ragged", write_rows(ragged), "wineTastingNotes.csv", 2

    lines = clean.split(b"\n")
    # A stray quote inside an unquoted cell, text after a closing quote (RFC 4180 2.5 and 2.7).
    stray = lines[:]
    for k in (4, 300, len(stray) - 40):
        stray[k] = stray[k].replace(b",red,", b",r\"ed,", 1).replace(b",white,", b",wh\"ite,", 1)
    for k in (9, 1500 % len(stray), len(stray) - 30):
        stray[k] = stray[k].replace(b'""",', b'"""x,', 1)
    yield "stray-quotes", b"\n".join(stray), "wineTastingNotes.csv", 2

    # An opening quote that never closes: the rows after it hold no quotes, so it stays open to
    # the end of the input and reading resumes on the line after its line (with a quoted newline
    # before the end in the second variant).
    def plain(row):
        return [c.replace('"', "").replace(",", " ").replace("\n", " ") for c in row]
    for name, tail, at in (("unterminated-end", 5, -1), ("unterminated-multiline", 6, 1)):
        tail_rows = [plain(r) for r in v2[-tail:]]
        tail_rows[0][at] = '"' + tail_rows[0][at] + ("\nstill open" if at == 1 else "")
        text = write_rows(v2[:-tail]) + b"".join(",".join(r).encode() + b"\n" for r in tail_rows)
        yield name, text, "wineTastingNotes.csv", 2

    for at in (10, len(clean) // 2, len(clean) - 100):
        bad = bytearray(clean)
        bad[at] = 0xFF
        yield f"bad-utf8-{at}", bytes(bad), "wineTastingNotes.csv", 2
    bad = bytearray(clean)
    bad[len(clean) // 3] = 0xC3  # a cut-short two-byte sequence
    yield "bad-utf8-short", bytes(bad), "wineTastingNotes.csv", 2

    yield "crlf", write_rows(v2, newline="\r\n"), "wineTastingNotes.csv", 2
    yield "crlf-inner", clean.replace(b"\n", b"\r\n"), "wineTastingNotes.csv", 2
    yield "cr", clean.replace(b"\n", b"\r"), "wineTastingNotes.csv", 2
    mixed = bytearray()
    for k, line in enumerate(lines):
        mixed += line + (b"\n", b"\r\n", b"\r")[k % 3]
    yield "mixed-ends", bytes(mixed), "wineTastingNotes.csv", 2

    blank = lines[:]
    for k in sorted((2, 3, 150, len(blank) // 2, len(blank) - 3), reverse=True):
        blank.insert(k, b"")
    yield "blank-lines", b"\n".join(blank) + b"\n\n", "wineTastingNotes.csv", 2
    yield "bom", b"\xef\xbb\xbf" + clean, "wineTastingNotes.csv", 2
    yield "no-final-newline", clean.rstrip(b"\n"), "wineTastingNotes.csv", 2

    newlines = [r[:] for r in v2]
    for k in range(1, n, 7):
        newlines[k][1] = newlines[k][1] + "\nsecond line"
        newlines[k][-3] = newlines[k][-3] + "\r\nthird\rfourth"
    yield "quoted-newlines", write_rows(newlines), "wineTastingNotes.csv", 2

    dups = [r[:] for r in v2]
    for a, b in ((5, 6), (10, n - 10), (400, 2 * n // 3), (n - 3, n - 2)):
        dups[b][0] = dups[a][0]
    yield "duplicate-ids", write_rows(dups), "wineTastingNotes.csv", 2
    # The id after the multi-line `think` cell: its position is on a later line than the row's.
    order = list(range(len(header)))
    think = header.index("think")
    order.remove(0)
    order.insert(think, 0)
    moved = [[r[i] for i in order] for r in dups]
    yield "id-after-newlines", write_rows(moved), "wineTastingNotes.csv", 2

    ranges = [r[:] for r in v2]
    rating, abv = header.index("rating"), header.index("alcoholByVolume")
    for k in (7, 300, n - 4):
        ranges[k][rating] = "7"
        ranges[k + 1][abv] = "-1"
        ranges[k + 2][header.index("createdAt")] = "yesterday"
    yield "out-of-range", write_rows(ranges), "wineTastingNotes.csv", 2

    big = [r[:] for r in v2]
    big[n // 2][header.index("think")] = "long, " * 200_000
    big[n // 2 + 3][header.index("look.note")] = "x" * 1_200_000
    yield "rows-over-1mib", write_rows(big), "wineTastingNotes.csv", 2

    yield "semicolons", write_rows(v2, delimiter=";"), "wineTastingNotes.csv", 2
    yield "tabs", write_rows(v2, delimiter="\t"), "wineTastingNotes.csv", 2
    yield "latin1", write_rows(v2).decode("utf-8").encode("latin-1"), "wineTastingNotes.csv", 2
    yield "header-only", write_rows(v2[:1]), "wineTastingNotes.csv", 2
    yield "empty", b"", "wineTastingNotes.csv", 2

    # Random corruption: a byte of `,"\r\n` put at random places.
    for seed in range(3):
        noisy = bytearray(clean)
        for _ in range(12):
            noisy[rnd.randrange(len(header) * 8, len(noisy))] = rnd.choice(b',"\r\n')
        yield f"noise-{seed}", bytes(noisy), "wineTastingNotes.csv", 2


def commands(name, path, version, out, quick):
    jobs = ["1", "2"] if quick else ["1", "2", "3"]
    extra = ["--encoding", "latin1"] if name == "latin1" else []
    for j in jobs:
        yield ["convert", path, "--to", "jsonl", "-o", out + ".jsonl", "--jobs", j] + extra
        yield ["convert", path, "--to", "jsonl", "-o", out + ".jsonl", "--jobs", j, "--lenient"] + extra
        yield ["validate", path, "--jobs", j] + extra
        if version == 1:
            yield ["migrate", path, "--to-version", "2", "-o", out + ".csv", "--jobs", j] + extra
            yield ["convert", path, "--to-version", "2", "--to", "jsonl", "-o", out + ".jsonl", "--jobs", j, "--lenient"] + extra
    yield ["convert", path, "--to", "jsonl", "--jobs", "2", "--lenient"] + extra  # to stdout
    yield ["convert", path, "--to", "jsonl", "-o", out + ".jsonl", "--jobs", "2", "--no-typed-path", "--lenient"] + extra
    yield ["validate", path, "--jobs", "2", "--no-typed-path"] + extra
    if not quick:
        yield ["convert", path, "--to", "json", "-o", out + ".json", "--jobs", "2", "--lenient"] + extra
        yield ["convert", path, "--to", "csv", "-o", out + ".csv", "--jobs", "2", "--lenient"] + extra
        yield ["validate", path, "--jobs", "1", "--report", "json"] + extra


def run(binary, args, out_files):
    for f in out_files:
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run([binary] + args, capture_output=True)
    produced = {}
    for f in out_files:
        if os.path.exists(f):
            with open(f, "rb") as h:
                produced[f] = h.read()
    return p.returncode, p.stdout, p.stderr, produced


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--records", type=int, default=3000)
    ap.add_argument("--work", default="/tmp/csvscan-eq")
    ap.add_argument("--gen", default=os.path.join(HERE, "..", "..", "shared", "bench", "gen_notes.py"))
    ap.add_argument("--quick", action="store_true", help="fewer commands per input")
    ap.add_argument("--only", help="only the variants whose name contains this")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    sets = {}
    for version in (1, 2):
        d = os.path.join(a.work, f"gen-v{version}")
        os.makedirs(d, exist_ok=True)
        subprocess.run([sys.executable, a.gen, str(a.records), d, "--version", str(version)], check=True,
                       stdout=subprocess.DEVNULL)
        sets[version] = read_rows(os.path.join(d, "wineTastingNotes.csv" if version == 2 else "wineNotes.csv"))
    rnd = random.Random(7)
    differences = runs = 0
    for name, data, file_name, version in variants(sets[2], sets[1], rnd):
        if a.only and a.only not in name:
            continue
        d = os.path.join(a.work, name)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, file_name)
        with open(path, "wb") as f:
            f.write(data)
        out = os.path.join(a.work, "out")
        for args in commands(name, path, version, out, a.quick):
            files = [out + e for e in (".jsonl", ".json", ".csv")]
            base = run(a.base, args, files)
            new = run(a.new, args, files)
            runs += 1
            if base != new:
                differences += 1
                parts = [k for k, x, y in zip(("status", "stdout", "stderr", "output"), base, new) if x != y]
                print(f"DIFF {name}: {' '.join(args)}: {', '.join(parts)}")
                with open(os.path.join(d, f"diff-{runs}.txt"), "wb") as f:
                    for label, x, y in (("stderr", base[2], new[2]), ("stdout", base[1], new[1])):
                        f.write(f"--- {label} base\n".encode() + x[:4000] + f"\n--- {label} new\n".encode() + y[:4000] + b"\n")
    print(f"{runs} runs, {differences} differences")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
