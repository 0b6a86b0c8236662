// The playground's page: it asks the engine (utf8-playground as WebAssembly,
// from engine.js) for everything it shows and only arranges it. Plain
// scripts, no build step, no network: the page works opened from disk.
"use strict";

const $ = (id) => document.getElementById(id);
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The engine's exports, once instantiated. */
let engine = null;
/** The last successful derivation's answer, and the stage shown. */
let derived = null;
let shownStage = "minimal";
/** The last trace and the position in it (bytes read). */
let trace = null;
let position = 0;

// --- The engine ------------------------------------------------------------

async function startEngine() {
  const bytes = Uint8Array.from(atob(PLAYGROUND_WASM), (c) => c.charCodeAt(0));
  const { instance } = await WebAssembly.instantiate(bytes, {});
  engine = instance.exports;
}

/** Calls one of the engine's verbs with `request` in its inbox; returns the JSON answer. */
function call(verb, request, argument) {
  if (request !== undefined) {
    const at = engine.playground_inbox(request.length);
    // Read memory.buffer after every call: the memory may have grown, and an
    // old buffer is then detached.
    new Uint8Array(engine.memory.buffer, at, request.length).set(request);
  }
  const length = argument === undefined ? engine[verb]() : engine[verb](argument);
  const answer = new Uint8Array(engine.memory.buffer, engine.playground_outbox(), length);
  return JSON.parse(decoder.decode(answer));
}

// --- The grammar -------------------------------------------------------------

function showRulesets(rulesets) {
  const box = $("rulesets");
  for (const ruleset of rulesets) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = ruleset.name;
    button.title = ruleset.source;
    button.dataset.ruleset = ruleset.name;
    button.addEventListener("click", () => loadRuleset(ruleset));
    box.appendChild(button);
  }
}

function loadRuleset(ruleset) {
  $("abnf").value = ruleset.abnf;
  $("start-rule").value = ruleset.start;
  derive();
  markRuleset(ruleset.name);
  $("ruleset-source").textContent = ruleset.source;
}

/** Presses the button of the built-in ruleset the text still is, if any. */
function markRuleset(name) {
  for (const button of $("rulesets").children) {
    button.setAttribute("aria-pressed", String(button.dataset.ruleset === name));
  }
  if (name === null) {
    $("ruleset-source").textContent = "Your own grammar.";
  }
}

let pending = null;
function deriveSoon() {
  clearTimeout(pending);
  markRuleset(null);
  pending = setTimeout(derive, 250);
}

function derive() {
  clearTimeout(pending);
  const start = encoder.encode($("start-rule").value.trim());
  const abnf = encoder.encode($("abnf").value);
  const request = new Uint8Array(start.length + abnf.length);
  request.set(start);
  request.set(abnf, start.length);
  const began = performance.now();
  const answer = call("playground_derive", request, start.length);
  const took = performance.now() - began;
  if (answer.ok) {
    derived = answer;
    showError(null);
    showCounts(answer.counts, took);
    showStageTabs();
    showStage(shownStage);
    step();
  } else {
    derived = null;
    showError(answer);
    step();
  }
  document.body.dataset.state = answer.ok ? "derived" : "error";
  document.body.dataset.derivations = String(Number(document.body.dataset.derivations || 0) + 1);
}

function showCounts(counts, took) {
  for (const name of ["nfa", "dfa", "rounds", "minimal", "classes"]) {
    $("count-" + name).textContent = counts[name];
  }
  $("timing").textContent = `(derived in ${took.toFixed(0)} ms)`;
}

function showError(error) {
  const box = $("error");
  box.hidden = error === null;
  document.querySelector("#summary").classList.toggle("stale", error !== null);
  if (error === null) {
    return;
  }
  const place = $("error-place");
  if (error.line === null) {
    place.textContent = "the start rule";
    place.dataset.line = "";
  } else {
    place.textContent = `line ${error.line}, column ${error.column}`;
    place.dataset.line = error.line;
    place.dataset.column = error.column;
  }
  $("error-message").textContent = error.message;
  $("error-snippet").textContent = error.snippet || "";
  $("error-snippet").hidden = !error.snippet;
}

