// bgledger serve: a page refused for want of a token (templates/private.html). A browser
// asking for a page sends no Authorization header, so the token the device keeps (the
// link's #token=, the pad's of this match, the director's) is put in the read cookie,
// which reads only (a write needs the header), and the page is asked for again, once.
(function () {
  "use strict";
  var COOKIE = "bgledger_read";
  var hash = new URLSearchParams(window.location.hash.slice(1));
  var path = window.location.pathname;
  var found = /^\/matches\/([^/.]+)/.exec(path);
  var kept = [hash.get("token")];
  if (found) { kept.push(localStorage.getItem("bgledger.pad.token." + decodeURIComponent(found[1]))); }
  kept.push(localStorage.getItem("bgledger.director.token"));
  var current = (document.cookie.split("; ").filter(function (c) { return c.indexOf(COOKIE + "=") === 0; })[0] || "").slice(COOKIE.length + 1);
  var tried = JSON.parse(sessionStorage.getItem("bgledger.read.tried." + path) || "[]");
  for (var i = 0; i < kept.length; i++) {
    var token = kept[i];
    if (!token || tried.indexOf(token) >= 0 || encodeURIComponent(token) === current) { continue; }
    tried.push(token);
    sessionStorage.setItem("bgledger.read.tried." + path, JSON.stringify(tried));
    document.cookie = COOKIE + "=" + encodeURIComponent(token) + "; path=/; SameSite=Strict";
    window.location.reload();
    return;
  }
  sessionStorage.removeItem("bgledger.read.tried." + path);
})();
