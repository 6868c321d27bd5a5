// Dungeon Twister: 8 rooms of 5x5 squares in two rows, start zones at the edges; walls, traps,
// rotation wheels (with their turning arrow), portcullises and tokens drawn from the view alone.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h, C = 40;
  var COLOUR = {blue: "#3e63dd", red: "#e5484d", green: "#30a46c", yellow: "#f5a524"};
  var ROOM = {purple: "#8e4ec6", orange: "#f76b15", green: "#30a46c", grey: "#8b8d98", blue: "#3e63dd", red: "#e5484d", yellow: "#f5a524"};
  function abbr(kind) { return S.label(kind).split(" ").map(function (w) { return w[0]; }).join("").toUpperCase().slice(0, 2); }
  function wallLine(x, y, side) {
    var X = x * C, Y = y * C;
    var seg = {N: [X, Y, X + C, Y], S: [X, Y + C, X + C, Y + C], W: [X, Y, X, Y + C], E: [X + C, Y, X + C, Y + C]}[side];
    return seg ? s("line", {x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], "class": "dt-wall"}) : null;
  }
  Arena.renderers.dungeon_twister = function (v, ctx) {
    var slots = v.slots || [], tokens = v.tokens || [];
    var maxX = 0, maxY = 0;
    slots.forEach(function (sl) { maxX = Math.max(maxX, sl.origin[0] + 5); maxY = Math.max(maxY, sl.origin[1] + 5); });
    tokens.forEach(function (t) { if (t.square) { maxX = Math.max(maxX, t.square[0] + 1); maxY = Math.max(maxY, t.square[1] + 1); } });
    maxX = Math.max(maxX, 22); maxY = Math.max(maxY, 10);
    var root = S.svg(maxX * C + 20, maxY * C + 20, "dt");
    var g = s("g", {transform: "translate(10,10)"});
    root.appendChild(g);
    // start zones: the outer columns
    [0, maxX - 1].forEach(function (x) {
      g.appendChild(s("rect", {x: x * C + 2, y: 2, width: C - 4, height: maxY * C - 4, rx: 6, "class": "dt-start"}));
    });
    slots.forEach(function (sl) {
      var ox = sl.origin[0] * C, oy = sl.origin[1] * C, room = s("g", {"class": "dt-room"});
      if (!sl.revealed) {
        room.appendChild(s("rect", {x: ox + 1, y: oy + 1, width: 5 * C - 2, height: 5 * C - 2, rx: 4, "class": "dt-hidden", title: "room not yet revealed"}));
        room.appendChild(S.text(ox + 2.5 * C, oy + 2.2 * C, "?", {"class": "dt-q", "text-anchor": "middle"}));
        (sl.tokens || []).forEach(function (t, i) {
          var cx = ox + C * (1 + i * 1.5), cy = oy + 3.6 * C;
          room.appendChild(s("g", {title: "face-down token " + (t.handle || "")},
            s("circle", {cx: cx, cy: cy, r: 13, fill: COLOUR[t.colour] || "#888", "class": "dt-facedown"}),
            S.text(cx, cy + 4, "?", {"text-anchor": "middle", "class": "dt-tok-t"})));
        });
        g.appendChild(room);
        return;
      }
      for (var i = 0; i < 5; i++) for (var j = 0; j < 5; j++)
        room.appendChild(s("rect", {x: ox + i * C, y: oy + j * C, width: C, height: C, "class": (i + j) % 2 ? "dt-floor2" : "dt-floor"}));
      room.appendChild(s("rect", {x: ox + 1, y: oy + 1, width: 5 * C - 2, height: 5 * C - 2, fill: "none", stroke: ROOM[sl.colour] || "#888", "stroke-width": 3, rx: 3, title: sl.name + " (" + sl.tile + ")"}));
      room.appendChild(S.text(ox + 6, oy + 5 * C - 6, sl.name || sl.tile, {"class": "dt-room-name"}));
      (sl.traps || []).forEach(function (sq) {
        var cx = sq[0] * C + C / 2, cy = sq[1] * C + C / 2;
        room.appendChild(s("g", {title: "trap"}, s("rect", {x: cx - 14, y: cy - 14, width: 28, height: 28, rx: 3, "class": "dt-trap"}),
          s("path", {d: "M" + (cx - 8) + " " + (cy - 8) + "L" + (cx + 8) + " " + (cy + 8) + "M" + (cx + 8) + " " + (cy - 8) + "L" + (cx - 8) + " " + (cy + 8), "class": "dt-trap-x"})));
      });
      if (sl.gear) {
        var gx = sl.gear[0] * C + C / 2, gy = sl.gear[1] * C + C / 2, cw = sl.arrow === "cw";
        room.appendChild(s("g", {title: "rotation wheel (" + (cw ? "clockwise" : "counter-clockwise") + ")"},
          s("circle", {cx: gx, cy: gy, r: 15, "class": "dt-gear", fill: ROOM[sl.colour] || "#888"}),
          s("circle", {cx: gx, cy: gy, r: 5, "class": "dt-gear-hub"}),
          s("path", {d: cw ? "M" + (gx - 10) + " " + (gy - 6) + " A 11 11 0 0 1 " + (gx + 10) + " " + (gy - 6) + " l 2 -5 M" + (gx + 10) + " " + (gy - 6) + " l -6 -1"
                          : "M" + (gx + 10) + " " + (gy - 6) + " A 11 11 0 0 0 " + (gx - 10) + " " + (gy - 6) + " l -2 -5 M" + (gx - 10) + " " + (gy - 6) + " l 6 -1", "class": "dt-arrow"})));
      }
      (sl.walls || []).forEach(function (w) { room.appendChild(wallLine(w[0], w[1], w[2])); });
      g.appendChild(room);
    });
    (v.portcullis || []).forEach(function (p) {
      var a = p.squares[0], b = p.squares[1], line;
      if (a[1] === b[1]) { var x = Math.max(a[0], b[0]) * C; line = [x, a[1] * C + 4, x, a[1] * C + C - 4]; }
      else { var y = Math.max(a[1], b[1]) * C; line = [a[0] * C + 4, y, a[0] * C + C - 4, y]; }
      g.appendChild(s("line", {x1: line[0], y1: line[1], x2: line[2], y2: line[3], "class": "dt-port dt-port-" + p.state, title: "portcullis " + p.state}));
    });
    var bySquare = {};
    tokens.forEach(function (t) { if (t.square && !t.carried_by) { var k = t.square.join(","); (bySquare[k] = bySquare[k] || []).push(t); } });
    Object.keys(bySquare).forEach(function (k) {
      var list = bySquare[k], xy = k.split(",").map(Number);
      list.forEach(function (t, i) {
        var n = list.length, cx = xy[0] * C + C / 2 + (n > 1 ? (i - (n - 1) / 2) * 12 : 0), cy = xy[1] * C + C / 2 + (n > 1 ? (i % 2 ? 6 : -6) : 0);
        var fill = COLOUR[t.colour] || "#888", title = S.label(t.id || t.kind) + (t.state ? " (" + t.state + ")" : "") + (t.carrying ? ", carrying " + S.label(t.carrying) : "");
        if (t.character) {
          g.appendChild(s("g", {"class": "dt-token" + (t.state === "wounded" ? " dt-wounded" : ""), title: title},
            s("circle", {cx: cx, cy: cy, r: 14, fill: fill}), S.text(cx, cy + 4, abbr(t.kind), {"text-anchor": "middle", "class": "dt-tok-t"}),
            t.carrying ? s("circle", {cx: cx + 11, cy: cy - 11, r: 5, "class": "dt-carry"}) : null));
        } else {
          g.appendChild(s("g", {"class": "dt-object", title: title},
            s("rect", {x: cx - 9, y: cy - 9, width: 18, height: 18, rx: 3, fill: fill, transform: "rotate(45 " + cx + " " + cy + ")"}),
            S.text(cx, cy + 3, abbr(t.kind), {"text-anchor": "middle", "class": "dt-obj-t"})));
        }
      });
    });
    // panels: scores, hands, the viewer's own cards, removed tokens
    var panels = [];
    var players = (v.vp || []).length || ctx.players;
    for (var p = 0; p < players; p++) {
      var hd = (v.hands || [])[p] || {};
      var facts = [h("span", null, "VP ", h("b", null, (v.vp || [])[p]), " / " + (v.vp_target || "?"))];
      if (hd.action_count !== undefined) facts.push(h("span", null, "action cards ", h("b", null, hd.action_count)));
      if (hd.combat_count !== undefined) facts.push(h("span", null, "combat cards ", h("b", null, hd.combat_count)));
      if (hd.jump) facts.push(h("span", null, "jump ", h("b", null, hd.jump)));
      var kids = [h("div", {"class": "stat-row"}, facts)];
      var full = (v.hands_full || [])[p];
      var own = (v.seat === p && v.hand) ? v.hand : full;
      if (own) kids.push(h("div", {"class": "chips"}, (own.combat || []).map(function (c) { return S.card({name: "combat " + c}); }),
        (own.action || []).map(function (c) { return S.card({name: "action " + c}); })));
      panels.push(h("div", {"class": "rpanel " + S.seatClass(p)}, h("h4", null, S.seatName(ctx, p), h("span", {"class": "muted"}, p === v.active_seat ? "to play" : "")), kids));
    }
    panels.push(S.panel("Turn " + (v.turn || 0) + " / " + (v.max_turns || "?"), [h("div", {"class": "stat-row"},
      h("span", null, "phase ", h("b", null, S.label(v.phase))),
      v.ap ? h("span", null, "AP ", h("b", null, v.ap.card)) : null,
      v.subphase ? h("span", null, S.label(v.subphase.kind) + (v.subphase.character ? " · " + S.label(v.subphase.character) : "")) : null)]));
    if ((v.removed || []).length) panels.push(S.panel("Out of play", [h("div", {"class": "chips"}, v.removed.map(function (r) {
      return S.card({name: S.label(r.id), reason: r.reason}); }))]));
    return h("div", {"class": "render"}, root, h("div", {"class": "rpanels"}, panels));
  };
})();
