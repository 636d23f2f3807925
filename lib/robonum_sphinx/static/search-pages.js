/* robonum: search result snippets from text shipped with the book.
 *
 * Sphinx's search page fetches each result page to cut a snippet from it.
 * From file:// the browser blocks that fetch, and fetched pages show formulas
 * as raw LaTeX.  The build writes every page's readable text (formulas as
 * Unicode) into window.RN_SEARCH_PAGES, in this same file, and we answer the
 * search page's fetches from it, so snippets work offline and from file://.
 * Any other request goes to the real fetch unchanged.
 */
(function () {
  "use strict";
  var realFetch = window.fetch ? window.fetch.bind(window) : null;

  function docnameOf(url) {
    try {
      var target = new URL(url, document.baseURI);
      var root = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
      var suffix = (window.DOCUMENTATION_OPTIONS && DOCUMENTATION_OPTIONS.FILE_SUFFIX) || ".html";
      var path = decodeURIComponent(target.pathname);
      var base = decodeURIComponent(root.pathname);
      if (target.protocol !== root.protocol || path.indexOf(base) !== 0) return null;
      path = path.slice(base.length);
      if (path.slice(-suffix.length) === suffix) path = path.slice(0, -suffix.length);
      return path;
    } catch (e) {
      return null;
    }
  }

  window.fetch = function (resource, init) {
    var pages = window.RN_SEARCH_PAGES || {};
    var url = typeof resource === "string" ? resource : (resource && resource.url);
    var name = url ? docnameOf(url) : null;
    if (name !== null && Object.prototype.hasOwnProperty.call(pages, name)) {
      var body = '<!DOCTYPE html><html><body><div role="main">' + pages[name] +
                 "</div></body></html>";
      return Promise.resolve(new Response(body, {
        status: 200, headers: {"Content-Type": "text/html; charset=utf-8"}}));
    }
    if (realFetch) return realFetch(resource, init);
    return Promise.reject(new TypeError("fetch is not available"));
  };
})();
