package semisync

// Pos is a binary log position. Files are named so that they sort in log order
// (binlog.000001 < binlog.000002).
type Pos struct {
	File   string
	Offset int64
}

// Less orders positions.
func (p Pos) Less(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	return p.Offset < q.Offset
}

// AtLeast reports p >= q.
func (p Pos) AtLeast(q Pos) bool { return !p.Less(q) }
