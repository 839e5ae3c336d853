// Command webload is the load test's load generator for Connect unary calls:
// what ghz is to the gRPC port, for the browser port (croupier serve --web).
//
//	webload --binary-file data/hundred_and_one/ApplyMove.bin \
//	    --connections 16 --concurrency 16 --duration 3s --duration-stop wait \
//	    --timeout 20s --format json \
//	    http://127.0.0.1:8081/croupier.v1.CroupierService/ApplyMove
//
// Each call is a Connect unary call: a POST of one serialized request with
// Content-Type application/proto (--content-type), Connect-Protocol-Version 1
// and Connect-Timeout-Ms (the --timeout); an answer is HTTP 200 with the
// serialized response, or another status with a JSON error
// {"code": "...", "message": "..."}.
//
// The flags follow ghz's, so that the load test drives both alike:
//
//   - --binary-file: ghz's format, either one message or several, each
//     preceded by its length as a varint (when the lengths do not cover the
//     file exactly, the whole file is one message, as in ghz). Calls take the
//     messages round-robin, counted over all workers, as ghz does.
//   - --concurrency N: N workers, each making one call after another.
//   - --connections C: C HTTP/1.1 keep-alive connections (one net/http
//     Transport each, at most one connection per Transport); worker i uses
//     connection i mod C, as ghz spreads its workers over its connections.
//     HTTP/1.1 carries one call at a time per connection, so calls in flight
//     are min(N, C): workers sharing a connection wait for it. The load test
//     passes C = N (every worker its own connection). C > N is refused, as
//     ghz refuses it.
//   - --duration D with --duration-stop: "close" (the default, as in ghz)
//     cancels the calls in flight at the end and counts them as errors
//     (canceled), "ignore" cancels them and leaves them out, "wait" lets them
//     complete and counts them.
//   - --timeout: each call's deadline, sent as Connect-Timeout-Ms too.
//   - --accept-encoding: none by default, so answers come uncompressed, as
//     ghz's gRPC answers do; a browser sends "gzip, deflate, br", and the
//     Connect runtime then gzips every unary answer (measure it with gzip).
//
// The output (--format json, the only format) has the fields of ghz's JSON
// report that deploy/loadtest/results.py reads, with ghz's meanings: count
// (every call, errors included), total (ns, from the first call to the last
// answer), latencyDistribution (percentage, latency in ns: OK calls only),
// statusCodeDistribution ("OK" for HTTP 200, else the Connect error code:
// the JSON error's "code", or the code the Connect protocol maps the HTTP
// status to when the body has none; "unavailable" for a connection that
// failed, "deadline_exceeded" past --timeout), errorDistribution ("code:
// message" → count), and average, fastest, slowest, rps, options, date.
//
// Only the standard library: net/http's client with keep-alive, compression
// off (DisableCompression), no HTTP/2.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Distinct error messages kept in errorDistribution; the rest are counted
// under otherErrors (messages can name the request, one entry per call).
const maxErrorKinds = 100

const otherErrors = "(other error messages)"

type config struct {
	url            string
	binaryFile     string
	connections    int
	concurrency    int
	duration       time.Duration
	durationStop   string
	timeout        time.Duration
	name           string
	acceptEncoding string
	contentType    string
}

