// The preview page: the effect over a picture, its frame and vibrant content dragged on it, and its estimate.
// Globals the browser tests read: previewTimings, and the body's data-busy, data-renders, data-last-ms and
// data-estimated.
/* global CONFIG, $, failure */
'use strict';

const stage = $('stage'), frameBox = $('frame'), contentBox = $('content');
// The state, named as the API names it; defaults are left out of the URL.
const DEFAULTS = {
    algorithm: 'system', style: 'light', frame: '', scale: '1', device: '', path: 'auto', exact: '',
    sigma: '20', saturation: '1.8', tint: '1,1,1', 'tint-alpha': '0.3', at: '',
};
const CONTROLS = ['algorithm', 'style', 'device', 'scale', 'path', 'sigma', 'saturation', 'tint', 'tint-alpha'];
const state = Object.assign({}, DEFAULTS);
let picture = null, content = null, token = '';
let busy = false, pending = false, firstChange = null, lastFrame = null;
window.previewTimings = [];

CONFIG.styles.concat(['custom', 'tint']).forEach(s => $('style').add(new Option(CONFIG.styleLabels[s] || s, s)));
CONFIG.devices.forEach(d => $('device').add(new Option(d.name + ' (' + d.id + ')', d.id)));

const numbers = s => s.split(',').map(Number);

function readURL() {
    const q = new URLSearchParams(location.search);
    for (const k in state) {
        if (q.has(k)) {
            state[k] = q.get(k);
        }
    }
}

// The state as the API's query: empty values, the default algorithm, the custom parameters of a style that has
// none, what image-effects ignores, and a content position without content are left out.
function query() {
    const q = new URLSearchParams();
    for (const k in state) {
        if (state[k] === '' || state[k] === DEFAULTS[k] && k === 'algorithm') {
            continue;
        }
        const custom = ['sigma', 'saturation', 'tint', 'tint-alpha'].includes(k);
        if (custom && state.style !== 'custom' && !(k === 'tint' && state.style === 'tint')) {
            continue;
        }
        if (state.algorithm === 'image-effects' && ['path', 'exact', 'at'].includes(k)) {
            continue;
        }
        if (k === 'at' && !content) {
            continue;
        }
        q.set(k, state[k]);
    }
    return q.toString();
}

function controls() {
    for (const k of CONTROLS) {
        $(k).value = state[k];
    }
    $('exact').checked = state.exact === '1';
    $('custom').style.display = state.style === 'custom' || state.style === 'tint' ? '' : 'none';
}

function place(box, rect) {
    if (!picture) {
        return;
    }
    const k = stage.clientWidth / picture[0];
    Object.assign(box.style, {
        left: rect[0] * k + 'px', top: rect[1] * k + 'px', width: rect[2] * k + 'px', height: rect[3] * k + 'px',
    });
}

function placeBoxes() {
    place(frameBox, numbers(state.frame));
    if (lastFrame) {
        place($('view'), lastFrame);
    }
    contentBox.style.display = content ? 'block' : 'none';
    if (content) {
        const a = state.at ? numbers(state.at) : numbers(state.frame).slice(0, 2);
        place(contentBox, [a[0], a[1], content[0], content[1]]);
    }
}

function changed() {
    if (firstChange === null) {
        firstChange = performance.now();
    }
    history.replaceState(null, '', '?' + query());
    placeBoxes();
    render();
}

// The command line is printed by the server from the same request as the picture: one the CLI accepts.
async function command() {
    $('download').href = '/render.png?' + query();
    const r = await fetch('/command.json?' + query());
    $('command').value = r.ok ? (await r.json()).command : '';
}

// Latest wins: one request in flight; changes meanwhile make one more, with the newest state.
async function render() {
    if (busy) {
        pending = true;
        return;
    }
    busy = true;
    pending = false;
    document.body.dataset.busy = '1';
    const since = firstChange;
    firstChange = null;
    await command();
    const shown = Math.ceil(numbers(state.frame)[2] * stage.clientWidth / picture[0] * devicePixelRatio);
    const url = '/render.rgba?' + query() + '&display-width=' + shown;
    try {
        const response = await fetch(url);
        if (!response.ok) {
            $('error').textContent = await failure(response);
        } else {
            const f = numbers(response.headers.get('Backdrop-Frame'));
            const n = numbers(response.headers.get('Backdrop-Size'));
            const pixels = new Uint8ClampedArray(await response.arrayBuffer());
            const view = $('view');
            view.width = n[0];
            view.height = n[1];
            view.getContext('2d').putImageData(new ImageData(pixels, n[0], n[1]), 0, 0);
            lastFrame = f;
            place(view, f);
            $('error').textContent = '';
            await new Promise(r => requestAnimationFrame(r));
            const ms = performance.now() - since;
            window.previewTimings.push(ms);
            document.body.dataset.lastMs = ms.toFixed(1);
            document.body.dataset.renders = window.previewTimings.length;
            $('timing').textContent = 'updated in ' + ms.toFixed(0) + ' ms';
        }
    } finally {
        // The flag is this function's own lock, set above and released here; nothing else writes it.
        // eslint-disable-next-line require-atomic-updates
        busy = false;
    }
    if (pending) {
        render();
    } else {
        delete document.body.dataset.busy;
        estimate();
    }
}

function countEstimate() {
    document.body.dataset.estimated = (+(document.body.dataset.estimated || 0) + 1).toString();
}

