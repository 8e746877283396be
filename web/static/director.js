// bgledger serve: the director's console. The server streams which matches of
// the event have new events (server-sent events); the console refetches its
// live part, drawn by the server. The desk of one match lists its history; an
// event picked there asks the server which rulings are open at it
// (GET /api/matches/M/rulings?event=N). A ruling, a late arrival or penalty
// points is one line of the record language posted to
// POST /api/matches/M/lines with the director's token; the server decides.
(function () {
  "use strict";
  var root = document.getElementById("director");
  if (!root) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var total = root.dataset.total;
  var desk = null;      // the match whose desk is open
  var picked;          // the event picked in its history (null: the whole match; none yet)
  var choices = [];     // the open rulings listed
  var busy = false;
  var pending = null, ticking = null;

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
        refresh();
        if (desk === match) { refreshDesk(); }
      } else {
        bgledger.refused(status, body);
      }
    }, function () { busy = false; });
  }

  // -- the live part: every match, the standings, the rulings log
  function refresh() {
    pending = null;
    fetch(root.dataset.live)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        $("console").innerHTML = html;
        var mark = document.querySelector("#console .as-of");
        if (mark && mark.dataset.running === "1" && ticking === null) {
          ticking = setTimeout(function () { ticking = null; refresh(); }, 1000);  // the clocks
        }
      })
      .catch(function () { $("live-status").textContent = "reload the page"; });
  }
  if (window.EventSource) {
    var source = new EventSource(root.dataset.stream + "?since=" + encodeURIComponent(total));
    source.addEventListener("changed", function (event) {
      var data = JSON.parse(event.data);
      if (pending === null) { pending = setTimeout(refresh, 30); }
      if (desk !== null && data.matches.indexOf(desk) >= 0) { refreshDesk(); }
    });
    source.onopen = function () { $("live-status").textContent = "live"; $("live-status").className = "live"; };
    source.onerror = function () { $("live-status").textContent = "reconnecting…"; $("live-status").className = "live off"; };
  }
  var first = document.querySelector("#console .as-of");
  if (first && first.dataset.running === "1") { ticking = setTimeout(function () { ticking = null; refresh(); }, 1000); }

  // -- the desk of one match
  function openDesk(match) {
    fetch("/matches/" + encodeURIComponent(match) + "/desk")
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        desk = match; picked = undefined; choices = [];
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
  function offer() {
    $("ruling-send").disabled = !choice() || !$("ruling-reason").value.trim();
  }

  // a desk asked for in the address (/matches/M/desk sends the browser here with ?desk=M)
  var asked = new URLSearchParams(window.location.search).get("desk");
  if (asked) { openDesk(asked); }

  // -- the clicks and forms, on the console and on whichever desk is open
  document.addEventListener("click", function (event) {
    var open = event.target.closest(".open-desk");
    if (open) { openDesk(open.dataset.match); return; }
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
