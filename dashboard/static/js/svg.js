// Small helpers shared by the renderers. Everything is built with DOM calls: text from a view
// (bot names, card names) only ever lands in textContent, never in markup.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";

  function append(node, kids) {
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      if (k === null || k === undefined || k === false) continue;
      if (Array.isArray(k)) { append(node, k); continue; }
      node.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return node;
  }
  function attrs(node, a) {
    if (a) for (var key in a) {
      if (!Object.prototype.hasOwnProperty.call(a, key) || a[key] === null || a[key] === undefined) continue;
      if (key === "text") node.textContent = String(a[key]);
      else if (key === "title") { var t = document.createElementNS(NS, "title"); t.textContent = String(a[key]); node.appendChild(t); }
      else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), a[key]);
      else node.setAttribute(key, a[key]);
    }
    return node;
  }
  // s("rect", {x:1}, children...) -> SVG element
  function s(tag, a) { return append(attrs(document.createElementNS(NS, tag), a), Array.prototype.slice.call(arguments, 2)); }
  // h("div", {class:"x"}, children...) -> HTML element (title is a plain attribute here)
  function h(tag, a) {
    var node = document.createElement(tag);
    if (a) for (var key in a) {
      if (!Object.prototype.hasOwnProperty.call(a, key) || a[key] === null || a[key] === undefined) continue;
      if (key === "text") node.textContent = String(a[key]);
      else node.setAttribute(key, a[key]);
    }
    return append(node, Array.prototype.slice.call(arguments, 2));
  }
  function svg(w, hgt, cls) {
    return s("svg", {viewBox: "0 0 " + w + " " + hgt, "class": "board-svg " + (cls || ""), role: "img",
                     preserveAspectRatio: "xMidYMid meet"});
  }
  function text(x, y, str, a) {
    var o = {x: x, y: y, text: str};
    for (var k in (a || {})) o[k] = a[k];
    return s("text", o);
  }
  function seatClass(i) { return "seat-c" + (((i % 8) + 8) % 8); }
  function label(v) {
    if (v === null || v === undefined) return "";
    return String(v).replace(/_/g, " ");
  }
  function get(obj, keys, dflt) {
    // First present key among alternatives: renderers tolerate small naming differences.
    for (var i = 0; i < keys.length; i++) {
      var path = keys[i].split("."), cur = obj, ok = true;
      for (var j = 0; j < path.length; j++) {
        if (cur && typeof cur === "object" && path[j] in cur) cur = cur[path[j]]; else { ok = false; break; }
      }
      if (ok && cur !== undefined) return cur;
    }
    return dflt;
  }
  function asList(v) {
    if (Array.isArray(v)) return v;
    if (v && typeof v === "object") return Object.keys(v).map(function (k) { var o = v[k]; if (o && typeof o === "object" && !Array.isArray(o) && !("id" in o)) { o = Object.assign({id: k}, o); } return o; });
    return [];
  }
  function bar(x, y, w, hgt, frac, cls) {
    frac = Math.max(0, Math.min(1, frac || 0));
    return s("g", {"class": "bar " + (cls || "")},
      s("rect", {x: x, y: y, width: w, height: hgt, rx: hgt / 2, "class": "bar-bg"}),
      s("rect", {x: x, y: y, width: Math.max(0, w * frac), height: hgt, rx: hgt / 2, "class": "bar-fg"}));
  }
  // A card as HTML (hands, market rows): name, cost, small facts.
  function card(c, extra) {
    if (c === null || c === undefined) return h("span", {"class": "card-chip hidden-card", title: "hidden"}, "?");
    if (typeof c !== "object") return h("span", {"class": "card-chip"}, label(c));
    var name = get(c, ["name", "title", "id", "card"], "?");
    var facts = [];
    ["cost", "power", "attack", "boots", "skill", "swords", "damage", "value", "points", "vp", "gold", "hp"].forEach(function (k) {
      // a zero of points or strength says nothing on a chip (a cost of 0 does)
      if (c[k] !== undefined && c[k] !== null && typeof c[k] !== "object" && (c[k] !== 0 || k === "cost")) facts.push(k + " " + c[k]);
    });
    var tip = label(name) + (c.id !== undefined && String(c.id) !== String(name) ? " (" + c.id + ")" : "") +
      Object.keys(c).filter(function (k) { return k !== "name" && k !== "id" && c[k] !== null && c[k] !== undefined && c[k] !== "" && typeof c[k] !== "object"; })
        .map(function (k) { return "\n" + label(k) + ": " + c[k]; }).join("");
    return h("span", {"class": "card-chip " + (extra || ""), title: tip}, h("b", null, label(name)),
      facts.length ? h("small", null, facts.join(" · ")) : null);
  }
  function panel(title, kids, cls) {
    return h("div", {"class": "rpanel " + (cls || "")}, h("h4", null, title), kids);
  }
  function chips(list, cls) {
    return h("div", {"class": "chips " + (cls || "")}, asList(list).map(function (c) { return card(c); }));
  }
  // The glossary entry of an id from a view ("S14#2" is copy 2 of card type S14), or null.
  function entry(ctx, id) {
    if (id === null || id === undefined) return null;
    var g = (ctx && ctx.glossary) || {}, key = String(id);
    if (Object.prototype.hasOwnProperty.call(g, key)) return g[key];
    key = key.split("#")[0];
    return Object.prototype.hasOwnProperty.call(g, key) ? g[key] : null;
  }
  // A readable name for an id: the content's name, else the id itself.
  function named(ctx, id) { var e = entry(ctx, id); return e && e.name ? e.name : label(id); }
  // A card chip for an id, with the content's facts (cost, vp, ...) when it has them.
  function cardOf(ctx, id, cls, more) {
    if (id === null || id === undefined) return card(null);
    var e = entry(ctx, id) || {}, c = {};
    for (var k in e) if (Object.prototype.hasOwnProperty.call(e, k)) c[k] = e[k];
    for (var m in (more || {})) c[m] = more[m];
    c.name = e.name || label(id);
    c.id = String(id);
    return card(c, cls);
  }
  function seatName(ctx, i) { return (ctx && ctx.seats && ctx.seats[i] !== undefined) ? ctx.seats[i] : "seat " + i; }

  window.Arena = window.Arena || {renderers: {}};
  window.Arena.svg = {s: s, h: h, svg: svg, text: text, seatClass: seatClass, label: label, get: get,
                      asList: asList, bar: bar, card: card, panel: panel, chips: chips, seatName: seatName,
                      entry: entry, named: named, cardOf: cardOf};
})();
