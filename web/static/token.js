// bgledger serve: the bearer token a page writes with, and what the server said.
// Shared by the pad, the director's console and the new-match form; loaded
// before the page's own script. The box (templates/_token.html) names the key
// the token is kept under in this device's localStorage and the page's wording.
// The token is typed once, or comes as ?token= (or #token=, which never leaves
// the device) in the address, which is then taken out of it; it is never logged.
var bgledger = (function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var box = $("token-box");
  if (!box) { return null; }
  var key = box.dataset.key;
  var changed = function () {};

  var query = new URLSearchParams(window.location.search);
  var hash = new URLSearchParams(window.location.hash.slice(1));
  var given = hash.get("token") || query.get("token");
  if (given) {
    localStorage.setItem(key, given);
    query.delete("token");
    var rest = query.toString();
    history.replaceState(null, "", window.location.pathname + (rest ? "?" + rest : ""));
  }

  function token() { return localStorage.getItem(key) || ""; }
  function show() {
    $("token-state").textContent = token() ? "kept on this device" : box.dataset.none;
    box.className = token() ? "token kept" : "token";
    changed();
  }
  // the token typed in the box, if any, is kept
  function keep() {
    var value = $("token").value.trim();
    if (value) { localStorage.setItem(key, value); }
    $("token").value = "";
    show();
  }
  $("token-save").addEventListener("click", keep);
  $("token-forget").addEventListener("click", function () {
    localStorage.removeItem(key);
    show();
  });

  // what the server said: a head line, and the rule and the next step if any
  function say(kind, head, rule, next) {
    $("message").hidden = !head;
    $("message").className = "message " + kind;
    $("msg-head").textContent = head || "";
    $("msg-rule").hidden = !rule;
    $("msg-rule-text").textContent = rule || "";
    $("msg-next").hidden = !next;
    $("msg-next-text").textContent = next || "";
  }
  function refused(status, body) {
    say("refused", body.reason || body.error || ("error " + status), body.rule, body.next_step);
  }

  // POST body as JSON with the token; then done(status, answer) (answer {} if not JSON),
  // or the message that nothing was recorded. Without a token: the box's wording, false.
  function send(url, body, done, failed) {
    if (!token()) { say("refused", box.dataset.missing); return false; }
    fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token() },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (answer) { done(r.status, answer); });
    }).catch(function () {
      say("refused", "The server did not answer: nothing was recorded. Try again.");
      if (failed) { failed(); }
    });
    return true;
  }

  show();
  return {
    token: token,
    keep: keep,
    say: say,
    refused: refused,
    send: send,
    onChange: function (then) { changed = then; }
  };
})();
