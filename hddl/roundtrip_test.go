package hddl

import (
	"reflect"
	"testing"
)

// stripped returns a deep copy of v with every position, file name,
// warning and implicit-declaration flag cleared: what remains is the model
// that printing must preserve.
func stripped(v any) any {
	rv := reflect.ValueOf(v)
	out := reflect.New(rv.Type()).Elem()
	strip(out, rv)
	return out.Interface()
}

var posType = reflect.TypeOf(Pos{})

func strip(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		if src.Type() == reflect.TypeOf(&Domain{}) && dst.CanSet() && !dst.IsNil() {
			return
		}
		n := reflect.New(src.Type().Elem())
		strip(n.Elem(), src.Elem())
		dst.Set(n)
	case reflect.Struct:
		if src.Type() == posType {
			return
		}
		for i := 0; i < src.NumField(); i++ {
			f := src.Type().Field(i)
			switch f.Name {
			case "File", "Warnings", "Implicit", "Domain":
				continue
			}
			df := dst.Field(i)
			if !df.CanSet() {
				df = reflect.NewAt(df.Type(), df.Addr().UnsafePointer()).Elem()
			}
			sf := src.Field(i)
			if !sf.CanInterface() {
				sf = reflect.NewAt(sf.Type(), sf.Addr().UnsafePointer()).Elem()
			}
			strip(df, sf)
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			strip(n.Index(i), src.Index(i))
		}
		dst.Set(n)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		n := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			v := reflect.New(src.Type().Elem()).Elem()
			strip(v, it.Value())
			n.SetMapIndex(it.Key(), v)
		}
		dst.Set(n)
	default:
		dst.Set(src)
	}
}

// roundTripDomain prints d, reads it back, checks that the model is the
// same and that printing again gives the same text, and returns the model
// read back.
func roundTripDomain(t *testing.T, d *Domain) *Domain {
	t.Helper()
	dtext := DomainString(d)
	d2, err := ParseDomain("printed-domain.hddl", []byte(dtext))
	if err != nil {
		t.Fatalf("%s: printed domain does not parse: %v", d.File, err)
	}
	if !reflect.DeepEqual(stripped(d), stripped(d2)) {
		t.Fatalf("%s: domain changed through print and parse", d.File)
	}
	if again := DomainString(d2); again != dtext {
		t.Fatalf("%s: printing the re-read domain gives different text", d.File)
	}
	return d2
}

// roundTripProblem does the same for a problem of domain d2 (the domain
// read back by roundTripDomain).
func roundTripProblem(t *testing.T, p *Problem, d2 *Domain) {
	t.Helper()
	ptext := ProblemString(p)
	p2, err := ParseProblem("printed-problem.hddl", []byte(ptext), d2)
	if err != nil {
		t.Fatalf("%s: printed problem does not parse: %v", p.File, err)
	}
	if !reflect.DeepEqual(stripped(p), stripped(p2)) {
		t.Fatalf("%s: problem changed through print and parse", p.File)
	}
	if again := ProblemString(p2); again != ptext {
		t.Fatalf("%s: printing the re-read problem gives different text", p.File)
	}
}
