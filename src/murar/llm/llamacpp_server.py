"""``python -m murar.llm.llamacpp_server ARGS``: llama-cpp-python's OpenAI-compatible
server (``python -m llama_cpp.server ARGS``, same arguments) with murar's AMX guard.

A llama.cpp compiled with ggml's AMX int8 kernels dies with SIGILL on the first
prompt on some CPUs that advertise AMX (see :mod:`murar.llm.llamacpp`); the stock
server then drops every connection after its start-up check succeeded. This
launcher loads the model without llama.cpp's extra buffer types when the build has
those kernels (:func:`murar.llm.llamacpp.amx_in_build`) and otherwise runs the
stock server unchanged. Needs the ``llama-cpp-python[server]`` dependencies.
"""

from __future__ import annotations

import runpy
import sys
from contextlib import nullcontext

from murar.llm.llamacpp import amx_in_build, without_extra_buffer_types


def main(argv: list[str] | None = None) -> None:
    """Run ``llama_cpp.server`` with ``argv`` (default: this process's arguments).

    Raises:
        ModuleNotFoundError: llama-cpp-python or its server dependencies are missing.
        SystemExit: from the server's own argument parser (``--help``, bad options).
    """
    args = sys.argv[1:] if argv is None else argv
    sys.argv = ["llama_cpp.server", *args]
    guard = without_extra_buffer_types() if amx_in_build() else nullcontext()
    with guard:  # held for the server's lifetime: the model loads inside it
        runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
