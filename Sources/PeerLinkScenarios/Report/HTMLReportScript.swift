extension HTMLReportAssets {
    /// The page's script: reads the data block, lays out and draws each scenario's space-time
    /// diagram (time down, a lane per device, one `data-frame` element per frame at every zoom
    /// level), shows a frame's details on hover or click, shows the screens of the moment at or
    /// before a picked point, and filters the checks and the logs. `#pick=SCENARIO,MS` and
    /// `#zoom=N` in the address choose the first moment and zoom. When it is done it sets
    /// `data-ready` and `data-frames-drawn` on `<html>`.
    static let script = #"""
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

          // MARK: - A scenario's section

          function section(s, index) {
            var sec = document.createElement('section'), digestsEqual = s.phoneDigest && s.phoneDigest === s.watchDigest;
            sec.className = 'scenario ' + (s.passed ? 'pass' : 'fail');
            sec.id = s.id;
            sec.setAttribute('data-scenario', s.name);
            var facts = [s.steps + ' steps', 'virtual time ' + rel(s, s.startMs + s.virtualMs).slice(1), 'wall ' + s.wallMs + ' ms',
              s.frames.length + ' frames', s.moments.length + ' moments'];
            sec.innerHTML = '<h2><span class="badge">' + (s.passed ? 'PASS' : 'FAIL') + '</span> ' + esc(s.name) + ' <small>' + esc(s.file) + ' · ' +
              esc(s.mode) + ' mode · from ' + esc(local(s, s.startMs)) + ' ' + esc(s.zone) + '</small></h2>' +
              '<p class="facts">' + facts.map(esc).join(' · ') + '</p>' +
              '<p class="digests">digests: phone <code>' + esc(s.phoneDigest.slice(0, 16) || '—') + '…</code> watch <code>' + esc(s.watchDigest.slice(0, 16) || '—') +
              '…</code> <b class="' + (digestsEqual ? 'ok' : 'bad') + '">' + (digestsEqual ? 'equal' : 'DIFFERENT') + '</b>' +
              (s.traceHash ? ' · trace <code>' + esc(s.traceHash.slice(0, 16)) + '…</code>' : '') + '</p>' +
              (s.error ? '<p class="error">error: ' + esc(s.error) + '</p>' : '') +
              s.notes.map(function (n) { return '<p class="note">' + esc(n) + '</p>'; }).join('') +
              '<div class="cols"><div class="diagram"><div class="toolbar">zoom ' +
              ZOOMS.map(function (z, i) { return '<button data-zoom="' + i + '">' + z.name + '</button>'; }).join('') +
              '<span class="legend">' + FATES.map(function (f) { return '<i class="' + f + '">' + f + '</i>'; }).join('') +
              '<i class="retry">retry</i><i class="fault-key">fault</i></span></div>' +
              '<div class="scroller"><svg data-view="timeline" xmlns="http://www.w3.org/2000/svg" width="' + W + '"></svg></div></div>' +
              '<div class="side"><div class="picker"><label>screens at <select data-moments>' +
              s.moments.map(function (m, i) { return '<option value="' + i + '">' + esc(rel(s, m[0]) + ' · ' + m[1]) + '</option>'; }).join('') +
              '</select></label> <span class="moment-when"></span></div>' +
              '<div class="details">Hover or click a frame for its details; click anywhere on the diagram to see the screens as they were then.</div>' +
              '<div class="screens">' + s.screens.map(function (k) {
                return '<figure data-screen="' + esc(k) + '" class="' + k.split('/')[0] + '"><figcaption>' + esc(k) + '</figcaption><div class="shot"></div></figure>';
              }).join('') + '</div></div></div>' +
              '<div class="lists"><div class="checks"><h3>Checks</h3><input type="search" placeholder="filter checks" data-filter="checks"> ' +
              '<label><input type="checkbox" data-failed-only> failed only</label><table><tbody>' +
              s.checks.map(function (c, i) {
                return '<tr class="' + (c[1] ? 'pass' : 'fail') + '" data-check-row="' + i + '" data-at="' + c[0] + '"><td>' + esc(when(s, c[0])) + '</td><td>' +
                  (c[1] ? '✓' : '✗') + '</td><td>' + esc(c[4]) + '</td><td>' + esc(c[2]) + '</td><td>' + esc(c[3]) + '</td></tr>';
              }).join('') + '</tbody></table></div>' +
              '<div class="logs"><h3>Logs</h3><input type="search" placeholder="filter logs" data-filter="logs"> <label><input type="checkbox" data-problems-only> warnings and errors only</label>' +
              '<div class="log-lines">' + s.logs.map(function (l) {
                var level = /\b(warning|error|fatal):/.test(l[1]) ? 'problem' : 'info';
                return '<div class="log ' + level + '" data-at="' + l[0] + '"><span>' + esc(l[0] >= 0 ? when(s, l[0]) : '') + '</span> ' + esc(l[1]) + '</div>';
              }).join('') + '</div></div></div>';
            var state = { s: s, sec: sec, svg: sec.querySelector('svg[data-view="timeline"]'), L: null, moment: s.moments.length - 1, pinned: -1 };
            wire(state);
            return state;
          }

          function draw(st, z) {
            st.L = layout(st.s, z);
            st.svg.setAttribute('height', Math.ceil(st.L.height));
            st.svg.setAttribute('viewBox', '0 0 ' + W + ' ' + Math.ceil(st.L.height));
            st.svg.innerHTML = drawTimeline(st.s, st.L);
            st.svg.setAttribute('data-zoom', ZOOMS[z].name);
            drawLabels(st);
            st.sec.querySelectorAll('[data-zoom]').forEach(function (b) { b.classList.toggle('on', +b.getAttribute('data-zoom') === z); });
            showMoment(st, st.moment);
          }

          function showFrame(st, i) {
            var s = st.s, f = s.frames[i], from = f[2] === 0 ? 'phone' : 'watch', to = f[2] === 0 ? 'watch' : 'phone';
            var arr = f[1] < 0 ? 'never (dropped)' : millis(s, f[1]) + ' — ' + (f[1] - f[0]) + ' ms on the way';
            st.sec.querySelector('.details').innerHTML = '<b>frame #' + i + '</b> ' + from + ' → ' + to + ': <b>' + esc(f[3]) + '</b><br>' +
              f[4] + ' bytes · ' + FATES[f[5]] + (/ retry$/.test(f[3]) ? ' · a retry of a transfer frame sent before' : '') + '<br>sent ' +
              millis(s, f[0]) + '<br>arrived ' + arr + (f[6] >= 0 ? '<br>again ' + millis(s, f[6]) : '');
          }

          function showMoment(st, k) {
            var s = st.s;
            if (!s.moments.length) return;
            k = Math.max(0, Math.min(s.moments.length - 1, k));
            st.moment = k;
            var m = s.moments[k];
            st.sec.querySelectorAll('figure[data-screen]').forEach(function (fig) {
              var idx = m[2][fig.getAttribute('data-screen')], shot = fig.querySelector('.shot');
              shot.innerHTML = idx === undefined ? '<p class="down">not running</p>' : R.svgs[idx];
              fig.setAttribute('data-moment', k);
            });
            st.sec.querySelector('select[data-moments]').value = String(k);
            st.sec.querySelector('.moment-when').textContent = local(s, m[0]) + ' (' + rel(s, m[0]) + ')';
            if (st.L) {
              var c = st.svg.querySelector('.cursor'), y = st.L.pos[4][k];
              c.setAttribute('y1', y.toFixed(1));
              c.setAttribute('y2', y.toFixed(1));
              st.svg.querySelectorAll('.moment.on').forEach(function (e) { e.classList.remove('on'); });
              var d = st.svg.querySelector('[data-moment="' + k + '"]');
              if (d) d.classList.add('on');
            }
          }

          // The screens as they were at `t`: the last moment at or before it.
          function pickTime(st, t) {
            var k = 0;
            st.s.moments.forEach(function (m, i) { if (m[0] <= t) k = i; });
            showMoment(st, k);
          }

          function wire(st) {
            var pending = false;
            st.sec.querySelector('.scroller').addEventListener('scroll', function () {
              if (pending) return;
              pending = true;
              requestAnimationFrame(function () { pending = false; if (st.L) drawLabels(st); });
            });
            st.sec.querySelectorAll('[data-zoom]').forEach(function (b) {
              b.addEventListener('click', function () { draw(st, +b.getAttribute('data-zoom')); });
            });
            st.svg.addEventListener('mouseover', function (e) {
              var g = e.target.closest && e.target.closest('[data-frame]');
              if (g && st.pinned < 0) showFrame(st, +g.getAttribute('data-frame'));
            });
            st.svg.addEventListener('click', function (e) {
              var g = e.target.closest && e.target.closest('[data-frame]');
              if (g) {
                var i = +g.getAttribute('data-frame');
                st.pinned = st.pinned === i ? -1 : i;
                showFrame(st, i);
                pickTime(st, st.s.frames[i][0]);
                return;
              }
              var box = st.svg.getBoundingClientRect();
              pickTime(st, tAt(st.L, (e.clientY - box.top) * (st.L.height / box.height)));
            });
            st.sec.querySelector('select[data-moments]').addEventListener('change', function (e) { showMoment(st, +e.target.value); });
            var checks = st.sec.querySelector('[data-filter="checks"]'), failed = st.sec.querySelector('[data-failed-only]');
            function filterChecks() {
              var q = checks.value.toLowerCase();
              st.sec.querySelectorAll('[data-check-row]').forEach(function (r) {
                r.hidden = (failed.checked && r.classList.contains('pass')) || (q && r.textContent.toLowerCase().indexOf(q) < 0);
              });
            }
            checks.addEventListener('input', filterChecks);
            failed.addEventListener('change', filterChecks);
            st.sec.querySelectorAll('[data-check-row]').forEach(function (r) {
              r.addEventListener('click', function () {
                var t = +r.getAttribute('data-at');
                if (t < 0) return;
                pickTime(st, t);
                st.sec.querySelector('.scroller').scrollTop = Math.max(0, yAt(st.L, t) - 200);
              });
            });
            var logs = st.sec.querySelector('[data-filter="logs"]'), problems = st.sec.querySelector('[data-problems-only]');
            function filterLogs() {
              var q = logs.value.toLowerCase();
              st.sec.querySelectorAll('.log').forEach(function (r) {
                r.hidden = (problems.checked && !r.classList.contains('problem')) || (q && r.textContent.toLowerCase().indexOf(q) < 0);
              });
            }
            logs.addEventListener('input', filterLogs);
            problems.addEventListener('change', filterLogs);
          }

          // MARK: - The page

          var main = document.getElementById('report'), toc = document.getElementById('toc'), states = [];
          R.scenarios.forEach(function (s, i) {
            var st = section(s, i);
            main.appendChild(st.sec);
            states.push(st);
            toc.insertAdjacentHTML('beforeend', '<a href="#' + s.id + '" class="' + (s.passed ? 'pass' : 'fail') + '">' + esc(s.name) + '</a>');
          });
          var start = { zoom: 0 };
          (location.hash.slice(1) || '').split('&').forEach(function (kv) {
            var p = kv.split('=');
            if (p[0] === 'zoom') start.zoom = Math.max(0, Math.min(ZOOMS.length - 1, +p[1] || 0));
            if (p[0] === 'pick') { var a = p[1].split(','); start.pick = [+a[0], +a[1]]; }
          });
          states.forEach(function (st) {
            var z = st.s.frames.length > 3000 && start.zoom === 0 ? 1 : start.zoom;
            draw(st, z);
          });
          if (start.pick && states[start.pick[0]]) pickTime(states[start.pick[0]], start.pick[1]);
          document.documentElement.setAttribute('data-frames-drawn', String(document.querySelectorAll('[data-frame]').length));
          document.documentElement.setAttribute('data-ready-ms', String(Math.round(performance.now())));
          document.documentElement.setAttribute('data-ready', '1');
        })();
        """#
}
