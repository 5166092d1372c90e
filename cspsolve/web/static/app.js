// The page of `cspsolve serve`: plain JavaScript, no build step, no request beyond this server.
// Everything that comes from a puzzle or an answer is put in the page as text (textContent),
// and pictures as images, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { kinds: {}, tab: "shipped", work: "solve", source: null, kind: null, job: null, jobs: [], live: new Set(), reads: 0 };
const ENDED = ["done", "failed", "cancelled"];

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function table(head, rows) {
  const t = el("table");
  const tr = el("tr");
  head.forEach((h) => tr.append(el("th", h)));
  t.append(tr);
  rows.forEach((row) => {
    const r = el("tr");
    row.forEach((cell) => r.append(el("td", cell)));
    t.append(r);
  });
  return t;
}

// One way to write a value in every table: counts with thousands separators, seconds to three
// significant figures, "not checked" for null, yes/no, lists and objects as plain text.
function fmt(value, key = "") {
  if (value === null || value === undefined) return "not checked";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") {
    if (/seconds/.test(key) || !Number.isInteger(value)) return value.toLocaleString("en-US", { maximumSignificantDigits: 3 });
    return value.toLocaleString("en-US");
  }
  if (Array.isArray(value)) return value.map((v) => fmt(v)).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${fmt(v, k)}`).join("; ");
  return String(value);
}

// what a run reached: its value, or "—" when it stopped without an answer
function reached(run, key) {
  const answered = ["solved", "optimal"].includes(run.status);
  return answered && run.stats[key] !== undefined ? fmt(run.stats[key], key) : "—";
}

function facts(head, entries) {
  return table(head, entries.map(([k, v]) => [k, fmt(v, k)]));
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  if (path.startsWith("/api/") && data.id && data.state) noteJob(data);
  return data;
}

// the jobs this page started and has not seen end: cancelled when the page goes away
function noteJob(job) {
  if (ENDED.includes(job.state)) state.live.delete(job.id);
  else state.live.add(job.id);
}

function leave() {
  state.live.forEach((id) => fetch(`/api/jobs/${id}`, { method: "DELETE", keepalive: true }));
}

// --- the puzzle -------------------------------------------------------------------------------

// mark the tab of a tab list whose data-KEY is `name` as the one selected
function select(key, name) {
  document.querySelectorAll(`[data-${key}]`).forEach((b) => {
    b.classList.toggle("on", b.dataset[key] === name);
    b.setAttribute("aria-selected", String(b.dataset[key] === name));
  });
}

function showTab(name) {
  state.tab = name;
  select("tab", name);
  document.querySelectorAll("[data-panel]").forEach((p) => (p.hidden = p.dataset.panel !== name));
}

// the page's two pages: solving a puzzle, designing one
function showPage(id) {
  select("page", id);
  document.querySelectorAll("[data-page]").forEach((b) => ($(b.dataset.page).hidden = b.dataset.page !== id));
}

// the answer tabs: Solve, Why, Check, Compare, and Play where the kind has a player
function showWork(name) {
  state.work = name;
  select("show", name);
  $("work").setAttribute("aria-labelledby", name === "play" ? "play-start" : `tab-${name}`);
  document.querySelectorAll("[data-for]").forEach((node) => (node.hidden = node.dataset.for !== name));
  document.querySelectorAll("[data-answer]").forEach((node) => (node.hidden = node.dataset.answer !== name));
  const playing = name === "play";
  $("settings").hidden = playing;
  $("job").hidden = playing || !state.job;
  $("play").hidden = !playing;
  if (playing && !play.started) playStart();
}

function answerOf(action) {
  return document.querySelector(`[data-answer="${action === "analyze" ? "verify" : action}"]`);
}

async function sourceNow() {
  const common = { kind: $("kind").value || null, format: $("format").value || null };
  if (state.tab === "shipped") return { instance: $("instance").value, ...common };
  if (state.tab === "upload") {
    const file = $("file").files[0];
    if (!file) throw new Error("choose a file to upload");
    return { upload: file, ...common };
  }
  return { text: $("text").value, ...common };
}

async function readPuzzle() {
  const reading = ++state.reads; // a later read (a puzzle picked, pasted) wins over this one
  $("input-error").textContent = "";
  $("run").hidden = true;
  $("puzzles").hidden = true;
  $("puzzle-figure").hidden = true;
  try {
    const source = await sourceNow();
    let read;
    if (source.upload) {
      const form = new FormData();
      form.append("file", source.upload);
      if (source.kind) form.append("kind", source.kind);
      if (source.format) form.append("format", source.format);
      read = await api("POST", "/api/read", form);
      source.text = await source.upload.text();
      source.name = source.upload.name;
      delete source.upload;
    } else {
      read = await api("POST", "/api/read", { puzzle: source });
    }
    if (reading !== state.reads) return;
    state.source = source;
    state.kind = state.kinds[read.kind];
    const entry = $("entry");
    entry.replaceChildren();
    read.puzzles.forEach((p) => {
      const label = p.id !== null ? `#${p.id} (line ${p.line}): ${p.describe}` : p.describe;
      entry.append(el("option", label, { value: p.index }));
    });
    showPlayer(state.kind.tools.play);
    $("read-kind").textContent = `${state.kind.title}, ${read.puzzles.length} puzzle(s)`;
    $("puzzles").hidden = false;
    fillMethods();
    $("run").hidden = false;
    await drawPuzzle();
  } catch (error) {
    if (reading === state.reads) $("input-error").textContent = error.message;
  }
}

