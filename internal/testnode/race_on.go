//go:build race

package testnode

// raceEnabled: the tests run under the race detector.
const raceEnabled = true
