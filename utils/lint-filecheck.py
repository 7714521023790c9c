#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Flag FileCheck directives that FileCheck 22 would silently ignore.

FileCheck treats `// CHECK-LABEL @f` (no colon), `// CHEKC:` or
`// CHECK-NXT:` as plain comments, so a test with such a line passes while
checking less than it says. This lint reads every .mlir and .test file under
the given paths and reports:

  * a known directive (a check prefix of the file, default CHECK, plus an
    optional suffix such as -NEXT or -LABEL) written without its colon;
  * a word ending in ':' that looks like a directive (upper case, dashes) but
    is neither a directive of the file nor a known non-FileCheck keyword.

Exit status 1 when anything is found, with one `file:line: message` per issue.
"""
import os
import re
import sys

SUFFIXES = {"", "-NEXT", "-SAME", "-DAG", "-NOT", "-LABEL", "-EMPTY"}
COUNT = re.compile(r"-COUNT-\d+$")
# Upper-case words followed by ':' that are not FileCheck directives.
KEYWORDS = {"RUN", "REQUIRES", "UNSUPPORTED", "XFAIL", "ALLOW_RETRIES", "END",
            "NOTE", "TODO", "FIXME", "WARNING", "DEFINE", "REDEFINE", "PASS",
            "FAIL", "IMPORTANT", "WHY", "SEE", "EXAMPLE"}
COMMENT = re.compile(r"(?://|#|;)\s*([A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*)(\s*:)?")
PREFIX_FLAG = re.compile(r"--?check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)")


def prefixes_of(text):
    """Prefixes of every FileCheck call in the RUN lines (CHECK by default)."""
    found = set()
    for run in re.findall(r"RUN:(.*)", text):
        for call in run.split("FileCheck")[1:]:
            flags = PREFIX_FLAG.findall(call.split("|")[0])
            if not flags:
                found.add("CHECK")
            for flag in flags:
                found.update(p for p in flag.split(",") if p)
    return found or {"CHECK"}


def directive_prefix(token, prefixes):
    """The check prefix `token` is a directive of, or None."""
    for p in prefixes:
        if token == p or token.startswith(p + "-"):
            rest = token[len(p):]
            if rest in SUFFIXES or COUNT.match(rest):
                return p
    return None


def lint_file(path):
    problems = []
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    prefixes = prefixes_of(text)
    for lineno, line in enumerate(text.splitlines(), 1):
        m = COMMENT.search(line)
        if not m:
            continue
        token, colon = m.group(1), m.group(2)
        is_directive = directive_prefix(token, prefixes) is not None
        if is_directive and not colon:
            problems.append((path, lineno, "'%s' has no colon; FileCheck ignores it" % token))
        elif colon and not is_directive and token not in KEYWORDS and (
                "-" in token or token.startswith(("CHE", "CEHCK", "CHK"))):
            problems.append((path, lineno,
                             "'%s:' is not a directive of this file (prefixes: %s)"
                             % (token, ", ".join(sorted(prefixes)))))
    return problems


def main(paths):
    problems = []
    for root in paths:
        files = [root] if os.path.isfile(root) else [
            os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
            if f.endswith((".mlir", ".test"))]
        for path in sorted(files):
            problems.extend(lint_file(path))
    for path, lineno, msg in problems:
        print("%s:%d: %s" % (path, lineno, msg))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["."]))
