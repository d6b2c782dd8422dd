// Small enhancements htmx cannot do, the same on every game's page: keys that press the
// page's own controls (data-key), focus kept across swaps, a busy search, the announcer, the
// play timer, the copy-link button and the replay's autoplay. Every action they take is one
// of the page's own forms or links, so the site works without this file.
//
// What one game does on its own board (arrow keys across a grid, drag and drop) is in
// static/js/<kind>.js, loaded after this file on that game's pages only. It hands this file
// its hooks once, every one optional:
//
//   window.Solitaire.register(kind, {
//     setup(),           // after the page loads and after every swap
//     keydown(event),    // sees each key first; true when it took the key
//     key(key),          // a one-character key (lower case), before the data-key controls;
//                        // true when it took the key
//     remember(active),  // before a swap: what restore() needs to put focus back, or null
//     restore(state),    // after the swap, with what remember() gave; true when it did
//     focusable,         // a selector: the board's element that takes focus rather than
//                        // leaving the player on <body>
//     cards,             // a selector: the board's cards, each named by its face (motion)
//   });
//
// and uses what this file shares: Solitaire.send(fields) posts the page's #js-action form
// with those fields ({action} or {source, target, held}), Solitaire.tell(text) says a
// refusal, Solitaire.whenIdle(run) runs once no request is on its way.
(() => {
  "use strict";

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

  // -- the game's hooks: its page's #game (or #replay) says which game it is -----------------

  const games = {};
  let ready = false;

  function hooks() {
    const area = $("#game[data-kind], #replay[data-kind]");
    return (area && games[area.dataset.kind]) || {};
  }

  function register(kind, gameHooks) {
    games[kind] = gameHooks;
    if (ready && gameHooks.setup && hooks() === gameHooks) gameHooks.setup();
  }

  // -- posting a move the way the page's forms do ------------------------------------------

  // Only the fields given are posted: {action: "all-home"}, or the places of a drag and drop
  // ({source: "3", target: "6", held: 2}), whose move the server asks the rules for.
  function send(fields) {
    const form = $("#js-action");
    if (!form || !fields || !(fields.action || (fields.source && fields.target))) return;
    $$("input[type=hidden]", form).forEach((input) => {
      if (input.name === "version") return;
      const value = fields[input.name];
      input.value = value === undefined || value === null ? "" : String(value);
      input.disabled = !input.value;
    });
    form.requestSubmit();
  }

  // -- confirmations (Give up, Restart deal) as modal dialogs --------------------------------
  // Without this file each is a <details> that opens its question in place, with a Cancel
  // link back to the game. Here its summary opens the question in a <dialog> instead: one
  // at a time, over a dimmed table; Esc, Cancel or a click outside closes it, focus starts
  // on Cancel and goes back to the summary; answering closes it too.
  function confirmDialog(details) {
    let dialog = details.nextElementSibling;
    if (dialog && dialog.matches("dialog.confirm-dialog")) return dialog;
    const question = $(".confirm", details);
    if (!question) return null;
    dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    const text = $("p", question);
    if (text) {
      text.id = text.id || `confirm-${Math.random().toString(36).slice(2)}`;
      dialog.setAttribute("aria-labelledby", text.id);
    }
    dialog.append(question);
    details.after(dialog);
    // The link back to the game (without JavaScript) becomes a button that closes.
    const link = $("a[data-dismiss]", dialog);
    if (link) {
      const cancel = Object.assign(document.createElement("button"), { type: "button", className: link.className, textContent: link.textContent });
      cancel.dataset.dismiss = "";
      cancel.addEventListener("click", () => dialog.close());
      link.replaceWith(cancel);
    }
    // Answering closes it (once the button has sent its form, which lives on the board):
    // the answer's swap may leave the controls where they are.
    dialog.addEventListener("click", (event) => {
      if (event.target instanceof Element && event.target.closest("button[type=submit]")) setTimeout(() => dialog.close());
    });
    // A click on the backdrop lands on the dialog itself (its content fills the box).
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    dialog.addEventListener("close", () => {
      const summary = $("summary", details);
      if (summary && summary.isConnected) summary.focus();
    });
    return dialog;
  }

  document.addEventListener("click", (event) => {
    const summary = event.target instanceof Element ? event.target.closest("details[data-confirm] > summary") : null;
    if (!summary) return;
    const dialog = confirmDialog(summary.parentElement);
    if (!dialog || typeof dialog.showModal !== "function") return;
    event.preventDefault();
    summary.parentElement.open = false;
    $$("dialog.confirm-dialog[open]").forEach((other) => other.close());
    dialog.showModal();
    const cancel = $("[data-dismiss]", dialog);
    if (cancel) cancel.focus();
  });

  // -- the "?" panel: the keys and the help, in a modal dialog over the table ---------------
  // The panel below the table stays for a click; "?" shows the same words in a dialog where
  // the player is, so the table does not scroll away. Esc, Close, "?" again or a click
  // outside closes it; focus goes back where it was.
  function openHelp(help) {
    let dialog = $("#help-dialog");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.id = "help-dialog";
      dialog.className = "help-dialog";
      const summary = $("summary", help);
      const title = Object.assign(document.createElement("h2"), { id: "help-dialog-title", textContent: summary ? summary.firstChild.textContent.trim() : "" });
      dialog.setAttribute("aria-labelledby", title.id);
      const body = document.createElement("div");
      body.className = "help-dialog-body";
      Array.from(help.children).filter((child) => child.tagName !== "SUMMARY").forEach((child) => body.append(child.cloneNode(true)));
      const close = Object.assign(document.createElement("button"), { type: "button", className: "button", textContent: help.dataset.close || "×" });
      close.addEventListener("click", () => dialog.close());
      const head = document.createElement("div");
      head.className = "help-dialog-head";
      head.append(title, close);
      dialog.append(head, body);
      dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
      dialog.addEventListener("keydown", (event) => { if (event.key === "?") { event.preventDefault(); event.stopPropagation(); dialog.close(); } });
      dialog.addEventListener("close", () => {
        const back = dialog.returnFocus;
        dialog.returnFocus = null;
        if (back && back.isConnected) back.focus({ preventScroll: true });
      });
      document.body.append(dialog);
    }
    if (dialog.open) { dialog.close(); return; }
    dialog.returnFocus = document.activeElement;
    const y = window.scrollY;
    dialog.showModal();
    const close = $("button", dialog);
    if (close) close.focus({ preventScroll: true });
    window.scrollTo(window.scrollX, y);
  }

  // The skip link (the game page's first Tab stop): focus on the board's own stop (its
  // first card or current cell), not only a jump to it.
  document.addEventListener("click", (event) => {
    const skip = event.target instanceof Element ? event.target.closest("a[data-skip]") : null;
    const focusable = skip && hooks().focusable;
    const first = focusable && $(focusable);
    if (!first) return;
    event.preventDefault();
    first.focus();
  });

  // -- a stale tab: what the game's links ask carries the version the page shows ------------
  // A pick-up, a cancel or "Still winnable?" asks the game's page again: with the version
  // this board shows (v), the server answers "it moved on elsewhere" when another tab or
  // device has played since, rather than act on a board the player no longer sees. (Every
  // form posts its version already.)
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail;
    const game = $("#game[data-version]");
    const elt = detail.elt;
    if (!game || detail.verb !== "get" || !(elt instanceof Element) || !elt.closest("#game")) return;
    if (new URL(detail.path, location.href).pathname !== location.pathname) return;
    detail.parameters.v = game.dataset.version;
  });

  // -- keyboard ----------------------------------------------------------------------------

  // The control a key works (in #game, its lasting controls in #more included).
  function control(key) {
    return $(`#game [data-key="${CSS.escape(key)}"]`);
  }

  function typing(event) {
    const t = event.target;
    return t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
  }

  const REPLAY_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", t: "turning", T: "turning" };

  document.addEventListener("keydown", (event) => {
    if (typing(event) || event.altKey) return;
    if ($("dialog[open]")) return; // a dialog's own keys: Esc closes it, Tab stays in it
    if ($("#game[aria-busy]")) return;
    const game = hooks();
    if (game.keydown && game.keydown(event)) { event.preventDefault(); return; }
    const t = event.target instanceof HTMLElement ? event.target : null;
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
      if (help) openHelp(help);
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
      // Ctrl+Z undoes; Ctrl+Y and Ctrl+Shift+Z redo.
      if (key === "z") key = event.shiftKey ? "y" : "u";
      else if (key !== "y") return;
    }
    if (key.length !== 1 && key !== "home") return;
    if (game.key && game.key(key)) { event.preventDefault(); return; }
    const target = control(key);
    if (target && !target.disabled) {
      event.preventDefault();
      target.click();
    }
  });

  // After a swap, keep the player's place: the game puts focus back on its board if the
  // board had it; a control (Undo, Redeal) keeps focus too, or the board takes it when it
  // went away.
  let gameFocus = null;
  let focusedKey = null;
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
    focusedKey = inGame ? active.dataset.key || null : null;
    const game = hooks();
    gameFocus = game.remember ? game.remember(active) : null;
  });
  let deferredFocus = null;
  document.addEventListener("htmx:afterRequest", () => {
    const control = deferredFocus;
    deferredFocus = null;
    if (control && !control.disabled && control.isConnected) control.focus();
  });
  document.addEventListener("htmx:afterSettle", () => {
    setup();
    if (queued) { const run = queued; queued = null; run(); }
    const game = hooks();
    if (focusedStep) {
      // The same step control, or (at either end, where it is disabled) the slider.
      const control = $(`#replay [data-replay="${focusedStep}"]`) || $("#replay-step");
      if (control) control.focus();
    } else if (gameFocus !== null && game.restore && game.restore(gameFocus)) {
      // The game put focus back on its board.
    } else if (focusedKey) {
      const found = control(focusedKey);
      const fallback = game.focusable ? $(game.focusable) : null;
      if (found && !found.disabled) found.focus();
      else if (fallback) fallback.focus();
    } else if (focusedId) {
      const control = document.getElementById(focusedId);
      // A lasting control (#more) is kept, not swapped: htmx enables it again after the
      // swap, when the request ends; focus goes back to it then.
      if (control && control.disabled) deferredFocus = control;
      else if (control) control.focus();
    }
    // Never leave the player on <body>: the board (or the end screen) takes focus.
    if (!deferredFocus && gameHadFocus && (!document.activeElement || document.activeElement === document.body)) {
      const board = $([game.focusable, "#game .end-screen button"].filter(Boolean).join(", "));
      if (board) board.focus();
    }
  });

  // A setting saved (POST /settings answers with HX-Trigger): the server names the classes
  // of <html> that are on and off, and the stylesheets draw the rest, without a reload.
  document.addEventListener("solitaire:settings", (event) => {
    const detail = event.detail || {};
    const html = document.documentElement;
    (detail.off || []).forEach((name) => html.classList.remove(name));
    (detail.on || []).forEach((name) => html.classList.add(name));
  });

  // -- the last move: the cards it played carry data-last-move until the next move --------
  // The game (or the replay) names where they lie: data-moved, the id of the board's
  // element holding them, and data-moved-count, how many of its last cards they are.
  // After a move's answer (whole or only the cells that changed) the mark moves there;
  // an answer that moved nothing (a refusal, a hint, an undo) clears it.
  // A reload of the same version (no move since) marks them again: the tab remembers.
  const MOVED_KEY = "solitaire:last-move";
  function remembered(game) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(MOVED_KEY) || "null");
      if (kept && kept.path === location.pathname && kept.version === game.dataset.version) return kept;
    } catch (error) { /* storage off: nothing remembered */ }
    return null;
  }
  function markLastMove() {
    $$("[data-last-move]").forEach((card) => card.removeAttribute("data-last-move"));
    // The server's own mark (for pages without JavaScript) may stay on a place a later
    // answer did not send again: the script's mark is the one that holds.
    $$("[data-moved-cards]").forEach((place) => place.removeAttribute("data-moved-cards"));
    const game = $("#game");
    const holder = $("#game[data-moved], #replay[data-moved]");
    let where = holder && { place: holder.dataset.moved, count: holder.dataset.movedCount };
    if (game && holder === game) {
      try {
        sessionStorage.setItem(MOVED_KEY, JSON.stringify({ path: location.pathname, version: game.dataset.version, ...where }));
      } catch (error) { /* storage off: the mark lasts until a reload */ }
    } else if (game && !holder) {
      where = remembered(game);
    }
    if (!where) return;
    const place = document.getElementById(where.place);
    if (!place) return;
    const count = Number(where.count) || 1;
    const faces = hooks().cards || "none"; // the game's own cards (its script registers them)
    const cards = place.matches(faces) ? [place] : $$(faces, place).slice(-count);
    cards.forEach((card) => card.setAttribute("data-last-move", ""));
  }
  // After every deferred script: the game's own script has registered its cards by then.
  document.addEventListener("DOMContentLoaded", markLastMove);
  document.addEventListener("htmx:afterSettle", markLastMove);

  // -- motion: a card glides from where it was to where it went ---------------------------
  // Before a swap each card's place is noted by its face; right after it, a card found
  // elsewhere is drawn from its old place to its new one (a transform, so it already sits,
  // and takes clicks, where it went: motion never delays the next click). None when the
  // system or the player's preference asks for reduced motion.
  const GLIDE_MS = 160;
  const stillness = window.matchMedia("(prefers-reduced-motion: reduce)");
  const moving = () => !stillness.matches && !document.documentElement.classList.contains("motion-reduced");
  let places = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    places = null;
    if (!moving() || !event.detail.target || event.detail.target.id !== "game") return;
    const cards = hooks().cards;
    if (!cards) return;
    places = new Map($$(cards).map((card) => [card.textContent, card.getBoundingClientRect()]));
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!places) return;
    const before = places;
    places = null;
    $$(hooks().cards || "none").forEach((card) => {
      const was = before.get(card.textContent);
      if (!was || !card.animate) return;
      const now = card.getBoundingClientRect();
      const dx = was.left - now.left, dy = was.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: GLIDE_MS, easing: "ease-out" });
    });
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
    // The page's words (base.html's announcer), never the server's text or English.
    const announcer = $("#announcer");
    tell((announcer && announcer.dataset.refused) || "");
  });
  document.addEventListener("htmx:sendError", () => {
    const announcer = $("#announcer");
    tell((announcer && announcer.dataset.offline) || "");
  });

  // A move that must wait for the request on its way (a pick-up) runs once it has landed.
  let inFlight = 0;
  let queued = null;
  function whenIdle(run) { if (inFlight) queued = run; else run(); }
  document.addEventListener("htmx:beforeRequest", () => { inFlight += 1; });
  document.addEventListener("htmx:afterRequest", () => { inFlight = Math.max(0, inFlight - 1); });

  // -- play time: the server's figure is the truth; between actions count up for at most the
  // idle cap the server applies (data-idle-cap-ms on the page's .play), then wait for the next action. The time
  // is written as the server writes it: data-clock lists its formats, the first for under an
  // hour and the second from an hour on, each letter a unit (h, m, s), doubled for 2 digits.
  function clock(ms, formats) {
    const total = Math.floor(ms / 1000);
    const units = { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
    const [short, long] = formats.split(" ");
    const format = (units.h && long) || short;
    return format.replace(/h+|m+|s+/g, (unit) => String(units[unit[0]]).padStart(unit.length, "0"));
  }

  let timerStart = 0;
  function tick() {
    const time = $("#game time[data-play-ms]");
    const play = time && time.closest("[data-clock]");
    if (!time || !play || time.dataset.running !== "true") return;
    const cap = parseInt(play.dataset.idleCapMs, 10) || 0;
    const idle = Date.now() - timerStart;
    const played = parseInt(time.dataset.playMs, 10) + Math.min(idle, cap);
    time.textContent = clock(played, play.dataset.clock);
    // Past the cap the server counts no more time until the next action: say so beside it.
    let paused = $("#game [data-clock-paused]");
    if (!paused && idle >= cap && play.dataset.paused) {
      paused = Object.assign(document.createElement("small"), { className: "clock-paused", textContent: play.dataset.paused });
      paused.dataset.clockPaused = "";
      time.after(paused);
    }
    if (paused) paused.hidden = idle < cap;
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
    ready = true;
    setupReplay();
    timerStart = Date.now();
    const game = hooks();
    if (game.setup) game.setup();
    setupCopy();
  }

  window.Solitaire = Object.freeze({ register, send, tell, whenIdle, clock });

  // A game page restored from the back/forward cache would show an old board: reload it.
  window.addEventListener("pageshow", (event) => { if (event.persisted && $("#game")) location.reload(); });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
