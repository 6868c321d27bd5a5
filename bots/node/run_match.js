#!/usr/bin/env node
// Run one match on a referee from Node.js: the organizer API (OrganizerService.RunMatch) without Python.
//
//   ARENA_REFEREE=127.0.0.1:50051 ARENA_ORGANIZER_TOKEN=... node bots/node/run_match.js GAME SEAT_COMMAND...
//
// Every seat is hosted: the referee launches SEAT_COMMAND for it (e.g. "node bots/node/bot.js").
// Prints the outcome JSON; the replay is in the response's replay_json.
"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_ROOT = process.env.ARENA_PROTO_ROOT
  || [path.join(__dirname, "proto"), path.join(__dirname, "..", "..", "proto")].find((d) => fs.existsSync(d));

const [game, ...commands] = process.argv.slice(2);
if (!game || commands.length === 0) {
  console.error("usage: node run_match.js GAME SEAT_COMMAND [SEAT_COMMAND...]");
  process.exit(2);
}
const def = protoLoader.loadSync("arena/v1/organizer.proto", {
  includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
});
const arena = grpc.loadPackageDefinition(def).arena.v1;
const client = new arena.OrganizerService(process.env.ARENA_REFEREE || "127.0.0.1:50051",
  grpc.credentials.createInsecure());

// Every organizer call carries the organizer token as a bearer token.
const metadata = new grpc.Metadata();
metadata.set("authorization", `Bearer ${process.env.ARENA_ORGANIZER_TOKEN}`);

const spec = {
  match_id: `node-${Date.now()}`,
  game,
  seed: 7,
  seats: commands.map((command, seat) => ({ bot: `seat${seat}`, command })),
  options_json: "{}",
  time_control: { per_decision_ms: 5000 },
};
client.RunMatch({ spec, live_wait_ms: 10000 }, metadata, (err, resp) => {
  if (err) {
    console.error(`RunMatch failed: ${grpc.status[err.code]}: ${err.details}`);
    process.exit(1);
  }
  console.log(resp.outcome_json);
  client.close();
});
