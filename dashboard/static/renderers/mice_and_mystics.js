// Mice and Mystics: each board side as a tile of areas (laid out by distance from the entrance)
// joined by their passages (open, yellow, red), exits to the next tile, mice and monsters in
// their areas; the initiative track, the story track (hourglass vs end page, cheese wheel),
// and each mouse's life, cheese, gear and abilities.
(function () {
  "use strict";
  var S = Arena.svg, s = S.s, h = S.h, TW = 380, TH = 300;
  var EDGE = {open: "#a89f8c", yellow: "#f5a524", red: "#e5484d"};
  function layout(side) {
    var areas = side.areas || [], adj = {}, depth = {}, pos = {};
    areas.forEach(function (a) { adj[a.id] = []; });
    (side.edges || []).forEach(function (e) { if (adj[e.a] && adj[e.b]) { adj[e.a].push(e.b); adj[e.b].push(e.a); } });
    if (!areas.length) return pos;
    var q = [areas[0].id]; depth[areas[0].id] = 0;
    while (q.length) { var x = q.shift(); adj[x].forEach(function (y) { if (depth[y] === undefined) { depth[y] = depth[x] + 1; q.push(y); } }); }
    var cols = {}, maxD = 0;
    areas.forEach(function (a) { var d = depth[a.id] === undefined ? 0 : depth[a.id]; maxD = Math.max(maxD, d); (cols[d] = cols[d] || []).push(a.id); });
    Object.keys(cols).forEach(function (d) {
      cols[d].forEach(function (id, i) { pos[id] = [40 + (+d) * (TW - 80) / Math.max(1, maxD), 62 + (i + 0.5) * (TH - 90) / cols[d].length]; });
    });
    return pos;
  }
  Arena.renderers.mice_and_mystics = function (v, ctx) {
    var board = v.board || {}, sides = board.sides || {}, ids = Object.keys(sides);
    var shown = ids.filter(function (id) { return (v.sides_entered || []).indexOf(id) >= 0 || id === v.current_side; });
    if (!shown.length) shown = ids.slice(0, 1);
    var natural = shown.length * (TW + 20) + 10, width = Math.max(natural, 820), shift = (width - natural) / 2;
    var root = S.svg(width, TH + 20, "mm");
    var where = {};
    Object.keys(v.mice || {}).forEach(function (k) { var m = v.mice[k]; if (m.area && !m.captured) (where[m.area] = where[m.area] || []).push({kind: "mouse", id: k, m: m}); });
    Object.keys(v.monsters || {}).forEach(function (k) { var m = v.monsters[k]; if (m.area) (where[m.area] = where[m.area] || []).push({kind: "monster", id: k, m: m}); });
    if (v.boss && v.boss.area) (where[v.boss.area] = where[v.boss.area] || []).push({kind: "boss", id: "boss", m: v.boss});
    shown.forEach(function (sid, ti) {
      var side = sides[sid], ox = shift + 10 + ti * (TW + 20), pos = layout(side), g = s("g", {transform: "translate(" + ox + ",10)"});
      g.appendChild(s("rect", {x: 0, y: 0, width: TW, height: TH, rx: 14, "class": "mm-tile mm-" + (side.colour || "plain") + (sid === v.current_side ? " mm-current" : "")}));
      g.appendChild(S.text(14, 24, sid + " · " + (side.name || ""), {"class": "mm-tile-t"}));
      (side.edges || []).forEach(function (e) {
        var a = pos[e.a], b = pos[e.b]; if (!a || !b) return;
        g.appendChild(s("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: EDGE[e.kind] || "#a89f8c", "class": "mm-edge mm-edge-" + e.kind, title: e.kind + " passage" + (e.toward ? " toward " + e.toward : "")}));
      });
      (side.areas || []).forEach(function (a) {
        var p = pos[a.id]; if (!p) return;
        var exit = (board.exits || []).filter(function (x) { return x.area === a.id; })[0];
        var ag = s("g", {title: a.id + (a.special ? " · " + a.special : "") + (a.water ? " · water" : "") + (a.trap_slot ? " · trap slot" : "")});
        ag.appendChild(s("circle", {cx: p[0], cy: p[1], r: 30, "class": "mm-area" + (a.water ? " mm-water" : "") + (exit ? " mm-exit" : "")}));
        ag.appendChild(S.text(p[0], p[1] - 18, String(a.ord), {"text-anchor": "middle", "class": "mm-ord"}));
        if (a.special) ag.appendChild(S.text(p[0], p[1] + 42, a.special, {"text-anchor": "middle", "class": "mm-special"}));
        if (exit) ag.appendChild(S.text(p[0], p[1] + 42 + (a.special ? 11 : 0), exit.kind === "victory" ? "★ goal" : "→ " + exit.to_side, {"text-anchor": "middle", "class": "mm-exit-t"}));
        (where[a.id] || []).forEach(function (f, i, all) {
          var n = all.length, ang = (i / Math.max(1, n)) * Math.PI * 2, r = n > 1 ? 14 : 0, fx = p[0] + r * Math.cos(ang), fy = p[1] + 4 + r * Math.sin(ang);
          if (f.kind === "mouse") {
            ag.appendChild(s("g", {"class": "mm-mouse " + S.seatClass(f.m.seat), title: f.m.name + " (" + S.seatName(ctx, f.m.seat) + "), " + (f.m.life - f.m.wounds) + "/" + f.m.life + " life"},
              s("circle", {cx: fx, cy: fy, r: 10}), S.text(fx, fy + 4, f.id.slice(0, 2).toUpperCase(), {"text-anchor": "middle", "class": "mm-fig-t"})));
          } else {
            ag.appendChild(s("g", {"class": "mm-monster" + (f.kind === "boss" ? " mm-boss" : ""), title: S.named(ctx, f.m.type || f.id) + " (" + f.id + ")" + (f.m.wounds ? ", " + f.m.wounds + " wound(s)" : "")},
              s("rect", {x: fx - 9, y: fy - 9, width: 18, height: 18, rx: 3, transform: "rotate(45 " + fx + " " + fy + ")"}),
              S.text(fx, fy + 4, (f.m.type || "?").slice(0, 2).toUpperCase(), {"text-anchor": "middle", "class": "mm-fig-t"})));
          }
        });
        g.appendChild(ag);
      });
      root.appendChild(g);
    });
    // initiative and story tracks
    var track = v.track || [], acted = v.acted_this_round || [];
    var tr = S.svg(Math.max(520, track.length * 96 + 20), 118, "mm-tracks");
    tr.appendChild(S.text(8, 16, "Initiative", {"class": "cl-zone-t"}));
    track.forEach(function (c, i) {
      var who = String(c).replace(/^init:/, ""), mouse = (v.mice || {})[who];
      tr.appendChild(s("g", {"class": "mm-init" + (c === v.active_card ? " mm-init-now" : acted.indexOf(c) >= 0 ? " mm-init-done" : "") + (mouse ? " " + S.seatClass(mouse.seat) : " mm-init-monster"), title: c},
        s("rect", {x: 8 + i * 96, y: 24, width: 88, height: 28, rx: 6}), S.text(52 + i * 96, 43, mouse ? String(mouse.name || who).split(" ")[0] : S.named(ctx, who), {"text-anchor": "middle"})));
    });
    var endp = v.end_page || 1;
    tr.appendChild(S.text(8, 76, "Story: hourglass " + v.hourglass + " / " + endp + " · cheese wheel " + (v.wheel || 0) + " · round " + v.round, {"class": "cl-zone-t"}));
    for (var i = 0; i <= endp; i++) tr.appendChild(s("rect", {x: 8 + i * 40, y: 84, width: 34, height: 18, rx: 4, "class": "mm-page" + (i < v.hourglass ? " mm-page-past" : i === v.hourglass ? " mm-page-now" : "") + (i === endp ? " mm-page-end" : ""), title: i === endp ? "the end page" : "page " + i}));
    for (var w = 0; w < 6; w++) tr.appendChild(s("circle", {cx: 8 + (endp + 1) * 40 + 20 + w * 20, cy: 93, r: 8, "class": "mm-cheese" + (w < (v.wheel || 0) ? " on" : ""), title: "cheese wheel"}));
    var panels = Object.keys(v.mice || {}).map(function (k) {
      var m = v.mice[k], life = m.life || 1, left = life - (m.wounds || 0);
      var hp = S.svg(200, 10, "hpbar"); hp.appendChild(S.bar(0, 1, 200, 8, left / life, left / life < 0.34 ? "hp-low" : left / life < 0.67 ? "hp-mid" : ""));
      return h("div", {"class": "rpanel " + S.seatClass(m.seat)}, h("h4", null, m.name, h("span", {"class": "muted"}, S.seatName(ctx, m.seat))),
        h("div", {"class": "stat-row"}, h("span", null, "life ", h("b", null, left + "/" + life)), h("span", null, "cheese ", h("b", null, m.cheese)),
          m.captured ? h("b", {"class": "loss"}, "captured") : h("span", null, m.area), (m.statuses || []).length ? h("span", null, m.statuses.join(", ")) : null),
        hp, h("div", {"class": "chips"}, (m.equipped || []).map(function (c) { return S.cardOf(ctx, c, "mm-equipped"); }),
          (m.pack || []).map(function (c) { return S.cardOf(ctx, c, "muted"); }), (m.tricks || []).map(function (c) { return S.cardOf(ctx, c, "mm-trick"); }),
          (m.abilities || []).map(function (c) { return S.cardOf(ctx, c, "mm-ability"); })));
    });
    var enc = v.encounter || {}, stash = v.party_stash || [];
    panels.push(S.panel("Chapter " + (v.chapter || "?") + (board.chapter_name ? " · " + board.chapter_name : ""), [
      h("div", {"class": "stat-row"}, h("span", null, "phase ", h("b", null, S.label(v.phase))),
        h("span", null, "search deck ", h("b", null, v.search_deck_size)),
        enc.surge && enc.surge.length ? h("span", null, "surge ", h("b", null, enc.surge.map(function (m) { return S.named(ctx, m); }).join(", "))) : null,
        v.result ? h("b", {"class": v.result === "win" || (v.result && v.result.team_result === "win") ? "win" : "loss"}, S.label(typeof v.result === "object" ? (v.result.team_result || v.result.reason || "over") : v.result)) : null),
      stash.length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "party stash"), stash.map(function (c) { return S.cardOf(ctx, c); })) : null,
      (v.surprise_row || []).length ? h("div", {"class": "chips"}, h("small", {"class": "muted"}, "surprise"), v.surprise_row.map(function (c) { return S.cardOf(ctx, c); })) : null]));
    return h("div", {"class": "render"}, root, tr, h("div", {"class": "rpanels"}, panels));
  };
})();
