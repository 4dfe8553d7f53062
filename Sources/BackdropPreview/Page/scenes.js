// The scenes page: a whole screen drawn and priced on every device. The browser tests read the body's
// data-updates.
/* global CONFIG, $, failure */
'use strict';

const state = {scene: CONFIG.scenes[0], device: 'iphone-5', show: '', steady: ''};
let token = '';

CONFIG.scenes.forEach(s => $('scene').add(new Option(s, s)));
CONFIG.devices.forEach(d => $('device').add(new Option(d.name + ' (' + d.id + ')', d.id)));
CONFIG.overlays.forEach(o => $('show').add(new Option(o, o)));

function query() {
    const q = new URLSearchParams();
    for (const k in state) {
        if (state[k] !== '') {
            q.set(k, state[k]);
        }
    }
    return q.toString();
}

const escapeHTML = text => text.replace(/[&<>]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;'})[c]);

// The controls, the URL, the command line, the picture and then every device's price, in that order.
async function update() {
    history.replaceState(null, '', '?' + query());
    for (const k of ['scene', 'device', 'show']) {
        $(k).value = state[k];
    }
    $('steady').checked = state.steady === '1';
    const command = await fetch('/command.json?' + query());
    $('command').value = command.ok ? (await command.json()).command : '';
    const picture = await fetch('/scene.png?' + query());
    if (!picture.ok) {
        $('error').textContent = await failure(picture);
        return;
    }
    $('screen').src = URL.createObjectURL(await picture.blob());
    $('error').textContent = '';
    await new Promise(r => {
        $('screen').onload = r;
    });
    const all = await fetch('/scene.json?scene=' + encodeURIComponent(state.scene) + '&device=all');
    if (!all.ok) {
        $('error').textContent = await failure(all);
        return;
    }
    const header = '<tr><th>device</th><th>fps</th><th>80 % range</th><th>GPU %</th><th>offscreen</th>'
        + '<th>frame ms</th><th>warnings</th></tr>';
    const row = r => `<tr class="${r.device === state.device ? 'picked' : ''}"><td>${r.deviceName}</td>`
        + `<td>${r.fps.toFixed(0)}</td><td>${r.fpsRange[0].toFixed(0)}–${r.fpsRange[1].toFixed(0)} fps</td>`
        + `<td>${r.gpuPercent.toFixed(0)}</td><td>${r.offscreenPasses}</td><td>${r.totalMs.toFixed(2)}</td>`
        + `<td>${r.warnings.map(escapeHTML).join('; ')}</td></tr>`;
    $('all').innerHTML = header + (await all.json()).map(row).join('');
    document.body.dataset.updates = (+(document.body.dataset.updates || 0) + 1).toString();
}

for (const k of ['scene', 'device', 'show']) {
    $(k).addEventListener('change', () => {
        state[k] = $(k).value;
        update();
    });
}
$('steady').addEventListener('change', () => {
    state.steady = $('steady').checked ? '1' : '';
    update();
});
$('upload').addEventListener('change', async () => {
    const file = $('upload').files[0];
    if (!file) {
        return;
    }
    const headers = {'Backdrop-Token': token, 'Backdrop-Name': encodeURIComponent(file.name)};
    const r = await fetch('/scene', {method: 'POST', body: file, headers});
    if (!r.ok) {
        $('error').textContent = await failure(r);
        return;
    }
    if (![...$('scene').options].some(o => o.value === 'uploaded')) {
        $('scene').add(new Option('uploaded: ' + file.name, 'uploaded'));
    }
    state.scene = 'uploaded';
    update();
});

(async () => {
    token = (await (await fetch('/state.json')).json()).token;
    const q = new URLSearchParams(location.search);
    for (const k in state) {
        if (q.has(k)) {
            state[k] = q.get(k);
        }
    }
    update();
})();
