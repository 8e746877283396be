// bgledger serve: the director's form that starts a match. It posts the match as
// JSON to POST /api/matches with the director's token (kept in this device's
// storage, like the pad's) and shows the address of the new match's pad, with its
// scorekeeper's token after '#'. The server decides everything.
(function () {
  "use strict";
  var form = document.getElementById("new-form");
  if (!form) { return; }
  var key = "bgledger.director.token";
  var $ = function (id) { return document.getElementById(id); };

  function token() { return localStorage.getItem(key) || ""; }
  function showToken() {
    $("token-state").textContent = token() ? "kept on this device" : "none: paste it to start matches";
    $("token-box").className = token() ? "token kept" : "token";
  }
  $("token-save").addEventListener("click", function () {
    var value = $("token").value.trim();
    if (value) { localStorage.setItem(key, value); }
    $("token").value = "";
    showToken();
  });
  $("token-forget").addEventListener("click", function () {
    localStorage.removeItem(key);
    showToken();
  });

  function say(head, rule) {
    $("message").hidden = !head;
    $("message").className = "message refused";
    $("msg-head").textContent = head || "";
    $("msg-rule").hidden = !rule;
    $("msg-rule-text").textContent = rule || "";
  }

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
    return body;
  }

  form.addEventListener("submit", function (submitted) {
    submitted.preventDefault();
    var typed = $("token").value.trim();
    if (typed) { localStorage.setItem(key, typed); $("token").value = ""; showToken(); }
    if (!token()) { say("paste the director's token first (bgledger token --event E --role director)"); return; }
    $("start").disabled = true;
    fetch("/api/matches", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token() },
      body: JSON.stringify(setup())
    }).then(function (answer) {
      return answer.json().then(function (body) { return { status: answer.status, body: body }; });
    }).then(function (done) {
      $("start").disabled = false;
      if (done.status !== 201) {
        say(done.body.reason || done.body.error || ("HTTP " + done.status), done.body.rule);
        return;
      }
      say("");
      var match = done.body.match;
      var pad = window.location.origin + done.body.pad;
      $("started-match").textContent = match.match_id;
      $("started-match").href = "/matches/" + encodeURIComponent(match.match_id);
      $("started-players").textContent = match.players.a + " v " + match.players.b;
      $("pad-link").textContent = pad;
      $("pad-link").href = pad;
      $("started").hidden = false;
      form.hidden = true;
    }).catch(function (error) {
      $("start").disabled = false;
      say("the server did not answer: " + error);
    });
  });

  $("another").addEventListener("click", function () {
    ["a", "b", "id", "scorekeeper"].forEach(function (name) { $(name).value = ""; });
    $("started").hidden = true;
    form.hidden = false;
  });

  showToken();
}());
