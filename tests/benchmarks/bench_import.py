"""What ``import robonum`` costs, against ``import numpy, scipy`` (its only dependencies) in the same run.

``python -X importtime`` in fresh interpreters, best of five each: the core
should cost little beyond the numpy and scipy modules it needs (issue 25: well
under 0.3 s on these machines).  tests/lib/test_architecture.py checks what the
import loads (numpy and scipy, no matplotlib, IPython, numba, ...); how long it
takes is measured here, not asserted in ``make test``, where a busy machine would
decide it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

LIB = Path(__file__).resolve().parents[2] / "lib"
RUNS = 5


def cumulative_seconds(code: str, module: str) -> float:
    """Best of RUNS fresh interpreters: ``module``'s cumulative import time for ``code``."""
    best = float("inf")
    for _ in range(RUNS):
        log = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            env=dict(os.environ, PYTHONPATH=str(LIB)),
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stderr
        rows = [line for line in log.splitlines() if line.rstrip().endswith(f"| {module}")]
        best = min(best, int(rows[-1].split("|")[1]) / 1e6)
    return best


def main() -> None:
    peers = cumulative_seconds("import numpy, scipy.linalg", "numpy") + cumulative_seconds(
        "import numpy, scipy.linalg", "scipy.linalg"
    )
    ours = cumulative_seconds("import robonum", "robonum")
    print(f"import robonum: {ours:.3f} s (numpy + scipy.linalg alone: {peers:.3f} s)")
    print(f"ratio robonum / its dependencies: {ours / peers:.2f}")


if __name__ == "__main__":
    main()
