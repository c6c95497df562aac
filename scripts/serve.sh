#!/usr/bin/env bash
# Installs whatever is missing, then serves the page at http://127.0.0.1:8080 (PORT=... to change).
# Extra arguments go to `trunk serve`, e.g. `scripts/serve.sh --release`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS_PATH="$(SLOTSCOPE_NEED_BROWSER=0 bash scripts/setup.sh)"
export PATH="$TOOLS_PATH:$PATH"
echo "[serve] http://127.0.0.1:${PORT:-8080}/ (Ctrl-C to stop)" >&2
# No auto-reload: Trunk fills its reload script in at serve time, so its hash cannot be in the
# page's Content-Security-Policy; the page is served exactly as it is released.
exec trunk serve --address 127.0.0.1 --port "${PORT:-8080}" --no-autoreload "$@"
