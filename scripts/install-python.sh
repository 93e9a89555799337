#!/usr/bin/env bash
# Installs the vkindex Python module for Debian's python3 (run as root; docs/python.md): the
# dependencies from Debian's archive, a Release build in build-python/, and the package installed into
# the interpreter's site directory (/usr/local/lib/python3.11/dist-packages on Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
cmake -S . -B build-python -G Ninja -DCMAKE_BUILD_TYPE=Release -DVKINDEX_BUILD_TESTS=OFF -DVKINDEX_BUILD_TOOLS=OFF \
  -DVKINDEX_INSTALL=OFF -DVKINDEX_BUILD_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build-python -j "$(nproc)" --target vkindex_python
cmake --install build-python --component python
/usr/bin/python3 -c "import vkindex; print('vkindex', vkindex.__version__, 'installed:', vkindex.__file__)"
