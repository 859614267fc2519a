package mysqljson

// How JSON_SET, JSON_INSERT and JSON_REPLACE treat a path: set writes whether or
// not a value is there, insert only where none is, replace only where one is.
const (
	ModeSet = iota
	ModeInsert
	ModeReplace
)

// Modify writes val at path in doc (a path without wildcards), as JSON_SET,
// JSON_INSERT or JSON_REPLACE do: a missing member is added to its object; an
// array index past the end appends; an index into a non-array treats it as a
// one-element array ([0] is the value itself, [1] wraps it into an array with the
// new value after it). A path whose container does not exist changes nothing.
func Modify(doc *Value, path Path, val Value, mode int) {
	if path.Root() {
		if mode != ModeInsert {
			*doc = val
		}
		return
	}
	parentPath, last := path.parent()
	hits := Seek(doc, parentPath, true)
	if len(hits) == 0 {
		return
	}
	parent := hits[0]
	switch last.kind {
	case legMember:
		if parent.Kind != KindObject {
			return
		}
		exists := parent.Get(last.key) != nil
		if exists && mode != ModeInsert || !exists && mode != ModeReplace {
			parent.Put(last.key, val)
		}
	case legCell:
		if parent.Kind != KindArray {
			if _, ok := last.from.position(1); ok {
				if mode != ModeInsert {
					*parent = val
				}
				return
			}
			if mode == ModeReplace {
				return
			}
			*parent = Array(*parent)
		}
		pos, ok := last.from.position(len(parent.Arr))
		switch {
		case ok && mode != ModeInsert:
			parent.Arr[pos] = val
		case !ok && mode != ModeReplace:
			insertAt(parent, pos, val)
		}
	}
}

// insertAt inserts val into array a before position pos (clamped to its size).
func insertAt(a *Value, pos int, val Value) {
	pos = min(max(pos, 0), len(a.Arr))
	a.Arr = append(a.Arr, Value{})
	copy(a.Arr[pos+1:], a.Arr[pos:])
	a.Arr[pos] = val
}

// Remove deletes the value at path (without wildcards, not $) from doc, if any.
func Remove(doc *Value, path Path) {
	parentPath, last := path.parent()
	hits := Seek(doc, parentPath, false)
	if len(hits) == 0 {
		return
	}
	parent := hits[0]
	switch last.kind {
	case legMember:
		if parent.Kind == KindObject {
			parent.Delete(last.key)
		}
	case legCell:
		if parent.Kind == KindArray {
			if pos, ok := last.from.position(len(parent.Arr)); ok {
				parent.Arr = append(parent.Arr[:pos], parent.Arr[pos+1:]...)
			}
		}
	}
}

// ArrayAppend appends val to the array at path (a non-array there becomes an
// array of itself and val), as JSON_ARRAY_APPEND does.
func ArrayAppend(doc *Value, path Path, val Value) {
	hits := Seek(doc, path, true)
	if len(hits) == 0 {
		return
	}
	t := hits[0]
	if t.Kind != KindArray {
		*t = Array(*t)
	}
	t.Arr = append(t.Arr, val)
}

// ArrayInsert inserts val before the array cell path names (at the end when the
// index is past it), as JSON_ARRAY_INSERT does; the path must end in a cell.
func ArrayInsert(doc *Value, path Path, val Value) {
	parentPath, last := path.parent()
	hits := Seek(doc, parentPath, true)
	if len(hits) == 0 || hits[0].Kind != KindArray {
		return
	}
	pos, _ := last.from.position(len(hits[0].Arr)) // before the element named (last-n too)
	insertAt(hits[0], pos, val)
}

// endsInCell: the path's last leg is an array cell (JSON_ARRAY_INSERT's paths).
func (p Path) endsInCell() bool {
	return len(p.legs) > 0 && p.legs[len(p.legs)-1].kind == legCell
}

// MergePatch is RFC 7396's merge, as JSON_MERGE_PATCH does it: a non-object
// patch replaces the target, an object patch sets its members into the target
// (an object, or {} in place of anything else), a null member removes the key.
func MergePatch(target, patch Value) Value {
	if patch.Kind != KindObject {
		return patch
	}
	if target.Kind != KindObject {
		target = Value{Kind: KindObject}
	}
	for _, m := range patch.Obj {
		if m.Value.Kind == KindNull {
			target.Delete(m.Key)
			continue
		}
		if cur := target.Get(m.Key); cur != nil {
			target.Put(m.Key, MergePatch(*cur, m.Value))
		} else {
			target.Put(m.Key, MergePatch(Value{Kind: KindNull}, m.Value))
		}
	}
	return target
}

// MergePreserve is JSON_MERGE_PRESERVE: two objects merge their members (a key
// in both gets the merge of its values), anything else concatenates as arrays.
func MergePreserve(a, b Value) Value {
	if a.Kind == KindObject && b.Kind == KindObject {
		for _, m := range b.Obj {
			if cur := a.Get(m.Key); cur != nil {
				a.Put(m.Key, MergePreserve(*cur, m.Value))
			} else {
				a.Put(m.Key, m.Value)
			}
		}
		return a
	}
	var out []Value
	for _, v := range []Value{a, b} {
		if v.Kind == KindArray {
			out = append(out, v.Arr...)
		} else {
			out = append(out, v)
		}
	}
	return Array(out...)
}

// Keys is JSON_KEYS: an object's keys as an array, in its order.
func Keys(v *Value) (Value, bool) {
	if v.Kind != KindObject {
		return Value{}, false
	}
	keys := make([]Value, len(v.Obj))
	for i := range v.Obj {
		keys[i] = String(v.Obj[i].Key)
	}
	return Array(keys...), true
}
