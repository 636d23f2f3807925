"""The two views of an :class:`~robonum.book.exercise.Exercise`: static HTML with inline JS, and ipywidgets.

Both read the exercise's public attributes (``key``, ``uid``, ``kind``, ``question``,
``options``, ``answer``, ``rtol``, ``atol``, ``unit``, ``hint``, ``solution``) and
its ``check``/``_messages``; they never import the exercise module.
"""

from __future__ import annotations

import html
import json

from .markup import block_html, inline_html, plain_text
from .numbers import EXAMPLES, fmt

__all__ = ["static_html", "live_widget", "in_kernel"]

_HEX = {"correct": "#1a7f37", "wrong": "#b3261e", "invalid": "#9a6700"}  # live view (Jupyter)
# In the book: the theme's colours, which follow its dark mode.
_COLORS = {
    k: f"var(--pst-color-{n}, {_HEX[k]})"
    for k, n in (("correct", "success"), ("wrong", "danger"), ("invalid", "warning"))
}


def in_kernel() -> bool:
    """True inside a Jupyter kernel (where widgets can talk to a frontend)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


# -- the static view ---------------------------------------------------------------
# Same parsing and judging as Exercise.check, in ~25 lines of JS (no library, no network).
_SCRIPT = """(function () {
var s = document.currentScript, root = s && s.parentNode;
if (!root || !root.classList.contains("rn-check")) root = document.getElementById(%(uid)s);
if (!root || root.getAttribute("data-ready")) return;
root.setAttribute("data-ready", "1");
var d = root.dataset, M = JSON.parse(root.querySelector("script.rn-msgs").textContent);
var NUM = /^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$/;
function parse(t) {
  t = t.normalize("NFKC").replace(/\\u2212/g, "-").trim();
  if (!t) return M.empty;
  if (t.indexOf(",") >= 0) return M.comma;
  var p = t.split("/").map(function (x) { return x.trim(); });
  if (p.length > 2 || !p.every(function (x) { return NUM.test(x); })) return M.bad;
  var x = Number(p[0]);
  if (p.length === 2) { if (Number(p[1]) === 0) return M.zero; x = x / Number(p[1]); }
  return isFinite(x) ? x : M.big;
}
function judge() {
  if (d.kind === "choice") {
    var c = root.querySelector("input:checked");
    return !c ? ["invalid", M.choose] : c.value === d.answer ? ["correct", M.correct] : ["wrong", M.wrong];
  }
  var x = parse(root.querySelector("input.rn-input").value);
  if (typeof x === "string") return ["invalid", x];
  var a = Number(d.answer), tol = Math.max(Number(d.atol), Number(d.rtol) * Math.abs(a));
  if (Math.abs(x - a) <= tol) return ["correct", M.correct];
  return ["wrong", a !== 0 && Math.abs(x + a) <= tol ? M.sign : M.wrong];
}
function run() { var v = judge(), fb = root.querySelector(".rn-feedback");
  root.setAttribute("data-state", v[0]); fb.textContent = v[1]; fb.style.color = M.colors[v[0]]; }
root.querySelector("button.rn-submit").addEventListener("click", run);
root.addEventListener("keydown", function (e) {
  if (e.key === "Enter" && e.target.tagName === "INPUT") { e.preventDefault(); run(); }
});
})();"""


def _inputmode(ex) -> str:
    """``decimal`` (a phone's number pad) only when such a pad can type the answer."""
    return "decimal" if ex.answer >= 0 and "e" not in fmt(ex.answer, 12) else "text"


def static_html(ex) -> str:
    uid, esc = ex.uid, html.escape
    if ex.kind == "choice":
        answer = str(ex.answer)
        radios = "".join(
            f'<div><label><input type="radio" name="{uid}" value="{i}"> '
            f"{inline_html(o)}</label></div>"
            for i, o in enumerate(ex.options)
        )
        control = (
            f'<fieldset class="rn-options" aria-labelledby="{uid}-q" '
            f'style="border:0;padding:0;margin:0 0 .4em">{radios}</fieldset>'
            '<button type="button" class="rn-submit">확인</button>'
        )
        data, note = "", ""
    else:
        answer = repr(ex.answer)
        unit = f' <span class="rn-unit">{esc(ex.unit)}</span>' if ex.unit else ""
        control = (
            f'<label for="{uid}-in">답</label> <input type="text" class="rn-input" id="{uid}-in" '
            f'inputmode="{_inputmode(ex)}" autocomplete="off" spellcheck="false" size="14" '
            f'aria-describedby="{uid}-q {uid}-tol">{unit} '
            '<button type="button" class="rn-submit">확인</button>'
        )
        data = f' data-rtol="{ex.rtol!r}" data-atol="{ex.atol!r}"'
        note = (
            f'<p class="rn-tol" id="{uid}-tol" style="margin:.3em 0 0"><small>'
            f'{esc(ex.tolerance_text())} · <span style="white-space:nowrap">입력 예: {EXAMPLES}</span>'
            "</small></p>"
        )
    msgs = json.dumps(
        {**ex._messages(), "colors": _COLORS}, ensure_ascii=False, separators=(",", ":")
    ).replace("</", "<\\/")
    details = "".join(
        f'<details class="rn-{cls}" style="margin-top:.4em"><summary>{title}</summary>'
        f'<div class="rn-body">{block_html(text)}</div></details>'
        for cls, title, text in (("hint", "힌트", ex.hint), ("solution", "풀이", ex.solution))
    )
    return (
        f'<div class="rn-check" id="{uid}" data-key="{ex.key}" data-kind="{ex.kind}" '
        f'data-answer="{answer}"{data} style="border:1px solid rgba(127,127,127,.45);'
        'border-radius:6px;padding:.6em .9em;margin:.8em 0;word-break:keep-all;overflow-wrap:anywhere">'
        f'<div class="rn-q" id="{uid}-q">{block_html(ex.question)}</div>'
        f'<div class="rn-answer">{control}</div>{note}'
        '<p class="rn-feedback" role="status" aria-live="polite" '
        'style="margin:.4em 0 0;min-height:1.4em"></p>'
        f'{details}<script type="application/json" class="rn-msgs">{msgs}</script>'
        f"<script>{_SCRIPT % {'uid': json.dumps(uid)}}</script></div>"
    )


# -- the live view ---------------------------------------------------------------
def live_widget(ex):
    import ipywidgets as w

    note = (
        f"<p><small>{html.escape(ex.tolerance_text())}</small></p>" if ex.kind == "number" else ""
    )
    question = w.HTMLMath(block_html(ex.question) + note)
    if ex.kind == "choice":
        box = w.RadioButtons(
            options=[(plain_text(o), i) for i, o in enumerate(ex.options)],
            value=None,
            layout=w.Layout(width="auto"),
        )
    else:
        box = w.Text(
            placeholder=f"예: {EXAMPLES.split(', ')[2]}",
            continuous_update=False,
            layout=w.Layout(width="12em"),
        )
    button = w.Button(description="확인", layout=w.Layout(width="6em"))
    feedback = w.HTML()

    def run(_=None):
        r = ex.check(box.value)
        feedback.value = f'<span style="color:{_HEX[r.status]}">{html.escape(r.message)}</span>'

    button.on_click(run)
    if ex.kind == "number":
        box.observe(run, names="value")  # Enter (continuous_update=False) checks too
    row = [box] + ([w.Label(ex.unit)] if ex.unit else []) + [button]
    row = w.VBox(row) if ex.kind == "choice" else w.HBox(row)
    more = w.Accordion(
        children=[w.HTMLMath(block_html(ex.hint)), w.HTMLMath(block_html(ex.solution))],
        titles=("힌트", "풀이"),
        selected_index=None,
    )
    out = w.VBox([question, row, feedback, more])
    out.input, out.button, out.feedback, out.more, out.run = box, button, feedback, more, run
    return out
