// Dungeon Twister: 8 rooms of 5x5 squares in two rows between the Blue line (x 0) and the Red
// line (x 21). Drawn from the view alone (referee/games/dungeon_twister/README.md, "View format"):
// a revealed slot carries `squares` (25 codes, row-major: "." floor, "G" gear, "T" trap) and
// `walls` (25 hex digits, the square's own walls: N=1, E=2, S=4, W=8); face-down slots show only
// their face-down tokens, unless the view is the full one (tile data present, `revealed` false).
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h, C = 40;
  var COLOUR = {blue: "#3e63dd", red: "#e5484d", green: "#30a46c", yellow: "#f5a524"};
  var ROOM = {purple: "#8e4ec6", orange: "#f76b15", green: "#30a46c", grey: "#8b8d98", blue: "#3e63dd", red: "#e5484d", yellow: "#f5a524"};
  // Two letters per kind: "T" alone would not tell the Thief from the Troll.
  var SHORT = {cleric: "Cl", goblin: "Gb", mekanork: "Mk", thief: "Th", troll: "Tr", warrior: "Wa", wall_walker: "WW",
               wizard: "Wz", armor: "Ar", fireball_wand: "FW", rope: "Ro", speed_potion: "SP", sword: "Sw", treasure: "$"};
  var SIDES = [[1, "N"], [2, "E"], [4, "S"], [8, "W"]];

  function abbr(kind) {
    if (SHORT[kind]) return SHORT[kind];
    var words = S.label(kind).split(" ").filter(Boolean);
    return (words.length > 1 ? words.map(function (w) { return w[0]; }).join("") : String(kind || "?").slice(0, 2)).toUpperCase().slice(0, 2);
  }
  function kindOf(tokenId) { return String(tokenId || "").split(".").slice(-1)[0]; }
  function wallLine(x, y, side) {
    var X = x * C, Y = y * C;
    var seg = {N: [X, Y, X + C, Y], S: [X, Y + C, X + C, Y + C], W: [X, Y, X, Y + C], E: [X + C, Y, X + C, Y + C]}[side];
    return seg ? s("line", {x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], "class": "dt-wall"}) : null;
  }
  // [x, y, code, wallBits] for the 25 squares of a slot with tile data.
  function squaresOf(sl) {
    var codes = typeof sl.squares === "string" ? sl.squares : "", walls = typeof sl.walls === "string" ? sl.walls : "";
    var out = [];
    for (var k = 0; k < 25; k++) {
      out.push([sl.origin[0] + (k % 5), sl.origin[1] + Math.floor(k / 5), codes.charAt(k) || ".", parseInt(walls.charAt(k) || "0", 16) || 0]);
    }
    return out;
  }
  function gear(room, x, y, colour, cw) {
    var gx = x * C + C / 2, gy = y * C + C / 2;
    room.appendChild(s("g", {title: "rotation wheel (" + (cw ? "clockwise" : "counter-clockwise") + ")"},
      s("circle", {cx: gx, cy: gy, r: 15, "class": "dt-gear", fill: ROOM[colour] || "#888"}),
      s("circle", {cx: gx, cy: gy, r: 5, "class": "dt-gear-hub"}),
      s("path", {d: cw ? "M" + (gx - 10) + " " + (gy - 6) + " A 11 11 0 0 1 " + (gx + 10) + " " + (gy - 6) + " l 2 -5 M" + (gx + 10) + " " + (gy - 6) + " l -6 -1"
                      : "M" + (gx + 10) + " " + (gy - 6) + " A 11 11 0 0 0 " + (gx - 10) + " " + (gy - 6) + " l -2 -5 M" + (gx - 10) + " " + (gy - 6) + " l 6 -1", "class": "dt-arrow"})));
  }
  function trap(room, x, y) {
    var cx = x * C + C / 2, cy = y * C + C / 2;
    room.appendChild(s("g", {title: "trap"}, s("rect", {x: cx - 14, y: cy - 14, width: 28, height: 28, rx: 3, "class": "dt-trap"}),
      s("path", {d: "M" + (cx - 8) + " " + (cy - 8) + "L" + (cx + 8) + " " + (cy + 8) + "M" + (cx + 8) + " " + (cy - 8) + "L" + (cx - 8) + " " + (cy + 8), "class": "dt-trap-x"})));
  }
  // A face-down token: its colour, and (full view) what it is, dashed to say nobody at the table sees it.
  function faceDown(cx, cy, t, where) {
    return s("g", {"class": "dt-fd", title: "face-down " + where + " " + (t.handle || "") + (t.token ? ": " + S.label(t.token) : "")},
      s("circle", {cx: cx, cy: cy, r: 13, fill: COLOUR[t.colour] || "#888", "class": "dt-facedown"}),
      S.text(cx, cy + 4, t.token ? abbr(kindOf(t.token)) : "?", {"text-anchor": "middle", "class": "dt-tok-t"}));
  }

  // A slot's drawing changes only when its tile is revealed or rotated: build it once per look
  // and clone it (scrubbing a 2,000-step replay redraws the board at every step).
  var cache = new Map();
  function drawSlot(g, sl) {
    var key = [sl.slot, sl.origin, sl.revealed, sl.tile, sl.orientation, sl.colour, sl.arrow, sl.name, sl.squares, sl.walls].join("|");
    var hit = cache.get(key);
    if (!hit) {
      if (cache.size > 400) cache.clear();
      hit = buildSlot(sl);
      cache.set(key, hit);
    }
    var room = hit.cloneNode(true), ox = sl.origin[0] * C, oy = sl.origin[1] * C;
    (sl.tokens || []).forEach(function (t, i, all) {
      var n = all.length, cx = ox + 2.5 * C + (i - (n - 1) / 2) * 34, cy = oy + 3.6 * C;
      room.appendChild(faceDown(cx, cy, t, "token"));
    });
    g.appendChild(room);
  }
  function buildSlot(sl) {
    var ox = sl.origin[0] * C, oy = sl.origin[1] * C, room = s("g", {"class": "dt-room" + (sl.revealed ? "" : " dt-room-down")});
    var hasTile = typeof sl.squares === "string" && sl.squares.length === 25;
    if (!hasTile) {
      room.appendChild(s("rect", {x: ox + 1, y: oy + 1, width: 5 * C - 2, height: 5 * C - 2, rx: 4, "class": "dt-hidden", title: "room not yet revealed (slot " + sl.slot + ")"}));
      room.appendChild(S.text(ox + 2.5 * C, oy + 2.2 * C, "?", {"class": "dt-q", "text-anchor": "middle"}));
    } else {
      var squares = squaresOf(sl);
      squares.forEach(function (q) {
        room.appendChild(s("rect", {x: q[0] * C, y: q[1] * C, width: C, height: C, "class": (q[0] + q[1]) % 2 ? "dt-floor2" : "dt-floor"}));
      });
      squares.forEach(function (q) {
        if (q[2] === "T") trap(room, q[0], q[1]);
        else if (q[2] === "G") gear(room, q[0], q[1], sl.colour, sl.arrow === "cw");
      });
      squares.forEach(function (q) {
        SIDES.forEach(function (sd) { if (q[3] & sd[0]) room.appendChild(wallLine(q[0], q[1], sd[1])); });
      });
      room.appendChild(s("rect", {x: ox + 1, y: oy + 1, width: 5 * C - 2, height: 5 * C - 2, fill: "none", stroke: ROOM[sl.colour] || "#888",
        "stroke-width": 3, rx: 3, "class": "dt-room-edge", title: (sl.name || "") + " (" + (sl.tile || "?") + ")" + (sl.revealed ? "" : ", still face down")}));
      room.appendChild(s("rect", {x: ox + 4, y: oy + 5 * C - 19, width: Math.min(5 * C - 8, 12 + 6.2 * String(sl.name || sl.tile || "").length), height: 15, rx: 3, "class": "dt-room-plate"}));
      room.appendChild(S.text(ox + 9, oy + 5 * C - 8, sl.name || sl.tile, {"class": "dt-room-name"}));
      if (!sl.revealed) {
        // The full view shows a face-down tile's layout, veiled: nobody at the table knows it yet.
        room.appendChild(s("rect", {x: ox + 1, y: oy + 1, width: 5 * C - 2, height: 5 * C - 2, rx: 4, "class": "dt-veil"}));
        room.appendChild(S.text(ox + 5 * C - 8, oy + 14, "face down", {"text-anchor": "end", "class": "dt-veil-t"}));
      }
    }
    return room;
  }

  function drawBoard(v) {
    var slots = v.slots || [], tokens = v.tokens || [];
    var maxX = 22, maxY = 10;
    slots.forEach(function (sl) { if (sl.origin) { maxX = Math.max(maxX, sl.origin[0] + 6); maxY = Math.max(maxY, sl.origin[1] + 5); } });
    var root = S.svg(maxX * C + 20, maxY * C + 20, "dt"), g = s("g", {transform: "translate(10,10)"});
    root.appendChild(g);
    // the two lines (start zones and exits): Blue at x 0, Red at the far edge
    [[0, "blue"], [maxX - 1, "red"]].forEach(function (z) {
      g.appendChild(s("rect", {x: z[0] * C + 2, y: 2, width: C - 4, height: maxY * C - 4, rx: 6, "class": "dt-start dt-line-" + z[1], title: z[1] + " line"}));
    });
    slots.forEach(function (sl) { if (sl && sl.origin) drawSlot(g, sl); });
    (v.portcullis || []).forEach(function (p) {
      var a = p.squares && p.squares[0], b = p.squares && p.squares[1], line;
      if (!a || !b) return;
      if (a[1] === b[1]) { var x = Math.max(a[0], b[0]) * C; line = [x, a[1] * C + 4, x, a[1] * C + C - 4]; }
      else { var y = Math.max(a[1], b[1]) * C; line = [a[0] * C + 4, y, a[0] * C + C - 4, y]; }
      g.appendChild(s("line", {x1: line[0], y1: line[1], x2: line[2], y2: line[3], "class": "dt-port dt-port-" + p.state, title: "portcullis " + p.id + " " + p.state}));
    });
    (v.starters_hidden || []).forEach(function (t) {
      if (t.square) g.appendChild(faceDown(t.square[0] * C + C / 2, t.square[1] * C + C / 2, t, "starter"));
    });
    var sub = v.subphase || {}, moving = sub.kind === "move" ? sub.character : null;
    var fighting = sub.kind === "combat" ? [].concat(sub.attackers || [], sub.defenders || []) : [];
    var bySquare = {};
    tokens.forEach(function (t) { if (t.square && !t.carried_by) { var k = t.square.join(","); (bySquare[k] = bySquare[k] || []).push(t); } });
    Object.keys(bySquare).forEach(function (k) {
      var list = bySquare[k], xy = k.split(",").map(Number);
      list.forEach(function (t, i) {
        var n = list.length, cx = xy[0] * C + C / 2 + (n > 1 ? (i - (n - 1) / 2) * 12 : 0), cy = xy[1] * C + C / 2 + (n > 1 ? (i % 2 ? 6 : -6) : 0);
        var fill = COLOUR[t.colour] || "#888";
        var title = S.label(t.id || t.kind) + (t.state ? " (" + t.state + ")" : "") + (t.carrying ? ", carrying " + S.label(t.carrying) : "") + (t.blocked ? ", blocked" : "");
        if (t.character) {
          var cls = "dt-token" + (t.state === "wounded" ? " dt-wounded" : "") + (t.id === moving ? " dt-moving" : "") + (fighting.indexOf(t.id) >= 0 ? " dt-fighting" : "");
          g.appendChild(s("g", {"class": cls, title: title},
            (t.id === moving || fighting.indexOf(t.id) >= 0) ? s("circle", {cx: cx, cy: cy, r: 18, "class": "dt-halo"}) : null,
            s("circle", {cx: cx, cy: cy, r: 14, fill: fill, "class": "dt-disc"}), S.text(cx, cy + 4, abbr(t.kind), {"text-anchor": "middle", "class": "dt-tok-t"}),
            t.carrying ? s("g", {title: "carrying " + S.label(t.carrying)}, s("circle", {cx: cx + 11, cy: cy - 11, r: 7, "class": "dt-carry"}),
              S.text(cx + 11, cy - 8, abbr(kindOf(t.carrying)), {"text-anchor": "middle", "class": "dt-carry-t"})) : null));
        } else {
          g.appendChild(s("g", {"class": "dt-object", title: title},
            s("rect", {x: cx - 9, y: cy - 9, width: 18, height: 18, rx: 3, fill: fill, transform: "rotate(45 " + cx + " " + cy + ")"}),
            S.text(cx, cy + 3, abbr(t.kind), {"text-anchor": "middle", "class": "dt-obj-t"})));
        }
      });
    });
    return root;
  }

  // One chip per kind of card, values in order: nine combat cards read better as "0 1 2 2 3 ..." than as nine chips.
  function cardChips(hand) {
    if (!hand) return null;
    var kids = [];
    if ((hand.action || []).length) kids.push(h("span", {"class": "card-chip", title: "action cards (AP values)"}, h("small", null, "action"), h("b", null, hand.action.join(" "))));
    if ((hand.combat || []).length) kids.push(h("span", {"class": "card-chip dt-combat-card", title: "combat cards"}, h("small", null, "combat"), h("b", null, hand.combat.join(" "))));
    return kids.length ? h("div", {"class": "chips"}, kids) : null;
  }

  Arena.renderers.dungeon_twister = function (v, ctx) {
    var root = drawBoard(v);
    var panels = [];
    var players = (v.vp || []).length || ctx.players || 2;
    for (var p = 0; p < players; p++) {
      var hd = (v.hands || [])[p] || {};
      var facts = [h("span", null, "VP ", h("b", null, (v.vp || [])[p]), " / " + (v.vp_target || "?"))];
      if (hd.action_count !== undefined) facts.push(h("span", null, "action cards ", h("b", null, hd.action_count)));
      if (hd.combat_count !== undefined) facts.push(h("span", null, "combat cards ", h("b", null, hd.combat_count)));
      if (hd.jump) facts.push(h("span", null, "jump ", h("b", null, hd.jump)));
      if ((v.pool_count || [])[p]) facts.push(h("span", null, "to place ", h("b", null, v.pool_count[p])));
      var kids = [h("div", {"class": "stat-row"}, facts)];
      var own = (v.seat === p && v.hand) ? v.hand : (v.hands_full || [])[p];
      if (own) kids.push(cardChips(own));
      var pool = (v.seat === p && v.pool) ? v.pool : (v.pools || [])[p];
      if (pool && pool.length) kids.push(h("div", {"class": "chips"}, h("small", {"class": "muted"}, "pool"), pool.map(function (id) { return S.card({name: S.label(kindOf(id))}, "muted"); })));
      var status = p === v.active_seat ? "to play" : (v.pending_seats || []).indexOf(p) >= 0 ? "deciding" : "";
      panels.push(h("div", {"class": "rpanel " + S.seatClass(p)}, h("h4", null, S.seatName(ctx, p), h("span", {"class": "muted"}, status)), kids));
    }
    var sub = v.subphase, subText = null;
    if (sub && sub.kind === "move") subText = "moving " + S.label(sub.character) + " · " + sub.steps_left + " step(s) left";
    else if (sub && sub.kind === "combat") subText = "combat: " + S.label(sub.attacker) + " attacks " + S.label(sub.target) +
      " · " + (sub.base_totals ? sub.base_totals.attack + " vs " + sub.base_totals.defence : "");
    else if (sub && sub.kind === "place") subText = "placing the tokens of slot " + sub.slot;
    else if (sub) subText = S.label(sub.kind);
    panels.push(S.panel("Turn " + (v.turn || 0) + " / " + (v.max_turns || "?"), [h("div", {"class": "stat-row"},
      h("span", null, "phase ", h("b", null, S.label(v.phase))),
      v.ap && v.ap.card !== null && v.ap.card !== undefined ? h("span", null, "AP ", h("b", null, v.ap.card)) : null,
      v.end_triggered ? h("b", {"class": "loss"}, "last turn") : null),
      subText ? h("div", {"class": "stat-row"}, h("span", null, subText)) : null]));
    if ((v.removed || []).length) panels.push(S.panel("Out of play", [h("div", {"class": "chips"}, v.removed.map(function (r) {
      return S.card({name: S.label(r.id)}, "dt-removed-" + r.reason); }))]));
    return h("div", {"class": "render"}, root, h("div", {"class": "rpanels"}, panels));
  };
})();
