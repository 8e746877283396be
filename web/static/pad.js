// bgledger serve: the scorekeeper's pad. Every button posts one line of the
// record language to POST /api/matches/M/lines with the scorekeeper's token;
// the server decides everything, also which controls to draw: the show document's
// now.allowed (GET /api/matches/M, and the live stream) offers the lines; this script draws
// the controls of those lines, and counts the clock on from the server's figures. While taps
// wait on the phone (offline.js), it shows the match as local.js guesses it
// after them, until the server's document replaces the guess.
(function () {
  "use strict";
  var pad = document.getElementById("pad");
  if (!pad) { return; }
  var path = encodeURIComponent(pad.dataset.match);
  var $ = function (id) { return document.getElementById(id); };
  var known = null;        // the last show document the server sent
  var doc = null;          // ... and the match shown: that one, after the taps still kept on this phone
  var local = bgledgerLocal;
  var lines = "/api/matches/" + path + "/lines";
  var docKey = "bgledger.pad.doc." + pad.dataset.match;
  var sideKey = "bgledger.pad.side." + pad.dataset.match;
  var side = localStorage.getItem(sideKey) || "a";   // the board is drawn from this player's side
  var drawn = pad.dataset.from;                      // ... and was last drawn from this one
  var dice = [null, null]; // the die faces tapped
  var moves = [];          // the play so far, in the mover's numbering: ["8/5", "6/5"]
  var from = null;         // the point picked (the board's numbering), waiting for its destination
  var skew = 0;            // the server's clock minus this device's, in ms (measured at load)
  var busy = false;

  // -- the token (token.js): the buttons wait for one
  var token = bgledger.token, say = bgledger.say;
  bgledger.onChange(offer);

  function post(line, done) {
    if (busy) { return; }
    steps(null);
    busy = bgledger.send(lines, { line: line }, function (status, body) {
      busy = false;
      if (status === 201) {
        var said = body.recorded.map(function (e) { return "#" + e.number + " " + e.text; }).join(" · ");
        say("recorded", (body.replayed ? "already recorded (sent again): " : "") + said);
        if (done) { done(); }
        apply(body.match);
      } else {
        bgledger.refused(status, body);
        steps(body.next || null);
        offer();
      }
    }, function (kept) {
      busy = false;
      if (kept && kept.queued) {  // kept on this phone: the pad goes on from its guess
        say("queued", "");  // (the queue's box says so)
        if (done) { done(); }
        decide();
      }
      offer();
    });
    offer();
  }

  // -- a refusal's next step: the words, and a button for each line it offers
  function steps(next) {
    var box = $("next"), buttons = $("next-buttons");
    buttons.textContent = "";
    box.hidden = !next;
    if (next) { pad.dataset.refused = "1"; } else { delete pad.dataset.refused; }
    if (!next) { return; }
    $("next-words").textContent = next.words ? next.words.charAt(0).toUpperCase() + next.words.slice(1) : "";
    next.buttons.forEach(function (step) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "step";
      button.textContent = step.label;
      button.dataset.step = step.line;
      buttons.appendChild(button);
    });
  }
  $("next-buttons").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (!button || busy) { return; }
    var line = button.dataset.step;
    post(line, /^move /.test(line) ? forgetPlay : null);
  });

  // -- what may happen now: the server's one answer (show --json's now.allowed), drawn as it
  // is; this script decides nothing about the match. A control names the line it sends
  // (data-offer; a form, its verb) and is shown while the answer offers it; a panel while it
  // offers one of its data-offers.
  function allowed() { return doc && doc.now ? doc.now.allowed : []; }
  function offered(line) {
    return allowed().some(function (a) { return a.line === line; });
  }
  function offeredVerb(verb) {
    return allowed().some(function (a) { return a.verb === verb; });
  }
  function entry(line) {
    var found = allowed().filter(function (a) { return a.line === line; });
    return found.length ? found[0] : null;
  }
  function any(lines) {  // a panel's lines, split on "|" ("break start a|break start b")
    return lines.split("|").some(offered);
  }
  function ready() { return !!(doc && token() && !busy); }

  function name(p) { return doc.players[p]; }

  function offer() {
    pad.dataset.due = doc && doc.now && doc.now.due ? doc.now.due : "";
    var panels = document.querySelectorAll(".pad [data-offers]");
    for (var v = 0; v < panels.length; v++) { panels[v].hidden = !any(panels[v].dataset.offers); }
    var controls = document.querySelectorAll(".pad [data-offer]");
    for (var i = 0; i < controls.length; i++) {
      var on = offered(controls[i].dataset.offer);
      controls[i].hidden = !on && controls[i].id !== "hit";
      controls[i].disabled = !on || !ready();
    }
    var forms = document.querySelectorAll(".pad form[data-offer-verb]");
    for (var f = 0; f < forms.length; f++) {
      forms[f].hidden = !offeredVerb(forms[f].dataset.verb);
      forms[f].querySelector("button").disabled = forms[f].hidden || !ready();
    }
    $("clock-panel").hidden = !doc || doc.clock.mode === "none" || !offeredVerb("clock read");
    $("over-panel").hidden = !doc || !doc.winner;
    $("hit").className = "hit" + (pad.dataset.due ? " due big" : "");
    $("no-token").hidden = !!token();
    $("line-send").disabled = !ready();
    $("amend-send").disabled = !ready() || !offered("amend");
    var opening = offered("opening"), rolling = (opening || offered("roll")) && ready();
    var rolls = entry("opening") || entry("roll");
    $("dice-legend").textContent = rolls ? rolls.words.charAt(0).toUpperCase() + rolls.words.slice(1) : "Dice";
    $("die-label-0").textContent = opening ? name("a") + "'s die" : "first die";
    $("die-label-1").textContent = opening ? name("b") + "'s die" : "second die";
    $("die-label-0").hidden = $("die-label-1").hidden = !opening;  // a roll's two dice need no names
    var faces = document.querySelectorAll(".die");
    for (var d = 0; d < faces.length; d++) {
      var row = faces[d].parentNode.dataset.die;
      faces[d].disabled = !rolling;
      faces[d].setAttribute("aria-pressed", String(dice[row] === Number(faces[d].dataset.face)));
    }
    $("dice-confirm").disabled = !rolling || dice[0] === null || dice[1] === null;
    $("dice-confirm").textContent = dice[0] && dice[1] ? (opening ? "Opening " : "Roll ") + dice[0] + "-" + dice[1] : (opening ? "Opening" : "Roll");
    var plays = entry("move"), playing = !!plays && ready();
    // the dice after the mover's words, before what the laws oblige ("Ann plays 5-2: the man touched ...")
    $("play-legend").textContent = plays && doc.dice ? plays.words.replace(/^[^:]*/, "$& " + doc.dice[0] + "-" + doc.dice[1]) : "Play";
    $("answer-legend").textContent = doc && doc.now ? doc.now.turn.charAt(0).toUpperCase() + doc.now.turn.slice(1) : "The double";
    $("step-undo").disabled = !playing || (moves.length === 0 && from === null);
    $("play-clear").disabled = !playing || (moves.length === 0 && from === null);
    $("play-confirm").disabled = !playing || moves.length === 0;
    $("play-confirm").textContent = moves.length ? "Play " + moves.join(" ") : "Play";
    var pending = from === null ? "" : (moves.length ? " " : "") + mover(from) + "/…";
    $("notation").textContent = moves.join(" ") + pending || "tap a point, then where it goes";
    $("notation").className = moves.length || from !== null ? "" : "empty";
    var picked = document.querySelectorAll(".pad-board .point.picked");
    for (var k = 0; k < picked.length; k++) { picked[k].classList.remove("picked"); }
    if (from !== null) {
      var at = document.querySelector('.pad-board [data-point="' + from + '"]');
      if (at) { at.classList.add("picked"); }
    }
    tick();
  }

  // -- the screens: Board, More (the rarer controls and the history), Help
  function show(tab) {
    if (tab === "more" && pad.dataset.tab !== "more") { histories(); }
    pad.dataset.tab = tab;
    var tabs = document.querySelectorAll(".pad-tabs [data-tab]");
    for (var t = 0; t < tabs.length; t++) { tabs[t].setAttribute("aria-pressed", String(tabs[t].dataset.tab === tab)); }
  }
  document.addEventListener("click", function (event) {
    var tab = event.target.closest("button[data-tab]");
    if (tab) { show(tab.dataset.tab); }
  });
  // the board turned to the other side: remembered on this device
  $("turn-board").addEventListener("click", function () {
    side = side === "a" ? "b" : "a";
    localStorage.setItem(sideKey, side);
    from = null;
    refresh();
  });

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
    var opening = offered("opening");
    var early = !opening && $("dice-early").checked ? " --premature" : "";
    post((opening ? "opening " : "roll ") + dice[0] + " " + dice[1] + early, function () {
      dice = [null, null];
      $("dice-early").checked = false;
    });
  });

  // -- the play: a point, then where its checker goes. The board is drawn from `drawn`'s side;
  // a play is written in the mover's numbering (his 24 point is the other's 1 point).
  function mover(point) {
    if (!doc || point === "bar" || point === "off" || drawn === (doc.turn || "a")) { return point; }
    return String(25 - Number(point));
  }
  $("live").addEventListener("click", function (event) {
    if (!offered("move") || !ready()) { return; }
    var point = event.target.closest("[data-point]");
    if (!point) { return; }
    var where = point.dataset.point;
    if (from === null) {
      if (where !== "off") { from = where; }
    } else if (where === from) {
      from = null;
    } else {
      moves.push(mover(from) + "/" + mover(where));
      from = null;
      drawPlay();
    }
    offer();
  });
  // the play built so far, drawn on the board by the server (board.svg?table=1&play=): each
  // checker where it was moved, a blot hit on the bar, the points numbered from the mover's
  // side. A move the board cannot show (no checker of his where it starts) comes back refused,
  // in words, the board left as it was. (Offline, the play is written out only.)
  var drawing = 0;
  function drawPlay() {
    var ask = ++drawing, built = moves.join(" ");
    fetch("/matches/" + path + "/board.svg?table=1&from=" + drawn + "&play=" + encodeURIComponent(built))
      .then(function (r) { return r.text().then(function (text) { return { ok: r.ok, status: r.status, text: text }; }); })
      .then(function (got) {
        var box = $("live").querySelector(".board-box");
        if (ask !== drawing || moves.join(" ") !== built || !box) { return; }
        if (got.ok) { box.innerHTML = got.text; offer(); return; }
        // (kept in the play as tapped: sent, the server answers it with what can be done)
        if (got.status === 400) { say("refused", got.text.charAt(0).toUpperCase() + got.text.slice(1)); }
      })
      .catch(function () { /* offline: the play is written out only */ });
  }
  function forgetPlay() { moves = []; from = null; }
  $("step-undo").addEventListener("click", function () {
    if (from !== null) { from = null; } else { moves.pop(); drawPlay(); }
    offer();
  });
  $("play-clear").addEventListener("click", function () { forgetPlay(); drawPlay(); offer(); });
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

  // -- the clock: the server's figures at clock.as_of (the server's now when it answered),
  // counted on with this device's clock corrected by the skew measured at load: the running
  // player's delay first (delay_left_ms), then the reserve, rounded down to the second as
  // `show` writes it. The status line and the HIT button read the same figures.
  function serverNow() { return Date.now() + skew; }
  function figure(p, now) { return local.figure(doc.clock, p, now); }
  function delayLeft(now) { return local.delayLeft(doc.clock, now); }
  function minutes(millis) {
    var s = Math.floor(Math.max(0, millis) / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = ("0" + (s % 60)).slice(-2);
    return h ? h + ":" + ("0" + m).slice(-2) + ":" + sec : m + ":" + sec;
  }
  function tick() {
    if (!doc || !doc.clock || doc.clock.reserve_ms === null) {
      $("reserve-a").lastChild.textContent = "–:––";
      $("reserve-b").lastChild.textContent = "–:––";
      return;
    }
    var clock = doc.clock, now = serverNow();
    ["a", "b"].forEach(function (p) {
      var left = figure(p, now);
      var box = $("reserve-" + p);
      box.lastChild.textContent = minutes(left);
      box.className = "reserve" + (clock.running === p ? " running" : "") + (left <= 0 ? " out" : "");
    });
    timeUp(clock.running && figure(clock.running, now) <= 0 ? clock.running : null);
    var delay = clock.running && clock.mode === "simple-delay" ? delayLeft(now) : 0;
    $("delay").textContent = delay > 0 ? "delay " + Math.ceil(delay / 1000) + " s" : "";
    $("hit-who").textContent = pad.dataset.timeUp ? name(pad.dataset.timeUp) + "'s time is up"
      : doc.now && doc.now.due ? name(doc.now.due) + "'s hit is due"
      : clock.running ? name(clock.running) + "'s time runs"
      : clock.stopped ? "clock stopped" : "not started: the next hit starts it";
  }
  // the running player's reserve shown at 0:00: said on the Board screen, with what may happen
  // now (the server's words for his flag, and its button); the dice and the play fold away
  // until the flag is recorded, or the scorekeeper plays on (nobody announced it: USBGF 4.3.3)
  var playedOn = null;  // the player whose time was up when the scorekeeper chose to play on
  function timeUp(p) {
    var flag = p ? entry("flag " + p) : null;
    var up = flag && playedOn !== p ? p : "";
    if ((pad.dataset.timeUp || "") !== up) {
      if (up) { pad.dataset.timeUp = up; } else { delete pad.dataset.timeUp; }
    }
    $("time-up").hidden = !up;
    if (up) {
      $("time-up-words").textContent = "Time up on " + name(up) + "'s clock (0:00). "
        + flag.words.charAt(0).toUpperCase() + flag.words.slice(1) + ".";
    }
  }
  $("play-on").addEventListener("click", function () { playedOn = pad.dataset.timeUp || null; tick(); });

  // each figure is redrawn as it turns over a second, not up to a tick late
  function next() {
    var wait = 250;
    if (doc && doc.clock && doc.clock.running && doc.clock.reserve_ms) {
      var now = serverNow(), left = figure(doc.clock.running, now), delay = delayLeft(now);
      if (left > 0) { wait = Math.min(wait, (left % 1000) + 2); }
      if (delay > 0) { wait = Math.min(wait, (delay % 1000) + 2); }
    }
    setTimeout(function () { tick(); next(); }, wait);
  }
  next();

  // -- the match: the document, and the board drawn by the server from the chosen side
  function apply(next) {
    if (!next || (known && next.events < known.events)) { return; }
    var changed = !known || next.events !== known.events;
    known = next;
    try { localStorage.setItem(docKey, JSON.stringify(next)); } catch (e) { /* full: not kept */ }
    if (changed || drawn !== side) { refresh(); }
    if (changed && pad.dataset.tab === "more") { histories(); }  // (read while it is open only)
    decide();
  }
  // -- the whole match's history, newest first, on More: read as the panel opens (the server's
  // list of every entry, the director's desk's), and again as an event comes while it is open
  function histories() {
    fetch("/matches/" + path + "/desk/history")
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var read = new DOMParser().parseFromString(html, "text/html");
        var list = $("pad-history");
        list.textContent = "";
        read.querySelectorAll("[data-number]").forEach(function (entry) {
          var item = document.createElement("li"), line = document.createElement("pre");
          // (the day left out on a phone's width, after the mark of a ruling, a voided or a
          // flagged entry too: "  12 R 2026-11-27 19:20:56  td  ..."); each word kept whole
          // on one line ("rolled 6-1", never "6-" / "1")
          var text = entry.textContent.trim().replace(/^(\d+\s+(?:[xR!C]\s+)?)\d{4}-\d\d-\d\d /, "$1");
          text.split(/(\s+)/).forEach(function (part) {
            if (!part) { return; }
            if (/^\s+$/.test(part)) { line.appendChild(document.createTextNode(part)); return; }
            var word = document.createElement("span");
            word.className = "word";
            word.textContent = part;
            line.appendChild(word);
          });
          item.className = entry.className.replace(/\bentry\b/, "").trim();
          item.appendChild(line);
          list.appendChild(item);
        });
        $("history-note").textContent = "";
      })
      .catch(function () { $("history-note").textContent = "Not read: the network is down. As last read:"; });
  }
  // the match shown: the server's last document, after each tap still kept on this phone
  // (in the order made), as far as the pad can tell; none after a refusal stopped the queue
  function decide() {
    if (!known) { return; }
    var queue = window.bgledgerQueue ? bgledgerQueue.state() : { entries: [], stopped: null };
    var guess = known, kept = 0;
    if (!queue.stopped) {
      var lost = false;  // a tap past what the pad can tell: the rest wait for the server
      queue.entries.forEach(function (entry) {
        if (lost || !entry.kept || entry.url !== lines) { return; }
        kept += 1;
        var next = local.after(guess, entry.line, local.ms(entry.made));
        if (next) { guess = next; } else { lost = true; }
      });
    }
    var before = doc;
    doc = guess;
    pad.dataset.guess = kept ? String(kept) : "";
    var status = $("live").querySelector(".status");
    if (status) {
      if (!("said" in status.dataset)) { status.dataset.said = status.textContent; }
      status.textContent = kept ? "The board as the server last sent it: " + kept
        + (kept === 1 ? " tap" : " taps") + " since, kept on this phone." : status.dataset.said;
    }
    if (before && before.events !== doc.events && !offered("move")) { forgetPlay(); }
    offer();
  }
  if (window.bgledgerQueue) {
    var wasStopped = false;
    bgledgerQueue.onChange(function (state, entry, status, body) {
      if (body && body.match && entry && entry.url === lines) { apply(body.match); }
      if (state.stopped && !wasStopped) { load(); }  // refused: what the server has, not a guess
      wasStopped = !!state.stopped;
      var live = $("live-status"), open = follow && follow.source() && follow.source().readyState === 1;
      if (state.offline) { live.textContent = "offline"; live.className = "live off"; }
      else if (live.textContent === "offline" && open) { live.textContent = "live"; live.className = "live"; }
      decide();
    });
  }
  function refresh() {
    var want = side;
    fetch("/matches/" + path + "/live?table=1&from=" + want)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        $("live").innerHTML = html;
        drawn = want;
        decide();
        if (moves.length) { drawPlay(); }  // the play built so far, on the board drawn again
      })
      .catch(function () {
        var away = window.bgledgerQueue && bgledgerQueue.state().offline;
        $("live-status").textContent = away ? "offline" : "reload the page";
      });
  }
  // the skew: the server's clock as its answer left (X-Server-Now, stamped as the headers go
  // out) against this device's as they arrive; first from the page itself (data-now, stamped
  // before the page was drawn), then, better, from the match's document fetched at load
  function measure() {
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var arrived = nav && performance.timeOrigin ? performance.timeOrigin + nav.responseStart : Date.now();
    var now = Number(pad.dataset.now);
    if (now) { skew = now - arrived; }
  }
  function load() {
    fetch("/api/matches/" + path, { cache: "no-store" }).then(function (r) {
      // (a document kept by the service worker, offline: its stamp is old; the offset kept
      // by offline.js is the one measured last)
      var stamped = r.headers.get("X-Kept") ? 0 : Number(r.headers.get("X-Server-Now"));
      if (stamped) { skew = stamped - Date.now(); }
      else if (window.bgledgerQueue) { skew = bgledgerQueue.serverNow() - Date.now(); }
      return r.json();
    }).then(apply);
  }

  // the live stream (live.js: opened again if the server refused it), from the last event known
  var follow = bgledgerFollow(function () {
    return "/api/matches/" + path + "/events?since=" + encodeURIComponent(known ? known.events : pad.dataset.events);
  }, {
    events: { recorded: function (event) { apply(JSON.parse(event.data).match); } },
    open: function () { $("live-status").textContent = "live"; $("live-status").className = "live"; },
    // (two words: the tabs leave a phone's width little room)
    error: function () { $("live-status").textContent = "not live"; $("live-status").className = "live off"; }
  });
  measure();
  offer();
  // the document kept on this phone, unless the page (drawn by the server just now, or kept
  // by the service worker) knows of later events: the one to go on from offline
  try {
    var keptDoc = JSON.parse(localStorage.getItem(docKey) || "null");
    if (keptDoc && keptDoc.events >= Number(pad.dataset.events)) { apply(keptDoc); }
  } catch (e) { /* none kept */ }
  load();
})();
