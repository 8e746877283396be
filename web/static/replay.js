// bgledger serve: the committee's replay. The page works without this script
// (its links step through the match); the script steps with the keyboard
// (left/right arrows, Home/End, t toggles recorded/corrected) and swaps in the
// step drawn by the server, without reloading the page.
(function () {
  "use strict";
  var box = document.getElementById("replay");
  if (!box || !window.fetch) { return; }
  var match = encodeURIComponent(box.dataset.match);
  var last = parseInt(box.dataset.last, 10);
  var at = parseInt(box.dataset.at, 10);
  var view = box.dataset.view;
  var from = box.dataset.from || "a";
  var busy = false;
  var keys = document.getElementById("replay-keys");
  if (keys) { keys.hidden = false; }  // the keys work: say so
  function query(n, v) {
    return "?at=" + n + "&view=" + encodeURIComponent(v) + "&from=" + encodeURIComponent(from);
  }
  function go(n, v) {
    if (busy || n < 1 || n > last || (n === at && v === view)) { return; }
    busy = true;
    fetch("/matches/" + match + "/replay/step" + query(n, v))
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        box.innerHTML = html;
        at = n; view = v;
        box.dataset.at = String(n); box.dataset.view = v;
        history.replaceState(null, "", query(n, v));
        var jump = document.querySelector("form.jump input[name=at]");
        if (jump) { jump.value = String(n); }
        var pick = document.querySelector("form.jump select[name=view]");
        if (pick) { pick.value = v; }
        var stretch = document.querySelector("form.packet-form");
        if (stretch) {
          stretch.elements.from.value = String(Math.max(n - 2, 1));
          stretch.elements.to.value = String(n);
          stretch.elements.view.value = v;
        }
      })
      .catch(function () { window.location.search = query(n, v); })
      .then(function () { busy = false; });
  }
  box.addEventListener("click", function (e) {
    var link = e.target.closest("a[data-at]");
    if (!link || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    e.preventDefault();
    go(parseInt(link.dataset.at, 10), link.dataset.view);
  });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var other = view === "recorded" ? "corrected" : "recorded";
    var moves = { ArrowRight: [at + 1, view], ArrowLeft: [at - 1, view], Home: [1, view],
                  End: [last, view], t: [at, other], T: [at, other] };
    var move = moves[e.key];
    if (!move) { return; }
    e.preventDefault();
    go(move[0], move[1]);
  });
})();
