// bgledger serve, the wall: one stream for the whole grid (a browser opens at most six
// connections to a server, so never one per board). Each `card` message is one changed
// match's figures: its card is updated in place, and its board image refetched only while
// the card is on the screen (else when it comes into view). `added`: a match started, the
// wall is drawn again; `withdrawn`: the event is no longer public, the page says so.
// With data-rotate, one board of data-spotlight is shown large, the next every S seconds;
// after the last, data-next (the next page of a large event) if there is one.
(function () {
  "use strict";
  var wall = document.getElementById("wall");
  var status = document.getElementById("live-status");
  if (!wall) { return; }
  function card(match) {
    var cards = wall.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) { if (cards[i].dataset.match === match) { return cards[i]; } }
    return null;
  }
  function text(box, css, value) { var e = box.querySelector(css); if (e) { e.textContent = value; } }

  // -- the boards' images: refetched while on the screen
  var seen = new Set();
  function board(box) {
    var img = box.querySelector("img.board");
    var src = "/matches/" + encodeURIComponent(box.dataset.match) + "/board/" + box.dataset.events + ".svg";
    if (img && img.getAttribute("src") !== src) { img.setAttribute("src", src); }
  }
  var watcher = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) { seen.add(entry.target); board(entry.target); } else { seen.delete(entry.target); }
    });
  }) : null;
  var all = wall.querySelectorAll(".card");
  for (var i = 0; i < all.length; i++) { if (watcher) { watcher.observe(all[i]); } else { seen.add(all[i]); } }

  function apply(data) {
    var box = card(data.match);
    if (!box || Number(box.dataset.events) > data.events) { return; }
    box.dataset.events = data.events;
    text(box, ".score-a", data.score[0]);
    text(box, ".score-b", data.score[1]);
    text(box, ".length", data.length + "-point match");
    text(box, ".turn", data.turn);
    text(box, ".cube", data.cube);
    text(box, ".last", data.last);
    var names = box.querySelectorAll(".name");
    for (var j = 0; j < names.length; j++) { names[j].classList.toggle("to-act", names[j].dataset.side === data.to_act); }
    box.classList.toggle("over", data.over);
    window.Spectator.setClock(box.querySelector(".clocks"), data.clock);
    if (seen.has(box)) { board(box); }
  }

  // -- the stream (follow.js), from the last event the wall drew
  var reload = null, since = wall.dataset.since;
  function said(text, kind) { if (status) { status.textContent = text; status.className = kind; } }
  bgledgerFollow(function () {
    return wall.dataset.stream + "?since=" + encodeURIComponent(since) +
      "&matches=" + encodeURIComponent(wall.dataset.matches);
  }, {
    events: {
      card: function (event) {
        if (event.lastEventId) { since = event.lastEventId; }
        apply(JSON.parse(event.data));
      },
      added: function () {
        if (reload === null) { reload = setTimeout(function () { location.reload(); }, 2000); }
      },
      withdrawn: function () { location.reload(); }
    },
    open: function () { said(status && status.dataset.words || "live", "live"); },
    error: function () { said("reconnecting…", "live off"); }
  });

  // -- the spotlight, in turn
  var seconds = Number(wall.dataset.rotate);
  var featured = wall.dataset.spotlight ? wall.dataset.spotlight.split(",") : [];
  var at = -1, waited = 0;
  function rotate() {
    // a round of the spotlight over: the next page of a large event, if there is one
    if (!featured.length) {  // nothing in play here: one interval, then the next page
      if (wall.dataset.next && waited++ > 0) { location.href = wall.dataset.next; }
      return;
    }
    if (wall.dataset.next && at === featured.length - 1) { location.href = wall.dataset.next; return; }
    at = (at + 1) % featured.length;
    var cards = wall.querySelectorAll(".card");
    for (var k = 0; k < cards.length; k++) {
      cards[k].classList.toggle("spotlight", cards[k].dataset.match === featured[at]);
    }
    wall.dataset.shown = featured[at];
  }
  if (seconds > 0) { rotate(); setInterval(rotate, seconds * 1000); }
})();
