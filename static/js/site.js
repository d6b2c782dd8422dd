// Small enhancements htmx cannot do: keyboard play, focus kept across swaps, drag and
// drop, double- and right-clicks, the play timer and the copy-link button. Every action
// they take is one of the page's own forms or links, so the site works without this file.
(() => {
  "use strict";

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

  // -- posting a move the way the page's forms do ------------------------------------------

  function send(action, held) {
    const form = $("#js-action");
    if (!form || !action) return;
    form.querySelector("[name=action]").value = action;
    const count = form.querySelector("[name=held]");
    if (count) count.value = held ? String(held) : "";
    form.requestSubmit();
  }

  // -- keyboard ----------------------------------------------------------------------------

  let lastCell = null;

  function setupBoard() {
    // A replay's board is for looking: its cells leave the tab order to the step controls.
    $$("#replay [data-cell]").forEach((c) => { c.tabIndex = -1; });
    const cells = $$("#game [data-cell]");
    if (!cells.length) return;
    const current = cells.find((c) => c.dataset.cell === lastCell) || cells[0];
    cells.forEach((c) => { c.tabIndex = c === current ? 0 : -1; });
  }

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
    const target = $(`#game [data-cell="${"ABCD"[r]}${c}"]`);
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

  const REPLAY_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

  document.addEventListener("keydown", (event) => {
    if (typing(event) || event.altKey) return;
    if ($("#game[aria-busy]")) return;
    const t = event.target instanceof HTMLElement ? event.target : null;
    if (t && t.dataset.cell && ARROWS.includes(event.key)) {
      event.preventDefault();
      moveFocus(t, event.key);
      return;
    }
    if ($("#replay") && REPLAY_KEYS[event.key] && !(t && t.type === "range")) {
      const link = $(`#replay [data-replay="${REPLAY_KEYS[event.key]}"]`);
      if (link) { event.preventDefault(); link.click(); }
      return;
    }
    if (t && t.tagName === "A" && event.key === " " && t.closest("#game")) {
      event.preventDefault();
      t.click();
      return;
    }
    if (event.key === "?") {
      const help = $("#help");
      if (help) { help.open = !help.open; if (help.open) $("summary", help).focus(); }
      event.preventDefault();
      return;
    }
    if (event.key === "Escape") {
      const help = $("#help");
      if (help && help.open) { help.open = false; return; }
      const cancel = $("#game [data-cancel]");
      if (cancel) { cancel.click(); event.preventDefault(); }
      return;
    }
    let key = event.key.toLowerCase();
    if (event.ctrlKey || event.metaKey) {
      if (key !== "z") return;
      key = "u";
    }
    if (key.length !== 1 && key !== "home") return;
    const refused = refusedTarget(key);
    if (refused !== null) { event.preventDefault(); if (refused) send(refused[0], refused[1]); return; }
    const target = $(`#game [data-key="${CSS.escape(key)}"]`);
    if (target && !target.disabled) {
      event.preventDefault();
      target.click();
    }
  });

  document.addEventListener("focusin", (event) => {
    const t = event.target;
    if (t instanceof HTMLElement && t.dataset.cell) lastCell = t.dataset.cell;
  });

  // After a swap, keep the player's place: focus the same cell if the board had focus.
  // A control (Undo, Redeal) keeps focus too, or the board takes it when it went away.
  let boardHadFocus = false;
  let focusedKey = null;
  let focusedPlace = null;
  let focusedStep = null;
  let focusedId = null;
  let gameHadFocus = false;
  let requestFocusId = null;
  document.addEventListener("htmx:beforeRequest", () => {
    // Taken before htmx disables the control that asked (hx-disabled-elt drops its focus).
    const active = document.activeElement;
    requestFocusId = active && active.id && active.closest && active.closest("#game") ? active.id : null;
  });
  document.addEventListener("htmx:beforeSwap", () => {
    const active = document.activeElement;
    gameHadFocus = !!(active && active.closest && active.closest("#game"));
    focusedId = gameHadFocus && active.id ? active.id : null;
    if (!gameHadFocus && requestFocusId && (!active || active === document.body)) {
      gameHadFocus = true;
      focusedId = requestFocusId;
    }
    requestFocusId = null;
    focusedStep = active && active.dataset && active.closest && active.closest("#replay") ? active.dataset.replay || null : null;
    const inGame = !!(active && active.closest && active.closest("#game"));
    boardHadFocus = !!(active && active.dataset && active.dataset.cell);
    focusedKey = inGame ? active.dataset.key || null : null;
    const place = inGame ? active.closest("#board [data-drop]") : null;
    focusedPlace = place ? place.dataset.drop : null;
  });
  document.addEventListener("htmx:afterSettle", () => {
    setup();
    if (queued) { const run = queued; queued = null; run(); }
    if (focusedStep) {
      // The same step control, or (at either end, where it is disabled) the slider.
      const control = $(`#replay [data-replay="${focusedStep}"]`) || $("#replay-step");
      if (control) control.focus();
    } else if (boardHadFocus && lastCell) {
      const target = $(`#game [data-cell="${lastCell}"]`);
      if (target) target.focus();
    } else if (focusedPlace) {
      // FreeCell: back to the same column or cell, on its last card or the place itself.
      const place = $(`#board [data-drop="${CSS.escape(focusedPlace)}"]`);
      const target = place && (place.matches("button") ? place : $$("a.fc-card", place).pop());
      const fallback = $("#board a.fc-card, #board button.fc-place");
      if (target) target.focus(); else if (fallback) fallback.focus();
    } else if (focusedKey) {
      const control = $(`#game [data-key="${CSS.escape(focusedKey)}"]`);
      const fallback = $("#game [data-cell][tabindex='0']");
      if (control && !control.disabled) control.focus();
      else if (fallback) fallback.focus();
    } else if (focusedId) {
      const control = document.getElementById(focusedId);
      if (control) control.focus();
    }
    // Never leave the player on <body>: the board (or the game's heading) takes focus.
    if (gameHadFocus && (!document.activeElement || document.activeElement === document.body)) {
      const board = $("#game [data-cell][tabindex='0'], #board a.fc-card, #board button.fc-place, #game .end-screen button");
      if (board) board.focus();
    }
  });

  // An answer htmx does not swap (a refused request, a lost connection): say so.
  function tell(text) {
    const area = $("#game .message-area");
    if (area) area.replaceChildren(Object.assign(document.createElement("p"), { className: "message", textContent: text }));
    const announcer = $("#announcer");
    if (announcer) announcer.textContent = text;
  }

  // A search ("Still winnable?") may take seconds: say so at once, mark the game busy, and
  // keep the board from being swapped under it so its answer is not thrown away.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const button = event.detail.elt && event.detail.elt.querySelector ? event.detail.elt.querySelector("[data-busy]") : null;
    const game = $("#game");
    if (!button || !game) return;
    game.setAttribute("aria-busy", "true");
    const announcer = $("#announcer");
    if (announcer) announcer.textContent = button.dataset.busy;
  });
  document.addEventListener("htmx:afterRequest", () => {
    const game = $("#game[aria-busy]");
    if (game) game.removeAttribute("aria-busy");
  });
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    tell(`${xhr.status}: ${(xhr.responseText || "the server refused").slice(0, 200)}`);
  });
  document.addEventListener("htmx:sendError", () => tell("No connection to the server: nothing was changed. Try again."));

  // -- FreeCell: drag and drop (mouse and touch), double-click, right-click -----------------

  let drag = null;
  let swallowClick = false;

  function dropNotation(src, count, place) {
    const dst = place.dataset.drop;
    if (!dst || dst === src) return null;
    const isCell = (name) => "abcd".includes(name);
    if (dst === "h" || isCell(dst)) return count === 1 && !(isCell(src) && isCell(dst)) ? src + dst : null;
    if (place.hasAttribute("data-empty")) {
      const max = parseInt($("#board").dataset.maxToEmpty || "1", 10);
      const n = Math.max(1, Math.min(count, max));
      return src + dst + (n > 1 ? "v" + n.toString(16) : "");
    }
    return src + dst;
  }

  function ghostOf(card, count) {
    const ghost = document.createElement("div");
    ghost.className = "fc-ghost";
    const first = card.getBoundingClientRect();
    let node = card;
    for (let i = 0; i < count && node; i++, node = node.nextElementSibling) {
      const rect = node.getBoundingClientRect();
      const copy = node.cloneNode(true);
      copy.style.position = "absolute";
      copy.style.margin = "0";
      copy.style.left = "0";
      copy.style.top = `${rect.top - first.top}px`;
      copy.style.width = `${rect.width}px`;
      copy.style.height = `${rect.height}px`;
      ghost.appendChild(copy);
    }
    document.body.appendChild(ghost);
    return { ghost, left: first.left, top: first.top };
  }

  function dropPlaceAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    return hit ? hit.closest("#board [data-drop]") : null;
  }

  function clearHover() { $$(".fc-drop-hover").forEach((el) => el.classList.remove("fc-drop-hover")); }

  // A finger held still on a card does what a right-click does (iOS fires no contextmenu).
  const LONG_PRESS_MS = 550;
  let longPress = null;
  let lastLongPress = 0;
  function cancelLongPress() { clearTimeout(longPress); longPress = null; }

  document.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const card = event.target instanceof Element ? event.target.closest("#board [data-src]") : null;
    if (!card || !card.dataset.src) return;
    drag = { card, src: card.dataset.src, count: parseInt(card.dataset.count, 10) || 1, x: event.clientX, y: event.clientY, moved: null };
    if (event.pointerType === "touch" && !card.nextElementSibling) {
      cancelLongPress();
      longPress = setTimeout(() => {
        longPress = null;
        if (!drag || drag.moved) return;
        lastLongPress = Date.now();
        drag = null;
        swallowClick = true;
        setTimeout(() => { swallowClick = false; }, 400);
        const place = card.closest("[data-drop]");
        if (place) send(place.dataset.home || `${place.dataset.drop}h`);
      }, LONG_PRESS_MS);
    }
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.moved) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      cancelLongPress();
      drag.moved = ghostOf(drag.card, drag.count);
    }
    const g = drag.moved;
    g.ghost.style.left = `${g.left + event.clientX - drag.x}px`;
    g.ghost.style.top = `${g.top + event.clientY - drag.y}px`;
    clearHover();
    const place = dropPlaceAt(event.clientX, event.clientY);
    if (place && dropNotation(drag.src, drag.count, place)) place.classList.add("fc-drop-hover");
    event.preventDefault();
  });

  function endDrag(event, drop) {
    cancelLongPress();
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    d.moved.ghost.remove();
    clearHover();
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    if (!drop) return;
    const place = dropPlaceAt(event.clientX, event.clientY);
    if (place) send(dropNotation(d.src, d.count, place), d.count);
  }
  document.addEventListener("pointerup", (event) => endDrag(event, true));
  document.addEventListener("pointercancel", (event) => endDrag(event, false));

  // A click on a card picks it up at once. A second click on the same place within the
  // double-click time sends the card home (or to a free cell) instead of putting it back;
  // if the pick-up is still on its way, the move waits for it to land.
  const DOUBLE_CLICK_MS = 800;
  let lastPick = null;
  let inFlight = 0;
  let queued = null;
  function whenIdle(run) { if (inFlight) queued = run; else run(); }
  document.addEventListener("htmx:beforeRequest", () => { inFlight += 1; });
  document.addEventListener("htmx:afterRequest", () => { inFlight = Math.max(0, inFlight - 1); });
  document.addEventListener("click", (event) => {
    const card = event.target instanceof Element ? event.target.closest("#board a.fc-card") : null;
    if (swallowClick) { event.preventDefault(); event.stopPropagation(); return; }
    if (!card || event.detail === 0) { lastPick = null; return; }
    const place = card.closest("[data-drop]");
    const now = performance.now();
    // The browser counts a second click in the same spot within the system's double-click
    // time (event.detail 2), even though the swap has put a new element there.
    const again = event.detail >= 2 && lastPick && place && lastPick.drop === place.dataset.drop && now - lastPick.at < DOUBLE_CLICK_MS;
    if (again) {
      event.preventDefault();
      event.stopPropagation();
      const quick = lastPick.quick;
      lastPick = null;
      whenIdle(() => send(quick));
      return;
    }
    const exposed = place && place.dataset.quick && !card.nextElementSibling && !card.hasAttribute("data-cancel");
    lastPick = exposed ? { drop: place.dataset.drop, quick: place.dataset.quick, at: now } : null;
  }, true);

  // Holding a card, a key naming a place it cannot go asks the server, which says why.
  function refusedTarget(key) {
    const board = $("#board.holding");
    const held = board && $(".fc-card.selected", board);
    const source = held && held.closest("[data-drop]");
    if (!source || !/^[1-8a-dh]$/.test(key)) return null;
    const src = source.dataset.drop;
    if (key === src) return null;
    if ($(`#board button.target[data-key="${key}"]`)) return null;
    const count = $$(".fc-card.selected", board).length;
    if (count > 1 && "abcdh".includes(key)) {
      tell(board.dataset.oneCard || "");
      return "";
    }
    return [src + key, count];
  }

  document.addEventListener("contextmenu", (event) => {
    const board = event.target instanceof Element ? event.target.closest("#board.fc-board") : null;
    if (!board) return;
    event.preventDefault();
    if (Date.now() - lastLongPress < 1500) return; // the long-press already acted
    const card = event.target.closest(".fc-card");
    const place = event.target.closest("[data-drop]");
    if (card && place && place.dataset.drop !== "h") {
      if (!card.nextElementSibling) send(place.dataset.home || `${place.dataset.drop}h`);
      return;
    }
    if (!card && board.dataset.canGoHome === "true") send("all-home");
  });

  // -- play time: the server's figure is the truth; between actions count up for at most the
  // same idle cap the server applies (60 s), then wait for the next action.
  const IDLE_CAP_MS = 60000;
  let timerStart = 0;
  function tick() {
    const time = $("#game time[data-play-ms]");
    if (!time || time.dataset.running !== "true") return;
    const base = parseInt(time.dataset.playMs, 10);
    const total = Math.floor((base + Math.min(Date.now() - timerStart, IDLE_CAP_MS)) / 1000);
    const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    time.textContent = (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
  }
  setInterval(tick, 1000);

  function setupCopy() {
    $$("[data-copy]").forEach((button) => {
      const field = $(button.dataset.copy);
      // The game's foot is outside the swapped #game: set each button up once.
      if (!field || button.dataset.ready) return;
      button.dataset.ready = "true";
      field.value = new URL(field.value, location.href).href;
      button.hidden = false;
      button.addEventListener("click", async () => {
        field.select();
        try { await navigator.clipboard.writeText(field.value); } catch { document.execCommand("copy"); }
        button.textContent = button.dataset.done || "Copied";
      });
    });
  }

  // -- replay: autoplay steps forward at the chosen speed until the last step ----------------

  let autoplay = null;
  let autoplayDelay = null;
  function stopAutoplay() { clearInterval(autoplay); autoplay = null; }

  function setupReplay() {
    const controls = $("#replay [data-autoplay-controls]");
    if (!controls) { stopAutoplay(); return; }
    controls.hidden = false;
    const button = $("[data-autoplay]", controls);
    const speed = $("[data-speed]", controls);
    if (autoplayDelay) speed.value = autoplayDelay;
    const show = () => {
      button.setAttribute("aria-pressed", autoplay ? "true" : "false");
      button.textContent = autoplay ? button.dataset.pause : button.dataset.play;
    };
    const tickReplay = () => {
      const next = $('#replay [data-replay="next"]');
      if (next) { next.click(); return; }
      stopAutoplay();
      const current = $("#replay [data-autoplay]");
      if (current) { current.setAttribute("aria-pressed", "false"); current.textContent = current.dataset.play; }
    };
    const start = () => {
      stopAutoplay();
      autoplayDelay = speed.value;
      // From the last step, play again from the deal.
      if (!$('#replay [data-replay="next"]')) { const first = $('#replay [data-replay="first"]'); if (first) first.click(); }
      autoplay = setInterval(tickReplay, parseInt(speed.value, 10));
    };
    button.addEventListener("click", () => { if (autoplay) stopAutoplay(); else start(); show(); });
    speed.addEventListener("change", () => { autoplayDelay = speed.value; if (autoplay) start(); });
    show();
  }

  function setup() {
    setupReplay();
    timerStart = Date.now();
    setupBoard();
    setupCopy();
  }

  // A game page restored from the back/forward cache would show an old board: reload it.
  window.addEventListener("pageshow", (event) => { if (event.persisted && $("#game")) location.reload(); });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
