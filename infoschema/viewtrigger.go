package infoschema

// views are information_schema.VIEWS: each view's query as MySQL keeps it.
// binlite writes through no view, so none is updatable.
func views(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, false) {
		if !t.Def.IsView() {
			continue
		}
		v := t.Def.View
		check := v.CheckOption
		if check == "" {
			check = "NONE"
		}
		out = append(out, Values{"TABLE_CATALOG": "def", "TABLE_SCHEMA": t.schema, "TABLE_NAME": t.Name,
			"VIEW_DEFINITION": v.Select, "CHECK_OPTION": check, "IS_UPDATABLE": "NO",
			"DEFINER": v.DefinerUser + "@" + v.DefinerHost, "SECURITY_TYPE": v.Security,
			"CHARACTER_SET_CLIENT": v.CharsetClient, "COLLATION_CONNECTION": v.CollationConnection})
	}
	return out
}

// triggers are information_schema.TRIGGERS, ACTION_ORDER counting each table's
// triggers of one timing and event in the order they fire.
func triggers(s *Schemas, src *Source) []Values {
	var out []Values
	for _, t := range s.all(src, false) {
		if t.Def == nil {
			continue
		}
		order := map[string]int64{}
		for _, tr := range t.Def.Triggers {
			k := tr.Timing + " " + tr.Event
			order[k]++
			out = append(out, Values{"TRIGGER_CATALOG": "def", "TRIGGER_SCHEMA": t.schema, "TRIGGER_NAME": tr.Name,
				"EVENT_MANIPULATION": tr.Event, "EVENT_OBJECT_CATALOG": "def", "EVENT_OBJECT_SCHEMA": t.schema,
				"EVENT_OBJECT_TABLE": t.Name, "ACTION_ORDER": order[k], "ACTION_CONDITION": nil,
				"ACTION_STATEMENT": tr.Body, "ACTION_ORIENTATION": "ROW", "ACTION_TIMING": tr.Timing,
				"ACTION_REFERENCE_OLD_TABLE": nil, "ACTION_REFERENCE_NEW_TABLE": nil,
				"ACTION_REFERENCE_OLD_ROW": "OLD", "ACTION_REFERENCE_NEW_ROW": "NEW", "CREATED": tr.Created,
				"SQL_MODE": tr.SQLMode, "DEFINER": tr.DefinerUser + "@" + tr.DefinerHost,
				"CHARACTER_SET_CLIENT": tr.CharsetClient, "COLLATION_CONNECTION": tr.CollationConnection,
				"DATABASE_COLLATION": src.DefaultCollation})
		}
	}
	return out
}

// tableKind is TABLE_TYPE of a schema's table or view.
func tableKind(t Table) string {
	if t.Def.IsView() {
		return "VIEW"
	}
	return "BASE TABLE"
}
