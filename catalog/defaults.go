package catalog

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// Column defaults as MySQL 8.4 has them (manual 13.6 "Data Type Default Values"): a
// literal, CURRENT_TIMESTAMP, or an expression in parentheses that may call
// functions and read other columns of the row.
//
// SQLite's DEFAULT takes constant expressions only, so a default that reads
// columns is not in the SQLite table: the INSERT writes it (InsertDefaults), which
// also keeps replication exact, since replicas store the row images the source
// wrote. The same holds for a default ALTER TABLE ... ALTER COLUMN changed: the
// SQLite table keeps the DEFAULT it was created with (rewriting a table's schema
// text would change the value SQLite reads for rows stored before an ADD COLUMN),
// and the column is marked DefaultSupplied.

// DefaultSpec is a DEFAULT clause as written, before the column's type gives it
// the form MySQL stores. It is what ALTER TABLE ... ALTER COLUMN ... SET DEFAULT
// carries to the catalog (AlterDefaultJSON), so a replica replaying the DDL text
// needs no table definition to translate it.
type DefaultSpec struct {
	Null   bool     `json:"null,omitempty"`
	Now    string   `json:"now,omitempty"`  // CURRENT_TIMESTAMP[(fsp)]
	Text   string   `json:"text,omitempty"` // a literal's text, its sign included
	Bin    []byte   `json:"bin,omitempty"`  // a hexadecimal or bit literal's bytes
	IsBin  bool     `json:"is_bin,omitempty"`
	Expr   string   `json:"expr,omitempty"`   // an expression default as MySQL prints it, parenthesised
	SQLite string   `json:"sqlite,omitempty"` // the expression translated for SQLite (set by the translator)
	Refs   []string `json:"refs,omitempty"`   // columns the expression reads, as written
	Bad    bool     `json:"bad,omitempty"`    // not a value any column takes as its default (1067)
}

// SpecOf reads a DEFAULT clause of column col. An expression in parentheses is
// checked for what MySQL refuses in default expressions whatever the table:
// disallowed functions (3770), variables (3772), subqueries (3769).
func SpecOf(col string, e ast.ExprNode) (*DefaultSpec, error) {
	if s, ok := currentTimestamp(e); ok {
		return &DefaultSpec{Now: s}, nil
	}
	if p, ok := e.(*ast.ParenthesesExpr); ok {
		info := inspect(p.Expr, defaultBanned)
		switch {
		case info.variables:
			return nil, mysqlerr.New(mysqlerr.ErDefaultValGeneratedVariables, "Default value expression of column '%s' cannot refer user or system variables.", col)
		case info.subquery:
			return nil, mysqlerr.New(mysqlerr.ErDefaultValGeneratedFunctionIsNotAllowed, "Default value expression of column '%s' contains a disallowed function.", col)
		case info.banned != "":
			return nil, mysqlerr.New(mysqlerr.ErDefaultValGeneratedNamedFunctionIsNotAllowed, "Default value expression of column '%s' contains a disallowed function: %s.", col, info.banned)
		}
		return &DefaultSpec{Expr: "(" + mysqlExpr(p.Expr) + ")", Refs: info.refs}, nil
	}
	neg := false
	if u, ok := e.(*ast.UnaryOperationExpr); ok && (u.Op == opcode.Minus || u.Op == opcode.Plus) {
		neg, e = u.Op == opcode.Minus, u.V
	}
	v, ok := e.(*driver.ValueExpr)
	if !ok {
		return &DefaultSpec{Bad: true}, nil
	}
	sp := &DefaultSpec{}
	switch v.Kind() {
	case driver.KindNull:
		sp.Null = true
	case driver.KindInt64:
		sp.Text = strconv.FormatInt(v.GetInt64(), 10)
	case driver.KindUint64:
		sp.Text = strconv.FormatUint(v.GetUint64(), 10)
	case driver.KindFloat64, driver.KindFloat32:
		sp.Text = strconv.FormatFloat(v.GetFloat64(), 'g', -1, 64)
	case driver.KindMysqlDecimal:
		sp.Text = v.GetMysqlDecimal().String()
	case driver.KindString, driver.KindBytes:
		sp.Text = v.GetString()
	case driver.KindBinaryLiteral:
		sp.Bin, sp.IsBin = []byte(v.GetBinaryLiteral()), true
	default:
		sp.Bad = true
	}
	if neg {
		sp.Text = "-" + sp.Text
	}
	return sp, nil
}

