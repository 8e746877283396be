// bgledger serve: follow a match live. The server streams each new event
// (server-sent events); the page refetches its live part, drawn by the server.
(function () {
  "use strict";
  var box = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!box || !window.EventSource) { return; }
  var match = encodeURIComponent(box.dataset.match);
  var from = encodeURIComponent(box.dataset.from || "a");
  var url = "/api/matches/" + match + "/events?since=" + encodeURIComponent(box.dataset.events);
  var source = new EventSource(url);
  var pending = null;
  function refresh() {
    pending = null;
    fetch("/matches/" + match + "/live?ids=1&from=" + from)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { box.innerHTML = html; })
      .catch(function () { if (status) { status.textContent = "reload the page"; } });
  }
  source.addEventListener("recorded", function () {
    if (pending === null) { pending = setTimeout(refresh, 30); }
  });
  source.onopen = function () { if (status) { status.textContent = "live"; status.className = "live"; } };
  source.onerror = function () { if (status) { status.textContent = "reconnecting…"; status.className = "live off"; } };
})();
