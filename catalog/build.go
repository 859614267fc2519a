package catalog

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
)

// Defaults of a schema: what a table without CHARSET/COLLATE options gets.
const (
	DefaultCharset   = "utf8mb4"
	DefaultCollation = "utf8mb4_0900_ai_ci"
)

// primaryCollation is each character set's default collation.
var primaryCollation = map[string]string{
	"utf8mb4": "utf8mb4_0900_ai_ci", "utf8mb3": "utf8mb3_general_ci", "utf8": "utf8mb3_general_ci",
	"latin1": "latin1_swedish_ci", "ascii": "ascii_general_ci", "binary": "binary",
}

// charsetOf is the character set of a collation name.
func charsetOf(collation string) string {
	if collation == "binary" {
		return "binary"
	}
	cs, _, _ := strings.Cut(collation, "_")
	if cs == "utf8" {
		return "utf8mb3"
	}
	return cs
}

// Build makes the definition of a CREATE TABLE statement. A table without a
// character set or collation of its own gets defaultCollation, the database's
// ("" means MySQL 8.4's default, utf8mb4_0900_ai_ci).
func Build(st *ast.CreateTableStmt, defaultCollation string) (*Table, error) {
	t := &Table{Name: st.Table.Name.O, Engine: "InnoDB", Charset: DefaultCharset, Collation: DefaultCollation}
	if defaultCollation != "" {
		t.Collation = collation.Canonical(defaultCollation)
		t.Charset = charsetOf(t.Collation)
	}
	var charset, coll string // the table's own, if it says
	for _, o := range st.Options {
		switch o.Tp {
		case ast.TableOptionCharset:
			charset = normCharset(o.StrValue)
		case ast.TableOptionCollate:
			coll = collation.Canonical(o.StrValue)
		case ast.TableOptionComment:
			t.Comment = o.StrValue
		case ast.TableOptionAutoIncrement:
			t.AutoIncrement = o.UintValue
		}
	}
	switch {
	case coll != "":
		t.Collation, t.Charset = coll, charsetOf(coll)
	case charset != "":
		t.Charset, t.Collation = charset, primaryCollation[charset]
	}
	if _, ok := primaryCollation[t.Charset]; !ok {
		return nil, mysqlerr.New(mysqlerr.ErUnknownCharacterSet, "Unknown character set: '%s'", t.Charset)
	}
	if err := checkCollation(t.Collation, charset); err != nil {
		return nil, err
	}
	b := &builder{t: t, names: map[string]bool{}}
	for _, cd := range st.Cols {
		if err := b.column(cd); err != nil {
			return nil, err
		}
	}
	for _, c := range st.Constraints {
		if err := b.constraint(c); err != nil {
			return nil, err
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	if err := b.checkValueExprs(); err != nil {
		return nil, err
	}
	b.nameChecks()
	if err := b.checkChecks(); err != nil {
		return nil, err
	}
	b.foreignKeyIndexes()
	t.Indexes = sortIndexes(t, append(b.explicit, b.implicit...))
	if err := checkAutoIncrement(t); err != nil {
		return nil, err
	}
	return t, nil
}

func normCharset(cs string) string {
	cs = strings.ToLower(cs)
	if cs == "utf8" {
		return "utf8mb3"
	}
	return cs
}

type builder struct {
	t        *Table
	explicit []Index // keys in creation order
	implicit []Index // keys MySQL adds for foreign keys
	names    map[string]bool
	fks      int

	pendingChecks []pendingCheck
	generated     []pendingGenerated
	err           error // the first refusal found while adding keys
}

// pendingGenerated is a generated column's expression, checked once every column
// is known.
type pendingGenerated struct {
	col  int
	expr ast.ExprNode
}

// checkValueExprs checks what generated columns and expression defaults read.
func (b *builder) checkValueExprs() error {
	for _, g := range b.generated {
		if err := b.t.checkGenerated(g.col, g.expr); err != nil {
			return err
		}
	}
	for i := range b.t.Columns {
		if b.t.Columns[i].hasExprDefault() {
			if err := b.t.checkDefaultRefs(i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *builder) column(cd *ast.ColumnDef) error {
	c := Column{Name: cd.Name.Name.O, Nullable: true}
	ty, err := columnType(cd.Tp)
	if err != nil {
		return err
	}
	c.Type = ty
	var defExpr, genExpr ast.ExprNode
	hasDefault := false
	for _, o := range cd.Options {
		switch o.Tp {
		case ast.ColumnOptionNotNull:
			c.Nullable = false
		case ast.ColumnOptionNull:
			c.Nullable = true
		case ast.ColumnOptionPrimaryKey:
			c.Nullable = false
			b.addIndex(Index{Name: "PRIMARY", Kind: KindPrimary, Parts: []IndexPart{{Column: c.Name}}})
		case ast.ColumnOptionUniqKey:
			b.addIndex(Index{Kind: KindUnique, Parts: []IndexPart{{Column: c.Name}}})
		case ast.ColumnOptionAutoIncrement:
			c.AutoIncrement = true
		case ast.ColumnOptionDefaultValue:
			defExpr, hasDefault = o.Expr, true
		case ast.ColumnOptionOnUpdate:
			s, ok := currentTimestamp(o.Expr)
			if !ok || (c.Type.Base != "timestamp" && c.Type.Base != "datetime") {
				return mysqlerr.New(mysqlerr.ErInvalidOnUpdate, "Invalid ON UPDATE clause for '%s' column", c.Name)
			}
			c.OnUpdate = s
		case ast.ColumnOptionComment:
			if v, ok := o.Expr.(*driver.ValueExpr); ok {
				c.Comment = v.GetString()
			}
		case ast.ColumnOptionGenerated:
			c.Generated = &Generated{Expr: mysqlExpr(o.Expr), Stored: o.Stored}
			genExpr = o.Expr
		case ast.ColumnOptionCollate:
			coll := collation.Canonical(o.StrValue)
			if err := checkCollation(coll, cd.Tp.GetCharset()); err != nil {
				return err
			}
			c.Type.Collation, c.Type.Charset = coll, charsetOf(coll)
		case ast.ColumnOptionCheck:
			b.pendingChecks = append(b.pendingChecks, pendingCheck{o.Expr.OriginTextPosition(), c.Name, o.Expr, Check{Name: o.ConstraintName, Expr: mysqlExpr(o.Expr), NotEnforced: !o.Enforced}})
		case ast.ColumnOptionReference:
			// MySQL 8.4 parses a column's own REFERENCES and ignores it: only
			// FOREIGN KEY (...) REFERENCES makes a constraint.
		case ast.ColumnOptionFulltext, ast.ColumnOptionColumnFormat, ast.ColumnOptionStorage:
		default:
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support this column option of '%s'", c.Name)
		}
	}
	if c.Type.IsTextual() || c.Type.Charset != "" || c.Type.Collation != "" {
		explicit := c.Type.Collation != ""
		c.Type = b.resolveCharset(c.Type)
		// The BINARY attribute of a character type is its character set's _bin collation.
		if !explicit && c.Type.IsTextual() && mysql.HasBinaryFlag(cd.Tp.GetFlag()) {
			c.Type.Collation = c.Type.Charset + "_bin"
		}
		if c.Type.IsTextual() && c.Type.Collation == "" {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CHARACTER SET %s'", c.Type.Charset)
		}
		if err := checkCollation(c.Type.Collation, ""); err != nil {
			return err
		}
	}
	// A row holds at most 65,535 bytes: the longest VARCHAR of a character set.
	if c.Type.Base == "varchar" || c.Type.Base == "varbinary" {
		cs := c.Type.Charset
		if c.Type.Base == "varbinary" {
			cs = "binary"
		}
		if limit := 65535 / int(MaxCharBytes(cs)); c.Type.Length > limit {
			return mysqlerr.New(mysqlerr.ErTooBigFieldLength, "Column length too big for column '%s' (max = %d); use BLOB or TEXT instead", c.Name, limit)
		}
	}
	if hasDefault {
		sp, err := SpecOf(c.Name, defExpr)
		if err != nil {
			return err
		}
		if c.Default, err = c.defaultFrom(sp); err != nil {
			return err
		}
	}
	if lit, ok := c.ImplicitEnumDefault(); ok && !hasDefault {
		c.Default = &Default{Lit: lit, Implicit: true}
	}
	if genExpr != nil {
		b.generated = append(b.generated, pendingGenerated{len(b.t.Columns), genExpr})
	}
	if c.Type.Base == "serial" {
		c.Type = Type{Base: "bigint", Unsigned: true}
		c.Nullable, c.AutoIncrement = false, true
		b.addIndex(Index{Kind: KindUnique, Parts: []IndexPart{{Column: c.Name}}})
	}
	b.t.Columns = append(b.t.Columns, c)
	return nil
}

// resolveCharset fills a character column's charset and collation from the table's.
func (b *builder) resolveCharset(ty Type) Type {
	switch {
	case ty.Charset == "" && ty.Collation == "":
		ty.Charset, ty.Collation = b.t.Charset, b.t.Collation
	case ty.Collation == "":
		ty.Charset = normCharset(ty.Charset)
		if ty.Charset == b.t.Charset {
			ty.Collation = b.t.Collation
		} else {
			ty.Collation = primaryCollation[ty.Charset]
		}
	}
	return ty
}

// checkAutoIncrement: one AUTO_INCREMENT column, and it starts a key (1075).
func checkAutoIncrement(t *Table) error {
	var auto []string
	for _, c := range t.Columns {
		if c.AutoIncrement {
			auto = append(auto, c.Name)
		}
	}
	if len(auto) == 0 {
		return nil
	}
	keyed := false
	for _, ix := range t.Indexes {
		if ix.Kind != KindFulltext && len(ix.Parts) > 0 && strings.EqualFold(ix.Parts[0].Column, auto[0]) {
			keyed = true
		}
	}
	if len(auto) > 1 || !keyed {
		return mysqlerr.New(mysqlerr.ErWrongAutoKey, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
	}
	return nil
}

// nameChecks numbers unnamed CHECK constraints in the order they appear in the
// statement, column-level and table-level alike, as MySQL does (t_chk_1, ...).
// A number a named constraint already has is skipped: ALTER TABLE ... ADD CHECK
// builds the table again with the old constraints named (t_chk_1, t_chk_2) and
// the new one gets the next number (t_chk_3), as MySQL gives it.
func (b *builder) nameChecks() {
	slices.SortStableFunc(b.pendingChecks, func(x, y pendingCheck) int { return x.pos - y.pos })
	used := map[string]bool{}
	for _, pc := range b.pendingChecks {
		used[strings.ToLower(pc.c.Name)] = true
	}
	n := 0
	for _, pc := range b.pendingChecks {
		for pc.c.Name == "" {
			n++
			if name := fmt.Sprintf("%s_chk_%d", b.t.Name, n); !used[strings.ToLower(name)] {
				pc.c.Name = name
			}
		}
		b.t.Checks = append(b.t.Checks, pc.c)
	}
}

func (b *builder) checkChecks() error {
	for i, pc := range b.pendingChecks {
		pc.c.Name = b.t.Checks[i].Name
		if err := checkExpr(pc); err != nil {
			return err
		}
	}
	return nil
}

type pendingCheck struct {
	pos    int
	column string // a column constraint's column
	expr   ast.ExprNode
	c      Check
}

// checkExpr refuses what MySQL refuses in a CHECK constraint: a column constraint
// that names another column (3813), a function whose value is not determined by
// the row (3814).
func checkExpr(pc pendingCheck) error {
	v := &checkVisitor{column: pc.column}
	pc.expr.Accept(v)
	switch {
	case v.otherColumn != "":
		return mysqlerr.New(mysqlerr.ErColumnCheckConstraintReferencesOtherColumn, "Column check constraint '%s' references other column.", pc.c.Name)
	case v.function != "":
		return mysqlerr.New(mysqlerr.ErCheckConstraintNamedFunctionIsNotAllowed, "An expression of a check constraint '%s' contains disallowed function: %s.", pc.c.Name, v.function)
	}
	return nil
}

// nondeterministic are the functions MySQL does not allow in CHECK constraints.
var nondeterministic = map[string]bool{
	"now": true, "current_timestamp": true, "localtime": true, "localtimestamp": true, "sysdate": true,
	"curdate": true, "current_date": true, "curtime": true, "current_time": true, "utc_date": true,
	"utc_time": true, "utc_timestamp": true, "unix_timestamp": true, "rand": true, "uuid": true,
	"uuid_short": true, "connection_id": true, "current_user": true, "user": true, "session_user": true,
	"system_user": true, "database": true, "schema": true, "last_insert_id": true, "found_rows": true,
	"row_count": true, "get_lock": true, "release_lock": true, "sleep": true, "benchmark": true, "version": true,
}

type checkVisitor struct {
	column, otherColumn, function string
}

func (v *checkVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		if v.column != "" && v.otherColumn == "" && !strings.EqualFold(x.Name.Name.O, v.column) {
			v.otherColumn = x.Name.Name.O
		}
	case *ast.FuncCallExpr:
		if nondeterministic[x.FnName.L] && v.function == "" {
			v.function = x.FnName.L
		}
	}
	return n, false
}

func (v *checkVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (b *builder) constraint(c *ast.Constraint) error {
	parts := func() []IndexPart {
		var ps []IndexPart
		for _, k := range c.Keys {
			if k.Column != nil {
				ps = append(ps, IndexPart{Column: b.colName(k.Column.Name.O), Length: max(k.Length, 0), Desc: k.Desc})
			} else if k.Expr != nil {
				ps = append(ps, IndexPart{Expr: "(" + mysqlExpr(k.Expr) + ")", Desc: k.Desc})
			}
		}
		return ps
	}
	comment := ""
	if c.Option != nil {
		comment = c.Option.Comment
	}
	switch c.Tp {
	case ast.ConstraintPrimaryKey:
		for _, k := range c.Keys {
			if k.Column != nil {
				if col, ok := b.t.Column(k.Column.Name.O); ok {
					col.Nullable = false
				}
			}
		}
		b.addIndex(Index{Name: "PRIMARY", Kind: KindPrimary, Parts: parts(), Comment: comment})
	case ast.ConstraintKey, ast.ConstraintIndex:
		b.addIndex(Index{Name: c.Name, Kind: KindIndex, Parts: parts(), Comment: comment})
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		b.addIndex(Index{Name: c.Name, Kind: KindUnique, Parts: parts(), Comment: comment})
	case ast.ConstraintFulltext:
		b.addIndex(Index{Name: c.Name, Kind: KindFulltext, Parts: parts(), Comment: comment})
	case ast.ConstraintCheck:
		b.pendingChecks = append(b.pendingChecks, pendingCheck{c.Expr.OriginTextPosition(), "", c.Expr, Check{Name: c.Name, Expr: mysqlExpr(c.Expr), NotEnforced: !c.Enforced}})
	case ast.ConstraintForeignKey:
		var cols []string
		for _, k := range c.Keys {
			if k.Column != nil {
				cols = append(cols, b.colName(k.Column.Name.O))
			}
		}
		return b.foreignKey(c.Name, cols, c.Refer)
	default:
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support this kind of index or constraint")
	}
	return nil
}

// colName spells a column as the table declares it (key parts may differ in case).
func (b *builder) colName(name string) string {
	if c, ok := b.t.Column(name); ok {
		return c.Name
	}
	return name
}

// addIndex names an unnamed key after its first column, as MySQL does (col, col_2 ...).
func (b *builder) addIndex(ix Index) {
	if ix.Kind == KindPrimary {
		for i := range b.explicit {
			if b.explicit[i].Kind == KindPrimary {
				// the grammar's duplicate check is ours to do
				b.err = mysqlerr.New(mysqlerr.ErMultiplePriKey, "Multiple primary key defined")
				return
			}
		}
	}
	if ix.Name == "" && len(ix.Parts) > 0 {
		base := ix.Parts[0].Column
		if base == "" {
			base = "functional_index"
		}
		ix.Name = base
		for n := 2; b.names[strings.ToLower(ix.Name)]; n++ {
			ix.Name = fmt.Sprintf("%s_%d", base, n)
		}
	}
	b.names[strings.ToLower(ix.Name)] = true
	b.explicit = append(b.explicit, ix)
}

func (b *builder) foreignKey(name string, cols []string, ref *ast.ReferenceDef) error {
	if ref == nil || ref.Table == nil {
		return mysqlerr.New(mysqlerr.ErParse, "You have an error in your SQL syntax: FOREIGN KEY without REFERENCES")
	}
	fk := ForeignKey{Name: name, Columns: cols, RefSchema: ref.Table.Schema.O, RefTable: ref.Table.Name.O}
	if fk.Name == "" {
		b.fks++
		fk.Name = fmt.Sprintf("%s_ibfk_%d", b.t.Name, b.fks)
	}
	for _, k := range ref.IndexPartSpecifications {
		if k.Column != nil {
			fk.RefColumns = append(fk.RefColumns, k.Column.Name.O)
		}
	}
	if ref.OnDelete != nil && ref.OnDelete.ReferOpt != ast.ReferOptionRestrict {
		fk.OnDelete = ref.OnDelete.ReferOpt.String()
	}
	if ref.OnUpdate != nil && ref.OnUpdate.ReferOpt != ast.ReferOptionRestrict {
		fk.OnUpdate = ref.OnUpdate.ReferOpt.String()
	}
	b.t.ForeignKeys = append(b.t.ForeignKeys, fk)
	return nil
}

// foreignKeyIndexes adds the index InnoDB needs on a foreign key's columns when no
// key starts with them: named after the constraint if it was named, else after
// its first column.
func (b *builder) foreignKeyIndexes() {
	for _, fk := range b.t.ForeignKeys {
		if b.hasPrefixIndex(fk.Columns) {
			continue
		}
		name := fk.Name
		if strings.HasPrefix(name, b.t.Name+"_ibfk_") {
			name = fk.Columns[0]
			for n := 2; b.names[strings.ToLower(name)]; n++ {
				name = fmt.Sprintf("%s_%d", fk.Columns[0], n)
			}
		}
		b.names[strings.ToLower(name)] = true
		ix := Index{Name: name, Kind: KindIndex}
		for _, c := range fk.Columns {
			ix.Parts = append(ix.Parts, IndexPart{Column: c})
		}
		b.implicit = append(b.implicit, ix)
	}
}

func (b *builder) hasPrefixIndex(cols []string) bool {
	for _, ix := range append(b.explicit, b.implicit...) {
		if ix.Kind == KindFulltext || len(ix.Parts) < len(cols) {
			continue
		}
		ok := true
		for i, c := range cols {
			if !strings.EqualFold(ix.Parts[i].Column, c) || ix.Parts[i].Length > 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// sortIndexes orders keys as MySQL stores them: PRIMARY, UNIQUE keys on NOT NULL
// columns, other UNIQUE keys, ordinary keys, FULLTEXT keys; creation order within.
func sortIndexes(t *Table, ixs []Index) []Index {
	rank := func(ix Index) int {
		switch ix.Kind {
		case KindPrimary:
			return 0
		case KindUnique:
			for _, p := range ix.Parts {
				if c, ok := t.Column(p.Column); !ok || c.Nullable {
					return 2
				}
			}
			return 1
		case KindFulltext:
			return 4
		}
		return 3
	}
	var out []Index
	for r := 0; r <= 4; r++ {
		for _, ix := range ixs {
			if rank(ix) == r {
				out = append(out, ix)
			}
		}
	}
	return out
}

// columnType converts the grammar's field type.
func columnType(ft interface {
	GetType() byte
	GetFlen() int
	GetDecimal() int
	GetFlag() uint
	GetElems() []string
	GetCharset() string
	GetCollate() string
}) (Type, error) {
	ty := Type{Unsigned: mysql.HasUnsignedFlag(ft.GetFlag()), Zerofill: mysql.HasZerofillFlag(ft.GetFlag())}
	flen, dec := ft.GetFlen(), ft.GetDecimal()
	if flen > 0 {
		ty.Length = flen
	}
	binary := ft.GetCharset() == "binary"
	switch ft.GetType() {
	case mysql.TypeTiny:
		ty.Base = "tinyint"
	case mysql.TypeShort:
		ty.Base = "smallint"
	case mysql.TypeInt24:
		ty.Base = "mediumint"
	case mysql.TypeLong:
		ty.Base = "int"
	case mysql.TypeLonglong:
		ty.Base = "bigint"
	case mysql.TypeFloat, mysql.TypeDouble:
		ty.Base = "float"
		if ft.GetType() == mysql.TypeDouble {
			ty.Base = "double"
		}
		if dec >= 0 && flen > 0 {
			ty.Scale, ty.HasScale = dec, true
		} else {
			ty.Length = 0
		}
	case mysql.TypeNewDecimal:
		ty.Base = "decimal"
		if flen <= 0 {
			ty.Length = 10
		}
		ty.Scale, ty.HasScale = max(dec, 0), true
		if ty.Length > 65 {
			return ty, mysqlerr.New(mysqlerr.ErTooBigPrecision, "Too-big precision %d specified. Maximum is 65.", ty.Length)
		}
		if ty.Scale > 30 {
			return ty, mysqlerr.New(mysqlerr.ErTooBigScale, "Too big scale %d specified. Maximum is 30.", ty.Scale)
		}
		if ty.Scale > ty.Length {
			return ty, mysqlerr.New(mysqlerr.ErMBiggerThanD, "For float(M,D), double(M,D) or decimal(M,D), M must be >= D.")
		}
	case mysql.TypeBit:
		ty.Base = "bit"
		if flen <= 0 {
			ty.Length = 1
		}
	case mysql.TypeYear:
		ty.Base, ty.Length = "year", 0
	case mysql.TypeDate:
		ty.Base, ty.Length = "date", 0
	case mysql.TypeDatetime, mysql.TypeTimestamp, mysql.TypeDuration:
		ty.Base = map[byte]string{mysql.TypeDatetime: "datetime", mysql.TypeTimestamp: "timestamp", mysql.TypeDuration: "time"}[ft.GetType()]
		ty.Length = 0
		if dec > 0 {
			ty.Scale = dec
		}
		if dec > 6 {
			return ty, mysqlerr.New(mysqlerr.ErTooBigPrecision, "Too-big precision %d specified. Maximum is 6.", dec)
		}
	case mysql.TypeString:
		ty.Base = "char"
		if binary {
			ty.Base = "binary"
		}
		if flen < 0 {
			ty.Length = 1
		}
	case mysql.TypeVarchar, mysql.TypeVarString:
		ty.Base = "varchar"
		if binary {
			ty.Base = "varbinary"
		}

	case mysql.TypeTinyBlob, mysql.TypeBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		size := map[byte]string{mysql.TypeTinyBlob: "tiny", mysql.TypeBlob: "", mysql.TypeMediumBlob: "medium", mysql.TypeLongBlob: "long"}[ft.GetType()]
		ty.Base = size + "text"
		if binary {
			ty.Base = size + "blob"
		}
		ty.Length = 0
	case mysql.TypeEnum, mysql.TypeSet:
		ty.Base = "enum"
		if ft.GetType() == mysql.TypeSet {
			ty.Base = "set"
		}
		ty.Length = 0
		ty.Elems = append([]string(nil), ft.GetElems()...)
	case mysql.TypeJSON:
		ty.Base, ty.Length = "json", 0
	default:
		return ty, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support the column type %s", ft)
	}
	if ty.Zerofill {
		ty.Unsigned = true
	}
	if !binary && ft.GetCharset() != "" {
		ty.Charset = normCharset(ft.GetCharset())
	}
	if ft.GetCollate() != "" && ft.GetCollate() != "binary" {
		coll := collation.Canonical(ft.GetCollate())
		if err := checkCollation(coll, ft.GetCharset()); err != nil {
			return ty, err
		}
		ty.Collation, ty.Charset = coll, charsetOf(coll)
	}
	return ty, nil
}

// currentTimestamp recognises CURRENT_TIMESTAMP[(fsp)] and its synonyms.
func currentTimestamp(e ast.ExprNode) (string, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return "", false
	}
	switch f.FnName.L {
	case "current_timestamp", "now", "localtime", "localtimestamp":
	default:
		return "", false
	}
	if len(f.Args) == 1 {
		if v, ok := f.Args[0].(*driver.ValueExpr); ok && v.GetInt64() > 0 {
			return fmt.Sprintf("CURRENT_TIMESTAMP(%d)", v.GetInt64()), true
		}
	}
	return "CURRENT_TIMESTAMP", true
}

// intRange is the range of each integer type, signed and unsigned.
func intRange(base string, unsigned bool) (lo int64, hi uint64) {
	bits := map[string]uint{"tinyint": 8, "smallint": 16, "mediumint": 24, "int": 32, "bigint": 64}[base]
	if unsigned {
		if bits == 64 {
			return 0, math.MaxUint64
		}
		return 0, 1<<bits - 1
	}
	return -(1 << (bits - 1)), 1<<(bits-1) - 1
}

// normaliseLiteral gives a default's text as MySQL shows it for the column's type,
// or false when the value does not fit.
func normaliseLiteral(ty Type, s string) (string, bool) {
	switch ty.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		d, _, err := apd.NewFromString(strings.TrimSpace(s))
		if err != nil {
			return "", false
		}
		var r apd.Decimal
		ctx := apd.BaseContext.WithPrecision(80)
		ctx.Rounding = apd.RoundHalfUp
		if _, err := ctx.RoundToIntegralValue(&r, d); err != nil {
			return "", false
		}
		lo, hi := intRange(ty.Base, ty.Unsigned)
		if r.Negative && !r.IsZero() {
			i, err := r.Int64()
			if err != nil || i < lo {
				return "", false
			}
			return strconv.FormatInt(i, 10), true
		}
		u, err := strconv.ParseUint(r.Text('f'), 10, 64)
		if err != nil || u > hi {
			return "", false
		}
		return strconv.FormatUint(u, 10), true
	case "decimal":
		r, ok := roundDecimal(s, ty.Scale)
		if !ok {
			return "", false
		}
		if ty.Unsigned && r.Negative {
			return "", false
		}
		if int(r.NumDigits())-ty.Scale > ty.Length-ty.Scale && !r.IsZero() {
			return "", false
		}
		return r.Text('f'), true
	case "float", "double":
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return "", false
		}
		if ty.Base == "float" {
			return strconv.FormatFloat(float64(float32(f)), 'g', -1, 32), true
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	case "year":
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return "", false
		}
		switch {
		case n == 0 && s != "0" && s != "":
			return "2000", true
		case n == 0:
			return "0000", true
		case n >= 1 && n <= 69:
			return strconv.Itoa(2000 + n), true
		case n >= 70 && n <= 99:
			return strconv.Itoa(1900 + n), true
		case n >= 1901 && n <= 2155:
			return strconv.Itoa(n), true
		}
		return "", false
	case "date", "datetime", "timestamp", "time":
		return normaliseTemporal(ty, s)
	case "enum":
		for _, e := range ty.Elems {
			if strings.EqualFold(e, s) {
				return e, true
			}
		}
		return "", false
	case "set":
		if s == "" {
			return "", true
		}
		var out []string
		for _, part := range strings.Split(s, ",") {
			found := false
			for _, e := range ty.Elems {
				if strings.EqualFold(e, part) {
					out, found = append(out, e), true
				}
			}
			if !found {
				return "", false
			}
		}
		return strings.Join(out, ","), true
	case "char", "varchar", "binary", "varbinary":
		if ty.Length > 0 && len([]rune(s)) > ty.Length {
			return "", false
		}
		return s, true
	case "bit":
		return s, true
	}
	return s, true
}

// MaxCharBytes is the most bytes a character of the character set takes.
func MaxCharBytes(charset string) uint32 {
	switch normCharset(charset) {
	case "latin1", "ascii", "binary":
		return 1
	case "utf8mb3":
		return 3
	}
	return 4
}

// roundDecimal is s rounded half away from zero to scale digits, as MySQL rounds a
// value into a DECIMAL (never a negative zero).
func roundDecimal(s string, scale int) (*apd.Decimal, bool) {
	d, _, err := apd.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return nil, false
	}
	var r apd.Decimal
	ctx := apd.BaseContext.WithPrecision(100)
	ctx.Rounding = apd.RoundHalfUp
	if _, err := ctx.Quantize(&r, d, -int32(scale)); err != nil {
		return nil, false
	}
	if r.IsZero() {
		r.Negative = false
	}
	return &r, true
}

// RoundDecimal spells s rounded to scale digits, as a DECIMAL(p, scale) holds it.
func RoundDecimal(s string, scale int) (string, bool) {
	r, ok := roundDecimal(s, scale)
	if !ok {
		return "", false
	}
	return r.Text('f'), true
}
