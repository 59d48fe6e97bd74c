/// The review page's style sheet and script, served by Larder itself (`/assets/…`): no CDN, nothing inline (the
/// content security policy allows only these).
enum Assets {
    static let css = #"""
        :root { --ink: #1d232b; --muted: #5b6673; --line: #d5dbe2; --bg: #f6f7f9; --accent: #1f6feb; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
        header { padding: 12px 20px; background: #fff; border-bottom: 1px solid var(--line); }
        header h1 { margin: 4px 0; font-size: 20px; }
        header p, .muted { color: var(--muted); margin: 2px 0; }
        nav a { margin-right: 14px; }
        main { padding: 16px 20px; }
        .split { display: grid; grid-template-columns: minmax(320px, 1.1fr) minmax(340px, 1fr); gap: 20px; align-items: start; }
        section.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin-bottom: 16px; }
        section.panel h2 { font-size: 16px; margin: 0 0 8px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        tr.current { background: #e8f0fe; outline: 2px solid var(--accent); }
        tr.row:hover { background: #f0f4fa; }
        ul.reasons { margin: 0; padding-left: 18px; }
        code, pre { font: 13px/1.4 ui-monospace, monospace; }
        pre { white-space: pre-wrap; word-break: break-word; background: var(--bg); padding: 8px; border-radius: 4px; max-height: 420px; overflow: auto; }
        .frame { position: relative; display: inline-block; max-width: 100%; }
        .frame img { display: block; max-width: 100%; height: auto; }
        .frame svg.overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
        svg.page { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); }
        svg .box { fill: transparent; stroke-width: 3; cursor: pointer; vector-effect: non-scaling-stroke; }
        svg .box.lit, svg .pline.lit { fill: rgba(255, 214, 0, 0.35); stroke-width: 4; }
        svg .pline { fill: transparent; stroke: none; }
        svg .pline.used { fill: rgba(31, 111, 235, 0.12); }
        svg.overlay .pline.used { fill: rgba(31, 111, 235, 0.18); stroke: rgba(31, 111, 235, 0.6); stroke-width: 1; vector-effect: non-scaling-stroke; }
        .frame img.pdfpage { border: 1px solid var(--line); }
        svg text { font: 11px ui-monospace, monospace; fill: #333; }
        .role-item { stroke: #1f6feb; } .role-price, .role-itemDetail { stroke: #8250df; } .role-total { stroke: #cf222e; }
        .role-subtotal, .role-tax { stroke: #bf3989; } .role-date { stroke: #1a7f37; } .role-store, .role-address { stroke: #bc4c00; }
        .role-discount { stroke: #9a6700; } .role-ignored, .role-header, .role-tender, .role-change { stroke: #8c959f; }
        .legend span { display: inline-block; margin-right: 12px; padding-left: 20px; position: relative; color: var(--muted); }
        .legend span::before { content: ""; position: absolute; left: 0; top: 4px; width: 10px; height: 10px; border: 3px solid; border-color: inherit; }
        .legend .role-item { border-color: #1f6feb; } .legend .role-total { border-color: #cf222e; } .legend .role-date { border-color: #1a7f37; }
        .legend .role-store { border-color: #bc4c00; } .legend .role-price { border-color: #8250df; } .legend .role-subtotal { border-color: #bf3989; }
        .field { display: grid; grid-template-columns: 9em 1fr; gap: 6px; align-items: center; padding: 3px 4px; border-radius: 4px; }
        .field.lit { background: #fff4c2; }
        .field label { color: var(--muted); font-size: 13px; }
        .field input { font: inherit; padding: 4px 6px; border: 1px solid var(--line); border-radius: 4px; width: 100%; }
        .actions { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 10px; }
        button { font: inherit; padding: 6px 12px; border-radius: 5px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
        button.primary { background: #1a7f37; color: #fff; border-color: #1a7f37; }
        button.danger { background: #fff; color: #cf222e; border-color: #cf222e; }
        .diff li { font: 13px ui-monospace, monospace; list-style: none; }
        .diff .add { color: #1a7f37; } .diff .remove { color: #cf222e; } .diff .replace { color: #9a6700; }
        .lines li.used { background: #e8f0fe; }
        .notice { padding: 8px 12px; border-radius: 5px; background: #fff8c5; border: 1px solid #d4a72c; margin-bottom: 12px; }
        .error { background: #ffebe9; border-color: #cf222e; }
        kbd { border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 3px; padding: 0 4px; font-size: 12px; }
        @media (max-width: 900px) { .split { grid-template-columns: 1fr; } }
        """#

    static let javascript = #"""
        // Larder review page: keyboard shortcuts and the links between the source's boxes and the fields. The page
        // works without it (every action is a plain form).
        (function () {
          "use strict";
          const page = document.body.dataset.page;
          function typing(event) {
            const t = event.target;
            return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
          }
          function rows() { return Array.from(document.querySelectorAll("tr.row")); }
          let current = 0;
          function mark(index) {
            const all = rows();
            if (all.length === 0) { return; }
            current = Math.max(0, Math.min(all.length - 1, index));
            all.forEach(function (row, i) { row.classList.toggle("current", i === current); });
            all[current].scrollIntoView({ block: "nearest" });
          }
          if (page === "queue") { mark(0); }
          rows().forEach(function (row, i) {
            row.addEventListener("click", function (event) {
              if (event.target.tagName !== "A") { window.location = row.dataset.href; }
              mark(i);
            });
          });
          function light(lines, on) {
            lines.forEach(function (line) {
              document.querySelectorAll('[data-line="' + line + '"]').forEach(function (el) { el.classList.toggle("lit", on); });
            });
          }
          function fieldsFor(line) {
            return Array.from(document.querySelectorAll(".field[data-lines]")).filter(function (f) {
              return f.dataset.lines.split(" ").indexOf(String(line)) >= 0;
            });
          }
          document.querySelectorAll("[data-line]").forEach(function (box) {
            box.addEventListener("click", function () {
              document.querySelectorAll(".lit").forEach(function (el) { el.classList.remove("lit"); });
              const fields = fieldsFor(box.dataset.line);
              box.classList.add("lit");
              fields.forEach(function (f) { f.classList.add("lit"); });
              if (fields.length > 0) {
                fields[0].scrollIntoView({ block: "nearest" });
                const input = fields[0].querySelector("input");
                if (input) { input.focus(); }
              }
            });
          });
          document.querySelectorAll(".field[data-lines]").forEach(function (field) {
            const lines = field.dataset.lines.split(" ").filter(Boolean);
            field.addEventListener("focusin", function () { light(lines, true); field.classList.add("lit"); });
            field.addEventListener("focusout", function () { light(lines, false); field.classList.remove("lit"); });
            field.addEventListener("mouseenter", function () { light(lines, true); });
            field.addEventListener("mouseleave", function () { light(lines, false); });
          });
          document.addEventListener("keydown", function (event) {
            if (event.ctrlKey || event.metaKey || event.altKey) { return; }
            if (typing(event)) {
              if (event.key === "Escape") { event.target.blur(); }
              return;
            }
            const links = document.body.dataset;
            if (event.key === "j") {
              if (page === "queue") { mark(current + 1); } else if (links.next) { window.location = links.next; }
            } else if (event.key === "k") {
              if (page === "queue") { mark(current - 1); } else if (links.previous) { window.location = links.previous; }
            } else if (event.key === "Enter" && page === "queue") {
              const row = rows()[current];
              if (row) { window.location = row.dataset.href; }
            } else if (event.key === "a") {
              const accept = document.getElementById("accept");
              if (accept) { accept.click(); }
            } else if (event.key === "r") {
              const reason = document.getElementById("reason");
              if (reason) { reason.focus(); event.preventDefault(); }
            } else if (event.key === "e") {
              const first = document.querySelector(".field input");
              if (first) { first.focus(); first.select(); event.preventDefault(); }
            } else if (event.key === "u" && page === "document") {
              window.location = "/review";
            }
          });
        })();
        """#
}
