package sqlcompat

import "testing"

func TestSetScopeCarriesOver(t *testing.T) {
	st, err := Parse("SET GLOBAL a = 1, b = 2, SESSION c = 3, d = 4, @@global.e = 5", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []SetKind{SetGlobal, SetGlobal, SetSession, SetSession, SetGlobal}
	items := st.(*Set).Items
	if len(items) != len(want) {
		t.Fatalf("%d items", len(items))
	}
	for i, it := range items {
		if it.Kind != want[i] {
			t.Errorf("item %d (%s): kind %d, want %d", i, it.Name, it.Kind, want[i])
		}
	}
}
