extension HTMLReportAssets {
    /// The page's script: reads the data block, lays out and draws each scenario's space-time
    /// diagram (time down, a lane per device, one `data-frame` element per frame at every zoom
    /// level), shows a frame's details on hover or click, shows the screens of the moment at or
    /// before a picked point, and filters the checks and the logs. `#pick=SCENARIO,MS` and
    /// `#zoom=N` in the address choose the first moment and zoom. When it is done it sets
    /// `data-ready` and `data-frames-drawn` on `<html>`.
    static let script = scriptLayoutAndDrawing + "\n" + scriptSectionsAndPage

    /// The first half of `script`: time formatting, the diagram's layout and its drawing.
    static let scriptLayoutAndDrawing = #"""
        (function () {
          'use strict';
          var R = JSON.parse(document.getElementById('report-data').textContent);
          var FATES = ['delivered', 'dropped', 'duplicated', 'reordered', 'tampered'];
          // Zoom levels: row height per event and the most a quiet stretch adds. Below 1/2 the labels
          // go and dense stretches fold into bands; every frame keeps its element at every level.
          var ZOOMS = [
            { name: '1×', row: 18, gap: 48, labels: true },
            { name: '½', row: 9, gap: 24, labels: true },
            { name: '¼', row: 3, gap: 10, labels: false },
            { name: 'fold', row: 0.6, gap: 4, labels: false }
          ];
          var W = 900, AXIS = 150, PX = 250, WX = 590, CX = 610, TOP = 48;

          function esc(s) {
            return String(s).replace(/[&<>"']/g, function (c) {
              return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
            });
          }
          function pad(n) { return n < 10 ? '0' + n : '' + n; }
          function offsetAt(s, ms) {
            var o = s.offsets[0][1];
            for (var i = 0; i < s.offsets.length && ms >= s.offsets[i][0]; i++) o = s.offsets[i][1];
            return o;
          }
          // A local date-time of the scenario's zone: 2026-06-01 07:31:05.
          function local(s, ms) {
            var d = new Date(ms + offsetAt(s, ms));
            return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' +
              pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds());
          }
          // The offset from the scenario's start: +31m05s, +2h03m00s, +3d04h05m.
          function rel(s, ms) {
            var t = Math.round((ms - s.startMs) / 1000), sign = t < 0 ? '-' : '+';
            t = Math.abs(t);
            var d = Math.floor(t / 86400), h = Math.floor(t % 86400 / 3600), m = Math.floor(t % 3600 / 60), sec = t % 60;
            if (d) return sign + d + 'd' + pad(h) + 'h' + pad(m) + 'm';
            if (h) return sign + h + 'h' + pad(m) + 'm' + pad(sec) + 's';
            return sign + m + 'm' + pad(sec) + 's';
          }
          function when(s, ms) { return ms < 0 ? 'at the end' : local(s, ms) + ' (' + rel(s, ms) + ')'; }
          function millis(s, ms) { var x = ((ms % 1000) + 1000) % 1000; return local(s, ms) + '.' + ('00' + x).slice(-3) + ' (' + rel(s, ms) + ')'; }

          // MARK: - Layout (time runs down; quiet stretches shrink, busy ones get a row per event)

          function gap(dt, Z) { return Math.min(Z.gap, Z.gap * Math.log10(1 + dt / 100) / 3); }

          function layout(s, z) {
            var Z = ZOOMS[z], items = [];
            s.frames.forEach(function (f, i) { items.push([f[0], 0, i]); });
            s.marks.forEach(function (m, i) { items.push([m[0], 1, i]); });
            s.checks.forEach(function (c, i) { if (c[0] >= 0) items.push([c[0], 2, i]); });
            s.faults.forEach(function (f, i) { items.push([f[0], 3, i]); });
            s.moments.forEach(function (m, i) { items.push([m[0], 4, i]); });
            items.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
            var pts = [[s.startMs, TOP]], y = TOP, last = s.startMs, pos = [[], [], [], [], []];
            items.forEach(function (it) {
              if (it[0] > last) { y += gap(it[0] - last, Z); last = it[0]; }
              pts.push([it[0], y]);
              pos[it[1]][it[2]] = y;
              if (it[1] < 3) y += Z.row;
            });
            var end = s.endMs;
            s.frames.forEach(function (f) { end = Math.max(end, f[1], f[6]); });
            if (end > last) { y += gap(end - last, Z); pts.push([end, y]); }
            return { pts: pts, pos: pos, height: y + 40, z: z };
          }

          function yAt(L, t) {
            var p = L.pts, lo = 0, hi = p.length - 1;
            if (t <= p[0][0]) return p[0][1];
            if (t >= p[hi][0]) return p[hi][1];
            while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (p[mid][0] <= t) lo = mid; else hi = mid; }
            var a = p[lo], b = p[lo + 1];
            return b[0] === a[0] ? a[1] : a[1] + (b[1] - a[1]) * (t - a[0]) / (b[0] - a[0]);
          }

