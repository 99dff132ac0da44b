#!/usr/bin/env python3
"""Writes the goldens of V1RowsOnTheLaneCLITests (Tests/FerryCLITests/Fixtures/v1-rows-lane).

Usage: v1-rows-lane-goldens.py FERRY [FIXTURES]
  FERRY     the ferry binary whose results are the goldens: a build of the main before V1 rows
            took the typed lane (the goldens say what the general path gave)
  FIXTURES  the fixtures folder (default: Tests/FerryCLITests/Fixtures/v1-rows-lane beside this script)

For each domain (notes, pet-story, vocabulary), format (the JSON Lines file <domain>-v1.jsonl, the
CSV folder <domain>-v1-csv) and command (validate; migrate --to-version 2 -o out.jsonl, plain and
with --lenient) it runs
FERRY in a new temporary folder holding a copy of the input, and writes
<domain>-<format>-<command>.txt: the status, standard output and standard error (the folder's path
as $TMP, as the test's sandbox prints it) and for migrate the output file, in the test's layout
(`V1RowsOnTheLaneCLITests.transcript`). The inputs are hand-made rows (see the test's comment).
"""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
ferry = os.path.abspath(sys.argv[1])
fixtures = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "Tests", "FerryCLITests", "Fixtures", "v1-rows-lane")

env = dict(os.environ)
env.pop("SOURCE_DATE_EPOCH", None)
for domain in ["notes", "pet-story", "vocabulary"]:
    for fmt in ["jsonl", "csv"]:
        name = f"{domain}-v1.jsonl" if fmt == "jsonl" else f"{domain}-v1-csv"
        for command in ["validate", "migrate", "migrate-lenient"]:
            box = tempfile.mkdtemp()
            source = os.path.join(fixtures, name)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(box, name))
            else:
                shutil.copy(source, os.path.join(box, name))
            args = {"validate": ["validate", name], "migrate": ["migrate", name, "--to-version", "2", "-o", "out.jsonl"],
                    "migrate-lenient": ["migrate", name, "--to-version", "2", "--lenient", "-o", "out.jsonl"]}[command]
            run = subprocess.run([ferry] + args + ["--jobs", "1"], cwd=box, capture_output=True, env=env, stdin=subprocess.DEVNULL)
            out = run.stdout.decode().replace(box, "$TMP")
            err = run.stderr.decode().replace(box, "$TMP")
            text = f"status: {run.returncode}\n--- stdout\n{out}--- stderr\n{err}"
            output = os.path.join(box, "out.jsonl")
            if os.path.exists(output):
                with open(output, encoding="utf-8") as f:
                    text += "--- out.jsonl\n" + f.read()
            else:
                text += "--- no out.jsonl\n"
            with open(os.path.join(fixtures, f"{domain}-{fmt}-{command}.txt"), "w", encoding="utf-8") as f:
                f.write(text)
            shutil.rmtree(box)
