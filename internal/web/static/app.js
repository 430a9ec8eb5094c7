// htnsat page: state is the puzzle (givens), the player's digits with an
// undo/redo history, and the last plan being stepped through.
"use strict";
const $ = (id) => document.getElementById(id);
let n = 9, box = 3, givens = [], user = [], planDigits = [], steps = [], stepAt = 0, playing = null;
let sel = -1, wrong = new Set(), hinted = new Set(), candidates = null, constructing = false;
let undoStack = [], redoStack = [], lastPlan = "";

const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const sym = (d) => (n <= 9 ? String(d) : SYMBOLS[d - 1]);

// requests in flight, shown as body[data-busy] so that a test (or a
// user script) can wait until the board has settled
let inflight = 0;
async function api(path, body) {
  const opt = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  document.body.dataset.busy = ++inflight;
  try {
    const r = await fetch(path, opt);
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    return j;
  } finally { document.body.dataset.busy = --inflight; }
}
function status(msg, bad) { const s = $("status"); s.textContent = msg; s.style.color = bad ? "#c00" : "#222"; }

// the grid as the page shows it: givens, then the player's digits or a plan's
function current() { return givens.map((g, i) => g || user[i] || 0); }
function line(cells) { return cells.map((d) => (d ? sym(d) : ".")).join(""); }

function setPuzzle(text) {
  const cells = [...text.replace(/\s/g, "")];
  const size = Math.round(Math.sqrt(cells.length));
  if (size * size !== cells.length || ![4, 9, 16, 25].includes(size)) throw new Error("a puzzle line of " + cells.length + " cells");
  n = size; box = Math.round(Math.sqrt(n));
  givens = cells.map((c) => { const i = SYMBOLS.indexOf(c.toUpperCase()); return c === "." || c === "0" || i < 0 ? 0 : i + 1; });
  user = new Array(n * n).fill(0); planDigits = new Array(n * n).fill(0);
  steps = []; stepAt = 0; undoStack = []; redoStack = []; wrong.clear(); hinted.clear(); candidates = null; lastPlan = "";
  $("dlPlan").disabled = true; $("path").innerHTML = ""; $("stepInfo").textContent = "";
  render();
}

function render() {
  const b = $("board");
  b.className = n > 9 ? "small" : "";
  b.style.gridTemplateColumns = `repeat(${n}, auto)`;
  b.style.setProperty("--n", n); // the cells shrink to fit a narrow screen
  b.innerHTML = "";
  const now = steps.length && stepAt > 0 ? steps[stepAt - 1].cell : -1;
  for (let i = 0; i < n * n; i++) {
    const d = document.createElement("div");
    const r = Math.floor(i / n), c = i % n;
    d.className = "cell";
    d.dataset.cell = i;
    if ((c + 1) % box === 0 && c < n - 1) d.classList.add("br");
    if ((r + 1) % box === 0 && r < n - 1) d.classList.add("bb");
    if (givens[i]) { d.textContent = sym(givens[i]); d.classList.add("given"); }
    else if (user[i]) { d.textContent = sym(user[i]); d.classList.add("user"); }
    else if (planDigits[i]) { d.textContent = sym(planDigits[i]); d.classList.add("plan"); }
    else if (candidates && $("candidates").checked) {
      const cd = document.createElement("div"); cd.className = "cand";
      for (const x of candidates[i] || []) { const s = document.createElement("span"); s.textContent = sym(x); cd.appendChild(s); }
      d.appendChild(cd);
    }
    if (i === sel) d.classList.add("sel");
    if (hinted.has(i)) d.classList.add("hint");
    if (i === now) d.classList.add("now");
    if (wrong.has(i)) d.classList.add("wrong");
    d.onclick = () => { sel = i; render(); };
    b.appendChild(d);
  }
}

