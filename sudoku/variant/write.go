package variant

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// WriteFPuzzles writes p in the f-puzzles JSON layout that ReadFPuzzles
// reads (the same subset), so that a puzzle made or changed here opens in
// the setters' tools.
func WriteFPuzzles(w io.Writer, p *Puzzle) error {
	n := p.Size()
	rc := func(c int) string { return fmt.Sprintf("R%dC%d", c/n+1, c%n+1) }
	rcs := func(cs []int) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = rc(c)
		}
		return out
	}
	lines := func(ls [][]int) []map[string]any {
		out := []map[string]any{}
		for _, l := range ls {
			out = append(out, map[string]any{"lines": [][]string{rcs(l)}})
		}
		return out
	}
	d := map[string]any{"size": n}
	if p.Title != "" {
		d["title"] = p.Title
	}
	grid := make([][]map[string]any, n)
	for r := range grid {
		grid[r] = make([]map[string]any, n)
		for c := range grid[r] {
			grid[r][c] = map[string]any{}
			if v := p.Grid.At(r, c); v != 0 {
				grid[r][c] = map[string]any{"value": v, "given": true}
			}
		}
	}
	d["grid"] = grid
	if len(p.Killers) > 0 {
		var ks []map[string]any
		for _, k := range p.Killers {
			m := map[string]any{"cells": rcs(k.Cells)}
			if k.Sum > 0 {
				m["value"] = strconv.Itoa(k.Sum)
			}
			ks = append(ks, m)
		}
		d["killercage"] = ks
	}
	if len(p.LittleKiller) > 0 {
		var ls []map[string]any
		for _, k := range p.LittleKiller {
			ls = append(ls, map[string]any{"cell": rc(k.Cells[0]), "cells": rcs(k.Cells), "direction": "DR", "value": strconv.Itoa(k.Sum)})
		}
		d["littlekillersum"] = ls
	}
	if len(p.Arrows) > 0 {
		var as []map[string]any
		for _, a := range p.Arrows {
			var ls [][]string
			for _, l := range a.Lines {
				ls = append(ls, rcs(append([]int{a.Circle}, l...)))
			}
			as = append(as, map[string]any{"cells": []string{rc(a.Circle)}, "lines": ls})
		}
		d["arrow"] = as
	}
	pairs := func(key string, ps []Pair, value func(Pair) string) {
		if len(ps) == 0 {
			return
		}
		var out []map[string]any
		for _, x := range ps {
			out = append(out, map[string]any{"cells": []string{rc(x.A), rc(x.B)}, "value": value(x)})
		}
		d[key] = out
	}
	pairs("ratio", p.Ratios, func(x Pair) string { return strconv.Itoa(x.Value) })
	pairs("difference", p.Differences, func(x Pair) string { return strconv.Itoa(x.Value) })
	pairs("xv", p.XV, func(x Pair) string {
		if x.Value == 5 {
			return "V"
		}
		return "X"
	})
	var neg []string
	for _, x := range []struct {
		on   bool
		name string
	}{{p.NegativeRatio, "ratio"}, {p.NegativeDifference, "difference"}, {p.NegativeXV, "xv"}} {
		if x.on {
			neg = append(neg, x.name)
		}
	}
	if len(neg) > 0 {
		d["negative"] = neg
	}
	for key, ls := range map[string][][]int{"thermometer": p.Thermos, "renban": p.Renbans, "whispers": p.Whispers, "palindrome": p.Palindromes} {
		if len(ls) > 0 {
			d[key] = lines(ls)
		}
	}
	if len(p.Quadruples) > 0 {
		var qs []map[string]any
		for _, q := range p.Quadruples {
			qs = append(qs, map[string]any{"cells": rcs(q.Cells), "values": q.Digits})
		}
		d["quadruple"] = qs
	}
	if len(p.Extra) > 0 {
		var es []map[string]any
		for _, e := range p.Extra {
			es = append(es, map[string]any{"cells": rcs(e)})
		}
		d["extraregion"] = es
	}
	for key, cells := range map[string][]int{"odd": p.Odd, "even": p.Even} {
		if len(cells) > 0 {
			var cs []map[string]any
			for _, c := range cells {
				cs = append(cs, map[string]any{"cell": rc(c)})
			}
			d[key] = cs
		}
	}
	for key, on := range map[string]bool{"diagonal-": p.DiagonalMain, "diagonal+": p.DiagonalAnti, "antiknight": p.AntiKnight, "antiking": p.AntiKing} {
		if on {
			d[key] = true
		}
	}
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
