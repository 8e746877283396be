// bgledger serve: the service worker (served at /sw.js, its scope the whole site) that keeps
// the pages and their assets on the device, so that the pad loads without the network.
// Every GET of the site goes to the network first and its answer is kept; without an
// answer, the kept one is served. Writes (POST) and the live streams are never touched:
// the offline queue (offline.js) keeps the writes. An answer the server marks
// Cache-Control: no-store (a match's .mat, its JSON) is never kept, and takes the place of
// any copy kept before; nor is a kept copy served once the server has refused the page
// (401, 403, 404, 410: a publication withdrawn, a match not this device's to read).
"use strict";
var CACHE = "bgledger-v4";
var REFUSED = [401, 403, 404, 410];
var ASSETS = ["/static/style.css", "/static/pad.css", "/static/pad.js", "/static/token.js",
              "/static/offline.js", "/static/copy.js", "/static/follow.js", "/static/live.js", "/static/local.js"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(ASSETS.map(function (url) {
      return cache.add(url).catch(function () {});  // an asset missing keeps none from installing
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(request) {
  // a page is kept without its query (?token= never is) nor its fragment
  var url = new URL(request.url);
  return url.origin + url.pathname + (url.pathname.indexOf("/live") >= 0 ? url.search : "");
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (/\/events$/.test(url.pathname) || (request.headers.get("Accept") || "").indexOf("text/event-stream") >= 0) { return; }
  if (url.pathname === "/api/now" || url.pathname === "/sw.js") { return; }
  event.respondWith(fetch(request).then(function (response) {
    var unkept = /(^|[,\s])no-store([,\s]|$)/i.test(response.headers.get("Cache-Control") || "");
    if (response.ok && !unkept) {
      var copy = response.clone();
      return caches.open(CACHE).then(function (cache) { return cache.put(kept(request), copy); })
        .then(function () { return response; }, function () { return response; });
    }
    if (unkept || REFUSED.indexOf(response.status) >= 0) {  // the kept copy is stale or withdrawn
      return caches.open(CACHE).then(function (cache) { return cache.delete(kept(request)); })
        .then(function () { return response; }, function () { return response; });
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(kept(request)); })
      .then(function (found) {
        if (found) {  // said to be kept (X-Kept): its X-Server-Now is the moment it was kept
          var headers = new Headers(found.headers);
          headers.set("X-Kept", "1");
          return new Response(found.body, { status: found.status, statusText: found.statusText, headers: headers });
        }
        return new Response("offline: this page was never opened on this device", {
          status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      });
  }));
});
