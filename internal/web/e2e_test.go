//go:build e2e

package web

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2E drives the page in headless Chromium (make e2e): load the
// paper's puzzle, solve with each engine, step three actions and check the
// grid, ask for a hint, enter a wrong digit and see it flagged, take it
// back and play the right one with MAC after each move (candidates shown),
// check that the page fits a 1200x900 window and a phone's width without
// scrolling sideways, and save a screenshot to $E2E_SCREENSHOT (make e2e
// E2E_SCREENSHOT=$PWD/results/page.png refreshes README's picture; by
// default it goes to a temporary folder, so no tracked file changes).
func TestE2E(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no Chromium installed (apt-get install chromium)")
	}
	ts := newServer(t, Options{})
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	wait := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(30*time.Second))
	}
	count := func(sel string) int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("`+sel+`").length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// no request in flight: every redraw an answer causes has happened
	const settled = `(document.body.dataset.busy || "0") === "0"`
	want := "345691728612783549798245136964157283523864917871932465139528674457316892286479351"
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board .cell`)),
		chromedp.SetValue(chromedp.ID("paste"), paper),
		chromedp.Click(chromedp.ID("load")),
		wait(`document.getElementById("status").textContent === "loaded"`),
	); err != nil {
		t.Fatal(err)
	}
	if n := count(`#board .cell`); n != 81 {
		t.Fatalf("%d cells", n)
	}
	// before any solve, no empty table shows its headers; every control
	// has a name a screen reader says (a label, or aria-label)
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table")].filter(t => t.offsetParent !== null && !t.querySelector("tbody tr")).map(t => t.id)`))
	if err != nil || len(shown) > 0 {
		t.Errorf("empty tables shown before a solve: %v (%v)", shown, err)
	}
	unlabelled, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("input, select, textarea")].filter(e => !(e.labels && e.labels.length) && !e.getAttribute("aria-label")).map(e => e.id || e.outerHTML)`))
	if err != nil || len(unlabelled) > 0 {
		t.Errorf("controls without a label: %v (%v)", unlabelled, err)
	}
	for i, e := range []string{"direct-sat", "progression", "htn-sat"} {
		if err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`button.solve[data-engine="`+e+`"]`)),
			wait(`document.querySelectorAll("#times tbody tr").length === `+strconv.Itoa(i+1)),
		); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		row, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#times tbody tr`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(row, "solved ✓") {
			t.Errorf("%s: row %q", e, row)
		}
	}
	// three steps of the htn-sat plan: three cells filled as the solution has them
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("fwd")), chromedp.Click(chromedp.ID("fwd")), chromedp.Click(chromedp.ID("fwd"))); err != nil {
		t.Fatal(err)
	}
	filled, err := chromedp.Run(ctx, chromedp.Evaluate[[]struct {
		Cell int    `json:"cell"`
		Text string `json:"text"`
	}](`[...document.querySelectorAll("#board .cell.plan")].map(c => ({cell: +c.dataset.cell, text: c.textContent}))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(filled) != 3 {
		t.Fatalf("%d cells filled after three steps", len(filled))
	}
	for _, f := range filled {
		if f.Text != string(want[f.Cell]) {
			t.Errorf("cell %d shows %s, the solution has %c", f.Cell, f.Text, want[f.Cell])
		}
	}
	// a hint, then a wrong digit (r1c4 = 1: the solution has 6, column 4 a 1)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("hint")),
		wait(`document.querySelectorAll("#hints tbody tr").length > 0`),
		wait(settled),
		chromedp.Click(chromedp.CSS(`#board .cell[data-cell="3"]`)),
		chromedp.KeyEvent("1"),
		wait(`document.querySelector('#board .cell[data-cell="3"]').classList.contains("wrong")`),
	); err != nil {
		t.Fatalf("hint and wrong digit: %v", err)
	}
	// take it back, and play the right digit with MAC after each move:
	// the candidates of every blank cell are shown, nothing is flagged
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("undo")),
		// undo re-checks the board through the server and redraws it
		// when the answer comes: click a cell only after that
		wait(settled),
		chromedp.SetValue(chromedp.ID("propagate"), "mac"),
		chromedp.Click(chromedp.CSS(`#board .cell[data-cell="3"]`)),
		chromedp.KeyEvent("6"),
		wait(`document.querySelectorAll("#board .cand").length > 0`),
	); err != nil {
		t.Fatalf("MAC after a move: %v", err)
	}
	if n := count(`#board .cell.wrong`); n != 0 {
		t.Errorf("%d cells flagged after a right digit", n)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("E2E_SCREENSHOT")
	if path == "" {
		path = filepath.Join(t.TempDir(), "page.png")
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	// a variant (an f-puzzles file): drawn with its clues and solution,
	// as SVG and then as PNG, each a picture the browser decodes
	dune, err := filepath.Abs("../../sudoku/variant/testdata/dune.json")
	if err != nil {
		t.Fatal(err)
	}
	const picture = `(() => { const i = document.getElementById("variantPicture"); return !document.getElementById("variant").hidden && i.complete && i.naturalWidth > 300 && i.src.startsWith("data:image/%s") })()`
	if err := chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.ID("file"), []string{dune}),
		wait(fmt.Sprintf(picture, "svg")),
		chromedp.Click(chromedp.ID("variantPNG")),
		wait(fmt.Sprintf(picture, "png")),
		wait(settled),
	); err != nil {
		t.Fatalf("a variant's picture: %v", err)
	}
	if st, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("status"))); err != nil || !strings.Contains(st, "dune: a variant, solved") {
		t.Errorf("status after the variant: %q (%v)", st, err)
	}
	// the layout: nothing wider than the window, the header bar as wide
	// as the page, the whole grid in view (its last column not cut off),
	// at a laptop's window and at a phone's width, for a 9x9 and a 16x16
	// grid
	type layout struct {
		Scroll, Inner, Header, BoardRight, LastRight, BoardScroll, BoardClient float64
	}
	const measure = `(() => { const b = document.getElementById("board"), cells = b.querySelectorAll(".cell"); return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, header: document.querySelector("header").getBoundingClientRect().width,
		boardRight: b.getBoundingClientRect().right, lastRight: cells[cells.length-1].getBoundingClientRect().right, boardScroll: b.scrollWidth, boardClient: b.clientWidth} })()`
	for _, size := range []string{"9", "16"} {
		if err := chromedp.Do(ctx,
			chromedp.SetValue(chromedp.ID("newSize"), size),
			chromedp.Click(chromedp.ID("construct")),
			wait(settled),
		); err != nil {
			t.Fatalf("a %s grid: %v", size, err)
		}
		for _, vp := range [][2]int64{{1200, 900}, {390, 844}} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp[0], vp[1])); err != nil {
				t.Fatal(err)
			}
			l, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measure))
			if err != nil {
				t.Fatal(err)
			}
			if l.Scroll > l.Inner+0.5 || l.Header < l.Inner-0.5 {
				t.Errorf("%sx%s grid at %dx%d: the page is %.0f px wide, the window %.0f, the header %.0f", size, size, vp[0], vp[1], l.Scroll, l.Inner, l.Header)
			}
			if l.BoardRight > l.Inner+0.5 || l.LastRight > l.BoardRight+0.5 || l.BoardScroll > l.BoardClient+0.5 {
				t.Errorf("%sx%s grid at %dx%d: the board ends at %.1f, its last cell at %.1f (the window: %.0f; the board scrolls %.0f of %.0f)", size, size, vp[0], vp[1], l.BoardRight, l.LastRight, l.Inner, l.BoardScroll, l.BoardClient)
			}
			if vp[0] == 390 && size == "9" {
				shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
				if err == nil {
					os.WriteFile(filepath.Join(filepath.Dir(path), "page-390.png"), shot, 0o644)
				}
			}
		}
	}
}