// an example picked in the gallery: as if chosen in the list
function pickExample(name) {
  $("instance").value = name;
  markThumb();
  readPuzzle();
  $("puzzles").scrollIntoView({ block: "nearest" });
}

function showThumbnails() {
  document.querySelectorAll("img[data-src]").forEach((image) => (image.src = image.dataset.src));
}

function markThumb() {
  document.querySelectorAll("[data-instance]").forEach((b) => b.classList.toggle("on", b.dataset.instance === $("instance").value));
}

// the puzzle picked, drawn as given
async function drawPuzzle() {
  const reading = state.reads;
  const body = { puzzle: state.source, entry: Number($("entry").value || 0) };
  const { svg } = await api("POST", "/api/picture", body).catch(() => ({ svg: null }));
  if (reading !== state.reads || !svg) return;
  $("puzzle-picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  $("puzzle-figure").hidden = false;
}

// --- methods and options, from the kind's declaration ----------------------------------------

function fillMethods() {
  const method = $("method");
  method.replaceChildren(el("option", "default", { value: "" }));
  state.kind.methods.forEach((m) => method.append(el("option", m.name, { value: m.name })));
  fillHeuristics();
  const box = $("options");
  box.replaceChildren();
  state.kind.options.forEach((o) => box.append(optionWidget(o)));
  document.querySelector('[data-action="explain"]').disabled = !state.kind.explains;
}

function fillHeuristics() {
  const chosen = state.kind.methods.find((m) => m.name === $("method").value);
  const names = chosen ? chosen.heuristics : state.kind.heuristics;
  const heuristic = $("heuristic");
  heuristic.replaceChildren(el("option", "default", { value: "" }));
  names.forEach((h) => heuristic.append(el("option", h, { value: h })));
  heuristic.disabled = names.length === 0;
  $("method-summary").textContent = chosen ? `${chosen.name}: ${chosen.summary}` : "";
}

function optionWidget(option) {
  const label = el("label", option.name.replaceAll("_", " ") + " ", { title: option.help });
  let input;
  if (option.widget === "flag") {
    input = el("input", null, { type: "checkbox" });
  } else if (option.widget === "yes-no" || option.widget === "choice") {
    input = el("select");
    input.append(el("option", "default", { value: "" }));
    const choices = option.widget === "yes-no" ? ["yes", "no"] : option.choices;
    choices.forEach((c) => input.append(el("option", c, { value: c })));
  } else if (option.widget === "count") {
    input = el("input", null, { type: "number", min: "1", step: "1" });
  } else if (option.widget === "number") {
    input = el("input", null, { type: "number", step: "any" });
  } else {
    input = el("input", null, { type: "text", size: "8" });
  }
  input.dataset.option = option.name;
  input.dataset.widget = option.widget;
  if (option.default !== null && input.tagName === "INPUT" && input.type !== "checkbox") input.placeholder = String(option.default);
  if (option.widget === "flag") label.prepend(input); // a box before its words
  else label.append(input);
  return label;
}

// the values of the option widgets under `box`
function optionValues(box) {
  const out = {};
  box.querySelectorAll("[data-option]").forEach((input) => {
    const w = input.dataset.widget;
    let value = null;
    if (w === "flag") value = input.checked || null;
    else if (w === "yes-no") value = input.value === "" ? null : input.value === "yes";
    else if (w === "count" || w === "number") value = input.value === "" ? null : Number(input.value);
    else value = input.value || null;
    if (value !== null) out[input.dataset.option] = value;
  });
  return out;
}

// --- jobs ------------------------------------------------------------------------------------

async function start(action) {
  cancel(); // the job shown before, if it still runs: its answer would not be shown
  showWork(action);
  $("job").hidden = false;
  $("job-error").textContent = "";
  $("job-state").textContent = "starting"; // not the state of the job shown before
  $("job-progress").textContent = "";
  answerOf(action).replaceChildren();
  const limit = $("time-limit").value;
  const body = {
    puzzle: state.source,
    entry: Number($("entry").value || 0),
    method: $("method").value || null,
    heuristic: $("heuristic").value || null,
    options: optionValues($("options")),
    time_limit: limit === "" ? null : Number(limit),
  };
  try {
    const job = await api("POST", `/api/${action}`, body);
    if (action === "verify") {
      const analysis = await api("POST", "/api/analyze", body);
      follow(job, analysis);
    } else {
      follow(job, null);
    }
  } catch (error) {
    $("job-error").textContent = error.message;
    $("job-state").textContent = "";
  }
}

async function follow(job, second) {
  const jobs = [job, second].filter(Boolean);
  state.job = job.id;
  state.jobs = jobs.map((j) => j.id);
  $("cancel").hidden = false;
  let ended = [];
  while (state.job === job.id) {
    ended = await Promise.all(jobs.map((j) => api("GET", `/api/jobs/${j.id}?wait=1`)));
    const first = ended[0];
    const p = first.progress;
    const over = ended.every((j) => ENDED.includes(j.state)); // verify ends with its analysis
    $("job-state").textContent = over || !ENDED.includes(first.state) ? first.state : "running";
    $("job-progress").textContent = p ? `expanded ${fmt(p.expanded)}, ${fmt(p.seconds, "seconds")} s` : "";
    if (over) break;
  }
  if (state.job !== job.id) return;
  $("cancel").hidden = true;
  $("job-progress").textContent = ended[0].seconds !== null ? `${fmt(ended[0].seconds, "seconds")} s` : "";
  const errors = ended.map((j) => j.error).filter(Boolean);
  $("job-error").textContent = errors.join("; ");
  ended.forEach((j) => j.answer && show(j));
}

async function cancel() {
  for (const id of state.jobs.filter((j) => state.live.has(j))) await api("DELETE", `/api/jobs/${id}`).catch(() => null);
}

function stats(result) {
  return facts(["counter", "value"], Object.entries(result.stats || {}).filter(([, v]) => v));
}

function picture(svg, alt) {
  return el("img", null, { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg), alt: alt || "the solution" });
}

