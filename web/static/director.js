// bgledger serve: the director's console. Drawn once by the server (the tables needing the
// director first); then the live stream (server-sent events) brings, per line recorded
// anywhere, only what changed: the table's row or card, drawn by the server and put in place
// of the old one, the rulings-log and standings rows. The clocks count down here from the
// server's figures. A table's full card (its last entries) is fetched on demand. The desk of
// one match lists its history; an event picked there asks the server which rulings are open
// at it (GET /api/matches/M/rulings?event=N). A ruling, a late arrival or penalty points is
// one line of the record language posted to POST /api/matches/M/lines with the director's
// token; the server decides.
(function () {
  "use strict";
  var root = document.getElementById("director");
  if (!root) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var desk = null;      // the match whose desk is open
  var picked;          // the event picked in its history (null: the whole match; none yet)
  var choices = [];     // the open rulings listed
  var busy = false;
  var carded = null;    // the match whose full card is open
  var matches = $("matches");
  var position = matches ? matches.dataset.position : "";
  // the server's clock: the figures count from its moments, this device's clock corrected
  var skew = matches ? Number(matches.dataset.now) - Date.now() : 0;
  function serverNow() { return Date.now() + skew; }

  // -- the token and what the server said: token.js
  var say = bgledger.say;

  function post(match, line, done) {
    if (busy) { return; }
    var url = "/api/matches/" + encodeURIComponent(match) + "/lines";
    busy = bgledger.send(url, { line: line }, function (status, body) {
      busy = false;
      if (status === 201) {
        var said = body.recorded.map(function (e) { return "#" + e.number + " " + e.text; }).join(" · ");
        say("recorded", match + ": " + (body.replayed ? "already recorded (sent again): " : "") + said);
        if (done) { done(); }
        if (desk === match) { refreshDesk(); }  // the table itself comes on the stream
      } else {
        bgledger.refused(status, body);
      }
    }, function () { busy = false; });
  }

  // -- the live part: drawn once; then each change replaces the one table, ruling or standing
  function node(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    return holder.content.firstElementChild;
  }
  function key(el) { return [Number(el.dataset.rank), Number(el.dataset.order)]; }
  function before(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }
  function place(list, el) {  // in the order: the tables needing the director first
    var mine = key(el), child = list.firstElementChild;
    while (child && (child === el || !before(mine, key(child)))) { child = child.nextElementSibling; }
    if (el.nextElementSibling !== child || el.parentNode !== list) { list.insertBefore(el, child); }
  }
  function counts() {  // the tables of each kind: #items' own children (a card's list of
    var items = $("items");  // needs is a .needs too, inside it: never counted)
    if (!items) { return; }
    var spans = document.querySelectorAll("#matches .count");
    for (var i = 0; i < spans.length; i++) {
      spans[i].textContent = items.querySelectorAll(":scope > ." + spans[i].dataset.count).length;
    }
    $("match-count").textContent = items.children.length;
  }
  function table(change) {
    var items = $("items");
    if (!items) { return; }
    var old = $("m-" + change.id);
    if (old && Number(old.dataset.events) >= change.events) { return; }  // not newer than shown
    var fresh = node(matches.dataset.mode === "rows" ? change.row : change.card);
    if (old && old.classList.contains("open")) { fresh.classList.add("open"); }
    if (old) { old.replaceWith(fresh); }
    place(items, fresh);
    if (carded === change.id) { openCard(change.id, true); }
    if (desk === change.id) { refreshDesk(); }
  }
  function row(change, body, ordered) {
    var old = $(change.id), fresh = node(change.html);
    if (old) { old.replaceWith(fresh); return; }
    var none = body.closest("section").querySelector(".none");
    if (none) { none.remove(); }
    var child = body.firstElementChild;
    while (ordered && child && child.dataset.order < fresh.dataset.order) { child = child.nextElementSibling; }
    body.insertBefore(fresh, ordered ? child : null);
  }
  function apply(data) {
    position = String(data.position);
    skew = data.now - Date.now();
    data.tables.forEach(table);
    data.rulings.forEach(function (change) { row(change, $("rulings-rows"), false); });
    if ($("standings-rows")) {  // a large event's: once shown
      data.standings.forEach(function (change) { row(change, $("standings-rows"), true); });
    }
    if ($("ruling-count")) { $("ruling-count").textContent = $("rulings-rows").children.length; }
    counts();
  }
  function reload() {  // the whole live part again: after a long time away
    fetch(root.dataset.live)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var filter = matches ? matches.dataset.filter : "all";
        $("console").innerHTML = html;
        matches = $("matches");
        position = matches.dataset.position;
        skew = Number(matches.dataset.now) - Date.now();
        filterBy(filter);
      })
      .catch(function () { $("live-status").textContent = "reload the page"; });
  }

  // -- the stream (follow.js: opened again after a refusal, closed as the page is left), from
  // the last position the console drew
  function status(text, on) { $("live-status").textContent = text; $("live-status").className = on ? "live" : "live off"; }
  bgledgerFollow(function () {
    return root.dataset.stream + "?since=" + encodeURIComponent(position);
  }, {
    events: {
      changes: function (event) { apply(JSON.parse(event.data)); },
      reload: function () { reload(); }
    },
    open: function () { status("live", true); },
    error: function (wait) {
      status(wait === null ? "reconnecting…" : "reconnecting in " + Math.ceil(wait / 1000) + " s…", false);
    }
  });

  // -- the clocks and the needs that come with time, from the server's figures
  function minutes(millis) {
    var s = Math.floor(Math.max(0, millis) / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = ("0" + (s % 60)).slice(-2);
    return h ? h + ":" + ("0" + m).slice(-2) + ":" + sec : m + ":" + sec;
  }
  function tick() {
    var now = serverNow(), i;
    var running = document.querySelectorAll("#console .ticking");
    for (i = 0; i < running.length; i++) {
      var b = running[i];
      var left = Number(b.dataset.ms) - Math.max(0, now - Number(b.dataset.from));
      var text = minutes(left);
      if (b.textContent !== text) { b.textContent = text; }
    }
    var due = document.querySelectorAll("#console .need[data-from]");
    for (i = 0; i < due.length; i++) {
      if (Number(due[i].dataset.from) > now) { continue; }
      var need = due[i], item = need.closest("[data-rank]");
      need.hidden = false;
      need.removeAttribute("data-from");
      if (!item) { continue; }
      var rank = Math.min(Number(item.dataset.rank), Number(need.dataset.rank));
      item.dataset.rank = String(rank);
      item.classList.add("needs");
      need.classList.forEach(function (c) { if (c !== "need") { item.classList.add(c); } });
      if (item.parentNode && item.parentNode.id === "items") { place(item.parentNode, item); }
      counts();
    }
  }
  setInterval(tick, 1000);
  tick();

  // -- the filter: every table, those needing the director, under way, finished
  function filterBy(which) {
    if (!matches) { return; }
    matches.dataset.filter = which;
    var buttons = matches.querySelectorAll(".filter");
    for (var i = 0; i < buttons.length; i++) {
      var on = buttons[i].dataset.filter === which;
      buttons[i].classList.toggle("on", on);
      buttons[i].setAttribute("aria-pressed", String(on));
    }
  }

  // -- a large event's standings, on demand (then kept live as the rest)
  function showStandings(url) {
    fetch(url)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { $("standings-later").outerHTML = html; })
      .catch(function (status) { say("refused", "The standings did not load (" + status + ")."); });
  }

  // -- a table's full card, on demand: its card and its last entries
  function openCard(match, again) {
    var url = root.dataset.live.replace(/\/live$/, "/cards/") + encodeURIComponent(match);
    fetch(url)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (again && carded !== match) { return; }
        var view = $("card-view");
        var shut = '<p class="card-close"><button type="button" id="card-close">close</button></p>';
        view.innerHTML = shut + html;
        view.hidden = false;
        var open = document.querySelectorAll("#items .open");
        for (var i = 0; i < open.length; i++) { open[i].classList.remove("open"); }
        if ($("m-" + match)) { $("m-" + match).classList.add("open"); }
        carded = match;
        if (!again) { view.scrollIntoView({ block: "nearest" }); }
      })
      .catch(function (status) { say("refused", "The card of " + match + " did not load (" + status + ")."); });
  }
  function closeCard() {
    carded = null;
    $("card-view").hidden = true;
    $("card-view").textContent = "";
    var open = document.querySelectorAll("#items .open");
    for (var i = 0; i < open.length; i++) { open[i].classList.remove("open"); }
  }

  // -- the desk of one match
  function openDesk(match) {
    fetch("/matches/" + encodeURIComponent(match) + "/desk")
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        desk = match; picked = undefined; choices = [];
        if (window.innerWidth < 1000 && carded !== null) { closeCard(); }  // the sheet over it
        $("desk").innerHTML = html;
        $("desk").className = "desk open";
        $("desk").scrollIntoView({ block: "start" });
      })
      .catch(function (status) { say("refused", "The desk of " + match + " did not load (" + status + ")."); });
  }
  function refreshDesk() {
    if (desk === null) { return; }
    var match = desk;
    fetch("/matches/" + encodeURIComponent(match) + "/desk/history")
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (desk !== match) { return; }
        $("desk-history").innerHTML = html;
        markPicked();
        if (picked !== undefined) { pick(picked, true); }  // the windows move with the match
      });
  }
  function markPicked() {
    var entries = document.querySelectorAll("#desk-history .entry");
    for (var i = 0; i < entries.length; i++) {
      var on = Number(entries[i].dataset.number) === picked;
      entries[i].classList.toggle("picked", on);
      entries[i].setAttribute("aria-pressed", String(on));
    }
  }

  // -- the picker: the rulings whose windows are open at the event picked
  function pick(number, again) {
    var match = desk;
    picked = number;
    markPicked();
    var url = "/api/matches/" + encodeURIComponent(match) + "/rulings?event=" + number;
    fetch(url).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) { return [r.status, body]; });
    }).then(function (answer) {
      if (desk !== match || picked !== number) { return; }
      var status = answer[0], body = answer[1];
      if (status !== 200) {
        say("refused", (body && body.error) || ("the rulings: error " + status));
        return;
      }
      list(body, again);
    });
  }
  function item(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function list(body, again) {
    var chosen = again ? document.querySelector("#open-rulings input:checked") : null;
    var before = chosen ? chosen.value : null;
    $("picked").textContent = "event " + picked;
    var open = $("open-rulings"), closed = $("closed-rulings");
    open.textContent = ""; closed.textContent = "";
    choices = body.open || [];
    if (!choices.length) { open.appendChild(item("li", "none", "no ruling is open at " + $("picked").textContent)); }
    choices.forEach(function (ruling, i) {
      var li = item("li", "open-ruling");
      var label = item("label");
      var radio = item("input");
      radio.type = "radio"; radio.name = "ruling"; radio.value = String(i);
      radio.checked = before === String(i);
      label.appendChild(radio);
      label.appendChild(item("strong", "verb", " " + ruling.verb));
      label.appendChild(item("span", "rule", " " + (ruling.rule || "")));
      label.appendChild(item("span", "effect", ": " + (ruling.effect || "")));
      label.appendChild(item("span", "ruled-by", " · " + ruling.ruled_by + (ruling.agreed ? ", the players agreeing" : "")));
      li.appendChild(label);
      if (ruling.rule_text && ruling.rule_text.length) {
        var quote = item("blockquote", "rule-text");
        ruling.rule_text.forEach(function (words) { quote.appendChild(item("p", "", "“" + words + "”")); });
        quote.appendChild(item("footer", "", ruling.rule));
        li.appendChild(quote);
      }
      open.appendChild(li);
    });
    (body.closed || []).forEach(function (ruling) {
      var li = item("li", "closed-ruling");
      li.appendChild(item("strong", "verb", ruling.verb));
      li.appendChild(item("span", "rule", " " + (ruling.rule || "")));
      li.appendChild(item("span", "why", ": " + (ruling.effect || ruling.reason || "closed")));
      closed.appendChild(li);
    });
    offer();
  }
  function choice() {
    var chosen = document.querySelector("#open-rulings input:checked");
    return chosen ? choices[Number(chosen.value)] : null;
  }
  function offer() {  // the Rule button, and what it waits for said next to it
    var wanting = picked === undefined ? "pick an event in the history first"
      : !choices.length ? "no ruling is open at this event"
      : !choice() ? "choose a ruling first"
      : !$("ruling-reason").value.trim() ? "give the reason" : "";
    $("ruling-send").disabled = wanting !== "";
    $("ruling-wants").textContent = wanting;
  }

  // a desk asked for in the address (/matches/M/desk sends the browser here with ?desk=M)
  var asked = new URLSearchParams(window.location.search).get("desk");
  if (asked) { openDesk(asked); }

  // -- the clicks and forms, on the console and on whichever desk is open
  document.addEventListener("click", function (event) {
    var open = event.target.closest(".open-desk");
    if (open) { openDesk(open.dataset.match); return; }
    var filter = event.target.closest("#matches .filter");
    if (filter) { filterBy(filter.dataset.filter); return; }
    if (event.target.closest("#card-close")) { closeCard(); return; }
    var standings = event.target.closest("#show-standings");
    if (standings) { showStandings(standings.dataset.url); return; }
    var more = event.target.closest(".open-card");
    if (more) { openCard(more.dataset.match); return; }
    var chosen = event.target.closest("#items .table-row");
    if (chosen && !event.target.closest("a, button")) { openCard(chosen.dataset.match); return; }
    if (desk === null) { return; }
    var entry = event.target.closest("#desk-history .entry");
    if (entry) { pick(Number(entry.dataset.number)); return; }
    if (event.target.closest("#desk-close")) {
      desk = null; picked = undefined;
      $("desk").className = "desk";
      $("desk").innerHTML = "<h2>Desk</h2>";
      return;
    }
    var button = event.target.closest("#desk button[data-line]");
    if (button) { post(desk, button.dataset.line); }
  });
  document.addEventListener("keydown", function (event) {
    var chosen = event.target.closest && event.target.closest("#items .table-row");
    if (chosen && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); openCard(chosen.dataset.match); }
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest("#ruling-form, #open-rulings")) { offer(); }
  });
  document.addEventListener("input", function (event) {
    if (event.target.closest("#ruling-form")) { offer(); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "ruling-form") {
      event.preventDefault();
      var ruling = choice(), reason = $("ruling-reason").value.trim();
      if (!ruling || !reason) { say("refused", "Pick an open ruling and give its reason."); return; }
      post(desk, ruling.line + " --reason " + reason, function () { $("ruling-reason").value = ""; });
    } else if (form.id === "match-wide-form") {
      event.preventDefault();
      var value = $("match-wide-value").value.trim(), because = $("match-wide-reason").value.trim();
      if (!value || !because) { say("refused", "Give the value as the sheets have it and the reason."); return; }
      post(desk, $("match-wide-verb").value + " " + value + " --reason " + because,
        function () { $("match-wide-value").value = ""; $("match-wide-reason").value = ""; });
    } else if (form.id === "penalty-form") {
      event.preventDefault();
      var points = $("penalty-points").value.trim(), why = $("penalty-reason").value.trim();
      if (!points || !why) { say("refused", "Penalty points: give the points and the reason."); return; }
      post(desk, "penalty " + $("penalty-player").value + " " + points + ' "' + $("penalty-rule").value + '" ' + why,
        function () { $("penalty-reason").value = ""; });
    }
  });
})();
