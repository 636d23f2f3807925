/* robonum: the teacher's view of a page (robonum_sphinx.print_edition).
 *
 * ?teacher=1 turns it on (remembered for the tab, so the next chapter opens in it too),
 * ?teacher=0 or the banner's button turns it off.  In it every self-checked exercise
 * (.rn-check, robonum.book.exercise_views) shows its key, read from the data the page's
 * checker already uses: the answer and its tolerance band, or the right option; its hint
 * and solution are open.  Printing the page then prints the teacher's edition
 * (robonum-print.css); tools/pdf_book.py calls window.rnTeacher(true) before printing it.
 */
(function () {
  "use strict";
  var KEY = "rn-teacher";

  function remembered() {
    try { return window.sessionStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function remember(on) {
    try { window.sessionStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* file:// may refuse */ }
  }

  /* Enough significant digits to tell the answer from the edge of its band. */
  function show(x, tol) {
    if (x === 0) return "0";
    var digits = tol > 0 ? Math.ceil(Math.log10(Math.abs(x) / tol)) + 2 : 10;
    digits = Math.min(12, Math.max(3, digits));
    var s = x.toPrecision(digits);
    if (s.indexOf("e") < 0 && s.indexOf(".") >= 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
    return s.replace("e+", "e").replace(/-/g, "−");
  }

  function keyText(root) {
    var d = root.dataset;
    if (d.kind === "choice") {
      var labels = root.querySelectorAll(".rn-options label");
      var right = labels[Number(d.answer)];
      if (right) right.classList.add("rn-correct");
      return "정답은 " + (Number(d.answer) + 1) + "번째 보기: " + (right ? right.textContent.trim() : "");
    }
    var a = Number(d.answer);
    var tol = Math.max(Number(d.atol) || 0, (Number(d.rtol) || 0) * Math.abs(a));
    var unitEl = root.querySelector(".rn-unit"), unit = unitEl ? " " + unitEl.textContent : "";
    return "정답 " + show(a, tol) + unit + " · 맞다고 보는 범위 " + show(a - tol, tol) +
      " … " + show(a + tol, tol) + unit + " (허용 오차 ±" + show(tol, tol / 100) + ")";
  }

  function reveal(root) {
    if (!root.querySelector(".rn-key")) {
      var p = document.createElement("p");
      p.className = "rn-key";
      var b = document.createElement("strong");
      b.className = "rn-key-label";
      b.textContent = "교사용 정답";
      p.appendChild(b);
      p.appendChild(document.createTextNode(keyText(root)));
      var after = root.querySelector(".rn-tol") || root.querySelector(".rn-answer");
      after.parentNode.insertBefore(p, after.nextSibling);
    }
    root.querySelectorAll("details").forEach(function (x) { x.open = true; });
  }

  function banner(on) {
    var old = document.querySelector(".rn-teacher-banner");
    if (old) old.remove();
    var article = document.querySelector(".bd-article") || document.body;
    if (!on || !document.querySelector(".rn-check")) return;
    var div = document.createElement("div");
    div.className = "rn-teacher-banner";
    div.setAttribute("role", "note");
    div.textContent = "교사용 보기: 연습 문제마다 정답, 맞다고 보는 범위, 힌트와 풀이를 펼쳐 보입니다. ";
    var off = document.createElement("button");
    off.type = "button";
    off.textContent = "학생용 보기로 돌아가기";
    off.addEventListener("click", function () { set(false); });
    div.appendChild(off);
    article.insertBefore(div, article.firstChild);
  }

  function set(on) {
    remember(on);
    document.documentElement.classList.toggle("rn-teacher", on);
    var checks = document.querySelectorAll(".rn-check");
    checks.forEach(function (root) {
      if (on) { reveal(root); return; }
      var k = root.querySelector(".rn-key");
      if (k) k.remove();
      root.querySelectorAll(".rn-correct").forEach(function (x) { x.classList.remove("rn-correct"); });
      root.querySelectorAll("details").forEach(function (x) { x.open = false; });
    });
    banner(on);
    return checks.length;
  }
  window.rnTeacher = set;

  function start() {
    var q = /[?&]teacher=([01])\b/.exec(window.location.search);
    if (q) remember(q[1] === "1");
    if (remembered()) set(true);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
