// Clank!: the dungeon as a node-link map (rooms at their grid positions, tunnels with boots,
// monsters, locks and one-way arrows), the players' meeples, room loot, the dragon track
// (rage, bag, clank area), the dungeon row and market, and each player's hand and tableau.
// Cards in hands and tableaux are {id, type}: their names come from the game's content
// (ctx.glossary, referee/games/clank/content/cards.toml); row cards carry their own name.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h;
  var COL = {red: "#e5484d", yellow: "#f5a524", green: "#30a46c", blue: "#3e63dd"};
  var DX = 124, DY = 96, PAD = 56, BW = 108, BH = 56;

  // Split a long room name over two lines, at the space nearest its middle.
  function lines(name) {
    if (name.length <= 15) return [name];
    var mid = name.length / 2, best = -1;
    for (var i = 0; i < name.length; i++) if (name[i] === " " && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) best = i;
    return best < 0 ? [name.slice(0, 15) + "…"] : [name.slice(0, best), name.slice(best + 1)];
  }

  // The map never changes during a match (`static`): draw it once, clone it for every step.
  var cache = {key: null, node: null};
  function staticMap(st) {
    var rooms = st.rooms || [], key = JSON.stringify([rooms, st.tunnels]);
    if (cache.key === key) return cache.node.cloneNode(true);
    var pos = {}, maxX = 0, maxY = 0;
    rooms.forEach(function (r) { pos[r.id] = [PAD + r.x * DX, PAD + r.y * DY]; maxX = Math.max(maxX, r.x); maxY = Math.max(maxY, r.y); });
    var W = maxX * DX + 2 * PAD, g = s("g", {"class": "cl-static"});
    // depth bands, one per zone of several rooms; a zone of one or two rooms (the way out)
    // is written under its rooms instead, so no two band labels share a corner
    var zones = {};
    rooms.forEach(function (r) { (zones[r.zone] = zones[r.zone] || []).push(r); });
    Object.keys(zones).forEach(function (z) {
      var list = zones[z];
      if (list.length < 3) return;
      var y0 = Math.min.apply(null, list.map(function (r) { return r.y; })), y1 = Math.max.apply(null, list.map(function (r) { return r.y; }));
      g.appendChild(s("rect", {x: 6, y: PAD + y0 * DY - 44, width: W - 12, height: (y1 - y0) * DY + 88, rx: 14, "class": "cl-zone cl-zone-" + z}));
      g.appendChild(S.text(W - 14, PAD + y0 * DY - 32, S.label(z), {"class": "cl-zone-t", "text-anchor": "end"}));
    });
    (st.tunnels || []).forEach(function (t) {
      var a = pos[t.a], b = pos[t.b];
      if (!a || !b) return;
      var mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
      var tg = s("g", {"class": "cl-tunnel" + (t.locked ? " cl-locked" : ""), title: t.id + ": " + t.boots + " boot(s)" + (t.monsters ? ", " + t.monsters + " monster(s)" : "") + (t.locked ? ", locked" : "") + (t.one_way ? ", one way" : "")});
      tg.appendChild(s("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], "class": "cl-path"}));
      if (t.one_way) {
        var ang = Math.atan2(b[1] - a[1], b[0] - a[0]) * 180 / Math.PI;
        tg.appendChild(s("path", {d: "M-7,-6 L7,0 L-7,6 z", transform: "translate(" + mx + "," + my + ") rotate(" + ang + ")", "class": "cl-oneway"}));
      }
      for (var i = 0; i < t.boots; i++) tg.appendChild(s("circle", {cx: mx - (t.boots - 1) * 6 + i * 12, cy: my + (t.one_way ? 12 : 0), r: 4.5, "class": "cl-boot"}));
      for (var j = 0; j < (t.monsters || 0); j++) tg.appendChild(s("path", {d: "M0,-7 L6,5 L-6,5 z", transform: "translate(" + (mx - (t.monsters - 1) * 7 + j * 14) + "," + (my - 14) + ")", "class": "cl-monster"}));
      if (t.locked) tg.appendChild(s("rect", {x: mx - 6, y: my + 8, width: 12, height: 10, rx: 2, "class": "cl-lock"}));
      g.appendChild(tg);
    });
    rooms.forEach(function (r) {
      var p = pos[r.id], rg = s("g", {"class": "cl-room" + (r.crystal_cave ? " cl-cave" : "") + (r.market ? " cl-market" : "") + ((zones[r.zone] || []).length < 3 ? " cl-edge-room" : ""),
        title: r.name + " (" + r.id + ", " + S.label(r.zone) + ")" + (r.crystal_cave ? " · crystal cave" : "")});
      rg.appendChild(s("rect", {x: p[0] - BW / 2, y: p[1] - BH / 2, width: BW, height: BH, rx: r.crystal_cave ? 20 : 8, "class": "cl-room-box"}));
      var ls = lines(r.name);
      ls.forEach(function (line, i) { rg.appendChild(S.text(p[0], p[1] - (ls.length > 1 ? 16 : 10) + i * 11, line, {"text-anchor": "middle", "class": "cl-room-t"})); });
      if ((zones[r.zone] || []).length < 3) rg.appendChild(S.text(p[0], p[1] + BH / 2 + 12, S.label(r.zone), {"text-anchor": "middle", "class": "cl-zone-t"}));
      g.appendChild(rg);
    });
    cache = {key: key, node: g};
    return g.cloneNode(true);
  }

  function cardChip(ctx, c, cls) {
    if (!c) return h("span", {"class": "card-chip muted"}, "empty");
    if (c.name) return S.card({name: c.name, id: c.type || c.id, cost: c.cost, vp: c.vp || undefined, kind: c.kind}, (cls || "") + (c.dragon ? " cl-dragon-card" : "") + (c.danger ? " cl-danger-card" : ""));
    return S.cardOf(ctx, c.type || c.id, cls);
  }
  function cardRow(ctx, label, list, cls) {
    if (!list || !list.length) return null;
    return h("div", {"class": "chips"}, h("small", {"class": "muted"}, label), list.map(function (c) { return cardChip(ctx, c, cls); }));
  }

  Arena.renderers.clank = function (v, ctx) {
    var st = v.static || {}, rooms = st.rooms || [], pos = {};
    var maxX = 0, maxY = 0;
    rooms.forEach(function (r) { pos[r.id] = [PAD + r.x * DX, PAD + r.y * DY]; maxX = Math.max(maxX, r.x); maxY = Math.max(maxY, r.y); });
    var root = S.svg(maxX * DX + 2 * PAD, maxY * DY + 2 * PAD, "clank");
    root.appendChild(staticMap(st));
    var loot = v.rooms || {}, artifacts = st.artifacts || {};
    rooms.forEach(function (r) {
      var p = pos[r.id], marks = [], l = loot[r.id] || {};
      if (r.market) marks.push("market");
      if (r.heal) marks.push("+" + r.heal + "♥");
      if (r.gold) marks.push(r.gold + "g");
      if (l.minor) marks.push(l.minor + " minor");
      if (l.major) marks.push(l.major + " major");
      if (l.idols) marks.push(l.idols + " idol" + (l.idols > 1 ? "s" : ""));
      if (marks.length) root.appendChild(S.text(p[0], p[1] + 6, marks.join(" · "), {"text-anchor": "middle", "class": "cl-room-m"}));
      if (l.artifact) {
        var art = artifacts[l.artifact] || {};
        root.appendChild(s("g", {"class": "cl-art", title: "artifact " + (art.name || l.artifact) + " (" + (art.value || "?") + " points)"},
          s("circle", {cx: p[0] + BW / 2 - 4, cy: p[1] - BH / 2 - 2, r: 10, "class": "cl-artifact"}),
          S.text(p[0] + BW / 2 - 4, p[1] - BH / 2 + 2, String(art.value || "A"), {"text-anchor": "middle", "class": "cl-artifact-t"})));
      }
    });
    var here = {};
    (v.players || []).forEach(function (pl) { if (pl.room && pos[pl.room]) (here[pl.room] = here[pl.room] || []).push(pl); });
    Object.keys(here).forEach(function (rid) {
      here[rid].forEach(function (pl, i, all) {
        var p = pos[rid], cx = p[0] - (all.length - 1) * 9 + i * 18, cy = p[1] + 18;
        root.appendChild(s("g", {"class": "cl-meeple" + (pl.seat === v.active_seat ? " cl-active" : ""), title: S.seatName(ctx, pl.seat) + " (" + pl.colour + ")"},
          s("circle", {cx: cx, cy: cy - 5, r: 5, fill: COL[pl.colour] || "#888"}),
          s("path", {d: "M" + (cx - 7) + "," + (cy + 8) + " Q" + cx + "," + (cy - 6) + " " + (cx + 7) + "," + (cy + 8) + " z", fill: COL[pl.colour] || "#888"})));
      });
    });
    // dragon track
    var rage = v.rage || {}, track = (st.constants && st.constants.rage_track) || [], cubes = v.cubes || {};
    var dw = Math.max(track.length, 1) * 46 + 260, dragon = S.svg(dw, 96, "clank-dragon");
    dragon.appendChild(S.text(8, 18, "Dragon rage", {"class": "cl-zone-t"}));
    track.forEach(function (n, i) {
      dragon.appendChild(s("g", {title: "rage " + i + ": draw " + n + " cubes"},
        s("rect", {x: 8 + i * 46, y: 28, width: 40, height: 40, rx: 8, "class": "cl-rage" + (i === rage.index ? " cl-rage-now" : i < rage.index ? " cl-rage-past" : "")}),
        S.text(28 + i * 46, 54, String(n), {"text-anchor": "middle", "class": "cl-rage-t"})));
    });
    var bx = 20 + track.length * 46, bag = cubes.bag || {};
    dragon.appendChild(S.text(bx, 18, "Bag", {"class": "cl-zone-t"}));
    Object.keys(bag).forEach(function (c, k) {
      var pl = (v.players || [])[+c], colour = c === "black" ? "#222" : COL[pl ? pl.colour : ""] || "#888";
      dragon.appendChild(s("g", {title: bag[c] + " " + (c === "black" ? "dragon" : S.seatName(ctx, +c)) + " cubes"},
        s("rect", {x: bx + k * 62, y: 30, width: 18, height: 18, rx: 3, fill: colour}),
        S.text(bx + 24 + k * 62, 44, "×" + bag[c])));
    });
    var area = cubes.clank_area || {};
    dragon.appendChild(S.text(bx, 80, "Clank area: " + (Object.keys(area).map(function (c) { return S.seatName(ctx, +c) + " " + area[c]; }).join(", ") || "empty"), {"class": "cl-room-m"}));
    // panels
    var panels = [], health = (st.constants && st.constants.health) || 10;
    (v.players || []).forEach(function (pl) {
      var facts = h("div", {"class": "stat-row"},
        h("span", null, "gold ", h("b", null, pl.gold)), h("span", null, "damage ", h("b", null, pl.damage + "/" + health)),
        h("span", null, "deck ", h("b", null, pl.deck_count)), h("span", null, "hand ", h("b", null, pl.hand_count)),
        h("span", null, S.label(pl.status)));
      var hp = S.svg(200, 10, "hpbar"); hp.appendChild(S.bar(0, 1, 200, 8, 1 - pl.damage / health, pl.damage / health > 0.6 ? "hp-low" : ""));
      var own = v.private && v.private.hand && v.seat === pl.seat ? v.private.hand : (v.hidden && v.hidden.hands ? v.hidden.hands[pl.seat] : null);
      var held = [].concat((pl.artifacts || []).map(function (a) { var art = artifacts[a] || {}; return S.card({name: art.name || a, id: a, value: art.value}, "cl-artifact-card"); }),
        (pl.tokens || []).map(function (t) { return S.cardOf(ctx, t.type || t.id); }),
        (pl.market_items || []).map(function (id) { return S.cardOf(ctx, id); }),
        (pl.idols || []).map(function (id) { return S.card({name: "idol", id: id}); }),
        pl.mastery ? [S.cardOf(ctx, pl.mastery)] : []);
      panels.push(h("div", {"class": "rpanel " + S.seatClass(pl.seat)}, h("h4", null, S.seatName(ctx, pl.seat), h("span", {"class": "muted"}, pl.seat === v.active_seat ? "active" : pl.colour)),
        facts, hp,
        own ? cardRow(ctx, "hand", own) : null,
        cardRow(ctx, "in play", pl.play),
        held.length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "holds"), held) : null,
        (pl.discard || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "discard"), h("span", {"class": "muted small"}, pl.discard.length + " card" + (pl.discard.length > 1 ? "s" : "") + ", top: "), cardChip(ctx, pl.discard[pl.discard.length - 1])) : null));
    });
    panels.push(S.panel("Dungeon row", [h("div", {"class": "chips"}, (v.row || []).map(function (c) { return cardChip(ctx, c); })),
      v.danger_in_row ? h("div", {"class": "stat-row"}, h("b", {"class": "loss"}, v.danger_in_row + " danger card(s): +" + v.danger_in_row + " cube(s) per attack")) : null]));
    var mk = v.market || {};
    panels.push(S.panel("Market · reserve", [h("div", {"class": "stat-row"},
      Object.keys(mk).map(function (key) { return h("span", null, S.label(key) + " ", h("b", null, Array.isArray(mk[key]) ? mk[key].join("/") : mk[key])); }),
      Object.keys(v.reserve || {}).map(function (key) { return h("span", null, S.label(key) + " ", h("b", null, v.reserve[key])); }))]));
    var pend = v.pending, cd = v.countdown || {};
    panels.push(S.panel("Round " + v.round + " / " + v.round_limit, [h("div", {"class": "stat-row"},
      h("span", null, "phase ", h("b", null, S.label(v.phase))), h("span", null, "dungeon deck ", h("b", null, v.dungeon_deck_count)),
      v.turn ? h("span", null, "skill ", h("b", null, v.turn.skill), " swords ", h("b", null, v.turn.swords), " boots ", h("b", null, v.turn.boots)) : null,
      pend ? h("span", null, S.seatName(ctx, pend.seat) + " must ", h("b", null, S.label(pend.kind))) : null,
      cd.owner !== null && cd.owner !== undefined ? h("b", {"class": "loss"}, "countdown " + (cd.space || "?") + " (" + S.seatName(ctx, cd.owner) + " is out)") : null)]));
    return h("div", {"class": "render"}, root, dragon, h("div", {"class": "rpanels"}, panels));
  };
})();
