"""Issue 24's comparison read on four grids of tolerances from one sweep: is a cell a property or scatter?

Run:  python tests/benchmarks/bench_ivp_grids.py [--jac]  (about a minute here).
``bench_ivp.py`` compares the fronts on one grid of rtol (half decades, or shifted by
a quarter).  An end value's digits scatter by up to a digit between neighbouring
tolerances (HIRES: SciPy's Radau reached 6.34, 6.10 and 4.84 digits at rtol
10^-4.25, 10^-4.375 and 10^-4.5), so a ratio above 1 on one grid may vanish on the
next.  This runs HIRES, ROBER, VDPOL and OREGO once at every eighth of a decade,
rtol 1e-4 ... 10^-8.5 (atol as in ``bench_ivp``), with our radau and bdf and
SciPy's Radau and BDF, every call of ``f`` counted by a wrapper (without ``jac``
unless ``--jac``), and reads ours / SciPy's (each side the better of its two
codes, ``bench.better_work_at``) at every half digit from 3.5 to 8 on four grids
taken from that one sweep: half decades (the benchmark's), half decades shifted
by a quarter, quarter decades and eighth decades.  It prints each grid's cells
above 1 and the geometric mean of all its cells.
"""

from __future__ import annotations

import argparse

import bench_ivp
import numpy as np

from robonum.book import bench
from robonum.problems import testset as ts

K = np.arange(4.0, 8.51, 0.125)  # rtol = 10^-k
GRIDS = ((0.5, 0.0), (0.5, 0.25), (0.25, 0.0), (0.125, 0.0))  # (spacing, shift) in decades
DIGITS = np.arange(3.5, 8.01, 0.5)
OURS = tuple(("robonum", m) for m in bench_ivp.OURS)  # bench_ivp's "ours": radau and bdf
THEIRS = (("scipy", "Radau"), ("scipy", "BDF"))
ISSUE = ("hires", "rober", "vdpol", "orego")


def sweep(jac: bool) -> dict:
    """``{(problem, solver, method): [run at each rtol of K]}``."""
    runs, scales = {}, dict(bench_ivp.TESTSET)
    for name in ISSUE:
        p, scale = ts.testset_problem(name), scales[name]
        ref = p.params["reference"]
        for solver, method in OURS + THEIRS:
            runs[name, solver, method] = [
                bench.run(p, solver, method, 10.0**-k, 10.0**-k * scale, ref, jac=jac) for k in K
            ]
    return runs


def on_grid(runs: list, spacing: float, shift: float) -> list:
    """The runs at rtol 10^-(4 + shift) ... 10^-(8 + shift), ``spacing`` decades apart."""
    steps = (K - 4.0 - shift) / spacing
    keep = (np.abs(steps - np.round(steps)) < 1e-6) & (steps >= -1e-6) & (K <= 8.0 + shift + 1e-6)
    return [r for r, k in zip(runs, keep) if k]


def cells(runs: dict, spacing: float, shift: float) -> dict:
    """``{(problem, digits): ours / SciPy's}`` in f-calls, where both sides reach the digits."""
    out = {}
    for name in ISSUE:
        for d in DIGITS:
            a, b = (
                bench.better_work_at(
                    [on_grid(runs[name, s, m], spacing, shift) for s, m in side], d, "calls"
                )
                for side in (OURS, THEIRS)
            )
            if a is not None and b is not None:
                out[name, float(d)] = a / b
    return out


def main(jac: bool) -> None:
    runs = sweep(jac)
    print(f"issue 24's cells, {'with' if jac else 'without'} jac: ours / SciPy's in f-calls")
    for spacing, shift in GRIDS:
        c = cells(runs, spacing, shift)
        above = ", ".join(f"{n.upper()} {d:g}: {q:.2f}" for (n, d), q in c.items() if q > 1)
        mean = float(np.exp(np.mean(np.log(list(c.values())))))
        print(
            f"rtol every {spacing:g} decade from 10^-{4 + shift:g}: {len(c)} cells, "
            f"geomean {mean:.3f}, above 1: {above or 'none'}"
        )


if __name__ == "__main__":
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--jac", action="store_true", help="give every code the analytic Jacobian")
    main(cli.parse_args().jac)
