// The preview page: the effect over a picture, its frame and vibrant content dragged on it, and its estimate.
// Globals the browser tests read: previewTimings, and the body's data-busy, data-renders, data-last-ms,
// data-estimated and data-compared.
/* global CONFIG, $, failure, deviceCheckboxes */
'use strict';

const stage = $('stage'), frameBox = $('frame'), contentBox = $('content');
// The state, named as the API names it; defaults are left out of the URL.
const DEFAULTS = {
    algorithm: 'system', style: 'light', frame: '', scale: '1', device: '', path: 'auto', exact: '',
    sigma: '20', saturation: '1.8', tint: '1,1,1', 'tint-alpha': '0.3', at: '', compare: '', enlarge: '',
    'vibrancy-style': '', 'reduce-transparency': '', 'increase-contrast': '',
};
// The checkboxes, each a key whose value is '1' when ticked.
const CHECKBOXES = ['exact', 'enlarge', 'reduce-transparency', 'increase-contrast'];
// The keys image-effects does not take, and those that need vibrant content.
const SYSTEM_ONLY = ['path', 'exact', 'at', 'vibrancy-style', 'reduce-transparency', 'increase-contrast'];
const WITH_CONTENT = ['at', 'vibrancy-style'];
// The page's own keys, kept in the page's URL but not sent to the API: the side-by-side view's devices and whether a
// small picture may be enlarged past 1:1.
const PAGE_KEYS = ['compare', 'enlarge'];
const CONTROLS = [
    'algorithm', 'style', 'device', 'scale', 'path', 'sigma', 'saturation', 'tint', 'tint-alpha', 'vibrancy-style',
];
const state = Object.assign({}, DEFAULTS);
let picture = null, content = null, token = '', revision = 0;
// Each estimate and side-by-side update gets a number; an answer to an older one is dropped.
let estimates = 0, comparisons = 0;
let busy = false, pending = false, firstChange = null, lastFrame = null;
window.previewTimings = [];

CONFIG.styles.concat(['custom', 'tint']).forEach(s => $('style').add(new Option(CONFIG.styleLabels[s] || s, s)));
CONFIG.devices.forEach(d => $('device').add(new Option(d.name + ' (' + d.id + ')', d.id)));
CONFIG.vibrancyLevels.forEach(l => $('vibrancy-style').add(new Option(l, l)));

const numbers = s => s.split(',').map(Number);
const ENTITIES = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
const escapeHTML = text => String(text).replace(/[&<>"]/g, c => ENTITIES[c]);
// Every picture's URL carries the uploads' revision besides the query: a picture of other uploads is never reused.
const withRevision = q => q + (q ? '&' : '') + 'rev=' + revision;

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
        if (state[k] === '' || state[k] === DEFAULTS[k] && k === 'algorithm' || PAGE_KEYS.includes(k)) {
            continue;
        }
        const custom = ['sigma', 'saturation', 'tint', 'tint-alpha'].includes(k);
        if (custom && state.style !== 'custom' && !(k === 'tint' && state.style === 'tint')) {
            continue;
        }
        if (state.algorithm === 'image-effects' && SYSTEM_ONLY.includes(k)) {
            continue;
        }
        if (WITH_CONTENT.includes(k) && !content) {
            continue;
        }
        q.set(k, state[k]);
    }
    return q.toString();
}

// The page's URL: the API's query and the page's own keys.
function pageQuery() {
    const q = new URLSearchParams(query());
    PAGE_KEYS.filter(k => state[k]).forEach(k => q.set(k, state[k]));
    return q.toString();
}

// The picture at its own resolution, as wide as the column and as tall as the window allow (the frame's corner is
// then always on screen); past 1:1 only when asked.
function fit() {
    if (!picture) {
        return;
    }
    const column = $('main').clientWidth, room = innerHeight - (stage.getBoundingClientRect().top + scrollY) - 16;
    const most = state.enlarge === '1' ? Infinity : picture[0];
    stage.style.width = Math.floor(Math.max(64, Math.min(most, column, picture[0] * room / picture[1]))) + 'px';
}

