// bgledger serve: a page refused for want of a token (templates/private.html). A browser
// asking for a page sends no Authorization header, so the token the device keeps (the
// link's #token=, the pad's of this match, the director's) is put in the read cookie,
// which reads only (a write needs the header), and the page is asked for again, once a
// token. A link with #token= opened on this page (same address) is tried too.
(function () {
  "use strict";
  var COOKIE = "bgledger_read";
  var path = window.location.pathname;
  var TRIED = "bgledger.read.tried." + path;
  function attempt() {
    var hash = new URLSearchParams(window.location.hash.slice(1));
    var found = /^\/matches\/([^/.]+)/.exec(path);
    var kept = [hash.get("token")];
    if (found) { kept.push(localStorage.getItem("bgledger.pad.token." + decodeURIComponent(found[1]))); }
    kept.push(localStorage.getItem("bgledger.director.token"));
    var tried = JSON.parse(sessionStorage.getItem(TRIED) || "[]");
    for (var i = 0; i < kept.length; i++) {
      var token = kept[i];
      if (!token || tried.indexOf(token) >= 0) { continue; }
      tried.push(token);
      sessionStorage.setItem(TRIED, JSON.stringify(tried));
      document.cookie = COOKIE + "=" + encodeURIComponent(token) + "; path=/; SameSite=Strict";
      window.location.reload();
      return;
    }
    sessionStorage.removeItem(TRIED);  // each kept token was tried: a reload by hand tries again
  }
  window.addEventListener("hashchange", attempt);
  attempt();
})();
