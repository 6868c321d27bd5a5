// Clank!: the dungeon as a node-link map (rooms at their grid positions, tunnels with boots,
// monsters, locks and one-way arrows), the players' meeples, room loot, the dragon track
// (rage, bag, clank area), the dungeon row and market, and each player's hand and tableau.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h;
  var COL = {red: "#e5484d", yellow: "#f5a524", green: "#30a46c", blue: "#3e63dd"};
  var DX = 120, DY = 96, PAD = 50;
  function cardName(v, c) {
    if (!c) return null;
    var t = (v.static && v.static.card_types && v.static.card_types[c.type]) || {};
    return {name: t.name || c.type, cost: t.cost, vp: t.vp || undefined, kind: t.kind};
  }
  Arena.renderers.clank = function (v, ctx) {
    var st = v.static || {}, rooms = st.rooms || [], pos = {};
    var maxX = 0, maxY = 0;
    rooms.forEach(function (r) { pos[r.id] = [PAD + r.x * DX, PAD + r.y * DY]; maxX = Math.max(maxX, r.x); maxY = Math.max(maxY, r.y); });
    var root = S.svg(maxX * DX + 2 * PAD, maxY * DY + 2 * PAD, "clank");
    // depth bands
    var zones = {};
    rooms.forEach(function (r) { var z = zones[r.zone] = zones[r.zone] || [1e9, -1e9]; z[0] = Math.min(z[0], r.y); z[1] = Math.max(z[1], r.y); });
    Object.keys(zones).forEach(function (z) {
      var a = zones[z];
      root.appendChild(s("rect", {x: 8, y: PAD + a[0] * DY - 40, width: maxX * DX + 2 * PAD - 16, height: (a[1] - a[0]) * DY + 80, rx: 14, "class": "cl-zone cl-zone-" + z}));
      root.appendChild(S.text(16, PAD + a[0] * DY - 26, S.label(z), {"class": "cl-zone-t"}));
    });
    (st.tunnels || []).forEach(function (t) {
      var a = pos[t.a], b = pos[t.b];
      if (!a || !b) return;
      var mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
      var g = s("g", {"class": "cl-tunnel" + (t.locked ? " cl-locked" : ""), title: t.id + ": " + t.boots + " boot(s)" + (t.monsters ? ", " + t.monsters + " monster(s)" : "") + (t.locked ? ", locked" : "") + (t.one_way ? ", one way" : "")});
      g.appendChild(s("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], "class": "cl-path"}));
      if (t.one_way) {
        var ang = Math.atan2(b[1] - a[1], b[0] - a[0]) * 180 / Math.PI;
        g.appendChild(s("path", {d: "M-7,-6 L7,0 L-7,6 z", transform: "translate(" + mx + "," + my + ") rotate(" + ang + ")", "class": "cl-oneway"}));
      }
      for (var i = 0; i < t.boots; i++) g.appendChild(s("circle", {cx: mx - (t.boots - 1) * 6 + i * 12, cy: my + (t.one_way ? 12 : 0), r: 4.5, "class": "cl-boot"}));
      for (var j = 0; j < (t.monsters || 0); j++) g.appendChild(s("path", {d: "M0,-7 L6,5 L-6,5 z", transform: "translate(" + (mx - (t.monsters - 1) * 7 + j * 14) + "," + (my - 14) + ")", "class": "cl-monster"}));
      if (t.locked) g.appendChild(s("rect", {x: mx - 6, y: my + 8, width: 12, height: 10, rx: 2, "class": "cl-lock"}));
      root.appendChild(g);
    });
    var loot = v.rooms || {};
    rooms.forEach(function (r) {
      var p = pos[r.id], g = s("g", {"class": "cl-room" + (r.crystal_cave ? " cl-cave" : "") + (r.market ? " cl-market" : ""), title: r.name + " (" + r.id + ")"});
      g.appendChild(s("rect", {x: p[0] - 46, y: p[1] - 24, width: 92, height: 48, rx: r.crystal_cave ? 20 : 8, "class": "cl-room-box"}));
      g.appendChild(S.text(p[0], p[1] - 9, r.name.length > 16 ? r.name.slice(0, 15) + "…" : r.name, {"text-anchor": "middle", "class": "cl-room-t"}));
      var marks = [];
      if (r.market) marks.push("market");
      if (r.heal) marks.push("+" + r.heal + "♥");
      if (r.gold) marks.push(r.gold + "g");
      var l = loot[r.id] || {};
      if (l.minor) marks.push(l.minor + " minor");
      if (l.major) marks.push(l.major + " major");
      if (l.idols) marks.push(l.idols + " idol");
      if (marks.length) g.appendChild(S.text(p[0], p[1] + 5, marks.join(" · "), {"text-anchor": "middle", "class": "cl-room-m"}));
      if (l.artifact) {
        var art = (st.artifacts || {})[l.artifact] || {};
        g.appendChild(s("g", {title: "artifact " + (art.name || l.artifact) + " (" + (art.value || "?") + ")"},
          s("circle", {cx: p[0] + 40, cy: p[1] - 20, r: 11, "class": "cl-artifact"}),
          S.text(p[0] + 40, p[1] - 16, String(art.value || "A"), {"text-anchor": "middle", "class": "cl-artifact-t"})));
      }
      root.appendChild(g);
    });
    var here = {};
    (v.players || []).forEach(function (pl) { if (pl.room && pos[pl.room]) (here[pl.room] = here[pl.room] || []).push(pl); });
    Object.keys(here).forEach(function (rid) {
      here[rid].forEach(function (pl, i) {
        var p = pos[rid], cx = p[0] - 30 + i * 18, cy = p[1] + 16;
        root.appendChild(s("g", {"class": "cl-meeple", title: S.seatName(ctx, pl.seat) + " (" + pl.colour + ")"},
          s("circle", {cx: cx, cy: cy - 5, r: 5, fill: COL[pl.colour] || "#888"}),
          s("path", {d: "M" + (cx - 7) + "," + (cy + 8) + " Q" + cx + "," + (cy - 6) + " " + (cx + 7) + "," + (cy + 8) + " z", fill: COL[pl.colour] || "#888"})));
      });
    });
    // dragon track
    var rage = v.rage || {}, track = (st.constants && st.constants.rage_track) || [], cubes = v.cubes || {};
    var dw = Math.max(track.length, 1) * 46 + 220, dragon = S.svg(dw, 92, "clank-dragon");
    dragon.appendChild(S.text(8, 18, "Dragon rage", {"class": "cl-zone-t"}));
    track.forEach(function (n, i) {
      dragon.appendChild(s("g", {title: "rage " + i + ": draw " + n + " cubes"},
        s("rect", {x: 8 + i * 46, y: 28, width: 40, height: 40, rx: 8, "class": "cl-rage" + (i === rage.index ? " cl-rage-now" : i < rage.index ? " cl-rage-past" : "")}),
        S.text(28 + i * 46, 54, String(n), {"text-anchor": "middle", "class": "cl-rage-t"})));
    });
    var bx = 20 + track.length * 46, bag = cubes.bag || {};
    dragon.appendChild(S.text(bx, 18, "Bag", {"class": "cl-zone-t"}));
    var k = 0;
    Object.keys(bag).forEach(function (c) {
      var colour = c === "black" ? "#222" : COL[(v.players || [])[+c] ? v.players[+c].colour : ""] || "#888";
      dragon.appendChild(s("g", {title: bag[c] + " " + (c === "black" ? "dragon" : "seat " + c) + " cubes"},
        s("rect", {x: bx + k * 62, y: 30, width: 18, height: 18, rx: 3, fill: colour}),
        S.text(bx + 24 + k * 62, 44, "×" + bag[c])));
      k++;
    });
    var area = cubes.clank_area || {};
    dragon.appendChild(S.text(bx, 78, "Clank area: " + Object.keys(area).map(function (c) { return S.seatName(ctx, +c) + " " + area[c]; }).join(", "), {"class": "cl-room-m"}));
    // panels
    var panels = [];
    (v.players || []).forEach(function (pl) {
      var health = (st.constants && st.constants.health) || 10;
      var facts = h("div", {"class": "stat-row"},
        h("span", null, "gold ", h("b", null, pl.gold)), h("span", null, "damage ", h("b", null, pl.damage + "/" + health)),
        h("span", null, "deck ", h("b", null, pl.deck_count)), h("span", null, "hand ", h("b", null, pl.hand_count)),
        h("span", null, S.label(pl.status)));
      var hp = S.svg(200, 10, "hpbar"); hp.appendChild(S.bar(0, 1, 200, 8, 1 - pl.damage / health, pl.damage / health > 0.6 ? "hp-low" : ""));
      var own = (v.private && v.private.hand && v.seat === pl.seat) ? v.private.hand : null;
      panels.push(h("div", {"class": "rpanel " + S.seatClass(pl.seat)}, h("h4", null, S.seatName(ctx, pl.seat), h("span", {"class": "muted"}, pl.seat === v.active_seat ? "active" : pl.colour)),
        facts, hp,
        own ? h("div", {"class": "chips"}, own.map(function (c) { return S.card(cardName(v, c)); })) : null,
        (pl.play || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "in play"), pl.play.map(function (c) { return S.card(cardName(v, c)); })) : null,
        (pl.artifacts || []).length ? h("div", {"class": "chips"}, pl.artifacts.map(function (a) { var art = (st.artifacts || {})[a] || {}; return S.card({name: art.name || a, value: art.value}); })) : null));
    });
    panels.push(S.panel("Dungeon row", [h("div", {"class": "chips"}, (v.row || []).map(function (c) { return S.card(cardName(v, c)); }))]));
    var mk = v.market || {};
    panels.push(S.panel("Market · reserve", [h("div", {"class": "stat-row"},
      Object.keys(mk).map(function (key) { return h("span", null, S.label(key) + " ", h("b", null, Array.isArray(mk[key]) ? mk[key].join("/") : mk[key])); }),
      Object.keys(v.reserve || {}).map(function (key) { return h("span", null, S.label(key) + " ", h("b", null, v.reserve[key])); }))]));
    panels.push(S.panel("Round " + v.round + " / " + v.round_limit, [h("div", {"class": "stat-row"},
      h("span", null, "phase ", h("b", null, S.label(v.phase))), h("span", null, "dungeon deck ", h("b", null, v.dungeon_deck_count)),
      v.turn ? h("span", null, "skill ", h("b", null, v.turn.skill), " swords ", h("b", null, v.turn.swords), " boots ", h("b", null, v.turn.boots)) : null)]));
    return h("div", {"class": "render"}, root, dragon, h("div", {"class": "rpanels"}, panels));
  };
})();
