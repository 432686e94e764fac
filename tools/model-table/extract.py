#!/usr/bin/env python3
"""Extracts Claude Code's own model table (ids, provider ids, context windows) from the
client's native binary, as a fixture that carryover's window table is tested against.

    python3 tools/model-table/extract.py path/to/claude > tests/fixtures/claude-code-2.1.328/model-table.json

The client ships its model table as JavaScript object literals such as
`{id:"claude-opus-4-6",family:"opus",...,provider_ids:{...},...,context:{window:200000,...}}`;
this reads those literals, nothing else. Entries without a `context` use the client's default
window (200,000).
"""
import json
import re
import sys

DEFAULT_WINDOW = 200_000


def number(raw):
    return int(float(raw))


def main(path):
    data = open(path, "rb").read()
    anchor = data.find(b"context:{window:")
    if anchor < 0:
        sys.exit("no model table (context:{window:) in this binary")
    start = data.rfind(b'[{id:"claude-', 0, anchor)
    end = data.find(b"}]", anchor)
    # The table's array ends after the last entry that has a context block.
    while True:
        more = data.find(b"context:{window:", end)
        if more < 0 or more - end > 20_000:
            break
        end = data.find(b"}]", more)
    table = data[start:end].decode("latin1")
    version = re.search(rb'VERSION:"(\d+\.\d+\.\d+)"', data)
    rows = []
    for entry in re.split(r'(?=\{id:"claude-)', table)[1:]:
        model = re.match(r'\{id:"([^"]+)"', entry).group(1)
        ids = re.search(r"provider_ids:\{([^}]*)\}", entry)
        aliases = sorted(set(re.findall(r':"([^"]+)"', ids.group(1)))) if ids else []
        context = re.search(r"context:\{([^}]*)\}", entry)
        fields = dict(re.findall(r"(\w+):([^,]+)", context.group(1))) if context else {}
        rows.append(
            {
                "id": model,
                "aliases": [a for a in aliases if a != model],
                "window": number(fields["window"]) if "window" in fields else DEFAULT_WINDOW,
                "maximum_window": number(fields["maximum_window"]) if "maximum_window" in fields else None,
                "native_1m": fields.get("native_1m") == "!0",
                "supports_1m_suffix": fields.get("supports_1m_suffix") == "!0",
            }
        )
    json.dump(
        {"client": "@anthropic-ai/claude-code", "version": version.group(1).decode() if version else None, "models": rows},
        sys.stdout,
        indent=2,
    )
    print()


if __name__ == "__main__":
    main(sys.argv[1])
