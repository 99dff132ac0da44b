#!/usr/bin/env python3
"""Counts what `ferry stats --report json` reports, independently of Ferry (Docs/stats.md).

Usage: stats_count.py FILE [--csv]. FILE is JSON Lines (a "$collection" member names a record's
collection), a JSON document ({"collection": [records], ...}; other members are the header) or,
with --csv, a CSV file read as strings (an empty cell is an empty string; dotted column names
nest as Docs/csv.md says). Prints
{"collections": [...]} shaped as Ferry's report.
"""
import csv
import json
import re
import sys
from collections import Counter
from datetime import datetime, timezone

KINDS = ["string", "number", "bool", "object", "list", "null"]


def instant(text):
    # A full-date (a calendar day) is ordered as its midnight UTC.
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        try:
            return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
        except ValueError:
            return None
    if not (20 <= len(text.encode()) <= 40 and text[4:5] == "-" and text[7:8] == "-" and text[10:11] in "Tt"):
        return None
    try:
        return datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return None


def escape(key):
    return key.replace("~", "~0").replace("/", "~1")


class Field:
    def __init__(self, pointer):
        self.pointer, self.count, self.nulls = pointer, 0, 0
        self.kinds, self.values = Counter(), Counter()
        self.numbers, self.instants, self.lengths, self.lists = [], [], [], []
        self.eligible = True

    def add(self, value):
        if value is None:
            self.nulls += 1
            self.kinds["null"] += 1
            return
        self.count += 1
        if isinstance(value, bool):
            self.kinds["bool"] += 1
            self.values[("b", "true" if value else "false")] += 1
        elif isinstance(value, (int, float)):
            self.kinds["number"] += 1
            self.numbers.append(value)
            self.values[("n", repr(value))] += 1
            self.eligible = False
        elif isinstance(value, str):
            self.kinds["string"] += 1
            self.lengths.append(len(value))
            moment = instant(value)
            if moment is not None:
                self.instants.append((moment, value))
            if len(value) > 64:
                self.eligible = False
            self.values[("s", value)] += 1
        elif isinstance(value, list):
            self.kinds["list"] += 1
            self.lists.append(len(value))
            self.eligible = False
        else:
            self.kinds["object"] += 1
            self.eligible = False

    def report(self, missing):
        # Past 100,000 distinct values Ferry estimates the count (the caller compares within the
        # stated error) and reports no most frequent values.
        exact = len(self.values) <= 100000
        top = []
        if exact and self.eligible and self.values and max(self.values.values()) > 1:
            ranked = sorted(self.values.items(), key=lambda item: (-item[1], item[0][1].encode()))
            top = [{"value": (value == "true") if kind == "b" else value, "count": count} for (kind, value), count in ranked[:5]]
        if self.numbers:
            low, high = min(self.numbers), max(self.numbers)
        elif self.instants:
            low, high = min(self.instants)[1], max(self.instants)[1]
        else:
            low = high = None
        return {
            "field": self.pointer,
            "kinds": {kind: self.kinds[kind] for kind in KINDS if self.kinds[kind]},
            "count": self.count, "nulls": self.nulls, "missing": missing,
            "distinct": len(self.values), "distinctExact": exact, "min": low, "max": high,
            "length": {"min": min(self.lengths), "max": max(self.lengths)} if self.lengths else None,
            "items": {"min": min(self.lists), "max": max(self.lists), "mean": sum(self.lists) / len(self.lists)} if self.lists else None,
            "top": top,
        }


class Collection:
    def __init__(self, name):
        self.name, self.records, self.fields, self.objects = name, 0, {}, Counter()
        self.parents = {}

    def field(self, parent, pointer):
        if pointer not in self.fields:
            self.fields[pointer] = Field(pointer)
            self.parents[pointer] = parent
        return self.fields[pointer]

    def visit(self, pointer, value):
        if isinstance(value, dict):
            self.objects[pointer] += 1
            for key, member in value.items():
                child = pointer + "/" + escape(key)
                self.field(pointer, child).add(member)
                self.visit(child, member)
        elif isinstance(value, list) and value:
            child = pointer + "/*"
            field = self.field(pointer, child)
            for item in value:
                field.add(item)
                self.visit(child, item)

    def report(self):
        fields = []
        for pointer, field in self.fields.items():
            missing = 0 if pointer.endswith("/*") else self.objects[self.parents[pointer]] - field.count - field.nulls
            fields.append(field.report(missing))
        return {"name": self.name, "records": self.records, "fieldsLeftOut": 0, "fields": fields}


def nested(name, names):
    """The key path of a CSV column as Docs/csv.md unflattens it: dotted names nest, unless a part
    is empty or a dotted prefix is itself a column. (Numeric parts, which make lists, are not
    handled: the files counted here have none.)"""
    parts = name.split(".")
    if "" in parts or any(".".join(parts[:i]) in names for i in range(1, len(parts))):
        return [name]
    return parts


def records(path, as_csv):
    if as_csv:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = csv.reader(handle)
            # An empty header cell is named by its 1-based column, as Ferry's reader names it.
            header = [name or str(index + 1) for index, name in enumerate(next(rows))]
            paths = [nested(name, set(header)) for name in header]
            for row in rows:
                record = {}
                for parts, cell in zip(paths, row):
                    target = record
                    for part in parts[:-1]:
                        target = target.setdefault(part, {})
                    target[parts[-1]] = cell
                yield "", record
        return
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if path.endswith(".jsonl"):
        for line in text.splitlines():
            if line.strip():
                record = json.loads(line)
                if "$collection" not in record and set(record) <= {"domain", "schemaVersion"}:
                    continue  # the dataset header line, not a record
                yield record.pop("$collection", ""), record
        return
    for name, value in json.loads(text).items():
        if isinstance(value, list):
            for record in value:
                yield name, record


def main():
    collections = {}
    for name, record in records(sys.argv[1], "--csv" in sys.argv):
        collection = collections.setdefault(name, Collection(name))
        collection.records += 1
        collection.visit("", record)
    json.dump({"collections": [c.report() for c in collections.values()]}, sys.stdout)


main()
