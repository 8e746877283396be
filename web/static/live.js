// bgledger serve: follow a match live. The server streams each new event
// (server-sent events, follow.js); the page refetches its live part, drawn by the server.
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
