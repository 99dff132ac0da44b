#!/usr/bin/env python3
"""Writes one vocabulary V1 dataset of BOOKS word books x WORDS words three ways, for `make bench`
and the tests: the flat envelope (flat.json: {"domain", "schemaVersion": 1, "wordBooks": [...],
"words": [...]}) and both Firestore export layouts, node-firestore-import-export
(node-firestore.json: "__collections__" nesting, timestamps as {"__datatype__": "timestamp", ...})
and firestore-backup-restore (backup-restore.json: path-keyed "subCollection" maps). Migrated to
V2, the three give the same records. Deterministic: the same arguments give the same bytes.
Usage: gen_vocabulary.py OUT_DIR BOOKS WORDS [--seed N] [--indent N]"""
import argparse, json, os, random

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("books", type=int)
    parser.add_argument("words", type=int, help="words per book")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--indent", type=int, default=None, help="pretty-print (default: compact)")
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    gana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわん"
    kanji = "日月火水木金土山川田人口目耳手足力上下中大小本文字学生先年"
    books, words = [], []  # (id, fields, timestamp) in order
    for b in range(args.books):
        book_id = f"book-{b:05d}"
        books.append((book_id, {"title": f"Book {b} {rnd.choice(kanji)}"}, (1_600_000_000 + b * 86_400, 0)))
        for w in range(args.words):
            fields = {
                "meaningText": f"meaning {b}.{w}",
                "meaningImageURL": "",
                "ganaText": "".join(rnd.choice(gana) for _ in range(rnd.randint(2, 5))),
                "ganaImageURL": "",
                "kanjiText": "".join(rnd.choice(kanji) for _ in range(rnd.randint(1, 3))),
                "kanjiImageURL": f"https://example.com/img/{b}/{w}.png" if rnd.random() < 0.2 else "",
                "studyState": rnd.randint(0, 2),
            }
            stamp = (1_600_000_000 + b * 86_400 + w, rnd.choice([0, 250_000_000, 500_000_000]))
            words.append((book_id, f"w-{b:05d}-{w:05d}", fields, stamp))

    def plain(stamp):
        return {"_seconds": stamp[0], "_nanoseconds": stamp[1]}

    def node(stamp):
        return {"__datatype__": "timestamp", "value": plain(stamp)}

    flat = {"domain": "vocabulary", "schemaVersion": 1,
            "wordBooks": [{"id": i, **f, "timestamp": plain(t)} for i, f, t in books],
            "words": [{"id": i, "wordBookID": b, **f, "timestamp": plain(t)} for b, i, f, t in words]}
    by_book = {}
    for b, i, f, t in words:
        by_book.setdefault(b, []).append((i, f, t))
    node_books = {}
    restore_books = {}
    for i, f, t in books:
        mine = by_book.get(i, [])
        node_books[i] = {**f, "timestamp": node(t), "__collections__": {
            "words": {wi: {**wf, "timestamp": node(wt), "__collections__": {}} for wi, wf, wt in mine}}}
        restore_books[i] = {**f, "timestamp": plain(t), "subCollection": {
            f"wordBooks/{i}/words": {wi: {**wf, "timestamp": plain(wt)} for wi, wf, wt in mine}}}
    os.makedirs(args.out, exist_ok=True)
    for name, data in [("flat.json", flat), ("node-firestore.json", {"__collections__": {"wordBooks": node_books}}),
                       ("backup-restore.json", {"wordBooks": restore_books})]:
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=args.indent)
            f.write("\n")

main()