/** Puts the cursor at the error's place (or in the start rule's box). */
function goToError() {
  const place = $("error-place").dataset;
  if (!place.line) {
    $("start-rule").focus();
    return;
  }
  const lines = $("abnf").value.split("\n");
  let offset = 0;
  for (let i = 0; i < Number(place.line) - 1 && i < lines.length; i++) {
    offset += lines[i].length + 1;
  }
  // Columns count characters; a JavaScript string counts UTF-16 units.
  const line = lines[Number(place.line) - 1] || "";
  offset += Array.from(line).slice(0, Number(place.column) - 1).join("").length;
  const area = $("abnf");
  area.focus();
  area.setSelectionRange(offset, offset + 1);
}

// --- The stages ------------------------------------------------------------

function showStageTabs() {
  const tabs = $("stage-tabs");
  if (tabs.children.length > 0) {
    return;
  }
  for (const stage of derived.stages) {
    const button = document.createElement("button");
    button.type = "button";
    button.role = "tab";
    button.textContent = stage.heading;
    button.dataset.stage = stage.name;
    button.addEventListener("click", () => showStage(stage.name));
    tabs.appendChild(button);
  }
}

function showStage(name) {
  shownStage = name;
  for (const button of $("stage-tabs").children) {
    button.setAttribute("aria-selected", String(button.dataset.stage === name));
  }
  const stage = derived.stages.find((s) => s.name === name);
  $("stage-heading").textContent = stage.heading;
  $("stage-picture").innerHTML = stage.svg || "";
  $("stage-note").textContent = stage.svg
    ? ""
    : stage.name === "grammar"
      ? "The grammar is text, not a graph: here it is as the derivation read it, core rules added."
      : "Too many states to draw legibly; here is the table instead.";
  $("stage-table").textContent = stage.table;
  $("stage-table-box").open = !stage.svg;
  $("stage-data").textContent = JSON.stringify(stage.data, null, 1);
}

// --- Stepping through an input -----------------------------------------------

/** The input box's bytes, or a message saying what is not a byte. */
function inputBytes() {
  const text = $("step-input").value;
  if ($("step-mode").value === "text") {
    return { bytes: encoder.encode(text) };
  }
  const bytes = [];
  for (const token of text.split(/[\s,]+/).filter((t) => t.length > 0)) {
    const digits = token.replace(/^(0x|%x|\\x)/i, "");
    if (!/^([0-9a-f]{2})+$/i.test(digits)) {
      return { problem: `“${token}” is not hex bytes: write them as E0 80, E080 or 0xE0 0x80` };
    }
    for (let i = 0; i < digits.length; i += 2) {
      bytes.push(parseInt(digits.slice(i, i + 2), 16));
    }
  }
  return { bytes: Uint8Array.from(bytes) };
}

function hex(byte) {
  return byte.toString(16).toUpperCase().padStart(2, "0");
}

function stateName(state) {
  return `${state} (${derived.names[state]})`;
}

/** The bytes of byte class `number`, as ABNF writes them: %xE1-EC / %xEE-EF. */
function classBytes(number) {
  const classes = derived.stages.find((s) => s.name === "classes").data;
  return classes.ranges[number]
    .map(([lo, hi]) => (lo === hi ? `%x${hex(lo)}` : `%x${hex(lo)}-${hex(hi)}`))
    .join(" / ");
}