// defaultFrom gives column c the default sp, as MySQL stores it for c's type.
func (c *Column) defaultFrom(sp *DefaultSpec) (*Default, error) {
	bad := func() error {
		return mysqlerr.New(mysqlerr.ErInvalidDefault, "Invalid default value for '%s'", c.Name)
	}
	switch {
	case c.Generated != nil:
		return nil, mysqlerr.New(mysqlerr.ErWrongUsage, "Incorrect usage of DEFAULT and generated column")
	case sp.Bad:
		return nil, bad()
	case sp.Now != "":
		if c.Type.Base != "timestamp" && c.Type.Base != "datetime" {
			return nil, bad()
		}
		return &Default{Expr: sp.Now}, nil
	case sp.Expr != "":
		if c.AutoIncrement {
			return nil, bad()
		}
		return &Default{Expr: sp.Expr, SQLite: sp.SQLite, Refs: sp.Refs}, nil
	case sp.Null:
		if !c.Nullable {
			return nil, bad()
		}
		return &Default{Null: true}, nil
	}
	if c.AutoIncrement {
		return nil, bad()
	}
	if c.Type.IsBlobLike() || c.Type.Base == "json" {
		return nil, mysqlerr.New(mysqlerr.ErBlobCantHaveDefault, "BLOB, TEXT, GEOMETRY or JSON column '%s' can't have a default value", c.Name)
	}
	text := sp.Text
	if sp.IsBin {
		if c.Type.Base == "bit" {
			return &Default{Lit: driver.BinaryLiteral(sp.Bin).ToBitLiteralString(true), Bits: true}, nil
		}
		text = string(sp.Bin)
	}
	norm, ok := normaliseLiteral(c.Type, text)
	if !ok {
		return nil, bad()
	}
	return &Default{Lit: norm}, nil
}

// checkDefaultRefs refuses what MySQL refuses in the expression default of the
// i-th column: an unknown column (1054), an AUTO_INCREMENT column (3768), a
// generated or expression-default column not defined before it (3767). Refs are
// respelled as the table declares them. A default that reads a generated column
// is 1235: the INSERT that writes the default cannot see the generated value.
func (t *Table) checkDefaultRefs(i int) error {
	c := &t.Columns[i]
	for k, r := range c.Default.Refs {
		j := t.columnIndex(r)
		if j < 0 {
			return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in 'DEFAULT'", r)
		}
		ref := &t.Columns[j]
		c.Default.Refs[k] = ref.Name
		switch {
		case ref.AutoIncrement:
			return mysqlerr.New(mysqlerr.ErDefaultValGeneratedRefAutoInc, "Default value expression of column '%s' cannot refer to an auto-increment column.", c.Name)
		case j >= i && (ref.Generated != nil || ref.hasExprDefault()):
			return mysqlerr.New(mysqlerr.ErDefaultValGeneratedNonPrior, "Default value expression of column '%s' cannot refer to a column defined after it if that column is a generated column or has an expression as default value.", c.Name)
		case ref.Generated != nil:
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a default expression that reads a generated column'")
		}
	}
	return nil
}

// checkGenerated refuses what MySQL refuses in the expression of the i-th
// column, a generated column: an unknown column (1054), an AUTO_INCREMENT column
// (3109), a generated column not defined before it (3107), a function whose value
// is not determined by the row (3763), variables (3765), subqueries (3102).
func (t *Table) checkGenerated(i int, e ast.ExprNode) error {
	c := &t.Columns[i]
	info := inspect(e, generatedBanned)
	switch {
	case info.variables:
		return mysqlerr.New(mysqlerr.ErGeneratedColumnVariables, "Expression of generated column '%s' cannot refer user or system variables.", c.Name)
	case info.subquery:
		return mysqlerr.New(mysqlerr.ErGeneratedColumnFunctionIsNotAllowed, "Expression of generated column '%s' contains a disallowed function.", c.Name)
	case info.banned != "":
		return mysqlerr.New(mysqlerr.ErGeneratedColumnNamedFunctionIsNotAllowed, "Expression of generated column '%s' contains a disallowed function: %s.", c.Name, info.banned)
	}
	for _, r := range info.refs {
		j := t.columnIndex(r)
		if j < 0 {
			return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in 'generated column function'", r)
		}
		ref := &t.Columns[j]
		switch {
		case ref.AutoIncrement:
			return mysqlerr.New(mysqlerr.ErGeneratedColumnRefAutoInc, "Generated column '%s' cannot refer to auto-increment column.", c.Name)
		case j >= i && ref.Generated != nil:
			return mysqlerr.New(mysqlerr.ErGeneratedColumnNonPrior, "Generated column can refer only to generated columns defined prior to it.")
		}
	}
	return nil
}

func (c *Column) hasExprDefault() bool {
	return c.Default != nil && strings.HasPrefix(c.Default.Expr, "(")
}

func (t *Table) columnIndex(name string) int {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return i
		}
	}
	return -1
}

// exprInfo is what an expression reads and calls.
type exprInfo struct {
	refs      []string // column names, each once
	banned    string   // the first disallowed function
	variables bool
	subquery  bool
}

