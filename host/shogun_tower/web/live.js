// The live connection of a game's page, for every game's page: draw the view the server put
// into the page (the first paint is the game as it is), then every view it pushes. EventSource
// retries by itself only on some failures; a page left open through a restart of the game must
// come back by itself, so it reconnects on every error, a little slower each time, and says
// meanwhile (#connection, body[data-connected]) that what it shows may be stale.
"use strict";

function liveView(render) {
  let retryMs = 300;
  const draw = (text) => {
    try { render(JSON.parse(text)); } catch (err) { console.error("cannot draw the view", err); }
  };
  const setConnected = (ok) => {
    document.body.dataset.connected = ok ? "true" : "false";
    document.getElementById("connection").hidden = ok;
  };
  const connect = () => {
    const source = new EventSource("/events");
    source.onopen = () => { retryMs = 300; setConnected(true); };
    source.onmessage = (e) => { setConnected(true); draw(e.data); };
    source.onerror = () => {
      source.close();
      setConnected(false);
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 2000);
    };
  };
  const first = document.getElementById("initial-view");
  if (first) draw(first.textContent);
  connect();
}
