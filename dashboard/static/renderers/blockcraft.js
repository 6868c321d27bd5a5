// Blockcraft: the map as a grid where every cell is a stack of card slabs (bottom to top, its
// height the stack size), players standing on their stack; plus each player's stamina, hunger,
// XP, tools and (own) hand. Map cards are compact strings (referee/games/blockcraft/README.md,
// "View format"): "?D" a face-down card of layer D ("?D:log" in the full view), or
// "placed:stone" / "loose:coal_ore" / "farmland:..." for a face-up card. Names come from the
// game's content through ctx.glossary.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h, C = 100, SLAB = 9;
  var LAYER = {D: "#8d6e4f", S: "#8b8d98", U: "#4a4f63"};
  var FACE = {placed: "#e9c46a", loose: "#f4e1a6", farmland: "#8a9a3b"};

  function parse(card) {
    if (card && typeof card === "object") return {face: card.face === "up" ? "up" : "down", layer: card.layer, card: card.card || null, state: card.state || "placed"};
    var str = String(card);
    if (str.charAt(0) === "?") { var parts = str.slice(1).split(":"); return {face: "down", layer: parts[0], card: parts[1] || null}; }
    var at = str.indexOf(":");
    return at < 0 ? {face: "up", state: "placed", card: str} : {face: "up", state: str.slice(0, at), card: str.slice(at + 1)};
  }
  function short(name) { return name.length > 14 ? name.slice(0, 13) + "…" : name; }

  function drawMap(v, ctx) {
    var map = v.map || {}, W = map.w || 4, H = map.h || 4, cells = map.cells || {};
    // a small map is centred in a wider drawing rather than blown up to the board's full width
    var natural = W * C + 30, width = Math.max(natural, 760), root = S.svg(width, H * C + 30, "bc"), board = s("g", {transform: "translate(" + (width - natural) / 2 + ",0)"});
    root.appendChild(board);
    board.appendChild(s("rect", {x: 4, y: 4, width: W * C + 22, height: H * C + 22, rx: 10, "class": v.day === false ? "bc-night" : "bc-day"}));
    var tops = {};
    for (var y = 0; y < H; y++) for (var x = 0; x < W; x++) {
      var stack = (cells[x + "," + y] || []).map(parse), bx = 15 + x * C, by = 15 + y * C;
      var upper = stack[stack.length - 1];
      var upperName = upper ? (upper.card ? S.named(ctx, upper.card) : "face down (" + upper.layer + ")") : "empty";
      var g = s("g", {"class": "bc-cell", title: "cell " + x + "," + y + ": " + stack.length + " card(s); top: " + upperName + (upper && upper.face === "up" ? " (" + upper.state + ")" : "")});
      g.appendChild(s("rect", {x: bx + 2, y: by + 2, width: C - 4, height: C - 4, rx: 6, "class": "bc-ground"}));
      stack.forEach(function (c, i) {
        var yy = by + C - 30 - i * SLAB, col = c.face === "up" ? (FACE[c.state] || FACE.placed) : (LAYER[c.layer] || "#777");
        g.appendChild(s("rect", {x: bx + 10, y: yy, width: C - 20, height: 16, rx: 3, fill: col, "class": "bc-slab" + (c.face === "up" ? " bc-up bc-" + c.state : "") + (c.face === "down" && c.card ? " bc-known" : "")}));
        g.appendChild(s("rect", {x: bx + 10, y: yy, width: C - 20, height: 5, rx: 2, "class": "bc-slab-top"}));
      });
      if (upper && upper.card) g.appendChild(S.text(bx + C / 2, by + C - 6, short(S.named(ctx, upper.card)), {"text-anchor": "middle", "class": "bc-card-t" + (upper.face === "up" ? "" : " bc-secret")}));
      g.appendChild(S.text(bx + 7, by + 14, String(stack.length), {"class": "bc-h"}));
      board.appendChild(g);
      tops[x + "," + y] = by + C - 30 - (stack.length - 1) * SLAB;
    }
    var at = {};
    (v.players || []).forEach(function (p) { if (p.pos) { var k = p.pos.join(","); (at[k] = at[k] || []).push(p); } });
    Object.keys(at).forEach(function (k) {
      var xy = k.split(",").map(Number), base = tops[k] !== undefined ? tops[k] : 15 + xy[1] * C + C - 30;
      at[k].forEach(function (p, i) {
        var cx = 15 + xy[0] * C + C / 2 + (i - (at[k].length - 1) / 2) * 22, feet = base - (p.airborne ? 10 : 0);
        board.appendChild(s("g", {"class": "bc-player " + S.seatClass(p.seat) + (p.status !== "alive" ? " bc-dead" : "") + (p.seat === v.turn_seat ? " bc-turn" : ""),
          title: S.seatName(ctx, p.seat) + " (" + (p.character ? S.named(ctx, p.character) : "character not chosen") + "), height " + p.height + (p.airborne ? ", airborne" : "")},
          s("rect", {x: cx - 8, y: feet - 20, width: 16, height: 20, rx: 3, "class": "bc-body"}),
          s("rect", {x: cx - 7, y: feet - 33, width: 14, height: 13, rx: 2, "class": "bc-head"}),
          S.text(cx, feet - 5, String(p.seat), {"text-anchor": "middle", "class": "bc-seat-t"})));
      });
    });
    return root;
  }

  Arena.renderers.blockcraft = function (v, ctx) {
    var root = drawMap(v, ctx), panels = [];
    (v.players || []).forEach(function (p) {
      var bars = S.svg(220, 30, "bc-bars");
      bars.appendChild(S.text(0, 9, "stamina", {"class": "bc-lbl"})); bars.appendChild(S.bar(60, 2, 160, 8, (p.stamina || 0) / (p.max_stamina || 1), (p.stamina || 0) / (p.max_stamina || 1) < 0.34 ? "hp-low" : ""));
      bars.appendChild(S.text(0, 25, "hunger", {"class": "bc-lbl"})); bars.appendChild(S.bar(60, 18, 160, 8, (p.hunger || 0) / (p.max_hunger || 1), "hp-mid"));
      var hand = p.seat === v.seat && v.private && v.private.hand ? v.private.hand : (v.hidden && v.hidden.hands ? v.hidden.hands[p.seat] : null);
      var gear = [].concat((p.tools || []).map(function (t) {
        return typeof t === "object" ? S.cardOf(ctx, t.card, "", {durability: t.durability + "/" + t.max, enchantments: (t.enchantments || []).map(function (e) { return S.named(ctx, e); }).join(", ")}) : S.cardOf(ctx, t); }),
        p.armour ? [typeof p.armour === "object" ? S.cardOf(ctx, p.armour.card, "", {durability: p.armour.durability + "/" + p.armour.max}) : S.cardOf(ctx, p.armour)] : [],
        (p.blocks || []).map(function (b) { return S.cardOf(ctx, typeof b === "object" ? b.card : b, "muted"); }));
      var who = (p.character ? S.named(ctx, p.character) : "choosing") + (p.identity ? " · " + S.named(ctx, p.identity) : "");
      panels.push(h("div", {"class": "rpanel " + S.seatClass(p.seat)}, h("h4", null, S.seatName(ctx, p.seat), h("span", {"class": "muted"}, who)),
        h("div", {"class": "stat-row"}, h("span", null, S.label(p.status)), h("span", null, "XP ", h("b", null, p.xp)), h("span", null, "kills ", h("b", null, p.kills)),
          h("span", null, "hand ", h("b", null, p.hand_count)), p.ap !== null && p.ap !== undefined ? h("span", null, "AP ", h("b", null, p.ap)) : null,
          p.side && p.side !== "ffa" ? h("span", null, S.label(p.side)) : null),
        bars,
        gear.length ? h("div", {"class": "chips"}, gear) : null,
        hand && Object.keys(hand).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "hand"), Object.keys(hand).map(function (c) { return S.cardOf(ctx, c, "", {count: hand[c]}); })) : null));
    });
    var pend = (v.pending || []).map(function (p) { return S.seatName(ctx, p.seat) + ": " + S.label(String(p.state || "").toLowerCase()); }).join(", ");
    panels.push(S.panel("Round " + v.round + " / " + v.max_rounds + (v.day === false ? " · night" : " · day"), [h("div", {"class": "stat-row"},
      h("span", null, "mode ", h("b", null, S.label(v.mode))), h("span", null, "phase ", h("b", null, S.label(String(v.phase || "").toLowerCase()))),
      h("span", null, "draw pile ", h("b", null, v.draw_pile)), h("span", null, "enchant deck ", h("b", null, v.enchant_deck))),
      pend ? h("div", {"class": "stat-row"}, h("span", {"class": "muted"}, "deciding: " + pend)) : null,
      (v.discard_pile || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "discard (latest)"), v.discard_pile.slice(-8).map(function (c) { return S.cardOf(ctx, c); })) : null]));
    return h("div", {"class": "render"}, root, h("div", {"class": "rpanels"}, panels));
  };
})();
