//go:build race

package server_test

// raceDetector: the race detector is on (its shadow memory makes RSS figures meaningless).
const raceDetector = true
