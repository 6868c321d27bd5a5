#!/usr/bin/env node
// A flat Monte-Carlo Arena bot in Node.js, using the referee's forward model (docs/protocol.md,
// "Forward model"): the example for bots that have no engine of their own.
//
// For each decision: one ForwardCall samples K determinized copies of the position (drawn by the
// referee from what our seat has seen), a second one applies legal action j % n to sample j, plays
// random moves to the end and releases it, all in one batch; the action whose playouts ranked us
// first most often is played. Two round trips a decision, whatever K.
//
//   ARENA_REFEREE=127.0.0.1:50051 ARENA_TOKEN=... node bots/node/forward_bot.js [--per-action 4] [--capacity N]
//
// As a hosted bot (command "node bots/node/forward_bot.js") it exits on Goodbye.
"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_ROOT = process.env.ARENA_PROTO_ROOT
  || [path.join(__dirname, "proto"), path.join(__dirname, "..", "..", "proto")].find((d) => fs.existsSync(d));

function parseArgs(argv) {
  const args = { games: [], capacity: parseInt(process.env.ARENA_CAPACITY || "1", 10), perAction: 4, maxSims: 64 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--games") args.games = argv[++i].split(",").filter(Boolean);
    else if (a === "--capacity") args.capacity = parseInt(argv[++i], 10);
    else if (a === "--per-action") args.perAction = parseInt(argv[++i], 10);
    else if (a === "--address") args.address = argv[++i];
  }
  return args;
}

// Our seat's reward in an outcome: 1 for a (shared) first place or a cooperative win, else 0.
function reward(outcome, seat) {
  if (outcome === null) return 0.5; // cut short: unknown
  if (outcome.team_result !== undefined && outcome.team_result !== null) return outcome.team_result === "win" ? 1 : 0;
  return outcome.ranks[seat] === 1 ? 1 : 0;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const address = args.address || process.env.ARENA_REFEREE || "127.0.0.1:50051";
  const token = process.env.ARENA_TOKEN || "";
  if (!token) {
    console.error("set ARENA_TOKEN to the bot's token");
    process.exit(2);
  }
  const def = protoLoader.loadSync("arena/v1/bot.proto", {
    includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  const arena = grpc.loadPackageDefinition(def).arena.v1;
  const client = new arena.BotService(address, grpc.credentials.createInsecure());
  const stats = { matches: 0, decisions: 0, calls: 0, simulations: 0, errors: 0 };
  const waiting = new Map(); // call_id -> callback(reply)
  let nextCall = 1;
  const call = client.Connect();

  // One ForwardCall about decision d; `done(reply)` gets the ForwardReply.
  function forward(d, ops, done) {
    const id = String(nextCall++);
    waiting.set(id, done);
    stats.calls++;
    call.write({ forward: { call_id: id, match_id: d.match_id, decision_id: d.decision_id, ops } });
  }

  function answer(d, index) {
    call.write({ answer: { match_id: d.match_id, decision_id: d.decision_id, index } });
    stats.decisions++;
  }

  function decide(d) {
    const n = JSON.parse(d.legal_json).length;
    if (n === 1) return answer(d, 0);
    const k = Math.max(n, Math.min(n * args.perAction, args.maxSims));
    const seed = `${d.match_id}:${d.decision_id}`;
    forward(d, [{ op: "OP_SAMPLE", k, seed }], (r1) => {
      if (r1.error !== "FORWARD_OK") {
        stats.errors++;
        console.error(`forward error ${r1.error}: ${r1.message}`);
        return answer(d, 0);
      }
      const handles = r1.results[0].handles;
      const ops = [];
      handles.forEach((h, j) => {
        // index j % n: a sample's legal list for our seat is the request's (the same information set)
        ops.push({ op: "OP_APPLY", handle: h, seat: d.seat, index: j % n });
        ops.push({ op: "OP_PLAYOUT", handle: h, seed: `${seed}:${j}` });
        ops.push({ op: "OP_RELEASE", handles: [h] });
      });
      forward(d, ops, (r2) => {
        if (r2.error !== "FORWARD_OK") {
          stats.errors++;
          console.error(`forward error ${r2.error}: ${r2.message}`);
          return answer(d, 0);
        }
        const total = new Array(n).fill(0);
        const count = new Array(n).fill(0);
        handles.forEach((_h, j) => {
          total[j % n] += reward(JSON.parse(r2.results[3 * j + 1].json), d.seat);
          count[j % n]++;
        });
        stats.simulations += handles.length;
        let best = 0;
        for (let i = 1; i < n; i++) if (total[i] / count[i] > total[best] / count[best]) best = i;
        answer(d, best);
      });
    });
  }

  function finish(code) {
    console.error(`node forward bot: ${stats.matches} match(es), ${stats.decisions} decisions, `
      + `${stats.calls} forward calls, ${stats.simulations} simulations, ${stats.errors} error(s)`);
    process.exitCode = code;
    client.close();
  }

  call.write({ hello: { token, games: args.games, capacity: args.capacity, client: `node-forward ${process.version}` } });
  call.on("data", (msg) => {
    switch (msg.kind) {
      case "match_start":
        stats.matches++;
        break;
      case "decision":
        decide(msg.decision);
        break;
      case "forward": {
        const done = waiting.get(msg.forward.call_id);
        waiting.delete(msg.forward.call_id);
        if (done) done(msg.forward);
        break;
      }
      case "error":
        stats.errors++;
        console.error(`referee error ${msg.error.code} (${msg.error.consequence}): ${msg.error.message}`);
        break;
      case "ping":
        call.write({ pong: { nonce: msg.ping.nonce } });
        break;
      case "goodbye":
        call.end();
        finish(0);
        break;
      default:
        break;
    }
  });
  call.on("error", (err) => {
    console.error(`stream error: ${err.code} ${err.details}`);
    finish(1);
  });
}

main();