func parseArgs(args []string, stderr io.Writer) (config, error) {
	var c config
	flags := flag.NewFlagSet("webload", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&c.binaryFile, "binary-file", "", "requests: one message, or several each preceded by its varint length (ghz's format)")
	flags.IntVar(&c.connections, "connections", 1, "HTTP/1.1 keep-alive connections (one call in flight each)")
	flags.IntVar(&c.concurrency, "concurrency", 1, "workers, each making one call after another; worker i uses connection i mod connections")
	flags.DurationVar(&c.duration, "duration", 0, "how long to start calls (required)")
	flags.StringVar(&c.durationStop, "duration-stop", "close", "calls in flight at the end: close (cancel, count as errors), ignore (cancel, leave out), wait (complete, count)")
	flags.DurationVar(&c.timeout, "timeout", 20*time.Second, "each call's deadline (also sent as Connect-Timeout-Ms)")
	flags.StringVar(&c.name, "name", "", "a name for the report")
	flags.StringVar(&c.acceptEncoding, "accept-encoding", "", "Accept-Encoding header (none: uncompressed answers)")
	flags.StringVar(&c.contentType, "content-type", "application/proto", "Content-Type of the requests")
	format := flags.String("format", "json", "output format: json (the only one)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: webload [flags] URL [flags]")
		flags.PrintDefaults()
	}
	// Flags may come after the URL too, as ghz takes them (ghz.run in the
	// load test appends --format json): the standard parser stops at the
	// first argument that is not a flag, so parse on after each one.
	var positional []string
	for {
		if err := flags.Parse(args); err != nil {
			return c, err
		}
		if flags.NArg() == 0 {
			break
		}
		positional = append(positional, flags.Arg(0))
		args = flags.Args()[1:]
	}
	switch {
	case len(positional) != 1:
		return c, errors.New("one URL expected")
	case c.binaryFile == "":
		return c, errors.New("--binary-file is required")
	case c.duration <= 0:
		return c, errors.New("--duration is required")
	case c.concurrency < 1 || c.connections < 1:
		return c, errors.New("--concurrency and --connections must be at least 1")
	case c.connections > c.concurrency:
		return c, errors.New("--connections cannot be more than --concurrency")
	case *format != "json":
		return c, fmt.Errorf("--format %q: only json", *format)
	case c.durationStop != "close" && c.durationStop != "ignore" && c.durationStop != "wait":
		return c, fmt.Errorf("--duration-stop %q: close, ignore or wait", c.durationStop)
	}
	c.url = positional[0]
	return c, nil
}

// splitDelimited reads ghz's count-delimited format: varint length, bytes,
// and so on to the end. Anything else is one message.
func splitDelimited(data []byte) [][]byte {
	var out [][]byte
	for rest := data; len(rest) > 0; {
		size, n := binary.Uvarint(rest)
		if n <= 0 || size > uint64(len(rest)-n) {
			return [][]byte{data}
		}
		end := n + int(size)
		out = append(out, rest[n:end])
		rest = rest[end:]
	}
	if len(out) == 0 {
		return [][]byte{data}
	}
	return out
}

// tally is what one worker saw; merged at the end (no lock per call).
type tally struct {
	count  int
	ok     []time.Duration
	codes  map[string]int
	errors map[string]int
}

func newTally() *tally {
	return &tally{codes: map[string]int{}, errors: map[string]int{}}
}

func (t *tally) add(latency time.Duration, code, message string) {
	t.count++
	t.codes[code]++
	if code == "OK" {
		t.ok = append(t.ok, latency)
		return
	}
	key := code + ": " + message
	if _, seen := t.errors[key]; !seen && len(t.errors) >= maxErrorKinds {
		key = otherErrors
	}
	t.errors[key]++
}

// httpCode is the Connect protocol's code for an HTTP status when the
// error's body names none (connectrpc.com/docs/protocol, "HTTP to Error Code").
func httpCode(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "internal"
	case http.StatusUnauthorized:
		return "unauthenticated"
	case http.StatusForbidden:
		return "permission_denied"
	case http.StatusNotFound:
		return "unimplemented"
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return "unavailable"
	}
	return "unknown"
}

type loader struct {
	cfg      config
	messages [][]byte
	clients  []*http.Client
	next     atomic.Uint64
	timeout  string // Connect-Timeout-Ms
}

func newLoader(cfg config, messages [][]byte) *loader {
	l := &loader{cfg: cfg, messages: messages, timeout: strconv.FormatInt(cfg.timeout.Milliseconds(), 10)}
	for range cfg.connections {
		transport := &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxConnsPerHost:     1, // one connection: HTTP/1.1, one call at a time
			MaxIdleConns:        1,
			MaxIdleConnsPerHost: 1,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
			ForceAttemptHTTP2:   false,
		}
		l.clients = append(l.clients, &http.Client{Transport: transport})
	}
	return l
}

