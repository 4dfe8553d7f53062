// The review page that `backdrop review DIR --serve` serves: each failed case (name, figures, the limits it broke)
// with a div.viewer that review.js turns into its views, an accept button per case, a filter on the names and a
// button that accepts every case shown. The cases are built here, before review.js sets the viewers up when the
// document has loaded. Accepting posts to /accept; a case accepted gets data-accepted="yes" and its paths, a
// refusal its error, beside it.
/* global CONFIG, $, failure */
'use strict';

function make(tag, className, text) {
    const node = document.createElement(tag);
    if (className) {
        node.className = className;
    }
    if (text) {
        node.textContent = text;
    }
    return node;
}

// Posts `body` to /accept; the paths written, or throws the server's one-line error.
async function accept(body) {
    const response = await fetch('/accept', {
        method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
    });
    if (!response.ok) {
        throw new Error(await failure(response));
    }
    return (await response.json()).written;
}

// What a press does: the request, then the result or the error in `status` and on the cases accepted.
async function pressed(body, status, accepted) {
    status.className = 'status';
    status.textContent = 'accepting…';
    try {
        const written = await accept(body);
        for (const section of accepted) {
            section.dataset.accepted = 'yes';
        }
        status.textContent = 'written: ' + written.join(', ');
    } catch (error) {
        status.className = 'status error';
        status.textContent = error.message;
    }
}

const sections = CONFIG.cases.map(item => {
    const section = make('section', 'case');
    section.dataset.name = item.name;
    section.append(make('h2', null, item.name), make('p', 'figures', item.message));
    if (item.failedLimits.length > 0) {
        section.append(make('p', 'limits', 'failed: ' + item.failedLimits.join(', ')));
    }
    const viewer = make('div', 'viewer');
    viewer.dataset.expected = item.expected;
    viewer.dataset.actual = item.actual;
    if (item.diff) {
        viewer.dataset.diff = item.diff;
    }
    if (item.box) {
        viewer.dataset.box = item.box;
    }
    const button = make('button', 'accept', 'accept as the new golden');
    button.type = 'button';
    const status = make('span', 'status');
    button.addEventListener('click', () => pressed({names: [item.name]}, status, [section]));
    section.append(viewer, button, status);
    $('cases').append(section);
    return section;
});

$('summary').textContent = CONFIG.cases.length + ' failed case' + (CONFIG.cases.length === 1 ? '' : 's') +
    (CONFIG.into ? '; accepted goldens go under ' + CONFIG.into : '; accepted goldens replace the old ones');

$('filter').addEventListener('input', () => {
    const text = $('filter').value.toLowerCase();
    for (const section of sections) {
        section.hidden = !section.dataset.name.toLowerCase().includes(text);
    }
});

$('accept-all').addEventListener('click', () => {
    const shown = sections.filter(section => !section.hidden);
    const body = shown.length === sections.length ? {all: true} : {names: shown.map(s => s.dataset.name)};
    if (shown.length === 0) {
        $('all-status').textContent = 'no case is shown';
        return;
    }
    pressed(body, $('all-status'), shown);
});
