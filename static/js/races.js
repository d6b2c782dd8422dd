// A race's page: the countdown and the race clock, in server time (the page says what
// the server's clock read when it was drawn), so every screen counts the same; and a
// brief "reconnecting…" while its live stream is down (it reconnects by itself).
(function () {
  "use strict";
  var offset = 0;
  var synced = null; // the #race part the offset was taken from

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clock(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    s = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function tick() {
    var race = document.getElementById("race");
    if (!race) return;
    var now = Date.now() + offset;
    var started = Number(race.dataset.started || 0);
    var deadline = Number(race.dataset.deadline || 0);
    var count = race.querySelector("[data-countdown]");
    if (count && started) {
      var left = Math.ceil((started - now) / 1000);
      count.textContent = left > 0 ? String(left) : "";
    }
    var elapsed = race.querySelector("[data-race-clock]");
    if (elapsed && started) elapsed.textContent = clock(now - started);
    var remaining = race.querySelector("[data-race-left]");
    if (remaining && deadline) remaining.textContent = clock(deadline - now);
  }

  // The offset is taken once from each #race part as it arrives (the moment it was
  // drawn): later updates (the table, a board) leave it be, or the clock would go back.
  function sync() {
    var race = document.getElementById("race");
    if (race && race !== synced && race.dataset.serverNow) {
      offset = Number(race.dataset.serverNow) - Date.now();
      synced = race;
    }
    tick();
  }

  function notice(source, down) {
    var shown = source.querySelector(":scope > .race-reconnecting");
    if (!down) {
      if (shown) shown.remove();
      return;
    }
    if (shown || !source.dataset.reconnecting) return;
    shown = document.createElement("p");
    shown.className = "message race-reconnecting";
    shown.setAttribute("role", "status");
    shown.textContent = source.dataset.reconnecting;
    source.insertBefore(shown, source.firstChild);
  }

  // While the live stream is not open (no EventSource, refused, or its worker
  // restarting), the race's part is asked for every two seconds instead (its hx-trigger:
  // race-poll); the race over, nothing is asked.
  var live = false;
  document.addEventListener("htmx:sseOpen", function (event) {
    live = true;
    notice(event.target, false);
  });
  document.addEventListener("htmx:sseError", function (event) {
    live = false;
    notice(event.target, true);
  });
  setInterval(function () {
    var race = document.getElementById("race");
    if (live || !race || race.classList.contains("race-finished") || !window.htmx) return;
    window.htmx.trigger(race, "race-poll");
  }, 2000);

  // A form in the race's part (join, start, end) holds the part while its answer is on
  // the way (its hx-sync): a change the stream tells of meanwhile is not asked for then
  // (that answer, drawn before a joiner's cookie was set, would replace the form's own)
  // but once the form's answer is in.
  var holding = false, missed = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var race = document.getElementById("race");
    var elt = event.detail.elt;
    if (race && elt !== race && race.contains(elt)) holding = true;
  });
  document.addEventListener("sse:state", function () {
    if (holding) missed = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!holding || event.detail.elt === document.getElementById("race")) return;
    holding = false;
    var race = document.getElementById("race");
    if (missed && race && !race.classList.contains("race-finished") && window.htmx) {
      window.htmx.trigger(race, "race-poll");
    }
    missed = false;
  });

  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:afterSettle", sync);
  setInterval(tick, 250);
})();
