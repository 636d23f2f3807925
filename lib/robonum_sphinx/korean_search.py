"""Korean full-text search for Sphinx's built-in search page.

Sphinx has no Korean search language; with ``language: ko`` it falls back to
English and indexes whole space-separated words.  Korean attaches particles
and endings to words (강성을, 강성입니다, 강성이), so a search for 강성 misses
most pages that use the word.

We index every Hangul run by its two-syllable pieces (bigrams): 강성입니다 is
indexed as 강성, 성입, 입니, 니다.  The query is split the same way, and
Sphinx requires every query piece to match, so 강성 finds every page with a
word that contains 강성, and 후진 오일러 finds pages with both 후진 and
오일러 (오일, 일러).  A one-syllable word standing alone (값, 수) is indexed
as itself.  Latin words keep Sphinx's English handling (Porter stemmer,
English stop words), and a formula is indexed both as written and as
Unicode text (λ finds pages that write ``\\lambda``).
"""

from __future__ import annotations

import re

from sphinx.search.en import SearchEnglish

from .latex_text import to_text

__all__ = ["SearchKorean", "pieces", "JS_SPLITTER"]

_WORD = re.compile(r"\w+")
_RUN = re.compile(r"[\uac00-\ud7a3]+|[^\uac00-\ud7a3]+")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


def pieces(token: str) -> list[str]:
    """Index (and query) terms of one ``\\w+`` token.

    >>> pieces("강성입니다")
    ['강성', '성입', '입니', '니다']
    >>> pieces("RK4는"), pieces("값"), pieces("stiff")
    (['RK4'], ['값'], ['stiff'])
    """
    runs = _RUN.findall(token)
    out = []
    for run in runs:
        if _HANGUL.match(run):
            if len(run) >= 2:
                out.extend(run[i : i + 2] for i in range(len(run) - 1))
            elif len(runs) == 1:
                out.append(run)  # a one-syllable word on its own; a lone particle is dropped
        else:
            out.append(run)
    return out


# The same rule in the browser.  searchtools.js calls splitQuery(query) and
# requires every returned term to be found in a page.
JS_SPLITTER = r"""
/* robonum: Korean query splitting, the same rule as robonum_sphinx.korean_search.pieces */
function splitQuery(query) {
  var out = [];
  query.split(/[^\p{L}\p{N}_]+/u).forEach(function (token) {
    if (!token) return;
    var runs = token.match(/[\uAC00-\uD7A3]+|[^\uAC00-\uD7A3]+/g) || [];
    runs.forEach(function (run) {
      if (/^[\uAC00-\uD7A3]/.test(run)) {
        if (run.length >= 2) {
          for (var i = 0; i + 2 <= run.length; i++) out.push(run.substr(i, 2));
        } else if (runs.length === 1) {
          out.push(run);
        }
      } else {
        out.push(run);
      }
    });
  });
  return out;
}
"""


class SearchKorean(SearchEnglish):
    """Korean prose with English words and LaTeX formulas mixed in."""

    lang = "ko"
    language_name = "Korean"
    js_splitter_code = JS_SPLITTER

    def split(self, input: str) -> list[str]:
        texts = [input]
        if "\\" in input:  # a formula: index its readable form too
            texts.append(to_text(input))
        words: list[str] = []
        for text in texts:
            for token in _WORD.findall(text):
                words.extend(pieces(token))
        return words
