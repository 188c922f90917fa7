#!/usr/bin/env bash
# Writes book/src/SUMMARY.md: the chapters below, then one line per page of the generated
# diagnostics index (book/src/diagnostics/CODE.md, titled "# CODE: title" by tests/book.rs).
# Run it after `DGCC_BLESS=1 cargo test --test book diagnostics_index` adds or removes a code.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/src"

{
  cat <<'CHAPTERS'
# Summary

[Introduction](introduction.md)

- [Getting started](getting-started.md)
- [The description language](language.md)
- [Layouts and alignment](layouts.md)
- [Device profiles](profiles.md)
- [Subgroup sizes](subgroups.md)
- [Embedding in an engine](embedding.md)
- [Hostile input and validation](robustness.md)
- [Diagnostics index](diagnostics/index.md)
CHAPTERS
  for page in diagnostics/[EW][0-9][0-9][0-9][0-9].md; do
    title=$(head -n 1 "$page" | sed -e 's/^# //' -e 's/\\/\\\\/g' -e 's/\[/\\[/g' -e 's/\]/\\]/g')
    printf '  - [%s](%s)\n' "$title" "$page"
  done
  cat <<'CHAPTERS'
- [Performance](performance.md)
  - [H200 benchmark output](measured/h200-bench.md)
  - [H200 differential check output](measured/h200-differential.md)
- [Design](design.md)
- [Changelog](changelog.md)
CHAPTERS
} > SUMMARY.md