function step() {
  const verdict = $("step-verdict");
  const input = inputBytes();
  trace = null;
  if (derived === null || input.problem) {
    verdict.className = "verdict invalid";
    verdict.textContent = input.problem || "Fix the grammar to step through an input.";
    showPosition(0);
    return;
  }
  trace = call("playground_step", input.bytes);
  const count = input.bytes.length;
  verdict.className = "verdict " + trace.verdict;
  if (trace.verdict === "accepted") {
    verdict.textContent = `Accepted: all ${count} bytes match ${derived.start_rule}.`;
  } else if (trace.verdict === "incomplete") {
    verdict.textContent = `Incomplete: the ${count} bytes end in the middle of something (state ${stateName(trace.steps.at(-1).to)}).`;
  } else {
    const rejecting = trace.steps[trace.offset];
    verdict.textContent =
      `Rejected at byte ${trace.offset + 1} (offset ${trace.offset}): ` +
      `no move from state ${stateName(rejecting.from)} on ${hex(rejecting.byte)} (class ${rejecting.class}).`;
  }
  const rows = $("step-table").tBodies[0];
  rows.replaceChildren();
  for (const move of trace.steps) {
    const row = rows.insertRow();
    for (const cell of [move.offset, hex(move.byte), move.class, move.from, move.to]) {
      row.insertCell().textContent = cell;
    }
    row.cells[2].title = classBytes(move.class);
    row.cells[3].title = derived.names[move.from];
    row.cells[4].title = derived.names[move.to];
    if (move.to === derived.dead) {
      row.classList.add("rejecting");
    }
    row.addEventListener("click", () => showPosition(move.offset + 1));
  }
  const minimal = derived.stages.find((s) => s.name === "minimal");
  $("step-picture").innerHTML = minimal.svg || "";
  showPosition(trace.steps.length);
}

/** Shows the automaton after `bytesRead` bytes: the row and the state highlighted. */
function showPosition(bytesRead) {
  const steps = trace ? trace.steps : [];
  position = Math.max(0, Math.min(bytesRead, steps.length));
  const state = position === 0 ? (derived ? derived.start : null) : steps[position - 1].to;
  const rows = $("step-table").tBodies[0].rows;
  for (let i = 0; i < rows.length; i++) {
    rows[i].classList.toggle("current", i === position - 1);
  }
  const picture = $("step-picture");
  for (const node of picture.querySelectorAll("g.state")) {
    node.classList.remove("current", "previous");
  }
  const rejected = position > 0 && state === derived.dead;
  picture.classList.toggle("rejected", rejected);
  if (state !== null) {
    const shown = rejected ? steps[position - 1].from : state;
    const node = picture.querySelector(`g.state#s${shown}`);
    if (node) {
      node.classList.add(rejected ? "previous" : "current");
    }
  }
  $("step-position").textContent =
    state === null
      ? ""
      : position === 0
        ? `before byte 1: state ${stateName(state)}`
        : `after byte ${position}, ${hex(steps[position - 1].byte)} ` +
          `(class ${steps[position - 1].class}: ${classBytes(steps[position - 1].class)}): ` +
          `state ${stateName(state)}`;
  $("step-position").dataset.state = state === null ? "" : String(state);
}

// --- Wiring ---------------------------------------------------------------------

async function main() {
  try {
    await startEngine();
  } catch (error) {
    document.body.dataset.state = "broken";
    $("summary").textContent = `The engine did not start: ${error}`;
    return;
  }
  const rulesets = call("playground_rulesets");
  showRulesets(rulesets);
  $("abnf").addEventListener("input", deriveSoon);
  $("start-rule").addEventListener("input", deriveSoon);
  $("error-place").addEventListener("click", goToError);
  $("step-input").addEventListener("input", step);
  $("step-mode").addEventListener("change", step);
  $("step-first").addEventListener("click", () => showPosition(0));
  $("step-back").addEventListener("click", () => showPosition(position - 1));
  $("step-forward").addEventListener("click", () => showPosition(position + 1));
  $("step-last").addEventListener("click", () => showPosition(Infinity));
  loadRuleset(rulesets[0]);
}

main();
