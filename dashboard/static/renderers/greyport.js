// Greyport: the location card (HP bar, ability, its monster group), the encounter's state beside
// it, each hero's card with HP and the monsters engaging them, the recruit rows and decks; hands
// where the view shows them. Cards and monsters are ids with a copy number ("G03#1", "S14#2"):
// their names come from the game's content through ctx.glossary.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h;
  function short(name, n) { return name.length > n ? name.slice(0, n - 1) + "…" : name; }
  function monsters(ctx, g, list, x, y, w) {
    var per = Math.max(1, Math.floor(w / 96)), mw = w / per;
    (list || []).forEach(function (m, i) {
      var e = S.entry(ctx, m.id) || {}, name = e.name || String(m.id).split("#")[0];
      var mx = x + (i % per) * mw, my = y + Math.floor(i / per) * 50, left = e.hp !== undefined ? e.hp - (m.damage || 0) : null;
      g.appendChild(s("g", {"class": "gp-monster", title: name + " (" + m.id + ")" + (e.hp !== undefined ? ", " + left + "/" + e.hp + " HP" : "") +
          (e.damage !== undefined ? ", hits for " + e.damage : "") + (m.damage ? ", " + m.damage + " damage taken" : "")},
        s("path", {d: "M" + (mx + 4) + "," + (my + 44) + " L" + (mx + 4) + "," + (my + 12) + " Q" + (mx + mw / 2 - 2) + "," + (my - 6) + " " + (mx + mw - 8) + "," + (my + 12) + " L" + (mx + mw - 8) + "," + (my + 44) + " z"}),
        S.text(mx + mw / 2 - 2, my + 24, short(name, Math.floor(mw / 6.2)), {"text-anchor": "middle", "class": "gp-m-t"}),
        S.text(mx + mw / 2 - 2, my + 38, (left !== null ? "♥ " + left + "/" + e.hp : "") + (e.damage !== undefined ? "  ⚔ " + e.damage : ""), {"text-anchor": "middle", "class": "gp-dmg"})));
    });
  }
  Arena.renderers.greyport = function (v, ctx) {
    var players = v.players || [], W = Math.max(860, players.length * 280 + 20), heroH = 250, root = S.svg(W, 200 + heroH + 20, "gp");
    var loc = v.location || {}, lx = 10, lw = 440;
    var lg = s("g", {"class": "gp-location gp-" + (loc.status || "standing"), title: (loc.name || "") + (loc.ability ? " · " + S.label(loc.ability) : "") + (loc.penalty ? " · if lost: " + loc.penalty : "")});
    lg.appendChild(s("rect", {x: lx, y: 10, width: lw, height: 180, rx: 14, "class": "gp-loc-card"}));
    lg.appendChild(S.text(lx + 16, 36, (loc.name || "Location") + (loc.status ? " · " + S.label(loc.status) : ""), {"class": "gp-title"}));
    lg.appendChild(S.text(lx + 16, 54, S.label(loc.ability || "") + (loc.reward ? " · reward: " + S.label(loc.reward) : ""), {"class": "gp-sub"}));
    var frac = loc.max_hp ? loc.hp / loc.max_hp : 0;
    lg.appendChild(S.bar(lx + 16, 64, lw - 120, 12, frac, frac < 0.34 ? "hp-low" : frac < 0.67 ? "hp-mid" : ""));
    lg.appendChild(S.text(lx + lw - 94, 75, (loc.hp === undefined ? "?" : loc.hp) + " / " + (loc.max_hp || "?") + " HP", {"class": "gp-sub"}));
    monsters(ctx, lg, loc.group, lx + 16, 90, lw - 32);
    root.appendChild(lg);
    // the encounter, beside the location
    var ix = lx + lw + 24, info = [
      ["Chapter " + (v.chapter || "?") + " · encounter " + (v.encounter || "?"), "gp-title"],
      ["round " + (v.encounter_round || 0) + " of this encounter · " + (v.total_rounds || 0) + " / " + (v.round_limit || "?") + " in all", "gp-sub"],
      ["objective: " + S.label(v.objective || "?") + " · locations destroyed: " + (v.locations_destroyed || 0), "gp-sub"],
      ["phase " + S.label(v.phase || "?") + (v.pending ? " · " + S.seatName(ctx, v.pending.seat) + " to " + S.label(v.pending.kind) : ""), "gp-sub"],
      [v.defending_seat !== null && v.defending_seat !== undefined ? "defending: " + S.seatName(ctx, v.defending_seat) + (v.marker ? " (" + S.label(v.marker) + ")" : "") : "", "gp-sub"]];
    info.forEach(function (row, i) { if (row[0]) root.appendChild(S.text(ix, 34 + i * 20, row[0], {"class": row[1]})); });
    (v.bosses || []).forEach(function (b, i) {
      var id = typeof b === "object" ? (b.id || b.name) : b;
      root.appendChild(S.text(ix, 140 + i * 18, "Boss: " + S.named(ctx, id) + (b && b.hp !== undefined ? " (" + b.hp + " HP)" : ""), {"class": "gp-boss"}));
    });
    if (v.result) root.appendChild(S.text(ix, 180, "Result: " + S.label(typeof v.result === "object" ? (v.result.team_result || v.result.reason || JSON.stringify(v.result)) : v.result) + (v.loss_reason ? " · " + S.label(v.loss_reason) : ""), {"class": "gp-boss"}));
    players.forEach(function (p, i) {
      var x = 10 + i * ((W - 20) / players.length), w = (W - 20) / players.length - 12, y0 = 210;
      var g = s("g", {"class": "gp-hero " + S.seatClass(p.seat) + (p.seat === v.defending_seat ? " gp-defending" : "")});
      g.appendChild(s("rect", {x: x, y: y0, width: w, height: heroH, rx: 12, "class": "gp-hero-card"}));
      g.appendChild(s("rect", {x: x, y: y0, width: w, height: 8, rx: 4, "class": "gp-hero-band"}));
      g.appendChild(S.text(x + 12, y0 + 28, S.seatName(ctx, p.seat) + " · " + S.named(ctx, p.character || ""), {"class": "gp-title"}));
      var f = p.max_hp ? p.hp / p.max_hp : 0;
      g.appendChild(S.bar(x + 12, y0 + 38, w - 100, 10, f, f < 0.34 ? "hp-low" : f < 0.67 ? "hp-mid" : ""));
      g.appendChild(S.text(x + w - 80, y0 + 48, p.hp + " / " + p.max_hp + " HP", {"class": "gp-sub"}));
      g.appendChild(S.text(x + 12, y0 + 68, "level " + p.hero_level + " · shields " + (p.shields || 0) + " · hand " + (p.hand_size !== undefined ? p.hand_size : (p.hand || []).length) + " · deck " + p.deck_size, {"class": "gp-sub"}));
      var coins = p.coins || {};
      g.appendChild(S.text(x + 12, y0 + 86, "coins " + (coins.copper || 0) + " copper · " + (coins.silver || 0) + " silver · " + (coins.gold || 0) + " gold" + (p.seat === v.priority_seat ? " · priority" : ""), {"class": "gp-sub"}));
      if ((p.group || []).length) g.appendChild(S.text(x + 12, y0 + 106, "engaged by", {"class": "gp-sub"}));
      monsters(ctx, g, p.group, x + 12, y0 + 114, w - 24);
      root.appendChild(g);
    });
    var panels = players.map(function (p) {
      var hand = p.hand ? p.hand.map(function (c) { return S.cardOf(ctx, c); }) : Array.apply(null, Array(p.hand_size || 0)).map(function () { return S.card(null); });
      return h("div", {"class": "rpanel " + S.seatClass(p.seat)}, h("h4", null, S.seatName(ctx, p.seat), h("span", {"class": "muted"}, S.named(ctx, p.character))),
        hand.length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "hand"), hand) : null,
        (p.play || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "in play"), p.play.map(function (c) {
          return S.cardOf(ctx, c.card, c.exhausted ? "gp-exhausted" : "", c.item ? {item: S.named(ctx, c.item)} : null); })) : null,
        (p.loose_items || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "items"), p.loose_items.map(function (c) { return S.cardOf(ctx, typeof c === "object" ? c.card : c); })) : null,
        (p.discard || []).length ? h("div", {"class": "stat-row"}, h("small", {"class": "muted"}, "discard " + p.discard.length + " · top: " + S.named(ctx, p.discard[p.discard.length - 1]))) : null);
    });
    var rows = v.rows || {};
    panels.push(S.panel("Recruit rows", Object.keys(rows).map(function (r) {
      return h("div", {"class": "chips"}, h("small", {"class": "muted"}, r), (rows[r] || []).map(function (c) { return c ? S.cardOf(ctx, c) : h("span", {"class": "card-chip muted"}, "empty"); })); })));
    var ds = v.deck_sizes || {};
    panels.push(S.panel("Decks", [h("div", {"class": "stat-row"}, Object.keys(ds).map(function (k) { return h("span", null, k + " ", h("b", null, ds[k])); })),
      (v.monster_discard || []).length ? h("div", {"class": "stat-row"}, h("small", {"class": "muted"}, "defeated: " + v.monster_discard.length + " monster(s)")) : null]));
    return h("div", {"class": "render"}, root, h("div", {"class": "rpanels"}, panels));
  };
})();
