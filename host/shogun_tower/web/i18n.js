// The page's words in the players' language. The page server puts the catalogue of the
// language chosen with --lang (shogun_tower/i18n.py, page_words) in the page as JSON; this
// script reads it before the page's own scripts run. A script marks its words as Python does:
// _("Score"), ngettext("{n} figure", "{n} figures", n), filled by fmt(text, {n: 3}); the
// catalogues get them from `make catalogues` (Babel's JavaScript extractor). Words written
// in the HTML are marked data-i18n: the element's text (and its title, aria-label, placeholder
// or alt) is the message, translated here when the page opens. A province is named by
// provinceWord(name): the page server puts the players' names of the provinces in the page
// (their kanji in Japanese, from the game's one list of them); the page's data, and what a
// form sends, keep the province's own name.
"use strict";
(function () {
  const block = document.getElementById("page-words");
  const words = block ? JSON.parse(block.textContent)
    : { lang: "en", nplurals: 2, plural: "(n != 1)", messages: {} };
  const names = document.getElementById("province-words");
  const provinces = names ? JSON.parse(names.textContent) : {};
  // the catalogue's own plural rule (CLDR's, written by Babel): a C expression, valid here
  const pluralIndex = new Function("n", "return Number(" + words.plural + ");");

  function translate(message) {
    const found = words.messages[message];
    if (typeof found === "string") return found;
    return Array.isArray(found) ? found[0] : message;
  }

  function plural(singular, pluralForm, n) {
    const forms = words.messages[singular];
    if (Array.isArray(forms)) return forms[Math.min(pluralIndex(n), forms.length - 1)];
    return n === 1 ? singular : pluralForm;
  }

  // French elides "de", "le", "la" and "que" before a value that starts with a vowel (va
  // d'Etchu, l'Iyo), as French.format does on the Python side (shogun_tower/i18n.py)
  const elided = /(?<!\p{L})(de|le|la|que) $/iu;
  const vowel = /^[aeiouâéèêëîïôœûù]/i;

  function fmt(text, values) {
    let done = "";
    let last = 0;
    for (const m of text.matchAll(/\{(\w+)\}/g)) {
      done += text.slice(last, m.index);
      last = m.index + m[0].length;
      if (!(m[1] in values)) { done += m[0]; continue; }
      const value = String(values[m[1]]);
      if (words.lang === "fr" && vowel.test(value)) {
        done = done.replace(elided, (whole, word) => word.slice(0, -1) + "'");
      }
      done += value;
    }
    return done + text.slice(last);
  }

  function translatePage(root) {
    for (const el of root.querySelectorAll("[data-i18n]")) {
      for (const attr of ["title", "aria-label", "placeholder", "alt"]) {
        if (el.hasAttribute(attr)) el.setAttribute(attr, translate(el.getAttribute(attr)));
      }
      if (el.children.length === 0 && el.textContent.trim()) {
        el.textContent = translate(el.textContent.trim().replace(/\s+/g, " "));
      }
    }
  }

  document.documentElement.lang = words.lang;
  translatePage(document);
  window._ = translate;
  window.ngettext = plural;
  window.fmt = fmt;
  window.provinceWord = (name) => (name && provinces[name]) || name;
  window.translatePage = translatePage;
})();
