#!/usr/bin/env python3
"""Byte-for-byte comparison of two ferry binaries writing CSV, from clean and broken inputs.

Usage: csv_output_equivalence.py BASE NEW [--records N] [--work DIR] [--quick] [--only NAME]

Generates V2 notes of all four types as JSON Lines (random field values and list lengths, lists
that grow longer later in the file so that column order depends on first-seen order, members
whose lists are empty; strings holding `,`, `"`, CR, LF, CRLF, starting with `=`, `+`, `-`, `@`,
tab or CR; empty strings next to absent values; imageData present or absent; doubles of every
kind), V1 notes of all four types for migration, and broken variants of them (duplicate ids near
and far, out-of-range values, malformed lines, unknown and missing fields, members out of order,
a first record that is invalid, a collection first seen late). Runs both binaries on each with
convert to CSV (a folder of one file per collection; one file taking every collection;
standard output; `--csv-safe`, `--delimiter`, `.tsv`, `--to tsv`; `--lenient`,
`--strict`), migrate to CSV, CSV -> CSV and, to check that they did not move, convert to JSON
Lines, JSON and XML and validate, with `--jobs` 1, 2 and 3 and `--no-typed-path`. Compares the exit
status, stdout, stderr and every output file. Prints one line per difference and a summary;
exits 1 when anything differs.
"""
import argparse, base64, json, os, random, shutil, subprocess, sys

TYPES = ["wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes"]
V1_TYPES = ["wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"]
WORDS = ["oak", "plum", "cherry", "smoke", "peat", "honey", "citrus", "vanilla", "rose", "earth"]
TRICKY = ["a,b", 'say "hi"', "line\nbreak", "cr\ronly", "crlf\r\nend", "=SUM(A1)", "+1", "-2", "@x",
          "\tlead tab", "\rlead cr", "", " spaced ", "Cuvée ü 日本", "semi;colon", "tab\tinside", "'quoted'",
          '"', ",", "\n", "x" * 70]
DOUBLES = [0, -0.0, 0.5, 1, 1.5, 12.5, 13.0, 0.1, 0.30000000000000004, 1e-7, 99.99, 100, 5e-324, 2.5e-5, 1 / 3]


def text(rnd, tricky=0.3):
    if rnd.random() < tricky:
        return rnd.choice(TRICKY)
    return " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 3)))


def instant(rnd):
    s = f"20{rnd.randint(10, 29)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}T{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:{rnd.randint(0, 59):02d}"
    return s + rnd.choice(["Z", "Z", ".250Z", "+09:00", ".5Z"])


def list_length(rnd, i, n):
    # Short lists first, longer ones later: later records widen the columns.
    top = 1 + 6 * i // max(n, 1)
    return rnd.randint(0, top)


def v2_record(rnd, i, n, kind):
    r = {"$collection": kind, "id": f"id-{i}", "title": text(rnd, 0.4) or "t", "category": text(rnd, 0.2),
         "createdAt": instant(rnd)}
    if rnd.random() < 0.15:
        r["imageData"] = base64.b64encode(bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 40)))).decode()
    if kind != "coffeeTastingNotes":
        r["alcoholByVolume"] = rnd.choice(DOUBLES + [round(rnd.uniform(0, 60), 1)])
    if kind in ("wineTastingNotes", "whiskeyTastingNotes"):
        r["look"] = {"tint": text(rnd), "note": text(rnd)}
    if kind != "cocktailTastingNotes":
        r["smells"] = [{"label": text(rnd)} for _ in range(list_length(rnd, i, n))]
    r["tastes"] = [{"label": text(rnd), "value": rnd.choice([0, 0.25, 0.5, 1, round(rnd.random(), 2)])}
                   for _ in range(list_length(rnd, i, n))]
    if kind == "wineTastingNotes":
        r["grape"] = {"variety": text(rnd)}
    if kind == "whiskeyTastingNotes":
        r["finish"] = {"length": rnd.choice(["short", "medium", "long"]), "note": text(rnd)}
    if kind == "cocktailTastingNotes":
        r["ingredients"] = [{"name": text(rnd), "amount": text(rnd)} for _ in range(list_length(rnd, i, n))]
        r["isContainsIce"] = rnd.random() < 0.5
    r["think"] = text(rnd)
    r["rating"] = rnd.choice([0, 0.5, 1, 2, 2.5, 3, 4.5, 5])
    r["isFavorite"] = rnd.random() < 0.3
    return r


