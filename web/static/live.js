// bgledger serve: follow a match live. The server streams each new event
// (server-sent events); the page refetches its live part, drawn by the server.
//
// bgledgerFollow(url, on): a live stream that is opened again after the server refused or
// closed it. The browser's EventSource reconnects a stream that dropped by itself, but not
// one the server refused (429: too many live streams, Retry-After), which it leaves CLOSED.
// Retry-After cannot be read from an EventSource: the stream is opened again after 5 s,
// then twice as long each time up to 30 s (each wait a quarter shorter or longer at random,
// so that the phones of a room refused together do not come back together), and from 5 s
// again once a stream opens. `url` is a function: the address to (re)open, resuming after
// the last event seen. `on`: {events: {name: listener}, open(), error()}.
var bgledgerFollow = function (url, on) {
  "use strict";
  var FIRST_MS = 5000, MOST_MS = 30000;
  var source = null, tries = 0, timer = null;
  function open() {
    timer = null;
    source = new EventSource(url());
    Object.keys(on.events || {}).forEach(function (name) {
      source.addEventListener(name, on.events[name]);
    });
    source.onopen = function () { tries = 0; if (on.open) { on.open(); } };
    source.onerror = function () {
      if (on.error) { on.error(); }
      if (source.readyState !== EventSource.CLOSED || timer !== null) { return; }
      var wait = Math.min(MOST_MS, FIRST_MS * Math.pow(2, tries));
      tries += 1;
      timer = setTimeout(open, wait * (0.75 + Math.random() * 0.5));
    };
  }
  // A page left for another may be kept whole by the browser (the back/forward cache), its
  // stream open: a few of them take every connection the browser allows one server (6 over
  // HTTP/1.1), and the next page's requests wait for ever. Closed as the page is left,
  // opened again if it is shown again.
  window.addEventListener("pagehide", function () {
    clearTimeout(timer);
    timer = null;
    if (source) { source.close(); }
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted && window.EventSource) { open(); } });
  if (window.EventSource) { open(); }
  return { source: function () { return source; } };
};

(function () {
  "use strict";
  var box = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!box || !box.dataset.match || !window.EventSource) { return; }  // (the pad follows by itself)
  var match = encodeURIComponent(box.dataset.match);
  var from = encodeURIComponent(box.dataset.from || "a");
  var since = box.dataset.events;
  var pending = null;
  function refresh() {
    pending = null;
    fetch("/matches/" + match + "/live?ids=1&from=" + from)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { box.innerHTML = html; })
      .catch(function () { if (status) { status.textContent = "reload the page"; } });
  }
  function said(text, kind) { if (status) { status.textContent = text; status.className = kind; } }
  bgledgerFollow(function () {
    return "/api/matches/" + match + "/events?since=" + encodeURIComponent(since);
  }, {
    events: {
      recorded: function (event) {
        if (event.lastEventId) { since = event.lastEventId; }
        if (pending === null) { pending = setTimeout(refresh, 30); }
      }
    },
    open: function () { said("live", "live"); },
    error: function () { said("reconnecting…", "live off"); }
  });
})();
