package compiler

import (
	"container/list"
	"errors"
	"sync"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // literal values in the AST

	"github.com/binlite/binlite/catalog"
)

// Plan is what a compiled query tells the session.
type Plan struct {
	// Columns are the result columns' types, one per column, the zero ColType
	// where a column's type is not known; nil when not even the number of
	// columns is known.
	Columns []ColType
	// Params are, by position, the columns a write's ? values go into (see
	// writeParams); nil where not known.
	Params []*catalog.Column
	// Err is MySQL's answer to a write that can be refused from its text alone
	// (a NOT NULL column without a default left out: 1364; NULL written into a NOT
	// NULL column: 1048).
	Err  error
	deps []dependency
	// valueTyped: the types depend on literals' values (see compiler.valueTyped).
	valueTyped bool

	emitted *Emitted // the SQLite SQL (plans by exact text only)
	emitErr error
}

// dependency is a table definition a plan was made from.
type dependency struct {
	schema, name string
	def          *catalog.Table
}

// valid reports whether every definition the plan used is still current.
func (p *Plan) valid(cat Catalog) bool {
	for _, d := range p.deps {
		if def, _ := cat.Table(d.schema, d.name); def != d.def {
			return false
		}
	}
	return true
}

// compileStmt works out a parsed statement's plan: a query's result types, a
// write's parameter types.
func compileStmt(stmt ast.StmtNode, db string, mode Mode, cat Catalog) *Plan {
	rec := &recorder{Catalog: cat, seen: map[[2]string]bool{}}
	c := &compiler{cat: rec, db: db, mode: mode}
	if err := c.expandViews(stmt); err != nil {
		return &Plan{Err: err, deps: rec.deps}
	}
	rs, ok := stmt.(ast.ResultSetNode)
	if !ok {
		params := c.writeParams(stmt)
		return &Plan{Params: params, Err: c.insertErr(stmt), deps: rec.deps}
	}
	cols := c.queryColumns(rs, nil)
	p := &Plan{deps: rec.deps, valueTyped: c.valueTyped}
	if cols != nil {
		p.Columns = make([]ColType, len(cols))
		for i, nt := range cols {
			p.Columns[i] = nt.t
		}
	}
	return p
}

// recorder notes every table a compilation looks up.
type recorder struct {
	Catalog
	seen map[[2]string]bool
	deps []dependency
}

func (r *recorder) Table(schema, name string) (*catalog.Table, bool) {
	def, ok := r.Catalog.Table(schema, name)
	if k := [2]string{schema, name}; !r.seen[k] {
		r.seen[k] = true
		r.deps = append(r.deps, dependency{schema, name, def})
	}
	return def, ok
}

// Cache holds the plans of recent statements, up to a bound each (least
// recently used first out): by shape and current schema for result and parameter
// types, by exact text and schema for the SQLite SQL (which holds the literals).
// It is safe for concurrent use.
type Cache struct {
	parsers sync.Pool
	shapes  *lru
	texts   *lru
}

// NewCache makes a cache of at most max plans of each kind.
func NewCache(max int) *Cache {
	return &Cache{
		parsers: sync.Pool{New: func() any { return parser.New() }},
		shapes:  newLRU(max),
		texts:   newLRU(max),
	}
}

// Query returns the plan of query text sql run in schema db: cached if a
// statement of the same shape (see shape) was compiled and its definitions are
// unchanged, else compiled now. A plan whose types read a literal's value
// (NOW(3), STR_TO_DATE's format) is kept by exact text instead. A statement
// the grammar does not parse gets a plan that knows nothing.
func (c *Cache) Query(sql, db string, cat Catalog) *Plan {
	return c.QueryVars(sql, db, Mode{}, nil, cat)
}

// QueryVars is Query for a session whose sql_mode is mode (the grammar reads
// || and NOT by it) and whose user variables are vars (see UserVars).
func (c *Cache) QueryVars(sql, db string, mode Mode, vars UserVars, cat Catalog) *Plan {
	vk := varsKey(sql, vars)
	compile := func() *Plan { return c.compile(sql, db, mode, vars, cat) }
	p := c.shapes.get(cacheKey{db: db, text: shape(sql), vars: vk, mode: mode}, cat, compile)
	if p.valueTyped {
		// Types read off literals' values (NOW(3)): this text's own plan.
		return c.shapes.get(cacheKey{db: db, text: sql, exact: true, vars: vk, mode: mode}, cat, compile)
	}
	return p
}

// Emit returns statement sql compiled to SQLite SQL for schema db, or nil when
// the compiler does not compile such a statement yet (sqlcompat's translation
// runs it). An error is MySQL's answer to the statement.
//
// coll is the connection's collation (@@collation_connection): two strings
// neither of which is a column compare by it, as in MySQL.
func (c *Cache) Emit(sql, db, coll string, cat Catalog) (*Emitted, error) {
	return c.EmitWith(sql, db, coll, Mode{}, 0, cat)
}