// playing by hand, with undo and redo
function place(i, d) {
  if (givens[i] && !constructing) return;
  const target = constructing ? givens : user;
  undoStack.push({ i, before: target[i], after: d, constructing }); redoStack = [];
  target[i] = d; afterMove(i);
}
function afterMove(i) { candidates = null; hinted.clear(); checkConflicts(i); render(); }
// after each move, as SOLVER's interactive search does: back checking
// (digits repeated in a unit), then, by the chosen mode, forward checking
// or maintained arc consistency (candidates shown, a wiped-out domain
// flagged), or a search for a solution
async function checkConflicts(i) {
  wrong.clear();
  const mode = $("propagate").value;
  try {
    const r = await api("/api/count", { puzzle: line(current()), limit: 1 });
    if (r.conflicts.length) { r.conflicts.forEach((c) => wrong.add(c)); status("the digits in red repeat in a row, column or box", true); render(); return; }
    const moved = i >= 0 && current()[i];
    if (mode === "fc" || mode === "mac") {
      const h = await api("/api/hint", { puzzle: line(current()), level: mode === "fc" ? "fc" : "ac" });
      const last = h.levels[h.levels.length - 1];
      candidates = h.domains; $("candidates").checked = true;
      if (last.contradiction) { if (moved) wrong.add(i); status(`${mode.toUpperCase()}: ${last.contradiction}`, true); }
      else status("");
    } else if (mode === "search" && r.solutions === 0 && moved) { wrong.add(i); status(`${cellName(i)}=${sym(current()[i])} leaves no solution`, true); }
    else status("");
  } catch (e) { status(e.message, true); }
  render();
}
function cellName(i) { return `r${Math.floor(i / n) + 1}c${(i % n) + 1}`; }
function undo() { const m = undoStack.pop(); if (!m) return; (m.constructing ? givens : user)[m.i] = m.before; redoStack.push(m); afterMove(m.i); }
function redo() { const m = redoStack.pop(); if (!m) return; (m.constructing ? givens : user)[m.i] = m.after; undoStack.push(m); afterMove(m.i); }

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
  if (e.ctrlKey && e.key === "z") { undo(); return; }
  if (e.ctrlKey && e.key === "y") { redo(); return; }
  if (sel < 0) return;
  const k = e.key.toUpperCase();
  if (k === "BACKSPACE" || k === "DELETE" || k === "0" || k === ".") { place(sel, 0); return; }
  const d = SYMBOLS.indexOf(k) + 1;
  if (d >= 1 && d <= n) place(sel, d);
  const moves = { ARROWLEFT: -1, ARROWRIGHT: 1, ARROWUP: -n, ARROWDOWN: n };
  if (k in moves) { sel = Math.min(n * n - 1, Math.max(0, sel + moves[k])); render(); }
});

// solving and stepping
async function solve(engine) {
  status(engine + ": solving…");
  try {
    const r = await api("/api/solve", { puzzle: line(givens), engine, style: $("ordered").checked ? "ordered" : "unordered" });
    const row = document.createElement("tr");
    const st = r.stages_ms, f = (x) => (x === undefined ? "-" : x.toFixed(2));
    row.innerHTML = `<td>${engine}</td><td>${r.status}${r.verified ? " ✓" : ""}</td><td>${f(r.total_ms)}</td><td>${f(st.parse)}</td><td>${f(st.ground)}</td><td>${f(st.search)}</td><td>${f(st.encode)}</td><td>${f(st.solve)}</td><td>${f(st.verify)}</td><td>${r.size || ""}</td>`;
    $("times").tBodies[0].prepend(row);
    if (r.error) status(engine + ": " + r.error, true); else status(engine + ": " + r.status);
    steps = r.steps || []; stepAt = 0; lastPlan = r.plan || ""; $("dlPlan").disabled = !lastPlan;
    planDigits = new Array(n * n).fill(0);
    if (!steps.length && r.solution) planDigits = [...r.solution].map((c, i) => (givens[i] ? 0 : SYMBOLS.indexOf(c) + 1));
    showStep();
  } catch (e) { status(e.message, true); }
}
function showStep() {
  planDigits = steps.length ? new Array(n * n).fill(0) : planDigits;
  for (let k = 0; k < stepAt; k++) if (steps[k].cell >= 0) planDigits[steps[k].cell] = steps[k].digit;
  $("stepInfo").textContent = steps.length ? `action ${stepAt} of ${steps.length}` + (stepAt ? ": " + steps[stepAt - 1].action : "") : "";
  $("path").innerHTML = "";
  if (stepAt > 0) for (const t of steps[stepAt - 1].path.concat([steps[stepAt - 1].action])) { const li = document.createElement("li"); li.textContent = t; $("path").appendChild(li); }
  render();
}
function step(k) { stepAt = Math.min(steps.length, Math.max(0, stepAt + k)); showStep(); }
function play() {
  if (playing) { clearInterval(playing); playing = null; $("play").textContent = "▶ play"; return; }
  $("play").textContent = "❚❚ pause";
  playing = setInterval(() => { if (stepAt >= steps.length) { play(); return; } step(1); }, 150);
}

// hints
async function hint() {
  try {
    const r = await api("/api/hint", { puzzle: line(current()), level: $("level").value });
    const tb = $("hints").tBodies[0]; tb.innerHTML = "";
    for (const l of r.levels) {
      const tr = document.createElement("tr");
      tr.innerHTML = l.contradiction ? `<td>${l.level}</td><td colspan="2">contradiction: ${l.contradiction}</td>` : `<td>${l.level}</td><td>${l.singletons.length}</td><td>${l.vitals.length}</td>`;
      tb.appendChild(tr);
    }
    const last = r.levels[r.levels.length - 1];
    const cond = document.querySelector("input[name=cond]:checked").value;
    const list = last.contradiction ? [] : cond === "vital" ? last.vitals : last.singletons;
    hinted.clear();
    for (const h of list) { const m = /r(\d+)c(\d+)/.exec(h.cell); hinted.add((+m[1] - 1) * n + (+m[2] - 1)); }
    $("hintList").textContent = list.map((h) => `${h.cell}=${sym(h.digit)}${h.unit ? " (" + h.unit + ")" : ""}`).join(", ") || "no hint at this level";
    candidates = r.domains;
    render();
    return r;
  } catch (e) { status(e.message, true); }
}
async function assignSingletons() {
  const r = await api("/api/hint", { puzzle: line(current()), level: "ac" });
  let k = 0;
  r.domains.forEach((d, i) => { if (!givens[i] && !user[i] && d.length === 1) { undoStack.push({ i, before: 0, after: d[0] }); user[i] = d[0]; k++; } });
  redoStack = []; status(`${k} singletons assigned`); afterMove(-1);
}
async function count() {
  try { const r = await api("/api/count", { puzzle: line(current()), limit: 100 });
    status(r.conflicts.length ? "conflicting digits" : r.solutions >= 100 ? "100 or more solutions" : `${r.solutions} solution(s)`);
  } catch (e) { status(e.message, true); }
}

