// The page of ncmc serve: it only talks to the JSON API (docs/serve.md).
"use strict";

const MODELS = ["sc", "tso", "pso", "ra", "rc11"];
const $ = (id) => document.getElementById(id);
const state = { model: "sc", example: "", edited: false, seq: 0 };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function setModel(m) {
  state.model = m;
  for (const b of $("models").children) b.classList.toggle("selected", b.dataset.model === m);
  run();
}

function updateGutter(bad) {
  const n = $("editor").value.split("\n").length;
  const g = $("gutter");
  g.textContent = "";
  for (let i = 1; i <= n; i++) {
    const s = el("span", bad && bad.has(i) ? { class: "bad" } : {}, String(i));
    g.append(s, "\n");
  }
  g.scrollTop = $("editor").scrollTop;
}

function jumpTo(line, col) {
  const ed = $("editor");
  const lines = ed.value.split("\n");
  let off = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) off += lines[i].length + 1;
  off += Math.max(0, col - 1);
  ed.focus();
  ed.setSelectionRange(off, off + 1);
  ed.scrollTop = Math.max(0, (line - 5) * 17);
}

function updateLinks(resp) {
  const params = new URLSearchParams();
  if (state.example && !state.edited) params.set("example", state.example);
  params.set("model", state.model);
  const url = location.origin + location.pathname + "?" + params.toString();
  history.replaceState(null, "", url);
  const a = $("permalink");
  a.href = url;
  a.textContent = state.edited ? url + "  (your edits are not in the link)" : url;
  $("command").textContent = resp && resp.command ? resp.command + (state.edited ? "   (after saving the editor's text as " + resp.name + ")" : "") : "";
}

async function loadExample(id) {
  const r = await fetch("/api/example?id=" + encodeURIComponent(id));
  const j = await r.json();
  if (!r.ok) { $("status").textContent = j.error; return; }
  state.example = id;
  state.edited = false;
  state.name = j.name;
  $("editor").value = j.source;
  $("kind").value = j.kind;
  $("menu").value = id;
  updateGutter();
  await run();
}

