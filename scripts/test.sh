#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs every test through ctest
# (lit + FileCheck regression tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure
