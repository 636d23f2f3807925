/* robonum: Korean names for the controls other extensions build in the browser
 * (robonum_sphinx/a11y.py renames the ones in the page's HTML).
 *
 * sphinx-copybutton adds a "Copy" button to every code block once the page has
 * loaded and has no Korean messages: we give it Korean ones and rename the
 * buttons it made.  sphinx-togglebutton's buttons (for ".toggle" blocks) say
 * "Toggle hidden content"; they get a Korean name too.
 *
 * A display formula wider than the text column scrolls sideways in its own box
 * (robonum.css).  MathJax no longer makes formulas Tab stops (_config.yml), so a
 * keyboard could not scroll such a box: like the theme does for wide code and
 * tables, a formula box that overflows is given a Tab stop, and loses it when
 * the window grows wide enough.
 */
(function () {
  "use strict";
  var COPY = {
    copy: "복사",
    copy_to_clipboard: "클립보드에 복사",
    copy_success: "복사했습니다",
    copy_failure: "복사하지 못했습니다",
  };

  /* copybutton.js (loaded before this deferred script, its buttons made on
   * DOMContentLoaded, after this runs) keeps `messages`, `locale` and the icons
   * as top-level bindings of its script: Korean ones before it makes a button. */
  function koreanCopybutton() {
    try {
      if (typeof messages !== "object" || typeof locale !== "string") return;
      messages.ko = COPY;
      var en = messages[locale] || messages.en;
      if (typeof iconCopy === "string") iconCopy = iconCopy.split(en.copy_to_clipboard).join(COPY.copy_to_clipboard);
      if (typeof iconCheck === "string") iconCheck = iconCheck.split(en.copy_success).join(COPY.copy_success);
      locale = "ko";
    } catch (e) { /* another copybutton version: the buttons are renamed below */ }
  }

  function rename() {
    document.querySelectorAll("button.copybtn").forEach(function (b) {
      b.setAttribute("data-tooltip", COPY.copy);
      var title = b.querySelector("svg title");
      if (title) title.textContent = COPY.copy_to_clipboard;
    });
    document.querySelectorAll('button.toggle-button[aria-label="Toggle hidden content"]')
      .forEach(function (b) { b.setAttribute("aria-label", "숨긴 내용 열고 닫기"); });
  }

  function scrollableMath() {
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (m) {
      if (m.scrollWidth > m.clientWidth + 1) m.setAttribute("tabindex", "0");
      else if (m.getAttribute("tabindex") === "0") m.removeAttribute("tabindex");
    });
  }

  function afterMath() {
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) mj.startup.promise.then(scrollableMath);
    var timer = null;
    window.addEventListener("resize", function () {
      clearTimeout(timer);
      timer = setTimeout(scrollableMath, 300);
    });
  }

  /* Both extensions build their buttons on DOMContentLoaded, before this deferred
   * script's own listener runs; copybutton retries after 250 ms if its clipboard
   * library is late, so look once more after that. */
  function run() { rename(); setTimeout(rename, 400); }
  koreanCopybutton();
  window.addEventListener("load", afterMath);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
