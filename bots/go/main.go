// A random Arena bot in Go, built offline from Debian's packages (see build.sh).
//
// It opens one BotService.Connect stream, says Hello, and answers every DecisionRequest with a
// random legal index. One session may hold several seats, even of one match: state is kept per
// (match, seat).
//
//	ARENA_REFEREE=127.0.0.1:50051 ARENA_TOKEN=... arena-go-bot [--games g1,g2] [--capacity N] [--seed S]
//
// As a hosted bot the referee sets ARENA_REFEREE and ARENA_TOKEN; the bot exits on Goodbye. After a
// lost connection it reconnects with the same token (its seats wait for it during the grace period).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	arenav1 "arena/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
)

type seatKey struct {
	match string
	seat  uint32
}

// seatState is what a bot would keep per seat: here only the events seen so far.
type seatState struct {
	game   string
	events int
}

func main() {
	games := flag.String("games", "", "comma-separated game ids this bot plays (default: all)")
	defaultCapacity := uint64(1) // ARENA_CAPACITY when --capacity is not given (`arena check-bot` sets it)
	if c, err := strconv.ParseUint(os.Getenv("ARENA_CAPACITY"), 10, 32); err == nil && c > 0 {
		defaultCapacity = c
	}
	capacity := flag.Uint("capacity", uint(defaultCapacity), "seats at once [env ARENA_CAPACITY]")
	seed := flag.Int64("seed", time.Now().UnixNano(), "seed of the bot's own randomness")
	address := flag.String("address", "", "referee host:port [env ARENA_REFEREE]")
	flag.Parse()
	if *address == "" {
		*address = os.Getenv("ARENA_REFEREE")
	}
	if *address == "" {
		*address = "127.0.0.1:50051"
	}
	token := os.Getenv("ARENA_TOKEN")
	if token == "" {
		fmt.Fprintln(os.Stderr, "set ARENA_TOKEN to the bot's token")
		os.Exit(2)
	}
	os.Exit(run(*address, token, *games, uint32(*capacity), *seed))
}

func dialOption() grpc.DialOption {
	if ca := os.Getenv("ARENA_TLS_CA"); ca != "" {
		creds, err := credentials.NewClientTLSFromFile(ca, "")
		if err != nil {
			fmt.Fprintf(os.Stderr, "cannot read %s: %v\n", ca, err)
			os.Exit(2)
		}
		return grpc.WithTransportCredentials(creds)
	}
	return grpc.WithInsecure()
}

// counters survive reconnects; seats are keyed by (match, seat).
type bot struct {
	random                     *rand.Rand
	seats                      map[seatKey]*seatState
	matches, decisions, errors int
}

