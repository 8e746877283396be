// bgledger serve: offline, never lost, never twice. Loaded before token.js, whose send()
// hands it every line a page records (POST /api/matches/M/lines).
//
// Each line becomes a command kept in this device's IndexedDB before it is sent: its own
// Idempotency-Key, and the moment it was made in the server's time ("@TIME line", from the
// offset to the server's clock measured when the page loads and again on reconnecting,
// GET /api/now; never before the last moment this device stamped). Commands are
// sent one at a time, in the order they were made; one that gets no answer stays, and is
// sent again (same key: the server records it once) when the network returns, also after
// a reload or a restart of the phone. A refusal of a command that had waited stops the
// queue and says what to do. The page registers the service worker (/sw.js) that keeps it
// loadable without the network, and keeps the screen on while it is a pad (Wake Lock).
var bgledgerQueue = (function () {
  "use strict";
  var STORE = "commands";
  var OFFSET = "bgledger.server.offset";
  var LAST = "bgledger.server.last";  // the latest moment this device stamped a command at
  var RETRY_MS = 2000;
  var offset = Number(localStorage.getItem(OFFSET)) || 0;  // the server's clock minus ours
  var db = null, opening = [];
  var sending = false, again = false, stopped = null, timer = null;
  var callbacks = {};   // key -> done(status, answer) of a command made on this page
  var listeners = [];   // onChange(state)
  var state = { waiting: 0, entries: [], stopped: null, offline: false };

  // -- the server's clock: the offset measured once the page loads (kept for an offline reload)
  function measure() {
    var sent = Date.now();
    return fetch("/api/now", { cache: "no-store" }).then(function (r) { return r.json(); })
      .then(function (answer) {
        var back = Date.now();
        offset = Math.round(answer.now_ms - (sent + back) / 2);
        localStorage.setItem(OFFSET, String(offset));
      }).catch(function () {});
  }
  function serverNow() { return Date.now() + offset; }
  // A command's moment: the server's time, never before the last one this device stamped.
  // The ledger refuses a time before the token's last contact (issue 32): a phone whose
  // clock steps back while offline would otherwise block its queue. Re-measured on reconnect.
  function stampNow() {
    var last = Number(localStorage.getItem(LAST)) || 0;
    var now = Math.max(serverNow(), last + 1);
    localStorage.setItem(LAST, String(now));
    return now;
  }

  // -- IndexedDB: one store of commands, in the order they were made (seq)
  function withDb(then) {
    if (db) { then(db); return; }
    opening.push(then);
    if (opening.length > 1) { return; }
    var request = indexedDB.open("bgledger", 1);
    request.onupgradeneeded = function () {
      request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
    };
    request.onsuccess = function () {
      db = request.result;
      var waiting = opening; opening = [];
      waiting.forEach(function (f) { f(db); });
    };
    request.onerror = function () { opening = []; };
  }
  function store(mode, work, done) {
    withDb(function (d) {
      var tx = d.transaction(STORE, mode);
      var result = work(tx.objectStore(STORE));
      tx.oncomplete = function () { if (done) { done(result && result.result); } };
    });
  }
  function all(then) { store("readonly", function (s) { return s.getAll(); }, then); }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // -- a command: kept first, then sent in its turn. done(status, answer) once: the server's
  // answer, or 202 {queued: true, error: why it waits} when it is kept for later.
  function enqueue(url, line, token, done) {
    var made = new Date(stampNow()).toISOString();
    var timed = line.charAt(0) === "@" ? line : "@" + made + " " + line;
    var entry = { url: url, line: line, body: JSON.stringify({ line: timed }), key: newKey(),
                  token: token, made: made, tries: 0 };
    store("readwrite", function (s) { return s.add(entry); }, function () {
      callbacks[entry.key] = done;
      all(function (entries) {
        entries = entries || [];
        if (state.offline || stopped || entries.length > 1) {
          // others wait ahead of it, or the network is down: it is kept, and said so at once
          answer(entry, 202, { queued: true, error: keptText(entries.length) });
          publish(entries);
        }
        pump();
      });
    });
  }
  function keptText(n) {
    return "Kept on this phone: " + waitingText(n) + (stopped ? ", behind the one refused."
      : state.offline ? ", sent when the network returns." : ", sent in order.");
  }

  function answer(entry, status, body) {
    var done = callbacks[entry.key];
    delete callbacks[entry.key];
    if (done) { done(status, body); }
  }

  function pump() {
    if (sending) { again = true; return; }  // once this round is over
    if (stopped) { return; }
    sending = true;
    again = false;
    all(function (entries) {
      entries = entries || [];
      if (!entries.length) {
        sending = false;
        state.offline = false;
        publish(entries);
        if (again) { pump(); }  // a command kept while the queue was read
        return;
      }
      var entry = entries[0];
      publish(entries);
      fetch(entry.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + entry.token,
                   "Idempotency-Key": entry.key },
        body: entry.body
      }).then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) {
          if (r.status >= 500 || r.status === 408 || r.status === 429) { throw new Error("later"); }
          received(entries, entry, r.status, body);
        });
      }).catch(function () {
        sending = false;
        state.offline = true;
        entry.tries += 1;
        store("readwrite", function (s) { return s.put(entry); });
        answer(entry, 202, { queued: true, error: keptText(entries.length) });
        publish(entries);
        later();
      });
    });
  }

  function received(entries, entry, status, body) {
    if (state.offline) { measure(); }  // back from offline: this device's clock may have stepped
    state.offline = false;
    var replay = entry.tries > 0 || entries.length > 1 || !callbacks[entry.key];
    if (status === 201 || !replay) {  // recorded (or a refusal said at once, as ever)
      store("readwrite", function (s) { return s.delete(entry.seq); }, function () {
        sending = false;
        state.entries = state.entries.filter(function (e) { return e.seq !== entry.seq; });
        state.waiting = state.entries.length;
        answer(entry, status, body);
        listeners.forEach(function (f) { f(state, entry, status, body); });
        pump();
      });
      return;
    }
    sending = false;   // a refusal of a command that waited: stop, and say what to do
    stopped = { entry: entry, status: status, body: body };
    answer(entry, status, body);
    publish(entries);
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(pump, RETRY_MS);
  }

  function waitingText(n) { return n + (n === 1 ? " entry" : " entries") + " waiting"; }

  // -- what the queue says, in the page's element #queue (templates/_token.html)
  function publish(entries) {
    // kept: answered "kept" (202), or made before this page was loaded; not one being sent
    // for a page that waits on its answer
    entries.forEach(function (e) { e.kept = !callbacks[e.key]; });
    state.entries = entries;
    state.waiting = entries.length;
    state.stopped = stopped;
    var box = document.getElementById("queue");
    if (box) { draw(box, entries); }
    listeners.forEach(function (f) { f(state); });
  }
  function clock(iso) { return new Date(Date.parse(iso) - offset).toLocaleTimeString(); }
  function draw(box, entries) {
    box.replaceChildren();
    box.hidden = !entries.length;
    box.className = "queue" + (stopped ? " stopped" : "");
    if (!entries.length) { return; }
    var head = document.createElement("p");
    head.className = "queue-head";
    if (!stopped) {
      head.textContent = waitingText(entries.length) + ", kept on this phone" +
        (state.offline ? ": sent in order when the network returns." : ": sending…");
      box.appendChild(head);
      return;
    }
    var body = stopped.body || {};
    var why = body.reason || body.error || ("error " + stopped.status);
    head.textContent = "“" + stopped.entry.line + "” (made at " + clock(stopped.entry.made) +
      ") was refused when it was sent: " + why;
    box.appendChild(head);
    var todo = document.createElement("p");
    var rest = entries.length - 1;
    todo.textContent = (stopped.status === 401 || stopped.status === 403
      ? "Ask the director for a new link to this pad, open it, then send it again. "
      : "Check the board against the match; drop this entry, or send it again once it fits. ") +
      (rest ? rest + " more wait behind it, in order." : "Nothing else waits.");
    box.appendChild(todo);
    var row = document.createElement("p");
    row.className = "queue-actions";
    [["queue-drop", "Drop this entry, send the rest", drop],
     ["queue-retry", "Send it again", retry]].forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button"; button.id = b[0]; button.className = "small"; button.textContent = b[1];
      button.addEventListener("click", b[2]);
      row.appendChild(button);
    });
    box.appendChild(row);
  }
  function drop() {
    if (!stopped) { return; }
    var seq = stopped.entry.seq;
    store("readwrite", function (s) { return s.delete(seq); }, function () { stopped = null; pump(); });
  }
  function retry() {
    if (!stopped) { return; }
    var entry = stopped.entry, token = window.bgledger && window.bgledger.token && window.bgledger.token();
    if (token) { entry.token = token; }  // a token kept since, for a 401 or 403
    store("readwrite", function (s) { return s.put(entry); }, function () { stopped = null; pump(); });
  }

  // -- the page kept loadable offline, and the screen on while the pad is open
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
  var lock = null;
  function awake() {
    if (!document.getElementById("pad") || !("wakeLock" in navigator) || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", awake);
  awake();

  window.addEventListener("online", function () { state.offline = false; measure().then(pump); });
  measure().then(pump);
  pump();

  return {
    enqueue: enqueue,
    serverNow: serverNow,
    pump: pump,
    state: function () { return state; },
    onChange: function (f) { listeners.push(f); },
    wakeLock: function () { return lock; }
  };
})();
