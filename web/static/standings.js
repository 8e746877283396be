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
  if (window.EventSource) {
    var source = new EventSource(page.dataset.stream + "?since=" + encodeURIComponent(page.dataset.since));
    source.addEventListener("card", function () { if (pending === null) { pending = setTimeout(refresh, 1000); } });
    source.addEventListener("added", function () { if (pending === null) { pending = setTimeout(refresh, 1000); } });
    source.addEventListener("withdrawn", function () { source.close(); location.reload(); });
    source.onopen = function () { if (status) { status.textContent = "live"; status.className = "live"; } };
    source.onerror = function () { if (status) { status.textContent = "reconnecting…"; status.className = "live off"; } };
  }
  var seconds = Number(page.dataset.rotate);
  if (seconds > 0 && page.dataset.next) { setTimeout(function () { location.href = page.dataset.next; }, 2 * seconds * 1000); }
})();
