# -*- Python -*-
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lit configuration for the GoogleTest unit tests: every TEST() is one lit test.

import os
import sys

import lit.formats

config.name = "QUANT_AFFINE-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.quant_affine_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# Sanitizer builds: every sanitizer report is a crash (test/lit_sanitizers.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_sanitizers
lit_sanitizers.configure(config, lit_config)
