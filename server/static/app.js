// The HuggingGPT chat page: uploads attachments to /files, sends each message to
// /conversations/{id}/messages and renders the server-sent stages as they arrive.
"use strict";

const $ = (selector) => document.querySelector(selector);
const log = $("#log"), request = $("#request"), send = $("#send"), attach = $("#attach");
const attachments = [];  // {file, chip, upload (from POST /files) or null while uploading}
let apiKey = localStorage.getItem("hugginggpt.key") || "";
let conversationId = localStorage.getItem("hugginggpt.conversation") || "";

function headers(extra = {}) {
  return apiKey ? { ...extra, Authorization: `Bearer ${apiKey}` } : extra;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (response.status === 401) $("#key-form").hidden = false;
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error || message; } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return response;
}

function setKey(key) {
  apiKey = key;
  localStorage.setItem("hugginggpt.key", key);
  // The cookie lets <img>/<audio>/<video> load /files/... with the key too (same site only).
  document.cookie = `hugginggpt_key=${encodeURIComponent(key)}; path=/; SameSite=Strict`;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = value; else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function mediaElement(item) {
  const caption = el("figcaption", { text: item.path });
  let player;
  if (item.kind === "image") player = el("img", { src: item.url, alt: item.path });
  else if (item.kind === "audio") player = el("audio", { src: item.url, controls: "" });
  else if (item.kind === "video") player = el("video", { src: item.url, controls: "" });
  else player = el("a", { href: item.url, target: "_blank", text: item.path });
  return el("figure", { "data-kind": item.kind }, player, caption);
}

function mediaBlock(items, className = "media") {
  const block = el("div", { class: className });
  for (const item of items || []) block.append(mediaElement(item));
  return block;
}

function scrollDown() { log.scrollTop = log.scrollHeight; }

// -- health and stored conversation --------------------------------------------

async function showHealth() {
  try {
    const health = await (await fetch("/health")).json();
    const ready = Object.keys(health.experts.ready).length;
    const llm = health.llm.name ? `${health.llm.name}${health.llm.ready ? "" : " (not ready)"}` : "no LLM";
    $("#status").textContent = `controller: ${llm} · ${ready} tasks with a model ready here`;
    if (health.auth && !apiKey) $("#key-form").hidden = false;
  } catch (error) {
    $("#status").textContent = `server unreachable: ${error.message}`;
  }
}

async function loadConversation() {
  if (!conversationId) return;
  try {
    const conversation = await (await api(`/conversations/${conversationId}`)).json();
    for (const message of conversation.messages) {
      if (message.role === "user") log.append(el("div", { class: "turn user", text: message.content }));
      else log.append(el("div", { class: "turn assistant done" }, el("div", { class: "answer", text: message.content }),
                         mediaBlock(message.details.files, "media answer-media")));
    }
    scrollDown();
  } catch (_) {
    conversationId = "";
    localStorage.removeItem("hugginggpt.conversation");
  }
}

async function ensureConversation() {
  if (!conversationId) {
    conversationId = (await (await api("/conversations", { method: "POST" })).json()).id;
    localStorage.setItem("hugginggpt.conversation", conversationId);
  }
  return conversationId;
}

// -- attachments ---------------------------------------------------------------

async function addAttachment(file) {
  const chip = el("span", { class: "chip uploading", text: `${file.name} …` });
  const entry = { file, chip, upload: null };
  attachments.push(entry);
  $("#attachments").append(chip);
  const body = new FormData();
  body.append("file", file);
  try {
    entry.upload = await (await api("/files", { method: "POST", body })).json();
    chip.textContent = "";
    if (entry.upload.kind === "image") chip.append(el("img", { src: entry.upload.url, alt: "" }));
    chip.append(el("span", { text: file.name }));
    chip.className = "chip ready";
  } catch (error) {
    chip.textContent = `${file.name}: ${error.message}`;
    chip.className = "chip failed";
  }
  const remove = el("button", { type: "button", title: "Remove", text: "×" });
  remove.addEventListener("click", () => { attachments.splice(attachments.indexOf(entry), 1); chip.remove(); });
  chip.append(remove);
}

attach.addEventListener("change", () => {
  for (const file of attach.files) addAttachment(file);
  attach.value = "";
});

// -- sending and streaming -----------------------------------------------------

function describeTask(task) {
  const args = Object.entries(task.args || {}).map(([k, v]) => `${k}: ${v}`).join(", ");
  return `${task.id} ${task.task}(${args})`;
}

function assistantTurn() {
  const stages = el("ul", { class: "stages" });
  const answer = el("div", { class: "answer" });
  const media = el("div", { class: "media answer-media" });
  const turn = el("div", { class: "turn assistant" }, stages, answer, media);
  log.append(turn);
  const stage = (text, state = "") => { const item = el("li", { class: state, text }); stages.append(item); return item; };
  const tasks = {};
  return {
    plan(data) {
      if (!data.plan.length) { stage("plan: no expert task needed (chat)", "ok"); return; }
      stage(`plan (${data.planner}): ${data.plan.map(describeTask).join("; ")}`, "ok");
      for (const task of data.plan) tasks[task.id] = stage(`task ${task.id} ${task.task}: waiting`, "running");
    },
    selection(data) {
      for (const [id, s] of Object.entries(data)) {
        const line = stage(`model for task ${id}: ${s.model_id || "none"} — ${s.reason}`, s.model_id ? "ok" : "error");
        if (tasks[id]) tasks[id].before(line);
      }
    },
    task(data) {
      const line = tasks[data.task_id] || stage("");
      line.className = data.status;
      const output = (data.output && data.output.text) || data.error || "";
      line.textContent = `task ${data.task_id} ${data.task} with ${data.model_id || "-"}: ${data.status}${output ? " — " + output.slice(0, 160) : ""}`;
      if (data.media && data.media.length) line.append(mediaBlock(data.media));
    },
    answer_chunk(data) { answer.textContent += data.text; },
    answer(data) { answer.textContent = data.answer; },
    error(data) { stage(`error: ${data.error}`, "error"); },
    result(data) {
      answer.textContent = data.answer;
      media.replaceChildren(...mediaBlock(data.media).children);
      turn.classList.add("done");
      if (data.error) turn.classList.add("failed");
    },
    fail(message) { answer.append(el("span", { class: "error-text", text: message })); turn.classList.add("done", "failed"); },
  };
}

async function* serverSentEvents(response) {
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) kind = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) yield [kind, JSON.parse(data)];
    }
  }
}