// The estimate panel (the picked device, or the iPad Air) and every device's row.
async function estimate() {
    if (state.algorithm === 'image-effects') {
        $('estimate').textContent = 'the cost model prices the system blur';
        $('all').innerHTML = '';
        countEstimate();
        return;
    }
    const q = query().replace(/(^|&)device=[^&]*/, ''), id = state.device || 'ipad-air';
    const one = await fetch('/estimate.json?' + q + '&device=' + id);
    if (!one.ok) {
        $('estimate').textContent = await failure(one);
        return;
    }
    const e = await one.json();
    const verdict = r => `<span class="${r.verdict.split(' ')[0]}">${r.verdict}</span>`;
    const range = r => `${r.totalMsRange[0].toFixed(1)}–${r.totalMsRange[1].toFixed(1)}`;
    $('estimate').innerHTML = `<b>${e.deviceName}</b>${state.device ? '' : ' (pick a device)'}: `
        + `${e.totalMs.toFixed(2)} ms (80 % range ${range(e)}), ${e.fps.toFixed(0)} fps, ${verdict(e)}, ${e.path}`;
    $('timeline').src = '/estimate.svg?' + q + '&device=' + id;
    const all = await fetch('/estimate.json?' + q + '&device=all');
    if (!all.ok) {
        return;
    }
    const header = '<tr><th>device</th><th>ms</th><th>80 % range</th><th>fps</th><th>verdict</th><th>path</th></tr>';
    const row = r => `<tr><td>${r.deviceName}</td><td>${r.totalMs.toFixed(2)}</td><td>${range(r)}</td>`
        + `<td>${r.fps.toFixed(0)}</td><td>${verdict(r)}</td><td>${r.path}</td></tr>`;
    $('all').innerHTML = header + (await all.json()).map(row).join('');
    countEstimate();
}

// Dragging a box moves it; dragging the frame's corner resizes the frame. Coordinates are the picture's pixels.
function drag(e, what) {
    e.preventDefault();
    e.stopPropagation();
    const k = picture[0] / stage.clientWidth, x0 = e.clientX, y0 = e.clientY;
    const f0 = numbers(state.frame), a0 = state.at ? numbers(state.at) : f0.slice(0, 2);

    function move(m) {
        const dx = Math.round((m.clientX - x0) * k), dy = Math.round((m.clientY - y0) * k), f = f0.slice();
        if (what === 'corner') {
            f[2] = Math.max(8, Math.min(picture[0] - f[0], f0[2] + dx));
            f[3] = Math.max(8, Math.min(picture[1] - f[1], f0[3] + dy));
        } else if (what === 'frame') {
            f[0] = Math.max(0, Math.min(picture[0] - f[2], f0[0] + dx));
            f[1] = Math.max(0, Math.min(picture[1] - f[3], f0[1] + dy));
        }
        if (what === 'content') {
            state.at = [a0[0] + dx, a0[1] + dy].join(',');
        } else {
            state.frame = f.join(',');
        }
        changed();
    }

    function up() {
        removeEventListener('pointermove', move);
        removeEventListener('pointerup', up);
    }

    addEventListener('pointermove', move);
    addEventListener('pointerup', up);
}

frameBox.addEventListener('pointerdown', e => drag(e, 'frame'));
frameBox.firstElementChild.addEventListener('pointerdown', e => drag(e, 'corner'));
contentBox.addEventListener('pointerdown', e => drag(e, 'content'));

for (const k of CONTROLS) {
    $(k).addEventListener('change', () => {
        state[k] = $(k).value;
        if (k === 'device' && state.device) {
            state.scale = String(CONFIG.devices.find(d => d.id === state.device).scale);
            state.path = 'auto';
        }
        controls();
        changed();
    });
}
$('exact').addEventListener('change', () => {
    state.exact = $('exact').checked ? '1' : '';
    changed();
});
$('copy').addEventListener('click', () => {
    $('command').select();
    if (navigator.clipboard) {
        navigator.clipboard.writeText($('command').value);
    } else {
        document.execCommand('copy');
    }
});

// An uploaded picture (/input) starts over with a new frame; uploaded content (/vibrancy) at the frame's corner.
async function upload(input, path) {
    const file = input.files[0];
    if (!file) {
        return;
    }
    const headers = {'Backdrop-Token': token, 'Backdrop-Name': encodeURIComponent(file.name)};
    const r = await fetch(path, {method: 'POST', body: file, headers});
    if (!r.ok) {
        $('error').textContent = await failure(r);
        return;
    }
    if (path === '/input') {
        state.frame = '';
    }
    state.at = '';
    await start();
}

$('upload').addEventListener('change', () => upload($('upload'), '/input'));
$('vibrancy').addEventListener('change', () => upload($('vibrancy'), '/vibrancy'));
$('unvibrant').addEventListener('click', async () => {
    await fetch('/vibrancy', {method: 'DELETE', headers: {'Backdrop-Token': token}});
    state.at = '';
    await start();
});

// The server's picture, token and content; the frame defaults to a band across the picture's lower half.
async function start() {
    const s = await (await fetch('/state.json')).json();
    picture = [s.width, s.height];
    token = s.token;
    content = s.vibrancy ? [s.vibrancy.width, s.vibrancy.height] : null;
    if (!state.frame) {
        state.frame = [picture[0] * 0.1, picture[1] * 0.55, picture[0] * 0.8, picture[1] * 0.3]
            .map(Math.round).join(',');
    }
    $('out').src = '/input.png?' + Date.now();
    lastFrame = null;
    $('view').width = 0;
    controls();
    changed();
}

addEventListener('resize', placeBoxes);
readURL();
start();