// run plays until the referee says Goodbye. After a lost connection it reconnects with the same
// token (the referee keeps our seats for its grace period); a hosted bot gives up sooner.
func run(address, token, games string, capacity uint32, seed int64) int {
	b := &bot{random: rand.New(rand.NewSource(seed)), seats: map[seatKey]*seatState{}}
	defer func() {
		fmt.Fprintf(os.Stderr, "go bot: %d match(es), %d decisions, %d error(s)\n", b.matches, b.decisions, b.errors)
	}()
	giveUp := 600 * time.Second
	if os.Getenv("ARENA_MATCH_ID") != "" {
		giveUp = 10 * time.Second
	}
	lastOk := time.Now()
	backoff := 200 * time.Millisecond
	for {
		welcomed, code, err := b.session(address, token, games, capacity)
		if err == nil {
			return 0 // Goodbye
		}
		if code == codes.Unauthenticated || code == codes.InvalidArgument || code == codes.PermissionDenied {
			fmt.Fprintf(os.Stderr, "refused: %v\n", err)
			if code == codes.Unauthenticated {
				return 3
			}
			return 1
		}
		if welcomed {
			lastOk = time.Now()
			backoff = 200 * time.Millisecond
		}
		if time.Since(lastOk) > giveUp {
			fmt.Fprintf(os.Stderr, "no connection for %s (%v); giving up\n", giveUp, err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "connection lost (%v); reconnecting\n", err)
		time.Sleep(backoff/2 + time.Duration(b.random.Int63n(int64(backoff))))
		if backoff < 5*time.Second {
			backoff *= 2
		}
	}
}

// session is one stream: nil error after Goodbye, else why it ended (and whether we were welcomed).
func (b *bot) session(address, token, games string, capacity uint32) (bool, codes.Code, error) {
	// Fixed flow-control windows turn off grpc-go's BDP estimator, which sends a PING with every message
	// it receives; the referee's gRPC (C core) then held each next message back by ~40 ms.
	conn, err := grpc.Dial(address, dialOption(),
		grpc.WithInitialWindowSize(4<<20), grpc.WithInitialConnWindowSize(8<<20))
	if err != nil {
		return false, codes.Unavailable, err
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := arenav1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		return false, status.Code(err), err
	}
	var gameList []string
	for _, g := range strings.Split(games, ",") {
		if g != "" {
			gameList = append(gameList, g)
		}
	}
	hello := &arenav1.Hello{Token: token, Games: gameList, Capacity: capacity,
		Client: "go bot (" + runtime.Version() + ")"}
	if err := stream.Send(&arenav1.BotMessage{Kind: &arenav1.BotMessage_Hello{Hello: hello}}); err != nil {
		return false, status.Code(err), err
	}
	welcomed := false
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return welcomed, codes.Unavailable, fmt.Errorf("stream ended without goodbye")
		}
		if err != nil {
			return welcomed, status.Code(err), err
		}
		var reply *arenav1.BotMessage
		switch kind := msg.Kind.(type) {
		case *arenav1.RefereeMessage_Welcome:
			welcomed = true
			fmt.Fprintf(os.Stderr, "connected as %s (session %s)\n", kind.Welcome.Bot, kind.Welcome.SessionId)
		case *arenav1.RefereeMessage_MatchStart:
			m := kind.MatchStart
			key := seatKey{m.MatchId, m.Seat}
			if _, ok := b.seats[key]; !ok { // a resumed match keeps its state
				b.matches++
				b.seats[key] = &seatState{game: m.Game}
			}
		case *arenav1.RefereeMessage_Decision:
			d := kind.Decision
			var legal []json.RawMessage
			if err := json.Unmarshal([]byte(d.LegalJson), &legal); err != nil || len(legal) == 0 {
				fmt.Fprintf(os.Stderr, "unreadable legal list for decision %d\n", d.DecisionId)
				continue
			}
			var events []json.RawMessage
			_ = json.Unmarshal([]byte(d.EventsJson), &events)
			if s, ok := b.seats[seatKey{d.MatchId, d.Seat}]; ok {
				s.events += len(events)
			}
			answer := &arenav1.Answer{MatchId: d.MatchId, DecisionId: d.DecisionId,
				Choice: &arenav1.Answer_Index{Index: uint32(b.random.Intn(len(legal)))}}
			reply = &arenav1.BotMessage{Kind: &arenav1.BotMessage_Answer{Answer: answer}}
			b.decisions++
		case *arenav1.RefereeMessage_MatchEnd:
			e := kind.MatchEnd
			delete(b.seats, seatKey{e.MatchId, e.Seat})
			fmt.Fprintf(os.Stderr, "match %s (seat %d) ended: %s\n", e.MatchId, e.Seat, e.OutcomeJson)
		case *arenav1.RefereeMessage_Error:
			b.errors++
			fmt.Fprintf(os.Stderr, "referee error %s (%s): %s\n", kind.Error.Code, kind.Error.Consequence,
				kind.Error.Message)
		case *arenav1.RefereeMessage_Ping:
			reply = &arenav1.BotMessage{Kind: &arenav1.BotMessage_Pong{Pong: &arenav1.Pong{Nonce: kind.Ping.Nonce}}}
		case *arenav1.RefereeMessage_Goodbye:
			fmt.Fprintf(os.Stderr, "goodbye: %s\n", kind.Goodbye.Reason)
			_ = stream.CloseSend()
			return welcomed, codes.OK, nil
		}
		if reply != nil {
			if err := stream.Send(reply); err != nil {
				return welcomed, status.Code(err), err
			}
		}
	}
}
