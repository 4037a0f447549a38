#!/usr/bin/env python3
"""Refreshes the option and header tables of kafka-fetch-component.adoc and kafka-fetch-share-component.adoc from the
generated component JSON.

Run after `mvn process-classes` in camel-kafka-fetch-component, from the repository root:
    python3 src/build/refresh-option-tables.py
With --check it writes nothing and exits 1, naming the files, when a table is not what the catalog says (the
component's GeneratedDocsTest runs it so in every build).
"""
import json
import re
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parents[2] / "camel-kafka-fetch-component"
check = "--check" in sys.argv[1:]
stale = []


def cell(value):
    if isinstance(value, bool):
        value = str(value).lower()
    return ("" if value is None else str(value)).replace("|", "\\|")


def option_rows(options):
    rows = []
    for name, o in options.items():
        kind = cell(o.get("type"))
        if o.get("enum"):
            kind += " (" + ", ".join(o["enum"]) + ")"
        rows.append(f"| {name} | {cell(o.get('description'))} | {cell(o.get('defaultValue'))} | {kind}")
    return "\n".join(rows)


def header_rows(headers):
    return "\n".join(f"| {n} | {cell(o.get('description'))} | {cell(o.get('javaType'))}" for n, o in headers.items())


def replace_table(text, title, header_line, rows):
    pattern = re.compile(r"(== " + re.escape(title) + r"\n\n\[[^\n]*\]\n\|===\n" + re.escape(header_line) + r"\n)(.*?)(\n\|===)",
                         re.S)
    new, n = pattern.subn(lambda m: m.group(1) + rows + m.group(3), text)
    if n != 1:
        raise SystemExit(f"table '{title}' not found")
    return new


# each catalog lies under its component's package: dev.kafkafetch, and dev.kafkafetch.share for share groups
for scheme, package in (("kafka-fetch", "dev/kafkafetch"), ("kafka-fetch-share", "dev/kafkafetch/share")):
    spec = json.loads((root / f"src/generated/resources/META-INF/{package}/{scheme}.json").read_text())
    doc_path = root / f"src/main/docs/{scheme}-component.adoc"
    text = doc_path.read_text()
    text = replace_table(text, "Component options", "| Name | Description | Default | Type",
                         option_rows(spec["componentProperties"]))
    text = replace_table(text, "Endpoint options", "| Name | Description | Default | Type", option_rows(spec["properties"]))
    text = replace_table(text, "Message headers", "| Name | Description | Type", header_rows(spec["headers"]))
    if check:
        if doc_path.read_text() != text:
            stale.append(doc_path)
    else:
        doc_path.write_text(text)
        print(f"refreshed {doc_path}")

if stale:
    print("The option tables of " + ", ".join(str(p) for p in stale) + " do not match the component catalog.\n"
          "Run, from the repository root: python3 src/build/refresh-option-tables.py (and commit the result)",
          file=sys.stderr)
    sys.exit(1)
