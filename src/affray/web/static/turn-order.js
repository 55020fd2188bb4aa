// <turn-order>: this round's order, as it will be played. The game master moves a turn
// still to come by its arrow buttons (a keyboard's Tab and Enter), by Alt+ArrowUp or
// Alt+ArrowDown on its line, or by dragging it onto another turn still to come; each
// move is the "move" verb, posted as the arrow buttons post it.
class TurnOrder extends HTMLElement {
  connectedCallback() {
    this.addEventListener("dragstart", (event) => {
      var item = event.target.closest && event.target.closest("li[draggable]");
      if (!item) { return; }
      event.dataTransfer.setData("text/plain", item.dataset.left);
      event.dataTransfer.effectAllowed = "move";
    });
    this.addEventListener("dragover", (event) => {
      if (event.target.closest && event.target.closest("li[draggable]")) {
        event.preventDefault();
      }
    });
    this.addEventListener("drop", (event) => {
      var target = event.target.closest && event.target.closest("li[draggable]");
      if (!target) { return; }
      event.preventDefault();
      var from = Number(event.dataTransfer.getData("text/plain"));
      this.move(from, Number(target.dataset.left));
    });
    this.addEventListener("keydown", (event) => {
      var item = event.target.closest && event.target.closest("li[draggable]");
      if (!item || !event.altKey || ["ArrowUp", "ArrowDown"].indexOf(event.key) < 0) { return; }
      event.preventDefault();
      var from = Number(item.dataset.left);
      this.move(from, from + (event.key === "ArrowUp" ? -1 : 1));
    });
    for (var item of this.querySelectorAll("li[draggable]")) {
      item.tabIndex = 0;
    }
  }

  move(from, to) {
    var items = Array.from(this.querySelectorAll("li[draggable]"));
    if (from === to || !items[from] || !items[to]) { return; }
    htmx.ajax("POST", "/t/" + this.dataset.table + "/do", {
      target: "#panel",
      values: {
        verb: "move",
        who: items[from].dataset.id,
        where: to < from ? "before" : "after",
        other: items[to].dataset.id,
        expected_version: this.dataset.version,
      },
    });
  }
}
customElements.define("turn-order", TurnOrder);
