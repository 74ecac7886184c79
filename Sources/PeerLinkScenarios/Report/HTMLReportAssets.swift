/// The report page's style and the error trap: dark, like the apps' screens.
enum HTMLReportAssets {
    /// Counts script errors on the page (`data-script-errors` on `<html>`), so a test in a
    /// browser can tell a page that failed from one that loaded.
    static let errorTrap = #"""
        window.addEventListener('error', function (e) {
          var n = +(document.documentElement.getAttribute('data-script-errors') || 0) + 1;
          document.documentElement.setAttribute('data-script-errors', String(n));
          document.documentElement.setAttribute('data-last-error', String(e.message));
        });
        """#

    /// The page's style sheet.
    static let css = #"""
        :root { color-scheme: dark; --bg: #0b0b0d; --panel: #16161a; --line: #2c2c30; --text: #e8e8ea; --dim: #8e8e93; --green: #30d158; --red: #ff453a; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font: 13px/1.4 -apple-system, 'Noto Sans', 'Noto Sans CJK JP', sans-serif; }
        header { padding: 12px 20px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 18px; margin: 0 0 4px; }
        h2 { font-size: 16px; margin: 0 0 6px; }
        h2 small, .facts, .digests, .note { color: var(--dim); font-weight: 400; }
        h3 { font-size: 14px; margin: 12px 0 6px; }
        code { color: var(--text); }
        nav a { margin-right: 10px; color: var(--dim); }
        nav a.fail, .fail .badge, b.bad, .error { color: var(--red); }
        .pass .badge, b.ok { color: var(--green); }
        .summary { margin: 0; }
        section.scenario { padding: 14px 20px; border-bottom: 1px solid var(--line); }
        .cols { display: flex; gap: 16px; align-items: flex-start; }
        .diagram { flex: 0 0 auto; width: 920px; max-width: 60vw; }
        .toolbar { margin-bottom: 6px; }
        .toolbar button { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 5px; margin-right: 3px; padding: 2px 8px; cursor: pointer; }
        .toolbar button.on { border-color: var(--green); color: var(--green); }
        .legend i { font-style: normal; margin-left: 10px; padding-left: 14px; position: relative; }
        .legend i::before { content: ''; position: absolute; left: 0; top: 7px; width: 10px; height: 3px; background: currentColor; }
        .scroller { height: 78vh; overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
        svg[data-view="timeline"] { display: block; cursor: crosshair; }
        svg[data-view="timeline"] .bg { fill: var(--panel); }
        .lane { stroke: #48484a; stroke-width: 2; }
        .lane-name { fill: var(--text); font-size: 13px; font-weight: 600; text-anchor: middle; }
        .tick { fill: var(--dim); font-size: 10px; font-family: ui-monospace, monospace; }
        .tick-line { stroke: #48484a; }
        .fr line { stroke-width: 1.3; }
        .labels text { font-size: 10.5px; fill: #c7c7cc; pointer-events: none; }
        .fr:hover line { stroke-width: 3; }
        .delivered, .fr.delivered line { stroke: #64d2ff; color: #64d2ff; }
        .ah.delivered { fill: #64d2ff; }
        .dropped, .fr.dropped line, .fr .x { stroke: var(--red); color: var(--red); }
        .ah.dropped { fill: var(--red); }
        .duplicated, .fr.duplicated line { stroke: #ffd60a; color: #ffd60a; }
        .ah.duplicated { fill: #ffd60a; }
        .fr .dup { stroke-dasharray: 3 2; }
        .reordered, .fr.reordered line { stroke: #bf5af2; color: #bf5af2; }
        .ah.reordered { fill: #bf5af2; }
        .tampered, .fr.tampered line { stroke: #ff375f; color: #ff375f; }
        .ah.tampered { fill: #ff375f; }
        .retry { color: #ff9f0a; }
        .fr.retry line { stroke: #ff9f0a; stroke-dasharray: 5 3; }
        .fault-key { color: #ff453a88; }
        .fault rect { fill: #ff453a22; stroke: #ff453a55; }
        .fault text { fill: #ff8a80; font-size: 10.5px; font-style: italic; }
        .mk path { stroke-width: 2.4; fill: none; stroke: #ff9f0a; }
        .mk.kill path { stroke: var(--red); }
        .mk.restart path { stroke: var(--green); }
        .mk.clock path { stroke: #0a84ff; }
        .mk.reset path { stroke: #ff9f0a; stroke-dasharray: 4 3; }
        .mk text { fill: #ffd8a8; font-size: 11px; }
        .ck circle { stroke-width: 2; }
        .ck.pass circle { fill: #30d15855; stroke: var(--green); }
        .ck.fail circle { fill: #ff453a88; stroke: var(--red); }
        .ck text { font-size: 10.5px; fill: var(--text); }
        .ck.fail text { fill: #ff8a80; }
        .moment { fill: var(--dim); cursor: pointer; }
        .moment.on { fill: var(--green); }
        .cursor { stroke: var(--green); stroke-width: 1; stroke-dasharray: 2 3; pointer-events: none; }
        .side { flex: 1 1 auto; min-width: 420px; }
        .picker select { background: var(--panel); color: var(--text); border: 1px solid var(--line); max-width: 420px; }
        .moment-when { color: var(--green); }
        .details { margin: 8px 0; padding: 8px; min-height: 64px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
        .screens { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
        figure { margin: 0; }
        figcaption { color: var(--dim); font-size: 11px; margin-bottom: 2px; }
        figure.phone .shot svg { width: 195px; height: auto; }
        figure[data-screen^="phone/widget"] .shot svg { width: auto; height: 85px; }
        figure.watch .shot svg { width: 150px; height: auto; }
        figure[data-screen="watch/complication"] .shot svg { width: 80px; height: 80px; }
        .shot { background: #000; border-radius: 10px; }
        .down { color: var(--red); padding: 20px 10px; margin: 0; width: 150px; }
        .lists { display: flex; gap: 20px; flex-wrap: wrap; }
        .lists > div { flex: 1 1 600px; min-width: 0; }
        input[type=search] { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 4px; padding: 2px 6px; }
        table { border-collapse: collapse; width: 100%; margin-top: 6px; }
        td { border-top: 1px solid var(--line); padding: 3px 6px; vertical-align: top; }
        tr.fail td { color: #ff8a80; }
        tr[data-at]:not([data-at="-1"]) { cursor: pointer; }
        .log-lines { max-height: 360px; overflow: auto; margin-top: 6px; font-family: ui-monospace, monospace; font-size: 11.5px; }
        .log span { color: var(--dim); }
        .log.problem { color: #ffb340; }
        .sweep table { width: auto; }
        .sweep th { padding: 3px 6px; text-align: left; }
        .sweep pre { background: var(--panel); padding: 8px; border-radius: 6px; white-space: pre-wrap; }
        """#
}
