// The scenes page: a whole screen drawn and priced on every device, and side by side on the devices chosen. The
// browser tests read the body's data-updates.
/* global CONFIG, $, failure, deviceCheckboxes */
'use strict';

const state = {
    scene: CONFIG.scenes[0], device: 'iphone-5', show: '', steady: '', 'reduce-transparency': '', compare: '',
};
// The checkboxes, each a key whose value is '1' when ticked.
const CHECKBOXES = ['steady', 'reduce-transparency'];
let token = '', revision = 0;

CONFIG.scenes.forEach(s => $('scene').add(new Option(s, s)));
CONFIG.devices.forEach(d => $('device').add(new Option(d.name + ' (' + d.id + ')', d.id)));
CONFIG.overlays.forEach(o => $('show').add(new Option(o, o)));

// The API's query (the side-by-side view's devices, `compare`, are the page's own: in its URL only).
function query() {
    const q = new URLSearchParams();
    for (const k in state) {
        if (state[k] !== '' && k !== 'compare') {
            q.set(k, state[k]);
        }
    }
    return q.toString();
}

const ENTITIES = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
const escapeHTML = text => String(text).replace(/[&<>"]/g, c => ENTITIES[c]);
// Every picture's URL carries the uploads' revision: a picture of another uploaded scene is never reused.
const withRevision = q => q + '&rev=' + revision;
const refusals = list => list.length ? 'Not shown: ' + list.map(r => `${r.deviceName}: ${r.reason}`).join('; ') : '';

// A picture's load (or failure), awaited.
function loaded(img) {
    return img.complete && img.naturalWidth > 0 ? Promise.resolve() : new Promise(resolve => {
        img.onload = resolve;
        img.onerror = resolve;
    });
}

// The scene on each chosen device, each screen to one scale of points, with its frame rate, range and command.
async function compare() {
    if (!state.compare) {
        $('compare').innerHTML = '';
        $('compare-refused').textContent = '';
        return;
    }
    const q = new URLSearchParams(query());
    q.delete('device');
    const r = await fetch('/compare.json?' + withRevision(q.toString()) + '&devices=' + state.compare);
    if (!r.ok) {
        $('compare').innerHTML = '';
        $('compare-refused').textContent = await failure(r);
        return;
    }
    const answer = await r.json();
    const k = Math.min(1, 320 / Math.max(1, ...answer.shown.map(d => d.screenPoints[0])));
    const px = v => Math.round(v * k) + 'px';
    const tile = d => {
        const e = d.sceneEstimate, picture = '/scene.png?' + withRevision(d.query);
        return `<figure class="device" data-device="${d.device}">`
            + `<figcaption><b>${escapeHTML(d.deviceName)}</b> · ${d.scale}× · screen ${d.screenPoints.join('×')} pt`
            + `<br>${e.fps.toFixed(0)} fps (80 % range ${e.fpsRange[0].toFixed(0)}–${e.fpsRange[1].toFixed(0)}), `
            + `${e.totalMs.toFixed(2)} ms, effect views ${e.path}`
            + (e.styleNotes || []).map(n => '<br>' + escapeHTML(n)).join('') + '</figcaption>'
            + `<div class="screen" style="width:${px(d.screenPoints[0])}"><a href="${picture}" target="_blank">`
            + `<img alt="${escapeHTML(d.deviceName)}" src="${picture}"></a></div>`
            + `<input class="command" readonly value="${escapeHTML(d.command)}"></figure>`;
    };
    $('compare').innerHTML = answer.shown.map(tile).join('');
    $('compare-refused').textContent = refusals(answer.refused);
    await Promise.all([...$('compare').querySelectorAll('img')].map(loaded));
}

// The controls, the URL, the command line, the picture and then every device's price, in that order.
async function update() {
    const page = new URLSearchParams(query());
    if (state.compare) {
        page.set('compare', state.compare);
    }
    history.replaceState(null, '', '?' + page.toString());
    for (const k of ['scene', 'device', 'show']) {
        $(k).value = state[k];
    }
    for (const k of CHECKBOXES) {
        $(k).checked = state[k] === '1';
    }
    const chosen = state.compare.split(',');
    for (const box of $('compare-devices').querySelectorAll('input')) {
        box.checked = chosen.includes(box.value);
    }
    const command = await fetch('/command.json?' + query());
    $('command').value = command.ok ? (await command.json()).command : '';
    const picture = await fetch('/scene.png?' + withRevision(query()));
    if (!picture.ok) {
        $('error').textContent = await failure(picture);
        return;
    }
    $('screen').src = URL.createObjectURL(await picture.blob());
    $('error').textContent = '';
    await new Promise(r => {
        $('screen').onload = r;
    });
    const scene = 'scene=' + encodeURIComponent(state.scene)
        + (state['reduce-transparency'] ? '&reduce-transparency=1' : '');
    const [all, fits] = await Promise.all([
        fetch('/scene.json?' + withRevision(scene) + '&device=all'),
        fetch('/compare.json?' + withRevision(scene) + '&devices=all'),
    ]);
    if (!all.ok) {
        $('error').textContent = await failure(all);
        return;
    }
    $('all-refused').textContent = fits.ok ? refusals((await fits.json()).refused) : '';
    const header = '<tr><th>device</th><th>fps</th><th>80 % range</th><th>GPU %</th><th>offscreen</th>'
        + '<th>frame ms</th><th>notes</th></tr>';
    const row = r => `<tr class="${r.device === state.device ? 'picked' : ''}"><td>${r.deviceName}</td>`
        + `<td>${r.fps.toFixed(0)}</td><td>${r.fpsRange[0].toFixed(0)}–${r.fpsRange[1].toFixed(0)} fps</td>`
        + `<td>${r.gpuPercent.toFixed(0)}</td><td>${r.offscreenPasses}</td><td>${r.totalMs.toFixed(2)}</td>`
        + `<td>${[...r.warnings, ...(r.styleNotes || [])].map(escapeHTML).join('; ')}</td></tr>`;
    $('all').innerHTML = header + (await all.json()).map(row).join('');
    await compare();
    document.body.dataset.updates = (+(document.body.dataset.updates || 0) + 1).toString();
}

for (const k of ['scene', 'device', 'show']) {
    $(k).addEventListener('change', () => {
        state[k] = $(k).value;
        update();
    });
}
deviceCheckboxes(ids => {
    state.compare = ids;
    update();
});
for (const k of CHECKBOXES) {
    $(k).addEventListener('change', () => {
        state[k] = $(k).checked ? '1' : '';
        update();
    });
}
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
    revision = (await (await fetch('/state.json')).json()).revision;
    if (![...$('scene').options].some(o => o.value === 'uploaded')) {
        $('scene').add(new Option('uploaded: ' + file.name, 'uploaded'));
    }
    state.scene = 'uploaded';
    update();
});

(async () => {
    const s = await (await fetch('/state.json')).json();
    token = s.token;
    revision = s.revision;
    const q = new URLSearchParams(location.search);
    for (const k in state) {
        if (q.has(k)) {
            state[k] = q.get(k);
        }
    }
    update();
})();
