package sysvar

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/binlite/binlite/mysqlerr"
)

// Scope says where a variable lives.
type Scope uint8

const (
	Global  Scope = 1
	Session Scope = 2
	Both          = Global | Session
)

// Kind is a variable's value type.
type Kind uint8

const (
	Int Kind = iota
	Bool
	String
	Enum
)

// Def defines one variable.
type Def struct {
	Name     string
	Scope    Scope
	Kind     Kind
	Default  any // int64 for Int and Bool (0/1), string otherwise
	ReadOnly bool
	Min, Max int64    // Int bounds (Max 0 = unbounded)
	Values   []string // Enum values, upper case
	// Get, when set, computes the global value (e.g. gtid_executed).
	Get func() any
	// OnSet, when set, is called with the validated value of SET GLOBAL before it is stored.
	OnSet func(v any) error
	// Check, when set, refuses values of the variable's kind that it cannot take
	// (SET SESSION and SET GLOBAL alike).
	Check func(v any) error
	// Canon, when set, turns a SET value into the variable's value (or refuses
	// it) instead of the Kind's rules (sql_mode: SQLMode).
	Canon func(v any) (any, error)
}

// Registry holds definitions and global values. Safe for concurrent use.
type Registry struct {
	mu     sync.RWMutex
	defs   map[string]*Def
	global map[string]any
}

// New builds a registry from definitions; later definitions replace earlier ones.
func New(defs ...[]Def) *Registry {
	r := &Registry{defs: map[string]*Def{}, global: map[string]any{}}
	for _, set := range defs {
		for i := range set {
			d := set[i]
			d.Name = strings.ToLower(d.Name)
			r.defs[d.Name] = &d
			r.global[d.Name] = d.Default
		}
	}
	return r
}

// Lookup returns a definition.
func (r *Registry) Lookup(name string) (*Def, bool) {
	d, ok := r.defs[strings.ToLower(name)]
	return d, ok
}

// Names lists every variable name, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.defs))
	for n := range r.defs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func unknown(name string) error {
	return mysqlerr.New(mysqlerr.ErUnknownSystemVariable, "Unknown system variable '%s'", name)
}