// defaultBanned are the functions MySQL refuses in a default expression (3770):
// their value is the session's or they act on the server. UNIX_TIMESTAMP() without
// an argument depends on the time zone and is refused too.
var defaultBanned = map[string]bool{
	"database": true, "schema": true, "user": true, "current_user": true, "session_user": true,
	"system_user": true, "connection_id": true, "last_insert_id": true, "found_rows": true,
	"row_count": true, "get_lock": true, "release_lock": true, "release_all_locks": true,
	"is_free_lock": true, "is_used_lock": true, "sleep": true, "benchmark": true, "load_file": true,
	"source_pos_wait": true, "master_pos_wait": true, "wait_for_executed_gtid_set": true,
}

// generatedBanned: a generated column's value must follow from the row alone.
var generatedBanned = func() map[string]bool {
	m := map[string]bool{}
	for k := range defaultBanned {
		m[k] = true
	}
	for k := range nondeterministic {
		m[k] = true
	}
	return m
}()

func inspect(e ast.ExprNode, banned map[string]bool) *exprInfo {
	v := &infoVisitor{info: &exprInfo{}, banned: banned, seen: map[string]bool{}}
	e.Accept(v)
	return v.info
}

type infoVisitor struct {
	info   *exprInfo
	banned map[string]bool
	seen   map[string]bool
}

func (v *infoVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		if k := strings.ToLower(x.Name.Name.O); !v.seen[k] {
			v.seen[k] = true
			v.info.refs = append(v.info.refs, x.Name.Name.O)
		}
	case *ast.FuncCallExpr:
		name := x.FnName.L
		if v.info.banned == "" && (v.banned[name] || name == "unix_timestamp" && len(x.Args) == 0) {
			v.info.banned = name
		}
	case *ast.VariableExpr:
		v.info.variables = true
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr:
		v.info.subquery = true
	}
	return n, false
}

