// bgledger serve: the director's switch that opens an event's wall to spectators, or closes
// it (templates/_publish_switch.html, in the console's header). It shows where the wall
// stands (GET data-read: {event, published, by, at}) and posts {"published": true|false} to
// data-write with the director's token through token.js (bgledger.send: the token kept on the
// device, a client key a retry reuses). What the server answers is what it shows.
(function () {
  "use strict";
  var box = document.getElementById("publish-switch");
  if (!box) { return; }
  var state = document.getElementById("publish-state");
  var button = document.getElementById("publish-button");
  var current = null;

  function when(at) {
    var moment = new Date(at);
    if (isNaN(moment.getTime())) { return at; }
    return moment.toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit", hour12: false });
  }

  // the wall as the server says it stands
  function show(doc) {
    current = doc.published === true;
    box.className = "publish-switch " + (current ? "public" : "closed");
    var head = document.createElement("strong");
    head.textContent = current ? "Public:" : "Not public:";
    var words = current ? " the wall is open to spectators"
                        : " spectators see that the wall is closed";
    if (doc.by) {
      words += " (" + (current ? "published" : "withdrawn") + " by " + doc.by + ", " + when(doc.at) + ")";
    }
    state.textContent = "";
    state.appendChild(head);
    state.appendChild(document.createTextNode(words));
    button.textContent = current ? "Withdraw from spectators" : "Publish to spectators";
    button.hidden = false;
    button.disabled = false;
  }

  function read() {
    fetch(box.dataset.read, { cache: "no-store" }).then(function (r) {
      if (!r.ok) { throw new Error(String(r.status)); }
      return r.json();
    }).then(show).catch(function () {
      state.textContent = "Spectators: the server did not say whether the wall is public; reload to ask again.";
    });
  }

  button.addEventListener("click", function () {
    if (current === null || !window.bgledger) { return; }
    button.disabled = true;
    var sent = window.bgledger.send(box.dataset.write, { published: !current }, function (status, answer) {
      if (status === 200 || status === 201) {
        show(answer);
        window.bgledger.say("recorded", answer.message);
      } else {
        window.bgledger.refused(status, answer);
        button.disabled = false;
      }
    }, function () { button.disabled = false; });
    if (!sent) { button.disabled = false; }
  });

  // another director may have switched it: ask again when the console comes back into view
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { read(); } });
  read();
})();