// Global returns a global value.
func (r *Registry) Global(name string) (any, error) {
	name = strings.ToLower(name)
	d, ok := r.defs[name]
	if !ok {
		return nil, unknown(name)
	}
	if d.Get != nil {
		return d.Get(), nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.global[name], nil
}

// Int returns a global value as an integer (0 if not numeric).
func (r *Registry) Int(name string) int64 {
	v, _ := r.Global(name)
	i, _ := v.(int64)
	return i
}

// String returns a global value as text.
func (r *Registry) String(name string) string {
	v, _ := r.Global(name)
	return Format(v)
}

// SetGlobal validates and stores a global value (SET GLOBAL, or the config file).
func (r *Registry) SetGlobal(name string, v any) error {
	name = strings.ToLower(name)
	d, ok := r.defs[name]
	if !ok {
		return unknown(name)
	}
	if d.ReadOnly {
		return mysqlerr.New(mysqlerr.ErIncorrectGlobalLocalVar, "Variable '%s' is a read only variable", name)
	}
	if d.Scope&Global == 0 {
		return mysqlerr.New(mysqlerr.ErLocalVariable, "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", name)
	}
	val, err := d.Normalize(v)
	if err != nil {
		return err
	}
	if d.OnSet != nil {
		if err := d.OnSet(val); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.global[name] = val
	r.mu.Unlock()
	return nil
}

// Init sets a value at start-up, bypassing the read-only check (config and flags).
func (r *Registry) Init(name string, v any) error {
	name = strings.ToLower(name)
	d, ok := r.defs[name]
	if !ok {
		return unknown(name)
	}
	val, err := d.Normalize(v)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.global[name] = val
	r.mu.Unlock()
	return nil
}

// Normalize converts a SET value into the variable's representation.
func (d *Def) Normalize(v any) (any, error) {
	if s, ok := v.(string); ok && strings.EqualFold(s, "DEFAULT") {
		return d.Default, nil
	}
	normalize := d.normalize
	if d.Canon != nil {
		normalize = d.Canon
	}
	val, err := normalize(v)
	if err == nil && d.Check != nil {
		err = d.Check(val)
	}
	return val, err
}

func (d *Def) normalize(v any) (any, error) {
	wrong := func() error {
		return mysqlerr.New(mysqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, Format(v))
	}
	switch d.Kind {
	case Bool:
		switch x := v.(type) {
		case int64:
			if x == 0 || x == 1 {
				return x, nil
			}
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		case string:
			switch strings.ToUpper(x) {
			case "ON", "TRUE", "1":
				return int64(1), nil
			case "OFF", "FALSE", "0":
				return int64(0), nil
			}
		}
		return nil, wrong()
	case Int:
		var n int64
		switch x := v.(type) {
		case int64:
			n = x
		case uint64:
			n = int64(x)
		case float64:
			n = int64(x)
		case string:
			p, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			if err != nil {
				return nil, mysqlerr.New(mysqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.Name)
			}
			n = p
		default:
			return nil, mysqlerr.New(mysqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.Name)
		}
		// MySQL clamps out-of-range integers (with a warning) rather than failing.
		if n < d.Min {
			n = d.Min
		}
		if d.Max > 0 && n > d.Max {
			n = d.Max
		}
		return n, nil
	case Enum:
		s := strings.ToUpper(Format(v))
		if i, ok := v.(int64); ok && i >= 0 && int(i) < len(d.Values) {
			return d.Values[i], nil
		}
		if slices.Contains(d.Values, s) {
			return s, nil
		}
		return nil, wrong()
	default:
		if v == nil {
			return "", nil
		}
		return Format(v), nil
	}
}

// Format renders a value as SHOW VARIABLES does.
func Format(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "ON"
		}
		return "OFF"
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// Display renders a variable for SHOW VARIABLES (booleans as ON/OFF).
func (d *Def) Display(v any) string {
	if d.Kind == Bool {
		if i, ok := v.(int64); ok {
			if i != 0 {
				return "ON"
			}
			return "OFF"
		}
	}
	return Format(v)
}

// Vars is one session's view: its own values over the globals.
type Vars struct {
	r    *Registry
	vals map[string]any
}

// NewSession starts a session with session-scoped variables copied from the globals.
func (r *Registry) NewSession() *Vars {
	return &Vars{r: r, vals: map[string]any{}}
}

// Registry returns the registry behind the session.
func (s *Vars) Registry() *Registry { return s.r }

// Get returns the session value (or the global one for global-only variables, or
// when global is true).
func (s *Vars) Get(name string, global bool) (any, error) {
	name = strings.ToLower(name)
	d, ok := s.r.defs[name]
	if !ok {
		return nil, unknown(name)
	}
	if global {
		if d.Scope&Global == 0 {
			return nil, mysqlerr.New(mysqlerr.ErIncorrectGlobalLocalVar, "Variable '%s' is a SESSION variable", name)
		}
		return s.r.Global(name)
	}
	if v, ok := s.vals[name]; ok {
		return v, nil
	}
	return s.r.Global(name)
}

// Set stores a session value.
func (s *Vars) Set(name string, v any) error {
	name = strings.ToLower(name)
	d, ok := s.r.defs[name]
	if !ok {
		return unknown(name)
	}
	if d.Scope&Session == 0 {
		return mysqlerr.New(mysqlerr.ErGlobalVariable, "Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", name)
	}
	if d.ReadOnly {
		return mysqlerr.New(mysqlerr.ErIncorrectGlobalLocalVar, "Variable '%s' is a read only variable", name)
	}
	val, err := d.Normalize(v)
	if err != nil {
		return err
	}
	s.vals[name] = val
	return nil
}

// Int returns a session value as an integer.
func (s *Vars) Int(name string) int64 {
	v, _ := s.Get(name, false)
	i, _ := v.(int64)
	return i
}
