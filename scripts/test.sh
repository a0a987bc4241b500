#!/usr/bin/env bash
# One command: install everything from scratch (if needed) and run the whole test suite,
# including the slow tests that load the real bundled models.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. .venv/bin/activate
python -m pytest -q "$@"
