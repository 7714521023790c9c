# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Environment for tests of a sanitizer build (-DQUANT_AFFINE_USE_SANITIZER=...),
# shared by test/lit.cfg.py, test/Unit/lit.cfg.py and the lit.local.cfg of the
# tests that load our CUDA runtime into mlir-runner. Does nothing otherwise.
#
# A sanitizer's report ends the program with exit status 1 by default, which
# `not` and utils/mutate-ir.py take for a diagnostic; abort_on_error=1 makes
# every report (ASan, LeakSanitizer, UBSan) a crash instead. Options the user
# sets in ASAN_OPTIONS/UBSAN_OPTIONS come last and so win.

import os

ASAN_OPTIONS = [
    "abort_on_error=1",
    "detect_leaks=1",
    # The CUDA driver maps memory in the range ASan protects as its shadow
    # gap (cuInit fails otherwise, in the probe and in the runtime library).
    "protect_shadow_gap=0",
]
UBSAN_OPTIONS = ["abort_on_error=1", "halt_on_error=1", "print_stacktrace=1"]


def _set(config, var, options):
    user = os.environ.get(var, "")
    config.environment[var] = ":".join(o for o in options + [user] if o)


def sanitizers(config):
    return [s for s in getattr(config, "quant_affine_sanitizers", "").split(";") if s]


def configure(config, lit_config):
    used = sanitizers(config)
    if not used:
        return
    config.available_features.add("sanitizers")
    symbolizer = os.path.join(config.quant_affine_llvm_tools_dir, "llvm-symbolizer")
    if os.path.exists(symbolizer):
        config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
    if "Address" in used:
        config.available_features.add("asan")
        _set(config, "ASAN_OPTIONS", ASAN_OPTIONS)
    if "Undefined" in used:
        config.available_features.add("ubsan")
        _set(config, "UBSAN_OPTIONS", UBSAN_OPTIONS)
    lit_config.note("sanitizer build (%s): ASAN_OPTIONS=%s UBSAN_OPTIONS=%s" % (
        ";".join(used), config.environment.get("ASAN_OPTIONS", "-"),
        config.environment.get("UBSAN_OPTIONS", "-")))


def preload_asan_runtime(config):
    """For tests in which an uninstrumented program (mlir-runner) loads one of
    our instrumented shared libraries: ASan's runtime must be loaded first."""
    runtime = getattr(config, "quant_affine_asan_runtime", "")
    if "Address" not in sanitizers(config) or not runtime:
        return
    config.environment["LD_PRELOAD"] = runtime
    # Every program of these tests now runs under ASan; mlir-runner, the CUDA
    # driver and the other tools are not ours, so leaks are not checked there.
    _set(config, "ASAN_OPTIONS", ASAN_OPTIONS + ["detect_leaks=0"])
