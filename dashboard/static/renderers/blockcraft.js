// Blockcraft: the map as an isometric-ish grid where every cell is a stack of layer slabs
// (height = stack size), face-up cards on top, players standing at their height; plus each
// player's stamina, hunger, XP, tools and (own) hand.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h, C = 86, SLAB = 9;
  var LAYER = {D: "#8d6e4f", S: "#8b8d98", U: "#4a4f63", G: "#5fa55a", W: "#5aa7d6", B: "#2b2b33"};
  Arena.renderers.blockcraft = function (v, ctx) {
    var map = v.map || {}, W = map.w || 4, H = map.h || 4, cells = map.cells || {};
    var maxStack = 1;
    Object.keys(cells).forEach(function (k) { maxStack = Math.max(maxStack, cells[k].length); });
    var top = maxStack * SLAB + 14, root = S.svg(W * C + 30, H * C + top + 20, "bc");
    root.appendChild(s("rect", {x: 4, y: top - 6, width: W * C + 22, height: H * C + 12, rx: 10, "class": v.day === false ? "bc-night" : "bc-day"}));
    for (var y = 0; y < H; y++) for (var x = 0; x < W; x++) {
      var stack = cells[x + "," + y] || [], bx = 15 + x * C, by = top + y * C, g = s("g", {"class": "bc-cell", title: "cell " + x + "," + y + ": " + stack.length + " layer(s)"});
      g.appendChild(s("rect", {x: bx + 2, y: by + 2, width: C - 4, height: C - 4, rx: 6, "class": "bc-ground"}));
      stack.forEach(function (layer, i) {
        var off = i * SLAB, col = layer.face === "up" ? "#e9c46a" : (LAYER[layer.layer] || "#777");
        g.appendChild(s("rect", {x: bx + 8, y: by + C - 22 - off, width: C - 16, height: 16, rx: 3, fill: col, "class": "bc-slab" + (layer.face === "up" ? " bc-up" : "")}));
        g.appendChild(s("rect", {x: bx + 8, y: by + C - 22 - off, width: C - 16, height: 5, rx: 2, "class": "bc-slab-top"}));
      });
      var upper = stack[stack.length - 1];
      if (upper && upper.face === "up" && upper.card) g.appendChild(S.text(bx + C / 2, by + 14, S.label(upper.card), {"text-anchor": "middle", "class": "bc-card-t"}));
      else if (upper && upper.card) g.appendChild(S.text(bx + C / 2, by + 14, S.label(upper.card), {"text-anchor": "middle", "class": "bc-card-t bc-secret"}));
      g.appendChild(S.text(bx + 6, by + C - 4, String(stack.length), {"class": "bc-h"}));
      root.appendChild(g);
    }
    var at = {};
    (v.players || []).forEach(function (p) { if (p.pos) { var k = p.pos.join(","); (at[k] = at[k] || []).push(p); } });
    Object.keys(at).forEach(function (k) {
      var xy = k.split(",").map(Number);
      at[k].forEach(function (p, i) {
        var cx = 15 + xy[0] * C + C / 2 + (i - (at[k].length - 1) / 2) * 22, lift = ((p.height || 0)) * SLAB, cy = top + xy[1] * C + C - 34 - lift;
        root.appendChild(s("g", {"class": "bc-player " + S.seatClass(p.seat) + (p.status !== "alive" ? " bc-dead" : ""), title: S.seatName(ctx, p.seat) + " (" + S.label(p.character) + "), height " + p.height},
          s("rect", {x: cx - 8, y: cy - 8, width: 16, height: 20, rx: 3, "class": "bc-body"}),
          s("rect", {x: cx - 7, y: cy - 20, width: 14, height: 13, rx: 2, "class": "bc-head"}),
          S.text(cx, cy + 7, String(p.seat), {"text-anchor": "middle", "class": "bc-seat-t"})));
      });
    });
    var panels = [];
    (v.players || []).forEach(function (p) {
      var bars = S.svg(220, 30, "bc-bars");
      bars.appendChild(S.text(0, 9, "stamina", {"class": "bc-lbl"})); bars.appendChild(S.bar(60, 2, 160, 8, (p.stamina || 0) / (p.max_stamina || 1), (p.stamina || 0) / (p.max_stamina || 1) < 0.34 ? "hp-low" : ""));
      bars.appendChild(S.text(0, 25, "hunger", {"class": "bc-lbl"})); bars.appendChild(S.bar(60, 18, 160, 8, (p.hunger || 0) / (p.max_hunger || 1), "hp-mid"));
      var hand = p.seat === v.seat && v.private && v.private.hand ? v.private.hand : (v.hidden && v.hidden.hands ? v.hidden.hands[p.seat] : null);
      panels.push(h("div", {"class": "rpanel " + S.seatClass(p.seat)}, h("h4", null, S.seatName(ctx, p.seat), h("span", {"class": "muted"}, S.label(p.character) + (p.identity ? " · " + S.label(p.identity) : ""))),
        h("div", {"class": "stat-row"}, h("span", null, S.label(p.status)), h("span", null, "XP ", h("b", null, p.xp)), h("span", null, "kills ", h("b", null, p.kills)),
          h("span", null, "hand ", h("b", null, p.hand_count)), p.ap !== null && p.ap !== undefined ? h("span", null, "AP ", h("b", null, p.ap)) : null),
        bars,
        (p.tools || []).length || p.armour ? h("div", {"class": "chips"}, (p.tools || []).map(function (t) { return S.card(typeof t === "object" ? t : {name: t}); }), p.armour ? S.card({name: p.armour}) : null) : null,
        hand && Object.keys(hand).length ? h("div", {"class": "chips"}, Object.keys(hand).map(function (c) { return S.card({name: S.label(c) + " ×" + hand[c]}); })) : null));
    });
    panels.push(S.panel("Round " + v.round + " / " + v.max_rounds + (v.day === false ? " · night" : " · day"), [h("div", {"class": "stat-row"},
      h("span", null, "mode ", h("b", null, S.label(v.mode))), h("span", null, "phase ", h("b", null, S.label(v.phase))),
      h("span", null, "draw pile ", h("b", null, v.draw_pile)), h("span", null, "enchant deck ", h("b", null, v.enchant_deck))),
      (v.discard_pile || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "discard"), v.discard_pile.slice(-8).map(function (c) { return S.card({name: c}); })) : null]));
    return h("div", {"class": "render"}, root, h("div", {"class": "rpanels"}, panels));
  };
})();
