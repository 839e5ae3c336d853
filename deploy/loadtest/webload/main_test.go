package main

import (
	"bytes"
	"testing"
	"time"
)

func TestSplitDelimitedReadsGhzFormatAndFallsBackToOneMessage(t *testing.T) {
	got := splitDelimited([]byte{2, 'a', 'b', 0, 1, 'c'})
	want := [][]byte{[]byte("ab"), {}, []byte("c")}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("message %d: got %q, want %q", i, got[i], want[i])
		}
	}
	// A length past the end: the whole file is one message, as in ghz.
	raw := []byte{9, 'a'}
	if got := splitDelimited(raw); len(got) != 1 || !bytes.Equal(got[0], raw) {
		t.Fatalf("got %q, want the file as one message", got)
	}
	if got := splitDelimited(nil); len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("an empty file: got %q, want one empty message", got)
	}
}

func TestSummarizeCountsErrorsAndTakesPercentilesOfOKCalls(t *testing.T) {
	a, b := newTally(), newTally()
	for i := 1; i <= 10; i++ {
		a.add(time.Duration(i)*time.Millisecond, "OK", "")
	}
	b.add(time.Second, "invalid_argument", "bad")
	r := summarize(config{}, 1, time.Now(), []*tally{a, b}, 2*time.Second)
	if r.Count != 11 || r.StatusCodeDistribution["OK"] != 10 || r.StatusCodeDistribution["invalid_argument"] != 1 {
		t.Fatalf("counts: %+v", r)
	}
	if r.ErrorDistribution["invalid_argument: bad"] != 1 || r.Total != 2e9 {
		t.Fatalf("errors or total: %+v", r)
	}
	// ghz's ranks: p50 of 10 is the 5th, p99 the 10th; the error is not a latency.
	at := map[int]int64{}
	for _, d := range r.LatencyDistribution {
		at[d.Percentage] = d.Latency
	}
	if at[50] != 5e6 || at[99] != 10e6 || at[10] != 1e6 || r.Slowest != 10e6 {
		t.Fatalf("latencies: %+v", r.LatencyDistribution)
	}
}

func TestAnHTTPStatusWithoutAConnectErrorGetsTheProtocolsCode(t *testing.T) {
	for status, code := range map[int]string{400: "internal", 404: "unimplemented", 503: "unavailable", 500: "unknown"} {
		if got := httpCode(status); got != code {
			t.Errorf("HTTP %d: got %s, want %s", status, got, code)
		}
	}
}
