#!/usr/bin/env python3
"""The Slang compiler for the HLSL/Slang emitter tests, from the `slangpy` package.

Why this file: `pip install slangpy` ships Slang's compiler library (libslang-compiler.so) but
no `slangc` executable. Its C API takes slangc's own command line (spProcessCommandLineArguments
in command-line mode, which writes -o and -reflection-json files like slangc), so `compile` here
*is* slangc. `run` dispatches one compute kernel on a Vulkan device through slangpy and prints
the bytes of one buffer, so that a test can see where a writer's stores land.

  slang.py check                                  exit 0 if slangpy loads
  slang.py compile <slangc arguments...>          compile as slangc would
  slang.py run JOBS.json                          JOBS: [{"source", "buffer", "size"}, ...];
                                                  prints a JSON list of byte lists
"""

import ctypes
import glob
import json
import os
import sys


def library():
    import slangpy

    here = os.path.dirname(slangpy.__file__)
    found = sorted(glob.glob(os.path.join(here, "libslang-compiler.so*")) + glob.glob(os.path.join(here, "libslang.so*")))
    if not found:
        sys.exit("slangpy has no libslang-compiler.so in " + here)
    return ctypes.CDLL(found[0])


def compile_(args):
    lib = library()
    lib.spCreateSession.restype = ctypes.c_void_p
    lib.spCreateSession.argtypes = [ctypes.c_char_p]
    lib.spCreateCompileRequest.restype = ctypes.c_void_p
    lib.spCreateCompileRequest.argtypes = [ctypes.c_void_p]
    lib.spProcessCommandLineArguments.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int]
    lib.spCompile.argtypes = [ctypes.c_void_p]
    lib.spGetDiagnosticOutput.restype = ctypes.c_char_p
    lib.spGetDiagnosticOutput.argtypes = [ctypes.c_void_p]
    # C++ linkage in the library: the mode in which the request writes its output files.
    command_line_mode = getattr(lib, "_Z28spSetCommandLineCompilerModePN5slang15ICompileRequestE")
    command_line_mode.argtypes = [ctypes.c_void_p]
    session = lib.spCreateSession(None)
    request = lib.spCreateCompileRequest(session)
    command_line_mode(request)
    argv = [a.encode() for a in args]
    array = (ctypes.c_char_p * len(argv))(*argv)
    ok = lib.spProcessCommandLineArguments(request, array, len(argv)) >= 0 and lib.spCompile(request) >= 0
    sys.stderr.write((lib.spGetDiagnosticOutput(request) or b"").decode(errors="replace"))
    return 0 if ok else 1


def run(jobs_path):
    import numpy as np
    import slangpy as spy

    device = spy.Device(type=spy.DeviceType.vulkan)
    results = []
    for job in json.load(open(jobs_path)):
        session = device.create_slang_session(compiler_options={"include_paths": [os.path.dirname(job["source"])]})
        name = os.path.splitext(os.path.basename(job["source"]))[0]
        module = session.load_module_from_source(name, open(job["source"]).read(), path=job["source"])
        program = session.link_program([module], [module.entry_point("main")])
        kernel = device.create_compute_kernel(program)
        words = (job["size"] + 3) // 4
        buffer = device.create_buffer(
            size=words * 4,
            usage=spy.BufferUsage.unordered_access | spy.BufferUsage.shader_resource,
            data=np.zeros(words, dtype=np.uint32),
        )
        kernel.dispatch(thread_count=[1, 1, 1], vars={job["buffer"]: buffer})
        results.append([int(b) for b in buffer.to_numpy().view(np.uint8)[: job["size"]]])
    print(json.dumps(results))
    return 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    command = sys.argv[1]
    if command == "check":
        library()
        return 0
    if command == "compile":
        return compile_(sys.argv[2:])
    if command == "run":
        return run(sys.argv[2])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
