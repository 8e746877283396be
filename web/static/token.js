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

  // One director's token for every page: the console once kept it per event
  // ("bgledger.director.token.EVENT"); such a token is moved to the one name.
  if (key === "bgledger.director.token") {
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var old = localStorage.key(i);
      if (old && old.indexOf(key + ".") === 0) {
        if (!localStorage.getItem(key) && localStorage.getItem(old)) { localStorage.setItem(key, localStorage.getItem(old)); }
        localStorage.removeItem(old);
      }
    }
  }

  var query = new URLSearchParams(window.location.search);
  var hash = new URLSearchParams(window.location.hash.slice(1));
  var given = hash.get("token") || query.get("token");
  var declined = false;   // a link's token the holder chose not to keep
  if (given) {
    // A link never replaces a kept token silently: where the page asks (the director's
    // pages: data-ask), the holder chooses; the link's token is kept only if he says so.
    var before = localStorage.getItem(key);
    if (!before || before === given || !box.dataset.ask || window.confirm(box.dataset.ask)) {
      localStorage.setItem(key, given);
    } else {
      declined = true;
    }
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
  // A token refused (401: none in force; 403: not for this) on a page whose holder runs no
  // command (the pad: data-renew) says what he does: ask the director for a new link.
  function refused(status, body) {
    var renew = box.dataset.renew;
    if (renew && status === 401) { say("refused", renew); return; }
    var head = body.reason || body.error || ("error " + status);
    if (renew && status === 403) { head += ". Ask the director for a new link if this phone should record it."; }
    say("refused", head, body.rule, body.next_step);
  }

  // A client key per write (Idempotency-Key): a send the server may have stored but whose
  // answer was lost is sent again with the same key, and the server records it once.
  var unanswered = null;   // {url, body, key} of the last send that got no answer
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  var LINES = /^\/api\/matches\/[^/]+\/lines$/;

  // POST body as JSON with the token and a client key; then done(status, answer) (answer {}
  // if not JSON). A line of a match goes through the offline queue (offline.js): kept on the
  // device, stamped with the moment it was made, sent in order; done(202, {queued: true,
  // error}) if it must wait for the network, and failed(that answer) is called instead. Anything else: no answer, tried again twice
  // with the same key, then the message that it may or may not be in, and the same body
  // sent again keeps its key (never recorded twice). Without a token: the box's wording, false.
  function send(url, body, done, failed) {
    if (!token()) { say("refused", box.dataset.missing); return false; }
    if (window.bgledgerQueue && LINES.test(url) && typeof body.line === "string") {
      window.bgledgerQueue.enqueue(url, body.line, token(), function (status, answer) {
        if (status === 202) { say("queued", answer.error); if (failed) { failed(answer); } return; }
        done(status, answer);
      });
      return true;
    }
    var text = JSON.stringify(body);
    var same = unanswered && unanswered.url === url && unanswered.body === text;
    var key = same ? unanswered.key : newKey();
    function attempt(left) {
      fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token(),
                   "Idempotency-Key": key },
        body: text
      }).then(function (r) {
        unanswered = null;
        return r.json().catch(function () { return {}; }).then(function (answer) { done(r.status, answer); });
      }).catch(function () {
        if (left > 0) { setTimeout(function () { attempt(left - 1); }, 1000); return; }
        unanswered = { url: url, body: text, key: key };
        say("refused", "The server did not answer: the line may or may not be recorded. " +
            "Send the same line again: it is never recorded twice.");
        if (failed) { failed(); }
      });
    }
    attempt(2);
    return true;
  }

  show();
  if (declined) { say("refused", "The link's token was not kept: this device keeps its own."); }
  return {
    token: token,
    keep: keep,
    say: say,
    refused: refused,
    send: send,
    onChange: function (then) { changed = then; }
  };
})();
