// bgledger serve, the wall's standings page: it follows the wall's one stream of the event and,
// when a card says a match moved, fetches the standings' table again (a second later, once for
// a burst of moves): the server works them out from the same rows as the wall's boards. With
// data-rotate (the wall's rotation), back to the boards after two turns.
(function () {
  "use strict";
  var page = document.getElementById("standings");
  var status = document.getElementById("live-status");
  if (!page) { return; }
  var pending = null;
  function refresh() {
    pending = null;
    fetch(page.dataset.part, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      if (!answer.ok) { throw new Error(answer.status); }
      return answer.text();
    }).then(function (html) {
      var table = page.querySelector("table.standings, p.none");
      var box = document.createElement("div");
      box.innerHTML = html;
      if (table) { table.replaceWith.apply(table, Array.prototype.slice.call(box.childNodes)); }
    }).catch(function () { if (status) { status.textContent = "reconnecting…"; status.className = "live off"; } });
  }
  function later() { if (pending === null) { pending = setTimeout(refresh, 1000); } }
  function said(text, kind) { if (status) { status.textContent = text; status.className = kind; } }
  var since = page.dataset.since;
  bgledgerFollow(function () {  // follow.js
    return page.dataset.stream + "?since=" + encodeURIComponent(since);
  }, {
    events: {
      card: function (event) { if (event.lastEventId) { since = event.lastEventId; } later(); },
      added: function (event) { if (event.lastEventId) { since = event.lastEventId; } later(); },
      withdrawn: function () { location.reload(); }
    },
    open: function () { said("live", "live"); },
    error: function () { said("reconnecting…", "live off"); }
  });
  var seconds = Number(page.dataset.rotate);
  if (seconds > 0 && page.dataset.next) { setTimeout(function () { location.href = page.dataset.next; }, 2 * seconds * 1000); }
})();
