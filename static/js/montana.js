// Montana's own keys, on top of site.js: the arrow keys move across the board (wrapping at
// its edges), Home and End go to a row's first and last cells, and the cell with focus is
// the board's one tab stop. The board's shape is read from its markup: its rows
// ([role=row]) and the cells ([data-cell]) in each.
(() => {
  "use strict";

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

  const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  let lastCell = null;

  function setup() {
    // A replay's board is for looking: its cells leave the tab order to the step controls.
    $$("#replay [data-cell]").forEach((c) => { c.tabIndex = -1; });
    const cells = $$("#game [data-cell]");
    if (!cells.length) return;
    const current = cells.find((c) => c.dataset.cell === lastCell) || cells[0];
    cells.forEach((c) => { c.tabIndex = c === current ? 0 : -1; });
  }

  function moveFocus(from, key) {
    const rows = $$("#game [role=row]").map((row) => $$("[data-cell]", row)).filter((row) => row.length);
    const row = rows.findIndex((cells) => cells.includes(from));
    if (row < 0) return;
    const col = rows[row].indexOf(from);
    const width = rows[row].length;
    let r = row, c = col;
    if (key === "ArrowLeft") c = (col + width - 1) % width;
    if (key === "ArrowRight") c = (col + 1) % width;
    if (key === "ArrowUp") r = (row + rows.length - 1) % rows.length;
    if (key === "ArrowDown") r = (row + 1) % rows.length;
    if (key === "Home") c = 0;
    if (key === "End") c = width - 1;
    const target = rows[r][Math.min(c, rows[r].length - 1)];
    from.tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
    lastCell = target.dataset.cell;
  }

  document.addEventListener("focusin", (event) => {
    const t = event.target;
    if (t instanceof HTMLElement && t.dataset.cell) lastCell = t.dataset.cell;
  });

  window.Solitaire.register("montana", {
    setup,
    keydown(event) {
      const t = event.target instanceof HTMLElement ? event.target : null;
      if (!t || !t.dataset.cell || !ARROWS.includes(event.key)) return false;
      moveFocus(t, event.key);
      return true;
    },
    // After a swap, the same cell takes focus again if the board had it.
    remember(active) { return !!(active && active.dataset && active.dataset.cell); },
    restore(boardHadFocus) {
      if (!boardHadFocus || !lastCell) return false;
      const target = $(`#game [data-cell="${CSS.escape(lastCell)}"]`);
      if (target) target.focus();
      return true;
    },
    focusable: "#game [data-cell][tabindex='0']",
    cards: "#board [data-cell]:not(.gap)",
  });
})();
