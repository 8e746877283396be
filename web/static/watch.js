// bgledger serve, a spectator's page of one match (and the embed): the match stream's each
// new event appends its line to the move list and refetches the page's live part (board,
// score, clocks, ids, rulings), drawn by the server once for every spectator, and once a
// minute besides. Read-only: it posts nothing.
(function () {
  "use strict";
  var box = document.getElementById("watch");
  var status = document.getElementById("live-status");
  if (!box || !window.EventSource) { return; }
  var part = document.getElementById("watch-live");
  var moves = document.getElementById("moves");
  var last = Number(box.dataset.events);
  var pending = null;
  function refresh() {
    pending = null;
    fetch(box.dataset.live, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { part.innerHTML = html; window.Spectator.tick(); })
      .catch(function (why) {
        if (why === 403 || why === 404) { location.reload(); return; }  // withdrawn: say so
        if (status) { status.textContent = "reload the page"; }
      });
  }
  function recorded(event) {
    var data = JSON.parse(event.data);
    if (moves && data.number > last) {
      var item = document.createElement("li"), pre = document.createElement("pre");
      pre.textContent = data.line;
      item.appendChild(pre);
      moves.appendChild(item);
      moves.scrollTop = moves.scrollHeight;  // the list scrolls, not the page
    }
    last = Math.max(last, data.number);
    box.dataset.events = last;
    if (pending === null) { pending = setTimeout(refresh, 30); }
  }
  // a quiet match still learns, within a minute, that its event was withdrawn (403: reload,
  // and the page says it is not public)
  setInterval(refresh, 60000);
  function said(text, kind) { if (status) { status.textContent = text; status.className = kind; } }
  bgledgerFollow(function () {  // follow.js: from the last event listed, without the notes
    // (a spectator's page, whoever reads it: the page was drawn without them too)
    return "/api/matches/" + encodeURIComponent(box.dataset.match) + "/events?notes=0&since=" + last;
  }, {
    events: { recorded: recorded },
    open: function () { said(status && status.dataset.words || "live", "live"); },
    error: function () { said("reconnecting…", "live off"); }
  });
})();