// EmitWith is Emit for a session's sql_mode and time zone (tz seconds east of
// UTC): the SQL adjusts values or not by the mode, and reads and writes
// TIMESTAMP values and the current time in the zone, so both are part of the
// cache's key.
func (c *Cache) EmitWith(sql, db, coll string, mode Mode, tz int, cat Catalog) (*Emitted, error) {
	return c.EmitVars(sql, db, coll, mode, tz, nil, cat)
}

// EmitVars is EmitWith for a session whose user variables are vars: their values
// are compiled in (see UserVars).
func (c *Cache) EmitVars(sql, db, coll string, mode Mode, tz int, vars UserVars, cat Catalog) (*Emitted, error) {
	ck := contextKey(sql, vars)
	key := cacheKey{db: db, coll: coll, mode: mode, tz: tz, text: sql, vars: varsKey(sql, vars) + ck}
	p := c.texts.get(key, cat, func() *Plan { return c.compileEmit(sql, db, coll, mode, tz, vars, ck, cat) })
	return p.emitted, p.emitErr
}

func (c *Cache) compileEmit(sql, db, coll string, mode Mode, tz int, vars UserVars, ctxKey string, cat Catalog) *Plan {
	stmts, done, err := c.parse(sql, mode)
	defer done()
	if err != nil || len(stmts) != 1 || !bindUserVars(stmts[0], vars) {
		return &Plan{}
	}
	rec := &recorder{Catalog: cat, seen: map[[2]string]bool{}}
	comp := &compiler{cat: rec, db: db, collation: coll, mode: mode, tz: tz, vars: vars, contextKey: ctxKey}
	if err := comp.expandViews(stmts[0]); err != nil {
		return &Plan{emitErr: err, deps: rec.deps}
	}
	em, err := comp.emit(stmts[0], sql)
	if errors.Is(err, errNotYet) {
		em, err = nil, nil
	}
	return &Plan{emitted: em, emitErr: err, deps: rec.deps}
}

func (c *Cache) compile(sql, db string, mode Mode, vars UserVars, cat Catalog) *Plan {
	stmts, done, err := c.parse(sql, mode)
	defer done()
	if err != nil || len(stmts) != 1 || !bindUserVars(stmts[0], vars) {
		return &Plan{}
	}
	return compileStmt(stmts[0], db, mode, cat)
}

// parse reads sql with the grammar as mode has it read (|| and NOT). The nodes
// live in the parser's memory: the caller calls done when it no longer reads
// them, which gives the parser back to the pool.
func (c *Cache) parse(sql string, mode Mode) (_ []ast.StmtNode, done func(), _ error) {
	ps := c.parsers.Get().(*parser.Parser)
	ps.SetSQLMode(mode.parserMode())
	stmts, _, err := ps.Parse(sql, "", "")
	return stmts, func() { c.parsers.Put(ps) }, err
}

// cacheKey is what a plan was made for: a schema, a statement's shape (Query) or
// exact text (exact, and every SQL plan), the session's sql_mode, and for SQL
// its collation and time zone. A struct, so a lookup builds no string.
type cacheKey struct {
	db, coll, text string
	vars           string // varsKey
	mode           Mode
	tz             int
	exact          bool
}

type cacheEntry struct {
	key  cacheKey
	plan *Plan
}

// lru is a bounded map of plans, least recently used first out.
type lru struct {
	max   int
	mu    sync.Mutex
	order *list.List // of *cacheEntry, most recent first
	byKey map[cacheKey]*list.Element
	bytes int // the texts of the keys held
}

func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), byKey: map[cacheKey]*list.Element{}}
}

// Bounds of what the plan caches hold beyond their count of plans: a plan holds
// its statement's text and the SQL made from it, so long texts (bulk INSERTs,
// large literals) could otherwise keep gigabytes. A text longer than
// maxCachedText is compiled for each use and never kept (it is rarely sent
// again); below it, the texts kept add up to at most maxCachedBytes, the least
// recently used going first.
const (
	maxCachedText  = 16 << 20
	maxCachedBytes = 64 << 20
)

// get returns k's plan if it is cached and still valid, else compiles and keeps it
// (see maxCachedText).
func (c *lru) get(k cacheKey, cat Catalog, compile func() *Plan) *Plan {
	if len(k.text) > maxCachedText {
		return compile()
	}
	c.mu.Lock()
	if el, ok := c.byKey[k]; ok {
		c.order.MoveToFront(el)
		p := el.Value.(*cacheEntry).plan
		c.mu.Unlock()
		if p.valid(cat) {
			return p
		}
	} else {
		c.mu.Unlock()
	}
	p := compile()
	c.mu.Lock()
	if el, ok := c.byKey[k]; ok {
		el.Value.(*cacheEntry).plan = p
		c.order.MoveToFront(el)
	} else {
		c.byKey[k] = c.order.PushFront(&cacheEntry{key: k, plan: p})
		c.bytes += len(k.text)
		for c.order.Len() > c.max || c.bytes > maxCachedBytes {
			last := c.order.Back()
			lk := last.Value.(*cacheEntry).key
			delete(c.byKey, lk)
			c.order.Remove(last)
			c.bytes -= len(lk.text)
		}
	}
	c.mu.Unlock()
	return p
}
