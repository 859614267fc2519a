package collation

import "unicode/utf8"

// generalPages holds utf8mb4_general_ci's weights of the Basic Multilingual Plane
// in pages of 256 characters; a nil page weighs each character as its code point.
var generalPages [256]*[256]uint16

// generalASCII is generalPages' first 128 weights, for the common case.
var generalASCII [128]uint32

func init() {
	for _, e := range generalExceptions {
		p := generalPages[e[0]>>8]
		if p == nil {
			p = new([256]uint16)
			base := e[0] &^ 0xFF
			for i := range p {
				p[i] = base + uint16(i)
			}
			generalPages[e[0]>>8] = p
		}
		p[e[0]&0xFF] = e[1]
	}
	for i := range generalASCII {
		generalASCII[i] = generalWeight(rune(i))
	}
}

// generalWeight is a character's weight in utf8mb4_general_ci (and
// utf8mb3_general_ci): its uppercase form, with accents of Latin letters dropped,
// from MySQL's table; every supplementary character weighs as U+FFFD.
func generalWeight(r rune) uint32 {
	if r > 0xFFFF {
		return 0xFFFD
	}
	if p := generalPages[r>>8]; p != nil {
		return uint32(p[r&0xFF])
	}
	return uint32(r)
}

// invalidWeight weighs a byte that is not UTF-8 above every character, each byte
// distinct, so that such text still has a total order.
func invalidWeight(b byte) uint32 { return 0x110000 + uint32(b) }

// compareGeneral is utf8mb4_general_ci, PAD SPACE.
func compareGeneral(a, b string) int {
	i := samePrefix(a, b)
	j := i
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if ca < utf8.RuneSelf && cb < utf8.RuneSelf {
			if ca != cb {
				if wa, wb := generalASCII[ca], generalASCII[cb]; wa != wb {
					return cmpWeight(wa, wb)
				}
			}
			i++
			j++
			continue
		}
		wa, na := nextGeneral(a[i:])
		wb, nb := nextGeneral(b[j:])
		if wa != wb {
			return cmpWeight(wa, wb)
		}
		i += na
		j += nb
	}
	switch {
	case i < len(a):
		return padGeneral(a[i:])
	case j < len(b):
		return -padGeneral(b[j:])
	}
	return 0
}

func nextGeneral(s string) (uint32, int) {
	if s[0] < utf8.RuneSelf {
		return generalASCII[s[0]], 1
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 {
		return invalidWeight(s[0]), 1
	}
	return generalWeight(r), n
}

// padGeneral compares the rest of the longer string with the spaces that pad the
// shorter one: 1 if the rest is greater, -1 if less, 0 if it is only spaces.
func padGeneral(s string) int {
	for k := 0; k < len(s); {
		w, n := nextGeneral(s[k:])
		if w != ' ' {
			return cmpWeight(w, ' ')
		}
		k += n
	}
	return 0
}

func cmpWeight(a, b uint32) int {
	if a < b {
		return -1
	}
	return 1
}

// compareBinPad is utf8mb4_bin: code point order (UTF-8's byte order), PAD SPACE.
func compareBinPad(a, b string) int {
	n := min(len(a), len(b))
	k := 0
	for k < n && a[k] == b[k] {
		k++
	}
	switch {
	case k < n:
		if a[k] < b[k] {
			return -1
		}
		return 1
	case k < len(a):
		return padBytes(a[k:])
	case k < len(b):
		return -padBytes(b[k:])
	}
	return 0
}

// padBytes compares the rest of the longer string with padding spaces byte by
// byte: a multibyte character starts with a byte above the space.
func padBytes(s string) int {
	for k := 0; k < len(s); k++ {
		if s[k] != ' ' {
			if s[k] < ' ' {
				return -1
			}
			return 1
		}
	}
	return 0
}

// samePrefix is the length of the longest common prefix of a and b that ends
// on a character boundary: a comparison weighing character by character can
// start there.
func samePrefix(a, b string) int {
	n := min(len(a), len(b))
	k := 0
	for k < n && a[k] == b[k] {
		k++
	}
	for k > 0 && k < len(a) && a[k]&0xC0 == 0x80 {
		k--
	}
	for k > 0 && k < len(b) && b[k]&0xC0 == 0x80 {
		k--
	}
	return k
}
