// murar assistant: the web page of `murar serve`.
//
// Safety by construction: every piece of text that comes from the documents
// (answer text, captions, table cells, snippets, URLs) is put in the page with
// textContent / createTextNode, never parsed as HTML. Links are only made from
// http(s) URLs; images only from this server's /v1/media/{id}. The server's
// Content-Security-Policy (script-src 'self') forbids any other script.
"use strict";

(function () {
  const STAGES = [
    ["retrieve", "Search"],
    ["generate", "Draft"],
    ["attribute", "Attribute"],
    ["media", "Media"],
    ["refine", "Refine"],
  ];
  const MAX_RETRIES = 3;

  const $ = (id) => document.getElementById(id);
  const thread = $("thread");
  const form = $("composer");
  const input = $("question");
  const sendBtn = $("send");
  let busy = null; // AbortController of the running request

  // ------------------------------------------------------------ DOM helpers

  // el("div", {class: "x", title: "t"}, child, "text", ...): children are
  // nodes or strings (strings become text nodes, never HTML).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) throw new Error("no inline handlers");
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // An absolute http(s) URL, or null (javascript:, data:, relative junk...).
  function safeHttpUrl(raw) {
    if (typeof raw !== "string" || !raw) return null;
    try {
      const url = new URL(raw);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
    } catch (_) {
      return null;
    }
  }

  // Images are only ever loaded from this server, by media id.
  function mediaSrc(item) {
    if (!item || !item.media_url || typeof item.id !== "string") return null;
    return "/v1/media/" + encodeURIComponent(item.id);
  }

  const ICONS = {
    up: "M2 10h4v11H2z M8 21h9.3a2 2 0 0 0 2-1.6l1.5-7.1A2 2 0 0 0 18.8 10H14l.9-4.3a1.8 1.8 0 0 0-3.2-1.5L8 10z",
    copy: "M9 9h11v11H9z M5 15H4V4h11v1",
  };

  // A small stroked SVG icon (built with DOM calls, no markup parsing).
  function icon(name, flip) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "ico" + (flip ? " flip" : ""));
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", ICONS[name]);
    svg.append(path);
    return svg;
  }

  function externalLink(url, label) {
    return el("a", { href: url, target: "_blank", rel: "noopener noreferrer nofollow" }, label);
  }

  function fmtScore(x) {
    return typeof x === "number" ? x.toFixed(2) : "–";
  }

  function toast(message) {
    const t = $("toast");
    t.textContent = message;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 2200);
  }

  function scrollToEnd() {
    const doc = document.scrollingElement || document.documentElement;
    const nearBottom = doc.scrollHeight - doc.scrollTop - doc.clientHeight < 240;
    if (nearBottom) window.scrollTo({ top: doc.scrollHeight });
  }

  // ---------------------------------------------------- rich text (safe)

  // A small Markdown subset for answer text: paragraphs, bullet and numbered
  // lists, **bold**, `code`, and citations [1] / [1, 2] as buttons.
  function richText(text, ctx) {
    const frag = document.createDocumentFragment();
    const paras = String(text || "").replace(/\r\n/g, "\n").split(/\n{2,}/);
    for (const para of paras) {
      const lines = para.split("\n").filter((l) => l.trim() !== "");
      if (!lines.length) continue;
      const bullets = lines.every((l) => /^\s*[-*•]\s+/.test(l));
      const numbers = lines.every((l) => /^\s*\d+[.)]\s+/.test(l));
      if (bullets || numbers) {
        const list = el(numbers ? "ol" : "ul");
        for (const line of lines) {
          const li = el("li");
          inline(li, line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, ""), ctx);
          list.append(li);
        }
        frag.append(list);
      } else {
        const heading = lines.length === 1 && /^#{1,6}\s+/.test(lines[0]);
        const p = el(heading ? "h3" : "p");
        inline(p, heading ? lines[0].replace(/^#{1,6}\s+/, "") : lines.join("\n"), ctx);
        frag.append(p);
      }
    }
    return frag;
  }

  const INLINE = /\*\*([^*]+)\*\*|`([^`]+)`|\[(\d+(?:\s*,\s*\d+)*)\]/g;

  function inline(parent, text, ctx) {
    let last = 0;
    for (const m of text.matchAll(INLINE)) {
      if (m.index > last) parent.append(document.createTextNode(text.slice(last, m.index)));
      if (m[1] !== undefined) parent.append(el("strong", { text: m[1] }));
      else if (m[2] !== undefined) parent.append(el("code", { text: m[2] }));
      else {
        for (const n of m[3].split(",").map((s) => parseInt(s.trim(), 10))) {
          parent.append(citeButton(n, ctx));
        }
      }
      last = m.index + m[0].length;
    }
    if (last < text.length) parent.append(document.createTextNode(text.slice(last)));
  }

  function citeButton(n, ctx) {
    const source = ctx && ctx.sources ? ctx.sources.find((s) => s.citation === n) : null;
    const btn = el("button", {
      type: "button",
      class: "cite",
      title: source ? source.label : "Source " + n,
      "aria-label": "Open source " + n,
    }, String(n));
    btn.addEventListener("click", () => {
      if (source) openSource(source);
      else toast("Source " + n + " is not available yet");
    });
    return btn;
  }

  // ------------------------------------------------------------ drawer

  let lastFocus = null;

  function openDrawer(title, body) {
    lastFocus = document.activeElement;
    $("drawer-title").textContent = title;
    const target = $("drawer-body");
    target.replaceChildren(body);
    $("drawer").hidden = false;
    $("scrim").hidden = false;
    document.body.classList.add("drawer-open");
    $("drawer-close").focus();
  }

  function closeDrawer() {
    $("drawer").hidden = true;
    $("scrim").hidden = true;
    document.body.classList.remove("drawer-open");
    if (lastFocus && lastFocus.focus) lastFocus.focus();
  }

  function openSource(source) {
    const sn = source.snippet || {};
    const path = (sn.heading_path || []).filter((h) => h && h !== sn.page_title);
    const body = el("div", { class: "source-view" },
      el("div", { class: "source-page", text: sn.page_title || sn.source_path || "" }),
      path.length ? el("div", { class: "crumbs", text: path.join(" › ") }) : null,
      el("div", { class: "meta" },
        el("span", { class: "badge", text: "[" + source.citation + "]" }),
        el("code", { text: (sn.source_path || "") + (sn.anchor ? "#" + sn.anchor : "") }),
        sn.page ? el("span", { text: "page " + sn.page }) : null,
        el("span", { text: "similarity " + fmtScore(source.score) })),
      el("blockquote", { class: "snippet", text: sn.text || "" }));
    const url = safeHttpUrl(sn.page_url || source.page_url);
    if (url) body.append(el("p", {}, externalLink(url, "Open the page ↗")));
    openDrawer("Source [" + source.citation + "]", body);
  }

  function openImage(item, caption) {
    const src = mediaSrc(item);
    if (!src) return;
    const body = el("figure", { class: "lightbox" },
      el("img", { src: src, alt: item.alt || caption || "" }),
      el("figcaption", { text: caption || "" }));
    openDrawer(item.page_title || "Image", body);
  }

  // ------------------------------------------------------------ media blocks

  function captionOf(block) {
    const item = block.item || {};
    return block.caption || item.display_caption || item.label || item.caption || "";
  }

  function provenance(block, ctx) {
    const item = block.item || {};
    const line = el("div", { class: "provenance" });
    const where = [item.page_title, ...(item.heading_path || []).filter((h) => h !== item.page_title)]
      .filter(Boolean).slice(-2).join(" › ");
    if (where) line.append(el("span", { text: where }));
    for (const n of block.citations || []) line.append(citeButton(n, ctx));
    return line;
  }

  function imageBlock(block, ctx) {
    const item = block.item || {};
    const caption = captionOf(block);
    const src = mediaSrc(item);
    const fig = el("figure", { class: "media media-image", "data-media-id": item.id || "" });
    if (src) {
      const img = el("img", { src: src, alt: item.alt || caption || "Screenshot", loading: "lazy", decoding: "async" });
      img.addEventListener("error", () => {
        fig.classList.add("broken");
        img.replaceWith(el("div", { class: "placeholder", text: "Image could not be loaded" }));
      });
      const button = el("button", { type: "button", class: "zoom", "aria-label": "Enlarge image" }, img);
      button.addEventListener("click", () => openImage(item, caption));
      fig.append(button);
    } else {
      const remote = safeHttpUrl(item.url);
      fig.append(el("div", { class: "placeholder" },
        remote ? externalLink(remote, "Open the image ↗") : "Image not available in this index"));
    }
    fig.append(el("figcaption", {}, el("span", { class: "caption", text: caption }), provenance(block, ctx)));
    return fig;
  }

  function tableBlock(block, ctx) {
    const item = block.item || {};
    const headers = item.headers || [];
    const rows = item.rows || [];
    const table = el("table");
    if (headers.length) {
      const tr = el("tr");
      for (const h of headers) tr.append(el("th", { scope: "col", text: h }));
      table.append(el("thead", {}, tr));
    }
    const tbody = el("tbody");
    for (const row of rows) {
      const tr = el("tr");
      for (const cell of row) tr.append(el("td", { text: cell }));
      tbody.append(tr);
    }
    table.append(tbody);
    return el("figure", { class: "media media-table", "data-media-id": item.id || "" },
      el("div", { class: "table-scroll", tabindex: "0" }, table),
      el("figcaption", {}, el("span", { class: "caption", text: captionOf(block) }), provenance(block, ctx)));
  }

  function hostOf(url) {
    try { return new URL(url).hostname.replace(/^www\./, ""); } catch (_) { return ""; }
  }

  function videoBlock(block, ctx) {
    const item = block.item || {};
    const url = safeHttpUrl(item.url);
    const title = item.title || captionOf(block) || "Video";
    const card = el("figure", { class: "media media-video", "data-media-id": item.id || "" });
    const thumb = el("div", { class: "video-thumb", "aria-hidden": "true" }, el("span", { class: "play" }));
    const info = el("div", { class: "video-info" },
      el("div", { class: "video-title", text: title }),
      url ? el("div", { class: "video-host", text: hostOf(url) }) : el("div", { class: "video-host", text: "link unavailable" }));
    const start = typeof block.start_seconds === "number" ? "#t=" + Math.floor(block.start_seconds) : "";
    if (typeof item.media_url === "string" && item.media_url.startsWith("/v1/media/")) {
      // a local video file of the docs, served by this server: play it inline
      card.append(el("video", { class: "video-player", controls: "", preload: "metadata", src: item.media_url + start }));
    } else {
      const href = url ? url.split("#")[0] + start : url;
      card.append(url
        ? el("a", { class: "video-card", href: href, target: "_blank", rel: "noopener noreferrer nofollow" }, thumb, info)
        : el("div", { class: "video-card disabled" }, thumb, info));
    }
    if (item.transcript) {
      card.append(el("details", { class: "transcript" }, el("summary", { text: "Transcript" }),
        el("p", { text: item.transcript.slice(0, 1500) })));
    }
    card.append(el("figcaption", {}, el("span", { class: "caption", text: captionOf(block) }), provenance(block, ctx)));
    return card;
  }

  function renderBlocks(answer) {
    const ctx = { sources: answer.sources || [] };
    const body = el("div", { class: "answer-body" });
    for (const block of answer.blocks || []) {
      if (block.type === "text") body.append(el("div", { class: "text-block" }, richText(block.text, ctx)));
      else if (block.type === "image") body.append(imageBlock(block, ctx));
      else if (block.type === "table") body.append(tableBlock(block, ctx));
      else if (block.type === "video") body.append(videoBlock(block, ctx));
    }
    return body;
  }

  // The sources the answer cites (its text's [n] and its media blocks'), as the Markdown and
  // MCP answers list them; every retrieved source when it cites none.
  function citedSources(answer) {
    const cited = new Set();
    for (const block of answer.blocks || []) {
      for (const n of block.citations || []) cited.add(n);
      if (block.type === "text") {
        for (const m of String(block.text || "").matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
          for (const n of m[1].split(",")) cited.add(parseInt(n.trim(), 10));
        }
      }
    }
    const all = answer.sources || [];
    return cited.size ? all.filter((s) => cited.has(s.citation)) : all;
  }

  function renderSources(answer) {
    const sources = citedSources(answer);
    if (!sources.length) return null;
    const list = el("ol", { class: "sources" });
    for (const s of sources) {
      const sn = s.snippet || {};
      const btn = el("button", { type: "button", class: "source" },
        el("span", { class: "badge", text: String(s.citation) }),
        el("span", { class: "source-label", text: s.label || sn.page_title || sn.source_path }),
        el("span", { class: "source-path", text: sn.source_path || "" }));
      btn.addEventListener("click", () => openSource(s));
      list.append(el("li", {}, btn));
    }
    return el("section", { class: "sources-wrap", "aria-label": "Sources" }, el("h4", { text: "Sources" }), list);
  }

  // ------------------------------------------------- "how it was built"

  function scoreBar(score) {
    const bar = el("span", { class: "bar" }, el("span", { class: "fill" }));
    const v = Math.max(0, Math.min(1, Number(score) || 0));
    bar.firstChild.style.width = (v * 100).toFixed(0) + "%";
    return el("span", { class: "score" }, bar, el("span", { class: "num", text: fmtScore(score) }));
  }

  function renderTrace(answer) {
    const trace = answer.trace || {};
    const ctx = { sources: answer.sources || [] };
    const panel = el("details", { class: "how" }, el("summary", { text: "How this answer was built" }));

    const retrieved = el("ol", { class: "trace-list" });
    for (const r of trace.retrieved || []) {
      const sn = r.snippet || {};
      const li = el("li", {}, el("div", { class: "row" }, citeButton(r.citation, ctx), scoreBar(r.score),
        el("span", { class: "trace-label", text: [sn.page_title, ...(sn.heading_path || []).slice(1)].filter(Boolean).join(" › ") })),
        el("div", { class: "excerpt", text: (sn.text || "").slice(0, 280) + ((sn.text || "").length > 280 ? "…" : "") }));
      retrieved.append(li);
    }
    panel.append(el("h5", { text: "1 · Retrieved snippets" }), retrieved);

    const attr = el("ol", { class: "trace-list" });
    for (const a of trace.attributions || []) {
      attr.append(el("li", {}, el("div", { class: "row" },
        a.citation ? citeButton(a.citation, ctx) : el("span", { class: "badge muted", text: "–" }),
        scoreBar(a.score),
        el("span", { class: "trace-label", text: a.sentence || "" })),
        a.citation ? null : el("div", { class: "excerpt", text: "below the attribution threshold: no source" })));
    }
    panel.append(el("h5", { text: "2 · Source attribution (sentence → snippet)" }), attr);

    const selected = new Set((trace.media_selected || []).map((m) => m.item && m.item.id));
    const media = el("ol", { class: "trace-list" });
    for (const m of trace.media_candidates || []) {
      const item = m.item || {};
      const src = item.kind === "image" ? mediaSrc(item) : null;
      media.append(el("li", { class: selected.has(item.id) ? "chosen" : "" }, el("div", { class: "row" },
        src ? el("img", { class: "thumb", src: src, alt: "", loading: "lazy" }) : el("span", { class: "kind", text: item.kind || "?" }),
        scoreBar(m.score),
        el("span", { class: "trace-label", text: item.label || item.caption || item.id || "" }),
        el("span", { class: "pill", text: selected.has(item.id) ? "selected" : "not used" })),
        el("div", { class: "excerpt", text: "after sentence " + (Number(m.sentence_index) + 1) + " · strategy " + (m.strategy || "section") })));
    }
    if (!(trace.media_candidates || []).length) media.append(el("li", { class: "excerpt", text: "No media candidate." }));
    panel.append(el("h5", { text: "3 · Media retrieval (same section, cosine score)" }), media);

    const ref = trace.refinement || {};
    const labels = { llm: "rewritten by the model around the media", fallback: "code-placed draft kept", none: "no media to place" };
    panel.append(el("h5", { text: "4 · Answer refinement" }),
      el("p", { class: "excerpt", text: (labels[ref.used] || ref.used || "") + (ref.reason ? " — " + ref.reason : "") }));

    const timings = Object.entries(trace.timings_ms || {});
    if (timings.length) {
      const dl = el("dl", { class: "timings" });
      let total = 0;
      for (const [k, v] of timings) {
        dl.append(el("dt", { text: k }), el("dd", { text: Math.round(v) + " ms" }));
        if (k !== "total") total += Number(v) || 0;
      }
      if (!timings.some(([k]) => k === "total")) dl.append(el("dt", { text: "total" }), el("dd", { text: Math.round(total) + " ms" }));
      panel.append(el("h5", { text: "Timings" }), dl);
    }
    const models = Object.entries(trace.models || {});
    if (models.length) panel.append(el("p", { class: "excerpt", text: "Models: " + models.map(([k, v]) => k + " " + v).join(" · ") }));
    return panel;
  }

  // ------------------------------------------------------ copy & feedback

  async function copyText(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (_) { /* fall through */ }
    const area = el("textarea", { class: "sr-only", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
    area.remove();
    return ok;
  }

  function renderActions(answer) {
    const bar = el("div", { class: "actions" });
    const copy = el("button", { type: "button", class: "ghost", title: "Copy the answer as Markdown" }, icon("copy"), "Copy");
    copy.addEventListener("click", async () => {
      toast((await copyText(answer.markdown || answer.text || "")) ? "Answer copied as Markdown" : "Copy failed");
    });
    const up = el("button", { type: "button", class: "ghost vote", "aria-label": "Helpful", title: "Helpful", "aria-pressed": "false" }, icon("up"));
    const down = el("button", { type: "button", class: "ghost vote", "aria-label": "Not helpful", title: "Not helpful", "aria-pressed": "false" }, icon("up", true));
    const note = el("span", { class: "feedback-note", "aria-live": "polite" });
    const comment = el("form", { class: "comment", hidden: true },
      el("input", { type: "text", name: "comment", maxlength: "2000", placeholder: "What was wrong or missing? (optional)", "aria-label": "Feedback comment" }),
      el("button", { type: "submit", class: "ghost" }, "Send"));

    async function send(rating, text) {
      try {
        const r = await fetch("/v1/feedback", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ answer_id: answer.id, rating: rating, comment: text || "",
            question: answer.question || "", answer_text: (answer.text || "").slice(0, 20000) }),
        });
        note.textContent = r.ok ? "Thanks for the feedback" : "Feedback not saved (" + r.status + ")";
      } catch (_) {
        note.textContent = "Feedback not saved (offline)";
      }
    }
    function vote(rating) {
      up.setAttribute("aria-pressed", String(rating === "up"));
      down.setAttribute("aria-pressed", String(rating === "down"));
      send(rating, "");
      comment.hidden = rating !== "down";
      if (!comment.hidden) comment.elements.comment.focus();
    }
    up.addEventListener("click", () => vote("up"));
    down.addEventListener("click", () => vote("down"));
    comment.addEventListener("submit", (ev) => {
      ev.preventDefault();
      send("down", comment.elements.comment.value);
      comment.hidden = true;
    });
    bar.append(copy, up, down, note);
    return el("div", {}, bar, comment);
  }

  // ------------------------------------------------------------ streaming

  function stepper() {
    const list = el("ol", { class: "stepper", "aria-label": "Progress" });
    const steps = {};
    for (const [name, label] of STAGES) {
      steps[name] = el("li", { "data-stage": name }, el("span", { class: "dot" }), label);
      list.append(steps[name]);
    }
    return {
      node: list,
      set(name) {
        let seen = false;
        for (const [n] of STAGES) {
          const li = steps[n];
          if (n === name) { li.className = "active"; seen = true; }
          else li.className = seen ? "" : "done";
        }
      },
      finish() { for (const [n] of STAGES) steps[n].className = "done"; },
    };
  }

  // Parses a text/event-stream body; calls onEvent(name, data) per event.
  async function readSSE(response, onEvent) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const data = [];
        for (const line of frame.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (!data.length) continue;
        let parsed;
        try { parsed = JSON.parse(data.join("\n")); } catch (_) { continue; }
        onEvent(name, parsed);
      }
    }
  }

  function setBusy(controller) {
    busy = controller;
    sendBtn.textContent = controller ? "Stop" : "Ask";
    sendBtn.classList.toggle("stop", !!controller);
    form.classList.toggle("busy", !!controller);
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function ask(question) {
    $("empty").hidden = true;
    const turn = el("article", { class: "turn" });
    turn.append(el("div", { class: "user-msg" }, el("div", { class: "bubble", text: question })));
    const card = el("div", { class: "assistant", "aria-busy": "true" });
    const steps = stepper();
    const status = el("div", { class: "status", role: "status" });
    const draft = el("div", { class: "draft streaming" });
    card.append(steps.node, status, draft);
    turn.append(card);
    thread.append(turn);
    turn.scrollIntoView({ behavior: "smooth", block: "start" });

    const controller = new AbortController();
    setBusy(controller);
    // streamed text goes into the current segment; a media event (an image,
    // table or video placed after the sentence just written) closes it and the
    // text that follows starts a new segment below the media
    let segment = null;
    let segmentText = "";
    let finished = false;
    const streamCtx = { sources: [] };

    function appendText(text) {
      if (!segment) {
        if (!text.trim()) return;
        segment = el("div", { class: "text-block" });
        segmentText = "";
        draft.append(segment);
        text = text.replace(/^\s+/, "");
      }
      segmentText += text;
      segment.textContent = segmentText;
    }

    function appendMedia(block) {
      let node = null;
      if (block.type === "image") node = imageBlock(block, streamCtx);
      else if (block.type === "table") node = tableBlock(block, streamCtx);
      else if (block.type === "video") node = videoBlock(block, streamCtx);
      if (node) draft.append(node);
      segment = null;
    }

    function showError(message) {
      finished = true;
      card.setAttribute("aria-busy", "false");
      draft.remove();
      status.replaceChildren(el("div", { class: "error-card", text: message }));
    }

    try {
      for (let attempt = 0; ; attempt++) {
        const response = await fetch("/v1/answer/stream", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
          body: JSON.stringify({ question: question }),
          signal: controller.signal,
        });
        if (response.status === 503 && attempt < MAX_RETRIES) {
          const wait = Math.min(60, parseInt(response.headers.get("Retry-After") || "5", 10) || 5);
          for (let s = wait; s > 0; s--) {
            status.textContent = "The assistant is busy; retrying in " + s + " s…";
            await sleep(1000);
            if (controller.signal.aborted) throw new DOMException("aborted", "AbortError");
          }
          continue;
        }
        if (!response.ok) {
          let detail = response.status + " " + response.statusText;
          try { const j = await response.json(); if (j && j.detail) detail = typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail); } catch (_) { /* keep status */ }
          showError("Could not answer: " + detail);
          return;
        }
        status.textContent = "";
        await readSSE(response, (name, data) => {
          if (name === "stage") { steps.set(data.name); }
          else if (name === "token") {
            appendText(data.text || "");
            scrollToEnd();
          } else if (name === "media") {
            if (data.block) appendMedia(data.block);
            scrollToEnd();
          } else if (name === "answer") {
            finished = true;
            steps.finish();
            card.setAttribute("aria-busy", "false");
            card.replaceChildren();
            card.dataset.answerId = data.id || "";
            if (data.found === false) card.classList.add("not-found");
            card.append(renderBlocks(data));
            const sources = renderSources(data);
            if (sources) card.append(sources);
            card.append(renderActions(data), renderTrace(data));
            scrollToEnd();
          } else if (name === "error") {
            showError("Could not answer: " + (data.message || "unknown error"));
          }
        });
        if (!finished) showError("The connection closed before the answer was complete.");
        return;
      }
    } catch (err) {
      if (err && err.name === "AbortError") showError("Stopped.");
      else showError("Network error: " + (err && err.message ? err.message : String(err)));
    } finally {
      setBusy(null);
    }
  }

  // ------------------------------------------------------------ page setup

  function autosize() {
    input.style.height = "auto";
    input.style.height = Math.min(input.scrollHeight, 180) + "px";
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (busy) { busy.abort(); return; }
    const q = input.value.trim();
    if (!q) return;
    input.value = "";
    autosize();
    ask(q);
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
  input.addEventListener("input", autosize);
  $("drawer-close").addEventListener("click", closeDrawer);
  $("scrim").addEventListener("click", closeDrawer);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !$("drawer").hidden) closeDrawer(); });
  $("new-chat").addEventListener("click", () => {
    if (busy) busy.abort();
    for (const node of [...thread.children]) if (node.id !== "empty") node.remove();
    $("empty").hidden = false;
    input.focus();
  });

  async function loadInfo() {
    try {
      const info = await (await fetch("/v1/info")).json();
      if (info.title) { $("app-title").textContent = info.title; document.title = info.title; }
      if (info.max_question_chars) input.maxLength = info.max_question_chars;
      const box = $("examples");
      for (const q of info.examples || []) {
        const chip = el("button", { type: "button", class: "chip", text: q });
        chip.addEventListener("click", () => { if (!busy) ask(q); });
        box.append(chip);
      }
    } catch (_) { /* the page works without it */ }
    try {
      const stats = (await (await fetch("/v1/stats")).json()).index || {};
      const n = (x, word) => Number(x || 0).toLocaleString() + " " + word + (Number(x) === 1 ? "" : "s");
      $("index-stats").textContent = [n(stats.pages, "page"), n(stats.images, "image"),
        n(stats.tables, "table"), n(stats.videos, "video")].join(" · ");
    } catch (_) { /* optional */ }
  }

  loadInfo();
  input.focus();
})();
