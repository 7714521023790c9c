#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Print the objects that gpu.binary ops hold, decoded from MLIR's escapes.

usage: quant-affine-opt ... --quant-affine-gpu-pipeline=format=isa \\
         | extract-gpu-binary.py [-o FILE]

With format=isa the objects are PTX text, which FileCheck tests read. With
-o, the first object's bytes go to FILE (a cubin or fatbin for cuobjdump or
ptxas). Exits with 1 when the input holds no gpu.binary object.
"""
import argparse
import re
import sys

# #gpu.object<#nvvm.target<...>, [properties = {...},] (assembly|bin...) = "..">
OBJECT = re.compile(r'#gpu\.object<.*?(?:assembly|bin|offload)\s*=\s*"((?:[^"\\]|\\.)*)"',
                    re.S)


def decode(escaped):
    out = bytearray()
    i = 0
    while i < len(escaped):
        c = escaped[i]
        if c == "\\":
            nxt = escaped[i + 1]
            if re.match(r"[0-9A-Fa-f]{2}", escaped[i + 1:i + 3]):
                out.append(int(escaped[i + 1:i + 3], 16))
                i += 3
                continue
            out.extend({"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\"}.get(
                nxt, nxt.encode()))
            i += 2
            continue
        out.extend(c.encode())
        i += 1
    return bytes(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", dest="output")
    args = parser.parse_args()
    objects = [decode(m.group(1)) for m in OBJECT.finditer(sys.stdin.read())]
    if not objects:
        sys.exit("extract-gpu-binary.py: no gpu.binary object in the input")
    if args.output:
        with open(args.output, "wb") as f:
            f.write(objects[0])
        return
    for obj in objects:
        sys.stdout.write(obj.decode("utf-8", errors="replace"))
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
