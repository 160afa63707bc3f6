#!/usr/bin/env bash
# Optional: sets up the PyTorch import path (tools/seqpar-import, docs/import.md)
# in a virtual environment .venv-import at the repository root. Not needed to
# build or test seqpar: the exported examples are checked in.
#
# Usage: scripts/setup-import.sh [--with-cuda]
#   Idempotent: does nothing when .venv-import already matches
#   tools/seqpar-import/requirements.txt. Needs python3.11 with venv (env
#   PYTHON to choose one), cc and readelf, and PyPI; about 1.9 GB in the venv
#   plus a 540 MB download (pip's cache is used).
#   Without --with-cuda (the default), torch is installed without its CUDA
#   wheels (several GB) and its CUDA libraries are replaced by stubs
#   (tools/seqpar-import/make_cuda_stubs.py): torch then runs on the CPU only,
#   which is all seqpar-import needs. --with-cuda installs the real ones.
set -euo pipefail
cd "$(dirname "$0")/.."

with_cuda=0
for arg in "$@"; do
  case "$arg" in
    --with-cuda) with_cuda=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "setup-import: unknown option $arg" >&2; exit 2 ;;
  esac
done

venv=.venv-import
req=tools/seqpar-import/requirements.txt
python=${PYTHON:-python3}
stamp="$venv/.seqpar-stamp"
want="$(sha256sum "$req" | cut -d' ' -f1) cuda=$with_cuda"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
   "$venv/bin/python" -c "import torch, torch_mlir, transformers" 2>/dev/null; then
  echo "setup-import: $venv is up to date"
  exit 0
fi

# Switching between the stubbed and the real CUDA libraries: start afresh.
if [ -f "$stamp" ] && [ "${want##* }" != "$(cut -d' ' -f2 "$stamp")" ]; then
  echo "setup-import: CUDA mode changed, recreating $venv"
  rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
# The full pinned closure, without resolving torch's CUDA requirements.
"${pip[@]}" install --no-deps -r "$req"
site=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
if [ "$with_cuda" = 1 ]; then
  rm -rf "$site/nvidia/cu13/lib"/lib*.so.* 2>/dev/null || true
  torch_ver=$(grep -E '^torch==' "$req")
  "${pip[@]}" install "$torch_ver"   # now with its CUDA dependencies
else
  "$venv/bin/python" tools/seqpar-import/make_cuda_stubs.py "$site" >/dev/null
fi

"$venv/bin/python" - <<'EOF'
import torch, torch_mlir, transformers
from torch._functorch.aot_autograd import aot_export_module  # --training
from torch_mlir.fx import stateless_fx_import
import onnx, onnxscript                          # --frontend onnx
from torch_mlir.extras import onnx_importer
x = torch.ones(2, 2)
assert (x @ x).sum().item() == 8.0
print("setup-import: torch %s (cuda available: %s), transformers %s"
      % (torch.__version__, torch.cuda.is_available(), transformers.__version__))
EOF
echo "$want" > "$stamp"
echo "setup-import: ready; run tools/seqpar-import/seqpar-import --help"