// call makes one Connect unary call: its latency, code and error message.
func (l *loader) call(parent context.Context, client *http.Client) (time.Duration, string, string) {
	body := l.messages[(l.next.Add(1)-1)%uint64(len(l.messages))]
	ctx, cancel := context.WithTimeout(parent, l.cfg.timeout)
	defer cancel()
	start := time.Now()
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, l.cfg.url, bytes.NewReader(body))
	if err != nil {
		return 0, "internal", err.Error()
	}
	request.Header.Set("Content-Type", l.cfg.contentType)
	request.Header.Set("Connect-Protocol-Version", "1")
	request.Header.Set("Connect-Timeout-Ms", l.timeout)
	if l.cfg.acceptEncoding != "" {
		request.Header.Set("Accept-Encoding", l.cfg.acceptEncoding)
	}
	response, err := client.Do(request)
	if err != nil {
		return time.Since(start), transportCode(ctx, parent), err.Error()
	}
	defer response.Body.Close()
	if response.StatusCode == http.StatusOK {
		// Read to the end: net/http reuses the connection only then.
		if _, err := io.Copy(io.Discard, response.Body); err != nil {
			return time.Since(start), transportCode(ctx, parent), err.Error()
		}
		return time.Since(start), "OK", ""
	}
	data, err := io.ReadAll(io.LimitReader(response.Body, 1<<16))
	if err == nil {
		_, err = io.Copy(io.Discard, response.Body)
	}
	latency := time.Since(start)
	if err != nil {
		return latency, transportCode(ctx, parent), err.Error()
	}
	code, message := connectError(response, data)
	return latency, code, message
}

// connectError reads a Connect error's JSON body (gzipped when the server
// compressed it), falling back to the HTTP status's code.
func connectError(response *http.Response, data []byte) (string, string) {
	if response.Header.Get("Content-Encoding") == "gzip" {
		if reader, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			if plain, err := io.ReadAll(reader); err == nil {
				data = plain
			}
		}
	}
	var answer struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &answer) == nil && answer.Code != "" {
		return answer.Code, answer.Message
	}
	text := strings.TrimSpace(string(data))
	if len(text) > 200 {
		text = text[:200]
	}
	return httpCode(response.StatusCode), fmt.Sprintf("HTTP %d: %s", response.StatusCode, text)
}

func transportCode(ctx, parent context.Context) string {
	switch {
	case parent.Err() != nil:
		return "canceled"
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "deadline_exceeded"
	}
	return "unavailable"
}

// run starts calls for the configured duration and returns every worker's
// tally and the test's total time (to the last answer counted).
func (l *loader) run() ([]*tally, time.Duration) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	deadline := start.Add(l.cfg.duration)
	if l.cfg.durationStop != "wait" {
		stop := time.AfterFunc(l.cfg.duration, cancel)
		defer stop.Stop()
	}
	tallies := make([]*tally, l.cfg.concurrency)
	var wg sync.WaitGroup
	for i := range l.cfg.concurrency {
		tallies[i] = newTally()
		wg.Add(1)
		go func(t *tally, client *http.Client) {
			defer wg.Done()
			for time.Now().Before(deadline) {
				latency, code, message := l.call(parent, client)
				if code == "canceled" && l.cfg.durationStop == "ignore" {
					return
				}
				t.add(latency, code, message)
			}
		}(tallies[i], l.clients[i%len(l.clients)])
	}
	wg.Wait()
	return tallies, time.Since(start)
}

type latencyAt struct {
	Percentage int   `json:"percentage"`
	Latency    int64 `json:"latency"`
}

