// A race's page: the countdown and the race clock, in server time (the page says what
// the server's clock read when it was drawn), so every screen counts the same.
(function () {
  "use strict";
  var offset = 0;

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

  function sync() {
    var race = document.getElementById("race");
    if (race && race.dataset.serverNow) offset = Number(race.dataset.serverNow) - Date.now();
    tick();
  }

  // While the live stream is not open (no EventSource, refused, or its worker
  // restarting), the race's part is asked for every two seconds instead (its hx-trigger:
  // race-poll); the race over, nothing is asked.
  var live = false;
  document.addEventListener("htmx:sseOpen", function () { live = true; });
  document.addEventListener("htmx:sseError", function () { live = false; });
  setInterval(function () {
    var race = document.getElementById("race");
    if (live || !race || race.classList.contains("race-finished") || !window.htmx) return;
    window.htmx.trigger(race, "race-poll");
  }, 2000);

  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:afterSettle", sync);
  setInterval(tick, 250);
})();
