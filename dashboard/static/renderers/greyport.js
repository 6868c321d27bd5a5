// Greyport: the location card (HP bar, ability, its monster group), each hero's card with HP
// and the monsters engaging them, the recruit rows and decks; hands where the view shows them.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h;
  function monsters(g, list, x, y, w) {
    (list || []).forEach(function (m, i) {
      var mx = x + (i % 4) * (w / 4), my = y + Math.floor(i / 4) * 44;
      g.appendChild(s("g", {"class": "gp-monster", title: m.id + (m.damage ? ", " + m.damage + " damage" : "")},
        s("path", {d: "M" + (mx + 6) + "," + (my + 36) + " L" + (mx + 6) + "," + (my + 10) + " Q" + (mx + w / 8) + "," + (my - 4) + " " + (mx + w / 4 - 10) + "," + (my + 10) + " L" + (mx + w / 4 - 10) + "," + (my + 36) + " z"}),
        S.text(mx + w / 8 - 2, my + 24, String(m.id).split("#")[0], {"text-anchor": "middle", "class": "gp-m-t"}),
        m.damage ? S.text(mx + w / 8 - 2, my + 34, "−" + m.damage, {"text-anchor": "middle", "class": "gp-dmg"}) : null));
    });
  }
  Arena.renderers.greyport = function (v, ctx) {
    var players = v.players || [], W = Math.max(760, players.length * 250 + 20), root = S.svg(W, 430, "gp");
    var loc = v.location || {}, lx = W / 2 - 200;
    var lg = s("g", {"class": "gp-location gp-" + (loc.status || "standing"), title: (loc.name || "") + (loc.ability ? " · " + loc.ability : "")});
    lg.appendChild(s("rect", {x: lx, y: 10, width: 400, height: 170, rx: 14, "class": "gp-loc-card"}));
    lg.appendChild(S.text(lx + 16, 36, (loc.name || "Location") + (loc.id ? "  (" + loc.id + ")" : ""), {"class": "gp-title"}));
    lg.appendChild(S.text(lx + 16, 54, S.label(loc.ability || "") + (loc.reward ? " · reward: " + S.label(loc.reward) : ""), {"class": "gp-sub"}));
    var frac = loc.max_hp ? loc.hp / loc.max_hp : 0;
    lg.appendChild(S.bar(lx + 16, 64, 300, 12, frac, frac < 0.34 ? "hp-low" : frac < 0.67 ? "hp-mid" : ""));
    lg.appendChild(S.text(lx + 326, 75, (loc.hp === undefined ? "?" : loc.hp) + " / " + (loc.max_hp || "?") + " HP", {"class": "gp-sub"}));
    monsters(lg, loc.group, lx + 16, 88, 368);
    root.appendChild(lg);
    root.appendChild(S.text(lx + 416, 30, "Encounter " + (v.encounter || "?") + " · round " + v.encounter_round + " (" + v.total_rounds + "/" + v.round_limit + ")", {"class": "gp-sub"}));
    root.appendChild(S.text(lx + 416, 48, "Objective: " + S.label(v.objective || ""), {"class": "gp-sub"}));
    root.appendChild(S.text(lx + 416, 66, "Locations destroyed: " + (v.locations_destroyed || 0), {"class": "gp-sub"}));
    (v.bosses || []).forEach(function (b, i) { root.appendChild(S.text(lx + 416, 84 + i * 16, "Boss: " + (b.id || b.name || JSON.stringify(b)), {"class": "gp-boss"})); });
    players.forEach(function (p, i) {
      var x = 10 + i * ((W - 20) / players.length), w = (W - 20) / players.length - 12, g = s("g", {"class": "gp-hero " + S.seatClass(p.seat) + (p.seat === v.defending_seat ? " gp-defending" : "")});
      g.appendChild(s("rect", {x: x, y: 200, width: w, height: 220, rx: 12, "class": "gp-hero-card"}));
      g.appendChild(s("rect", {x: x, y: 200, width: w, height: 8, rx: 4, "class": "gp-hero-band"}));
      g.appendChild(S.text(x + 12, 228, S.seatName(ctx, p.seat) + " · " + (p.character || ""), {"class": "gp-title"}));
      var f = p.max_hp ? p.hp / p.max_hp : 0;
      g.appendChild(S.bar(x + 12, 238, w - 90, 10, f, f < 0.34 ? "hp-low" : f < 0.67 ? "hp-mid" : ""));
      g.appendChild(S.text(x + w - 72, 248, p.hp + "/" + p.max_hp + " HP", {"class": "gp-sub"}));
      g.appendChild(S.text(x + 12, 268, "level " + p.hero_level + " · shields " + (p.shields || 0) + " · hand " + (p.hand_size !== undefined ? p.hand_size : (p.hand || []).length) + " · deck " + p.deck_size, {"class": "gp-sub"}));
      var coins = p.coins || {};
      g.appendChild(S.text(x + 12, 284, "coins " + (coins.copper || 0) + "c " + (coins.silver || 0) + "s " + (coins.gold || 0) + "g" + (p.seat === v.defending_seat ? " · defending" : ""), {"class": "gp-sub"}));
      monsters(g, p.group, x + 12, 296, w - 24);
      root.appendChild(g);
    });
    var panels = players.map(function (p) {
      return h("div", {"class": "rpanel " + S.seatClass(p.seat)}, h("h4", null, S.seatName(ctx, p.seat), h("span", {"class": "muted"}, p.character)),
        p.hand ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "hand"), p.hand.map(function (c) { return S.card({name: c}); })) : h("div", {"class": "chips"}, Array.apply(null, Array(p.hand_size || 0)).map(function () { return S.card(null); })),
        (p.play || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "in play"), p.play.map(function (c) { return S.card({name: c.card, kind: c.exhausted ? "exhausted" : ""}); })) : null);
    });
    var rows = v.rows || {};
    panels.push(S.panel("Recruit rows", Object.keys(rows).map(function (r) { return h("div", {"class": "chips"}, h("small", {"class": "muted"}, r), rows[r].map(function (c) { return S.card(c ? {name: c} : null); })); })));
    var ds = v.deck_sizes || {};
    panels.push(S.panel("Decks", [h("div", {"class": "stat-row"}, Object.keys(ds).map(function (k) { return h("span", null, k + " ", h("b", null, ds[k])); }))]));
    return h("div", {"class": "render"}, root, h("div", {"class": "rpanels"}, panels));
  };
})();
