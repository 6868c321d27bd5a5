#!/usr/bin/env bash
# Builds the Go bot offline from Debian's packages (no module proxy): GOPATH mode over
# /usr/share/gocode, stubs generated from proto/ with the current protoc-gen-go (built from Debian's
# sources: /usr/bin/protoc-gen-go is the old 1.3 generator) and Debian's protoc-gen-go-grpc.
#
#   bash bots/go/build.sh            -> bots/go/build/arena-go-bot
#
# Needs: golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-goprotobuf-dev
#        protobuf-compiler protoc-gen-go-grpc  (scripts/test.sh installs them).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
# The .proto files: a proto/ beside this script (a project made by `arena new-bot`), else the repository's.
PROTO="$HERE/proto"
[ -d "$PROTO" ] || PROTO="$(cd "$HERE/../.." && pwd)/proto"
OUT="${ARENA_GO_BUILD:-$HERE/build}"
GOPATH_DIR="$OUT/gopath"
mkdir -p "$OUT/bin" "$GOPATH_DIR/src"
export GO111MODULE=off GOPATH="$GOPATH_DIR:/usr/share/gocode"

if [ ! -x "$OUT/bin/protoc-gen-go" ]; then
  GOPATH=/usr/share/gocode go build -o "$OUT/bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
fi
# The stubs are generated, never committed: they always match proto/.
rm -rf "$GOPATH_DIR/src/arena"
PATH="$OUT/bin:$PATH" protoc -I "$PROTO" \
  --go_out="$GOPATH_DIR/src" --go_opt=paths=import \
  --go-grpc_out="$GOPATH_DIR/src" --go-grpc_opt=paths=import \
  "$PROTO/arena/v1/bot.proto"
(cd "$HERE" && go build -o "$OUT/arena-go-bot" .)
echo "$OUT/arena-go-bot"
