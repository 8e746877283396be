// bgledger serve, the spectators' pages: the clocks counted on in the browser from the
// server's figures. Each .clocks box carries the reserves at data-as-of (ms since the
// epoch, the server's clock), whose time runs (data-running) and what was left of that
// turn's delay then (data-delay-left): the running figure t ms after data-as-of is its
// reserve less max(0, t - delay), as `show --json` says (and the pad counts). This
// device's clock is corrected by the skew measured against the page's data-now.
window.Spectator = (function () {
  "use strict";
  var skew = 0;
  (function measure() {
    var now = Number(document.body.dataset.now);
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var arrived = nav && performance.timeOrigin ? performance.timeOrigin + nav.responseStart : Date.now();
    if (now) { skew = now - arrived; }
  })();
  function minutes(millis) {
    var s = Math.floor(Math.max(0, millis) / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = ("0" + (s % 60)).slice(-2);
    return h ? h + ":" + ("0" + m).slice(-2) + ":" + sec : m + ":" + sec;
  }
  function left(box, span, now) {
    var reserve = Number(span.dataset.ms);
    if (box.dataset.running === span.dataset.side) {
      var spent = now - Number(box.dataset.asOf);
      reserve -= Math.max(0, spent - Number(box.dataset.delayLeft || 0));
    }
    return Math.max(0, reserve);
  }
  function tick() {
    var now = Date.now() + skew;
    var boxes = document.querySelectorAll(".clocks[data-as-of]");
    for (var i = 0; i < boxes.length; i++) {
      var spans = boxes[i].querySelectorAll(".reserve");
      for (var j = 0; j < spans.length; j++) {
        if (spans[j].dataset.ms === "") { continue; }
        var ms = left(boxes[i], spans[j], now);
        spans[j].textContent = minutes(ms);
        spans[j].classList.toggle("running", boxes[i].dataset.running === spans[j].dataset.side);
        spans[j].classList.toggle("out", ms <= 0);
      }
    }
  }
  // a card's clocks from the wall stream's figures (null: no clock)
  function setClock(box, clock) {
    if (!box) { return; }
    if (!clock) { box.hidden = true; box.removeAttribute("data-as-of"); return; }
    box.hidden = false;
    box.dataset.asOf = clock.as_of_ms;
    box.dataset.running = clock.running || "";
    box.dataset.delayLeft = clock.delay_left_ms;
    var spans = box.querySelectorAll(".reserve");
    for (var j = 0; j < spans.length; j++) { spans[j].dataset.ms = clock.reserve_ms[j]; }
    tick();
  }
  tick();
  setInterval(tick, 250);
  return { tick: tick, setClock: setClock };
})();