function showResult(result) {
  const box = el("div");
  box.append(el("p", `${result.status} by ${result.method}${result.heuristic ? "/" + result.heuristic : ""}`, { class: "status " + result.status }));
  if (result.message) box.append(el("p", result.message));
  if (result.svg) box.append(picture(result.svg));
  else if (result.text) box.append(el("pre", result.text));
  const proof = Object.entries(result.proof || {});
  if (proof.length) box.append(facts(["proof", "value"], proof));
  box.append(stats(result));
  return box;
}

function show(job) {
  const answer = answerOf(job.action);
  const a = job.answer;
  if (job.action === "solve") answer.append(showResult(a));
  else if (job.action === "verify") {
    const verdict = { true: "agree", false: "DISAGREE", null: "not settled" }[String(a.agree)];
    answer.append(el("h3", `Verdict: ${verdict}`));
    const list = el("ul");
    a.words.forEach((w) => list.append(el("li", w)));
    answer.append(list);
    answer.append(table(["run", "status", "cost", "seconds"], [a.search, a.reference].map((r) => [r.method, r.status, reached(r, "cost"), fmt(r.stats.seconds, "seconds")])));
  } else if (job.action === "analyze") {
    answer.append(el("h3", "Analysis"));
    answer.append(facts(["key", "value"], Object.entries(a.analysis)));
  } else if (job.action === "compare") {
    answer.append(table(["method", "heuristic", "status", "cost", "expanded", "seconds"],
      a.runs.map((r) => [r.method, r.heuristic || "—", r.status, reached(r, "cost"), fmt(r.stats.expanded ?? null, "expanded"), fmt(r.stats.seconds ?? null, "seconds")])));
    answer.append(el("p", `each run may take ${fmt(a.seconds_each, "seconds")} s, the time limit typed (as cspsolve compare --time-limit gives each run)`, { class: "note" }));
    if (a.plot) answer.append(picture(a.plot, "expanded nodes and seconds of each run"));
  } else if (job.action === "explain") {
    const summary = a.records.find((r) => r.type === "summary");
    if (a.player) {
      // the player lists the steps and says the proof; its frame grows to its height
      answer.append(el("iframe", null, { src: `/jobs/${job.id}/player`, sandbox: "allow-scripts", class: "player", title: "step player" }));
    } else {
      const list = el("ol");
      a.records.filter((r) => r.type !== "summary").forEach((r) => list.append(el("li", r.text)));
      answer.append(list);
      if (summary) summary.words.forEach((w) => answer.append(el("p", w)));
    }
    if (summary) answer.append(facts(["fact", "value"], Object.entries(summary.explanation)));
  }
}

