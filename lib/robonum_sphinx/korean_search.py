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

Synonyms from the glossary (``synonyms`` in ``book/appendix/glossary.yml``)
are read as the book's word before the query is split: 자코비안 is searched
as 야코비안, 스티프 as 강성.  The book never uses a synonym (the glossary
retires most of them), so replacing it loses no page, while Sphinx's rule that
every piece must match would make a search that kept both words find nothing.
"""

from __future__ import annotations

import json
import re

from sphinx.search.en import SearchEnglish

from .latex_text import to_text

__all__ = ["SearchKorean", "pieces", "expand", "query_terms", "synonym_rules", "js_splitter"]

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


Rules = list[tuple[str, str]]


def synonym_rules(terms) -> Rules:
    """(synonym, word searched instead) for every glossary term, longest synonym first.

    Longest first, so that 스티프니스 is replaced whole before 스티프 could match its start.
    """
    rules = [(syn, t.search_word) for t in terms for syn in t.synonyms]
    return sorted(rules, key=lambda r: (-len(r[0]), r[0]))


def _synonym_regex(synonym: str) -> re.Pattern:
    # At the start of a word; a particle may follow (자코비안을), a Latin letter or digit
    # may not (a Latin synonym would match whole words only).
    return re.compile(r"(^|[^\w])" + re.escape(synonym) + r"(?![A-Za-z0-9_])", re.I)


def expand(query: str, rules: Rules) -> str:
    """``query`` with every synonym replaced by the book's word (자코비안을 -> 야코비안을)."""
    for synonym, word in rules:
        query = _synonym_regex(synonym).sub(lambda m, w=word: m.group(1) + w, query)
    return query


def query_terms(query: str, rules: Rules = ()) -> list[str]:
    """The terms a query is searched by: synonyms replaced, then split like the index."""
    return [w for tok in _WORD.findall(expand(query, list(rules))) for w in pieces(tok)]


# The same rules in the browser.  searchtools.js calls splitQuery(query) and
# requires every returned term to be found in a page.
_JS_SPLITTER = r"""
/* robonum: Korean query splitting, the same rules as robonum_sphinx.korean_search:
   glossary synonyms are replaced by the book's word, then Hangul is cut into pairs */
var RN_SYNONYMS = %s;
function rnExpand(query) {
  RN_SYNONYMS.forEach(function (rule) {
    var escaped = rule[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    var re = new RegExp("(^|[^\\p{L}\\p{N}_])" + escaped + "(?![A-Za-z0-9_])", "giu");
    query = query.replace(re, function (m, before) { return before + rule[1]; });
  });
  return query;
}
function splitQuery(query) {
  var out = [];
  rnExpand(query).split(/[^\p{L}\p{N}_]+/u).forEach(function (token) {
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


def js_splitter(rules: Rules = ()) -> str:
    """The browser's ``splitQuery`` with the glossary's synonym ``rules`` built in."""
    return _JS_SPLITTER % json.dumps([list(r) for r in rules], ensure_ascii=False)


class SearchKorean(SearchEnglish):
    """Korean prose with English words and LaTeX formulas mixed in."""

    lang = "ko"
    language_name = "Korean"
    js_splitter_code = js_splitter()  # the book's synonyms are set by robonum_sphinx.setup

    def split(self, input: str) -> list[str]:
        texts = [input]
        if "\\" in input:  # a formula: index its readable form too
            texts.append(to_text(input))
        words: list[str] = []
        for text in texts:
            for token in _WORD.findall(text):
                words.extend(pieces(token))
        return words


# Sphinx's Korean catalogue says the search found nothing and asks whether "enough
# categories" were selected; the search page has no categories.  What is true here:
# every word must occur in a page, and a shorter word (강성 for 강성입니다) finds more.
NO_RESULTS_KEY = (
    "Your search did not match any documents. Please make sure that all words are spelled "
    "correctly and that you've selected enough categories."
)
NO_RESULTS = (
    "찾는 말이 모두 들어 있는 페이지가 없습니다. 철자를 확인하거나, 낱말 수를 줄이거나 "
    "낱말을 더 짧게 적어 보세요(예: ‘강성입니다’ 대신 ‘강성’)."
)


def no_results_js() -> str:
    """Script for the search page: our sentence instead of the catalogue's for no results.

    searchtools.js calls ``Documentation.gettext`` (not its bound alias ``_``) for this
    message, so wrapping it works whichever of translations.js and this script runs first.
    """
    key, text = json.dumps(NO_RESULTS_KEY), json.dumps(NO_RESULTS, ensure_ascii=False)
    return (
        "(function () {\n"
        '  if (typeof Documentation === "undefined") return;\n'
        "  var gettext = Documentation.gettext;\n"
        f"  Documentation.gettext = function (s) {{ return s === {key} ? {text} : gettext(s); }};\n"
        "})();\n"
    )
