"""Issue 24's comparison read on four grids of tolerances from one sweep: is a cell a property or scatter?

Run:  python tests/benchmarks/bench_ivp_grids.py [--jac] [--set issue|held-out]
(about a minute for each set here; both sets without ``--set``).
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

The held-out set (``--set held-out``) is the same comparison on problems on which none
of the solvers' measured choices was made (the docstrings of ``steppers/radau.py``,
``radau_jac.py``, ``bdf_variable.py`` and ``jacobian.py`` cite the test set and
``bench_ivp``'s robot problems): the stiff cosine problem at ``lambda = -1e6`` on
``[0, 10]`` (exact solution), Robertson on Hairer & Wanner's ``[0, 40]``, Van der Pol at
``mu = 1000`` on ``[0, 3000]``, ``stiff_linear`` with 10 modes over six decades on
``[0, 2]`` (exact), and a chain of 50 links (``n = 102``, with its ``jac_sparsity``;
``bench_ivp`` has 20). A rule fitted to the four issue problems would show here as cells
above 1.

Measured (OpenBLAS SkylakeX, rtol 10^-4 ... 10^-8): the held-out cells' geometric mean
is 0.65-0.66 without ``jac`` and 0.62-0.63 with it on the four grids (the issue set:
0.79-0.80). Above 1 without ``jac``: Robertson at 5-6 digits (1.01-1.07, on the grids
that hold SciPy's BDF run at rtol 1e-5, which reached 6.30 digits where its neighbours
reached 4.80 and 5.38) and at 8 (1.01), Van der Pol at 4-5 digits (1.00-1.10) and the
stiff cosine problem at 6.5-8 digits (1.09-1.30); with ``jac`` the cosine's only
(1.13-1.35). The cosine's cells hold on every grid, so they are a property: from rtol
10^-4.75 to 10^-7.25 ``method="radau"`` (5 stages there, ``radau.AUTO_RTOL``) takes the
same 7 steps, 55-65 calls for 6.56 digits, where 3 stages take 37-71 calls for 5.8-9.0
digits and SciPy's Radau 52-73 for 6.5-9.0. Its steps grow 8 times each (the
controller's ``fac_max``) until the last one spans 6.3 time units: in this stiff limit
(``h lambda`` up to -6e6) the true local error of one step from the exact value is 2-9
times the filtered estimate with 3 stages and 4-16 times with 5 (at 11 of 12 step sizes
h = 0.1 ... 6 from two starting points; at the twelfth the estimate is the larger), so
the 5-stage runs stop tightening with rtol. Five stages do not pay on a scalar problem
solved in 7 steps: with three throughout (``radau5``) the cosine's cells at 6.5-8 digits
are at most 0.97 on the half-decade grid and 1.24 on the four, with or without ``jac``.
"""

from __future__ import annotations

import argparse

import bench_ivp
import numpy as np

import robonum as rn
from robonum.book import bench
from robonum.problems import testset as ts

K = np.arange(4.0, 8.51, 0.125)  # rtol = 10^-k
GRIDS = ((0.5, 0.0), (0.5, 0.25), (0.25, 0.0), (0.125, 0.0))  # (spacing, shift) in decades
DIGITS = np.arange(3.5, 8.01, 0.5)
OURS = tuple(("robonum", m) for m in bench_ivp.OURS)  # bench_ivp's "ours": radau and bdf
THEIRS = (("scipy", "Radau"), ("scipy", "BDF"))
ISSUE = ("hires", "rober", "vdpol", "orego")


def issue_problems() -> list:
    """``(label, problem, atol/rtol, reference, floor)`` of issue 24's four problems."""
    scales = dict(bench_ivp.TESTSET)
    out = []
    for name in ISSUE:
        p = ts.testset_problem(name)
        out.append((name.upper(), p, scales[name], p.params["reference"], 0.0))
    return out


def held_out_problems() -> list:
    """The same, for problems no measured choice of the solvers was made on (docstring)."""
    P = rn.problems
    cosine = P.stiff_cosine(lam=-1e6, t_span=(0.0, 10.0))
    linear = P.stiff_linear(n=10, stiffness=1e6, t_span=(0.0, 2.0))
    out = [  # the exact y(t_end) of the two linear ones
        (label, p, scale, p.exact(p.t_span[1]), 0.0)
        for label, p, scale in (("cosine", cosine, 1.0), ("linear 10", linear, 1e-3))
    ]
    for label, p, scale in (
        ("Robertson 40", P.robertson(), 1e-6),
        ("vdp1000", P.van_der_pol(), 1.0),
        ("chain 50", P.chains.flexible_chain(n=50), 1e-3),
    ):
        out.append((label, p, scale, *bench_ivp.reference(p)))
    return out


def sweep(problems: list, jac: bool) -> dict:
    """``{(label, solver, method): [run at each rtol of K]}``."""
    runs = {}
    for label, p, scale, ref, floor in problems:
        for solver, method in OURS + THEIRS:
            runs[label, solver, method] = [
                bench.run(p, solver, method, 10.0**-k, 10.0**-k * scale, ref, floor, jac=jac)
                for k in K
            ]
    return runs


def on_grid(runs: list, spacing: float, shift: float) -> list:
    """The runs at rtol 10^-(4 + shift) ... 10^-(8 + shift), ``spacing`` decades apart."""
    steps = (K - 4.0 - shift) / spacing
    keep = (np.abs(steps - np.round(steps)) < 1e-6) & (steps >= -1e-6) & (K <= 8.0 + shift + 1e-6)
    return [r for r, k in zip(runs, keep) if k]


def cells(runs: dict, labels, spacing: float, shift: float) -> dict:
    """``{(label, digits): ours / SciPy's}`` in f-calls, where both sides reach the digits."""
    out = {}
    for label in labels:
        for d in DIGITS:
            a, b = (
                bench.better_work_at(
                    [on_grid(runs[label, s, m], spacing, shift) for s, m in side], d, "calls"
                )
                for side in (OURS, THEIRS)
            )
            if a is not None and b is not None:
                out[label, float(d)] = a / b
    return out


SETS = {"issue": issue_problems, "held-out": held_out_problems}


def main(jac: bool, name: str) -> None:
    problems = SETS[name]()
    runs = sweep(problems, jac)
    labels = [entry[0] for entry in problems]
    print(f"{name} set, {'with' if jac else 'without'} jac: ours / SciPy's in f-calls")
    for spacing, shift in GRIDS:
        c = cells(runs, labels, spacing, shift)
        above = ", ".join(f"{n} {d:g}: {q:.2f}" for (n, d), q in c.items() if q > 1)
        mean = float(np.exp(np.mean(np.log(list(c.values())))))
        print(
            f"rtol every {spacing:g} decade from 10^-{4 + shift:g}: {len(c)} cells, "
            f"geomean {mean:.3f}, above 1: {above or 'none'}"
        )


if __name__ == "__main__":
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--jac", action="store_true", help="give every code the analytic Jacobian")
    cli.add_argument("--set", choices=tuple(SETS), help="one set of problems (default: both)")
    args = cli.parse_args()
    for name in [args.set] if args.set else SETS:
        main(args.jac, name)
