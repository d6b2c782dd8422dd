// Small enhancements htmx cannot do: keyboard play, focus kept across swaps, the play
// timer and the copy-link button. The site works without this file.
(() => {
  "use strict";

  const KEYS = { u: "u", r: "r", n: "n", z: "u" };

  function board() { return document.querySelector("#game .grid"); }

  function cells() { return Array.from(document.querySelectorAll("#game [data-cell]")); }

  // Roving focus: the board is one tab stop; arrow keys move across it.
  function setupBoard() {
    const all = cells();
    if (!all.length) return;
    const current = all.find((c) => c.dataset.cell === lastCell) || all[0];
    all.forEach((c) => { c.tabIndex = c === current ? 0 : -1; });
  }

  let lastCell = null;

  function moveFocus(from, key) {
    const name = from.dataset.cell;
    const row = "ABCD".indexOf(name[0]);
    const col = parseInt(name.slice(1), 10);
    let r = row, c = col;
    if (key === "ArrowLeft") c = col > 1 ? col - 1 : 13;
    if (key === "ArrowRight") c = col < 13 ? col + 1 : 1;
    if (key === "ArrowUp") r = (row + 3) % 4;
    if (key === "ArrowDown") r = (row + 1) % 4;
    if (key === "Home") c = 1;
    if (key === "End") c = 13;
    const target = document.querySelector(`#game [data-cell="${"ABCD"[r]}${c}"]`);
    if (target) {
      from.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
      lastCell = target.dataset.cell;
    }
  }

  function typing(event) {
    const t = event.target;
    return t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
  }

  document.addEventListener("keydown", (event) => {
    if (typing(event) || event.altKey) return;
    const onCell = event.target instanceof HTMLElement && event.target.dataset.cell;
    if (onCell && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
      event.preventDefault();
      moveFocus(event.target, event.key);
      return;
    }
    if (onCell && event.key === " " && event.target.tagName === "A") {
      event.preventDefault();
      event.target.click();
      return;
    }
    if (event.key === "?") {
      const help = document.getElementById("help");
      if (help) { help.open = !help.open; if (help.open) help.querySelector("summary").focus(); }
      event.preventDefault();
      return;
    }
    if (event.key === "Escape") {
      const cancel = document.querySelector("#game [data-cancel]");
      if (cancel) { cancel.click(); event.preventDefault(); }
      const help = document.getElementById("help");
      if (help && help.open) help.open = false;
      return;
    }
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key !== "z") return;
    if (!(event.ctrlKey || event.metaKey) && key === "z") return;
    const shortcut = KEYS[key];
    if (!shortcut) return;
    const button = document.querySelector(`#game [data-key="${shortcut}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  document.addEventListener("focusin", (event) => {
    const t = event.target;
    if (t instanceof HTMLElement && t.dataset.cell) lastCell = t.dataset.cell;
  });

  // After a swap, keep the player's place: focus the same cell if the board had focus.
  let boardHadFocus = false;
  document.addEventListener("htmx:beforeSwap", () => {
    const active = document.activeElement;
    boardHadFocus = !!(active && active.dataset && active.dataset.cell);
  });
  document.addEventListener("htmx:afterSettle", () => {
    setup();
    if (boardHadFocus && lastCell) {
      const target = document.querySelector(`#game [data-cell="${lastCell}"]`);
      if (target) target.focus();
    }
  });

  // Play time: the server's figure is the truth; between actions count up for at most the
  // same idle cap the server applies (60 s), then wait for the next action.
  const IDLE_CAP_MS = 60000;
  let timerStart = 0;
  function tick() {
    const time = document.querySelector("#game time[data-play-ms]");
    if (!time || time.dataset.running !== "true") return;
    const base = parseInt(time.dataset.playMs, 10);
    const extra = Math.min(Date.now() - timerStart, IDLE_CAP_MS);
    const total = Math.floor((base + extra) / 1000);
    const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    time.textContent = (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
  }
  setInterval(tick, 1000);

  function setupCopy() {
    document.querySelectorAll("[data-copy]").forEach((button) => {
      const field = document.querySelector(button.dataset.copy);
      if (!field) return;
      field.value = new URL(field.value, location.href).href;
      button.hidden = false;
      button.addEventListener("click", async () => {
        field.select();
        try { await navigator.clipboard.writeText(field.value); } catch { document.execCommand("copy"); }
        button.textContent = button.dataset.done || "Copied";
      });
    });
  }

  function setup() {
    timerStart = Date.now();
    setupBoard();
    setupCopy();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
