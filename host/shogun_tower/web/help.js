// The game's help page: the help book the console's `help` also reads (helpbook.py), drawn
// from the JSON block the server puts in the page. Text only: nothing here is computed.
(function () {
  "use strict";
  const book = JSON.parse(document.getElementById("help-book").textContent);
  const el = (tag, props, ...children) => {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children) node.append(child);
    return node;
  };
  // the page's words: i18n.js, which the server puts before this script, gives _ and fmt
  document.getElementById("title").textContent = fmt(_("{game} — help"), { game: book.title });
  document.title = fmt(_("Shogun Tower — {game} — help"), { game: book.title });
  document.getElementById("intro").textContent = book.intro || "";
  const nav = document.getElementById("topics");
  const main = document.getElementById("book");
  for (const topic of book.topics || []) {
    const id = `topic-${topic.key}`;
    const link = el("a", { href: `#${id}`, textContent: topic.title });
    nav.append(el("li", null, link));
    const section = el("section", { id, className: "topic" });
    section.dataset.key = topic.key;
    const title = el("h2", { textContent: topic.title });
    if (!topic.in_game) {
      section.classList.add("not-in-game");
      title.append(" ", el("small", { textContent: _("not in this game") }));
    }
    section.append(title);
    if (topic.intro) section.append(el("p", { textContent: topic.intro }));
    const list = el("dl");
    for (const entry of topic.entries) {
      list.append(el("dt", { textContent: entry.name }));
      if (entry.text) list.append(el("dd", { textContent: entry.text }));
    }
    section.append(list);
    main.append(section);
  }
  document.body.dataset.ready = "true";
})();
