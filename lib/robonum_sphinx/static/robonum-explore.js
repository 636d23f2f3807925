/* robonum: explorations whose frames are files (robonum_sphinx/frames.py).
 *
 * The page carries only each exploration's default frame; the others are
 * files the exploration's own script loads by setting img.src.  So that a
 * change still shows at once, as soon as a reader reaches an exploration
 * (pointer over it, focus in it, a touch) and after every change, we load
 * the frames one or two steps away from the current values of each control
 * (all options of a choice) into the browser's cache.  A reader who never
 * comes near an exploration downloads none of its other frames.
 *
 * The skip links at the top of the page (one per exploration) move the
 * focus to the exploration's first control.
 */
(function () {
  "use strict";
  var seen = {}, parsed = typeof WeakMap === "function" ? new WeakMap() : null;

  function preload(url) {
    if (!url || seen[url] || url.lastIndexOf("data:", 0) === 0) return;
    seen[url] = true;
    var img = new Image();
    img.decoding = "async";
    img.src = url;
  }

  function dataOf(root) {
    var data = parsed && parsed.get(root);
    if (!data) {
      var node = root.querySelector("script.rn-data");
      data = node ? JSON.parse(node.textContent) : null;
      if (parsed && data) parsed.set(root, data);
    }
    return data;
  }

  function valueOf(c) {
    if (c.tagName !== "FIELDSET") return +c.value;
    var on = c.querySelector("input:checked");
    return on ? +on.value : 0;
  }

  function frameUrl(data, key) {
    var frame = data.frames[key.join(",")];
    return frame ? frame[0] : null;
  }

  /* The frames one change away: each slider +-1 and +-2, each choice every option. */
  function neighbours(root) {
    var data = dataOf(root);
    if (!data) return;
    var ctrls = Array.prototype.slice.call(root.querySelectorAll("[data-rn-param]"));
    var now = ctrls.map(valueOf);
    ctrls.forEach(function (c, i) {
      var n = data.labels[i].length, steps = [];
      if (c.type === "range") steps = [now[i] + 1, now[i] - 1, now[i] + 2, now[i] - 2];
      else for (var j = 0; j < n; j++) steps.push(j);
      steps.forEach(function (j) {
        if (j < 0 || j >= n || j === now[i]) return;
        var key = now.slice();
        key[i] = j;
        var url = frameUrl(data, key);
        if (!url) {  /* one-at-a-time mode: the others go back to their defaults */
          key = data.defaults.slice();
          key[i] = j;
          url = frameUrl(data, key);
        }
        preload(url);
      });
    });
  }

  function near(event) {
    var t = event.target;
    var root = t && t.closest ? t.closest('.rn-explore[data-view="static"]') : null;
    if (root) neighbours(root);
  }

  ["pointerover", "focusin", "touchstart", "input", "change"].forEach(function (type) {
    document.addEventListener(type, near, {passive: true});
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-rn-skip]") : null;
    if (!link) return;
    var root = document.getElementById(link.getAttribute("data-rn-skip"));
    var first = root && root.querySelector(
      "input[type=range], select, input[type=radio]:checked, input[type=radio]");
    if (!first) return;
    event.preventDefault();
    first.focus();
    if (history.replaceState) history.replaceState(null, "", link.getAttribute("href"));
  });
})();
