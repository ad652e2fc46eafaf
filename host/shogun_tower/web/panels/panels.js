// The expansions' panels of the board page, by expansion name: each panels/NAME.js adds
// PANELS.NAME = { draw(data, view) }, data being view.expansions.NAME (undefined when the
// expansion is not in play: the panel hides itself). The server puts each panels/NAME.html
// into the page, in their data-order, and loads this file, then each panel's script.
const PANELS = {};
