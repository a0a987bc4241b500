"""LLM test setup.

The test modules import llama_cpp at collection time, before
``LlamaCppChatModel.load`` could set ``OMP_WAIT_POLICY``; set it here so llama.cpp's
OpenMP threads wait passively (spin-waiting made generation 3-20x slower whenever
other jobs shared the 2 CPU cores).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