async function run() {
  const seq = ++state.seq;
  $("status").textContent = "running…";
  const body = { source: $("editor").value, kind: $("kind").value, model: state.model };
  if (state.name && !state.edited) body.name = state.name;
  else body.name = $("kind").value === "cir" ? "input.cir" : "input.litmus";
  let resp;
  try {
    const r = await fetch("/api/run", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    resp = await r.json();
    if (!r.ok) throw new Error(resp.error || r.statusText);
  } catch (e) {
    if (seq === state.seq) $("status").textContent = "error: " + e.message;
    return;
  }
  if (seq !== state.seq) return; // a newer run is on its way
  render(resp);
  $("status").textContent = "done";
  document.body.dataset.ready = state.model + ":" + (state.example || "edited");
}

function render(resp) {
  updateLinks(resp);
  const errs = $("errors");
  errs.textContent = "";
  const bad = new Set();
  for (const e of resp.errors || []) {
    bad.add(e.line);
    errs.append(el("li", { onclick: () => jumpTo(e.line, e.col) }, e.text));
  }
  updateGutter(bad);
  $("testname").textContent = resp.test ? resp.test : "";
  $("condition").textContent = resp.condition ? "condition: " + resp.condition : "";
  $("selmodel").textContent = resp.model;
  $("incomplete").textContent = resp.incomplete ? "incomplete (a bound was hit): " + resp.incomplete : "";
  renderTable(resp);
  const ex = $("explanations");
  ex.textContent = "";
  $("explheading").textContent = resp.explanations.length ? "Why " + resp.model + " forbids" : "";
  for (const x of resp.explanations) {
    const d = el("div", { class: "explanation", "data-outcome": x.outcome });
    d.append(el("p", {}, el("b", {}, x.outcome), " is forbidden under " + x.model +
      (x.axiom ? " by axiom " + x.axiom + " (" + (x.candidates === 1 ? "the one would-be execution found" : x.candidates + " would-be executions found, each inconsistent") + "):" : ":")));
    if (x.cycle) d.append(el("p", { class: "cycle" }, x.cycle));
    if (x.note) d.append(el("p", {}, x.note));
    if (x.picture) d.append(picture(x.picture));
    ex.append(d);
  }
  const exs = $("executions");
  exs.textContent = "";
  for (const p of resp.executions) exs.append(picture(p));
  if (resp.omitted) exs.append(el("p", {}, resp.omitted + " more execution(s) not drawn."));
  if (!resp.executions.length && !(resp.errors || []).length) exs.append(el("p", {}, "none"));
}

function picture(p) {
  const d = el("div", { class: "picture" + (p.forbidden ? " forbidden" : ""), "data-outcome": p.outcome });
  d.innerHTML = p.svg; // produced by the server from escaped text
  return d;
}

function renderTable(resp) {
  const t = $("outcomes");
  t.textContent = "";
  if (!resp.outcomes.length) return;
  const head = el("tr", {}, el("th", {}, resp.kind === "cir" ? "final state" : "outcome"));
  for (const m of resp.models) head.append(el("th", { class: m === resp.model ? "selcol" : "" }, m));
  t.append(head);
  const incomplete = {};
  for (const s of resp.summary) incomplete[s.model] = !!s.incomplete;
  for (const r of resp.outcomes) {
    const tr = el("tr", { class: r.satisfies ? "sat" : "", "data-state": r.state });
    tr.append(el("td", { class: "state" }, r.state + (r.error ? "  [" + r.error + "]" : "") + (r.satisfies ? "  ← condition" : "")));
    for (const m of resp.models) {
      const c = r.cells[m];
      const unknown = !c.allowed && incomplete[m];
      const txt = c.allowed ? "✔ ×" + c.executions + (c.racy ? " (" + c.racy + " racy)" : "") : unknown ? "?" : "✘";
      const td = el("td", { class: (c.allowed ? "allowed" : unknown ? "unknown" : "forbidden") + (m === resp.model ? " selcol" : ""), "data-model": m, onclick: () => setModel(m) }, txt);
      td.title = c.allowed ? m + " allows it" : unknown ? "not reached before a bound stopped " + m : m + " forbids it";
      tr.append(td);
    }
    t.append(tr);
  }
  const sum = el("tr", {}, el("td", {}, resp.kind === "cir" ? "executions; verdict" : "executions; condition"));
  for (const s of resp.summary) sum.append(el("td", { class: s.model === resp.model ? "selcol" : "" }, s.executions + "; " + s.verdict + (s.incomplete ? " (incomplete)" : "")));
  t.append(sum);
}

async function init() {
  for (const m of MODELS) $("models").append(el("button", { "data-model": m, id: "model-" + m, onclick: () => setModel(m) }, m));
  const r = await fetch("/api/examples");
  const list = await r.json();
  const groups = {};
  for (const e of list) {
    if (!groups[e.group]) { groups[e.group] = el("optgroup", { label: e.group }); $("menu").append(groups[e.group]); }
    groups[e.group].append(el("option", { value: e.id }, e.path));
  }
  $("menu").addEventListener("change", () => { if ($("menu").value) loadExample($("menu").value); });
  $("run").addEventListener("click", run);
  $("editor").addEventListener("input", () => { state.edited = true; updateGutter(); });
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("editor").addEventListener("keydown", (e) => { if (e.key === "Enter" && e.ctrlKey) { e.preventDefault(); run(); } });
  const q = new URLSearchParams(location.search);
  const m = q.get("model");
  state.model = MODELS.includes(m) ? m : "sc";
  for (const b of $("models").children) b.classList.toggle("selected", b.dataset.model === state.model);
  let id = q.get("example");
  if (!id) {
    const sb = list.find((e) => /(^|\/)SB\.litmus$/.test(e.path)) || list.find((e) => /(^|\/)SB[^/]*\.litmus$/.test(e.path));
    id = sb ? sb.id : list.length ? list[0].id : "";
  }
  if (id) await loadExample(id); else updateGutter();
}

init();
