"""Per-step cost of robonum's fixed-step steppers against SciPy's solve_ivp.

Run:  python tests/benchmarks/bench_steppers.py  (prints a table; no asserts).

Problem: Van der Pol with μ = 1 on [0, 20] from (2, 0), nonstiff, with an
analytic Jacobian given to every implicit method.  Each row is the best of
a few repeats (time.perf_counter) divided by the number of steps taken, so a
fixed-step run and an adaptive SciPy run are compared per step.  The ratio
column is ours / SciPy's method of the same kind (explicit vs RK45,
implicit vs Radau).  Numbers vary from run to run and machine to machine.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from scipy.integrate import solve_ivp

import robonum as rn
import robonum.steppers
from robonum import fast

MU, T_SPAN, Y0, H = 1.0, (0.0, 20.0), np.array([2.0, 0.0]), 0.01
REPEATS = 3


def vdp(t, y):
    return np.array([y[1], MU * (1.0 - y[0] ** 2) * y[1] - y[0]])


def vdp_jac(t, y):
    return np.array([[0.0, 1.0], [-2.0 * MU * y[0] * y[1] - 1.0, MU * (1.0 - y[0] ** 2)]])


@numba.njit
def vdp_jit(t, y):
    out = np.empty(2)
    out[0] = y[1]
    out[1] = MU * (1.0 - y[0] ** 2) * y[1] - y[0]
    return out


def best_of(run):
    """(best wall time in s, result of the last run)."""
    best, out = np.inf, None
    for _ in range(REPEATS):
        tic = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - tic)
    return best, out


def ours(method, h=H):
    prob = rn.ODEProblem(vdp, Y0, T_SPAN, jac=vdp_jac, name="Van der Pol")
    secs, sol = best_of(lambda: rn.integrate(prob, method, h))
    return secs, sol.nsteps, sol.nfev, sol.y_final


def scipy_run(method):
    kw = dict(rtol=1e-6, atol=1e-9)
    if method == "Radau":
        kw["jac"] = vdp_jac
    secs, sol = best_of(lambda: solve_ivp(vdp, T_SPAN, Y0, method=method, **kw))
    return secs, len(sol.t) - 1, sol.nfev, sol.y[:, -1]


def implicit_method():
    """An implicit tableau for ImplicitRK, or None if the stepper is not there."""
    if not hasattr(robonum.steppers, "ImplicitRK"):
        return None
    names = rn.methods.names()
    for name in ("radau3", "radau2", "backward_euler"):
        if name in names:
            return name
    implicit = [n for n in names if not rn.methods.get(n).is_explicit]
    return implicit[0] if implicit else None


def row(label, secs, steps, nfev, ref_us=None):
    us = 1e6 * secs / steps
    ratio = f"{us / ref_us:7.3g}" if ref_us else "      -"
    print(f"{label:<34s}{steps:>8d}{nfev / steps:>9.2f}{1e3 * secs:>10.2f}{us:>10.2f}  {ratio}")
    return us


def main():
    print(__doc__.split("\n\n")[2].replace("\n", " "))
    print(
        f"\nour fixed step h = {H} ({round((T_SPAN[1] - T_SPAN[0]) / H)} steps); "
        f"SciPy rtol = 1e-6, atol = 1e-9; best of {REPEATS}\n"
    )
    print(f"{'method':<34s}{'steps':>8s}{'f/step':>9s}{'ms':>10s}{'µs/step':>10s}  ours/scipy")
    print("-" * 80)
    rk45_us = row("scipy solve_ivp RK45", *scipy_run("RK45")[:3])
    radau_us = row("scipy solve_ivp Radau (jac)", *scipy_run("Radau")[:3])
    for name in ("euler", "rk4", "dopri5"):
        secs, steps, nfev, _ = ours(name)
        row(f"robonum {name} (numpy)", secs, steps, nfev, rk45_us)
    method = implicit_method()
    if method is None:
        print("robonum ImplicitRK: not available in this checkout -- skipped")
    else:
        secs, steps, nfev, _ = ours(method)
        row(f"robonum ImplicitRK {method} (jac)", secs, steps, nfev, radau_us)
    jit_problem = rn.ODEProblem(vdp_jit, Y0, T_SPAN, name="Van der Pol (jit)")
    fast.integrate(jit_problem, "rk4", H)  # compile once, outside the timing
    secs, sol = best_of(lambda: fast.integrate(jit_problem, "rk4", H))
    row("robonum.fast rk4 (numba, compiled)", sol.info["run_time"], sol.nsteps, sol.nfev, rk45_us)
    print(
        f"\n(fast rk4: wall time incl. wrapper {1e3 * secs:.2f} ms; "
        "the µs/step column uses the loop's own run_time, JIT compile excluded)"
    )
    print(
        "Note: RK45 and Radau choose their own steps; the comparison is per step, "
        "not per unit of accuracy."
    )


if __name__ == "__main__":
    main()
