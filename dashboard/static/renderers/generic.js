// The fallback renderer: a readable tree of any view (objects as labelled groups, lists of
// scalars as chips), with per-seat lists drawn as a row per seat. Used by games without a
// renderer of their own (e.g. the Sealed Bids fixture).
(function () {
  "use strict";
  var A = window.Arena, S = A.svg, h = S.h;

  function scalar(v) {
    if (v === null || v === undefined) return h("span", {"class": "t-null"}, "—");
    if (typeof v === "boolean") return h("span", {"class": "t-bool t-" + v}, v ? "yes" : "no");
    if (typeof v === "number") return h("span", {"class": "t-num"}, String(v));
    return h("span", {"class": "t-str"}, String(v));
  }
  function isScalar(v) { return v === null || typeof v !== "object"; }

  function node(v, depth, ctx, key) {
    if (isScalar(v)) return scalar(v);
    if (Array.isArray(v)) {
      if (v.length === 0) return h("span", {"class": "t-empty"}, "none");
      if (v.every(isScalar)) {
        // a list with one entry per seat reads best as seat: value
        if (ctx && v.length === ctx.players && /score|count|seat|hand|vp|hp|gold|points|submitted|ready/i.test(key || ""))
          return h("div", {"class": "t-seats"}, v.map(function (x, i) {
            return h("span", {"class": "t-seat " + S.seatClass(i)}, h("small", null, S.seatName(ctx, i)), scalar(x)); }));
        return h("div", {"class": "chips"}, v.map(function (x) { return h("span", {"class": "chip"}, scalar(x)); }));
      }
      if (depth > 5) return h("span", {"class": "t-more"}, "[" + v.length + " items]");
      return h("ol", {"class": "t-list"}, v.map(function (x) { return h("li", null, node(x, depth + 1, ctx, key)); }));
    }
    var keys = Object.keys(v);
    if (keys.length === 0) return h("span", {"class": "t-empty"}, "{}");
    if (depth > 5) return h("span", {"class": "t-more"}, "{" + keys.length + " keys}");
    return h("dl", {"class": "t-obj" + (depth === 0 ? " t-root" : "")}, keys.map(function (k) {
      var child = v[k];
      if (!isScalar(child) && depth >= 1 && JSON.stringify(child).length > 300) {
        return [h("dt", null, S.label(k)), h("dd", null, h("details", null, h("summary", null,
          Array.isArray(child) ? child.length + " items" : Object.keys(child).length + " fields"), node(child, depth + 1, ctx, k)))];
      }
      return [h("dt", null, S.label(k)), h("dd", null, node(child, depth + 1, ctx, k))];
    }));
  }

  A.renderGeneric = function (view, ctx) {
    return h("div", {"class": "generic-view"},
      h("p", {"class": "muted small"}, "No board drawing for this game yet — here is its view, as a tree."),
      node(view, 0, ctx, ""));
  };
})();
