// Keeps a crossboard page live: Server-Sent Events bring the parts that changed, rendered by
// the server: a part's HTML when it changed (its picture kept), and of its picture (an SVG
// drawn by the server) only the parts that changed, by their data-part name. The running
// clock counts down between records. EventSource reconnects by itself after a drop, and the
// first event of a stream brings the whole page. A page stepped back through a game (?game=
// or ?ply=) stays put.
(function () {
  "use strict";
  var offset = 0;
  function fmt(ms) {
    var s = Math.floor(Math.max(0, ms) / 1000), m = Math.floor(s / 60) % 60, r = s % 60;
    return Math.floor(s / 3600) + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll('.clocks[data-running="true"]').forEach(function (p) {
      var c = p.querySelector(".clock." + p.getAttribute("data-to-move"));
      if (!c || !c.hasAttribute("data-ms")) { return; }
      var since = Number(p.getAttribute("data-since"));
      c.textContent = fmt(Number(c.getAttribute("data-ms")) - Math.max(0, now - since));
    });
  }
  function picture(el) { return el && el.querySelector(".pos svg"); }
  // A board's picture is shown on a wide screen, and where the reader opened it; a screen
  // that turns wide or narrow opens or closes them all.
  var wide = window.matchMedia ? window.matchMedia("(min-width: 40em)") : { matches: true };
  function open(root, keep) {
    root.querySelectorAll("details.pic").forEach(function (d) {
      if (wide.matches || keep) { d.open = true; }
    });
  }
  open(document, false);
  if (wide.addEventListener) {
    wide.addEventListener("change", function () {
      document.querySelectorAll("details.pic").forEach(function (d) { d.open = wide.matches; });
    });
  }
  function apply(part) {
    var el = document.getElementById(part.id);
    if (!el) { return; }
    if (typeof part.html === "string") {
      var kept = picture(el);
      var was = el.querySelector("details.pic");
      var opened = !!(was && was.open);
      el.outerHTML = part.html;
      el = document.getElementById(part.id);
      open(el, opened);
      var hole = picture(el);
      if (hole && kept && typeof part.svg !== "string") { hole.replaceWith(kept); }
    }
    var svg = picture(el);
    if (svg && typeof part.svg === "string") { svg.outerHTML = part.svg; svg = picture(el); }
    Object.keys(part.picture || {}).forEach(function (name) {
      var old = svg && svg.querySelector('[data-part="' + name + '"]');
      if (old) { old.outerHTML = part.picture[name]; }
    });
  }
  var src = document.body.getAttribute("data-live");
  if (src && window.EventSource && !/[?&](game|ply)=/.test(location.search)) {
    var es = new EventSource(src);
    es.addEventListener("update", function (ev) {
      var d = JSON.parse(ev.data);
      if (d.now) { offset = d.now - Date.now(); }
      (d.parts || []).forEach(apply);
      document.body.setAttribute("data-records", String(d.records || 0));
      document.dispatchEvent(new CustomEvent("crossboard-update"));
      tick();
    });
  }
  setInterval(tick, 250);
})();