function controls() {
    for (const k of CONTROLS) {
        $(k).value = state[k];
    }
    for (const k of CHECKBOXES) {
        $(k).checked = state[k] === '1';
    }
    const chosen = state.compare.split(',');
    for (const box of $('compare-devices').querySelectorAll('input')) {
        box.checked = chosen.includes(box.value);
    }
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
    history.replaceState(null, '', '?' + pageQuery());
    fit();
    placeBoxes();
    render();
}

// The command line is printed by the server from the same request as the picture: one the CLI accepts; beside it
// the notes that command prints (a frame clipped to the picture, vibrant content that cannot show).
async function command() {
    $('download').href = '/render.png?' + withRevision(query());
    const r = await fetch('/command.json?' + query());
    const answer = r.ok ? await r.json() : { command: '', notes: [] };
    $('command').value = answer.command;
    $('notes').textContent = answer.notes.join(' ');
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
    const url = '/render.rgba?' + withRevision(query()) + '&display-width=' + shown;
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
        compare();
    }
}

function countEstimate() {
    document.body.dataset.estimated = (+(document.body.dataset.estimated || 0) + 1).toString();
}

// A picture's load (or failure), awaited.
function loaded(img) {
    return img.complete && img.naturalWidth > 0 ? Promise.resolve() : new Promise(resolve => {
        img.onload = resolve;
        img.onerror = resolve;
    });
}

const verdict = r => `<span class="${r.verdict.split(' ')[0]}">${r.verdict}</span>`;
const range = r => `${r.totalMsRange[0].toFixed(1)}–${r.totalMsRange[1].toFixed(1)}`;
const refusals = list => list.length ? 'Not shown: ' + list.map(r => `${r.deviceName}: ${r.reason}`).join('; ') : '';

// The estimate panel (the picked device, or the iPad Air), its timeline, and every device's row with the devices
// the view does not fit on and why. An answer to an older state is dropped.
async function estimate() {
    const mine = ++estimates;
    if (state.algorithm === 'image-effects') {
        $('estimate').textContent = 'the cost model prices the system blur';
        $('all').innerHTML = '';
        $('all-refused').textContent = '';
        $('timeline').removeAttribute('src');
        countEstimate();
        return;
    }
    const q = withRevision(query().replace(/(^|&)device=[^&]*/, '')), id = state.device || 'ipad-air';
    const [one, all, fits] = await Promise.all([
        fetch('/estimate.json?' + q + '&device=' + id), fetch('/estimate.json?' + q + '&device=all'),
        fetch('/compare.json?' + q + '&devices=all'),
    ]);
    const answers = await Promise.all([one, all, fits].map(r => r.ok ? r.json() : failure(r)));
    if (mine !== estimates) {
        return;
    }
    if (one.ok) {
        const e = answers[0], timeline = '/estimate.svg?' + q + '&device=' + id;
        $('estimate').innerHTML = `<b>${e.deviceName}</b>${state.device ? '' : ' (pick a device)'}: `
            + `${e.totalMs.toFixed(2)} ms (80 % range ${range(e)}), ${e.fps.toFixed(0)} fps, ${verdict(e)}, ${e.path}`
            + `${e.vibrancy ? ', with vibrant content' : ''}`;
        $('timeline').src = timeline;
        $('timeline-link').href = timeline;
    } else {
        // No figure, no timeline: neither may show an earlier state's.
        $('estimate').textContent = answers[0];
        $('timeline').removeAttribute('src');
        $('timeline-link').href = '#';
    }
    const header = '<tr><th>device</th><th>ms</th><th>80 % range</th><th>fps</th><th>verdict</th><th>path</th></tr>';
    const row = r => `<tr><td>${r.deviceName}</td><td>${r.totalMs.toFixed(2)}</td><td>${range(r)}</td>`
        + `<td>${r.fps.toFixed(0)}</td><td>${verdict(r)}</td><td>${r.path}</td></tr>`;
    $('all').innerHTML = all.ok ? header + answers[1].map(row).join('') : '';
    $('all-refused').textContent = fits.ok ? refusals(answers[2].refused) : answers[2];
    if (one.ok) {
        await loaded($('timeline'));
    }
    if (mine === estimates) {
        countEstimate();
    }
}

