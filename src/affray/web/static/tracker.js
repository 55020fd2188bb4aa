// The tracker's own few lines: keyboard shortcuts; and the action panel is not
// refreshed by a live update while the game master is typing in dice, nor by the
// update of a change it already shows (its result stays on screen).
document.addEventListener("keydown", function (event) {
  var tag = (event.target && event.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.metaKey) {
    return;
  }
  var keys = { u: "undo", z: "undo", r: "redo", y: "redo", n: "next" };
  var id = keys[event.key.toLowerCase()];
  var button = id && document.getElementById(id);
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  var live = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
  // a panel that waits on a player asks again now and then, but not while the game
  // master types in a face
  if (elt && elt.classList && elt.classList.contains("poll") &&
      document.activeElement && document.activeElement.id === "face" &&
      document.activeElement.value) {
    event.preventDefault();
    return;
  }
  // nor is a player's question, while the player types in a face
  if (elt && elt.id === "ask" && elt.contains(document.activeElement) &&
      document.activeElement.tagName === "INPUT") {
    event.preventDefault();
    return;
  }
  // nor is the board, while the game master types in one of its menus
  if (elt && elt.id === "board" && live && live.type === "sse:change" &&
      elt.contains(document.activeElement) &&
      ["INPUT", "SELECT", "TEXTAREA"].indexOf(document.activeElement.tagName) >= 0) {
    event.preventDefault();
    return;
  }
  if (!elt || elt.id !== "panel" || !live || live.type !== "sse:change") {
    return;
  }
  var shown = elt.querySelector(".panel");
  var version = -1;
  try {
    version = JSON.parse(live.detail.data).version;
  } catch (error) {
    version = -1;
  }
  var typing = elt.contains(document.activeElement) &&
      ["INPUT", "SELECT", "TEXTAREA"].indexOf(document.activeElement.tagName) >= 0;
  if (typing || (shown && Number(shown.dataset.version) >= version)) {
    event.preventDefault();
  }
});
// htmx wires up swapped-in content a moment after the swap; a form submitted in that
// moment (a quick click, a shortcut key) is wired up first, so the browser never
// submits it by itself (which would drop the token and leave the page).
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form && form.hasAttribute && form.hasAttribute("hx-post")) {
    htmx.process(form);
  }
}, true);
// the forms beside the board (add, import, note) say which version of the table they
// were filled in against, the board's, as the board's own forms do: a change made
// meanwhile is refused, not applied to a table the game master has not seen
document.addEventListener("htmx:configRequest", function (event) {
  var elt = event.detail.elt;
  var status = document.querySelector("#board .status");
  if (elt && ["add-form", "import-form", "note-form"].indexOf(elt.id) >= 0 &&
      status && status.dataset.version) {
    event.detail.parameters["expected_version"] = status.dataset.version;
  }
});
// a request that never reached the server says so, until one does
document.addEventListener("htmx:sendError", function () {
  var banner = document.getElementById("offline");
  if (banner) { banner.hidden = false; }
});
document.addEventListener("htmx:afterRequest", function (event) {
  var banner = document.getElementById("offline");
  if (banner && event.detail.successful) { banner.hidden = true; }
});