def v1_record(rnd, i, n, kind):
    r = {"$collection": kind, "title": text(rnd), "category": text(rnd, 0.2), "createdAt": instant(rnd)}
    if rnd.random() > 0.02:
        r = {"$collection": kind, "id": f"v1-{i}", **{k: v for k, v in r.items() if k != "$collection"}}
    if rnd.random() < 0.1:
        r["imageData"] = base64.b64encode(bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 30)))).decode()
    r["alcohol"] = rnd.choice([0, 4, 12.5, 40, 46.3])
    r["look"] = rnd.choice(["ruby, deep", " pale ,  thin ", "", "amber", "a,b,c"])
    r["smells"] = [text(rnd) for _ in range(list_length(rnd, i, n))]
    r["tastes"] = [{"label": text(rnd), "value": rnd.choice([0.25, 0.5, 1])} for _ in range(list_length(rnd, i, n))]
    if kind == "wineNotes":
        r["grape"] = text(rnd)
    if kind == "whiskeyNotes":
        r["finish"] = {"length": rnd.choice([" Long ", "short", "MEDIUM", "lingering"]), "note": text(rnd)}
    if kind == "cocktailNotes":
        r["ingredients"] = [{"name": text(rnd), "amount": text(rnd)} for _ in range(list_length(rnd, i, n))]
        r["isContainsIce"] = rnd.random() < 0.5
    r["think"] = text(rnd)
    r["rating"] = rnd.choice([1, 2, 3.5, 4, 5])
    r["isFavorite"] = rnd.random() < 0.5
    return r


def lines_of(records, version):
    head = json.dumps({"domain": "notes", "schemaVersion": version})
    return [head] + [json.dumps(r, ensure_ascii=rnd_ascii(i), separators=(",", ":")) for i, r in enumerate(records)]


def rnd_ascii(i):
    return i % 3 == 0  # some lines with \\u escapes, most with raw UTF-8


