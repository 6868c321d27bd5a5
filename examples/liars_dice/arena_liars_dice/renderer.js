// Liar's Dice: one row per seat with its dice (pips when the view shows them, a "?" die when
// hidden), the current bid and the bids of this round. Served by the dashboard at
// /renderers/liars_dice.js (declared by Game.renderer_file); colours are SVG attributes because
// the page's CSP allows no inline style.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h;
  var PIPS = {1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
              5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]]};
  var SEAT = ["#e5484d", "#3e63dd", "#30a46c", "#f5a524"];  // the dashboard's seat colours

  function die(x, y, face, bid) {
    var g = s("g", {"class": "ld-die", "data-face": face === null ? "hidden" : String(face),
                    title: face === null ? "hidden die" : "a " + face});
    g.appendChild(s("rect", {x: x, y: y, width: 40, height: 40, rx: 7, fill: face === null ? "#5b5f6b" : "#fdfdfc",
                             stroke: bid ? "#d4a017" : "#2b2e36", "stroke-width": bid ? 3 : 1.5}));
    if (face === null) {
      g.appendChild(S.text(x + 20, y + 27, "?", {"text-anchor": "middle", fill: "#fdfdfc", "font-size": 20}));
    } else {
      (PIPS[face] || []).forEach(function (p) {
        g.appendChild(s("circle", {cx: x + 9 + p[0] * 11, cy: y + 9 + p[1] * 11, r: 4, fill: "#1c1e24"}));
      });
    }
    return g;
  }

  Arena.renderers.liars_dice = function (v, ctx) {
    var counts = v.counts || [], n = counts.length, W = 720, rowH = 64, root = S.svg(W, 70 + n * rowH, "ld");
    var bid = v.bid, face = bid ? bid[1] : null;
    root.appendChild(S.text(12, 28, "Round " + v.round + (bid ? " · bid: at least " + bid[0] + " × " + bid[1] +
      " (" + S.seatName(ctx, v.bidder) + ")" : " · no bid yet") + " · " + v.total + " dice on the table",
      {"font-size": 18, fill: "currentColor", "class": "ld-title"}));
    for (var seat = 0; seat < n; seat++) {
      var y = 50 + seat * rowH, known = v.dice ? v.dice[seat] : (v.seat === seat ? v.my_dice : null);
      var row = s("g", {"class": "ld-seat", "data-seat": String(seat)});
      row.appendChild(s("rect", {x: 6, y: y, width: 10, height: 44, rx: 3, fill: SEAT[seat % SEAT.length]}));
      var out = (v.out || []).indexOf(seat) >= 0;
      row.appendChild(S.text(24, y + 27, S.seatName(ctx, seat) + (v.turn === seat ? " ◀" : "") + (out ? " (out)" : ""),
                             {"font-size": 15, fill: "currentColor"}));
      for (var k = 0; k < counts[seat]; k++) {
        var f = known ? known[k] : null;
        row.appendChild(die(200 + k * 48, y + 2, f, f !== null && f === face));
      }
      root.appendChild(row);
    }
    var hist = (v.history || []).map(function (b) {
      return h("li", null, S.seatName(ctx, b[0]) + ": " + b[1] + " × " + b[2]); });
    return h("div", {"class": "render"}, root,
      h("div", {"class": "rpanels"}, S.panel("Bids this round", hist.length ? h("ol", null, hist) : h("p", {"class": "muted"}, "none yet"))));
  };
})();
