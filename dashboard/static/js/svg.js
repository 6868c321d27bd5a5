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
      if (c[k] !== undefined && c[k] !== null && typeof c[k] !== "object") facts.push(k + " " + c[k]);
    });
    return h("span", {"class": "card-chip " + (extra || ""), title: JSON.stringify(c)}, h("b", null, label(name)),
      facts.length ? h("small", null, facts.join(" · ")) : null);
  }
  function panel(title, kids, cls) {
    return h("div", {"class": "rpanel " + (cls || "")}, h("h4", null, title), kids);
  }
  function chips(list, cls) {
    return h("div", {"class": "chips " + (cls || "")}, asList(list).map(function (c) { return card(c); }));
  }
  function seatName(ctx, i) { return (ctx && ctx.seats && ctx.seats[i] !== undefined) ? ctx.seats[i] : "seat " + i; }

  window.Arena = window.Arena || {renderers: {}};
  window.Arena.svg = {s: s, h: h, svg: svg, text: text, seatClass: seatClass, label: label, get: get,
                      asList: asList, bar: bar, card: card, panel: panel, chips: chips, seatName: seatName};
})();
