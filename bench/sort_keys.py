#!/usr/bin/env python3
"""sort_keys.py SOURCE TARGET: SOURCE (a JSON document, or JSON Lines when its name ends in
.jsonl) written again with every object's keys sorted, as `jq -S`, Swift's `JSONEncoder` with
`.sortedKeys` or Python's `sort_keys` write them: the same records in another key order."""
import json
import sys

src, out = sys.argv[1:]
text = open(src, encoding="utf-8").read()
with open(out, "w", encoding="utf-8") as f:
    if src.endswith(".jsonl"):
        for line in text.splitlines():
            if line.strip():
                f.write(json.dumps(json.loads(line), sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n")
    else:
        f.write(json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, indent=2) + "\n")
