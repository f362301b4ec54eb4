// bloomviz's notebook widget: an anywidget ES module, no build step and no dependencies.
// Python holds the model; this draws the synced traits (cells, lit, verdict, rate_line, plot ...) and sends
// {op: "insert" | "lookup" | "configure" | "cell"} messages back. Every sentence shown comes from Python (the
// window's words: bloomviz.explain); only the controls' names are written here.

function h(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...kids);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

function drawPlot(svg, rows) {
  svg.replaceChildren();
  if (rows.length < 2) return;
  const w = 320, hgt = 120, nMax = rows[rows.length - 1][0] || 1;
  const top = Math.max(1e-9, ...rows.map((r) => Math.max(r[1], r[2])));
  const line = (col, cls) => {
    const p = document.createElementNS(SVG, "polyline");
    p.setAttribute("class", cls);
    p.setAttribute("points", rows.map((r) => `${(r[0] / nMax) * w},${hgt - (r[col] / top) * hgt}`).join(" "));
    svg.append(p);
  };
  line(2, "bv-exact");
  line(1, "bv-measured");
}

function render({ model, el }) {
  const item = h("input", { type: "text", class: "bv-item", "aria-label": "item", placeholder: "an item, e.g. ana@acme.com" });
  const insert = h("button", { type: "button", class: "bv-insert" }, "Insert");
  const lookup = h("button", { type: "button", class: "bv-lookup" }, "Look up");
  const m = h("input", { type: "number", class: "bv-m", min: "1", "aria-label": "m, bits" });
  const k = h("input", { type: "number", class: "bv-k", min: "1", "aria-label": "k, positions" });
  const configure = h("button", { type: "button", class: "bv-configure" }, "New filter");
  const fill = h("div", { class: "bv-fill" });
  const grid = h("div", { class: "bv-grid", role: "img" });
  const cellText = h("div", { class: "bv-cell-text" });
  const verdict = h("div", { class: "bv-verdict", role: "status", "aria-live": "polite" });
  const culprits = h("ul", { class: "bv-culprits" });
  const rate = h("div", { class: "bv-rate" });
  const plot = document.createElementNS(SVG, "svg");
  plot.setAttribute("class", "bv-plot");
  plot.setAttribute("viewBox", "0 0 320 120");
  const plotLine = h("div", { class: "bv-plot-line" });
  const error = h("div", { class: "bv-error", role: "alert" });
  el.classList.add("bv");
  el.append(h("div", { class: "bv-row" }, item, insert, lookup, h("span", { class: "bv-gap" }),
              "m ", m, " k ", k, configure), fill, grid, cellText, verdict, culprits, rate, plot, plotLine, error);

  const send = (op) => model.send({ op, item: item.value });
  insert.addEventListener("click", () => send("insert"));
  lookup.addEventListener("click", () => send("lookup"));
  item.addEventListener("keydown", (e) => { if (e.key === "Enter") send(e.shiftKey ? "lookup" : "insert"); });
  configure.addEventListener("click", () => model.send({ op: "configure", m: m.value, k: k.value }));
  let pointed = -1;   // ask Python for a cell's words once per cell entered, not per mouse move
  grid.addEventListener("mouseover", (e) => {
    const i = Number(e.target.dataset && e.target.dataset.i);
    if (Number.isInteger(i) && i !== pointed && model.get("bits_per_cell") === 1) {
      pointed = i;
      model.send({ op: "cell", bit: i });
    }
  });
  grid.addEventListener("mouseleave", () => { pointed = -1; });

  function drawCells() {
    const values = model.get("cells"), binned = model.get("bits_per_cell") > 1;
    grid.style.gridTemplateColumns = `repeat(${model.get("cols")}, 1fr)`;
    grid.style.maxWidth = `${model.get("cols") * 28}px`;   // a small filter's cells stay cell-sized
    grid.setAttribute("aria-label", model.get("fill_line"));
    while (grid.children.length > values.length) grid.lastChild.remove();
    while (grid.children.length < values.length) grid.append(h("div", { class: "bv-cell", "data-i": grid.children.length }));
    values.forEach((v, i) => {
      const cell = grid.children[i];
      cell.classList.toggle("on", v > 0);
      cell.style.setProperty("--f", binned ? v / 100 : v > 0 ? 1 : 0);
      cell.title = binned ? `bits ${i * model.get("bits_per_cell")}…: ${v} % set` : `bit ${i}: ${v}`;
    });
    drawLit();
  }

  function drawLit() {
    for (const cell of grid.querySelectorAll(".lit")) cell.className = cell.className.replace(/\s*(lit|k-\w+)/g, "");
    for (const [i, kind, words] of model.get("lit")) {
      const cell = grid.children[i];
      if (!cell) continue;
      cell.classList.add("lit", `k-${kind}`);
      cell.title = `bit ${i}: ${words}`;
    }
  }

  function drawVerdict() {
    const v = model.get("verdict");
    verdict.className = "bv-verdict" + (v ? " v-" + v.replace(/ /g, "-") : "");
    verdict.replaceChildren();
    if (v) verdict.append(h("b", {}, model.get("headline")), " — ");
    verdict.append(model.get("verdict_text"));
    culprits.replaceChildren(...model.get("culprits").map((c) =>
      h("li", {}, `bit ${c.bit}: ` + (c.items.map((x) => `“${x}”`).join(", ") || "no recorded item")
        + (c.total > c.items.length ? ` and ${c.total - c.items.length} more` : ""))));
  }

  function drawNumbers() {
    fill.textContent = model.get("fill_line");
    rate.textContent = model.get("rate_line");
    if (document.activeElement !== m) m.value = model.get("m");
    if (document.activeElement !== k) k.value = model.get("k");
    drawPlot(plot, model.get("plot"));
    plotLine.textContent = model.get("plot_line");
    plot.setAttribute("aria-label", model.get("plot_line"));
  }

  const showError = () => { error.textContent = model.get("error"); };
  const showCell = () => { cellText.textContent = model.get("cell_text"); };
  const handlers = [["cells", drawCells], ["cols", drawCells], ["lit", drawLit], ["verdict", drawVerdict],
                    ["headline", drawVerdict], ["verdict_text", drawVerdict], ["culprits", drawVerdict], ["fill_line", drawNumbers],
                    ["rate_line", drawNumbers], ["plot", drawNumbers], ["plot_line", drawNumbers], ["error", showError],
                    ["cell_text", showCell]];
  for (const [name, fn] of handlers) model.on(`change:${name}`, fn);
  drawCells(); drawVerdict(); drawNumbers(); showError(); showCell();
  return () => { for (const [name, fn] of handlers) model.off(`change:${name}`, fn); };
}

export default { render };