def variants(n, rnd):
    """(name, lines, version) of each JSON Lines input."""
    wine = [v2_record(rnd, i, n, "wineTastingNotes") for i in range(n)]
    yield "wine", lines_of(wine, 2), 2
    mixed = [v2_record(rnd, i, n, rnd.choice(TYPES)) for i in range(n)]
    yield "mixed", lines_of(mixed, 2), 2
    grouped = sorted(mixed, key=lambda r: TYPES.index(r["$collection"]))
    yield "grouped", lines_of(grouped, 2), 2  # a collection first seen late, in a later batch

    broken = lines_of(mixed, 2)
    m = len(broken)
    for k in (3, 4, m // 2, m - 2):
        broken[k] = broken[k].replace('"id":"id-', '"id":"id-1', 1) if k % 2 else broken[k - 1]  # duplicates
    for k in (7, 300 % m, m - 9):
        broken[k] = broken[k].replace('"rating":', '"rating":7,"r":', 1)  # out of range, unknown field
    broken[11 % m] = "{broken"
    broken[13 % m] = broken[13 % m][:40]
    broken[17 % m] = broken[17 % m].replace('"title":', '"extra":1,"title":', 1)
    broken[19 % m] = broken[19 % m].replace('"category":', '"x":null,"category":', 1)
    broken[23 % m] = broken[23 % m].replace('"think":', '"thonk":', 1)  # missing field, unknown field
    broken[29 % m] = broken[29 % m].replace('"value":', '"value":1.5,"v":', 1)
    broken[31 % m] = "[1,2]"
    broken[37 % m] = broken[37 % m].replace('"isFavorite":false', '"isFavorite":null')
    yield "broken", broken, 2

    first_bad = lines_of(wine, 2)
    first_bad[1] = first_bad[1].replace('"rating":', '"rating":9,"zz":', 1)
    first_bad[2] = "{"
    yield "first-invalid", first_bad, 2

    order = lines_of(wine, 2)
    for k in range(1, len(order), 5):  # members out of canonical order: the typed path gives up
        r = json.loads(order[k])
        keys = list(r)
        keys[2], keys[3] = keys[3], keys[2]
        order[k] = json.dumps({key: r[key] for key in keys})
    yield "out-of-order", order, 2

    numbers = lines_of(wine, 2)
    for k in range(1, len(numbers), 3):
        numbers[k] = numbers[k].replace('"rating":', '"rating":1e0,"q":0,"rating2":', 1) if k % 9 == 1 else \
            numbers[k].replace('"alcoholByVolume":', '"alcoholByVolume":1.25E1,"a2":', 1)
    yield "numbers", numbers, 2

    v1 = [v1_record(rnd, i, n, rnd.choice(V1_TYPES)) for i in range(n)]
    v1_lines = lines_of(v1, 1)
    for k in (5, len(v1_lines) // 2):
        v1_lines[k] = v1_lines[k - 1]
    yield "v1", v1_lines, 1
    v1_wine = lines_of([v1_record(rnd, i, n, "wineNotes") for i in range(n)], 1)
    yield "v1-wine", v1_wine, 1


def commands(name, path, version, work, quick):
    jobs = ["1", "2"] if quick else ["1", "2", "3"]
    folder = os.path.join(work, "out-dir") + "/"
    single = os.path.join(work, "out.csv")
    general = ["--no-typed-path"]
    for j in jobs:
        for extra in ([], ["--lenient"]):
            if version == 2:
                yield ["convert", path, "--to", "csv", "-o", folder, "--jobs", j] + extra
                yield ["convert", path, "--to", "csv", "-o", single, "--jobs", j] + extra
            else:
                yield ["migrate", path, "--to-version", "2", "--to", "csv", "-o", folder, "--jobs", j] + extra
                yield ["migrate", path, "--to-version", "2", "--to", "csv", "-o", single, "--jobs", j] + extra
    to = ["migrate", path, "--to-version", "2"] if version == 1 else ["convert", path]
    yield to + ["--to", "csv", "-o", folder, "--jobs", "2", "--lenient"] + general
    yield to + ["--to", "csv", "-o", folder, "--jobs", "2", "--lenient", "--csv-safe"]
    yield to + ["--to", "csv", "-o", folder, "--jobs", "1", "--lenient", "--csv-safe"]
    yield to + ["--to", "csv", "-o", folder, "--jobs", "2", "--lenient", "--delimiter", ";"]
    yield to + ["--to", "csv", "-o", folder, "--jobs", "2", "--lenient", "--delimiter", "tab", "--csv-safe"]
    yield to + ["--to", "tsv", "-o", folder, "--jobs", "2", "--lenient"]
    yield to + ["-o", os.path.join(work, "out.tsv"), "--jobs", "2", "--lenient"]
    yield to + ["--to", "csv", "--jobs", "2", "--lenient"]  # standard output
    yield to + ["--to", "csv", "-o", folder, "--jobs", "2", "--strict"]
    if not quick:
        for fmt in ("jsonl", "json", "xml"):
            yield to + ["--to", fmt, "-o", os.path.join(work, "out." + fmt), "--jobs", "2", "--lenient"]
        yield ["validate", path, "--jobs", "2"]
        yield ["convert", path, "--to", "jsonl", "-o", os.path.join(work, "out.jsonl"), "--jobs", "1"]


def csv_commands(csv_path, work, quick):
    folder = os.path.join(work, "out-dir") + "/"
    for j in (["1", "2"] if quick else ["1", "2", "3"]):
        yield ["convert", csv_path, "--domain", "notes", "--to", "csv", "-o", folder, "--jobs", j, "--lenient"]
        yield ["convert", csv_path, "--domain", "notes", "--to", "csv", "-o", folder, "--jobs", j]
    yield ["convert", csv_path, "--domain", "notes", "--to", "csv", "-o", folder, "--jobs", "2", "--csv-safe", "--lenient"]
    yield ["convert", csv_path, "--domain", "notes", "--to", "csv", "-o", folder, "--jobs", "2", "--no-typed-path", "--lenient"]


def snapshot(work):
    """Every output: files named out* and everything inside folders named out* (out-dir/...)."""
    files = {}
    for root, _, names in os.walk(work):
        for name in names:
            p = os.path.join(root, name)
            rel = os.path.relpath(p, work)
            if rel.split(os.sep)[0].startswith("out"):
                with open(p, "rb") as f:
                    files[rel] = f.read()
    return files


def clear(work):
    for name in os.listdir(work):
        if name.startswith("out"):
            p = os.path.join(work, name)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


def run(binary, args, work):
    clear(work)
    p = subprocess.run([binary] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr, snapshot(work)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--work", default="/tmp/csvout-eq")
    ap.add_argument("--quick", action="store_true", help="fewer commands per input")
    ap.add_argument("--only", help="only the variants whose name contains this")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    rnd = random.Random(11)
    differences = runs = 0

    def compare(name, args, d):
        nonlocal differences, runs
        base = run(a.base, args, a.work)
        new = run(a.new, args, a.work)
        runs += 1
        if base != new:
            differences += 1
            parts = [k for k, x, y in zip(("status", "stdout", "stderr", "output"), base, new) if x != y]
            print(f"DIFF {name}: {' '.join(args)}: {', '.join(parts)}")
            with open(os.path.join(d, f"diff-{runs}.txt"), "wb") as f:
                for label, x, y in (("stderr", base[2], new[2]), ("stdout", base[1], new[1])):
                    f.write(f"--- {label} base\n".encode() + x[:4000] + f"\n--- {label} new\n".encode() + y[:4000] + b"\n")
        return base

    for name, lines, version in variants(a.records, rnd):
        if a.only and a.only not in name:
            continue
        d = os.path.join(a.work, "in-" + name)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "notes.jsonl")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write("\n".join(lines) + "\n")
        for args in commands(name, path, version, a.work, a.quick):
            compare(name, args, d)
        if name in ("mixed", "broken") and not a.only:
            # CSV -> CSV: the base's per-collection files of this input are the inputs.
            base = run(a.base, ["convert", path, "--to", "csv", "-o", os.path.join(a.work, "out-dir") + "/", "--lenient"], a.work)
            for file_name, data in base[3].items():
                csv_path = os.path.join(d, os.path.basename(file_name))
                with open(csv_path, "wb") as f:
                    f.write(data)
                for args in csv_commands(csv_path, a.work, a.quick):
                    compare(name + "-csv", args, d)
    print(f"{runs} runs, {differences} differences")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
