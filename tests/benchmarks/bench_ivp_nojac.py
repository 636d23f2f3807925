"""The work-precision comparison of ``bench_ivp.py`` with no code given a Jacobian, as most users call them.

Run:  python tests/benchmarks/bench_ivp_nojac.py [--shift S]  (``bench_ivp.py --no-jac``).
Every call of ``f`` is counted by a wrapper on both sides, the finite-difference
Jacobians' included; the chain of 20 links passes its ``jac_sparsity`` to every
code that takes it.  Issue 24's target: at rtol 1e-4 ... 1e-8 on HIRES, ROBER,
VDPOL and OREGO the better of our radau and bdf needs no more calls and no more
CPU than the better of SciPy's Radau and BDF at equal digits.
"""

from __future__ import annotations

import sys

import bench_ivp

if __name__ == "__main__":
    shift = float(sys.argv[sys.argv.index("--shift") + 1]) if "--shift" in sys.argv else 0.0
    bench_ivp.JAC = False
    bench_ivp.main(shift)