// The side-by-side view: the frame on each chosen device, each at its own scale (the query's scale, path and device
// left out: each device's are used), in its screen drawn to one scale of points for all, with its price, range,
// path and command line. Each picture's URL is the device's request, the one its command line prints.
async function compare() {
    const mine = ++comparisons;
    if (!state.compare) {
        $('compare').innerHTML = '';
        $('compare-refused').textContent = '';
        document.body.dataset.compared = (+(document.body.dataset.compared || 0) + 1).toString();
        return;
    }
    const q = new URLSearchParams(query());
    ['scale', 'path', 'device'].forEach(k => q.delete(k));
    const r = await fetch('/compare.json?' + withRevision(q.toString()) + '&devices=' + state.compare);
    if (mine !== comparisons) {
        return;
    }
    if (!r.ok) {
        $('compare').innerHTML = '';
        $('compare-refused').textContent = await failure(r);
        document.body.dataset.compared = (+(document.body.dataset.compared || 0) + 1).toString();
        return;
    }
    const answer = await r.json();
    const widest = Math.max(1, ...answer.shown.map(d => d.screenPoints[0]));
    const k = Math.min(1, 400 / widest);
    const px = v => Math.round(v * k) + 'px';
    const tile = d => {
        const e = d.estimate, pixels = '/frame.png?' + withRevision(d.query);
        const shown = Math.ceil(d.viewPoints[0] * k * devicePixelRatio);
        const price = e ? `${e.totalMs.toFixed(2)} ms (80 % range ${range(e)}), ${e.fps.toFixed(0)} fps, `
            + `${verdict(e)}, ${e.path}` : 'not priced: the cost model prices the system blur';
        return `<figure class="device" data-device="${d.device}">`
            + `<figcaption><b>${escapeHTML(d.deviceName)}</b> · ${d.scale}× · screen ${d.screenPoints.join('×')} pt`
            + ` · view ${d.viewPoints.map(v => +v.toFixed(1)).join('×')} pt<br>${price}</figcaption>`
            + `<div class="screen" style="width:${px(d.screenPoints[0])};height:${px(d.screenPoints[1])}">`
            + `<a href="${pixels}" target="_blank"><img alt="${escapeHTML(d.deviceName)}" src="${pixels}`
            + `&amp;display-width=${shown}" style="width:${px(d.viewPoints[0])}"></a></div>`
            + `<p class="note">${escapeHTML(d.note)}</p>`
            + `<a class="download" download="${d.device}.png" href="/render.png?${withRevision(d.query)}">PNG</a> `
            + `<input class="command" readonly value="${escapeHTML(d.command)}"></figure>`;
    };
    $('compare').innerHTML = answer.shown.map(tile).join('');
    $('compare-refused').textContent = refusals(answer.refused);
    await Promise.all([...$('compare').querySelectorAll('img')].map(loaded));
    if (mine === comparisons) {
        document.body.dataset.compared = (+(document.body.dataset.compared || 0) + 1).toString();
    }
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
for (const k of CHECKBOXES) {
    $(k).addEventListener('change', () => {
        state[k] = $(k).checked ? '1' : '';
        changed();
    });
}
deviceCheckboxes(ids => {
    state.compare = ids;
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
    // Emptied, so that choosing the same file again is a change.
    $('vibrancy').value = '';
    state.at = '';
    await start();
});

// The server's picture, token and content; the frame defaults to a band across the picture's lower half.
async function start() {
    const s = await (await fetch('/state.json')).json();
    picture = [s.width, s.height];
    token = s.token;
    revision = s.revision;
    content = s.vibrancy ? [s.vibrancy.width, s.vibrancy.height] : null;
    if (!state.frame) {
        state.frame = [picture[0] * 0.1, picture[1] * 0.55, picture[0] * 0.8, picture[1] * 0.3]
            .map(Math.round).join(',');
    }
    $('out').src = '/input.png?' + withRevision('');
    lastFrame = null;
    $('view').width = 0;
    controls();
    changed();
}

addEventListener('resize', () => {
    fit();
    placeBoxes();
});
readURL();
start();