// downloads
function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" })); a.download = name; a.click();
}

// loading
async function init() {
  try {
    const r = await api("/api/sets");
    for (const s of r.samples) { const o = document.createElement("option"); o.value = s; o.textContent = `${Math.round(Math.sqrt(s.length))}×: ${s.slice(0, 24)}…`; $("samples").appendChild(o); }
    for (const s of r.sets) { const o = document.createElement("option"); o.value = s; o.textContent = s; $("sets").appendChild(o); }
  } catch (e) { status(e.message, true); }
  setPuzzle("345.....861..8354979..45..6...157.......649...719..4....9.2.6.4.5..1....2.6...3..");
}
$("load").onclick = async () => {
  try { const r = await api("/api/parse", { puzzle: $("paste").value }); setPuzzle(r.puzzle); status("loaded"); }
  catch (e) { status(e.message, true); }
};
// a variant (an f-puzzles file): drawn with its clues and, once direct
// SAT solves it, its solution; PNG on demand
let variantText = "";
async function showVariant(text, name, format) {
  const r = await api("/api/picture", { fpuzzles: text, solve: true, format: format || "svg" });
  variantText = text;
  const img = $("variantPicture");
  img.src = r.image; img.alt = `${r.title || name}: the variant's clues and its solution (${r.status})`;
  img.dataset.format = format || "svg";
  $("variantDownload").href = r.image; $("variantDownload").download = (name.replace(/\.json$/, "") || "puzzle") + "." + (format || "svg");
  $("variant").hidden = false;
  status(`${name}: a variant, ${r.status}`);
}
$("variantPNG").onclick = async () => { try { await showVariant(variantText, $("variantDownload").download.replace(/\.(svg|png)$/, ""), "png"); } catch (e) { status(e.message, true); } };
$("file").onchange = async () => {
  const f = $("file").files[0];
  if (!f) return;
  try {
    const text = await f.text();
    if (text.trimStart().startsWith("{")) { await showVariant(text, f.name); return; }
    const r = await api("/api/parse", { puzzle: text });
    const i = Math.min(+$("setIndex").value || 0, r.puzzles.length - 1);
    setPuzzle(r.puzzles[i]); status(`${f.name}: puzzle ${i} of ${r.puzzles.length} (the number box picks another)`);
  } catch (e) { status(e.message, true); }
};
$("samples").onchange = () => { if ($("samples").value) setPuzzle($("samples").value); };
$("loadSet").onclick = async () => {
  try { const r = await api(`/api/set?name=${encodeURIComponent($("sets").value)}&index=${$("setIndex").value}`); setPuzzle(r.puzzle); status(`puzzle ${$("setIndex").value} of ${r.count}`); }
  catch (e) { status(e.message, true); }
};
$("construct").onclick = () => { const s = +$("newSize").value; setPuzzle(".".repeat(s * s)); constructing = true; $("save").disabled = false; status("constructing: enter the givens, then check uniqueness"); };
$("save").onclick = async () => {
  try { const r = await api("/api/count", { puzzle: line(givens), limit: 2 });
    if (r.conflicts.length || r.solutions !== 1) { status(r.solutions === 0 ? "no solution" : "not unique: add givens", true); return; }
    constructing = false; $("save").disabled = true; status("unique: it is now the puzzle (" + line(givens) + ")"); setPuzzle(line(givens));
  } catch (e) { status(e.message, true); }
};
document.querySelectorAll(".solve").forEach((b) => (b.onclick = () => solve(b.dataset.engine)));
$("fwd").onclick = () => step(1); $("back").onclick = () => step(-1); $("play").onclick = play;
$("undo").onclick = undo; $("redo").onclick = redo; $("hint").onclick = hint; $("count").onclick = count;
$("singletons").onclick = assignSingletons; $("candidates").onchange = render;
$("clear").onclick = () => { user.fill(0); afterMove(-1); };
$("dlPlan").onclick = () => download("sudoku.plan", lastPlan);
$("dlHDDL").onclick = async () => { const r = await api("/api/hddl", { puzzle: line(givens), style: $("ordered").checked ? "ordered" : "unordered" }); download("problem.hddl", r.problem); download("domain.hddl", r.domain); };
$("dlCNF").onclick = async () => { try { const r = await api("/api/cnf", { puzzle: line(givens) }); download("sudoku.cnf", r.cnf); } catch (e) { status(e.message, true); } };
init();
