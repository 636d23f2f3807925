"""Print the good/weak/bad table of a recorded run of the property-based suite.

    BADINPUT_SURVEY=/tmp/s.jsonl .venv/bin/pytest tests/lib/badinput/test_property_{api,book,fast}.py \\
        -k hostile -p no:cacheprovider
    .venv/bin/python tests/lib/badinput/survey.py /tmp/s.jsonl [--list bad|weak]
"""

import json
import sys
from collections import Counter, defaultdict


def module_of(name: str) -> str:
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 else "robonum"


def main(path: str, show: str | None = None) -> None:
    rows = [json.loads(line) for line in open(path)]
    table = defaultdict(Counter)
    for r in rows:
        table[module_of(r["name"])][r["outcome"]] += 1
    print("| module | good | weak | bad |\n|---|---:|---:|---:|")
    total = Counter()
    for mod in sorted(table):
        c = table[mod]
        total.update(c)
        print(f"| {mod} | {c['good']} | {c['weak']} | {c['bad']} |")
    print(f"| **all** | {total['good']} | {total['weak']} | {total['bad']} |")
    if show:
        seen = set()
        for r in rows:
            key = (r["name"], r["param"], r["detail"][:60])
            if r["outcome"] == show and key not in seen:
                seen.add(key)
                print(f"{r['name']}({r['param']}={r['value']}): {r['detail'][:160]}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else None)
