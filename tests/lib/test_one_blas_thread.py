"""The solver tests with large Newton matrices pass again with one BLAS thread.

OpenBLAS splits an LU, a solve or a product over its threads once the matrix is large
enough, and the split moves the last bits of the result.  Measured with numpy's OpenBLAS
here (an LU, a solve and a product of random n x n matrices, bit for bit,
``OPENBLAS_NUM_THREADS=1`` against 2): equal for n = 8, 20, 22, 50, 100, different from
n = 102 on (but n = 120).  The largest dense Newton matrices of the solver tests
(``Work.lu_factor``, recorded per file): test_chains 130, test_sparse_lu 102, test_jacobian
22, every other file <= 12; the SciPy spec's 400-unknown problem goes through SuperLU.  So
the files below must hold with either thread count: they run here again, in a
subprocess, because OpenBLAS reads the variable once, when it is loaded.  (A second pass of
the files with small matrices repeated the first call for call.)

(This was a second pytest run in ``make test``; as one test of the main run it fills the
time a worker used to wait at the end for the other.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LARGE_MATRICES = ["test_sparse_lu.py", "test_chains.py", "test_scipy_ivp_spec.py"]


def test_the_large_matrix_tests_pass_with_one_blas_thread():
    files = [str(Path(__file__).parent / name) for name in LARGE_MATRICES]
    assert all(Path(f).is_file() for f in files), files
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *files, "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1], result.stdout[-2000:]
