// The hall display: as many boards a page as fit the screen with pictures of at least MIN
// pixels (fewest pages first, then the largest pictures), then each division's standings
// scaled to the screen, in turn every data-every seconds. The live script (live.js) keeps the
// boards up to date; after it redraws a board, the page shown is shown again. After a whole
// turn of the pages, once a minute at most, the page is loaded again (a new round, new
// standings).
(function () {
  "use strict";
  var MIN = 200, GAP = 6;
  var root = document.getElementById("hall");
  var grid = document.getElementById("boards");
  var every = Number(root.getAttribute("data-every")) || 15;
  var loaded = Date.now();
  var per = 1, at = 0;
  function cards() { return Array.prototype.slice.call(grid.querySelectorAll(".board")); }
  function tables() { return Array.prototype.slice.call(document.querySelectorAll(".standings")); }
  function room() {
    var head = document.querySelector("#hall header");
    var top = head ? head.getBoundingClientRect().bottom : 0;
    return { w: document.documentElement.clientWidth - 16, h: window.innerHeight - top - 10 };
  }
  // A card's size beside its picture, and the picture's height for its width.
  function measure(all) {
    var out = { w: 0, h: 0, ratio: 1.2 };
    grid.classList.remove("off");
    grid.style.gridTemplateColumns = "repeat(" + all.length + ", 320px)";
    grid.style.setProperty("--pic", "300px");
    all.forEach(function (c) {
      c.classList.remove("off");
      var d = c.querySelector("details.pic");
      if (d) { d.open = true; }
      var svg = c.querySelector(".pos svg");
      var s = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      if (svg && s.width) { out.ratio = s.height / s.width; }
      var cs = window.getComputedStyle(c);
      var side = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"]
        .reduce(function (sum, k) { return sum + (parseFloat(cs[k]) || 0); }, 0);
      out.w = Math.max(out.w, Math.ceil(side));
      out.h = Math.max(out.h, Math.ceil(c.getBoundingClientRect().height - s.height));
    });
    return out;
  }
  // Columns, rows and picture size: the fewest pages, then the largest pictures.
  function fit() {
    var all = cards(), n = all.length;
    if (!n) { return; }
    var m = measure(all), r = room(), best = null;
    for (var cols = 1; cols <= n; cols++) {
      for (var rows = 1; rows <= Math.ceil(n / cols); rows++) {
        var pic = Math.floor(Math.min((r.w - GAP * (cols - 1)) / cols - m.w,
          ((r.h - GAP * (rows - 1)) / rows - m.h) / m.ratio));
        var pages = Math.ceil(n / (cols * rows));
        if (pic >= MIN && (!best || pages < best.pages || (pages === best.pages && pic > best.pic))) {
          best = { cols: cols, rows: rows, pic: pic, pages: pages };
        }
      }
    }
    if (!best) {
      var one = Math.floor(Math.min(r.w - m.w, (r.h - m.h) / m.ratio));
      best = { cols: 1, rows: 1, pic: Math.max(one, 50), pages: n };
    }
    per = best.cols * best.rows;
    grid.style.gridTemplateColumns = "repeat(" + best.cols + ", " + (best.pic + m.w) + "px)";
    grid.style.setProperty("--pic", best.pic + "px");
  }
  function count() { return Math.ceil(cards().length / per) + tables().length; }
  function show() {
    var all = cards(), boardPages = Math.ceil(all.length / per), n = count();
    at = n ? at % n : 0;
    all.forEach(function (c, k) {
      var d = c.querySelector("details.pic");
      if (d) { d.open = true; }
      c.classList.toggle("off", Math.floor(k / per) !== at);
    });
    grid.classList.toggle("off", at >= boardPages);
    tables().forEach(function (t, k) {
      t.classList.toggle("off", at !== boardPages + k);
      t.style.transform = "";
      if (at === boardPages + k) {
        var r = room(), b = t.getBoundingClientRect();
        var scale = Math.min(r.w / b.width, r.h / b.height, 2);
        t.style.transformOrigin = "top left";
        t.style.transform = "scale(" + scale + ")";
      }
    });
    var label = document.getElementById("page");
    if (label) { label.textContent = "page " + (at + 1) + " of " + n + " · every " + every + " s"; }
  }
  function next() {
    at += 1;
    if (at >= count() && Date.now() - loaded > 60000) { location.reload(); return; }
    show();
  }
  fit();
  show();
  document.addEventListener("crossboard-update", show);
  window.addEventListener("resize", function () { fit(); show(); });
  setInterval(next, every * 1000);
})();
