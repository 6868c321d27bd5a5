#!/usr/bin/env node
// A random Arena bot in Node.js: proof that the protocol is language-neutral.
//
// It loads proto/arena/v1/bot.proto at run time (no generated code), opens one BotService.Connect
// stream, says Hello, and answers every DecisionRequest with a random legal index.
//
//   ARENA_REFEREE=127.0.0.1:50051 ARENA_TOKEN=... node bots/node/bot.js [--games g1,g2] [--capacity N]
//
// As a hosted bot the referee sets ARENA_REFEREE and ARENA_TOKEN; the bot exits on Goodbye. After a
// lost connection it reconnects with the same token (its seats wait for it during the grace period).
"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

// The .proto files: ARENA_PROTO_ROOT, else a proto/ beside this file (a project made by `arena new-bot`),
// else the repository's proto/.
const PROTO_ROOT = process.env.ARENA_PROTO_ROOT
  || [path.join(__dirname, "proto"), path.join(__dirname, "..", "..", "proto")].find((d) => fs.existsSync(d));

function parseArgs(argv) {
  // ARENA_CAPACITY: how many seats at once when --capacity is not given (`arena check-bot` sets it).
  const args = { games: [], capacity: parseInt(process.env.ARENA_CAPACITY || "1", 10), seed: Date.now() % 2147483647 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--games") args.games = argv[++i].split(",").filter(Boolean);
    else if (a === "--capacity") args.capacity = parseInt(argv[++i], 10);
    else if (a === "--seed") args.seed = parseInt(argv[++i], 10);
    else if (a === "--address") args.address = argv[++i];
  }
  return args;
}

// A small seeded generator (mulberry32) so runs are reproducible with --seed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// gRPC codes after which reconnecting cannot help (bad token, bad Hello).
const FATAL = new Set([grpc.status.UNAUTHENTICATED, grpc.status.INVALID_ARGUMENT, grpc.status.PERMISSION_DENIED]);

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
  const creds = process.env.ARENA_TLS_CA
    ? grpc.credentials.createSsl(fs.readFileSync(process.env.ARENA_TLS_CA))
    : grpc.credentials.createInsecure();
  const client = new arena.BotService(address, creds);
  const random = rng(args.seed);
  const stats = { matches: 0, decisions: 0, errors: 0 };
  const seats = new Set(); // "match/seat": one session may hold several seats, even of one match
  // A hosted bot (launched per match) gives up soon when the referee is gone; a live one keeps trying.
  const giveUpMs = process.env.ARENA_MATCH_ID ? 10000 : 600000;
  let lastOk = Date.now();
  let backoffMs = 200;
  let finished = false;

  function finish(code) {
    if (finished) return;
    finished = true;
    console.error(`node bot: ${stats.matches} match(es), ${stats.decisions} decisions, ${stats.errors} error(s)`);
    if (code) process.exitCode = code;
    client.close();
  }

  // After a lost connection: the same token within the referee's grace period resumes our seats.
  function reconnect(why) {
    if (finished) return;
    if (Date.now() - lastOk > giveUpMs) {
      console.error(`no connection for ${giveUpMs / 1000}s (${why}); giving up`);
      finish(1);
      return;
    }
    console.error(`connection lost (${why}); reconnecting`);
    setTimeout(connect, backoffMs * (0.5 + Math.random()));
    backoffMs = Math.min(5000, backoffMs * 2);
  }

  function connect() {
    const call = client.Connect();
    let over = false; // this stream is done (error, end or goodbye): act once
    call.write({ hello: { token, games: args.games, capacity: args.capacity, client: `node ${process.version}` } });

    call.on("data", (msg) => {
      lastOk = Date.now();
      switch (msg.kind) {
        case "welcome":
          backoffMs = 200;
          console.error(`connected as ${msg.welcome.bot} (session ${msg.welcome.session_id})`);
          break;
        case "match_start": {
          const key = `${msg.match_start.match_id}/${msg.match_start.seat}`;
          if (!seats.has(key)) {
            seats.add(key);
            stats.matches++;
          }
          break;
        }
        case "decision": {
          const d = msg.decision;
          const legal = JSON.parse(d.legal_json); // the view is in d.view_json, events in d.events_json
          const index = Math.floor(random() * legal.length);
          call.write({ answer: { match_id: d.match_id, decision_id: d.decision_id, index } });
          stats.decisions++;
          break;
        }
        case "match_end":
          seats.delete(`${msg.match_end.match_id}/${msg.match_end.seat}`);
          console.error(`match ${msg.match_end.match_id} ended: ${msg.match_end.outcome_json}`);
          break;
        case "error":
          stats.errors++;
          console.error(`referee error ${msg.error.code} (${msg.error.consequence}): ${msg.error.message}`);
          break;
        case "ping":
          call.write({ pong: { nonce: msg.ping.nonce } });
          break;
        case "goodbye":
          over = true;
          console.error(`goodbye: ${msg.goodbye.reason}`);
          call.end();
          finish(0);
          break;
        default:
          break;
      }
    });
    call.on("error", (err) => {
      if (over) return;
      over = true;
      if (FATAL.has(err.code)) {
        console.error(`refused: ${err.code} ${err.details}`);
        finish(err.code === grpc.status.UNAUTHENTICATED ? 3 : 1);
        return;
      }
      reconnect(`${err.code} ${err.details}`);
    });
    call.on("end", () => {
      if (over) return;
      over = true;
      reconnect("stream ended without goodbye");
    });
  }

  connect();
}

main();
