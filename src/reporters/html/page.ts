/**
 * The shell shared by `report.html` and `index.html`: one self-contained document, inline CSS,
 * no script, and a content security policy that forbids every network fetch.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping them is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/** Escapes text for element content and double-quoted attributes; NUL and other C0 controls but tab and newline are dropped. */
export function esc(value: string | number | boolean | null): string {
  return String(value)
    .replace(CONTROLS, "")
    .replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

const CSS = `
:root{--ink:#1d2330;--muted:#5c6577;--line:#dde1e8;--bg:#f6f7f9;--card:#fff;--pass:#1f7a3d;--pass-bg:#e3f4e8;
--rec:#1659a8;--rec-bg:#e2ecfa;--fail:#b42318;--fail-bg:#fde8e6;--warn:#b45309;--chaos:#c2410c}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
header.top{background:#14181f;color:#e8ebf0;padding:10px 28px;font-size:13px;letter-spacing:.02em}
header.top b{color:#fff}
main{max-width:1240px;margin:0 auto;padding:22px 28px 40px}
h1{font-size:24px;margin:0 0 6px;word-break:break-word}
h2{font-size:16px;margin:0 0 10px}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 18px;margin:16px 0}
.verdict-row{display:flex;align-items:center;gap:14px;flex-wrap:wrap;margin:8px 0 4px}
.badge{display:inline-block;border-radius:6px;padding:3px 10px;font-weight:700;font-size:13px;letter-spacing:.04em}
.verdict{font-size:20px;padding:6px 16px}
.PASSED{background:var(--pass-bg);color:var(--pass)}
.RECOVERED{background:var(--rec-bg);color:var(--rec)}
.FAILED{background:var(--fail-bg);color:var(--fail)}
.INTERRUPTED{background:#fff4e5;color:var(--warn)}
.reason{font:600 14px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted)}
.muted{color:var(--muted)}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
dl.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:10px 18px;margin:0}
dl.facts div{border-left:3px solid var(--line);padding-left:10px}
dl.facts dt{color:var(--muted);font-size:12px}
dl.facts dd{margin:0;font-weight:600;word-break:break-word}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;background:#fafbfc}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
ul.diagnostics{margin:0;padding-left:20px}
ul.diagnostics li{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;margin:2px 0;word-break:break-word}
.timeline-wrap{overflow-x:auto}
svg.timeline{width:100%;min-width:760px;height:auto;display:block}
svg .lane-bg{fill:#f8f9fb}
svg .lane-bg.alt{fill:#f1f3f6}
svg .lane-label{font:600 12px system-ui,sans-serif;fill:var(--ink)}
svg .lane-sub{font:11px system-ui,sans-serif;fill:var(--muted)}
svg .axis line{stroke:#d5d9e0}
svg .axis text{font:10.5px system-ui,sans-serif;fill:var(--muted)}
svg .op{rx:2}
svg .op-succeeded{fill:#3f9d5d}
svg .op-failed{fill:#d64533}
svg .op-open{fill:#9aa3b2}
svg .op.injected{stroke:#7c2d12;stroke-width:1.2}
svg .marker{fill:var(--chaos)}
svg .fault-label{font:600 10px ui-monospace,Menlo,monospace;fill:var(--chaos)}
svg .retry-link{fill:none;stroke:#6b4fbb;stroke-width:1.3;stroke-dasharray:3 2}
svg .recovery-label{font:600 10px system-ui,sans-serif;fill:var(--rec)}
svg .bin-ok{fill:#3f9d5d}
svg .bin-failed{fill:#d64533}
.legend{display:flex;gap:16px;flex-wrap:wrap;font-size:12px;color:var(--muted);margin-top:8px}
.legend span::before{content:"";display:inline-block;width:12px;height:10px;margin-right:5px;vertical-align:-1px;border-radius:2px;background:var(--c)}
pre.log{margin:8px 0 0;padding:10px 12px;background:#14181f;color:#e8ebf0;border-radius:6px;overflow-x:auto;font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre}
ul.logs{margin:8px 0 0;padding-left:20px}
.table-wrap{overflow-x:auto;max-height:560px;overflow-y:auto}
.fail-text{color:var(--fail)}
tr:target td{background:#fff7d6}
.note{font-size:12.5px;color:var(--muted);margin:6px 0 0}
a{color:var(--rec)}
footer{color:var(--muted);font-size:12px;margin-top:20px}
`;

/** A complete HTML document around `body`. */
export function page(title: string, subtitle: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="top"><b>Agent Chaos</b> · ${esc(subtitle)}</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** `1434` → `1.43 s`, `52` → `52 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** The wall time between two timestamps, or `—` when either is unreadable. */
export function wallTime(startedAt: string, finishedAt: string): string {
  const wall = Date.parse(finishedAt) - Date.parse(startedAt);
  return Number.isFinite(wall) ? formatMs(wall) : "—";
}

/** The facts grid of a page's summary section. */
export function factsList(facts: readonly (readonly [string, string])[]): string {
  return `<dl class="facts">${facts.map(([label, value]) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`).join("")}</dl>`;
}

/** The big verdict badge and the line beside it (`reason`, already escaped). */
export function verdictRow(verdict: string, reason: string, reasonId = ""): string {
  const id = reasonId === "" ? "" : ` id="${reasonId}"`;
  return `<div class="verdict-row"><span id="verdict" class="badge verdict ${esc(verdict)}">${esc(verdict)}</span><span${id} class="reason">${reason}</span></div>`;
}

/** Lines as list items, escaped. */
export function listItems(lines: readonly string[]): string {
  return lines.map((line) => `<li>${esc(line)}</li>`).join("");
}