// a step player's frame says its height (it runs sandboxed, in another origin)
function fitPlayer(event) {
  const height = event.data && event.data.cspsolvePlayerHeight;
  if (typeof height !== "number") return;
  document.querySelectorAll("iframe.player").forEach((frame) => {
    if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(height) + 2}px`;
  });
}

// --- a job that is not shown in the job section: wait for its end ---------------------------

async function ended(job) {
  let now = job;
  while (!ENDED.includes(now.state)) now = await api("GET", `/api/jobs/${job.id}?wait=5`);
  if (now.state !== "done") throw new Error(now.error || now.state);
  return now.answer;
}

// a table of cell buttons: rows of characters, each cell given a class by its character
// a table of cell buttons, each with its text from `labels` (rows of strings) when given
function board(table, rows, classes, onPress, rowLabels, columnLabels, labels) {
  table.replaceChildren();
  if (columnLabels) {
    const head = el("tr");
    head.append(el("th"));
    columnLabels.forEach((label) => head.append(el("th", label, { class: "clue column" })));
    table.append(head);
  }
  rows.forEach((row, r) => {
    const tr = el("tr");
    if (rowLabels) tr.append(el("th", rowLabels[r], { class: "clue" }));
    [...row].forEach((ch, c) => {
      const text = labels ? labels[r][c] : null;
      const named = `row ${r + 1}, column ${c + 1}${text ? `: ${text}` : ""}`;
      const cell = el("button", text, { type: "button", class: classes[ch] || "", "data-cell": `${r},${c}`, "aria-label": named });
      if (ch === "x") cell.disabled = true;
      else cell.addEventListener("click", () => onPress(r, c));
      const td = el("td");
      td.append(cell);
      tr.append(td);
    });
    table.append(tr);
  });
}

function mark(table, cells, name) {
  table.querySelectorAll("." + name).forEach((b) => b.classList.remove(name));
  cells.forEach(([r, c]) => table.querySelector(`[data-cell="${r},${c}"]`).classList.add(name));
}

// --- playing a puzzle whose kind declares a player ----------------------------------------

function showPlayer(player) {
  $("play-start").hidden = !player;
  play.started = false;
  if (state.work === "play") showWork(player ? "play" : "solve");
  if (!player) return;
  $("play-title").textContent = player.title;
  $("play-note").textContent = player.note;
}

// the moves made, whether play began, the board's style, and a piece picked or dragged
const play = { presses: [], started: false, style: null, picked: null, dragged: null };

function playBody() {
  return { puzzle: state.source, entry: Number($("entry").value || 0), presses: play.presses, time_limit: null };
}

// each style of board a kind's player draws: the class of each cell's character
const PLAY_CLASSES = {
  lights: { "#": "lit", ".": "off", x: "hole" },
  tiles: { t: "tile", o: "tile home", ".": "blank" },
  cars: { r: "car red", c: "car", x: "wall", ".": "road" },
};

// a board whose moves are drags (Rush Hour: from a piece's cell to where it goes); a press
// then another press makes the same move, from the keyboard too
const DRAGGED = ["cars"];

// the board after the moves made; false when the server refuses them
async function playShow() {
  $("play-error").textContent = "";
  try {
    const now = await api("POST", "/api/play", playBody());
    const style = now.style || "plain";
    play.style = style;
    const table = $("play-board");
    table.className = `board ${style}`;
    board(table, now.rows, PLAY_CLASSES[style] || {}, pressCell, null, null, now.labels);
    mark(table, now.pressed || [], "pressed");
    if (Number.isInteger(now.exit)) table.rows[now.exit].lastElementChild.classList.add("exit");
    table.classList.toggle("won", Boolean(now.solved));
    const made = `${play.presses.length} ${play.presses.length === 1 ? "move" : "moves"}`;
    const words = now.status || "";
    $("play-status").textContent = now.solved ? `solved in ${made}: ${words}` : `${words}${words ? ", " : ""}${made} made`;
    return true;
  } catch (error) {
    $("play-error").textContent = error.message;
    return false;
  }
}

async function pressCell(r, c) {
  if (DRAGGED.includes(play.style)) {
    const from = play.picked;
    if (!from || (from[0] === r && from[1] === c)) return pick(from ? null : [r, c]);
    pick(null);
    return makeMove([...from, r, c]);
  }
  return makeMove([r, c]);
}

function pick(cell) {
  play.picked = cell;
  mark($("play-board"), cell ? [cell] : [], "picked");
}

// a drag that ends on another cell than it began is a move (a press on one cell is a click)
function dragStart(event) {
  const cell = event.target.closest("[data-cell]");
  if (cell && DRAGGED.includes(play.style)) play.dragged = cell.dataset.cell.split(",").map(Number);
}

function dragEnd(event) {
  const from = play.dragged;
  play.dragged = null;
  const under = from && document.elementFromPoint(event.clientX, event.clientY);
  const cell = under && under.closest("#play-board [data-cell]");
  if (!cell) return;
  const to = cell.dataset.cell.split(",").map(Number);
  if (to[0] === from[0] && to[1] === from[1]) return;
  pick(null);
  makeMove([...from, ...to]);
}

async function makeMove(move) {
  play.presses.push(move);
  if (await playShow()) return;
  const refused = $("play-error").textContent;
  play.presses.pop(); // a move the kind's rules refuse is not made
  await playShow();
  $("play-error").textContent = refused;
}

async function playStart() {
  play.presses = [];
  play.started = true;
  play.picked = null;
  await playShow();
}

async function playHint() {
  $("play-error").textContent = "";
  $("play-status").textContent = "looking for the best next move";
  try {
    const hint = await ended(await api("POST", "/api/hint", playBody()));
    if (hint.press) mark($("play-board"), [hint.press], "hint");
    mark($("play-board"), hint.to ? [hint.to] : [], "hint-to");
    const [r, c] = hint.press || [];
    $("play-status").textContent = hint.words || (hint.press ? `row ${r + 1}, column ${c + 1}` : `no hint (${hint.status})`);
  } catch (error) {
    $("play-error").textContent = error.message;
  }
}

// --- designing a puzzle, where a kind declares a designer ------------------------------------

// rows of "#" and "."; the grids before (undo) and after (redo) each change; the value a stroke
// paints while the pointer is down, and whether a click is a stroke's end (not a keypress)
const design = { rows: [], undo: [], redo: [], paint: null, stroked: false };

function runs(line) {
  const out = line.split(".").filter(Boolean).map((run) => run.length);
  return out.length ? out : [0];
}

function designShow() {
  const rows = design.rows;
  const columns = [...rows[0]].map((_, c) => rows.map((row) => row[c]).join(""));
  const rowClues = rows.map((row) => runs(row).join(" "));
  const columnClues = columns.map((column) => runs(column).join("\n"));
  const table = $("design-board");
  const cells = table.querySelectorAll("button[data-cell]");
  if (cells.length === rows.length * rows[0].length && table.rows.length === rows.length + 1) {
    // the same size: cells and clues change in place, so a stroke keeps its buttons
    cells.forEach((b) => {
      const [r, c] = b.dataset.cell.split(",").map(Number);
      b.className = rows[r][c] === "#" ? "filled" : "empty";
    });
    table.querySelectorAll("th.clue.column").forEach((th, c) => (th.textContent = columnClues[c]));
    table.querySelectorAll("th.clue:not(.column)").forEach((th, r) => (th.textContent = rowClues[r]));
  } else {
    board(table, rows, { "#": "filled", ".": "empty" }, designPress, rowClues, columnClues);
  }
  const query = new URLSearchParams({ grid: rows.join("/"), title: $("design-title").value });
  document.querySelectorAll("[data-format]").forEach((link) => {
    query.set("format", link.dataset.format);
    link.href = `/api/design/file?${query}`;
  });
  $("design-status").textContent = "";
  $("design-undo").disabled = !design.undo.length;
  $("design-redo").disabled = !design.redo.length;
}

// a change to the grid, undoable: `change` makes the new rows
function designChange(change) {
  design.undo.push(design.rows.slice());
  design.redo = [];
  design.rows = change(design.rows.slice());
  designShow();
}

function designSet(rows, r, c, ch) {
  rows[r] = rows[r].slice(0, c) + ch + rows[r].slice(c + 1);
  return rows;
}

// a cell pressed from the keyboard (a pointer paints by strokes instead)
function designPress(r, c) {
  if (design.stroked) return;
  designChange((rows) => designSet(rows, r, c, rows[r][c] === "#" ? "." : "#"));
}

function cellAt(event) {
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const cell = under && under.closest("#design-board [data-cell]");
  return cell ? cell.dataset.cell.split(",").map(Number) : null;
}

// a stroke: the first cell pressed flips, and every cell the pointer then crosses takes its value
function strokeStart(event) {
  const at = cellAt(event);
  if (!at || event.button > 0) return;
  event.preventDefault();
  const [r, c] = at;
  design.paint = design.rows[r][c] === "#" ? "." : "#";
  design.stroked = true;
  designChange((rows) => designSet(rows, r, c, design.paint));
}

function strokeMove(event) {
  const at = design.paint && cellAt(event);
  if (!at || design.rows[at[0]][at[1]] === design.paint) return;
  design.rows = designSet(design.rows.slice(), at[0], at[1], design.paint);
  designShow();
}

function strokeEnd() {
  design.paint = null;
  setTimeout(() => (design.stroked = false), 0); // after the click that ends the stroke
}

function designStep(from, to) {
  if (!from.length) return;
  to.push(design.rows);
  design.rows = from.pop();
  const [height, width] = [design.rows.length, design.rows[0].length];
  $("design-height").value = height;
  $("design-width").value = width;
  designShow();
}

function designKeys(event) {
  if ($("design").hidden || !(event.ctrlKey || event.metaKey) || event.target.matches("input, textarea")) return;
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) designStep(design.undo, design.redo);
  else if (key === "y" || (key === "z" && event.shiftKey)) designStep(design.redo, design.undo);
  else return;
  event.preventDefault();
}

function designNew() {
  const size = (id) => Math.min(Math.max(Number($(id).value) || 1, 1), Number($(id).max));
  const blank = Array.from({ length: size("design-height") }, () => ".".repeat(size("design-width")));
  if (design.rows.length) designChange(() => blank);
  else {
    design.rows = blank;
    designShow();
  }
}

async function designImage() {
  const file = $("design-image").files[0];
  if (!file) return;
  $("design-error").textContent = "";
  const form = new FormData();
  form.append("file", file);
  form.append("width", $("design-width").value);
  form.append("height", $("design-height").value);
  try {
    const { grid } = await api("POST", "/api/design/image", form);
    designChange(() => grid);
  } catch (error) {
    $("design-error").textContent = error.message;
  }
  $("design-image").value = "";
}

function yesNo(value) {
  return value === true ? "yes" : value === false ? "no" : "not settled";
}

async function designCheck() {
  $("design-error").textContent = "";
  $("design-status").textContent = "checking";
  try {
    const body = { grid: design.rows, title: $("design-title").value, time_limit: null };
    const a = await ended(await api("POST", "/api/design", body));
    mark($("design-board"), a.differ, "differ");
    const fixed = a.fixed_by_line_logic === null ? "" : ` (it fixes ${a.fixed_by_line_logic} of ${a.cells} cells)`;
    const other = a.differ.length ? `; another solution differs in the ${a.differ.length} cells marked` : "";
    $("design-status").textContent = `line logic solves it: ${yesNo(a.line_solvable)}${fixed}; unique: ${yesNo(a.unique)}${other}`;
  } catch (error) {
    $("design-error").textContent = error.message;
    $("design-status").textContent = "";
  }
}

// --- puzzles made to order (a kind's generator) ---------------------------------------------

// the last puzzle made: its file's name and text, its kind
const made = { answer: null, kind: null };

function generateShow() {
  const kind = state.kinds[$("generate-kind").value];
  $("generate-note").textContent = kind.generate.note;
  const box = $("generate-options");
  box.replaceChildren();
  kind.generate.options.forEach((o) => box.append(optionWidget(o)));
}

async function generateMake() {
  $("generate-error").textContent = "";
  $("generate-made").hidden = true;
  $("generate-status").textContent = "making the puzzle…";
  const limit = $("generate-time-limit").value;
  const body = {
    kind: $("generate-kind").value,
    seed: Number($("generate-seed").value || 0),
    options: optionValues($("generate-options")),
    time_limit: limit === "" ? null : Number(limit),
  };
  try {
    const answer = await ended(await api("POST", "/api/generate", body));
    if (answer.status !== "made") {
      $("generate-status").textContent = "the time limit stopped it before a puzzle was made";
      return;
    }
    Object.assign(made, { answer, kind: body.kind });
    $("generate-status").textContent = `made ${answer.name}`;
    $("generate-picture").hidden = !answer.svg; // a kind with no picture: its file's text
    if (answer.svg) $("generate-picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(answer.svg);
    $("generate-text").hidden = Boolean(answer.svg);
    $("generate-text").textContent = answer.text;
    $("generate-certificate").replaceChildren(facts(["what was proven", "value"], Object.entries(answer.certificate)));
    const link = $("generate-download");
    URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([answer.text], { type: "text/plain" }));
    link.download = answer.name;
    $("generate-made").hidden = false;
  } catch (error) {
    $("generate-status").textContent = "";
    $("generate-error").textContent = error.message;
  }
}

// the puzzle made, pasted on the Solve page and read, then solved or explained there
async function generateOpen(action) {
  showPage("page-solve");
  showTab("paste");
  $("text").value = made.answer.text;
  $("kind").value = made.kind;
  $("format").value = "";
  await readPuzzle();
  if (!$("run").hidden) start(action);
}

// --- start -----------------------------------------------------------------------------------

async function init() {
  (await api("GET", "/api/kinds")).forEach((k) => (state.kinds[k.name] = k));
  document.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  document.querySelectorAll("[data-action]").forEach((b) => b.addEventListener("click", () => start(b.dataset.action)));
  $("read").addEventListener("click", readPuzzle);
  $("instance").addEventListener("change", () => { markThumb(); readPuzzle(); });
  document.querySelectorAll("[data-instance]").forEach((b) => b.addEventListener("click", () => pickExample(b.dataset.instance)));
  $("file").addEventListener("change", readPuzzle);
  $("entry").addEventListener("change", () => { $("puzzle-figure").hidden = true; drawPuzzle(); });
  $("method").addEventListener("change", fillHeuristics);
  $("cancel").addEventListener("click", cancel);
  window.addEventListener("pagehide", leave);
  window.addEventListener("message", fitPlayer);
  const opening = document.body.dataset.opening; // the server's pick: a kind's sample
  if ([...$("instance").options].some((o) => o.value === opening)) $("instance").value = opening;
  markThumb();
  if (window.matchMedia("(max-width: 700px)").matches) $("gallery").open = false; // a phone: the list first
  showTab("shipped");
  readPuzzle().finally(showThumbnails); // the puzzle first, then the gallery's pictures
  document.querySelectorAll("[data-show]").forEach((b) => b.addEventListener("click", () => showWork(b.dataset.show)));
  $("play-board").addEventListener("pointerdown", dragStart);
  document.addEventListener("pointerup", dragEnd);
  document.querySelectorAll("[data-page]").forEach((b) => b.addEventListener("click", () => showPage(b.dataset.page)));
  $("play-hint").addEventListener("click", playHint);
  $("play-reset").addEventListener("click", playStart);
  if ($("generate")) {
    $("generate-kind").addEventListener("change", generateShow);
    $("generate-make").addEventListener("click", generateMake);
    $("generate-next").addEventListener("click", () => {
      $("generate-seed").value = Number($("generate-seed").value || 0) + 1;
      generateMake();
    });
    $("generate-solve").addEventListener("click", () => generateOpen("solve"));
    $("generate-explain").addEventListener("click", () => generateOpen("explain"));
    generateShow();
  }
  if (!$("design")) return;
  $("design-new").addEventListener("click", designNew);
  $("design-check").addEventListener("click", designCheck);
  $("design-title").addEventListener("input", designShow);
  $("design-image").addEventListener("change", designImage);
  $("design-undo").addEventListener("click", () => designStep(design.undo, design.redo));
  $("design-redo").addEventListener("click", () => designStep(design.redo, design.undo));
  $("design-board").addEventListener("pointerdown", strokeStart);
  document.addEventListener("pointermove", strokeMove);
  document.addEventListener("pointerup", strokeEnd);
  document.addEventListener("pointercancel", strokeEnd);
  document.addEventListener("keydown", designKeys);
  designNew();
}

document.addEventListener("DOMContentLoaded", init);
