package collation

import "testing"

// sysbench's c column: 120 characters of digit groups; two values differ late.
const (
	benchA = "83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330"
	benchB = "83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432331"
	randA  = "27563526494-20381887404-41576422241-93426793964-56405065102-33518432330-83868641912-28773972837-60736120486-75162659906"
	emailA = "Anna.Svensson@example.com"
	emailB = "anna.svensson@EXAMPLE.org"
	wordsA = "Ærøskøbing Straße Île-de-France"
	wordsB = "aeroskobing strasse ile-de-france"
)

func benchCompare(b *testing.B, name, x, y string) {
	c, ok := Lookup(name)
	if !ok {
		b.Fatal(name)
	}
	cmp := c.NewCompare()
	b.ReportAllocs()
	for b.Loop() {
		cmp(x, y)
	}
}

func BenchmarkCompare(b *testing.B) {
	for _, name := range []string{"utf8mb4_general_ci", "utf8mb4_bin", "utf8mb4_unicode_ci", "utf8mb4_0900_ai_ci", "utf8mb4_0900_as_cs", "utf8mb4_unicode_520_ci", "latin1_swedish_ci"} {
		b.Run(name+"/sysbench120", func(b *testing.B) { benchCompare(b, name, benchA, benchB) })
		b.Run(name+"/sysbench-early", func(b *testing.B) { benchCompare(b, name, randA, benchB) })
		b.Run(name+"/email", func(b *testing.B) { benchCompare(b, name, emailA, emailB) })
		b.Run(name+"/accents", func(b *testing.B) { benchCompare(b, name, wordsA, wordsB) })
	}
}
