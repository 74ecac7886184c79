extension HTMLReportAssets {
    /// The second half of `HTMLReportAssets.script`: a scenario's section, zoom, picking a moment,
    /// the hover details, the filters, and the page's start.
    static let scriptSectionsAndPage = #"""
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
