// bgledger serve: the scorekeeper's pad. Every button posts one line of the
// record language to POST /api/matches/M/lines with the scorekeeper's token;
// the server decides everything. This script only decides which buttons to
// offer, from the show document (GET /api/matches/M, and the live stream).
(function () {
  "use strict";
  var pad = document.getElementById("pad");
  if (!pad) { return; }
  var path = encodeURIComponent(pad.dataset.match);
  var $ = function (id) { return document.getElementById(id); };
  var doc = null;          // the last show document
  var side = pad.dataset.from || "a";   // the board is drawn from this player's side
  var dice = [null, null]; // the die faces tapped
  var moves = [];          // the play so far: ["8/5", "6/5"]
  var from = null;         // the point picked, waiting for its destination
  var skew = 0;            // the server's clock minus this device's, in ms
  var busy = false;

  // -- the token (token.js): the buttons wait for one
  var token = bgledger.token, say = bgledger.say;
  bgledger.onChange(offer);

  function post(line, done) {
    if (busy) { return; }
    busy = bgledger.send("/api/matches/" + path + "/lines", { line: line }, function (status, body) {
      busy = false;
      if (status === 201) {
        var said = body.recorded.map(function (e) { return "#" + e.number + " " + e.text; }).join(" · ");
        say("recorded", (body.replayed ? "already recorded (sent again): " : "") + said);
        if (done) { done(); }
        apply(body.match);
      } else {
        bgledger.refused(status, body);
        offer();
      }
    }, function () { busy = false; offer(); });
    offer();
  }

  // -- which buttons to offer, from the show document
  function can(when) {
    if (!doc || !token() || busy) { return false; }
    var phase = doc.phase;
    switch (when) {
      case "always": return true;
      case "dice": return ["between-games", "opening", "roll", "reroll"].indexOf(phase) >= 0
        || !!doc.opening_throw;
      case "singles": return !!doc.opening_throw;
      case "play": return phase === "play";
      case "double": return phase === "roll";
      case "answer": return phase === "doubled";
      case "resign": return ["roll", "reroll", "play"].indexOf(phase) >= 0;
      case "resigned": return phase === "resigned";
      case "premature": return phase === "premature-roll";
      case "hit": return doc.clock.mode !== "none" && doc.clock.reserve_ms !== null;
      case "break-start": return !doc.breaks.on_break && phase !== "over";
      case "break-end": return !!doc.breaks.on_break;
      case "premature-double": return phase === "play";
    }
    return false;
  }

  function name(p) { return doc.players[p]; }

  function offer() {
    var buttons = document.querySelectorAll("[data-when]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].disabled = !can(buttons[i].dataset.when); }
    $("hit").disabled = !can("hit");
    $("line-send").disabled = !can("always");
    $("amend-send").disabled = !can("always");
    var rolling = can("dice");
    var opening = doc && (doc.phase === "between-games" || doc.phase === "opening");
    $("dice-legend").textContent = !doc ? "Dice" : opening ? "Opening roll"
      : rolling ? name(doc.turn) + " rolls" : "Dice";
    $("die-label-0").textContent = opening && doc ? name("a") : "first die";
    $("die-label-1").textContent = opening && doc ? name("b") : "second die";
    var faces = document.querySelectorAll(".die");
    for (var f = 0; f < faces.length; f++) {
      var row = faces[f].parentNode.dataset.die;
      faces[f].disabled = !rolling;
      faces[f].setAttribute("aria-pressed", String(dice[row] === Number(faces[f].dataset.face)));
    }
    $("dice-confirm").disabled = !rolling || dice[0] === null || dice[1] === null;
    $("dice-confirm").textContent = dice[0] && dice[1] ? (opening ? "Opening " : "Roll ") + dice[0] + "-" + dice[1] : (opening ? "Opening roll" : "Roll");
    var playing = can("play");
    $("play-panel").className = playing ? "panel due" : "panel";
    $("dice-panel").className = rolling ? "panel due" : "panel";
    $("step-undo").disabled = !playing || (moves.length === 0 && from === null);
    $("play-clear").disabled = !playing || (moves.length === 0 && from === null);
    $("play-confirm").disabled = !playing || moves.length === 0;
    $("play-confirm").textContent = moves.length ? "Play " + moves.join(" ") : "Play";
    $("notation").textContent = moves.join(" ") + (from !== null ? (moves.length ? " " : "") + from + "/…" : "") || "–";
    var picked = document.querySelectorAll(".pad-board .point.picked");
    for (var k = 0; k < picked.length; k++) { picked[k].classList.remove("picked"); }
    if (from !== null) {
      var at = document.querySelector('.pad-board [data-point="' + from + '"]');
      if (at) { at.classList.add("picked"); }
    }
  }

  // -- the dice
  var rows = document.querySelectorAll(".dice-row");
  for (var r = 0; r < rows.length; r++) {
    rows[r].addEventListener("click", function (event) {
      var face = event.target.closest(".die");
      if (!face || face.disabled) { return; }
      dice[this.dataset.die] = Number(face.dataset.face);
      offer();
    });
  }
  $("dice-confirm").addEventListener("click", function () {
    var opening = doc.phase === "between-games" || doc.phase === "opening";
    var early = !opening && $("dice-early").checked ? " --premature" : "";
    post((opening ? "opening " : "roll ") + dice[0] + " " + dice[1] + early, function () {
      dice = [null, null];
      $("dice-early").checked = false;
    });
  });

  // -- the play: a point, then where its checker goes
  $("live").addEventListener("click", function (event) {
    if (!can("play")) { return; }
    var point = event.target.closest("[data-point]");
    if (!point) { return; }
    var where = point.dataset.point;
    if (from === null) {
      if (where !== "off") { from = where; }
    } else if (where === from) {
      from = null;
    } else {
      moves.push(from + "/" + where);
      from = null;
    }
    offer();
  });
  function forgetPlay() { moves = []; from = null; }
  $("step-undo").addEventListener("click", function () {
    if (from !== null) { from = null; } else { moves.pop(); }
    offer();
  });
  $("play-clear").addEventListener("click", function () { forgetPlay(); offer(); });
  $("play-confirm").addEventListener("click", function () {
    var flagged = $("play-as-played").checked ? " --as-played" : "";
    post("move " + moves.join(" ") + flagged, function () { forgetPlay(); $("play-as-played").checked = false; });
  });

  // -- the buttons that are one line each, the typed line, amend
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-line]");
    if (button && !button.disabled) { post(button.dataset.line); }
  });
  $("line-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var line = $("line").value.trim();
    if (line) { post(line, function () { $("line").value = ""; }); }
  });
  // a form of the rarer lines: its verb, then each field's words (a=M:SS ...)
  var composed = document.querySelectorAll("form.compose");
  for (var c = 0; c < composed.length; c++) {
    composed[c].addEventListener("submit", function (event) {
      event.preventDefault();
      var form = this, words = [form.dataset.verb];
      var fields = form.querySelectorAll("input, select");
      for (var i = 0; i < fields.length; i++) {
        var value = fields[i].value.trim();
        if (!value) { say("refused", form.dataset.verb + ": give " + fields[i].getAttribute("aria-label") + "."); return; }
        words.push((fields[i].dataset.prefix || "") + value);
      }
      post(words.join(" "), function () {
        for (var j = 0; j < fields.length; j++) { if (fields[j].tagName === "INPUT") { fields[j].value = ""; } }
      });
    });
  }
  $("amend-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var n = $("amend-n").value.trim(), line = $("amend-line").value.trim();
    if (!n || !line) { say("refused", "Amend: give the entry's number and what happened (roll 6 4)."); return; }
    post("amend " + n + " " + line, function () { $("amend-n").value = ""; $("amend-line").value = ""; });
  });

  // -- the clock: both reserves, the running one counting down from the document's figures
  function minutes(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
  }
  function tick() {
    if (!doc || !doc.clock || doc.clock.reserve_ms === null) {
      $("reserve-a").lastChild.textContent = "–:––";
      $("reserve-b").lastChild.textContent = "–:––";
      return;
    }
    var clock = doc.clock;
    ["a", "b"].forEach(function (p) {
      var left = clock.reserve_ms[p];
      var box = $("reserve-" + p);
      if (clock.running === p && clock.as_of) {
        var spent = Date.now() + skew - Date.parse(clock.as_of);
        if (clock.mode === "simple-delay") { spent -= clock.delay_ms || 0; }
        left -= Math.max(0, spent);
      }
      box.lastChild.textContent = minutes(left);
      box.className = "reserve" + (clock.running === p ? " running" : "") + (left <= 0 ? " out" : "");
    });
  }
  setInterval(tick, 250);

  // -- the match: the document, and the board drawn by the server from the mover's side
  function apply(next) {
    if (doc && next.events < doc.events) { return; }
    var turned = (next.turn || "a") !== side;
    var changed = !doc || next.events !== doc.events;
    if (changed && doc && next.phase !== "play") { forgetPlay(); }
    doc = next;
    side = next.turn || "a";
    if (changed || turned) { refresh(); }
    offer();
    tick();
  }
  function refresh() {
    fetch("/matches/" + path + "/live?from=" + side)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { $("live").innerHTML = html; offer(); })
      .catch(function () { $("live-status").textContent = "reload the page"; });
  }
  function load() {
    fetch("/api/matches/" + path).then(function (r) {
      var date = Date.parse(r.headers.get("Date") || "");
      if (!isNaN(date)) { skew = date - Date.now(); }
      return r.json();
    }).then(apply);
  }

  if (window.EventSource) {
    var source = new EventSource("/api/matches/" + path + "/events?since=" + encodeURIComponent(pad.dataset.events));
    source.addEventListener("recorded", function (event) { apply(JSON.parse(event.data).match); });
    source.onopen = function () { $("live-status").textContent = "live"; $("live-status").className = "live"; };
    source.onerror = function () { $("live-status").textContent = "reconnecting…"; $("live-status").className = "live off"; };
  }
  offer();
  load();
})();
