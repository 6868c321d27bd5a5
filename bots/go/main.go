// A random Arena bot in Go, built offline from Debian's packages (see build.sh).
//
// It opens one BotService.Connect stream, says Hello, and answers every DecisionRequest with a
// random legal index. One session may hold several seats, even of one match: state is kept per
// (match, seat).
//
//	ARENA_REFEREE=127.0.0.1:50051 ARENA_TOKEN=... arena-go-bot [--games g1,g2] [--capacity N] [--seed S]
//
// As a hosted bot the referee sets ARENA_REFEREE and ARENA_TOKEN; the bot exits on Goodbye.
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
	capacity := flag.Uint("capacity", 1, "seats at once")
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

func run(address, token, games string, capacity uint32, seed int64) int {
	conn, err := grpc.Dial(address, dialOption())
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot reach %s: %v\n", address, err)
		return 1
	}
	defer conn.Close()
	stream, err := arenav1.NewBotServiceClient(conn).Connect(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot open a session: %v\n", err)
		return 1
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
		fmt.Fprintf(os.Stderr, "cannot say hello: %v\n", err)
		return 1
	}
	random := rand.New(rand.NewSource(seed))
	seats := map[seatKey]*seatState{}
	matches, decisions, errors := 0, 0, 0
	defer func() {
		fmt.Fprintf(os.Stderr, "go bot: %d match(es), %d decisions, %d error(s)\n", matches, decisions, errors)
	}()
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return 0
		}
		if err != nil {
			st, _ := status.FromError(err)
			fmt.Fprintf(os.Stderr, "stream ended: %s %s\n", st.Code(), st.Message())
			if st.Code() == codes.Unauthenticated {
				return 3
			}
			return 1
		}
		var reply *arenav1.BotMessage
		switch kind := msg.Kind.(type) {
		case *arenav1.RefereeMessage_Welcome:
			fmt.Fprintf(os.Stderr, "connected as %s (session %s)\n", kind.Welcome.Bot, kind.Welcome.SessionId)
		case *arenav1.RefereeMessage_MatchStart:
			m := kind.MatchStart
			key := seatKey{m.MatchId, m.Seat}
			if _, ok := seats[key]; !ok {
				matches++
				seats[key] = &seatState{game: m.Game}
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
			if s, ok := seats[seatKey{d.MatchId, d.Seat}]; ok {
				s.events += len(events)
			}
			answer := &arenav1.Answer{MatchId: d.MatchId, DecisionId: d.DecisionId,
				Choice: &arenav1.Answer_Index{Index: uint32(random.Intn(len(legal)))}}
			reply = &arenav1.BotMessage{Kind: &arenav1.BotMessage_Answer{Answer: answer}}
			decisions++
		case *arenav1.RefereeMessage_MatchEnd:
			e := kind.MatchEnd
			delete(seats, seatKey{e.MatchId, e.Seat})
			fmt.Fprintf(os.Stderr, "match %s (seat %d) ended: %s\n", e.MatchId, e.Seat, e.OutcomeJson)
		case *arenav1.RefereeMessage_Error:
			errors++
			fmt.Fprintf(os.Stderr, "referee error %s (%s): %s\n", kind.Error.Code, kind.Error.Consequence,
				kind.Error.Message)
		case *arenav1.RefereeMessage_Ping:
			reply = &arenav1.BotMessage{Kind: &arenav1.BotMessage_Pong{Pong: &arenav1.Pong{Nonce: kind.Ping.Nonce}}}
		case *arenav1.RefereeMessage_Goodbye:
			fmt.Fprintf(os.Stderr, "goodbye: %s\n", kind.Goodbye.Reason)
			_ = stream.CloseSend()
			return 0
		}
		if reply != nil {
			if err := stream.Send(reply); err != nil {
				fmt.Fprintf(os.Stderr, "send failed: %v\n", err)
				return 1
			}
		}
	}
}
