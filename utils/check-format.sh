#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks that every tracked C and C++ file is formatted as .clang-format (LLVM
# style) says, with clang-format 22. Prints the files that are not and exits
# non-zero; `utils/check-format.sh --fix` formats them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format-22}
command -v "$format" >/dev/null || format=/usr/lib/llvm-22/bin/clang-format
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h')
if [[ ${1:-} == --fix ]]; then
  "$format" -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! "$format" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not clang-formatted: $f (utils/check-format.sh --fix)"
    bad=1
  fi
done
echo "${#files[@]} files checked"
exit $bad
