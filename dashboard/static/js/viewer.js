// The replay viewer and live view. Frames come from /api/matches/{id}/frames (chunks of 100,
// cached per perspective) or, for a running match, from the server-sent public stream.
(function () {
  "use strict";
  var A = window.Arena, S = A.svg, h = S.h;
  var cfgNode = document.getElementById("viewer-config");
  if (!cfgNode) return;
  var cfg = JSON.parse(cfgNode.textContent);
  var root = document.getElementById("viewer");
  if (!root) return;
  var $ = function (id) { return document.getElementById(id); };
  var board = $("v-board"), actionBox = $("v-action"), eventsBox = $("v-events"), raw = $("v-raw");
  var CHUNK = 100;
  var st = {perspective: "public", step: 0, steps: 0, playing: false, timer: null, speed: 1,
            chunks: {}, pending: {}, token: 0, frame: null, glossary: {}};

  function renderer() { return (cfg.renderer && A.renderers[cfg.renderer]) || null; }
  function ctx() { return {seats: cfg.seats, players: cfg.players, perspective: st.perspective, game: cfg.game, glossary: st.glossary}; }
  // Card/monster/character names for the ids in the views (the game's public content), fetched once.
  function loadGlossary() {
    if (!cfg.renderer) return Promise.resolve({});
    return fetch("/api/games/" + encodeURIComponent(cfg.game) + "/glossary", {headers: {Accept: "application/json"}})
      .then(function (r) { return r.ok ? r.json() : {}; }).catch(function () { return {}; })
      .then(function (g) { st.glossary = g || {}; return st.glossary; });
  }

  function drawBoard(frame) {
    var r = renderer(), out = null;
    board.replaceChildren();
    if (r) {
      try { out = r(frame.view, ctx()); }
      catch (e) {
        console.error("the " + cfg.game + " renderer failed at step " + frame.step + " (" + st.perspective + " view): " + ((e && e.stack) || e));
        board.appendChild(h("p", {"class": "warn"}, "The " + cfg.game + " drawing failed on this view (" + e.message + "); showing the raw view."));
      }
    }
    if (!out) out = A.renderGeneric(frame.view, ctx());
    board.appendChild(out);
    board.setAttribute("data-step", String(frame.step));
  }

  // A value from an action or event: ids the game's content names (cards, monsters) read as names.
  function shown(v) {
    if (typeof v === "object" && v !== null) return JSON.stringify(v);
    var e = typeof v === "string" ? S.entry(ctx(), v) : null;
    return e && e.name ? e.name + " (" + v + ")" : String(v);
  }

  function describeAction(frame) {
    actionBox.replaceChildren();
    if (!frame.actors || !frame.actors.length) {
      actionBox.appendChild(h("p", {"class": "muted"}, frame.step ? "Position after " + frame.step + " decisions." : "Initial position."));
      return;
    }
    frame.actors.forEach(function (seat) {
      var who = h("span", {"class": "seat-tag " + S.seatClass(seat)}, S.seatName(ctx(), seat));
      if (frame.action) {
        var a = frame.action, rest = Object.keys(a).filter(function (k) { return k !== "type"; });
        actionBox.appendChild(h("p", null, who, " ", h("b", null, S.label(a.type)),
          rest.length ? h("span", {"class": "muted"}, " " + rest.map(function (k) {
            return S.label(k) + " " + shown(a[k]); }).join(", ")) : null));
      } else {
        actionBox.appendChild(h("p", null, who, " ", h("span", {"class": "muted"}, "made a decision (hidden from this view)")));
      }
    });
  }

  function describeEvents(events) {
    eventsBox.replaceChildren();
    if (!events || !events.length) { eventsBox.appendChild(h("li", {"class": "muted"}, "nothing visible")); return; }
    events.forEach(function (e) {
      var rest = Object.keys(e).filter(function (k) { return k !== "type"; });
      eventsBox.appendChild(h("li", null, h("b", null, S.label(e.type)), rest.length ? " " : null,
        rest.map(function (k) {
          var v = e[k];
          if (k === "seat" && typeof v === "number") return h("span", {"class": "seat-tag " + S.seatClass(v)}, S.seatName(ctx(), v));
          return h("span", {"class": "ev-kv"}, S.label(k) + " " + shown(v));
        })));
    });
  }

  function show(frame) {
    st.frame = frame;
    drawBoard(frame);
    describeAction(frame);
    describeEvents(frame.events);
    raw.textContent = JSON.stringify(frame.view, null, 1);
    $("v-step").textContent = String(frame.step);
    root.setAttribute("data-step", String(frame.step));
    root.setAttribute("data-perspective", st.perspective);
  }

  // ---- replay mode ---------------------------------------------------------------------------
  function chunkKey(p, start) { return p + ":" + start; }
  function fetchChunk(p, start) {
    var key = chunkKey(p, start);
    if (st.chunks[key]) return Promise.resolve(st.chunks[key]);
    if (st.pending[key]) return st.pending[key];
    var url = "/api/matches/" + encodeURIComponent(cfg.matchId) + "/frames?perspective=" + encodeURIComponent(p) +
              "&start=" + start + "&limit=" + CHUNK;
    st.pending[key] = fetch(url, {headers: {Accept: "application/json"}}).then(function (r) {
      if (!r.ok) return r.json().then(function (j) { throw new Error(j.detail || r.statusText); });
      return r.json();
    }).then(function (data) {
      st.chunks[key] = data; delete st.pending[key]; st.steps = data.steps; return data;
    }, function (err) { delete st.pending[key]; throw err; });
    return st.pending[key];
  }
  function frameAt(p, step) {
    var start = Math.floor(step / CHUNK) * CHUNK;
    return fetchChunk(p, start).then(function (data) {
      var f = data.frames[step - start];
      if (data.steps > start + CHUNK && step - start > CHUNK * 0.6) fetchChunk(p, start + CHUNK).catch(function () {});
      return f;
    });
  }
  function go(step, opts) {
    opts = opts || {};
    step = Math.max(0, Math.min(step, Math.max(0, st.steps - 1)));
    st.step = step;
    var token = ++st.token;
    $("v-scrub").value = String(step);
    $("v-step").textContent = String(step);
    return frameAt(st.perspective, step).then(function (f) {
      if (token !== st.token || !f) return;
      show(f);
      if (!opts.noHash) writeHash();
    }).catch(function (err) {
      board.replaceChildren(h("p", {"class": "warn"}, "Could not load this step: " + err.message));
      stop();
    });
  }
  function writeHash() {
    var hash = "#step=" + st.step + (st.perspective !== "public" ? "&view=" + encodeURIComponent(st.perspective) : "");
    if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search.replace(/([?&])step=\d+&?/, "$1").replace(/[?&]$/, "") + hash);
    $("v-link").setAttribute("href", hash);
  }
  function readLocation() {
    var out = {};
    var q = new URLSearchParams(location.search), hp = new URLSearchParams(location.hash.replace(/^#/, ""));
    var step = hp.get("step") || q.get("step");
    if (step !== null && /^\d+$/.test(step)) out.step = parseInt(step, 10);
    var view = hp.get("view") || q.get("view");
    if (view && cfg.perspectives.some(function (p) { return p.id === view; })) out.view = view;
    return out;
  }
  function play() {
    if (st.step >= st.steps - 1) go(0);
    st.playing = true;
    $("v-play").textContent = "❚❚"; $("v-play").setAttribute("aria-pressed", "true");
    tick();
  }
  function tick() {
    clearTimeout(st.timer);
    if (!st.playing) return;
    st.timer = setTimeout(function () {
      if (st.step >= st.steps - 1) { stop(); return; }
      go(st.step + 1, {noHash: true}).then(tick);
    }, 700 / st.speed);
  }
  function stop() {
    st.playing = false; clearTimeout(st.timer);
    var b = $("v-play"); if (b) { b.textContent = "▶"; b.setAttribute("aria-pressed", "false"); }
    if (cfg.mode === "replay") writeHash();
  }
  function setPerspective(p) {
    st.perspective = p;
    $("v-perspective").value = p;
    if (cfg.mode === "replay") go(st.step); else connectLive();
  }

  function initReplay() {
    var loc = readLocation();
    if (loc.view) st.perspective = loc.view;
    $("v-perspective").value = st.perspective;
    Promise.all([fetchChunk(st.perspective, 0), loadGlossary()]).then(function (both) {
      var data = both[0];
      st.steps = data.steps;
      $("v-scrub").max = String(data.steps - 1);
      $("v-steps").textContent = String(data.steps - 1);
      go(loc.step !== undefined ? loc.step : 0, {noHash: loc.step === undefined});
    }).catch(function (err) { board.replaceChildren(h("p", {"class": "warn"}, "Could not load the replay: " + err.message)); });
    $("v-first").onclick = function () { stop(); go(0); };
    $("v-last").onclick = function () { stop(); go(st.steps - 1); };
    $("v-prev").onclick = function () { stop(); go(st.step - 1); };
    $("v-next").onclick = function () { stop(); go(st.step + 1); };
    $("v-play").onclick = function () { st.playing ? stop() : play(); };
    $("v-speed").onchange = function () { st.speed = parseFloat(this.value) || 1; };
    $("v-scrub").oninput = function () { stop(); go(parseInt(this.value, 10), {noHash: true}); };
    $("v-scrub").onchange = function () { writeHash(); };
    $("v-perspective").onchange = function () { setPerspective(this.value); };
    window.addEventListener("hashchange", function () {
      var l = readLocation();
      if (l.view && l.view !== st.perspective) { st.perspective = l.view; $("v-perspective").value = l.view; }
      if (l.step !== undefined && l.step !== st.step) go(l.step, {noHash: true});
    });
    document.addEventListener("keydown", function (e) {
      if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName) && e.target.type !== "range") return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var k = e.key;
      if (k === "ArrowRight" || k === "l") { stop(); go(st.step + (e.shiftKey ? 10 : 1)); }
      else if (k === "ArrowLeft" || k === "h") { stop(); go(st.step - (e.shiftKey ? 10 : 1)); }
      else if (k === " " || k === "k") { st.playing ? stop() : play(); }
      else if (k === "Home") { stop(); go(0); }
      else if (k === "End") { stop(); go(st.steps - 1); }
      else if (k === "v") { var ps = cfg.perspectives.map(function (p) { return p.id; }); setPerspective(ps[(ps.indexOf(st.perspective) + 1) % ps.length]); }
      else if (/^[1-9]$/.test(k)) { stop(); go(Math.round((st.steps - 1) * parseInt(k, 10) / 10)); }
      else if (k === "0") { stop(); go(0); }
      else return;
      e.preventDefault();
    });
  }

  // ---- live mode -------------------------------------------------------------------------------
  var source = null;
  function connectLive() {
    if (source) source.close();
    var status = $("v-live-status"), dot = $("v-live-dot");
    if (!cfg.liveAvailable) { status.textContent = "live spectating is not configured on this dashboard"; return; }
    var delay = $("v-delay").value || "0";
    status.textContent = "connecting…";
    source = new EventSource("/api/matches/" + encodeURIComponent(cfg.matchId) + "/live?delay=" + encodeURIComponent(delay));
    source.addEventListener("hello", function () { status.textContent = delay !== "0" ? "watching, " + delay + " s behind" : "watching"; dot.classList.add("on"); });
    source.addEventListener("frame", function (ev) {
      var f = JSON.parse(ev.data);
      if (f.view) show({step: f.step || 0, actors: f.actors || [], action: null, events: f.events || [], view: f.view, over: !!f.over});
      if (f.over) status.textContent = "the match is over";
    });
    source.addEventListener("error", function (ev) {
      if (ev.data) { try { status.textContent = JSON.parse(ev.data).message; } catch (e) {} }
    });
    source.addEventListener("end", function () {
      source.close(); dot.classList.remove("on");
      status.replaceChildren("the match is over — ", h("a", {href: location.pathname}, "open the replay"));
      root.setAttribute("data-live-ended", "true");
    });
  }
  function initLive() {
    $("v-delay").onchange = connectLive;
    $("v-perspective").onchange = function () { setPerspective(this.value); };
    loadGlossary().then(connectLive);
  }

  if (cfg.mode === "replay") initReplay(); else initLive();
  A.viewer = {go: go, state: st, setPerspective: setPerspective};
})();
