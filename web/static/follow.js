// bgledger serve: following a live stream (server-sent events), the one way every page does
// it (the match page, the pad, the wall and its standings, a spectator's match, the
// director's console).
//
// bgledgerFollow(url, on): a live stream that is opened again after the server refused or
// closed it. The browser's EventSource reconnects a stream that dropped by itself, but not
// one the server refused (429: too many live streams, Retry-After), which it leaves CLOSED.
// Retry-After cannot be read from an EventSource: the stream is opened again after 5 s,
// then twice as long each time up to 30 s (each wait a quarter shorter or longer at random,
// so that the phones of a room refused together do not come back together), and from 5 s
// again once a stream opens. `url` is a function: the address to (re)open, resuming after
// the last event seen. `on`: {events: {name: listener}, open(), error(wait)}: `wait` is the
// milliseconds until the stream is opened again, or null while the browser retries it.
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
      if (source.readyState !== EventSource.CLOSED || timer !== null) {
        if (on.error) { on.error(null); }
        return;
      }
      var wait = Math.min(MOST_MS, FIRST_MS * Math.pow(2, tries)) * (0.75 + Math.random() * 0.5);
      tries += 1;
      timer = setTimeout(open, wait);
      if (on.error) { on.error(wait); }
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
