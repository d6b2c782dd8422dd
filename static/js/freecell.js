// FreeCell's own play, on top of site.js: drag and drop (mouse and touch), double-click, a
// right-click or long press to send a card home, and a key naming a place the held cards
// cannot go. A move is posted as the places it joins (source, target, held): the server
// asks the rules which move that is, so no move text is written here. Which place is
// which comes from the board's markup: data-drop names a place, .fc-cell and
// .fc-foundation are the places that take one card.
(() => {
  "use strict";

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
  const { send, tell, whenIdle } = window.Solitaire;

  const takesOne = (place) => place.matches(".fc-cell, .fc-foundation");

  // A double-click's move (the rules' quick move): home when the card can go, else a
  // column's last card to the leftmost empty free cell; null when neither.
  function quickMove(place) {
    if (place.dataset.home) return { action: place.dataset.home };
    const cell = takesOne(place) ? null : $("#board .fc-cell[data-empty]");
    return cell ? { source: place.dataset.drop, target: cell.dataset.drop, held: "1" } : null;
  }

  // A card's way home: the server's move when it has one, else the places, so the answer
  // says why it cannot go.
  function toHome(place) {
    if (place.dataset.home) return { action: place.dataset.home };
    const home = $("#board .fc-foundation[data-drop]");
    return home ? { source: place.dataset.drop, target: home.dataset.drop } : null;
  }

  // -- drag and drop (mouse and touch) ---------------------------------------------------

  let drag = null;
  let swallowClick = false;

  // Whether a drop there can be a move at all (the rules say whether it is a legal one).
  function canDrop(d, place) {
    const target = place.dataset.drop;
    if (!target || target === d.src) return false;
    if (!takesOne(place)) return true;
    return d.count === 1 && !(d.from && d.from.matches(".fc-cell") && place.matches(".fc-cell"));
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
    const from = card.closest("[data-drop]");
    drag = { card, from, src: card.dataset.src, count: parseInt(card.dataset.count, 10) || 1, x: event.clientX, y: event.clientY, moved: null };
    if (event.pointerType === "touch" && !card.nextElementSibling) {
      cancelLongPress();
      longPress = setTimeout(() => {
        longPress = null;
        if (!drag || drag.moved) return;
        lastLongPress = Date.now();
        drag = null;
        swallowClick = true;
        setTimeout(() => { swallowClick = false; }, 400);
        if (from) send(toHome(from));
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
    if (place && canDrop(drag, place)) place.classList.add("fc-drop-hover");
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
    // A drag says so: refused, the card goes back rather than staying held.
    if (place && canDrop(d, place)) send({ source: d.src, target: place.dataset.drop, held: d.count, drag: "1" });
  }
  document.addEventListener("pointerup", (event) => endDrag(event, true));
  document.addEventListener("pointercancel", (event) => endDrag(event, false));

  // A click on a card picks it up at once. A second click on the same place within the
  // double-click time sends the card home (or to a free cell) instead of putting it back;
  // if the pick-up is still on its way, the move waits for it to land.
  const DOUBLE_CLICK_MS = 800;
  let lastPick = null;
  document.addEventListener("click", (event) => {
    const card = event.target instanceof Element ? event.target.closest("#board a.fc-card") : null;
    if (swallowClick) { event.preventDefault(); event.stopPropagation(); return; }
    if (!card || event.detail === 0) { lastPick = null; return; }
    const place = card.closest("[data-drop]");
    // When the click was made, not when it is handled: on a busy phone the second click of
    // a double-click may be handled long after the first, and must still count as one.
    const now = event.timeStamp;
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
    const exposed = place && !card.nextElementSibling && !card.hasAttribute("data-cancel");
    const quick = exposed ? quickMove(place) : null;
    lastPick = quick ? { drop: place.dataset.drop, quick, at: now } : null;
  }, true);

  // Right-click (or the long press above) on a card sends it home; on the table, every card
  // that can go. Only on the game's own board: a replay's is for looking.
  document.addEventListener("contextmenu", (event) => {
    const board = event.target instanceof Element ? event.target.closest("#game #board.fc-board") : null;
    if (!board) return;
    event.preventDefault();
    if (Date.now() - lastLongPress < 1500) return; // the long-press already acted
    const card = event.target.closest(".fc-card");
    const place = event.target.closest("[data-drop]");
    if (card && place && !place.matches(".fc-foundation")) {
      if (!card.nextElementSibling) send(toHome(place));
      return;
    }
    const status = $("#game [data-can-go-home]");
    if (!card && status && status.dataset.canGoHome === "true") send({ action: "all-home" });
  });

  // Holding cards, a key naming a place they cannot go asks the server, which says why.
  function refusedKey(key) {
    const board = $("#board.holding");
    const held = board && $(".fc-card.selected", board);
    const source = held && held.closest("[data-drop]");
    if (!source) return false;
    const place = $(`#board [data-drop="${CSS.escape(key)}"]`);
    if (!place || key === source.dataset.drop) return false;
    if ($(`#board button.target[data-key="${CSS.escape(key)}"]`)) return false;
    const count = $$(".fc-card.selected", board).length;
    if (count > 1 && takesOne(place)) {
      tell(board.dataset.oneCard || "");
      return true;
    }
    send({ source: source.dataset.drop, target: key, held: count });
    return true;
  }

  // -- arrow keys: across the table, as on Montana's board ----------------------------------
  // Left and Right go to the next place in the same row (the free cells and foundations on
  // top, the columns below), wrapping at its ends; Up and Down go through a column's cards
  // that can be picked up, then on to the row above or below (the place at the same share
  // of its width). A place nothing can be done with (an empty free cell while nothing is
  // held) is passed over. The table is never mirrored, so Left is left in every language.
  const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];

  function stops(place) {
    const cards = $$("a.fc-card", place);
    return place.matches("button") ? [place, ...cards] : cards;
  }

  function tableRows() {
    const top = $$("#board .fc-top [data-drop]");
    const columns = $$("#board .fc-tableau [data-drop]");
    return [top, columns].filter((row) => row.length);
  }

  function stepAcross(rows, r, index, step) {
    const row = rows[r];
    for (let i = 1; i <= row.length; i++) {
      const place = row[(index + step * i + row.length * i) % row.length];
      const found = stops(place);
      if (found.length) return found[found.length - 1];
    }
    return null;
  }

  function stepRow(rows, r, index, step) {
    for (let k = 1; k <= rows.length; k++) {
      const next = (r + step * k + rows.length * k) % rows.length;
      const row = rows[next];
      const near = Math.min(row.length - 1, Math.round((index * (row.length - 1)) / Math.max(rows[r].length - 1, 1)));
      const place = row[near];
      const found = stops(place);
      if (found.length) return step > 0 ? found[0] : found[found.length - 1];
      const across = stepAcross(rows, next, near, 1);
      if (across) return across;
    }
    return null;
  }

  function arrow(event) {
    const from = event.target instanceof Element ? event.target : null;
    const place = from && from.closest("#game #board [data-drop]");
    if (!place || !ARROWS.includes(event.key) || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    const rows = tableRows();
    const r = rows.findIndex((row) => row.includes(place));
    if (r < 0) return false;
    const index = rows[r].indexOf(place);
    const here = stops(place);
    const at = here.indexOf(from.closest("a.fc-card") || place);
    let target = null;
    if (event.key === "ArrowLeft") target = stepAcross(rows, r, index, -1);
    else if (event.key === "ArrowRight") target = stepAcross(rows, r, index, 1);
    else if (event.key === "ArrowUp") target = at > 0 ? here[at - 1] : stepRow(rows, r, index, -1);
    else target = at >= 0 && at < here.length - 1 ? here[at + 1] : stepRow(rows, r, index, 1);
    if (target) target.focus();
    return true;
  }

  window.Solitaire.register("freecell", {
    keydown: arrow,
    key: refusedKey,
    // After a swap, back to the same column or cell, on its last card or the place itself.
    remember(active) {
      const inGame = !!(active && active.closest && active.closest("#game"));
      const place = inGame ? active.closest("#board [data-drop]") : null;
      return place ? place.dataset.drop : null;
    },
    restore(drop) {
      const place = $(`#board [data-drop="${CSS.escape(drop)}"]`);
      const target = place && (place.matches("button") ? place : $$("a.fc-card", place).pop());
      const fallback = $("#board a.fc-card, #board button.fc-place");
      if (target) target.focus(); else if (fallback) fallback.focus();
      return true;
    },
    focusable: "#board a.fc-card, #board button.fc-place",
    cards: "#board .fc-card",
  });
})();
