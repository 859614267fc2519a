package collation

// Weights exposes a character's weights in the table-driven collations, for the
// measurement test.
func Weights(collation string, r rune) []uint32 {
	switch collation {
	case "utf8mb4_general_ci":
		return []uint32{generalWeight(r)}
	case "utf8mb4_unicode_ci":
		it := ucaIter{t: unicode400Table(), s: string(r)}
		var out []uint32
		for w, ok := it.next(); ok; w, ok = it.next() {
			out = append(out, w)
		}
		return out
	case "ascii_general_ci":
		w, _ := asciiGeneral.next(string(r))
		return []uint32{w}
	}
	w, _ := latin1Tables[collation].next(string(r))
	return []uint32{w}
}