          function tAt(L, y) {
            var p = L.pts, lo = 0, hi = p.length - 1;
            if (y <= p[0][1]) return p[0][0];
            if (y >= p[hi][1]) return p[hi][0];
            while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (p[mid][1] <= y) lo = mid; else hi = mid; }
            var a = p[lo], b = p[lo + 1];
            return b[1] === a[1] ? a[0] : Math.round(a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]));
          }

          // MARK: - Drawing

          function drawTimeline(s, L) {
            var Z = ZOOMS[L.z], o = [], H = L.height, id = s.id;
            o.push('<defs>' + FATES.map(function (f) {
              return '<marker id="ah-' + id + '-' + f + '" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto">' +
                '<path d="M0,0L8,4L0,8z" class="ah ' + f + '"/></marker>';
            }).join('') + '</defs>');
            o.push('<rect class="bg" x="0" y="0" width="' + W + '" height="' + H + '"/>');
            s.faults.forEach(function (f, i) {
              var y1 = L.pos[3][i], y2 = yAt(L, f[1]);
              o.push('<g class="fault" data-fault="' + esc(f[2]) + '" data-from="' + f[0] + '" data-to="' + f[1] + '"><rect x="' + AXIS + '" y="' + y1.toFixed(1) +
                '" width="' + (W - AXIS) + '" height="' + Math.max(2, y2 - y1).toFixed(1) + '"/><text x="' + (AXIS + 4) + '" y="' + (y1 + 11).toFixed(1) + '">' +
                esc(f[2]) + '</text></g>');
            });
            [[PX, 'phone'], [WX, 'watch']].forEach(function (l) {
              o.push('<line class="lane" x1="' + l[0] + '" y1="' + (TOP - 12) + '" x2="' + l[0] + '" y2="' + H + '"/>' +
                '<text class="lane-name" x="' + l[0] + '" y="' + (TOP - 20) + '">' + l[1] + '</text>');
            });
            var lastTick = -1e9;
            L.pts.forEach(function (p) {
              if (p[1] - lastTick < 90) return;
              lastTick = p[1];
              o.push('<text class="tick" x="4" y="' + (p[1] + 4).toFixed(1) + '">' + local(s, p[0]).slice(11) + ' ' + rel(s, p[0]) + '</text>' +
                '<line class="tick-line" x1="' + (AXIS - 8) + '" y1="' + p[1].toFixed(1) + '" x2="' + AXIS + '" y2="' + p[1].toFixed(1) + '"/>');
            });
            s.moments.forEach(function (m, i) {
              var y = L.pos[4][i];
              o.push('<path class="moment" data-moment="' + i + '" d="M' + (AXIS - 2) + ' ' + y.toFixed(1) + 'l5 -5l5 5l-5 5z"/>');
            });
            s.frames.forEach(function (f, i) {
              var y1 = L.pos[0][i], x1 = f[2] === 0 ? PX : WX, x2 = f[2] === 0 ? WX : PX, dir = x2 > x1 ? 1 : -1, fate = FATES[f[5]];
              var retry = / retry$/.test(f[3]), g = '<g data-frame="' + i + '" class="fr ' + fate + (retry ? ' retry' : '') + '">';
              if (f[1] < 0) {
                var xm = (x1 + x2) / 2, ym = y1 + Math.max(2, Z.row * 0.4);
                g += '<line x1="' + x1 + '" y1="' + y1.toFixed(1) + '" x2="' + xm + '" y2="' + ym.toFixed(1) + '"/>' +
                  '<path class="x" d="M' + (xm - 4) + ' ' + (ym - 4).toFixed(1) + 'l8 8m0 -8l-8 8"/>';
              } else {
                var y2 = Math.max(y1, yAt(L, f[1]));
                g += '<line x1="' + x1 + '" y1="' + y1.toFixed(1) + '" x2="' + x2 + '" y2="' + y2.toFixed(1) + '" marker-end="url(#ah-' + id + '-' + fate + ')"/>';
                if (f[6] >= 0) g += '<line class="dup" x1="' + x1 + '" y1="' + (y1 + 2).toFixed(1) + '" x2="' + x2 + '" y2="' + (Math.max(y1, yAt(L, f[6])) + 2).toFixed(1) + '"/>';
              }
              o.push(g + '</g>');
            });
            o.push('<g class="labels"></g>');
            s.marks.forEach(function (m, i) {
              var y = L.pos[1][i], x = m[2] === 0 ? PX : m[2] === 1 ? WX : (PX + WX) / 2;
              o.push('<g class="mk ' + m[1] + '" data-mark="' + m[1] + '"><path d="' + markPath(m[1], x, y) + '"/>' +
                (Z.labels || true ? '<text x="' + (x + 12) + '" y="' + (y + 4).toFixed(1) + '">' + esc(m[3]) + '</text>' : '') + '</g>');
            });
            s.checks.forEach(function (c, i) {
              if (c[0] < 0) return;
              var y = L.pos[2][i];
              o.push('<g class="ck ' + (c[1] ? 'pass' : 'fail') + '" data-check="' + (c[1] ? 'pass' : 'fail') + '" data-index="' + i + '">' +
                '<circle cx="' + CX + '" cy="' + y.toFixed(1) + '" r="5"/><text x="' + (CX + 10) + '" y="' + (y + 4).toFixed(1) + '">' +
                (c[1] ? '✓ ' : '✗ ') + esc(c[2]) + '</text></g>');
            });
            o.push('<line class="cursor" x1="' + AXIS + '" x2="' + W + '" y1="-10" y2="-10"/>');
            return o.join('');
          }

          // Frame labels are drawn for the frames near the visible part of the diagram only (and
          // again as it scrolls): thousands of labels cost the browser seconds to lay out, the
          // frames themselves (every one an element) do not.
          function drawLabels(st) {
            var Z = ZOOMS[st.L.z], g = st.svg.querySelector('g.labels');
            if (!g) return;
            if (!Z.labels) { g.innerHTML = ''; return; }
            var sc = st.sec.querySelector('.scroller'), view = sc.clientHeight || 1000;
            var top = sc.scrollTop - view, bottom = sc.scrollTop + 2 * view, pos = st.L.pos[0], s = st.s, o = [];
            var lo = 0, hi = pos.length;
            while (lo < hi) { var mid = (lo + hi) >> 1; if (pos[mid] < top) lo = mid + 1; else hi = mid; }
            for (var i = lo; i < pos.length && pos[i] <= bottom; i++) {
              var f = s.frames[i], x1 = f[2] === 0 ? PX : WX, dir = f[2] === 0 ? 1 : -1, fate = FATES[f[5]];
              o.push('<text data-label-of="' + i + '" x="' + (x1 + dir * 8) + '" y="' + (pos[i] - 3).toFixed(1) + '"' + (dir < 0 ? ' text-anchor="end"' : '') +
                '>' + esc(f[3]) + (fate !== 'delivered' ? ' · ' + fate : '') + '</text>');
            }
            g.innerHTML = o.join('');
          }

          function markPath(kind, x, y) {
            switch (kind) {
              case 'kill': return 'M' + (x - 6) + ' ' + (y - 6) + 'l12 12m0 -12l-12 12';
              case 'restart': return 'M' + (x - 6) + ' ' + y + 'a6 6 0 1 0 6 -6l-2 -3m2 3l-3 2';
              case 'clock': return 'M' + (x - 6) + ' ' + y + 'a6 6 0 1 0 12 0a6 6 0 1 0 -12 0M' + x + ' ' + y + 'v-4M' + x + ' ' + y + 'h3';
              case 'reset': return 'M' + (PX - 10) + ' ' + y + 'H' + (WX + 10);
              default: return 'M' + (x - 6) + ' ' + (y + 5) + 'l4 -10l4 10l4 -10';
            }
          }

        """#
}