type report struct {
	Name                   string         `json:"name"`
	EndReason              string         `json:"endReason"`
	Options                map[string]any `json:"options"`
	Date                   string         `json:"date"`
	Count                  int            `json:"count"`
	Total                  int64          `json:"total"`
	Average                int64          `json:"average"`
	Fastest                int64          `json:"fastest"`
	Slowest                int64          `json:"slowest"`
	Rps                    float64        `json:"rps"`
	ErrorDistribution      map[string]int `json:"errorDistribution"`
	StatusCodeDistribution map[string]int `json:"statusCodeDistribution"`
	LatencyDistribution    []latencyAt    `json:"latencyDistribution"`
}

func summarize(cfg config, messages int, started time.Time, tallies []*tally, total time.Duration) report {
	r := report{
		Name:      cfg.name,
		EndReason: "timeout",
		Options: map[string]any{
			"url": cfg.url, "binary-file": cfg.binaryFile, "messages": messages,
			"connections": cfg.connections, "concurrency": cfg.concurrency,
			"duration": cfg.duration.Nanoseconds(), "duration-stop": cfg.durationStop,
			"timeout": cfg.timeout.Nanoseconds(), "accept-encoding": cfg.acceptEncoding,
			"content-type": cfg.contentType, "binary": true, "CPUs": runtime.NumCPU(),
			"name": cfg.name, "protocol": "connect",
		},
		Date:                   started.UTC().Format(time.RFC3339),
		Total:                  total.Nanoseconds(),
		ErrorDistribution:      map[string]int{},
		StatusCodeDistribution: map[string]int{},
		LatencyDistribution:    []latencyAt{},
	}
	var ok []time.Duration
	for _, t := range tallies {
		r.Count += t.count
		ok = append(ok, t.ok...)
		for code, n := range t.codes {
			r.StatusCodeDistribution[code] += n
		}
		for message, n := range t.errors {
			r.ErrorDistribution[message] += n
		}
	}
	if len(r.ErrorDistribution) > maxErrorKinds {
		// Merged from several workers: keep the most frequent.
		kinds := make([]string, 0, len(r.ErrorDistribution))
		for message := range r.ErrorDistribution {
			kinds = append(kinds, message)
		}
		sort.Slice(kinds, func(i, j int) bool {
			return r.ErrorDistribution[kinds[i]] > r.ErrorDistribution[kinds[j]]
		})
		for _, message := range kinds[maxErrorKinds:] {
			r.ErrorDistribution[otherErrors] += r.ErrorDistribution[message]
			delete(r.ErrorDistribution, message)
		}
	}
	if total > 0 {
		r.Rps = float64(r.Count) / total.Seconds()
	}
	if len(ok) == 0 {
		return r
	}
	sort.Slice(ok, func(i, j int) bool { return ok[i] < ok[j] })
	var sum time.Duration
	for _, d := range ok {
		sum += d
	}
	r.Average = (sum / time.Duration(len(ok))).Nanoseconds()
	r.Fastest, r.Slowest = ok[0].Nanoseconds(), ok[len(ok)-1].Nanoseconds()
	// ghz's percentiles: the value at rank p% of the sorted latencies.
	for _, p := range []int{10, 25, 50, 75, 90, 95, 99} {
		rank := float64(p) / 100 * float64(len(ok))
		i := int(rank)
		if rank == float64(i) {
			i--
		}
		i = max(0, min(i, len(ok)-1))
		r.LatencyDistribution = append(r.LatencyDistribution, latencyAt{p, ok[i].Nanoseconds()})
	}
	return r
}

func main() {
	cfg, err := parseArgs(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webload:", err)
		os.Exit(2)
	}
	data, err := os.ReadFile(cfg.binaryFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webload:", err)
		os.Exit(1)
	}
	messages := splitDelimited(data)
	started := time.Now()
	tallies, total := newLoader(cfg, messages).run()
	out, err := json.Marshal(summarize(cfg, len(messages), started, tallies, total))
	if err != nil {
		fmt.Fprintln(os.Stderr, "webload:", err)
		os.Exit(1)
	}
	fmt.Println(string(out))
}
