// bgledger serve: the director's form that starts a match. It posts the match as
// JSON to POST /api/matches with the director's token (kept in this device's
// storage, like the pad's) and shows the address of the new match's pad, with its
// scorekeeper's token after '#'. The server decides everything.
(function () {
  "use strict";
  var form = document.getElementById("new-form");
  if (!form) { return; }
  var $ = function (id) { return document.getElementById(id); };

  var say = bgledger.say;  // the token and what the server said: token.js

  // the fields as start's options: empty ones left out, numbers as numbers
  function setup() {
    var body = {};
    ["a", "b", "event", "round", "table", "id", "scorekeeper", "profile", "clock", "reserve"].forEach(
      function (name) {
        var value = $(name).value.trim();
        if (value) { body[name] = value; }
      });
    ["length", "delay"].forEach(function (name) {
      var value = $(name).value.trim();
      if (value) { body[name] = /^\d+$/.test(value) ? parseInt(value, 10) : value; }
    });
    if ($("new_event").checked) { body.new_event = true; }
    return body;
  }

  form.addEventListener("submit", function (submitted) {
    submitted.preventDefault();
    bgledger.keep();
    $("start").disabled = bgledger.send("/api/matches", setup(), function (status, body) {
      $("start").disabled = false;
      if (status !== 201) {
        bgledger.refused(status, body);
        // an event named like an existing one: the director may say it is another (ticked)
        if (body.confirm === "new_event") { $("new-event-box").hidden = false; }
        return;
      }
      say("refused", "");
      var match = body.match;
      var pad = body.pad_url || window.location.origin + body.pad;
      $("started-match").textContent = match.match_id;
      $("started-match").href = "/matches/" + encodeURIComponent(match.match_id);
      $("started-players").textContent = match.players.a + " v " + match.players.b;
      $("pad-link").textContent = pad;
      $("pad-link").href = pad;
      $("pad-copy").dataset.copy = pad;
      // the QR code the server drew (inline SVG: parsed as HTML, never run)
      var drawn = new DOMParser().parseFromString(body.pad_qr || "", "text/html").querySelector("svg");
      $("pad-qr").replaceChildren();
      if (drawn) { $("pad-qr").appendChild(document.importNode(drawn, true)); }
      $("started").hidden = false;
      form.hidden = true;
    }, function () { $("start").disabled = false; });
  });

  $("event").addEventListener("input", function () {  // another name: asked afresh
    $("new_event").checked = false;
    $("new-event-box").hidden = true;
  });

  $("another").addEventListener("click", function () {
    ["a", "b", "id", "scorekeeper"].forEach(function (name) { $(name).value = ""; });
    $("started").hidden = true;
    form.hidden = false;
  });
}());
