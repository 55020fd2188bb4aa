// The tracker's own few lines. Live updates come as one message per change, each part
// of the page morphed into place (idiomorph): what has focus, what is typed, a menu
// that is open, all stay as they are.
var TYPED = ["text", "number", "search", "email", "url", "tel", "password"];
Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node) {
  // a menu (a <details>) stays as the person left it, open or shut
  if (name === "open" && node.tagName === "DETAILS") { return false; }
  // what is being typed is the typist's (a button's value is the page's: it changes)
  if (name === "value" && node === document.activeElement &&
      (node.tagName === "TEXTAREA" ||
       (node.tagName === "INPUT" && TYPED.indexOf(node.type) >= 0))) { return false; }
  return true;
};

// Updates and the answers to forms may cross on the way: each says the table's
// generation it shows at least ("EPOCH:N", EPOCH a server's life), and the page never
// takes one older than what it shows.
function newer(label) {
  if (!label) { return true; }
  var parts = label.split(":");
  var shown = (document.body.dataset.generation || ":-1").split(":");
  if (parts[0] !== shown[0] || Number(parts[1]) >= Number(shown[1])) {
    document.body.dataset.generation = label;
    return true;
  }
  return false;
}
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var part = event.detail.fragment;
  part = part && (part.firstElementChild || part);
  var label = part && part.getAttribute ? part.getAttribute("data-generation") : null;
  if (!newer(label)) {
    event.detail.shouldSwap = false;
    event.preventDefault();
  }
});
document.addEventListener("htmx:beforeSwap", function (event) {
  var xhr = event.detail.xhr;
  var label = xhr && xhr.getResponseHeader ? xhr.getResponseHeader("X-Affray-Generation") : null;
  if (!newer(label)) {
    event.detail.shouldSwap = false;
  }
});

// keyboard shortcuts of the game master's page (not while typing)
document.addEventListener("keydown", function (event) {
  var tag = (event.target && event.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey ||
      event.metaKey || event.ctrlKey) {
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

// a question that appears (a die to type, a choice to make) takes the focus, unless
// the person is typing or choosing elsewhere on the page; each new step of it (the
// next die after a choice made by keyboard, say) takes it again
var askedStep = null;
function focusQuestion() {
  var active = document.activeElement;
  var busy = active && active !== document.body &&
      ["INPUT", "SELECT", "TEXTAREA"].indexOf(active.tagName) >= 0;
  var question = document.querySelector("#pending, #answer");
  var step = question ? question.id + ":" + (question.dataset.step || "") : null;
  var fresh = step !== askedStep;
  askedStep = step;
  if (!question || (busy && !question.contains(active))) {
    return;
  }
  if (question.contains(active) && !fresh) {
    return;
  }
  var first = question.querySelector("input.face, button.choice");
  if (first && first !== active) {
    first.focus();
  }
}
document.addEventListener("htmx:afterSettle", focusQuestion);
document.addEventListener("htmx:oobAfterSwap", focusQuestion);
document.addEventListener("DOMContentLoaded", focusQuestion);

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
  // every command of the game master's page says what it saw waiting (a die, a
  // question, or nothing): a command begun in another window meanwhile is not
  // silently dropped by it
  var panel = document.querySelector("#panel .panel");
  if (panel && /\/t\/[^/]+\/do$/.test(event.detail.path || "")) {
    event.detail.parameters["shown_waiting"] = panel.dataset.question || "";
  }
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

// a player's phone tells its player when the table turns to them: "your turn" (or a
// die or a question for them) and "you're next", in the tab's title, with a short
// vibration and a tone where the phone has them (a tone only once the page has been
// touched: browsers allow sound after that)
var TITLE = document.title;
var signalled = "";
var touched = false;
document.addEventListener("pointerdown", function () { touched = true; }, { once: true });
document.addEventListener("keydown", function () { touched = true; }, { once: true });
function tone(times) {
  if (!touched || !window.AudioContext) { return; }
  try {
    var audio = new AudioContext();
    for (var i = 0; i < times; i++) {
      var beep = audio.createOscillator();
      var gain = audio.createGain();
      beep.frequency.value = 660;
      gain.gain.value = 0.08;
      beep.connect(gain);
      gain.connect(audio.destination);
      beep.start(audio.currentTime + i * 0.25);
      beep.stop(audio.currentTime + i * 0.25 + 0.12);
    }
  } catch (ignored) { /* no sound: the title and the page say it */ }
}
function signal() {
  var ask = document.querySelector("#ask .ask");
  var now = ask ? (ask.dataset.signal || "") : "";
  if (now === signalled) { return; }
  signalled = now;
  var words = { turn: "Your turn", ask: "Your move", next: "You're next" }[now];
  document.title = words ? "● " + words + " · " + TITLE : TITLE;
  if (now === "turn" || now === "ask") {
    if (navigator.vibrate) { navigator.vibrate([180, 90, 180]); }
    tone(2);
  } else if (now === "next") {
    if (navigator.vibrate) { navigator.vibrate(120); }
    tone(1);
  }
  if (now === "turn") {
    var first = document.querySelector("#own-actions button");
    var active = document.activeElement;
    if (first && (!active || active === document.body)) { first.focus(); }
  }
}
document.addEventListener("htmx:afterSettle", signal);
document.addEventListener("htmx:oobAfterSwap", signal);
document.addEventListener("DOMContentLoaded", signal);

// a player's link copied to the clipboard with one click (it says so for a moment)
document.addEventListener("click", function (event) {
  var button = event.target && event.target.closest ? event.target.closest("button.copy") : null;
  if (!button) { return; }
  var text = new URL(button.dataset.copy, location.href).href;
  var said = function (words) {
    button.textContent = words;
    setTimeout(function () { button.textContent = "Copy"; }, 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { said("Copied"); },
                                             function () { said("Select it"); });
  } else {  // plain http on the network: the old way
    var field = document.createElement("textarea");
    field.value = text;
    document.body.appendChild(field);
    field.select();
    try { document.execCommand("copy"); said("Copied"); } catch (e) { said("Select it"); }
    field.remove();
  }
});
