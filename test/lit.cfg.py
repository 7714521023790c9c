# -*- Python -*-
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lit configuration for the quant-affine regression tests.

import os
import shutil
import subprocess
import sys

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

# Sanitizer builds: every sanitizer report is a crash (test/lit_sanitizers.py).
sys.path.insert(0, os.path.dirname(__file__))
import lit_sanitizers
lit_sanitizers.configure(config, lit_config)

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

# `onnx-import`: quant-affine-translate --import-onnx is built. `onnx-testdata`:
# Debian's libonnx-testdata (ONNX's node tests) is installed; %onnx_node_tests
# is its directory of node tests.
if config.onnx_import_enabled:
    config.available_features.add("onnx-import")
    llvm_config.add_tool_substitutions(
        [ToolSubst("quant-affine-translate", unresolved="fatal")],
        [config.quant_affine_tools_dir])
# `python-onnx`: Debian's python3-onnx and NumPy, which build test models;
# %onnx_python runs them.
onnx_python = "/usr/bin/python3"
if os.path.exists(onnx_python) and subprocess.run(
        [onnx_python, "-c", "import onnx, numpy"],
        capture_output=True).returncode == 0:
    config.available_features.add("python-onnx")
config.substitutions.append(("%onnx_python", onnx_python))
onnx_node_tests = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(onnx_node_tests):
    config.available_features.add("onnx-testdata")
config.substitutions.append(("%onnx_node_tests", onnx_node_tests))
# `onnxruntime`: onnxruntime-node, which utils/install-deps.sh installs into
# /opt/quant-affine/onnxruntime-node (QUANT_AFFINE_ORT_NODE overrides it), the
# peer the whole-model tests compare with; %ort_node_modules is that folder.
ort_node = os.environ.get("QUANT_AFFINE_ORT_NODE",
                          "/opt/quant-affine/onnxruntime-node")
if os.path.isdir(os.path.join(ort_node, "node_modules", "onnxruntime-node")):
    config.available_features.add("onnxruntime")
config.substitutions.append(("%ort_node_modules", ort_node))

# libomp: the OpenMP runtime (Debian's libomp-22-dev) that the CPU pipeline's
# openmp option needs at link time.
if os.path.exists(os.path.join(config.mlir_lib_dir, "libomp.so")):
    config.available_features.add("libomp")

# x86-64 hosts build and run the x86 benchmark loops (test/Tooling).
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64-host")

# AArch64 execution under qemu-user (Debian's qemu-user, gcc-aarch64-linux-gnu):
# %run_aarch64 compiles a test for AArch64 and runs it (Inputs/run-aarch64.sh).
if (shutil.which("qemu-aarch64") and shutil.which("aarch64-linux-gnu-gcc")
        and os.path.exists(os.path.join(config.llvm_tools_dir, "llvm-objcopy"))):
    config.available_features.add("qemu-aarch64")
config.substitutions.append(("%run_aarch64", "env PATH=%s:%s:%s bash %s" % (
    config.quant_affine_tools_dir, config.llvm_tools_dir, os.environ["PATH"],
    os.path.join(config.quant_affine_src_root, "test", "Integration", "AArch64",
                 "Inputs", "run-aarch64.sh"))))

# The format check needs clang-format 22 and a git checkout to list files.
if (os.path.exists(os.path.join(config.llvm_tools_dir, "clang-format"))
        and os.path.exists(os.path.join(config.quant_affine_src_root, ".git"))):
    config.available_features.add("clang-format")

# GPU tests. `libdevice`: device code that rounds can be compiled (to PTX
# text, with no other tool). `ptxas`: the toolkit's ptxas can check our PTX. `cuda-runtime`:
# our mgpu* library is built. `cuda-gpu`: a GPU answered the probe, so
# compiled modules run (for the chip the probe reported). Elsewhere these
# tests are reported as UNSUPPORTED.
cuda_path = config.cuda_path
config.substitutions.append(("%cuda_path", cuda_path or "/usr/local/cuda"))
config.substitutions.append(
    ("%extract_gpu_binary",
     "%s %s" % (config.python_executable,
                os.path.join(config.quant_affine_src_root, "utils", "extract-gpu-binary.py"))))
if cuda_path and os.path.exists(
        os.path.join(cuda_path, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("libdevice")
if cuda_path and os.path.exists(os.path.join(cuda_path, "bin", "ptxas")):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", os.path.join(cuda_path, "bin", "ptxas")))
    config.substitutions.append(("%fatbinary", os.path.join(cuda_path, "bin", "fatbinary")))
gpu_chip = "sm_90"
if config.cuda_runtime_enabled:
    lib_dir = os.path.join(config.quant_affine_obj_root, "lib")
    config.available_features.add("cuda-runtime")
    config.substitutions.append(
        ("%cuda_runtime_lib", os.path.join(lib_dir, "libquant_affine_cuda_runtime.so")))
    stub_dir = os.path.join(lib_dir, "cuda-stub")
    config.substitutions.append(("%cuda_stub_dir", stub_dir))
    if os.path.exists(os.path.join(stub_dir, "libcuda.so.1")):
        config.available_features.add("cuda-stub")
    probe = os.path.join(config.quant_affine_tools_dir, "quant-affine-cuda-probe")
    try:
        # (With config.environment: a sanitizer build's probe needs its options.)
        result = subprocess.run([probe], capture_output=True, text=True, timeout=60,
                                env=dict(os.environ, **config.environment))
        if result.returncode == 0 and result.stdout.startswith("sm_"):
            config.available_features.add("cuda-gpu")
            gpu_chip = result.stdout.strip()
            lit_config.note("GPU tests run on " + gpu_chip)
        else:
            lit_config.note("no GPU: GPU execution tests are unsupported (%s)"
                            % (result.stderr.strip() or "probe failed"))
    except (OSError, subprocess.TimeoutExpired) as error:
        lit_config.note("no GPU: GPU execution tests are unsupported (%s)" % error)
config.substitutions.append(("%gpu_chip", gpu_chip))