func (v *infoVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// SetDefault is ALTER TABLE ... ALTER COLUMN col SET DEFAULT sp.
func (t *Table) SetDefault(col string, sp *DefaultSpec) error {
	i := t.columnIndex(col)
	if i < 0 {
		return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", col, t.Name)
	}
	c := &t.Columns[i]
	d, err := c.defaultFrom(sp)
	if err != nil {
		return err
	}
	if d.Expr != "" && strings.HasPrefix(d.Expr, "(") && d.SQLite == "" {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this default expression'")
	}
	old := c.Default
	c.Default, c.NoDefault, c.DefaultSupplied = d, false, true
	if len(d.Refs) > 0 {
		if err := t.checkDefaultRefs(i); err != nil {
			c.Default = old
			return err
		}
	}
	return nil
}

// DropDefault is ALTER TABLE ... ALTER COLUMN col DROP DEFAULT.
func (t *Table) DropDefault(col string) error {
	i := t.columnIndex(col)
	if i < 0 {
		return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", col, t.Name)
	}
	c := &t.Columns[i]
	if c.Generated != nil {
		return mysqlerr.New(mysqlerr.ErWrongUsage, "Incorrect usage of DEFAULT and generated column")
	}
	c.Default, c.NoDefault, c.DefaultSupplied = nil, true, true
	return nil
}

// AlterDefaultJSON applies ALTER COLUMN col SET DEFAULT spec (DROP DEFAULT when
// spec is "") to the stored definition def and returns the new stored form. The
// DDL's catalog statement calls it as the SQL function binlite_alter_default, so
// the change is made in the DDL's own transaction, on a source and its replicas.
func AlterDefaultJSON(def, col, spec string) (string, error) {
	t, err := Decode(def)
	if err != nil {
		return "", err
	}
	if spec == "" {
		err = t.DropDefault(col)
	} else {
		var sp DefaultSpec
		if sp, err = decodeSpec(spec); err == nil {
			err = t.SetDefault(col, &sp)
		}
	}
	if err != nil {
		return "", err
	}
	return t.Encode()
}

// HasSuppliedDefaults reports whether an INSERT must write some column's default
// itself (see Column.DefaultSupplied): the SQLite table alone does not hold the
// defaults.
func (t *Table) HasSuppliedDefaults() bool {
	for i := range t.Columns {
		if t.Columns[i].DefaultSupplied {
			return true
		}
	}
	return false
}

// RowDefault is a column an INSERT writes although the statement leaves it out.
type RowDefault struct {
	Column string   // as the table declares it
	SQL    string   // the SQLite expression of its default
	Refs   []string // columns of the row SQL reads (by name): the row must be in scope
}

// InsertDefaults returns, in table order, the columns an INSERT naming given must
// add with their defaults: those the SQLite table does not default itself
// (DefaultSupplied), and the left-out columns their expressions read, so that an
// expression sees the value the row gets (MySQL computes defaults in column
// order). Strict mode refuses a left-out NOT NULL column without a default (1364).
func (t *Table) InsertDefaults(given []string, strict bool) ([]RowDefault, error) {
	named := make(map[string]bool, len(given))
	for _, g := range given {
		named[strings.ToLower(g)] = true
	}
	need := map[string]bool{}
	for i := range t.Columns {
		c := &t.Columns[i]
		k := strings.ToLower(c.Name)
		if named[k] || c.Generated != nil {
			continue
		}
		if strict && !c.Nullable && !c.AutoIncrement && c.Default == nil {
			return nil, mysqlerr.New(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", c.Name)
		}
		if c.DefaultSupplied {
			need[k] = true
		}
	}
	// The columns the needed expressions read, and theirs in turn.
	for changed := true; changed; {
		changed = false
		for i := range t.Columns {
			c := &t.Columns[i]
			if !need[strings.ToLower(c.Name)] || c.Default == nil {
				continue
			}
			for _, r := range c.Default.Refs {
				if k := strings.ToLower(r); !named[k] && !need[k] {
					need[k], changed = true, true
				}
			}
		}
	}
	var out []RowDefault
	for i := range t.Columns {
		c := &t.Columns[i]
		if !need[strings.ToLower(c.Name)] {
			continue
		}
		sql, refs, err := c.DefaultSQL()
		if err != nil {
			return nil, err
		}
		out = append(out, RowDefault{Column: c.Name, SQL: sql, Refs: refs})
	}
	return out, nil
}

// DefaultSQL is the SQLite expression of the column's default, the value MySQL
// writes for DEFAULT, with the columns it reads. A NOT NULL column without a
// default has none (1364); an AUTO_INCREMENT column's is NULL (the next id).
func (c *Column) DefaultSQL() (string, []string, error) {
	d := c.Default
	switch {
	case c.Generated != nil:
		return "", nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the default of a generated column'")
	case c.AutoIncrement:
		return "NULL", nil, nil
	case d == nil:
		if !c.Nullable {
			return "", nil, mysqlerr.New(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", c.Name)
		}
		return "NULL", nil, nil
	case d.Null:
		return "NULL", nil, nil
	case d.SQLite != "":
		return d.SQLite, d.Refs, nil
	case strings.HasPrefix(d.Expr, "CURRENT_TIMESTAMP"):
		return "CURRENT_TIMESTAMP", nil, nil
	case d.Expr != "":
		return "", nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the default expression of column %s'", c.Name)
	}
	return c.literalSQL(), nil, nil
}

// SQLiteDefault is the DEFAULT clause the SQLite table declares for the column
// ("" for none): the stored form of a literal, or a default expression that
// reads no column.
func (c *Column) SQLiteDefault() string {
	d := c.Default
	switch {
	case d == nil || c.Generated != nil || c.AutoIncrement || len(d.Refs) > 0:
		return ""
	case d.Null:
		return "NULL"
	case d.SQLite != "":
		return d.SQLite
	case strings.HasPrefix(d.Expr, "CURRENT_TIMESTAMP"):
		return "CURRENT_TIMESTAMP"
	case d.Expr != "":
		return ""
	}
	return c.literalSQL()
}

// literalSQL spells a literal default as the column stores it.
func (c *Column) literalSQL() string {
	lit := c.Default.Lit
	if c.Default.Bits {
		bits := strings.TrimSuffix(strings.TrimPrefix(lit, "b'"), "'")
		n, _ := strconv.ParseUint("0"+bits, 2, 64)
		return u64.Literal(n)
	}
	if n, err := strconv.ParseUint(lit, 10, 64); err == nil && c.Type.Wide() {
		return u64.Literal(n) // from 2^63 the BLOB form
	}
	switch c.Type.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint", "decimal", "float", "double", "year", "bit":
		if _, err := strconv.ParseFloat(lit, 64); err == nil && !c.ExactDecimal() {
			return lit
		}
	}
	if v, ok := c.Type.StoreText(lit); ok {
		if b, isBytes := v.([]byte); isBytes {
			return "X'" + hex.EncodeToString(b) + "'"
		}
		lit = v.(string)
	}
	if strings.IndexByte(lit, 0) >= 0 {
		return "CAST(X'" + hex.EncodeToString([]byte(lit)) + "' AS TEXT)"
	}
	return "'" + strings.ReplaceAll(lit, "'", "''") + "'"
}

// EncodeSpec is the stored form of a DEFAULT clause (see AlterDefaultJSON).
func EncodeSpec(sp *DefaultSpec) string {
	b, _ := json.Marshal(sp) // a struct of strings, bools and bytes always encodes
	return string(b)
}

func decodeSpec(s string) (DefaultSpec, error) {
	var sp DefaultSpec
	err := json.Unmarshal([]byte(s), &sp)
	return sp, err
}