async function sendMessage(event) {
  event.preventDefault();
  const content = request.value.trim();
  if (!content || send.disabled) return;
  if (attachments.some((a) => !a.upload && !a.chip.classList.contains("failed"))) return;  // still uploading
  const files = attachments.filter((a) => a.upload).map((a) => a.upload);
  send.disabled = true;
  log.append(el("div", { class: "turn user", text: content }, mediaBlock(files)));
  request.value = "";
  attachments.splice(0).forEach((a) => a.chip.remove());
  const turn = assistantTurn();
  scrollDown();
  try {
    const id = await ensureConversation();
    const response = await api(`/conversations/${id}/messages`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ content, files: files.map((f) => f.path) }),
    });
    for await (const [kind, data] of serverSentEvents(response)) {
      if (turn[kind]) turn[kind](data);
      scrollDown();
    }
  } catch (error) {
    turn.fail(error.message);
  } finally {
    send.disabled = false;
    request.focus();
  }
}

$("#composer").addEventListener("submit", sendMessage);
request.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) sendMessage(event);
});
$("#key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setKey($("#api-key").value.trim());
  $("#key-form").hidden = true;
  loadConversation();
});
$("#new-chat").addEventListener("click", () => {
  conversationId = "";
  localStorage.removeItem("hugginggpt.conversation");
  log.querySelectorAll(".turn").forEach((node) => node.remove());
});

if (apiKey) setKey(apiKey);
showHealth();
loadConversation();
