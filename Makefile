# binlite needs SQLite's preupdate hook for row capture: every build and test uses the tag.
GO       ?= go
TAGS     := sqlite_preupdate_hook
export GOFLAGS := -tags=$(TAGS)

.PHONY: build test test-short vet fuzz bench demo clean

build:
	$(GO) build -o bin/binlite ./cmd/binlite

# The whole suite: unit tests, the fuzz seed corpora, and the integration tests that
# run real servers on loopback with the mariadb CLI, sysbench and the Go driver.
test: build vet
	$(GO) test -race -timeout 20m ./...
	# The memory bounds are RSS measurements, which mean nothing under the race
	# detector (those tests skip there): run them once more without it.
	$(GO) test -count=1 -timeout 5m -run 'TestStalledReadersOfALargeResultKeepMemoryBounded|TestLargeQueryMemory' ./server/

test-short: build
	$(GO) test -short ./...

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1)

fuzz:
	$(GO) test -run=NONE -fuzz=FuzzReadPacket -fuzztime=30s ./mysqlproto/
	$(GO) test -run=NONE -fuzz=FuzzDecodeExecute -fuzztime=30s ./mysqlproto/
	$(GO) test -run=NONE -fuzz=FuzzDecodeEvent -fuzztime=30s ./binlog/
	$(GO) test -run=NONE -fuzz=FuzzReadFile -fuzztime=30s ./binlog/
	$(GO) test -run=NONE -fuzz=FuzzParse -fuzztime=30s ./sqlcompat/
	$(GO) test -run=NONE -fuzz=FuzzParse -fuzztime=30s ./mysqljson/
	$(GO) test -run=NONE -fuzz=FuzzParse -fuzztime=30s ./temporal/

demo: build
	./bin/binlite demo

clean:
	rm -rf bin
