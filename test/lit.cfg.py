# -*- Python -*-
# lit configuration for the quant-affine regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "QUANT_AFFINE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.quant_affine_obj_root, "test")
# Unit/ holds the GoogleTest suite, with a config of its own.
config.excludes = ["Unit", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# Catch FileCheck variables that leak across CHECK-LABEL blocks.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%quant_affine_src_root", config.quant_affine_src_root))
config.substitutions.append(("%quant_affine_obj_root", config.quant_affine_obj_root))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))
config.substitutions.append(("%quant_affine_tools_dir", config.quant_affine_tools_dir))

# QUANT_AFFINE_VERIFY_ROUNDTRIP=1 makes every driver call also check that its
# output parses back to the same IR (as CIRCT's switch does).
opt = ToolSubst("quant-affine-opt", unresolved="fatal")
if os.environ.get("QUANT_AFFINE_VERIFY_ROUNDTRIP") == "1":
    opt = ToolSubst("quant-affine-opt", extra_args=["--verify-roundtrip"],
                    unresolved="fatal")
llvm_config.add_tool_substitutions(
    [opt, "mlir-runner", "mlir-translate", "mlir-opt", "llc", "clang", "clang++"],
    [config.quant_affine_tools_dir, config.llvm_tools_dir])
